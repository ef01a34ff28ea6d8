"""What the VIC-II 6569 draws, raster line by raster line (Christian Bauer, "The MOS
6567/6569 video controller (VIC-II) and its application in the Commodore 64", 1996:
sections 3.7 display generation, 3.8 sprites, 3.9 the border, 3.10 display modes).

A ``LineDrawer`` walks a frame's raster lines in order from the registers in force
at its start and the register writes logged during it (``FrameLog``), keeping the
chip's own counters: VC, VCBASE and RC, the display/idle state (the bad-line condition,
looked at in every cycle of a line whose $D011 changes, starts a text row -- in mid-line
too: DMA delay), the 40-cell video matrix buffer the c-accesses fill, the border
flip-flops (carried from frame to frame: ``FrameLog.border``), the sprite sequencer (DMA,
MCBASE, MC and the expansion flip-flop per sprite, at their cycles).  Each line gives its graphics' foreground
pixels and the sprites' pixels as bit masks (bit x = screen column x of the 384 of a
picture), from which the VIC sets its collision registers, and on demand the line's
colours: background graphics in the five valid modes (the invalid ones show black),
idle-state graphics from $3FFF ($39FF with ECM), sprites (hires, multicolour, X and Y
expansion, priority to the foreground), the border on top.

Within a line: a colour register written in mid-line changes the colour from the column its
cycle reaches, as the chip model draws it (``MODELS``: the 6569's colour latency, the 8565's
grey dot); a sprite whose X position, multicolour or X expansion bit is written during the
line is shifted out pixel by pixel (``sprite_run``), the others drawn whole.

Memory is read as the VIC reads it (``Fetch``: a 16-bit address, the bank included, the
character ROM at $1000-$1FFF of banks 0 and 2), and given the CPU's writes to it (``timed``,
a ``vicmem.VicMemory``) as it was in the cycle of each fetch: a c-access (the matrix byte
and its colour RAM nibble) in cycle 14 + cell of its line, a g-access in 15 + column, sprite
n's pointer in 57 + 2n and its three bytes in that cycle and the next (0-based; Bauer
3.6.3).  Without them, memory as it is when the line is drawn.

Geometry of a PAL picture (VICE's x64sc screenshots, 384 x 272): picture row y is
raster line y + 16, so the text window of 25 rows (lines 51-250) starts at row 35;
picture column x is sprite X coordinate x - 8, so the 40-column window (X 24-343)
starts at column 32.  Raster cycle k of a line (1-63, Bauer's numbering) draws picture
columns 8 * (k - 13) to 8 * (k - 13) + 7.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from asm6502.emu.c64.vicmem import COLOUR, VicMemory

WIDTH, HEIGHT = 384, 272
FIRST_LINE = 16  # the raster line of the picture's top row
LINES = 312
CYCLES_PER_LINE = 63
FIRST_BAD, LAST_BAD = 0x30, 0xF7  # bad lines occur in lines $30-$F7 (Bauer 3.5)
DEN_LINE = 0x30  # DEN must be set in some cycle of line $30 for a frame to have bad lines
COUNTER_CYCLE = 13  # cycle 14 (0-based 13): VC is loaded, a bad line resets RC (Bauer 3.7.2)
BA_FIRST = 11  # cycle 12: from here the bad-line condition pulls BA low (Bauer 3.6.3)
C_FIRST = 14  # cycles 15-54: the c-accesses
G_FIRST = 15  # cycles 16-55: the g-accesses
RC_CYCLE = 57  # cycle 58: RC is checked
# the sprite sequencer's cycles (0-based; VICE's x64sc, vicii-chip-model.c, PAL)
CRUNCH_CYCLE = 14  # cycle 15: a $D017 bit cleared now crunches MC
MCBASE_CYCLE = 15  # cycle 16: MCBASE advances
DMA_CYCLES = (54, 55)  # cycles 55 and 56: DMA turned on; in 56 the expansion flip-flop toggles
DISPLAY_CYCLE = 57  # cycle 58: MC from MCBASE, the display flag
# the cycle (0-based) BA goes low for sprite n's fetch, three before its first s-access: sprite
# 0's p-access is in cycle 58, its s-accesses in 58 (second half) and 59 (Bauer 3.6.3)
SPRITE_FIRST_BA = tuple(54 + 2 * n for n in range(8))
# sprite n's two access cycles from its line's start: the p-access and the first s-access (in
# the second half, phi 2) in the first; the second s-access (phi 1) and the third (phi 2) in
# the next (Bauer 3.6.3)
SPRITE_ACCESS = tuple(first + 3 for first in SPRITE_FIRST_BA)
# the cycles of a line (0-based) with a sprite's phi-2 s-access: the VIC logs the byte of a CPU
# access to one of its registers made in them (``FrameLog.bus``), which such an s-access reads
# while the CPU has the bus
SPRITE_BUS_CYCLES = frozenset((a + k) % CYCLES_PER_LINE for a in SPRITE_ACCESS for k in (0, 1))
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
# a sprite priority ($D01B) written in mid-line shows 6 pixels later than a colour written
# in the same cycle (measured by VICE's testprogs VICII/spritesplit ss-pri*, against x64sc)
PRIORITY_DELAY = 6
# the border's edges in picture columns / raster lines (Bauer 3.9: X 24/31 and 344/335,
# Y 51/55 and 251/247)
LEFT = {True: 32, False: 39}  # by CSEL ($D016 bit 3)
RIGHT = {True: 352, False: 343}
LEFT_CYCLE = 16  # (0-based) the cycle the left edge is reached in, either width
RIGHT_CYCLE = {True: 56, False: 55}  # ... the right edge: X 344 (40 columns), X 335 (38)
TOP = {True: 51, False: 55}  # by RSEL ($D011 bit 3)
BOTTOM = {True: 251, False: 247}
FULL = (1 << WIDTH) - 1

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


def bad_line(line: int, d011: int, den: bool) -> bool:
    """The bad-line condition (Bauer 3.5): lines $30-$F7, YSCROLL = the line's low 3 bits,
    DEN set in line $30 of the frame."""
    return den and FIRST_BAD <= line <= LAST_BAD and (line & 7) == (d011 & 7)


class SpriteBus:
    """The sprite sequencer as the bus sees it while the machine runs (``sprite_line``, line
    by line from cycle 0): its state at the start of the absolute line ``line``, the writes
    of that line so far, and from them the sprites fetched at the end of each line from it on
    (``fetched``: the sprites whose DMA is on, enabled or not -- a sprite disabled in
    mid-display is fetched until MCBASE reaches 63).  Each call is given the VIC's registers
    as they are (``write`` is told of each write to ``SPRITE_DMA_REGS`` before they take it).
    The lines ahead are found once until the next write: with the registers fixed, the state
    at a frame's start repeats from the second frame on, and the lines' fetches with it."""

    def __init__(self, regs: list[int]):
        self.line = 0
        self.start_regs = list(regs)  # at the start of ``line``
        self.events: list[tuple[int, int, int]] = []  # the line's writes: (cycle in it, reg, value)
        self.state: list[Any] = [0, 0, [0] * 8, [0] * 8, [True] * 8]  # DMA, display, MCBASE, MC, flip-flops
        self.finished: dict[int, int] = {}  # the fetches of the last lines before ``line``
        self._ahead()

    def _ahead(self) -> None:
        self.future: list[int] = []  # the fetches of line ``line`` + i
        self.f_state = _copy(self.state)
        self.f_frames: dict[tuple, int] = {}  # a frame start's state -> its index in ``future``
        self.period = -1  # from this index on ``future`` repeats every LINES lines

    @staticmethod
    def _step(state: list[Any], regs: list[int], events: list[tuple[int, int, int]], line: int) -> int:
        """One line of *state* (a list, updated); the sprites fetched at its end."""
        dma, shown, mcbase, mc, exp = state
        low = line & 0xFF
        if not dma and not events and not any(regs[0x15] >> n & 1 and regs[1 + 2 * n] == low for n in range(8)):
            state[1] = 0
            return 0
        state[0], state[1], _late = sprite_line(dma, shown, mcbase, mc, exp, regs, events, line)
        return state[0]

    def _extend(self, regs: list[int]) -> None:
        at = self.line + len(self.future)
        state = self.f_state
        if not self.future:
            state = _copy(state)
            self.future.append(self._step(state, self.start_regs, self.events, at % LINES))
            self.f_state = state
            return
        if at % LINES == 0:
            key = _key(state)
            if self.f_frames.get(key) == len(self.future) - LINES or len(self.f_frames) >= 4:
                self.period = len(self.future) - LINES
                return
            self.f_frames[key] = len(self.future)
        state = _copy(state)
        self.future.append(self._step(state, regs, [], at % LINES))
        self.f_state = state

    def fetched(self, absolute_line: int, regs: list[int]) -> int:
        """The sprites fetched at the end of *absolute_line* (no earlier than the line before
        ``line``), as far as the writes so far tell."""
        i = absolute_line - self.line
        if i < 0:
            return self.finished.get(absolute_line, 0)
        future = self.future
        while self.period < 0 and len(future) <= i:
            self._extend(regs)
        if self.period >= 0 and i >= len(future):
            i = self.period + (i - self.period) % LINES
        return future[i]

    def next_fetch(self, absolute_line: int, regs: list[int]) -> int:
        """The first line at or after *absolute_line* (within a frame's lines) at whose end a
        sprite is fetched, or -1."""
        future, finished = self.future, self.finished
        for a in range(absolute_line, absolute_line + LINES):
            i = a - self.line
            if i < 0:
                if finished.get(a):
                    return a
                continue
            while self.period < 0 and len(future) <= i:
                if future and not self.f_state[0] and not regs[0x15]:
                    return -1  # (no DMA on, none enabled: none from here on)
                self._extend(regs)
            if self.period >= 0 and i >= len(future):
                i = self.period + (i - self.period) % LINES
            if future[i]:
                return a
        return -1

    def write(self, cycle: int, reg: int, value: int, regs: list[int]) -> None:
        """A write to one of ``SPRITE_DMA_REGS`` in *cycle*, *regs* not yet changed by it."""
        line, k = divmod(cycle, CYCLES_PER_LINE)
        if line > self.line:
            self._advance(line, regs)
        self.events.append((k, reg, value))
        self._ahead()

    def _advance(self, line: int, regs: list[int]) -> None:
        """Move the state to the start of *line* (a later one): the line's writes, then the
        lines between with the registers as they are (whole frames skipped once they repeat)."""
        state = self.state
        self.finished = {self.line: self._step(state, self.start_regs, self.events, self.line % LINES)}
        at = self.line + 1
        frames: dict[tuple, int] = {}
        while at < line:
            if at % LINES == 0:
                key = _key(state)
                if frames.get(key) == at - LINES:  # (from here every frame starts so)
                    at += (line - 1 - at) // LINES * LINES
                frames[key] = at
            fetched = self._step(state, regs, [], at % LINES)
            if at == line - 1:
                self.finished = {at: fetched}
            at += 1
        self.line = line
        self.start_regs = list(regs)
        self.events = []


def _copy(state: list[Any]) -> list[Any]:
    return [state[0], state[1], list(state[2]), list(state[3]), list(state[4])]


def _key(state: list[Any]) -> tuple:
    return state[0], state[1], tuple(state[2]), tuple(state[3]), tuple(state[4])


def sprite_beam(n: int, x: int) -> tuple[int, int] | None:
    """(the beam position of the first pixel of sprite *n* at X coordinate *x* (0-$1FF), how
    many of its pixels it shows), or None where the 6569 shows nothing of it.  A sprite with
    X $1F8-$1FF never matches the X counter.  Around sprite n's data fetch its output stops
    at X $163 + 16 n: a sprite matched in the 12 positions from there shows nothing, one
    matched before shows its pixel of X $162 + 16 n once more at $163 + 16 n and nothing
    after (VICE's testprogs VICII/split-tests/spritescan, its reference dumped from a C64
    with a 6569: sprite 0's first pixel collides at X up to $162, at $163 too when it was at
    $162, and again from $16F on; its last pixel at X up to $162; 16 positions later for each
    sprite number).  The pixels shown count that last one."""
    if x >= X_POSITIONS:
        return None
    place = (x - X_AT_CYCLE1) % X_POSITIONS
    cut = (0x163 + 16 * n - X_AT_CYCLE1) % X_POSITIONS
    if (place - cut) % X_POSITIONS < 12:
        return None
    return place + 4, min((cut - place) % X_POSITIONS + 1, 49)


def _byte_masks(multicolour: bool, expand: bool) -> tuple[int, ...]:
    """For each data byte, its non-transparent pixels as a mask (bit 0 the leftmost pixel):
    hires 1 bits, multicolour pairs other than 00 (Bauer 3.8.1), X expansion doubling each
    pixel."""
    out = []
    for byte in range(256):
        m = 0
        for i in range(8):
            bit = byte >> (7 - i) & 1
            if multicolour:
                bit = bool(byte >> (6 - (i & 6)) & 3)
            if bit:
                m |= (3 << 2 * i) if expand else (1 << i)
        out.append(m)
    return tuple(out)


# by multicolour * 2 + X expansion: the masks of a byte and the width of its pixels
_SPRITE_MASKS = tuple((_byte_masks(mc, xe), 16 if xe else 8) for mc in (False, True) for xe in (False, True))


def sprite_mask(data: int, multicolour: bool, expand: bool) -> int:
    """The non-transparent pixels of a sprite line of 24 bits as a mask, bit 0 its first pixel."""
    table, width = _SPRITE_MASKS[multicolour * 2 + expand]
    return table[data >> 16] | table[data >> 8 & 0xFF] << width | table[data & 0xFF] << 2 * width


def _held(mask: int, keep: int) -> int:
    """A sprite line's mask with *keep* pixels shown, the last a repeat of the one before
    (``sprite_beam``); 49: all."""
    if keep > 48:
        return mask
    mask &= (1 << (keep - 1)) - 1
    return mask | (mask >> (keep - 2) & 1) << (keep - 1) if keep >= 2 else mask


def _sprite_pixels(data: int, multicolour: bool, expand: bool) -> list[tuple[int, int]]:
    """(offset, colour source) for each visible pixel of a sprite line of 24 bits:
    source 1 = $D025, 2 = the sprite's colour, 3 = $D026 (hires: 2)."""
    out: list[tuple[int, int]] = []
    if multicolour:
        for i in range(12):
            pair = (data >> (22 - 2 * i)) & 3
            if pair:
                src = (0, 1, 2, 3)[pair]
                w = 4 if expand else 2
                out.extend((i * w + k, src) for k in range(w))
    else:
        w = 2 if expand else 1
        for i in range(24):
            if data >> (23 - i) & 1:
                out.extend((i * w + k, 2) for k in range(w))
    return out


# a sprite the line shows: (number, first beam position, pixels shown, data, multicolour, X
# expansion, its pixels as ``sprite_run`` found them or None: drawn from the others)
ShownSprite = tuple[int, int, int, int, bool, bool, list[tuple[int, int]] | None]
# the registers a sprite's shifting depends on: written in mid-line, its pixels are found pixel
# by pixel (``sprite_run``); the cycles after a line's start its last pixel can be drawn in
SPRITE_SHIFT_REGS = frozenset((*range(0, 0x10, 2), 0x10, 0x1C, 0x1D))
SPRITE_LINE_CYCLES = 70
# the chips drawn: the PAL 6569 and the 8565 of the C64C (VICE's x64sc, vicii-chip-model.c:
# the 6569 has a colour latency, the 8565 the grey dot; vicii-draw-cycle.c)
MODELS = ("6569", "8565")
# in its cycle group of 8 beam positions, the pixel from which a sprite register written in
# the cycle counts (VICE's x64sc, vicii-draw-cycle.c, draw_sprites8): X expansion and
# priority from pixel 6, multicolour from 6 on an 8565 and 7 on a 6569; the X position the
# comparator matches is taken at the end of the cycle (from the next group on)
EXPX_PIXEL = 6
MC_PIXEL = {"6569": 7, "8565": 6}


# A sprite matched in the line's last cycles, X $164-$193 (places 456-503, from pixel 4 of cycle
# 58 on), is matched after cycle 58 has set the display flags: it shows on the line its DMA
# begins, and stops on the line the DMA ends ("first shown on the same line": VICE testprogs
# VICII/sb_sprite_fetch readme; x64sc, vicii-draw-cycle.c: the pending sprites are the display
# flags from pixel 4 of that cycle on).  Sprite 0-2's data register is loaded at its fetch
# (``sprite_beam``'s cut), so one matched after that shows the data fetched on this line.
LATE_X = 0x164
LATE_BEAM = (LATE_X - X_AT_CYCLE1) % X_POSITIONS + 4


def reload_beam(n: int) -> int:
    """The first beam position from which sprite *n* shows the data of its next fetch, 12
    positions after its cut (``sprite_beam``): for sprites 0-2 at the line's end, the data
    fetched there; for 4-7 in the line's first cycles, the data fetched at the end of the line
    before; NO_CUT for sprite 3, whose cut is the line's last position."""
    return NO_CUT if n == 3 else (0x163 + 16 * n - X_AT_CYCLE1) % X_POSITIONS + 12 + 4


def _data_at(n: int, beam: int, prev: int, data: int, fetched: int) -> int:
    """The data sprite *n* matched at *beam* shifts out: for sprites 4-7 matched before their
    cut in the line's first cycles, that of the fetch before (*prev*: the register not loaded
    yet); for 0-2 matched after their fetch at the line's end, the data just *fetched*; else
    *data* (fetched at the end of the line before)."""
    if n >= 4 and beam < reload_beam(n) - 12:
        return prev
    if n < 3 and beam >= reload_beam(n):
        return fetched
    return data


def sprite_run(n: int, data: int, regs: list[int], events: list[tuple[int, int, int]],
               model: str, later: tuple[bool, bool, int, int] | None = None) -> tuple[int, list[tuple[int, int]]] | None:
    """Sprite *n*'s line pixel by pixel, where the line writes its X position, multicolour or
    X expansion bit (*events*: (cycle from the line's start, register, value), *regs* as the
    line starts): (first beam position, (offset from it, colour source) of each pixel set), or
    None where it shows nothing.  *later*: (shown before cycle 58, shown after it -- ``LATE_X``,
    the data of the fetch before *data*, the data fetched at the line's end: ``_data_at``).  The sequencer as VICE's
    x64sc models the chip (vicii-draw-cycle.c, draw_sprites): when the X counter matches a
    sprite shown and not active, the sprite's shift register starts with its expansion and
    multicolour flip-flops set; in each pixel, the
    expansion flip-flop set, a hires sprite takes one bit (source 2), a multicolour one, its
    flip-flop set, two (source 1-3) and toggles the flip-flop; the register shifts while the
    expansion flip-flop is set, which toggles with X expansion on and stays set without.  A
    multicolour bit switched resets the multicolour flip-flop on a 6569 and toggles it, the
    expansion flip-flop clear, on an 8565.  The sprite stops when its register and the pixel
    held are empty, and at its DMA as ``sprite_beam`` says; it stays active until then, and a
    sprite 0-2 moved to an X after its fetch is matched again there, with the data just
    fetched (VICE testprogs VICII/spritex testsuite, the 9-sprites trick of Krestage 3: the
    reference measured on a C64)."""
    bit = 1 << n
    x = regs[2 * n] | (0x100 if regs[0x10] & bit else 0)
    mc, xe = bool(regs[0x1C] & bit), bool(regs[0x1D] & bit)
    segments = [(0, x)]  # (first beam position, the X the comparator matches from there)
    latches = []  # (beam position, register, value) of the mode bits
    for k, reg, value in events:
        if reg == 0x1C or reg == 0x1D:
            latches.append((8 * k + (MC_PIXEL[model] if reg == 0x1C else EXPX_PIXEL), reg, value))
            continue
        if reg == 2 * n:
            x = value | (x & 0x100)
        elif reg == 0x10:
            x = (x & 0xFF) | (0x100 if value & bit else 0)
        segments.append((8 * (k + 1), x))
    shown_before, shown_after, prev, fetched = later if later is not None else (True, False, data, data)
    reload = reload_beam(n)

    def match(after: int) -> int | None:
        for s, (first, value) in enumerate(segments):
            end = segments[s + 1][0] if s + 1 < len(segments) else NO_CUT
            found = sprite_beam(n, value)
            if found is not None and max(first, after) <= found[0] < end:
                if shown_after if found[0] >= LATE_BEAM else shown_before:
                    return found[0]
        return None

    at = match(0)
    if at is None:
        return None
    cut = (0x163 + 16 * n - X_AT_CYCLE1) % X_POSITIONS + 4  # (``sprite_beam``: its last pixel, held)
    li = 0
    out: list[tuple[int, int]] = []
    start = at
    while True:
        shift = _data_at(n, at, prev, data, fetched)
        if at > cut:
            cut = NO_CUT
        while li < len(latches) and latches[li][0] <= at:
            _b, reg, value = latches[li]
            if reg == 0x1C:
                mc = bool(value & bit)
            else:
                xe = bool(value & bit)
            li += 1
        pixel, exp_flop, mc_flop = 0, True, True
        b = at
        while shift or pixel:
            while li < len(latches) and latches[li][0] <= b:
                _b, reg, value = latches[li]
                if reg == 0x1C:
                    now = bool(value & bit)
                    if now != mc:
                        if model == "6569":
                            mc_flop = False
                        elif not exp_flop:
                            mc_flop = not mc_flop
                    mc = now
                else:
                    xe = bool(value & bit)
                li += 1
            if b >= cut:
                if pixel:
                    out.append((b - start, pixel))
                break
            if exp_flop:
                if mc:
                    if mc_flop:
                        pixel = shift >> 22 & 3
                    mc_flop = not mc_flop
                else:
                    pixel = (shift >> 23 & 1) << 1
                shift = shift << 1 & 0xFFFFFF
            exp_flop = not exp_flop if xe else True
            if pixel:
                out.append((b - start, pixel))
            b += 1
        if cut == NO_CUT or reload == NO_CUT or b >= reload:
            break
        again = match(reload)  # (active until its fetch: matched again after it)
        if again is None:
            break
        at = again
    return (start, out) if out else None


NO_CUT = 1 << 30


def _run_mask(run: list[tuple[int, int]]) -> int:
    m = 0
    for off, _src in run:
        m |= 1 << off
    return m


def sprite_line(dma: int, shown: int, mcbase: list[int], mc: list[int], exp: list[bool], regs: list[int],
                events: list[tuple[int, int, int]], line: int) -> tuple[int, int, int]:
    """The sprite sequencer through one line (Bauer 3.8.1; VICE's x64sc, vicii-cycle.c and the
    $D017 store of vicii-mem.c): from the DMA flags *dma*, the display flags *shown*, MCBASE,
    MC and the Y expansion flip-flops (updated in place), the registers as the line starts and
    its writes to $D015, $D017 and the Y positions (*events*: (cycle from the line's start,
    register, value)), each seen from the cycle after its own: a $D017 bit cleared sets the
    flip-flop, and if it was reset in cycle 15, MC becomes (%101010 & (MCBASE & MC)) |
    (%010101 & (MCBASE | MC)) (sprite crunch); cycle 16: MCBASE = MC where the flip-flop is
    set, DMA off at 63; cycles 55 and 56: DMA on (MCBASE 0, flip-flop set) for an enabled
    sprite whose Y is the line's low byte; cycle 56: the flip-flop toggles where Y expansion
    is on; cycle 58: MC = MCBASE, the sprite shown on the next line while its DMA is on
    (turned on where Y matches, off without DMA); the fetches then advance MC by 3.  Returns
    (DMA, display, late): the sprites fetched at the line's end, those shown on the next line,
    those whose DMA went on in cycle 56 (not 55)."""
    y_regs = [regs[1 + 2 * n] for n in range(8)]
    enabled, y_exp = regs[0x15], regs[0x17]
    ev = 0

    def writes_until(k: int) -> None:  # the CPU's writes of the cycles before VIC cycle k
        nonlocal ev, enabled, y_exp
        while ev < len(events) and events[ev][0] < k:
            kc, reg, value = events[ev]
            if reg == 0x17:
                for n in range(8):
                    if not value >> n & 1 and not exp[n]:
                        if kc == CRUNCH_CYCLE:
                            mc[n] = (0x2A & (mcbase[n] & mc[n])) | (0x15 & (mcbase[n] | mc[n]))
                        exp[n] = True
                y_exp = value
            elif reg == 0x15:
                enabled = value
            else:
                y_regs[(reg - 1) >> 1] = value
            ev += 1

    writes_until(MCBASE_CYCLE)
    for n in range(8):
        if dma >> n & 1 and exp[n]:
            mcbase[n] = mc[n]
            if mcbase[n] == 63:
                dma &= ~(1 << n)
    low = line & 0xFF
    late = 0
    for k in DMA_CYCLES:
        writes_until(k)
        for n in range(8):
            bit = 1 << n
            if enabled & bit and y_regs[n] == low and not dma & bit:
                dma |= bit
                mcbase[n] = 0
                exp[n] = True
                if k == DMA_CYCLES[1]:
                    late |= bit
        if k == DMA_CYCLES[1]:
            for n in range(8):
                if dma >> n & 1 and y_exp >> n & 1:
                    exp[n] = not exp[n]
    writes_until(DISPLAY_CYCLE)
    for n in range(8):
        bit = 1 << n
        mc[n] = mcbase[n]
        if dma & bit:
            if enabled & bit and y_regs[n] == low:
                shown |= bit
            mc[n] = (mc[n] + 3) & 63
        else:
            shown &= ~bit
    return dma, shown, late


class LineDrawer:
    """Walks the raster lines of one frame (``step``), keeping the VIC's counters."""

    def __init__(self, log: FrameLog, fetch: Fetch, colour_ram: list[int], model: str = "6569",
                 timed: VicMemory | None = None):
        self.log = log
        self.model = model  # the chip: "6569" or "8565" (``MODELS``)
        self.fetch = fetch
        self.timed = timed  # the CPU's writes to the memory the VIC reads (None: memory now all along)
        self.colour_ram = colour_ram
        self.regs = list(log.start)
        self.pos = 0  # writes applied so far
        self.line = 0  # the next line to step
        self.vcbase = 0
        self.vc = 0
        # RC as the previous frame left it: 7, idle, after its last text row (the chip keeps
        # RC in idle state)
        self.rc = 7
        self.display = False
        # the border flip-flops (Bauer 3.9), carried from line to line and frame to frame
        self.vborder, self.set_vborder, self.main_border = log.border
        self.open: list[tuple[int, int]] = []  # the picture columns the border leaves open on the line
        self.graphics_on = False  # the vertical border flip-flop clear at the line's left edge
        self.row_vc = 0  # VC as cycle 14 loaded it: the row's first cell
        self.vbuf = [0] * 40  # the video matrix and colour line the c-accesses fill (Bauer 3.7.2)
        self.cbuf = [0] * 40
        self.filled = False  # the buffer holds this frame's c-accesses or the frame before's
        self.display_from = 40  # the line's first column in display state (40: idle all along)
        self.bad_at_rc = False  # the bad-line condition in cycle 58
        self.bad_after_rc = False  # ... in some cycle after it (display state for the next line)
        # the sprite sequencer (Bauer 3.8.1; VICE's x64sc, vicii-cycle.c): per sprite the DMA
        # flag, MCBASE, MC, the expansion flip-flop; the data fetched at the end of a line and
        # the sprites shown on the next (``display`` as cycle 58 left it)
        self.sp_dma = 0
        self.sp_mcbase = [0] * 8
        self.sp_mc = [0] * 8
        self.sp_exp = [True] * 8
        self.sp_shown = 0
        self.sp_data = [0] * 8
        self.sp_prev = [0] * 8  # the data fetched the line before (sprites 4-7 before their cut)
        self._sprites_from_last_frame()
        self.line_regs = list(self.regs)
        self.line_pos = 0
        self._shown_key: tuple[int, int] | None = None  # (line, writes) the sprites below were found for
        self._shown: list[ShownSprite] = []
        self._ahead_key: tuple[int, int] | None = None
        # (the line after a line, the sprites' pixels past that line's end, from beam position 0
        # of the next line) for the next line's collisions; line 0's from the frame before
        self._spill: tuple[int, list[tuple[int, int]]] = (0, log.spill)
        self._ahead_val: tuple[int, list[int]] = (0, self.sp_data)
        # the graphics pipeline's video matrix and colour bytes as the last line left them (the
        # last cell it latched: they stay loaded outside the 40 columns), and the line's
        # pixels as ``_pipeline`` found them, by (line, writes)
        self.g_carry = (0, 0)
        self._pipe_key: tuple[int, int] | None = None
        self._pipe: tuple[int, list[int]] = (0, [])

    def apply_until(self, cycle: int) -> None:
        """Apply the logged writes made before *cycle*."""
        writes, regs, pos = self.log.writes, self.regs, self.pos
        while pos < len(writes) and writes[pos][0] < cycle:
            _c, reg, value = writes[pos]
            regs[reg] = value
            pos += 1
        self.pos = pos

    def line_start(self, line: int) -> int:
        return self.log.cycle + line * CYCLES_PER_LINE

    def _at(self, cycle: int) -> Callable[[int, int], int] | None:
        """(address, cycle) -> the byte the VIC read then, or None where memory has not changed
        from *cycle* on (``fetch`` reads it)."""
        timed = self.timed
        if timed is None or timed.quiet_since(cycle):
            return None
        return timed.read_at

    def step(self) -> tuple[int, int]:
        """Advance the counters through the next line; return (line, the writes' index
        at the line's cycle 14) -- the state ``pixels`` draws from.

        The sequencer as Bauer 3.7.2 and VICE's x64sc (vicii-cycle.c) give it, the VIC
        seeing a register written in cycle k from cycle k + 1: the bad-line condition is
        looked at in every cycle; where it holds the sequencer goes to display state (in
        mid-line too: DMA delay); in cycle 14 VC is loaded from VCBASE and VMLI cleared,
        RC reset if the condition holds then; the g-accesses of cycles 16-55 read the
        40-cell buffer at VMLI in display state and advance VC and VMLI; the c-accesses of
        cycles 15-54 fill it where the condition holds, with $FF in the first three cycles
        after BA went low (the CPU still has the bus: Bauer 3.14.6); in cycle 58 RC = 7
        ends the row (VCBASE = VC, idle) and display state (or the condition) advances RC."""
        line = self.line
        self.line += 1
        start = self.line_start(line)
        if self.graphics_on and line:  # (the cell the line before latched last: its column 39)
            cell = 39 - self.display_from
            self.g_carry = (self.vbuf[cell], self.cbuf[cell]) if cell >= 0 else (0, 0)
        self.apply_until(start)
        self.line_regs = list(self.regs)
        self.line_pos = self.pos
        self.open = self._border(line, start)
        if line == 0:
            self.vcbase = 0
        den = self.log.den
        writes, i = self.log.writes, self.pos
        changes = []  # (VIC cycle from which, $D011) of the writes to $D011 the line's cycles see
        while i < len(writes) and writes[i][0] < start + CYCLES_PER_LINE - 1:
            if writes[i][1] == 0x11:
                changes.append((writes[i][0] - start + 1, writes[i][2]))
            i += 1
        d011 = self.regs[0x11]
        if not changes:  # (the usual line: the condition holds in all of its cycles or none)
            bad = bad_line(line, d011, den)
            self.apply_until(start + COUNTER_CYCLE)
            self.vc = self.vcbase
            self.row_vc = self.vc
            if bad:
                self.rc = 0
                self.display = True
                self._fill()
            elif self.display and not self.filled:
                self._matrix_from_prior()
            self.display_from = 0 if self.display else 40
            self.bad_at_rc = bad
            self.bad_after_rc = False
            return line, self.pos
        # the condition cycle by cycle
        bads = []
        n = 0
        allowed = den and line != DEN_LINE  # (line $30: from the first cycle DEN is seen set)
        for k in range(CYCLES_PER_LINE):
            while n < len(changes) and changes[n][0] <= k:
                d011 = changes[n][1]
                n += 1
            allowed = allowed or (den and bool(d011 & 0x10))
            bads.append(bad_line(line, d011, allowed))
        display_from = 0 if self.display else 40
        for k in range(G_FIRST):
            if bads[k]:
                display_from = 0
                break
        else:
            # (a g-access looks at the state the cycle before left: VICE makes it in phi 1,
            # before the condition is checked)
            for k in range(G_FIRST, G_FIRST + 39):
                if bads[k]:
                    display_from = min(display_from, k + 1 - G_FIRST)
                    break
        self.apply_until(start + COUNTER_CYCLE)
        self.vc = self.vcbase
        self.row_vc = self.vc
        if bads[COUNTER_CYCLE]:
            self.rc = 0
        # the c-accesses: cycle k (0-based 14-53) writes the cell VMLI, the display g-accesses
        # made up to and including cycle k; BA low from the first cycle >= 11 the condition holds
        if not self.filled and (self.display or any(bads)):
            self._matrix_from_prior()
        bank = (3 - (self.regs[0x40] & 3)) * 0x4000
        screen = bank + (self.regs[0x18] >> 4) * 0x400
        ba_low = -1
        at = self._at(start)
        for k in range(BA_FIRST, C_FIRST + 40):
            if not bads[k]:
                ba_low = -1
                continue
            if ba_low < 0:
                ba_low = k
            if k >= C_FIRST:
                cell = max(0, k - G_FIRST + 1 - display_from)
                if cell < 40:
                    addr = (self.row_vc + cell) & 0x3FF
                    if k < ba_low + 3:
                        self.vbuf[cell] = 0xFF
                        self.cbuf[cell] = self.reg_at(BUS_REG, start + k) & 0x0F
                    else:
                        if at is None:
                            self.vbuf[cell] = self.fetch(screen + addr)
                            self.cbuf[cell] = self.colour_ram[addr] & 0x0F
                        else:
                            self.vbuf[cell] = at(screen + addr, start + k)
                            self.cbuf[cell] = at(COLOUR + addr, start + k) & 0x0F
        self.display = self.display or any(bads[:RC_CYCLE + 1])
        self.display_from = display_from
        self.bad_at_rc = bads[RC_CYCLE]
        self.bad_after_rc = any(bads[RC_CYCLE + 1:])
        return line, self.pos

    def _matrix_from_prior(self) -> None:
        """Before the frame's first c-access: the buffer as the frame before left it."""
        self.filled = True
        prior = self.log.prior
        if prior is not None:
            vbuf, cbuf = matrix_at_end(prior, self.fetch, self.colour_ram, self.timed)
            self.vbuf[:], self.cbuf[:] = vbuf, cbuf

    def _fill(self) -> None:
        """The c-accesses of a whole bad line: the 40 cells from VC on."""
        self.filled = True
        bank = (3 - (self.regs[0x40] & 3)) * 0x4000
        screen = bank + (self.regs[0x18] >> 4) * 0x400
        vbuf, cbuf, fetch, cram, vc = self.vbuf, self.cbuf, self.fetch, self.colour_ram, self.row_vc
        first = self.line_start(self.line - 1) + C_FIRST
        at = self._at(first)
        for cell in range(40):
            addr = (vc + cell) & 0x3FF
            if at is None:
                vbuf[cell] = fetch(screen + addr)
                cbuf[cell] = cram[addr] & 0x0F
            else:
                vbuf[cell] = at(screen + addr, first + cell)
                cbuf[cell] = at(COLOUR + addr, first + cell) & 0x0F

    def finish_line(self) -> None:
        """The end of the line's display: VC advanced by the g-accesses in display state,
        cycle 58's RC check (Bauer 3.7.2, 4 and 5), the sprite sequencer's cycles."""
        line = self.line - 1
        self._sprite_sequencer(line)
        vc = self.vc + 40 - self.display_from
        if self.rc == 7:
            self.vcbase = vc & 0x3FF
            self.display = self.bad_at_rc
        if self.display:
            self.rc = (self.rc + 1) & 7
        if self.bad_after_rc:
            self.display = True

    # --- the graphics ----------------------------------------------------------------
    def graphics(self, colours: bool) -> tuple[int, bytearray | None]:
        """The line's background graphics: (foreground mask, colours or None), from the
        current registers and counters, the border not yet drawn.  A column in idle state
        shows the byte at $3FFF ($39FF with ECM) as display state would with the video
        matrix and colour data all 0 (Bauer 3.7.1): 1 bits black, 0 bits the background
        colour -- black too in hires bitmap mode (its colours are the matrix's).  A line
        that writes a mode, scroll or memory register, or whose border is open outside the
        40 columns, is drawn pixel by pixel (``_pipeline``), its colour registers as they
        are now."""
        if self._pipelined():
            fg, sources = self._pipeline()
            if not colours:
                return fg, None
            regs = self.regs
            return fg, bytearray(c if c < 16 else regs[c] & 0x0F for c in sources)
        regs, fetch = self.regs, self.fetch
        d011, d016, d018 = regs[0x11], regs[0x16], regs[0x18]
        bank = (3 - (regs[0x40] & 3)) * 0x4000
        ecm, bmm, mcm = d011 & 0x40, d011 & 0x20, d016 & 0x10
        xs = 32 + (d016 & 7)
        bg0 = regs[0x21] & 0x0F
        row = bytearray([bg0]) * WIDTH if colours else None
        fg_mask = 0
        invalid = ecm and (bmm or mcm)
        display_from = self.display_from
        first = self.line_start(self.line - 1) + G_FIRST  # (column c's g-access: cycle first + c)
        at = self._at(first)
        idle_at = bank + (0x39FF if ecm else 0x3FFF)
        idle = (fetch(idle_at) if at is None else at(idle_at, first)) if display_from else 0
        chars = bank + ((d018 >> 1) & 7) * 0x800
        bitmap = bank + (0x2000 if d018 & 0x08 else 0)
        rc, vc, vbuf, cbuf = self.rc, self.row_vc, self.vbuf, self.cbuf
        bgs = (bg0, regs[0x22] & 0x0F, regs[0x23] & 0x0F, regs[0x24] & 0x0F)
        for col in range(40):
            if col < display_from:
                code = colour = 0
                data = idle
            else:
                cell = col - display_from
                code, colour = vbuf[cell], cbuf[cell]
                if bmm:
                    addr = bitmap + (((vc + cell) & 0x3FF) << 3 | rc)
                else:
                    addr = chars + ((code & 0x3F if ecm else code) << 3 | rc)
                data = fetch(addr) if at is None else at(addr, first + col)
            x = xs + col * 8
            if not data and row is None:
                continue
            if mcm and (bmm or colour & 8):
                if bmm:
                    cs = (bg0, code >> 4, code & 0x0F, colour)
                else:
                    cs = (bg0, bgs[1], bgs[2], colour & 7)
                for i in range(4):
                    pair = (data >> (6 - 2 * i)) & 3
                    if pair & 2:
                        fg_mask |= 3 << (x + 2 * i)
                    if row is not None:
                        c = 0 if invalid else cs[pair]
                        row[x + 2 * i] = row[x + 2 * i + 1] = c
                continue
            fg_mask |= _REVERSED[data] << x
            if row is None:
                continue
            if bmm:
                on, off = code >> 4, code & 0x0F
            elif ecm:
                on, off = colour, bgs[code >> 6]
            else:
                on, off = colour, bg0
            if invalid:
                on = off = 0
            for i in range(8):
                row[x + i] = on if data & (0x80 >> i) else off
        if row is not None and display_from and (invalid or (bmm and not mcm)):
            # (idle columns black; the border covers what is outside the window)
            end = WIDTH if display_from == 40 else xs + 8 * display_from
            row[:end] = bytes(end)
        return fg_mask & FULL, row

    def _pipelined(self) -> bool:
        """Whether the line is drawn by ``_pipeline``: it writes a register of ``PIPE_REGS``
        in its cycles, or its border is open left or right of the 40 columns."""
        for x0, x1 in self.open:
            if x0 < LEFT[True] or x1 > RIGHT[True]:
                return True
        writes, i = self.log.writes, self.line_pos
        start = self.line_start(self.line - 1)
        end = start + PIPE_DRAWS[1]
        while i < len(writes) and writes[i][0] < end:
            if writes[i][1] in PIPE_REGS and writes[i][0] >= start:
                return True
            i += 1
        return False

    def _pipeline(self) -> tuple[int, list[int]]:
        """The line's graphics pixel by pixel: (foreground mask, the colour of each picture
        column: 0-15, or a background colour register $21-$24 to look up).  The graphics
        sequencer as VICE's x64sc models it (vicii-draw-cycle.c, draw_graphics8; its fetches,
        vicii-fetch.c), in draws of 8 pixels: draw k (the VIC's cycle seeing the writes of
        cycles before k) gives picture columns 8 k - 104 on.  Column c's g-access (cycle 15 + c,
        $D011 as the cycle before had it on an 8565) goes into a two-stage pipe with its video
        matrix and colour bytes, the idle state's with 0s, the vertical border's as a 0 byte
        (the matrix bytes kept); the XSCROLL of draw k - 1 ... of the last column latched
        tells at which pixel of draw k the shift register loads (column c in draw 17 + c; the
        draws after column 39 load a 0 byte and the last matrix bytes, on into the next line's
        left border).  MCM counts from pixel 4 of a draw (colours) and 7 (pixel width; a
        switch on resets the multicolour flip-flop); ECM and BMM from the next draw on an
        8565, on a 6569 set from pixel 4, cleared from pixel 6.  The invalid modes are black."""
        key = (self.line, len(self.log.writes))
        if self._pipe_key == key:
            return self._pipe
        latched = self.graphics_on
        seen = self._seen()
        cells = []
        for c in range(40):
            cells.append(self.g_access(c, seen) if latched else (0, -1, -1))
        latency = self.model == "6569"
        r11, r16 = seen[PIPE_DRAWS[0]][0], seen[PIPE_DRAWS[0]][1]
        vbuf_reg, cbuf_reg = self.g_carry
        last_v, last_c = vbuf_reg, cbuf_reg
        xs_pipe = r16 & 7
        vmode11 = (r11 & 0x60) >> 2
        vmode16 = vmode16_2 = (r16 & 0x10) >> 2
        gbuf = px = 0
        mc_flop = 1
        fg = 0
        out: list[int] = []
        colours = _PIPE_COLOURS
        last = PIPE_DRAWS[1]
        for k in range(PIPE_DRAWS[0], last):
            r11, r16 = seen[k][0], seen[k][1]
            c = k - 17
            if 0 <= c < 40:
                g, v, cb = cells[c]
                if v >= 0:
                    last_v, last_c = v, cb
                load = (g, last_v, last_c)
            else:
                load = (0, last_v, last_c)
            x = 8 * k - 104
            for i in range(8):
                if i == 4:
                    vmode16 = (r16 & 0x10) >> 2
                    if latency:
                        vmode11 |= (r11 & 0x60) >> 2
                elif i == 6 and latency:
                    vmode11 &= (r11 & 0x60) >> 2
                elif i == 7:
                    if vmode16 and not vmode16_2:
                        mc_flop = 0
                    vmode16_2 = vmode16
                if i == xs_pipe:
                    gbuf, vbuf_reg, cbuf_reg = load
                    mc_flop = 1
                multi = vmode11 & 0x08 or cbuf_reg & 0x08
                if vmode16_2:
                    if multi:
                        if mc_flop:
                            px = gbuf >> 6
                    else:
                        px = 3 if gbuf & 0x80 else 0
                else:
                    px = (2 if multi else 3) if gbuf & 0x80 else 0
                gbuf = gbuf << 1 & 0xFF
                mc_flop ^= 1
                cc = colours[vmode11 | vmode16 | px]
                if cc < 0:
                    cc = (0, vbuf_reg & 0x0F, vbuf_reg >> 4, cbuf_reg, cbuf_reg & 7,
                          0x21 + (vbuf_reg >> 6))[-cc - 1]
                if px & 2:
                    fg |= 1 << (x + i)
                out.append(cc)
            if not latency:
                vmode11 = (r11 & 0x60) >> 2
            if G_FIRST <= k < G_FIRST + 40 and latched:
                xs_pipe = r16 & 7
        self._pipe_key = key
        self._pipe = (fg, out)
        return self._pipe

    def _seen(self) -> list[tuple[int, int, int, int]]:
        """($D011, $D016, $D018, the bank) as each cycle of the line sees them (the writes of the
        cycles before it), up to the last draw ``_pipeline`` makes."""
        start = self.line_start(self.line - 1)
        regs = list(self.line_regs)
        writes, i = self.log.writes, self.line_pos
        events: list[tuple[int, int, int]] = []  # (the cycle that first sees it, reg, value)
        while i < len(writes) and writes[i][0] < start + PIPE_DRAWS[1]:
            c, reg, value = writes[i]
            if c >= start and reg in PIPE_REGS:
                events.append((c - start + 1, reg, value))
            i += 1
        seen = []
        ev = 0
        for k in range(PIPE_DRAWS[1]):
            while ev < len(events) and events[ev][0] <= k:
                regs[events[ev][1]] = events[ev][2]
                ev += 1
            seen.append((regs[0x11], regs[0x16], regs[0x18], regs[0x40]))
        return seen

    def g_access(self, c: int, seen: list[tuple[int, int, int, int]]) -> tuple[int, int, int]:
        """Column *c*'s g-access (cycle 15 + c, 0-based) with the registers *seen* (``_seen``):
        (the byte read, its video matrix byte, its colour; 0s in idle state).  The address by
        the mode of the cycle before on an 8565, of this one (BMM: either) on a 6569 (VICE's
        vicii-fetch.c); idle state reads $3FFF, $39FF with ECM (Bauer 3.7.1)."""
        d011_then, _d016, d018, bank_bits = seen[G_FIRST + c]
        d011 = seen[G_FIRST + c - 1][0]  # (the mode of the cycle before)
        if self.model == "6569":
            d011 = d011_then | (d011 & 0x20)
        bank = (3 - (bank_bits & 3)) * 0x4000
        cycle = self.line_start(self.line - 1) + G_FIRST + c
        at = self._at(cycle)
        fetch = self.fetch if at is None else lambda a: at(a, cycle)
        if c < self.display_from:
            return fetch(bank + (0x39FF if d011 & 0x40 else 0x3FFF)), 0, 0
        cell = c - self.display_from
        if d011 & 0x20:
            addr = ((self.row_vc + cell) & 0x3FF) << 3 | self.rc | (d018 & 0x08) << 10
        else:
            addr = self.vbuf[cell] << 3 | self.rc | (d018 & 0x0E) << 10
        if d011 & 0x40:
            addr &= 0x39FF
        return fetch(bank + addr), self.vbuf[cell], self.cbuf[cell]

    def sprites(self, line: int) -> list[tuple[int, int, list[tuple[int, int]]]]:
        """The sprites shown on *line*: (number, first picture column, pixels), sprite 0 first
        -- the data the sequencer fetched at the end of the line before (Bauer 3.8.1).  The
        column is negative for a sprite left of the picture."""
        out = []
        for n, beam, keep, data, mc, xe, run in self._shown_sprites():
            if run is None:
                pixels = _sprite_pixels(data, mc, xe)
                if keep <= 48:
                    pixels = [p for p in pixels if p[0] < keep - 1] + [(keep - 1, s) for o, s in pixels if o == keep - 2]
            else:
                pixels = run
            out.append((n, beam - BEAM_OF_COLUMN0, pixels))
        return out

    def _shown_sprites(self) -> list[ShownSprite]:
        """(number, first beam position, pixels shown, data, multicolour, X expansion, None) of
        each sprite the line shows with some pixel set, from the registers at the line's start;
        where the line writes a register the sprites' shifting depends on (X, $D010, $D01C,
        $D01D), (number, first beam position, 49, data, -, -, its pixels) as ``sprite_run``
        finds them.  Kept for the line (the writes logged so far)."""
        key = (self.line, len(self.log.writes))
        if self._shown_key == key:
            return self._shown
        self._shown_key = key
        out: list[ShownSprite] = []
        self._shown = out
        shown = self.sp_shown
        regs = self.line_regs
        late = 0  # the sprites matched after cycle 58's display check (``LATE_X``)
        for n in range(8):
            if LATE_X <= (regs[2 * n] | (0x100 if regs[0x10] >> n & 1 else 0)) < X_AT_CYCLE1:
                late |= 1 << n
        writes, i = self.log.writes, self.line_pos
        start = self.line_start(self.line - 1)
        end = start + SPRITE_LINE_CYCLES
        events = []
        while i < len(writes) and writes[i][0] < end:
            c, reg, value = writes[i]
            if reg in SPRITE_SHIFT_REGS and c >= start:
                events.append((c - start, reg, value))
                if reg < 0x10:
                    late |= 1 << (reg >> 1)
                elif reg == 0x10:
                    late = 0xFF
            i += 1
        late &= regs[0x15] | self.sp_dma | shown
        if not shown and not late:
            return out
        after, fetched = self._ahead() if late else (0, self.sp_data)
        prev = self.sp_prev
        for n in range(8):
            bit = 1 << n
            if not (shown | late) & bit:
                continue
            mc, xe = bool(regs[0x1C] & bit), bool(regs[0x1D] & bit)
            mine = [e for e in events if e[1] in (0x10, 0x1C, 0x1D, 2 * n)]
            if mine:
                found = sprite_run(n, self.sp_data[n], regs, mine, self.model,
                                   (bool(shown & bit), bool(after & bit), prev[n], fetched[n]))
                if found is not None:
                    out.append((n, found[0], 49, self.sp_data[n], mc, xe, found[1]))
                continue
            x = regs[2 * n] | (0x100 if regs[0x10] & bit else 0)
            at = sprite_beam(n, x)
            if at is None:
                continue
            if late & bit and at[0] >= LATE_BEAM:
                if not after & bit:
                    continue
            elif not shown & bit:
                continue
            data = _data_at(n, at[0], prev[n], self.sp_data[n], fetched[n])
            if data:
                out.append((n, at[0], at[1], data, mc, xe, None))
        return out

    def _ahead(self) -> tuple[int, list[int]]:
        """(the display flags after the line's cycle 58, the sprites' data fetched at its end):
        what a sprite matched in its last cycles sees (``LATE_X``).  Kept for the line."""
        key = (self.line, len(self.log.writes))
        if self._ahead_key != key:
            twin = self.clone()
            twin._sprite_sequencer(self.line - 1)
            self._ahead_key, self._ahead_val = key, (twin.sp_shown, twin.sp_data)
        return self._ahead_val

    def collisions(self) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
        """The line's collisions (Bauer 3.8.2): for sprite-sprite and sprite-foreground, (sprite
        number, its pixels that collide: bit i beam position i) for each sprite that does.  Two
        sprites collide where both have a non-transparent pixel, anywhere on the line (in the
        border and the blank too); a sprite and the graphics where the sprite has one and the
        graphics a foreground pixel (hires 1, multicolour 10 and 11, idle state's too), unless
        the vertical border flip-flop is set: it turns the graphics off.  The main border and
        the priority ($D01B) play no part: they only decide what is shown.  A sprite matched at
        the line's end goes on into the next line's first pixels (beam positions from
        ``X_POSITIONS`` on): there it collides with the sprites of that line (VICE testprogs
        VICII/spritegap, its references dumped from C64s: sprites at X $193 and $194
        collide), found with that line's (``_spill``) -- line 311's with the next frame's line 0
        (``FrameLog.spill``: VICE's x64sc, vicii-cycle.c, resets the raster counters at a frame's
        start, not the sprites' shift registers)."""
        shown = self._shown_sprites()
        if not shown:
            return (), ()
        masks = [(n, (_held(sprite_mask(data, mc, xe), keep) if run is None else _run_mask(run)) << beam)
                 for n, beam, keep, data, mc, xe, run in shown]
        spill_line, spilled = self._spill
        self._spill = (self.line, [(n, m >> X_POSITIONS) for n, m in masks if m >> X_POSITIONS])
        if spilled and spill_line == self.line - 1:
            masks = [*spilled, *masks]
        ss: tuple[tuple[int, int], ...] = ()
        if len(masks) > 1:
            one = two = 0
            for _n, m in masks:
                two |= one & m
                one |= m
            if two:
                ss = tuple((n, m & two) for n, m in masks if m & two)
        sb: tuple[tuple[int, int], ...] = ()
        if self.graphics_on:
            fg = 0
            for _n, m in masks:
                if m & _GRAPHICS_BEAMS:
                    fg = self.graphics(False)[0] << BEAM_OF_COLUMN0
                    break
            if fg:
                sb = tuple((n, m & fg) for n, m in masks if m & fg)
        return ss, sb

    def spill_past(self, line: int) -> list[tuple[int, int]]:
        """The sprites' pixels *line* draws past its end, (sprite, mask from beam position 0 of
        the next line), as its collisions were found (the last line stepped)."""
        after, spilled = self._spill
        return spilled if after == line + 1 else []

    def clone(self) -> LineDrawer:
        """A copy that steps on without moving this one (the memory and the log shared)."""
        twin = copy.copy(self)
        for name in ("regs", "vbuf", "cbuf", "sp_mcbase", "sp_mc", "sp_exp", "sp_data", "sp_prev"):
            setattr(twin, name, list(getattr(self, name)))
        return twin

    def _sprites_from_last_frame(self) -> None:
        """The sequencer at the frame's start: the sprites whose DMA began in the frame before
        and goes on.  A Y register is compared with the line's low 8 bits, so Y $00-$37 also
        matches lines 256-311, and such a sprite goes on into the next frame's first lines
        (VICE testprogs VICII/spritey, its reference dumped from a C64C: Y $37 collides in
        the next frame's top lines).  Its lines from the match to the frame's end are stepped
        with the registers as the frame starts.  Line 311's sprites 3-7 fetch in this frame's
        first cycles, without DMA from the bus this frame's log holds (``_fetch_without_dma``;
        sprites 0-2 fetch in the frame before's cycles)."""
        regs = self.regs
        if not regs[0x15]:
            return
        low = [regs[1 + 2 * n] for n in range(8) if regs[0x15] >> n & 1 and regs[1 + 2 * n] < LINES - 256]
        if low:
            dma, shown = 0, 0
            for line in range(256 + min(low), LINES):
                dma, shown, _late = sprite_line(dma, shown, self.sp_mcbase, self.sp_mc, self.sp_exp, regs, [], line)
            self.sp_dma, self.sp_shown = dma, shown
        start = self.line_start(-1)
        for n in range(8):
            if self.sp_dma >> n & 1:
                self._fetch_sprite(n, start)
            elif n >= 3:
                self._fetch_without_dma(n, start)

    def _fetch_sprite(self, n: int, start: int, late: bool = False) -> None:
        """The p- and s-accesses of the line starting in cycle *start*: the pointer, then three
        bytes at MC (MC advances by 3), in cycle 57 + 2n (0-based) and the next.
        Sprite 0's DMA turned on in cycle 56 (*late*) pulls BA low only from then: its first
        s-access, in the second half of cycle 58, comes in the third cycle of BA low, while
        the CPU may still use the bus, and reads the internal bus (``_phi2_bus``; VICE's
        x64sc, vicii-fetch.c: a sprite's phi-2 byte is the internal bus while BA has been low
        for fewer than 3 cycles; VICE testprogs
        VICII/spriteenable spriteenable2, whose sprite 0 shows $FF as its first byte)."""
        regs, fetch = self.regs, self.fetch
        bank = (3 - (regs[0x40] & 3)) * 0x4000
        cycle = start + SPRITE_FIRST_BA[n] + 3  # (the p-access; the CPU is off the bus from here)
        pointer_at = bank + (regs[0x18] >> 4) * 0x400 + 0x3F8 + n
        at = self._at(cycle)
        if at is None:
            pointer = fetch(pointer_at)
        else:
            pointer = at(pointer_at, cycle)
            fetch = lambda a: at(a, cycle + 1)  # noqa: E731
        base = bank + pointer * 64
        mc = (self.sp_mc[n] - 3) & 63  # (``sprite_line`` advanced MC past the three bytes)
        if late and SPRITE_FIRST_BA[n] < DMA_CYCLES[1]:
            first = self._phi2_bus(start + SPRITE_ACCESS[n])
        else:
            first = fetch(base + mc)
        self.sp_data[n] = first << 16 | fetch(base + ((mc + 1) & 63)) << 8 | fetch(base + ((mc + 2) & 63))

    def _phi2_bus(self, cycle: int) -> int:
        """The internal bus in the second half of *cycle*: the byte the CPU read from or wrote
        to a VIC register in that cycle, else $FF (VICE's x64sc, vicii-mem.c and
        vicii-cycle.c: ``last_bus_phi2``; ``FrameLog.bus``)."""
        seen = self.log.bus.get(cycle)
        return 0xFF if seen is None else seen[0]

    def _sprite_sequencer(self, line: int) -> None:
        """The line's sprite cycles (``sprite_line``), its writes to $D015, $D017 and the Y
        positions at their cycles; then the data fetched."""
        start = self.line_start(line)
        writes, i = self.log.writes, self.line_pos
        end = start + CYCLES_PER_LINE
        events = []
        while i < len(writes) and writes[i][0] < end:
            c, reg, value = writes[i]
            if c >= start and reg in SPRITE_DMA_REGS:
                events.append((c - start, reg, value))
            i += 1
        regs = self.line_regs
        if not self.sp_dma and not regs[0x15] and not events:
            self.sp_shown = 0
            return
        self.sp_prev = list(self.sp_data)
        self.sp_dma, self.sp_shown, late = sprite_line(self.sp_dma, self.sp_shown, self.sp_mcbase, self.sp_mc,
                                                       self.sp_exp, regs, events, line)
        # (a sprite without DMA is seen where it is shown on the line its DMA begins)
        dma = self.sp_dma
        for n in range(8):
            if dma >> n & 1:
                self._fetch_sprite(n, start, bool(late >> n & 1))
            else:
                self._fetch_without_dma(n, start)

    def _fetch_without_dma(self, n: int, start: int) -> None:
        """Sprite *n*'s two cycles of the line starting in cycle *start* without its DMA: the
        internal bus in their second halves (``_phi2_bus``), between them the idle access to
        $3FFF of the bank, as memory held it at a CPU access to a VIC register in one of those
        cycles, else as the VIC read it then (VICE testprogs VICII/sb_sprite_fetch readme;
        x64sc, vicii-fetch.c: sprite_dma_cycle_0/2, vicii_fetch_sprite_dma_1, vicii_fetch_idle)."""
        first = start + SPRITE_ACCESS[n]
        bus = self.log.bus
        one, two = bus.get(first), bus.get(first + 1)
        if one is not None or two is not None:
            ghost = one[1] if one is not None else two[1]  # type: ignore[index]
            self.sp_data[n] = (0xFF if one is None else one[0]) << 16 | ghost << 8 | (0xFF if two is None else two[0])
            return
        idle_at = (3 - (self.regs[0x40] & 3)) * 0x4000 + 0x3FFF
        at = self._at(first + 1)
        self.sp_data[n] = 0xFF00FF | (self.fetch(idle_at) if at is None else at(idle_at, first + 1)) << 8

    def reg_at(self, reg: int, cycle: int) -> int:
        """A register's value in *cycle* (the writes not applied yet looked at, not applied)."""
        value = self.regs[reg]
        writes = self.log.writes
        i = self.pos
        while i < len(writes) and writes[i][0] < cycle:
            if writes[i][1] == reg:
                value = writes[i][2]
            i += 1
        return value

    def _border(self, line: int, start: int) -> list[tuple[int, int]]:
        """The line's open stretches, from the border flip-flops as VICE's x64sc models them
        (vicii-cycle.c: check_hborder, check_vborder_top/bottom; Bauer 3.9).  The VIC sees a
        register written in cycle k from cycle k + 1 on.  In every cycle: the top line (51,
        55 by RSEL) with DEN set resets the vertical flip-flop and its latch ``set_vborder``;
        the bottom line (251, 247) sets the latch.  In cycle 1 the vertical flip-flop takes
        the latch.  At the left edge (cycle 17 with CSEL set, 18 without) the bottom check is
        made, the vertical flip-flop takes the latch, and the main flip-flop is reset unless
        the vertical one is set; at the right edge (cycle 57 with CSEL set, 56 without: X
        344 and 335) the main one is set.  A register counts as the raster passes its edge, so
        a CSEL switched in time leaves the border open (and open on the next lines until the
        right edge sets it again), and DEN set in any cycle of the top line opens it."""
        writes = self.log.writes
        events = [(0, self.reg_at(0x11, start), self.reg_at(0x16, start))]
        i = self.pos
        d011, d016 = events[0][1], events[0][2]
        while i < len(writes) and writes[i][0] < start + CYCLES_PER_LINE - 1:
            c, reg, value = writes[i]
            if c >= start and reg in (0x11, 0x16):
                if reg == 0x11:
                    d011 = value
                else:
                    d016 = value
                events.append((c - start + 1, d011, d016))
            i += 1
        if len(events) == 1 and line not in _VERTICAL_LINES:  # (the usual line: nothing changes)
            csel = bool(d016 & 0x08)
            self.vborder = self.set_vborder
            self.graphics_on = not self.vborder
            spans = []
            if not self.vborder and self.main_border:
                spans.append((LEFT[csel], RIGHT[csel]))
            elif not self.main_border:
                spans.append((0, RIGHT[csel]))
            self.main_border = True
            return spans
        x = 0
        opened = not self.main_border
        spans = []
        n = 0
        for k in range(CYCLES_PER_LINE):
            while n + 1 < len(events) and events[n + 1][0] <= k:
                n += 1
            _k, d011, d016 = events[n]
            csel = bool(d016 & 0x08)
            if k == (LEFT_CYCLE if csel else LEFT_CYCLE + 1):
                if line == BOTTOM[bool(d011 & 0x08)]:
                    self.set_vborder = True
                self.vborder = self.set_vborder
                self.graphics_on = not self.vborder
                if not self.vborder and not opened:
                    opened, x = True, LEFT[csel]
            if k == RIGHT_CYCLE[csel] and opened:
                spans.append((x, max(RIGHT[csel], x)))
                opened = False
            rsel = bool(d011 & 0x08)
            if line == TOP[rsel] and d011 & 0x10:
                self.vborder = self.set_vborder = False
            if line == BOTTOM[rsel]:
                self.set_vborder = True
            if k == 0:
                self.vborder = self.set_vborder
            if k > RIGHT_CYCLE[True] and len(events) == n + 1:
                break
        if opened:
            spans.append((x, WIDTH))
        self.main_border = not opened
        return [s for s in spans if s[1] > s[0]]

    def border_state(self) -> tuple[bool, bool, bool]:
        """(vertical flip-flop, its latch, main flip-flop) after the lines stepped so far."""
        return self.vborder, self.set_vborder, self.main_border


def matrix_at_end(log: FrameLog, fetch: Fetch, colour_ram: list[int],
                  timed: VicMemory | None = None) -> tuple[list[int], list[int]]:
    """The video matrix buffer and colour line (Bauer 3.7.2: 40 cells each) as the frame of
    *log* leaves them: its last c-accesses (the chip keeps them into the next frame), memory as
    *timed* tells it was then (as far as it kept the writes), else as it is now."""
    if log.matrix is None:
        drawer = LineDrawer(log, fetch, colour_ram, timed=timed)
        for _line in range(LINES):
            drawer.step()
            drawer.finish_line()
        log.matrix = (list(drawer.vbuf), list(drawer.cbuf))
    return log.matrix


def border_at_end(log: FrameLog) -> tuple[bool, bool, bool]:
    """The border flip-flops at the end of the frame of *log* (the next frame starts with
    them): with RSEL and CSEL fixed the frame's bottom line and every line's right edge set
    them; else the lines where they can change are walked -- those with a write to $D011 or
    $D016 and the top and bottom lines; a line between leaves the vertical flip-flop as
    its latch and the main one set, however many of them there are."""
    lines = {(c - log.cycle) // CYCLES_PER_LINE for c, reg, _v in log.writes if reg in (0x11, 0x16)}
    if not lines:
        return True, True, True
    drawer = LineDrawer(log, lambda a: 0, [])
    done = -1
    for line in sorted(lines | _VERTICAL_LINES):
        if not 0 <= line < LINES:
            continue
        if line > done + 1:
            drawer.vborder, drawer.main_border = drawer.set_vborder, True
        start = drawer.line_start(line)
        drawer.apply_until(start)
        drawer._border(line, start)
        done = line
    if done < LINES - 1:
        drawer.vborder, drawer.main_border = drawer.set_vborder, True
    return drawer.border_state()


_VERTICAL_LINES = frozenset((*TOP.values(), *BOTTOM.values()))
# the logged registers' slot for the byte on the data bus while a $D011 write's bad line takes
# it: the c-accesses of the three cycles after BA went low, while the CPU still has the bus,
# read $FF and take this byte's low nibble as the colour (VICE's x64sc, vicii-fetch.c: the RAM
# byte at the CPU's PC, the opcode it waits to fetch; VICE testprogs VICII/flibug)
BUS_REG = 0x41
# the registers ``LineDrawer._pipeline`` follows within a line (the mode, XSCROLL, memory, bank)
# and the draws it makes: those of the picture's columns 0-383
PIPE_REGS = frozenset((0x11, 0x16, 0x18, 0x40))
PIPE_DRAWS = (13, 61)
# the colour of a pixel by ECM, BMM, MCM (bits 4-2) and its two bits (VICE's x64sc,
# vicii-draw-cycle.c): a background register, or -1 black, -2 the matrix byte's low nibble,
# -3 its high nibble, -4 the colour byte, -5 its low three bits, -6 the register $21 + the
# matrix byte's top two bits
_PIPE_COLOURS = (
    0x21, 0x21, -4, -4,
    0x21, 0x22, 0x23, -5,
    -2, -2, -3, -3,
    0x21, -3, -2, -4,
    -6, -6, -4, -4,
    -1, -1, -1, -1,
    -1, -1, -1, -1,
    -1, -1, -1, -1,
)
SPRITE_DMA_REGS = frozenset({0x15, 0x17, 1, 3, 5, 7, 9, 11, 13, 15})
_REVERSED = tuple(int(f"{b:08b}"[::-1], 2) for b in range(256))  # bit 7 -> column 0
# the beam positions the graphics can have pixels at: the 40 columns, XSCROLL 7 at most
_GRAPHICS_BEAMS = ((1 << 8 * 40 + 7) - 1) << (BEAM_OF_COLUMN0 + 32)


def draw_line(drawer: LineDrawer, until: int) -> bytearray:
    """The colours of the line *drawer* has stepped to, the writes up to cycle *until*
    applied where their cycle falls in the line (a colour changed in mid-line changes it
    from that column on).  A colour register written in cycle k counts from the first pixel
    of column 8 (k - 12) on an 8565, where that pixel shows light grey (15) if its colour
    comes from that register (the "grey dot"), and from the second pixel on a 6569 (its
    colour latency: VICE's x64sc, vicii-draw-cycle.c, draw_colors_6569/8565).  The sprites'
    pixels are the line's (``LineDrawer.sprites``): a mode written in mid-line changes only
    their colours' registers and priority."""
    line = drawer.line - 1
    start = drawer.line_start(line)
    row = _colours(drawer, line)
    writes = drawer.log.writes
    grey_dot = drawer.model == "8565"
    while drawer.pos < len(writes) and writes[drawer.pos][0] < min(until, start + CYCLES_PER_LINE):
        cycle, reg, value = writes[drawer.pos]
        drawer.apply_until(cycle + 1)
        x = X_OF_CYCLE0 + (cycle - start) * 8
        if reg == 0x1B:
            x += PRIORITY_DELAY
        elif reg in COLOUR_REGS and not grey_dot:
            x += 1
        if x >= WIDTH:
            break
        if reg in SPRITE_SHIFT_REGS or reg == BUS_REG:
            continue  # (the sprites' pixels were found with it; the bus byte is no colour)
        later = _colours(drawer, line)
        x = max(x, 0)
        if grey_dot and reg in COLOUR_REGS and x == X_OF_CYCLE0 + (cycle - start) * 8:
            regs = drawer.regs
            regs[reg] = (value + 1) & 0x0F
            if _colours(drawer, line)[x] != later[x]:
                later[x] = 15
            regs[reg] = value
        row[x:] = later[x:]
    return row


COLOUR_REGS = frozenset(range(0x20, 0x2F))


def _colours(drawer: LineDrawer, line: int) -> bytearray:
    _fg, gfx = drawer.graphics(True)
    assert gfx is not None
    fg = _fg
    regs = drawer.regs
    sprites = drawer.sprites(line)
    if sprites:
        # the pixel of the lowest-numbered sprite with one there decides: its colour, or the
        # graphics where that sprite is behind them ($D01B) and they have a foreground pixel --
        # in front of the higher sprites too (VICE testprogs VICII/spritepriorities, its
        # readme's rule; x64sc passes it)
        mc = (regs[0x25] & 0x0F, regs[0x26] & 0x0F)
        under = bytes(gfx) if regs[0x1B] else b""
        for n, sx, pixels in reversed(sprites):  # sprite 0 drawn last: on top
            colour = regs[0x27 + n] & 0x0F
            behind = regs[0x1B] & (1 << n)
            for off, src in pixels:
                x = sx + off
                if 0 <= x < WIDTH:
                    if behind and fg >> x & 1:
                        gfx[x] = under[x]
                    else:
                        gfx[x] = colour if src == 2 else mc[0] if src == 1 else mc[1]
    out = bytearray([regs[0x20] & 0x0F]) * WIDTH
    for x0, x1 in drawer.open:
        out[x0:x1] = gfx[x0:x1]
    return out
