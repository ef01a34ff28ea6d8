"""A DATA string of one character, one of its quotes printed as an apostrophe (grammar.misread_data_quotes):
damage the line shows (verdict.damage_left), read as the quote among a line's near-certain
misreadings (normal.py), so the character's own reading is the best fix offered.

Lines of the shape of a character-set program's table (64'er 10/85 p. 74, Listing 4): a
graphics character in quotes, then the eight bytes of its new shape.
"""

from __future__ import annotations

import pytest

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.grammar import misread_data_quotes
from asm6502.typein.cslisting.normal import DATA_QUOTE_WHY, normal_edits
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import checksum_of, line_body
from asm6502.typein.cslisting.verdict import damage_left

# (a printed line, the apostrophes' places)
PLACES = [
    ("DATA\"Q',7,7,0", [6]),  # the closing quote
    ("DATA'Q\",7,7,0", [4]),  # the opening one
    ("DATA \"Q' ,7", [7]),  # blanks around the item
    ("DATA 5,\"Q',1:PRINT", [9]),  # a later item, the statement's end
    ("DATA\"{CBM-Q}',7", [12]),  # a graphics character's name
    ("DATA\"Q\u2019,7", [6]),  # a typographic apostrophe
    ("DATA\"Q\",7", []),  # quotes read right
    ("DATA\"QQ',7", []),  # two characters: not the table's item
    ("DATA 1,\"X'\",2", []),  # an apostrophe inside a string closed
    ("PRINT\"Q',7", []),  # no DATA
    ("PRINT\"DATA\"Q',7\"", []),  # DATA inside quotes
    ("DATA\"Q'X,7", []),  # more after the apostrophe
]


@pytest.mark.parametrize("text,places", PLACES)
def test_an_apostrophe_for_a_data_strings_quote(text, places):
    assert misread_data_quotes(text) == places


@pytest.mark.parametrize("text,places", [p for p in PLACES if p[1]])
def test_it_is_damage_left_and_read_as_the_quote(text, places):
    assert damage_left(text, True)
    edits = [e for e in normal_edits(text, True) if e.why == DATA_QUOTE_WHY]
    assert [(e.start, e.new) for e in edits] == [(k, '"') for k in places]


OPTIONS = ChecksumOptions(3)
# (the disk's line, as printed): the graphics character read as a letter and a quote as an apostrophe
TABLE = [
    ('DATA"{CBM-Z}",999,246,0,0,0,0,0,0,0', "DATA\"T',999,246,0,0,0,0,0,0,0"),
    ('DATA"{CBM-L}",102,102,102,0,0,0,0,0,34', "DATA'T\",102,102,102,0,0,0,0,0,34"),
    ('DATA"{CBM-B}",999,191,0,0,0,0,0,0,0', "DATA\"T',999,191,0,0,0,0,0,0,0"),
    ('DATA"{CBM-N}",0,28,150,220,150,28,0,0,27', "DATA'W\",0,28,150,220,150,28,0,0,27"),
]


def test_the_characters_reading_is_offered_first():
    """The character is solved from the checksum (any byte fits one place): offered, never taken
    unasked; with the quote read, the disk's line is the first fix of each."""
    rows = []
    for k, (disk, printed) in enumerate(TABLE):
        rows.append(f"{8500 + 2 * k} {printed}  <{checksum_of(8500 + 2 * k, disk, True, OPTIONS):03d}>")
    result, = read_listings("\n".join(rows) + "\n", "t", case="upper")
    assert [r.status for r in result.lines] == ["bad"] * len(TABLE)
    assert [line_body(r.fixed_texts[0], True) for r in result.lines] == [line_body(d, True) for d, _ in TABLE]
