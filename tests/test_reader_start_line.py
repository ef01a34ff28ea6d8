"""The reader's start-line test (reader.START_LINE) answers as the pattern it stands for,
``re.match(r"sys(?![a-z.])", text, re.IGNORECASE)``, for every character in every place it looks at."""

from __future__ import annotations

import re
import sys

import pytest

from asm6502.asm.reader import START_LINE

PATTERN = re.compile(r"sys(?![a-z.])", re.IGNORECASE)
EVERY_CHARACTER = "".join(chr(c) for c in range(sys.maxunicode + 1))

# a place of one character in a line, and the pattern that finds the characters the whole pattern takes there
# (searched through every character at once)
PLACES = {
    "{}ys": r"s", "s{}s": r"y", "sy{}": r"s", "SYS{} 32768": r"[^a-z.]",
}


@pytest.mark.parametrize("place", PLACES)
def test_every_character_in_every_place(place):
    taken = set(re.findall(PLACES[place], EVERY_CHARACTER, re.IGNORECASE))
    assert all(bool(PATTERN.match(place.format(c))) for c in taken)  # (the finding pattern is the right one)
    before, _, after = place.partition("{}")
    match = START_LINE.match
    said = {c for c in EVERY_CHARACTER if match(before + c + after)}
    assert sorted(map(hex, map(ord, said ^ taken))) == []


@pytest.mark.parametrize("text", ["", "s", "sy", "sys", "SYS32768", "sys 8*4096", "Sys", "system", "sys.x", "sysK",
                                  "\u017fy\u017f", "sys\u0131", "sys\u212a", " sys", "sy s", "sys_", "sys:", "sys\u00e9"])
def test_short_and_usual_lines(text):
    assert START_LINE.match(text) == bool(PATTERN.match(text))
