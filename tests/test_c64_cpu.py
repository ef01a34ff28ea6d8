"""The C64's 6510 (asm6502/emu/c64/cpu.py): every opcode, its cycles, and what the bus
sees, each fact checked by a small program assembled by asm6502 (``--cpu 6502i``).

Oracles: a literal cycle matrix and page-crossing list from the references ("64doc",
"No More Secrets"); py65's own MPU running the documented instructions an undocumented
one combines; the references' formulas for the others; and on the machine, the chips'
registers after an access."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest
from py65.devices.mpu6502 import MPU

from asm6502.asm import assemble
from asm6502.asm.result import Options
from asm6502.emu.c64 import session
from asm6502.emu.c64.cpu import (
    C64CPU,
    CYCLES,
    EVERY_OPCODE,
    KEEP,
    PLAIN_WRITES,
    exact_instructions,
    instruction_table,
)
from asm6502.emu.c64.flat import flat_instructions
from asm6502.emu.c64.machine import C64, RomImages
from asm6502.opcodes import Mode

FIXTURES = Path(__file__).parent / "fixtures" / "c64"

# Cycles of each opcode, rows $0x-$Fx (64doc, "6510 Instruction Timing"; No More Secrets,
# opcode matrix); 0: JAM.
REFERENCE_CYCLES = """
7 6 0 8 3 3 5 5 3 2 2 2 4 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
6 6 0 8 3 3 5 5 4 2 2 2 4 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
6 6 0 8 3 3 5 5 3 2 2 2 3 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
6 6 0 8 3 3 5 5 4 2 2 2 5 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
2 6 2 6 3 3 3 3 2 2 2 2 4 4 4 4   2 6 0 6 4 4 4 4 2 5 2 5 5 5 5 5
2 6 2 6 3 3 3 3 2 2 2 2 4 4 4 4   2 5 0 5 4 4 4 4 2 4 2 4 4 4 4 4
2 6 2 8 3 3 5 5 2 2 2 2 4 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
2 6 2 8 3 3 5 5 2 2 2 2 4 4 6 6   2 5 0 8 4 4 6 6 2 4 2 7 4 4 7 7
"""
# The reads that take one cycle more when the indexed address crosses a page (same references).
PAGE_PENALTY = {0x11, 0x19, 0x1D, 0x31, 0x39, 0x3D, 0x51, 0x59, 0x5D, 0x71, 0x79, 0x7D, 0xB1, 0xB9,
                0xBD, 0xBC, 0xBE, 0xD1, 0xD9, 0xDD, 0xF1, 0xF9, 0xFD, 0xB3, 0xBF, 0xBB,
                0x1C, 0x3C, 0x5C, 0x7C, 0xDC, 0xFC}
JAMS = (0x02, 0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2)

OPERAND = {
    Mode.IMMEDIATE: "#$%02x", Mode.ZERO_PAGE: "$%02x", Mode.ZERO_PAGE_X: "$%02x,x", Mode.ZERO_PAGE_Y: "$%02x,y",
    Mode.ABSOLUTE: "$%04x", Mode.ABSOLUTE_X: "$%04x,x", Mode.ABSOLUTE_Y: "$%04x,y",
    Mode.INDEXED_INDIRECT: "($%02x,x)", Mode.INDIRECT_INDEXED: "($%02x),y",
}
CODE = 0x1000
TABLE = instruction_table()


def program(source: str, origin: int = CODE) -> bytes:
    text = f"*= ${origin:04x}\n" + "\n".join(f"         {line}" for line in source.strip().split("\n")) + "\n"
    return assemble(text, "test.asm", Options(cpu="6502i")).image


class Bare:
    """The CPU on 64 KB of plain RAM (no I/O): one instruction at a time."""

    def __init__(self, memory: list[int]):
        self.memory = memory
        self.cpu = C64CPU(memory, lambda addr: None, memory.__setitem__)
        self.table = TABLE

    def step(self) -> None:
        cpu = self.cpu
        op = self.memory[cpu.pc]
        cpu.pc += 1
        self.table[op](cpu)
        cpu.cycles += CYCLES[op]


def test_cycle_table_is_the_references():
    rows = [int(n) for n in REFERENCE_CYCLES.split()]
    assert len(rows) == 256
    got = {op.code: op.cycles for op in EVERY_OPCODE if op.mnemonic != "JAM"}
    assert got == {code: n for code, n in enumerate(rows) if n}
    assert {op.code for op in EVERY_OPCODE if op.page_penalty} == PAGE_PENALTY


def test_undocumented_opcodes_are_those_py65_lacks():
    assert {op.code for op in EVERY_OPCODE if not op.documented} == {
        code for code in range(256) if MPU.instruct[code] is MPU.inst_not_implemented}


def test_documented_cycles_are_py65s_but_for_its_dec_absolute():
    differ = {op.code for op in EVERY_OPCODE if op.documented and op.cycles != MPU.cycletime[op.code]}
    assert differ == {0xCE}  # py65 1.2's table gives DEC $nnnn 3 cycles; the chip takes 6


INDEXED = [op for op in EVERY_OPCODE
           if op.mode in (Mode.ABSOLUTE_X, Mode.ABSOLUTE_Y, Mode.INDIRECT_INDEXED) and op.mnemonic != "JAM"]


@pytest.mark.parametrize("op", INDEXED, ids=lambda op: f"{op.code:02X}")
@pytest.mark.parametrize("cross", [False, True])
def test_indexed_cycles_with_and_without_a_page_crossing(op, cross):
    mem = [0] * 0x10000
    base = 0x20F0 if cross else 0x2000
    mem[0x80:0x82] = [base & 0xFF, base >> 8]
    operand = 0x80 if op.mode is Mode.INDIRECT_INDEXED else base
    code = program(f".byt ${op.code:02x},${operand & 0xFF:02x}" + (f",${operand >> 8:02x}" if op.size == 3 else ""))
    mem[CODE:CODE + len(code)] = code
    bare = Bare(mem)
    bare.cpu.pc, bare.cpu.x, bare.cpu.y = CODE, 0x20, 0x20
    bare.step()
    assert bare.cpu.pc == CODE + op.size
    assert bare.cpu.cycles == op.cycles + (1 if cross and op.code in PAGE_PENALTY else 0)


PAIRS = {"SLO": ("asl", "ora"), "RLA": ("rol", "and"), "SRE": ("lsr", "eor"), "RRA": ("ror", "adc"),
         "DCP": ("dec", "cmp"), "ISB": ("inc", "sbc")}
ZERO_PAGE_MODES = (Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y, Mode.INDEXED_INDIRECT, Mode.INDIRECT_INDEXED,
                   Mode.IMMEDIATE)
DATA = 0x2040  # the operand: $2040, or $80 in zero page; ($80) points at $2040; X = Y = 0


def _documented(op) -> str | None:
    """The documented instructions an undocumented one does (No More Secrets), on its operand."""
    if op.mode not in OPERAND:
        return "nop" if op.mnemonic == "NOP" else None
    operand = OPERAND[op.mode] % (0x80 if op.mode in ZERO_PAGE_MODES else DATA)
    if op.mnemonic in PAIRS:
        if op.mode in (Mode.ABSOLUTE_Y, Mode.INDEXED_INDIRECT, Mode.INDIRECT_INDEXED):
            return None  # no documented read-modify-write in these modes
        first, second = PAIRS[op.mnemonic]
        return f"{first} {operand}\n{second} {operand}"
    if op.mnemonic == "LAX" and op.mode is Mode.ZERO_PAGE_Y:
        return f"ldx {operand}\ntxa"
    if op.mnemonic == "LAX" and op.mode is not Mode.IMMEDIATE:
        return f"lda {operand}\ntax"
    if op.mnemonic == "SAX":
        return None  # (below: stores A AND X)
    return {"NOP": "nop", "ASR": f"and {operand}\nlsr a", "SBC": f"sbc {operand}"}.get(op.mnemonic)


COMBINED = [op for op in EVERY_OPCODE if not op.documented and _documented(op) is not None]


def _registers(cpu) -> tuple:
    return cpu.a, cpu.x, cpu.y, cpu.p | 0x30, cpu.sp


@pytest.mark.parametrize("op", COMBINED, ids=lambda op: f"{op.code:02X}-{op.mnemonic}")
def test_undocumented_does_what_its_documented_instructions_do(op):
    """Run on this CPU against py65's MPU running the documented instructions, on
    random data, accumulator and flags (decimal mode included)."""
    rng = random.Random(op.code)
    operand = [] if op.size == 1 else [0x80] if op.size == 2 else [DATA & 0xFF, DATA >> 8]
    mine = program(".byt " + ",".join(f"${b:02x}" for b in [op.code, *operand]))
    theirs = program(_documented(op))
    for _ in range(40):
        value, a, p = rng.randrange(256), rng.randrange(256), rng.randrange(256) | 0x30
        results = []
        for code, cpu_kind in ((mine, "mine"), (theirs, "py65")):
            mem = [0] * 0x10000
            mem[0x80:0x82] = [DATA & 0xFF, DATA >> 8]
            if op.mode in (Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y):
                mem[0x80] = value
            mem[DATA] = value
            mem[CODE:CODE + len(code)] = code
            if cpu_kind == "mine":
                bare = Bare(mem)
                cpu, run = bare.cpu, bare.step
            else:
                cpu = MPU(memory=mem, pc=CODE)
                run = cpu.step
            cpu.pc, cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp = CODE, a, 0, 0, p, 0xF0
            while cpu.pc < CODE + len(code):
                run()
            results.append((_registers(cpu), mem[DATA], mem[0x80]))
        assert results[0] == results[1], (hex(value), hex(a), hex(p))


def _run_one(code: bytes, a=0, x=0, y=0, p=0x30, sp=0xF0, mem_init=None):
    mem = [0] * 0x10000
    for addr, v in (mem_init or {}).items():
        mem[addr] = v
    mem[CODE:CODE + len(code)] = code
    bare = Bare(mem)
    cpu = bare.cpu
    cpu.pc, cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp = CODE, a, x, y, p, sp
    bare.step()
    return cpu, mem


def _arr_model(a, v, p):
    """ARR as 64doc describes it (binary) and Lorenz's arrb.asm computes it (decimal)."""
    t = a & v
    r = (t >> 1) | ((p & 1) << 7)
    n, z = r & 0x80, 0 if r else 2
    if not p & 8:
        return r, (p & 0x3C) | n | z | ((r >> 6) & 1) | (0x40 if ((r >> 6) ^ (r >> 5)) & 1 else 0)
    v_flag = 0x40 if (r ^ t) & 0x40 else 0
    if (t & 0x0F) + (t & 1) > 5:
        r = (r & 0xF0) | ((r + 6) & 0x0F)
    carry = 1 if (t & 0xF0) + (t & 0x10) > 0x50 else 0
    if carry:
        r = (r + 0x60) & 0xFF
    return r, (p & 0x3C) | n | z | v_flag | carry


@pytest.mark.parametrize("op", [op for op in EVERY_OPCODE if op.mnemonic == "SAX"], ids=lambda op: f"{op.code:02X}")
def test_sax_stores_a_and_x_and_keeps_the_flags(op):
    source = {Mode.ZERO_PAGE: "sax $80", Mode.ZERO_PAGE_Y: "sax $80,y", Mode.ABSOLUTE: "sax $2040",
              Mode.INDEXED_INDIRECT: "sax ($80,x)"}[op.mode]
    cpu, mem = _run_one(program(source), a=0xF3, x=0x00, p=0xB3, mem_init={0x80: DATA & 0xFF, 0x81: DATA >> 8})
    where = DATA if op.mode in (Mode.ABSOLUTE, Mode.INDEXED_INDIRECT) else 0x80
    assert mem[where] == 0xF3 & 0x00 and cpu.p == 0xB3
    cpu, mem = _run_one(program(source), a=0x00, x=0x00, p=0x30, mem_init={0x80: DATA & 0xFF, 0x81: DATA >> 8})
    assert cpu.p == 0x30  # a zero stored: Z stays clear


def nz(r: int) -> int:
    return (r & 0x80) | (0 if r else 2)


@pytest.mark.parametrize("seed", range(4))
def test_the_odd_immediates(seed):
    """ANC, ARR, ANE, LXA, SBX against the references' formulas (LXA with the constant $EE
    that Lorenz's suite expects of a C64, ANE with it too)."""
    rng = random.Random(seed)
    code = {name: program(f"{name} #$00") for name in ("anc", "arr", "ane", "lax", "sbx")}

    def run(name, v, **registers):
        return _run_one(code[name][:1] + bytes([v]), **registers)[0]

    for _ in range(200):
        a, x, v, p = rng.randrange(256), rng.randrange(256), rng.randrange(256), rng.randrange(256) | 0x30
        cpu = run("anc", v, a=a, p=p)
        r = a & v
        assert (cpu.a, cpu.p) == (r, (p & 0x7C) | nz(r) | (r >> 7))
        cpu = run("arr", v, a=a, p=p)
        assert (cpu.a, cpu.p) == _arr_model(a, v, p)
        cpu = run("ane", v, a=a, x=x, p=p)
        r = (a | 0xEE) & x & v
        assert (cpu.a, cpu.x, cpu.p) == (r, x, (p & 0x7D) | nz(r))
        cpu = run("lax", v, a=a, x=x, p=p)
        r = (a | 0xEE) & v
        assert (cpu.a, cpu.x, cpu.p) == (r, r, (p & 0x7D) | nz(r))
        cpu = run("sbx", v, a=a, x=x, p=p)
        d = (a & x) - v
        assert (cpu.a, cpu.x, cpu.p) == (a, d & 0xFF, (p & 0x7C) | nz(d & 0xFF) | (0 if d < 0 else 1))


@pytest.mark.parametrize("source, register", [("shx $20f0,y", "x"), ("shy $20f0,x", "y"), ("sha $20f0,y", "ax"),
                                              ("sha ($80),y", "ax"), ("shs $20f0,y", "ax")])
def test_the_high_byte_stores(source, register):
    """SHX/SHY/SHA/SHS store the register AND (high byte of the base + 1) = $21; SHS
    also sets S = A AND X (No More Secrets)."""
    x, y = (0x05, 0xBB) if register == "y" else (0xBB, 0x05)  # the index is 5
    cpu, mem = _run_one(program(source), a=0xF7, x=x, y=y, mem_init={0x80: 0xF0, 0x81: 0x20})
    value = {"x": 0xBB, "y": 0xBB, "ax": 0xF7 & 0xBB}[register] & 0x21
    assert mem[0x20F5] == value
    if source.startswith("shs"):
        assert cpu.sp == 0xF7 & 0xBB


def test_las():
    cpu, _ = _run_one(program("lds $2000,y"), y=3, sp=0xF3, mem_init={0x2003: 0x9E})
    assert (cpu.a, cpu.x, cpu.sp, cpu.p & 0x82) == (0x92, 0x92, 0x92, 0x80)


def test_adc_and_sbc_are_py65s_in_both_modes():
    """The NMOS decimal mode (Bruce Clark's appendix) against py65's (which passes Lorenz's
    adc and sbc tests), every operand pair, carry and decimal flag."""
    mem = [0] * 0x10000
    py65 = MPU(memory=mem)
    mine = C64CPU(mem, lambda addr: None, mem.__setitem__)
    mem[0] = 0
    for p in (0x30, 0x31, 0x38, 0x39):
        for a in range(256):
            for v in range(0, 256, 3):
                mem[0] = v
                for name in ("adc", "sbc"):
                    py65.a, py65.p, mine.a, mine.p = a, p, a, p
                    getattr(py65, "op" + name.upper())(lambda: 0)
                    getattr(mine, name)(v)
                    assert (mine.a, mine.p) == (py65.a, py65.p), (name, hex(a), hex(v), hex(p))


# --- on the machine ------------------------------------------------------------------

@pytest.fixture(scope="module")
def test_roms() -> RomImages:
    kernal = assemble((FIXTURES / "testkernal.asm").read_text(), "testkernal.asm").image
    return RomImages(bytes([0x94]) + bytes(0x1FFF), bytes(kernal), bytes((i * 7 + 3) & 0xFF for i in range(0x1000)))


def on_machine(roms: RomImages, source: str, origin: int = 0xC000, budget: int = 100_000, poke=None):
    """Boot the test KERNAL, run *source* (with interrupts off) up to its last line."""
    machine = C64(roms)
    assert machine.run(2_000_000).reason == "idle"
    for addr, value in (poke or {}).items():
        machine.memory[addr] = value
    code = program("sei\n" + source + "\nnop", origin)
    machine.poke_ram(origin, code)
    machine.cpu.pc = origin
    stop = machine.run(budget, until_pc=origin + len(code) - 1)
    return machine, stop


@pytest.mark.parametrize("opcode", JAMS)
def test_jam_stops_the_run_with_its_opcode_and_address(test_roms, opcode):
    machine, stop = on_machine(test_roms, f"lda #1\n.byt ${opcode:02x}")
    assert stop.reason == "halt"
    assert stop.message == f"the CPU jammed: opcode ${opcode:02X} at $C003"
    assert session.exit_code(stop, session.RunSpec()) == session.EXIT_HALT


@pytest.mark.parametrize("source", ["inc $d019", "asl $d019", "lsr $d019", "rol $d019", "dec $d019",
                                    "dcp $d019", "isb $d019", "slo $d019"])
def test_read_modify_write_acknowledges_the_raster_interrupt(test_roms, source):
    """The old value written back first has the latch's bit 0 set: the interrupt is
    acknowledged whatever the new value (the usual ``ASL $D019`` / ``INC $D019``)."""
    machine = C64(test_roms)
    assert machine.run(2_000_000).reason == "idle"
    machine.vic.flags = 0x01
    code = program("sei\n" + source + "\nnop", 0xC000)
    machine.poke_ram(0xC000, code)
    machine.cpu.pc = 0xC000
    machine.run(1000, until_pc=0xC000 + len(code) - 1)
    assert machine.vic.flags == 0


def test_indexed_read_across_a_page_reads_the_uncarried_address_first(test_roms):
    """LDA $DCFF,X with X=$0E reads $DC0D (CIA 1's ICR, which clears it) before $DD0D."""
    machine = C64(test_roms)
    assert machine.run(2_000_000).reason == "idle"
    code = program("sei\nldx #$0e\nlda $dcff,x\nnop", 0xC000)
    machine.poke_ram(0xC000, code)
    machine.cpu.pc = 0xC000
    machine.cia1.flags = 0x02
    machine.run(1000, until_pc=0xC000 + len(code) - 1)
    assert machine.cia1.flags == 0


def test_indexed_write_reads_its_address_first(test_roms):
    machine = C64(test_roms)
    assert machine.run(2_000_000).reason == "idle"
    code = program("sei\nldx #$0d\nlda #$00\nsta $dc00,x\nnop", 0xC000)
    machine.poke_ram(0xC000, code)
    machine.cpu.pc = 0xC000
    machine.cia1.flags = 0x02
    machine.run(1000, until_pc=0xC000 + len(code) - 1)
    assert machine.cia1.flags == 0


def test_code_runs_from_io_registers(test_roms):
    """With I/O banked in, the CPU fetches from the registers: LDA #$42 / RTS stored in the
    VIC-II's sprite positions $D000-$D002 runs from there."""
    machine, stop = on_machine(test_roms, "lda #$a9\nsta $d000\nlda #$42\nsta $d001\nlda #$60\nsta $d002\n"
                                          "lda #0\njsr $d000\nsta $0380")
    assert stop.reason == "pc"
    assert machine.memory[0x0380] == 0x42


def test_the_program_counter_wraps_at_ffff(test_roms):
    """LDA #imm at $FFFF takes its operand from $0000 (the port's direction register) and
    goes on at $0001; an absolute operand split over $FFFF/$0000 wraps too."""
    machine = C64(test_roms)
    assert machine.run(2_000_000).reason == "idle"
    machine.poke_ram(0xC000, program("sei\nlda #$35\nsta $01\njmp $ffff", 0xC000))  # KERNAL out: RAM at $E000
    machine.poke_ram(0xFFFF, bytes([0xA9]))
    machine.cpu.pc = 0xC000
    stop = machine.run(1000, until_pc=0x0001)
    assert stop.reason == "pc" and machine.cpu.a == machine.memory[0] == 0x2F
    machine.poke_ram(0xFFFE, bytes([0xAD, 0x00]))  # LDA $2F00 (high byte: $0000 = $2F)
    machine.poke_ram(0x2F00, bytes([0x77]))
    machine.cpu.pc = 0xFFFE
    stop = machine.run(1000, until_pc=0x0001)
    assert stop.reason == "pc" and machine.cpu.a == 0x77


@pytest.mark.parametrize("source", [
    "ldx #$05\nlda $fe,x",      # $FE + 5 wraps to $03
    "ldy #$04\nlda ($ff),y",    # the pointer's high byte comes from $00 (the port's DDR, $2F)
    "ldx #$01\nlda ($fe,x)",
    "ldy #$04\nldx $ff,y",
])
def test_zero_page_wraps(test_roms, source):
    machine, stop = on_machine(test_roms, source + "\nsta $0380\nstx $0381",
                               poke={0x03: 0x11, 0xFF: 0x3C, 0x2F3C: 0x11, 0x2F40: 0x11})
    assert stop.reason == "pc"
    assert 0x11 in (machine.memory[0x0380], machine.memory[0x0381])


@pytest.mark.parametrize("ddr, data, expected", [
    (0x2F, 0x37, 0xF7),   # the KERNAL's setting: 4 pulled up, 6 and 7 still charged by the $FF
    (0xFF, 0xFF, 0xFF),
    (0x00, 0x00, 0xDF),   # after $FF was driven: 0-2, 4 pulled up, 5 low, 3, 6, 7 keep their charge
])
def test_the_port_bits(test_roms, ddr, data, expected):
    machine, stop = on_machine(test_roms, f"lda #$ff\nsta $00\nsta $01\nlda #${ddr:02x}\nsta $00\n"
                                          f"lda #${data:02x}\nsta $01\nlda $01\nsta $0380\nlda #$2f\nsta $00\n"
                                          "lda #$37\nsta $01")
    assert stop.reason == "pc"
    assert machine.memory[0x0380] == expected


@pytest.mark.parametrize("source, accesses", [
    ("lda $d012", [("read", 0xD012, 3)]),
    ("sta $d020", [("write", 0xD020, 3)]),
    ("inc $d020", [("read", 0xD020, 3), ("write", 0xD020, 4), ("write", 0xD020, 5)]),
    ("sta $d020,x", [("read", 0xD020, 3), ("write", 0xD020, 4)]),       # X = 0: the dummy read at the address
    ("lda $d0ff,x", [("read", 0xD000, 3), ("read", 0xD100, 4)]),       # X = 1: across a page, $D000 first
    ("lda ($80),y", [("read", 0xD012, 4)]),
    ("sta ($80),y", [("read", 0xD012, 4), ("write", 0xD012, 5)]),
    ("asl $d019,x", [("read", 0xD019, 3), ("read", 0xD019, 4), ("write", 0xD019, 5), ("write", 0xD019, 6)]),
])
def test_the_cycle_of_each_io_access(source, accesses):
    """``cycles + access_cycle`` during an I/O access is its bus cycle (64doc's cycle tables)."""
    seen = []
    mem = [0] * 0x10000
    mem[0x80:0x82] = [0x12, 0xD0]
    cpu = C64CPU(mem, lambda addr: seen.append(("read", addr, cpu.cycles + cpu.access_cycle)) or mem[addr],
                 lambda addr, value: seen.append(("write", addr, cpu.cycles + cpu.access_cycle)))
    code = program(source)
    mem[CODE:CODE + len(code)] = code
    cpu.pc, cpu.x, cpu.cycles = CODE + 1, 1 if "$d0ff" in source else 0, 0
    instruction_table()[mem[CODE]](cpu)
    assert seen == accesses


def test_the_next_fetch_sees_the_new_memory_configuration(test_roms):
    """STA $01 in RAM at $9FFD switches the BASIC ROM in: the next instruction, at $A000, is
    the ROM's ($94 = STY $00,X, two bytes), not the RAM's JMP $A000 below it."""
    machine = C64(test_roms)
    assert machine.run(2_000_000).reason == "idle"
    machine.poke_ram(0xC000, program("sei\nlda #$36\nsta $01\nlda #$37\njmp $9ffd", 0xC000))
    machine.poke_ram(0x9FFD, program("sta $01", 0x9FFD))
    machine.poke_ram(0xA000, program("jmp $a000", 0xA000))  # (the RAM under the BASIC ROM)
    machine.cpu.pc = 0xC000
    stop = machine.run(10_000, until_pc=0xA002)
    assert stop.reason == "pc" and machine.memory[0xA000] == 0x94


# --- the flat instructions against the exact ones ---------------------------------------------
FLAT_OPCODES = sorted(flat_instructions(exact_instructions(), PLAIN_WRITES))
# addresses an operand or a pointer points at: the port, zero page's end, the stack, RAM the VIC
# reads (kept below), RAM below the BASIC ROM and across into it, below the I/O area and across,
# the I/O registers, across into the KERNAL, the top (an index wraps past $FFFF)
POINTED = (0x00, 0x01, 0xFF, 0x1F0, 0x0400, 0x07F0, 0x9FF0, 0xA0F0, 0xCFF0, 0xD012, 0xDC0D, 0xDFF0, 0xFFF0)
KEPT_AREA = range(0x0400, 0x0800)
ROM_BYTES = tuple((a * 7 + 3) & 0xFF for a in range(0x10000))


class Traced:
    """A CPU whose I/O reads and writes, kept stores and cycles are recorded, the BASIC and
    KERNAL areas reading ROM lists of their own, with *table_of*'s table (exact or flat)."""

    def __init__(self, table_of):
        self.seen: list[tuple] = []
        seen = self.seen
        memory = self.memory = [0] * 0x10000
        cpu = self.cpu = C64CPU(memory, lambda addr: seen.append(("read", addr, cpu.cycles + cpu.access_cycle))
                                or (addr * 5) & 0xFF,
                                lambda addr, value: seen.append(("write", addr, value, cpu.cycles + cpu.access_cycle)))
        cpu.blocks = (memory,) * 10 + (ROM_BYTES,) * 2 + (memory, None) + (ROM_BYTES,) * 2
        cpu.limit = 1 << 40
        plain = list(PLAIN_WRITES)
        kept = [0] * 0x10000
        for addr in KEPT_AREA:
            plain[addr], kept[addr] = False, KEEP
        self.kept = SimpleNamespace(plain=plain, kept=kept, writes=[],
                                    store=lambda addr, value: seen.append(("kept", addr, value)))
        self.table = table_of(None, self.kept)

    def run(self, memory: list[int], regs: tuple[int, ...], pc: int) -> tuple:
        cpu = self.cpu
        self.memory[:] = memory
        self.seen.clear()
        self.kept.writes.clear()
        cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p = regs
        cpu.pc, cpu.cycles = pc + 1, 0
        self.table[memory[pc]](cpu)
        return (cpu.a, cpu.x, cpu.y, cpu.sp, cpu.p, cpu.pc, cpu.cycles, self.seen, self.kept.writes, self.memory)


@pytest.mark.parametrize("opcode", FLAT_OPCODES, ids=lambda code: f"{code:02X}-{EVERY_OPCODE[code].mnemonic}")
def test_a_flat_instruction_is_the_exact_one(opcode):
    """Each flat instruction against the exact one on the same states: operands and pointers
    at the port, the VIC's RAM, the ROMs, the I/O registers and across their edges, random
    registers and flags (decimal mode too): the same registers, cycles, memory, I/O accesses
    and kept stores."""
    rng = random.Random(opcode)
    exact, flat = Traced(exact_instructions), Traced(instruction_table)
    for _ in range(200):
        mem = list(rng.randbytes(0x10000))
        target = rng.choice(POINTED) + rng.randrange(-3, 4)
        pc = 0x2000
        mem[pc] = opcode
        if EVERY_OPCODE[opcode].mode is Mode.INDIRECT_INDEXED:
            mem[pc + 1] = zp = rng.choice((0x00, 0x01, 0xFE, 0xFF, 0x22))
            mem[zp], mem[(zp + 1) & 0xFF] = target & 0xFF, (target >> 8) & 0xFF
        else:
            mem[pc + 1], mem[pc + 2] = target & 0xFF, (target >> 8) & 0xFF
        regs = tuple(rng.randrange(256) for _ in range(5))
        assert flat.run(mem, regs, pc) == exact.run(mem, regs, pc)
