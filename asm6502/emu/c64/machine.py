"""The C64 around py65's 6510: ROMs, banking, VIC-II, CIAs, SID, colour RAM,
keyboard, device 8 -- enough for the real BASIC and KERNAL to boot and run.

Memory is one list of 65,536 ints (``memory``), the one the CPU reads, and the
memory map around it (``memmap.MemoryMap``, ``mm``: the 6510's port and the
banking; a bank switch copies nothing).  The CPU's reads of the I/O registers
go through ``_io_read``, its writes there through the map to ``_io_write``; an
instruction in a page the map flags (bytes in $D000-$DFFF, or in an area the
memory list does not hold) is fetched through ``_fetch_high`` (the run loop
tests a flag per page), and one whose bytes run past $FFFF wraps to $0000
(``_wrapped``).

Time: the CPU counts cycles; the chips are not ticked but asked when their
next event (CIA underflow, raster compare, the end of a video frame) is due,
and the CPU runs undisturbed up to the earliest one (``cpu.limit``).  A
register write that changes a schedule pulls the limit in.  Once a frame
(19,656 cycles) the machine types queued keys, checks the stop conditions
and whether the KERNAL waits for a key with nothing left to type.

Facts: the PLA's memory configurations and the processor port (C64
Programmer's Reference Guide, "Memory management"; Mapping the C64, $0000,
$0001); the KERNAL's variables (Mapping: $90 ST, $99 DFLTN, $9A DFLTO, $C6 NDX, $0277
KEYD, $0289 XMAX, $CC BLNSW); the KERNAL routines named by address are those
of KERNAL 901227-03 (its disassembly).
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from py65.devices.mpu6502 import MPU

from asm6502.c64map import ADDRESS
from asm6502.c64models import DEFAULT, Model
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.c64 import keyboard
from asm6502.emu.c64.cia import CIA
from asm6502.emu.c64.cpu import (
    C64CPU,
    CYCLES,
    INTERRUPT_WRITES,
    IO_END,
    IO_LOW,
    SIZES,
    TAIL_WRITES,
    Jammed,
    instruction_table,
)
from asm6502.emu.c64.drive import Disk, Drive
from asm6502.emu.c64.memmap import BANKS, IO, ROM, MemoryMap
from asm6502.emu.c64.screen import screen_lines
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, NEVER, VIC
from asm6502.emu.c64.vicmem import REGS as VIC_MEMORY_REGS
from asm6502.emu.c64.vicmem import VicMemory

PAL_HZ = 985_248
IO_FETCH = 0xCFFD  # an instruction at $CFFE or above may have bytes in the I/O area
TRAP_OPCODE = 0x02  # a JAM opcode on the 6510: never in working code; VICE traps with it too
# VICE's debug cartridge (x64sc -debugcart): a write to $D7FF ends the emulator with the
# value written as its exit code -- the VICE test programs report 0 (pass) or $FF (fail)
# through it.  On a C64 without the cartridge $D7FF is a mirror of SID register $1F, which
# does not exist, so a program that is not a test has no reason to write it.
DEBUG_CART = 0xD7FF

# KERNAL variables (asm6502.c64map)
ST = ADDRESS["status"]
DFLTN = ADDRESS["dfltn"]  # input device (0 = keyboard)
DFLTO = ADDRESS["dflto"]  # output device (3 = screen)
NDX = ADDRESS["ndx"]  # number of keys in the keyboard buffer
KEYD = ADDRESS["keyd"]  # keyboard buffer
XMAX = ADDRESS["xmax"]  # keyboard buffer size
BLNSW = ADDRESS["blnsw"]  # cursor blink switch: 0 = the cursor blinks (editor waits for a key)
TXTTAB = ADDRESS["txttab"]
VARTAB = ADDRESS["vartab"]

# The screen editor's wait-for-a-key loop in KERNAL 901227-03 ($E5CD-$E5D4:
# LDA NDX / STA BLNSW / STA $0292 / BEQ back).
KEY_WAIT_LOOP = range(0xE5CD, 0xE5D7)

# KERNAL jump table entries of the serial bus (PRG "KERNAL routines").
SERIAL_ENTRIES = {ADDRESS[name]: name.upper() for name in ("listen", "talk", "second", "tksa", "ciout", "acptr", "unlsn", "untlk")}
CHROUT_ENTRY = ADDRESS["chrout"]
GETIN_ENTRY = ADDRESS["getin"]
POLL_FRAMES = 10  # GETIN polled with nothing to get for 10 frames (1/5 s): the program waits for a key

@dataclass(frozen=True)
class RomImages:
    basic: bytes
    kernal: bytes
    chargen: bytes
    stub: bool = False  # the project's stand-ins (asm6502.emu.c64.stubrom), not a C64's ROMs


@dataclass
class Stop:
    reason: str  # "text", "pc", "idle", "cycles", "halt", "exit"
    message: str
    cycles: int
    code: int = 0  # "exit": the value the program wrote to the debug cartridge's port


class _Halt(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class StopRun(Exception):
    """Raised by a trap: the run stops with *reason* (the trap's instruction not counted)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass
class Counters:
    frames: int = 0
    interrupts: int = 0


def _window_writes(tail: int, count: int) -> int:
    """Bit i: cycle i of an instruction's last *count* is a write (*tail*: bit j, the
    cycle j from the end; ``cpu.TAIL_WRITES``)."""
    return sum(1 << i for i in range(count) if tail >> (count - 1 - i) & 1)


def _window_writes_table() -> tuple[tuple[int, ...], ...]:
    by_tail = {tail: tuple(_window_writes(tail, count) for count in range(10)) for tail in set(TAIL_WRITES)}
    return tuple(by_tail[tail] for tail in TAIL_WRITES)  # (5 tails: each made once, at every start)


#: per opcode and count (0-9) of its last cycles in a VIC window: which of them are writes
#: (``_through``'s *writes*; a table: ``_service`` looks it up at every bad line)
WINDOW_WRITES = _window_writes_table()
BRANCH_FLAGS = (0x80, 0x40, 0x01, 0x02)  # the flag a branch opcode tests, by its bits 7-6 (BPL/BMI N ... BNE/BEQ Z)
BRK_NMI_LAST = 3  # the last cycle of BRK (from its first, 0) in which an NMI still takes it over


def _masking(instruction, machine):
    """SEI, CLI, PLP, RTI: the CPU looks at the IRQ line in the next-to-last cycle of an
    instruction, before SEI, CLI or PLP have changed the I flag (an IRQ arriving during
    SEI is still taken, after CLI or PLP one instruction later), after RTI has restored it
    (Lorenz's test suite, programs IRQ/NMI; 64doc).  Unmasked with an interrupt active,
    the machine looks at the lines soon; with none, the limit stands: it is no later than
    the first event that may make one active (``_service``)."""
    restores_first = instruction.__name__ == "inst_0x40"
    cia1, vic = machine.cia1, machine.vic

    def run(cpu):
        old = cpu.p & 0x04
        end = cpu.cycles + CYCLES[cpu.memory[(cpu.pc - 1) & 0xFFFF]]
        instruction(cpu)
        if not restores_first:
            machine._poll_i = (end, old)
        if old and not cpu.p & 0x04 and cpu.limit > end and (cia1.ir or vic.irq):
            cpu.limit = end if restores_first else end + 1

    return run


class C64:
    """A PAL C64 of *model* (``c64models.MODELS``: its chips and their constants).
    ``run(cycles)`` runs until a stop condition; ``type_text`` queues keys;
    ``transcript`` holds what went through CHROUT to the screen."""

    def __init__(self, roms: RomImages, disk: Disk | None = None, keyboard_mode: str = "buffer",
                 model: Model = DEFAULT):
        if keyboard_mode not in ("buffer", "matrix"):
            raise ValueError(f"keyboard mode {keyboard_mode!r}: buffer or matrix")
        self.model = model
        self.roms = roms
        self.keyboard_mode = keyboard_mode
        self.kernal = list(roms.kernal)
        self.basic = list(roms.basic)
        self.chargen = list(roms.chargen)
        # VICE's power-on RAM pattern: 64 bytes $00, 64 bytes $FF, ...
        self.memory: list[int] = ([0x00] * 64 + [0xFF] * 64) * 512
        self.color = [0] * 1024
        self.vic = VIC(model.vic)
        self.vic.memory = self._vic_fetch
        self.vic.colour_ram = self.color
        self.vic.bus_byte = self._next_opcode
        self.cia1 = CIA("CIA 1", port_a_in=self._cia1_port_a, port_b_in=self._cia1_port_b, new_model=model.new_cia)
        self.cia2 = CIA("CIA 2", new_model=model.new_cia)
        self.sid = [0] * 0x20
        self._noise = 0x7FFFF8  # SID voice 3 noise LFSR (23 bits)
        self.drive = Drive(disk)
        self.typist = keyboard.Typist()
        self.buffer_keys: deque[int] = deque()
        self.transcript = bytearray()
        self.on_output: Callable[[int], None] | None = None
        self.counters = Counters()
        self.nmi_seen = 0  # the CIA 2 interrupt edges the CPU has answered (NMI is edge-triggered)
        self._poll_i: tuple[int, int] = (-1, 0)  # (end of an instruction, the I flag its poll saw)
        self._no_poll_at = -1  # the end of an interrupt sequence (BRK): no interrupt is taken there
        self._last_pc = 0  # the address of the instruction after which the run loop looked at the chips
        self._io_written = (-1, 0)  # the cycle and address of the last I/O write
        self._limit_set = -1  # the limit _service set, and the earliest event but the VIC's bus window
        self._limit_rest = -1
        self._restore_at: int | None = None  # the cycle the RESTORE key was pressed in
        self.stop_cycle = 0
        self.until_text: str | None = None
        self.until_pc: int | None = None
        self.idle_stop = True
        self._stop: Stop | None = None
        self._idle_frames = 0
        self._empty_polls = 0  # GETIN calls with nothing to get in this frame
        self._poll_frames = 0
        self.stop_when_polling = True
        self.next_frame = CYCLES_PER_FRAME
        self.cpu = C64CPU(self.memory, self._io_read, self._io_write, model)  # (writes: the map's, below)
        self.cpu.read_waits = self._read_waits
        for chip in (self.vic, self.cia1, self.cia2):
            chip.on_change = self._pull_limit
        self.traps: dict[int, Callable[[], None]] = {}
        # a trap opcode in a ROM with no handler: called with its address (it raises StopRun);
        # None: the CPU jams there
        self.untrapped: Callable[[int], None] | None = None
        self.traps_run = 0
        self.instructions = 0
        if not roms.stub:  # (the project's stub ROMs have their traps from their owner)
            self._install_traps()
        mm = self.mm = MemoryMap(self.memory, self.basic, self.chargen, self.kernal, self.cpu, self._io_write)
        # the RAM the VIC reads: the CPU's stores there are kept with their cycle
        self.vicmem = VicMemory(self._vic_fetch, mm.ram, self.color)
        self.vicmem.store = self._keep_store
        self.vic.timed = self.vicmem
        self._table = self._build_table()
        self.cpu.write_high = mm.write
        self.cpu.write_port = mm.write_port
        mm.write_port(1, mm.data)
        self.reset()

    # --- ROM traps -------------------------------------------------------------
    def _kernal_word(self, addr: int) -> int:
        return self.kernal[addr - 0xE000] | self.kernal[addr - 0xE000 + 1] << 8

    def _patch(self, addr: int, handler: Callable[[], None]) -> None:
        self.kernal[addr - 0xE000] = TRAP_OPCODE
        self.traps[addr] = handler

    def _install_traps(self) -> None:
        """Serial-bus routines (the targets of the jump table's JMPs) and CHROUT."""
        handlers = {
            "LISTEN": lambda: self._bus(self.drive.listen(self.cpu.a)),
            "TALK": lambda: self._bus(self.drive.talk(self.cpu.a)),
            "SECOND": lambda: self._bus(self.drive.second(self.cpu.a)),
            "TKSA": lambda: self._bus(self.drive.tksa(self.cpu.a)),
            "CIOUT": lambda: self._bus(self.drive.ciout(self.cpu.a)),
            "UNLSN": lambda: self._bus(self.drive.unlisten()),
            "UNTLK": lambda: self._bus(self.drive.untalk()),
            "ACPTR": self._acptr,
        }
        for entry, name in SERIAL_ENTRIES.items():
            if self.kernal[entry - 0xE000] != 0x4C:  # JMP abs
                raise ValueError(f"KERNAL ${entry:04X} ({name}) is not a JMP: not a C64 KERNAL")
            self._patch(self._kernal_word(entry + 1), handlers[name])
        for entry, name, hook in ((CHROUT_ENTRY, "CHROUT", self._chrout), (GETIN_ENTRY, "GETIN", self._getin)):
            original = self.kernal[entry - 0xE000 : entry - 0xE000 + 3]
            if original[0] not in (0x4C, 0x6C):
                raise ValueError(f"KERNAL ${entry:04X} ({name}) is not a JMP: not a C64 KERNAL")
            self._patch(entry, self._passthrough(original, hook))

    def _bus(self, status: int) -> None:
        cpu = self.cpu
        if status:
            self.memory[ST] |= status
        cpu.p &= ~MPU.CARRY
        cpu.pc = (cpu.stPopWord() + 1) & 0xFFFF  # the routine's RTS

    def _acptr(self) -> None:
        byte, status = self.drive.acptr()
        self.cpu.a = byte
        self._bus(status)

    def _passthrough(self, original: list[int], hook: Callable[[], None]) -> Callable[[], None]:
        """A jump-table entry that calls *hook*, then does its own JMP / JMP (vector)."""

        def trap() -> None:
            hook()
            target = original[1] | original[2] << 8
            if original[0] == 0x6C:
                target = self.memory[target] | self.memory[(target + 1) & 0xFFFF] << 8
            self.cpu.pc = target

        return trap

    def _chrout(self) -> None:
        a = self.cpu.a
        if self.memory[DFLTO] == 3:
            self.transcript.append(a)
            if self.on_output is not None:
                self.on_output(a)

    def _getin(self) -> None:
        # GETIN reads the keyboard only while the input device is the keyboard: GET# from a
        # file (CHKIN to device 8) never waits for a key
        if self.memory[DFLTN] == 0 and self.memory[NDX] == 0 and not self.keys_pending:
            self._empty_polls += 1

    def _build_table(self) -> list:
        table = instruction_table(self.mm.zero_page_store, self.vicmem)
        machine = self

        def trap(cpu):
            addr = (cpu.pc - 1) & 0xFFFF
            handler = machine.traps.get(addr)
            if handler is None or machine.memory[addr] != TRAP_OPCODE or not machine.mm.in_rom(addr):
                cpu.pc = addr
                if machine.untrapped is not None and machine.mm.in_rom(addr):
                    machine.untrapped(addr)
                raise _Halt(f"the CPU jammed: opcode $02 at ${addr:04X}")
            handler()
            machine.traps_run += 1  # (a trap that stops the run is not counted by the run loop either)

        table[TRAP_OPCODE] = trap
        for op in (0x78, 0x58, 0x28, 0x40):  # SEI, CLI, PLP, RTI
            table[op] = _masking(table[op], self)
        table[0x00] = self._brk(table[0x00])
        return table

    def _brk(self, instruction):
        """BRK as the 6502 runs it (Lorenz, Test_Suite_2_15.txt, NMI; 64doc): an NMI
        arriving before the vector is fetched turns it into the NMI (the B flag stays set
        on the stack); after it, as after any interrupt, the first instruction of the
        handler runs before the CPU looks at its interrupt inputs again."""
        machine = self

        def brk(cpu):
            start = cpu.cycles
            instruction(cpu)
            vector = 0xFFFE
            cia2 = machine.cia2
            cia2.advance(start + BRK_NMI_LAST + 1)
            if cia2.edges != machine.nmi_seen and cia2.edge_at <= start + BRK_NMI_LAST:
                machine.nmi_seen = cia2.edges
                vector = 0xFFFA
            cpu.pc = machine.mm.view(vector) | machine.mm.view(vector + 1) << 8  # (py65's BRK read the list)
            machine._no_poll_at = start + CYCLES[0x00]
            cpu.limit = min(cpu.limit, start + CYCLES[0x00])

        return brk

    # --- memory ---------------------------------------------------------------------
    def settle(self) -> None:
        """Make the memory list hold every byte in view."""
        self.mm.settle()

    def _fetch_high(self, pc: int) -> None:
        """An instruction in a page the map flags: its bytes in an area the memory list does
        not hold are copied in first, bytes in the I/O registers are fetched from them."""
        self.mm.fetched(pc)
        if IO_FETCH < pc < IO_END:
            self._fetch_io(pc)

    def store(self, addr: int, value: int) -> None:
        """Write *value* to *addr* as the CPU does (RAM, the RAM below a ROM, or an I/O register)."""
        if 1 < addr < 0xA000:
            self.memory[addr] = value
        else:
            self.mm.write(addr, value)

    @property
    def map(self) -> dict[str, str]:
        """What each banked area shows: "ram", "rom" or "io"."""
        return {name: kind for (name, _s, _e), kind in zip(BANKS, self.mm.kinds)}

    @property
    def under(self) -> dict[str, list[int]]:
        """The RAM of each banked area (a copy)."""
        return self.mm.areas()

    def ram(self, addr: int) -> int:
        """The RAM byte at *addr* whatever is banked in (what the VIC sees)."""
        return self.mm.ram(addr)

    def _keep_store(self, addr: int, value: int) -> None:
        """A CPU store to the RAM the VIC reads its instruction hands on (``vicmem``: the RAM
        under the ROMs and I/O, the sprite pointers, a store the VIC's window may have moved):
        a byte it changes is kept with the store's cycle."""
        ram = self.mm.ram
        old = ram(addr)
        self.mm.write(addr, value)
        if ram(addr) != old:  # (I/O in view: the RAM keeps its byte)
            self.vicmem.wrote(self._bus_cycle(True, addr), addr, old, self.vic.regs)

    def _vic_fetch(self, addr: int) -> int:
        """A byte as the VIC reads it: the character ROM at $1000-$1FFF of banks 0 and 2
        (C64 Programmer's Reference Guide, "Memory management")."""
        if addr & 0x7000 == 0x1000:
            return self.chargen[addr & 0x0FFF]
        return self.mm.ram(addr)

    def poke_ram(self, addr: int, data: bytes) -> None:
        self.mm.poke(addr, data)

    # --- I/O ---------------------------------------------------------------------------
    def _bus_cycle(self, write: bool = False, addr: int = -1) -> int:
        """The cycle of the I/O access the CPU makes now: C64CPU keeps ``cycles`` at the
        instruction's first cycle while it runs and sets ``access_cycle`` before each I/O
        access (a read or write in the last cycle, a read-modify-write reading three cycles
        from the end and writing the old value, then the new one, in the last two: 64doc).
        From the VIC's next window on, the instruction's reads wait (``_through``): its
        cycles there are reads but for this write and a write just before it to the same
        register (a read-modify-write's first)."""
        cpu = self.cpu
        c = cpu.cycles + cpu.access_cycle
        first = self.vic.ba_from
        if write:
            before = self._io_written == (c - 1, addr)
            self._io_written = (c, addr)
            if c < first:
                return c
            count = c - first + 1
            writes = 1 << (count - 1)
            if before and count > 1:
                writes |= 1 << (count - 2)
            return self._through(count, writes, False)[0] - 1
        if c < first:
            return c
        return self._through(c - first + 1, 0, False)[0] - 1

    def _through(self, count: int, writes: int, plan: bool) -> tuple[int, int, int]:
        """*count* cycles of the CPU from the VIC's next window's first cycle on (bit i of
        *writes*: cycle i is a write): a read in a window waits until the window is over,
        writes go on (Bauer 3.6.1; at most three in a row: 64doc).  Returns (the cycle after
        the last, the index of the first read that waited or -1, the cycles it waited).
        *plan*: the CPU has run them (the VIC plans its windows from there)."""
        return self._through_cycles(count, writes, plan)[:3]

    def _through_cycles(self, count: int, writes: int, plan: bool) -> tuple[int, int, int, int]:
        """``_through``'s three values and the cycle the next-to-last of the *count* cycles
        ran in (-1 for one cycle)."""
        vic = self.vic
        first, last = vic.ba_from, vic.ba_to
        t = first
        waited, stolen = -1, 0
        ran = -1
        for i in range(count):
            if t + count - i <= first:  # the rest run before the next window (the common end)
                if i <= count - 2:
                    ran = t + count - 2 - i
                t += count - i
                break
            if t > last:
                first, last = vic.pass_bus(t) if plan else vic.window_after(t)
            if t >= first and not writes >> i & 1:
                if waited < 0:
                    waited, stolen = i, last + 1 - t
                t = last + 1
                first, last = vic.pass_bus(t) if plan else vic.window_after(t)
            if i == count - 2:
                ran = t
            t += 1
        if plan and t > vic.ba_to:
            vic.pass_bus(t)
        return t, waited, stolen, ran

    def _read_waits(self, offset: int) -> bool:
        """Whether the read in cycle ``cycles + offset`` of the instruction running waits for
        the VIC (its cycles before it all reads)."""
        cpu = self.cpu
        c = cpu.cycles + offset
        first = self.vic.ba_from
        if c < first:
            return False
        count = c - first + 1
        return self._through(count, 0, False)[1] == count - 1 if count > 1 else True

    def _io_read(self, addr: int) -> int:
        """A read of an I/O register (I/O banked in) by the CPU."""
        c = self._bus_cycle()
        page = addr >> 8
        if page < 0xD4:
            value = self.vic.read(addr, c)
        elif page < 0xD8:
            value = self._sid_read(addr & 0x1F)
        elif page < 0xDC:
            value = self.color[addr & 0x3FF]
        elif page == 0xDC:
            value = self.cia1.read(addr & 0x0F, c)
        elif page == 0xDD:
            value = self.cia2.read(addr & 0x0F, c)
        else:
            value = self.vic.phi1_byte(c)  # I/O 1 and 2: no cartridge, the VIC's last fetch on the bus
        return value

    def _next_opcode(self) -> int:
        """During an I/O write: the RAM byte at the instruction after the one making it (the
        CPU's PC is one past the opcode while an instruction runs)."""
        pc = (self.cpu.pc - 1) & 0xFFFF
        return self.memory[(pc + SIZES[self.memory[pc]]) & 0xFFFF]

    def _io_write(self, addr: int, value: int) -> None:
        c = self._bus_cycle(True, addr)
        page = addr >> 8
        if page < 0xD4:
            self.vic.write(addr, value, c)
            if addr & 0x3F in VIC_MEMORY_REGS:
                self.vicmem.look(self.vic.regs)
        elif page < 0xD8:
            self.sid[addr & 0x1F] = value
            if addr == DEBUG_CART and self._stop is None:
                self._stop = Stop("exit", f"the program wrote ${value:02X} to ${DEBUG_CART:04X} (debug cartridge)",
                                  c, value)
                self.cpu.limit = c
        elif page < 0xDC:
            index, nibble = addr & 0x3FF, value & 0x0F
            old = self.color[index]
            if old != nibble:
                self.color[index] = nibble
                self.vicmem.wrote_colour(c, index, old)
        elif page == 0xDC:
            self.cia1.write(addr & 0x0F, value, c)
            if addr & 0x0D == 1:  # port B or its direction: bit 4 is the VIC's light pen line
                regs = self.cia1.regs
                self.vic.light_pen(bool(regs[3] & 0x10 and not regs[1] & 0x10), c)
        elif page == 0xDD:
            self.cia2.write(addr & 0x0F, value, c)
            if addr & 0x0D == 0:  # port A or its direction: the VIC's bank
                regs = self.cia2.regs
                self.vic.note_bank((regs[0] | ~regs[2]) & 3, c)
                self.vicmem.look(self.vic.regs)

    def _sid_read(self, reg: int) -> int:
        if reg in (0x19, 0x1A):  # paddles: none connected
            return 0xFF
        if reg == 0x1B:  # oscillator 3: the noise generator's LFSR (bits 22..0), taps 22 and 17
            n = self._noise
            for _ in range(8):
                n = ((n << 1) | (((n >> 22) ^ (n >> 17)) & 1)) & 0x7FFFFF
            self._noise = n
            return (n >> 15) & 0xFF
        return 0

    def _pressed(self) -> frozenset[int]:
        return self.typist.pressed

    def _cia1_port_a(self, out_a: int, out_b: int) -> int:
        pressed = self._pressed()
        return out_a & keyboard.columns_for(pressed, out_b) if pressed else out_a

    def _cia1_port_b(self, out_a: int, out_b: int) -> int:
        pressed = self._pressed()
        return out_b & keyboard.rows_for(pressed, out_a) if pressed else out_b

    def _pull_limit(self) -> None:
        self.cpu.limit = self.cpu.cycles  # look at the chips after this instruction

    # --- reset and running --------------------------------------------------------------
    def reset(self) -> None:
        cpu = self.cpu
        self.settle()
        cpu.sp = 0xFD
        cpu.p = MPU.UNUSED | MPU.INTERRUPT | MPU.BREAK
        cpu.pc = self.memory[0xFFFC] | self.memory[0xFFFD] << 8

    def type_text(self, petscii: bytes, mode: str | None = None) -> None:
        """Queue keys: through the KERNAL's keyboard buffer (``buffer``, as VICE's
        -keybuf does) or pressed on the keyboard matrix (``matrix``)."""
        if (mode or self.keyboard_mode) == "matrix":
            self.typist.type(petscii)
        else:
            self.buffer_keys.extend(petscii)

    def press_restore(self) -> None:
        """The RESTORE key: an NMI (the KERNAL's handler tests for RUN/STOP + RESTORE)."""
        self._restore_at = self.cpu.cycles
        self.cpu.limit = self.cpu.cycles

    @property
    def keys_pending(self) -> bool:
        return bool(self.buffer_keys) or self.typist.busy

    def _frame(self) -> None:
        self.counters.frames += 1
        self.vicmem.new_frame(self.vic.regs, self.next_frame - CYCLES_PER_FRAME)
        mem = self.memory
        if self.buffer_keys and mem[NDX] == 0 and 0 < mem[XMAX] <= 10:
            n = min(len(self.buffer_keys), mem[XMAX])
            for i in range(n):
                mem[KEYD + i] = self.buffer_keys.popleft()
            mem[NDX] = n
        self.typist.frame()
        if self.until_text is not None and any(self.until_text in line for line in screen_lines(self)):
            self._stop = Stop("text", f"the screen shows {self.until_text!r}", self.cpu.cycles)
            return
        if self.idle_stop:
            if not self.waiting_for_key():
                self._idle_frames = 0
            elif self.cpu.pc in KEY_WAIT_LOOP:  # (the frame may end inside the interrupt handler)
                self._idle_frames += 1
                if self._idle_frames >= 3:
                    self._stop = Stop("idle", "the KERNAL waits for a key and nothing is left to type",
                                      self.cpu.cycles)
            if self.stop_when_polling and self._empty_polls and not self.keys_pending:
                self._poll_frames += 1
                if self._poll_frames >= POLL_FRAMES:
                    self._stop = Stop("idle", "the program polls the keyboard (GETIN) and nothing is left "
                                      "to type", self.cpu.cycles)
            else:
                self._poll_frames = 0
        self._empty_polls = 0

    def waiting_for_key(self) -> bool:
        mem = self.memory
        return (not self.keys_pending and mem[NDX] == 0 and mem[BLNSW] == 0
                and mem[XMAX] != 0 and self.mm.kinds[2] == ROM)

    def _service(self) -> None:
        cpu = self.cpu
        c = cpu.cycles
        cia1, cia2, vic = self.cia1, self.cia2, self.vic
        ended = c  # the last instruction's end as if the bus had been free
        stolen = 0  # the cycles the VIC held one of its reads for
        waited = -1  # that read's distance from its last cycle (0: the last cycle), -1: none
        resume = -1  # the cycle the next read may happen (the VIC holds the bus at the instruction's end)
        before_last = c - 2  # the cycle the instruction's next-to-last cycle ran in
        if c >= vic.ba_from:  # the last instruction ran into cycles the VIC takes
            count = min(c - vic.ba_from, 9)  # its cycles from the window's first on
            writes = WINDOW_WRITES[self.memory[self._last_pc]][count]
            c, first_wait, stolen, ran = self._through_cycles(count, writes, True)
            cpu.cycles = c
            if first_wait >= 0:
                waited = count - 1 - first_wait
            if count > 1:
                before_last = ran
            if c >= vic.ba_from:
                # the next read waits (the next opcode fetch, or an interrupt sequence's first
                # cycle), after the CPU has looked at its interrupt inputs at the end of this
                # instruction
                resume = vic.ba_to + 1
                vic.pass_bus(resume)
            if (cpu.limit == self._limit_set and max(c, resume) < self._limit_rest and cia2.edges == self.nmi_seen
                    and (cpu.p & MPU.INTERRUPT or not (cia1.ir or vic.irq)) and self._poll_i[0] != ended):
                # only the VIC's window was due (nothing lowered the limit since it was set, no
                # other event has come, no interrupt waits, the instruction did not change the I
                # flag, which the CPU looked at before): run on (25 bad lines a frame)
                if resume >= 0:
                    cpu.cycles = resume
                cpu.limit = self._limit_set = min(self._limit_rest, vic.ba_from)
                return
        cia1.advance(c)
        cia2.advance(c)
        vic.update(c)
        while c >= self.next_frame:
            self.next_frame += CYCLES_PER_FRAME
            self._frame()
        if c >= self.stop_cycle and self._stop is None:
            self._stop = Stop("cycles", f"{self.stop_cycle:,} cycles reached", c)
        # The CPU looks at its interrupt inputs in the next-to-last cycle of an instruction:
        # an interrupt active two cycles before the instruction ends is taken after it,
        # a later one after the next instruction (Lorenz, Test_Suite_2_15.txt, IRQ and NMI).
        # Cycles the VIC holds the CPU for do not count: the CPU counts the cycles it runs
        # with the line active, and one for an interrupt that arrived while it waited (x64sc,
        # whose interrupt delays match VICE testprogs interrupts/irqdma, measured on a C64):
        # the interrupt is taken when that count reaches 2 by the instruction's end.  So
        # the last cycle the line may become active in is the one before the instruction's
        # last cycle: the last cycle of a wait just before that cycle counts as its own.
        # A taken branch within its page (3 cycles) needs a count of 3 (Lorenz,
        # Test_Suite_2_15.txt, IRQ; VICE testprogs/interrupts/branchquirk): the cycle
        # before its next-to-last one -- with two waits in the branch, an interrupt that
        # arrives between them or in the second counts 2 (irqdma test5, sprites 0 and 3).
        last = self._last_pc
        op = self.memory[last]
        poll = nmi_poll = c - 2
        if (op & 0x1F == 0x10 and bool(cpu.p & BRANCH_FLAGS[op >> 6]) == bool(op & 0x20)
                and (cpu.pc ^ last + 2) < 0x100):
            poll = nmi_poll = before_last - 1
        elif op == 0x78 and waited == 0:
            # SEI: an interrupt that arrives during its wait is not counted (x64sc; an NMI is)
            poll = before_last
        i_flag = self._poll_i[1] if self._poll_i[0] == ended else cpu.p & MPU.INTERRUPT
        if op == 0x58 and waited == 0:
            # CLI whose second cycle waited: the CPU sees the I flag clear at once (x64sc)
            i_flag = cpu.p & MPU.INTERRUPT
        if self._restore_at is not None:
            # RESTORE pulls the NMI line through a monostable (the 556 at U20, C64 schematic):
            # an edge only when CIA 2 does not already hold the line low
            if not cia2.low_at(self._restore_at):
                cia2.edges += 1
                cia2.edge_at = self._restore_at
            self._restore_at = None
        nmi_waits = cia2.edges != self.nmi_seen
        if c == self._no_poll_at:
            pass
        elif nmi_waits and cia2.edge_at <= nmi_poll or cia2.edges - self.nmi_seen > 1:
            self.nmi_seen = cia2.edges
            nmi_waits = False
            if resume >= 0:
                cpu.cycles = resume
            self._interrupt(0xFFFA)
        elif not i_flag and (cia1.low_at(poll) or vic.low_at(poll)):
            if resume >= 0:
                c = cpu.cycles = resume
            # an NMI arriving before the IRQ sequence fetches its vector takes it over, as with BRK
            cia2.advance(c + BRK_NMI_LAST + 1)
            if cia2.edges != self.nmi_seen and cia2.edge_at <= c + BRK_NMI_LAST:
                self.nmi_seen = cia2.edges
                nmi_waits = False
                self._interrupt(0xFFFA)
            else:
                self._interrupt(0xFFFE)
        if resume > cpu.cycles:
            cpu.cycles = resume
        c = cpu.cycles
        nmi_waits = cia2.edges != self.nmi_seen  # (an edge may have come during an interrupt sequence)
        # A raster compare whose interrupt is masked is no event: nothing sees its latch bit
        # before a read of $D019 or a write of $D019, $D01A, $D011 or $D012, which each bring
        # the VIC up to date first (vic.update: the bit set with the compare's cycle).
        compare = vic.next_compare if vic.enable & 0x01 else NEVER
        limit = min(cia1.next_event() + 2, cia2.next_event() + 2, compare, vic.line_event,
                    self.next_frame, self.stop_cycle)
        if nmi_waits:
            limit = min(limit, max(cia2.edge_at + 2, c + 1))
        if not cpu.p & MPU.INTERRUPT:
            if cia1.ir:
                limit = min(limit, max(cia1.irq_at + 2, c + 1))
            if vic.irq:
                limit = min(limit, max(vic.since + 2, c + 1))
        self._limit_rest = limit  # every event but the VIC's next bus window
        cpu.limit = self._limit_set = min(limit, vic.ba_from)
        # (an interrupt waiting behind the I flag: CLI/PLP/RTI pull the limit in)

    def _interrupt(self, vector: int) -> None:
        cpu = self.cpu
        cpu.stPushWord(cpu.pc)
        cpu.stPush((cpu.p & ~MPU.BREAK) | MPU.UNUSED)
        cpu.p |= MPU.INTERRUPT
        cpu.pc = self.mm.view(vector) | self.mm.view(vector + 1) << 8
        start = cpu.cycles
        cpu.cycles = start + 7
        vic = self.vic
        if cpu.cycles > vic.ba_from:  # (it begins before the window: BA fell in its cycles)
            skip = max(vic.ba_from - start, 0)
            cpu.cycles = self._through(7 - skip, INTERRUPT_WRITES >> skip, True)[0]
        if cpu.cycles >= vic.ba_from:  # the handler's first opcode fetch waits
            cpu.cycles = vic.ba_to + 1
            vic.pass_bus(cpu.cycles)
        self._no_poll_at = cpu.cycles
        self.counters.interrupts += 1

    def run(self, max_cycles: int, until_text: str | None = None, until_pc: int | None = None,
            stop_when_idle: bool = True, stop_when_polling: bool = True,
            max_instructions: int | None = None) -> Stop:
        """Run at most *max_cycles* cycles (and *max_instructions* instructions); stop
        earlier when the screen shows *until_text*, the PC reaches *until_pc*, or
        (``stop_when_idle``) the KERNAL waits for a key with nothing left to type -- in the
        screen editor, or (``stop_when_polling`` too) a program calling GETIN for 1/5 s in
        vain -- or a trap stops the run (``StopRun``).  ``instructions`` counts the
        instructions run, the traps that stand in for ROM routines not included."""
        cpu = self.cpu
        mem = self.memory
        table = self._table
        cyc = CYCLES
        mm = self.mm
        fetch = mm.fetch_flags
        self.stop_cycle = cpu.cycles + max_cycles
        self.until_text = until_text
        self.idle_stop = stop_when_idle
        self.stop_when_polling = stop_when_polling
        self._idle_frames = 0
        self._poll_frames = 0
        self._stop = None
        watch = -1 if until_pc is None else until_pc
        if until_pc is not None:
            mm.watch(until_pc >> 8)
        budget = (1 << 62) if max_instructions is None else max_instructions
        done = 0  # instructions (traps included) in this run
        traps = self.traps_run
        i = 0
        try:
            self._service()
            while self._stop is None:
                left = budget - done
                try:
                    # Every instruction tests its page's flag, one list index, whatever the
                    # page: code that switches banks (which flags the areas it switches) runs
                    # its instructions elsewhere at the cost of code that never switches.
                    for i in range(left):  # (the loop's counter counts the instructions)
                        pc = cpu.pc
                        if fetch[pc]:  # (the page of --until-pc is flagged too)
                            if pc == watch:
                                self._stop = Stop("pc", f"the PC reached ${watch:04X}", cpu.cycles)
                                i -= 1
                                break
                            self._fetch_high(pc)
                        op = mem[pc]
                        cpu.pc = pc + 1
                        table[op](cpu)
                        cpu.cycles = c = cpu.cycles + cyc[op]
                        if c >= cpu.limit:
                            self._last_pc = pc
                            break
                    else:
                        done += left
                        self._stop = Stop("instructions", f"instruction budget of {budget:,} used up", cpu.cycles)
                        break
                    done += i + 1
                except IndexError:  # an instruction's bytes run past $FFFF (see _wrapped)
                    done += i
                    self._wrapped(pc)
                    done += 1
                    if cpu.cycles < cpu.limit:
                        continue
                    self._last_pc = pc
                except StopRun as stop:  # (the instruction that raised it did not complete)
                    done += i
                    self._stop = Stop(stop.reason, stop.message, cpu.cycles)
                    break
                if self._stop is None:
                    self._service()
        except (_Halt, Jammed) as halt:
            done += i
            self._stop = Stop("halt", halt.message, cpu.cycles)
        self.instructions += done - (self.traps_run - traps)
        if until_pc is not None:
            mm.watch(-1)
        self.settle()  # (between runs the memory list is the CPU's view)
        return self._stop

    def _fetch_io(self, pc: int) -> None:
        """The instruction at *pc* has bytes in $D000-$DFFF: with I/O banked in, they are
        fetched from the registers there (the VIC-II's sprite positions hold code as well
        as RAM does) into the memory list, which holds nothing else there while I/O shows
        (``_fetch_high`` has refreshed the area)."""
        if self.mm.kinds[1] != IO:
            return
        cpu = self.cpu
        size = 3
        for i in range(3):
            addr = pc + i
            if IO_LOW < addr < IO_END:
                cpu.access_cycle = i
                self.memory[addr] = self._io_read(addr)
            if i == 0:
                size = SIZES[self.memory[pc]]
            if i + 1 >= size:
                return

    def _wrapped(self, pc: int) -> None:
        """Run the instruction at *pc* whose bytes run past $FFFF: the address wraps to
        $0000.  The memory list is lengthened by copies of $0000 and $0001 for it (an
        instruction reads all its operand bytes before it changes anything, so the
        attempt that raised IndexError changed nothing)."""
        cpu = self.cpu
        mem = self.memory
        if pc > 0xFFFF:  # the opcode fetch itself was past $FFFF
            cpu.pc = pc & 0xFFFF
            return
        if pc + SIZES[mem[pc]] <= 0x10000:
            raise IndexError(f"instruction at ${pc:04X} read past the memory list")
        mem.extend(mem[0:2])
        try:
            op = mem[pc]
            cpu.pc = pc + 1
            self._table[op](cpu)
        finally:
            del mem[0x10000:]
        cpu.pc &= 0xFFFF
        cpu.cycles += CYCLES[op]

    # --- snapshots -----------------------------------------------------------------------
    def save_state(self) -> dict:
        """Everything that changes while the machine runs (to restart from it: ``load_state``)."""
        cpu = self.cpu
        self.settle()
        chips = {name: {k: copy.deepcopy(v) for k, v in vars(chip).items()
                        if not callable(v) and k not in getattr(chip, "TRANSIENT", ())}
                 for name, chip in (("vic", self.vic), ("cia1", self.cia1), ("cia2", self.cia2))}
        return {
            "memory": list(self.memory), "under": self.under, "color": list(self.color),
            "cpu": (cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp, cpu.pc, cpu.cycles),
            "port": (self.mm.ddr, self.mm.data, self.mm.kept), "map": dict(self.map), "chips": chips,
            "sid": list(self.sid), "noise": self._noise, "nmi": self.nmi_seen, "next_frame": self.next_frame,
            "transcript": bytes(self.transcript), "drive": copy.deepcopy(vars(self.drive)),
        }

    def load_state(self, state: dict) -> None:
        cpu = self.cpu
        self.memory[:] = state["memory"]
        self.color[:] = state["color"]
        cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp, cpu.pc, cpu.cycles = state["cpu"]
        cpu.limit = cpu.cycles
        self.mm.restore(state["under"], *state["port"])
        for name, chip in (("vic", self.vic), ("cia1", self.cia1), ("cia2", self.cia2)):
            for k, v in state["chips"][name].items():
                setattr(chip, k, copy.deepcopy(v))
        self.vic.cursor = None  # (the collision walk starts again from the frame's log)
        self.vicmem.clear()
        self.vicmem.look(self.vic.regs)
        self.sid[:] = state["sid"]
        self._noise = state["noise"]
        self.nmi_seen = state["nmi"]
        self.next_frame = state["next_frame"]
        self.transcript[:] = state["transcript"]
        for k, v in copy.deepcopy(state["drive"]).items():
            setattr(self.drive, k, v)
        self.buffer_keys.clear()
        self.typist = keyboard.Typist()

    # --- loading programs ------------------------------------------------------------------
    def inject_prg(self, prg: bytes) -> tuple[int, int]:
        """Put a .prg into RAM as LOAD"...",8,1 would; a BASIC program at the
        start of BASIC also gets its end pointer (VARTAB), as LOAD sets it."""
        start = prg[0] | prg[1] << 8
        body = prg[2:]
        end = start + len(body)
        if end > 0x10000:
            raise DiagnosticError([error(f"load address ${start:04X} + {len(body)} bytes runs past $FFFF")])
        self.poke_ram(start, body)
        basic_start = self.memory[TXTTAB] | self.memory[TXTTAB + 1] << 8
        if start == basic_start:
            for ptr in (VARTAB, VARTAB + 2, VARTAB + 4):  # VARTAB, ARYTAB, STREND
                self.memory[ptr] = end & 0xFF
                self.memory[ptr + 1] = end >> 8 & 0xFF  # (a program up to $FFFF ends at $0000, as LOAD's pointer wraps)
        return start, end
