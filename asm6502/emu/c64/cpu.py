"""The 6510 of the C64 machine: py65's 6502 with the C64's memory map, every
opcode and its cycles.

``C64CPU`` is ``mpu.FastMPU`` (py65's instruction methods with
cheaper helpers).  Its instruction table (``instruction_table``) takes the
instructions without a memory operand (implied, accumulator, stack, jumps,
branches) from ``implied.IMPLIED`` (flat functions with py65's results; BRK, RTI
and PLP stay py65's) and makes every instruction with one from the opcode
table ``EVERY_OPCODE`` (below, made from the tables the assembler's ``--cpu
6502i`` is made from) out of an addressing mode, an access (read, write,
read-modify-write) and an operation:

* a read at $A000 and above (the banked areas, ``BANKED``) reads the list
  ``blocks`` names for its 4 KB block (``blocks[addr >> 12][addr]``: the memory
  list, or the ROM or RAM in view where the memory list does not hold it, each
  a 64 KB list indexed by address; the memory map puts the tuple for its
  configuration in place by reference, one store a bank switch), or, where
  ``blocks`` has None (the I/O registers), asks the machine (``io_read``, called for the I/O registers only: the raster counter,
  a CIA timer, the keyboard matrix; reading a CIA's interrupt register also clears
  it); every other read is a plain list read;
* a write to $0000/$0001 (the 6510's own port: ``write_port`` from zero page)
  or to $A000-$FFFF goes through ``write_high`` (ROM areas keep the ROM and
  write the RAM below, I/O writes reach the chips); a write to the RAM the
  VIC-II reads is kept with its cycle and the byte it replaces (``vicmem``: by
  the instruction itself below $A000, else by the machine's ``store``); every
  other write is a plain list store;
* the bus accesses a program can see happen as on the chip ("64doc" by John
  West and Marko Makela, "6510 Instruction Timing"): an indexed access first
  reads the address before the index carried into the high byte (a read only
  when it carries), which reaches an I/O register there; a read-modify-write
  of an I/O register writes the old value back before the new one (``INC
  $D019`` acknowledges a raster interrupt).

These are the exact instructions (``exact_instructions``); the table the machine runs
(``instruction_table``) has the commonest of them flat (``flat.py``: one function each,
the exact one's where the address is not plain RAM or ROM).

``cycles`` counts the clock cycles: the machine adds each opcode's cycles
(``CYCLES``, from the opcode table) after the instruction; an instruction adds
its own extra cycles while it runs -- a taken branch one, one more across a
page (MCS6500 programming manual, appendix A), an indexed read one when the
index crosses a page.  During an I/O access (``io_read``, ``write_high``),
``cycles + access_cycle`` is the cycle of that bus access (``access_cycle`` is
0 for the opcode fetch; the last cycle of an instruction is its cycle count
minus one).

The undocumented opcodes behave as "No More Secrets - NMOS 6510 Unintended
Opcodes" (groepaz, 2021) describes them; the unstable LXA and ANE OR A with a constant
that differs from chip to chip, and for ANE on a C64C with whether the read of its operand
waits for the VIC: the machine's model gives them (``c64models.Model``: ``ane``, ``ane_rdy``,
``lxa``, ``lxa_rdy``; $EE on the first C64s as Lorenz's suite expects, $EF / $EE for ANE on
a C64C as VICE testprogs CPU/ane expect; docs/c64.md); SHA, SHX, SHY and
SHS store the register AND the high byte of the address plus one, and across a page that
value is also the high byte of the address written (without the AND when the VIC holds
the read before the write).  A JAM opcode stops the CPU (``Jammed``).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING

from asm6502.c64models import DEFAULT, Model
from asm6502.emu.c64.flat import BANKED, flat_instructions
from asm6502.emu.c64.implied import IMPLIED, NOP
from asm6502.emu.c64.mpu import FastMPU
from asm6502.opcodes import ACCESS, OPCODES, PAGE_CROSSING_MODES, Access, Mode, cycles
from asm6502.opcodes_undoc import ACCESS as UNDOCUMENTED_ACCESS
from asm6502.opcodes_undoc import ALTERNATES, UNDOCUMENTED

if TYPE_CHECKING:
    from asm6502.emu.c64.vicmem import VicMemory

IO_LOW = 0xCFFF  # reads above this and below $E000 are I/O (when banked in)
IO_END = 0xE000
PLAIN_WRITES = tuple(1 < a <= BANKED for a in range(0x10000))  # $0002-$9FFF
# a kept store (``instruction_table``): KEEP, one the instruction keeps itself; CALL, one it
# hands to the keeper
KEEP, CALL = 1, 2
NOT_KEPT = (0,) * 0x10000

class Opcode:
    """One of the 256 opcodes of the NMOS 6510 as the emulator runs it."""

    __slots__ = ("access", "code", "cycles", "documented", "mnemonic", "mode", "page_penalty", "size")

    def __init__(self, code: int, mnemonic: str, mode: Mode, documented: bool):
        self.code = code
        self.mnemonic = mnemonic
        self.mode = mode
        self.documented = documented
        own = ACCESS.get(mnemonic, Access.OTHER)
        self.access = own if documented else UNDOCUMENTED_ACCESS.get(mnemonic, own)  # SBC $EB: SBC's
        self.size = 1 + mode.operand_size
        self.cycles = cycles(self.access, mnemonic, mode)
        self.page_penalty = self.access is Access.READ and mode in PAGE_CROSSING_MODES

    def __repr__(self) -> str:
        return f"Opcode(${self.code:02X} {self.mnemonic} {self.mode.label}, {self.cycles} cycles)"


def _every_opcode() -> tuple[Opcode, ...]:
    found = {code: Opcode(code, m, mode, True) for m, modes in OPCODES.items() for mode, code in modes.items()}
    for m, modes in UNDOCUMENTED.items():
        for mode, code in modes.items():
            found[code] = Opcode(code, m, mode, False)
    for code, (m, mode) in ALTERNATES.items():
        found[code] = Opcode(code, m, mode, False)
    assert sorted(found) == list(range(256))
    return tuple(found[code] for code in range(256))


#: opcode byte -> its facts: the documented and the undocumented opcodes of ``--cpu 6502i``,
#: plus the other encodings the assembler never emits (``opcodes_undoc.ALTERNATES``)
EVERY_OPCODE: tuple[Opcode, ...] = _every_opcode()

#: cycles of each opcode without its extra cycles (taken branch, indexed read across a page)
CYCLES: tuple[int, ...] = tuple(op.cycles for op in EVERY_OPCODE)
#: bytes of each opcode with its operand
SIZES: tuple[int, ...] = tuple(op.size for op in EVERY_OPCODE)
JAM_OPCODES: frozenset[int] = frozenset(op.code for op in EVERY_OPCODE if op.mnemonic == "JAM")


def _tail_writes(op) -> int:
    """Bit i set: cycle (last - i) of the instruction is a write; every other cycle is a
    read, the extra cycles of a page crossing or a taken branch too (64doc, "6510
    Instruction Timing"): a store's last cycle, a read-modify-write's last two, PHA/PHP
    the last, JSR the two before the last, BRK (and an interrupt) cycles 3-5 of 7."""
    if op.mnemonic in ("PHA", "PHP"):
        return 0b1
    if op.mnemonic == "JSR":
        return 0b110
    if op.mnemonic == "BRK":
        return 0b11100
    if op.access is Access.WRITE:
        return 0b1
    if op.access is Access.RMW and op.mode is not Mode.ACCUMULATOR:
        return 0b11
    return 0


#: per opcode: which of its last cycles are writes (bit i: the cycle i before the last)
TAIL_WRITES: tuple[int, ...] = tuple(_tail_writes(op) for op in EVERY_OPCODE)
INTERRUPT_WRITES = 0b11100  # the interrupt sequence pushes as BRK does (from its first cycle: 2-4 of 0-6)


class Jammed(Exception):
    """A JAM opcode ran: the CPU stops (on the chip it hangs until reset)."""

    def __init__(self, opcode: int, pc: int):
        super().__init__(f"the CPU jammed: opcode ${opcode:02X} at ${pc:04X}")
        self.message = str(self)
        self.opcode = opcode
        self.pc = pc


class C64CPU(FastMPU):
    def __init__(self, memory: list[int], io_read: Callable[[int], int], write_high: Callable[[int, int], None],
                 model: Model = DEFAULT):
        super().__init__(memory=memory, pc=0)
        # the constants LXA and ANE OR A with: with the bus free, and when the read of the
        # operand waits for the VIC (the model's)
        self.ane, self.ane_rdy, self.lxa, self.lxa_rdy = model.ane, model.ane_rdy, model.lxa, model.lxa_rdy
        self.io_read = io_read
        self.write_high = write_high
        self.cycles = 0
        self.access_cycle = 0  # during an I/O access: its cycle is cycles + access_cycle
        self.limit = 0  # the machine's next event cycle; the run loop stops at it
        self.write_port = write_high  # a zero-page write to $00/$01
        #: per 4 KB block: the list a read above BANKED reads (indexed by address), None: io_read
        self.blocks: tuple[list[int] | None, ...] = (memory,) * 13 + (None,) + (memory,) * 2
        # whether the read in the cycle cycles + offset waits for the VIC (the machine sets it;
        # asked by the few instructions whose result depends on it)
        self.read_waits: Callable[[int], bool] = lambda offset: False

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

    def stPush(self, z):
        self.memory[self.sp + 0x100] = z & 0xFF
        self.sp = (self.sp - 1) & 0xFF

    def inst_0x6c(self):
        """JMP (ind): the pointer's bytes are read through the memory map (in cycles 3 and 4,
        64doc); the high byte comes from the same page (the NMOS 6502 does not carry into
        the pointer's high byte: MCS6500 programming manual, JMP)."""
        m = self.memory
        pc = self.pc
        ptr = m[pc] | m[pc + 1] << 8
        high = (ptr & 0xFF00) | ((ptr + 1) & 0xFF)
        if ptr > BANKED:  # (the blocks' bounds are page bounds: both bytes are in one block)
            src = self.blocks[ptr >> 12]
            if src is None:
                self.access_cycle = 3
                low = self.io_read(ptr)
                self.access_cycle = 4
                self.pc = low | self.io_read(high) << 8
            else:
                self.pc = src[ptr] | src[high] << 8
        else:
            self.pc = m[ptr] | m[high] << 8

    # -- arithmetic shared by ADC/SBC and the combined undocumented opcodes -----
    def adc(self, v: int) -> None:
        """A + v + C; in decimal mode as the NMOS 6502 does it (Bruce Clark, "Decimal
        Mode", appendix A: Z from the binary sum, N and V from the sum before the high
        digit's correction, C after it)."""
        a = self.a
        p = self.p
        c = p & 1
        binary = a + v + c
        if p & 0x08:
            lo = (a & 0x0F) + (v & 0x0F) + c
            if lo > 9:
                lo = ((lo + 6) & 0x0F) + 0x10
            r = (a & 0xF0) + (v & 0xF0) + lo
            flags = (r & 0x80) | (0x40 if ~(a ^ v) & (a ^ r) & 0x80 else 0) | (0 if binary & 0xFF else 0x02)
            if r >= 0xA0:
                r += 0x60
            self.p = (p & 0x3C) | flags | (1 if r > 0xFF else 0)
            self.a = r & 0xFF
            return
        r = binary & 0xFF
        self.p = ((p & 0x3C) | (r & 0x80) | (0x40 if ~(a ^ v) & (a ^ r) & 0x80 else 0)
                  | (0 if r else 0x02) | (binary >> 8))
        self.a = r

    def sbc(self, v: int) -> None:
        """A - v - (1 - C); in decimal mode the NMOS 6502's result digits, all flags from
        the binary difference (Clark, appendix A)."""
        a = self.a
        p = self.p
        c = p & 1
        diff = a - v - 1 + c
        r = diff & 0xFF
        self.p = ((p & 0x3C) | (r & 0x80) | (0x40 if (a ^ v) & (a ^ r) & 0x80 else 0)
                  | (0 if r else 0x02) | (0 if diff < 0 else 1))
        if p & 0x08:
            lo = (a & 0x0F) - (v & 0x0F) + c - 1
            if lo < 0:
                lo = ((lo - 6) & 0x0F) - 0x10
            r = (a & 0xF0) - (v & 0xF0) + lo
            if r < 0:
                r -= 0x60
            r &= 0xFF
        self.a = r

    def compare(self, register: int, v: int) -> None:
        d = register - v
        self.p = (self.p & 0x7C) | (d & 0x80) | (0 if d else 0x02) | (0 if d < 0 else 1)


# --- operations ----------------------------------------------------------------------
# read: f(cpu, value); read-modify-write: f(cpu, old) -> new (flags and registers set);
# write: f(cpu) -> the value stored.

def _nz(cpu, v):
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _lda(cpu, v):
    cpu.a = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _ldx(cpu, v):
    cpu.x = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _ldy(cpu, v):
    cpu.y = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _and(cpu, v):
    v &= cpu.a
    cpu.a = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _ora(cpu, v):
    v |= cpu.a
    cpu.a = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _eor(cpu, v):
    v ^= cpu.a
    cpu.a = v
    cpu.p = (cpu.p & 0x7D) | ((v & 0x80) if v else 0x02)


def _cmp(cpu, v):
    d = cpu.a - v
    cpu.p = (cpu.p & 0x7C) | (d & 0x80) | (0 if d else 0x02) | (0 if d < 0 else 1)


def _cpx(cpu, v):
    d = cpu.x - v
    cpu.p = (cpu.p & 0x7C) | (d & 0x80) | (0 if d else 0x02) | (0 if d < 0 else 1)


def _cpy(cpu, v):
    d = cpu.y - v
    cpu.p = (cpu.p & 0x7C) | (d & 0x80) | (0 if d else 0x02) | (0 if d < 0 else 1)


def _bit(cpu, v):
    cpu.p = (cpu.p & 0x3D) | (v & 0xC0) | (0 if cpu.a & v else 0x02)


def _lax(cpu, v):
    cpu.a = cpu.x = v
    _nz(cpu, v)


def _lxa(cpu, v):  # LAX #imm: the unstable one (its operand read in cycle 1)
    magic = cpu.lxa if cpu.lxa == cpu.lxa_rdy or not cpu.read_waits(1) else cpu.lxa_rdy
    _lax(cpu, (cpu.a | magic) & v)


def _las(cpu, v):  # LDS / LAS: A = X = S = memory AND S
    v &= cpu.sp
    cpu.a = cpu.x = cpu.sp = v
    _nz(cpu, v)


def _anc(cpu, v):
    _and(cpu, v)
    cpu.p = (cpu.p & 0xFE) | (cpu.a >> 7)


def _asr(cpu, v):  # ALR: AND, then LSR A
    v &= cpu.a
    r = v >> 1
    cpu.a = r
    cpu.p = (cpu.p & 0x7C) | (v & 1) | (0 if r else 0x02)


def _arr(cpu, v):
    """AND, then ROR A, with its own flags; in decimal mode the digits are corrected
    as Lorenz's arrb.asm expects of the chip (64doc, "ARR")."""
    t = cpu.a & v
    p = cpu.p
    r = (t >> 1) | ((p & 1) << 7)
    if p & 0x08:
        flags = (r & 0x80) | (0 if r else 0x02) | ((r ^ t) & 0x40)
        if (t & 0x0F) >= 5:
            r = (r & 0xF0) | ((r + 6) & 0x0F)
        carry = 0
        if (t & 0xF0) >= 0x50:
            r = (r + 0x60) & 0xFF
            carry = 1
        cpu.p = (p & 0x3C) | flags | carry
    else:
        cpu.p = (p & 0x3C) | (r & 0x80) | (0 if r else 0x02) | ((r >> 6) & 1) | ((r ^ (r << 1)) & 0x40)
    cpu.a = r


def _ane(cpu, v):  # XAA: the unstable one (its operand read in cycle 1)
    magic = cpu.ane if cpu.ane == cpu.ane_rdy or not cpu.read_waits(1) else cpu.ane_rdy
    _lda(cpu, (cpu.a | magic) & cpu.x & v)


def _sbx(cpu, v):  # AXS: X = (A AND X) - value, C as in CMP, V kept
    d = (cpu.a & cpu.x) - v
    x = d & 0xFF
    cpu.x = x
    cpu.p = (cpu.p & 0x7C) | (x & 0x80) | (0 if x else 0x02) | (0 if d < 0 else 1)


def _nop(cpu, v):
    pass


READS: dict[str, Callable] = {
    "LDA": _lda, "LDX": _ldx, "LDY": _ldy, "AND": _and, "ORA": _ora, "EOR": _eor, "BIT": _bit,
    "ADC": C64CPU.adc, "SBC": C64CPU.sbc,
    "CMP": _cmp, "CPX": _cpx, "CPY": _cpy,
    "LAX": _lax, "LDS": _las, "NOP": _nop, "ANC": _anc, "ASR": _asr, "ARR": _arr, "ANE": _ane, "SBX": _sbx,
}


def _asl(cpu, v):
    r = (v << 1) & 0xFF
    cpu.p = (cpu.p & 0x7C) | (v >> 7) | ((r & 0x80) if r else 0x02)
    return r


def _lsr(cpu, v):
    r = v >> 1
    cpu.p = (cpu.p & 0x7C) | (v & 1) | (0 if r else 0x02)
    return r


def _rol(cpu, v):
    r = ((v << 1) | (cpu.p & 1)) & 0xFF
    cpu.p = (cpu.p & 0x7C) | (v >> 7) | ((r & 0x80) if r else 0x02)
    return r


def _ror(cpu, v):
    r = (v >> 1) | ((cpu.p & 1) << 7)
    cpu.p = (cpu.p & 0x7C) | (v & 1) | ((r & 0x80) if r else 0x02)
    return r


def _inc(cpu, v):
    r = (v + 1) & 0xFF
    cpu.p = (cpu.p & 0x7D) | ((r & 0x80) if r else 0x02)
    return r


def _dec(cpu, v):
    r = (v - 1) & 0xFF
    cpu.p = (cpu.p & 0x7D) | ((r & 0x80) if r else 0x02)
    return r


def _slo(cpu, v):  # ASL, then ORA
    r = _asl(cpu, v)
    _ora(cpu, r)
    return r


def _rla(cpu, v):  # ROL, then AND
    r = _rol(cpu, v)
    _and(cpu, r)
    return r


def _sre(cpu, v):  # LSR, then EOR
    r = _lsr(cpu, v)
    _eor(cpu, r)
    return r


def _rra(cpu, v):  # ROR, then ADC (decimal mode included)
    r = _ror(cpu, v)
    cpu.adc(r)
    return r


def _dcp(cpu, v):  # DEC, then CMP
    r = (v - 1) & 0xFF
    cpu.compare(cpu.a, r)
    return r


def _isb(cpu, v):  # ISC: INC, then SBC (decimal mode included)
    r = (v + 1) & 0xFF
    cpu.sbc(r)
    return r


RMWS: dict[str, Callable] = {
    "ASL": _asl, "LSR": _lsr, "ROL": _rol, "ROR": _ror, "INC": _inc, "DEC": _dec,
    "SLO": _slo, "RLA": _rla, "SRE": _sre, "RRA": _rra, "DCP": _dcp, "ISB": _isb,
}

WRITES: dict[str, Callable] = {  # (attrgetter: no Python call for the plain stores)
    "STA": attrgetter("a"), "STX": attrgetter("x"), "STY": attrgetter("y"),
    "SAX": lambda cpu: cpu.a & cpu.x,
}
#: SHA, SHX, SHY, SHS: the register value ANDed with the address's high byte + 1
HIGH_AND: dict[str, Callable] = {
    "SHA": lambda cpu: cpu.a & cpu.x, "SHX": lambda cpu: cpu.x, "SHY": lambda cpu: cpu.y,
    "SHS": lambda cpu: cpu.a & cpu.x,
}


# --- addressing: f(cpu) -> address; the PC points at the operand ----------------------

def _zp(cpu):
    return cpu.memory[cpu.pc]


def _zp_x(cpu):
    return (cpu.memory[cpu.pc] + cpu.x) & 0xFF


def _zp_y(cpu):
    return (cpu.memory[cpu.pc] + cpu.y) & 0xFF


def _abs(cpu):
    m = cpu.memory
    pc = cpu.pc
    return m[pc] | m[pc + 1] << 8


def _ind_x(cpu):
    m = cpu.memory
    zp = (m[cpu.pc] + cpu.x) & 0xFF
    return m[zp] | m[(zp + 1) & 0xFF] << 8


def _base_abs(cpu):
    m = cpu.memory
    pc = cpu.pc
    return m[pc] | m[pc + 1] << 8


def _base_ind(cpu):
    m = cpu.memory
    zp = m[cpu.pc]
    return m[zp] | m[(zp + 1) & 0xFF] << 8


def _dummy(cpu, base, addr, at):
    """The read of the address before the carry (the un-carried high byte): seen by an I/O
    register there (a read of RAM or ROM changes nothing)."""
    wrong = (base & 0xFF00) | (addr & 0xFF)
    if IO_LOW < wrong < IO_END and cpu.blocks[wrong >> 12] is None:
        cpu.access_cycle = at
        cpu.io_read(wrong)


# Indexed addressing, one function per mode (these run for every indexed access: no
# helper calls on the way).  *dummy_at*: the cycle of the read of the un-carried address.

def _abs_x_read(dummy_at):
    def address(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        addr = base + cpu.x
        if (addr ^ base) > 0xFF:  # across a page: the un-carried address is read, one cycle more
            _dummy(cpu, base, addr, dummy_at)
            cpu.cycles += 1
            return addr & 0xFFFF
        return addr

    return address


def _abs_y_read(dummy_at):
    def address(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        addr = base + cpu.y
        if (addr ^ base) > 0xFF:
            _dummy(cpu, base, addr, dummy_at)
            cpu.cycles += 1
            return addr & 0xFFFF
        return addr

    return address


def _ind_y_read(dummy_at):
    def address(cpu):
        m = cpu.memory
        zp = m[cpu.pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        if (addr ^ base) > 0xFF:
            _dummy(cpu, base, addr, dummy_at)
            cpu.cycles += 1
            return addr & 0xFFFF
        return addr

    return address


def _abs_x_write(dummy_at):
    def address(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        addr = base + cpu.x
        wrong = (base & 0xFF00) | (addr & 0xFF)  # always read first (a write cannot wait for the carry)
        if IO_LOW < wrong < IO_END and cpu.blocks[wrong >> 12] is None:
            cpu.access_cycle = dummy_at
            cpu.io_read(wrong)
        return addr & 0xFFFF

    return address


def _abs_y_write(dummy_at):
    def address(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        addr = base + cpu.y
        wrong = (base & 0xFF00) | (addr & 0xFF)
        if IO_LOW < wrong < IO_END and cpu.blocks[wrong >> 12] is None:
            cpu.access_cycle = dummy_at
            cpu.io_read(wrong)
        return addr & 0xFFFF

    return address


def _ind_y_write(dummy_at):
    def address(cpu):
        m = cpu.memory
        zp = m[cpu.pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        wrong = (base & 0xFF00) | (addr & 0xFF)
        if IO_LOW < wrong < IO_END and cpu.blocks[wrong >> 12] is None:
            cpu.access_cycle = dummy_at
            cpu.io_read(wrong)
        return addr & 0xFFFF

    return address


def _x(cpu):
    return cpu.x


def _y(cpu):
    return cpu.y


def _address(mode: Mode, access: Access, cycles: int):
    if mode is Mode.ZERO_PAGE:
        return _zp
    if mode is Mode.ZERO_PAGE_X:
        return _zp_x
    if mode is Mode.ZERO_PAGE_Y:
        return _zp_y
    if mode is Mode.ABSOLUTE:
        return _abs
    if mode is Mode.INDEXED_INDIRECT:
        return _ind_x
    # The cycle of the read of the un-carried address (64doc): a read's last cycle without
    # the page-crossing one; a write's second to last; a read-modify-write's fourth to last
    # (then come the read, the write of the old value and the write of the new one).
    if access is Access.READ:
        factory = {Mode.ABSOLUTE_X: _abs_x_read, Mode.ABSOLUTE_Y: _abs_y_read, Mode.INDIRECT_INDEXED: _ind_y_read}
        return factory[mode](cycles - 1)
    factory = {Mode.ABSOLUTE_X: _abs_x_write, Mode.ABSOLUTE_Y: _abs_y_write, Mode.INDIRECT_INDEXED: _ind_y_write}
    return factory[mode](cycles - 2 if access is Access.WRITE else cycles - 4)


# --- instructions ----------------------------------------------------------------------

def _read(op, address, operand, last):
    def inst(cpu):
        addr = address(cpu)
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                cpu.access_cycle = last
                op(cpu, cpu.io_read(addr))
            else:
                op(cpu, src[addr])
        else:
            op(cpu, cpu.memory[addr])
        cpu.pc += operand

    return inst


def _read_zp(op, address):
    def inst(cpu):
        op(cpu, cpu.memory[address(cpu)])
        cpu.pc += 1

    return inst


# The most frequent modes, zero page, absolute and (zero page),Y, with the address made in place.

def _read_ind_y(op, dummy_at, last):
    def inst(cpu):
        m = cpu.memory
        zp = m[cpu.pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        if (addr ^ base) > 0xFF:  # across a page: the un-carried address is read, one cycle more
            _dummy(cpu, base, addr, dummy_at)
            cpu.cycles += 1
            addr &= 0xFFFF
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                cpu.access_cycle = last
                op(cpu, cpu.io_read(addr))
            else:
                op(cpu, src[addr])
        else:
            op(cpu, m[addr])
        cpu.pc += 1

    return inst


def _write_ind_y(value, dummy_at, last, hooks):
    plain, kept, kept_writes, keep = hooks

    def inst(cpu):
        m = cpu.memory
        zp = m[cpu.pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        wrong = (base & 0xFF00) | (addr & 0xFF)  # always read first (a write cannot wait for the carry)
        if IO_LOW < wrong < IO_END and cpu.blocks[wrong >> 12] is None:
            cpu.access_cycle = dummy_at
            cpu.io_read(wrong)
        addr &= 0xFFFF
        if plain[addr]:
            m[addr] = value(cpu)
        elif kept[addr] == KEEP and cpu.cycles + last < cpu.limit:
            v = value(cpu)
            if m[addr] != v:
                kept_writes.append((cpu.cycles + last, addr, m[addr]))
                m[addr] = v
        else:
            cpu.access_cycle = last
            (keep if kept[addr] else cpu.write_high)(addr, value(cpu))
        cpu.pc += 1

    return inst


def _read_zero_page(op):
    def inst(cpu):
        m = cpu.memory
        op(cpu, m[m[cpu.pc]])
        cpu.pc += 1

    return inst


def _read_absolute(op, last):
    def inst(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                cpu.access_cycle = last
                op(cpu, cpu.io_read(addr))
            else:
                op(cpu, src[addr])
        else:
            op(cpu, m[addr])
        cpu.pc = pc + 2

    return inst


def _write_zero_page(value):
    def inst(cpu):
        m = cpu.memory
        addr = m[cpu.pc]
        if addr > 1:
            m[addr] = value(cpu)
        else:
            cpu.write_port(addr, value(cpu))
        cpu.pc += 1

    return inst


def _write_absolute(value, last, hooks):
    plain, kept, kept_writes, keep = hooks

    def inst(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if plain[addr]:
            m[addr] = value(cpu)
        elif kept[addr] == KEEP and cpu.cycles + last < cpu.limit:
            v = value(cpu)
            if m[addr] != v:
                kept_writes.append((cpu.cycles + last, addr, m[addr]))
                m[addr] = v
        else:
            cpu.access_cycle = last
            (keep if kept[addr] else cpu.write_high)(addr, value(cpu))
        cpu.pc = pc + 2

    return inst


def _rmw_zero_page(op, cycles):
    def inst(cpu):
        m = cpu.memory
        addr = m[cpu.pc]
        if addr > 1:
            m[addr] = op(cpu, m[addr])
        else:
            cpu.access_cycle = cycles - 1
            cpu.write_high(addr, op(cpu, m[addr]))
        cpu.pc += 1

    return inst


def _rmw_zero_page_x(op, cycles):
    def inst(cpu):
        m = cpu.memory
        addr = (m[cpu.pc] + cpu.x) & 0xFF
        if addr > 1:
            m[addr] = op(cpu, m[addr])
        else:
            cpu.access_cycle = cycles - 1
            cpu.write_high(addr, op(cpu, m[addr]))
        cpu.pc += 1

    return inst


def _immediate(op):
    def inst(cpu):
        op(cpu, cpu.memory[cpu.pc])
        cpu.pc += 1

    return inst


def _write(value, address, operand, last, hooks):
    plain, kept, kept_writes, keep = hooks

    def inst(cpu):
        addr = address(cpu)
        if plain[addr]:
            cpu.memory[addr] = value(cpu)
        elif kept[addr] == KEEP and cpu.cycles + last < cpu.limit:
            m = cpu.memory
            v = value(cpu)
            if m[addr] != v:
                kept_writes.append((cpu.cycles + last, addr, m[addr]))
                m[addr] = v
        else:
            cpu.access_cycle = last
            (keep if kept[addr] else cpu.write_high)(addr, value(cpu))
        cpu.pc += operand

    return inst


def _rmw(op, address, operand, cycles, hooks):
    plain, kept, kept_writes, keep = hooks
    last = cycles - 1

    def inst(cpu):
        addr = address(cpu)
        m = cpu.memory
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:  # an I/O register sees the old value written back first
                cpu.access_cycle = cycles - 3
                old = cpu.io_read(addr)
                new = op(cpu, old)
                cpu.access_cycle = cycles - 2
                cpu.write_high(addr, old)
                cpu.access_cycle = cycles - 1
                cpu.write_high(addr, new)
            else:
                cpu.access_cycle = last
                (keep if kept[addr] else cpu.write_high)(addr, op(cpu, src[addr]))
        elif plain[addr]:
            m[addr] = op(cpu, m[addr])
        elif kept[addr] == KEEP and cpu.cycles + last < cpu.limit:
            old = m[addr]
            new = op(cpu, old)
            if new != old:
                kept_writes.append((cpu.cycles + last, addr, old))
                m[addr] = new
        else:
            cpu.access_cycle = last
            (keep if kept[addr] else cpu.write_high)(addr, op(cpu, m[addr]))
        cpu.pc += operand

    return inst


def _high_and(value, base_of, index, operand, cycles, hooks):
    """SHA/SHX/SHY/SHS: store value AND (high byte of the base address + 1); across a
    page that AND is the high byte of the address written too.  When the VIC holds the
    read before the write (RDY low in that cycle), the AND drops out of the value
    stored: the register value itself is written (groepaz, "NMOS 6510 Unintended
    Opcodes", SHA/SHX/SHY/TAS; VICE testprogs CPU/sha, shs, shxy, measured on a C64)."""
    plain, kept, _kept_writes, keep = hooks

    def inst(cpu):
        base = base_of(cpu)
        addr = base + index(cpu)
        _dummy(cpu, base, addr, cycles - 2)
        anded = value(cpu) & ((base >> 8) + 1)
        v = value(cpu) if cpu.read_waits(cycles - 2) else anded
        if (addr ^ base) > 0xFF:
            addr = (anded << 8) | (addr & 0xFF)
        if plain[addr]:
            cpu.memory[addr] = v
        else:
            cpu.access_cycle = cycles - 1
            (keep if kept[addr] else cpu.write_high)(addr, v)
        cpu.pc += operand

    return inst


def _shs(cpu):  # TAS: S = A AND X, then SHA's store of S
    cpu.sp = cpu.a & cpu.x
    return cpu.sp


def _jam(code):
    def inst(cpu):
        cpu.pc = (cpu.pc - 1) & 0xFFFF
        raise Jammed(code, cpu.pc)

    return inst


def instruction_table(zero_page_store: Callable | None = None, kept: VicMemory | None = None) -> list:
    """The 256 instructions, indexed by opcode, each called with the CPU after the opcode
    fetch (the PC at the operand): ``exact_instructions``' (see there for the arguments),
    the commonest of them flat (``flat.flat_instructions``: the same accesses in one
    function, the exact one's where the address is not plain)."""
    table = exact_instructions(zero_page_store, kept)
    for code, inst in flat_instructions(table, PLAIN_WRITES if kept is None else kept.plain).items():
        table[code] = inst
    return table


def exact_instructions(zero_page_store: Callable | None = None, kept: VicMemory | None = None) -> list:
    """The 256 instructions made of an addressing mode, an access and an operation.
    *zero_page_store*: makes the instruction of a
    zero-page store (STA/STX/STY/SAX zp) from the function giving the value stored (the
    memory map's, which switches banks in place on a write to $01; default: a write to
    $00/$01 calls ``write_port``).  *kept*: the RAM the VIC reads, whose stores are kept
    with their cycle (``vicmem.VicMemory``; default none): a store to an address its
    ``plain`` list clears is no plain list store; where ``kept`` says ``KEEP`` (RAM the
    memory list holds) the instruction appends (cycle, address, byte replaced) to its
    ``writes`` itself when the store comes before the machine's next event (``limit``: no
    VIC window can have held the instruction), else calls its ``store``; other addresses
    go to ``write_high``.  The instructions read the lists as they are when they run (the
    machine changes them in place); closures' lists, not CPU attributes: one more
    attribute on the CPU object slows every attribute read of it down."""
    store = _write_zero_page if zero_page_store is None else zero_page_store
    hooks = (PLAIN_WRITES, NOT_KEPT, [], None) if kept is None else (kept.plain, kept.kept, kept.writes, kept.store)
    table = list(C64CPU.instruct)
    for code, inst in IMPLIED.items():
        table[code] = inst
    table[0x6C] = C64CPU.inst_0x6c
    for op in EVERY_OPCODE:
        name, mode, access, operand, cyc = op.mnemonic, op.mode, op.access, op.mode.operand_size, op.cycles
        if name == "JAM":
            table[op.code] = _jam(op.code)
        elif mode in (Mode.IMPLIED, Mode.ACCUMULATOR, Mode.RELATIVE) or access is Access.OTHER:
            if not op.documented:  # the implied NOPs
                table[op.code] = NOP
        elif name in HIGH_AND:
            value = _shs if name == "SHS" else HIGH_AND[name]
            base_of = _base_ind if mode is Mode.INDIRECT_INDEXED else _base_abs
            table[op.code] = _high_and(value, base_of, _x if mode is Mode.ABSOLUTE_X else _y, operand, cyc, hooks)
        elif access is Access.READ:
            fn = _lxa if op.code == 0xAB else READS[name]
            if mode is Mode.IMMEDIATE:
                table[op.code] = _immediate(fn)
            elif mode is Mode.ZERO_PAGE:
                table[op.code] = _read_zero_page(fn)
            elif mode is Mode.ABSOLUTE:
                table[op.code] = _read_absolute(fn, cyc - 1)
            elif mode is Mode.INDIRECT_INDEXED:
                table[op.code] = _read_ind_y(fn, cyc - 1, cyc - 1)
            elif mode in (Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y):
                table[op.code] = _read_zp(fn, _address(mode, access, cyc))
            else:
                table[op.code] = _read(fn, _address(mode, access, cyc), operand, cyc - 1)
        elif access is Access.WRITE:
            if mode is Mode.ZERO_PAGE:
                table[op.code] = store(WRITES[name])
            elif mode is Mode.ABSOLUTE:
                table[op.code] = _write_absolute(WRITES[name], cyc - 1, hooks)
            elif mode is Mode.INDIRECT_INDEXED:
                table[op.code] = _write_ind_y(WRITES[name], cyc - 2, cyc - 1, hooks)
            else:
                table[op.code] = _write(WRITES[name], _address(mode, access, cyc), operand, cyc - 1, hooks)
        elif mode is Mode.ZERO_PAGE:
            table[op.code] = _rmw_zero_page(RMWS[name], cyc)
        elif mode is Mode.ZERO_PAGE_X:
            table[op.code] = _rmw_zero_page_x(RMWS[name], cyc)
        else:
            table[op.code] = _rmw(RMWS[name], _address(mode, access, cyc), operand, cyc, hooks)
    return table
