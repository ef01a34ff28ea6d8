"""The MOS 6526 CIA to the cycle, as a program sees it: two interval timers,
the interrupt control register, the ports with the timer outputs on PB6/PB7,
the time-of-day clock with its alarm and the serial shift register.

Sources: the MOS 6526 datasheet (registers, modes, TOD latching and stop,
the alarm); Wolfgang Lorenz's C64 test suite 2.15 (Test_Suite_2_15.txt and
its CIA programs: the delays of start, stop, force load and one-shot, the
cascade, PB6/PB7, the ICR one cycle before the interrupt); the documents
of VICE's CIA test programs (testprogs/CIA: TOD, the AM/PM flip on writing
hour 12, the 6526/6526A interrupt delay).

Time: cycle ``t`` is one phi2 clock.  A CPU read in cycle ``t`` sees the
chip as the clocks before ``t`` left it; a write in cycle ``t`` is in force
from cycle ``t + 1``.  Each clock a timer does, in this order:

* ``count`` (the count input of this cycle): the start bit and the input
  mode in force -- phi2, or timer A's underflow of the cycle before
  (timer B cascaded), or CNT edges (CNT is pulled high and has no edges);
* the decrement happens one cycle after the count input that causes it;
* an underflow: the counter is 0 and the count input is active -- so a
  counting timer goes 1 -> 0 and underflows in the same clock and is never
  seen at 0, a timer fed slowly (cascaded) shows 0 until its next count;
* a load (force load strobed one cycle before, the high latch byte written
  to a stopped timer, or the underflow itself) puts the latch into the
  counter and cancels the decrement of the next cycle: a latch of N gives an
  underflow every N + 1 cycles; after an underflow the latch is loaded once
  more in that next cycle (a latch written then is the one that counts);
* on an underflow the ICR bit is set (a read in the next cycle sees it),
  one-shot mode (the bit in force now or one cycle before) clears the start
  bit, PBx pulses high for one cycle or toggles.

The interrupt output follows the ICR one cycle late on the 6526 (a read of
the ICR in the cycle after the underflow returns the bit without bit 7 and
keeps the interrupt from happening) and in the same cycle on the 6526A.
A read of the ICR in the very clock of an underflow (it returns the ICR
without the new bit) has two effects that VICE's test programs measured on
C64s: on the 6526A the interrupt output goes active one cycle later
(testprogs/interrupts/cia-int, the -new reference data); on the 6526 an
underflow of timer B loses its ICR bit, while the interrupt output still
goes active (testprogs/CIA/cia-timer, dump-oldcia.bin: the ICR reads $80).

Nothing is ticked while it is not looked at: ``advance(t)`` runs the clocks
up to ``t``, one by one around an event and in one step across a stretch of
plain counting; ``next_event()`` says in which cycle the interrupt output
will go active, so the machine runs the CPU up to it.
"""

from __future__ import annotations

from collections.abc import Callable

# register numbers (datasheet)
PRA, PRB, DDRA, DDRB, TALO, TAHI, TBLO, TBHI = range(8)
TOD10, TODSEC, TODMIN, TODHR, SDR, ICR, CRA, CRB = range(8, 16)

# control register bits (datasheet, CRA/CRB)
START, PBON, TOGGLE, ONESHOT, LOAD = 0x01, 0x02, 0x04, 0x08, 0x10
INMODE_A = 0x20  # CRA: count CNT edges
INMODE_B = 0x60  # CRB: 00 phi2, 01 CNT edges, 10 timer A underflows, 11 those while CNT is high
SPMODE = 0x40  # CRA: serial port output
TODIN = 0x80  # CRA: the TOD input is 50 Hz (else 60 Hz)
ALARM = 0x80  # CRB: TOD writes set the alarm

# ICR bits
INT_TA, INT_TB, INT_ALARM, INT_SP, INT_FLAG = 0x01, 0x02, 0x04, 0x08, 0x10

NEVER = 1 << 62
PAL_CLOCK = 985_248  # Hz, PAL C64 (VIC-II 6569: 17.734475 MHz / 18)
TOD_HZ = 50  # the PAL C64 feeds the mains frequency to the TOD pin
# The serial port's interrupt comes a few cycles after the last bit's first CNT edge (the
# 15th underflow of timer A): VICE's testprogs/CIA/shiftregister, measured on a 6526, see
# it with the 16th underflow's ICR read, together with the interrupt bit (any delay of 1-4
# cycles gives that).
SP_DELAY = 2


class Timer:
    __slots__ = ("counter", "cr", "decrement", "flip", "latch", "load", "oneshot_write", "pulse_at",
                 "reloading", "stopped_at")

    def __init__(self) -> None:
        self.latch = 0xFFFF
        self.counter = 0xFFFF
        self.cr = 0  # the control register in force (without the load strobe)
        self.decrement = False  # the count input of the cycle before: decrement in this cycle
        self.load = False  # load the latch in this cycle
        self.reloading = False  # the cycle after an underflow: the latch is loaded once more
        self.oneshot_write = False  # the one-shot bit written in this cycle (it acts at once)
        self.flip = True  # the toggle flip-flop (PBx in toggle mode); a rising start bit sets it
        self.pulse_at = -1  # the cycle in which PBx shows the one-cycle pulse of the last underflow
        self.stopped_at = -1  # the clock in which a one-shot underflow last cleared the start bit


class CIA:
    """One 6526.  ``port_a_in``/``port_b_in`` give the input lines of a port
    (the keyboard matrix on CIA 1), called with the port's output lines.
    ``new_model``: the 6526A (the interrupt output in the cycle of the ICR bit)."""

    def __init__(self, name: str, port_a_in: Callable[[int, int], int] | None = None,
                 port_b_in: Callable[[int, int], int] | None = None, new_model: bool = False):
        self.name = name
        self.regs = [0] * 16
        self.ta = Timer()
        self.tb = Timer()
        self.clock = 0  # the next cycle to run
        self.flags = 0  # interrupt sources that fired (ICR bits 0-4)
        self.mask = 0  # enabled sources
        self.ir = False  # the interrupt output (ICR bit 7)
        self.irq_at = NEVER  # the cycle from which the output is active
        self.released = (NEVER, NEVER)  # (from, until): the last activity, ended by a read of the ICR
        self.edges = 0  # how often the output went active (the NMI input is edge-triggered)
        self.edge_at = NEVER  # the cycle it last went active
        self.irq_delay = 0 if new_model else 1
        self.ta_underflowed = False  # timer A underflowed in the cycle before (timer B's cascade input)
        self.icr_read_at = -1  # the cycle of the last read of the ICR
        self.bare = False  # the 6526's timer B bug: the output goes active without an ICR bit
        self.port_a_in = port_a_in
        self.port_b_in = port_b_in
        # serial port output: the CNT edges (underflows of timer A) left to send, two a bit
        self.sp_bits = 0
        self.sp_due = -1  # the clock in which the byte sent sets the ICR bit
        # time of day: BCD tenths, seconds, minutes, hours (bit 7 PM)
        self.tod = [0, 0, 0, 0x01]
        self.alarm = [0, 0, 0, 0]
        self.tod_latch: list[int] | None = None
        # at power-up the clock stands at 1:00:00.0 until the tenths are written, the alarm
        # at 0:00:00.0 (VICE testprogs/CIA/tod/powerup.s, measured on C64s)
        self.tod_running = False
        self.tod_prescaler = 0
        self.tod_pulse = 1  # index of the next 50 Hz pulse
        self.tod_next = PAL_CLOCK // TOD_HZ
        self.on_change: Callable[[], None] = lambda: None

    # -- the clocks --------------------------------------------------------------
    def advance(self, to: int) -> None:
        """Run every clock before cycle *to*."""
        t = self.clock
        while t < to:
            if t >= self.tod_next:
                self._tod_pulse()
            k = self._quiet(min(to, self.tod_next, self.sp_due if self.sp_due >= t else to) - t)
            if k:
                t += k
                continue
            self._tick(t)
            t += 1
        self.clock = max(t, self.clock)

    def _quiet(self, limit: int) -> int:
        """How many of the next *limit* clocks are plain counting (no underflow,
        no load, no change pending); they are applied at once."""
        if self.ta_underflowed or (self.flags & self.mask or self.bare) and not self.ir:
            return 0
        k = limit
        ta, tb = self.ta, self.tb
        if ta.load or ta.oneshot_write or ta.reloading:
            return 0
        a_counts = ta.cr & (START | INMODE_A) == START
        if ta.decrement != a_counts:
            return 0
        if a_counts:
            if ta.counter < 2:
                return 0
            k = min(k, ta.counter - 1)
        if tb.load or tb.oneshot_write or tb.reloading:
            return 0
        b_counts = tb.cr & (START | INMODE_B) == START  # phi2; cascaded: no underflow of A in the stretch
        if tb.decrement != b_counts:
            return 0
        if b_counts:
            if tb.counter < 2:
                return 0
            k = min(k, tb.counter - 1)
            tb.counter -= k
        if a_counts:
            ta.counter -= k
        return k

    def _tick(self, t: int) -> None:
        if not self.ir and (self.flags & self.mask or self.bare):
            self.bare = False
            self._assert(t + 1)
        ta, tb = self.ta, self.tb
        cra = ta.cr
        a_count = cra & (START | INMODE_A) == START
        a_under = self._clock_timer(ta, a_count, t, INT_TA)
        crb = tb.cr
        mode = crb & INMODE_B
        if not crb & START or mode == 0x20:
            b_count = False
        elif mode == 0:
            b_count = True
        else:  # 10, 11: timer A's underflows (CNT is high)
            b_count = self.ta_underflowed
        if self._clock_timer(tb, b_count, t, INT_TB) and self.icr_read_at == t and self.irq_delay:
            self.bare = bool(self.flags & self.mask)  # the 6526's timer B bug (module docstring)
            self.flags &= ~INT_TB
        self.ta_underflowed = a_under
        if self.sp_due == t:
            self.flags |= INT_SP
        if a_under and cra & SPMODE and self.sp_bits:
            # output mode: every underflow of timer A is a CNT edge, two shift a bit out;
            # the interrupt follows the last bit's first edge a few cycles later
            self.sp_bits -= 1
            if self.sp_bits == 1:
                self.sp_bits = 0
                self.sp_due = t + SP_DELAY
        if self.irq_delay == 0 and not self.ir and self.flags & self.mask:
            self._assert(t + 2 if self.icr_read_at == t else t + 1)  # the 6526A (module docstring)

    def _clock_timer(self, tm: Timer, count: bool, t: int, bit: int) -> bool:
        if tm.decrement:
            tm.counter = (tm.counter - 1) & 0xFFFF
        elif tm.reloading:
            tm.counter = tm.latch
        tm.reloading = False
        under = False
        if count and tm.counter == 0:
            under = True
            self.flags |= bit
            tm.flip = not tm.flip
            tm.pulse_at = t + 1
            if tm.cr & ONESHOT or tm.oneshot_write:
                tm.cr &= ~START & 0xFF
                tm.stopped_at = t
            tm.load = tm.reloading = True
        tm.oneshot_write = False
        if tm.load:
            tm.counter = tm.latch
            tm.load = False
            tm.decrement = False
            tm.reloading = under
        else:
            tm.decrement = count
        return under

    def _assert(self, cycle: int) -> None:
        self.ir = True
        self.irq_at = self.edge_at = cycle
        self.edges += 1

    # -- what the machine asks ----------------------------------------------------
    @property
    def irq(self) -> bool:
        return self.ir

    def low_at(self, cycle: int) -> bool:
        """Was the interrupt output active in *cycle* (at most a few cycles back)?"""
        if self.ir and self.irq_at <= cycle:
            return True
        start, end = self.released
        return start <= cycle < end

    def next_event(self) -> int:
        """The cycle in which the interrupt output goes active next, as far as it
        can be foreseen; otherwise a cycle soon enough to look again."""
        if self.ir:
            return NEVER
        soon = self.clock + 1
        if self.flags & self.mask or self.bare:
            return soon
        ta, tb = self.ta, self.tb
        if ta.load or tb.load or ta.reloading or tb.reloading or self.ta_underflowed:
            return soon  # clock by clock through a load
        wanted = self.mask & ~self.flags
        event = NEVER
        a_next = self._next_underflow(ta, INMODE_A)
        if a_next < NEVER:
            if wanted & INT_TA:
                event = min(event, a_next + 1 + self.irq_delay)
            if tb.cr & START and tb.cr & INMODE_B in (0x40, 0x60) and wanted & INT_TB:
                event = min(event, a_next + 1)  # timer B counts: look again after each underflow of A
            if ta.cr & SPMODE and self.sp_bits and wanted & INT_SP:
                event = min(event, a_next + 1)
        if wanted & INT_TB and not tb.cr & INMODE_B:
            event = min(event, self._next_underflow(tb, INMODE_B) + 1 + self.irq_delay)
        if wanted & INT_SP and self.sp_due >= self.clock:
            event = min(event, self.sp_due + 2)
        if wanted & INT_ALARM and self.tod_running:
            event = min(event, self.tod_next + 1)
        return max(event, soon)

    def _next_underflow(self, tm: Timer, inmode: int) -> int:
        """The clock of the next underflow of a timer counting phi2 (NEVER if it stands);
        a timer about to start is looked at again in the next clock."""
        counting = tm.cr & (START | inmode) == START
        if not counting:
            return self.clock if tm.decrement else NEVER
        if not tm.decrement or tm.counter == 0:
            return self.clock - 1  # starting, or a count input on 0: clock by clock
        return self.clock + tm.counter - 1

    # -- registers -----------------------------------------------------------------
    def _port_b_timers(self, value: int, cycle: int) -> int:
        for tm, bit in ((self.ta, 0x40), (self.tb, 0x80)):
            if tm.cr & PBON:
                on = tm.flip if tm.cr & TOGGLE else tm.pulse_at == cycle
                value = value | bit if on else value & ~bit
        return value

    def read(self, reg: int, cycle: int) -> int:
        r = self.regs
        if reg == PRA:
            out = r[PRA] | (~r[DDRA] & 0xFF)
            return self.port_a_in(out, r[PRB] | (~r[DDRB] & 0xFF)) if self.port_a_in else out
        if reg == PRB:
            out = r[PRB] | (~r[DDRB] & 0xFF)
            if self.port_b_in:
                out = self.port_b_in(r[PRA] | (~r[DDRA] & 0xFF), out)
            if (self.ta.cr | self.tb.cr) & PBON:
                self.advance(cycle)
                out = self._port_b_timers(out, cycle)
            return out
        if TALO <= reg <= TBHI:
            self.advance(cycle)
            value = (self.ta if reg < TBLO else self.tb).counter
            return value & 0xFF if reg in (TALO, TBLO) else value >> 8
        if TOD10 <= reg <= TODHR:
            self.advance(cycle)
            if reg == TODHR and self.tod_latch is None:
                self.tod_latch = list(self.tod)
            value = (self.tod_latch or self.tod)[reg - TOD10]
            if reg == TOD10:
                self.tod_latch = None
            return value
        if reg == ICR:
            self.advance(cycle)
            value = self.flags | (0x80 if self.ir else 0)
            self.icr_read_at = cycle
            self.bare = False
            if self.ir:
                self.released = (self.irq_at, cycle + 1)
            self.flags = 0
            self.ir = False
            self.irq_at = NEVER
            self.on_change()
            return value
        if reg == CRA:
            self.advance(cycle)
            return self.ta.cr
        if reg == CRB:
            self.advance(cycle)
            return self.tb.cr
        return r[reg]

    def write(self, reg: int, value: int, cycle: int) -> None:
        r = self.regs
        if TALO <= reg <= TBHI:
            # the latch takes the byte in the write's own cycle: an underflow in that cycle
            # reloads the new value (Lorenz, CIA1TA-CIA2TB)
            self.advance(cycle)
            tm = self.ta if reg < TBLO else self.tb
            if reg in (TALO, TBLO):
                tm.latch = (tm.latch & 0xFF00) | value
            else:
                tm.latch = (tm.latch & 0x00FF) | value << 8
                if not tm.cr & START:  # the high byte written to a stopped timer loads it
                    tm.load = True
            self.on_change()
            return
        if reg in (CRA, CRB):
            tm = self.ta if reg == CRA else self.tb
            # the one-shot bit written acts in the write's own cycle, the bit it replaces
            # still in that cycle: setting it one cycle before an underflow stops the timer,
            # clearing it then does not (Lorenz, FLIPOS)
            self.advance(cycle)
            tm.oneshot_write = bool(value & ONESHOT)
            self.advance(cycle + 1)
            if tm.stopped_at == cycle:
                value &= ~START  # a one-shot underflow in the write's cycle clears the start bit written
            if value & START and not tm.cr & START:
                tm.flip = True
            if value & LOAD:
                tm.load = True
            if reg == CRA and (value ^ tm.cr) & SPMODE:
                self.sp_bits = 0  # switching the serial port direction ends a transfer
            tm.cr = value & ~LOAD & 0xFF
            self.on_change()
            return
        if reg == ICR:
            # the 6526A decides on its output in the clock of the write with the new mask
            # already (testprogs/interrupts/cia-int, -new reference data: an underflow in
            # the cycle of the write that clears the mask does not interrupt)
            self.advance(cycle + self.irq_delay)
            if value & 0x80:
                self.mask |= value & 0x1F
            else:
                self.mask &= ~value & 0x1F
            self.on_change()
            return
        if TOD10 <= reg <= TODHR:
            self.advance(cycle + 1)
            setting_alarm = bool(self.tb.cr & ALARM)
            if reg == TODHR:
                value = _hour_written(value, flip_pm=not setting_alarm)
            else:
                value &= (0x0F, 0x7F, 0x7F)[reg - TOD10]
            regs = self.alarm if setting_alarm else self.tod
            changed = regs[reg - TOD10] != value
            regs[reg - TOD10] = value
            if not setting_alarm:
                if reg == TODHR:
                    self.tod_running = False
                elif reg == TOD10 and not self.tod_running:
                    self.tod_running = True
                    self.tod_prescaler = 0
            # time and alarm are compared when a count or a write changes one of them; a
            # write of the value a register already holds compares nothing (VICE
            # testprogs/CIA/tod: 4tod, 5tod and 0alarm see no alarm from rewriting the time
            # the alarm holds, alarm-cond and alarm-cond2 one from completing the match)
            if changed:
                self._check_alarm()
            self.on_change()
            return
        if reg == SDR:
            self.advance(cycle + 1)
            r[SDR] = value
            if self.ta.cr & SPMODE:
                self.sp_bits = 16  # 8 bits, a CNT edge on every underflow of timer A
            self.on_change()
            return
        r[reg] = value

    # -- time of day ------------------------------------------------------------
    def _tod_pulse(self) -> None:
        self.tod_pulse += 1
        self.tod_next = self.tod_pulse * PAL_CLOCK // TOD_HZ
        if not self.tod_running:
            return
        self.tod_prescaler += 1
        if self.tod_prescaler < (5 if self.ta.cr & TODIN else 6):
            return
        self.tod_prescaler = 0
        self.tod = _tod_step(self.tod)
        self._check_alarm()

    def _check_alarm(self) -> None:
        if self.tod == self.alarm:
            self.flags |= INT_ALARM


def _bcd_step(value: int, high_wrap: int) -> tuple[int, bool]:
    """One BCD digit pair +1: the low digit rolls over after 9, the high one at *high_wrap*."""
    low = (value + 1) & 0x0F
    high = value >> 4
    if low == 10:
        low = 0
        high += 1
        if high == high_wrap:
            return 0, True
    return (high & 0x07) << 4 | low, False


def _tod_step(tod: list[int]) -> list[int]:
    tenths, sec, minute, hour = tod
    tenths = (tenths + 1) & 0x0F
    if tenths != 10:
        return [tenths, sec, minute, hour]
    tenths = 0
    sec, carry = _bcd_step(sec, 6)
    if carry:
        minute, carry = _bcd_step(minute, 6)
        if carry:
            pm = hour & 0x80
            h = hour & 0x1F
            if h == 0x11:
                h, pm = 0x12, pm ^ 0x80  # 11 -> 12 changes AM/PM
            elif h == 0x12:
                h = 0x01
            elif h == 0x09:
                h = 0x10
            else:
                h = (h & 0x10) | ((h + 1) & 0x0F)
            hour = pm | h
    return [tenths, sec, minute, hour]


def _hour_written(value: int, flip_pm: bool) -> int:
    """The hour register keeps bit 7 (PM) and 5 bits; writing 12 to the time flips
    AM/PM (VICE testprogs/CIA/tod/hour-test.txt, measured on C64s).  Writing 12 to
    the alarm does not, as in VICE's x64sc (no measurement of the alarm's hour is
    published)."""
    value &= 0x9F
    if flip_pm and value & 0x1F == 0x12:
        value ^= 0x80
    return value
