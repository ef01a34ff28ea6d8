"""tools/lorenz.py on a sample of Wolfgang Lorenz's C64 test suite 2.15: one test of each
group, each alone on the C64 (the suite and the ROM images stay outside the repository:
ASM6502_LORENZ names the suite's folder, the ROMs are found as ``asm6502 run`` finds them)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from asm6502.emu.c64 import roms as romlib

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import lorenz

SUITE = os.environ.get("ASM6502_LORENZ")
ROMS = romlib.find_roms().roms
pytestmark = [
    pytest.mark.skipif(not SUITE, reason="ASM6502_LORENZ does not name the folder of Lorenz's test suite 2.15"),
    pytest.mark.skipif(ROMS is None, reason="no C64 ROM images (ASM6502_ROMS)"),
]

# (the short ones of each group: a few million cycles each)
SAMPLE = ["ldab", "laxz", "trap16", "cpuport", "mmufetch", "branchwrap", "finish"]


def test_sample_passes_alone():
    results = lorenz.run_tests(SUITE, ROMS.origin, SAMPLE, jobs=1)
    assert [(r.name, r.passed, r.detail) for r in results] == [(n, True, "") for n in SAMPLE]


def test_groups_cover_every_test():
    names = lorenz.test_names(SUITE)
    assert len(names) == 265
    assert {lorenz.group_of(n) for n in names} == set(lorenz.GROUPS)
