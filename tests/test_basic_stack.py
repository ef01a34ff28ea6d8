"""Nesting in BASIC ends as on the ROM: ?OUT OF MEMORY at the same depth, never a Python RecursionError.

The limits in fixtures/basic_stack_limits.txt were measured with the ROM itself
(tools/basic_stack_limits.py drives mist64/cbmbasic): for each probe, N-1 levels
run and N levels stop with ?OUT OF MEMORY.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from basic_stack_limits import program, read_probes  # noqa: E402

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize

PROBES = read_probes()


def runs_out(text: str) -> bool:
    result = run_prg(tokenize(text, filename="probe").prg, options=RunOptions(seed=0, max_statements=100_000),
                     sys_handler=None)
    assert result.reason in ("end", "error"), result.message
    return result.reason == "error" and "OUT OF MEMORY" in result.message


@pytest.mark.parametrize("name,template,limit", PROBES, ids=[p[0] for p in PROBES])
def test_out_of_memory_at_the_roms_depth(name, template, limit):
    n = int(limit)
    assert not runs_out(program(template, n - 1)), f"{name}: {n - 1} levels run on the ROM"
    assert runs_out(program(template, n)), f"{name}: {n} levels are ?OUT OF MEMORY on the ROM"


@pytest.mark.parametrize("text", [
    "10 def fn a(x)=fn a(x)\n20 print fn a(1)\n",                # endless FN recursion
    "10 print " + "(" * 500 + "1" + ")" * 500 + "\n",            # far beyond the ROM's 35
    "10 print " + "-" * 1000 + "1\n",
    "10 print " + "not " * 1000 + "1\n",
    "10 a=" + "a(" * 500 + "0" + ")" * 500 + "\n",
])
def test_hostile_nesting_is_out_of_memory(text):
    assert runs_out(text)
