"""The widest ranking of a line no narrower one finds a reading for: several independent
misreadings in one line, each where the print shows damage (64'er 10/85 p. 73 line 34560:
``CHRt(PEEK(X>);:X=X+l`` is ``CHR$(PEEK(X));:X=X+1``, three slips at once; line 33020:
``At=At<PQ):At(PQ)=At``, the listing's 't' for '$' at four places and a '(' read as '<').

The pairs and triples of :mod:`.rank` take only the likeliest moves; here every combination of
the moves where the print shows damage (:func:`shown_moves`) is read, cheapest first -- the
subsets of a list sorted by cost, each reached once, each after every cheaper one (from a subset
whose last move is the i-th: add the (i+1)-th, or put it in the i-th's stead).  The search is
bounded, and says where it stopped: a pool of :data:`WIDE_MOVES` moves at most (the cheapest
:data:`PER_PLACE` readings of one place), readings up to :data:`WIDE_COST`, :data:`WIDE_TEXTS`
texts read and :data:`WIDE_STEPS` subsets looked at at most; a search that stops at a bound before
its cost limit returns the subsets left (:attr:`.rank.Tried.wide_left`: a line whose search
stopped so takes nothing unasked, and says so).  Every reading is offered only: each one read is one more chance match
in 256 (:meth:`.rank.Tried.chance_matches` counts them), and the listing's own words
(:func:`.verdict.confirmed`) are the only witness that may take one unasked.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from asm6502.typein.cslisting.edits import (
    BRACKETS_LOST,
    HABIT_NOTE,
    PAIR_EXTRA,
    SPACED_DIGIT_WHY,
    UNDERLINED,
    Edit,
    apply,
    overlaps,
    quote_flags,
    readable,
    suspect,
)
from asm6502.typein.cslisting.names import KEY_WHY, NAME_LETTER_WHY, NAME_WHY
from asm6502.typein.cslisting.verdict import broken_name, damage_left

Move = tuple[tuple[Edit, ...], float]

WIDE_MOVES = 20  # moves in the pool at most (the cheapest)
PER_PLACE = 2  # readings of one place at most (an unreadable glyph has sixty)
WIDE_MOVE_COST = 2.0  # a move dearer than this is not in the pool
WIDE_COST = 6.0  # a reading dearer than this (its moves and PAIR_EXTRA for each beyond one) is not tried
WIDE_TEXTS = 200  # texts read at most (each a chance match in 256: the readings are offered only)
WIDE_STEPS = 2_000  # subsets looked at at most (the ones whose moves overlap are looked at, not read)
_SHOWN_WHY = ("blanks inside a keyword", "':' not read", BRACKETS_LOST, NAME_WHY, NAME_LETTER_WHY, KEY_WHY,
              SPACED_DIGIT_WHY)


def shown_moves(text: str, upper: bool, moves: list[Move]) -> list[Move]:
    """The pool: the moves whose every change is where the print shows damage (:func:`.edits.suspect`),
    a blank inside a keyword, brackets lost, or one of the listing's habits; never a glyph solved
    or a rule's length (their readings are many); the cheapest :data:`PER_PLACE` of each place, the
    cheapest :data:`WIDE_MOVES` in all."""
    def shown(e: Edit) -> bool:
        if e.why.startswith(("underlined", "a rule of", "a row of")):
            return False
        return e.why in _SHOWN_WHY or e.why.endswith(HABIT_NOTE) or all(
            k < len(text) and suspect(text, k, upper) for k in range(e.start, max(e.end, e.start + 1)))

    pool = sorted((m for m in moves if m[1] <= WIDE_MOVE_COST and all(shown(e) for e in m[0])),
                  key=lambda m: (m[1], m[0][0].start))
    per_place: dict[tuple[int, int], int] = {}
    seen: set[frozenset[tuple[int, int, str]]] = set()
    out: list[Move] = []
    for m in pool:
        effect = frozenset((e.start, e.end, e.new) for e in m[0])
        if effect in seen:  # (a habit's reading and the table's alike: the cheaper one)
            continue
        seen.add(effect)
        place = (m[0][0].start, m[0][0].end) if len(m[0]) == 1 else (-1, id(m))
        if per_place.get(place, 0) >= PER_PLACE:
            continue
        per_place[place] = per_place.get(place, 0) + 1
        out.append(m)
        if len(out) == WIDE_MOVES:
            break
    return out


def plain_damage(text: str, upper: bool) -> frozenset[int]:
    """The places whose character alone is damage, as :func:`.verdict.damage_left` reads them: a
    character with no PETSCII code anywhere; outside quotes a small letter in a capital listing;
    inside them an underlined capital OCR made a symbol of.  A reading that leaves one of them
    unchanged leaves damage: it is not read."""
    quoted = quote_flags(text)
    return frozenset(k for k, c in enumerate(text) if not readable(c) or (
        upper and (c.islower() if not quoted[k] else c in UNDERLINED and suspect(text, k, upper))))


def _in_name(text: str, k: int) -> bool:
    """text[k] stands after an opening bracket of a control name and before its closing one."""
    return max(text.rfind(c, 0, k + 1) for c in "<{[") > max(text.rfind(c, 0, k) for c in ">}]")


def search(text: str, upper: bool, pool: list[Move], consider: Callable[..., None],
           texts_read: Callable[[], int]) -> int:
    """Every combination of *pool*'s moves that do not overlap and leave none of the print's
    damage (:func:`.verdict.damage_left`: a reading that leaves some is no explanation of the
    line, and not read), cheapest first, handed to *consider* (offered only); *texts_read*: the
    caller's count of texts read.  Returns the
    subsets left when a bound (:data:`WIDE_TEXTS`, :data:`WIDE_STEPS`) stopped the search before
    :data:`WIDE_COST` did: 0 when every reading up to that cost was read."""
    needed = plain_damage(text, upper)
    covers = [frozenset(k for e in m[0] for k in range(e.start, max(e.end, e.start + 1))) & needed for m in pool]
    if not pool or not needed <= frozenset().union(*covers):
        return 0  # (a place of plain damage no move reads: no combination explains the line)
    if broken_name(text) and not any(_in_name(text, e.start) for m in pool for e in m[0]):
        return 0  # (a control name left unread that no move reads)
    costs = [c for _, c in pool]
    start = texts_read()
    heap: list[tuple[float, tuple[int, ...]]] = [(costs[0], (0,))]
    steps = 0
    while heap:
        key, chosen = heapq.heappop(heap)
        if key > WIDE_COST:
            return 0
        if steps >= WIDE_STEPS or texts_read() - start >= WIDE_TEXTS:
            return len(heap) + 1
        steps += 1
        moves = [pool[i] for i in chosen]
        edits = [e for m in moves for e in m[0]]
        if needed <= frozenset().union(*(covers[i] for i in chosen)) \
                and not any(overlaps(a, b) for i, a in enumerate(edits) for b in edits[i + 1 :]) \
                and not damage_left(apply(text, tuple(edits)), upper):
            consider(tuple(moves), PAIR_EXTRA * (len(moves) - 1), offered=True)
        last = chosen[-1]
        if last + 1 < len(pool):
            heapq.heappush(heap, (key + costs[last + 1] + PAIR_EXTRA, (*chosen, last + 1)))
            heapq.heappush(heap, (key - costs[last] + costs[last + 1], (*chosen[:-1], last + 1)))
    return 0


__all__ = ["PER_PLACE", "WIDE_COST", "WIDE_MOVES", "WIDE_STEPS", "WIDE_TEXTS", "search", "shown_moves"]
