"""The 6526 CIA to the cycle, each fact as the references state it.

Tables from Wolfgang Lorenz's test suite 2.15 (Test_Suite_2_15.txt: CIA1TB123,
CIA1TAB, ICR01, ONESHOT, FLIPOS, LOADTH, IMR, CIA1PB6/7), the MOS 6526
datasheet (TOD latching, stop/start, alarm, the 50/60 Hz divider) and VICE's
testprogs/CIA/tod/hour-test.txt (the hour register on a real C64).

Cycle convention (as in asm6502/emu/c64/cia.py): a read in cycle t sees the
clocks before t; a write in cycle t is in force from t + 1.  A timer started
by a write in cycle w decrements first in w + 2; a timer holding 2 and started
in w underflows in w + 3, and the ICR shows it from w + 4 -- Lorenz's "t"."""

from __future__ import annotations

import pytest

from asm6502.emu.c64.cia import CIA, CRA, CRB, ICR, PRB, TAHI, TALO, TBHI, TBLO, TOD10, TODHR, TODMIN, TODSEC
from asm6502.emu.c64.vic import CYCLES_PER_FRAME  # (the longest wait for a raster line)

PAL = 985_248
W = 1000  # the cycle of the write under test


def timer_b(cia: CIA, cycle: int) -> int:
    return cia.read(TBLO, cycle) | cia.read(TBHI, cycle) << 8


def stopped_with(counter: int, latch_low: int, reg_lo: int = TBLO) -> CIA:
    """A CIA whose stopped timer holds *counter* and whose latch differs from it."""
    cia = CIA("t")
    cia.write(reg_lo, counter & 0xFF, 0)
    cia.write(reg_lo + 1, counter >> 8, 4)  # the high byte into a stopped timer loads it
    cia.write(reg_lo, latch_low, 8)
    return cia


# --- Lorenz CIA1TB123: timer B in the cycles 1-4 after writing CRB -------------------
@pytest.mark.parametrize("first, second, sequence", [
    (0x00, 0x01, "keep keep count count"),
    (0x00, 0x10, "keep load keep keep"),
    (0x00, 0x11, "keep load keep count"),
    (0x01, 0x11, "count load keep count"),
    (0x01, 0x10, "count load keep keep"),
    (0x01, 0x00, "count count keep keep"),
])
def test_timer_b_after_writing_crb(first, second, sequence):
    cia = stopped_with(0x2000, 0x55)  # counter $2000, latch $2055
    cia.write(CRB, first, W - 40)
    before = timer_b(cia, W)
    cia.write(CRB, second, W)
    steps = []
    for k in range(1, 5):
        now = timer_b(cia, W + k)
        steps.append("keep" if now == before else "count" if now == before - 1 else
                     "load" if now == 0x2055 else f"{now:04X}")
        before = now
    assert " ".join(steps) == sequence


# --- the period: a latch of N underflows every N + 1 cycles ------------------------
@pytest.mark.parametrize("latch", [1, 2, 3, 7, 100, 300])
def test_a_continuous_timer_underflows_every_latch_plus_one_cycles(latch):
    cia = stopped_with(latch, latch & 0xFF, TALO)
    cia.write(TAHI, latch >> 8, 12)
    cia.write(CRA, 0x01, W)
    seen = [c - 1 for c in range(W + 1, W + 5 * (latch + 1)) if cia.read(ICR, c) & 1]  # a read clears it
    assert seen[0] == W + 1 + latch  # decrements from W + 2: 1 -> 0 in W + 1 + latch
    assert [b - a for a, b in zip(seen, seen[1:])] == [latch + 1] * (len(seen) - 1)


def test_the_interrupt_follows_the_icr_bit_one_cycle_late_on_the_6526_at_once_on_the_6526a():
    for new_model, delay in ((False, 1), (True, 0)):
        cia = CIA("t", new_model=new_model)
        cia.write(TALO, 5, 0)
        cia.write(TAHI, 0, 4)
        cia.write(ICR, 0x81, 8)
        cia.write(CRA, 0x01, W)
        while not cia.irq:
            cia.advance(cia.next_event())
        assert cia.irq_at == W + 1 + 5 + 1 + delay  # underflow in W + 6, the ICR bit from W + 7


# --- Lorenz CIA1TAB: TA counts phi2, TB counts TA's underflows, both latches 2 -------
CASCADE = {  # twelve consecutive cycles, the first is the cycle of TA's first underflow
    "TA": [0x01, 0x02, 0x02, 0x01, 0x02, 0x02, 0x01, 0x02, 0x02, 0x01, 0x02, 0x02],
    "TB": [0x02, 0x02, 0x02, 0x01, 0x01, 0x01, 0x00, 0x00, 0x02, 0x02, 0x02, 0x02],
    "PB": [0x80, 0xC0, 0x80, 0x80, 0xC0, 0x80, 0x80, 0xC0, 0x00, 0x00, 0x40, 0x00],
    "ICR": [0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x03, 0x83, 0x83, 0x83],
}


def _cascade() -> CIA:
    cia = CIA("t")
    cia.write(3, 0xFF, 0)  # DDRB: PB all outputs
    cia.write(PRB, 0x00, 4)
    cia.write(TALO, 2, 8)
    cia.write(TBLO, 2, 12)
    cia.write(TAHI, 0, 16)
    cia.write(TBHI, 0, 20)
    cia.write(ICR, 0x82, 24)
    cia.write(CRB, 0b01000111, W - 4)  # start, PB7 on, toggle, count TA underflows
    cia.write(CRA, 0b00000011, W)  # start, PB6 on, pulse
    return cia


@pytest.mark.parametrize("row", list(CASCADE))
def test_cascade_table(row):
    got = []
    for k in range(12):  # each column on a fresh chip: reading the ICR clears it
        cia = _cascade()
        cycle = W + 3 + k
        reg = {"TA": TALO, "TB": TBLO, "PB": PRB, "ICR": ICR}[row]
        got.append(cia.read(reg, cycle))
    assert got == CASCADE[row]


# --- Lorenz ICR01 and ONESHOT: around an underflow (t: the ICR shows it) --------------
def _one_shot_from_2() -> CIA:
    cia = stopped_with(2, 2, TALO)
    cia.write(ICR, 0x81, 20)
    cia.write(CRA, 0x09, W)  # start, one-shot: 2 -> 1 in W + 2, underflow in W + 3
    return cia


T = W + 4


@pytest.mark.parametrize("cycle, icr, interrupt", [(T - 1, 0x00, True), (T, 0x01, False), (T + 1, 0x81, True)])
def test_icr_read_around_the_underflow(cycle, icr, interrupt):
    cia = _one_shot_from_2()
    assert cia.read(ICR, cycle) == icr
    cia.advance(T + 10)
    assert (cia.edges > 0) == interrupt


@pytest.mark.parametrize("cycle, cra", [(T - 1, 0x09), (T, 0x08)])
def test_one_shot_clears_the_start_bit(cycle, cra):
    assert _one_shot_from_2().read(CRA, cycle) == cra


# --- Lorenz FLIPOS: the one-shot bit written around the underflow ----------------------
@pytest.mark.parametrize("before, after, write_at, stops", [
    (0x01, 0x09, T - 2, True), (0x01, 0x09, T - 1, True), (0x01, 0x09, T, False),
    (0x09, 0x01, T - 2, False), (0x09, 0x01, T - 1, True),
])
def test_one_shot_flipped_at_the_underflow(before, after, write_at, stops):
    cia = stopped_with(2, 0xFF, TALO)  # counter 2
    cia.write(CRA, 0x21, 10)  # started but counting CNT edges (none): the high byte does not load
    cia.write(TAHI, 0xFF, 14)  # latch $FFFF
    cia.write(CRA, 0x00, 18)
    cia.write(CRA, before, W)
    cia.write(CRA, after, write_at)
    cia.read(ICR, T + 20)
    assert (cia.read(TALO, T + 40) | cia.read(TAHI, T + 40) << 8 == 0xFFFF) == stops


# --- Lorenz LOADTH: the high latch byte loads the counter only while it stops ------------
@pytest.mark.parametrize("reg, running, loads", [
    (TAHI, False, True), (TAHI, True, False), (TALO, False, False), (TALO, True, False),
])
def test_writing_the_latch_loads_a_stopped_timer_only_by_its_high_byte(reg, running, loads):
    cia = stopped_with(0x3000, 0x00, TALO)
    if running:
        cia.write(CRA, 0x01, 100)
    cia.write(reg, 0x50, W)
    value = cia.read(TALO, W + 2) | cia.read(TAHI, W + 2) << 8
    latch = 0x5000 if reg == TAHI else 0x3050
    assert (value == latch) == loads


# --- Lorenz IMR: the mask set over a pending condition raises the interrupt -----------
def test_interrupt_mask():
    cia = _one_shot_from_2()
    cia.write(ICR, 0x01, 20)  # mask cleared before the underflow
    cia.advance(T + 5)
    assert cia.flags == 0x01 and not cia.irq
    cia.write(ICR, 0x81, W + 20)
    assert not cia.low_at(W + 21) and cia.next_event() == W + 22
    cia.advance(W + 22)
    assert cia.low_at(W + 22)
    cia.write(ICR, 0x01, W + 30)  # clearing the mask leaves the interrupt
    cia.advance(W + 40)
    assert cia.irq
    assert cia.read(ICR, W + 41) == 0x81 and not cia.irq


# --- Lorenz CIA1PB6/PB7: the timer outputs on port B -------------------------------------
@pytest.mark.parametrize("cr, pb6", [(0x03, 0x00), (0x07, 0x40), (0x02, 0x00), (0x06, 0x40), (0x16, 0x40)])
def test_pb6_right_after_writing_cra(cr, pb6):
    cia = stopped_with(0x100, 0, TALO)
    cia.write(3, 0x00, 10)  # DDRB input: the timer output replaces the pin anyway
    cia.write(CRA, cr, W)
    assert cia.read(PRB, W + 1) & 0x40 == pb6


def test_toggle_line_cleared_by_underflow_and_set_only_by_a_rising_start():
    cia = stopped_with(3, 3, TALO)
    cia.write(CRA, 0x0F, W)  # start, PB6 on, toggle, one-shot
    assert cia.read(PRB, W + 1) & 0x40
    assert not cia.read(PRB, W + 20) & 0x40  # the underflow toggled it
    cia.write(CRA, 0x0E, W + 30)  # not starting: no change
    cia.write(TALO, 9, W + 34)
    cia.write(TAHI, 0, W + 38)
    assert not cia.read(PRB, W + 42) & 0x40
    cia.write(CRA, 0x0F, W + 50)  # a rising start bit sets it
    assert cia.read(PRB, W + 51) & 0x40


# --- TOD (datasheet; VICE hour-test.txt measured on a C64) -------------------------------
@pytest.mark.parametrize("written, read, nxt", [
    (0x92, 0x12, 0x01), (0x01, 0x01, 0x02), (0x02, 0x02, 0x03), (0x11, 0x11, 0x92),
    (0x12, 0x92, 0x81), (0x81, 0x81, 0x82), (0x82, 0x82, 0x83), (0x91, 0x91, 0x12),
])
def test_tod_hours(written, read, nxt):
    cia = CIA("t")
    cia.write(CRA, 0x80, 0)  # 50 Hz input
    cia.write(TODHR, written, 10)
    cia.write(TODMIN, 0x59, 14)
    cia.write(TODSEC, 0x59, 18)
    cia.write(TOD10, 0x09, 22)
    assert cia.read(TODHR, 30) == read
    cia.read(TOD10, 30)
    assert cia.read(TODHR, 30 + PAL // 5) == nxt  # 1/10 s is 5 pulses of 50 Hz: one or two have come


def test_tod_stops_on_hours_starts_on_tenths_and_latches_on_reading_hours():
    cia = CIA("t")
    cia.write(CRA, 0x80, 0)
    cia.write(TODHR, 0x01, 10)
    cia.write(TODMIN, 0, 14)
    cia.write(TODSEC, 0, 18)
    assert cia.read(TODSEC, 3 * PAL) == 0  # stopped since the write of the hours
    cia.write(TOD10, 0, 3 * PAL)
    assert cia.read(TODSEC, 6 * PAL + 10) == 0x03  # three seconds after the tenths were written
    assert cia.read(TODHR, 6 * PAL + 10) == 0x01  # latches ...
    assert cia.read(TODSEC, 9 * PAL + 10) == 0x03  # ... so seconds stand still while the clock runs on
    assert cia.read(TOD10, 9 * PAL + 10) == 0  # the read of tenths releases the latch
    assert cia.read(TODSEC, 9 * PAL + 10) == 0x06


@pytest.mark.parametrize("cra, tenths_in_a_second", [(0x80, 10), (0x00, 8)])
def test_tod_divider_50_or_60_hz_on_the_50_hz_mains(cra, tenths_in_a_second):
    cia = CIA("t")
    cia.write(CRA, cra, 0)
    cia.write(TODHR, 0x01, 4)
    cia.write(TOD10, 0, 8)
    sec, tenth = cia.read(TODSEC, PAL + 100), cia.read(TOD10, PAL + 100)
    assert sec * 10 + tenth == tenths_in_a_second


def test_tod_alarm_sets_icr_bit_2_and_interrupts():
    cia = CIA("t")
    cia.write(CRA, 0x80, 0)
    cia.write(CRB, 0x80, 4)  # writes set the alarm
    for reg, value in ((TODHR, 0x01), (TODMIN, 0), (TODSEC, 0x02), (TOD10, 0x05)):
        cia.write(reg, value, 8 + reg)
    cia.write(CRB, 0x00, 30)
    for reg, value in ((TODHR, 0x01), (TODMIN, 0), (TODSEC, 0), (TOD10, 0)):
        cia.write(reg, value, 40 + reg)
    assert cia.read(ICR, 50) == 0x04  # on its way the alarm passed 1:00:00.0, the clock's time
    cia.write(ICR, 0x84, 60)
    due = cia.next_event()
    while not cia.irq:
        cia.advance(due)
        due = cia.next_event()
    assert abs(cia.irq_at - 25 * PAL // 10) < PAL // 25  # 2.5 s, within a pulse
    assert cia.read(ICR, cia.irq_at + 1) == 0x84


# --- on the machine: a program of our own, assembled by asm6502 ---------------------------
# The interrupt is taken after the first instruction that ends two or more cycles after the
# line went active (Lorenz, Test_Suite_2_15.txt, IRQ and NMI).  Timer A, force-loaded with N
# and started by the STA in cycle w, underflows in w + 2 + N; the ICR bit follows in w + 3 + N
# and the line in w + 4 + N.  The STA ends in w + 1, NOP k (from 0) ends in w + 3 + 2k: the
# interrupt comes after NOP k for the least k with w + 3 + 2k >= w + 6 + N.  (The programs
# switch the test KERNAL's raster interrupt off first.)
#
# The cycles counted are the CPU's own only below the picture: in a bad line (lines $30-$F7 with
# the display on, as the test KERNAL leaves it) the VIC stops the CPU for 40-43 cycles while the
# timers count on (Bauer 3.5, 3.6.1).  Each program waits for raster line $F8 first: from there
# 112 lines pass before the next bad line, and where in the frame a test starts (what the
# module's machine ran before it) changes nothing.
BELOW_THE_PICTURE = """\
raster   lda $d012
         cmp #$f8
         bne raster
"""
TIMED = """\
*= $c000
start    sei
""" + BELOW_THE_PICTURE + """\
         lda #$35
         sta $01
         lda #<handler
         sta {vector}
         lda #>handler
         sta {vector}+1
         lda #0
         sta $d01a
         lda #$ff
         sta $d019
         lda #$7f
         sta $dc0d
         sta $dd0d
         bit $dc0d
         bit $dd0d
         lda #$81
         sta {cia}+13
         lda #{latch}
         sta {cia}+4
         lda #0
         sta {cia}+5
         cli
         lda #$19
         sta {cia}+14
nops     {chain}
done     jmp done
handler  pla
         pla
         sta $c100
         pla
         sta $c101
         jmp done
"""


@pytest.fixture(scope="module")
def machine():
    from helpers import c64_test_machine

    return c64_test_machine()


NOPS = "\n         ".join(["nop"] * 10)
# taken branches within the page, 3 cycles each: the CPU looks at the lines in their first
# cycle already, one cycle earlier than the rule says (Lorenz, IRQ: "the only exception")
BRANCHES = "bne b1\n" + "".join(f"b{i:<7} bne b{i + 1}\n" for i in range(1, 10)) + "b10      nop"


def _run_timed(m, cia: int, vector: int, latch: int, chain: str = NOPS) -> int:
    from asm6502.asm import assemble

    source = TIMED.format(cia=f"${cia:04X}", vector=f"${vector:04X}", latch=latch, chain=chain.lstrip())
    result = assemble(source, "timed.asm")
    m.poke_ram(0xC000, bytes(result.image))
    m.memory[0xC100] = m.memory[0xC101] = 0
    m.cpu.pc = 0xC000
    stop = m.run(CYCLES_PER_FRAME + 20_000, until_pc=result.symbols["done"], stop_when_idle=False)
    assert stop.reason == "pc", stop
    back = m.memory[0xC100] | m.memory[0xC101] << 8
    return back - result.symbols["nops"]


@pytest.mark.parametrize("cia, vector", [(0xDC00, 0xFFFE), (0xDD00, 0xFFFA)], ids=["IRQ", "NMI"])
@pytest.mark.parametrize("latch", [1, 2, 3, 4, 5, 6])
def test_interrupt_taken_at_the_instruction_boundary(machine, cia, vector, latch):
    k = next(k for k in range(10) if 3 + 2 * k >= 6 + latch)
    assert _run_timed(machine, cia, vector, latch) == k + 1  # the return address: the NOP after k


@pytest.fixture(scope="module")
def machine_6526a():
    from helpers import c64_test_machine

    return c64_test_machine("6526a")


@pytest.mark.parametrize("latch", [1, 2, 3, 4, 5, 6])
def test_on_6526a_cias_the_interrupt_comes_one_cycle_earlier(machine_6526a, latch):
    assert machine_6526a.cia1.irq_delay == 0
    k = next(k for k in range(10) if 3 + 2 * k >= 5 + latch)  # the line active in w + 3 + N
    assert _run_timed(machine_6526a, 0xDC00, 0xFFFE, latch) == k + 1


@pytest.mark.parametrize("cia, vector", [(0xDC00, 0xFFFE), (0xDD00, 0xFFFA)], ids=["IRQ", "NMI"])
@pytest.mark.parametrize("latch", [1, 2, 3, 4, 5, 6])
def test_taken_branches_look_at_the_interrupt_one_cycle_earlier(machine, cia, vector, latch):
    # branch k (from 0) starts in w + 1 + 3k; the interrupt (line active in w + 4 + N) comes
    # after it when the line was active in its first cycle: 3k >= N + 3
    k = next(k for k in range(10) if 3 * k >= latch + 3)
    assert _run_timed(machine, cia, vector, latch, BRANCHES) == 2 * (k + 1)


def test_debug_cartridge_ends_the_run_with_the_value_written(machine):
    from asm6502.asm import assemble
    from asm6502.emu.c64 import session

    result = assemble("*= $c000\n lda #$2a\n sta $d7ff\nloop jmp loop\n", "exit.asm")
    machine.poke_ram(0xC000, bytes(result.image))
    machine.cpu.pc = 0xC000
    stop = machine.run(10_000, stop_when_idle=False)
    assert (stop.reason, stop.code) == ("exit", 0x2A)
    assert session.exit_code(stop, session.RunSpec()) == 0x2A


def test_restore_is_an_nmi_edge_unless_cia2_holds_the_line(machine):
    from asm6502.asm import assemble

    source = """*= $c000
         sei
         lda #$35
         sta $01
         lda #<handler
         sta $fffa
         lda #>handler
         sta $fffb
         lda #$7f
         sta $dd0d
         lda $dd0d
         lda #0
         sta $c100
loop     jmp loop
handler  inc $c100
         rti
"""
    result = assemble(source, "restore.asm")
    machine.poke_ram(0xC000, bytes(result.image))
    machine.cpu.pc = 0xC000
    machine.run(200, stop_when_idle=False)
    machine.press_restore()
    machine.run(200, stop_when_idle=False)
    assert machine.memory[0xC100] == 1  # with the I flag set: NMI cannot be masked
    cia2 = machine.cia2
    cia2.write(4, 1, machine.cpu.cycles)  # CIA 2 holds the line low: timer A underflowed, unread
    cia2.write(5, 0, machine.cpu.cycles)
    cia2.write(13, 0x81, machine.cpu.cycles)
    cia2.write(14, 0x19, machine.cpu.cycles)
    machine.run(200, stop_when_idle=False)
    assert machine.memory[0xC100] == 2 and cia2.irq
    machine.press_restore()
    machine.run(200, stop_when_idle=False)
    assert machine.memory[0xC100] == 2  # no edge on a line already low


def test_shift_register_output_interrupts_with_the_sixteenth_underflow():
    """VICE testprogs/CIA/shiftregister (cia-sp-test-oneshot, a 6526): timer A one-shot with
    latch 1, restarted every 37 cycles, SDR written once; the ICR read 4 cycles after each
    restart shows timer A, and with the 16th the serial port and the interrupt bit too."""
    from asm6502.emu.c64.cia import SDR

    cia = CIA("t")
    cia.write(TALO, 1, 0)
    cia.write(TAHI, 0, 4)
    cia.write(ICR, 0x8F, 8)
    cia.write(CRA, 0xD9, W)  # 50 Hz, serial port out, force load, one-shot, start
    cia.write(SDR, 0xA8, W + 6)
    reads = []
    for k in range(16):
        restart = W + 16 + 37 * k
        cia.write(CRA, 0xD9, restart)
        reads.append(cia.read(ICR, restart + 4))
    assert reads[0] == 0x81 and reads[1:15] == [0x01] * 14 and reads[15] == 0x89


# An NMI arriving while the CPU runs the IRQ sequence: before the sequence's fourth cycle it
# takes the sequence over (as with BRK, Lorenz's NMI program), later it comes after the IRQ
# handler's first instruction (VICE testprogs/interrupts/irqnmi, measured on a C64).  Timer
# A of CIA 1 (latch 1) is started in w, timer A of CIA 2 (latch N) in w + 4: the IRQ line in
# w + 5, the sequence from w + 7 (after the NOP ending then); the NMI edge in w + 8 + N.
BOTH = """\
*= $c000
         sei
""" + BELOW_THE_PICTURE + """\
         lda #$35
         sta $01
         lda #<irq
         sta $fffe
         lda #>irq
         sta $ffff
         lda #<nmi
         sta $fffa
         lda #>nmi
         sta $fffb
         lda #0
         sta $d01a
         lda #$ff
         sta $d019
         lda #$7f
         sta $dc0d
         sta $dd0d
         bit $dc0d
         bit $dd0d
         lda #$81
         sta $dc0d
         sta $dd0d
         lda #1
         sta $dc04
         lda #{latch}
         sta $dd04
         lda #0
         sta $dc05
         sta $dd05
         sta $c110
         lda #$ff
         sta $c112
         cli
         lda #$19
         sta $dc0e
         sta $dd0e
         nop
         nop
         nop
         nop
         nop
         nop
done     jmp done
irq      inc $c110
         inc $c110
         inc $c110
         jmp done
nmi      lda $c110
         sta $c112
         bit $dd0d
         rti
"""


@pytest.mark.parametrize("latch, irq_instructions_before", [(1, 0), (2, 0), (3, 1), (4, 1), (5, 1)])
def test_nmi_during_the_irq_sequence(machine, latch, irq_instructions_before):
    from asm6502.asm import assemble

    result = assemble(BOTH.format(latch=latch), "both.asm")
    machine.poke_ram(0xC000, bytes(result.image))
    machine.cpu.pc = 0xC000
    machine.run(CYCLES_PER_FRAME + 2_000, stop_when_idle=False)
    assert machine.memory[0xC112] == irq_instructions_before


# Time and alarm are compared when a count or a write changes one of them: writing the value
# a register already holds compares nothing (VICE testprogs/CIA/tod 4tod and 5tod, measured
# on C64s: a clock stopped at the alarm time and set to it once more gives no second alarm);
# writing 12 to the alarm's hour keeps its AM/PM bit (only the time's flips, as in VICE's
# x64sc).  After the power-up the alarm stands at 0:00:00.0 and the clock at 1:00:00.0, stopped.
TOD_REWRITE = """\
*= $c000
         sei
         lda #$7f
         sta $dd0d
         lda $dd0d
         lda #0
         sta $dd0f
         sta $dd0b
         lda $dd0d
         sta $c100
         lda #0
         sta $dd0b
         sta $dd0a
         sta $dd09
         sta $dd08
         lda $dd0d
         sta $c101
         lda #$00
         sta $dd0b
         lda #1
         sta $dd09
         lda #0
         sta $dd09
         lda $dd0d
         sta $c102
         lda #$80
         sta $dd0f
         lda #$12
         sta $dd0b
         lda #$00
         sta $dd0f
         lda #$12
         sta $dd0b
         lda $dd0b
         sta $c103
         lda $dd08
done     jmp done
"""


def test_tod_rewriting_a_register_with_its_value_compares_nothing(machine):
    from asm6502.asm import assemble

    fresh = CIA("t")  # the clock and alarm of a CIA just powered up
    machine.cia2.tod, machine.cia2.alarm = list(fresh.tod), list(fresh.alarm)
    machine.cia2.tod_running = False
    result = assemble(TOD_REWRITE, "todrewrite.asm")
    machine.poke_ram(0xC000, bytes(result.image))
    machine.cpu.pc = 0xC000
    stop = machine.run(2_000, until_pc=result.symbols["done"], stop_when_idle=False)
    assert stop.reason == "pc", stop
    # 1:00 -> 0:00 matches; the same time again does not; the seconds 0 -> 1 -> 0 match again
    assert [machine.memory[0xC100 + k] & 0x04 for k in range(3)] == [0x04, 0x00, 0x04]
    assert machine.memory[0xC103] == 0x92  # the alarm's 12 did not flip, the time's did


# A read of the ICR in the very clock of an underflow (VICE testprogs/CIA/cia-timer and
# testprogs/interrupts/cia-int, measured on C64s).  Timer B one-shot, latch N, started by
# the STA in cycle w (force-loaded), underflows in w + 2 + N; the LDA reads the ICR in w + 4:
# N = 2 reads it in the clock of the underflow, N = 1 one cycle after, N = 3 one cycle before.
TB_BUG = """\
*= $c000
         sei
         lda #$7f
         sta $dc0d
         bit $dc0d
         lda #$82
         sta $dc0d
         lda #{latch}
         sta $dc06
         lda #0
         sta $dc07
         lda #$19
         sta $dc0f
         lda $dc0d
         sta $c100
         lda $dc0d
         sta $c101
         lda #$7f
         sta $dc0d
         bit $dc0d
done     jmp done
"""


@pytest.mark.parametrize("latch, reads", [
    (3, (0x00, 0x82)),  # before: the next read sees the bit and the interrupt
    (2, (0x00, 0x80)),  # in the clock: timer B's bit is lost, the interrupt comes all the same
    (1, (0x02, 0x00)),  # after: the bit without the interrupt, which the read prevents
])
def test_6526_timer_b_loses_its_bit_to_a_read_in_the_clock_of_its_underflow(machine, latch, reads):
    from asm6502.asm import assemble

    result = assemble(TB_BUG.format(latch=latch), "tbbug.asm")
    machine.poke_ram(0xC000, bytes(result.image))
    machine.cpu.pc = 0xC000
    stop = machine.run(2_000, until_pc=result.symbols["done"], stop_when_idle=False)
    assert stop.reason == "pc", stop
    assert (machine.memory[0xC100], machine.memory[0xC101]) == reads


def test_6526a_timer_b_keeps_its_bit_and_the_read_delays_the_interrupt(machine_6526a):
    from asm6502.asm import assemble

    result = assemble(TB_BUG.format(latch=2), "tbbug.asm")
    machine_6526a.poke_ram(0xC000, bytes(result.image))
    machine_6526a.cpu.pc = 0xC000
    machine_6526a.run(2_000, until_pc=result.symbols["done"], stop_when_idle=False)
    assert (machine_6526a.memory[0xC100], machine_6526a.memory[0xC101]) == (0x00, 0x82)


def _underflow_b(cia: CIA, latch: int = 3) -> int:
    cia.write(TBLO, latch, 0)
    cia.write(TBHI, 0, 4)
    cia.write(ICR, 0x82, 8)
    cia.write(CRB, 0x19, W)  # force load, one-shot, start: the underflow in W + 2 + latch
    return W + 2 + latch


@pytest.mark.parametrize("read_at, irq_at", [(None, 1), (0, 2), (-1, 1)])
def test_6526a_a_read_in_the_clock_of_the_underflow_delays_the_interrupt(read_at, irq_at):
    cia = CIA("t", new_model=True)
    t = _underflow_b(cia)
    if read_at is not None:
        assert cia.read(ICR, t + read_at) == 0
    cia.advance(t + 4)
    assert cia.irq and cia.irq_at == t + irq_at


@pytest.mark.parametrize("new_model, write_at, interrupts", [
    (True, 0, False), (True, 1, True), (False, 0, False), (False, 1, True),
])
def test_clearing_the_mask_in_the_clock_of_the_underflow(new_model, write_at, interrupts):
    # the 6526A decides on its output in the clock of the underflow with the mask written
    # then, the 6526 a clock later with the mask in force from the cycle after the write:
    # on both, clearing the mask in the cycle of the underflow keeps the interrupt away
    cia = CIA("t", new_model=new_model)
    t = _underflow_b(cia)
    cia.write(ICR, 0x02, t + write_at)
    cia.advance(t + 4)
    assert cia.irq == interrupts
