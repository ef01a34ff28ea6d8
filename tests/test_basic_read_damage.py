"""``basic read`` against synthetic OCR damage (asm6502.typein.cslisting.damage): nothing wrong is taken.

The figures of many copies are in bench/basic_ocr_roundtrip.py; here a few seeded copies of
High IQ at twice the realistic rates, so the default suite stays fast.
"""

from __future__ import annotations

import random
from pathlib import Path

from asm6502.typein.cslisting import damage as csdamage
from asm6502.typein.cslisting.checksum import checksum_listing
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

ROOT = Path(__file__).parent.parent


def test_no_damaged_line_is_taken_wrong():
    rng = random.Random(7)
    listing, _ = checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())
    rates = {k: min(1.0, 2 * v) for k, v in csdamage.REALISTIC.items()}
    damaged_lines = taken = 0
    for _ in range(3):
        damaged = csdamage.damage_listing(listing, rng, classes=rates)
        result, = read_listings(damaged.text, "t")
        truth = {t.number: t for t in damaged.lines}
        assert [r.number for r in result.lines] == [t.number for t in damaged.lines]
        for r in result.lines:
            t = truth[r.number]
            if r.status in ("verified", "repaired"):
                assert r.body == line_body(t.text, True), (r.number, t.text, r.printed, r.repair)
            if t.classes:
                damaged_lines += 1
                taken += r.status == "repaired"
            else:
                assert r.status == "verified"
    # measured on this sample: 22 of 55 damaged lines repaired without asking; the rest asked
    assert damaged_lines > 20 and 5 * taken >= 2 * damaged_lines


def test_damage_is_what_the_classes_say():
    listing, _ = checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())
    clean = csdamage.damage_listing(listing, random.Random(1), classes={})
    assert all(not t.classes for t in clean.lines)
    result, = read_listings(clean.text, "t")
    assert result.ok and result.count("verified") == len(clean.lines) == 57 and result.upper
