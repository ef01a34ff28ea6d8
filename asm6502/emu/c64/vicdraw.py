"""What the VIC-II 6569 draws, raster line by raster line (Christian Bauer, "The MOS
6567/6569 video controller (VIC-II) and its application in the Commodore 64", 1996:
sections 3.7 display generation, 3.8 sprites, 3.9 the border, 3.10 display modes).

A ``LineDrawer`` walks a frame's raster lines in order from the registers in force
at its start and the register writes logged during it (``FrameLog``), keeping the
chip's own counters: VC, VCBASE and RC, the display/idle state (the bad-line condition,
looked at in every cycle of a line whose $D011 changes, starts a text row -- in mid-line
too: DMA delay), the 40-cell video matrix buffer the c-accesses fill, the border
flip-flops (carried from frame to frame: ``FrameLog.border``), and through its sprite unit
(``vicsprite.SpriteUnit``) the sprite sequencer.  Each line gives its graphics' foreground
pixels and the sprites' pixels as bit masks (bit x = screen column x of the 384 of a
picture), from which the VIC sets its collision registers, and on demand the line's
colours: background graphics in the five valid modes (the invalid ones show black),
idle-state graphics from $3FFF ($39FF with ECM), sprites (hires, multicolour, X and Y
expansion, priority to the foreground), the border on top.

Within a line: a colour register written in mid-line changes the colour from the column its
cycle reaches, as the chip model draws it (``vicframe.MODELS``: the 6569's colour latency,
the 8565's grey dot); a sprite whose X position, multicolour or X expansion bit is written
during the line is shifted out pixel by pixel (``vicsprite.sprite_run``), the others drawn
whole.

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

from asm6502.emu.c64.vicframe import BEAM_OF_COLUMN0, BUS_REG, CYCLES_PER_LINE, LINES, X_OF_CYCLE0, X_POSITIONS, Fetch, FrameLog
from asm6502.emu.c64.vicmem import COLOUR, VicMemory
from asm6502.emu.c64.vicsprite import SPRITE_SHIFT_REGS, ShownSprite, SpriteUnit, held_mask, run_mask, sprite_mask

WIDTH, HEIGHT = 384, 272
FIRST_LINE = 16  # the raster line of the picture's top row
FIRST_BAD, LAST_BAD = 0x30, 0xF7  # bad lines occur in lines $30-$F7 (Bauer 3.5)
DEN_LINE = 0x30  # DEN must be set in some cycle of line $30 for a frame to have bad lines
COUNTER_CYCLE = 13  # cycle 14 (0-based 13): VC is loaded, a bad line resets RC (Bauer 3.7.2)
BA_FIRST = 11  # cycle 12: from here the bad-line condition pulls BA low (Bauer 3.6.3)
C_FIRST = 14  # cycles 15-54: the c-accesses
G_FIRST = 15  # cycles 16-55: the g-accesses
RC_CYCLE = 57  # cycle 58: RC is checked
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





def bad_line(line: int, d011: int, den: bool) -> bool:
    """The bad-line condition (Bauer 3.5): lines $30-$F7, YSCROLL = the line's low 3 bits,
    DEN set in line $30 of the frame."""
    return den and FIRST_BAD <= line <= LAST_BAD and (line & 7) == (d011 & 7)




class LineDrawer(SpriteUnit):
    """Walks the raster lines of one frame (``step``), keeping the VIC's counters."""

    def __init__(self, log: FrameLog, fetch: Fetch, colour_ram: list[int], model: str = "6569",
                 timed: VicMemory | None = None):
        self.log = log
        self.model = model  # the chip: "6569" or "8565" (``vicframe.MODELS``)
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
        masks = [(n, (held_mask(sprite_mask(data, mc, xe), keep) if run is None else run_mask(run)) << beam)
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
