"""Where '.file' and '.lst' find their files, as a C64 user kept them: next to the source, in -I
directories, and as tokenized sources on a .d64 disk image (--disk)."""

from __future__ import annotations

import pytest

from asm6502.asm import Options, assemble_file
from asm6502.asm.symfile import read_symbols, write_symbols
from asm6502.basic.tokenizer import tokenize
from asm6502.cli import main
from asm6502.d64 import DiskImage, FileType
from asm6502.diagnostics import DiagnosticError

MAIN = '100 sys32768\n110 *= $c000\n120 lda #1\n130 .file 8,"part2"\n'
PART2 = "200 lda #2\n210 rts\n"
WANT = bytes([0xA9, 1, 0xA9, 2, 0x60])


def test_next_to_the_source(tmp_path):
    (tmp_path / "main.asm").write_text(MAIN)
    (tmp_path / "part2").write_text(PART2)
    assert assemble_file(tmp_path / "main.asm").image == WANT


def test_in_an_include_directory(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "part2.asm").write_text(PART2)
    (tmp_path / "main.asm").write_text(MAIN)
    with pytest.raises(DiagnosticError):
        assemble_file(tmp_path / "main.asm")
    assert assemble_file(tmp_path / "main.asm", Options(include_dirs=(str(tmp_path / "lib"),))).image == WANT


def test_tokenized_source_on_a_disk_image(tmp_path, capsys):
    disk = DiskImage.format(b"SOURCES", b"64")
    disk.add_file(b"PART2", tokenize(PART2).prg, FileType.PRG)  # as the C64 SAVEd it: a BASIC program
    (tmp_path / "src.d64").write_bytes(disk.to_bytes())
    (tmp_path / "main.asm").write_text(MAIN)
    assert assemble_file(tmp_path / "main.asm", Options(disk=str(tmp_path / "src.d64"))).image == WANT
    assert main([str(tmp_path / "main.asm"), "--disk", str(tmp_path / "src.d64"), "-o", str(tmp_path / "out.prg")]) == 0
    assert (tmp_path / "out.prg").read_bytes() == b"\x00\xc0" + WANT


def test_missing_file_is_the_originals_ieee_error(tmp_path):
    (tmp_path / "main.asm").write_text(MAIN)
    with pytest.raises(DiagnosticError) as info:
        assemble_file(tmp_path / "main.asm")
    assert info.value.errors[0].message.endswith("[IEEE]")


def test_opt_o_names_the_output_file(tmp_path, capsys):
    """'.opt o1' writes the file OPENed as 1 before the start line: the default output name."""
    (tmp_path / "prog.asm").write_text('10 open1,8,1,"@0:game"\n20 sys32768\n30 .opt o1\n40 *= $c000\n50 rts\n')
    assert main([str(tmp_path / "prog.asm")]) == 0
    assert (tmp_path / "game.prg").read_bytes() == b"\x00\xc0\x60"


def test_sst_then_lst_round_trip(tmp_path, capsys):
    """.sst writes the symbol table in the original's format; another program reads it with .lst."""
    (tmp_path / "a.asm").write_text('100 sys32768\n110 *= $c000\n120 chrout = $ffd2\n130 start rts\n140 .sst 8,2,"syms,s,w"\n')
    assert main([str(tmp_path / "a.asm"), "-o", str(tmp_path / "a.prg")]) == 0
    assert read_symbols((tmp_path / "syms").read_bytes()) == [("chrout", 0xFFD2), ("start", 0xC000)]
    (tmp_path / "b.asm").write_text('100 sys32768\n110 *= $1000\n120 .lst 8,2,"syms"\n130 jsr chrout\n140 jmp start\n')
    assert assemble_file(tmp_path / "b.asm").image == bytes([0x20, 0xD2, 0xFF, 0x4C, 0x00, 0xC0])


@pytest.mark.parametrize(
    "table, data",
    [  # records the original's .sst wrote (tests/fixtures/profiass_core/sst_names.syms, listing/listing_sst)
        ([("a", 1)], "00 00 01"),
        ([("ab", 0x1234)], "42 01 12 34"),
        ([("z", 5)], "c8 00 05"),
        ([("a1", 1), ("b2", 2)], "31 01 00 01 32 09 00 02"),
    ],
)
def test_symbol_file_records(table, data):
    assert write_symbols(table).hex(" ") == data
    assert read_symbols(bytes.fromhex(data)) == table


def test_symbol_file_the_original_wrote():
    """sst_names.src run through the original (profiass.py --header none --out DIR): DIR/disk/SYMS."""
    from pathlib import Path

    data = (Path(__file__).parent / "fixtures" / "profiass_core" / "sst_names.syms").read_bytes()
    table = read_symbols(data)
    assert table == [("a", 1), ("b", 2), ("ab", 0x1234), ("ba", 3), ("abcdefgh", 4), ("z", 5), ("l1", 0xC000)]
    assert write_symbols(table) == data


def test_a_file_chaining_to_itself_is_stopped(tmp_path):
    (tmp_path / "loop.asm").write_text('100 sys32768\n110 *= $c000\n120 nop\n130 .file 8,"loop.asm"\n')
    with pytest.raises(DiagnosticError) as info:
        assemble_file(tmp_path / "loop.asm")
    assert any("the .file chain comes back to" in d.message and "loop.asm -> loop.asm" in d.message for d in info.value.errors)


def test_each_file_of_a_chain_has_its_start_line(tmp_path):
    (tmp_path / "main.asm").write_text(MAIN)
    (tmp_path / "part2").write_text("100 sys32768\n" + PART2)
    assert assemble_file(tmp_path / "main.asm").image == WANT
