"""The frame a PAL VIC-II draws, as the drawing modules share it: its raster timing, the
beam positions of a line's pixels, and the log of the registers the frame was drawn under
(``FrameLog``)."""

from __future__ import annotations

from collections.abc import Callable

# the chips drawn: the PAL 6569 and the 8565 of the C64C (VICE's x64sc, vicii-chip-model.c:
# the 6569 has a colour latency, the 8565 the grey dot; vicii-draw-cycle.c)
MODELS = ("6569", "8565")
# a PAL frame: 312 raster lines of 63 cycles (Bauer 3.6.3)
LINES = 312
CYCLES_PER_LINE = 63
X_OF_CYCLE0 = -12 * 8  # picture column of the start of a line's cycle 1 (0-based cycle 0)
# A line's pixels in the order the beam draws them: beam position b = picture column + 96 is
# drawn in the line's cycle b // 8 (0-based), and a read of a collision register sees a pixel
# from the cycle after (VICE's testprogs VICII/spritecollisions *-collision-cycle, against
# x64sc).  A sprite starts where the raster X counter matches its X (Bauer 3.8.1, rule 6):
# the 6569's counter runs through 504 values, $194 in cycle 1 up to $1F7, then $000 up to
# $193 (the light pen positions of vic.py), so a sprite with X $1F8-$1FF is never shown
# and one at X $194-$1F7 is left of X 0: at the left edge of the picture (X $1F0 is column
# 0) or in the horizontal blank.  Its first pixel is at beam position 4 + its X counter
# cycle's place: X + 104 for X $000-$193.
BEAM_OF_COLUMN0 = -X_OF_CYCLE0
X_POSITIONS = 504
X_AT_CYCLE1 = 0x194
# the logged registers' slot for the byte on the data bus while a $D011 write's bad line takes
# it: the c-accesses of the three cycles after BA went low, while the CPU still has the bus,
# read $FF and take this byte's low nibble as the colour (VICE's x64sc, vicii-fetch.c: the RAM
# byte at the CPU's PC, the opcode it waits to fetch; VICE testprogs VICII/flibug)
BUS_REG = 0x41

Fetch = Callable[[int], int]


class FrameLog:
    """The registers of one frame: their values at its start (``start``, 0x40 VIC
    registers, the bank at index 0x40, the bus byte at ``BUS_REG``) and the writes during
    it, (cycle, reg, value) in order; ``bus``: by cycle, for the CPU's reads and writes of a
    VIC register in ``SPRITE_BUS_CYCLES``, (the byte, the byte at $3FFF of the VIC's bank
    then)."""

    __slots__ = ("cycle", "start", "writes", "bus", "den", "border", "prior", "matrix", "spill")

    def __init__(self, cycle: int, regs: list[int], den: bool,
                 border: tuple[bool, bool, bool] = (True, True, True)):
        self.cycle = cycle  # the frame's first cycle
        self.start = list(regs) + [0] * (BUS_REG + 1 - len(regs))  # (a short list: no bus byte)
        self.writes: list[tuple[int, int, int]] = []
        self.bus: dict[int, tuple[int, int]] = {}
        self.den = den  # DEN was set in line $30 (a frame in progress: as far as known)
        self.border = border  # the border flip-flops at its start (``LineDrawer.border_state``)
        # the frame before (its own ``prior`` dropped), whose last c-accesses leave the video
        # matrix buffer as this frame finds it (``matrix_at_end``, found once when needed)
        self.prior: FrameLog | None = None
        self.matrix: tuple[list[int], list[int]] | None = None  # this frame's buffer at its end
        # the sprites' pixels the frame before's line 311 draws past its end, into this frame's
        # line 0 (``LineDrawer.spill_past``), as the collision walk found them
        self.spill: list[tuple[int, int]] = []
