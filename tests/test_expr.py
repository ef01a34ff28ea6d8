"""Expressions: the tree the parser builds, and values as the original computes them."""

import pytest

from asm6502.asm import expr as ex


@pytest.mark.parametrize(
    "text, tree",
    [
        ("loop", ex.Sym("loop", 0, 4)),
        ("$D020", ex.Num(0xD020, 0, 5)),
        ("%101", ex.Num(5, 0, 4)),
        ("Table+2", ex.Chain(ex.Sym("table", 0, 5), (("+", 5, ex.Num(2, 6, 1)),))),
        ("a*8+b", ex.Chain(ex.Sym("a", 0, 1), (("*", 1, ex.Num(8, 2, 1)), ("+", 3, ex.Sym("b", 4, 1))))),
        ("x < 2", ex.Chain(ex.Sym("x", 0, 1), (("<", 2, ex.Num(2, 4, 1)),))),
        (".lbl", ex.Sym(".lbl", 0, 4)),
        ('"ab"', ex.Num(0x41, 0, 4)),
        ('""', ex.Num(0x22, 0, 2)),
    ],
)
def test_parse(text, tree):
    assert repr(ex.parse(text)) == repr(tree)
