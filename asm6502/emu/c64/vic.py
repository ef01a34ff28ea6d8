"""The MOS 6569 VIC-II (PAL) as a program sees it (Christian Bauer, "The MOS 6567/6569
video controller (VIC-II) and its application in the Commodore 64", 1996, cited as
Bauer with its section; Mapping the C64, $D000-$D02E).

Timing: 63 cycles a raster line, 312 lines a frame.  The raster counter ($D012, bit 7
of $D011) and the raster compare interrupt: a compare line L > 0 matches in cycle 1 of
line L, line 0 one cycle later (Bauer 3.12).

The bus: in a bad line (lines $30-$F7 whose low three bits equal YSCROLL, DEN set in
some cycle of line $30: Bauer 3.5) the VIC reads the text row in cycles 15-54, and for
each sprite whose DMA is on (the sprite sequencer as it runs, ``vicsprite.SpriteBus``: a
sprite disabled in mid-display is fetched to its end) it reads the pointer and three data bytes in two cycles
(sprite 0 at cycles 58-59, 1 at 60-61, 2 at 62-63, 3-7 at cycles 1-10 of the next line:
Bauer 3.6.3).  BA goes low three cycles before the VIC's first access; the CPU goes on
until its next read cycle (writes are not held up: at most three in a row), then waits
until the VIC has done (Bauer 3.6.1).  These stretches are ``windows`` (first, last):
the cycles in which the CPU cannot read (``ba_from``, ``ba_to``: the next one;
``window_after`` looks further).  The machine's run loop stops at a window's first cycle
(``next_event``) and moves the CPU's reads past it (``pass_bus`` plans the next one) --
so the CIA timers and the raster see the time the VIC took.

The picture: every register write is logged with its cycle, by frame (``FrameLog``);
``vicdraw`` draws a frame line by line from its log.  Collisions (Bauer 3.8.2) are
found by walking the current frame's lines (``catch_up``, from the frame's log: the
registers as they were on each line) whenever a program reads $D01E, $D01F or, with
sprites on, $D019 (from the first read of $D01E or $D01F on, every frame is walked to its
end), and as the raster goes while a collision interrupt is enabled.  A program that never
looks at collisions pays nothing for them.  Each collision is placed at the pixel the
chip finds it at: a line's pixels are drawn in its cycles in beam order (``vicdraw``'s
beam positions), and a read in cycle c sees the collisions of the pixels drawn before c --
of the line in progress too, looked at so far (``_peek``: the lines the raster has not
left yet, their sprites' last pixels up to 7 cycles into the next line -- line 311's into the
next frame's line 0, ``FrameLog.spill``).  A collision sets
its sprites' bits in $D01E / $D01F (reading clears the register: what the line draws after
the read counts again) and, when that register was 0, the interrupt latch bit (2
sprite-sprite, 1 sprite-background) at the cycle of its pixel.
"""

from __future__ import annotations

from asm6502.emu.c64 import vicdraw, vicframe, vicsprite
from asm6502.emu.c64.vicdraw import LineDrawer
from asm6502.emu.c64.vicframe import X_POSITIONS, FrameLog
from asm6502.emu.c64.vicmem import VicMemory
from asm6502.emu.c64.vicsprite import SpriteBus

CYCLES_PER_LINE = vicframe.CYCLES_PER_LINE
LINES = vicframe.LINES
CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES  # 19,656: 50.125 frames a second at 985,248 Hz

NEVER = 1 << 62
# the PAL VIC-IIs: the 6569 of the first C64s and the 8565 of the C64C (VICE's x64sc models
# both; its testbench runs the C64C); they differ here in the grey dot of a colour register
# write (``vicdraw.draw_line``) and the light pen's X (one more on the 6569)
VIC_MODELS = vicframe.MODELS
BANK_REG = 0x40  # the logged registers' slot for the VIC's bank (CIA 2 port A bits 0-1)
BUS_REG = vicframe.BUS_REG  # ... for the byte the stalled CPU leaves on the bus after a $D011 write

# The bus windows of a line, in cycles from the line's start (0-based: Bauer's cycle k is
# k - 1).  Bad line: BA low from cycle 12, c-accesses 15-54 (Bauer 3.6.3).
BAD_LINE_WINDOW = (11, 53)
# sprite n: its two access cycles (p- and s-accesses), BA low three cycles before them
SPRITE_ACCESS = vicsprite.SPRITE_ACCESS
SPRITE_BUS_CYCLES = vicsprite.SPRITE_BUS_CYCLES
# more than two frames' worth of CPU accesses in those cycles: a frame log's ``bus`` holds
# older ones, which no picture or collision walk reads (they draw the frame in progress and
# the one before, after ``_rotate``)
BUS_KEPT = 2 * LINES * len(SPRITE_BUS_CYCLES)
# the cycles of a frame's first line (0-based 0-9) in which the frame before's last line
# fetches its sprites 3-7
LAST_LINE_FETCH = SPRITE_ACCESS[7] + 2 - CYCLES_PER_LINE


def _sprite_windows(mask: int) -> tuple[tuple[int, int], ...]:
    """The windows of a line's sprite fetches, by the mask of the sprites fetched."""
    return tuple(_merge([(SPRITE_ACCESS[n] - 3, SPRITE_ACCESS[n] + 1) for n in range(8) if mask >> n & 1]))



def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for w in sorted(windows):
        if out and w[0] <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], w[1]))
        else:
            out.append(w)
    return out


# the registers a line's collisions depend on: the sprites' places, enable, modes and
# expansion, the graphics' mode, scrolling and memory (a write re-plans the interrupt)
COLLISION_REGS = frozenset((*range(0x11), 0x11, 0x15, 0x16, 0x17, 0x18, 0x1C, 0x1D))
# a line's last sprite pixel: the cycle after its start at which its collisions are all known
# (a sprite at X $193 expanded ends at beam position 555: cycle 69)
LINE_DONE = 70
# the cycle (0-based) of a line in which a sprite matched after its display check (X $164 on) draws
# its first pixel
LATE_CYCLE = vicsprite.LATE_BEAM // 8

SPRITE_WINDOWS: tuple[tuple[tuple[int, int], ...], ...] = tuple(_sprite_windows(m) for m in range(256))


Hits = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
NO_HITS: Hits = ((), ())


def _bits(hits: tuple[tuple[int, int], ...], first: int, end: int) -> tuple[int, int]:
    """(the sprite bits of *hits* with a colliding pixel at mask bits first..end - 1,
    the first such bit or -1)."""
    first = max(first, 0)
    if end <= first:
        return 0, -1
    window = ((1 << (end - first)) - 1) << first if end < NEVER else -1 << first
    bits, at = 0, -1
    for n, mask in hits:
        m = mask & window
        if m:
            bits |= 1 << n
            low = (m & -m).bit_length() - 1
            at = low if at < 0 else min(at, low)
    return bits, at


def _bus_from(bus: dict[int, tuple[int, int]], cycle: int) -> dict[int, tuple[int, int]]:
    """The entries of a frame log's ``bus`` from *cycle* on (logged before a write began the
    frame they belong to; the frame before keeps them too: its last line's sprites 3-7 make
    their s-accesses in the next frame's first cycles)."""
    return {c: seen for c, seen in bus.items() if c >= cycle} if bus else {}


class VIC:
    # not part of a snapshot: the machine's memory and colour RAM, the collision walk
    TRANSIENT = ("memory", "timed", "colour_ram", "cursor", "peeked", "phi1_walk")

    def __init__(self, model: str = "6569") -> None:
        if model not in VIC_MODELS:
            raise ValueError(f"VIC-II model {model!r}: {' or '.join(VIC_MODELS)}")
        self.model = model
        self.regs = [0] * 0x42  # + the bank, BANK_REG (as CIA 2 port A's bits 0-1 read), BUS_REG
        self.regs[BANK_REG] = 3
        self.compare = 0  # raster compare line (write $D012 + bit 7 of $D011)
        self.flags = 0  # $D019 bits 0-3
        self.enable = 0  # $D01A bits 0-3
        self.next_compare = NEVER  # cycle of the next raster compare match
        self.since = NEVER  # the cycle from which the interrupt output is active
        self.released = (NEVER, NEVER)  # the output's last active stretch (first, end) before a write ended it
        self.on_change = lambda: None
        # during a write: the byte at the CPU's next instruction, which it waits to read while a
        # bad line the write began steals the bus (the machine sets it)
        self.bus_byte = lambda: 0xFF
        # the bus
        self.ba_from = NEVER  # the next window in which the CPU cannot read
        self.ba_to = NEVER
        self.seen = -1  # the last cycle the VIC was told of (for the DEN latch of line $30)
        self.den_frame = -1  # the frame whose line $30 saw DEN set
        self.sprites = SpriteBus(self.regs)  # the sprites fetched at the lines' ends
        # the picture and collisions
        self.memory = lambda addr: 0  # the byte the VIC reads at a 16-bit address (machine sets it)
        # the CPU's writes to what the VIC reads, for memory as of a fetch's cycle (machine sets it)
        self.timed: VicMemory | None = None
        self.colour_ram: list[int] = [0] * 1024
        self.frame = FrameLog(0, self.regs, False)
        self.previous = FrameLog(-CYCLES_PER_FRAME, self.regs, False)
        self.collide_ss = 0  # $D01E
        self.collide_sb = 0  # $D01F
        # the first pixel (beam time: 8 x its cycle + its place in it) each register counts:
        # the ones drawn before were seen by the read that cleared it
        self.ss_from = self.sb_from = 0
        self.cursor: LineDrawer | None = None  # walks the current frame for collisions
        # the lines begun but not walked, as last looked at: ((frame, first line, the frame's
        # writes then), the drawers after each, (line start, hits) of each)
        self.peeked: tuple[tuple[int, int, int], list[LineDrawer], list[tuple[int, Hits]]] | None = None
        # the frame walked for ``phi1_byte``: ((frame, its writes then), the drawer at a line's start)
        self.phi1_walk: tuple[tuple[int, int], LineDrawer] | None = None
        self.wants_collisions = False  # the program has read $D01E or $D01F: frames are walked to their end
        self.line_event = NEVER  # the next cycle at which collisions are looked for (an interrupt may be due)
        # the light pen input (CIA 1 port B bit 4, joystick port 1's fire line)
        self.pen_low = False
        self.pen_frame = -1  # the frame in which the latch took a position (once a frame)
        self.lpx = self.lpy = 0
        self._plan(0)

    @staticmethod
    def line(cycle: int) -> int:
        return cycle // CYCLES_PER_LINE % LINES

    @staticmethod
    def raster_line(cycle: int) -> int:
        """The raster counter as $D011/$D012 read it: the line, but for line 0's first
        cycle, which still reads 311 (VICE's x64sc, vicii-cycle.c: the counter goes to 0 in
        cycle 2 of a frame; VICE testprogs VICII/split-tests/lightpen, dumped from C64s)."""
        in_frame = cycle % CYCLES_PER_FRAME
        return LINES - 1 if in_frame == 0 else in_frame // CYCLES_PER_LINE

    @property
    def irq(self) -> bool:
        return bool(self.flags & self.enable)

    # --- raster compare --------------------------------------------------------------
    def _schedule(self, cycle: int) -> None:
        if self.compare >= LINES:
            self.next_compare = NEVER
            return
        frame = cycle - cycle % CYCLES_PER_FRAME
        due = frame + self.compare * CYCLES_PER_LINE + (1 if self.compare == 0 else 0)
        self.next_compare = due if due > cycle else due + CYCLES_PER_FRAME

    def low_at(self, cycle: int) -> bool:
        """Was the interrupt output active in *cycle* (at most a few cycles back)?  The
        output stays active in the cycle of the write that acknowledges it, as a CIA's in
        the cycle of the read of its ICR: an interrupt acknowledged in the last cycle of
        an instruction, or in the write of the old value of a read-modify-write one cycle
        earlier, is still taken (VICE testprogs interrupts/irq-ackn-bug/irq-ack-vicii,
        whose reference was measured on a C64)."""
        if self.flags & self.enable and self.since <= cycle:
            return True
        start, end = self.released
        return start <= cycle < end

    def _released(self, was: int, cycle: int) -> None:
        if was and not self.flags & self.enable:
            self.released = (self.since, cycle + 1)

    def _raise(self, bits: int, cycle: int) -> None:
        was = self.flags & self.enable
        self.flags |= bits
        if not was and self.flags & self.enable:
            self.since = cycle

    def update(self, cycle: int) -> None:
        if self.next_compare <= cycle:
            self._raise(0x01, self.next_compare)
            self._schedule(cycle)
        if self.line_event <= cycle:
            self.catch_up(cycle)

    def next_event(self) -> int:
        return min(self.next_compare, self.ba_from, self.line_event)

    # --- the bus ---------------------------------------------------------------------
    def _observe(self, cycle: int) -> None:
        """Note the time: a line $30 passed with DEN set latches the frame's bad lines
        (``den_frame`` the latest such frame; the frame being logged, its ``den``)."""
        if self.regs[0x11] & 0x10:
            line30 = vicdraw.DEN_LINE * CYCLES_PER_LINE
            frame = (cycle - line30) // CYCLES_PER_FRAME
            start = frame * CYCLES_PER_FRAME + line30
            if frame >= 0 and start + CYCLES_PER_LINE - 1 > self.seen:
                self.den_frame = max(self.den_frame, frame)
            logged = self.frame.cycle + line30
            if logged <= cycle and logged + CYCLES_PER_LINE - 1 > self.seen:
                self.frame.den = True
        if cycle > self.seen:
            self.seen = cycle

    def _den(self, frame: int, now: int) -> bool:
        """Whether the frame has bad lines, as far as known at cycle *now*."""
        if frame == self.den_frame:
            return True
        line30_end = frame * CYCLES_PER_FRAME + (vicdraw.DEN_LINE + 1) * CYCLES_PER_LINE
        return bool(self.regs[0x11] & 0x10) and now < line30_end

    def _next_bad_line(self, absolute_line: int, now: int) -> int:
        """The first bad line at or after *absolute_line* (counted from cycle 0), or -1:
        the next line with YSCROLL's low bits in $30-$F7 of a frame with bad lines."""
        ys = self.regs[0x11] & 7
        frame, line = divmod(absolute_line, LINES)
        for f in (frame, frame + 1):
            if self._den(f, now):
                first = max(line, vicdraw.FIRST_BAD) if f == frame else vicdraw.FIRST_BAD
                bad = first + ((ys - first) & 7)
                if bad <= vicdraw.LAST_BAD:
                    return f * LINES + bad
        return -1

    def _next_sprite_line(self, absolute_line: int) -> int:
        """The first line at or after *absolute_line* at whose end a sprite is fetched, or -1."""
        return self.sprites.next_fetch(absolute_line, self.regs)

    def _plan(self, cycle: int) -> None:
        """Find the first window that ends at or after *cycle*: the next bad line's, the
        next sprite fetches' (a line's sprites 3-7 are fetched in the next line), merged
        where they touch."""
        here = cycle // CYCLES_PER_LINE
        windows = []
        sprite = self._next_sprite_line(max(here - 1, 0))
        bad = self._next_bad_line(here, cycle)
        if bad >= 0:
            if bad * CYCLES_PER_LINE + BAD_LINE_WINDOW[1] < cycle:
                bad = self._next_bad_line(bad + 1, cycle)
        if bad >= 0:
            start = bad * CYCLES_PER_LINE
            windows.append((start + BAD_LINE_WINDOW[0], start + BAD_LINE_WINDOW[1]))
            if sprite < 0:  # (no sprites: the bad line's window alone)
                self.ba_from, self.ba_to = max(windows[0][0], cycle), windows[0][1]
                return
        while sprite >= 0:
            start = sprite * CYCLES_PER_LINE
            line_windows = [(start + a, start + b) for a, b in SPRITE_WINDOWS[self.sprites.fetched(sprite, self.regs)]]
            if line_windows[-1][1] >= cycle:
                windows += line_windows
                following = self.sprites.fetched(sprite + 1, self.regs)
                if following:  # (its windows may touch a bad line's of that line)
                    start += CYCLES_PER_LINE
                    windows += [(start + a, start + b) for a, b in SPRITE_WINDOWS[following]]
                break
            sprite = self._next_sprite_line(sprite + 1)
        windows = [w for w in _merge(windows) if w[1] >= cycle]
        if not windows:
            self.ba_from = self.ba_to = NEVER
            return
        # (a window the write of a register made begins no earlier than the write)
        self.ba_from, self.ba_to = max(windows[0][0], cycle), windows[0][1]

    def window_after(self, cycle: int) -> tuple[int, int]:
        """The first window that ends at or after *cycle* (first, last), its first cycle no
        earlier than *cycle*; the plan stays as it is."""
        keep = self.ba_from, self.ba_to
        self._plan(cycle)
        found = self.ba_from, self.ba_to
        self.ba_from, self.ba_to = keep
        return found

    def pass_bus(self, cycle: int) -> tuple[int, int]:
        """The CPU has come to *cycle*: plan the first window that ends at or after it."""
        self._observe(cycle)
        self._plan(cycle)
        return self.ba_from, self.ba_to

    # --- the picture ------------------------------------------------------------------
    def _rotate(self, cycle: int) -> None:
        """Start a new frame log when *cycle* is past the current frame."""
        frame_start = cycle - cycle % CYCLES_PER_FRAME
        if frame_start <= self.frame.cycle:
            return
        if self.cursor is not None or (self.wants_collisions and self.regs[0x15]):
            self._walk(self.frame.cycle + CYCLES_PER_FRAME + LINE_DONE)
        # (line 311's last sprite pixels are drawn in the next frame's line 0)
        spill = self.cursor.spill_past(LINES - 1) if self.cursor is not None else []
        done = self.frame
        den = bool(self.regs[0x11] & 0x10)  # (unchanged since the last write: it was so in line $30)
        border = vicdraw.border_at_end(done)
        if frame_start - done.cycle > CYCLES_PER_FRAME:  # a frame without writes between
            done = FrameLog(frame_start - CYCLES_PER_FRAME, self.regs, den, border)
            done.bus = _bus_from(self.frame.bus, done.cycle)
            border = vicdraw.border_at_end(done)
            spill = []  # (its lines not walked: their collisions are not looked for)
        if done is not self.frame:
            done.prior = self.frame
        if done.prior is not None:
            done.prior.prior = None
        self.previous = done
        self.frame = FrameLog(frame_start, self.regs,
                              den and cycle >= frame_start + vicdraw.DEN_LINE * CYCLES_PER_LINE, border)
        self.frame.prior = done
        self.frame.spill = spill
        self.frame.bus = _bus_from(done.bus, frame_start)
        self.cursor = None
        self.peeked = None

    def note_bank(self, bank_bits: int, cycle: int) -> None:
        """CIA 2 port A's bits 0-1 as read (the VIC's bank is 3 - them) from *cycle* on."""
        if bank_bits != self.regs[BANK_REG]:
            self._observe(cycle)
            self._rotate(cycle)
            self.regs[BANK_REG] = bank_bits
            self.frame.writes.append((cycle, BANK_REG, bank_bits))

    def frames_for_picture(self, cycle: int) -> tuple[FrameLog, FrameLog]:
        """(the frame in progress at *cycle*, the one before it)."""
        self._observe(cycle)
        self._rotate(cycle)
        return self.frame, self.previous

    def catch_up(self, cycle: int) -> None:
        """Set the collision registers (and the interrupt latch) as they are in *cycle*: the
        collisions of every pixel drawn before it."""
        self._observe(cycle)
        self._rotate(cycle)
        self._walk(cycle)
        for start, hits in self._peek(cycle):
            self._collide(start, hits, cycle * 8)
        self._schedule_lines(cycle)

    def _walk(self, cycle: int) -> None:
        """Walk the lines whose pixels are all drawn by *cycle*."""
        frame = self.frame
        if self.cursor is None:
            self.cursor = LineDrawer(frame, self.memory, self.colour_ram, self.model, self.timed)
            self.peeked = None
        cursor = self.cursor
        lines = min(max(cycle - frame.cycle - LINE_DONE + CYCLES_PER_LINE, 0) // CYCLES_PER_LINE, LINES)
        if cursor.line >= lines:
            return
        peeked = self.peeked
        steps = min(lines - cursor.line, len(peeked[1])) if peeked is not None else 0
        if peeked is not None and peeked[0][1] == cursor.line and self._unchanged(peeked[0], steps):
            # (the lines were looked at with the writes they have now: take the looks over)
            for (start, hits) in peeked[2][:steps]:
                self._collide(start, hits, NEVER)
            self.cursor = cursor = peeked[1][steps - 1]
            self.peeked = None
        while cursor.line < lines:
            line, _pos = cursor.step()
            if cursor.sp_shown or cursor.sp_dma or cursor.regs[0x15]:
                self._collide(cursor.line_start(line), cursor.collisions(), NEVER)
            cursor.finish_line()

    def _unchanged(self, key: tuple[int, int, int], lines: int) -> bool:
        """Whether the frame's writes that bear on the first *lines* lines looked at under
        *key* (frame, first line, writes then) are the same now: no write since, or the
        first one after those lines."""
        frame_cycle, line, count = key
        writes = self.frame.writes
        if frame_cycle != self.frame.cycle:
            return False
        return len(writes) == count or writes[count][0] >= frame_cycle + (line + lines) * CYCLES_PER_LINE

    def _peek(self, cycle: int) -> list[tuple[int, Hits]]:
        """The collisions of the lines begun by *cycle* but not walked yet (at most two: the
        one in progress, the one before it while its last sprite pixels may still come), as
        far as the writes logged so far tell: (line start, hits) each."""
        cursor = self.cursor
        assert cursor is not None
        frame = self.frame
        last = min((cycle - frame.cycle) // CYCLES_PER_LINE, LINES - 1)
        if cursor.line > last:
            return []
        key = (frame.cycle, cursor.line, len(frame.writes))
        peeked = self.peeked
        if peeked is not None and peeked[0] == key and len(peeked[2]) == last + 1 - cursor.line:
            return peeked[2]
        drawer = cursor.clone()
        drawers, found = [], []
        while drawer.line <= last:
            line, _pos = drawer.step()
            found.append((drawer.line_start(line), drawer.collisions() if drawer.sp_shown or drawer.sp_dma or drawer.regs[0x15] else NO_HITS))
            drawer.finish_line()
            drawers.append(drawer)
            drawer = drawer.clone()
        self.peeked = (key, drawers, found)
        return found

    def _collide(self, start: int, hits: Hits, until: int) -> None:
        """Set the registers from a line's *hits* (the line starting in cycle *start*), for its
        pixels drawn before beam time *until*: those from each register's ``*_from`` on."""
        ss, sb = hits
        base = 8 * start  # the beam time of the masks' bit 0
        end = NEVER if until >= NEVER else until - base
        if ss:
            bits, first = _bits(ss, self.ss_from - base, end)
            if bits:
                if not self.collide_ss:
                    self._raise(0x04, (base + first) // 8 + 1)
                self.collide_ss |= bits
        if sb:
            bits, first = _bits(sb, self.sb_from - base, end)
            if bits:
                if not self.collide_sb:
                    self._raise(0x02, (base + first) // 8 + 1)
                self.collide_sb |= bits

    def _schedule_lines(self, cycle: int) -> None:
        """With a collision interrupt enabled that an empty register can raise: look again in
        the cycle the next collision of the lines in progress shows, else when the next line
        that shows a sprite begins (one fetched at the end of line a shows on line a + 1), or
        in the cycle line a first shows one matched after its cycle 58 (``vicsprite.LATE_X``:
        it shows on the line its DMA begins), where the line a is later than this one."""
        self.line_event = NEVER
        kinds = [(bit, which) for bit, which, value in ((0x04, 0, self.collide_ss), (0x02, 1, self.collide_sb))
                 if self.enable & bit and not value]
        if not kinds or not self.regs[0x15]:
            return
        self._observe(cycle)
        self._rotate(cycle)
        self._walk(cycle)
        soonest = NEVER
        for start, hits in self._peek(cycle):
            base = 8 * start
            for _bit, which in kinds:
                since = self.sb_from if which else self.ss_from
                first = _bits(hits[which], max(since, 8 * cycle) - base, NEVER)[1]
                if first >= 0:
                    soonest = min(soonest, (base + first) // 8 + 1)
        if soonest < NEVER:
            self.line_event = max(soonest, cycle + 1)
            return
        here = cycle // CYCLES_PER_LINE
        a = self._next_sprite_line(here)
        if a > here:  # (a sprite matched late, X $164-$193, shows on line a itself: from its cycle 57)
            self.line_event = a * CYCLES_PER_LINE + LATE_CYCLE
        elif a >= 0:
            self.line_event = (a + 1) * CYCLES_PER_LINE

    # --- the phi-1 fetch ---------------------------------------------------------------
    def phi1_byte(self, cycle: int) -> int:
        """The byte the VIC read in the first half of *cycle*, which a read of open I/O
        ($DE00-$DFFF, no cartridge) sees in the second: by the cycle (0-based; VICE's x64sc,
        vicii-chip-model.c and vicii-fetch.c, PAL): 0-9 the pointers of sprites 3-7 and their
        first data bytes, 10-14 the refresh ($3F00 + a counter going down from $FF at a
        frame's start, 5 a line), 15-54 the g-accesses of columns 0-39, 55-56 $3FFF, 57-62
        the pointers and first data bytes of sprites 0-2; a data byte of a sprite without DMA
        reads $3FFF (VICE testprogs VICII/phi1timing, its reference taken on a C64)."""
        self._observe(cycle)
        self._rotate(cycle)
        frame = self.frame
        line, k = divmod(cycle - frame.cycle, CYCLES_PER_LINE)
        regs = self.regs
        bank = (3 - (regs[BANK_REG] & 3)) * 0x4000
        fetch = self.memory
        if 10 <= k <= 14:
            return fetch(bank + 0x3F00 + ((0xFF - 5 * line - (k - 10)) & 0xFF))
        if k in (55, 56):
            return fetch(bank + 0x3FFF)
        if 15 <= k <= 54:
            drawer = self._phi1_drawer(line)
            return drawer.g_access(k - 15, drawer._seen())[0]
        n, data = ((k - 57) // 2, k - 57 & 1) if k >= 57 else (3 + k // 2, k & 1)
        pointer = fetch(bank + (regs[0x18] >> 4) * 0x400 + 0x3F8 + n)
        if not data:
            return pointer
        fetched_in = line if k >= 57 else line - 1  # (sprites 3-7: the fetch of the line before)
        absolute = cycle // CYCLES_PER_LINE - (line - fetched_in)
        if not self.sprites.fetched(absolute, regs) >> n & 1:
            return fetch(bank + 0x3FFF)
        if fetched_in < 0:  # (the frame before's last line)
            return fetch(bank + pointer * 64 + 1)
        drawer = self._phi1_drawer(fetched_in)
        drawer.finish_line()  # (the sequencer's cycles and its fetches at the line's end)
        return drawer.sp_data[n] >> 8 & 0xFF  # (the s-access in phi 1: the second byte)

    def _phi1_drawer(self, line: int) -> LineDrawer:
        """A drawer of the current frame stepped into *line* (its counters as the line has them)."""
        frame = self.frame
        key = (frame.cycle, len(frame.writes))
        walk = self.phi1_walk
        if walk is None or walk[0] != key or walk[1].line > line:
            walk = (key, LineDrawer(frame, self.memory, self.colour_ram, self.model, self.timed))
        drawer = walk[1]
        while drawer.line < line:
            drawer.step()
            drawer.finish_line()
        self.phi1_walk = (key, drawer.clone())
        drawer.step()
        return drawer

    # --- the light pen -----------------------------------------------------------------
    def light_pen(self, low: bool, cycle: int) -> None:
        """The light pen line from *cycle* on: a falling edge latches the beam's position
        in the next cycle ($D013 X / 2, $D014 the line) and sets interrupt bit 3, once a
        frame; a line held low retriggers at the frame's start (VICE's x64sc,
        vicii-lightpen.c: the trigger one cycle after the edge, X from the cycle's
        position plus 2 on a 6569, 1 on an 8565, $D1 when retriggered; Bauer 3.13; VICE
        testprogs VICII/lp-trigger test2 and test2new, measured on both chips)."""
        self._pen_retrigger(cycle)
        if low and not self.pen_low:  # (latched in a frame's cycle 2: the retrigger there comes first)
            self._pen_latch(cycle + 1, (cycle + 1) % CYCLES_PER_FRAME == 1)
        self.pen_low = low

    def _pen_latch(self, cycle: int, retrigger: bool) -> None:
        # (the latch is freed for a new frame in its line 0's cycle 2, where a pen held low
        # retriggers: a latch in cycle 1 still counts to the frame before, line 311)
        frame = (cycle - 1) // CYCLES_PER_FRAME
        if frame == self.pen_frame:
            return
        self.pen_frame = frame
        line, k = self.raster_line(cycle), cycle % CYCLES_PER_LINE
        if line == LINES - 1 and k > 0:  # (not in the last line but for its first cycle)
            return
        # the X position of cycle k (0-based) as the latch takes it: the raster X counter at
        # the cycle's start ($194 + 8k, wrapping after $1F7 to 0) with its low three bits
        # cleared (VICE's x64sc, vicii-chip-model.c: a cycle's xpos is its phi-1 X / 8)
        xpos = (0x194 + 8 * k) % X_POSITIONS & ~7
        self.lpx = 0xD1 if retrigger else (xpos // 2 + (2 if self.model == "6569" else 1)) & 0xFF
        self.lpy = line & 0xFF
        self.update(cycle)
        self._raise(0x08, cycle)
        self.on_change()

    def _pen_retrigger(self, cycle: int) -> None:
        """A pen held low since an earlier frame latches again at this frame's start."""
        if self.pen_low:
            start = cycle - cycle % CYCLES_PER_FRAME + 1  # (VICE: the frame starts in cycle 2 of line 0)
            if start <= cycle and start // CYCLES_PER_FRAME != self.pen_frame:
                self._pen_latch(start, True)

    # --- registers --------------------------------------------------------------------
    def read(self, reg: int, cycle: int) -> int:
        reg &= 0x3F
        r = self.regs
        if reg == 0x11:
            value = (r[0x11] & 0x7F) | ((self.raster_line(cycle) & 0x100) >> 1)
        elif reg == 0x12:
            value = self.raster_line(cycle) & 0xFF
        elif reg == 0x19:
            self._pen_retrigger(cycle)
            if r[0x15] and (self.enable & 0x06 or self.wants_collisions):
                self.catch_up(cycle)
            self.update(cycle)
            value = self.flags | 0x70 | (0x80 if self.flags & self.enable else 0)
        elif reg == 0x1A:
            value = self.enable | 0xF0
        elif reg in (0x13, 0x14):
            self._pen_retrigger(cycle)
            value = self.lpx if reg == 0x13 else self.lpy
        elif reg in (0x1E, 0x1F):  # collisions: reading clears the register (Bauer 3.8.2)
            self.wants_collisions = True
            if r[0x15]:
                self.catch_up(cycle)
            if reg == 0x1E:
                value, self.collide_ss, self.ss_from = self.collide_ss, 0, 8 * cycle
            else:
                value, self.collide_sb, self.sb_from = self.collide_sb, 0, 8 * cycle
            if self.enable & 0x06:
                self._schedule_lines(cycle)
        elif reg == 0x16:
            value = r[reg] | 0xC0
        elif reg == 0x18:
            value = r[reg] | 0x01
        elif 0x20 <= reg <= 0x2E:
            value = r[reg] | 0xF0
        elif reg >= 0x2F:
            value = 0xFF
        else:
            value = r[reg]
        if cycle % CYCLES_PER_LINE in SPRITE_BUS_CYCLES:
            self._note_bus(cycle, value)
        return value

    def _note_bus(self, cycle: int, value: int) -> None:
        """A CPU read or write of a VIC register in a cycle with a sprite's phi-2 s-access: the
        byte is on the VIC's internal bus, which that s-access reads while the CPU has the bus
        (VICE's x64sc: vicii-mem.c, vicii_read and vicii_store set ``last_bus_phi2``;
        vicii-fetch.c, sprite_dma_cycle_0/2 take it without DMA or while BA has been low for
        fewer than 3 cycles; vicii-cycle.c sets it back to $FF after each cycle's phi-2
        fetches).  Logged with the byte at $3FFF of the bank as memory holds it now: the
        idle access of the s-access between (phi 1 of the next cycle, vicii_fetch_idle)
        reads it, and the CPU writes no RAM in this cycle.  (By cycle, in the frame log of
        the last write: the next frame's log takes those of its cycles, ``_rotate``; those of a
        frame's first line's cycles 0-9 belong to the frame before's line 311 as well, whose
        sprites 3-7 fetch in them, and go to its log too.)"""
        bank = (3 - (self.regs[BANK_REG] & 3)) * 0x4000
        bus = self.frame.bus
        seen = bus[cycle] = (value, self.memory(bank + 0x3FFF))
        if cycle - self.frame.cycle < LAST_LINE_FETCH and self.previous.cycle == self.frame.cycle - CYCLES_PER_FRAME:
            self.previous.bus[cycle] = seen
        if len(bus) > BUS_KEPT:  # (no write began a new frame log for a while: drop what no frame drawn needs)
            self.frame.bus = _bus_from(bus, cycle - cycle % CYCLES_PER_FRAME - CYCLES_PER_FRAME)

    def write(self, reg: int, value: int, cycle: int) -> None:
        reg &= 0x3F
        if cycle % CYCLES_PER_LINE in SPRITE_BUS_CYCLES:
            self._note_bus(cycle, value)
        if reg == 0x19:  # acknowledge: a 1 bit clears the latch bit
            self.update(cycle)
            was = self.flags & self.enable
            self.flags &= ~value & 0x0F
            self._released(was, cycle)
            self.on_change()
            return
        if reg == 0x1A:
            self.update(cycle)
            if value & 0x06 and self.regs[0x15]:
                self.catch_up(cycle)  # (the latch bits of collisions so far, before the enable counts)
            was = self.flags & self.enable
            self.enable = value & 0x0F
            if not was and self.flags & self.enable:
                self.since = cycle + 1
            self._released(was, cycle)
            self._schedule_lines(cycle)
            self.on_change()
            return
        if reg > 0x2E:
            return
        self._observe(cycle)
        self._rotate(cycle)  # (a new frame's log starts from the registers before the write)
        if reg in vicsprite.SPRITE_DMA_REGS:
            self.sprites.write(cycle, reg, value, self.regs)
        if reg == 0x11:
            bus = self.bus_byte()
            if bus != self.regs[BUS_REG]:
                self.regs[BUS_REG] = bus
                self.frame.writes.append((cycle, BUS_REG, bus))
        self.regs[reg] = value
        self.frame.writes.append((cycle, reg, value))
        if reg == 0x11 and value & 0x10 and self.line(cycle) == vicdraw.DEN_LINE:
            self.den_frame = cycle // CYCLES_PER_FRAME
            self.frame.den = True
        if reg in vicsprite.SPRITE_DMA_REGS or reg == 0x11:
            if self.ba_to >= cycle:
                self._plan(cycle)
            # (else the CPU waited through the planned window before this write, in the
            # instruction making it, and has not been moved past it: the window stays, as
            # it was under the registers then; ``pass_bus`` plans the ones after)
            self.on_change()
        if reg in (0x11, 0x12):
            self.update(cycle)
            old = self.compare
            self.compare = (self.regs[0x12]) | ((self.regs[0x11] & 0x80) << 1)
            if self.compare != old and self.compare == self.raster_line(cycle + 1):
                # the VIC compares in every cycle and raises the flag where a mismatch turns
                # into a match (VICE's x64sc, vicii-cycle.c): a compare value changed to the
                # line it sees next matches then -- unless the old value matched the cycle
                # before, in the line before: a compare moved on with the raster holds
                # (VICE testprogs VICII/rasterirq/rasterirq_hold, its reference from a C64)
                if old != self.raster_line(cycle):
                    self._raise(0x01, cycle + 1)
                self._schedule(cycle + 1)
            else:
                self._schedule(cycle)
            self.on_change()
        if self.enable & 0x06 and reg in COLLISION_REGS:
            self._schedule_lines(cycle)
