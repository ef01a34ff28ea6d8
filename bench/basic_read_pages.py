#!/usr/bin/env python3
"""``basic read`` on the real magazine pages (the test-data collection basic_read): CPU time per page.

Each OCR page is read with ``read_listings`` (what ``asm6502 basic read`` runs, without the
start-up); the lines verified, repaired and still bad are printed with the best CPU time of R
rounds.  ``--against DIR`` times another asm6502 tree (e.g. an older commit, ``git archive
COMMIT asm6502 | tar -x -C DIR``) in the same run: the two run in alternating rounds, each in a
process of its own, so that a slow spell of the shared machine falls on both alike.  The pages
are third-party material, read from the test-data folder (tests/testdata.py: $ASM6502_TESTDATA,
then the shared reference material beside the checkout), each checked against its manifest.

    .venv/bin/python bench/basic_read_pages.py --repeat 5
    .venv/bin/python bench/basic_read_pages.py --repeat 5 --against OLD_CHECKOUT
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
import testdata  # noqa: E402

COLLECTION = "basic_read"


def worker() -> None:
    """One round: every page read once; JSON lines (page, CPU seconds, counts) on stdout."""
    try:
        from asm6502.typein.cslisting.read import read_listings
    except ImportError:  # a tree from before the type-in package (--against an older commit)
        from asm6502.basic.csread import read_listings  # type: ignore[no-redef]

    for name in testdata.names(COLLECTION, ".ocr.txt"):
        path = testdata.path(COLLECTION, name)
        text = path.read_text(encoding="utf-8")
        start = time.process_time()
        results = read_listings(text, path.name)
        took = time.process_time() - start
        counts = [sum(r.count(s) for r in results) for s in ("verified", "repaired", "bad")]
        print(json.dumps([path.name, took, counts]))


def round_of(tree: Path) -> list:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, __file__, "--worker"], env=env, cwd="/", check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, help="another asm6502 tree (the directory holding asm6502/)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    missing = testdata.available(COLLECTION)
    if missing:
        raise SystemExit(missing)
    trees = {"this": ROOT} | ({"against": args.against.resolve()} if args.against else {})
    best: dict[tuple[str, str], float] = {}
    counts: dict[tuple[str, str], list[int]] = {}
    for _ in range(args.repeat):
        for name, tree in trees.items():
            for page, took, c in round_of(tree):
                best[(name, page)] = min(took, best.get((name, page), took))
                counts[(name, page)] = c
    pages = sorted({page for _, page in best})
    head = "page".ljust(44) + "".join(f"{n + ' s':>10}{'ver/rep/bad':>14}" for n in trees)
    print(f"basic read, CPU time best of {args.repeat}\n{head}")
    for page in pages:
        row = "".join(f"{best[(n, page)]:10.2f}{'/'.join(map(str, counts[(n, page)])):>14}" for n in trees)
        print(page.ljust(44) + row)


if __name__ == "__main__":
    main()
