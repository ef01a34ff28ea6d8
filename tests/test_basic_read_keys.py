"""Key names printed as text in square brackets inside quotes (``"... [F8] DRUECKEN"``) whose
brackets OCR misread (cslisting/names.py, key_edits): read back as ``[NAME]`` and offered to the
checksum like any other reading.

Every line is made here: the text as typed, its checksum, the text as OCR misread it.  A repair
that the rule makes must be one the ranking does not make without it (the rule off: no key
edits), and no line is taken wrong.
"""

from __future__ import annotations

import pytest

from asm6502.typein.cslisting import rank
from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.names import KEY_WHY, key_edits
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import checksum_of, line_body
from asm6502.typein.cslisting.verdict import damage_left

OPTIONS = ChecksumOptions(3)

# (as OCR read it, the key read)
READINGS = [
    ('PRINT"UND CF8J DRUECKEN"', "[F8]"),  # '[' read as C, ']' as J
    ('A$="LADEN EF13"', "[F1]"),  # ... as E and 3
    ('A$="WEITER C7I":GOTO 10', "[7]"),  # a digit's key, ']' read as I
    ('PRINT"TASTE CSHIFT1"', "[SHIFT]"),  # a named key, ']' read as 1
    ('PRINT"HILFE [F4I"', "[F4]"),  # one bracket read right
    ('PRINT"ENDE LFlJ"', "[F1]"),  # '[' read as L, the key's 1 as l
    ('PRINT"<5SPACE>CCTRL)"', "[CTRL]"),  # after a control name
]


@pytest.mark.parametrize("printed,key", READINGS)
def test_a_misread_key_is_read(printed, key):
    assert [(e.new, e.why) for e in key_edits(printed)] == [(key, KEY_WHY)]


NOT_KEYS = [
    'PRINT"[F7]"',  # read right: the print's text
    'PRINT"(F1)"',  # parentheses are text too
    'PRINT"ABC53"',  # a letter before the mark: a word, no key
    'PRINT"C53X"',  # ... or after it
    'PRINT"CF9J"',  # no such function key
    'PRINT"CXYJ"',  # no key's name
    'A=C5I',  # outside quotes
    'PRINT"C5"',  # no closing mark
    'PRINT"CHOMEJ"',  # '[HOME]' is a control code's name (text.normalize_controls), no key
]


@pytest.mark.parametrize("printed", NOT_KEYS)
def test_no_key_where_none_is_printed(printed):
    assert key_edits(printed) == []


# (as OCR read it, the line as typed): repaired with the rule, not without it
REPAIRED = [
    ('PRINT"EINLEGEN, UND CF8J DRUECKEN"', 'PRINT"EINLEGEN, UND [F8] DRUECKEN"'),
    ('A$="SPEICHERN C53":B$="AENDERN E2J"', 'A$="SPEICHERN [5]":B$="AENDERN [2]"'),
    ('PRINT"NACH DEM BEHEBEN EF13 DRUECKEN"', 'PRINT"NACH DEM BEHEBEN [F1] DRUECKEN"'),
    ('PRINT"WEITER MIT CSHIFT1":GOTO 100', 'PRINT"WEITER MIT [SHIFT]":GOTO 100'),
    ('B$="HILFE<7SPACE>[F7I"', 'B$="HILFE       [F7]"'),
]


def _read(printed: str, typed: str):
    value = checksum_of(100, typed, True, OPTIONS)
    assert value is not None
    result, = read_listings(f"100 {printed}  <{value:03d}>\n", "t", case="upper")
    line, = result.lines
    return line.status, line.body


@pytest.mark.parametrize("printed,typed", REPAIRED)
def test_a_misread_key_is_repaired(printed, typed):
    assert _read(printed, typed) == ("repaired", line_body(typed, True))


@pytest.mark.parametrize("printed,typed", REPAIRED)
def test_without_the_rule_the_line_is_not_repaired(printed, typed, monkeypatch):
    monkeypatch.setattr(rank, "key_edits", lambda text: [])
    status, body = _read(printed, typed)
    assert not (status in ("verified", "repaired") and body == line_body(typed, True))
    assert status not in ("verified", "repaired") or body == line_body(typed, True)  # never wrong


# (a line after a fix, damage left): a key's misread brackets left unread are the print's damage
# unexplained (verdict.damage_left), one read right is text
DAMAGE_LEFT = [
    ('PRINT"UND CF8J ORUECKEN"', True),
    ('PRINT"BEHEBEN<6SPACE>EF13 zRUECKEN"', True),
    ('PRINT"UND [F8] DRUECKEN"', False),
    ('A$="SPEICHERN [5]"', False),
]


@pytest.mark.parametrize("text,left", DAMAGE_LEFT)
def test_a_misread_key_is_damage_left(text, left):
    assert damage_left(text, True) is left
