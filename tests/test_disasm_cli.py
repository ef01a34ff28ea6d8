"""``asm6502 disasm`` on the command line: files, options, errors (no traceback, no partial file)."""

from __future__ import annotations

import pytest
from helpers import ROOT

from asm6502.cli import main

PRG = ROOT / "build" / "superhirn.prg"


def test_writes_a_source_that_asm6502_assembles_back(tmp_path):
    src, out = tmp_path / "sh.asm", tmp_path / "sh.prg"
    assert main(["disasm", str(PRG), "-o", str(src)]) == 0
    assert src.read_text().startswith("100 sys32768\n110 .opt oo\n120 ;\n130 ; superhirn.prg - disassembled")
    assert main([str(src), "-o", str(out), "-q"]) == 0
    assert out.read_bytes() == PRG.read_bytes()


def test_standard_output_and_options(capsys):
    assert main(["disasm", str(PRG), "--syntax", "64tass", "--entry", "$3400", "--entry", "0x35e4"]) == 0
    assert main(["disasm", str(PRG), "--syntax", "64tass", "--entry", "$3400", "13796"]) == 0
    text, again = capsys.readouterr().out.split("; superhirn.prg", 2)[1:]
    assert text == again
    text = "; superhirn.prg" + text
    assert text.startswith("; superhirn.prg - disassembled by asm6502 disasm\n; code traced from $3400, $35e4\n"
                           "; 64tass -o superhirn.prg superhirn.s\n")
    assert "\nsub_35e4        lda #$00\n" in text  # the relocation routine, traced from the second entry


def test_data_only(capsys):
    assert main(["disasm", str(PRG), "--data", "--syntax", "acme"]) == 0
    text = capsys.readouterr().out
    assert "lda" not in text and "!byte $a9, $93, $20, $d2, $ff" in text


@pytest.mark.parametrize("content,args,message", [
    (b"\x00", [], "too short for a .prg"),
    (b"\x00\x10\xea", ["--entry", "$2000"], "entry $2000 is outside the program ($1000-$1000)"),
    (b"\x00\xff" + bytes(300), [], "the program runs past $FFFF"),
])
def test_errors_leave_no_file(tmp_path, capsys, content, args, message):
    prg, src = tmp_path / "in.prg", tmp_path / "out.asm"
    prg.write_bytes(content)
    assert main(["disasm", str(prg), "-o", str(src), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"asm6502 disasm: error: {prg}: ") and message in err
    assert not src.exists()


def test_missing_file(tmp_path, capsys):
    assert main(["disasm", str(tmp_path / "nothing.prg")]) == 1
    assert "No such file" in capsys.readouterr().err


def test_data_and_entry_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as info:
        main(["disasm", str(PRG), "--data", "--entry", "$3400"])
    assert info.value.code == 2 and "exclude each other" in capsys.readouterr().err
