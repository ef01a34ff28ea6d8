"""The VIC-II's graphics within a raster line, pixel by pixel, without ROM images or test
suites: XSCROLL, MCM and BMM written in mid-line (each counts from its own pixel, as VICE's
x64sc draws them: vicii-draw-cycle.c), the border's 38-column right edge, the graphics under
the vertical border and in an open side border, the colour of the three c-accesses after a
$D011 write begins a bad line (the stalled CPU's opcode), the video matrix buffer a frame
finds from the frame before, and the VIC's phi-1 fetch of each cycle (what open I/O reads).
Frames drawn by vicdraw from logged writes (test_c64_vic.py's way); the bus byte from a
program run on the machine."""

from __future__ import annotations

import pytest
from test_c64_vic import frame_rows, run, test_roms  # noqa: F401 (a fixture)

from asm6502.emu.c64 import vicframe
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC

# the registers as a frame starts: border 14, background 6, text (DEN, 25 rows, YSCROLL 3),
# 40 columns, screen $0400 and characters (or the bitmap) at $2000, bank 0
START = {0x20: 14, 0x21: 6, 0x22: 2, 0x23: 3, 0x11: 0x1B, 0x16: 0x08, 0x18: 0x18, 0x40: 3}
LINE = 100  # (a line of text row 6: not a bad line)


def _log(writes, regs=None, cycle: int = 0) -> vicframe.FrameLog:
    start = [0] * 0x42
    for reg, value in {**START, **(regs or {})}.items():
        start[reg] = value
    log = vicframe.FrameLog(cycle, start, True)
    log.writes = [(cycle + line * 63 + c, reg, value) for line, c, reg, value in writes]
    return log


def _rows(writes, memory, colour=0, regs=None, model="8565", prior=None) -> dict[int, bytearray]:
    """The frame's lines: *writes* (line, 0-based cycle, register, value), *memory* {address:
    byte} (the rest 0), colour RAM all *colour*."""
    log = _log(writes, regs)
    log.prior = prior
    return frame_rows(log, lambda addr: memory.get(addr, 0), [colour] * 1024, model)


def _char0(byte: int) -> dict[int, int]:
    """Every cell character 0, its eight pixel rows *byte*."""
    return {0x2000 + row: byte for row in range(8)}


# --- XSCROLL written in mid-line: the shift register loads column c at the pixel the XSCROLL of
# the cycle after c's g-access gives (column 39: of its own), seen from the cycle after the
# write.  Each cell shows its leftmost pixel (white); a column shifted by 7 shows it at +7, the
# one before it ends in background.  (VICE testprogs VICII/border hvborder: a $D016 write in
# cycle 55 leaves column 39 unshifted.)
@pytest.mark.parametrize("cycle, unshifted, shifted", [
    (30, 14, 15),
    (20, 4, 5),
    (53, 37, 38),
    (54, 38, None),
])
def test_xscroll_written_in_mid_line_shifts_the_columns_loaded_after_it(cycle, unshifted, shifted):
    rows = _rows([(LINE, cycle, 0x16, 0x0F)], _char0(0x80), colour=1)
    row = rows[LINE]
    x = 32 + 8 * unshifted
    assert (row[x], row[x + 7]) == (1, 6), f"column {unshifted} at its place"
    if shifted is not None:
        x = 32 + 8 * shifted
        assert (row[x], row[x + 7]) == (6, 1), f"column {shifted} 7 pixels right"
    assert (rows[LINE + 1][32], rows[LINE + 1][39]) == (6, 1), "the next line all shifted: column 0's dot at 39"


# --- MCM written in mid-line: from pixel 4 of the draw of the cycle after the write (the
# colours: a multicolour cell's 1 bits as $D023 while the pixels are still hires), from pixel
# 7 two bits a pixel (VICE's vicii-draw-cycle.c, its "$d023 glitch").  Cells of $FF, colour
# RAM 9 (multicolour, colour 1); written in cycle 30 (0-based): the draw of cycle 31 is
# picture columns 144-151.
@pytest.mark.parametrize("model", ["8565", "6569"])
def test_mcm_switched_on_in_mid_line(model):
    row = _rows([(LINE, 30, 0x16, 0x18)], _char0(0xFF), colour=9, model=model)[LINE]
    assert list(row[140:160]) == [9] * 8 + [3] * 4 + [1] * 8, \
        "hires colour 9 up to 147, $D023 (3) at 148-151, then the pair 11: colour RAM & 7"


# --- BMM written in mid-line: an 8565 takes ECM and BMM at the end of the draw that first sees
# them (from the next cycle's pixels), a 6569 sets them from pixel 4 of that draw.  Character
# and bitmap bytes 0: text shows the background (6), hires bitmap the screen byte's low nibble
# (0, black).  Written in cycle 30: the draw of cycle 31 is columns 144-151.
@pytest.mark.parametrize("model, first", [
    ("8565", 152),
    ("6569", 148),
])
def test_bmm_switched_on_in_mid_line(model, first):
    row = _rows([(LINE, 30, 0x11, 0x3B)], {}, model=model)[LINE]
    assert (row[first - 1], row[first]) == (6, 0), f"bitmap colours from column {first}"


# --- the border's right edge (VICE's vicii-cycle.c, check_hborder; Bauer 3.9): the main
# flip-flop is set in cycle 56 with CSEL clear (X 335), in cycle 57 with CSEL set (X 344).  A
# CSEL cleared in cycle 55 (0-based 54) is seen by cycle 56's check: the border closes at
# column 343; cleared in the next cycle both checks miss it and the side border stays open (the
# background from 344 on, into the next line's left border).
@pytest.mark.parametrize("cycle, at_343, at_360, next_left", [
    (54, 14, 14, 14),
    (55, 6, 6, 6),
])
def test_the_38_column_right_edge_is_checked_in_cycle_56(cycle, at_343, at_360, next_left):
    rows = _rows([(LINE, cycle, 0x16, 0x00), (LINE, cycle + 4, 0x16, 0x08)], {})
    assert (rows[LINE][343], rows[LINE][360], rows[LINE + 1][10]) == (at_343, at_360, next_left)


# --- under the vertical border the graphics are off: with the side border kept open into line
# 251 (the bottom edge sets the vertical flip-flop there) it shows the background colour, not
# the idle state's byte ($3FFF, here $FF: black pixels).  (VICE testprogs VICII/border
# hvborder2; vicii-draw-cycle.c: no g-access data under the vertical border.)
def test_an_open_side_border_under_the_vertical_border_shows_no_graphics():
    opened = [(line, c, 0x16, v) for line in (249, 250, 251) for c, v in ((55, 0x00), (59, 0x08))]
    rows = _rows(opened, {0x3FFF: 0xFF})
    assert (rows[250][100], rows[250][370]) == (6, 6), "line 250, row 24's last: text, the side border open"
    assert (rows[251][100], rows[251][370], rows[252][10]) == (6, 6, 6), \
        "line 251, idle: the background across the open border, on into line 252's left border"


# --- outside the 40 columns the shift register loads 0 bytes with the last cell's matrix and
# colour bytes: in hires bitmap mode an open side border shows the last cell's background (the
# screen byte's low nibble), on the right of the line and the left of the next (VICE testprogs
# VICII/border border-bm-idle; vicii-draw-cycle.c).
def test_an_open_side_border_in_bitmap_mode_shows_the_last_cells_background():
    screen = {0x0400 + 6 * 40 + 39: 0x25}  # (row 6, column 39: colours 2 on 5)
    rows = _rows([(LINE, 55, 0x16, 0x00), (LINE, 59, 0x16, 0x08)], screen, regs={0x11: 0x3B})
    assert (rows[LINE][345], rows[LINE][360], rows[LINE + 1][10]) == (5, 5, 5)
    assert rows[LINE + 1][40] == 0, "line 101's column 1: its own cell (screen byte 0)"


# --- the c-accesses in the three cycles after BA went low read $FF, their colour the low
# nibble of the byte on the bus: the opcode the CPU waits to fetch after the $D011 write that
# began the bad line (VICE's vicii-fetch.c: RAM at the CPU's PC; VICE testprogs VICII/flibug).
# YSCROLL 4 written in line $34's cycle 20 (0-based; YSCROLL 5 before: the line is idle, RC 7):
# BA low and the first c-access in 21, display state from column 7: cells 0-2 (columns 7-9) are
# character $FF in the bus colour, cell 3 (column 10) the matrix's character 0 (its row 7
# empty: background), column 6 idle ($3FFF, 0: background).
@pytest.mark.parametrize("bus", [0xA7, 0x8E, 0xEA])
def test_the_first_c_accesses_of_a_bad_line_begun_in_mid_line_take_the_bus_colour(bus):
    memory = {0x2000 + 0xFF * 8 + 7: 0xFF}
    rows = _rows([(0x34, 20, vicframe.BUS_REG, bus), (0x34, 20, 0x11, 0x1C)], memory, colour=1, regs={0x11: 0x1D})
    row = rows[0x34]
    colour = bus & 0x0F
    assert [row[32 + 8 * c] for c in (6, 7, 8, 9, 10)] == [6, colour, colour, colour, 6]


@pytest.mark.parametrize("source, opcode", [
    ("lda #$1b\n         sta $d011\n         lda #$00", 0xA9),
    ("ldx #$1b\n         stx $d011\n         nop", 0xEA),
    ("lda #$1b\n         sta $d011\n         inc $d020", 0xEE),
])
def test_a_d011_write_logs_the_opcode_after_it(test_roms, source, opcode):  # noqa: F811
    m, _stop = run(test_roms, f"*= $c000\n         sei\n         {source}\nloop     jmp loop\n", frames=1)
    assert m.vic.regs[vicframe.BUS_REG] == opcode


# --- the video matrix buffer outlives the frame: a frame whose first display state comes
# before its first c-access (a bad line begun in line $33's cycle 54, after the last c-access:
# display state, RC 0 on line $34, no fetch) shows the cells the frame before fetched last -- its
# row 24 (VICE testprogs VICII/sequencer-bug, whose line 52 shows the matrix of the last row).
def test_a_frame_finds_the_matrix_the_frame_before_left():
    memory = {0x0400 + 960: 1, **{0x2008 + row: 0xFF for row in range(8)}}
    prior = _log([], cycle=-vicframe.LINES * 63)
    writes = [(0x33, 53, 0x11, 0x1B)]
    with_prior = _rows(writes, memory, colour=1, regs={0x11: 0x1C}, prior=prior)
    alone = _rows(writes, memory, colour=1, regs={0x11: 0x1C})
    assert (with_prior[0x34][32], alone[0x34][32]) == (1, 6), \
        "row 24's first cell, character 1 (all set, white); with no frame before: character 0"


# --- the phi-1 fetch, as a read of open I/O ($DE00-$DFFF) sees it: by the cycle, the sprite
# pointers and data (sprites 3-7 in cycles 0-9, 0-2 in 57-62), the refresh (10-14), the
# g-accesses (15-54), idle reads of $3FFF (VICE's vicii-chip-model.c and vicii-fetch.c).  As
# VICE testprogs VICII/phi1timing sets it up: ECM on, DEN off (idle state: the g-accesses read
# $39FF), no sprite on, pointers 0-7; its reference string, taken on a C64.
def _phi1_memory(addr: int) -> int:
    if addr == 0x3FFF:
        return 0xFF
    if addr == 0x39FF:
        return 0xAA
    if 0x3F00 <= addr < 0x3FFF:
        return 0x55
    return addr - 0x07F8 if 0x07F8 <= addr < 0x0800 else 0x42


def test_the_phi1_fetch_of_each_cycle_of_a_line():
    vic = VIC("8565")
    vic.memory = _phi1_memory
    vic.write(0x18, 0x15, 0)
    vic.write(0x11, 0x4B, 0)
    names = {0xAA: "g", 0x55: "r", 0xFF: "i"}
    line = 2 * 63
    got = "".join(names.get(b, str(b) if b < 8 else "?") for b in (vic.phi1_byte(line + k) for k in range(63)))
    assert got == "3i4i5i6i7irrrrr" + "g" * 40 + "ii0i1i2i"


@pytest.mark.parametrize("line, k, low", [
    (0, 10, 0xFF),
    (0, 14, 0xFB),
    (2, 10, 0xF5),
    (51, 12, (0xFF - 5 * 51 - 2) & 0xFF),
])
def test_the_refresh_counter_goes_down_from_ff_at_a_frames_start(line, k, low):
    vic = VIC("8565")
    vic.memory = lambda addr: addr & 0xFF if 0x3F00 <= addr < 0x4000 else 0
    assert vic.phi1_byte(CYCLES_PER_FRAME + line * 63 + k) == low
