"""Control-code names in listings: petcat, tok64 and 64'er spellings.

Expected codes come from the published tables: VICE petcat's ctrl1/ctrl2/cbmkeys,
TOK64 1.4's "special" list, the 64'er Checksummer instructions (5/85, 11/85), and
the C64 PETSCII chart (e.g. CHR$(147) clears the screen).
"""

from __future__ import annotations

import pytest

from asm6502 import petscii

NAMES = [
    # petcat
    ("clr", [0x93]), ("home", [0x13]), ("rvon", [0x12]), ("rvof", [0x92]), ("wht", [0x05]),
    ("down", [0x11]), ("up", [0x91]), ("left", [0x9D]), ("rght", [0x1D]), ("del", [0x14]),
    ("inst", [0x94]), ("blk", [0x90]), ("red", [0x1C]), ("cyn", [0x9F]), ("pur", [0x9C]),
    ("grn", [0x1E]), ("blu", [0x1F]), ("yel", [0x9E]), ("orng", [0x81]), ("brn", [0x95]),
    ("lred", [0x96]), ("gry1", [0x97]), ("gry2", [0x98]), ("lgrn", [0x99]), ("lblu", [0x9A]),
    ("gry3", [0x9B]), ("f1", [0x85]), ("f2", [0x89]), ("f7", [0x88]), ("f8", [0x8C]),
    ("swlc", [0x0E]), ("swuc", [0x8E]), ("dish", [0x08]), ("ensh", [0x09]), ("stop", [0x03]),
    ("sret", [0x8D]), ("esc", [0x1B]), ("CBM-A", [0xB0]), ("CBM-K", [0xA1]), ("SHIFT-SPACE", [0xA0]),
    ("SHIFT-POUND", [0xA9]), ("CBM-POUND", [0xA8]), ("SHIFT-@", [0xBA]), ("CTRL-A", [0x01]),
    # tok64 1.4
    ("clear", [0x93]), ("reverse on", [0x12]), ("reverse off", [0x92]), ("white", [0x05]),
    ("black", [0x90]), ("pink", [0x96]), ("dark gray", [0x97]), ("gray", [0x98]),
    ("light green", [0x99]), ("light blue", [0x9A]), ("light gray", [0x9B]), ("space", [0x20]),
    ("pi", [0xFF]), ("down*3", [0x11] * 3), ("001*2", [0x01, 0x01]), ("255", [0xFF]),
    # 64'er
    ("CLEAR", [0x93]), ("RVSON", [0x12]), ("RVSOFF", [0x92]), ("RVS ON", [0x12]), ("DOWN", [0x11]),
    ("2SPACE", [0x20, 0x20]), ("3DOWN", [0x11] * 3), ("CTRL-A", [0x01]), ("LIG.RED", [0x96]),
    # numbers, repeats
    ("$93", [0x93]), ("$d", [0x0D]), ("147", [0x93]), ("5 down", [0x11] * 5), ("2 $20", [0x20, 0x20]),
]


@pytest.mark.parametrize("name, codes", NAMES, ids=[n for n, _ in NAMES])
def test_brace_names(name, codes):
    pieces, errors = petscii.parse_text("{" + name + "}")
    assert errors == []
    assert [p.code for p in pieces] == codes
    assert all(p.escaped for p in pieces)


@pytest.mark.parametrize("name", ["CLR", "Clr", "cLr"])
def test_names_ignore_case(name):
    assert [p.code for p in petscii.parse_text("{" + name + "}")[0]] == [0x93]


CHARS = [
    ("a", 0x41), ("z", 0x5A), ("A", 0xC1), ("Z", 0xDA), ("\\", 0x5C), ("^", 0x5E),
    ("_", 0x5F), ("~", 0xFF), ("@", 0x40), ("[", 0x5B), ("]", 0x5D), (" ", 0x20), ('"', 0x22),
    ("0", 0x30), ("?", 0x3F), ("£", 0x5C), ("π", 0xFF),
]


@pytest.mark.parametrize("ch, code", CHARS)
def test_plain_characters(ch, code):
    assert petscii.char_to_petscii(ch) == code


@pytest.mark.parametrize("text, message", [
    ("{nonsense}", "unknown control-code name {nonsense}"),
    ("{256}", "unknown control-code name {256}"),
    ("{clr", "'{' without a closing '}'"),
    ("`", "'`' has no PETSCII equivalent"),
    ("\t", "a tab has no PETSCII equivalent"),
])
def test_bad_text(text, message):
    _, errors = petscii.parse_text(text)
    assert errors and errors[0].message.startswith(message)


def test_every_canonical_name_reads_back():
    for code, name in petscii.CANONICAL_NAME.items():
        assert [p.code for p in petscii.parse_text("{" + name + "}")[0]] == [code], name


def test_every_byte_has_a_listing_form_that_reads_back():
    for code in range(256):
        text = petscii.petscii_to_char(code) or petscii.escape(code)
        assert [p.code for p in petscii.parse_text(text)[0]] == [code], hex(code)
