"""Control-code names OCR misread past the reading of text.normalize_controls (cslisting/names.py):
the brackets read as other marks, blanks inside a name, one letter of a name read as another.

The damage is made from correct lines (the name as the listing printer set it, ``<HOME,2DOWN>``,
then misread); every line taken is checked against its truth: the repair, or the line asked
about, never a wrong line.
"""

from __future__ import annotations

import random
import re

import pytest

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.names import NAME_LETTER_WHY, NAME_WHY, name_edits
from asm6502.typein.cslisting.rank import rank_fixes
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import checksum_of, line_body, normalize_controls

OPTIONS = ChecksumOptions(3)

# (as OCR read it, the name read, the edit's kind)
READINGS = [
    ('PRINT"<RVSONJRETURN"', "{RVSON}", NAME_WHY),  # the closing bracket read as J
    ('PRINT"\u00a32RIGHT,DOWN>TEXT"', "{2 RIGHT}{DOWN}", NAME_WHY),  # the opening one as a pound sign
    ('PRINT"t2RIGHT,D0WN>TEXT"', "{2 RIGHT}{DOWN}", NAME_WHY),  # ... as t, before the count
    ('PRINT"A <7SPAC EJ:"', "{7 SPACE}", NAME_WHY),  # a blank inside the name (and beside it)
    ('PRINT"<5R I GHT J X"', "{5 RIGHT}", NAME_WHY),
    ('IF A$<>"<F8>"THEN 100', "{F8}", NAME_WHY),  # a function key is no hex number
    ('IF A$<>"<Fl>"THEN 100', "{F1}", NAME_WHY),  # ... its 1 read as l
    ('PRINT"LCLR>":GOTO 10', "{CLR}", NAME_WHY),  # ... as L before a whole name and its closing one
    ('A$="tHOME}"', "{HOME}", NAME_WHY),
    ('PRINT"<DDWN>"', "{DOWN}", NAME_LETTER_WHY),  # one letter read as another: a guess
    ('PRINT"<SPACE,RVGFF,SPACE>"', "{SPACE}{RVOFF}{SPACE}", NAME_LETTER_WHY),
]


@pytest.mark.parametrize("printed,name,why", READINGS)
def test_a_misread_name_is_read(printed, name, why):
    edits = name_edits(printed)
    assert [(e.new, e.why) for e in edits] == [(name, why)]


# text that is no control name: no edit
NOT_NAMES = [
    'PRINT"[F7]"',  # a key's name in square brackets is printed text
    'PRINT"tEXT"',  # a 't' opens a name only before a count or a whole name
    'PRINT"LUPI"',  # ... and its closing bracket, not a letter that may be one
    'PRINT"tDDWN>"',  # ... and a whole name, not one a letter from it
    'PRINT"LRED >"',  # ... set as the printer sets one, no blank inside
    'PRINT"<HOME>"',  # read already (text.normalize_controls)
    'A=B<C',  # outside quotes
    'PRINT"<XYZZY>"',  # no name near
    'PRINT"<DOWN"',  # no closing bracket
]


@pytest.mark.parametrize("printed", NOT_NAMES)
def test_no_name_where_none_is_printed(printed):
    assert name_edits(printed) == []


# correct lines (petcat names) to damage
LINES = [
    'PRINT"{home}{down}{down}{rght}{rght}MENUE"',
    'PRINT"{clr}{rvon}TITEL{rvof}":GOTO 100',
    'IF A$<>"{f1}"THEN 200',
    'PRINT"{down}{down}{down}BITTE WARTEN"',
    'PRINT"{rght}{rght}{rght}{rght}{rght}{rvon}ENDE{rvof}"',
    'A$="{home}{down}{down}{down}{down}{down}{down}{down}{down}":PRINT A$',
]
_NAMES = {"home": "HOME", "down": "DOWN", "rght": "RIGHT", "clr": "CLR", "rvon": "RVSON", "rvof": "RVOFF",
          "f1": "F1"}


def _printed(line: str, rng: random.Random) -> str:
    """*line* as the printer set its names (one bracket span a run: '<HOME,2DOWN>') and OCR
    misread each span one way or another."""
    def span(m) -> str:
        names = m.group(0)[1:-1].split("}{")
        items: list[str] = []
        for n in names:
            if items and items[-1].endswith(_NAMES[n]):
                head = items[-1][: -len(_NAMES[n])]
                items[-1] = f"{int(head or 1) + 1}{_NAMES[n]}"
            else:
                items.append(_NAMES[n])
        inner = ",".join(items)
        how = rng.randrange(4)
        if how == 0:
            return "<" + inner + "J"
        if how == 1 and inner[0].isdigit():
            return "\u00a3" + inner + ">"
        if how == 2 and len(inner) > 3:
            k = rng.randrange(1, len(inner) - 1)
            return "<" + inner[:k] + " " + inner[k:] + ">"
        return "<" + inner.replace("O", "D", 1) + ">"
    return _RUN.sub(span, line)


_RUN = re.compile(r"(?:\{(?:home|down|rght|clr|rvon|rvof|f1)\})+")


@pytest.mark.parametrize("seed", range(4))
def test_damaged_names_are_repaired_or_asked_never_wrong(seed):
    rng = random.Random(seed)
    rows, truth = [], {}
    for k, line in enumerate(LINES * 2):
        number = 10 * (k + 1)
        value = checksum_of(number, line, True, OPTIONS)
        assert value is not None and normalize_controls(line) == line
        rows.append(f"{number} {_printed(line, rng)}  <{value:03d}>")
        truth[number] = line_body(line, True)
    result, = read_listings("\n".join(rows) + "\n", "t", case="upper")
    taken = ranked = 0
    for r in result.lines:
        if r.status in ("verified", "repaired"):
            assert r.body == truth[r.number], (r.number, r.printed, r.text)
            taken += 1
        ranked += r.status in ("verified", "repaired") or any(line_body(f, True) == truth[r.number]
                                                               for f in r.fixed_texts)
    # measured on these seeds: every line read or among the fixes offered, 5 to 7 of the 12 taken
    assert ranked == len(rows) and taken >= 5


# (as OCR read it, with a typographic quote, the line as typed): the name's brackets misread
TYPESET_QUOTES = [
    ('PRINT\u201d<DOWN,RIGHT,4SPACE J";A;B$', 'PRINT"{down}{rght}    ";A;B$'),
    ('PRINT\u201c<2RIGHT,RVSON J"X:GOTO 20', 'PRINT"{rght}{rght}{rvon}"X:GOTO 20'),
    ('A$=\u201e<HOME,3DOWN J\u201d:PRINT A$', 'A$="{home}{down}{down}{down}":PRINT A$'),
]


@pytest.mark.parametrize("printed,typed", TYPESET_QUOTES)
def test_a_typographic_quote_is_no_damage_left(printed, typed):
    """OCR's typographic quote is the quote mark to every reading (text.plain_quotes): a line with
    one and a misread name is repaired like any other, not left for damage its fix does not
    explain (verdict.damage_left)."""
    value = checksum_of(100, typed, True, OPTIONS)
    result, = read_listings(f"100 {printed}  <{value:03d}>\n", "t", case="upper")
    line, = result.lines
    assert (line.status, line.body) == ("repaired", line_body(typed, True))


# (as OCR read it, the printed checksum's line): no shifted letter is guessed inside a control
# name that name_edits reads, the print's name is whole there
INSIDE_NAMES = [
    ('PRINT"<DOWN,RIGHT,4SPACE J";A', 'PRINT"{down}{rght}    ";A'),
    ('PRINT"<SPACE,RVGFF,SPACE>=ENDE', 'PRINT" {rvof} =ENDE'),
    ('PRINT"<HOME,2RIGHT J":GOTO 10', 'PRINT"{home}{rght}{rght}":GOTO 10'),
]


@pytest.mark.parametrize("printed,typed", INSIDE_NAMES)
def test_no_glyph_is_read_inside_a_misread_name(printed, typed):
    value = checksum_of(100, typed, True, OPTIONS)
    plain = printed.replace("\u201d", '"')
    spans = [(e.start, e.end) for e in name_edits(plain)]
    fixes = rank_fixes(100, printed, value, True, OPTIONS)
    assert fixes and line_body(fixes[0].text, True) == line_body(typed, True)
    assert not [e for f in fixes for e in f.edits if e.why.startswith("underlined")
                and any(lo <= e.start < hi for lo, hi in spans)]


# (as OCR read it, the line as typed): a name's letter misread in a span that normalize_controls
# reads once the letter is read ('12DDWN' -> '12DOWN' inside '{...>'), and the same line read as
# names.py reads the span: one line, offered once and repaired
SAME_LINE_TWICE = [
    ('PRINT"{HOME,12DDWN,2RIGHT,RVSO N>TEXT"', 'PRINT"{home}' + "{down}" * 12 + '{rght}{rght}{rvon}TEXT"'),
    ('PRINT"<CLR,3DDWN,RVS ON>MENUE":GOTO 20', 'PRINT"{clr}{down}{down}{down}{rvon}MENUE":GOTO 20'),
]


@pytest.mark.parametrize("printed,typed", SAME_LINE_TWICE)
def test_two_texts_of_one_line_are_one_fix(printed, typed):
    value = checksum_of(100, typed, True, OPTIONS)
    bodies = [line_body(f.text, True) for f in rank_fixes(100, printed, value, True, OPTIONS) if f.checksum is None]
    assert bodies and bodies[0] == line_body(typed, True) and len(set(bodies)) == len(bodies)
    result, = read_listings(f"100 {printed}  <{value:03d}>\n", "t", case="upper")
    assert (result.lines[0].status, result.lines[0].body) == ("repaired", line_body(typed, True))
