"""The py65 C64 harness: ROM stubs, stop reasons, and fast == naive engine.

Test programs are hand-assembled here; each byte is commented with its
instruction (opcodes from the MOS 6502 datasheet).  Expected values come from
the C64 ROM facts cited in asm6502/emu/harness.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from py65.devices.mpu6502 import MPU

from asm6502.diagnostics import DiagnosticError
from asm6502.emu.harness import (
    UNDOCUMENTED_OPCODES,
    FastMPU,
    Machine,
    MachineOptions,
    StopReason,
    text_to_keys,
)
from asm6502.petscii import petscii_to_text

ENGINES = ("fast", "naive")
BASE = 0xC000  # free RAM on a C64 ($C000-$CFFF)


def machine(code: bytes, engine: str = "fast", keys: bytes | str = b"", at: int = BASE, **opts) -> Machine:
    m = Machine(MachineOptions(engine=engine, **opts))
    m.load(at, code)
    if keys:
        m.feed(keys)
    return m


def jsr(addr: int) -> bytes:
    return bytes([0x20, addr & 0xFF, addr >> 8])


def sta(addr: int) -> bytes:
    return bytes([0x8D, addr & 0xFF, addr >> 8])


def lda_imm(v: int) -> bytes:
    return bytes([0xA9, v])


RTS = b"\x60"
CHRIN, CHROUT, GETIN, STROUT = 0xFFCF, 0xFFD2, 0xFFE4, 0xAB1E


@pytest.mark.parametrize("engine", ENGINES)
def test_chrout_prints_and_the_final_rts_returns(engine):
    code = lda_imm(0x48) + jsr(CHROUT) + lda_imm(0x49) + jsr(CHROUT) + RTS  # "HI"
    r = machine(code, engine).run(BASE)
    assert r.reason is StopReason.RETURNED and r.ok
    assert r.output == b"HI"
    assert r.instructions == 5  # LDA JSR LDA JSR RTS; the stubbed ROM routine is not counted
    assert r.pc == 0xE147  # BASIC's SYS continues at $E147 after the routine's RTS


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "text_addr, expected",
    [
        (0xA364, b"\rOK\r"),  # BASIC ROM $A364: CR "OK" CR $00
        (0xA369, b"  ERROR"),  # BASIC ROM $A369: "  ERROR" $00
        (0xA36B, b"ERROR"),  # where Superhirn points
    ],
)
def test_strout_prints_rom_texts(engine, text_addr, expected):
    code = lda_imm(text_addr & 0xFF) + bytes([0xA0, text_addr >> 8]) + jsr(STROUT) + RTS  # LDA/LDY/JSR
    r = machine(code, engine).run(BASE)
    assert r.ok and r.output == expected


@pytest.mark.parametrize("text, expected", [(b"AB\x00CD", b"AB"), (b'AB"CD\x00', b"AB")])
def test_strout_stops_at_zero_or_quote(text, expected):
    code = lda_imm(0x00) + bytes([0xA0, 0xC1]) + jsr(STROUT) + RTS
    m = machine(code)
    m.load(0xC100, text)
    assert m.run(BASE).output == expected


def chrin_program(reads: int, chrout_between: bool = False) -> bytes:
    """CHRIN ``reads`` times, storing A at $C200+n; optionally CHROUT '.' after each."""
    code = b""
    for n in range(reads):
        code += jsr(CHRIN) + sta(0xC200 + n)
        if chrout_between:
            code += lda_imm(0x2E) + jsr(CHROUT)
    return code + RTS


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "keys, reads, between, expected",
    [
        # a whole line, one character per call, then $0D
        (b"AB\r", 3, False, b"AB\r"),
        # the call after the $0D starts the next line
        (b"AB\rC\r", 5, False, b"AB\rC\r"),
        # any CHROUT clears "input from screen" ($D0): the rest of the line is skipped
        (b"12\r34\r", 2, True, b"13"),
        # an empty line reads as a space, then RETURN
        (b"\r", 2, False, b" \r"),
        # trailing spaces are not part of the line; DEL ($14) edits the line
        (b"1  \r", 2, False, b"1\r"),
        (b"12\x143\r", 3, False, b"13\r"),
    ],
)
def test_chrin_is_line_based(engine, keys, reads, between, expected):
    m = machine(chrin_program(reads, between), engine, keys)
    r = m.run(BASE)
    assert r.ok
    assert m.read(0xC200, reads) == expected


def test_chrin_waits_for_input_and_resumes():
    m = machine(chrin_program(2))
    r = m.run(BASE)
    assert r.reason is StopReason.INPUT_NEEDED and r.pc == CHRIN and r.resumable
    m.feed("x\n")  # lower-case typed on a PC keyboard is the unshifted C64 key $58
    r2 = m.resume()
    assert r2.ok
    assert m.read(0xC200, 2) == b"X\r"
    assert m.screen == b"X"  # the typed line is echoed, its RETURN is not


@pytest.mark.parametrize("engine", ENGINES)
def test_getin_returns_a_key_or_zero(engine):
    code = jsr(GETIN) + sta(0xC200) + jsr(GETIN) + sta(0xC201) + RTS
    m = machine(code, engine, b"Q")
    assert m.run(BASE).ok
    assert m.read(0xC200, 2) == b"Q\x00"


def test_getin_can_wait_for_a_key():
    m = machine(jsr(GETIN) + sta(0xC200) + RTS, getin_waits=True)
    assert m.run(BASE).reason is StopReason.INPUT_NEEDED
    m.feed(b"Z")
    assert m.resume().ok and m.read(0xC200, 1) == b"Z"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "code, reason, pc, words",
    [
        (b"\xEA\x00", StopReason.BRK, BASE + 1, ["BRK", "$C001"]),  # NOP BRK
        (b"\xEA\xA7\x10", StopReason.UNDOCUMENTED_OPCODE, BASE + 1, ["$A7", "$C001"]),  # NOP LAX $10
        (b"\x02", StopReason.UNDOCUMENTED_OPCODE, BASE, ["$02", "$C000"]),  # JAM
        (jsr(0xFFBD), StopReason.ROM_CALL, 0xFFBD, ["$FFBD", "SETNAM"]),  # JSR SETNAM
        (b"\x4C\x00\xE0", StopReason.ROM_CALL, 0xE000, ["$E000"]),  # JMP $E000
        (b"\x6C\x00\xC1", StopReason.ROM_CALL, 0xA000, ["$A000"]),  # JMP ($C100) -> $A000
    ],
)
def test_stops_name_opcode_and_address(engine, code, reason, pc, words):
    m = machine(code, engine)
    m.load(0xC100, b"\x00\xA0")
    r = m.run(BASE)
    assert r.reason is reason and r.pc == pc
    for w in words:
        assert w in r.message


@pytest.mark.parametrize("engine", ENGINES)
def test_running_from_ram_into_rom_stops(engine):
    r = machine(b"\xEA\xEA\xEA", engine, at=0x9FFD).run(0x9FFD)  # NOP NOP NOP, then $A000
    assert r.reason is StopReason.ROM_CALL and r.pc == 0xA000 and r.instructions == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_instruction_budget_and_resume(engine):
    m = machine(b"\xE8\x4C\x00\xC0", engine)  # loop: INX, JMP loop
    r = m.run(BASE, max_instructions=1001)
    assert r.reason is StopReason.BUDGET and r.instructions == 1001
    assert r.x == 501 % 256  # 501 INX in 1001 instructions
    r2 = m.resume(max_instructions=10)
    assert r2.instructions == 10 and m.instructions == 1011


@pytest.mark.parametrize("engine", ENGINES)
def test_sys_registers_come_from_and_go_to_030c(engine):
    # SYS loads A/X/Y/P from $030C-$030F and stores them back (BASIC $E12A/$E147)
    code = b"\xE8\xC8\x18\x69\x01" + RTS  # INX INY CLC ADC #1
    m = machine(code, engine)
    m.load(0x030C, bytes([0x10, 0x20, 0x30, 0x00]))
    r = m.run(BASE)
    assert (r.a, r.x, r.y) == (0x11, 0x21, 0x31)
    assert m.read(0x030C, 3) == bytes([0x11, 0x21, 0x31])


def test_load_prg_uses_the_load_address():
    m = Machine()
    assert m.load_prg(b"\x00\xC0\xA9\x01\x60") == (0xC000, 0xC003)
    assert m.read(0xC000, 3) == b"\xA9\x01\x60"


@pytest.mark.parametrize("data", [b"", b"\x01", b"\xFF\xFF\x01\x02"])
def test_bad_prg_is_a_diagnostic(data):
    with pytest.raises(DiagnosticError) as exc:
        Machine().load_prg(data, name="bad.prg")
    assert "bad.prg" in exc.value.diagnostics[0].render()


@pytest.mark.parametrize(
    "data, ansi, text",
    [
        (b"\x93HELLO\r", False, "{clr}HELLO\n"),
        (b"\x93HI", True, "\x1b[2J\x1b[HHI"),
        (b"\x5c\x5e\x5f", False, "£↑←"),  # PETSCII pound, up arrow, left arrow
        (b"\x1c\xc1", False, "{red}{$c1}"),
        (b"\x1c", True, ""),
    ],
)
def test_petscii_to_text(data, ansi, text):
    assert petscii_to_text(data, ansi=ansi) == text


def test_text_to_keys():
    assert text_to_keys("aZ1 \n") == b"AZ1 \r"
    with pytest.raises(DiagnosticError) as exc:
        text_to_keys("ok\n\u00e9", name="in.txt")
    assert exc.value.diagnostics[0].render().startswith("in.txt:2:1: error")


# --- the fast engine executes exactly what py65's step() executes ---------------------------
def snapshot(m: Machine, r) -> tuple:
    return (r.reason, r.pc, r.instructions, r.a, r.x, r.y, r.p, r.sp, bytes(m.output), m.read(0, 0x10000))


DOCUMENTED = sorted(set(range(1, 256)) - UNDOCUMENTED_OPCODES)  # all but BRK
instruction = st.tuples(st.sampled_from(DOCUMENTED), st.integers(0, 255), st.integers(0, 255))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    program=st.lists(instruction, min_size=1, max_size=90),
    zero_page=st.binary(min_size=256, max_size=256),
    regs=st.tuples(*[st.integers(0, 255)] * 4),
)
def test_fast_engine_equals_py65_step(program, zero_page, regs):
    # random documented instructions with random operands (3 bytes each, so
    # the byte stream is a random mix of opcodes and operands) from random state
    code = b"".join(bytes(i) for i in program)
    results = []
    for engine in ENGINES:
        m = machine(code, engine, b"7\r")
        m.load(0x0000, zero_page)
        m.load(0x030C, bytes(regs))
        r = m.run(BASE, max_instructions=3000)
        results.append(snapshot(m, r))
    assert results[0] == results[1]


@pytest.mark.parametrize(
    "code",
    [
        b"\xEA\xEA\x18\x90\xFB",  # NOP NOP CLC BCC -5: backward branch loop
        b"\xA2\x05\xCA\xD0\xFD\x60",  # LDX #5, DEX, BNE -3, RTS
        b"\xA2\xFF\xBD\x02\xFF\x60",  # LDX #$FF, LDA $FF02,X (wraps to $0001), RTS
        b"\xA0\x10\xB9\xF8\xFF\x99\x00\xC1\x60",  # LDY #$10, LDA $FFF8,Y, STA $C100,Y, RTS
        b"\xA9\x00\x48\xA9\x80\x68\x08\x68\x60",  # LDA #0 PHA LDA #$80 PLA PHP PLA RTS (flags)
        b"\xA2\x00\x9A\x48\x48\x68\x68\xBA\x4C\x0C\xC0",  # TXS: stack wraps at $0100
    ],
)
def test_engines_agree_on_helper_edge_cases(code):
    results = []
    for engine in ENGINES:
        m = machine(code, engine)
        r = m.run(BASE, max_instructions=500)
        results.append(snapshot(m, r))
    assert results[0] == results[1]


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), regs=st.tuples(*[st.integers(0, 255)] * 5), start=st.integers(0, 0xFF00))
def test_fast_cpu_matches_py65_step_by_step(seed, regs, start):
    """FastMPU against py65's MPU in lockstep through random memory: the same
    registers and flags after every instruction, the same memory at the end."""
    image = random.Random(seed).randbytes(0x10000)
    ref = MPU(memory=list(image), pc=start)
    fast = FastMPU(memory=list(image), pc=start)
    for cpu in (ref, fast):
        cpu.a, cpu.x, cpu.y, cpu.sp, p = regs
        cpu.p = p | MPU.UNUSED | MPU.BREAK
    table = FastMPU.instruct
    for _ in range(3000):
        op = ref.memory[ref.pc]  # undocumented opcodes run as py65's NOP in both
        if ref.pc >= 0xFFF0:
            break
        ref.step()
        fast.pc += 1
        table[op](fast)
        fast.pc &= 0xFFFF  # as py65's step() ends (the harness masks after every control transfer)
        assert (fast.a, fast.x, fast.y, fast.p, fast.sp, fast.pc) == (ref.a, ref.x, ref.y, ref.p, ref.sp, ref.pc)
    assert fast.memory == ref.memory
