"""Bank switching through the 6510 port $01 (asm6502/emu/c64/memmap.py): a switch copies
nothing; reads of an area the memory list does not hold read the ROM or RAM in view, code
running there has it copied in.  Each program runs on the test KERNAL (tests/fixtures/c64/testkernal.asm), stores what it
read in $0340-, and the bytes are those of the RAM or ROM the PLA shows at that moment (C64
Programmer's Reference Guide, "Memory management")."""

from __future__ import annotations

from pathlib import Path

import pytest

from asm6502.asm import assemble
from asm6502.asm.result import Options
from asm6502.emu.c64.machine import C64, RomImages

FIXTURES = Path(__file__).parent / "fixtures" / "c64"
BASIC_FIRST = 0x94  # the stand-in BASIC ROM: $94 then zeros
CODE = 0xC000
OUT = 0x0340


@pytest.fixture(scope="module")
def roms() -> RomImages:
    kernal = assemble((FIXTURES / "testkernal.asm").read_text(), "testkernal.asm").image
    chargen = bytes((i * 7 + 3) & 0xFF for i in range(0x1000))
    return RomImages(bytes([BASIC_FIRST]) + bytes(0x1FFF), bytes(kernal), chargen)


def run(roms: RomImages, source: str, ram: dict[int, bytes] | None = None, cycles: int = 2_000_000) -> C64:
    machine = C64(roms)
    assert machine.run(2_000_000).reason == "idle"
    text = f"*= ${CODE:04x}\n" + "\n".join(f"         {line}" for line in source.strip().split("\n"))
    machine.poke_ram(CODE, assemble(text + "\nend      jmp end\n", "t.asm", Options(cpu="6502i")).image)
    for addr, data in (ram or {}).items():
        machine.poke_ram(addr, data)
    machine.cpu.pc = CODE
    stop = machine.run(cycles, until_pc=None)
    assert stop.reason == "cycles", stop
    return machine


TOGGLE = """sei
ldx #0
loop     lda #$36
sta $01
lda $a000
sta $0340,x
lda #$37
sta $01
lda $a000
sta $0380,x
stx $a000
inx
cpx #$40
bne loop
lda #$36
sta $01
lda $a000
sta $03c0
lda #$37
sta $01"""


def test_switching_back_and_forth_reads_ram_and_rom_alternately(roms):
    """$A000 under the ROM starts at $55; every pass stores X at $A000 with the ROM in view
    (the write goes to the RAM below): the next pass reads it from the RAM, the ROM reads
    stay $94."""
    m = run(roms, TOGGLE, {0xA000: b"\x55"})
    assert bytes(m.memory[OUT:OUT + 0x40]) == b"\x55" + bytes(range(0x3F))
    assert bytes(m.memory[0x0380:0x03C0]) == bytes([BASIC_FIRST]) * 0x40
    assert m.memory[0x03C0] == 0x3F
    assert m.memory[0xA000] == BASIC_FIRST and m.ram(0xA000) == 0x3F


def test_many_reads_after_one_switch_read_the_ram(roms):
    """Many reads of a switched area, none of the ROM: every byte read is the RAM's."""
    n = 192
    source = f"""sei
lda #$36
sta $01
ldx #0
loop     lda $a100,x
sta $0340,x
inx
cpx #{n}
bne loop
lda #$37
sta $01"""
    pattern = bytes((i * 13 + 1) & 0xFF for i in range(n))
    m = run(roms, source, {0xA100: pattern})
    assert bytes(m.memory[OUT:OUT + n]) == pattern
    assert m.memory[0xA100] == 0  # the ROM again


def test_code_runs_in_the_ram_under_the_kernal(roms):
    """$01=$35 (KERNAL out, I/O in): JSR to code in the RAM at $E000, which reads a byte there."""
    routine = assemble("*= $e000\n         lda $e010\n         sta $0340\n         rts\n", "r.asm").image
    source = """sei
lda #$35
sta $01
jsr $e000
lda #$37
sta $01
lda $e000
sta $0341"""
    m = run(roms, source, {0xE000: routine, 0xE010: b"\xa7"})
    assert m.memory[OUT] == 0xA7
    assert m.memory[OUT + 1] == roms.kernal[0]


def test_an_interrupt_with_the_kernal_out_takes_the_vector_from_ram(roms):
    """With the KERNAL banked out, BRK fetches its vector from the RAM at $FFFE."""
    handler = assemble("*= $c100\n         lda #$5a\n         sta $0340\nhang     jmp hang\n", "h.asm").image
    source = """sei
lda #$35
sta $01
brk
nop"""
    m = run(roms, source, {0xC100: handler, 0xFFFE: b"\x00\xc1"})
    assert m.memory[OUT] == 0x5A


def test_an_indirect_jump_reads_its_vector_from_the_area_in_view(roms):
    """JMP ($A000) with the BASIC ROM out: the vector is the RAM's ($C100), not the ROM's."""
    target = assemble("*= $c100\n         lda #$a5\n         sta $0340\nhang     jmp hang\n", "h.asm").image
    source = """sei
lda #$36
sta $01
jmp ($a000)"""
    m = run(roms, source, {0xC100: target, 0xA000: b"\x00\xc1"})
    assert m.memory[OUT] == 0xA5


def test_a_saved_state_holds_the_bytes_in_view(roms):
    m = run(roms, "sei\nlda #$36\nsta $01", {0xA000: b"\x66"})
    state = m.save_state()
    assert state["memory"][0xA000] == 0x66
    m.load_state(state)
    assert m.memory[0xA000] == 0x66 and m.map["basic"] == "ram"


def test_reading_under_the_kernal_between_calls_of_the_kernal(roms):
    """A text in the RAM under the KERNAL, each byte read with the ROMs out ($01=$35) and
    printed through CHROUT ($FFD2, the test KERNAL's screen output) with them back in: the
    bytes are the RAM's, and the ROM's routine runs after every switch back."""
    text = b"RAM UNDER THE KERNAL"
    source = f"""ldx #0
loop     sei
lda #$35
sta $01
lda $e800,x
ldy #$37
sty $01
cli
sta $c200,x
jsr $ffd2
inx
cpx #{len(text)}
bne loop"""
    m = run(roms, source, {0xE800: text})
    assert bytes(m.memory[0xC200:0xC200 + len(text)]) == text  # ($0340- counts the interrupts here)
    screen = bytes(m.memory[0x0400:0x0800])
    assert bytes(c & 0x3F for c in text) in screen  # (scrout: PETSCII $40-$5F -> screen codes $00-$1F)


def test_the_io_area_shows_ram_character_rom_and_registers_in_turn(roms):
    """$D000 with $01=$34 (RAM), $33 (character ROM), $35 (the VIC's sprite 0 X register),
    over and over; a write with I/O in reaches the register, not the RAM below."""
    source = """sei
ldx #0
loop     lda #$34
sta $01
lda $d000
sta $0340,x
lda #$33
sta $01
lda $d000
sta $0380,x
lda #$35
sta $01
stx $d000
lda $d000
sta $03c0,x
inx
cpx #$10
bne loop
lda #$37
sta $01"""
    m = run(roms, source, {0xD000: b"\x5a"})
    assert bytes(m.memory[OUT:OUT + 0x10]) == b"\x5a" * 0x10
    assert bytes(m.memory[0x0380:0x0390]) == bytes([roms.chargen[0]]) * 0x10
    assert bytes(m.memory[0x03C0:0x03D0]) == bytes(range(0x10))
    assert m.ram(0xD000) == 0x5A
