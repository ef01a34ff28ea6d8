"""``asm6502 basic tok|list|checksum`` from the command line."""

from __future__ import annotations

import pytest

from asm6502.cli import basic


def run(argv, capsys):
    code = basic.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_tok_then_list_prints_the_source(tmp_path, capsys):
    src = tmp_path / "p.bas"
    src.write_text('10 print "{clr}hello"\n20 goto 10\n')
    code, _, err = run(["tok", src, "-o", tmp_path / "p.prg"], capsys)
    assert (code, err) == (0, "")
    assert (tmp_path / "p.prg").read_bytes()[:2] == b"\x01\x08"
    code, out, err = run(["list", tmp_path / "p.prg"], capsys)
    assert (code, out, err) == (0, src.read_text(), "")


def test_tok_start_address_in_hex(tmp_path, capsys):
    src = tmp_path / "p.bas"
    src.write_text("10 end\n")
    for spelling in ("1c01", "$1C01", "0x1c01"):
        assert run(["tok", src, "-o", tmp_path / "p.prg", "--start", spelling], capsys)[0] == 0
        assert (tmp_path / "p.prg").read_bytes()[:4] == b"\x01\x1c\x07\x1c"


def test_tok_error_gives_position_and_writes_nothing(tmp_path, capsys):
    src = tmp_path / "bad.bas"
    src.write_text("10 print\n20 print \"{nope}\"\n")
    out_file = tmp_path / "bad.prg"
    code, _, err = run(["tok", src, "-o", out_file], capsys)
    assert code == 1
    assert f"{src}:2:11: error: unknown control-code name {{nope}}" in err
    assert "Traceback" not in err
    assert not out_file.exists()


def test_missing_file_is_a_clean_error(tmp_path, capsys):
    code, _, err = run(["list", tmp_path / "none.prg"], capsys)
    assert code == 1 and "No such file" in err and "Traceback" not in err


def test_list_to_file_and_warnings_on_stderr(tmp_path, capsys):
    prg = tmp_path / "x.prg"
    prg.write_bytes(b"\x01\x08\x07\x08\x0a\x00\x80\x00\x00\x00\xa9\x00")  # END + 2 bytes of code
    code, out, err = run(["list", prg, "-o", tmp_path / "x.txt"], capsys)
    assert (code, out) == (0, "")
    assert (tmp_path / "x.txt").read_text() == "10 end\n"
    assert "2 bytes after the program end" in err


def test_checksum_of_source_and_prg_agree(tmp_path, capsys):
    src = tmp_path / "c.bas"
    src.write_text("1 rem\n")
    code, out, _ = run(["checksum", src], capsys)
    assert (code, out) == (0, "1 rem <063>\n")
    run(["tok", src, "-o", tmp_path / "c.prg"], capsys)
    assert run(["checksum", tmp_path / "c.prg", "--version", "2"], capsys)[1] == "1 rem <144>\n"


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        basic.main(["--help"])
    out = capsys.readouterr().out
    for name, _ in basic.COMMANDS:
        assert name in out


PETCAT_LISTING = ";life.prg ==0801==\n10 rem life\n20 print 1\n"


def test_petcat_header_line_is_skipped_by_tok_and_checksum(tmp_path, capsys):
    # every petcat listing begins with ";NAME ==LOAD==" (petcat -2 output)
    src, plain = tmp_path / "life.bas", tmp_path / "plain.bas"
    src.write_text(PETCAT_LISTING)
    plain.write_text(PETCAT_LISTING.split("\n", 1)[1])
    assert run(["tok", src, "-o", tmp_path / "a.prg"], capsys)[:3:2] == (0, "")
    assert run(["tok", plain, "-o", tmp_path / "b.prg"], capsys)[0] == 0
    assert (tmp_path / "a.prg").read_bytes() == (tmp_path / "b.prg").read_bytes()
    code, out, err = run(["checksum", src], capsys)
    assert (code, err) == (0, "") and out == run(["checksum", plain], capsys)[1]
    assert out.splitlines()[0].startswith("10 rem life")


def test_comment_lines_under_the_petcat_header_are_skipped(tmp_path, capsys):
    # a 64'er disk text carries its erratum notes as ';' lines under the header
    src, plain = tmp_path / "notes.bas", tmp_path / "plain.bas"
    src.write_text(";life.prg ==0801==\n; line 20 corrected (64'er 11/85)\n  ;  second note\n10 rem life\n20 print 1\n")
    plain.write_text(PETCAT_LISTING.split("\n", 1)[1])
    assert run(["tok", src, "-o", tmp_path / "a.prg"], capsys)[:3:2] == (0, "")
    assert run(["tok", plain, "-o", tmp_path / "b.prg"], capsys)[0] == 0
    assert (tmp_path / "a.prg").read_bytes() == (tmp_path / "b.prg").read_bytes()
