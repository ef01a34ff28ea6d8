"""ruff and mypy are clean on asm6502/ (their settings: pyproject.toml, [tool.ruff] and [tool.mypy]).

Both come with the ``test`` extra (``pip install -e '.[test]'``); without them these tests skip.
``make lint`` runs the same two commands.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(module: str, *args: str) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_is_clean():
    done = _run("ruff", "check", "--no-cache", "asm6502")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean():
    done = _run("mypy")  # (the files and settings: pyproject.toml)
    assert done.returncode == 0, done.stdout + done.stderr
