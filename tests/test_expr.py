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


@pytest.mark.parametrize("text", ["table+2", "Table-$0A", "t.1+65535", "x-0", "x+0", "abcdefghij+$ffff", "a+99999", "a+$12345",
                                  "a-1", "a+1-2", "a + 1", "7+a", ".loc+1"])
def test_compile_text_is_compile_node_of_the_parse(text):
    """compile_text's reading of 'symbol+n' (no tree made) gives what the parser and compile_node give, and
    the same tree back (expr.tree_of); other texts go the parser's way (errors too)."""
    try:
        expected = ex.compile_node(ex.parse(text))
    except ex.ExprError as exc:
        with pytest.raises(ex.ExprError) as raised:
            ex.compile_text(text)
        assert (raised.value.message, raised.value.offset) == (exc.message, exc.offset)
        return
    got = ex.compile_text(text)
    assert type(got) is type(expected)
    assert ex.tree_of(got) == ex.tree_of(expected) == ex.parse(text)
    values = {"table": 0x1000, "t.1": 5, "x": 0, "abcdefgh": 0xFFF0, "a": 0x20, "loc:00": 7}
    assert ex.value_of(got, values, 0, None) == ex.value_of(expected, values, 0, None)
