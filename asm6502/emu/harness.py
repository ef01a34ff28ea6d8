"""A C64 machine-code harness: py65's 6502 plus Python stubs for the ROM routines.

Memory is a flat 64 KiB RAM image (a list of ints, as py65 wants it).  The
BASIC ROM ($A000-$BFFF) and KERNAL ROM ($E000-$FFFF) are not present: those
areas hold zeros except for the few ROM texts programs print directly.  Control
can only reach ROM code through JSR, JMP, JMP (ind), RTS or RTI (a branch or a
fall-through from RAM lands on a zero, i.e. a BRK, first), so the fast engine
checks the program counter only after those five instructions.  When it lands
in ROM:

* on a stubbed entry point the Python stub runs, then an RTS is performed
  (the stub replaces the whole ROM routine, so ``JSR $FFD2`` costs one counted
  instruction, the JSR);
* on the SYS return address the run ends cleanly (the program's final RTS);
* anywhere else the run stops with an error naming the address.

A run also stops on BRK, on an undocumented opcode (py65 would silently run it
as a one-byte NOP; the 6510 would not), when CHRIN/GETIN need keys that have
not been fed yet (resumable: ``feed`` and ``resume``), and after an
instruction budget.

Two engines execute the same py65 instruction code:

* ``"naive"``: ``MPU.step()`` per instruction with Python checks (stub
  address, opcode) before every step -- the reference;
* ``"fast"`` (default): py65's instruction table called in a tight loop, a
  subclass of py65's MPU with cheaper addressing helpers (same results, no
  cycle bookkeeping), checks only in the control-transfer instructions above.

Both stop in the same state after the same number of instructions; the tests
compare them.  Facts used are cited where used (C64 Programmer's Reference
Guide (PRG), "Mapping the Commodore 64" (Mapping), the KERNAL/BASIC ROM
disassemblies).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from py65.devices.mpu6502 import MPU

from asm6502 import c64map, petscii
from asm6502.c64map import ADDRESS, BASIC_ROM, KERNAL_ROM
from asm6502.cpu import EVERY_OPCODE
from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.petscii import typed_code

# --- memory map (asm6502.c64map) ---------------------------------------------
# KERNAL jump table names for messages, written as the PRG does ("CHROUT")
KERNAL_ENTRIES: dict[int, str] = {row.address: row.short.upper() for row in c64map.KERNAL}
CHRIN = ADDRESS["chrin"]
CHROUT = ADDRESS["chrout"]
GETIN = ADDRESS["getin"]
# BASIC ROM $AB1E STROUT: print the string at A (low) / Y (high) up to a $00
# byte or a quote (it goes through STRLIT $B487, which ends strings at $00 or
# '"'; strings are at most 255 bytes long).
STROUT = ADDRESS["strout"]
BASIC_ENTRIES: dict[int, str] = {STROUT: "STROUT"}

# BASIC ROM texts that programs print via STROUT (BASIC ROM disassembly):
# $A364 "CR O K CR", $A369 "  ERROR" (messages of the READY/error printer).
ROM_TEXTS: dict[int, bytes] = {
    0xA364: bytes([0x0D, 0x4F, 0x4B, 0x0D, 0x00]),
    0xA369: bytes([0x20, 0x20, 0x45, 0x52, 0x52, 0x4F, 0x52, 0x00]),
}

# BASIC SYS ($E12A) pushes $E146 before jumping to the routine, so the
# routine's final RTS continues at $E147, which stores A/X/Y/P into
# $030C-$030F (SAREG/SXREG/SYREG/SPREG, Mapping); SYS loads them from there.
SYS_RETURN = 0xE147
SAREG = ADDRESS["sareg"]

CRSW = ADDRESS["crsw"]  # "input from screen" flag
KEY_RETURN = petscii.CR
KEY_DEL = petscii.DEL
QUOTE = petscii.QUOTE

# The NMOS 6502's undocumented opcodes (the opcode table): py65 1.2 implements none
# of them (it would run each as a one-byte NOP), so the stubbed runner stops on them.
UNDOCUMENTED_OPCODES = frozenset(op.code for op in EVERY_OPCODE if not op.documented)
# The only instructions that can move the program counter into ROM code.
CONTROL_TRANSFERS = (0x20, 0x40, 0x4C, 0x60, 0x6C)  # JSR RTI JMP RTS JMP()

DEFAULT_BUDGET = 100_000_000
_BATCH = 20_000  # instructions per inner loop before the budget check


def _in_rom(addr: int) -> bool:
    return addr >= KERNAL_ROM[0] or BASIC_ROM[0] <= addr <= BASIC_ROM[1]


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
    UNDOCUMENTED_OPCODE = "undocumented-opcode"
    INPUT_NEEDED = "input-needed"  # CHRIN/GETIN wait for keys: feed() then resume()
    BUDGET = "budget"


@dataclass(frozen=True)
class MachineOptions:
    engine: str = "fast"  # "fast" or "naive" (reference: py65 step() per instruction)
    getin_waits: bool = False  # GETIN with no key: stop INPUT_NEEDED instead of returning 0
    echo_input: bool = True  # typed lines appear in ``screen`` like on the C64 screen


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
        return self.reason in (StopReason.INPUT_NEEDED, StopReason.BUDGET)


class _Stop(Exception):
    """Raised inside the instruction loop; ``completed`` = the current instruction ran."""

    def __init__(self, reason: StopReason, message: str, completed: int):
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.completed = completed


class FastMPU(MPU):
    """py65's NMOS 6502 with cheaper helpers.

    Every instruction is still py65's own ``inst_0xNN`` method; the addressing
    and operation helpers it calls (``AbsoluteXAddr``, ``opLSR``, ``opCMPR``,
    ``opBCL`` ...) are replaced by versions computing the same values and
    flags with fewer Python operations (flag masks: N $80, V $40, Z $02,
    C $01).  Cycle bookkeeping (``excycles``) is dropped: the harness does not
    report cycles.  ``ByteAt`` becomes the memory list's own ``__getitem__``.
    The tests compare this class with py65's MPU on random programs.
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


Stub = Callable[["Machine"], None]


class Machine:
    """A C64 without ROMs: 64 KiB RAM, py65 CPU, stubbed KERNAL/BASIC entries.

    Typical use::

        m = Machine()
        m.load_prg(prg_bytes)
        m.feed("1\\n1\\n")
        result = m.run(0x3400)          # like SYS 13312
        while result.reason is StopReason.INPUT_NEEDED:
            m.feed(more_keys())
            result = m.resume()

    ``memory`` is the RAM (a list of 65536 ints 0-255, shared with the CPU);
    ``output`` all bytes written by CHROUT; ``screen`` the output with the
    typed lines echoed, as the C64 screen would show them.  ``stubs`` maps ROM
    entry addresses to functions ``stub(machine)`` that read and set
    ``machine.cpu`` registers and ``machine.memory``; the harness performs the
    routine's RTS.  Extra stubs passed to the constructor are added to (or
    replace) the built-in CHROUT/CHRIN/GETIN/STROUT.
    """

    def __init__(
        self,
        options: MachineOptions = MachineOptions(),
        stubs: Mapping[int, Stub] | None = None,
        on_output: Callable[[int], None] | None = None,
    ):
        if options.engine not in ("fast", "naive"):
            raise ValueError(f"unknown engine {options.engine!r} (fast or naive)")
        self.options = options
        self.memory: list[int] = [0] * 0x10000
        for addr, text in ROM_TEXTS.items():
            self.memory[addr : addr + len(text)] = text
        cpu_class = FastMPU if options.engine == "fast" else MPU
        self.cpu = cpu_class(memory=self.memory, pc=0)
        self.stubs: dict[int, Stub] = {
            CHROUT: Machine._chrout,
            CHRIN: Machine._chrin,
            GETIN: Machine._getin,
            STROUT: Machine._strout,
        }
        if stubs:
            self.stubs.update(stubs)
        self.on_output = on_output
        self.output = bytearray()
        self.screen = bytearray()
        self.instructions = 0  # total over all runs
        self._keys: deque[int] = deque()
        self._line = b""
        self._line_pos = 0
        self._instruct = self._fast_table() if options.engine == "fast" else None

    # --- loading and memory --------------------------------------------------
    def load(self, address: int, data: bytes) -> None:
        if not 0 <= address <= 0xFFFF or address + len(data) > 0x10000:
            raise ValueError(f"${address:04X}+{len(data)} bytes does not fit in 64 KiB")
        self.memory[address : address + len(data)] = bytes(data)

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
        return bytes(self.memory[address : address + length])

    # --- keyboard -------------------------------------------------------------
    def feed(self, keys: bytes | str) -> None:
        """Queue keystrokes (PETSCII bytes, or text converted with ``text_to_keys``)."""
        self._keys.extend(text_to_keys(keys) if isinstance(keys, str) else bytes(keys))

    @property
    def pending_keys(self) -> int:
        return len(self._keys)

    # --- running --------------------------------------------------------------
    def run(self, start: int, max_instructions: int = DEFAULT_BUDGET, as_sys: bool = True) -> RunResult:
        """Start at ``start`` like BASIC's SYS: A/X/Y/P from $030C-$030F, the
        return address $E146 on the stack; the final RTS ends the run and stores
        A/X/Y/P back to $030C-$030F.  ``as_sys=False`` keeps the registers and
        stack as they are (the caller set them up)."""
        cpu = self.cpu
        if as_sys:
            cpu.sp = 0xFF
            cpu.a, cpu.x, cpu.y = self.memory[SAREG : SAREG + 3]
            cpu.p = self.memory[SAREG + 3] | MPU.UNUSED | MPU.BREAK
            cpu.stPushWord(SYS_RETURN - 1)
        cpu.pc = start & 0xFFFF
        return self.resume(max_instructions)

    def resume(self, max_instructions: int = DEFAULT_BUDGET) -> RunResult:
        """Continue after INPUT_NEEDED (feed keys first) or BUDGET."""
        out_mark = len(self.output)
        try:
            if _in_rom(self.cpu.pc):  # stopped inside a stub (waiting for keys)
                self._arrive(0)
        except _Stop as caught:
            done, stopped = 0, caught
        else:
            engine = self._execute_fast if self._instruct is not None else self._execute_naive
            done, stopped = engine(max_instructions)
        stop = stopped
        self.instructions += done
        cpu = self.cpu
        if stop.reason is StopReason.RETURNED:
            # $E147: the SYS caller stores the registers (Mapping: SAREG..SPREG)
            self.memory[SAREG : SAREG + 4] = [cpu.a, cpu.x, cpu.y, cpu.p]
        return RunResult(
            stop.reason, cpu.pc, done, bytes(self.output[min(out_mark, len(self.output)):]), stop.message,
            cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp,
        )

    def _execute_fast(self, budget: int):
        cpu = self.cpu
        mem = self.memory
        table = self._instruct
        done = 0
        i = 0
        try:
            while done < budget:
                n = min(_BATCH, budget - done)
                for i in range(n):
                    op = mem[cpu.pc]
                    cpu.pc += 1
                    table[op](cpu)
                done += n
        except _Stop as stop:
            return done + i + stop.completed, stop
        return done, _budget_stop(budget)

    def _execute_naive(self, budget: int):
        cpu = self.cpu
        mem = self.memory
        done = 0
        try:
            while done < budget:
                pc = cpu.pc
                if _in_rom(pc):
                    self._arrive(0)
                    continue
                op = mem[pc]
                if op in UNDOCUMENTED_OPCODES:
                    raise self._undocumented(pc, op)
                if op == 0x00:
                    raise self._brk(pc)
                cpu.step()
                done += 1
        except _Stop as stop:
            return done + stop.completed, stop
        return done, _budget_stop(budget)

    # --- the fast engine's instruction table ----------------------------------
    def _fast_table(self) -> list:
        table = list(FastMPU.instruct)
        machine = self

        def undocumented(cpu):
            cpu.pc -= 1
            raise machine._undocumented(cpu.pc, machine.memory[cpu.pc])

        def brk(cpu):
            cpu.pc -= 1
            raise machine._brk(cpu.pc)

        for op in UNDOCUMENTED_OPCODES:
            table[op] = undocumented
        table[0x00] = brk
        for op in CONTROL_TRANSFERS:
            table[op] = _checked(table[op], machine)
        return table

    def _undocumented(self, pc: int, op: int) -> _Stop:
        msg = f"undocumented opcode ${op:02X} at ${pc:04X} (py65 would run it as a NOP)"
        return _Stop(StopReason.UNDOCUMENTED_OPCODE, msg, 0)

    def _brk(self, pc: int) -> _Stop:
        if _in_rom(pc):  # ran from RAM into the (absent) ROM
            return _Stop(StopReason.ROM_CALL, f"execution ran into ROM at {rom_name(pc)}, which has no stub", 0)
        return _Stop(StopReason.BRK, f"BRK at ${pc:04X}", 0)

    def _arrive(self, completed: int) -> None:
        """The PC is in ROM: run stubs (each followed by an RTS) until back in RAM."""
        cpu = self.cpu
        while True:
            pc = cpu.pc
            if pc == SYS_RETURN:
                raise _Stop(StopReason.RETURNED, "returned from SYS (final RTS)", completed)
            stub = self.stubs.get(pc)
            if stub is None:
                raise _Stop(StopReason.ROM_CALL, f"call into ROM at {rom_name(pc)}, which has no stub", completed)
            try:
                stub(self)
            except _Stop as stop:
                stop.completed = completed
                raise
            cpu.pc = (cpu.stPopWord() + 1) & 0xFFFF  # the routine's RTS
            if not _in_rom(cpu.pc):
                return

    def take_screen(self) -> bytes:
        """The screen bytes since the last call; they (and ``output``) are forgotten here, so a
        caller that streams them keeps memory flat however long the program prints."""
        data = bytes(self.screen)
        self.screen.clear()
        self.output.clear()
        return data

    # --- stubs -----------------------------------------------------------------
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
        self.cpu.p &= ~MPU.CARRY

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
            raise _Stop(StopReason.INPUT_NEEDED, "CHRIN waits for a line of input", 0)
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
            raise _Stop(StopReason.INPUT_NEEDED, "GETIN waits for a key", 0)
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
        raise _Stop(StopReason.ROM_CALL, f"STROUT: string at ${addr:04X} is longer than 255 bytes "
                    "(?STRING TOO LONG on a C64)", 0)

    def _set_a(self, value: int) -> None:
        cpu = self.cpu
        cpu.a = value
        cpu.p = (cpu.p & ~(MPU.CARRY | MPU.ZERO | MPU.NEGATIVE)) | (value & 0x80) | (0 if value else MPU.ZERO)


def _budget_stop(budget: int) -> _Stop:
    return _Stop(StopReason.BUDGET, f"instruction budget of {budget} used up", 0)


def _checked(instruction, machine: Machine):
    """Wrap a control-transfer instruction: after it, a PC in ROM goes to the stubs."""

    def run(cpu):
        instruction(cpu)
        pc = cpu.pc & 0xFFFF  # RTS from $FFFF on the stack wraps to $0000
        cpu.pc = pc
        if pc >= 0xE000 or 0xA000 <= pc <= 0xBFFF:
            machine._arrive(1)

    return run


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
