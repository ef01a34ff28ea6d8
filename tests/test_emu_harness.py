"""The C64 machine on the project's stub ROMs (asm6502/emu/harness.py): the ROM routines,
stop reasons, interrupts and the chips without the user's ROM images, and the CPU against
py65's own MPU.

Test programs are hand-assembled here (each byte commented with its instruction, opcodes
from the MOS 6502 datasheet) or assembled by asm6502.  Expected values come from the C64 ROM
facts cited in asm6502/emu/harness.py and asm6502/emu/c64/stubrom.py.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from py65.devices.mpu6502 import MPU

from asm6502.asm import assemble
from asm6502.asm.result import Options
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import screen, stubrom
from asm6502.emu.c64.cpu import C64CPU, EVERY_OPCODE, instruction_table
from asm6502.emu.c64.mpu import FastMPU
from asm6502.emu.harness import Machine, MachineOptions, StopReason, text_to_keys
from asm6502.petscii import petscii_to_text

BASE = 0xC000  # free RAM on a C64 ($C000-$CFFF)


def machine(code: bytes, keys: bytes | str = b"", at: int = BASE, **opts) -> Machine:
    m = Machine(MachineOptions(**opts))
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


def test_chrout_prints_and_the_final_rts_returns():
    code = lda_imm(0x48) + jsr(CHROUT) + lda_imm(0x49) + jsr(CHROUT) + RTS  # "HI"
    r = machine(code).run(BASE)
    assert r.reason is StopReason.RETURNED and r.ok
    assert r.output == b"HI"
    assert r.instructions == 5  # LDA JSR LDA JSR RTS; the stubbed ROM routine is not counted
    assert r.pc == 0xE147  # BASIC's SYS continues at $E147 after the routine's RTS


@pytest.mark.parametrize(
    "text_addr, expected",
    [
        (0xA364, b"\rOK\r"),  # BASIC ROM $A364: CR "OK" CR $00
        (0xA369, b"  ERROR"),  # BASIC ROM $A369: "  ERROR" $00
        (0xA36B, b"ERROR"),  # where Superhirn points
    ],
)
def test_strout_prints_rom_texts(text_addr, expected):
    code = lda_imm(text_addr & 0xFF) + bytes([0xA0, text_addr >> 8]) + jsr(STROUT) + RTS  # LDA/LDY/JSR
    r = machine(code).run(BASE)
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
def test_chrin_is_line_based(keys, reads, between, expected):
    m = machine(chrin_program(reads, between), keys)
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


def test_getin_returns_a_key_or_zero():
    code = jsr(GETIN) + sta(0xC200) + jsr(GETIN) + sta(0xC201) + RTS
    m = machine(code, b"Q")
    assert m.run(BASE).ok
    assert m.read(0xC200, 2) == b"Q\x00"


def test_getin_can_wait_for_a_key():
    m = machine(jsr(GETIN) + sta(0xC200) + RTS, getin_waits=True)
    assert m.run(BASE).reason is StopReason.INPUT_NEEDED
    m.feed(b"Z")
    assert m.resume().ok and m.read(0xC200, 1) == b"Z"


@pytest.mark.parametrize(
    "code, reason, pc, words",
    [
        (b"\xEA\x00", StopReason.BRK, BASE + 1, ["BRK", "$C001"]),  # NOP BRK
        (b"\x02", StopReason.JAM, BASE, ["jammed", "$02", "$C000"]),  # JAM
        (b"\xEA\xF2", StopReason.JAM, BASE + 1, ["jammed", "$F2", "$C001"]),  # NOP JAM
        (jsr(0xFFBD), StopReason.ROM_CALL, 0xFFBD, ["$FFBD", "SETNAM"]),  # JSR SETNAM
        (b"\x4C\x00\xE0", StopReason.ROM_CALL, 0xE000, ["$E000"]),  # JMP $E000
        (b"\x6C\x00\xC1", StopReason.ROM_CALL, 0xA000, ["$A000"]),  # JMP ($C100) -> $A000
    ],
)
def test_stops_name_opcode_and_address(code, reason, pc, words):
    m = machine(code)
    m.load(0xC100, b"\x00\xA0")
    r = m.run(BASE)
    assert r.reason is reason and r.pc == pc
    for w in words:
        assert w in r.message


def test_running_from_ram_into_rom_stops():
    r = machine(b"\xEA\xEA\xEA", at=0x9FFD).run(0x9FFD)  # NOP NOP NOP, then $A000
    assert r.reason is StopReason.ROM_CALL and r.pc == 0xA000 and r.instructions == 3


def test_instruction_budget_and_resume():
    m = machine(b"\xE8\x4C\x00\xC0")  # loop: INX, JMP loop
    r = m.run(BASE, max_instructions=1001)
    assert r.reason is StopReason.BUDGET and r.instructions == 1001
    assert r.x == 501 % 256  # 501 INX in 1001 instructions
    r2 = m.resume(max_instructions=10)
    assert r2.instructions == 10 and m.instructions == 1011


def test_sys_registers_come_from_and_go_to_030c():
    # SYS loads A/X/Y/P from $030C-$030F and stores them back (BASIC $E12A/$E147)
    code = b"\xE8\xC8\x18\x69\x01" + RTS  # INX INY CLC ADC #1
    m = machine(code)
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


# --- the CPU against py65's own MPU -----------------------------------------------------------
DOCUMENTED = frozenset(op.code for op in EVERY_OPCODE if op.documented)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), regs=st.tuples(*[st.integers(0, 255)] * 5), start=st.integers(0, 0xFF00))
def test_fast_mpu_matches_py65_step_by_step(seed, regs, start):
    """FastMPU (the base of the 6510) against py65's MPU in lockstep through random memory:
    the same registers and flags after every instruction, the same memory at the end."""
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
        fast.pc &= 0xFFFF  # as py65's step() ends
        assert (fast.a, fast.x, fast.y, fast.p, fast.sp, fast.pc) == (ref.a, ref.x, ref.y, ref.p, ref.sp, ref.pc)
    assert fast.memory == ref.memory


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), regs=st.tuples(*[st.integers(0, 255)] * 5), start=st.integers(0x0200, 0x9F00))
def test_the_6510_runs_documented_instructions_as_py65_does(seed, regs, start):
    """The machine's instruction table on 64 KB of plain RAM against py65's MPU, lockstep,
    while the instructions are documented and the decimal flag is clear (the 6510's decimal
    flags follow the NMOS chip, py65's do not)."""
    image = random.Random(seed).randbytes(0x10000)
    ref = MPU(memory=list(image), pc=start)
    mem = list(image)

    def store(addr: int, value: int) -> None:
        mem[addr] = value

    cpu = C64CPU(mem, lambda addr: None, store)
    cpu.blocks = (mem,) * 16  # (no I/O registers: plain RAM everywhere)
    cpu.pc = start
    for c in (ref, cpu):
        c.a, c.x, c.y, c.sp, p = regs
        c.p = (p | MPU.UNUSED | MPU.BREAK) & ~MPU.DECIMAL
    table = instruction_table()
    for _ in range(3000):
        op = ref.memory[ref.pc]
        if op not in DOCUMENTED or ref.p & MPU.DECIMAL or not 2 <= ref.pc < 0xFFF0:
            break
        ref.step()
        cpu.pc += 1
        table[op](cpu)
        cpu.pc &= 0xFFFF
        assert (cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp, cpu.pc) == (ref.a, ref.x, ref.y, ref.p, ref.sp, ref.pc)
    assert mem[2:] == ref.memory[2:]


# --- the machine without ROM images: chips, interrupts, the stub ROMs -------------------------
def program(source: str, origin: int = BASE) -> bytes:
    text = f"*= ${origin:04x}\n" + "\n".join(f"         {line}" for line in source.strip().split("\n")) + "\n"
    return assemble(text, "test.asm", Options(cpu="6502i")).image


def run_source(source: str, **opts) -> tuple[Machine, object]:
    m = machine(program(source), **opts)
    return m, m.run(BASE, max_instructions=2_000_000)


def test_a_program_waiting_for_raster_lines_runs():
    """CMP $D012 loops: the VIC-II's raster counter moves with the CPU's cycles (without it
    the loop would never end).  $D012 reads 0 on lines 0 and 256 (bit 8 is in $D011): ten
    waits are five frames."""
    m, r = run_source("""ldx #10
wait     lda $d012
bne wait
next     lda $d012
beq next
dex
bne wait
rts""")
    assert r.ok
    assert 4 * 19_656 < m.c64.cpu.cycles < 6 * 19_656  # PAL: 312 lines of 63 cycles a frame


def test_the_timer_interrupt_runs_the_jiffy_clock():
    """CIA 1's timer interrupts 60 times a second through $FF48 and $0314 to $EA31; the
    jiffy clock $A0-$A2 counts (the loop waits for 5 jiffies)."""
    m, r = run_source("""lda $a2
clc
adc #5
wait     cmp $a2
bne wait
rts""")
    assert r.ok and m.read(0xA2, 1) == bytes([5]) and m.c64.counters.interrupts >= 5


def test_an_interrupt_handler_chained_to_ea31_runs():
    """The usual way to hook the interrupt: $0314 points at the program's handler, which
    counts in $C300 and continues at $EA31 (the KERNAL's handler ends at $EA81: RTI)."""
    m, r = run_source("""sei
lda #<handler
sta $0314
lda #>handler
sta $0315
cli
wait     lda $c300
cmp #3
bne wait
sei
lda #$31
sta $0314
lda #$ea
sta $0315
cli
rts
handler  inc $c300
jmp $ea31""")
    assert r.ok and m.read(0xC300, 1) == b"\x03"


def test_a_raster_interrupt_acknowledged_with_asl_d019():
    """A raster interrupt on line $80 with the CIA's off, acknowledged with ASL $D019 (the
    read-modify-write writes the old value back first, which clears the latch): one
    interrupt a frame."""
    m, r = run_source("""sei
lda #$7f
sta $dc0d
lda $dc0d
lda #<handler
sta $0314
lda #>handler
sta $0315
lda #$80
sta $d012
lda $d011
and #$7f
sta $d011
lda #$01
sta $d01a
cli
wait     lda $c300
cmp #5
bne wait
sei
lda #0
sta $d01a
rts
handler  asl $d019
inc $c300
inc $d020
jmp $ea81""")
    assert r.ok and m.read(0xC300, 1) == b"\x05"
    assert 4 * 19_656 < m.c64.cpu.cycles < 6 * 19_656


def test_undocumented_opcodes_run_as_on_the_6510():
    """LAX $10 loads A and X; SAX $11 stores A AND X (No More Secrets)."""
    m, r = run_source("lda #$5a\nsta $10\nlax $10\nlda #$0f\nsax $11\nrts")
    assert r.ok and (r.x, m.read(0x11, 1)) == (0x5A, b"\x0a")


def test_a_brk_handler_of_the_program_is_called():
    """BRK goes through $FF48 and the vector $0316: the program's own handler runs."""
    m, r = run_source("""lda #<handler
sta $0316
lda #>handler
sta $0317
brk
nop
handler  pla
tay
pla
tax
pla
pla
pla
pla
lda #$77
rts""")
    assert r.ok and r.a == 0x77


def test_the_stub_roms():
    roms = stubrom.images()
    assert (len(roms.basic), len(roms.kernal), roms.stub, stubrom.has_chargen(roms)) == (0x2000, 0x2000, True, False)
    kernal = roms.kernal
    assert kernal[0x1FFA:] == bytes([0x43, 0xFE, 0xE2, 0xFC, 0x48, 0xFF])  # NMI $FE43, RESET $FCE2, IRQ $FF48
    assert kernal[0xFFD2 - 0xE000] == 0x02  # a trap: the routine is Python
    m = Machine()
    assert m.read(0x0314, 6) == bytes([0x31, 0xEA, 0x66, 0xFE, 0x47, 0xFE])  # RESTOR's vectors
    assert m.read(0x0400, 3) == b"   " and m.c64.vic.regs[0x20:0x22] == [14, 6]  # cleared screen, colours


def test_a_screenshot_without_the_character_rom_has_no_characters():
    m, r = run_source("lda #0\nsta $d020\nlda #1\nsta $0400\nrts")  # black border, "A" at the top left
    rows = screen.render(m.c64, m.c64.cpu.cycles + screen.vicdraw.CYCLES_PER_LINE * screen.vicdraw.LINES)  # (the frame after it)
    assert rows[0][0] == 0  # the border is black
    top_left = [rows[y][x] for y in range(36, 44) for x in range(32, 40)]  # (the first cell: 32 pixels of border)
    assert set(top_left) == {6}  # background blue only: no character drawn without the ROM
