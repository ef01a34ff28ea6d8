"""Compute!'s Automatic Proofreader: the checksum of a BASIC line as typed, two versions.

**1983** (Compute!'s Gazette 10/83, C64 and VIC-20 in one listing from 11/83): the sum of the
codes of the characters the screen editor hands BASIC -- the line number's digits too -- leaving
out every space, modulo 256, shown at the screen's top left.  The listings printed it after the
line as ``:rem 123`` (not to be typed).  Checked on three lines of Compute!'s Gazette's MLX II
listing as printed (12/85: ``100 POKE 56,50:CLR:DIM IN$,I,J,A,B,A$,B$,A(7),N$ :rem 34``,
``:rem 238``, ``:rem 118``; tests/test_typein_english.py).  A sum: it cannot see two characters
swapped, nor a space.

**1986** ("The New Automatic Proofreader", Compute!'s Gazette 2/86, Compute! 3/86 p. 84-85, by
Philip I. Nelson; one program for the C64, VIC-20, Plus/4, 16 and 128): hooked into BASIC's
CRUNCH vector ($0304), it starts from the line number (16 bits, LINNUM $14/$15) and adds each
character of the typed line times its position (1, 2, ...; the digits of the line number first),
leaving out the spaces outside quotes (they do not count as a position either); the two bytes of
the 16-bit sum are XORed and the byte is shown as two letters, its low nibble first, from the
sixteen ``ABCDEFGHJKMPQRSX`` (no I, L, N, O, T: letters that look like digits or each other).
The listings printed them before the line: ``GE 10 PRINT "HELLO"``.  This is the program's own
machine code (its DATA lines, read in the printed listing); tests/test_typein_english.py runs it
on the C64 as the oracle (an optional test).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LETTERS = "ABCDEFGHJKMPQRSX"
SPACE, QUOTE = 0x20, 0x22


def checksum_1983(line: bytes) -> int:
    """*line*: the typed line (:func:`.printed.typed`)."""
    return sum(b for b in line if b != SPACE) & 0xFF


def checksum_1986(number: int, line: bytes) -> int:
    total = number & 0xFFFF
    position = 0
    quote = False
    for b in line:
        if b == QUOTE:
            quote = not quote
        if b == SPACE and not quote:
            continue
        position += 1
        total = (total + b * position) & 0xFFFF
    return (total & 0xFF) ^ (total >> 8)


def letters(value: int) -> str:
    """The 1986 checksum as the screen showed it and the listings printed it."""
    return LETTERS[value & 15] + LETTERS[value >> 4]


def letters_value(code: str) -> int | None:
    if len(code) != 2 or any(c not in LETTERS for c in code):
        return None
    return LETTERS.index(code[0]) | LETTERS.index(code[1]) << 4


@dataclass(frozen=True)
class PrintedLine:
    """A listing line found in a text: its row (1-based), number, text after the number and
    the checksum field as printed (raw: OCR may have damaged it)."""

    row: int
    number: str  # the line number as printed (OCR may have read a digit as a letter)
    text: str
    field: str


# ``10 PRINT "HELLO" :rem 123``; OCR reads ':rem' as ';rem', ':REM', ':rern', ':rFm'
_REM_AT_END = re.compile(r"^\s*(?P<n>[0-9A-Za-z]{1,5})(?: (?P<text>.*?)|)\s*[:;.]\s*r\s*[a-zA-Z]{1,3}?\s*(?P<field>[0-9OoIlSsBZzQDG]{1,3})\s*$",
                         re.IGNORECASE)
# ``GE 10 PRINT "HELLO"``
_CODE_FIRST = re.compile(r"^\s*(?P<field>[A-Z0-9]{2})\s+(?P<n>[0-9A-Za-z]{1,5})(?: (?P<text>.*?)|)\s*$")


def find_1983(text: str) -> list[PrintedLine]:
    out = []
    for row, line in enumerate(text.split("\n"), start=1):
        m = _REM_AT_END.match(line)
        if m and any(c.isdigit() for c in m.group("n")):
            out.append(PrintedLine(row, m.group("n"), m.group("text") or "", m.group("field")))
    return out


def find_1986(text: str) -> list[PrintedLine]:
    out = []
    for row, line in enumerate(text.split("\n"), start=1):
        m = _CODE_FIRST.match(line)
        if m and any(c.isdigit() for c in m.group("n")):
            out.append(PrintedLine(row, m.group("n"), m.group("text") or "", m.group("field")))
    return out
