"""``asm6502 typein scan``: a page or an issue's text in, each type-in listing found and read."""

from __future__ import annotations

import helpers
import pytest

from asm6502.cli import main
from asm6502.typein.cslisting.read import read_listings as read_checksummer
from asm6502.typein.formats import FORMATS
from asm6502.typein.mselisting import read_listing as read_mse
from asm6502.typein.scan import scan

ARTICLE = ("Seite {k}\nDas folgende Programm ist schnell eingetippt. Wer 1985 einen C64 hatte, kennt\n"
           "den Checksummer: jede Zeile zeigt ihre Pruefsumme.\n\n")
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


def test_real_pages_concatenated_with_article_text_between():
    """Each listing of each page is found, and read as ``basic read`` reads that page alone."""
    text, expected = "", []
    for k, page in enumerate(PAGES, start=1):
        text += ARTICLE.format(k=k)
        offset = text.count("\n")
        page_text = helpers.real_text("basic_read", page)
        for r in read_checksummer(page_text, page):
            expected.append((offset + min(x.line for x in r.lines), f"checksummer-{r.version}", r.count("verified"),
                             r.count("repaired"), r.count("bad") + r.count("unchecked"), r.prg))
        text += page_text if page_text.endswith("\n") else page_text + "\n"
    found = scan(text, "issue.txt")
    assert [(f.line, f.format, f.reading.verified, f.reading.repaired, f.reading.bad, f.reading.prg)
            for f in found] == sorted(expected)
    assert len(found) == 4


def test_the_superhirn_article_holds_its_mse_listing():
    text = helpers.seed_text(helpers.SUPERHIRN_SEED)
    (found,) = scan(text, "superhirn.txt")
    assert (found.format, found.title, found.reading.whole) == ("mse-1.0", "SUPERHIRN II", True)
    assert found.reading.prg == read_mse(text, "superhirn.txt").prg
    assert found.reading.verified == 66


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
