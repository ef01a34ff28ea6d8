"""Expressions: the tree the parser builds, and values as the original computes them."""

import pytest

from asm6502.asm import expr as ex
from asm6502.asm.precedence import is_mixed


@pytest.mark.parametrize(
    "text, tree",
    [
        ("loop", ex.Symbol("loop", "loop", 0, 4)),
        ("LongerName", ex.Symbol("longername", "longerna", 0, 10)),
        ("$D020", ex.Number(0xD020, 0, 5)),
        ("%101", ex.Number(5, 0, 4)),
        ("Table+2", ex.Chain(ex.Symbol("table", "table", 0, 5), (("+", 5, ex.Number(2, 6, 1)),))),
        ("a*8+b", ex.Chain(ex.Symbol("a", "a", 0, 1), (("*", 1, ex.Number(8, 2, 1)), ("+", 3, ex.Symbol("b", "b", 4, 1))))),
        ("x < 2", ex.Chain(ex.Symbol("x", "x", 0, 1), (("<", 2, ex.Number(2, 4, 1)),))),
        ("[a+1]*2", ex.Chain(ex.Chain(ex.Symbol("a", "a", 1, 1), (("+", 2, ex.Number(1, 3, 1)),)), (("*", 5, ex.Number(2, 6, 1)),))),
        ("-*", ex.Negate(ex.Counter(1), 0)),
        (".lbl", ex.Local(".lbl", "lbl", 0, 4)),
        (".abcdefgh", ex.Local(".abcdefgh", "abcdef", 0, 9)),
        ('"ab"', ex.Number(0x41, 0, 4)),
        ('""', ex.Number(0x22, 0, 2)),
    ],
)
def test_parse(text, tree):
    assert ex.parse(text) == tree


@pytest.mark.parametrize(
    "text, values, pc, local, value",
    [
        ("2+3*4", {}, 0, None, 20),  # left to right: no precedence
        ("2+[3*4]", {}, 0, None, 14),
        ("$ffff+2", {}, 0, None, 1),
        ("1<16", {}, 0, None, 0),
        ("300*300", {}, 0, None, 0x5F90),
        ("-1", {}, 0, None, 0xFFFF),
        ("*+3", {}, 0x1000, None, 0x1003),
        ("table+2", {"table": 0x1000}, 0, None, 0x1002),
        ("longername-1", {"longerna": 5}, 0, None, 4),
        (".loop+1", {"loop:01": 7}, 0, ":01", 8),
        (".loop", {"loop:00": 9}, 0, None, 9),
        ("$12345", {}, 0, None, 0x2345),
    ],
)
def test_value(text, values, pc, local, value):
    assert ex.value(ex.parse(text), values, pc, local) == value


@pytest.mark.parametrize(
    "node, value",
    [(ex.LowByte(ex.Number(0x1234, 0, 5)), 0x34), (ex.HighByte(ex.Number(0x1234, 0, 5)), 0x12)],
)
def test_a_macro_argument_with_a_byte_prefix(node, value):
    assert ex.value(node, {}, 0, None) == value


@pytest.mark.parametrize(
    "text, key",
    [("table+1", "table"), ("-missing", "missing"), (".lbl*2", "lbl:00")],
)
def test_a_symbol_without_a_value_is_unknown(text, key):
    with pytest.raises(ex.Unknown) as raised:
        ex.evaluate(text)
    assert raised.value.key == key


@pytest.mark.parametrize(
    "text, offset",
    [("1/0", 1), ("1000*1000", 4), ("99999", 0), ("1+", 2), ("(1", 2), ("lda x", 4), ("*1", 1), ("$1g", 0)],
)
def test_an_error_points_at_its_place(text, offset):
    with pytest.raises(ex.ExprError) as raised:
        ex.evaluate(text)
    assert raised.value.offset == offset


def test_the_trees_share_a_symbols_node_and_key():
    shared: dict = {}
    first, second, third = ex.parse("table+1", shared), ex.parse("2*table", shared), ex.parse("table", shared)
    assert first.first is third is shared["table"]  # (one node a name at the start of an expression)
    assert second.rest[0][2].key is third.key


@pytest.mark.parametrize(
    "text, mixed",
    [("a+b*c", True), ("a*b+c", False), ("[a+b]*c", False), ("-[a+b*c]", True), ("a", False), ("1!2&3", True)],
)
def test_left_to_right_against_the_usual_precedence(text, mixed):
    assert is_mixed(ex.parse(text)) is mixed
