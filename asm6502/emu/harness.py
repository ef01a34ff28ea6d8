"""Running a C64 machine-code program without the user's ROM images.

The machine is the C64 of ``asm6502.emu.c64`` -- the same 6510, memory map,
VIC-II, CIAs and SID as with the real ROMs -- on the project's own BASIC and
KERNAL (``asm6502.emu.c64.stubrom``).  This module is that ROM set's owner: its
traps are the ROM routines, written in Python (C64 Programmer's Reference Guide
(PRG), "Mapping the Commodore 64" (Mapping), the KERNAL/BASIC ROM disassemblies):

* CHROUT $FFD2, CHRIN $FFCF (a line of input, as the screen editor reads it),
  GETIN $FFE4, BASIC's STROUT $AB1E, UDTIM $FFEA (the jiffy clock, called by the
  interrupt handler); each is followed by the routine's RTS, and a ``JSR $FFD2``
  counts as one instruction, the JSR (the trap stands in for the ROM routine);
* $E147, where BASIC's SYS continues after the routine's final RTS: the run ends
  cleanly (A/X/Y/P stored to $030C-$030F, as SYS does);
* BRK, through the IRQ entry $FF48 and the vector $0316: the run stops at the BRK
  (the registers as they were at it) unless the program set its own BRK handler;
* any other ROM address: the run stops with an error naming it.

Interrupts run as on a C64: CIA 1's timer interrupts 60 times a second through
$FF48 and $0314 to $EA31 (the jiffy clock, then $EA81: registers back, RTI), so
raster and timer interrupt code, and programs waiting on the raster line, run.

A run also stops when the CPU jams, when CHRIN/GETIN need keys that have not
been fed yet (resumable: ``feed`` and ``resume``), and after an instruction
budget.  ``instructions`` counts the instructions the CPU ran, the program's and
the interrupt code's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from asm6502 import c64map, petscii
from asm6502.c64map import ADDRESS, BASIC_ROM
from asm6502.c64models import DEFAULT, Model
from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.emu.c64 import stubrom
from asm6502.emu.c64.machine import C64, StopRun
from asm6502.petscii import typed_code

# KERNAL jump table names for messages, written as the PRG does ("CHROUT")
KERNAL_ENTRIES: dict[int, str] = {row.address: row.short.upper() for row in c64map.KERNAL}
CHRIN = stubrom.CHRIN
CHROUT = stubrom.CHROUT
GETIN = stubrom.GETIN
STROUT = stubrom.STROUT
BASIC_ENTRIES: dict[int, str] = {STROUT: "STROUT"}
SYS_RETURN = stubrom.SYS_RETURN
SAREG = ADDRESS["sareg"]
TIME = ADDRESS["time"]  # the jiffy clock, $A0-$A2 (high byte first)
STOP_ROW = 0x0091  # STKEY (Mapping): the keyboard row of the STOP key, $FF: not pressed
DAY = 0x4F1A01  # jiffies in 24 hours: UDTIM sets the clock back to 0 there

CRSW = ADDRESS["crsw"]  # "input from screen" flag
KEY_RETURN = petscii.CR
KEY_DEL = petscii.DEL
QUOTE = petscii.QUOTE

DEFAULT_BUDGET = 100_000_000
NO_CYCLE_LIMIT = 1 << 62


def rom_name(addr: int) -> str:
    """``$FFD2 (KERNAL CHROUT)`` -- an address with its ROM entry name if known."""
    if addr in KERNAL_ENTRIES:
        return f"${addr:04X} (KERNAL {KERNAL_ENTRIES[addr]})"
    if addr in BASIC_ENTRIES:
        return f"${addr:04X} (BASIC {BASIC_ENTRIES[addr]})"
    area = "BASIC" if BASIC_ROM[0] <= addr <= BASIC_ROM[1] else "KERNAL"
    return f"${addr:04X} ({area} ROM)"


class StopReason(str, Enum):
    RETURNED = "returned"  # final RTS back to the SYS caller
    BRK = "brk"
    ROM_CALL = "rom-call"  # control reached ROM code that has no stub
    JAM = "jam"  # the CPU ran a JAM opcode
    EXIT = "exit"  # the program wrote its exit code to $D7FF (VICE's debug cartridge)
    INPUT_NEEDED = "input-needed"  # CHRIN/GETIN wait for keys: feed() then resume()
    BUDGET = "budget"
    CYCLES = "cycles"  # the clock cycles the run was given have passed (run(..., max_cycles=N))
    PC = "pc"  # the PC reached the address the run was to stop at (run(..., until_pc=ADDR))


_REASONS = {"returned": StopReason.RETURNED, "brk": StopReason.BRK, "rom-call": StopReason.ROM_CALL,
            "halt": StopReason.JAM, "exit": StopReason.EXIT, "input-needed": StopReason.INPUT_NEEDED,
            "instructions": StopReason.BUDGET, "cycles": StopReason.CYCLES, "pc": StopReason.PC}


@dataclass(frozen=True)
class MachineOptions:
    getin_waits: bool = False  # GETIN with no key: stop INPUT_NEEDED instead of returning 0
    echo_input: bool = True  # typed lines appear in ``screen`` like on the C64 screen
    model: Model = DEFAULT  # the C64 the stub ROMs run in (its chips and CPU constants)


@dataclass(frozen=True)
class RunResult:
    reason: StopReason
    pc: int  # where execution stopped (for RETURNED: the SYS return address)
    instructions: int  # instructions executed by this run()/resume() call
    output: bytes  # PETSCII bytes written through CHROUT during this call
    message: str
    a: int
    x: int
    y: int
    p: int
    sp: int

    @property
    def ok(self) -> bool:
        return self.reason is StopReason.RETURNED

    @property
    def resumable(self) -> bool:
        return self.reason in (StopReason.INPUT_NEEDED, StopReason.BUDGET, StopReason.CYCLES)


Stub = Callable[["Machine"], None]


class Machine:
    """A C64 on the project's ROMs: load a program, run it from an address like SYS.

    Typical use::

        m = Machine()
        m.load_prg(prg_bytes)
        m.feed("1\\n1\\n")
        result = m.run(0x3400)          # like SYS 13312
        while result.reason is StopReason.INPUT_NEEDED:
            m.feed(more_keys())
            result = m.resume()

    ``c64`` is the machine, ``memory`` its CPU's view of memory (RAM, the stub ROMs,
    the I/O registers), ``cpu`` its 6510; ``output`` all bytes written by CHROUT;
    ``screen`` the output with the typed lines echoed, as the C64 screen would show
    them.  ``stubs`` maps ROM entry addresses to functions ``stub(machine)`` that read
    and set ``machine.cpu`` registers and ``machine.memory``; the routine's RTS follows.
    Extra stubs passed to the constructor are added to (or replace) the built-in ones.
    *chargen*: the user's character ROM, for pictures of the screen (none: no characters).
    """

    def __init__(
        self,
        options: MachineOptions = MachineOptions(),
        stubs: Mapping[int, Stub] | None = None,
        on_output: Callable[[int], None] | None = None,
        chargen: bytes | None = None,
    ):
        self.options = options
        self.c64 = c64 = C64(stubrom.images(chargen), model=options.model)
        stubrom.prepare(c64)
        self.memory: list[int] = c64.memory
        self.cpu = c64.cpu
        self.stubs: dict[int, Stub] = {
            CHROUT: Machine._chrout,
            CHRIN: Machine._chrin,
            GETIN: Machine._getin,
            STROUT: Machine._strout,
            stubrom.UDTIM: Machine._udtim,
        }
        if stubs:
            self.stubs.update(stubs)
        for addr, stub in self.stubs.items():
            c64.traps[addr] = self._routine(stub)
        c64.traps[SYS_RETURN] = self._returned
        c64.traps[stubrom.BRK_ENTRY] = self._brk
        c64.untrapped = self._untrapped
        self.on_output = on_output
        self.output = bytearray()
        self.screen = bytearray()
        self._keys: deque[int] = deque()
        self._line = b""
        self._line_pos = 0

    @property
    def instructions(self) -> int:
        """Instructions run over all runs."""
        return self.c64.instructions

    # --- loading and memory --------------------------------------------------
    def load(self, address: int, data: bytes) -> None:
        """Put *data* into RAM at *address* (below a ROM or the I/O registers too, as LOAD does)."""
        if not 0 <= address <= 0xFFFF or address + len(data) > 0x10000:
            raise ValueError(f"${address:04X}+{len(data)} bytes does not fit in 64 KiB")
        self.c64.poke_ram(address, bytes(data))

    def load_prg(self, data: bytes, name: str = "<prg>") -> tuple[int, int]:
        """Load a .prg (2-byte little-endian load address + bytes); return (start, end+1)."""
        if len(data) < 2:
            raise DiagnosticError([error("a .prg file needs a 2-byte load address", Span(name, 1, 0))])
        start = data[0] | data[1] << 8
        body = data[2:]
        if start + len(body) > 0x10000:
            msg = f"load address ${start:04X} + {len(body)} bytes runs past $FFFF"
            raise DiagnosticError([error(msg, Span(name, 1, 0))])
        self.load(start, body)
        return start, start + len(body)

    def read(self, address: int, length: int) -> bytes:
        """The bytes the CPU sees at *address*."""
        return bytes(self.memory[address : address + length])

    def ram(self) -> bytes:
        """All 64 KB of RAM, the RAM below the ROMs and the I/O registers included."""
        mem, under = self.memory, self.c64.under
        return bytes(mem[:0xA000] + under["basic"] + mem[0xC000:0xD000] + under["io"] + under["kernal"])

    def save(self) -> dict:
        """Everything that changes while the machine runs (``restore`` goes back to it)."""
        return {"c64": self.c64.save_state(), "output": bytes(self.output), "screen": bytes(self.screen),
                "keys": bytes(self._keys), "line": (self._line, self._line_pos)}

    def restore(self, state: dict) -> None:
        self.c64.load_state(state["c64"])
        self.output[:] = state["output"]
        self.screen[:] = state["screen"]
        self._keys = deque(state["keys"])
        self._line, self._line_pos = state["line"]

    # --- keyboard -------------------------------------------------------------
    def feed(self, keys: bytes | str) -> None:
        """Queue keystrokes (PETSCII bytes, or text converted with ``text_to_keys``)."""
        self._keys.extend(text_to_keys(keys) if isinstance(keys, str) else bytes(keys))

    @property
    def pending_keys(self) -> int:
        return len(self._keys)

    # --- running --------------------------------------------------------------
    def run(self, start: int, max_instructions: int = DEFAULT_BUDGET, as_sys: bool = True,
            max_cycles: int = NO_CYCLE_LIMIT, until_pc: int | None = None) -> RunResult:
        """Start at ``start`` like BASIC's SYS: A/X/Y/P from $030C-$030F, the
        return address $E146 on the stack; the final RTS ends the run and stores
        A/X/Y/P back to $030C-$030F.  ``as_sys=False`` keeps the registers and
        stack as they are (the caller set them up).  *max_cycles*: stop (CYCLES) when that many
        clock cycles have passed; *until_pc*: stop (PC) when the PC reaches it (``C64.run``'s
        watch, as on the real ROMs)."""
        cpu = self.cpu
        if as_sys:
            cpu.sp = 0xFF
            cpu.a, cpu.x, cpu.y = self.memory[SAREG : SAREG + 3]
            cpu.p = self.memory[SAREG + 3] | cpu.UNUSED | cpu.BREAK
            cpu.stPushWord(SYS_RETURN - 1)
        cpu.pc = start & 0xFFFF
        return self.resume(max_instructions, max_cycles, until_pc)

    def resume(self, max_instructions: int = DEFAULT_BUDGET, max_cycles: int = NO_CYCLE_LIMIT,
               until_pc: int | None = None) -> RunResult:
        """Continue after INPUT_NEEDED (feed keys first), BUDGET or CYCLES."""
        out_mark = len(self.output)
        before = self.c64.instructions
        stop = self.c64.run(max_cycles, until_pc=until_pc, stop_when_idle=False, max_instructions=max_instructions)
        cpu = self.cpu
        reason = _REASONS.get(stop.reason)
        if reason is None:
            raise AssertionError(f"the machine stopped for {stop.reason}: {stop.message}")
        return RunResult(
            reason, cpu.pc, self.c64.instructions - before, bytes(self.output[min(out_mark, len(self.output)):]),
            stop.message, cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp,
        )

    def take_screen(self, transcript: bool = False) -> bytes:
        """The screen bytes since the last call (*transcript*: the CHROUT bytes alone, the typed
        lines not echoed); they and ``output`` are forgotten here, so a caller that streams
        them keeps memory flat however long the program prints."""
        data = bytes(self.output if transcript else self.screen)
        self.screen.clear()
        self.output.clear()
        return data

    # --- the ROM routines ---------------------------------------------------------
    def _routine(self, stub: Stub) -> Callable[[], None]:
        """The trap of a ROM routine: the stub, then the routine's RTS.  A stub that stops
        the run (waiting for keys) leaves the PC at the routine, to run it again on resume."""
        cpu = self.cpu

        def trap() -> None:
            entry = (cpu.pc - 1) & 0xFFFF
            try:
                stub(self)
            except StopRun:
                cpu.pc = entry
                raise
            cpu.pc = (cpu.stPopWord() + 1) & 0xFFFF

        return trap

    def _returned(self) -> None:
        """$E147: the SYS caller stores the registers (Mapping: SAREG..SPREG); the run ends."""
        cpu = self.cpu
        cpu.pc = SYS_RETURN
        self.memory[SAREG : SAREG + 4] = [cpu.a, cpu.x, cpu.y, cpu.p]
        raise StopRun("returned", "returned from SYS (final RTS)")

    def _brk(self) -> None:
        """$FE66, reached from a BRK through $FF48 and $0316: the run stops at the BRK, with
        the registers $FF48 saved and the BRK pushed taken back."""
        cpu = self.cpu
        cpu.y = cpu.stPop()
        cpu.x = cpu.stPop()
        cpu.a = cpu.stPop()
        cpu.p = cpu.stPop()
        cpu.pc = (cpu.stPopWord() - 2) & 0xFFFF  # BRK pushes its address + 2
        raise StopRun("brk", f"BRK at ${cpu.pc:04X}")

    def _untrapped(self, addr: int) -> None:
        raise StopRun("rom-call", f"call into ROM at {rom_name(addr)}, which has no stub")

    def _emit(self, byte: int) -> None:
        self.output.append(byte)
        self.screen.append(byte)
        if self.on_output is not None:
            self.on_output(byte)

    def _chrout(self) -> None:
        """KERNAL $FFD2 CHROUT to the screen ($E716): A, X, Y kept, carry clear.
        Screen output clears the input-from-screen flag $D0, so the next CHRIN
        reads a new line."""
        self._emit(self.cpu.a)
        self.memory[CRSW] = 0
        self.cpu.p &= ~self.cpu.CARRY

    def _chrin(self) -> None:
        """KERNAL $FFCF CHRIN from the keyboard (screen editor, $E632).

        The first call waits for a line ending in RETURN; that call and the
        following ones return its characters, then $0D, after which the next
        call reads a new line.  Trailing spaces are dropped (the editor reads
        the screen line up to its last non-blank); an empty line returns $20
        then $0D.  The editor does not print the RETURN: programs print their
        own CR.  X and Y are kept; carry clear; N/Z from A.
        """
        mem = self.memory
        if not mem[CRSW]:
            self._line = self._take_line()
            self._line_pos = 0
            mem[CRSW] = 1
        if self._line_pos < len(self._line):
            value = self._line[self._line_pos]
            self._line_pos += 1
        else:
            value = KEY_RETURN
            mem[CRSW] = 0
            self._line = b""
        self._set_a(value)

    def _take_line(self) -> bytes:
        keys = self._keys
        if KEY_RETURN not in keys:
            raise StopRun("input-needed", "CHRIN waits for a line of input")
        typed = bytearray()
        while True:
            key = keys.popleft()
            if key == KEY_RETURN:
                break
            if key == KEY_DEL:
                if typed:
                    typed.pop()
                continue
            typed.append(key)
        if self.options.echo_input:
            self.screen.extend(typed)
        line = bytes(typed).rstrip(b" ")
        return line or b" "

    def _getin(self) -> None:
        """KERNAL $FFE4 GETIN from the keyboard buffer: the next key or 0 if none."""
        if self._keys:
            self._set_a(self._keys.popleft())
        elif self.options.getin_waits:
            raise StopRun("input-needed", "GETIN waits for a key")
        else:
            self._set_a(0)

    def _strout(self) -> None:
        """BASIC $AB1E STROUT: print the string at A/Y up to $00 or '"'."""
        mem = self.memory
        addr = self.cpu.a | self.cpu.y << 8
        for n in range(256):
            byte = mem[(addr + n) & 0xFFFF]
            if byte in (0x00, QUOTE):
                return
            if n == 255:
                break
            self.cpu.a = byte
            self._chrout()
        raise StopRun("rom-call", f"STROUT: string at ${addr:04X} is longer than 255 bytes "
                      "(?STRING TOO LONG on a C64)")

    def _udtim(self) -> None:
        """KERNAL $FFEA UDTIM: the jiffy clock TIME ($A0-$A2, high byte first) counts up,
        back to 0 after 24 hours; STKEY $91 says the STOP key is up (no key here is)."""
        mem = self.memory
        t = (mem[TIME] << 16 | mem[TIME + 1] << 8 | mem[TIME + 2]) + 1
        if t >= DAY:
            t = 0
        mem[TIME : TIME + 3] = [t >> 16, (t >> 8) & 0xFF, t & 0xFF]
        mem[STOP_ROW] = 0xFF

    def _set_a(self, value: int) -> None:
        cpu = self.cpu
        cpu.a = value
        cpu.p = (cpu.p & ~(cpu.CARRY | cpu.ZERO | cpu.NEGATIVE)) | (value & 0x80) | (0 if value else cpu.ZERO)


# --- terminal text -> keys ---------------------------------------------------------
def text_to_keys(text: str, name: str = "<input>") -> bytes:
    """Terminal text -> C64 keystrokes (``petscii.typed_code``: letters of either case are the
    unshifted letter keys $41-$5A, capitals on the power-on screen), newline is RETURN,
    backspace/DEL is the DEL key ($14)."""
    out = bytearray()
    line, col = 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            out.append(KEY_RETURN)
            line, col = line + 1, 0
        elif ch == "\r":
            continue
        elif ch in ("\b", "\x7f"):
            out.append(KEY_DEL)
        else:
            code = typed_code(ch)
            if code is None:
                msg = f"character {ch!r} cannot be typed on a C64 keyboard"
                raise DiagnosticError([error(msg, Span(name, line, col))])
            out.append(code)
    return bytes(out)
