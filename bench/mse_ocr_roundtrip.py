#!/usr/bin/env python3
"""Round trip: mse write -> simulated OCR damage -> mse read -> bytes, with figures.

For Superhirn II (build/superhirn.prg, as printed) and generated programs, each listing is
damaged with asm6502.typein.mselisting.damage at the REALISTIC per-line rates (upper- and lower-case
print), read back, and every damaged line is counted as
  verified  - read to the true bytes as printed (structural damage: separator, letters,
              specks, run-together lines),
  repaired  - the reader chose the true reading itself (the print showed the damage),
  WRONG     - the line verified as misread (a checksum collision) or the reader repaired it
              to something else than the truth,
  user: 1st / top 3 / other - left to the user; where the true fix is in the ranked list.
A listing is "recovered" when its bytes come back equal without any user choice;
"recovered after user picks the 1st fix" counts applying the first fix of every bad line.

    .venv/bin/python bench/mse_ocr_roundtrip.py [--programs 200] [--superhirn-copies 50] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from asm6502.typein import mselisting as mse
from asm6502.typein.mselisting import damage

ROOT = Path(__file__).resolve().parents[1]


def listings(n: int, rng: random.Random, copies: int = 50):
    """Superhirn *copies* times (each copy damaged differently), then *n* generated programs."""
    prg = (ROOT / "build" / "superhirn.prg").read_bytes()
    for _ in range(copies):
        yield "superhirn", mse.write_listing(0x3400, prg[2:], name="SUPERHIRN II", end=0x360C, fill=0xFF)
    for k in range(n):
        size = rng.randrange(16, 800)
        load = rng.randrange(0x0801, 0xC000 - size)
        data = bytes(rng.randrange(256) for _ in range(size))
        layout = rng.choice(mse.LAST_LINE_LAYOUTS)
        yield "generated", mse.write_listing(load, data, name=f"P{k}", last_line=layout, fill=0)


def measure(n_programs: int, seed: int, rates: dict[str, float], copies: int = 50) -> dict[str, Counter]:
    rng = random.Random(seed)
    figures: dict[str, Counter] = {}
    for kind, text in listings(n_programs, rng, copies):
        truth = mse.read_listing(text, "clean.txt")
        assert truth.ok
        for lower in (False, True):
            c = figures.setdefault(f"{kind} {'lower' if lower else 'upper'}", Counter())
            d = damage.damage_listing(text, rng, classes=rates, lower=lower)
            res = mse.read_listing(d.text, "ocr.txt")
            by_address = {r.address: r for r in res.report}
            c["listings"] += 1
            c["lines"] += len(d.lines)
            picked = True
            for t in d.lines:
                r = by_address.get(t.address)
                if not t.classes:
                    continue
                c["damaged lines"] += 1
                chars = "chars " if t.changed else ""  # lines with misread characters, counted apart too
                if r is None:
                    outcome = "line lost"
                    picked = False
                elif r.status in ("verified", "repaired"):
                    ok = r.data == t.data[: len(r.data)]
                    outcome = r.status if ok else f"WRONG {r.status}"
                    picked &= ok
                elif r.fixes[:1] == (t.data,):
                    outcome = "user: 1st"
                elif t.data in r.fixes[:3]:
                    outcome = "user: top 3"
                    picked = False
                else:
                    outcome = "user: other"
                    picked = False
                c[outcome] += 1
                if chars:
                    c["chars damaged"] += 1
                    c[chars + outcome] += 1
            c["recovered"] += res.ok and res.data == truth.data
            c["recovered after user picks the 1st fix"] += picked
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--superhirn-copies", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"rates per line: {damage.REALISTIC}")
    for name, c in measure(args.programs, args.seed, damage.REALISTIC, args.superhirn_copies).items():
        dmg = c["damaged lines"]
        auto = c["verified"] + c["repaired"]
        user = c["user: 1st"] + c["user: top 3"] + c["user: other"]
        print(f"\n{name}: {c['listings']} listings, {c['lines']} lines, {dmg} damaged")
        print(f"  read automatically  {auto:6d} ({auto / dmg:.1%})  verified {c['verified']}, repaired {c['repaired']}, "
              f"WRONG {c['WRONG verified'] + c['WRONG repaired']}, lost {c['line lost']}")
        print(f"  left to the user    {user:6d} ({user / dmg:.1%})  true fix 1st {c['user: 1st']}, "
              f"in top 3 {c['user: top 3']}, further down/absent {c['user: other']}")
        n = c["chars damaged"]
        print(f"  of these, {n} with misread characters: verified {c['chars verified']}, repaired "
              f"{c['chars repaired']}, left to the user {c['chars user: 1st'] + c['chars user: top 3'] + c['chars user: other']}"
              f" (true fix 1st {c['chars user: 1st']}, top 3 {c['chars user: top 3']}, other {c['chars user: other']}), "
              f"WRONG: verified {c['chars WRONG verified']} (checksum collision), repaired {c['chars WRONG repaired']}")
        print(f"  listings recovered  {c['recovered']}/{c['listings']} without help, "
              f"{c['recovered after user picks the 1st fix']}/{c['listings']} taking the 1st fix of each bad line")


if __name__ == "__main__":
    main()
