"""The 6510's commonest instructions with a memory operand, each one flat function of the CPU.

Written for speed (ARCHITECTURE.md, "Speed"): the exact instructions (``cpu.instruction_table``)
are an addressing mode, an access and an operation, two or three Python calls an instruction;
these are the hottest ones (a BASIC loop's, the KERNAL's RAM test's) written out.  Each takes
its own path only where the address is plain: a read of RAM or ROM in view (``cpu.blocks``,
no I/O register), a store to RAM whose stores need no keeping (``plain``: $0002-$9FFF without
the RAM the VIC reads), an indexed access that crosses no page or whose un-carried address
lies below the I/O area; anywhere else it runs the exact instruction (*exact*, the table's
own), so every access a program or a chip can see stays that instruction's.  The decimal
mode's ADC and SBC are the CPU's ``adc`` and ``sbc``.

The flags come from tables (an operation on Python ints costs as much as a table's index;
flag masks: N $80, V $40, D $08, Z $02, C $01): ``SET_NZ[p][v]`` is P with N and Z of v,
``DIFFERENCE[d]`` N, Z and C of a difference (CMP, SBC: indexed by it, a negative one from
the end), ``SUM[s]`` N, Z and C of a sum of up to $1FF (ADC), ``ROR_RESULT[p][t]`` and
``ROR_FLAGS[p][t]`` a shift's result and P after it (ROL, ASL, LSR alike).  The tables'
rows are shared by the P that differ only in the flags a row does not read; making them
costs the emulator's import about 41 M machine instructions (callgrind), which a BASIC
loop's savings pay back within its first 0.3 M cycles (bench/README.md).  The tests run these
against py65's MPU in lockstep (tests/test_emu_harness.py) and against the exact instructions
(tests/test_c64_cpu.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

BANKED = 0x9FFF  # reads above this go through the blocks of the configuration in force

#: per value: its N and Z flags
NZ: tuple[int, ...] = tuple((v & 0x80) if v else 0x02 for v in range(256))


def _rows(kept: int, by_carry: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    """Per P: the row of (P AND *kept*) OR each cell of ``by_carry[C]`` (the P of the same
    P AND *kept*, and C where the two differ, share their row)."""
    key = kept if by_carry[0] == by_carry[1] else kept | 1
    rows: dict[int, tuple[int, ...]] = {}
    for p in range(256):
        if p & key not in rows:
            rows[p & key] = tuple(map((p & kept).__or__, by_carry[p & 1]))
    return tuple(rows[p & key] for p in range(256))


def _by_carry(cell: Callable[[int, int], int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple([cell(0, t) for t in range(256)]), tuple([cell(1, t) for t in range(256)])


#: SET_NZ[p][v]: P (*p*) with the N and Z flags of *v*
SET_NZ: tuple[tuple[int, ...], ...] = _rows(0x7D, (NZ, NZ))
# the shifts, [p][t]: the result of shifting t with P's carry in, and P after it
ROR_RESULT = _rows(0, _by_carry(lambda c, t: (t >> 1) | (c << 7)))
ROR_FLAGS = _rows(0x7C, _by_carry(lambda c, t: (t & 1) | NZ[(t >> 1) | (c << 7)]))
ROL_RESULT = _rows(0, _by_carry(lambda c, t: ((t << 1) | c) & 0xFF))
ROL_FLAGS = _rows(0x7C, _by_carry(lambda c, t: (t >> 7) | NZ[((t << 1) | c) & 0xFF]))
ASL_FLAGS = _rows(0x7C, _by_carry(lambda c, t: (t >> 7) | NZ[(t << 1) & 0xFF]))
LSR_FLAGS = _rows(0x7C, _by_carry(lambda c, t: (t & 1) | NZ[t >> 1]))
#: DIFFERENCE[d]: N, Z of d's low byte, C when d >= 0 (d from -256 to 255; a negative one from the end)
DIFFERENCE: tuple[int, ...] = tuple(NZ[d & 0xFF] | (d >= 0) for d in (*range(256), *range(-256, 0)))
#: SUM[s]: N, Z of s's low byte, C when s > $FF (s from 0 to $1FF)
SUM: tuple[int, ...] = tuple(NZ[s & 0xFF] | (s >> 8) for s in range(0x200))


# --- immediate and zero page: no address to look at ------------------------------------

def _lda_immediate(cpu):
    pc = cpu.pc
    v = cpu.a = cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ldx_immediate(cpu):
    pc = cpu.pc
    v = cpu.x = cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ldy_immediate(cpu):
    pc = cpu.pc
    v = cpu.y = cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _and_immediate(cpu):
    pc = cpu.pc
    v = cpu.a = cpu.a & cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ora_immediate(cpu):
    pc = cpu.pc
    v = cpu.a = cpu.a | cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _eor_immediate(cpu):
    pc = cpu.pc
    v = cpu.a = cpu.a ^ cpu.memory[pc]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _cmp_immediate(cpu):
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - cpu.memory[pc]]
    cpu.pc = pc + 1


def _cpx_immediate(cpu):
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.x - cpu.memory[pc]]
    cpu.pc = pc + 1


def _cpy_immediate(cpu):
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.y - cpu.memory[pc]]
    cpu.pc = pc + 1


def _adc(cpu, v):
    """A + v + C (binary; in decimal mode the CPU's ``adc``)."""
    p = cpu.p
    if p & 0x08:
        cpu.adc(v)
        return
    a = cpu.a
    s = a + v + (p & 1)
    r = cpu.a = s & 0xFF
    cpu.p = (p & 0x3C) | SUM[s] | (0x40 if (a ^ r) & (v ^ r) & 0x80 else 0)


def _sbc(cpu, v):
    """A - v - (1 - C) (binary; in decimal mode the CPU's ``sbc``)."""
    p = cpu.p
    if p & 0x08:
        cpu.sbc(v)
        return
    a = cpu.a
    d = a - v - 1 + (p & 1)
    r = cpu.a = d & 0xFF
    cpu.p = (p & 0x3C) | DIFFERENCE[d] | (0x40 if (a ^ v) & (a ^ r) & 0x80 else 0)


# ADC and SBC are written out for immediate and zero page (the commonest), a call of the
# operation elsewhere.

def _adc_immediate(cpu):
    pc = cpu.pc
    v = cpu.memory[pc]
    cpu.pc = pc + 1
    p = cpu.p
    if p & 0x08:
        cpu.adc(v)
        return
    a = cpu.a
    s = a + v + (p & 1)
    r = cpu.a = s & 0xFF
    cpu.p = (p & 0x3C) | SUM[s] | (0x40 if (a ^ r) & (v ^ r) & 0x80 else 0)


def _sbc_immediate(cpu):
    pc = cpu.pc
    v = cpu.memory[pc]
    cpu.pc = pc + 1
    p = cpu.p
    if p & 0x08:
        cpu.sbc(v)
        return
    a = cpu.a
    d = a - v - 1 + (p & 1)
    r = cpu.a = d & 0xFF
    cpu.p = (p & 0x3C) | DIFFERENCE[d] | (0x40 if (a ^ v) & (a ^ r) & 0x80 else 0)


def _adc_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = m[m[pc]]
    cpu.pc = pc + 1
    p = cpu.p
    if p & 0x08:
        cpu.adc(v)
        return
    a = cpu.a
    s = a + v + (p & 1)
    r = cpu.a = s & 0xFF
    cpu.p = (p & 0x3C) | SUM[s] | (0x40 if (a ^ r) & (v ^ r) & 0x80 else 0)


def _sbc_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = m[m[pc]]
    cpu.pc = pc + 1
    p = cpu.p
    if p & 0x08:
        cpu.sbc(v)
        return
    a = cpu.a
    d = a - v - 1 + (p & 1)
    r = cpu.a = d & 0xFF
    cpu.p = (p & 0x3C) | DIFFERENCE[d] | (0x40 if (a ^ v) & (a ^ r) & 0x80 else 0)


def _lda_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.a = m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ldx_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.x = m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ldy_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.y = m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _and_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.a = cpu.a & m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ora_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.a = cpu.a | m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _eor_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.a = cpu.a ^ m[m[pc]]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _cmp_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - m[m[pc]]]
    cpu.pc = pc + 1


def _cpx_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.x - m[m[pc]]]
    cpu.pc = pc + 1


def _cpy_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.y - m[m[pc]]]
    cpu.pc = pc + 1


def _bit_zero_page(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = m[m[pc]]
    cpu.p = (cpu.p & 0x3D) | (v & 0xC0) | (0 if cpu.a & v else 0x02)
    cpu.pc = pc + 1


def _lda_zero_page_x(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.a = m[(m[pc] + cpu.x) & 0xFF]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _ldy_zero_page_x(cpu):
    m = cpu.memory
    pc = cpu.pc
    v = cpu.y = m[(m[pc] + cpu.x) & 0xFF]
    cpu.p = SET_NZ[cpu.p][v]
    cpu.pc = pc + 1


def _adc_zero_page_x(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.pc = pc + 1
    _adc(cpu, m[(m[pc] + cpu.x) & 0xFF])


def _sbc_zero_page_x(cpu):
    m = cpu.memory
    pc = cpu.pc
    cpu.pc = pc + 1
    _sbc(cpu, m[(m[pc] + cpu.x) & 0xFF])


FIXED: dict[int, Callable] = {
    0xA9: _lda_immediate, 0xA2: _ldx_immediate, 0xA0: _ldy_immediate,
    0x29: _and_immediate, 0x09: _ora_immediate, 0x49: _eor_immediate,
    0xC9: _cmp_immediate, 0xE0: _cpx_immediate, 0xC0: _cpy_immediate,
    0x69: _adc_immediate, 0xE9: _sbc_immediate,
    0xA5: _lda_zero_page, 0xA6: _ldx_zero_page, 0xA4: _ldy_zero_page,
    0x25: _and_zero_page, 0x05: _ora_zero_page, 0x45: _eor_zero_page,
    0xC5: _cmp_zero_page, 0xE4: _cpx_zero_page, 0xC4: _cpy_zero_page, 0x24: _bit_zero_page,
    0x65: _adc_zero_page, 0xE5: _sbc_zero_page,
    0xB5: _lda_zero_page_x, 0xB4: _ldy_zero_page_x, 0x75: _adc_zero_page_x, 0xF5: _sbc_zero_page_x,
}


def flat_instructions(exact: list, plain: Sequence[bool]) -> dict[int, Callable]:
    """opcode -> the flat instruction, for the table *exact* (the exact instructions, indexed
    by opcode; a flat one runs its opcode's where its address is not plain) and the list
    ``plain`` of the addresses whose stores are plain list stores (``vicmem.VicMemory.plain``,
    changed in place while the machine runs)."""

    # --- stores --------------------------------------------------------------------------
    # STA/STX/STY zero page stay the memory map's (memmap.zero_page_store): its $01 write is one
    # table entry, and a flat store in front of it would make every $01 write a call more.
    # Counted (callgrind, bench_c64's banking workload less the boot): with flat zero-page stores
    # the switching loop 1,635.3 M instructions against 1,443.8 M for the loop writing $02 (0.883);
    # with the map's, 1,539.4 M against 1,509.4 M (0.981).
    sta_zpx, sty_zpx = exact[0x95], exact[0x94]

    def sta_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr > 1:
            m[addr] = cpu.a
            cpu.pc = pc + 1
        else:
            sta_zpx(cpu)

    def sty_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr > 1:
            m[addr] = cpu.y
            cpu.pc = pc + 1
        else:
            sty_zpx(cpu)

    sta_abs, stx_abs, sty_abs = exact[0x8D], exact[0x8E], exact[0x8C]

    def sta_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if plain[addr]:
            m[addr] = cpu.a
            cpu.pc = pc + 2
        else:
            sta_abs(cpu)

    def stx_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if plain[addr]:
            m[addr] = cpu.x
            cpu.pc = pc + 2
        else:
            stx_abs(cpu)

    def sty_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if plain[addr]:
            m[addr] = cpu.y
            cpu.pc = pc + 2
        else:
            sty_abs(cpu)

    # indexed: the un-carried address, read first, is below the target (below the I/O area
    # where the target is plain)
    sta_abx, sta_aby, sta_iny = exact[0x9D], exact[0x99], exact[0x91]

    def sta_absolute_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] | m[pc + 1] << 8) + cpu.x
        if addr <= BANKED and plain[addr]:
            m[addr] = cpu.a
            cpu.pc = pc + 2
        else:
            sta_abx(cpu)

    def sta_absolute_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] | m[pc + 1] << 8) + cpu.y
        if addr <= BANKED and plain[addr]:
            m[addr] = cpu.a
            cpu.pc = pc + 2
        else:
            sta_aby(cpu)

    def sta_indirect_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        zp = m[pc]
        addr = (m[zp] | m[(zp + 1) & 0xFF] << 8) + cpu.y
        if addr <= BANKED and plain[addr]:
            m[addr] = cpu.a
            cpu.pc = pc + 1
        else:
            sta_iny(cpu)

    # --- reads: RAM or ROM in view; across a page one cycle more ---------------------------
    lda_abs, ldx_abs, ldy_abs, cmp_abs, bit_abs = exact[0xAD], exact[0xAE], exact[0xAC], exact[0xCD], exact[0x2C]

    def lda_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                return lda_abs(cpu)
            v = cpu.a = src[addr]
        else:
            v = cpu.a = m[addr]
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def ldx_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                return ldx_abs(cpu)
            v = cpu.x = src[addr]
        else:
            v = cpu.x = m[addr]
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def ldy_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                return ldy_abs(cpu)
            v = cpu.y = src[addr]
        else:
            v = cpu.y = m[addr]
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def cmp_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                return cmp_abs(cpu)
            v = src[addr]
        else:
            v = m[addr]
        cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - v]
        cpu.pc = pc + 2

    def bit_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if addr > BANKED:
            src = cpu.blocks[addr >> 12]
            if src is None:
                return bit_abs(cpu)
            v = src[addr]
        else:
            v = m[addr]
        cpu.p = (cpu.p & 0x3D) | (v & 0xC0) | (0 if cpu.a & v else 0x02)
        cpu.pc = pc + 2

    lda_abx, lda_aby, ldx_aby, ldy_abx = exact[0xBD], exact[0xB9], exact[0xBE], exact[0xBC]
    cmp_abx, cmp_aby = exact[0xDD], exact[0xD9]

    def _indexed(cpu, base, addr):
        """The byte at *addr* (*base* plus an index) where it is RAM or ROM in view and the
        crossing, if any, reads no I/O register (one cycle more); else None."""
        if addr > BANKED:
            if (addr ^ base) > 0xFF:
                return None
            src = cpu.blocks[addr >> 12]
            return None if src is None else src[addr]
        if (addr ^ base) > 0xFF:
            cpu.cycles += 1
        return cpu.memory[addr]

    def lda_absolute_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.x)
        if v is None:
            return lda_abx(cpu)
        cpu.a = v
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def lda_absolute_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.y)
        if v is None:
            return lda_aby(cpu)
        cpu.a = v
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def ldx_absolute_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.y)
        if v is None:
            return ldx_aby(cpu)
        cpu.x = v
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def ldy_absolute_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.x)
        if v is None:
            return ldy_abx(cpu)
        cpu.y = v
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def cmp_absolute_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.x)
        if v is None:
            return cmp_abx(cpu)
        cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - v]
        cpu.pc = pc + 2

    def cmp_absolute_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        base = m[pc] | m[pc + 1] << 8
        v = _indexed(cpu, base, base + cpu.y)
        if v is None:
            return cmp_aby(cpu)
        cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - v]
        cpu.pc = pc + 2

    # (zp),Y: the KERNAL's RAM test (STA, CMP, LDA), BASIC's variables and constants
    lda_iny, cmp_iny, adc_iny, sbc_iny = exact[0xB1], exact[0xD1], exact[0x71], exact[0xF1]

    def lda_indirect_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        zp = m[pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        if addr <= BANKED and (addr ^ base) < 0x100:
            v = cpu.a = m[addr]
        else:
            v = _indexed(cpu, base, addr)
            if v is None:
                return lda_iny(cpu)
            cpu.a = v
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 1

    def cmp_indirect_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        zp = m[pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        addr = base + cpu.y
        if addr <= BANKED and (addr ^ base) < 0x100:
            v = m[addr]
        else:
            v = _indexed(cpu, base, addr)
            if v is None:
                return cmp_iny(cpu)
        cpu.p = (cpu.p & 0x7C) | DIFFERENCE[cpu.a - v]
        cpu.pc = pc + 1

    def adc_indirect_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        zp = m[pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        v = _indexed(cpu, base, base + cpu.y)
        if v is None:
            return adc_iny(cpu)
        cpu.pc = pc + 1
        _adc(cpu, v)

    def sbc_indirect_y(cpu):
        m = cpu.memory
        pc = cpu.pc
        zp = m[pc]
        base = m[zp] | m[(zp + 1) & 0xFF] << 8
        v = _indexed(cpu, base, base + cpu.y)
        if v is None:
            return sbc_iny(cpu)
        cpu.pc = pc + 1
        _sbc(cpu, v)

    # --- read-modify-write: zero page ($00/$01 are the port's), absolute where plain -------
    inc_zp, dec_zp, inc_abs, dec_abs = exact[0xE6], exact[0xC6], exact[0xEE], exact[0xCE]

    def inc_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return inc_zp(cpu)
        v = m[addr] = (m[addr] + 1) & 0xFF
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 1

    def dec_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return dec_zp(cpu)
        v = m[addr] = (m[addr] - 1) & 0xFF
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 1

    def inc_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if not plain[addr]:
            return inc_abs(cpu)
        v = m[addr] = (m[addr] + 1) & 0xFF
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    def dec_absolute(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc] | m[pc + 1] << 8
        if not plain[addr]:
            return dec_abs(cpu)
        v = m[addr] = (m[addr] - 1) & 0xFF
        cpu.p = SET_NZ[cpu.p][v]
        cpu.pc = pc + 2

    # the shifts of a zero-page byte (BASIC's floating-point registers are in zero page: ROR
    # zp is a sixth of the instructions of a BASIC loop of arithmetic)
    ror_zp, rol_zp, asl_zp, lsr_zp = exact[0x66], exact[0x26], exact[0x06], exact[0x46]

    def ror_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return ror_zp(cpu)
        t = m[addr]
        p = cpu.p
        m[addr] = ROR_RESULT[p][t]
        cpu.p = ROR_FLAGS[p][t]
        cpu.pc = pc + 1

    def rol_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return rol_zp(cpu)
        t = m[addr]
        p = cpu.p
        m[addr] = ROL_RESULT[p][t]
        cpu.p = ROL_FLAGS[p][t]
        cpu.pc = pc + 1

    def asl_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return asl_zp(cpu)
        t = m[addr]
        m[addr] = (t << 1) & 0xFF
        cpu.p = ASL_FLAGS[cpu.p][t]
        cpu.pc = pc + 1

    def lsr_zero_page(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = m[pc]
        if addr < 2:
            return lsr_zp(cpu)
        t = m[addr]
        m[addr] = t >> 1
        cpu.p = LSR_FLAGS[cpu.p][t]
        cpu.pc = pc + 1

    ror_zpx, rol_zpx, asl_zpx, lsr_zpx = exact[0x76], exact[0x36], exact[0x16], exact[0x56]

    def ror_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr < 2:
            return ror_zpx(cpu)
        t = m[addr]
        p = cpu.p
        m[addr] = ROR_RESULT[p][t]
        cpu.p = ROR_FLAGS[p][t]
        cpu.pc = pc + 1

    def rol_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr < 2:
            return rol_zpx(cpu)
        t = m[addr]
        p = cpu.p
        m[addr] = ROL_RESULT[p][t]
        cpu.p = ROL_FLAGS[p][t]
        cpu.pc = pc + 1

    def asl_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr < 2:
            return asl_zpx(cpu)
        t = m[addr]
        m[addr] = (t << 1) & 0xFF
        cpu.p = ASL_FLAGS[cpu.p][t]
        cpu.pc = pc + 1

    def lsr_zero_page_x(cpu):
        m = cpu.memory
        pc = cpu.pc
        addr = (m[pc] + cpu.x) & 0xFF
        if addr < 2:
            return lsr_zpx(cpu)
        t = m[addr]
        m[addr] = t >> 1
        cpu.p = LSR_FLAGS[cpu.p][t]
        cpu.pc = pc + 1

    return {
        **FIXED,
        0x95: sta_zero_page_x, 0x94: sty_zero_page_x,
        0x8D: sta_absolute, 0x8E: stx_absolute, 0x8C: sty_absolute,
        0x9D: sta_absolute_x, 0x99: sta_absolute_y, 0x91: sta_indirect_y,
        0xAD: lda_absolute, 0xAE: ldx_absolute, 0xAC: ldy_absolute, 0xCD: cmp_absolute, 0x2C: bit_absolute,
        0xBD: lda_absolute_x, 0xB9: lda_absolute_y, 0xBE: ldx_absolute_y, 0xBC: ldy_absolute_x,
        0xDD: cmp_absolute_x, 0xD9: cmp_absolute_y,
        0xB1: lda_indirect_y, 0xD1: cmp_indirect_y, 0x71: adc_indirect_y, 0xF1: sbc_indirect_y,
        0xE6: inc_zero_page, 0xC6: dec_zero_page, 0xEE: inc_absolute, 0xCE: dec_absolute,
        0x66: ror_zero_page, 0x26: rol_zero_page, 0x06: asl_zero_page, 0x46: lsr_zero_page,
        0x76: ror_zero_page_x, 0x36: rol_zero_page_x, 0x16: asl_zero_page_x, 0x56: lsr_zero_page_x,
    }
