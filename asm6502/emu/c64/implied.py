"""The 6510's instructions without a memory operand, each one flat function of the CPU.

py65's own methods for these (``inst_0xNN``) call a helper or two each (``FlagsNZ``,
``opLSR(None)``, ``opBCL``, ``stPopWord`` and its two ``stPop``); an instruction runs
millions of times a second and a Python call costs as much as the work of one of these,
so the work is written out here, with py65's results (flag masks: N $80, V $40, B $10,
D $08, I $04, Z $02, C $01; N and Z from the table ``flat.SET_NZ``).  A taken branch adds its cycle, one more across a page
(MCS6500 programming manual, appendix A), as ``cpu.C64CPU.opBCL`` does.  BRK, RTI and PLP
stay py65's (the machine wraps them, and they are rare).  The tests run these against
py65's MPU in lockstep (tests/test_emu_harness.py).
"""

from __future__ import annotations

from collections.abc import Callable

from asm6502.emu.c64.flat import ASL_FLAGS, LSR_FLAGS, ROL_FLAGS, ROL_RESULT, ROR_FLAGS, ROR_RESULT, SET_NZ


def _branch(flag: int, when_set: bool) -> Callable:
    """A branch taken when *flag* of P is set (*when_set*) or clear."""
    if when_set:
        def inst(cpu):
            if cpu.p & flag:
                pc = cpu.pc
                offset = cpu.memory[pc]
                pc += 1
                new = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF
                cpu.cycles += 1 if (new ^ pc) < 0x100 else 2
                cpu.pc = new
            else:
                cpu.pc += 1
    else:
        def inst(cpu):
            if cpu.p & flag:
                cpu.pc += 1
            else:
                pc = cpu.pc
                offset = cpu.memory[pc]
                pc += 1
                new = (pc + offset - 256 if offset & 0x80 else pc + offset) & 0xFFFF
                cpu.cycles += 1 if (new ^ pc) < 0x100 else 2
                cpu.pc = new
    return inst


def _flag(keep: int, add: int) -> Callable:
    """CLC, SEC, CLI, SEI, CLV, CLD, SED: P AND *keep* OR *add*."""
    def inst(cpu):
        cpu.p = (cpu.p & keep) | add
    return inst


def _tax(cpu):
    v = cpu.x = cpu.a
    cpu.p = SET_NZ[cpu.p][v]


def _tay(cpu):
    v = cpu.y = cpu.a
    cpu.p = SET_NZ[cpu.p][v]


def _txa(cpu):
    v = cpu.a = cpu.x
    cpu.p = SET_NZ[cpu.p][v]


def _tya(cpu):
    v = cpu.a = cpu.y
    cpu.p = SET_NZ[cpu.p][v]


def _tsx(cpu):
    v = cpu.x = cpu.sp
    cpu.p = SET_NZ[cpu.p][v]


def _txs(cpu):
    cpu.sp = cpu.x


def _inx(cpu):
    v = cpu.x = (cpu.x + 1) & 0xFF
    cpu.p = SET_NZ[cpu.p][v]


def _iny(cpu):
    v = cpu.y = (cpu.y + 1) & 0xFF
    cpu.p = SET_NZ[cpu.p][v]


def _dex(cpu):
    v = cpu.x = (cpu.x - 1) & 0xFF
    cpu.p = SET_NZ[cpu.p][v]


def _dey(cpu):
    v = cpu.y = (cpu.y - 1) & 0xFF
    cpu.p = SET_NZ[cpu.p][v]


def _asl_a(cpu):
    t = cpu.a
    cpu.a = (t << 1) & 0xFF
    cpu.p = ASL_FLAGS[cpu.p][t]


def _lsr_a(cpu):
    t = cpu.a
    cpu.a = t >> 1
    cpu.p = LSR_FLAGS[cpu.p][t]


def _rol_a(cpu):
    t = cpu.a
    p = cpu.p
    cpu.a = ROL_RESULT[p][t]
    cpu.p = ROL_FLAGS[p][t]


def _ror_a(cpu):
    t = cpu.a
    p = cpu.p
    cpu.a = ROR_RESULT[p][t]
    cpu.p = ROR_FLAGS[p][t]


def _pha(cpu):
    sp = cpu.sp
    cpu.memory[sp + 0x100] = cpu.a
    cpu.sp = (sp - 1) & 0xFF


def _php(cpu):
    sp = cpu.sp
    cpu.memory[sp + 0x100] = cpu.p | 0x30
    cpu.sp = (sp - 1) & 0xFF


def _pla(cpu):
    sp = cpu.sp = (cpu.sp + 1) & 0xFF
    v = cpu.a = cpu.memory[sp + 0x100]
    cpu.p = SET_NZ[cpu.p][v]


def _jsr(cpu):
    """The target is read before the return address is pushed (as the chip's low byte
    is), so a JSR whose operand runs past $FFFF can be run again."""
    m = cpu.memory
    pc = cpu.pc
    target = m[pc] | m[pc + 1] << 8
    ret = pc + 1
    sp = cpu.sp
    m[sp + 0x100] = (ret >> 8) & 0xFF
    sp = (sp - 1) & 0xFF
    m[sp + 0x100] = ret & 0xFF
    cpu.sp = (sp - 1) & 0xFF
    cpu.pc = target


def _rts(cpu):
    m = cpu.memory
    sp = cpu.sp
    low = (sp + 1) & 0xFF
    high = (sp + 2) & 0xFF
    cpu.sp = high
    cpu.pc = (m[low + 0x100] | m[high + 0x100] << 8) + 1


def _jmp(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.pc = m[pc] | m[pc + 1] << 8


def _nop(cpu):
    pass


#: opcode -> its flat instruction (the documented opcodes but BRK, RTI, PLP and JMP (ind))
IMPLIED: dict[int, Callable] = {
    0x10: _branch(0x80, False), 0x30: _branch(0x80, True),  # BPL, BMI
    0x50: _branch(0x40, False), 0x70: _branch(0x40, True),  # BVC, BVS
    0x90: _branch(0x01, False), 0xB0: _branch(0x01, True),  # BCC, BCS
    0xD0: _branch(0x02, False), 0xF0: _branch(0x02, True),  # BNE, BEQ
    0x18: _flag(0xFE, 0), 0x38: _flag(0xFF, 0x01), 0x58: _flag(0xFB, 0), 0x78: _flag(0xFF, 0x04),
    0xB8: _flag(0xBF, 0), 0xD8: _flag(0xF7, 0), 0xF8: _flag(0xFF, 0x08),
    0xAA: _tax, 0xA8: _tay, 0x8A: _txa, 0x98: _tya, 0xBA: _tsx, 0x9A: _txs,
    0xE8: _inx, 0xC8: _iny, 0xCA: _dex, 0x88: _dey,
    0x0A: _asl_a, 0x4A: _lsr_a, 0x2A: _rol_a, 0x6A: _ror_a,
    0x48: _pha, 0x08: _php, 0x68: _pla,
    0x20: _jsr, 0x60: _rts, 0x4C: _jmp, 0xEA: _nop,
}
NOP = _nop
