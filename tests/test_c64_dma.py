"""The 6510 while the VIC-II holds the bus (BA low: bad lines, sprite DMA), without ROM
images or test suites: each fact is a small program assembled by asm6502, started at a
chosen cycle before one of the VIC's windows.

Facts: BA goes low three cycles before the VIC's first access, the CPU stops at its next
read and writes go on (Christian Bauer, "The MOS 6567/6569 video controller", 3.6.1);
which cycles of an instruction read and write ("64doc", John West and Marko Makela,
"6510 Instruction Timing"); SHA/SHX/SHY/TAS and ANE when RDY is low in one of their
cycles (groepaz, "NMOS 6510 Unintended Opcodes"); the CPU counts the cycles it runs with
an interrupt line active, not those it waits (VICE x64sc, whose interrupt timing matches
VICE testprogs interrupts/irqdma, recorded on a C64)."""

from __future__ import annotations

import pytest
from test_c64_machine import booted, make_test_roms

from asm6502.asm import assemble
from asm6502.asm.result import Options
from asm6502.c64models import DEFAULT, Model
from asm6502.emu.c64.machine import C64

START = 0xC000
LINE = 63
FRAME = 312 * LINE
SPRITE_LINE = 0x60  # sprites at this Y are fetched from the end of this line on (Bauer 3.8.1)


@pytest.fixture(scope="module")
def roms():
    return make_test_roms()


def machine_at(roms, source: str, line: int, offset: int, d011: int = 0x0B, sprites: int = 0,
               model: Model = DEFAULT) -> tuple[C64, int]:
    """A booted machine with *source* at $C000, the CPU about to run it in cycle *offset*
    of raster *line* of a frame after the boot (interrupts off in the CIAs, I/O and RAM in
    view: $01 = $35); the display off or on (*d011*) and the sprites of the mask *sprites*
    at Y = SPRITE_LINE; a C64 of *model*.  Returns the machine and the line's first cycle."""
    m = booted(roms, model=model)
    base = (m.cpu.cycles // FRAME + 2) * FRAME + line * LINE
    start = base + offset
    prg = assemble(source, "dma-test.asm", Options(cpu="6502i")).prg
    m.inject_prg(prg)
    cpu = m.cpu
    cpu.cycles = start - 200
    cpu.access_cycle = 0
    m.vic.pass_bus(cpu.cycles)  # (the clock was moved: the VIC plans its windows from there, as the run loop keeps it)
    m.store(0x01, 0x35)
    for addr, value in ((0xDC0D, 0x7F), (0xDD0D, 0x7F), (0xD01A, 0), (0xD019, 0x0F)):
        m.store(addr, value)
    m._io_read(0xDC0D)  # (reading the interrupt registers clears them)
    m._io_read(0xDD0D)
    for n in range(8):
        m.store(0xD001 + 2 * n, SPRITE_LINE)
    m.store(0xD015, sprites)
    m.store(0xD011, d011)
    cpu.cycles = start
    m.vic.pass_bus(start)
    cpu.pc = START
    cpu.p |= 0x04
    cpu.limit = start
    return m, base


# --- reads wait, writes go on ------------------------------------------------------------
def test_an_io_write_after_reads_held_by_two_windows_lands_after_both(roms):
    """Sprites 0 and 3: windows in cycles 54-58 and 60-64 of their first line (0-based).
    STA $D020 from cycle 53: its operand reads wait for each window, the write comes in
    cycle 66."""
    m, base = machine_at(roms, "*= $c000\n sta $d020\n jmp *\n", SPRITE_LINE, 53, sprites=0x09)
    assert m.vic.window_after(base) == (base + 54, base + 58)
    assert m.vic.window_after(base + 59) == (base + 60, base + 64)
    m.run(40, stop_when_idle=False)
    writes = [c - base for c, reg, _v in m.vic.frame.writes if reg == 0x20]
    assert writes == [66]


@pytest.mark.parametrize("before, written", [
    (4, 0x11),  # the window begins at the write: it goes on, the AND stays
    (3, 0xFF),  # ... at the read before the write: it waits, the AND drops out
    (2, 0x11),  # ... at the operand's high byte: that read waits, the one before the write does not
    (9, 0x11),  # the instruction is over before the window
])
def test_sha_stores_without_the_and_when_the_read_before_its_write_waits(roms, before, written):
    """SHA $1000,Y (A = X = $FF, Y = 0) stores A AND X AND $11, but A AND X when RDY is low
    in its fourth cycle (a bad line's window: cycles 11-53 of line $33)."""
    source = "*= $c000\n lda #$ff\n ldx #$ff\n ldy #0\n sha $1000,y\n jmp *\n"
    m, base = machine_at(roms, source, 0x33, 11 - before - 6, d011=0x1B)
    window = base + 11
    assert m.vic.window_after(window - 20)[0] == window
    m.memory[0x1000] = 0
    m.run(100, stop_when_idle=False)
    assert m.memory[0x1000] == written


@pytest.mark.parametrize("a, x, imm, result", [
    (0x00, 0xFF, 0xFF, 0xEE),  # the constant itself
    (0xC6, 0xB1, 0x1B, 0x00),  # Lorenz's trap1-trap17 (their table: bits 0 and 4 of the constant clear)
])
# the window begins at the read of its operand / at the next fetch / long after the instruction
@pytest.mark.parametrize("before", [1, 2, 20])
def test_ane_ors_a_with_ee_whether_or_not_the_read_of_its_operand_waits(roms, before, a, x, imm, result):
    """ANE #imm on the old C64 (the default model): A = (A OR $EE) AND X AND imm, the constant Lorenz's suite expects, whether
    the bus is free or the VIC holds the read of the operand."""
    source = f"*= $c000\n lda #${a:02x}\n ldx #${x:02x}\n ane #${imm:02x}\n sta $1000\n jmp *\n"
    m, _base = machine_at(roms, source, 0x33, 11 - before - 4, d011=0x1B)
    m.run(100, stop_when_idle=False)
    assert m.memory[0x1000] == result


@pytest.mark.parametrize("register", [0xD015, 0xD011, 0xD00B])  # registers the VIC plans its windows from
def test_a_write_after_a_wait_keeps_the_wait(roms, register):
    """STA to a VIC register whose operand read waits for sprite 5 (the window is cycles
    1-5 of the line): the read comes in cycle 6, the write in 8, the next opcode in 9."""
    line = SPRITE_LINE + 1
    value = {0xD015: 0x20, 0xD011: 0x0B, 0xD00B: SPRITE_LINE}[register]
    source = f"*= $c000\n lda #${value:02x}\n sta ${register:04x}\n jmp *\n"
    m, base = machine_at(roms, source, line, -2, sprites=0x20)
    assert m.vic.window_after(base - 10) == (base + 1, base + 5)
    stop = m.run(100, until_pc=START + 5, stop_when_idle=False)
    assert stop.reason == "pc"
    assert m.cpu.cycles - base == 9


# --- interrupts: the cycles the CPU waits do not count ------------------------------------
IRQ_SLIDE = """*= $c000
         nop
         nop
         nop
         nop
         nop
         nop
         jmp *
irq      jmp irq
"""


@pytest.mark.parametrize("before, taken_after", [
    # The raster interrupt comes in cycle 0 of the line; sprite 5 alone takes cycles 1-5.
    # The second NOP runs in cycles -1 and 0 and ends at the window: one cycle counted, the
    # next opcode fetch waits, and the third NOP's two cycles are needed before it is taken.
    (3, 3),
    # The second NOP runs in cycles 0 and 1: its second cycle waits, then runs: two counted.
    (2, 2),
])
def test_an_interrupt_needs_two_cycles_the_cpu_runs(roms, before, taken_after):
    line = SPRITE_LINE + 1
    m, irq_cycle = machine_at(roms, IRQ_SLIDE, line, -before, sprites=0x20)
    assert m.vic.window_after(irq_cycle - 10) == (irq_cycle + 1, irq_cycle + 5)
    irq = START + 9
    m.store(0xFFFE, irq & 0xFF)
    m.store(0xFFFF, irq >> 8)
    m.store(0xD012, line)
    m.store(0xD01A, 0x01)
    m.cpu.p &= ~0x04
    stop = m.run(200, until_pc=irq, stop_when_idle=False)
    assert stop.reason == "pc"
    sp = m.cpu.sp
    back = m.memory[0x100 + sp + 2] | m.memory[0x100 + sp + 3] << 8
    assert back == START + taken_after


def test_an_acknowledgement_in_the_last_cycle_still_lets_the_interrupt_through(roms):
    """STA $D019 whose write (its last cycle) comes one cycle after the raster interrupt:
    the CPU looked at the line in the cycle before, the interrupt is taken after the STA."""
    line = 0x70
    source = "*= $c000\n lda #$01\n sta $d019\n nop\n nop\n jmp *\nirq jmp irq\n"
    m, _irq_cycle = machine_at(roms, source, line, -4)  # STA's write in the line's cycle 1
    irq = START + 10
    m.store(0xFFFE, irq & 0xFF)
    m.store(0xFFFF, irq >> 8)
    m.store(0xD012, line)
    m.store(0xD01A, 0x01)
    m.cpu.p &= ~0x04
    stop = m.run(100, until_pc=irq, stop_when_idle=False)
    assert stop.reason == "pc"
    sp = m.cpu.sp
    assert m.memory[0x100 + sp + 2] | m.memory[0x100 + sp + 3] << 8 == START + 5  # after the STA
    assert m.vic.flags & 1 == 0  # acknowledged all the same


BRANCH_SLIDE = "*= $c000\n" + " beq *+2\n" * 6 + " jmp *\nirq jmp irq\n"


@pytest.mark.parametrize("sprites, t0, waits, taken_after", [
    # BEQ *+2 (taken, within its page: 3 cycles, all reads) needs three cycles counted, the
    # fourth one's first cycle in cycle t0 of the sprite line; the raster interrupt comes
    # in cycle 63 (the next line's first).
    # Sprites 0 and 3 (windows 54-58, 60-64): its second cycle waits for the first window
    # and runs in 59, its third waits for the second and runs in 65: the interrupt comes in
    # the second wait, which counts one, the third cycle another: not yet, after the fifth.
    (0x09, 53, ((54, 58), (60, 64)), 5),
    # Sprites 2 and 5 (58-62, 64-68): the interrupt comes in cycle 63, the second cycle
    # between the waits: it and the third count two: after the fifth.
    (0x24, 57, ((58, 62), (64, 68)), 5),
    # Sprites 3 and 6 (60-64, 66-70): the interrupt comes in the first wait: one for it,
    # then the second and third cycles: three, taken after the fourth.
    (0x48, 59, ((60, 64), (66, 70)), 4),
    # Sprite 3 alone (60-64): the second cycle waits, the interrupt comes in that wait:
    # three again.
    (0x08, 59, ((60, 64),), 4),
])
def test_a_taken_branch_with_two_waits_counts_the_cycles_it_runs(roms, sprites, t0, waits, taken_after):
    m, base = machine_at(roms, BRANCH_SLIDE, SPRITE_LINE, t0 - 9, sprites=sprites)
    probe = waits[0][0] - 5
    for first, last in waits:  # (the CPU may read in the cycles between them)
        assert m.vic.window_after(base + probe) == (base + first, base + last)
        probe = last + 1
    irq = START + 15
    m.store(0xFFFE, irq & 0xFF)
    m.store(0xFFFF, irq >> 8)
    m.store(0xD012, SPRITE_LINE + 1)
    m.store(0xD01A, 0x01)
    m.cpu.p = (m.cpu.p & ~0x04) | 0x02  # (Z set: every BEQ is taken)
    stop = m.run(200, until_pc=irq, stop_when_idle=False)
    assert stop.reason == "pc"
    sp = m.cpu.sp
    assert m.memory[0x100 + sp + 2] | m.memory[0x100 + sp + 3] << 8 == START + 2 * taken_after


SEI_IN_A_BAD_LINE = """*= $c000
         lda #{latch}
         sta ${cia:x}04
         lda #0
         sta ${cia:x}05
         lda #$81
         sta ${cia:x}0d
         lda #$19      ; force load, one-shot, start
         sta ${cia:x}0e
         nop
         nop
         nop
         nop
         nop
         nop
         sei           ; its second cycle waits for the bad line
         nop
         nop
         jmp *
handler  jmp handler
"""
SEI_AT = START + 0x1A
TIMER_TO_EDGE = 1  # the edge comes in cycle latch + 1 of the line, as this program starts the timer


@pytest.mark.parametrize("edge, nmi_after, irq_after", [
    # The bad line of line $33 takes cycles 11-53; SEI runs its first cycle in 10, its
    # second waits and runs in 54.  An interrupt counts the cycles the CPU runs with its
    # line active, and one for arriving while the CPU waits (x64sc) -- but for an IRQ
    # during SEI's wait (not counted: the I flag is set before it has two).
    (10, 1, 1),  # in SEI's first cycle: taken after SEI (an IRQ too: the flag was clear)
    (11, 1, None),  # in the wait's first cycle: an NMI counts the wait; the IRQ is masked
    (53, 1, None),  # in its last cycle: the same
    (54, 2, None),  # in SEI's second cycle: one counted, the NMI after the next NOP
])
def test_an_nmi_that_comes_while_sei_waits_is_counted_an_irq_is_not(roms, edge, nmi_after, irq_after):
    for cia, vector, after in ((0xDD, 0xFFFA, nmi_after), (0xDC, 0xFFFE, irq_after)):
        source = SEI_IN_A_BAD_LINE.format(latch=edge - TIMER_TO_EDGE, cia=cia)
        m, base = machine_at(roms, source, 0x33, -26, d011=0x1B)
        assert m.vic.window_after(base) == (base + 11, base + 53)
        handler = SEI_AT + 6
        m.store(vector, handler & 0xFF)
        m.store(vector + 1, handler >> 8)
        m.cpu.p &= ~0x04
        stop = m.run(150, until_pc=handler, stop_when_idle=False)
        chip = m.cia2 if cia == 0xDD else m.cia1
        assert (chip.edge_at if cia == 0xDD else chip.irq_at) - base == edge
        if after is None:
            assert stop.reason != "pc"
            continue
        assert stop.reason == "pc"
        sp = m.cpu.sp
        assert m.memory[0x100 + sp + 2] | m.memory[0x100 + sp + 3] << 8 == SEI_AT + after
