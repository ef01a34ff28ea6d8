"""The VIC-II 6569's raster side, cycle by cycle, without ROM images or test suites: the
bad-line condition after cycle 58 (display state for the next line: line crunch and the
FLD of an FLD scroller that comes a cycle early) and the light pen's X position by the
cycle it latches in.  Frames drawn by vicdraw from logged writes (test_c64_vic.py's
``_frame_rows``); the light pen on the VIC alone."""

from __future__ import annotations

import pytest
from test_c64_vic import _frame_rows

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
@pytest.mark.parametrize("edge, x, why", [
    (12, 0x02, "edge in cycle 13, latched in 14: X counter $1FC wraps to $004, $000 / 2 + 2"),
    (11, 0xFA, "latched in cycle 13: X $1F4 -> $1F0, / 2 + 2 = $FA (8 bits)"),
    (20, 0x22, "latched in cycle 22: X $044 -> $040"),
    (-1, 0xCA, "latched in cycle 1: X $194 -> $190"),
    (61, 0xC6, "latched in cycle 63: X $18C -> $188"),
])
def test_the_light_pen_x_by_the_cycle_it_latches_in(edge, x, why):
    vic = VIC()
    line = 100
    vic.light_pen(True, line * 63 + edge)
    assert vic.read(0x13, line * 63 + 70) == x, why
    assert vic.read(0x14, line * 63 + 70) == line


def test_the_light_pen_retriggered_at_a_frames_start_reads_d1():
    vic = VIC()
    vic.light_pen(True, 100 * 63 + 20)
    assert (vic.read(0x13, CYCLES_PER_FRAME + 100), vic.read(0x14, CYCLES_PER_FRAME + 100)) == (0xD1, 0)
