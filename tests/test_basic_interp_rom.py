"""BASIC runs compared with what the real ROM printed (tests/fixtures/basic_rom/runs.json,
written by tools/basic_rom_runs.py with the cbmbasic oracle: the ROM's own 6502 code).

The oracle's script mode prints no "READY."; on the screen the ROM's READY message is
CR, "READY.", CR ($A378), so the screen after the run is the oracle's output plus that,
each row right-trimmed (cursor-right shows as a blank in the oracle's output).

Corners of PTRGET ($B08B): ST, TI and TI$ are reserved as plain variables only (creating
TI or ST is ?SYNTAX, $B11D-$B136); ST(, TI(, ST%, TI%, ST$ are ordinary names; FN names go
through GETFNM ($B3E1): ``%`` is ?SYNTAX, ``$`` ?TYPE MISMATCH; FOR and DEF parameters
refuse integers and arrays (SUBFLG).  LIST ($A69C) sends CR before each listed line.
"""

from __future__ import annotations

import json

import pytest
from helpers import FIXTURES

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize

RUNS = json.loads((FIXTURES / "basic_rom" / "runs.json").read_text())


def screen_after(rom_output: str) -> str:
    rows = (rom_output + "\nREADY.\n").split("\n")[:-1]
    return "\n".join(row.rstrip() for row in rows) + "\n"


@pytest.mark.parametrize("case", RUNS, ids=[c["source"] for c in RUNS])
def test_run_matches_the_rom(case):
    result = run_prg(tokenize(case["source"] + "\n").prg, input_text="", options=RunOptions(seed=0))
    assert result.transcript == screen_after(case["rom"])
