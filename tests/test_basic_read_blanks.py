"""Blanks inside quotes settled by the listing's own words (asm6502.typein.cslisting.blanks).

The checksum skips blanks, so only the listing can say whether ``DRU ECKEN`` is ``DRUECKEN``:
the same word printed whole in another line's string or REM, and nowhere else in two.  The table
gives each rule and where it must not act; the property reads High IQ (build/highiq.prg, printed
in capitals) with blanks put into its strings' words and taken out between them, one place and
several at once: every line taken is the program's, the blanks it settles included.
"""

from __future__ import annotations

import random

import pytest
from test_basic_read_habits import high_iq_rows

from asm6502.typein.cslisting.blanks import MIN_WORD, Words, settle
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

OTHERS = [(10, 'PRINT "TASTE DRUECKEN"'), (20, 'PRINT "BITTE WARTEN":REM LADEN'),
          (30, 'PRINT "MIT LOESCHSCHUTZ"'), (40, 'PRINT "OHNE LOESCHSCHUTZ"'),
          (50, 'PRINT "ZEIT UND ORT"'), (60, 'PRINT "ZEIT UND RAUM"'), (70, 'PRINT "WER DEN"'),
          (80, 'PRINT "ANGEHAENGT"'), (90, 'PRINT "NEU ANGEH AENGT"')]


@pytest.mark.parametrize("line, settled", [
    ('PRINT "{RVSON}DRU ECKEN{RVOFF}"', 'PRINT "{RVSON}DRUECKEN{RVOFF}"'),  # printed whole in line 10
    ('PRINT "WAR TEN"', 'PRINT "WARTEN"'),
    ('REM LA DEN', 'REM LA DEN'),  # 'LA' is too short a word to join by
    ('PRINT "LOESCH SCHUTZ"', 'PRINT "LOESCHSCHUTZ"'),
    ('PRINT "ZEITUND"', 'PRINT "ZEIT UND"'),  # two lines print 'ZEIT UND', none 'ZEITUND'
    ('PRINT "WERDEN"', 'PRINT "WERDEN"'),  # one line prints 'WER DEN': not enough to part
    ('PRINT "ANGEH AENGT"', 'PRINT "ANGEH AENGT"'),  # line 90 prints it so too: both spellings, none taken
    ('PRINT "DRU ECKEN":X=1', 'PRINT "DRUECKEN":X=1'),
    ('PRINT DRU ECKEN', 'PRINT DRU ECKEN'),  # outside quotes: no string's words
    ('PRINT "<2SPACE>DRU ECKEN"', 'PRINT "<2SPACE>DRUECKEN"'),
    ('PRINT "DRU  ECKEN"', 'PRINT "DRU  ECKEN"'),  # two blanks: a layout, not a blank OCR put in
    ('PRINT "TASTE DRUECKEN"', 'PRINT "TASTE DRUECKEN"'),
])
def test_settle(line: str, settled: str) -> None:
    words = Words.of([*OTHERS, (100, line)])
    assert settle(line, 100, words)[0] == settled


ROWS = high_iq_rows()
BODIES = {n: line_body(t, True) for n, t, _ in ROWS}


def _string_words(text: str, rem: bool = False) -> list[tuple[int, int]]:
    """Where the words of *text*'s strings stand (and of its REM: *rem*), control names left out."""
    out, quote, brace, start = [], False, False, None
    cut = text.find("REM") if rem and "REM" in text and text.count('"', 0, text.find("REM")) % 2 == 0 else -1
    for k, c in enumerate(text + " "):
        brace = (brace or c == "{") and c != "}"
        inside = (quote or 0 <= cut < k - 2) and c.isalpha() and not brace
        if inside and start is None:
            start = k
        elif not inside and start is not None:
            out.append((start, k))
            start = None
        if c == '"':
            quote = not quote
    return out


def _read(texts: dict[int, str]) -> tuple[int, int]:
    """(lines taken that are not the program's, lines whose damaged blanks were settled)."""
    listing = "".join(f"{n} {texts[n]} <{c:03d}>\n" for n, _, c in ROWS)
    (result,) = read_listings(listing, "highiq.txt")
    wrong = settled = 0
    for r in result.lines:
        if r.status in ("verified", "repaired") and r.body is not None:
            damaged = texts[r.number] != next(t for n, t, _ in ROWS if n == r.number)
            wrong += r.body != BODIES[r.number] and (not damaged or r.text != texts[r.number])
            settled += damaged and r.body == BODIES[r.number]
    return wrong, settled


INSERTED = [(n, k) for n, t, _ in ROWS for a, b in _string_words(t) for k in range(a + 1, b)]


def test_one_blank_inserted_in_a_string_word() -> None:
    """Every place inside every word of High IQ's strings: 0 wrong; the words another line prints
    whole come back."""
    texts = {n: t for n, t, _ in ROWS}
    wrong = settled = 0
    for n, k in INSERTED:
        damaged = {**texts, n: texts[n][:k] + " " + texts[n][k:]}
        w, s = _read(damaged)
        wrong, settled = wrong + w, settled + s
    # the places a person would settle: both halves MIN_WORD letters or more, the word printed
    # whole in another line's string or REM ('PER FECT', 'PERF ECT': lines 150 and 760 print
    # PERFECT; 'CHA RLES': line 20's REM prints CHARLES)
    where = {t[a:b]: {m for m, u, _ in ROWS if t[a:b] in {u[c:d] for c, d in _string_words(u, rem=True)}}
             for _, t, _ in ROWS for a, b in _string_words(t)}
    expected = sum(1 for n, k in INSERTED for a, b in _string_words(texts[n]) if a + MIN_WORD <= k <= b - MIN_WORD
                   and where[texts[n][a:b]] - {n})
    assert (wrong, settled) == (0, expected)
    assert expected >= 5


@pytest.mark.parametrize("seed", range(8))
def test_several_blanks_inserted_and_dropped(seed: int) -> None:
    """Eight blanks put into words and two taken out between words at random: 0 wrong."""
    rnd = random.Random(seed)
    texts = {n: t for n, t, _ in ROWS}
    for n, k in rnd.sample(INSERTED, 8):
        texts[n] = texts[n][:k] + " " + texts[n][k:] if texts[n][k - 1 : k + 1].isalpha() else texts[n]
    gaps = [(n, k) for n, t in texts.items() for (_, b), (c, _) in zip(_string_words(t), _string_words(t)[1:])
            if c == b + 1 for k in [b]]
    for n, k in rnd.sample(gaps, 2):
        if texts[n][k] == " ":
            texts[n] = texts[n][:k] + texts[n][k + 1 :]
    assert _read(texts)[0] == 0


# a table of characters: DATA lines, each a character in quotes and the bytes of its shape
TABLE = [(100, 'DATA"A",1,2,3'), (110, 'DATA"{CBM-B}",4,5,6'), (120, 'DATA "C" ,7,8,9'), (130, 'DATA"D",1,1')]
# (a line, as settled among the table's lines)
ONE_CHARACTER = [
    ('DATA" T" ,60,54', 'DATA"T" ,60,54'),  # a blank beside the character
    ('DATA"{CBM-+} ",1,2', 'DATA"{CBM-+}",1,2'),  # ... a graphics name
    ('DATA 1," X ":PRINT', 'DATA 1,"X":PRINT'),  # ... a later item, blanks on both sides
    ('DATA" TT",1', 'DATA" TT",1'),  # two characters: no item of the table's
    ('PRINT" T"', 'PRINT" T"'),  # no DATA
    ('DATA" T"X,1', 'DATA" T"X,1'),  # more in the item
]


@pytest.mark.parametrize("line,settled", ONE_CHARACTER)
def test_a_one_character_data_string_without_blanks(line: str, settled: str) -> None:
    got, why = settle(line, 1, Words.of(TABLE))
    assert got == settled and bool(why) == (settled != line)


def test_blanks_stay_where_the_table_prints_them_or_there_is_none() -> None:
    """Fewer than two other lines print such items without blanks, or as many print them with one."""
    assert settle('DATA" T",1', 1, Words.of(TABLE[:1]))[0] == 'DATA" T",1'
    spaced = [*TABLE[:2], (140, 'DATA" E",1'), (150, 'DATA"F ",2')]
    assert settle('DATA" T",1', 1, Words.of(spaced))[0] == 'DATA" T",1'
