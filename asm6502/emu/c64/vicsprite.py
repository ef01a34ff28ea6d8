"""The VIC-II 6569's sprites (Christian Bauer, "The MOS 6567/6569 video controller (VIC-II)
and its application in the Commodore 64", 1996: section 3.8; VICE's x64sc): the sequencer
(DMA, MCBASE, MC and the expansion flip-flop per sprite, at their cycles: ``sprite_line``;
as the bus sees it while the machine runs: ``SpriteBus``), the p- and s-accesses of a line's
end with memory as of their cycles, and the pixels a line shows, whole or shifted out pixel
by pixel where a register is written in mid-sprite (``sprite_run``).  ``SpriteUnit`` is the
part of ``vicdraw.LineDrawer`` that fetches and shows them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asm6502.emu.c64.vicframe import BEAM_OF_COLUMN0, CYCLES_PER_LINE, LINES, X_AT_CYCLE1, X_POSITIONS, Fetch, FrameLog

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
SPRITE_DMA_REGS = frozenset({0x15, 0x17, 1, 3, 5, 7, 9, 11, 13, 15})


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


def held_mask(mask: int, keep: int) -> int:
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


def run_mask(run: list[tuple[int, int]]) -> int:
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


class SpriteUnit:
    """The sprites' part of a line drawer: the sequencer's state, carried from line to line,
    its fetches and the sprites a line shows (``vicdraw.LineDrawer`` keeps the rest)."""

    log: FrameLog
    fetch: Fetch
    model: str
    regs: list[int]
    line: int  # the next line to step
    line_regs: list[int]  # the registers at the start of the line stepped last
    line_pos: int  # ... and the writes applied then
    sp_dma: int
    sp_mcbase: list[int]
    sp_mc: list[int]
    sp_exp: list[bool]
    sp_shown: int
    sp_data: list[int]
    sp_prev: list[int]
    _shown_key: tuple[int, int] | None
    _shown: list[ShownSprite]
    _ahead_key: tuple[int, int] | None
    _ahead_val: tuple[int, list[int]]

    def line_start(self, line: int) -> int:
        raise NotImplementedError

    def _at(self, cycle: int) -> Callable[[int, int], int] | None:
        raise NotImplementedError

    def clone(self) -> SpriteUnit:
        raise NotImplementedError

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
