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


@pytest.mark.parametrize("text", ["table+2", "a*8+b", "$ff-%101/3", "x.y<2", "1!2&3^4>1", "99999+1", "lab+$12345"])
def test_chain_reading_equals_the_parser(text):
    """The regular-expression reading of a blank-free chain builds the parser's tree (or leaves it to the parser)."""
    fast = ex._parse_chain(text)
    parser = ex._Parser(text)
    try:
        slow = parser.chain()
    except ex.ExprError:
        assert fast is None
        return
    assert fast is None or repr(fast) == repr(slow)
