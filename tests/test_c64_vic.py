"""The VIC-II 6569 of the C64 machine, without ROM images or test suites: small programs
in the Profi-Ass dialect, assembled by asm6502, run on the test KERNAL of
test_c64_machine.py; the facts they check are Christian Bauer's ("The MOS 6567/6569
video controller", 1996): bad lines and sprite DMA take the bus for the documented
cycles (measured with CIA 1 timer B), the picture is drawn line by line from the
registers in force (raster bars, a split screen); collisions: test_c64_vic_collisions.py."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest
from test_c64_machine import booted, make_test_roms
from test_c64_roms import ROMS as REAL_ROMS
from test_c64_roms import WHY as NO_REAL_ROMS

from asm6502.asm import assemble
from asm6502.emu.c64 import screen, vicdraw, vicframe
from asm6502.emu.c64.machine import C64
from asm6502.emu.c64.vic import CYCLES_PER_FRAME

START = 0xC000


@pytest.fixture(scope="module")
def test_roms():
    return make_test_roms()


def run(roms, source: str, frames: int = 4, prepare=None):
    m = booted(roms)
    if prepare is not None:
        prepare(m)
    m.inject_prg(assemble(source, "vic-test.asm").prg)
    m.cpu.pc = START
    stop = m.run(CYCLES_PER_FRAME * frames, stop_when_idle=False)
    return m, stop


def pixel(m, x: int, line: int) -> int:
    """The colour at picture column *x* of raster *line*."""
    return screen.render(m)[line - vicdraw.FIRST_LINE][x]


# --- cycles the VIC takes from the CPU -----------------------------------------------
# Timer B of CIA 1 counts every cycle from $FFFF; the program waits for line 0 (bit 8 of
# the raster goes from 1 to 0), then reads the timer's low byte in line $32 and again 158 cycles of its own later (STA zp 3, LDX # 2, 30 x DEX/BNE 149, LDA abs
# 4), after the line $33 (a bad line with YSCROLL = 3) and the sprite fetches at the ends
# of lines $32 and $33.  The loop only reads, so the CPU loses every cycle of each window.
TIMING = """*= $c000
         sei
         lda #{d011}
         sta $d011
         lda #{sprites}
         sta $d015
         ldx #14
ys       lda #$32
         sta $d001,x
         dex
         dex
         bpl ys
         lda #$ff
         sta $dc06
         sta $dc07
         lda #$11
         sta $dc0f
w0       bit $d011
         bpl w0
w00      bit $d011
         bmi w00
w1       lda $d012
         cmp #$32
         bne w1
         lda $dc06
         sta $fb
         ldx #20
loop     dex
         bne loop
         lda $dc06
         sta $fc
         sta $d7ff
"""
OWN_CYCLES = 108


@pytest.mark.parametrize("d011, sprites, stolen, why", [
    (0x0B, 0x00, 0, "display off, no sprites: nothing taken"),
    (0x1B, 0x00, 43, "a bad line: BA low from cycle 12, the c-accesses end in cycle 54 (Bauer 3.6.3)"),
    (0x0B, 0x01, 2 * 5, "sprite 0 in two lines: BA low in cycles 55-57, its accesses in 58-59"),
    (0x0B, 0xFF, 2 * 19, "eight sprites in two lines: cycles 55-63 and 1-10 of the next line"),
    (0x1B, 0x01, 43 + 5 + 5, "the bad line and sprite 0: its window follows the bad line's at once"),
])
def test_bad_lines_and_sprite_dma_take_the_cpus_cycles(test_roms, d011, sprites, stolen, why):
    m, stop = run(test_roms, TIMING.format(d011=d011, sprites=sprites))
    assert stop.reason == "exit", stop
    assert (m.memory[0xFB] - m.memory[0xFC]) & 0xFF == OWN_CYCLES + stolen, why


def test_a_write_goes_on_while_ba_is_low_and_the_next_read_waits(test_roms):
    """The CPU's cycles from a window's first on: writes go on, the first read waits
    until the window is over (a bad line's window: cycles 11-53 of the line, 0-based)."""
    m = C64(test_roms)
    vic = m.vic
    vic.write(0x11, 0x1B, 0)  # DEN in line 0: line $33 of this frame is a bad line
    start = 0x33 * 63 + 11
    vic.pass_bus(0)
    assert (vic.ba_from, vic.ba_to) == (start, 0x33 * 63 + 53)
    assert m._through(1, 0b1, False)[0] == start + 1  # STA's write in the window's first cycle
    assert m._through(2, 0b01, False)[0] == 0x33 * 63 + 55  # ... then the next opcode fetch waits
    assert m._through(1, 0, False) == (0x33 * 63 + 55, 0, 43)  # a read there waits 43 cycles
    assert m._through(3, 0b011, False)[0] == 0x33 * 63 + 55  # a read-modify-write's two writes go on


# --- the picture, line by line ---------------------------------------------------------------
BARS = """*= $c000
         sei
         lda #$1c
         sta $d018
frame    ldx #0
bars     lda lines,x
wait     cmp $d012
         bne wait
         lda border,x
         sta $d020
         lda back,x
         sta $d021
         inx
         cpx #3
         bne bars
         jmp frame
lines    .byt $80,$90,$a0
border   .byt 2,5,14
back     .byt 6,0,6
"""


def _blank_charset(m):
    m.poke_ram(0x3000, bytes(0x800))  # the characters at $3000: no pixels set


@pytest.mark.parametrize("line, border, background", [
    (0x70, 14, 6), (0x85, 2, 6), (0x95, 5, 0), (0xB0, 14, 6),
])
def test_raster_bars_and_a_split_screen(test_roms, line, border, background):
    m, _stop = run(test_roms, BARS, prepare=_blank_charset)
    assert pixel(m, 4, line) == border
    assert pixel(m, 300, line) == background


def test_a_colour_written_in_mid_line_shows_from_its_column_on(test_roms):
    m, _stop = run(test_roms, BARS, prepare=_blank_charset)
    row = screen.render(m)[0x80 - vicdraw.FIRST_LINE]  # the line the write of colour 2 happens in
    assert row[0] == 14 and row[-1] == 2


# --- sprites and collisions --------------------------------------------------------------
SPRITES = """*= $c000
         sei
         ldx #62
fill     lda #$ff
         sta $2000,x
         dex
         bpl fill
         lda #128
         sta $07f8
         sta $07f9
         lda #{x0}
         sta $d000
         lda #{x1}
         sta $d002
         lda #{y}
         sta $d001
         sta $d003
         lda #{mx}
         sta $d010
         lda #{prio}
         sta $d01b
         lda #2
         sta $d027
         lda #5
         sta $d028
         lda #3
         sta $d015
w0       bit $d011
         bpl w0
w1       bit $d011
         bmi w1
w2       bit $d011
         bpl w2
         sta $d7ff
done     jmp done
"""


def test_sprites_drawn_with_priority(test_roms):
    m, _stop = run(test_roms, SPRITES.format(x0=100, x1=110, y=100, mx=0, prio=0), prepare=_blank_charset)
    m.vic.write(0x18, 0x1C, m.cpu.cycles)
    m.run(CYCLES_PER_FRAME * 2, stop_when_idle=False)
    # sprite X 100 is picture column 108, Y 100 shows from line 101
    assert pixel(m, 108, 101) == 2  # sprite 0
    assert pixel(m, 125, 110) == 2  # sprite 0 over sprite 1
    assert pixel(m, 140, 110) == 5  # sprite 1 alone
    assert pixel(m, 108, 100) == 6  # above: the background
    assert pixel(m, 108, 122) == 6  # 21 lines: 101-121


# --- the command line (needs the C64 ROM images) -------------------------------------------
@pytest.mark.skipif(REAL_ROMS is None, reason=NO_REAL_ROMS)
def test_cli_screenshot_at_a_frame_and_a_strip(tmp_path):
    assert REAL_ROMS is not None
    prg = tmp_path / "bars.prg"
    prg.write_bytes(assemble(BARS, "bars.asm").prg)
    out = tmp_path / "s.png"
    env = dict(os.environ, ASM6502_ROMS=REAL_ROMS.origin)
    base = [sys.executable, "-m", "asm6502", "run", str(prg), "--cycles", "600000"]
    proc = subprocess.run(base + ["--screenshot", str(out), "--screenshot-at", "20f", "--strip", "2"],
                          check=False, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    data = out.read_bytes()
    assert struct.unpack(">II", data[16:24]) == (2 * screen.WIDTH, screen.HEIGHT)
    proc = subprocess.run(base + ["--screenshot-at", "20f"], check=False, capture_output=True, text=True, env=env)
    assert proc.returncode == 1 and "name its PNG" in proc.stderr


# --- the window, scrolling, the bank, sprite shapes ------------------------------------------
def _set(m, writes):
    """VIC registers (or "dd00": CIA 2 port A) written now, then two frames drawn."""
    for reg, value in writes:
        if reg == "dd00":
            m.cia2.write(0, value, m.cpu.cycles)
            m.vic.note_bank((value | ~m.cia2.regs[2]) & 3, m.cpu.cycles)
        else:
            m.vic.write(reg, value, m.cpu.cycles)
    m.run(CYCLES_PER_FRAME * 2, stop_when_idle=False)
    return screen.render(m)


GLYPH_R0 = (18 * 8) * 7 + 3 & 0xFF  # the test character ROM's first byte of 'R' (code 18)


def _bits(byte, fg, bg):
    return bytes(fg if byte & (0x80 >> i) else bg for i in range(8))


@pytest.mark.parametrize("writes, x, line, border, why", [
    ([(0x16, 0x08), (0x11, 0x13)], 100, 52, True, "24 rows: line 52 is border (the window from line 55)"),
    ([(0x16, 0x08), (0x11, 0x13)], 100, 55, False, "24 rows: the window from line 55"),
    ([(0x16, 0x08), (0x11, 0x1B)], 32, 51, False, "25 rows, 40 columns: the window from line 51, column 32"),
    ([(0x16, 0x08), (0x11, 0x1B)], 32, 250, False, "25 rows: to line 250"),
    ([(0x16, 0x08), (0x11, 0x1B)], 32, 251, True, "25 rows: the border from line 251"),
    ([(0x16, 0x08)], 351, 100, False, "40 columns: to column 351"),
    ([(0x16, 0x00)], 38, 100, True, "38 columns: the border to column 38"),
    ([(0x16, 0x00)], 39, 100, False, "38 columns: the window from column 39"),
    ([(0x16, 0x00)], 343, 100, True, "38 columns: the border from column 343"),
])
def test_the_display_window(test_roms, writes, x, line, border, why):
    m = booted(test_roms)
    m.poke_ram(0x3000, bytes(0x800))  # a blank character set at $3000: the window is background (6)
    rows = _set(m, [(0x18, 0x1C), *writes])
    assert rows[line - vicdraw.FIRST_LINE][x] == (14 if border else 6), why


@pytest.mark.parametrize("writes, x, line, want, why", [
    ([(0x16, 0x0B)], 32, 51, list(bytes([6, 6, 6]) + _bits(GLYPH_R0, 1, 6)[:5]), "XSCROLL 3: 3 columns later"),
    ([(0x16, 0x08), ("dd00", 0x01), (0x18, 0x15)], 32, 51, list(_bits(GLYPH_R0, 1, 6)),
     "bank 2 ($DD00 = %01): screen $8400, the character ROM at $9000"),
])
def test_window_scrolling_and_bank(test_roms, writes, x, line, want, why):
    m = booted(test_roms)
    m.poke_ram(0x0400, bytes([18]))
    m.poke_ram(0x8400, bytes([18]))
    m.color[0] = 1
    rows = _set(m, writes)
    assert list(rows[line - vicdraw.FIRST_LINE][x:x + len(want)]) == want, why


@pytest.mark.parametrize("writes, x, want, why", [
    ([], 108, [7] * 24 + [6], "hires, 24 pixels"),
    ([(0x1D, 1)], 108, [7] * 48 + [6], "expanded in X: 48"),
    ([(0x1C, 1), (0x25, 2), (0x26, 5)], 108, [2, 2, 7, 7, 5, 5, 6, 6], "multicolour: 01 $D025, 10 own, 11 $D026, 00 none"),
])
def test_sprite_shapes(test_roms, writes, x, want, why):
    m = booted(test_roms)
    m.poke_ram(0x3000, bytes(0x800))  # a blank character set at $3000
    m.poke_ram(0x2000, bytes([0b01101100, 0, 0] if any(r == 0x1C for r, _ in writes) else [0xFF] * 3) * 21)
    m.poke_ram(0x07F8, bytes([128]))
    rows = _set(m, [(0x16, 0x08), (0x18, 0x1C), (0x00, 100), (0x01, 100), (0x27, 7), (0x15, 1), *writes])
    assert list(rows[101 - vicdraw.FIRST_LINE][x:x + len(want)]) == want, why


def _frame_rows(writes, start_regs=None, memory=None):
    """A frame drawn by vicdraw alone: registers (border 14, background 6, text, 25 rows,
    40 columns, DEN) and writes at (line, 0-based cycle) positions; *memory* {address:
    byte}, the rest 0."""
    start = [0] * 0x41
    start[0x20], start[0x21], start[0x11], start[0x16], start[0x40] = 14, 6, 0x1B, 0x08, 3
    for reg, value in (start_regs or {}).items():
        start[reg] = value
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(line * 63 + cycle, reg, value) for line, cycle, reg, value in writes]
    ram = memory or {}
    return frame_rows(log, lambda addr: ram.get(addr, 0), [0] * 1024)


def frame_rows(log, fetch, colour_ram, model: str = "6569") -> dict[int, bytearray]:
    """Every line of the frame *log* describes, drawn by vicdraw's LineDrawer alone."""
    drawer = vicdraw.LineDrawer(log, fetch, colour_ram, model)
    rows = {}
    for line in range(vicframe.LINES):
        drawer.step()
        rows[line] = vicdraw.draw_line(drawer, 1 << 62)
        drawer.finish_line()
    return rows


@pytest.mark.parametrize("cycle, open_after, why", [
    (55, True, "38 columns from cycle 56 (0-based 55): X 335 passed, 344 not reached: the border stays open"),
    (57, False, "too late: X 344 was reached with 40 columns"),
])
def test_the_side_border_opened_by_csel_in_time(cycle, open_after, why):
    rows = _frame_rows([(100, cycle, 0x16, 0x00), (101, 20, 0x16, 0x08)])
    assert (rows[100][370] != 14) == open_after, why
    assert (rows[101][5] != 14) == open_after, "and open into the next line's left border"
    assert rows[102][5] == 14 and rows[102][100] != 14  # the left edge of line 102 resets it as usual


@pytest.mark.parametrize("d011, d016, x, colour, why", [
    (0x18, 0x08, 96, 6, "text: a 0 bit of $3FFF in the background colour"),
    (0x18, 0x08, 100, 0, "text: a 1 bit black (in display state, character 0 of zeros, it is background)"),
    (0x38, 0x08, 96, 0, "hires bitmap: a 0 bit black too (its colours are the matrix's, 0)"),
    (0x38, 0x18, 96, 6, "multicolour bitmap: 00 is the background colour"),
])
def test_idle_state_below_the_text(d011, d016, x, colour, why):
    # YSCROLL 0: the last text row is lines $F0-$F7, line $F9 is idle and still in the
    # 25-row window; $3FFF (shown in idle state) holds %00001111
    rows = _frame_rows([], {0x11: d011, 0x16: d016}, {0x3FFF: 0x0F})
    assert rows[0xF9][x] == colour, why
    assert rows[0xF0][x] == 6 or d011 & 0x20  # (display state above: text of zeros)


# --- the border flip-flops, cycle by cycle (VICE's x64sc, vicii-cycle.c) ------------------
@pytest.mark.parametrize("cycle, line, opened, why", [
    (0, 51, True, "DEN cleared in line 51's first cycle: the VIC still sees it set there, the border opens"),
    (62, 50, False, "DEN cleared in line 50's last cycle: never seen set in line 51, the border stays shut"),
    (62, 51, True, "DEN cleared in line 51's last cycle: seen set before, the border opens"),
])
def test_den_seen_set_in_any_cycle_of_the_top_line_opens_the_border(cycle, line, opened, why):
    rows = _frame_rows([(line, cycle, 0x11, 0x0B), (53, 30, 0x11, 0x1B)])
    assert (rows[100][100] != 14) == opened, why


def test_an_open_vertical_border_stays_open_into_the_next_frame():
    """RSEL cleared in line 249 (24 rows: the bottom was line 247): the bottom line of
    25 rows (251) is never seen, the vertical flip-flop stays reset through the frame's
    end, and the next frame shows graphics in its top border (sprites in the border)."""
    start = [0] * 0x41
    start[0x20], start[0x21], start[0x11], start[0x16], start[0x40] = 14, 6, 0x1B, 0x08, 3
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(249 * 63 + 20, 0x11, 0x13)]
    assert vicdraw.border_at_end(log) == (False, False, True)
    assert vicdraw.border_at_end(vicframe.FrameLog(0, start, True)) == (True, True, True)
    following = vicframe.FrameLog(vicframe.LINES * 63, start, True, (False, False, True))
    drawer = vicdraw.LineDrawer(following, lambda addr: 0, [0] * 1024)
    rows = []
    for _line in range(30):
        drawer.step()
        rows.append(vicdraw.draw_line(drawer, 1 << 62))
        drawer.finish_line()
    assert rows[20][100] == 6 and rows[20][5] == 14, "the top border open (the side border as usual)"


# --- the bad-line condition in every cycle (Bauer 3.14.6, DMA delay) -----------------------
# YSCROLL 0 until the write, 3 after it (the first text row in line $33); the screen at
# $0400 holds character 1 (all pixels set) at cells 40-79 only, colour 0 (black)
@pytest.mark.parametrize("writes, colour, why", [
    ([(0x2F, 62, 0x11, 0x1B)], 6, "no bad-line condition in line $30: the first row shows cells 0-39"),
    ([(0x30, 0, 0x11, 0x1B)], 0, "the condition in line $30's first cycle only: display state without "
     "c-accesses, VC advanced by 40 there, the first row shows cells 40-79"),
    ([(0x30, 13, 0x11, 0x1B)], 6, "the condition up to cycle 14: RC reset there, so RC is not 7 in cycle 58 "
     "and VCBASE stays: the first row shows cells 0-39"),
])
def test_a_bad_line_condition_in_a_single_cycle_starts_the_display(writes, colour, why):
    memory = {0x0400 + cell: 1 for cell in range(40, 80)}
    memory.update({0x2008 + row: 0xFF for row in range(8)})
    rows = _frame_rows(writes, {0x11: 0x18, 0x18: 0x18}, memory)
    assert rows[0x33][32] == colour, why


def test_dma_delay_the_condition_from_mid_line_shifts_the_row():
    """YSCROLL made to match in cycle 20 of line $30 (the VIC sees it from cycle 21): the
    g-accesses from cycle 22 on are in display state, VC advances by 34 there, and the
    screen is shifted by 34 cells (the first row, line $33, starts with cell 34)."""
    memory = {0x0400 + 34: 1}
    memory.update({0x2008 + row: 0xFF for row in range(8)})
    rows = _frame_rows([(0x30, 19, 0x11, 0x18), (0x30, 40, 0x11, 0x1B)], {0x11: 0x19, 0x18: 0x18}, memory)
    assert rows[0x33][32] == 0 and rows[0x33][40] == 6


# --- the light pen (Bauer 3.13; VICE's x64sc, vicii-lightpen.c) -----------------------------
def test_the_light_pen_latches_once_a_frame():
    from asm6502.emu.c64.vic import VIC
    vic = VIC()
    line = 100
    vic.light_pen(True, line * 63 + 20)  # the edge in cycle 21: latched in cycle 22 (X $044, taken as $040)
    assert (vic.read(0x13, line * 63 + 30), vic.read(0x14, line * 63 + 30)) == (0x040 // 2 + 2, line)
    assert vic.flags & 0x08
    vic.light_pen(False, line * 63 + 40)
    vic.light_pen(True, (line + 5) * 63 + 40)  # a second edge in the frame: no new position
    assert vic.read(0x14, (line + 6) * 63) == line
    # held low into the next frame: latched again at its start, X $D1
    assert (vic.read(0x13, CYCLES_PER_FRAME + 100), vic.read(0x14, CYCLES_PER_FRAME + 100)) == (0xD1, 0)


LIGHT_PEN = """*= $c000
         sei
         lda #$ff
         sta $dc01
         sta $dc03
w1       lda $d012
         cmp #$80
         bne w1
         lda #$00
         sta $dc01
         lda #$ff
         sta $dc01
         lda $d013
         sta $fb
         lda $d014
         sta $fc
         lda $d019
         and #$08
         sta $fd
         sta $d7ff
"""


def test_the_light_pen_line_pulled_low_by_cia1_port_b(test_roms):
    """CIA 1 port B bit 4, an output driven low, is the pen's line: $D014 the line of the
    edge, $D013 half the X position a few cycles after the raster reached line $80, bit 3
    of $D019 set."""
    m, stop = run(test_roms, LIGHT_PEN)
    assert stop.reason == "exit", stop
    assert m.memory[0xFC] == 0x80 and m.memory[0xFD] == 0x08
    assert 0x194 // 2 + 2 <= m.memory[0xFB] or m.memory[0xFB] <= 0x040 // 2 + 2  # (cycles 1-20 of the line)


# --- the sprite sequencer (Bauer 3.8.1; VICE's x64sc, vicii-cycle.c) ----------------------
def _sprite_lines(writes, start_regs):
    """The lines showing sprite 0 in a frame drawn by vicdraw alone (its data all $FF)."""
    start = [0] * 0x41
    start[0x11], start[0x16], start[0x40], start[0x18] = 0x1B, 0x08, 3, 0x14
    for reg, value in start_regs.items():
        start[reg] = value
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(line * 63 + cycle, reg, value) for line, cycle, reg, value in writes]
    drawer = vicdraw.LineDrawer(log, lambda addr: 0xFF if 0x2000 <= addr < 0x2040 else
                                (0x80 if addr == 0x07F8 else 0), [0] * 1024)
    shown = []
    for line in range(vicframe.LINES):
        drawer.step()
        if drawer.sprites(line):
            shown.append(line)
        drawer.finish_line()
    return shown


@pytest.mark.parametrize("writes, y_exp, lines, why", [
    ([], 0, range(101, 122), "Y 100: DMA from line 100's cycle 55, shown on lines 101-121"),
    ([(110, 30, 0x01, 200)], 0, [*range(101, 122), *range(201, 222)],
     "Y rewritten during the display: DMA goes on until MCBASE reaches 63, then starts again at the "
     "new Y (a multiplexer's trick)"),
    ([], 1, range(101, 143), "expanded in Y: each row twice, 42 lines"),
    ([(101, 20, 0x17, 0)], 1, range(101, 123),
     "expansion cleared in mid-sprite (not in cycle 15): the flip-flop set, one row twice, then 1 a line"),
])
def test_sprite_dma_runs_by_mcbase(writes, y_exp, lines, why):
    assert _sprite_lines(writes, {0x15: 1, 0x01: 100, 0x17: y_exp}) == list(lines), why


def test_sprite_crunch():
    """$D017 cleared in cycle 15 of the line after the DMA began, the expansion flip-flop
    reset: MC becomes (%101010 & (MCBASE & MC)) | (%010101 & (MCBASE | MC)) = 1, so MCBASE
    counts 1, 4, ... 61, 0, 3 ... and misses 63: the sprite is fetched on, past the end of
    its 21 rows (VICE's x64sc, vicii-mem.c; the spritecrunch test programs)."""
    shown = _sprite_lines([(101, 14, 0x17, 0)], {0x15: 1, 0x01: 100, 0x17: 1})
    assert shown[:2] == [101, 102] and len(shown) > 42


def test_a_sprite_priority_written_in_mid_line_shows_six_pixels_later():
    """Sprite 0 (X 100: columns 108-131, colour 7) over text whose pixels are all set
    (colour 0); $D01B written in cycle 27 (0-based 26), whose colour change would show from
    column 112: the sprite goes behind the text from column 118 (VICE's spritesplit ss-pri)."""
    memory = {0x0400 + cell: 1 for cell in range(1000)}
    memory.update({0x2008 + row: 0xFF for row in range(8)})
    memory.update({0x2040 + i: 0xFF for i in range(63)})
    memory[0x07F8] = 0x81
    rows = _frame_rows([(101, 26, 0x1B, 0x01)],
                       {0x18: 0x18, 0x15: 0x01, 0x00: 100, 0x01: 100, 0x27: 7}, memory)
    assert list(rows[101][116:120]) == [7, 7, 0, 0]
    assert rows[102][110] == 0, "the next line: behind from its start"


# --- a raster compare with its interrupt masked --------------------------------------------
MASKED_COMPARE = """*= $c000
         sei
         lda #$00
         sta $d01a
         lda #$1b
         sta $d011
         lda #{line}
         sta $d012
w0       lda $d012
         cmp #{line}
         beq w0
         lda #$0f
         sta $d019
w1       lda $d012
         cmp #{before}
         bne w1
         lda $d019
         sta $fb
w2       lda $d012
         cmp #{line}
         bne w2
         lda $d019
         sta $fc
         sta $d7ff
"""


@pytest.mark.parametrize("line", [0x40, 0x80, 0xF0])
def test_a_masked_raster_compare_sets_its_latch_bit_in_its_line(test_roms, line):
    """With $D01A clear the compare interrupts nothing, but bit 0 of $D019 reads set from the
    compare line on (the machine sets it when $D019 is read), clear in the line before."""
    m, stop = run(test_roms, MASKED_COMPARE.format(line=f"${line:02x}", before=f"${line - 1:02x}"))
    assert stop.reason == "exit", stop
    assert (m.memory[0xFB] & 0x01, m.memory[0xFC] & 0x01) == (0, 1)
