"""``basic read`` on real print: 64'er OCR against the program on the magazine's disk.

The figures asserted here are the ones measured and reported in bench/README.md (docs/typein.md sums them up); the manifest of
origin is tests/manifests/basic_read/MANIFEST.md; the files themselves are test data from
elsewhere (tests/testdata.py), never committed: without them these tests skip.
"""

from __future__ import annotations

import pytest
from helpers import real_text

from asm6502.basic.tokenizer import tokenize
from asm6502.typein.cslisting.accept import Choice, accept
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import unblanked

COLLECTION = "basic_read"


def figures(real_reading, ocr: str, disk: str, listing: int = 0, confirmed: tuple[Choice, ...] = ()) -> dict:
    """The figures of one listing against its disk (the page's one reading: conftest.real_reading)."""
    result = real_reading(ocr)[listing] if not confirmed else accept(real_reading(ocr), confirmed)[listing]
    truth = {line.number: line.body for line in tokenize(real_text(COLLECTION, disk), filename=disk).lines}
    options = ChecksumOptions(result.version)
    on_disk = [r for r in result.lines if r.number in truth]

    def same(r) -> bool:
        return r.body is not None and unblanked(r.body) == unblanked(truth[r.number])

    def same_but_quoted_blanks(r) -> bool:
        # a blank inside quotes that OCR lost (or added) is invisible to the checksum: a
        # repair elsewhere in such a line is judged on what it changed
        return r.body is not None and r.body.replace(b" ", b"") == truth[r.number].replace(b" ", b"")

    return {
        "version": result.version,
        "lines": len(result.lines),
        # the disk texts are petcat listings: a line whose body is one blank cannot be typed back
        # from them, so a few printed lines (':' or 'REM') have no disk line to compare with
        "on disk": len(on_disk),
        "verified": result.count("verified"),
        "verified != disk": sum(not same(r) for r in on_disk if r.status == "verified"),
        "repaired": result.count("repaired"),
        "repaired != disk": sum(not same_but_quoted_blanks(r) for r in on_disk if r.status == "repaired"),
        "quoted blanks lost": sum(same_but_quoted_blanks(r) and not same(r) for r in on_disk),
        "bad": result.count("bad"),
        "unchecked": result.count("unchecked"),  # the checksum field unreadable
        "accepted": result.count("accepted"),  # fixes the user confirmed (--accept)
        "accepted != disk": sum(not same_but_quoted_blanks(r) for r in on_disk if r.status == "accepted"),
        # lines where the printed checksum is the disk line's: print and disk agree there
        "print = disk": sum(r.checksum == line_checksum(r.number, truth[r.number], options) for r in on_disk),
        "best fix = disk": sum(r.status == "bad" and _fix_is_disk(r, truth, result.upper, 1) for r in on_disk),
        "top 3 fixes hold disk": sum(r.status == "bad" and _fix_is_disk(r, truth, result.upper, 3) for r in on_disk),
        "program = disk": all(same(r) for r in on_disk) and len(on_disk) == len(truth) == len(result.lines),
        # the listing comes back whole: no line left bad, every disk line read, and every line whose
        # printed checksum is the disk line's reads as the disk's line; the others are lines the
        # magazine printed differently from its disk (the print's own checksum verifies the print)
        "whole": result.count("bad") == result.count("unchecked") == 0 and set(truth) <= {r.number for r in result.lines} and all(
            same(r) for r in on_disk if r.checksum == line_checksum(r.number, truth[r.number], options)),
        "missing": sorted(set(truth) - {r.number for r in result.lines}),
        "printed differently": sorted(r.number for r in on_disk
                                      if r.checksum != line_checksum(r.number, truth[r.number], options)),
    }


def _fix_is_disk(report, truth, upper, among: int) -> bool:
    """The disk's line is among the first *among* fixes offered for a bad line."""
    from asm6502.typein.cslisting.text import line_body

    # (blanks inside quotes too: one the print lost cannot be read back, the checksum skips it)
    want = truth.get(report.number, b"?").replace(b" ", b"")
    bodies = [line_body(text, upper) for text in report.fixed_texts[:among]]
    return any(body is not None and body.replace(b" ", b"") == want for body in bodies)


KEYS = ("lines", "on disk", "verified", "verified != disk", "repaired", "repaired != disk", "bad", "unchecked",
        "print = disk", "best fix = disk", "top 3 fixes hold disk")
# measured, in the order of KEYS.  All of them are tuning material: TUNED the listings the OCR confusions in
# typein/cslisting/edits.py were first studied on; LATER the seven added later (10/85, 9/85, 11/85), held
# out once and looked at too often since, tuning now (a held-out set comes from other issues)
TUNED = [
    # 10/85 p. 32: two columns, control codes and shifted letters OCR turned into symbols.
    # 3 verified lines differ from the disk: 170 and 840 were printed differently from the disk
    # (their printed checksums verify the print), 540 reads two shifted letters as one other
    # shifted letter whose rotated bits sum to the same checksum
    ("8510-p32-floppy-adjust.ocr.txt", 0, "8510-floppy-adjust.disk.txt", (75, 75, 29, 3, 23, 0, 23, 0, 72, 9, 11)),
    # 10/85 p. 54-56: one column, DATA lines with l for 1, lines broken over rows, a block of
    # 12 lines OCR read column by column; three REM rules lost at a line's end (900, 1000, 1864)
    # are offered first, not taken (no gap shows them: verdict._sure_rule)
    ("8510-p54-schreiberling.ocr.txt", 0, "8510-schreiberling.disk.txt", (231, 231, 143, 0, 79, 0, 9, 0, 231, 6, 6)),
    # 10/85 p. 131-132: two listings, each of them one run-together row in the OCR (line 340's
    # extra blank inside quotes is invisible to the checksum)
    ("8510-p131-alarmanlage-codeschloss.ocr.txt", 0, "8510-alarmanlage.disk.txt", (72, 60, 54, 0, 16, 0, 2, 0, 60, 1, 1)),
    ("8510-p131-alarmanlage-codeschloss.ocr.txt", 1, "8510-codeschloss.disk.txt", (93, 74, 82, 1, 8, 0, 2, 1, 73, 2, 2)),
]
LATER = [
    # 10/85 p. 73: the last page of "Hypra-Text" (Listing 1, lines 30580-56109), one column with
    # the lines broken over rows, '$' read as 't' all over the page (a habit its 20 sure repairs
    # show: habits.repaired_habits), shifted letters; line 40010
    # in the row of 40000's checksum, which OCR set against the text ('At-----<019> 40010 IF');
    # key names printed in square brackets read back from misread brackets (56104 'CF8J' repaired;
    # 31061 'CFlJ' and 34090 'EF13' now offered with the disk's line, beside a shifted letter)
    ("8510-p73-hypra-text.ocr.txt", 0, "8510-hypra-text.disk.txt", (118, 118, 46, 1, 40, 0, 32, 0, 117, 3, 7)),
    # 10/85 p. 74: "ZLOADER" (Listing 3), two columns as tab-separated cells; the print has ':'
    # where the disk has REM blocks (4900, 7000); rows that go on with a line and start with
    # digits ('63', '99 THEN 5042', '152)' before the line's checksum) are the line's, not lines
    # of their own (their numbers do not rise between their neighbours); 9999's first row beside
    # 8499's checksum, its rest under an empty cell of the left column (recut.py cuts the two)
    ("8510-p74-zloader.ocr.txt", 0, "8510-zloader.disk.txt", (74, 74, 43, 3, 28, 0, 3, 0, 72, 2, 2)),
    # 10/85 p. 74: Listing 4, DATA lines each with one graphics character in quotes; line 8538
    # after 8536's checksum in a row with a tab before its own; four print a quote as an apostrophe
    # (grammar.misread_data_quotes)
    ("8510-p74-zloader-aender.ocr.txt", 0, "8510-zloader-aender.disk.txt", (32, 32, 1, 0, 0, 0, 31, 0, 32, 26, 28)),
    # 9/85 p. 73: "Blinker", Listing 2 the demo (shifted letters in
    # DATA strings, '$' read as '^') and Listing 1 the loader (DATA lines)
    ("8509-p73-blinker.ocr.txt", 0, "8509-blinker-demo.disk.txt", (28, 28, 9, 0, 12, 0, 7, 0, 28, 0, 0)),
    ("8509-p73-blinker.ocr.txt", 1, "8509-blinker.disk.txt", (11, 11, 10, 1, 1, 0, 0, 0, 10, 0, 0)),
    # 9/85 p. 70-71: "Disk-Designer", two columns with the right column's numbers in
    # cells of their own; 5 verified lines differ from the disk only by blanks OCR put into or
    # lost from strings (invisible to the checksum; those beside a control code's braces are dropped,
    # text.without_print_blanks).  Rules were learned from it (the page footer,
    # a speck touching the checksum, 'i0i0' on p. 73)
    # (lines 1110 and 1120 ran together, 1120's row without its number: read again, recut.py;
    # so 870/880 and 1330-1370, witnessed by sure repairs of their ':' read as 's')
    ("8509-p70-disk-designer.ocr.txt", 0, "8509-disk-designer.disk.txt", (249, 249, 112, 5, 114, 0, 23, 0, 249, 4, 4)),
    # 11/85 p. 89: "Sichere INPUT-Routine",
    # Listing 3 up to "Fortsetzung auf Seite 95", one column; '$' read as 'T' all over the page
    # (PAT, INT, MIDT: the listing's habit, learned from 18 lines that verify with it, habits.py),
    # a field '<242x' (1 unchecked line is counted bad); lines 1000-1110 ran together with their
    # checksums read row by row (recut.py: 9 lines more read)
    ("8511-p89-input-routine.ocr.txt", 0, "8511-input-routine.disk.txt", (108, 108, 59, 0, 32, 0, 16, 1, 107, 6, 7)),
]
MEASURED = TUNED + LATER


@pytest.mark.parametrize("ocr,listing,disk,measured", MEASURED)
def test_real_print_against_the_disk(ocr, listing, disk, measured, real_reading):
    got = figures(real_reading, ocr, disk, listing)
    print(got)
    assert got["version"] == 3
    assert tuple(got[k] for k in KEYS) == measured
    assert got["repaired != disk"] == 0  # every repair made without asking is the disk's line
    assert not got["program = disk"]  # the bad lines stand in the way, each named with its fixes


def test_a_real_listing_comes_back_whole(real_reading):
    # 9/85 p. 73, the Blinker loader (no rule was studied on it while it was held out): every line verifies or
    # is repaired; it is the disk's program but for line 11, which the magazine printed without
    # the disk's cursor moves and default address in the INPUT prompt (its printed checksum
    # verifies the printed line, not the disk's)
    got = figures(real_reading, "8509-p73-blinker.ocr.txt", "8509-blinker.disk.txt", 1)
    assert got["whole"] and got["printed differently"] == [11]


@pytest.mark.parametrize("page,number,status,word", [
    # the listing prints the word whole in another line, and nowhere with the blank OCR put in
    ("8509-p70-disk-designer.ocr.txt", 250, "repaired", '"<2RIGHT,D0WN,3SPACE>VERSEHEN WERDEN.'),  # 'WER DEN'
    ("8509-p70-disk-designer.ocr.txt", 290, "repaired", "MIT LOSCHSCHUTZ :"),  # 'LOSCHSCH UTZ'
    ("8509-p70-disk-designer.ocr.txt", 240, "repaired", "<2SPACE>KOENNEN<2SPACE>"),  # 'K0E NNEN' repaired, then settled
    # 'ANGEHAENGT' in line 270 and 'ANGEH AENGT' in line 360: the inserted blank is the damage
    ("8509-p70-disk-designer.ocr.txt", 270, "verified", "ANGEHAENGT"),
    # no other line of Input-Routine prints DRUECKEN: the blank stays as printed
    ("8511-p89-input-routine.ocr.txt", 3040, "bad", "DRU ECKEN"),
])
def test_blanks_inside_quotes_settled_by_the_listings_words(page, number, status, word, real_reading):
    (line,) = [r for r in real_reading(page)[0].lines if r.number == number]
    assert line.status == status and word in (line.fixed_texts[0] if status == "bad" else line.text)


def test_two_listings_on_one_page_are_read_separately(real_reading):
    assert [len(r.lines) for r in real_reading("8510-p131-alarmanlage-codeschloss.ocr.txt")] == [72, 93]


# the fixes a user confirms, line by line (basic read --accept): the first fix offered for each
# line that stands in the way, where it is the disk's line
CONFIRMED = [
    # Alarmanlage: 510's first fix ('O. K.' for '0. K.'); 350 ('D. K-' for 'O. K.': two less
    # likely misreadings) stays bad, the only line in the way -- to be typed (basic type)
    ("8510-alarmanlage.disk.txt", 0, (Choice(510, 1, 1),), {"bad": 1, "unchecked": 0, "accepted": 1, "missing": []}),
    # Codeschloss: 250 ('-' for ':'), 350 (a rule of 11 dashes in quotes lost), 540 (its field
    # '<m>' unreadable: taken unchecked, as printed); line 570 OCR garbled with its number
    # ('57cTc2T^"^^') is named (between 560 and 580) and must be typed
    ("8510-codeschloss.disk.txt", 1, (Choice(250, 1, 2), Choice(350, 1, 2), Choice(540, 1, 2)),
     {"bad": 0, "unchecked": 0, "accepted": 3, "missing": [570]}),
]


@pytest.mark.parametrize("disk,listing,choices,want", CONFIRMED)
def test_a_tuned_page_with_the_fixes_a_user_confirms(disk, listing, choices, want, real_reading):
    got = figures(real_reading, "8510-p131-alarmanlage-codeschloss.ocr.txt", disk, listing, choices)
    assert {k: got[k] for k in want} == want
    assert got["accepted != disk"] == got["repaired != disk"] == 0


def test_real_print_settles_how_v3_counts_positions(real_reading):
    # checksummer.py's open question: does the rotation count the skipped blanks?  The printed
    # values against the disk's lines say no
    counts = {False: 0, True: 0}
    printed = 0
    for ocr, listing, disk, _ in TUNED[:2]:  # (the other two have lines the disk text cannot hold)
        truth = {line.number: line.body for line in tokenize(real_text(COLLECTION, disk), filename=disk).lines}
        for r in real_reading(ocr)[listing].lines:
            printed += 1
            for spaces in counts:
                counts[spaces] += r.checksum == line_checksum(r.number, truth[r.number], ChecksumOptions(3, spaces))
    assert (printed, counts[False], counts[True]) == (306, 303, 62)


@pytest.mark.parametrize("ocr,listing", [m[:2] for m in MEASURED])
def test_every_line_is_accounted_for(ocr, listing, real_reading):
    result = real_reading(ocr)[listing]
    for r in result.lines:
        assert r.status in ("verified", "repaired", "bad", "unchecked")
    bad = {d.message.split("line ")[1].split()[0].rstrip(":") for d in result.errors if "line " in d.message}
    assert {str(r.number) for r in result.lines if r.status in ("bad", "unchecked")} <= bad


@pytest.mark.parametrize("disk,listing,choices,typed", [
    ("8510-alarmanlage.disk.txt", 0, (Choice(510, 1, 1),), ['350 print"kontakt"a": o. k.{down}" <029>']),
    ("8510-codeschloss.disk.txt", 1, (Choice(250, 1, 2), Choice(350, 1, 2), Choice(540, 1, 2)),
     ["570 c2$ = c2$ + right$ ( str$ (x) , 1 ) <107>"]),
])
def test_a_tuned_page_comes_back_whole_with_the_confirmed_fixes_and_the_lines_typed(disk, listing, choices, typed,
                                                                                   real_reading):
    # the workflow: basic read --accept ... --fix --force writes the corrected listing (what still
    # stands in the way kept with its printed checksum); basic type resumes it, names those lines,
    # and checks each line typed from the page against its printed checksum
    from asm6502.typein.basic import BasicSession

    fixed = accept(real_reading("8510-p131-alarmanlage-codeschloss.ocr.txt"), choices)[listing].corrected_listing()
    session, _ = BasicSession.resume(fixed)
    for line in typed:
        assert session.feed(line)[0].startswith(("ok", "replaced")), line
    result, = read_listings(session.listing(), "typed")
    truth = {line.number: line.body for line in tokenize(real_text(COLLECTION, disk), filename=disk).lines}
    assert result.ok and {r.number for r in result.lines} >= set(truth)
    differ = [r.number for r in result.lines if r.number in truth and unblanked(r.body) != unblanked(truth[r.number])]
    # Codeschloss line 340: 'CODESCHL OSS', a blank OCR put into quotes (the checksum skips it)
    assert differ == ([] if listing == 0 else [340])
