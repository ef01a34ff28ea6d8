"""A listing's own misreadings (asm6502.typein.cslisting.habits): learned from the lines that verify
with them, then a cheap misreading of the listing's other lines; never learned from chance witnesses.

The listings here are High IQ (build/highiq.prg) printed by ``checksum_listing`` in capitals, one of
BASIC's grammar marks (habits.MEANT) read as one glyph at every place it can be, as one OCR run
does on one page (64'er 11/85 p. 89 read every '$' as 'T').
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from asm6502.typein.cslisting.checksum import checksum_listing
from asm6502.typein.cslisting.edits import habit_places
from asm6502.typein.cslisting.habits import FALSE_LEARNING, MIN_LINES, RATE_MARGIN, learnable
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

ROOT = Path(__file__).parent.parent
ROW = re.compile(r"(\d+) (.*?)\s+<(\d+)>$")


def high_iq_rows() -> list[tuple[int, str, int]]:
    listing, _ = checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())
    rows = []
    for row in listing.upper().splitlines():
        m = ROW.match(row)
        assert m is not None, row
        rows.append((int(m.group(1)), m.group(2), int(m.group(3))))
    return rows


def with_habit(rows: list[tuple[int, str, int]], meant: str, printed: str) -> tuple[str, set[int]]:
    """The listing with *meant* read as *printed* at every place a habit can be; the lines changed."""
    out, changed = [], set()
    for number, text, checksum in rows:
        where = habit_places(text).get(meant, [])
        new = "".join(printed if k in where else c for k, c in enumerate(text))
        if new != text:
            changed.add(number)
        out.append(f"{number} {new} <{checksum:03d}>")
    return "\n".join(out) + "\n", changed


# (meant, read as, measured: lines changed, witnesses learned, lines repaired, lines left bad).
# Each glyph is no misreading the general table knows for the mark (edits.PAIRS, ONE_WAY): only
# the listing's own lines can teach it.  The lines left bad hold the mark two or more times at
# places a keyword's letters share, or a REM rule edit rivals the habit.
HABITS = [
    ("$", "T", (9, 9, 9, 0)),  # 11/85 p. 89: 'PAT', 'MIDT(', 'CHRT(14)'
    ("$", "S", (9, 9, 9, 0)),
    (":", "Z", (22, 22, 18, 4)),
    (";", "J", (12, 12, 12, 0)),
    ("(", "K", (22, 20, 18, 4)),
    (")", "J", (27, 25, 23, 4)),
    (",", "V", (10, 9, 10, 0)),
]


@pytest.mark.parametrize("meant,printed,measured", HABITS)
def test_a_habit_is_learned_from_the_lines_it_verifies_and_repairs_the_others(meant, printed, measured):
    rows = high_iq_rows()
    text, changed = with_habit(rows, meant, printed)
    result, = read_listings(text, "t")
    truth = {number: line_body(body, True) for number, body, _ in rows}
    assert [(h.printed, h.meant) for h in result.habits] == [(printed, meant)]
    assert set(result.habits[0].lines) <= changed
    # nothing wrong is taken: every line verified or repaired is the program's
    assert [r.number for r in result.lines if r.status in ("verified", "repaired") and r.body != truth[r.number]] == []
    assert (len(changed), len(result.habits[0].lines), result.count("repaired"), result.count("bad")) == measured


def test_a_listing_without_a_habit_learns_none():
    rows = high_iq_rows()
    text = "\n".join(f"{n} {t} <{c:03d}>" for n, t, c in rows) + "\n"
    result, = read_listings(text, "t")
    assert result.habits == () and result.count("verified") == len(rows)


def _upper_tail(k: int, mean: float) -> float:
    """P(X >= k), X Poisson(mean): the upper terms summed (the module sums the lower ones)."""
    if mean == 0:
        return 0.0 if k > 0 else 1.0
    return sum(math.exp(i * math.log(mean) - mean - math.lgamma(i + 1)) for i in range(k, k + 200))


@pytest.mark.parametrize("mean", [0.01, 0.05, 0.1, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("tried", [1, 50, 300, 2000])
def test_chance_witnesses_at_twice_the_rate_teach_nothing(mean, tried):
    # two wrong repairs never teach a habit, and the fewest witnesses that do are ones chance gives
    # less than FALSE_LEARNING times over every pair tried even at RATE_MARGIN times the rate of
    # independent readings (the V3 checksum sums edits one rotation apart alike)
    fewest = next(k for k in range(1, 1000) if learnable(k, mean, tried))
    assert fewest >= MIN_LINES > 2
    assert tried * _upper_tail(fewest, RATE_MARGIN * mean) <= FALSE_LEARNING * 1.000001
    assert fewest > RATE_MARGIN * mean
    # and one witness fewer would have been learned from chance more often than that
    if fewest > MIN_LINES:
        assert tried * _upper_tail(fewest - 1, RATE_MARGIN * mean) > FALSE_LEARNING
