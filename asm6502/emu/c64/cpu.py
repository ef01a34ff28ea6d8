"""The 6510 of the C64 machine: py65's 6502 with memory-mapped I/O and cycles.

``C64CPU`` is the harness's ``FastMPU`` (py65's own instruction methods with
cheaper helpers) whose memory operations know the C64's memory map:

* a read in $D000-$DFFF first lets the machine put the current value of the
  I/O register there (``io_read``: the raster counter, a CIA timer, the
  keyboard matrix; reading a CIA's interrupt register also clears it), then
  the instruction reads the memory list as usual;
* a write to $0000/$0001 (the 6510's own port) or to $A000-$FFFF goes
  through ``write_high`` (ROM areas keep the ROM and write the RAM below,
  I/O writes reach the chips); every other write is a plain list store.

``cycles`` counts the clock cycles: the machine adds py65's cycle count of
each instruction (``MPU.cycletime``); a taken branch adds one cycle and one
more when it crosses a page (MCS6500 programming manual, appendix A) -- the
extra cycle of indexed reads crossing a page is not counted.
"""

from __future__ import annotations

from collections.abc import Callable

from py65.devices.mpu6502 import MPU

from asm6502.emu.harness import FastMPU

IO_LOW = 0xCFFF  # reads above this and below $E000 are I/O (when banked in)
IO_END = 0xE000


class C64CPU(FastMPU):
    def __init__(self, memory: list[int], io_read: Callable[[int], None], write_high: Callable[[int, int], None]):
        super().__init__(memory=memory, pc=0)
        self.io_read = io_read
        self.write_high = write_high
        self.cycles = 0
        self.limit = 0  # the machine's next event cycle; the run loop stops at it

    # -- addressing helpers: py65's results without its wrap helper calls -----
    def ZeroPageXAddr(self):
        return (self.x + self.memory[self.pc]) & 0xFF

    def ZeroPageYAddr(self):
        return (self.y + self.memory[self.pc]) & 0xFF

    def IndirectXAddr(self):
        m = self.memory
        zp = (m[self.pc] + self.x) & 0xFF
        return m[zp] | m[(zp + 1) & 0xFF] << 8

    def IndirectYAddr(self):
        m = self.memory
        zp = m[self.pc]
        return ((m[zp] | m[(zp + 1) & 0xFF] << 8) + self.y) & 0xFFFF

    # -- branches: +1 cycle when taken, +1 more across a page -----------------
    def opBCL(self, x):
        if self.p & x:
            self.pc += 1
        else:
            pc = self.pc
            offset = self.memory[pc]
            pc += 1
            new = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF
            self.cycles += 1 if (new ^ pc) < 0x100 else 2
            self.pc = new

    def opBST(self, x):
        if self.p & x:
            pc = self.pc
            offset = self.memory[pc]
            pc += 1
            new = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF
            self.cycles += 1 if (new ^ pc) < 0x100 else 2
            self.pc = new
        else:
            self.pc += 1

    # -- reads ------------------------------------------------------------------
    def opLDA(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.memory[addr]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opLDX(self, y):
        addr = y()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.memory[addr]
        self.x = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opLDY(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.memory[addr]
        self.y = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opAND(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.a & self.memory[addr]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opORA(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.a | self.memory[addr]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opEOR(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        v = self.a ^ self.memory[addr]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opBIT(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        t = self.memory[addr]
        self.p = (self.p & 0x3D) | (t & 0xC0) | (0 if self.a & t else 0x02)

    def opCMPR(self, get_address, register_value):
        addr = get_address()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        t = self.memory[addr]
        p = self.p & 0x7C
        if register_value == t:
            p |= 0x03
        elif register_value > t:
            p |= 0x01
        self.p = p | ((register_value - t) & 0x80)

    def opADC(self, x):
        addr = x()  # the addressing helpers do not move the PC: x() may be called again
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        MPU.opADC(self, x)

    def opSBC(self, x):
        addr = x()
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        MPU.opSBC(self, x)

    # -- writes -------------------------------------------------------------------
    def opSTA(self, x):
        addr = x()
        if 1 < addr < 0xA000:
            self.memory[addr] = self.a
        else:
            self.write_high(addr, self.a)

    def opSTX(self, y):
        addr = y()
        if 1 < addr < 0xA000:
            self.memory[addr] = self.x
        else:
            self.write_high(addr, self.x)

    def opSTY(self, x):
        addr = x()
        if 1 < addr < 0xA000:
            self.memory[addr] = self.y
        else:
            self.write_high(addr, self.y)

    def stPush(self, z):
        self.memory[self.sp + 0x100] = z & 0xFF
        self.sp = (self.sp - 1) & 0xFF

    # -- read-modify-write: read (with I/O), compute, write (with the map) -------
    def _rmw_read(self, addr):
        if IO_LOW < addr < IO_END:
            self.io_read(addr)
        return self.memory[addr]

    def _rmw_write(self, addr, value):
        if 1 < addr < 0xA000:
            self.memory[addr] = value
        else:
            self.write_high(addr, value)

    def opASL(self, x):
        if x is None:
            t = self.a
            r = (t << 1) & 0xFF
            self.a = r
        else:
            addr = x()
            t = self._rmw_read(addr)
            r = (t << 1) & 0xFF
            self._rmw_write(addr, r)
        self.p = (self.p & 0x7C) | (t >> 7) | ((r & 0x80) if r else 0x02)

    def opLSR(self, x):
        if x is None:
            t = self.a
            self.a = t >> 1
        else:
            addr = x()
            t = self._rmw_read(addr)
            self._rmw_write(addr, t >> 1)
        self.p = (self.p & 0x7C) | (t & 0x01) | (0 if t > 1 else 0x02)

    def opROL(self, x):
        if x is None:
            t = self.a
            r = ((t << 1) | (self.p & 1)) & 0xFF
            self.a = r
        else:
            addr = x()
            t = self._rmw_read(addr)
            r = ((t << 1) | (self.p & 1)) & 0xFF
            self._rmw_write(addr, r)
        self.p = (self.p & 0x7C) | (t >> 7) | ((r & 0x80) if r else 0x02)

    def opROR(self, x):
        if x is None:
            t = self.a
            r = (t >> 1) | ((self.p & 1) << 7)
            self.a = r
        else:
            addr = x()
            t = self._rmw_read(addr)
            r = (t >> 1) | ((self.p & 1) << 7)
            self._rmw_write(addr, r)
        self.p = (self.p & 0x7C) | (t & 1) | ((r & 0x80) if r else 0x02)

    def opINCR(self, x):
        if x is None:
            r = (self.a + 1) & 0xFF
            self.a = r
        else:
            addr = x()
            r = (self._rmw_read(addr) + 1) & 0xFF
            self._rmw_write(addr, r)
        self.p = (self.p & 0x7D) | ((r & 0x80) if r else 0x02)

    def opDECR(self, x):
        if x is None:
            r = (self.a - 1) & 0xFF
            self.a = r
        else:
            addr = x()
            r = (self._rmw_read(addr) - 1) & 0xFF
            self._rmw_write(addr, r)
        self.p = (self.p & 0x7D) | ((r & 0x80) if r else 0x02)


CYCLES: tuple[int, ...] = tuple(MPU.cycletime)
