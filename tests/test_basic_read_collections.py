"""``basic read`` and its review on a fresh held-out collection: 64'er 12/85, 1/86 and 2/86 pages nobody tuned on.

The files lie outside the checkout (``$ASM6502_BASIC_READ_FRESH``, a folder named basic_read_fresh);
the repository keeps only tests/manifests/basic_read_fresh/manifest.jsonl (where every file came
from, its sha256 and git blob id; which reading of which OCR file each disk program is the truth
of).  Without the folder the tests that read it skip and say why.  The figures the collection gives
(lines verified, repaired, still bad, decisions per listing) are measured by
``bench/review_decisions.py --collection DIR`` and stated in bench/README.md; asserted here is only
what must hold on any print: no line repaired without a person is other than the disk's (blanks
aside), the review, walked with the disk's lines, takes no line the disk does not have, and every
disk line typed in it reads as typed.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import collection  # noqa: E402
import review_decisions as rd  # noqa: E402

from asm6502.typein.cslisting.read import read_listings  # noqa: E402

NAME = "basic_read_fresh"
ENV = "ASM6502_BASIC_READ_FRESH"
MANIFEST = ROOT / "tests" / "manifests" / NAME / "manifest.jsonl"
ENTRIES = [json.loads(row) for row in MANIFEST.read_text(encoding="utf-8").splitlines() if row.strip()]
FILES = {e["file"]: e for e in ENTRIES if e["kind"] == "file"}
LISTINGS = [e for e in ENTRIES if e["kind"] == "listing"]


def fresh() -> collection.Collection:
    folder = os.environ.get(ENV)
    if not folder:
        pytest.skip(f"{ENV} is not set (the folder of the {NAME} files: tests/manifests/{NAME}/manifest.jsonl)")
    if Path(folder).name != NAME:
        pytest.skip(f"{ENV}={folder}: the folder must be named {NAME} (its manifest's name)")
    why = collection.missing(Path(folder))
    if why:
        pytest.skip(why)
    return collection.load(folder)


@pytest.mark.parametrize("entry", list(FILES.values()), ids=list(FILES))
def test_every_file_names_where_it_came_from(entry):
    assert entry["repo"] == "mist64/64er-magazin.de"
    assert len(entry["commit"]) == 40 and len(entry["git_blob"]) == 40 and len(entry["sha256"]) == 64
    assert entry["path"].startswith(("issues/8512/", "issues/8601/", "issues/8602/"))  # issues nothing before was read from


@pytest.mark.parametrize("entry", LISTINGS, ids=[f"{e['disk']}#{e['index']}" for e in LISTINGS])
def test_every_listing_names_files_of_the_manifest(entry):
    assert entry["ocr"] in FILES and entry["disk"] in FILES
    assert entry["ocr"].endswith(".ocr.txt") and entry["disk"].endswith(".disk.txt")


def test_the_files_are_the_ones_the_manifest_names():
    coll = fresh()
    for name in coll.files:
        if (coll.folder / name).is_file() or name in coll.needed:
            coll.read(name)  # raises where the sha256 differs (or a listing's file is absent)


EXCERPTS = [e for e in FILES.values() if e["chars"]]


@pytest.mark.parametrize("entry", EXCERPTS, ids=[e["file"] for e in EXCERPTS])
def test_an_excerpt_spans_the_characters_the_manifest_names(entry):
    # read_file returns a CRLF file's line ends as LF: there each newline is two upstream characters
    coll = fresh()
    why = collection.missing(coll.folder, [entry["file"]])
    if why:
        pytest.skip(why)
    text = coll.read(entry["file"])
    lo, hi = entry["chars"]
    assert hi - lo == len(text) + (text.count("\n") if entry.get("upstream_line_ends") == "CRLF" else 0)


PARTIAL = [e for e in LISTINGS if e.get("not_printed")]


@pytest.mark.parametrize("entry", PARTIAL, ids=[f"{e['disk']}#{e['index']}" for e in PARTIAL])
def test_the_disk_lines_a_page_leaves_out_are_not_measured(entry):
    coll = fresh()
    x = next(x for x in coll.listings if (x.ocr, x.index, x.disk) == (entry["ocr"], entry["index"], entry["disk"]))
    left_out = [n for n in rd.disk_lines(x.disk, coll.disk_text(x)) if any(a <= n <= b for a, b in x.not_printed)]
    assert left_out == []
    assert rd.disk_lines(x.disk, coll.read(x.disk)).keys() > rd.disk_lines(x.disk, coll.disk_text(x)).keys()


@pytest.mark.parametrize("entry", LISTINGS, ids=[f"{e['disk']}#{e['index']}" for e in LISTINGS])
def test_the_review_takes_no_line_the_disk_does_not_have(entry):
    coll = fresh()
    x = next(x for x in coll.listings if (x.ocr, x.index, x.disk) == (entry["ocr"], entry["index"], entry["disk"]))
    results = read_listings(coll.read(x.ocr), x.ocr)
    truth = rd.disk_lines(x.disk, coll.disk_text(x))
    repaired_otherwise = [r.number for r in results[x.index].lines if r.status == "repaired" and r.number in truth
                          and (r.body is None or r.body.replace(b" ", b"") != truth[r.number][1].replace(b" ", b""))]
    assert repaired_otherwise == []
    m = rd.measure(x.ocr, x.index, x.disk, results, coll.disk_text(x))
    assert m["wrong"] == 0
    assert m["refused"] == 0


@pytest.fixture(scope="module")
def p74_p89() -> list:
    """The scan of 12/85 pages 74-89 (once for the module: it takes seconds)."""
    from asm6502.typein.scan import scan

    name = "8512-p74-p89.issue.ocr.txt"
    coll = fresh()
    why = collection.missing(coll.folder, [name])
    if why:
        pytest.skip(why)
    return scan(coll.read(name), name)


@pytest.mark.parametrize("row, fmt, title", [
    # 12/85 p. 76-77: Hyperscreen's demo over a page break, its caption on both pages: one listing
    (180, "checksummer-3", "Listing 2. Demoprogramm zu »Hyperscreen« (Schluß)"),
    # p. 83-86: Seeschlacht, its first page with the checksums in a column after the lines: one listing from there
    (710, "checksummer-3", "Listing »Seekrieg per Telefon« (Schluß)"),
    # p. 79-81: Graphik-80 (BASIC 7.0, no checksums) over three pages: one listing, from its line 1
    (396, "basic-7.0", "Listing 1. »Graphik-80« (Schluß)"),
])
def test_the_scan_of_the_fresh_issue_reads_each_printed_listing_as_one(p74_p89, row, fmt, title):
    found = p74_p89
    (f,) = [f for f in found if f.line == row]
    assert (f.format, f.title) == (fmt, title)
    nxt = [g.line for g in found if g.line > row]
    assert not nxt or nxt[0] > f.last_line  # nothing else starts inside it
