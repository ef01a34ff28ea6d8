"""Assembler strings to PETSCII (petcat's lower-case convention, C64 Programmer's Reference Guide appendix C)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asm6502.petscii import ascii_to_petscii, char_to_petscii, petscii_to_ascii


@pytest.mark.parametrize("text, codes", [
    ("a", "41"), ("z", "5a"), ("A", "c1"), ("Z", "da"), ("~", "ff"), (" ", "20"), ("0", "30"), ("@", "40"),
    ("_", "5f"), ("^", "5e"), ("\\", "5c"), ("hello World", "48454c4c4f20d74f524c44"), ("", ""),
    # the C64 key caps a listing may print: the same codes as their ASCII stand-ins
    ("£", "5c"), ("↑", "5e"), ("←", "5f"), ("π", "ff"), ("a£b", "415c42"),
])
def test_codes(text, codes):
    assert ascii_to_petscii(text).hex() == codes


@pytest.mark.parametrize("text, bad", [("`", "`"), ("a{b", "{"), ("x\x7f", "\x7f"), ("tab\t", "\t"), ("é", "é"), ("ok\u212a", "\u212a")])
def test_characters_without_a_code(text, bad):
    with pytest.raises(ValueError, match=re.escape(f"character {bad!r} has no PETSCII equivalent")):
        ascii_to_petscii(text)


_ASCII_STAND_IN = str.maketrans("£↑←π", "\\^_~")


@given(st.text(alphabet=st.characters(max_codepoint=0x17F), max_size=12))
def test_a_whole_string_converts_as_its_characters_do(text):
    codes = [char_to_petscii(ch) for ch in text]
    if None in codes:
        with pytest.raises(ValueError):
            ascii_to_petscii(text)
    else:
        assert ascii_to_petscii(text) == bytes(codes)
        assert petscii_to_ascii(ascii_to_petscii(text)) == text.translate(_ASCII_STAND_IN)


@pytest.mark.parametrize(("text", "pos", "want"), [
    ('"{$93}"', 1, (0x93, 5)),
    ('"{clr}"', 1, (0x93, 5)),
    ('"{CBM-R}x', 1, (0xB2, 7)),
    ('"{SHIFT-+}"', 1, (0xDB, 9)),
    ('"{2 down}"', 1, None),  # a count: more than one key
    ('"{nosuchkey}"', 1, None),
    ('"{$93"', 1, None),
    ('"a"', 1, None),
])
def test_brace_code(text, pos, want):
    from asm6502.petscii import brace_code

    assert brace_code(text, pos) == want
