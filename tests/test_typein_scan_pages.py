"""``typein scan`` on real issue pages: the listings a person finds by reading them.

The OCR excerpts lie outside the checkout (``$ASM6502_SCAN_PAGES``, a folder named scan_pages);
the repository keeps tests/manifests/scan_pages/manifest.jsonl (where each came from, its
characters and sha256).  Without the folder the tests skip and say why.  Each row of the tables is a
listing as a person reads it on the page: the text its first line starts with, its format, its lines.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import collection  # noqa: E402

from asm6502.typein.scan import scan  # noqa: E402

NAME = "scan_pages"
ENV = "ASM6502_SCAN_PAGES"
MANIFEST = ROOT / "tests" / "manifests" / NAME / "manifest.jsonl"
FILES = [json.loads(row) for row in MANIFEST.read_text(encoding="utf-8").splitlines() if row.strip()]


def page(name: str) -> str:
    coll, why = collection.from_environment(ENV, NAME)
    if coll is None:
        pytest.skip(why)
    return coll.read(name)


@pytest.mark.parametrize("entry", FILES, ids=[e["file"] for e in FILES])
def test_every_excerpt_spans_the_characters_the_manifest_names(entry):
    assert entry["repo"] == "mist64/64er-magazin.de" and len(entry["commit"]) == 40 and len(entry["sha256"]) == 64
    assert not entry["path"].startswith(("issues/8512/", "issues/8601/", "issues/8602/"))  # (the held-out issues)
    lo, hi = entry["chars"]
    assert hi - lo == len(page(entry["file"]))


# (file, the first line's text as printed, format, lines, whole)
LISTINGS = [
    ("8511-p95-p96.issue.ocr.txt", "10\tPOKE 1022,0", "checksummer-3", 7, True),  # Listing 4 (line 20's ':' read as 's' after typographic quotes)
    ("8511-p95-p96.issue.ocr.txt", "1\tDATA 169, 49", "basic", 3, True),  # Tips & Tricks 'Mischmasch', no caption
    ("8511-p95-p96.issue.ocr.txt", "lOO\t—; 01d-Befehl", "hypra-ass", 73, False),  # its '$' read as '#'
    ("8510-p17-p19.issue.ocr.txt", "100 REM ****", "basic-7.0", 10, False),  # Listing 1 (110 holds a graphics mark)
    ("8510-p17-p19.issue.ocr.txt", "10 PRINT-HABEN SIE", "basic-7.0", 16, True),  # Listing 2
    ("8510-p17-p19.issue.ocr.txt", "10 INPUT A", "basic-7.0", 3, True),  # an example in the text (ELSE)
    # the first example (DO WHILE): its lines 10 and 20 run into the end of the sentence before ('D0' for DO)
    ("8510-p17-p19.issue.ocr.txt", "WHILE und UNTIL", "basic-7.0", 4, False),
    ("8510-p17-p19.issue.ocr.txt", "10 D0", "basic-7.0", 4, False),  # another ('D0' for DO: still bad)
    ("8511-p86-p88.issue.ocr.txt", "0\tREM\t****", "checksummer-3", 75, False),  # Spritekill's DATA loader
    ("8511-p86-p88.issue.ocr.txt", "10 FOR 1=659 TO 763", "checksummer-3", 7, True),  # Screen-Dump
    ("8511-p95-p96.issue.ocr.txt", "60490\tON CO GOSUB", "checksummer-3", 59, False),  # the INPUT-Routine's end (60510 as '60310')
]


@pytest.mark.parametrize("name, first, fmt, lines, whole", LISTINGS)
def test_each_listing_a_person_finds_is_found_in_its_format(name, first, fmt, lines, whole):
    text = page(name)
    rows = text.split("\n")
    found = [f for f in scan(text, name) if rows[f.line - 1].startswith(first)]
    assert [f.format for f in found] == [fmt]
    r = found[0].reading
    assert (r.unchecked or r.verified + r.repaired + r.bad, r.whole) == (lines, whole)


@pytest.mark.parametrize("name, reports", [("8511-p95-p96.issue.ocr.txt", 4), ("8510-p17-p19.issue.ocr.txt", 5),
                                           ("8511-p86-p88.issue.ocr.txt", 3)])
def test_no_report_a_person_would_not_find(name, reports):
    # 11/85 p. 95-96: the four above; 10/85: the five above; 11/85 p. 86-88: the
    # two above and the Pseudo-Interrupt's MSE rows
    assert len(scan(page(name), name)) == reports
