"""Installing the package leaves the checkout as it was: 'pip install .' builds in place, and its
work folder is not build/ (the committed artifacts) but the ignored .pybuild/ (pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from helpers import ROOT


def tracked_and_new(folder) -> dict[str, bytes]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=folder,
                            capture_output=True, check=True).stdout.decode().split("\0")
    return {n: (folder / n).read_bytes() for n in listed if n and (folder / n).is_file()}


@pytest.mark.slow
def test_pip_install_leaves_the_checkout_as_it_was(tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    copy = tmp_path / "asm6502"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(copy)], check=True)
    for name, data in tracked_and_new(ROOT).items():  # what would be committed, not only HEAD
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes(data)
    before = tracked_and_new(copy)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheel"), str(copy)],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.skip(f"pip could not build here: {proc.stderr.strip().splitlines()[-1:]}")
    assert tracked_and_new(copy) == before
    assert not (copy / "build" / "lib").exists() and not list((copy / "build").glob("bdist*"))
