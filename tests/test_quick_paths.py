"""The assembler's quick ways never change a result.

Simple expressions are read with regular expressions instead of the parser
(``expr._parse_simple``); symbols and simple chains are evaluated without the
tree walker (``_Assembly.quick_value``); a main file without control flow runs
through ``_Assembly.run_straight`` instead of ``run_scope``; a simple program
takes simple.py's quick sweep (``tests/test_simple.py`` checks that one too).  Every program here
is assembled twice -- as it is, and with the quick ways switched off -- with
and without a listing, and everything a user can see must be the same: bytes,
symbols, listing, diagnostics.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_differential_64tass import ProgramGen
from test_fuzz import FUZZ_OPTIONS, FUZZ_SHORT, asm_inputs

from asm6502 import assembler, expr
from asm6502.assembler import Options, assemble
from asm6502.diagnostics import DiagnosticError
from helpers import ROOT


def outcome(text: str, options: Options) -> tuple:
    """Everything visible about one assembly (rendered, so named tuples compare by type too)."""
    try:
        r = assemble(text, "q.asm", options)
    except DiagnosticError as exc:
        return ("errors", [d.render() for d in exc.diagnostics])
    rows = [(repr(row.span), row.address, row.data, row.text, row.value, row.page_break, row.title) for row in r.listing]
    return ("ok", r.segments, r.symbols, r.labels, [d.render() for d in r.diagnostics], rows)


def both_ways(text: str, options: Options, monkeypatch) -> tuple[tuple, tuple]:
    quick = outcome(text, options)
    with monkeypatch.context() as m:
        m.setattr(expr, "_parse_simple", lambda text: None)
        m.setattr(assembler._Assembly, "quick_value", lambda self, node: assembler._LONG_WAY)
        m.setattr(assembler._Assembly, "quick_symbol", lambda self, name: assembler._LONG_WAY)
        m.setattr(assembler._Assembly, "straight_program", lambda self: None)
        m.setattr(assembler, "_assemble_simple", lambda text, options: None)
        long_way = outcome(text, options)
    return quick, long_way


@pytest.mark.parametrize("listing", [True, False])
@pytest.mark.parametrize("seed", range(20))
def test_random_programs(seed, listing, monkeypatch):
    ours, _ = ProgramGen(seed).program(120)
    quick, long_way = both_ways(ours, Options(listing=listing), monkeypatch)
    assert quick[0] == "ok"
    assert quick == long_way


@pytest.mark.parametrize("listing", [True, False])
def test_superhirn_source(listing, monkeypatch):
    text = (ROOT / "sources" / "superhirn.asm").read_text()
    quick, long_way = both_ways(text, Options(listing=listing), monkeypatch)
    assert quick[0] == "ok"
    assert quick == long_way


@settings(max_examples=FUZZ_SHORT, deadline=None)
@given(text=asm_inputs, which=st.integers(0, 3))
def test_fuzzed_sources(text, which):
    options = replace(FUZZ_OPTIONS[which % 2], listing=which < 2)
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, long_way = both_ways(text, options, monkeypatch)
    assert quick == long_way
