"""``mse read`` is bounded on any input: a listing's repairs try ocr.LISTING_READINGS readings
at most; a line the budget stops says so and is not repaired unasked."""

from __future__ import annotations

import random

from asm6502.typein.mselisting import ocr, read_listing

LOOKALIKES = "0OQDB8S5I1lZ2G6"


def _listing(n: int) -> str:
    """n V1.0 lines of look-alike characters, their checksums as random as their bytes."""
    rng = random.Random(1)
    rows = [f"PROGRAMM : TEST C000 {0xC000 + 8 * n:04X}"]
    rows += [f"{0xC000 + 8 * i:04X} : " + " ".join(rng.choice(LOOKALIKES) + rng.choice(LOOKALIKES) for _ in range(9))
             for i in range(n)]
    return "\n".join(rows) + "\n"


def test_a_long_ambiguous_listing_reads_within_the_budget(monkeypatch):
    calls = []
    original = ocr.verifies
    monkeypatch.setattr(ocr, "verifies", lambda address, digits: calls.append(1) or original(address, digits))
    result = read_listing(_listing(150), "ambiguous.txt")
    assert result.lines == 150
    # each reading tried is one checksum; a line's own check and its byte swaps are a few more
    assert len(calls) <= ocr.LISTING_READINGS + 20 * 150
    stopped = [d for d in result.diagnostics if any(n.message.startswith("not searched further: ") for n in d.notes)]
    assert len(stopped) > 50
    assert all(d.is_error for d in stopped)  # a line whose search was cut short is left bad, not repaired


def test_a_short_listing_is_searched_in_full():
    result = read_listing(_listing(4), "short.txt")
    assert not any("not searched further" in n.message for d in result.diagnostics for n in d.notes)
