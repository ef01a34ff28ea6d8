"""asm6502/patterns.py: a pattern compiled at its first use behaves as the compiled pattern."""

from __future__ import annotations

import re

import pytest

from asm6502.patterns import LazyPattern


def test_compiled_at_first_use_then_the_compiled_methods():
    lazy = LazyPattern(r"(a+)(b)?", re.IGNORECASE)
    with pytest.raises(AttributeError):
        lazy.__getattribute__("match")  # (nothing compiled before the first use)
    assert lazy.match("AAb").groups() == ("AA", "b")
    compiled = re.compile(r"(a+)(b)?", re.IGNORECASE)
    for text in ("", "xaab", "aA", "ab ab"):
        assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        assert lazy.findall(text) == compiled.findall(text) and lazy.split(text) == compiled.split(text)
        assert bool(lazy.fullmatch(text)) == bool(compiled.fullmatch(text))
    assert lazy.sub("-", "aab c") == "- c" and lazy.pattern == "(a+)(b)?"


@pytest.mark.parametrize("text, ok", [(".men", True), (".MEN", True), ("lbl .Mend", True), (".me", False)])
def test_the_macro_end_needs_no_ignorecase(text, ok):
    from asm6502.asm.macros import _MEN

    assert bool(_MEN.match(text)) is ok
