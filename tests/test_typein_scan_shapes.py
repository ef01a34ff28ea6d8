"""``typein scan`` over a table of generated listings: each format, each way a page prints it
(one line a row, number and text in two cells, two columns side by side, over a page break),
1 to 20 lines, in page text with an article, a caption and a page footer around it."""

from __future__ import annotations

import pytest

from asm6502.asm.pipeline import assemble
from asm6502.basic import v7
from asm6502.basic.tokenizer import link_program, tokenize
from asm6502.typein import plain
from asm6502.typein.formats import FORMATS
from asm6502.typein.scan import report, scan, scan_all

ARTICLE = ("Das folgende Programm ist schnell eingetippt. Wer 1985 einen C 64 hatte,\n"
           "kennt die Tips & Tricks: jeder Monat bringt neue Kleinigkeiten.\n")
FOOTER = "76 33Öi*\nAusgabe 12/Dezember 1985\n"  # a page footer as OCR reads it (64'er 12/85)
CAPTION = "Listing 1. »Demo«"

V2_STATEMENTS = ('PRINT "ZEILE {k}"', "POKE 53280,{c}", "FOR I=1 TO {k}:NEXT I", "A=A+{k}")
V7_STATEMENTS = ("GRAPHIC 1,1", "CIRCLE 1,160,100,{k}", "COLOR 0,{c}", "DO WHILE A<{k}:A=A+1:LOOP", "SCNCLR",
                 "FAST")
ASM_STATEMENTS = ("lda #${c:02x}", "sta $d020", "l{k} inx", "bne l{k}", "rts")


def _basic(n: int, statements: tuple[str, ...]) -> list[str]:
    return [f"{10 * (k + 1)} " + statements[k % len(statements)].format(k=k + 1, c=k % 16) for k in range(n)]


def _asm(n: int, hypra: bool) -> list[str]:
    body = ["*= $c000" if not hypra else "-.ba $c000"] + [
        ("-" + (s if s.startswith("l") and " " in s and s.split()[0][1:].isdigit() else "      " + s)) if hypra else s
        for s in (ASM_STATEMENTS[k % len(ASM_STATEMENTS)].format(k=k // len(ASM_STATEMENTS), c=k) for k in range(n - 1))]
    return [f"{100 + 10 * k} {t}" for k, t in enumerate(body)]


def _profi_source(n: int) -> str:
    return "".join(f"{line}\n" for line in _asm(n, False))


def listing(fmt: str, n: int) -> tuple[list[str], bytes]:
    """The printed rows of a listing of *n* lines in *fmt* and the program it is."""
    if fmt == "mse-1.0":
        code = bytes([0x00, 0xC0]) + bytes((0xA9 + 7 * k) % 256 for k in range(8 * n))
        return FORMATS[fmt].write(code, "DEMO").splitlines(), code
    if fmt == "checksummer-3":
        prg = tokenize("".join(f"{line.lower()}\n" for line in _basic(n, V2_STATEMENTS))).prg
        return FORMATS[fmt].write(prg).splitlines(), prg
    if fmt == "basic":
        lines = _basic(n, V2_STATEMENTS)
        return lines, tokenize("".join(f"{line.lower()}\n" for line in lines)).prg
    if fmt == "basic-7.0":
        lines = _basic(n, V7_STATEMENTS)
        entries = [(int(line.split()[0]), v7.crunch_text(line.split(" ", 1)[1]), k) for k, line in enumerate(lines)]
        return lines, link_program(entries, v7.START)[0]
    lines = _asm(n, fmt == "hypra-ass")
    return lines, assemble(_profi_source(n), "demo.asm").prg


def _cells(rows: list[str]) -> list[str]:
    return [row.replace(" ", "\t", 1) if row[:1].isdigit() else row for row in rows]


def _columns(rows: list[str]) -> list[str]:
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:] + [""] * (2 * half - len(rows))
    return [f"{a}\t{b}" if b else a for a, b in zip(left, right, strict=True)]


def page(fmt: str, shape: str, n: int) -> tuple[str, bytes]:
    rows, prg = listing(fmt, n)
    if shape == "cells":
        rows = _cells(rows)
    elif shape == "columns":
        head = rows[:1] if fmt == "mse-1.0" else []  # (the MSE header stands over both columns)
        rows = head + _columns(rows[len(head):])
    elif shape == "page break":
        cut = 1 + (len(rows) - 1) // 2 if fmt == "mse-1.0" else len(rows) // 2
        rows = rows[:cut] + [f"{CAPTION} (Fortsetzung)", *FOOTER.splitlines(), *ARTICLE.splitlines()[:1]] + rows[cut:]
    text = ARTICLE + "\n".join(rows) + "\n" + CAPTION + (" (Schluß)" if shape == "page break" else "") + "\n" + ARTICLE
    return text, prg


FORMAT_NAMES = ("mse-1.0", "checksummer-3", "basic", "basic-7.0", "profi-ass", "hypra-ass")
SHAPES = ("rows", "cells", "columns", "page break")
LENGTHS = (1, 2, 3, 4, 8, 20)


def expected(fmt: str, shape: str, n: int) -> bool:
    """Whether the scan finds the listing: what is not told from the page text around it."""
    if fmt in ("profi-ass", "hypra-ass"):
        # a source of fewer than MIN_LINES lines (or a printed piece of one) reads as prose too
        pieces = [n // 2, n - n // 2] if shape == "page break" else [n]
        return min(pieces) >= plain.MIN_LINES
    return True


CASES = [(f, s, n) for f in FORMAT_NAMES for s in SHAPES for n in LENGTHS
         if not (f == "mse-1.0" and s in ("cells", "columns"))  # (an MSE line has no line number to part)
         and not (s in ("columns", "page break") and n == 1)
         and not (f in ("profi-ass", "hypra-ass") and n == 1)]  # (a source of '*=' alone has no bytes)  # (one line stands in one column, on one page)


@pytest.mark.parametrize("fmt, shape, n", CASES, ids=[f"{f}-{s}-{n}" for f, s, n in CASES])
def test_each_format_and_shape_is_found_whole(fmt, shape, n):
    text, prg = page(fmt, shape, n)
    found = scan(text, "page.txt")
    if not expected(fmt, shape, n):
        assert not [f for f in found if f.format == fmt and f.reading.prg == prg]
        return
    assert [f.format for f in found] == [fmt], report(found, "page.txt")
    assert found[0].reading.whole and found[0].reading.prg == prg
    assert found[0].title.startswith(CAPTION) or fmt == "mse-1.0"


@pytest.mark.parametrize("rows", [
    "1985 erschien der C 64 in Deutschland.\n20 Jahre spaeter ist er noch beliebt.\n",
    "1. Reassembler laden mit LOAD\"REASS\",8,1\n2. NEW eingeben\n",
    "10 Byte = 1 Block\n",
    "3 Disketten kosten 20 Mark, 10 Stueck 59 Mark.\n",
    "Nr.\tNote\tFrequenz\n0\tC-0\t16.4\n1\tC#-0\t17.3\n2\tD-0\t18.4\n",  # a table with a number first
    "1 74LS04\n1 Diode 4002\n2\tIC-Fassungen 14polig\n1 Gehaeuse\n",  # a parts list
    "1 Masse\n2\tMasse\n3\tRot\t0/5V\t75 Ohm\n",  # a pin table
    "Taste\tFunktion\nt\t16 Sprites vor\nB\tWeiterschalten\n",  # a key table (SPRITE is a 7.0 keyword)
    "PC\t1260\t298,-\tPC1261\t399,-\n1 D\t359,-\t1 D\t499,-\n2 Joysticks 20,- DM\n",  # an advertisement's prices
])
def test_prose_that_starts_with_a_number_is_no_listing(rows):
    assert scan(ARTICLE + rows + ARTICLE, "page.txt") == []


@pytest.mark.parametrize("text, tokens", [
    # the C128's tokens (Commodore 128 Programmer's Reference Guide, BASIC 7.0 token table)
    ("GRAPHIC 1,1", bytes([0xDE]) + b" 1,1"),
    ("DO WHILE A<10:LOOP", bytes([0xEB, 0x20, 0xFD]) + b" A" + bytes([0xB3]) + b"10:" + bytes([0xEC])),
    ("FAST:SLOW", bytes([0xFE, 0x25]) + b":" + bytes([0xFE, 0x26])),
    ("DOPEN#1,\"X\"", bytes([0xFE, 0x0D]) + b"#1,\"X\""),
    ("A=POINTER(B)", b"A" + bytes([0xB2, 0xCE, 0x0A]) + b"(B)"),
    ("PRINT\"COLOR\"", bytes([0x99]) + b"\"COLOR\""),
    ("REM GRAPHIC", bytes([0x8F]) + b" GRAPHIC"),
    ("DATA BOX,CIRCLE:BOX 1", bytes([0x83]) + b" BOX,CIRCLE:" + bytes([0xE1]) + b" 1"),
])
def test_basic_7_keywords_are_stored_as_the_c128_stores_them(text, tokens):
    assert v7.crunch_text(text) == tokens


@pytest.mark.parametrize("numbers, bad", [
    ((100, 110, 120, 180, 140, 150, 160), [180]),  # the last line of a piece read too high
    ((100, 110, 120, 30, 140, 150, 160), [30]),  # the first line of the next read too low
    ((100, 110, 120, 130, 140, 150, 160), []),
])
def test_a_misread_line_number_does_not_part_a_source(numbers, bad):
    rows = [f"{n} {t}" for n, t in zip(numbers, ["*= $c000", "lda #1", "sta $d020", "inx", "stx $d021", "nop", "rts"],
                                       strict=True)]
    found = scan(ARTICLE + "\n".join(rows) + "\n" + CAPTION + "\n" + ARTICLE, "page.txt")
    assert [(f.format, f.reading.unchecked) for f in found] == [("profi-ass", 7)]
    assert [line.number for line in plain.out_of_sequence(list(plain.numbered_lines("\n".join(rows), set())[0]))] == bad


MSE_ROWS = listing("mse-1.0", 8)[0]  # the header, its rule, 8 lines $C000-$C03F


@pytest.mark.parametrize("rows, verdict", [
    (MSE_ROWS[:3] + MSE_ROWS[4:], "not whole: 1 line not found on the page (type it from the print)"),
    (MSE_ROWS[:4], "not whole: 6 lines not found on the page (type them from the print)"),
    (MSE_ROWS[:3] + [MSE_ROWS[3].replace("C008", "E008", 1)] + MSE_ROWS[4:],
     "not whole: 1 line out of place (check its address in the print)"),
    (MSE_ROWS[:3] + MSE_ROWS[4:5] + MSE_ROWS[3:4] + MSE_ROWS[5:], "whole"),  # (two lines swapped: placed by address)
])
def test_an_mse_listing_whose_lines_all_read_says_what_keeps_it_from_being_whole(rows, verdict):
    found = scan(ARTICLE + "\n".join(rows) + "\n" + ARTICLE, "page.txt")
    assert [f.format for f in found] == ["mse-1.0"] and found[0].reading.bad == 0
    assert report(found, "page.txt").splitlines()[1].endswith(f"still bad; {verdict}")


# what stands between a listing's first piece and the rest of it, as the OCR gives the page
BETWEEN = {
    "blank rows": ["", ""],
    "its caption": [f"{CAPTION} (Fortsetzung)"],
    "a column of article text": [*ARTICLE.splitlines(), "Mehr Text steht hier in der anderen Spalte des Artikels."],
    "a page break": [f"{CAPTION} (Fortsetzung)", *FOOTER.splitlines(), *ARTICLE.splitlines()[:1]],
}
PIECE_FORMATS = ("basic", "basic-7.0", "checksummer-3")
PIECES = [(f, b, n, first) for f in PIECE_FORMATS for b in (*BETWEEN, "beside article text") for n in (2, 4, 8)
          for first in (1, 2) if first < n]


def pieced(fmt: str, between: str, n: int, first: int) -> tuple[str, bytes]:
    """A page of a listing of *n* lines whose first *first* lines stand apart from the rest."""
    rows, prg = listing(fmt, n)
    article = ARTICLE.splitlines()
    if between == "beside article text":  # (the rest at the top of the next column, article text left of it)
        rest = [f"{article[k % 2]}\t{row}" for k, row in enumerate(rows[first:])]
        body = rows[:first] + article + rest + [f"{article[0]}\t{CAPTION}"]
    else:
        body = rows[:first] + BETWEEN[between] + rows[first:] + [CAPTION]
    return ARTICLE + "\n".join(body) + "\n" + ARTICLE, prg


@pytest.mark.parametrize("fmt, between, n, first", PIECES, ids=[f"{f}-{b}-{n}-{k}" for f, b, n, k in PIECES])
def test_a_listings_later_lines_after_a_short_first_piece_are_joined_to_it(fmt, between, n, first):
    text, prg = pieced(fmt, between, n, first)
    found = scan(text, "page.txt")
    assert [(f.format, len(f.numbers)) for f in found] == [(fmt, n)], report(found, "page.txt")
    assert found[0].reading.whole and found[0].reading.prg == prg and found[0].title.startswith(CAPTION)


def _lines(start: int, n: int, step: int = 10) -> list[str]:
    return [f"{start + step * k} " + V2_STATEMENTS[k % len(V2_STATEMENTS)].format(k=k + 1, c=k % 16) for k in range(n)]


ART = ARTICLE.splitlines()


@pytest.mark.parametrize("rows, listings", [
    # an example in the text, then a listing whose numbers rise on from it by more than its own steps
    (_lines(10, 4) + ART + _lines(100, 6) + [CAPTION], [4, 6]),
    # a line with its caption, then another listing with another caption
    (_lines(10, 1) + [CAPTION] + ART + _lines(20, 5) + ["Listing 2. »Andere«"], [1, 5]),
    # a short listing with its caption under it, then another without one whose numbers go on
    (_lines(10, 2) + [CAPTION] + ART + _lines(30, 4), [2, 4]),
    # the numbers start again: two listings
    (_lines(10, 2) + ART + _lines(10, 5) + [CAPTION], [2, 5]),
])
def test_pieces_that_are_two_listings_stay_apart(rows, listings):
    found = scan(ARTICLE + "\n".join(rows) + "\n" + ARTICLE, "page.txt")
    assert [len(f.numbers) for f in found] == listings, report(found, "page.txt")


@pytest.mark.parametrize("rows, listings, fragments", [
    # a line of a BASIC example inside running text
    (ART + _lines(10, 1) + ART, [], [10]),
    (ART + ["20 GOTO 10"] + ART, [], [20]),
    # a row of a table that reads as BASIC (LIST is a keyword)
    (["Wert\tBedeutung", "3 LIST", "Ende der Tabelle mit vielen Worten in der Zeile."], [], [3]),
    # a line split off a listing whose number goes on: joined to it
    (_lines(10, 6) + [CAPTION] + ART + ["70 GOTO 10"] + ART, [7], []),
    (ART + ["5 REM DEMO"] + ART + _lines(10, 6) + [CAPTION], [7], []),
    # a line split off a listing where its number fits nowhere: a fragment beside the listing
    (_lines(10, 6) + [CAPTION] + ART + ["5 GOTO 10"] + ART, [6], [5]),
    (_lines(10, 6) + [CAPTION, "5 GOTO 10"] + ART, [6], [5]),  # (the caption above it is the listing's)
    # a one-line listing with its own caption is one
    (ART + _lines(10, 1) + [CAPTION] + ART, [1], []),
    (ART + ["Das ist Listing 1. »Demo«"] + _lines(10, 1) + ART, [1], []),
    # a sentence that names a listing and leads in to a line with a colon (a correction): no caption
    (ART + ["In Listing 3 der letzten Ausgabe muss es heissen:"] + ["20 GOTO 10"] + ART, [], [20]),
    (ART + ["Zu Listing 2 noch ein Hinweis:", "5 POKE 53280,0"] + ART, [], [5]),
    # a one-line program in the text: it prints, it reads its input or runs again, it jumps nowhere else
    (ART + ['10 PRINT CHR$(205.5+RND(1));:GOTO 10'] + ART, [1], []),
    (ART + ['6 INPUT "ZAHL";Z:PRINT Z*Z'] + ART, [1], []),
    (ART + ['1 GET A$:IF A$="" THEN 1:PRINT ASC(A$)'] + ART, [1], []),
    (ART + ['100 ON X GOTO 100,100:PRINT X:INPUT X'] + ART, [1], []),
    # ... but not a line quoted from a listing: it jumps elsewhere, prints nothing, or is one statement
    (ART + ['20 INPUT A:PRINT A:GOTO 10'] + ART, [], [20]),
    (ART + ['20 GET A$:IF A$="" THEN 20'] + ART, [], [20]),
    (ART + ['30 PRINT "ENDE"'] + ART, [], [30]),
    (ART + ['40 PRINT A:A=A+1'] + ART, [], [40]),
    (ART + ['50 PRINT "GOTO 50":INPUT A:GOSUB 900'] + ART, [], [50]),
    (ART + ['60 INPUT A:REM PRINT A'] + ART, [], [60]),
])
def test_a_one_line_reading_is_a_listing_only_with_its_caption_or_its_listing(rows, listings, fragments):
    result = scan_all(ARTICLE + "\n".join(rows) + "\n" + ARTICLE, "page.txt")
    assert [len(f.numbers) for f in result.listings] == listings, report(result.listings, "page.txt", None, result.fragments)
    assert [f.numbers[0][0] for f in result.fragments] == fragments
    text = report(result.listings, "page.txt", None, result.fragments)
    assert text.count("possible fragment, not a program") == len(fragments)


def _mse_rows(header: bool, rows: int) -> list[str]:
    lines = FORMATS["mse-1.0"].write(bytes([0x00, 0xC0]) + bytes(range(0x20, 0x20 + 8 * rows)), "DEMO").splitlines()
    return lines[:2] + lines[2:2 + rows] if header else lines[2:2 + rows]


@pytest.mark.parametrize("header, rows, listings, fragments", [
    # one row of MSE shape with no header: a table's row or a row OCR split off; a fragment
    (False, 1, [], [0xC000]),
    # with its header, or with more rows, a listing a person types
    (True, 1, [1], []),
    (False, 3, [3], []),
    (True, 3, [3], []),
])
def test_an_mse_reading_of_one_row_without_its_header_is_a_fragment(header, rows, listings, fragments):
    result = scan_all(ARTICLE + "\n".join(ART + _mse_rows(header, rows) + ART) + "\n", "page.txt")
    assert [len(f.numbers) for f in result.listings] == listings, report(result.listings, "page.txt", None, result.fragments)
    assert [f.numbers[0][0] for f in result.fragments] == fragments
    text = report(result.listings, "page.txt", None, result.fragments)
    assert text.count("possible fragment, not a program: one mse-1.0 row ($C000) with no header") == len(fragments)


def test_a_fragment_is_reported_and_no_program_is_written(tmp_path, capsys):
    from asm6502.cli import main
    (tmp_path / "page.txt").write_text(ARTICLE + "\n".join(ART + ["20 GOTO 10"] + ART) + "\n", encoding="utf-8")
    assert main(["typein", "scan", str(tmp_path / "page.txt"), "-o", str(tmp_path / "out")]) == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.txt"]
    assert "0 type-in listings, 1 possible fragment" in capsys.readouterr().out


@pytest.mark.parametrize("lead, rest, lines", [
    # an example's first lines run into the end of the sentence that introduces it
    ('Die Schleife sieht so aus: 10 PRINT "ZEILE 1" 20 POKE 53280,1', _lines(30, 2), 4),
    ("Das Beispiel: 10 A=5", _lines(20, 3), 4),
    # numbers in the sentence are no lines of it
    ("Die Zahl 5 ist kleiner als 10 und die Zeile steht hier ganz allein.", _lines(10, 4), 4),
    ('Bis 10 PRINT "ZEILE 1" zeigt der Rechner nichts an, schreibt Meier.', _lines(20, 4), 4),
])
def test_a_listings_first_lines_in_the_sentence_before_it_are_read_with_it(lead, rest, lines):
    found = scan(ARTICLE + "\n".join([lead, *rest, CAPTION]) + "\n" + ARTICLE, "page.txt")
    assert [len(f.numbers) for f in found] == [lines], report(found, "page.txt")


APART = "40 POKE 53281,3"
IN_ORDER = tokenize("".join(f"{line.lower()}\n" for line in [*_lines(10, 3), APART, '50 PRINT "ZEILE 5"'])).prg


@pytest.mark.parametrize("rows", [
    # a line OCR gave apart from its listing, its number between two of the listing's
    ART + [APART] + ART + _lines(10, 3) + ['50 PRINT "ZEILE 5"', CAPTION],
    _lines(10, 3) + ['50 PRINT "ZEILE 5"', CAPTION] + ART + [APART] + ART,
])
def test_a_line_whose_number_falls_inside_its_neighbour_is_read_into_it(rows):
    result = scan_all(ARTICLE + "\n".join(rows) + "\n" + ARTICLE, "page.txt")
    assert [sorted(n for n, _ in f.numbers) for f in result.listings] == [[10, 20, 30, 40, 50]]
    assert result.fragments == [] and result.listings[0].reading.prg == IN_ORDER


CS_ROWS = listing("checksummer-3", 5)[0]


@pytest.mark.parametrize("rows", [
    # a Checksummer line OCR gave apart from its listing: its checksum verifies it where it stands
    CS_ROWS[:3] + CS_ROWS[4:] + [CAPTION] + ART + CS_ROWS[3:4] + ART,
    ART + CS_ROWS[3:4] + ART + CS_ROWS[:3] + CS_ROWS[4:] + [CAPTION],
    CS_ROWS[:4] + [CAPTION] + ART + CS_ROWS[4:] + ART,
])
def test_a_checksummer_line_apart_from_its_listing_is_read_into_it(rows):
    found = scan(ARTICLE + "\n".join(rows) + "\n" + ARTICLE, "page.txt")
    assert [sorted(n for n, _ in f.numbers) for f in found] == [[10, 20, 30, 40, 50]], report(found, "page.txt")
    assert found[0].reading.prg == listing("checksummer-3", 5)[1] and found[0].title == CAPTION


@pytest.mark.parametrize("misread, listings", [
    ("40", [8]),  # 140 printed as 40, below the first line: the next line rises on from 130 by a step
    ("140", [8]),
    ("10", [8]),
])
def test_a_misread_line_number_below_the_first_does_not_start_a_listing(misread, listings):
    rows = FORMATS["checksummer-3"].write(tokenize("".join(
        f"{100 + 10 * k} print {k}\n" for k in range(8))).prg).splitlines()
    rows[4] = misread + rows[4][3:]
    found = scan(ARTICLE + "\n".join(rows) + "\n" + CAPTION + "\n" + ARTICLE, "page.txt")
    assert [f.verified + f.repaired + f.bad for f in (x.reading for x in found)] == listings, report(found, "page.txt")
