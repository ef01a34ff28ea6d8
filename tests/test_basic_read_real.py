"""``basic read`` on real print: 64'er OCR against the program on the magazine's disk (issue 24).

The figures asserted here are the ones measured and reported in the README; the manifest of
origin is tests/fixtures/basic_read/MANIFEST.md.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from asm6502.basic.checksummer import ChecksumOptions, line_checksum
from asm6502.basic.csread import read_listings
from asm6502.basic.tokenizer import tokenize

FIXTURES = Path(__file__).parent / "fixtures" / "basic_read"


def without_blanks(body: bytes) -> bytes:
    """A line's bytes without the blanks outside quotes: 64'er printed a blank after keywords
    that the disk program does not have (the Checksummer skips blanks, so both verify)."""
    out, quote = bytearray(), False
    for b in body:
        if b == 0x22:
            quote = not quote
        if b == 0x20 and not quote:
            continue
        out.append(b)
    return bytes(out)


@cache
def read(ocr: str):
    """The one reading of a fixture (read once for all tests: it ranks fixes for 32 bad lines)."""
    result, = read_listings((FIXTURES / ocr).read_text(encoding="utf-8"), ocr)
    return result


def figures(ocr: str, disk: str) -> dict:
    result = read(ocr)
    truth = {line.number: line.body for line in tokenize((FIXTURES / disk).read_text(), filename=disk).lines}
    options = ChecksumOptions(result.version)
    same = lambda r: r.body is not None and without_blanks(r.body) == without_blanks(truth.get(r.number, b"?"))
    return {
        "version": result.version,
        "lines": len(result.lines),
        "disk lines": len(truth),
        "verified": result.count("verified"),
        "repaired": result.count("repaired"),
        "bad": result.count("bad"),
        "verified = disk": sum(same(r) for r in result.lines if r.status == "verified"),
        "repaired = disk": sum(same(r) for r in result.lines if r.status == "repaired"),
        # lines where the printed checksum is the disk line's: print and disk agree there
        "print = disk": sum(r.checksum == line_checksum(r.number, truth[r.number], options)
                            for r in result.lines if r.number in truth),
        "best fix = disk": sum(r.status == "bad" and _fix_is_disk(r, truth, result.upper, 1) for r in result.lines),
        "top 3 fixes hold disk": sum(r.status == "bad" and _fix_is_disk(r, truth, result.upper, 3) for r in result.lines),
        "program = disk": all(same(r) for r in result.lines) and len(result.lines) == len(truth),
    }


def _fix_is_disk(report, truth, upper, among: int) -> bool:
    """The disk's line is among the first *among* fixes offered for a bad line."""
    from asm6502.basic.csfix import line_body

    want = without_blanks(truth.get(report.number, b"?"))
    bodies = [line_body(text, upper) for text in report.fixed_texts[:among]]
    return any(body is not None and without_blanks(body) == want for body in bodies)


# measured: (lines found, verified, verified = disk, repaired, repaired = disk, still bad, print = disk,
#            bad lines whose first fix is the disk's line, ... whose first three fixes hold it)
MEASURED = [
    # 10/85 p. 32: two columns, control codes and shifted letters OCR turned into symbols
    ("8510-p32-floppy-adjust.ocr.txt", "8510-floppy-adjust.disk.txt", 75, (75, 28, 25, 17, 17, 30, 72, 2, 3)),
    # 10/85 p. 54-56: one column, DATA lines with l for 1, lines broken over rows, a block of
    # 12 lines OCR read column by column
    ("8510-p54-schreiberling.ocr.txt", "8510-schreiberling.disk.txt", 231, (231, 143, 143, 56, 56, 32, 230, 6, 11)),
]


@pytest.mark.parametrize("ocr,disk,disk_lines,measured", MEASURED)
def test_real_print_against_the_disk(ocr, disk, disk_lines, measured):
    got = figures(ocr, disk)
    print(got)
    assert got["version"] == 3 and got["disk lines"] == disk_lines
    assert (got["lines"], got["verified"], got["verified = disk"], got["repaired"], got["repaired = disk"],
            got["bad"], got["print = disk"], got["best fix = disk"], got["top 3 fixes hold disk"]) == measured
    # every repair made without asking is the disk's line
    assert got["repaired = disk"] == got["repaired"]
    # floppy-adjust: 3 verified lines are not the disk's -- lines 170 and 840 were printed
    # differently from the disk (their printed checksums verify the print), line 540 reads two
    # shifted letters as one other shifted letter whose rotated bits sum to the same checksum
    assert not got["program = disk"]  # the bad lines stand in the way, each named with its fixes


def test_real_print_settles_how_v3_counts_positions():
    # checksummer.py's open question: does the rotation count the skipped blanks?  The printed
    # values against the disk's lines say no
    counts = {False: 0, True: 0}
    printed = 0
    for ocr, disk, _, _ in MEASURED:
        truth = {line.number: line.body for line in tokenize((FIXTURES / disk).read_text(), filename=disk).lines}
        for r in read(ocr).lines:
            printed += 1
            for spaces in counts:
                counts[spaces] += r.checksum == line_checksum(r.number, truth[r.number], ChecksumOptions(3, spaces))
    assert (printed, counts[False], counts[True]) == (306, 302, 62)


@pytest.mark.parametrize("ocr", [m[0] for m in MEASURED])
def test_every_line_is_accounted_for(ocr):
    result = read(ocr)
    for r in result.lines:
        assert r.status in ("verified", "repaired", "bad")
    bad = {d.message.split("line ")[1].split()[0].rstrip(":") for d in result.errors if "line " in d.message}
    assert {str(r.number) for r in result.lines if r.status == "bad"} <= bad
