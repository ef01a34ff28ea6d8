"""``asm6502 publish``: a program laid out as a magazine printed it, and ``--check`` reading it back."""

from __future__ import annotations

import random
import shutil

import helpers
import pytest
from helpers import ROOT, run_cli

from asm6502 import petscii
from asm6502.basic.tokenizer import tokenize
from asm6502.d64 import DiskImage
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import roms as c64roms
from asm6502.typein.formats import FORMATS
from asm6502.typein.publish import fallback
from asm6502.typein.publish.check import check, compact_controls, misreadings, report
from asm6502.typein.publish.glyphs import chargen_set, fallback_set
from asm6502.typein.publish.page import COLUMN_LINES, PAGE_CHARS, control_key, lay_out
from asm6502.typein.publish.render import svg

SUPERHIRN = ROOT / "build" / "superhirn.prg"
HIGHIQ = ROOT / "build" / "highiq.prg"
DOCS = ROOT / "docs" / "publish"
PROGRAMS = {"superhirn": (SUPERHIRN, "machine-code", "Superhirn II"), "highiq": (HIGHIQ, "basic-prg", "High IQ")}


def _pub(program: str, fmt: str):
    path, kind, title = PROGRAMS[program]
    prg = path.read_bytes()
    return lay_out(FORMATS[fmt], prg, kind, title, path.stem.upper()), prg


@pytest.mark.parametrize("program, fmt", [
    ("superhirn", "mse-1.0"), ("superhirn", "mse-2.0"), ("superhirn", "mse-2.1"),
    ("highiq", "checksummer-1"), ("highiq", "checksummer-2"), ("highiq", "checksummer-3"),
    ("superhirn", "mlx-1"), ("superhirn", "mlx-2"), ("highiq", "proofreader-1983"), ("highiq", "proofreader-1986"),
    ("highiq", "bugrepellent-1"), ("highiq", "bugrepellent-2"), ("highiq", "bugrepellent-3"),
])
def test_the_page_reads_back_to_the_identical_program(program, fmt):
    pub, prg = _pub(program, fmt)
    result = check(pub, prg, misread=False)
    assert result.identical and result.listings == 1
    assert result.reading is not None and result.reading.prg == prg


@pytest.mark.parametrize("fmt, pages, columns", [("mse-1.0", 4, [[59, 59], [66, 66], [66, 66], [60, 60]]),
                                                 ("mse-2.1", 3, [[59, 59], [66, 66], [10, 9]])])
def test_a_long_program_runs_over_pages_in_balanced_columns_and_reads_back(fmt, pages, columns):
    rng = random.Random(1)
    prg = bytes([0x00, 0xC0]) + bytes(rng.randrange(256) for _ in range(4000))
    pub = lay_out(FORMATS[fmt], prg, "machine-code", "Big", "BIG")
    assert len(pub.pages) == pages and [[len(c) for c in p.columns] for p in pub.pages] == columns
    assert max(len(c) for p in pub.pages for c in p.columns) <= COLUMN_LINES
    assert [p.footer for p in pub.pages][-1] == f"Big -- page {pages} of {pages}"
    assert check(pub, prg, misread=False).identical


def test_the_header_says_what_the_program_is_and_how_to_type_it_in():
    pub, _ = _pub("superhirn", "mse-1.0")
    assert pub.facts[0] == "Machine code: $3400 to $360A (13312 to 13834), 523 bytes. Start it with SYS 13312."
    assert "MSE V1.0 (64'er)" in pub.facts[1]
    pub, _ = _pub("highiq", "checksummer-3")
    assert pub.facts[0] == "BASIC V2, 57 lines, 1,837 bytes from $0801. Start it with RUN."
    assert "Checksummer 64 V3 (64'er)" in pub.facts[1]
    pub, _ = _pub("highiq", "proofreader-1986")  # (the lines of the program, not the rows of the listing)
    assert pub.facts[0] == "BASIC V2, 57 lines, 1,837 bytes from $0801. Start it with RUN."
    assert all(len(row) <= PAGE_CHARS for row in pub.facts)


@pytest.mark.parametrize("program, fmt, picture", [
    ("superhirn", "mse-1.0", "superhirn"), ("highiq", "checksummer-3", "highiq"),
    ("superhirn", "mlx-2", "superhirn-mlx"), ("highiq", "proofreader-1986", "highiq-proofreader"),
])
def test_the_pages_in_docs_are_what_publish_writes(tmp_path, capsys, program, fmt, picture):
    path, _, title = PROGRAMS[program]
    code, _, err = run_cli(capsys, "publish", str(path), "--format", fmt, "--title", title, "-o", str(tmp_path / "out"))
    assert code == 0, err
    assert (tmp_path / "out" / "page-1.svg").read_text() == (DOCS / f"{picture}-page-1.svg").read_text()
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names[:3] == ["listing.html", "listing.txt", "page-1.svg"] and all(n.startswith("page-") for n in names[3:])


def test_the_same_program_gives_the_same_files(tmp_path, capsys):
    for out in ("a", "b"):
        assert run_cli(capsys, "publish", str(HIGHIQ), "-o", str(tmp_path / out), "--d64")[0] == 0
    for f in (tmp_path / "a").iterdir():
        assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes(), f.name


def test_the_disk_holds_the_program(tmp_path, capsys):
    assert run_cli(capsys, "publish", str(SUPERHIRN), "--title", "Superhirn II", "-o", str(tmp_path), "--d64")[0] == 0
    disk = DiskImage((tmp_path / "superhirn.d64").read_bytes())
    entry = disk.find(b"SUPERHIRN")
    assert entry is not None and disk.read_file(entry) == SUPERHIRN.read_bytes()


def test_check_on_the_command_line(capsys):
    code, out, _ = run_cli(capsys, "publish", str(SUPERHIRN), "--check", "--quick")
    assert code == 0
    assert "reads back as mse-1.0 to the identical program (523 bytes; 66 lines verified, 0 repaired)" in out


def test_a_checksum_blind_spot_is_named_with_the_misreading():
    # Checksummer V3 rotates each byte by its place, yet the two words swapped sum to the same <108>
    # (and PRINT keeps reading what follows: the line stays BASIC)
    prg = tokenize('10 print "you win"\n').prg
    pub = lay_out(FORMATS["checksummer-3"], prg, "basic-prg", "T", "T")
    result = check(pub, prg)
    assert result.identical
    [risk] = [r for r in result.risks if r.silent]
    assert "'\"you' and 'win\"' swapped" in [m.how for m in risk.silent]
    assert "passes the checksum: '\"you' and 'win\"' swapped" in report(result, pub, "t.prg")


def test_a_blind_spot_the_grammar_sees_is_caught():
    # PRITN for PRINT's token sums to the same <240>, but 'PRITN:' is no BASIC: basic read asks
    prg = tokenize('80 print: print "here is the board:": print\n').prg
    result = check(lay_out(FORMATS["checksummer-3"], prg, "basic-prg", "T", "T"), prg)
    assert result.identical and not [r for r in result.risks if r.silent]
    assert result.tallies["swap"].silent == 0 and result.tallies["swap"].caught > 0


def test_the_plain_sum_cannot_see_swapped_neighbours_and_the_rotating_sum_can():
    prg = tokenize("10 a=12\n").prg
    v1 = check(lay_out(FORMATS["checksummer-1"], prg, "basic-prg", "T", "T"), prg)
    v3 = check(lay_out(FORMATS["checksummer-3"], prg, "basic-prg", "T", "T"), prg)
    assert v1.tallies["swap"].silent > 0 and v3.tallies["swap"].silent == 0


def test_a_run_of_control_codes_is_named_and_written_shorter():
    prg = tokenize('10 print "{clr}{down}{down}{down}{down}{rvon}hallo{rvof}"\n20 goto 10\n').prg
    fmt = FORMATS["checksummer-3"]
    result = check(lay_out(fmt, prg, "basic-prg", "T", "T"), prg)
    [risk] = [r for r in result.risks if r.controls]
    assert risk.row == 1 and risk.controls == 6
    shorter = compact_controls(risk.line)
    assert shorter.startswith('10 print "{clr}{4 down}{rvon}hallo{rvof}"')
    assert any(shorter.rstrip() in a for a in risk.advice)
    [again] = fmt.read(shorter)
    assert again.verified == 1 and again.prg == fmt.read(risk.line)[0].prg  # the same bytes, the same checksum


@pytest.mark.parametrize("line, expected", [
    ("3400 : A9 8D", {"3400 : A9 BD", "4300 : A9 8D", "3400 : 9A 8D", "3400 : 8D A9", "34O0 : A9 8D"}),
    ("10 a=b0", {"10 a=bo", "10 a=60", "10 a=0b", "10 a=bd"}),
])
def test_misreadings_keep_the_lines_letter_case(line, expected):
    found = {m.text for m in misreadings(line, {"0": ("D", "O"), "8": ("B",), "B": ("6", "8")})}
    assert expected <= found
    assert not any(c.isupper() for t in found if t.startswith("10") for c in t)


@pytest.mark.parametrize("a, b", [("0", "O"), ("1", "l"), ("1", "I"), ("l", "I"), ("8", "B"), ("0", "D"),
                                  ("5", "S"), ("b", "6")])
def test_the_fallback_glyphs_tell_look_alikes_apart(a, b):
    assert fallback.rows(a) != fallback.rows(b)


def test_every_fallback_glyph_is_eight_rows_of_five():
    for ch, art in fallback.GLYPHS.items():
        rows = art.split()
        assert len(rows) == fallback.ROWS and all(len(r) == fallback.WIDTH and set(r) <= {"#", "."} for r in rows), ch


def test_a_character_rom_gives_its_own_glyphs():
    rom = bytes((i * 37 + 11) & 0xFF for i in range(4096))  # a stand-in: no real ROM in the repository
    pub, _ = _pub("superhirn", "mse-1.0")
    drawn = svg(pub, pub.pages[0], chargen_set(rom, "test.bin"))
    assert "the character ROM test.bin" in drawn and drawn != svg(pub, pub.pages[0], fallback_set())
    a = 8 * 1  # screen code 1: A in the first set
    assert chargen_set(rom, "t").upper["A"] == tuple(rom[a : a + 8])


@pytest.mark.parametrize("argv, message", [
    (["--format", "mse-1.0", str(HIGHIQ), "--check"], "is a BASIC program; mse-1.0 prints machine code"),
    ([str(SUPERHIRN)], "give -o DIR"),
    ([str(SUPERHIRN), "--check", "--d64"], "give -o DIR"),
    ([str(HIGHIQ), "-o", "x", "--screenshot"], "BASIC runs on the C64's own ROMs only: give the ROM images with --roms DIR"),
])
def test_bad_requests_are_one_clear_error(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "publish", *argv)
    assert code == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_a_wrong_size_character_rom_is_refused(capsys, tmp_path):
    (tmp_path / "chargen").write_bytes(bytes(100))
    code, _, err = run_cli(capsys, "publish", str(SUPERHIRN), "--chargen", str(tmp_path / "chargen"),
                           "-o", str(tmp_path / "out"))
    assert code == 1 and "a character ROM image has 4,096 bytes, this file 100" in err
    assert not (tmp_path / "out").exists()


def test_an_input_in_the_output_folder_is_never_overwritten_and_nothing_is_written(capsys, tmp_path):
    program = tmp_path / "listing.txt"  # a program under the name one of the outputs has
    program.write_bytes(SUPERHIRN.read_bytes())
    code, _, err = run_cli(capsys, "publish", str(program), "-o", str(tmp_path))
    assert code == 1 and "would destroy the input" in err
    assert program.read_bytes() == SUPERHIRN.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["listing.txt"]


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="rsvg-convert (librsvg2-bin) is not installed")
def test_the_pdf_holds_the_pages_and_no_date_of_its_own(capsys, tmp_path):
    for out in ("a", "b"):
        assert run_cli(capsys, "publish", str(SUPERHIRN), "-o", str(tmp_path / out), "--pdf")[0] == 0
    pdf = (tmp_path / "a" / "listing.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and pdf == (tmp_path / "b" / "listing.pdf").read_bytes()


def _real_roms():
    try:
        lookup = c64roms.find_roms(env={})
    except DiagnosticError:
        return None
    if lookup.roms is None and (helpers.oracle_home() / "roms").is_dir():
        return str(helpers.oracle_home() / "roms")
    return lookup.roms.origin if lookup.roms is not None else None


REAL_ROMS = _real_roms()


@pytest.mark.skipif(REAL_ROMS is None, reason="no C64 ROM images (VICE's folders, PROFIASS_HOME/roms)")
def test_the_screenshot_shows_the_program_running(capsys, tmp_path):
    code, _, err = run_cli(capsys, "publish", str(SUPERHIRN), "-o", str(tmp_path), "--roms", REAL_ROMS,
                           "--screenshot", "--cycles", "3000000")
    assert code == 0, err
    assert (tmp_path / "screenshot.png").read_bytes().startswith(b"\x89PNG")
    assert "the character ROM" in (tmp_path / "page-1.svg").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("program, fmt", [("superhirn", "mse-1.0"), ("highiq", "checksummer-3")])
def test_the_whole_check_of_the_two_programs(program, fmt):
    pub, prg = _pub(program, fmt)
    result = check(pub, prg)
    assert result.identical and result.lines == (66 if program == "superhirn" else 57)
    if program == "highiq":
        assert any("'nt' typed as 'tn'" in m.how for r in result.risks for m in r.silent)


@pytest.mark.parametrize("code, keys", [
    (0x93, "SHIFT+CLR/HOME"), (0x13, "CLR/HOME"), (0x11, "CRSR UP/DOWN"), (0x91, "SHIFT+CRSR UP/DOWN"),
    (0x12, "CTRL+9"), (0x92, "CTRL+0"), (0x90, "CTRL+1"), (0x9E, "CTRL+8"), (0x81, "C=+1"), (0x9B, "C=+8"),
    (0x14, "INST/DEL"), (0x94, "SHIFT+INST/DEL"), (0x85, "F1"), (0x0E, None), (0x41, None),
])
def test_the_key_that_gives_a_control_code(code, keys):
    assert petscii.key_stroke(code) == keys


def test_the_header_keys_the_control_codes_the_listing_names():
    listing = '10 print "{clr}{4 down}{rvon}x{rvof}{swlc}"  <123>\n20 print "{down}"  <045>\n'
    assert control_key(listing) == (
        "Control codes, and the keys that give them: {clr} SHIFT+CLR/HOME,",
        "  {down} CRSR UP/DOWN, {rvon} CTRL+9, {rvof} CTRL+0, {swlc} CHR$(14)")
    assert control_key("3400 : A9 93 20 D2 FF A9 01 8D 42\n") == ()


# a program the Checksummer's writer and reader do not agree on (found by a seeded random search of
# tokenized lines): the check says so and the pages are not written
DISAGREEING = bytes.fromhex("01080a080a0099224122001308140099224222001c081e0099224322003a08280011b122a2bc9312a834"
                            "11129bc1121112af11931292409912c5000000")


def test_a_page_that_does_not_read_back_fails_the_check_and_writes_nothing(capsys, tmp_path):
    program = tmp_path / "odd.prg"
    program.write_bytes(DISAGREEING)
    code, out, err = run_cli(capsys, "publish", str(program), "--check", "--quick", "-o", str(tmp_path / "out"))
    assert code == 1
    assert "does NOT read back to the program (1 line bad, a different program: 59 bytes read for 59, the first difference at $083C)" in out
    assert "nothing written" in err and not (tmp_path / "out").exists()




def test_a_line_longer_than_the_page_widens_the_page_and_reads_back():
    prg = tokenize('10 print "' + "a" * 69 + '"\n20 goto 10\n').prg  # 80 characters listed, 86 with <NNN>
    pub = lay_out(FORMATS["checksummer-3"], prg, "basic-prg", "T", "T")
    assert pub.width == 86 and len(pub.pages[0].columns) == 1
    assert check(pub, prg, misread=False).identical


@pytest.mark.parametrize("words", [14, 20])
def test_a_line_longer_than_a_typed_line_reads_back(words):
    # 160 and 220 characters listed (a C64 line typed with keyword abbreviations lists that long): a
    # row's own text is its line's, however long
    prg = tokenize('10 print "' + "abcdefghi " * words + '":print "x"\n20 goto 10\n').prg
    result = check(lay_out(FORMATS["checksummer-3"], prg, "basic-prg", "T", "T"), prg, misread=False)
    assert result.ok and result.identical
