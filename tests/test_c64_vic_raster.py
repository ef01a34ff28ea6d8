"""The VIC-II's raster side, cycle by cycle, without ROM images or test suites: the
bad-line condition after cycle 58 (display state for the next line: line crunch and the
FLD of an FLD scroller that comes a cycle early), a colour register written in mid-line
on a 6569 and on an 8565 (its grey dot), and the light pen's X position by the cycle it
latches in, on both chips.  Frames drawn by vicdraw from logged writes; the light pen on
the VIC alone."""

from __future__ import annotations

import pytest
from test_c64_vic import _frame_rows

from asm6502.emu.c64 import vicdraw, vicframe
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC


# --- the bad-line condition after RC's check (VICE's x64sc, vicii-cycle.c: the condition is
# looked at in every cycle and clears the idle state; Bauer 3.7.2) ---------------------------
# YSCROLL 6: the first text row starts in line $36, lines $33-$35 are idle in the window.  The
# write makes YSCROLL 4 ($34's low bits), one in line $35 puts 6 back.  Character 0's bottom
# pixel row is all set, character 1 (at cell 40) all of it, colour 0 (black); $3FFF, the idle
# state's byte, is 0: idle lines show the background (6).
@pytest.mark.parametrize("writes, line35, line36, why", [
    ([], 6, 6, "no write: line $35 idle, the first row shows cell 0 (character 0's top row: background)"),
    ([(0x34, 59, 0x11, 0x1C)], 0, 0, "YSCROLL 4 written in line $34's cycle 60, seen from 61: the condition "
     "in cycles 61-63 (after the RC check of 58) leaves display state for line $35, which shows the "
     "buffer with RC 7 (character 0's bottom row) and advances VC by 40; RC 7 in its cycle 58 moves "
     "VCBASE on: the first row shows cells 40-79 (line crunch)"),
    ([(0x34, 56, 0x11, 0x1C)], 6, 6, "seen from cycle 58: a bad line from its RC check, RC 0 on line $35"),
    ([(0x34, 62, 0x11, 0x1C)], 6, 6, "written in line $34's last cycle: seen from line $35, whose low bits "
     "are 5: no condition, idle"),
])
def test_the_condition_after_cycle_58_sets_display_state_for_the_next_line(writes, line35, line36, why):
    memory = {0x0400 + 40: 1, 0x2000 + 7: 0xFF}
    memory.update({0x2008 + row: 0xFF for row in range(8)})
    rows = _frame_rows([*writes, (0x35, 20, 0x11, 0x1E)], {0x11: 0x1E, 0x18: 0x18}, memory)
    assert (rows[0x35][32], rows[0x36][32]) == (line35, line36), why


# --- the light pen's X: the raster X counter at the start of the latching cycle, its low three
# bits cleared, / 2, + 2 on a 6569 (VICE's x64sc, vicii-lightpen.c and vicii-chip-model.c;
# VICE testprogs VICII/lp-trigger test2, measured on a C64 with a 6569: the latch in cycle 14
# reads 2) ----------------------------------------------------------------------------------
@pytest.mark.parametrize("model, edge, x, why", [
    ("8565", 12, 0x01, "an 8565 adds 1, not 2: latched in cycle 14, $000 / 2 + 1 (test2new's value)"),
    ("8565", 20, 0x21, "latched in cycle 22 on an 8565: $040 / 2 + 1"),

    ("6569", 12, 0x02, "edge in cycle 13, latched in 14: X counter $1FC wraps to $004, $000 / 2 + 2"),
    ("6569", 11, 0xFA, "latched in cycle 13: X $1F4 -> $1F0, / 2 + 2 = $FA (8 bits)"),
    ("6569", 20, 0x22, "latched in cycle 22: X $044 -> $040"),
    ("6569", -1, 0xCA, "latched in cycle 1: X $194 -> $190"),
    ("6569", 61, 0xC6, "latched in cycle 63: X $18C -> $188"),
])
def test_the_light_pen_x_by_the_cycle_it_latches_in(model, edge, x, why):
    vic = VIC(model)
    line = 100
    vic.light_pen(True, line * 63 + edge)
    assert vic.read(0x13, line * 63 + 70) == x, why
    assert vic.read(0x14, line * 63 + 70) == line


def test_the_light_pen_retriggered_at_a_frames_start_reads_d1():
    vic = VIC()
    vic.light_pen(True, 100 * 63 + 20)
    assert (vic.read(0x13, CYCLES_PER_FRAME + 100), vic.read(0x14, CYCLES_PER_FRAME + 100)) == (0xD1, 0)


def test_a_vic_model_is_one_of_the_pal_chips():
    with pytest.raises(ValueError, match="6569 or 8565"):
        VIC("6567")


# --- a colour register written in mid-line (VICE's x64sc, vicii-draw-cycle.c; VICE testprogs
# VICII/greydot): from the column after the one the write's cycle reaches; that column keeps the
# old colour on a 6569, and is light grey on an 8565 where the written register colours it ----
def _line_100(model: str, reg: int, value: int) -> bytearray:
    """Line 100 of a frame (background 6, border 14, idle text of zeros: background) with
    *reg* written in its cycle 31 (0-based 30: column 144)."""
    start = [0] * 0x41
    start[0x20], start[0x21], start[0x11], start[0x16], start[0x40] = 14, 6, 0x1B, 0x08, 3
    log = vicframe.FrameLog(0, start, True)
    log.writes = [(100 * 63 + 30, reg, value)]
    drawer = vicdraw.LineDrawer(log, lambda addr: 0, [0] * 1024, model)
    for _line in range(100):
        drawer.step()
        drawer.finish_line()
    drawer.step()
    return vicdraw.draw_line(drawer, 1 << 62)


@pytest.mark.parametrize("model, reg, want, why", [
    ("6569", 0x21, [6, 6, 2, 2], "6569: the background from column 145; 144 keeps the old colour"),
    ("8565", 0x21, [6, 15, 2, 2], "8565: column 144 is the grey dot (the background register colours it)"),
    ("8565", 0x20, [6, 6, 6, 6], "8565: a border colour written where the background shows: no dot"),
    ("6569", 0x20, [6, 6, 6, 6], "6569: nor a change"),
])
def test_a_colour_written_in_mid_line(model, reg, want, why):
    row = _line_100(model, reg, 2)
    assert list(row[143:147]) == want, why
    assert row[0] == 14 and row[-1] == (2 if reg == 0x20 else 14), "the border: old on the left, new on the right"


# --- a frame's first cycle: the raster counter still reads 311, the light pen's latch is freed
# (and a pen held low retriggers) in its second (VICE's x64sc, vicii-cycle.c; VICE testprogs
# VICII/split-tests/lightpen, its dumps taken on C64s) ---------------------------------------
@pytest.mark.parametrize("cycle, d011_bit7, d012", [
    (CYCLES_PER_FRAME - 1, 0x80, 0x37),
    (CYCLES_PER_FRAME, 0x80, 0x37),
    (CYCLES_PER_FRAME + 1, 0x00, 0x00),
    (CYCLES_PER_FRAME + 63, 0x00, 0x01),
])
def test_the_raster_counter_reads_311_in_line_0s_first_cycle(cycle, d011_bit7, d012):
    vic = VIC()
    assert (vic.read(0x11, cycle) & 0x80, vic.read(0x12, cycle)) == (d011_bit7, d012)


@pytest.mark.parametrize("edge, held_until, x, y, why", [
    (CYCLES_PER_FRAME - 2, CYCLES_PER_FRAME + 10, 0xD1, 0, "latched in line 311's last cycle: kept low, it "
     "retriggers in cycle 2 of line 0"),
    (CYCLES_PER_FRAME - 1, CYCLES_PER_FRAME + 10, 0xD1, 0, "latched in line 0's cycle 1 (line 311 as the "
     "counter reads), then retriggered in cycle 2"),
    (CYCLES_PER_FRAME - 1, CYCLES_PER_FRAME, 0xC9, 0x37, "released in cycle 1 (the VIC sees it in cycle 2): "
     "no retrigger, the latch of cycle 1 stays, line 311 (8 bits $37), X $190 / 2 + 1"),
    (CYCLES_PER_FRAME - 1, CYCLES_PER_FRAME + 1, 0xD1, 0, "released in cycle 2: too late, it retriggers"),
    (CYCLES_PER_FRAME, CYCLES_PER_FRAME + 10, 0xD1, 0, "the edge in cycle 1: latched in cycle 2, where the "
     "retrigger comes first"),
    (CYCLES_PER_FRAME + 1, CYCLES_PER_FRAME + 10, 0xD1, 0, "the edge in cycle 2 is after the retrigger: "
     "latched in cycle 3, X $1A0 / 2 + 1 = $D1 too"),
    (CYCLES_PER_FRAME + 2, CYCLES_PER_FRAME + 10, 0xD5, 0, "latched in cycle 4: X $1A8 / 2 + 1"),
])
def test_the_light_pen_at_a_frames_start(edge, held_until, x, y, why):
    vic = VIC("8565")
    vic.light_pen(True, edge)
    vic.light_pen(False, held_until)
    at = CYCLES_PER_FRAME + 20
    assert (vic.read(0x13, at), vic.read(0x14, at)) == (x, y), why


# --- the raster compare in every cycle: a mismatch turning into a match raises the flag
# (VICE's x64sc, vicii-cycle.c; VICE testprogs VICII/rasterirq/rasterirq_hold) --------------
@pytest.mark.parametrize("old, cycle, new, raised, why", [
    (0x50, 0x50 * 63 + 30, 0x50 + 0x10, False, "a compare away from the line: no match"),
    (0x70, 0x50 * 63 + 30, 0x50, True, "changed to the line being drawn: it matches from the next cycle"),
    (0x50, 0x50 * 63 + 62, 0x51, False, "moved on with the raster in the line's last cycle: it matched in "
     "line $50 and matches in line $51, with no mismatch between: it holds"),
    (0x70, 0x50 * 63 + 62, 0x51, True, "written in the last cycle from a compare that did not match: line $51 "
     "matches at its start"),
    (0x50, 0x50 * 63 + 61, 0x51, True, "a cycle earlier: line $50's last cycle mismatches, $51 matches"),
])
def test_the_raster_compare_changed_in_mid_line(old, cycle, new, raised, why):
    vic = VIC()
    vic.write(0x12, old, cycle - 200 if old != 0x50 else 0x50 * 63 - 100)
    vic.write(0x19, 0x0F, cycle - 1)  # (the flag of a match so far acknowledged)
    vic.write(0x12, new, cycle)
    assert bool(vic.read(0x19, 0x51 * 63 + 40) & 0x01) == raised, why
