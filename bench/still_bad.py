#!/usr/bin/env python3
"""The lines ``basic read`` leaves bad on real print, each beside the disk's line (a maintainer's view).

For each listing of bench/review_decisions.py (``--held`` the seven added later,
else the first four; all of them tuning material now):
every line still bad, unchecked or lost, as read (OCR), the disk's line in the listing's style, and
where the disk's line stands among the ranked fixes (``-`` not among them).  Then the counts of
verified / repaired / bad / wrong repairs (a repaired line that is not the disk's, blanks outside
quotes aside; one that differs only in blanks inside quotes, which no checksum sees, is counted
apart).

    .venv/bin/python bench/still_bad.py
    .venv/bin/python bench/still_bad.py --held
    .venv/bin/python bench/still_bad.py --collection $ASM6502_BASIC_READ_FRESH   # another collection's listings
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import collection  # noqa: E402
import review_decisions as rd  # noqa: E402

from asm6502.basic.case import from_capitals  # noqa: E402
from asm6502.typein.cslisting.read import read_listings  # noqa: E402
from asm6502.typein.cslisting.text import unblanked  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--held", action="store_true", help="the seven listings added later (held out once, tuning now)")
    ap.add_argument("--quiet", action="store_true", help="only the counts")
    ap.add_argument("--collection", metavar="DIR", help="the listings of the collection in DIR (bench/collection.py)")
    args = ap.parse_args()
    pages: dict[str, list] = {}
    total = [0, 0, 0, 0, 0]
    if args.collection:  # (ocr, listing, disk, the OCR's text, the disk's text)
        coll = collection.load(args.collection)
        todo = [(x.ocr, x.index, x.disk, lambda x=x: coll.read(x.ocr), lambda x=x: coll.disk_text(x))
                for x in coll.listings]
    else:
        todo = [(ocr, listing, disk, lambda ocr=ocr: rd.testdata.path(rd.COLLECTION, ocr).read_text(encoding="utf-8"),
                 lambda: None) for ocr, listing, disk, held in rd.LISTINGS if held == args.held]
    for ocr, listing, disk, ocr_text, disk_text in todo:
        if ocr not in pages:
            pages[ocr] = read_listings(ocr_text(), ocr)
        result = pages[ocr][listing]
        truth = rd.disk_lines(disk, disk_text())
        differ = [r for r in result.lines if r.status == "repaired" and r.number in truth
                  and (r.body is None or unblanked(r.body) != unblanked(truth[r.number][1]))]
        # (a blank inside quotes is invisible to the checksum: the print's extra blanks stay as printed)
        blanks = [r for r in differ if r.body is not None
                  and r.body.replace(b" ", b"") == truth[r.number][1].replace(b" ", b"")]
        wrong = [r for r in differ if r not in blanks]
        counts = [result.count("verified"), result.count("repaired"),
                  result.count("bad") + result.count("unchecked") + len(result.lost), len(wrong), len(blanks)]
        total = [a + b for a, b in zip(total, counts)]
        print(f"== {disk}: verified {counts[0]} repaired {counts[1]} bad {counts[2]} wrong {counts[3]}"
              f" (quoted blanks differ {counts[4]})")
        if args.quiet:
            continue
        for r in wrong:
            print(f"WRONG {r.number}\n  ocr  {r.printed}\n  took {r.text}\n  disk {truth[r.number][0]}")
        for r in result.lines:
            if r.status not in ("bad", "unchecked"):
                continue
            disk_text = truth.get(r.number, ("(not on disk)", b""))[0]
            styled = from_capitals(disk_text) if result.upper else disk_text
            rank = next((str(k) for k, t in enumerate(r.fixed_texts, 1)
                         if r.number in truth and (b := rd._body(t, result.upper)) is not None
                         and unblanked(b) == unblanked(truth[r.number][1])), "-")
            print(f"{r.status} {r.number} rank {rank} <{r.checksum}>\n  ocr  {r.printed}\n  disk {styled}")
            for t in r.fixed_texts[:3]:
                print(f"  fix  {t}")
        for x in result.lost:
            print(f"lost after {x.after}\n  ocr  {x.text}")
    print(f"total: verified {total[0]} repaired {total[1]} bad {total[2]} wrong {total[3]}"
          f" (quoted blanks differ {total[4]})")


if __name__ == "__main__":
    main()
