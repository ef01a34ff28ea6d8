"""The MOS 6569 VIC-II (PAL) as far as a program sees it through its registers
(Mapping the C64, $D000-$D02E; Christian Bauer, "The MOS 6567/6569 video
controller"): 63 cycles a raster line, 312 lines a frame, the raster counter
in $D012 and bit 7 of $D011, the raster compare interrupt, the interrupt
latch $D019 and enable $D01A.  The screen itself is drawn from memory when
asked (``screen.py``); the cycles a real VIC steals on bad lines and for
sprites are not taken from the CPU.
"""

from __future__ import annotations

CYCLES_PER_LINE = 63
LINES = 312
CYCLES_PER_FRAME = CYCLES_PER_LINE * LINES  # 19,656: 50.125 frames a second at 985,248 Hz

NEVER = 1 << 62


class VIC:
    def __init__(self) -> None:
        self.regs = [0] * 0x40
        self.compare = 0  # raster compare line (write $D012 + bit 7 of $D011)
        self.flags = 0  # $D019 bits 0-3
        self.enable = 0  # $D01A bits 0-3
        self.next_compare = NEVER  # cycle of the next raster compare match
        self.since = NEVER  # the cycle from which the interrupt output is active
        self.on_change = lambda: None

    @staticmethod
    def line(cycle: int) -> int:
        return cycle // CYCLES_PER_LINE % LINES

    @property
    def irq(self) -> bool:
        return bool(self.flags & self.enable)

    def _schedule(self, cycle: int) -> None:
        if self.compare >= LINES:
            self.next_compare = NEVER
            return
        frame = cycle - cycle % CYCLES_PER_FRAME
        due = frame + self.compare * CYCLES_PER_LINE
        self.next_compare = due if due > cycle else due + CYCLES_PER_FRAME

    def low_at(self, cycle: int) -> bool:
        return bool(self.flags & self.enable) and self.since <= cycle

    def _raise(self, bits: int, cycle: int) -> None:
        was = self.flags & self.enable
        self.flags |= bits
        if not was and self.flags & self.enable:
            self.since = cycle

    def update(self, cycle: int) -> None:
        if self.next_compare <= cycle:
            self._raise(0x01, self.next_compare)
            self._schedule(cycle)

    def next_event(self) -> int:
        return self.next_compare

    def read(self, reg: int, cycle: int) -> int:
        reg &= 0x3F
        r = self.regs
        if reg == 0x11:
            return (r[0x11] & 0x7F) | ((self.line(cycle) & 0x100) >> 1)
        if reg == 0x12:
            return self.line(cycle) & 0xFF
        if reg == 0x19:
            self.update(cycle)
            return self.flags | 0x70 | (0x80 if self.flags & self.enable else 0)
        if reg == 0x1A:
            return self.enable | 0xF0
        if reg in (0x13, 0x14):  # light pen: no pen
            return 0
        if reg in (0x1E, 0x1F):  # sprite collisions: none are computed
            return 0
        if reg == 0x16:
            return r[reg] | 0xC0
        if reg == 0x18:
            return r[reg] | 0x01
        if 0x20 <= reg <= 0x2E:
            return r[reg] | 0xF0
        if reg >= 0x2F:
            return 0xFF
        return r[reg]

    def write(self, reg: int, value: int, cycle: int) -> None:
        reg &= 0x3F
        if reg == 0x19:  # acknowledge: a 1 bit clears the latch bit
            self.update(cycle)
            self.flags &= ~value & 0x0F
            self.on_change()
            return
        if reg == 0x1A:
            self.update(cycle)
            was = self.flags & self.enable
            self.enable = value & 0x0F
            if not was and self.flags & self.enable:
                self.since = cycle + 1
            self.on_change()
            return
        self.regs[reg] = value
        if reg in (0x11, 0x12):
            self.update(cycle)
            old = self.compare
            self.compare = (self.regs[0x12]) | ((self.regs[0x11] & 0x80) << 1)
            if self.compare != old and self.compare == self.line(cycle):
                # a compare value changed to the line being drawn matches at once
                # (VICE's VIC-II; the chip compares whenever either side changes)
                self._raise(0x01, cycle + 1)
            self._schedule(cycle)
            self.on_change()
