"""``basic read`` and its review on held-out collections of real print: 64'er pages the reader was
not tuned on when each was added, with the programs from the magazine's disks as truth.

- ``basic_read_fresh`` (``$ASM6502_BASIC_READ_FRESH``): 12/85, 1/86 and 2/86, held out when added;
  since then the layout classes of some of its pages were built from it (bench/README.md says which).
- ``basic_read_spring86`` (``$ASM6502_BASIC_READ_SPRING86``): 8/85, 4/86 and 5/86, cut from the raw
  OCR by a helper session that did not read the reader's output; measured, never tuned on.

The files lie outside the checkout (a folder named as the collection); the repository keeps only
tests/manifests/<collection>/manifest.jsonl (where every file came from, its sha256 and git blob id;
which reading of which OCR file each disk program is the truth of).  Without a folder the tests that
read it skip and say why.  The figures a collection gives (lines verified, repaired, still bad,
decisions per listing) are measured by ``bench/review_decisions.py --collection DIR`` and stated in
bench/README.md; asserted here is only what must hold on any print: no line repaired without a
person is other than the disk's (blanks aside), the review, walked with the disk's lines, takes no
line the disk does not have, and every disk line typed in it reads as typed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import collection  # noqa: E402
import review_decisions as rd  # noqa: E402

from asm6502.typein.cslisting.read import read_listings  # noqa: E402

# collection -> (its folder's variable, the issues it is cut from: none the tuning material is from)
COLLECTIONS = {
    "basic_read_fresh": ("ASM6502_BASIC_READ_FRESH", ("issues/8512/", "issues/8601/", "issues/8602/")),
    "basic_read_spring86": ("ASM6502_BASIC_READ_SPRING86", ("issues/8508/", "issues/8604/", "issues/8605/")),
}
TUNING_ISSUES = ("issues/8509/", "issues/8510/", "issues/8511/")
ENTRIES = {name: [json.loads(row) for row in (ROOT / "tests" / "manifests" / name / "manifest.jsonl").read_text(
    encoding="utf-8").splitlines() if row.strip()] for name in COLLECTIONS}
FILES = [(name, e) for name, rows in ENTRIES.items() for e in rows if e["kind"] == "file"]
LISTINGS = [(name, e) for name, rows in ENTRIES.items() for e in rows if e["kind"] == "listing"]


def _id(item: tuple[str, dict]) -> str:
    name, e = item
    return f"{name}:{e['file']}" if e["kind"] == "file" else f"{name}:{e['disk']}#{e['index']}"


def held(name: str) -> collection.Collection:
    coll, why = collection.from_environment(COLLECTIONS[name][0], name)
    if coll is None:
        pytest.skip(why)
    return coll


def fresh() -> collection.Collection:
    return held("basic_read_fresh")


@pytest.mark.parametrize("item", FILES, ids=[_id(i) for i in FILES])
def test_every_file_names_where_it_came_from(item):
    name, entry = item
    assert entry["repo"] == "mist64/64er-magazin.de"
    assert len(entry["commit"]) == 40 and len(entry["git_blob"]) == 40 and len(entry["sha256"]) == 64
    assert entry["path"].startswith(COLLECTIONS[name][1])  # issues nothing before was read from
    assert not entry["path"].startswith(TUNING_ISSUES)


@pytest.mark.parametrize("item", LISTINGS, ids=[_id(i) for i in LISTINGS])
def test_every_listing_names_files_of_the_manifest(item):
    name, entry = item
    names = {e["file"] for n, e in FILES if n == name}
    assert entry["ocr"] in names and entry["disk"] in names
    assert entry["ocr"].endswith(".ocr.txt") and entry["disk"].endswith(".disk.txt")


@pytest.mark.parametrize("name", list(COLLECTIONS))
def test_the_files_are_the_ones_the_manifest_names(name):
    coll = held(name)
    for file in coll.files:
        if (coll.folder / file).is_file() or file in coll.needed:
            coll.read(file)  # raises where the sha256 differs (or a listing's file is absent)


EXCERPTS = [(n, e) for n, e in FILES if e["chars"]]


@pytest.mark.parametrize("item", EXCERPTS, ids=[_id(i) for i in EXCERPTS])
def test_an_excerpt_spans_the_characters_the_manifest_names(item):
    # read_file returns a CRLF file's line ends as LF: there each newline is two upstream characters
    name, entry = item
    coll = held(name)
    why = collection.missing(coll.folder, [entry["file"]])
    if why:
        pytest.skip(why)
    text = coll.read(entry["file"])
    lo, hi = entry["chars"]
    assert hi - lo == len(text) + (text.count("\n") if entry.get("upstream_line_ends") == "CRLF" else 0)


PARTIAL = [(n, e) for n, e in LISTINGS if e.get("not_printed")]


def _listing(name: str, entry: dict) -> tuple[collection.Collection, collection.Listing]:
    coll = held(name)
    return coll, next(x for x in coll.listings if (x.ocr, x.index, x.disk) == (entry["ocr"], entry["index"], entry["disk"]))


@pytest.mark.parametrize("item", PARTIAL, ids=[_id(i) for i in PARTIAL])
def test_the_disk_lines_a_page_leaves_out_are_not_measured(item):
    coll, x = _listing(*item)
    left_out = [n for n in rd.disk_lines(x.disk, coll.disk_text(x)) if any(a <= n <= b for a, b in x.not_printed)]
    assert left_out == []
    assert rd.disk_lines(x.disk, coll.read(x.disk)).keys() > rd.disk_lines(x.disk, coll.disk_text(x)).keys()


@pytest.mark.parametrize("item", LISTINGS, ids=[_id(i) for i in LISTINGS])
def test_the_review_takes_no_line_the_disk_does_not_have(item):
    coll, x = _listing(*item)
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
