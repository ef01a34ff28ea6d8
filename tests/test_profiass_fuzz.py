"""The structural fuzzer against the live original (slow; needs the oracle, ``$PROFIASS_HOME``).

``tests/profiass_fuzz_gen.py`` writes programs that vary blanks around ``:`` ``;`` ``=`` ``,``,
labels and definitions in every statement position, quotes holding ``{$hh}`` codes, ``:`` and
``;``, case, ``^`` indentation and long lines.  Seeds 0..999 are committed with the original's
answer (``fuzz/seedNNNN`` in tests/test_profiass_oracle.py, default run); this test takes fresh
seeds (from 100000 on), runs each through the original and through ``asm6502`` and reports every
disagreement; at most 1.5 % may differ (0 % measured).  ``ASM6502_FUZZ_COUNT`` sets how
many (default 2000, about 2.5 minutes; 10000 take about 12 minutes).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from helpers import oracle_home
from profiass_fuzz_gen import generate
from test_profiass_oracle import DEVIATIONS, check_case

ROOT = Path(__file__).resolve().parents[1]
ORACLE_HOME = oracle_home()
FIRST_SEED = 100_000
MAX_DISAGREE = 0.015  # of the programs: the disagreements not fixed yet (see below)


def _oracle_tool():
    spec = importlib.util.spec_from_file_location("profiass_oracle_tool", ROOT / "tools" / "profiass_oracle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.skipif(not ORACLE_HOME.is_dir(), reason="the Profi-Ass oracle ($PROFIASS_HOME) is not set up here")
def test_fresh_fuzz_programs_as_the_original(tmp_path, capsys):
    tool = _oracle_tool()
    count = int(os.environ.get("ASM6502_FUZZ_COUNT", "2000"))
    saved = list(sys.path), sys.dont_write_bytecode
    disagree = []
    try:
        for seed in range(FIRST_SEED, FIRST_SEED + count):
            source = generate(seed)
            record, _ = tool.run(source)
            case_dir = tmp_path / str(seed)
            case_dir.mkdir()
            try:
                check_case(case_dir, f"fuzz/seed{seed}", record, source, {}, capsys)
            except AssertionError as exc:
                disagree.append(f"seed {seed}: {str(exc).splitlines()[0]}")
    finally:
        sys.path[:], sys.dont_write_bytecode = saved
    assert not DEVIATIONS.keys() & {f"fuzz/seed{s}" for s in range(FIRST_SEED, FIRST_SEED + count)}
    # measured on 2026-12-01: 0 of seeds 100000-100999 differ (3 did before two rules were fixed: '.asc'
    # ignores what follows its closing quote, '.asc ";:x y12{$1d}:wxqjh =  23459;sag "ja"', 100886,
    # 100953; a quote after an expression with nothing or ':' after it is SYNTAX 5,
    # 'ldx #"{$1d} : eor #" "', 100514); the bound keeps new disagreements from growing
    assert len(disagree) <= MAX_DISAGREE * count, (
        f"{len(disagree)} of {count} fuzz programs differ from the original:\n" + "\n".join(disagree[:40]))
