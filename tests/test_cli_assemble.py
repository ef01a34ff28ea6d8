"""The assembler's command line: outputs, formats, and failure without traces."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import ROOT, printed_superhirn

SUPERHIRN = ROOT / "sources" / "superhirn.asm"


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "asm6502", *map(str, args)], capture_output=True, text=True, cwd=cwd)


def test_superhirn_prg(tmp_path):
    out = tmp_path / "superhirn.prg"
    proc = run(SUPERHIRN, "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == f"wrote {out}: $3400-$360A, 523 bytes\n"  # (no warning: only the summary)
    start, data = printed_superhirn()
    assert out.read_bytes() == b"\x00\x34" + data[:523]


def test_raw_and_hex_and_side_files(tmp_path):
    proc = run(SUPERHIRN, "--format", "raw", "-o", tmp_path / "s.bin", "--listing", tmp_path / "s.lst", "--labels", tmp_path / "s.lbl")
    assert proc.returncode == 0, proc.stderr
    start, data = printed_superhirn()
    assert (tmp_path / "s.bin").read_bytes() == data[:523]
    assert "al C:3437 .grloop\n" in (tmp_path / "s.lbl").read_text()
    assert " 640  3437  AD 52 03  grloop lda pos1" in (tmp_path / "s.lst").read_text()
    proc = run(SUPERHIRN, "--format", "hex", "-o", tmp_path / "s.hex")
    assert proc.returncode == 0 and (tmp_path / "s.hex").read_text().startswith(":10340000A993")


def test_same_input_same_bytes(tmp_path):
    for n in (1, 2):
        assert run(SUPERHIRN, "-o", tmp_path / f"{n}.prg", "--listing", tmp_path / f"{n}.lst").returncode == 0
    assert (tmp_path / "1.prg").read_bytes() == (tmp_path / "2.prg").read_bytes()
    assert (tmp_path / "1.lst").read_bytes() == (tmp_path / "2.lst").read_bytes()


def test_broken_source_shows_caret_and_writes_nothing(tmp_path):
    src = tmp_path / "bad.asm"
    src.write_text("10 *= $c000\n20 lda #1\n30 jmp nowhere\n")
    out = tmp_path / "bad.prg"
    lst = tmp_path / "bad.lst"
    proc = run(src, "-o", out, "--listing", lst)
    assert proc.returncode == 1
    assert proc.stderr == (
        f"{src}:3:8: error: undefined symbol 'nowhere' [UNDEF'D STATEMENT] (line 30)\n"
        "  30 jmp nowhere\n"
        "         ^~~~~~~\n"
        "1 error; no output written\n"
    )
    assert not out.exists() and not lst.exists()
    assert list(tmp_path.iterdir()) == [src]


@pytest.mark.parametrize(
    "args, needle",
    [
        (["/nonexistent/x.asm"], "asm6502: error: /nonexistent/x.asm: No such file or directory"),
        (["-D", "1x=2", "SRC"], "bad -D '1x=2'"),
        (["-D", "x=$zz", "SRC"], "bad -D 'x=$zz'"),
    ],
)
def test_bad_invocations_are_one_line_errors(args, needle, tmp_path):
    args = [str(SUPERHIRN) if a == "SRC" else a for a in args]
    proc = run(*args, "-o", tmp_path / "o.prg")
    assert proc.returncode == 1
    assert needle in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "o.prg").exists()


def test_gap_warning(tmp_path):
    src = tmp_path / "gap.asm"
    src.write_text("*= $1000\nnop\n*= $1004\nrts\n")
    proc = run(src, "-o", tmp_path / "gap.prg")
    assert proc.returncode == 0
    assert f"warning: {src}: gap of 3 bytes at $1001-$1003 filled with $00 in the prg output" in proc.stderr
    assert ":0:" not in proc.stderr  # a gap has no line of its own: no 'line 0'

    assert (tmp_path / "gap.prg").read_bytes() == b"\x00\x10\xea\x00\x00\x00\x60"


def test_errors_come_in_line_order(tmp_path):
    src = tmp_path / "order.asm"  # pass 1 finds line 110's error, pass 2 those of lines 20, 90 and 120
    src.write_text("10 *= $c000\n20 jmp later\n90 lda #300\n110 x = y\n120 jmp nowhere\n")
    proc = run(src, "-o", tmp_path / "order.prg")
    assert proc.returncode == 1
    assert [line.rsplit("(line ", 1)[1] for line in proc.stderr.splitlines() if ": error:" in line] == \
        ["20)", "90)", "110)", "120)"]


def test_a_64tass_label_colon_gets_a_hint(tmp_path):
    src = tmp_path / "colon.asm"
    src.write_text("10 *= $c000\n20 loop: jmp loop ;forever\n")
    proc = run(src, "-o", tmp_path / "colon.prg")
    assert proc.returncode == 1
    assert "note: in Profi-Ass ':' separates statements and a label has no colon: write 'loop jmp loop'" in proc.stderr


def test_help_documents_every_option():
    proc = run("--help")
    assert proc.returncode == 0
    assert ".opt o#" in proc.stdout  # the default output name, as the README's option table says
    for option in ("-o", "--format", "--fill", "--listing", "--labels", "--mse", "--mse-name", "-D", "--cpu", "--quiet"):
        assert option in proc.stdout
    for command in ("mse", "basic", "run", "verify", "d64", "build"):
        assert f"asm6502 {command}" in proc.stdout


def test_tokenized_c64_source_assembles(tmp_path):
    """A Profi-Ass source as the C64 saves it (tokenized BASIC) assembles to the same bytes."""
    src_prg = tmp_path / "superhirn-src.prg"
    assert run("basic", "tok", SUPERHIRN, "-o", src_prg).returncode == 0
    assert src_prg.read_bytes()[:2] == b"\x01\x08"
    proc = run(src_prg, "-o", tmp_path / "out.prg")
    assert proc.returncode == 0, proc.stderr
    start, data = printed_superhirn()
    assert (tmp_path / "out.prg").read_bytes() == b"\x00\x34" + data[:523]


def test_mse_listing_alongside(tmp_path):
    from asm6502.typein.mselisting import read_listing

    proc = run(SUPERHIRN, "-o", tmp_path / "s.prg", "--mse", tmp_path / "s.mse.txt", "--mse-name", "SUPERHIRN II")
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "s.mse.txt").read_text()
    assert text.startswith("PROGRAMM : SUPERHIRN II 3400 360B\n")
    back = read_listing(text, "s.mse.txt")
    assert back.ok and back.start == 0x3400 and bytes(back.data) == (tmp_path / "s.prg").read_bytes()[2:]


# A program of definitions only makes no bytes: the original assembles it (rules/org_no_code) and
# writes what it was asked for; here an error only when nothing at all would be written.
@pytest.mark.parametrize(("lines", "extra", "rc", "written"), [
    (["20 a = 1"], [], 1, []),                                                   # nothing to write
    (["20 a = 1"], ["--labels", "d.lbl"], 0, ["d.lbl"]),                          # the labels
    (["20 a = 1"], ["--listing", "d.lst"], 0, ["d.lst"]),                         # the listing
    (["20 a = 1", '30 .sst 8,2,"syms,s,w"', "40 .end"], [], 0, ["syms"]),          # the source's symbol table
    (["20 a = 1", '30 .sst 8,2,"syms,s,w"', "40 .end"], ["--labels", "d.lbl"], 0, ["d.lbl", "syms"]),
])
def test_definitions_only(tmp_path, lines, extra, rc, written):
    src = tmp_path / "d.asm"
    src.write_text("\n".join(["10 sys32768", *lines]) + "\n")
    proc = run(src, *extra, cwd=tmp_path)
    assert proc.returncode == rc, proc.stderr
    assert "the program produces no bytes" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p != src) == written
