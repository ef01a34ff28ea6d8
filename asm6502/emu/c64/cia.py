"""The MOS 6526 CIA: two interval timers, the interrupt control register, the
ports and the time-of-day clock (MOS 6526 datasheet; Mapping the C64, $DC00).

Timers are not ticked: a running timer is (value ``v`` at cycle ``b``); it
counts down one per cycle, underflows one cycle after reaching zero and
reloads its latch, so it underflows at ``b + v + 1`` and then every
``latch + 1`` cycles.  ``update(cycle)`` applies the underflows up to that
cycle; ``next_event()`` says when the next one is due, so the machine runs
the CPU up to it without looking at the chip in between.
"""

from __future__ import annotations

from collections.abc import Callable

# register numbers (datasheet)
PRA, PRB, DDRA, DDRB, TALO, TAHI, TBLO, TBHI = range(8)
TOD10, TODSEC, TODMIN, TODHR, SDR, ICR, CRA, CRB = range(8, 16)

NEVER = 1 << 62
PAL_CLOCK = 985_248  # Hz, PAL C64 (VIC-II 6569: 17.734475 MHz / 18)


class Timer:
    __slots__ = ("base", "external", "latch", "one_shot", "running", "value")

    def __init__(self) -> None:
        self.latch = 0xFFFF
        self.value = 0xFFFF
        self.base = 0
        self.running = False
        self.one_shot = False
        self.external = False  # not counting clock cycles: timer B counting A underflows (CRB bits 5-6 = 10), or CNT edges (none here)

    def now(self, cycle: int) -> int:
        if not self.running or self.external:
            return self.value
        elapsed = cycle - self.base
        if elapsed <= self.value:
            return self.value - elapsed
        period = self.latch + 1
        return self.latch - ((elapsed - self.value - 1) % period)

    def freeze(self, cycle: int) -> None:
        self.value = self.now(cycle)
        self.base = cycle

    def next_underflow(self) -> int:
        if not self.running or self.external:
            return NEVER
        return self.base + self.value + 1


class CIA:
    """One 6526.  ``port_a_in``/``port_b_in`` give the input lines of a port
    (the keyboard matrix on CIA 1), called with the port's output lines."""

    def __init__(self, name: str, port_a_in: Callable[[int, int], int] | None = None,
                 port_b_in: Callable[[int, int], int] | None = None):
        self.name = name
        self.regs = [0] * 16
        self.ta = Timer()
        self.tb = Timer()
        self.flags = 0  # interrupt sources that fired (ICR bits 0-4)
        self.mask = 0  # enabled sources
        self.port_a_in = port_a_in
        self.port_b_in = port_b_in
        self.tod_base = 0  # cycle at which TOD showed tod_start tenths
        self.tod_start = 0
        self.tod_running = True
        self.tod_latched: list[int] | None = None
        self.on_change: Callable[[], None] = lambda: None

    # -- interrupts ---------------------------------------------------------------
    @property
    def irq(self) -> bool:
        return bool(self.flags & self.mask)

    def _underflow_a(self, count: int) -> None:
        self.flags |= 0x01
        tb = self.tb
        if tb.running and tb.external and (self.regs[CRB] & 0x60) == 0x40:
            if count > tb.value:
                self.flags |= 0x02
                if tb.one_shot:
                    tb.running = False
                    self.regs[CRB] &= 0xFE
                    tb.value = tb.latch
                else:
                    over = count - tb.value - 1
                    tb.value = tb.latch - over % (tb.latch + 1)
            else:
                tb.value -= count

    def update(self, cycle: int) -> None:
        """Apply every underflow due at or before *cycle*."""
        for timer, is_a in ((self.ta, True), (self.tb, False)):
            due = timer.next_underflow()
            if due > cycle:
                continue
            if timer.one_shot:
                count = 1
                timer.running = False
                timer.value = timer.latch
                timer.base = due
                self.regs[CRA if is_a else CRB] &= 0xFE
            else:
                period = timer.latch + 1
                count = 1 + (cycle - due) // period
                timer.base = due + (count - 1) * period
                timer.value = timer.latch
            if is_a:
                self._underflow_a(count)
            else:
                self.flags |= 0x02

    def next_event(self) -> int:
        """The next cycle at which an underflow matters (sets a flag, drives timer B)."""
        return min(self.ta.next_underflow(), self.tb.next_underflow())

    # -- registers -----------------------------------------------------------------
    def read(self, reg: int, cycle: int) -> int:
        r = self.regs
        if reg == PRA:
            out = r[PRA] | (~r[DDRA] & 0xFF)
            return self.port_a_in(out, r[PRB] | (~r[DDRB] & 0xFF)) if self.port_a_in else out
        if reg == PRB:
            out = r[PRB] | (~r[DDRB] & 0xFF)
            return self.port_b_in(r[PRA] | (~r[DDRA] & 0xFF), out) if self.port_b_in else out
        if reg in (TALO, TAHI, TBLO, TBHI):
            self.update(cycle)
            value = (self.ta if reg < TBLO else self.tb).now(cycle)
            return value & 0xFF if reg in (TALO, TBLO) else value >> 8
        if TOD10 <= reg <= TODHR:
            if reg == TODHR:
                self.tod_latched = self._tod(cycle)
            regs = self.tod_latched or self._tod(cycle)
            if reg == TOD10:
                self.tod_latched = None
            return regs[reg - TOD10]
        if reg == ICR:
            self.update(cycle)
            value = self.flags | (0x80 if self.flags & self.mask else 0)
            self.flags = 0
            self.on_change()
            return value
        if reg == CRA:
            return r[CRA] & 0xEF  # the force-load bit reads 0
        if reg == CRB:
            return r[CRB] & 0xEF
        return r[reg]

    def write(self, reg: int, value: int, cycle: int) -> None:
        r = self.regs
        if reg in (TALO, TAHI, TBLO, TBHI):
            timer = self.ta if reg < TBLO else self.tb
            self.update(cycle)
            timer.freeze(cycle)
            if reg in (TALO, TBLO):
                timer.latch = (timer.latch & 0xFF00) | value
            else:
                timer.latch = (timer.latch & 0x00FF) | value << 8
                if not timer.running:  # writing the high byte of a stopped timer loads it
                    timer.value = timer.latch
            self.on_change()
            return
        if reg in (CRA, CRB):
            timer = self.ta if reg == CRA else self.tb
            self.update(cycle)
            timer.freeze(cycle)
            if value & 0x10:  # force load
                timer.value = timer.latch
            timer.one_shot = bool(value & 0x08)
            # CRA bit 5 / CRB bits 5-6 other than 00: count CNT edges (no CNT
            # input here) or, for timer B, timer A's underflows (10)
            timer.external = bool(value & (0x20 if reg == CRA else 0x60))
            timer.running = bool(value & 0x01)
            r[reg] = value & 0xEF
            self.on_change()
            return
        if reg == ICR:
            self.update(cycle)
            if value & 0x80:
                self.mask |= value & 0x1F
            else:
                self.mask &= ~value & 0x1F
            self.on_change()
            return
        if TOD10 <= reg <= TODHR:
            if not (self.regs[CRB] & 0x80):  # CRB bit 7 = 0: writes set the clock (not the alarm)
                regs = self._tod(cycle)
                regs[reg - TOD10] = value
                self.tod_start = _tod_tenths(regs)
                self.tod_base = cycle
                self.tod_running = reg == TOD10  # writing hours stops it, tenths starts it
            return
        r[reg] = value

    # -- time of day: BCD tenths, seconds, minutes, hours (bit 7 = PM) -------------
    def _tod(self, cycle: int) -> list[int]:
        tenths = self.tod_start
        if self.tod_running:
            tenths += (cycle - self.tod_base) * 10 // PAL_CLOCK
        tenths %= 12 * 60 * 60 * 10
        secs, tenth = divmod(tenths, 10)
        mins, sec = divmod(secs, 60)
        hours, minute = divmod(mins, 60)
        pm = 0x80 if hours >= 12 else 0
        hour12 = hours % 12 or 12
        return [tenth, _bcd(sec), _bcd(minute), _bcd(hour12) | pm]


def _bcd(n: int) -> int:
    return (n // 10) << 4 | n % 10


def _unbcd(b: int) -> int:
    return (b >> 4 & 0x0F) * 10 + (b & 0x0F)


def _tod_tenths(regs: list[int]) -> int:
    hours = _unbcd(regs[3] & 0x1F) % 12 + (12 if regs[3] & 0x80 else 0)
    return ((hours * 60 + _unbcd(regs[2])) * 60 + _unbcd(regs[1])) * 10 + (regs[0] & 0x0F)
