"""What a chance match of a line's readings can do (rank.Tried.takeable_chance), the habits a
listing's sure repairs show (habits.repaired_habits), and a digit put between two letters.

A reading is taken without asking only where every change is where the print shows damage
(verdict.sole_reading wants the fix's evidence): a reading that changes a place the print shows
clean can, if it verifies by chance, only hold a repair back.  So the chance that a wrong reading
is taken counts the readings that could have been taken, not all readings tried.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing, line_checksum
from asm6502.typein.cslisting.edits import HABIT_NOTE, Edit, Fix, _row_mark, confusions
from asm6502.typein.cslisting.habits import REPAIRED_MIN, repaired_habits
from asm6502.typein.cslisting.rank import GLYPH_READINGS, Tried, _makes_damage
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body
from asm6502.typein.cslisting.verdict import _unrivalled

ROOT = Path(__file__).parent.parent


def _edit(text: str, at: str, new: str, why: str | None = None) -> Edit:
    k = text.index(at)
    return Edit(k, k + len(at), new, 1.0, why or f"{new} read as {at}")


# (line as printed, the changes of one reading, whether it counts among the takeable readings)
TAKEABLE = [
    ("FOR 1=0 TO 10", [("1", "I")], True),  # a digit at a variable's place: damage shown
    ("POKE 53280,S", [("S", "5")], False),  # 'S' is a variable here: no damage shown
    ("P0KE 53280,5", [("P0KE", "POKE", "blanks inside a keyword")], True),
    ("A=Klt", [("t", "$")], True),  # a small letter in a capital listing
    ("A=B+C", [("B", "8")], False),
    ("A=Bt+C", [("t", "$"), ("C", "G")], False),  # one change where the print is clean
    ('PRINT"£ISK"', [("£", "d", "underlined (shifted letter) d read as '£'")], False),  # a solved glyph
    ("A=KT", [("T", "$", f"$ read as T, {HABIT_NOTE}")], True),  # a habit of the listing's
    ("GOTU 10", [("U", "O")], True),  # a letter of a keyword the reading spells
]


@pytest.mark.parametrize("text,changes,takeable", TAKEABLE)
def test_takeable_readings(text, changes, takeable):
    chosen = tuple(_edit(text, *c) for c in changes)
    tried = Tried(weighed=[(1.0, 1, chosen)])
    assert tried.chance_matches(1.0) == 1 / 256
    assert tried.takeable_chance(1.0, text, True) == (1 / 256 if takeable else 0.0)
    assert tried.takeable_chance(0.5, text, True) == 0.0  # dearer than the cost asked


def test_a_solved_glyph_counts_its_bytes_among_all_readings_only():
    text = 'PRINT"£ISK"'
    tried = Tried(weighed=[(1.5, GLYPH_READINGS, (_edit(text, "£", "d", "underlined (shifted letter) d read as '£'"),))])
    assert tried.chance_matches(2.0) == GLYPH_READINGS / 256 and tried.takeable_chance(2.0, text, True) == 0.0


def _repairs(pairs_by_line: list[tuple[tuple[str, str], ...]]) -> list[tuple[int, str, tuple[tuple[str, str], ...]]]:
    return [(10 * (k + 1), "", pairs) for k, pairs in enumerate(pairs_by_line)]


# (the one-character confusions each sure repair made, the habits learned: (printed, meant, lines))
REPAIRED = [
    ([(("t", "$"),)] * REPAIRED_MIN, [("t", "$", REPAIRED_MIN)]),
    ([(("t", "$"),)] * (REPAIRED_MIN - 1), []),  # too few lines
    ([(("t", "$"), ("t", "$"))] * (REPAIRED_MIN - 1), []),  # a line counts once
    ([(("l", "1"),)] * 20, []),  # a digit meant: the general table's, no habit
    ([(("s", ":"),)] * 7 + [(("^", "$"),)] * 5, [("s", ":", 7), ("^", "$", 5)]),  # 9/85 p. 70's shape
    ([(("s", ":"), ("0", "O"))] * 6, [("s", ":", 6)]),
]


@pytest.mark.parametrize("pairs,learned", REPAIRED)
def test_habits_from_sure_repairs(pairs, learned):
    assert [(h.printed, h.meant, len(h.lines)) for h in repaired_habits(_repairs(pairs))] == learned


@pytest.mark.parametrize("text,edits,pairs", [
    ("A=Klt", [("t", "$")], [("t", "$")]),
    ("A=Klt", [("t", "$"), ("l", "1")], [("t", "$"), ("l", "1")]),
    ("A=KT", [("T", "$", f"$ read as T, {HABIT_NOTE}")], [("T", "$")]),
    ("POK E 1,2", [("POK E", "POKE", "blanks inside a keyword")], []),
    ('PRINT"£ISK"', [("£", "d", "underlined (shifted letter) d read as '£'")], []),
])
def test_confusions_of_a_fix(text, edits, pairs):
    fix = Fix(1.0, text, tuple(_edit(text, *e) for e in edits), True)
    assert list(confusions(text, fix)) == pairs


@pytest.mark.parametrize("text,at,new,damage", [
    ('B2$="flENDERN"', "l", "1", True),  # an underlined A read as 'fl' (10/85 p. 73), not a digit
    ("ANGELSAECHSISCH", "S", "5", True),
    ("A=Bl+C", "l", "1", False),  # a digit after a variable's name
    ("X=lO", "l", "1", False),
])
def test_a_digit_between_letters_makes_damage(text, at, new, damage):
    k = text.index(at)
    assert _makes_damage(text, Edit(k, k + 1, new, 1.0, f"{new} read as {at}")) is damage


def _high_iq() -> list[tuple[int, str, int]]:
    listing, _ = checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())
    rows = []
    for row in listing.upper().splitlines():
        number, rest = row.split(" ", 1)
        text, checksum = rest.rsplit("<", 1)
        rows.append((int(number), text.rstrip(), int(checksum.rstrip(">"))))
    return rows


# ('$' read as, seed, habits learned (printed, meant, witnesses), lines verified / repaired / bad); the
# same listings read by the code before the sure repairs taught habits: 't' 25 / 20 / 26 repaired,
# 4 / 5 / 6 bad; '*' 26 / 21 / 27 repaired, 3 / 4 / 5 bad
SECOND_DAMAGE = [
    ("t", 1, [("t", "$", 7), ("s", ":", 5)], (28, 27, 2)),  # 10/85 p. 73
    ("t", 2, [("t", "$", 6)], (32, 23, 2)),
    ("t", 3, [("s", ":", 8), ("t", "$", 5)], (25, 30, 2)),
    ("*", 1, [("*", "$", 8), ("s", ":", 5)], (28, 27, 2)),  # Schreiberling's '*' (64'er 2/86 p. 102)
    ("*", 2, [("*", "$", 7)], (32, 23, 2)),
    ("*", 3, [("s", ":", 8), ("*", "$", 6)], (25, 30, 2)),
]


@pytest.mark.parametrize("glyph,seed,learned,measured", SECOND_DAMAGE)
def test_dollar_read_as_a_glyph_with_other_damage_repairs_nothing_wrong(glyph, seed, learned, measured):
    # High IQ printed in capitals, every '$' outside quotes read as *glyph* (10/85 p. 73: 't') and, on a
    # line, up to two of its 'O', '1', ':' read as '0', 'l', 's' besides (each at one chance in
    # two): the lines with the one misreading are repaired first and teach the habit, which then
    # repairs lines with more damage; 0 lines taken that are not the program's
    rnd = random.Random(seed)
    rows = _high_iq()
    out = []
    for number, text, checksum in rows:
        new = "".join(glyph if c == "$" and text[:k].count('"') % 2 == 0 else c for k, c in enumerate(text))
        for _ in range(2):
            spots = [k for k, c in enumerate(new) if c in "O1:" and new[:k].count('"') % 2 == 0]
            if spots and rnd.random() < 1 / 2:
                k = rnd.choice(spots)
                new = new[:k] + {"O": "0", "1": "l", ":": "s"}[new[k]] + new[k + 1 :]
        out.append(f"{number} {new} <{checksum:03d}>")
    result, = read_listings("\n".join(out) + "\n", "t")
    truth = {number: line_body(body, True) for number, body, _ in rows}
    assert [r.number for r in result.lines if r.status in ("verified", "repaired") and r.body != truth[r.number]] == []
    assert [(h.printed, h.meant, len(h.lines)) for h in result.habits] == learned
    assert (result.count("verified"), result.count("repaired"), result.count("bad")) == measured


def printed(number: int, meant: str, shown: str | None = None) -> str:
    """A capital listing's line as printed: *shown* (the OCR's reading) with the checksum of *meant*."""
    body = line_body(meant, True)
    assert body is not None
    return f"{number} {meant if shown is None else shown} <{line_checksum(number, body, ChecksumOptions(3)):03d}>"


@pytest.mark.parametrize("text,k,mark", [
    ("REM *\u2666* SAVE FILE ***", 5, "*"),  # 10/85 p. 74 line 40000
    ("REM ****************************\u2666", 32, "*"),  # 10/85 p. 73 line 34000
    ("REM *** A *\u2666*", 11, "*"),
    ("REM --\u2666", 6, ""),  # a row of two: too short
    ("REM ***\u2666A", 7, ""),  # a letter after it: the glyph may be a word's
    ("REM *\u2666-", 5, ""),  # two marks
    ("A\u2666A", 1, ""),  # no mark
    ("REM ==\u2666==", 6, "="),
])
def test_row_mark(text, k, mark):
    assert _row_mark(text, k) == mark


# (the line meant, as OCR read it, status, text taken): generated shapes of 9/85 p. 70 and 10/85 p. 73-74
MARK_GLYPHS = [
    ("REM *** SAVE FILE ***", "REM *\u2666* SAVE FILE ***", "repaired", "REM *** SAVE FILE ***"),
    ("REM ***RAHMEN***", "REM *\u2666*RAHMEN***", "repaired", "REM ***RAHMEN***"),
    ("REM *****************", "REM ****************\u2666", "repaired", "REM *****************"),
    (":", "\u25a0", "repaired", ":"),
    # the glyph was a letter: the row's mark does not verify, nothing is taken
    ("REM *A* SAVE FILE ***", "REM *\u2666* SAVE FILE ***", "bad", "REM *\u2666* SAVE FILE ***"),
    ("REM", "\u25a0", "bad", "\u25a0"),
]


@pytest.mark.parametrize("meant,shown,status,text", MARK_GLYPHS)
def test_an_unreadable_glyph_in_a_row_of_one_mark(meant, shown, status, text):
    result, = read_listings("\n".join([printed(10, "PRINT 1"), printed(20, meant, shown), printed(30, "END")]) + "\n", "t")
    got = next(r for r in result.lines if r.number == 20)
    assert (got.status, got.text) == (status, text)


@pytest.mark.parametrize("texts,rival", [
    (('PRINT"{12DOWN}"', 'PRINT"{12D0WN}"'), False),  # the same bytes: one line, read two ways
    (("A=1", "A=I"), True),
])
def test_a_reading_of_the_same_bytes_is_no_rival(texts, rival):
    fixes = [Fix(1.0, texts[0], (Edit(0, 1, "A", 1.0, "A read as A"),), True), Fix(1.2, texts[1], (), True)]
    assert _unrivalled(fixes, True, 1.0) is not rival
