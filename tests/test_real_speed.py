"""Speed on what users run: every real Profi-Ass source of the corpus (test data from elsewhere),
assembled end to end by the command with a listing, within a budget of CPU time (peak memory per
input byte: tests/test_memory.py).

The budget is about five times what the largest real source (fsd64, 1,389 lines) takes on the
project's 2-core machine (0.10 s of CPU for the whole command, start-up included, 17 MB peak;
measured with /usr/bin/time), so that a slow spell of a shared machine does not fail it, and a
change that makes the assembler several times slower on real input does.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import testdata
from helpers import real_file

COLLECTION = "profiass-corpus"
CPU_BUDGET = 0.5  # seconds of CPU for one command, start-up included


@pytest.mark.parametrize("name", testdata.names(COLLECTION, ".src"))
def test_a_real_source_assembles_within_the_budget(tmp_path, name):
    source = real_file(COLLECTION, name)
    with (tmp_path / "stderr").open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "asm6502", str(source), "-o", str(tmp_path / "out.prg"),
                                 "--listing", str(tmp_path / "out.lst"), "-q"], stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(proc.pid, 0)  # this command's own CPU time
    proc.returncode = os.waitstatus_to_exitcode(status)
    took = usage.ru_utime + usage.ru_stime
    # a source with the original's errors exits 1, with its messages; never a traceback
    assert proc.returncode in (0, 1) and "Traceback" not in (tmp_path / "stderr").read_text(), (tmp_path / "stderr").read_text()[-2000:]
    assert took < CPU_BUDGET, f"{name}: {took:.2f} s of CPU (budget {CPU_BUDGET} s)"
