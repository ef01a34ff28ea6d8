"""What a file is (``filetype.sniff``), and the commands that take a C64 program saying so when it is not one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli

from asm6502 import filetype
from asm6502.basic.tokenizer import tokenize
from asm6502.d64 import DiskImage
from asm6502.disasm.basic_stub import find_sys

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CODE = bytes.fromhex("a9 00 8d 20 d0 60")  # lda #0 : sta $d020 : rts


def basic(text: str, tail: bytes = b"") -> bytes:
    return tokenize(text).prg + tail


def machine_code(load: int, code: bytes = CODE) -> bytes:
    return load.to_bytes(2, "little") + code


KINDS = [
    ("hello.asm", (EXAMPLES / "hello.asm").read_bytes(), "text"),
    ("HELLO.BAS", (EXAMPLES / "HELLO.BAS").read_bytes(), "basic-text"),
    ("typo.mse.txt", (EXAMPLES / "typo.mse.txt").read_bytes(), "mse"),
    ("blinker.txt", b"10 a$=chr$(18)\t< 080 >\n20 for i=1 to 38:next\t<191>\n30 goto 10 <12 >\n", "checksummer"),
    ("hello.prg", basic((EXAMPLES / "HELLO.BAS").read_text().lower()), "basic-prg"),
    ("code.prg", machine_code(0xC000), "machine-code"),
    ("text.prg", b"10 lda #1\n20 rts\n", "text"),  # a name says nothing the bytes deny
    ("stub.prg", basic("10 sys2061\n", CODE), "machine-code"),  # a BASIC start line in front of code
    ("blank.d64", DiskImage.format(b"BLANK", b"01").to_bytes(), "d64"),
]


@pytest.mark.parametrize(("name", "data", "kind"), KINDS, ids=[k[0] for k in KINDS])
def test_sniff(name, data, kind):
    assert filetype.sniff(data, name).name == kind


def test_sniff_names_where_machine_code_loads():
    assert "loads at $C000" in filetype.sniff(machine_code(0xC000), "x.prg").what


@pytest.mark.parametrize(("data", "name", "tokenized"), [
    (b"10 lda #1\n", "a.asm", False),
    (b"10 lda #1\n", "a.prg", True),  # the name decides for a .prg
    (b"\x01\x08\x0b\x08\x0a\x00\x99\x22\x48\x22\x00\x00\x00", "a", True),  # loads at $0801, a line's $00
    (b"\x01\x08abcdefgh", "a", False),  # no line ends in it
])
def test_is_tokenized(data, name, tokenized):
    assert filetype.is_tokenized(data, name) is tokenized


@pytest.mark.parametrize(("source", "found"), [
    ("10 sys 2064\n", (10, 2064)),
    ("10 print \"hi\"\n20 poke 53280,0\n30 sys(49152)\n", (30, 49152)),
    ("10 print \"sys 2064\"\n20 sys 4096\n", (20, 4096)),  # not inside a string
    ("10 rem sys 2064\n20 end\n", None),  # not after REM
    ("10 sys a\n", None),  # no constant address
    ("10 print 1\n", None),
])
def test_find_sys(source, found):
    assert find_sys(tokenize(source).prg[2:]) == found


def test_find_sys_in_machine_code_is_none():
    assert find_sys(bytes([0x02, 0x08, 0x0a, 0x00, 0x9e]) + b"2064" + bytes(1)) is None  # the link points back


@pytest.mark.parametrize("command", [["disasm"], ["mse", "write"]])
@pytest.mark.parametrize(("name", "what", "hint"), [
    ("hello.asm", "is a text file", "assemble it with 'asm6502 "),
    ("HELLO.BAS", "is a BASIC listing", "tokenize it with 'asm6502 basic tok "),
    ("typo.mse.txt", "is an MSE type-in listing", "asm6502 mse read "),
    ("blinker.txt", "is a Checksummer type-in listing", "asm6502 basic read "),
])
def test_a_text_is_no_program(capsys, tmp_path, command, name, what, hint):
    path = EXAMPLES / name
    if not path.exists():
        path = tmp_path / name
        path.write_bytes({k[0]: k[1] for k in KINDS}[name])
    code, out, err = run_cli(capsys, *command, path)
    assert (code, out) == (1, "")
    assert what in err and "not a C64 program (.prg)" in err and hint in err


def test_disasm_of_a_basic_program_starts_at_its_sys(capsys, tmp_path):
    text = "10 print \"hi\"\n20 poke 53280,0\n30 sys 2096\n"
    prg = tokenize(text).prg
    prg += bytes(2096 - (0x0801 + len(prg) - 2)) + CODE  # the code at 2096 = $0830
    path = tmp_path / "sys.prg"
    path.write_bytes(prg)
    code, out, err = run_cli(capsys, "disasm", path, "--syntax", "64tass")
    assert code == 0
    assert "note: " in err and "is a BASIC program; disassembling from its SYS 2096 (line 30, $0830)" in err
    assert "lda #$00" in out and "sta vic_border" in out


def test_disasm_of_a_basic_program_without_sys(capsys, tmp_path):
    path = tmp_path / "hello.prg"
    path.write_bytes(basic("10 print \"hi\"\n20 goto 10\n"))
    code, out, err = run_cli(capsys, "disasm", path)
    assert (code, out) == (1, "")
    assert "is a BASIC program (no SYS)" in err and "asm6502 basic list" in err and "--entry" in err


def test_disasm_of_a_basic_program_with_entry_given(capsys, tmp_path):
    path = tmp_path / "hello.prg"
    path.write_bytes(basic("10 print \"hi\"\n20 goto 10\n"))
    code, _, err = run_cli(capsys, "disasm", path, "--data")
    assert code == 0 and err == ""


def test_machine_code_is_written_as_an_mse_listing(capsys, tmp_path):
    path = tmp_path / "code.prg"
    path.write_bytes(machine_code(0xC000))
    code, out, _ = run_cli(capsys, "mse", "write", path)
    assert code == 0 and "C000" in out


def test_disasm_of_a_short_basic_start_starts_at_its_sys(capsys, tmp_path):
    """Two lines, one of them the SYS: machine code with a BASIC start that is not its first line."""
    prg = tokenize("10 print \"hi\"\n20 sys 2080\n").prg
    prg += bytes(2080 - (0x0801 + len(prg) - 2)) + CODE
    path = tmp_path / "start.prg"
    path.write_bytes(prg)
    assert filetype.sniff(prg, "start.prg").name == "machine-code"
    code, out, err = run_cli(capsys, "disasm", path, "--syntax", "64tass")
    assert code == 0 and "disassembling from its SYS 2080 (line 20, $0820)" in err and "sta vic_border" in out


@pytest.mark.parametrize("command", [["run", "--no-roms"], ["basic", "run"], ["basic", "list"], ["disasm"], ["mse", "write"]])
def test_a_disk_image_is_named_by_every_program_command(capsys, tmp_path, command):
    """(Not 'larger than 65,538 bytes': the image is read far enough to be told by its size and bytes.)"""
    disk = tmp_path / "blank.d64"
    disk.write_bytes(DiskImage.format(b"BLANK", b"01").to_bytes())
    code, out, err = run_cli(capsys, *command, disk)
    assert (code, out) == (1, "")
    assert "is a 1541 disk image (.d64), not a C64 program (.prg)" in err and "asm6502 d64 list" in err


def test_the_assembler_names_a_checksummer_listing(capsys, tmp_path):
    path = tmp_path / "blinker.txt"
    path.write_bytes({k[0]: k[1] for k in KINDS}["blinker.txt"])
    code, _, err = run_cli(capsys, path)
    assert code == 1 and "is a Checksummer type-in listing" in err and "asm6502 basic read" in err


def test_an_assembler_source_does_not_load_the_checksummer_reader():
    """(Lines ending in three digits, '*= $c000', are no checksums: typein.cslisting.layout, 5 ms, is not imported.)"""
    import subprocess
    import sys

    code = ("import sys; from asm6502 import filetype; "
            "filetype.sniff_text('10 *= $c000\\n20 lda #1\\n30 sta $d020\\n', 'a.asm', tokenized=False); "
            "print('asm6502.typein.cslisting.layout' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
