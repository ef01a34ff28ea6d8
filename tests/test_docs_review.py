"""Every command of docs/review.md runs as written, in order, from a fresh copy of the repository
(the conventions of tests/test_readme.py: ``sh`` blocks run, ``text output`` blocks must appear)."""

from __future__ import annotations

import os
import subprocess

from helpers import ROOT
from test_readme import EXIT, TIMEOUT, fake_venv, follows, fresh_copy, run_blocks, snapshot

PAGE = "docs/review.md"


def test_every_command_of_the_review_page_runs_as_written(tmp_path):
    copy = tmp_path / "asm6502"
    copy.mkdir()
    fresh_copy(copy)
    fake_venv(copy)
    env = dict(os.environ, PATH=f"{copy / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(copy), PYTHONDONTWRITEBYTECODE="1", COLUMNS="100")
    env.pop("VIRTUAL_ENV", None)
    before = snapshot(copy)
    failures = []
    blocks = run_blocks((ROOT / PAGE).read_text(encoding="utf-8"))
    assert len(blocks) >= 4
    for block in blocks:
        printed = ""
        for line, command in block.commands:
            m = EXIT.search(command)
            want = int(m.group(1)) if m else 0
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=copy, env=env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
            printed += proc.stdout + proc.stderr
            if proc.returncode != want:
                failures.append(f"{PAGE}:{line}: exit {proc.returncode}, not {want}: {command}\n"
                                f"{(proc.stdout + proc.stderr)[-1500:]}")
        if block.expected is not None:
            missing = follows(block.expected, printed)
            if missing is not None:
                failures.append(f"{PAGE}:{block.line}: first line not printed: {missing!r}\n{printed[-2000:]}")
    after = snapshot(copy)
    outside = sorted(name for name in after if name not in before and not name.startswith("scratch/"))
    changed = sorted(name for name in before if after.get(name) != before[name])
    assert not (changed or outside), f"the commands changed {changed} and wrote {outside}"
    assert not failures, "\n\n".join(failures)
