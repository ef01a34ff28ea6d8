"""Registers written while the VIC-II draws a line: colours, and a sprite's X position,
multicolour and X expansion bits in mid-sprite, on the PAL 6569 and the C64C's 8565, as
VICE's x64sc models the chips (vicii-draw-cycle.c; its testprogs VICII/spritesplit, whose
6569 and 8565 references it matches).

A colour register written in cycle k (0-based) counts from picture column 8 (k - 12): on an
8565 that first pixel shows light grey (15) where its colour comes from the register written
(the "grey dot"), on a 6569 the old colour stays one pixel longer (its colour latency).  A
sprite's pixels come from its shift register, pixel by pixel: X expansion is taken at pixel
6 of a cycle's 8, multicolour at pixel 6 on an 8565 and 7 on a 6569, where a 6569 resets the
multicolour flip-flop and an 8565 toggles it while the expansion flip-flop is clear; the X
the comparator matches is the one written before the cycle.  Sprite 0 at X 100 starts at
column 108, the cycle group 0-based 25 (columns 104-111).

Frames are drawn by vicdraw alone from registers and writes at (line, 0-based cycle); a
program in the Profi-Ass dialect, assembled by asm6502, runs on the test KERNAL for the
machine's part."""

from __future__ import annotations

import pytest
from test_c64_machine import booted, make_test_roms

from asm6502.asm import assemble
from asm6502.emu.c64 import screen, vicdraw, vicframe, vicsprite
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC

LINE = 105  # the line the writes happen in (sprites at Y 100 show on lines 101-121)
BORDER, BACKGROUND = 14, 6


def frame(writes, regs=None, sprite=b"", model="6569", more=None):
    """(the rows of a frame, its LineDrawer after the line LINE) drawn by vicdraw alone:
    border 14, background 6, a blank text screen; the sprites' data *sprite* (3 bytes, every
    row: pointers $80, $2000); *regs* and *writes* (line, 0-based cycle, register, value); *more*:
    other bytes of memory."""
    start = [0] * 0x41
    start[0x20], start[0x21], start[0x11], start[0x16], start[0x18], start[0x40] = BORDER, BACKGROUND, 0x1B, 0x08, 0x14, 3
    for reg, value in (regs or {}).items():
        start[reg] = value
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(line * 63 + cycle, reg, value) for line, cycle, reg, value in writes]
    memory = {0x07F8 + n: 0x80 for n in range(8)}
    memory.update({0x2000 + i: sprite[i % 3] for i in range(63)} if sprite else {})
    memory.update(more or {})
    drawer = vicdraw.LineDrawer(log, lambda addr: memory.get(addr, 0), [0] * 1024, model)
    rows, at_line = {}, None
    for line in range(vicframe.LINES):
        drawer.step()
        rows[line] = vicdraw.draw_line(drawer, 1 << 62)
        if line == LINE:
            at_line = drawer.clone()
        drawer.finish_line()
    return rows, at_line


SPRITE0 = {0x15: 0x01, 0x00: 100, 0x01: 100, 0x27: 7}


# --- colours ------------------------------------------------------------------------------
@pytest.mark.parametrize("model, reg, cycle, regs, want, why", [
    ("8565", 0x21, 30, {}, [6, 15, 2], "background in the text window: the grey dot at column 144"),
    ("6569", 0x21, 30, {}, [6, 6, 2], "background: the old colour one pixel longer"),
    ("8565", 0x20, 14, {}, [14, 15, 2], "the border colour, column 16 in the left border"),
    ("6569", 0x20, 14, {}, [14, 14, 2], "the border colour one pixel later"),
    ("8565", 0x22, 30, {}, [6, 6, 6], "$D022 colours nothing in text mode: no grey dot"),
    ("8565", 0x27, 27, SPRITE0, [7, 15, 2], "sprite 0's colour at column 120, in the sprite"),
    ("6569", 0x27, 27, SPRITE0, [7, 7, 2], "sprite 0's colour one pixel later"),
    ("8565", 0x21, 27, SPRITE0, [7, 7, 7], "the background written where a sprite covers it: no grey dot"),
])
def test_a_colour_written_in_mid_line(model, reg, cycle, regs, want, why):
    rows, _drawer = frame([(LINE, cycle, reg, 2)], regs, b"\xff\xff\xff", model)
    column = 8 * (cycle - 12)
    assert list(rows[LINE][column - 1:column + 2]) == want, why


# --- a sprite's shifting --------------------------------------------------------------------
def _pixels(row, first=104, last=150):
    """The sprite's pixels of columns first..last as text: . background, 1 $D025, 2 the
    sprite's colour (7), 3 $D026."""
    names = {BACKGROUND: ".", 13: "1", 7: "2", 0: "3"}
    return "".join(names[c] for c in row[first:last + 1])


MC = {0x25: 13, 0x26: 0}


@pytest.mark.parametrize("model, data, regs, reg, value, want, why", [
    ("6569", b"\x55\x55\x55", MC, 0x1C, 0x01,
     "....." "2.." + "1" * 20 + "." * 19,
     "hires to multicolour in cycle 25: from pixel 7 (column 111) the flip-flop reset, the pixel "
     "held one more; then pairs 01 ($D025)"),
    ("8565", b"\x55\x55\x55", MC, 0x1C, 0x01,
     "....." "2" + "1" * 22 + "." * 19,
     "on an 8565 from pixel 6 (column 110): the flip-flop left set, the next pair at once"),
    ("6569", b"\x99\x99\x99", {**MC, 0x1C: 0x01}, 0x1C, 0x00,
     "...." "2212" "2..2" "2..22..2" "2..22..2" + "." * 19,
     "multicolour to hires in cycle 25: pairs 10 and 01 at columns 108-110, then from pixel 7 the "
     "bits one a pixel (the fourth of the data's first byte on)"),
    ("6569", b"\xf0\xf0\xf0", {}, 0x1D, 0x01,
     "...." "222222" + "." * 8 + "2" * 8 + "." * 8 + "2" * 8 + "." * 5,
     "X expansion switched on at pixel 6 (column 110): from there each bit twice"),
    ("8565", b"\xf0\xf0\xf0", {}, 0x1D, 0x01,
     "...." "222222" + "." * 8 + "2" * 8 + "." * 8 + "2" * 8 + "." * 5,
     "the same on an 8565"),
    ("6569", b"\xf0\xf0\xf0", {0x1D: 0x01}, 0x1D, 0x00,
     "...." "22222" "...." "2222" "...." "2222" + "." * 22,
     "X expansion switched off at column 110: the bit in progress shown once more, then one a pixel"),
])
def test_a_sprite_mode_written_in_mid_sprite(model, data, regs, reg, value, want, why):
    rows, _drawer = frame([(LINE, 25, reg, value)], {**SPRITE0, **regs}, data, model)
    assert _pixels(rows[LINE]) == want, why


@pytest.mark.parametrize("cycle, x, columns, why", [
    (24, 200, (208, 231), "written in cycle 24: the comparator matches the new X, at column 208"),
    (25, 200, (108, 131), "written in cycle 25, the cycle X 100 is matched in: the sprite at the old X"),
    (24, 50, None, "moved to an X the raster has passed: not shown on the line"),
])
def test_a_sprite_moved_in_mid_line(cycle, x, columns, why):
    rows, _drawer = frame([(LINE, cycle, 0x00, x)], SPRITE0, b"\xff\xff\xff")
    shown = [c for c, colour in enumerate(rows[LINE]) if colour == 7]
    assert ((shown[0], shown[-1]) if shown else None) == columns, why
    assert next(c for c, colour in enumerate(rows[LINE + 1]) if colour == 7) == x + 8, "the next line: the new X"


# VICE testprogs VICII/vicii_timing vicii_reg_timing (SPRITE-XPOS TIMING), which x64sc passes: in
# each line X is written in cycle 29 and again in cycle 37 (0-based), the first X one more each line.
# An X counts from the first pixel of the cycle after its write (x64sc, vicii-draw-cycle.c: the
# comparator's copy of X is taken at the end of each draw); a sprite once matched shifts its data
# out whole, and matched again with its shift register empty it draws nothing.
@pytest.mark.parametrize("writes, regs, columns, why", [
    ([(29, 0x00, 130), (37, 0x00, 200)], {0x00: 200}, (208, 231),
     "X 130 (first pixel at beam 234, in cycle 29's group) comes a pixel late; X 200 (beam 304) is "
     "matched at the first pixel of cycle 38's group"),
    ([(29, 0x00, 135), (37, 0x00, 200)], {0x00: 200}, (208, 231), "X 135: beam 239, still cycle 29's"),
    ([(29, 0x00, 136), (37, 0x00, 200)], {0x00: 200}, (144, 167),
     "X 136: beam 240, cycle 30's first pixel: matched; shifted out by X 200, not drawn again there"),
    ([(29, 0x00, 130), (38, 0x00, 200)], {0x00: 200}, None, "X 200 written a cycle later: both missed"),
    ([(10, 0x10, 0x01)], {0x00: 20}, (284, 307), "$D010 written in cycle 10: X 20 + 256"),
])
def test_a_sprite_moved_twice_in_a_line(writes, regs, columns, why):
    rows, _drawer = frame([(LINE, cycle, reg, value) for cycle, reg, value in writes], {**SPRITE0, **regs},
                          b"\xff\xff\xff")
    shown = [c for c, colour in enumerate(rows[LINE]) if colour == 7]
    assert ((shown[0], shown[-1]) if shown else None) == columns, why


def test_collisions_come_from_the_pixels_drawn():
    """Sprite 0 moved onto sprite 1 (X 200) in cycle 24 of the line: they collide on that
    line; the X written in cycle 25 comes too late for the comparator: no collision."""
    regs = {**SPRITE0, 0x15: 0x03, 0x02: 200, 0x03: 100}
    for cycle, collide in ((24, True), (25, False)):
        _rows, drawer = frame([(LINE, cycle, 0x00, 200)], regs, b"\xff\xff\xff")
        ss, _sb = drawer.collisions()
        assert ({n for n, _mask in ss} == {0, 1}) == collide, cycle


# --- through the CPU ------------------------------------------------------------------------
# The background colour written in each frame's line LINE, some cycles into it (a text
# screen of blanks: the background shows).
BACKGROUND_SPLIT = """*= $c000
         sei
         lda #$1c
         sta $d018
loop     lda #{line}
wait     cmp $d012
         bne wait
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         nop
         ldy #2
         sty $d021
         ldy #6
         lda #{next}
wait2    cmp $d012
         bne wait2
         sty $d021
         jmp loop
"""


@pytest.mark.parametrize("model, want", [("6569", [6, 6, 2]), ("8565", [6, 15, 2])])
def test_the_machine_draws_its_model(model, want):
    """The program's write lands in some cycle k of line LINE; the picture changes colour at
    column 8 (k - 12) as its VIC's model does."""
    m = booted(make_test_roms())
    m.vic.model = model
    m.poke_ram(0x3000, bytes(0x800))  # the characters at $3000 ($D018 = $1C): no pixels set
    m.inject_prg(assemble(BACKGROUND_SPLIT.format(line=LINE, next=LINE + 20), "split.asm").prg)
    m.cpu.pc = 0xC000
    m.run(CYCLES_PER_FRAME * 3, stop_when_idle=False)
    log = m.vic.frame
    cycles = [c - log.cycle for c, reg, value in log.writes if reg == 0x21 and value == 2]
    assert cycles and cycles[0] // 63 == LINE
    k = cycles[0] % 63
    assert 18 <= k <= 54, "the write in the text window's cycles"
    row = screen.render(m)[LINE - vicdraw.FIRST_LINE]
    column = 8 * (k - 12)
    assert list(row[column - 1:column + 2]) == want


# --- the bus: the sprites the VIC fetches -----------------------------------------------------
@pytest.mark.parametrize("line, cycle, fetched, why", [
    (None, None, range(100, 121), "Y 100: DMA on in line 100's cycle 55, fetched at the ends of lines 100-120"),
    (105, 20, range(100, 121), "disabled in mid-display: the DMA goes on until MCBASE reaches 63"),
    (100, 54, range(100, 121), "disabled in cycle 55 of line 100: the VIC saw it enabled in its DMA check"),
    (100, 53, [], "disabled in cycle 54: seen in the DMA check of cycle 55, no DMA"),
])
def test_a_sprite_disabled_is_fetched_while_its_dma_is_on(line, cycle, fetched, why):
    """The lines at whose end the VIC takes the bus for sprite 0 (its window, cycles 55-59),
    with $D015 cleared at (line, 0-based cycle); the display off (no bad lines)."""
    vic = VIC()
    vic.write(0x11, 0x0B, 0)
    vic.write(0x01, 100, 1)
    vic.write(0x15, 0x01, 2)
    found = []
    for at in range(90, 140):
        if at == line:
            vic.write(0x15, 0x00, at * 63 + cycle)
        first, _last = vic.window_after(at * 63 + (cycle + 1 if at == line else 0))
        if first < (at + 1) * 63:
            found.append(at)
    assert found == list(fetched), why


# --- the data the s-accesses read -------------------------------------------------------------
@pytest.mark.parametrize("sprite, cycle, first, why", [
    (0, 53, 0x0F, "$D015 written in cycle 54: seen in the DMA check of cycle 55, BA low from 55, "
     "the first s-access (cycle 58) reads the sprite's byte"),
    (0, 54, 0xFF, "written in cycle 55: DMA on in cycle 56, BA low only from 56: in cycle 58 the "
     "CPU may still have the bus, the VIC reads $FF"),
    (1, 54, 0x0F, "sprite 1 turned on in cycle 56: its BA goes low in 57 anyway, three cycles "
     "before its first s-access"),
])
def test_a_sprite_turned_on_late_reads_ff_first(sprite, cycle, first, why):
    """Sprite *sprite* at Y 100 enabled at (line 100, 0-based *cycle*): its first line's first
    data byte, as the sprite data $0F $00 $F0 shows it on line 101."""
    regs = {0x00 + 2 * sprite: 100, 0x01 + 2 * sprite: 100, 0x27 + sprite: 7}
    _rows, drawer = frame([(100, cycle, 0x15, 1 << sprite)], regs, b"\x0f\x00\xf0")
    fresh = vicdraw.LineDrawer(drawer.log, drawer.fetch, drawer.colour_ram)
    for _line in range(101):
        fresh.step()
        fresh.finish_line()
    assert fresh.sp_data[sprite] >> 16 == first, why
    assert fresh.sp_data[sprite] & 0xFFFF == 0x00F0, "the other two bytes from memory"


# --- a sprite across the frame's end ----------------------------------------------------------
def _rows_shown(regs):
    """(the row of sprite 0's data each of a frame's lines 0-29 shows, None where it shows none):
    its data row r holds bytes 3r..3r+2 (pointer $80: $2000 + i holds i)."""
    start = [0] * 0x41
    start[0x11], start[0x18], start[0x40] = 0x1B, 0x14, 3
    for reg, value in regs.items():
        start[reg] = value
    memory = {0x07F8: 0x80, **{0x2000 + i: i for i in range(64)}}
    drawer = vicdraw.LineDrawer(vicframe.FrameLog(0, start, True), lambda addr: memory.get(addr, 0), [0] * 1024)
    out = []
    for _line in range(30):
        drawer.step()
        out.append(drawer.sp_data[0] >> 16 & 0x3F if drawer.sp_shown & 1 else None)
        drawer.finish_line()
    return out


@pytest.mark.parametrize("regs, rows, why", [
    ({0x15: 1, 0x01: 0x30}, [*range(7, 21)] + [None] * 16,
     "Y $30 matches line 304 too (its low 8 bits): rows 0-6 shown on lines 305-311, row 7 "
     "(fetched at line 311's end) on line 0, row 20 on line 13"),
    ({0x15: 1, 0x01: 0x30, 0x17: 1}, [3] + [r for r in range(4, 19) for _twice in (0, 1)][:29],
     "Y expanded: rows 0-3 on lines 304-311 twice each but row 3's second line, on line 0"),
    ({0x15: 1, 0x01: 0x38}, [None] * 30, "Y $38 matches no line from 256 on: nothing at the frame's top"),
    ({0x15: 0, 0x01: 0x30}, [None] * 30, "disabled: nothing"),
])
def test_a_sprite_matched_after_line_255_goes_on_into_the_next_frame(regs, rows, why):
    assert _rows_shown(regs) == [None if r is None else 3 * r for r in rows], why


# --- priorities ----------------------------------------------------------------------------
SOLID_CHARS = {0x1000 + i: 0xFF for i in range(8)}  # character 0 (the blank screen's) all foreground


@pytest.mark.parametrize("priority, regs, want, why", [
    (0x00, {}, 7, "sprite 0 in front: its colour"),
    (0x01, {}, 0, "sprite 0 behind the graphics: the foreground's colour (colour RAM 0)"),
    (0x01, {0x15: 0x03, 0x02: 100, 0x03: 100, 0x28: 2}, 0,
     "sprite 0 behind, sprite 1 in front at the same place: sprite 0's pixel decides, the "
     "graphics show in front of sprite 1 too"),
    (0x02, {0x15: 0x03, 0x02: 100, 0x03: 100, 0x28: 2}, 7, "sprite 1 behind, sprite 0 in front: sprite 0"),
])
def test_the_lowest_sprite_with_a_pixel_decides_the_priority(priority, regs, want, why):
    rows, _drawer = frame([], {**SPRITE0, 0x1B: priority, **regs}, b"\xff\xff\xff", more=SOLID_CHARS)
    assert rows[LINE][120] == want, why


# --- sprites matched after cycle 58 -------------------------------------------------------------
def _data_by_line(n, x, lines, writes=()):
    """What sprite *n* at (X *x*, Y 100) shows on each of *lines*: for each match on the line,
    its 24 bits as its pixels show them (hires, unexpanded); its data row r holds $80 | r, 0, 1."""
    start = [0] * 0x41
    start[0x11], start[0x18], start[0x40] = 0x1B, 0x14, 3
    start[0x15], start[2 * n], start[2 * n + 1], start[0x10] = 1 << n, x & 0xFF, 100, (x >> 8) << n
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(line * 63 + cycle, reg, value) for line, cycle, reg, value in writes]
    memory = {0x07F8 + n: 0x80, **{0x2000 + 3 * r + i: (0x80 | r, 0, 1)[i] for r in range(21) for i in range(3)}}
    drawer = vicdraw.LineDrawer(log, lambda addr: memory.get(addr, 0), [0] * 1024)
    out = {}
    for line in range(max(lines) + 1):
        drawer.step()
        if line in lines:
            found = []
            for _n, column, pixels in drawer.sprites(line):
                runs, first = {}, None
                for off, _src in pixels:  # (a second match starts where its offsets jump)
                    first = off if first is None or off - first >= 24 else first
                    runs[first] = runs.get(first, 0) | 1 << (23 - (off - first))
                found += [(column + at, bits) for at, bits in sorted(runs.items())]
            out[line] = [bits for _column, bits in found]
        drawer.finish_line()
    return out


def _row(r):
    return (0x80 | r) << 16 | 1


IDLE = 0xFF00FF  # no DMA: $FF, the idle byte at $3FFF (0 here), $FF


@pytest.mark.parametrize("n, x, want, why", [
    (3, 0x163, {100: [], 101: [_row(0)], 120: [_row(19)], 121: [_row(20)], 122: []},
     "sprite 3 at X $163, matched before cycle 58: rows 0-20 on lines 101-121"),
    (3, 0x164, {100: [IDLE], 101: [_row(0)], 120: [_row(19)], 121: [], 122: []},
     "X $164: matched after cycle 58 set the display flag: shown on line 100 too, with what its "
     "s-accesses read without DMA; its display off in line 121's cycle 58: row 20 never shown"),
    (0, 0x16F, {100: [_row(0)], 101: [_row(1)], 120: [_row(20)], 121: []},
     "sprite 0 at X $16F, after its own fetch (cycles 58-59): each line shows the row just fetched"),
    (1, 0x164, {100: [IDLE & 0xFFFF00], 101: [_row(0) & 0xFFFF00], 121: []},
     "sprite 1 at X $164, before its fetch: the data of the line before, its output stopped "
     "at X $173 (its first 16 pixels)"),
    (4, 0x195, {101: [0xFF0000], 102: [_row(0) & 0xFF0000], 121: [_row(19) & 0xFF0000], 122: []},
     "sprite 4 at X $195, in the line's first cycles before its own fetch (its cut at X $1A3): "
     "the data of the fetch before, its first 15 pixels"),
])
def test_a_sprite_matched_after_cycle_58_shows_on_the_line_its_dma_begins(n, x, want, why):
    assert _data_by_line(n, x, set(want)) == want, why


def test_a_sprite_moved_after_its_fetch_is_shown_again():
    """Sprite 0 at X 100, moved to X $170 in cycle 50 of line 105, after it was shown: matched
    again after its fetch, with the row fetched on the line (the 9-sprites trick)."""
    got = _data_by_line(0, 100, {105, 106}, [(105, 50, 0x00, 0x70), (105, 50, 0x10, 0x01)])
    assert got == {105: [_row(4), _row(5)], 106: [_row(6)]}


# --- what a sprite without DMA reads: the CPU's bytes on the VIC's bus ------------------------
# Sprites 3-7 at X $164, Y BUS_LINE: matched after cycle 58 of that line, each shows there what
# its s-accesses read in the line's first cycles, before its DMA began (sprite n: 0-based cycles
# 2(n-3) and 2(n-3)+1).  Each frame the program waits for line BUS_LINE - 1, puts $5A at $3FFF
# (the idle access's address in bank 0) and $3C in $D000, then comes to SNIPPET 46 cycles after
# that write (whatever the wait's jitter: the cycles below count from that write) and puts $00
# back at $3FFF.  The display is off: no bad lines.
BUS_LINE = 100
BUS_PROGRAM = """*= $c000
         sei
         lda #{d011}
         sta $d011
         lda #$77
         sta $39ff
         lda #$07
         sta $d025
         lda #$f8
         sta $d015
         sta $d010
         ldx #8
pos      lda #$64
         sta $d006,x
         lda #{line}
         sta $d007,x
         dex
         dex
         bpl pos
frame    lda #{line}-1
w1       cmp $d012
         bne w1
         lda #$5a
         sta $3fff
         lda #$3c
         sta $d000
         ldy #0
         ldx #8
delay    dex
         bne delay
         nop
{snippet}
         lda #$00
         sta $3fff
         jmp frame
"""
SNIPPET_START = 46  # the snippet's first cycle after the write of $3C to $D000


def _bus_sprites(snippet, d011=0x0B):
    """(the cycle of line BUS_LINE the snippet starts in, {sprite: its 24 bits shown on the
    line}) from the last whole frame the machine drew."""
    m = booted(make_test_roms())
    m.inject_prg(assemble(BUS_PROGRAM.format(d011=d011, line=BUS_LINE, snippet=snippet), "bus.asm").prg)
    m.cpu.pc = 0xC000
    m.run(CYCLES_PER_FRAME * 4, stop_when_idle=False)
    _now, log = m.vic.frames_for_picture(m.cpu.cycles)
    line_start = log.cycle + BUS_LINE * 63
    preload = [c for c, reg, value in log.writes if reg == 0 and value == 0x3C and line_start - 63 <= c < line_start]
    assert len(preload) == 1, "the write of $3C to $D000 in the line before"
    drawer = vicdraw.LineDrawer(log, m.vic.memory, m.vic.colour_ram, m.vic.model)
    for _line in range(BUS_LINE):
        drawer.step()
        drawer.finish_line()
    drawer.step()
    shown = {}
    for n, _column, pixels in drawer.sprites(BUS_LINE):
        bits = 0
        for off, _src in pixels:
            bits |= 1 << (23 - off)
        shown[n] = bits
    return preload[0] + SNIPPET_START - line_start, shown


@pytest.mark.parametrize("snippet, accesses, d011, why", [
    ("         lda #$a5\n         sta $d000,y", {5: 0x3C, 6: 0xA5}, 0x0B,
     "STA abs,Y reads the address first (cycle 4 of 5: $D000's $3C), then writes $A5: the "
     "trick of the test program's readme"),
    ("         lda $d025", {3: 0xF7}, 0x0B, "a read: the byte read, with the register's unused bits 4-7 set"),
    ("         inc $d000", {3: 0x3C, 4: 0x3C, 5: 0x3D}, 0x0B,
     "a read-modify-write: the read, the old byte written back, the new one"),
    ("         lda #$96\n         sta $d02f", {5: 0x96}, 0x0B, "a write to an unused register: on the bus all the same"),
    ("         lda $3fff\n         sta $0400\n         lda $dc01\n         nop", {}, 0x0B,
     "RAM and the CIA: not the VIC's bus, which stays $FF"),
    ("         lda #$a5\n         sta $d000,y", {5: 0x3C, 6: 0xA5}, 0x4B,
     "ECM set: the idle access between still reads $3FFF (not $39FF's $77)"),
])
def test_a_sprite_without_dma_reads_the_cpus_bytes_on_the_bus(snippet, accesses, d011, why):
    """Each of sprites 3-7 shows on line BUS_LINE: first the byte of the CPU's read or write of
    a VIC register in the second half of its first cycle ($FF without one), last that of its
    second cycle, and between them the byte at $3FFF as it was at such an access ($5A: the
    program puts $00 back later)."""
    start, shown = _bus_sprites(snippet, d011)
    assert sorted(shown) == [3, 4, 5, 6, 7], "all five shown on the line their DMA begins"
    bus = {start + k: value for k, value in accesses.items()}
    assert all(0 <= c <= 9 for c in bus), f"the snippet's accesses in the sprites' cycles ({start=})"
    for n in range(3, 8):
        first, second = 2 * (n - 3), 2 * (n - 3) + 1
        got = shown[n]
        assert (got >> 16, got & 0xFF) == (bus.get(first, 0xFF), bus.get(second, 0xFF)), (n, why)
        if first in bus or second in bus:
            assert got >> 8 & 0xFF == 0x5A, (n, why)


def test_the_bus_log_stays_bounded_while_no_write_begins_a_new_frame_log():
    """A program that reads the raster for 40 frames and writes no VIC register: the log of those
    reads holds at most two frames' worth (every cycle with a sprite's phi-2 s-access, 312
    lines), the oldest dropped -- never the frame in progress or the one before."""
    vic = VIC()
    for cycle in range(0, 40 * CYCLES_PER_FRAME, 7):
        vic.read(0x12, cycle)
    kept = sorted(vic.frame.bus)
    assert len(kept) <= 2 * vicframe.LINES * len(vicsprite.SPRITE_BUS_CYCLES)
    assert kept[0] >= 20 * CYCLES_PER_FRAME, "the first frames' reads dropped"
    last_two = [c for c in range(38 * CYCLES_PER_FRAME, 40 * CYCLES_PER_FRAME, 7) if c % 63 in vicsprite.SPRITE_BUS_CYCLES]
    assert set(last_two) <= set(kept), "the frame in progress and the one before kept"



def _shown_bits(drawer, line):
    """{sprite: its 24 bits shown on *line*} (the drawer stepped into it)."""
    shown = {}
    for n, _column, pixels in drawer.sprites(line):
        bits = 0
        for off, _src in pixels:
            bits |= 1 << (23 - off)
        shown[n] = bits
    return shown


# (cycle of the frame's line 0, register, value): the CPU's writes of VIC registers ($D020
# begins the frame's log, $D02F, unused, does not; each byte is on the bus all the same)
@pytest.mark.parametrize("accesses, why", [
    ([(2, 0x20, 0x3C), (4, 0x2F, 0xA5), (5, 0x2F, 0x96)], "a write in cycle 2 began the frame's log, those after it"),
    ([(4, 0x20, 0xA5), (5, 0x2F, 0x96)], "the first write in sprite 5's cycles began the log"),
    ([(0, 0x2F, 0x11), (4, 0x2F, 0xA5), (9, 0x2F, 0x96)], "no new log: sprites 3 and 7, the first and last cycles"),
    ([(0, 0x20, 0x11), (9, 0x20, 0x96)], "two writes of $D020: the one in cycle 0 began the log"),
])
def test_line_311s_sprites_3_7_read_the_bus_of_the_next_frames_first_cycles(accesses, why):
    """Sprites 3-7 at Y 0 and X $164, without DMA on line 311 (Y 0 matched line 256 too, and
    21 lines are over), make their p- and s-accesses of line 311 in the next frame's cycles
    0-9 and read the CPU's bytes on the bus there (VICE testprogs VICII/sb_sprite_fetch): the
    data the sequencer holds after line 311 in the log of the frame it ends, and the data the
    next frame's line 0 shows them with (their DMA begins there, X $164: shown the same line)."""
    vic = VIC()
    vic.write(0x15, 0xF8, 100)
    vic.write(0x10, 0xF8, 101)
    for n in range(3, 8):
        vic.write(2 * n, 0x64, 102 + n)
        vic.write(2 * n + 1, 0x00, 110 + n)
    for k, reg, value in accesses:
        vic.write(reg, value, CYCLES_PER_FRAME + k)
    now, before = vic.frames_for_picture(CYCLES_PER_FRAME + 70)
    assert (before.cycle, now.cycle) == (0, CYCLES_PER_FRAME)
    on_bus = {k: value for k, _reg, value in accesses}
    expected = {n: on_bus.get(2 * (n - 3), 0xFF) << 16 | on_bus.get(2 * (n - 3) + 1, 0xFF) for n in range(3, 8)}
    drawer = vicdraw.LineDrawer(before, vic.memory, vic.colour_ram, vic.model, vic.timed)
    for _line in range(vicframe.LINES):
        drawer.step()
        drawer.finish_line()
    assert {n: drawer.sp_data[n] for n in range(3, 8)} == expected, f"line 311's fetch, in its frame's log: {why}"
    drawer = vicdraw.LineDrawer(now, vic.memory, vic.colour_ram, vic.model, vic.timed)
    drawer.step()
    assert _shown_bits(drawer, 0) == expected, f"line 0 shows it: {why}"
