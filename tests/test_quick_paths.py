"""The assembler's quick ways never change a result.

Simple expressions are read with regular expressions instead of the parser
(``expr._parse_simple``), and symbols and simple chains are evaluated without
the tree walker (``_Assembly.quick_value``).  Every program here is assembled
twice -- as it is, and with both quick ways switched off -- and everything a
user can see must be the same: bytes, symbols, listing, diagnostics.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
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
        long_way = outcome(text, options)
    return quick, long_way


@pytest.mark.parametrize("seed", range(20))
def test_random_programs(seed, monkeypatch):
    ours, _ = ProgramGen(seed).program(120)
    quick, long_way = both_ways(ours, Options(), monkeypatch)
    assert quick[0] == "ok"
    assert quick == long_way


def test_superhirn_source(monkeypatch):
    text = (ROOT / "sources" / "superhirn.asm").read_text()
    quick, long_way = both_ways(text, Options(), monkeypatch)
    assert quick[0] == "ok"
    assert quick == long_way


@settings(max_examples=FUZZ_SHORT, deadline=None)
@given(text=asm_inputs)
def test_fuzzed_sources(text):
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, long_way = both_ways(text, FUZZ_OPTIONS[0], monkeypatch)
    assert quick == long_way
