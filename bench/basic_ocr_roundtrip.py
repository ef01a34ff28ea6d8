#!/usr/bin/env python3
"""Round trip: basic checksum -> simulated OCR damage -> basic read, with figures (issue 24).

build/highiq.prg is printed as a Checksummer V3 listing in capitals, damaged with
asm6502.typein.cslisting.damage at the REALISTIC per-line rates (or --rate x REALISTIC), read back, and
every damaged line is counted as
  verified  - read to the true line (the damage does not change what the C64 stores),
  repaired  - the reader chose the true reading itself,
  WRONG     - verified or repaired to something else than the true line,
  user: 1st / top 3 / other - left to the user; where the true line is in the ranked fixes.

    .venv/bin/python bench/basic_ocr_roundtrip.py [--copies 20] [--seed 1] [--rate 1.0]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from pathlib import Path

from asm6502.typein.cslisting import damage as csdamage
from asm6502.typein.cslisting.checksum import checksum_listing
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

ROOT = Path(__file__).resolve().parents[1]


def run(copies: int, seed: int, rate: float) -> Counter:
    rng = random.Random(seed)
    listing, _ = checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())
    rates = {k: min(1.0, v * rate) for k, v in csdamage.REALISTIC.items()}
    counts: Counter = Counter()
    for _ in range(copies):
        damaged = csdamage.damage_listing(listing, rng, classes=rates)
        result, = read_listings(damaged.text, "bench")
        truth = {t.number: t for t in damaged.lines}
        for report in result.lines:
            t = truth[report.number]
            if not t.classes:
                counts["undamaged"] += 1
                continue
            counts["damaged"] += 1
            true_body = line_body(t.text, True)
            if report.status in ("verified", "repaired"):
                counts[report.status if report.body == true_body else "WRONG"] += 1
            else:
                bodies = [line_body(f, True) for f in report.fixed_texts]
                if report.fixed_texts and bodies[0] == true_body:
                    counts["user: 1st"] += 1
                elif true_body in bodies[:3]:
                    counts["user: top 3"] += 1
                else:
                    counts["user: other"] += 1
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=1.0, help="multiply the REALISTIC rates")
    args = ap.parse_args()
    start = time.perf_counter()
    counts = run(args.copies, args.seed, args.rate)
    took = time.perf_counter() - start
    damaged = counts["damaged"]
    print(f"High IQ x {args.copies} copies, damage rate x {args.rate}: {damaged} damaged lines "
          f"({counts['undamaged']} undamaged), {took:.1f} s")
    for key in ("verified", "repaired", "WRONG", "user: 1st", "user: top 3", "user: other"):
        print(f"  {key:12} {counts[key]:5}  {100 * counts[key] / max(1, damaged):5.1f} %")


if __name__ == "__main__":
    main()
