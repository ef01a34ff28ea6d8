"""Using the C64 the way a person does: switch on, wait for READY., load or
type a program, run it, look at the screen.  The command line (``asm6502
run --roms``, ``basic run --rom``) and the tests go through these functions."""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.c64models import DEFAULT, Model
from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.emu.c64.drive import Disk
from asm6502.emu.c64.machine import C64, RomImages, Stop
from asm6502.emu.c64.roms import RomSet
from asm6502.emu.harness import text_to_keys

BOOT_LIMIT = 5_000_000  # cycles; the real ROMs reach READY. after about 2.2 million
DEFAULT_CYCLES = 200_000_000  # about 3 minutes 23 s of C64 time

# exit codes of a run on the machine
EXIT_OK = 0  # the stop condition was met (or, without one, the program waits for keys)
EXIT_HALT = 1  # the CPU stopped: JAM or an undocumented opcode
EXIT_CYCLES = 3  # the cycle limit came first
EXIT_IDLE = 4  # the KERNAL waits for a key, nothing is left to type, the condition was not met


@dataclass(frozen=True)
class RunSpec:
    cycles: int = DEFAULT_CYCLES
    until_text: str | None = None
    until_pc: int | None = None

    @property
    def has_condition(self) -> bool:
        return self.until_text is not None or self.until_pc is not None


def images(roms: RomSet) -> RomImages:
    return RomImages(roms.basic, roms.kernal, roms.chargen)


def boot(roms: RomImages, disk: Disk | None = None, keyboard_mode: str = "buffer", model: Model = DEFAULT) -> C64:
    """A C64 of *model* switched on and waiting at READY. (the CHROUT transcript is cleared)."""
    machine = C64(roms, disk=disk, keyboard_mode=keyboard_mode, model=model)
    stop = machine.run(BOOT_LIMIT)
    if stop.reason != "idle":
        raise DiagnosticError([error(f"the C64 did not reach READY. after {BOOT_LIMIT:,} cycles "
                                     f"({stop.reason}: {stop.message}); are these C64 ROMs?")])
    machine.transcript.clear()
    return machine


def start_program(machine: C64, prg: bytes, sys_address: int | None = None) -> int:
    """Put the .prg in memory as LOAD"...",8,1 would and type RUN (a BASIC
    program at $0801) or SYS <address>; returns the start address."""
    start, _end = machine.inject_prg(prg)
    basic_start = machine.memory[0x2B] | machine.memory[0x2C] << 8
    if sys_address is None and start == basic_start:
        machine.type_text(b"RUN\r")
        return start
    address = start if sys_address is None else sys_address
    machine.type_text(b"SYS%d\r" % address)
    return address


def exit_code(stop: Stop, spec: RunSpec) -> int:
    if stop.reason == "exit":
        return stop.code
    if stop.reason in ("text", "pc"):
        return EXIT_OK
    if stop.reason == "halt":
        return EXIT_HALT
    if stop.reason == "cycles":
        return EXIT_CYCLES
    return EXIT_IDLE if spec.has_condition else EXIT_OK


_ESCAPES = {"r": 0x0D, "n": 0x0D, "\\": 0x5C}


def typed_keys(text: str, name: str = "--type") -> bytes:
    """``--type`` text -> PETSCII keys: letters of either case are the letter
    keys, ``\\r`` or ``\\n`` (or a real newline) is RETURN, ``\\xNN`` any PETSCII
    code (e.g. ``\\x93`` CLR/HOME), ``\\\\`` a pound sign's key."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            if nxt == "x" and _is_hex(text[i + 2 : i + 4]):
                out.append(int(text[i + 2 : i + 4], 16))
                i += 4
                continue
            raise DiagnosticError([error(f"unknown escape '\\{nxt}' (use \\r, \\n, \\xNN or \\\\)",
                                         Span(name, 1, i + 1))])
        out += text_to_keys(ch, name)
        i += 1
    return bytes(out)


def _is_hex(s: str) -> bool:
    return len(s) == 2 and all(c in "0123456789abcdefABCDEF" for c in s)
