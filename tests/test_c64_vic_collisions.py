"""Sprite collisions on the C64's VIC-II 6569, as Christian Bauer describes them ("The MOS
6567/6569 video controller", 1996, 3.8.2 and 3.12): two sprites collide where both have a
non-transparent pixel, anywhere (the border too); a sprite and the graphics where the
sprite has one and the graphics a foreground pixel (hires 1, multicolour 10 and 11), unless
the vertical border flip-flop turns the graphics off; priority plays no part.  A collision
sets the sprites' bits in $D01E / $D01F (reading clears them) and, when the register was 0,
the interrupt latch bit (2 / 1 of $D019).  The VIC finds a collision at its pixel: a read
in cycle c sees the pixels drawn before c (VICE's testprogs VICII/spritecollisions
*-collision-cycle, against x64sc).

Small programs in the Profi-Ass dialect, assembled by asm6502, run on the test KERNAL; the
cycle-exact facts on the VIC alone, its registers written and read at chosen cycles."""

from __future__ import annotations

from itertools import combinations

import pytest
from test_c64_machine import booted, make_test_roms

from asm6502.asm import assemble
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC

LINE = 63  # cycles a line
SPRITE_DATA = 0x2000  # sprite n's 63 bytes at $2000 + 64 n (pointer 128 + n)
CHARSET = 0x3000  # $D018 = $1C: the screen at $0400, the characters at $3000


@pytest.fixture(scope="module")
def test_roms():
    return make_test_roms()


# --- through the CPU: a program sets the registers, waits a frame, reads the registers -------
PROGRAM = """*= $c000
         sei
         ldx #0
set      ldy table,x
         bmi go
         lda table+1,x
         sta $d000,y
         inx
         inx
         bne set
go       lda $d01e
         lda $d01f
         lda #$ff
         sta $d019
w0       bit $d011
         bpl w0
w1       bit $d011
         bmi w1
w2       bit $d011
         bpl w2
         lda $d01e
         sta $fb
         lda $d01f
         sta $fc
         lda $d019
         sta $fd
         sta $d7ff
done     jmp done
table    .byt {table},$ff
"""


def on_machine(roms, regs: dict[int, int], sprites: dict[int, bytes], chars: bytes = b"",
               char_colour: int = 1) -> tuple[int, int, int]:
    """($D01E, $D01F, $D019) a frame after *regs* were written: sprite n's data *sprites[n]*
    (the rest of its 63 bytes 0), the screen's first cells the characters 1, 2, ... whose
    8 rows are the bytes of *chars* taken 8 at a time (the rest of the screen character 0,
    blank), all in colour *char_colour*."""
    m = booted(roms)
    m.poke_ram(0x0400, bytes(1000))
    m.poke_ram(0x07F8, bytes(range(128, 136)))
    m.poke_ram(CHARSET, bytes(8) + chars)
    m.poke_ram(0x0400, bytes(range(1, 1 + len(chars) // 8)))
    for cell in range(1000):
        m.color[cell] = char_colour
    for n, data in sprites.items():
        m.poke_ram(SPRITE_DATA + 64 * n, data.ljust(63, b"\0"))
    writes = {0x11: 0x1B, 0x16: 0x08, 0x18: 0x1C, **regs}
    table = ",".join(f"${reg:02x},${value:02x}" for reg, value in writes.items())
    m.inject_prg(assemble(PROGRAM.format(table=table), "collide.asm").prg)
    m.cpu.pc = 0xC000
    stop = m.run(CYCLES_PER_FRAME * 4, stop_when_idle=False)
    assert stop.reason == "exit", stop
    return m.memory[0xFB], m.memory[0xFC], m.memory[0xFD]


def place(n: int, x: int, y: int) -> dict[int, int]:
    """Sprite n's position registers (X's bit 8 in $D010 for sprite n alone)."""
    return {2 * n: x & 0xFF, 2 * n + 1: y, 0x10: (x >> 8) << n}


ROW = b"\xff\xff\xff"  # a sprite line of 24 pixels
FULL = ROW * 21
CELL_0_ALL = b"\xff" * 8  # character 1 at the screen's first cell (X 24-31): every pixel set


@pytest.mark.parametrize("regs, sprites, chars, ss, sb, why", [
    # sprite against sprite: pixels that are not transparent
    ({**place(0, 100, 100), 2: 100, 3: 100, 0x15: 3}, {0: b"\x80", 1: b"\x80"}, b"", 3, 0,
     "hires: one pixel each, at the same place"),
    ({**place(0, 100, 100), 2: 101, 3: 100, 0x15: 3}, {0: b"\x80", 1: b"\x80"}, b"", 0, 0,
     "hires: one pixel each, a pixel apart"),
    ({**place(0, 100, 100), 2: 101, 3: 100, 0x1D: 1, 0x15: 3}, {0: b"\x80", 1: b"\x80"}, b"", 3, 0,
     "sprite 0 expanded in X: its pixel two wide reaches sprite 1's"),
    ({**place(0, 100, 100), 2: 102, 3: 100, 0x1D: 1, 0x15: 3}, {0: b"\x80", 1: b"\x80"}, b"", 0, 0,
     "expanded in X: two wide, not three"),
    ({**place(0, 100, 100), 2: 101, 3: 100, 0x1C: 1, 0x15: 3}, {0: b"\x40", 1: b"\x80"}, b"", 3, 0,
     "multicolour 01 ($D025) is not transparent: its pixel two wide"),
    ({**place(0, 100, 100), 2: 103, 3: 100, 0x1C: 1, 0x1D: 1, 0x15: 3}, {0: b"\x40", 1: b"\x80"}, b"", 3, 0,
     "multicolour and expanded in X: four wide"),
    ({**place(0, 100, 100), 2: 104, 3: 100, 0x1C: 1, 0x1D: 1, 0x15: 3}, {0: b"\x40", 1: b"\x80"}, b"", 0, 0,
     "multicolour and expanded in X: not five"),
    ({**place(0, 100, 100), 2: 101, 3: 100, 0x1C: 1, 0x15: 3}, {0: b"\x30", 1: b"\x80"}, b"", 0, 0,
     "multicolour 00 is transparent: the pair 11 after it starts two pixels on"),
    ({**place(0, 100, 100), 2: 100, 3: 130, 0x15: 3}, {0: FULL, 1: b"\x80"}, b"", 0, 0,
     "sprite 1 on line 131: below sprite 0's 21 lines (101-121)"),
    ({**place(0, 100, 100), 2: 100, 3: 130, 0x17: 1, 0x15: 3}, {0: FULL, 1: b"\x80"}, b"", 3, 0,
     "sprite 0 expanded in Y: 42 lines, it reaches line 131"),
    # sprite against the graphics: foreground pixels
    ({**place(0, 24, 50), 0x15: 1}, {0: b"\x80"}, CELL_0_ALL, 0, 1, "hires text: a set pixel"),
    ({**place(0, 25, 50), 0x15: 1}, {0: b"\x80"}, b"\x80" * 8, 0, 0, "hires text: beside the set pixel"),
    ({**place(0, 24, 50), 0x1B: 1, 0x15: 1}, {0: b"\x80"}, CELL_0_ALL, 0, 1,
     "the sprite behind the text ($D01B): it still collides"),
    ({**place(0, 24, 50), 0x16: 0x18, 0x15: 1}, {0: ROW}, b"\x55" * 8, 0, 0,
     "multicolour text (colour 9): 01 pairs are background"),
    ({**place(0, 24, 50), 0x16: 0x18, 0x15: 1}, {0: ROW}, b"\xaa" * 8, 0, 1,
     "multicolour text (colour 9): 10 pairs are foreground"),
    ({**place(0, 25, 50), 0x16: 0x18, 0x15: 1}, {0: b"\x80"}, b"\x40" * 8, 0, 1,
     "multicolour text, a character of colour 1 (< 8) shown hires: the set bit of a pair 01 is foreground"),
    ({**place(0, 24, 50), 0x11: 0x5B, 0x16: 0x18, 0x15: 1}, {0: b"\x80"}, CELL_0_ALL, 0, 1,
     "an invalid mode (ECM and MCM): shown black, still foreground"),
    # the border: the main flip-flop hides nothing, the vertical one turns the graphics off
    ({**place(0, 24, 50), 0x16: 0x00, 0x15: 1}, {0: b"\x80"}, CELL_0_ALL, 0, 1,
     "38 columns: the first column of pixels under the left border still collides"),
    ({**place(0, 24, 50), 0x15: 1}, {0: ROW * 3}, CELL_0_ALL, 0, 1,
     "25 rows: lines 51-53 of the first text row"),
    ({**place(0, 24, 50), 0x11: 0x13, 0x15: 1}, {0: ROW * 3}, CELL_0_ALL, 0, 0,
     "24 rows: lines 51-53 under the top border (the vertical flip-flop set): no collision"),
    ({**place(0, 24, 10), 2: 24, 3: 10, 0x15: 3}, {0: b"\x80", 1: b"\x80"}, b"", 3, 0,
     "sprites in the top border collide with each other"),
    ({**place(0, 0x158, 60), **place(1, 0x158, 60), 0x10: 3, 0x15: 3}, {0: ROW, 1: ROW}, b"", 3, 0,
     "X $158: under the right border"),
    ({**place(0, 0x1F0, 60), **place(1, 0x1F0, 60), 0x10: 3, 0x15: 3}, {0: ROW, 1: ROW}, b"", 3, 0,
     "X $1F0: the picture's first column, in the left border"),
    ({**place(0, 0x1F8, 60), **place(1, 0x1F8, 60), 0x10: 3, 0x15: 3}, {0: ROW, 1: ROW}, b"", 0, 0,
     "X $1F8: the 6569's X counter never gets there (it runs $194-$1F7, $000-$193): never shown"),
])
def test_collisions_through_the_cpu(test_roms, regs, sprites, chars, ss, sb, why):
    got_ss, got_sb, latch = on_machine(test_roms, regs, sprites, chars, 9 if "colour 9" in why else 1)
    assert (got_ss, got_sb) == (ss, sb), why
    assert latch & 0x06 == (0x04 if ss else 0) | (0x02 if sb else 0), "the latch bits (Bauer 3.12)"


# --- on the VIC alone, cycle by cycle ---------------------------------------------------------
def vic_with(regs: dict[int, int], memory: dict[int, int]) -> VIC:
    """A VIC whose registers are *regs* from cycle 0 (text, 25 rows, 40 columns, the screen at
    $0400 and the characters at $3000 unless given), reading *memory* (the rest 0)."""
    ram = bytearray(0x10000)
    for addr, value in memory.items():
        ram[addr] = value
    vic = VIC()
    vic.memory = ram.__getitem__
    for reg, value in {0x11: 0x1B, 0x16: 0x08, 0x18: 0x1C, **regs}.items():
        vic.write(reg, value, 0)
    return vic


def sprite_memory(rows: dict[int, bytes]) -> dict[int, int]:
    """Sprite n's first bytes *rows[n]* (pointer 128 + n)."""
    memory = {0x07F8 + n: 128 + n for n in range(8)}
    for n, data in rows.items():
        memory.update({SPRITE_DATA + 64 * n + i: b for i, b in enumerate(data)})
    return memory


@pytest.mark.parametrize("pair", list(combinations(range(8), 2)))
def test_every_pair_of_sprites_collides(pair):
    i, j = pair
    regs = {**place(i, 100, 100), **place(j, 100, 100), 0x10: 0, 0x15: 1 << i | 1 << j}
    vic = vic_with(regs, sprite_memory({i: FULL, j: FULL}))
    assert vic.read(0x1E, 130 * LINE) == 1 << i | 1 << j
    assert vic.read(0x1E, 131 * LINE) == 0, "read, cleared; sprite lines ended at 121"
    assert vic.read(0x1F, 131 * LINE) == 0, "a blank screen: no sprite-graphics collision"


def test_all_eight_at_one_place():
    regs = dict.fromkeys(range(16), 100) | {0x10: 0, 0x15: 0xFF}
    vic = vic_with(regs, sprite_memory(dict.fromkeys(range(8), FULL)))
    assert vic.read(0x1E, 130 * LINE) == 0xFF


# A sprite at X x (0-$193) has its first pixel at picture column x + 8, drawn in the line's
# cycle (x + 104) // 8 (0-based): X 100 in cycle 25, X 104 in cycle 26.
@pytest.mark.parametrize("x, cycle, seen, why", [
    (100, 25, False, "the pixel is drawn in cycle 25: a read in that cycle does not see it"),
    (100, 26, True, "a read in the cycle after it does"),
    (103, 26, True, "X 103: the last pixel of cycle 25"),
    (104, 26, False, "X 104: the first pixel of cycle 26"),
    (104, 27, True, "... seen in cycle 27"),
])
def test_a_read_sees_the_pixels_drawn_before_its_cycle(x, cycle, seen, why):
    # one pixel each of sprites 0 and 1 on line 101 (Y 100), the character at the cell
    # under X x with all pixels set: both registers
    cell = (x - 24) // 8
    memory = sprite_memory({0: b"\x80", 1: b"\x80"}) | {0x0400 + 40 * 6 + cell: 1} | {CHARSET + 8 + r: 0xFF for r in range(8)}
    regs = {**place(0, x, 100), 2: x, 3: 100, 0x15: 3}
    vic = vic_with(regs, memory)
    start = 101 * LINE
    assert vic.read(0x1E, start + cycle) == (3 if seen else 0), why
    assert vic.read(0x1F, start + cycle) == (3 if seen else 0), why


def test_a_read_clears_the_register_and_later_pixels_set_it_again():
    """Sprites 0 and 1 overlap on 24 pixels of line 101 (X 100: cycles 25-27): a read in
    cycle 26 gets them and clears the register; the pixels of cycles 26 and 27 set it again;
    the next read, after the line, gets them; a third finds it empty."""
    vic = vic_with({**place(0, 100, 100), 2: 100, 3: 100, 0x15: 3}, sprite_memory({0: ROW, 1: ROW}))
    start = 101 * LINE
    assert vic.read(0x1E, start + 26) == 3
    assert vic.read(0x1E, start + 40) == 3
    assert vic.read(0x1E, start + 50) == 0
    vic = vic_with({**place(0, 100, 100), 2: 100, 3: 100, 0x15: 3}, sprite_memory({0: ROW, 1: ROW}))
    assert vic.read(0x1E, start + 30) == 3
    assert vic.read(0x1E, start + 40) == 0, "read after the last shared pixel: nothing after it"


def test_the_interrupt_comes_at_the_pixel():
    """With the sprite-sprite interrupt enabled the latch bit is set, and the VIC's output
    goes low, in the cycle a read would first see the collision: X 100 on line 101, drawn
    in its cycle 25, from cycle 26 (Bauer 3.12: only the first collision, while $D01E is 0)."""
    vic = vic_with({**place(0, 100, 100), 2: 100, 3: 100, 0x15: 3}, sprite_memory({0: FULL, 1: FULL}))
    vic.write(0x1A, 0x04, 0)
    due = 101 * LINE + 26
    vic.update(101 * LINE)  # (the machine looks at the VIC at its events: here a sprite line begins)
    assert vic.line_event == due
    vic.update(due - 1)
    assert not vic.irq
    vic.update(due)
    assert vic.irq and vic.since == due and vic.low_at(due) and not vic.low_at(due - 1)
    vic.write(0x19, 0x04, due + 10)  # acknowledged, $D01E not read: no new interrupt
    vic.update(110 * LINE)
    assert not vic.irq
    assert vic.read(0x1E, 110 * LINE) == 3  # read: cleared, this line's collision counts
    assert vic.line_event == 110 * LINE + 26
    vic.update(110 * LINE + 26)
    assert vic.irq and vic.since == 110 * LINE + 26


def test_the_latch_bit_is_set_with_the_interrupt_disabled():
    """Bauer 3.12: a source sets its latch bit; the enable register only decides whether the
    IRQ line goes low."""
    vic = vic_with({**place(0, 100, 100), 2: 100, 3: 100, 0x15: 3}, sprite_memory({0: FULL, 1: FULL}))
    assert vic.read(0x1E, 50 * LINE) == 0
    assert vic.read(0x19, 130 * LINE) & 0x04
    assert not vic.irq


# sprites 0 and 1 at X {x} (with the MSBs {msb}), Y 150, every row full, the sprite-sprite
# interrupt enabled, the CPU in a JMP loop; the interrupt routine follows
COLLIDING = """*= $c000
         sei
         lda #<irq
         sta $fffe
         lda #>irq
         sta $ffff
         lda #$35
         sta $01
         ldx #62
fill     lda #$ff
         sta $2000,x
         dex
         bpl fill
         lda #128
         sta $07f8
         sta $07f9
         lda #{x}
         sta $d000
         sta $d002
         lda #{msb}
         sta $d010
         lda #150
         sta $d001
         sta $d003
         lda #$7f
         sta $dc0d
         lda $dc0d
         lda #$ff
         sta $d019
         lda #$04
         sta $d01a
         lda #3
         sta $d015
         cli
wait     jmp wait
"""
IRQ_ON_COLLISION = COLLIDING.format(x=100, msb=0) + """irq      lda $d012
         sta $fb
         lda $d01e
         sta $fc
         sta $d7ff
"""


def test_the_collision_interrupt_is_taken_in_the_line_of_the_collision(test_roms):
    """Sprites 0 and 1 at X 100, Y 150: they share their first pixel in cycle 25 of line 151;
    the interrupt is taken a few cycles later, in the same line."""
    m = booted(test_roms)
    m.inject_prg(assemble(IRQ_ON_COLLISION, "irq.asm").prg)
    m.cpu.pc = 0xC000
    stop = m.run(CYCLES_PER_FRAME * 4, stop_when_idle=False)
    assert stop.reason == "exit", stop
    assert (m.memory[0xFB], m.memory[0xFC]) == (151, 0x03)


# Sprites in the right border at their data fetch (VICE's testprogs VICII/split-tests/
# spritescan, its reference dumped from a C64 with a 6569): sprite n's output stops from X
# $163 + 16 n on; one matched in the 12 positions from there shows nothing, one matched
# before loses its pixels from there on.  (Sprite 4's own stop is at X $1A3: out of the way.)
@pytest.mark.parametrize("n, x, data, ss, why", [
    (0, 0x162, b"\x80", 3, "sprite 0 at X $162: shown"),
    (0, 0x163, b"\x80", 0, "X $163: nothing"),
    (0, 0x16E, b"\x80", 0, "X $16E: nothing"),
    (0, 0x16F, b"\x80", 3, "X $16F: shown again"),
    (0, 0x14B, b"\x00\x00\x01", 3, "X $14B: its last pixel at X $162, shown"),
    (0, 0x14C, b"\x00\x00\x01", 0, "X $14C: its last pixel at X $163, lost"),
    (1, 0x172, b"\x80", 3, "sprite 1: 16 positions later, X $172 shown"),
    (1, 0x173, b"\x80", 0, "sprite 1 at X $173: nothing"),
    (7, 0x1DE, b"\x80", 0, "sprite 7 at X $1DE: nothing"),
    (7, 0x1DF, b"\x80", 3, "sprite 7 at X $1DF: shown"),
])
def test_a_sprite_at_its_data_fetch_shows_nothing(n, x, data, ss, why):
    m = 4 if n != 4 else 0
    regs = {**place(n, x, 100), **place(m, x, 100), 0x10: (1 << n | 1 << m) * (x >> 8), 0x15: 1 << n | 1 << m}
    vic = vic_with(regs, sprite_memory({n: data, m: ROW * 2}))
    assert vic.read(0x1E, 130 * LINE) == (1 << n | 1 << m if ss else 0), why


@pytest.mark.parametrize("x0, ss, why", [
    (0x162, 3, "sprite 0's pixel at X $162 shown once more at $163"),
    (0x161, 0, "its pixel at X $161: not repeated"),
])
def test_the_last_pixel_before_the_stop_is_held_once(x0, ss, why):
    regs = {**place(0, x0, 100), **place(4, 0x163, 100), 0x10: 0x11, 0x15: 0x11}
    vic = vic_with(regs, sprite_memory({0: b"\x80", 4: b"\x80"}))
    assert vic.read(0x1E, 130 * LINE) == (0x11 if ss else 0), why


@pytest.mark.parametrize("x0, x1, ss, why", [
    (0x193, 0x194, 3, "sprite 0 at X $193 goes on into the next line's first pixel, where sprite 1 "
     "at X $194 starts: they collide (row 0 each: sprite 0, matched after cycle 58, shows it on "
     "its DMA's line)"),
    (0x192, 0x193, 3, "both at the line's end: on the same line"),
    (0x193, 0x195, 0, "a pixel apart: no collision"),
])
def test_a_sprite_at_the_line_end_collides_in_the_next_line(x0, x1, ss, why):
    regs = {**place(0, x0, 100), 2: x1 & 0xFF, 3: 100, 0x10: (x0 >> 8) | (x1 >> 8) << 1, 0x15: 3}
    vic = vic_with(regs, sprite_memory({0: b"\x40", 1: b"\x80"}))
    assert vic.read(0x1E, 130 * LINE) == ss, why


# --- the collision interrupt where no line start comes first ------------------------------------
def first_interrupt(vic: VIC, until: int) -> tuple[int, int] | None:
    """(the cycle the machine looks at the VIC in and finds its interrupt output active, the
    cycle the output went active in), or None by cycle *until*: the VIC looked at only in the
    cycles it asks for (``line_event``), as the machine's run loop does."""
    while vic.line_event <= until:
        at = vic.line_event
        vic.update(at)
        if vic.irq:
            return at, vic.since
    return None


# Sprites 3 and 5 at X x, Y 100, every row full: sprites matched after cycle 58's display check
# (X $164-$193) show from the line their DMA begins, line 100 (``vicsprite.LATE_X``), the data their
# s-accesses read without DMA ($FF first); one matched before shows from line 101.  The first
# shared pixel is at beam position x - $194 + 504 + 4, drawn in its cycle (0-based) beam // 8; the
# interrupt comes in the cycle after (VICE's x64sc, vicii-cycle.c: the collision IRQ is raised in
# the cycle whose draw found it; vicii-draw-cycle.c: the sprites pending from pixel 4 of the draw
# of X $160-$167).
@pytest.mark.parametrize("x, line, cycle, why", [
    (0x164, 100, 58, "X $164, the first X matched late: pixel at beam 460 (cycle 57) of line 100"),
    (0x170, 100, 60, "X $170: beam 472, cycle 59, on the DMA's line"),
    (0x18F, 100, 63, "X $18F: beam 503, the line's last pixel: the interrupt in the next line's cycle 0"),
    (0x163, 101, 58, "X $163, matched before cycle 58: from line 101, at beam 459"),
])
def test_a_late_sprite_raises_its_collision_interrupt_at_its_pixel(x, line, cycle, why):
    regs = {**place(3, x, 100), **place(5, x, 100), 0x10: 0x28 * (x >> 8), 0x15: 0x28}
    vic = vic_with(regs, sprite_memory({3: FULL, 5: FULL}))
    vic.write(0x1A, 0x04, 1)
    due = line * LINE + cycle
    assert first_interrupt(vic, CYCLES_PER_FRAME) == (due, due), why
    assert vic.read(0x1E, due + 100) == 0x28


# --- across the frame's end: line 311's last pixels are drawn in line 0's first cycles ----------
def _across_the_frame_end(row7: bytes, x1: int) -> VIC:
    """Sprite 0 at X $193, Y $30: matched after its fetch, it shows on each of lines 304-311 and
    0-12 the row fetched on it (lines 304 + r: row r); its pixels past X $193 are drawn in the next
    line's first cycles -- line 311's (row 7: *row7*) in the next frame's line 0.  Sprite 1 at X
    *x1*, Y $37 (line 311), enabled in line 100: its row 0, a single pixel, shown on line 0 of the
    next frame.  (A Y is compared with the line's low 8 bits: the same pair meets again at lines
    55 and 56, from the second frame on.)"""
    data0 = bytes(21) + row7
    regs = {**place(0, 0x193, 0x30), 2: x1 & 0xFF, 3: 0x37, 0x10: 1 | (x1 >> 8) << 1, 0x15: 1}
    vic = vic_with(regs, sprite_memory({0: data0, 1: b"\x80"}))
    vic.write(0x15, 3, 100 * LINE)
    return vic


@pytest.mark.parametrize("row7, x1, ss, why", [
    (b"\x40", 0x194, 3, "sprite 0's second pixel (X $194 on) meets sprite 1's first in line 0: they collide"),
    (b"\x20", 0x194, 0, "sprite 0's third pixel, one further: no collision"),
    (b"\x20", 0x195, 3, "... with sprite 1 one further too: they collide"),
    (b"", 0x194, 0, "row 7 empty: nothing collides"),
])
def test_line_311s_last_pixels_collide_in_the_next_frame(row7, x1, ss, why):
    """(VICE's x64sc, vicii-cycle.c: the start of a frame resets the raster counters, not the
    sprites' shift registers, which draw on across the line's end as at every other line's.)"""
    vic = _across_the_frame_end(row7, x1)
    assert vic.read(0x1E, CYCLES_PER_FRAME - 1) == 0, "nothing in the first frame's lines"
    assert vic.read(0x1E, CYCLES_PER_FRAME + 20 * LINE) == ss, why
    assert vic.read(0x1E, CYCLES_PER_FRAME + 50 * LINE) == 0, "lines 20-49: the pair apart"


def test_the_interrupt_of_a_collision_across_the_frame_end():
    """The pixel X $195 of line 311 is drawn in line 0's cycle 0: the interrupt in cycle 1."""
    vic = _across_the_frame_end(b"\x40", 0x194)
    vic.write(0x1A, 0x04, 100 * LINE + 1)
    due = CYCLES_PER_FRAME + 1
    assert first_interrupt(vic, 2 * CYCLES_PER_FRAME) == (due, due)


LATE_IRQ = COLLIDING + """*= $c100
irq      sta $d7ff
"""


@pytest.mark.parametrize("x, line, cycle, why", [
    (0x170, 150, 60, "X $170, matched late: on line 150, where the DMA begins; its pixel at beam 472 "
     "(cycle 59), the CPU held by the two sprites' fetches until cycle 60"),
    (100, 151, 26, "X 100: from line 151, the pixel at beam 204 (cycle 25)"),
])
def test_the_collision_interrupt_is_taken_at_its_cycle(test_roms, x, line, cycle, why):
    """Sprites 0 and 1 at X *x*, Y 150, every row full, the sprite-sprite interrupt enabled, the CPU
    in a JMP loop: the interrupt sequence (7 cycles) begins within a JMP's 3 cycles of the cycle
    the VIC's output goes active in (its first shared pixel's cycle + 1)."""
    m = booted(test_roms)
    m.inject_prg(assemble(LATE_IRQ.format(x=x & 0xFF, msb=3 * (x >> 8)), "irq.asm").prg)
    m.cpu.pc = 0xC000
    stop = m.run(CYCLES_PER_FRAME * 4, until_pc=0xC100, stop_when_idle=False)
    assert stop.reason == "pc", stop
    begun = (m.cpu.cycles - 7) % CYCLES_PER_FRAME
    assert 0 <= begun - (line * LINE + cycle) <= 3, (divmod(begun, LINE), why)
