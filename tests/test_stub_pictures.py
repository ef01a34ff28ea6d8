"""Pictures of a program on the project's stub ROMs (no C64 ROM images): ``run --screenshot-at`` and
``--strip``, and ``publish --screenshot``, each saying what the picture lacks."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from helpers import ROOT

from asm6502.asm import assemble
from asm6502.emu.c64 import screen

LOOP = b"\x00\xc0" + bytes([0xEE, 0x20, 0xD0, 0x4C, 0x00, 0xC0])  # INC $D020 / JMP $C000: the border changes all the time
# 10 SYS 2061 (the link to the end of the program at $080B, the line's 0), then at $080D INC $D020 / RTS:
# the border ends one colour further (light blue 14 -> 15)
SYS_LINE = bytes([0x01, 0x08, 0x0B, 0x08, 0x0A, 0x00, 0x9E, 0x32, 0x30, 0x36, 0x31, 0x00, 0x00, 0x00,
                  0xEE, 0x20, 0xD0, 0x60])
# screen code 1 ('A') into the screen's first cell, then RTS
POKE_A = b"\x00\xc0" + bytes([0xA9, 0x01, 0x8D, 0x00, 0x04, 0x60])


def _asm6502(*argv, cwd: Path) -> subprocess.CompletedProcess:
    """A command in its own process, on the stubs (the ROM images looked for nowhere), no keys."""
    return subprocess.run([sys.executable, "-m", "asm6502", *map(str, argv)], capture_output=True, text=True, input="",
                          cwd=cwd, env=dict(os.environ, ASM6502_ROMS="none"), timeout=120)


def _rows(png: bytes) -> list[bytes]:
    """The palette indices of the PNG the screen module writes (one IDAT, filter 0 on every row)."""
    width, height = struct.unpack(">II", png[16:24])
    at = png.index(b"IDAT")
    raw = zlib.decompress(png[at + 4 : at + 4 + struct.unpack(">I", png[at - 4 : at])[0]])
    return [raw[y * (width + 1) + 1 : (y + 1) * (width + 1)] for y in range(height)]


@pytest.mark.parametrize("strip", [1, 2, 3])
def test_a_strip_on_the_stubs_starts_with_the_picture_at_its_moment(tmp_path, strip):
    (tmp_path / "loop.prg").write_bytes(LOOP)
    alone = _asm6502("run", "loop.prg", "--cycles", "50000", "--screenshot", "alone.png", cwd=tmp_path)
    taken = _asm6502("run", "loop.prg", "--cycles", "150000", "--screenshot-at", "50000", "--strip", strip,
                     "--screenshot", "strip.png", cwd=tmp_path)
    assert alone.returncode == taken.returncode == 0, taken.stderr
    assert "but no characters" in taken.stderr
    first, pictures = _rows((tmp_path / "alone.png").read_bytes()), _rows((tmp_path / "strip.png").read_bytes())
    assert len(pictures[0]) == strip * screen.WIDTH and len(pictures) == screen.HEIGHT
    assert [row[: screen.WIDTH] for row in pictures] == first  # the strip's first frame: the run stopped then
    if strip > 1:  # a frame later the loop has coloured the border otherwise
        assert [row[screen.WIDTH : 2 * screen.WIDTH] for row in pictures] != first


def test_a_moment_in_frames_on_the_stubs(tmp_path):
    (tmp_path / "loop.prg").write_bytes(LOOP)
    by_frame = _asm6502("run", "loop.prg", "--cycles", "80000", "--screenshot-at", "2f", "--screenshot", "f.png",
                        cwd=tmp_path)
    by_cycles = _asm6502("run", "loop.prg", "--cycles", "80000", "--screenshot-at", str(2 * 19_656), "--screenshot",
                         "c.png", cwd=tmp_path)
    assert by_frame.returncode == by_cycles.returncode == 0
    assert (tmp_path / "f.png").read_bytes() == (tmp_path / "c.png").read_bytes()


def test_a_moment_without_a_picture_to_take_is_refused_on_the_stubs(tmp_path):
    (tmp_path / "loop.prg").write_bytes(LOOP)
    proc = _asm6502("run", "loop.prg", "--cycles", "80000", "--strip", "2", cwd=tmp_path)
    assert proc.returncode == 1 and "name its PNG" in proc.stderr and "needs the C64 ROM images" not in proc.stderr


def test_a_program_that_returns_before_the_strip_gives_its_final_screen(tmp_path):
    (tmp_path / "poke.prg").write_bytes(POKE_A)
    strip = _asm6502("run", "poke.prg", "--screenshot-at", "5f", "--strip", "2", "--screenshot", "s.png", cwd=tmp_path)
    final = _asm6502("run", "poke.prg", "--screenshot", "f.png", cwd=tmp_path)
    assert strip.returncode == final.returncode == 0
    assert (tmp_path / "s.png").read_bytes() == (tmp_path / "f.png").read_bytes()


def test_publish_on_the_stubs_takes_the_picture_run_takes(tmp_path):
    """The raster example's pages with a screenshot: the picture of docs/raster.md, made by 'run'."""
    (tmp_path / "bars.prg").write_bytes(assemble((ROOT / "examples" / "bars.asm").read_text(), "bars.asm").prg)
    proc = _asm6502("publish", "bars.prg", "-o", "pages", "--screenshot", "--cycles", "200000", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "screenshot.png (mse-1.0, 1 page)" in proc.stderr
    assert "note: screenshot.png: drawn without the C64's character ROM" in proc.stderr
    assert (tmp_path / "pages" / "screenshot.png").read_bytes() == (ROOT / "docs" / "bars.png").read_bytes()


def test_publish_on_the_stubs_starts_at_a_basic_lines_sys(tmp_path):
    (tmp_path / "sys.prg").write_bytes(SYS_LINE)
    proc = _asm6502("publish", "sys.prg", "-o", "pages", "--screenshot", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rows = _rows((tmp_path / "pages" / "screenshot.png").read_bytes())
    assert rows[0][0] == 15  # the border: light blue + 1, so the code after the SYS line ran


@pytest.mark.parametrize("argv, border", [
    ([], 15),  # from the SYS address of the BASIC line: the code after it ran
    (["--sys", "$080D"], 15),
])
def test_run_on_the_stubs_starts_at_a_basic_lines_sys(tmp_path, argv, border):
    (tmp_path / "sys.prg").write_bytes(SYS_LINE)
    proc = _asm6502("run", "sys.prg", *argv, "--stats", "--screenshot", "s.png", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _rows((tmp_path / "s.png").read_bytes())[0][0] == border
    assert ("started at $080D, the SYS address of BASIC line 10" in proc.stderr) == (argv == [])


def test_run_on_the_stubs_starts_where_sys_says(tmp_path):
    (tmp_path / "sys.prg").write_bytes(SYS_LINE)
    proc = _asm6502("run", "sys.prg", "--sys", "$0801", cwd=tmp_path)  # the line's bytes run as code
    assert proc.returncode == 1
    assert "error: brk: BRK at $0804" in proc.stderr


def test_publish_on_the_stubs_draws_the_characters_of_chargen(tmp_path):
    rom = bytes((i * 37 + 11) & 0xFF for i in range(4096))  # a stand-in: no real ROM in the repository
    (tmp_path / "chargen.bin").write_bytes(rom)
    (tmp_path / "poke.prg").write_bytes(POKE_A)
    plain = _asm6502("publish", "poke.prg", "-o", "plain", "--screenshot", cwd=tmp_path)
    drawn = _asm6502("publish", "poke.prg", "-o", "drawn", "--screenshot", "--chargen", "chargen.bin", cwd=tmp_path)
    assert plain.returncode == drawn.returncode == 0, drawn.stderr
    assert "with the characters of chargen.bin" in drawn.stderr and "CHROUT prints its text" in drawn.stderr
    with_rom, without = (_rows((tmp_path / d / "screenshot.png").read_bytes()) for d in ("drawn", "plain"))
    top, left = 35, 32  # the screen's first cell in the picture (below and right of the visible border)
    assert [with_rom[top + y][left : left + 8] for y in range(8)] != [without[top + y][left : left + 8] for y in range(8)]
    assert with_rom[0] == without[0]  # the border is the same


@pytest.mark.parametrize("program, said", [
    (ROOT / "build" / "highiq.prg", "is a BASIC program, and BASIC runs on the C64's own ROMs only"),
    (b"\x00\xc0\x02", "on the stub ROMs: jam"),  # JAM: the CPU stops, no picture of a program running
    (b"\x00\xc0\x20\x00\xe0", "on the stub ROMs: rom-call"),  # JSR into a ROM routine the stubs have not
])
def test_publish_on_the_stubs_refuses_what_does_not_run_there(tmp_path, program, said):
    (tmp_path / "p.prg").write_bytes(program.read_bytes() if isinstance(program, Path) else program)
    proc = _asm6502("publish", "p.prg", "-o", "pages", "--screenshot", cwd=tmp_path)
    assert proc.returncode == 1 and said in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "pages").exists()  # nothing written
