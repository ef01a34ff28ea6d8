"""``asm6502 typein scan``: a page or an issue's text in, each type-in listing found and read."""

from __future__ import annotations

from pathlib import Path

import helpers
import pytest

from asm6502.cli import main
from asm6502.typein.formats import FORMATS
from asm6502.typein.mselisting import read_listing as read_mse
from asm6502.typein.scan import scan, scan_all

ARTICLE = ("Seite {k}\nDas folgende Programm ist schnell eingetippt. Wer 1985 einen C64 hatte, kennt\n"
           "den Checksummer: jede Zeile zeigt ihre Pruefsumme.\n\n")
ROOT = Path(__file__).resolve().parent.parent
PAGES = ("8510-p131-alarmanlage-codeschloss.ocr.txt", "8510-p74-zloader.ocr.txt", "8511-p89-input-routine.ocr.txt")


def _written_listings() -> tuple[str, bytes, bytes]:
    """An MSE listing and a Checksummer listing as the writers print them, with prose around."""
    code = bytes([0x00, 0xC0]) + bytes(range(0xA9, 0xA9 + 30))
    basic = FORMATS["checksummer-3"]
    from asm6502.basic.tokenizer import tokenize
    prg = tokenize('10 print "hallo"\n20 goto 10\n').prg
    text = (ARTICLE.format(k=1) + FORMATS["mse-1.0"].write(code, "DEMO") + ARTICLE.format(k=2)
            + basic.write(prg) + "Ende des Artikels.\n")
    return text, code, prg


def test_an_mse_and_a_checksummer_listing_among_prose():
    text, code, prg = _written_listings()
    found = scan(text, "page.txt")
    assert [(f.format, f.title, f.reading.whole) for f in found] == [("mse-1.0", "DEMO", True),
                                                                    ("checksummer-3", "", True)]
    assert [f.reading.prg for f in found] == [code, prg]
    lines = text.splitlines()
    assert lines[found[0].line - 1].startswith("C000 :") and lines[found[1].line - 1].startswith("10 ")


def test_prose_alone_has_no_listing(tmp_path, capsys):
    (tmp_path / "prose.txt").write_text(ARTICLE.format(k=1) * 3)
    assert scan(ARTICLE.format(k=1) * 3, "prose.txt") == []
    assert main(["typein", "scan", str(tmp_path / "prose.txt"), "-o", str(tmp_path / "out")]) == 1
    assert "no type-in listing found" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_command_writes_each_whole_program_and_the_report(tmp_path, capsys):
    text, code, prg = _written_listings()
    (tmp_path / "page.txt").write_text(text)
    out = tmp_path / "programs"
    assert main(["typein", "scan", str(tmp_path / "page.txt"), "-o", str(out)]) == 0
    assert (out / "01-mse-1.0.prg").read_bytes() == code
    assert (out / "02-checksummer-3.prg").read_bytes() == prg
    report = (out / "report.txt").read_text()
    assert report == capsys.readouterr().out
    assert "2 type-in listings" in report and "1. line 7: mse-1.0 'DEMO': 4 verified, 0 repaired, 0 still bad; whole" in report


def test_real_pages_concatenated_with_article_text_between(real_reading):
    """Each listing of each page is found, and read as ``basic read`` reads that page alone."""
    text, expected = "", []
    for k, page in enumerate(PAGES, start=1):
        text += ARTICLE.format(k=k)
        offset = text.count("\n")
        page_text = helpers.real_text("basic_read", page)
        for r in real_reading(page):
            expected.append((offset + min(x.line for x in r.lines), f"checksummer-{r.version}", r.count("verified"),
                             r.count("repaired"), r.count("bad") + r.count("unchecked"), r.prg))
        text += page_text if page_text.endswith("\n") else page_text + "\n"
    found = scan(text, "issue.txt")
    assert [(f.line, f.format, f.reading.verified, f.reading.repaired, f.reading.bad, f.reading.prg)
            for f in found] == sorted(expected)
    assert len(found) == 4


def test_a_caption_between_two_listings_whose_numbers_rise_on_parts_them(real_reading):
    """Schreiberling (lines 2-1910) and Hypra-Text (30580-56109) one after the other: two listings,
    their captions name two programs; the Disk-Designer's caption on each of its pages keeps it one."""
    text, expected = "", []
    for k, page in enumerate(("8509-p70-disk-designer.ocr.txt", "8510-p54-schreiberling.ocr.txt",
                              "8510-p73-hypra-text.ocr.txt"), start=1):
        text += ARTICLE.format(k=k)
        page_text = helpers.real_text("basic_read", page)
        expected += [(r.count("verified"), r.count("repaired")) for r in real_reading(page)]
        text += page_text if page_text.endswith("\n") else page_text + "\n"
    found = scan(text, "issue.txt")
    assert [(f.reading.verified, f.reading.repaired) for f in found] == expected
    assert [f.title.split(".")[1].split()[0] for f in found] == ["»Disk-Designer«,", "Verwenden", "»Hypra-Text«-Hauptprogramm"]


def test_the_superhirn_article_holds_its_mse_listing_and_its_profi_ass_source():
    text = helpers.seed_text(helpers.SUPERHIRN_SEED)
    found, source = scan(text, "superhirn.txt")
    assert (found.format, found.title, found.reading.whole) == ("mse-1.0", "SUPERHIRN II", True)
    assert found.reading.prg == read_mse(text, "superhirn.txt").prg
    assert found.reading.verified == 66
    # the source, all its lines run together in one row of the article and the article's next
    # paragraph run into its last line, is the project's own copy of it; it assembles to the program
    assert (source.format, source.reading.unchecked, source.reading.whole) == ("profi-ass", 247, True)
    assert source.source == (ROOT / "sources" / "superhirn.asm").read_text()
    assert source.reading.prg == (ROOT / "build" / "superhirn.prg").read_bytes()


PLAIN_BASIC = """\
10 PRINT "HALLO WELT"
20 FOR I=1 TO 10:PRINT I:NEXT I
30 A$="X":IF A$="X" THEN 10
40 POKE 53280,0:GOTO 20
"""
PROFI_ASS = "100 *= $c000 110 start lda #0 120 sta $d020 ; rahmen 130 rts"


def test_a_plain_basic_listing_is_read_with_the_basic_grammar():
    from asm6502.basic.tokenizer import tokenize

    text = ARTICLE.format(k=1) + PLAIN_BASIC + "\nListing 2. Ein kleines Programm\n" + ARTICLE.format(k=2)
    (found,) = scan(text, "page.txt")
    assert (found.format, found.reading.unchecked, found.reading.verified, found.reading.repaired) == ("basic", 4, 0, 0)
    assert found.reading.whole and found.title == "Listing 2. Ein kleines Programm"
    # capitals are the unshifted letters of an all-capitals listing, as basic read takes them
    assert found.reading.prg == tokenize(PLAIN_BASIC.lower()).prg


def test_a_line_the_basic_grammar_refuses_is_still_bad():
    text = PLAIN_BASIC + "50 PRNT X\n60 END\n"
    (found,) = scan(text, "page.txt")
    assert (found.format, found.reading.bad, found.reading.whole) == ("basic", 1, False)
    assert "line 50: not read as BASIC" in found.reading.diagnostics[0].message


def test_a_profi_ass_source_run_together_in_one_row():
    (found,) = scan(ARTICLE.format(k=1) + PROFI_ASS + "\n" + ARTICLE.format(k=2), "page.txt")
    assert found.format == "profi-ass" and found.reading.whole
    assert found.source == "100 *= $c000\n110 start lda #0\n120 sta $d020 ; rahmen\n130 rts\n"
    assert found.reading.prg == bytes([0x00, 0xC0, 0xA9, 0x00, 0x8D, 0x20, 0xD0, 0x60])


def test_a_profi_ass_source_that_names_another_file_loads_none(tmp_path, monkeypatch):
    (tmp_path / "next.asm").write_text("10 nop\n")
    monkeypatch.chdir(tmp_path)
    (found,) = scan("100 *= $c000\n110 lda #0\n120 .file 8,\"next\"\n130 rts\n", "page.txt")
    assert found.format == "profi-ass" and not found.reading.whole
    assert "cannot read .file 'next': a listing read from a page loads no file" in found.reading.diagnostics[0].message


@pytest.mark.parametrize("prose", [
    "1985 kam der C 64\n64 KByte hat er\n170 Mark kostete die Floppy\n1541 heisst sie\n",
    "10 Zeilen tippen\n20 Minuten warten\n30 Sekunden laden\n40 Mal spielen\n",
])
def test_numbered_rows_of_article_text_are_no_listing(prose):
    assert scan(ARTICLE.format(k=1) + prose, "page.txt") == []


def test_the_page_comes_from_the_footer():
    text, _, _ = _written_listings()
    found = scan(text + "70 £k?Jj*\nAusgabe 9/September 1985\n", "page.txt")
    assert [f.page for f in found] == [None, 70]


def test_the_disk_image_holds_every_whole_program(tmp_path, capsys):
    from asm6502.d64 import DiskImage

    text, code, prg = _written_listings()
    (tmp_path / "page.txt").write_text(text + PLAIN_BASIC + "50 PRNT X\n")
    assert main(["typein", "scan", str(tmp_path / "page.txt"), "--d64", str(tmp_path / "p.d64")]) == 1
    disk = DiskImage((tmp_path / "p.d64").read_bytes())
    files = {e.name: disk.read_file(e) for e in disk.directory()}
    assert files == {b"01 DEMO": code, b"02 CHECKSUMMER-3": prg}
    assert "3. line 18: basic: 5 lines, no checksums (read as printed), 1 still bad; not whole, 1 line to correct" \
        in capsys.readouterr().out


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items()])
def test_every_format_of_the_registry_is_found_by_the_scan(name):
    fmt = FORMATS[name]
    if fmt.kind == "machine-code":
        prg = bytes([0x00, 0x34]) + bytes(range(60))
    else:
        from asm6502.basic.tokenizer import tokenize
        prg = tokenize('10 print "hallo"\n20 poke 53280,0:goto 10\n').prg
    (found,) = scan(ARTICLE.format(k=1) + fmt.write(prg) + ARTICLE.format(k=2), "page.txt")
    assert found.reading.prg == prg and found.reading.whole
    if fmt.family != "checksummer":
        assert found.format == name
    else:  # V1 and V2 sum alike: the reader names the one it cannot tell apart as V1
        assert found.format.startswith("checksummer-") and (found.format == "checksummer-3") == (name == "checksummer-3")


def _program(*lines: str) -> bytes:
    from asm6502.basic.tokenizer import tokenize
    return tokenize("".join(f"{line}\n" for line in lines)).prg


DEMO = _program('10 print "hallo"', "20 for i=1 to 10", "30 print i", "40 next i", "50 goto 10", "60 end")
OTHER = _program("5 rem zweites programm", "10 poke 53280,0", "20 print chr$(147)", "30 end")
FOOTER = "76 33Öi*\nAusgabe 12/Dezember 1985\n"  # a page footer as OCR reads it (64'er 12/85)


@pytest.mark.parametrize("caption_1, caption_2, listings", [
    # one listing printed over a page break: its caption on both pages, '(Schluß)' on the last
    ("Listing 2. Demoprogramm zu »Hyperscreen«", "Listing 2. Demoprogramm zu »Hyperscreen« (Schluß)", 2),
    # two listings: another listing's number in the caption after the break
    ("Listing 2. Demoprogramm zu »Hyperscreen«", "Listing 3. Demoprogramm zu »Hyperscreen«", 3),
    # two listings: captions that share no name
    ("Listing. Erster Teil der Sternwarte", "Listing. Ganz andere Routine", 3),
])
def test_a_listing_over_a_page_break_followed_by_another_listing(caption_1, caption_2, listings):
    rows = FORMATS["checksummer-3"].write(DEMO).splitlines(keepends=True)
    text = (ARTICLE.format(k=1) + "".join(rows[:3]) + caption_1 + "\n" + FOOTER + "".join(rows[3:])
            + "© 64'er\n" + caption_2 + "\n" + FORMATS["checksummer-3"].write(OTHER) + "Listing 4. Sprite-Demo\n"
            + ARTICLE.format(k=2))
    found = scan(text, "page.txt")
    assert len(found) == listings
    assert found[-1].reading.prg == OTHER
    if listings == 2:
        assert found[0].reading.whole and found[0].reading.prg == DEMO and found[0].page == 76


def _checksums_in_a_column(written: str, broken: bool) -> str:
    """The listing as some pages print it: the lines, then their checksums in a column of their own."""
    lines, sums = [], []
    for row in written.splitlines():
        body, _, field = row.rpartition("<")
        body = body.rstrip()
        head, _, tail = body.rpartition(" ")
        if broken and tail.isdigit() and " " in head:  # broken over two rows, the second beginning with digits
            body = head + "\n" + tail
        lines.append(body)
        sums.append("<" + field)
    return "\n".join(lines) + "\n" + "\n".join(sums) + "\n"


@pytest.mark.parametrize("broken", [False, True])
def test_a_listing_whose_checksums_stand_in_a_column_after_its_lines(broken):
    column = _checksums_in_a_column(FORMATS["checksummer-3"].write(DEMO), broken)
    text = ARTICLE.format(k=1) + "Redaktion 64'er\n8013 Haar bei München\n" + column + "Listing 1. Demo\n" + ARTICLE.format(k=2)
    found = scan(text, "page.txt")
    assert [(f.format, f.reading.whole, f.reading.verified) for f in found] == [("checksummer-3", True, 6)]
    if not broken:  # (a broken line loses the blank at its break, which the checksum does not see)
        assert found[0].reading.prg == DEMO


def test_a_checksum_column_of_another_length_than_the_lines_stays_as_printed():
    column = _checksums_in_a_column(FORMATS["checksummer-3"].write(DEMO), False).splitlines()
    del column[-1]  # one checksum lost: which line each belongs to is no longer known
    text = ARTICLE.format(k=1) + "\n".join(column) + "\n" + ARTICLE.format(k=2)
    assert [f.format for f in scan(text, "page.txt")] == ["basic"]


PLAIN_PART_2 = "5000 PRINT \"ZWEITER TEIL\"\n5010 FOR I=1 TO 3:PRINT I:NEXT\n5020 POKE 53281,1\n5030 END\n"


@pytest.mark.parametrize("between, after, language, listings, lines, bad", [
    ("", "Listing 1. »Graphik« (Schluß)", "basic", 1, 8, 0),  # a jump of more than plain.MAX_STEP (40 -> 5000) inside one listing
    ("Listing 1. »Graphik« (Fortsetzung)\n80 ^Jj*\nAusgabe 12/Dezember 1985\n", "Listing 1. »Graphik« (Schluß)",
     "basic", 1, 8, 0),
    # lines between the pieces: BASIC 7.0 ones make the whole listing 7.0; OCR damage ('1oop') a line still bad
    ("Listing 1. »Graphik« (Fortsetzung)\nAusgabe 12/Dezember 1985\n2000 1oop\n2010 scnclr 5: fast\n"
     "2020 bsave \"x\",p(4864)\n2030 do while a$<>\"e\"\nListing 1. »Graphik« (Fortsetzung)\nAusgabe 12/Dezember 1985\n",
     "Listing 1. »Graphik«", "basic-7.0", 1, 12, 1),
    ("Listing 1. »Graphik« (Fortsetzung)\nAusgabe 12/Dezember 1985\n2000 1oop\n2010 prlnt\n"
     "Listing 1. »Graphik« (Fortsetzung)\nAusgabe 12/Dezember 1985\n", "Listing 1. »Graphik«", "basic", 1, 10, 2),
    ("Listing 1. »Graphik«\n\n(Autor/tr)\n", "Listing 2. Eine kleine Demonstration", "basic", 2, 4, 0),  # each its own listing
])
def test_the_printed_pieces_of_a_plain_basic_listing_are_one(between, after, language, listings, lines, bad):
    # (a listing in small letters, as 12/85's Graphik-80 and LITVERW: the page footer's letters
    # do not spoil the all-capitals test)
    text = (ARTICLE.format(k=1) + PLAIN_BASIC.lower() + between + PLAIN_PART_2.lower() + after + "\n"
            + ARTICLE.format(k=2))
    found = scan(text, "page.txt")
    assert [f.format for f in found] == [language] * listings
    assert (found[0].reading.unchecked, found[0].reading.bad) == (lines, bad)
    if listings == 1 and not bad:
        from asm6502.basic.tokenizer import tokenize
        assert found[0].reading.whole and found[0].reading.prg == tokenize((PLAIN_BASIC + PLAIN_PART_2).lower()).prg


ONE_LINER = _program('1 print "{up}":fort=0to1:poke172,peek(60656):next')


@pytest.mark.parametrize("caption_between, listings", [
    ("Listing 1. Der Einzeiler zum Zeilencopy", 2),  # another listing's caption: two listings
    ("Listing 2. Demo (Fortsetzung)", 1),  # the same listing's caption (a page break): one
])
def test_a_caption_between_lines_whose_numbers_go_on_parts_two_listings(caption_between, listings):
    text = (ARTICLE.format(k=1) + FORMATS["checksummer-3"].write(ONE_LINER) + caption_between + "\n"
            + FORMATS["checksummer-3"].write(DEMO) + "Listing 2. Demo\n" + ARTICLE.format(k=2))
    found = scan(text, "page.txt")
    assert len(found) == listings
    assert found[-1].title == "Listing 2. Demo"
    if listings == 2:
        assert [f.reading.prg for f in found] == [ONE_LINER, DEMO]
        assert found[0].title == caption_between


def test_the_caption_after_a_checksum_column_names_the_listing():
    column = _checksums_in_a_column(FORMATS["checksummer-3"].write(DEMO), False)
    text = ARTICLE.format(k=1) + "Listing 1. Eine andere Routine\n" + column + "Listing 2. Demo (Schluß)\n" + ARTICLE.format(k=2)
    (found,) = scan(text, "page.txt")
    assert (found.title, found.reading.prg) == ("Listing 2. Demo (Schluß)", DEMO)


def test_a_scan_tells_its_progress_row_by_row_to_the_end():
    text, _code, _prg = _written_listings()
    text = text * 3  # three stretches of Checksummer lines
    told: list[tuple[int, int]] = []
    found = scan_all(text, "issue.txt", lambda row, total: told.append((row, total)))
    assert len(found.listings) == 6
    rows = [row for row, _ in told]
    total = text.count("\n") + 1
    assert len(told) >= 4 and rows == sorted(rows) and told[-1] == (total, total)
    assert {t for _, t in told} == {total} and all(0 < row <= total for row in rows)


def test_the_scan_takes_no_progress_bar_when_asked(tmp_path, capsys):
    text, _code, _prg = _written_listings()
    (tmp_path / "page.txt").write_text(text)
    assert main(["typein", "scan", str(tmp_path / "page.txt"), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "2 type-in listings" in captured.out and captured.err == ""
