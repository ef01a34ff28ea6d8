#!/usr/bin/env python3
"""Decisions per listing in ``basic read --review`` on real print, a user with the disk at hand.

Each listing of the test-data collection basic_read (tests/testdata.py) is read as ``basic read``
reads it; then the review session (asm6502.typein.review, the same session the terminal loop
drives) is walked by a simulated user who has the magazine page and whose typing is the disk's
program: for each line shown, the key of the first fix that is the disk's line (blanks outside
quotes aside, as tests/test_basic_read_real.py compares) -- ``a`` for the open lines whose first
fixes are of one kind where at least two of them are the disk's lines, leaving out the others (one
decision: the person compares those lines with the page at once) -- else ``t`` and the disk's line typed in
the listing's own style with the checksum the disk's line gives (read off the page: where the
print and the disk agree, it is the printed one).  A line the disk does not have is skipped, and
so is one whose disk text the session reads otherwise as typed (petcat's ``''`` is read as a
quote, as OCR gives it): "refused".

Printed per listing: lines, verified, repaired, still bad before the review, decisions (fixes
taken + lines retyped), lines taken that differ from the disk (wrong), lines no review item
reaches (missing from the reading: their number lost in the OCR; the disk's lines the page does
not print, NOT_ON_PAGE, are no such line), and whether the program then is the disk's (whole: every
line the page prints).  All of them are tuning material: LATER marks the seven added after the
first four (held out once, looked at too often since).  ``--collection DIR`` measures the listings
of another collection instead (bench/collection.py: a folder outside the checkout and its
tests/manifests/<folder name>/manifest.jsonl; basic_read_fresh is one nobody tuned on).

    .venv/bin/python bench/review_decisions.py
    .venv/bin/python bench/review_decisions.py --collection $ASM6502_BASIC_READ_FRESH
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
import testdata  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
import collection  # noqa: E402

from asm6502.basic.case import from_capitals  # noqa: E402
from asm6502.basic.tokenizer import tokenize  # noqa: E402
from asm6502.typein.cslisting import review as csreview  # noqa: E402
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum  # noqa: E402
from asm6502.typein.cslisting.read import read_listings  # noqa: E402
from asm6502.typein.cslisting.text import line_body, unblanked  # noqa: E402
from asm6502.typein.review import ReviewSession  # noqa: E402

COLLECTION = "basic_read"
LISTINGS = [  # (ocr, listing, disk, added later)
    ("8510-p32-floppy-adjust.ocr.txt", 0, "8510-floppy-adjust.disk.txt", False),
    ("8510-p54-schreiberling.ocr.txt", 0, "8510-schreiberling.disk.txt", False),
    ("8510-p131-alarmanlage-codeschloss.ocr.txt", 0, "8510-alarmanlage.disk.txt", False),
    ("8510-p131-alarmanlage-codeschloss.ocr.txt", 1, "8510-codeschloss.disk.txt", False),
    ("8510-p73-hypra-text.ocr.txt", 0, "8510-hypra-text.disk.txt", True),
    ("8510-p74-zloader.ocr.txt", 0, "8510-zloader.disk.txt", True),
    ("8510-p74-zloader-aender.ocr.txt", 0, "8510-zloader-aender.disk.txt", True),
    ("8509-p73-blinker.ocr.txt", 0, "8509-blinker-demo.disk.txt", True),
    ("8509-p73-blinker.ocr.txt", 1, "8509-blinker.disk.txt", True),
    ("8509-p70-disk-designer.ocr.txt", 0, "8509-disk-designer.disk.txt", True),
    ("8511-p89-input-routine.ocr.txt", 0, "8511-input-routine.disk.txt", True),
]


# Disk lines the OCR excerpt does not print (tests/manifests/basic_read/MANIFEST.md): the
# Input-Routine's lines 60490-63959 are printed on p. 95, outside the excerpt, and 2120-2140 are
# not printed; ZLOADER's disk has REM blocks at 4900 and 7000 where the print has one ':' line.
# They are no line a reading could miss, and a listing is whole without them.
NOT_ON_PAGE = {"8511-input-routine.disk.txt": ((60490, 63959), (2120, 2140)),
               "8510-zloader.disk.txt": ((4901, 4909), (7001, 7009))}


def on_page(disk: str, number: int) -> bool:
    return not any(lo <= number <= hi for lo, hi in NOT_ON_PAGE.get(disk, ()))


def disk_lines(name: str, text: str | None = None) -> dict[int, tuple[str, bytes]]:
    """The disk's lines: number -> (petcat text, bytes); *text* the file's text when read already."""
    if text is None:
        text = testdata.path(COLLECTION, name).read_text(encoding="utf-8")
    bodies = {line.number: line.body for line in tokenize(text, filename=name).lines}
    out = {}
    for row in text.splitlines():
        head, _, rest = row.strip().partition(" ")
        if head.isdigit() and int(head) in bodies:
            out[int(head)] = (rest, bodies[int(head)])
    return out


def measure(ocr: str, listing: int, disk: str, results=None, disk_text: str | None = None) -> dict:
    """The review of one listing walked with the disk's lines (*results*: the page as read, if read
    already; *disk_text*: the disk file's text, if read already)."""
    if results is None:
        results = read_listings(testdata.path(COLLECTION, ocr).read_text(encoding="utf-8"), ocr)
    result = results[listing]
    truth = {n: line for n, line in disk_lines(disk, disk_text).items() if on_page(disk, n)}
    options = ChecksumOptions(result.version)
    several = len(results) > 1
    prefix = f"{listing + 1}/" if several else ""
    checker = csreview.Checker(results)
    mine = [it for it in csreview.items(results) if it.key.startswith(prefix)]
    session, _ = ReviewSession.start(mine, checker.check, checker.retype)
    refused = 0
    grouped = 0  # lines taken with another in one decision (the review's a)
    numbers = {csreview.key_of(listing + 1, r.number, several): r.number for r in result.lines}
    lost = {csreview.lost_key(listing + 1, x, several): x for x in result.lost}
    read = {r.number for r in result.lines}
    while (item := session.current()) is not None:
        if item.key in lost:  # a line whose number OCR garbled: the disk's line between its neighbours
            x = lost[item.key]
            between = [n for n in truth if x.after < n and (x.following is None or n < x.following) and n not in read]
            if len(between) != 1:
                session.feed("s")
                continue
            n = between[0]
            text, body = truth[n]
            key = next((str(k) for k, fix in enumerate(item.fixes[:9], start=1)
                        if fix.text.split(" ", 1)[0] == str(n)
                        and (b := _body(fix.text.split(" ", 1)[1], result.upper)) is not None
                        and unblanked(b) == unblanked(body)), None)
            if key is not None:  # a number and reading offered is the disk's line
                session.feed(key)
                continue
            styled = from_capitals(text) if result.upper else text
            session.feed("t")
            session.feed(f"{n} {styled} <{line_checksum(n, body, options):03d}>")
            if item.key not in session.decisions:
                refused += 1
                session.feed("s")
            continue
        number = numbers[item.key]
        if number not in truth:
            session.feed("s")
            continue
        group = session.group(item)
        if len(group) > 1:  # the first fixes of a kind of lines: all taken as one decision but those not the disk's
            out = [it.key for it in group if not _first_is_disk(it, numbers, truth, result.upper)]
            if len(group) - len(out) > 1 and item.key not in out:
                session.feed("a" + (" -" + ",".join(out) if out else ""))
                grouped += len(group) - len(out) - 1
                continue
        text, body = truth[number]
        key = next((str(k) for k, fix in enumerate(item.fixes[:9], start=1)
                    if (b := _body(fix.text, result.upper)) is not None and unblanked(b) == unblanked(body)),
                   None)
        if key is not None:
            session.feed(key)
            continue
        styled = from_capitals(text) if result.upper else text
        session.feed("t")
        session.feed(f"{number} {styled} <{line_checksum(number, body, options):03d}>")
        if item.key not in session.decisions:  # the disk's petcat text reads otherwise as a typed line
            refused += 1
            session.feed("s")
    after = csreview.apply(results, session.decisions)[listing]
    on_disk = [r for r in after.lines if r.number in truth]
    fixes = sum(d.kind == "fix" for d in session.decisions.values()) - grouped
    return {
        "lines": len(result.lines), "verified": result.count("verified"), "repaired": result.count("repaired"),
        "bad": result.count("bad") + result.count("unchecked") + len(result.lost),
        "fixes": fixes, "typed": len(session.decisions) - fixes - grouped, "refused": refused,
        "wrong": sum(r.status == "accepted" and (r.body is None or unblanked(r.body) != unblanked(
            truth[r.number][1])) for r in on_disk),
        "missing": len(set(truth) - {r.number for r in after.lines}),
        "whole": after.count("bad") + after.count("unchecked") == 0 and not after.lost
        and set(truth) <= {r.number for r in after.lines} and not after.errors,
    }


def _first_is_disk(item, numbers: dict, truth: dict, upper: bool) -> bool:
    """The first fix of a line's review item is the disk's line."""
    number = numbers.get(item.key)
    if number not in truth or not item.fixes:
        return False
    b = _body(item.fixes[0].text, upper)
    return b is not None and unblanked(b) == unblanked(truth[number][1])


def _body(fix_text: str, upper: bool) -> bytes | None:
    return line_body(fix_text.rsplit(" <", 1)[0], upper)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--collection", metavar="DIR", help="the listings of the collection in DIR (bench/collection.py)")
    args = ap.parse_args()
    if args.collection:
        return main_collection(collection.load(args.collection))
    missing = testdata.available(COLLECTION)
    if missing:
        raise SystemExit(missing)
    print(f"{'listing':<48}{'lines':>6}{'ver':>5}{'rep':>5}{'bad':>5}{'fix':>5}{'typed':>6}{'dec':>5}"
          f"{'wrong':>6}{'miss':>5}{'refused':>8}  whole")
    total = {"later (tuning)": [0, 0, 0], "first four (tuning)": [0, 0, 0]}
    for ocr, listing, disk, held in LISTINGS:
        m = measure(ocr, listing, disk)
        decisions = m["fixes"] + m["typed"]
        name = f"{'LATER ' if held else ''}{disk.removesuffix('.disk.txt')}"
        print(f"{name:<48}{m['lines']:>6}{m['verified']:>5}{m['repaired']:>5}{m['bad']:>5}{m['fixes']:>5}"
              f"{m['typed']:>6}{decisions:>5}{m['wrong']:>6}{m['missing']:>5}{m['refused']:>8}  "
              f"{'yes' if m['whole'] else 'no'}")
        t = total["later (tuning)" if held else "first four (tuning)"]
        t[0] += 1
        t[1] += decisions
        t[2] += m["whole"]
    for which, (n, decisions, whole) in total.items():
        print(f"{which}: {n} listings, {decisions} decisions ({decisions / n:.1f} a listing), {whole} whole")


def main_collection(coll: collection.Collection) -> None:
    """The table for a collection of bench/collection.py: every listing of it is one nothing was tuned on."""
    print(f"{'listing':<48}{'lines':>6}{'ver':>5}{'rep':>5}{'bad':>5}{'fix':>5}{'typed':>6}{'dec':>5}"
          f"{'wrong':>6}{'miss':>5}{'refused':>8}  whole")
    pages: dict[str, list] = {}
    n = decisions_total = whole_total = 0
    for x in coll.listings:
        if x.ocr not in pages:
            pages[x.ocr] = read_listings(coll.read(x.ocr), x.ocr)
        m = measure(x.ocr, x.index, x.disk, pages[x.ocr], coll.disk_text(x))
        decisions = m["fixes"] + m["typed"]
        part = f" {x.lines[0]}-{x.lines[1]}" if x.lines else ""
        name = f"{x.disk.removesuffix('.disk.txt')}{part}"
        print(f"{name:<48}{m['lines']:>6}{m['verified']:>5}{m['repaired']:>5}{m['bad']:>5}{m['fixes']:>5}"
              f"{m['typed']:>6}{decisions:>5}{m['wrong']:>6}{m['missing']:>5}{m['refused']:>8}  "
              f"{'yes' if m['whole'] else 'no'}")
        n += 1
        decisions_total += decisions
        whole_total += m["whole"]
    print(f"{coll.folder.name}: {n} listings, {decisions_total} decisions ({decisions_total / n:.1f} a listing), "
          f"{whole_total} whole")


if __name__ == "__main__":
    main()
