"""``basic read`` is bounded on any input: a line's rankings read at most rank.MAX_LINE_TEXTS
texts, a listing's read.LISTING_TEXTS; when a budget stops the search the line says so, and a
search cut short repairs nothing unasked."""

from __future__ import annotations

import random

import pytest

from asm6502.typein.cslisting import rank, read
from asm6502.typein.cslisting.read import read_listings

AMBIGUOUS = "O0lI1|S5B8:;.,\"'"


def _listing(n: int, seed: int = 1, with_rules: bool = True) -> str:
    """n lines of OCR-ambiguous characters (and REM rules), each with a checksum drawn at random."""
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        rules = " ".join("-" * rng.randrange(3, 12) for _ in range(8)) if with_rules else ""
        body = "".join(rng.choice(AMBIGUOUS) for _ in range(30))
        rows.append(f"{10 * (i + 1)} REM {rules}{body} <{rng.randrange(256):03d}>")
    return "\n".join(rows) + "\n"


@pytest.fixture
def rankings(monkeypatch):
    """Every ranking's Tried, as read_listings leaves it."""
    seen: dict[int, rank.Tried] = {}  # line number: the Tried of its last ranking
    original = read.rank_fixes

    def counted(*args, **kwargs):
        fixes = original(*args, **kwargs)
        if kwargs.get("tried") is not None:
            seen[args[0]] = kwargs["tried"]
        return fixes

    monkeypatch.setattr(read, "rank_fixes", counted)
    return seen


def test_a_long_ambiguous_listing_reads_within_the_budgets(rankings):
    (result,) = read_listings(_listing(150), "ambiguous.txt")
    assert len(result.lines) == 150
    # each line's budget holds, and the listing's: the first ranking's texts and the second's, once each
    assert max(t.read for t in rankings.values()) <= rank.MAX_LINE_TEXTS
    assert sum(t.read for t in rankings.values()) <= read.LISTING_TEXTS
    stopped = [d for d in result.diagnostics for n in d.notes if n.message.startswith("not searched further: ")]
    assert len(stopped) > 100  # the budget ran out early on: most lines say so
    assert all(r.status != "repaired" for r in result.lines if any(
        d.span and d.span.line == r.line for d in stopped))
    # once the listing's budget is spent a line reads nothing: the work per further line is
    # finding its candidates, whatever the listing's length
    last = rankings[max(rankings)]
    assert last.read == 0 and last.skipped > 0


def test_a_short_listing_is_searched_in_full(rankings):
    (result,) = read_listings(_listing(6, with_rules=False), "short.txt")
    assert rankings and all(t.skipped == 0 for t in rankings.values())
    assert not any("not searched further" in n.message for d in result.diagnostics for n in d.notes)
