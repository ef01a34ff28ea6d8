"""py65's NMOS 6502 with cheaper helpers: the base of the C64's 6510 (``cpu.C64CPU``).

py65 is the CPU the machine is built on; this subclass keeps its instruction
methods and replaces the helpers they call on every instruction by versions
with the same results and fewer Python operations (an instruction runs millions
of times a second, so these are written for speed: ARCHITECTURE.md, "Speed").
"""

from __future__ import annotations

from py65.devices.mpu6502 import MPU


class FastMPU(MPU):
    """py65's NMOS 6502 with cheaper helpers.

    Every instruction without a memory operand is still py65's own ``inst_0xNN``
    method; the addressing and operation helpers it calls (``AbsoluteXAddr``,
    ``opLSR``, ``opCMPR``, ``opBCL`` ...) are replaced by versions computing
    the same values and flags with fewer Python operations (flag masks: N $80,
    V $40, Z $02, C $01).  py65's cycle bookkeeping (``excycles``) is dropped:
    the C64's CPU (``cpu.C64CPU``) counts cycles itself.  ``ByteAt`` becomes the
    memory list's own ``__getitem__``.  The tests compare this class with py65's
    MPU on random programs.
    """

    def __init__(self, memory, pc=0):
        super().__init__(memory=memory, pc=pc)
        self.ByteAt = memory.__getitem__
        self.addcycles = False  # take py65's cycle-free branch in the (zp),Y helper

    def WordAt(self, addr):
        m = self.memory
        return m[addr] + (m[addr + 1] << 8)

    def AbsoluteAddr(self):
        m = self.memory
        pc = self.pc
        return m[pc] + (m[pc + 1] << 8)

    def AbsoluteXAddr(self):
        m = self.memory
        pc = self.pc
        return (m[pc] + (m[pc + 1] << 8) + self.x) & 0xFFFF

    def AbsoluteYAddr(self):
        m = self.memory
        pc = self.pc
        return (m[pc] + (m[pc + 1] << 8) + self.y) & 0xFFFF

    def FlagsNZ(self, value):
        # N = bit 7 of the value, Z = value is zero (flags $80 and $02)
        self.p = (self.p & 0x7D) | ((value & 0x80) if value else 0x02)

    def BranchRelAddr(self):
        pc = self.pc
        offset = self.memory[pc]
        pc += 1
        self.pc = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF

    def stPush(self, z):
        self.memory[self.sp + 0x100] = z & 0xFF
        self.sp = (self.sp - 1) & 0xFF

    def stPop(self):
        self.sp = (self.sp + 1) & 0xFF
        return self.memory[self.sp + 0x100]

    # operations: same results as py65's op* methods
    def opLDA(self, x):
        v = self.memory[x()]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opLDX(self, y):
        v = self.memory[y()]
        self.x = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opLDY(self, x):
        v = self.memory[x()]
        self.y = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opAND(self, x):
        v = self.a & self.memory[x()]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opORA(self, x):
        v = self.a | self.memory[x()]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opEOR(self, x):
        v = self.a ^ self.memory[x()]
        self.a = v
        self.p = (self.p & 0x7D) | ((v & 0x80) if v else 0x02)

    def opBIT(self, x):
        t = self.memory[x()]
        self.p = (self.p & 0x3D) | (t & 0xC0) | (0 if self.a & t else 0x02)

    def opASL(self, x):
        if x is None:
            t = self.a
            r = (t << 1) & 0xFF
            self.a = r
        else:
            addr = x()
            t = self.memory[addr]
            r = (t << 1) & 0xFF
            self.memory[addr] = r
        self.p = (self.p & 0x7C) | (t >> 7) | ((r & 0x80) if r else 0x02)

    def opLSR(self, x):
        if x is None:
            t = self.a
            self.a = t >> 1
        else:
            addr = x()
            t = self.memory[addr]
            self.memory[addr] = t >> 1
        self.p = (self.p & 0x7C) | (t & 0x01) | (0 if t > 1 else 0x02)

    def opINCR(self, x):
        if x is None:
            r = (self.a + 1) & 0xFF
            self.a = r
        else:
            addr = x()
            r = (self.memory[addr] + 1) & 0xFF
            self.memory[addr] = r
        self.p = (self.p & 0x7D) | ((r & 0x80) if r else 0x02)

    def opDECR(self, x):
        if x is None:
            r = (self.a - 1) & 0xFF
            self.a = r
        else:
            addr = x()
            r = (self.memory[addr] - 1) & 0xFF
            self.memory[addr] = r
        self.p = (self.p & 0x7D) | ((r & 0x80) if r else 0x02)

    def opCMPR(self, get_address, register_value):
        t = self.memory[get_address()]
        p = self.p & 0x7C
        if register_value == t:
            p |= 0x03
        elif register_value > t:
            p |= 0x01
        self.p = p | ((register_value - t) & 0x80)

    def opBCL(self, x):  # branch if flag x clear
        if self.p & x:
            self.pc += 1
        else:
            pc = self.pc
            offset = self.memory[pc]
            pc += 1
            self.pc = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF

    def opBST(self, x):  # branch if flag x set
        if self.p & x:
            pc = self.pc
            offset = self.memory[pc]
            pc += 1
            self.pc = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF
        else:
            self.pc += 1
