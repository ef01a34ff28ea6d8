"""Every command of docs/typein-english.md runs as written from a fresh copy of the repository, by
the README's conventions (tests/test_readme.py: ``sh`` blocks run, ``text output`` blocks checked)."""

from __future__ import annotations

import os
import subprocess

from helpers import ROOT
from test_readme import fake_venv, follows, fresh_copy, run_blocks, snapshot

PAGE = "docs/typein-english.md"


def test_the_page_has_commands_and_outputs():
    blocks = run_blocks((ROOT / PAGE).read_text(encoding="utf-8"))
    assert sum(len(b.commands) for b in blocks) >= 10 and sum(b.expected is not None for b in blocks) >= 3


def test_every_command_of_the_page_runs_as_written(tmp_path):
    copy = tmp_path / "asm6502"
    copy.mkdir()
    fresh_copy(copy)
    fake_venv(copy)
    env = dict(os.environ, PATH=f"{copy / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1", COLUMNS="100")
    env.pop("VIRTUAL_ENV", None)
    before = snapshot(copy)
    failures = []
    for block in run_blocks((copy / PAGE).read_text(encoding="utf-8")):
        printed = ""
        for line, command in block.commands:
            want = 1 if "# exit 1" in command else 0
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=copy, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
            printed += proc.stdout + proc.stderr
            if proc.returncode != want:
                failures.append(f"{PAGE}:{line}: exit {proc.returncode}, not {want}: {command}\n{(proc.stdout + proc.stderr)[-1500:]}")
        if block.expected is not None:
            missing = follows(block.expected, printed)
            if missing is not None:
                failures.append(f"{PAGE}:{block.line}: first line not printed: {missing!r}\n{printed[-1500:]}")
    after = snapshot(copy)
    changed = sorted(name for name in before if after.get(name) != before[name])
    outside = sorted(name for name in after if name not in before and not name.startswith("scratch/"))
    assert not changed and not outside, (changed, outside)
    assert not failures, "\n\n".join(failures)
