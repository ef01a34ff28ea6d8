"""A listing's own misreadings, learned from its lines (:func:`habits`).

One page is set in one typeface and read by one OCR run: a glyph it misread once it mostly
misread everywhere (64'er 11/85 p. 89 reads every '$' as 'T': ``PAT``, ``MIDT(``, ``CHRT(14)``).
Such a habit no general table can hold -- 'T' is a plain letter on every other page -- but the
listing shows it: read one character of the bad lines as another (at every place of it, or at one),
and the lines that then verify are its witnesses.  A pair is learned when its witnesses are far
more than chance gives: each reading verifies by chance one time in 256, so a pair read in *n*
readings over the lines has about n/256 chance witnesses (a Poisson count), and the pair is
learned only where that count reaching its witnesses is unlikely even at twice that rate and
over every pair tried (:func:`learnable`).  Pairs are learned greedily, the best first, each counting only the lines
no pair before it explains: the V3 checksum rotates each byte by its place, so two edits side
by side whose bit patterns are one rotation apart sum alike, and a pair next to the true one
verifies on the same lines (11/85 p. 89: '=' read for '%' in ``PAT =`` where ``PA$`` is meant).

The listing's sure repairs show habits too (:func:`repaired_habits`: 10/85 p. 73 reads '$' as 't'
in 20 of them), which the bad lines, each with other damage beside it, cannot show alone.

A habit is then a cheap misreading of its lines' ranking (:mod:`.rank`) at the places it was
learned at (:func:`.edits.habit_places`: outside the keywords the line prints whole and the
control names) and the
evidence a repair made of it needs (:func:`.verdict.habitual`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import HABIT_NOTE as NOTE
from asm6502.typein.cslisting.edits import habit_places as places
from asm6502.typein.cslisting.text import Names, statement_bodies

# the characters a habit may stand for: the marks of BASIC's grammar a typeface and an OCR run
# lose to a letter or another mark (a letter for a letter is the general table's, edits.PAIRS)
MEANT = '$:;(),'
MIN_LINES = 3  # witnesses a habit needs at least
FALSE_LEARNING = 1e-3  # the chance that any pair tried is learned from chance witnesses alone, at most
PHASE_ONE = 2  # witnesses at all places at once that make a pair read at each place alone too
MAX_SINGLES = 4  # the places of a character read one at a time (besides all of them at once)


@dataclass(frozen=True)
class Habit:
    """*printed* read where *meant* was printed, at the places :func:`places` names; *lines*: its
    witnesses, the lines that verify with it and with nothing else."""

    printed: str
    meant: str
    lines: tuple[int, ...]
    chance: float  # the witnesses expected from chance alone (Poisson mean)


def poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for a Poisson count of *mean*."""
    if k <= 0:
        return 1.0
    term = math.exp(-mean)
    below = 0.0
    for i in range(k):
        below += term
        term *= mean / (i + 1)
    return max(0.0, 1.0 - below)


RATE_MARGIN = 2.0  # chance witnesses counted at twice the rate of independent readings


def learnable(witnesses: int, mean: float, tried: int) -> bool:
    """*witnesses* lines are more than chance gives a pair whose readings give *mean* chance
    witnesses, over *tried* pairs: at least MIN_LINES, and so many that even at RATE_MARGIN
    times the chance rate (readings of one line are not independent: a V3 checksum sums edits
    one rotation apart alike) some pair of the *tried* reaching them is less likely than
    FALSE_LEARNING."""
    return witnesses >= MIN_LINES and tried * poisson_tail(witnesses, RATE_MARGIN * mean) <= FALSE_LEARNING


Caches = tuple[dict[str, "bytes | None"], dict, Names]  # a line's statements, chunks, names read (text.statement_bodies)


def habits(lines: Iterable[tuple[int, str, int]], upper: bool, options: ChecksumOptions,
           meant: str = MEANT, caches: list[Caches] | None = None) -> tuple[Habit, ...]:
    """The habits the bad *lines* (number, text as printed, printed checksum) show, best first.

    Read in two rounds: every pair at all its places at once (one reading a line), then the pairs
    that found PHASE_ONE witnesses so at each place alone too.  A pair's chance witnesses are
    counted over every reading of both rounds on every line, read or not (the count a full search
    would face): the second round's choice of pairs makes its test no weaker.  *caches*: each
    line's caches of its ranking (rank.Tried), shared: a habit's reading changes one character
    of a line whose other statements the ranking tokenized already, and the second ranking reads
    the habit's readings again."""
    rows = [(number, text, printed, places(text)) for number, text, printed in lines]
    # (a glyph in fewer than MIN_LINES lines can have no more witnesses: its pairs are not read)
    spread: dict[str, int] = {}
    for *_, where in rows:
        for c in where:
            spread[c] = spread.get(c, 0) + 1
    rows = [(number, text, printed, {c: ks for c, ks in where.items() if spread[c] >= MIN_LINES})
            for number, text, printed, where in rows]
    caches = [({}, {}, {}) for _ in rows] if caches is None else caches

    def verifies(at: int, t: str) -> bool:
        number, _, printed, _ = rows[at]
        cache, chunks, names = caches[at]
        body = statement_bodies(t, upper, cache, chunks, names)
        return body is not None and line_checksum(number, body, options) == printed

    witnesses: dict[tuple[str, str], set[int]] = {}
    mean: dict[tuple[str, str], float] = {}
    for at, (number, text, _, where) in enumerate(rows):
        for c, ks in where.items():
            if not ks:
                continue
            for m in meant:
                if m == c:
                    continue
                key = (c, m)
                mean[key] = mean.get(key, 0.0) + ((len(ks) > 1) + min(len(ks), MAX_SINGLES)) / 256
                if verifies(at, "".join(m if k in ks else d for k, d in enumerate(text))):
                    witnesses.setdefault(key, set()).add(number)
    for key in [k for k, w in witnesses.items() if len(w) >= PHASE_ONE]:
        c, m = key
        for at, (number, text, _, where) in enumerate(rows):
            ks = where.get(c, [])
            if number in witnesses[key] or len(ks) < 2:
                continue
            if any(verifies(at, text[:k] + m + text[k + 1 :]) for k in ks[:MAX_SINGLES]):
                witnesses[key].add(number)
    tried = max(1, len(mean))
    learned: list[Habit] = []
    explained: set[int] = set()
    while True:
        best = max(((key, found - explained) for key, found in witnesses.items()
                    if key not in {(h.printed, h.meant) for h in learned}),
                   key=lambda kv: (len(kv[1]), -mean[kv[0]], kv[0]), default=None)
        if best is None:
            break
        key, own = best
        if not learnable(len(own), mean[key], tried):
            break
        learned.append(Habit(key[0], key[1], tuple(sorted(own)), mean[key]))
        explained |= own
    return tuple(learned)


REPAIRED_MIN = 5  # sure repairs that show one mark read as one glyph: a habit of the page


def repaired_habits(repairs: Iterable[tuple[int, str, tuple[tuple[str, str], ...]]],
                    meant: str = MEANT) -> tuple[Habit, ...]:
    """The habits the listing's sure repairs show (number, text as printed, the one-character
    confusions (printed, meant) its fix made): one of BASIC's marks read as one glyph in at
    least REPAIRED_MIN lines repaired without asking (10/85 p. 73 reads '$' as 't' in 20 of
    them, 9/85 p. 70 ':' as 's' in 44).  A repair taken without asking is a chance match
    rarely (none of the tuning pages' 900 is); REPAIRED_MIN of them showing the same pair by
    chance alone is out of reach, so the pair is the page's, like one :func:`habits` finds,
    whose witnesses have each other damage beside it.  Best first (most lines)."""
    lines: dict[tuple[str, str], set[int]] = {}
    for number, _, pairs in repairs:
        for key in set(pairs):
            if key[1] in meant and key[0] != key[1] and key[0] not in " \"":
                lines.setdefault(key, set()).add(number)
    return tuple(Habit(c, m, tuple(sorted(w)), 0.0)
                 for (c, m), w in sorted(lines.items(), key=lambda kv: (-len(kv[1]), kv[0])) if len(w) >= REPAIRED_MIN)


__all__ = ["FALSE_LEARNING", "REPAIRED_MIN", "repaired_habits", "Habit", "MEANT", "MIN_LINES", "NOTE", "RATE_MARGIN", "habits", "learnable", "poisson_tail"]
