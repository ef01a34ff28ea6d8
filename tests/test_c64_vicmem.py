"""Memory as the VIC-II read it in the cycle of each fetch (vicmem), without ROM images or test
suites: the areas it watches, the byte of a cycle, and small programs in the Profi-Ass dialect,
assembled by asm6502 and run on the test KERNAL, that change what the VIC reads after it read
it -- the picture taken later shows what each fetch read (VICE testprogs VICII/gfxfetch:
character data changed within a line; VICII/spritepriorities: sprite pointers changed
within the frame)."""

from __future__ import annotations

import pytest
from test_c64_vic import pixel, run, test_roms  # noqa: F401 (a fixture)

from asm6502.emu.c64.cpu import CALL, KEEP
from asm6502.emu.c64.vic import CYCLES_PER_FRAME
from asm6502.emu.c64.vicmem import COLOUR, VicMemory, areas


def _run_to(roms, source: str, line: int):
    """The machine after *source* ran three frames and on to the start of *line* of the next."""
    m, _stop = run(roms, source, frames=3)
    m.run(CYCLES_PER_FRAME - m.cpu.cycles % CYCLES_PER_FRAME + line * 63, stop_when_idle=False)
    return m


def _regs(d011=0x1B, d015=0, d018=0x15, bank_bits=3) -> list[int]:
    regs = [0] * 0x42
    regs[0x11], regs[0x15], regs[0x18], regs[0x40] = d011, d015, d018, bank_bits
    return regs


# --- what is watched: the areas the VIC reads under the registers, the character ROM's image
# of banks 0 and 2 and pages 0-1 left out
IDLE0 = {(0x39FF, 0x3A00), (0x3FFF, 0x4000)}


@pytest.mark.parametrize("regs, pointers, expected", [
    (_regs(), {}, {(0x0400, 0x0800)} | IDLE0),  # the start-up screen: characters from the ROM image
    (_regs(d018=0x18), {}, {(0x0400, 0x0800), (0x2000, 0x2800)} | IDLE0),
    (_regs(d018=0x05), {}, {(0x0200, 0x0400)} | IDLE0),  # matrix at $0000: pages 0-1 not watched
    (_regs(d011=0x3B, d018=0x18), {}, {(0x0400, 0x0800), (0x2000, 0x2800), (0x2000, 0x4000)} | IDLE0),
    (_regs(d015=0x03), {0x07F8: 0x80, 0x07F9: 0x41}, {(0x0400, 0x0800), (0x2000, 0x2040)} | IDLE0),
    (_regs(d018=0x14, bank_bits=0), {}, {(0xC400, 0xC800), (0xD000, 0xD800), (0xF9FF, 0xFA00), (0xFFFF, 0x10000)}),
    (_regs(d018=0x14, bank_bits=1), {}, {(0x8400, 0x8800), (0xB9FF, 0xBA00), (0xBFFF, 0xC000)}),
])
def test_the_areas_the_vic_reads(regs, pointers, expected):
    assert areas(regs, lambda addr: pointers.get(addr, 0)) == expected


# --- the byte of a cycle: a fetch in cycle k sees the writes of the cycles before k
@pytest.mark.parametrize("cycle, byte", [
    (99, 1), (100, 1), (101, 2), (150, 2), (151, 3),
])
def test_the_byte_a_fetch_read(cycle, byte):
    now = {0x2000: 3}
    mem = VicMemory(lambda addr: now.get(addr, 0), lambda addr: now.get(addr, 0))
    mem.writes += [(100, 0x2000, 1), (120, 0x2001, 7), (150, 0x2000, 2)]
    assert (mem.read_at(0x2000, cycle), mem.read_at(0x2002, cycle)) == (byte, 0)
    assert mem.quiet_since(151) and not mem.quiet_since(150)


KEPT = """*= $c000
         sei
         lda #$18
         sta $d018
         lda #$55
         sta $2005
         sta $4005
         lda #$81
         sta $07f8
loop     jmp loop
"""


@pytest.mark.parametrize("addr, plain, kept, why", [
    (0x2005, False, KEEP, "the character generator at $2000: the instruction keeps the store"),
    (0x07F8, False, CALL, "sprite 0's pointer: the machine keeps it (a pointer changes what is read)"),
    (0x07F7, False, KEEP, "the matrix's byte before the pointers"),
    (0x4005, True, 0, "outside the VIC's bank: a plain store"),
    (0x1005, True, 0, "the character ROM's image: the VIC does not read the RAM there"),
    (0xA000, False, 0, "the BASIC ROM's area: through the memory map, as always"),
])
def test_a_store_to_what_the_vic_reads_is_kept_others_are_plain(test_roms, addr, plain, kept, why):  # noqa: F811
    m, _stop = run(test_roms, KEPT, frames=1)
    mem = m.vicmem
    assert [a for _c, a, _old in mem.writes] == [0x2005, 0x07F8], "the two stores the VIC reads"
    assert mem.writes[0][2] == 0, "the byte $2005 held before"
    assert (mem.plain[addr], mem.kept[addr]) == (plain, kept), why


# the characters at $2000, a screen of code 0 in colour 1 on blue
BLANK_SCREEN = """*= $c000
         sei
         lda #$18
         sta $d018
         lda #6
         sta $d021
         ldx #0
fill     lda #0
         sta $0400,x
         sta $0500,x
         sta $0600,x
         sta $0700,x
         sta $2000,x
         lda #1
         sta $d800,x
         sta $d900,x
         sta $da00,x
         sta $db00,x
         inx
         bne fill
"""

# --- the g-access reads the character data of its cycle: a row byte of character 0 set to $FF
# in line $80 (RC 5 with YSCROLL 3: every cell of text row 10 shows it) and cleared again in
# line $84, every frame.  Line $80 shows it from the first column whose g-access comes after
# the store (the poll of $D012 leaves it in cycles 5-20 of the line); line $88, the same
# character row in the next text row, shows 0.  The picture is taken in line $20 of the next
# frame: memory reads 0 for both now.
CHAR_ROW = BLANK_SCREEN + """frame    lda #$80
wait1    cmp $d012
         bne wait1
         lda #$ff
         sta $2005
         lda #$84
wait2    cmp $d012
         bne wait2
         lda #0
         sta $2005
         jmp frame
"""


@pytest.mark.parametrize("line, column, colour, why", [
    (0x80, 20, 1, "stored before column 20's g-access (cycle 35): the character's 1 bits, white"),
    (0x80, 30, 1, "and column 30"),
    (0x88, 20, 6, "the same character row a text row later: cleared before, background"),
    (0x7F, 20, 6, "the line before the store: background"),
])
def test_a_character_row_changed_within_a_line(test_roms, line, column, colour, why):  # noqa: F811
    m = _run_to(test_roms, CHAR_ROW, 0x20)
    assert m.ram(0x2005) == 0, "(the picture is taken with the byte cleared again)"
    assert pixel(m, 32 + 8 * column, line) == colour, why


# --- the p- and s-accesses read the pointer and data of their cycle: sprite 0 at Y $60 with
# pointer $80 (block $2000, all set), then in line $90 moved to Y $A0 with pointer $81 (block
# $2040: its first byte $F0), moved back in line $F8.  The picture, taken in line $C0 with
# pointer $81 in the matrix, shows both blocks in the lines drawn before.
SPRITE_POINTER = """*= $c000
         sei
         lda #6
         sta $d021
         ldx #63
data     lda #$ff
         sta $2000,x
         lda #0
         sta $2040,x
         dex
         bpl data
         lda #$f0
         sta $2040
         sta $2043
         lda #$80
         sta $d000
         lda #1
         sta $d027
         sta $d015
frame    lda #$80
         sta $07f8
         lda #$60
         sta $d001
         lda #$90
wait1    cmp $d012
         bne wait1
         lda #$81
         sta $07f8
         lda #$a0
         sta $d001
         lda #$f8
wait2    cmp $d012
         bne wait2
         jmp frame
"""


@pytest.mark.parametrize("x, line, colour, why", [
    (136, 0x62, 1, "block $80 on the first sprite's lines (X $80: column 136): all set"),
    (159, 0x62, 1, "... to its 24th pixel"),
    (139, 0xA2, 1, "block $81 on the second's: $F0, its first four pixels"),
    (140, 0xA2, 6, "... and not the fifth"),
])
def test_sprite_pointers_changed_within_the_frame(test_roms, x, line, colour, why):  # noqa: F811
    m = _run_to(test_roms, SPRITE_POINTER, 0xC0)
    assert m.ram(0x07F8) == 0x81, "(the picture is taken with the second pointer in the matrix)"
    assert pixel(m, x, line) == colour, why


# --- the c-accesses read the video matrix of their cycle: in line $74, after text row 8's bad
# line ($73 with YSCROLL 3) read its cells, character 1 (all set) is stored in row 8's and row
# 9's column 20, both cleared again in line $F8.  Row 8 keeps the code its bad line read, 0;
# row 9's bad line ($7B) reads 1.  The picture is taken in line $C0, both codes 1 now.
MATRIX = BLANK_SCREEN + """         lda #$ff
         ldx #7
char1    sta $2008,x
         dex
         bpl char1
frame    lda #$74
wait1    cmp $d012
         bne wait1
         lda #1
         sta $0554
         sta $057c
         lda #$f8
wait2    cmp $d012
         bne wait2
         lda #0
         sta $0554
         sta $057c
         jmp frame
"""


@pytest.mark.parametrize("line, colour, why", [
    (0x76, 6, "row 8: its bad line read code 0 before the store -- background"),
    (0x7E, 1, "row 9: its bad line read code 1 -- white"),
])
def test_the_matrix_as_its_bad_line_read_it(test_roms, line, colour, why):  # noqa: F811
    m = _run_to(test_roms, MATRIX, 0xC0)
    assert (m.ram(0x0400 + 8 * 40 + 20), m.ram(0x0400 + 9 * 40 + 20)) == (1, 1)
    assert pixel(m, 32 + 8 * 20, line) == colour, why


# --- the c-accesses read the colour RAM of their cycle, with the matrix byte: character 0 all
# set, so each cell shows its colour RAM nibble.  In line $74, after row 8's bad line ($73),
# colour 2 is stored in row 8's column 20; in line $7A, before row 9's bad line, in row 9's
# column 20; in line $7B, row 9's bad line, after six NOPs (the poll leaves it by cycle 11:
# their reads reach cycle 12, where BA is low, and wait out the c-accesses) in row 9's and
# row 10's column 22.  All are set to 1 again in line $F8; the picture is taken in line $C0,
# the four nibbles 2.
COLOUR_RAM = BLANK_SCREEN + """         lda #$ff
         ldx #7
char0    sta $2000,x
         dex
         bpl char0
frame    ldy #2
         lda #$74
wait1    cmp $d012
         bne wait1
         sty $d954
         lda #$7a
wait2    cmp $d012
         bne wait2
         sty $d97c
         lda #$7b
wait3    cmp $d012
         bne wait3
         nop
         nop
         nop
         nop
         nop
         nop
         sty $d97e
         sty $d9a6
         lda #$f8
wait4    cmp $d012
         bne wait4
         ldy #1
         sty $d954
         sty $d97c
         sty $d97e
         sty $d9a6
         jmp frame
"""


@pytest.mark.parametrize("column, line, colour, why", [
    (20, 0x76, 1, "row 8: its bad line read colour 1 before the store in line $74 -- white"),
    (20, 0x7E, 2, "row 9: stored in line $7A, before its bad line -- red"),
    (22, 0x7E, 1, "row 9: stored in its own bad line, after the c-accesses -- white"),
    (22, 0x86, 2, "row 10: its bad line read the store -- red"),
    (21, 0x7E, 1, "a column not stored to -- white"),
])
def test_the_colour_ram_as_its_bad_line_read_it(test_roms, column, line, colour, why):  # noqa: F811
    m = _run_to(test_roms, COLOUR_RAM, 0xC0)
    assert [m.color[i] for i in (0x154, 0x17C, 0x17E, 0x1A6)] == [2, 2, 2, 2]
    assert pixel(m, 32 + 8 * column, line) == colour, why


def test_a_colour_ram_store_is_kept_with_its_cycle(test_roms):  # noqa: F811
    m = _run_to(test_roms, COLOUR_RAM, 0xC0)
    kept = [(c % CYCLES_PER_FRAME, old) for c, a, old in m.vicmem.writes if a == COLOUR + 0x17E]
    assert kept, "the stores to $D97E kept"
    cycle, old = kept[-1]
    assert old == 1, "with the nibble replaced"
    assert 0x7B * 63 + 55 <= cycle < 0x83 * 63, "the store in line $7B comes after its c-accesses"
