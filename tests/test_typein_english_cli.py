"""``asm6502 typein write|read|type --format NAME`` and the English typing sessions."""

from __future__ import annotations

import pytest
from helpers import ROOT, run_cli

from asm6502.typein.english.session import BasicTyping, MlxTyping
from asm6502.typein.formats import FORMATS

SUPERHIRN = ROOT / "build" / "superhirn.prg"
HIGHIQ = ROOT / "build" / "highiq.prg"
ENGLISH = [n for n, f in FORMATS.items() if f.family in ("mlx", "proofreader", "bugrepellent")]


@pytest.mark.parametrize("name", ENGLISH)
def test_write_then_read_gives_the_program(capsys, tmp_path, name):
    prg = SUPERHIRN if FORMATS[name].kind == "machine-code" else HIGHIQ
    listing, out = tmp_path / "listing.txt", tmp_path / "out.prg"
    assert run_cli(capsys, "typein", "write", str(prg), "--format", name, "-o", str(listing))[0] == 0
    code, _, err = run_cli(capsys, "typein", "read", str(listing), "--format", name, "-o", str(out))
    assert code == 0 and out.read_bytes() == prg.read_bytes()
    assert "0 repaired, 0 still bad" in err


def test_a_bad_line_keeps_the_program_unwritten(capsys, tmp_path):
    listing, out = tmp_path / "listing.txt", tmp_path / "out.prg"
    run_cli(capsys, "typein", "write", str(SUPERHIRN), "--format", "mlx-1", "-o", str(listing))
    rows = listing.read_text().split("\n")
    rows[5] = rows[5][:-3] + "000"  # the checksum of the second line misprinted
    listing.write_text("\n".join(rows))
    code, _, err = run_cli(capsys, "typein", "read", str(listing), "--format", "mlx-1", "-o", str(out))
    assert code == 1 and not out.exists()
    assert "not written" in err and "still bad" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["typein", "read", "{txt}", "--format", "mlx-2"], "no mlx-2 listing found"),
    (["typein", "write", "{mc}", "--format", "proofreader-1983"], "no BASIC line in it"),
])
def test_wrong_input_is_a_clear_error(capsys, tmp_path, argv, message):
    txt = tmp_path / "prose.txt"
    txt.write_text("nothing of a listing here\n")
    mc = tmp_path / "mc.prg"
    mc.write_bytes(bytes([0x00, 0xC0, 0xA9, 0x00, 0x60]))
    code, _, err = run_cli(capsys, *[a.format(txt=txt, mc=mc) for a in argv])
    assert code == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize(("family", "version", "line", "answer"), [
    ("proofreader", "1983", '10 PRINT "HELLO" :rem 166', "ok: line 10 166"),
    ("proofreader", "1983", '10 PRINT "HELLO" :rem 167', "refused: line 10 gives 166, the print says 167"),
    ("proofreader", "1986", 'GE 10 PRINT "HELLO"', "ok: line 10 GE"),
    ("proofreader", "1986", '10 PRINT "HELLO"', "ok: line 10 GE -- compare with the print"),
    ("bugrepellent", "2", 'EO 10 PRINT"HELLO"', "ok: line 10 EO"),
    ("bugrepellent", "2", '10 PRINT"HELLO"', "ok: line 10 EO -- compare with the print"),
])
def test_the_basic_typing_session_checks_each_line(family, version, line, answer):
    session = BasicTyping(family, version, "")
    assert session.feed(line)[0] == answer


def test_a_typed_slip_is_refused_with_the_likeliest_fix():
    session = BasicTyping("proofreader", "1986", "")
    answer = session.feed('GE 10 PRINT "HELLD"')
    assert answer[0] == "refused: line 10 gives ER, the print says GE"
    assert answer[1].endswith('10 PRINT "HELLO"')


def test_the_basic_session_resumes_from_its_file():
    session = BasicTyping("proofreader", "1986", "")
    session.feed('GE 10 PRINT "HELLO"')
    session.feed("20 GOTO 10")
    again = BasicTyping("proofreader", "1986", "")
    assert again.resume(session.listing()) == []
    assert again.lines == session.lines and again.prg() == session.prg()


def test_the_mlx_session_shows_the_next_address_and_checks():
    session = MlxTyping("2", "", start=0xC000, end=0xC00F)
    assert session.prompt() == "C000:"
    assert session.feed("A9 37 85 FC A9 D7 85 FE 5B") == ["ok: C000"]
    assert session.prompt() == "C008:"
    assert session.feed("A0 00 84 FB 84 FD 78 A5 DD")[0].startswith("refused")
    assert session.feed("A0 00 84 FB 84 FD 78 A5 DC") == ["ok: C008 -- the last line: the program is complete"]
    again = MlxTyping("2", "", start=None)
    again.resume(session.listing())
    assert again.prg == session.prg == bytes([0x00, 0xC0]) + bytes.fromhex("A93785FCA9D785FEA00084FB84FD78A5")
