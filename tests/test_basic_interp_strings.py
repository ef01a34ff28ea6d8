"""BASIC V2's string functions at their edges, and small random programs, against the real ROM.

tests/fixtures/basic_rom/strings.json (LEFT$ RIGHT$ MID$ with every count and start 0..256 and
past the string, CHR$ 0..256, ASC, VAL, STR$, LEN) and random_strings.json (300 generated
programs, errors included) and random_limits.json (300 programs of statements at their limits)
hold what the ROM printed (cbmbasic oracle: the ROM's own 6502 code),
written by tools/basic_rom_strings.py.  The same programs run here through asm6502's interpreter.

The oracle has no screen: a printed line of 40 characters or more comes out in one piece.  On the
C64 it fills 40-column rows, and a row filled to its last column leaves the cursor at the start of
the next row, so the CR after it gives an empty row (screen editor, $E716).
"""

from __future__ import annotations

import json

import pytest
from helpers import FIXTURES

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize

TABLES = json.loads((FIXTURES / "basic_rom" / "strings.json").read_text())
RANDOM = json.loads((FIXTURES / "basic_rom" / "random_strings.json").read_text())
LIMITS = json.loads((FIXTURES / "basic_rom" / "random_limits.json").read_text())


def screen_after(rom_output: str) -> str:
    """The oracle's output as rows of the C64's screen, with the READY message after the run."""
    rows = []
    for line in (rom_output + "\nREADY.\n").split("\n")[:-1]:
        rows.extend(line[i:i + 40] for i in range(0, max(len(line), 1), 40))
        if line and len(line) % 40 == 0:
            rows.append("")
    return "\n".join(row.rstrip() for row in rows) + "\n"


def ours(source: str) -> str:
    return run_prg(tokenize(source + "\n").prg, input_text="", options=RunOptions(seed=0)).transcript


@pytest.mark.parametrize("case", TABLES, ids=[c["source"][-60:] for c in TABLES])
def test_string_function_table_as_the_rom(case):
    assert ours(case["source"]) == screen_after(case["rom"])


def test_random_string_programs_as_the_rom():
    """All 300 generated programs in one test (fast); the failures are listed by seed."""
    bad = [c["seed"] for c in RANDOM if ours(c["source"]) != screen_after(c["rom"])]
    assert not bad, f"{len(bad)} of {len(RANDOM)} differ from the ROM, seeds {bad[:20]}"


def test_random_limit_programs_as_the_rom():
    """300 programs of statements at their limits (ON past its list, FOR steps, array bounds,
    POKE 256, integer overflow, READ past the DATA, RETURN/NEXT alone): the ROM's screen."""
    bad = [c["seed"] for c in LIMITS if ours(c["source"]) != screen_after(c["rom"])]
    assert not bad, f"{len(bad)} of {len(LIMITS)} differ from the ROM, seeds {bad[:20]}"


@pytest.mark.parametrize(("expr", "want"), [
    ('right$("hello",9)', "hello"),
    ('right$("1e3",4)', "1e3"),
    ('right$("hello",5)', "hello"),
    ('right$("hello",4)', "ello"),
    ('right$("hello",0)', ""),
    ('left$("hello",9)', "hello"),
    ('mid$("hello",6)', ""),
    ('mid$("hello",2,255)', "ello"),
])
def test_string_function_examples(expr, want):
    """A few cases of the tables, readable: RIGHT$ with a count past the string gives all of it
    (RIGHT$ $B72C: count - LEN borrows, LEFT$'s "whole string" branch at $B706 takes it)."""
    assert ours(f'10 print "["{expr}"]"') == f"[{want.upper()}]\n\nREADY.\n"
