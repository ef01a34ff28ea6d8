"""Expression trees: the regular-expression reading of simple expressions equals the parser's."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502 import expr as ex


def parser_tree(text: str) -> str:
    """repr of the tree the character-by-character parser builds, or of the error it raises.

    (Trees are named tuples, equal to any tuple with the same items: reprs compare the node types too.)
    """
    parser = ex._Parser(text)
    try:
        node = parser.chain()
        if parser.peek():
            return f"error: unexpected {parser.peek()!r} at {parser.pos}"
    except ex.ExprError as exc:
        return f"error: {exc.message} at {exc.offset}+{exc.length}"
    return repr(node)


def parse_result(text: str) -> str:
    try:
        return repr(ex.parse(text))
    except ex.ExprError as exc:
        return f"error: {exc.message} at {exc.offset}+{exc.length}"


atoms = st.one_of(
    st.integers(0, 70000).map(str),
    st.integers(0, 70000).map(lambda n: f"${n:x}"),
    st.integers(0, 70000).map(lambda n: f"${n:X}"),
    st.integers(0, 70000).map(lambda n: f"%{n:b}"),
    st.from_regex(r"[A-Za-z][A-Za-z0-9.]{0,9}", fullmatch=True),
    st.sampled_from(["*", "-1", "(a)", '"x"', "", " ", "1a", "$g", "%2", "1.5"]),
)
texts = st.tuples(atoms, st.lists(st.tuples(st.sampled_from("+-*/!&^<> "), atoms), max_size=4)).map(
    lambda t: t[0] + "".join(op + a for op, a in t[1])
)


@settings(max_examples=2000, deadline=None)
@given(texts)
def test_simple_reading_equals_parser(text):
    fast = ex._parse_simple(text)
    expected = parser_tree(text)
    if fast is not None:  # None: the text is the parser's job
        assert repr(fast) == expected
    if expected.startswith("error: unexpected"):
        with pytest.raises(ex.ExprError):
            ex.parse(text)
    else:
        assert parse_result(text) == expected


@pytest.mark.parametrize(
    "text, tree",
    [
        ("loop", ex.Sym("loop", 0, 4)),
        ("$D020", ex.Num(0xD020, 0, 5)),
        ("%101", ex.Num(5, 0, 4)),
        ("Table+2", ex.Chain(ex.Sym("table", 0, 5), (("+", 5, ex.Num(2, 6, 1)),))),
        ("a*8+b", ex.Chain(ex.Sym("a", 0, 1), (("*", 1, ex.Num(8, 2, 1)), ("+", 3, ex.Sym("b", 4, 1))))),
        ("x < 2", ex.Chain(ex.Sym("x", 0, 1), (("<", 2, ex.Num(2, 4, 1)),))),
    ],
)
def test_parse(text, tree):
    assert repr(ex.parse(text)) == repr(tree)
