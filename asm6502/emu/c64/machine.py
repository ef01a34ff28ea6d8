"""The C64 around py65's 6510: ROMs, banking, VIC-II, CIAs, SID, colour RAM,
keyboard, device 8 -- enough for the real BASIC and KERNAL to boot and run.

Memory is one list of 65,536 ints, the CPU's view: RAM where RAM is visible,
the ROM bytes where a ROM is banked in.  The RAM of $A000-$BFFF and $D000-$FFFF
is also in ``under`` (a list per area), which every write there keeps current
(all writes above $9FFF go through ``_write_high``).

A bank switch (a write to the 6510 port $01) copies nothing: the areas whose
contents change are marked stale, and the CPU's reads there go through
``io_read`` (``cpu.read_low``/``read_high`` span them), which puts the byte of
the ROM or RAM now in view into the list before the CPU reads it.  A stale
area is copied in whole (8 KB or 4 KB, ~10 us) only when code runs there, an
interrupt or an indirect jump reads a vector, a run ends (between runs the list
is the CPU's view), or after ``STALE_READS`` reads:
code that switches $01 every few cycles costs a port write and a call per
read of the area, not a copy per switch.  I/O registers are read through
``io_read`` too; an instruction with bytes in $D000-$DFFF or in a stale area
is fetched through ``_fetch_high`` (the run loop tests a flag per page), and
one whose bytes run past $FFFF wraps to $0000 (``_wrapped``).

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
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.c64 import keyboard
from asm6502.emu.c64.cia import CIA
from asm6502.emu.c64.cpu import C64CPU, CYCLES, INTERRUPT_WRITES, IO_END, IO_LOW, SIZES, TAIL_WRITES, Jammed, instruction_table
from asm6502.emu.c64.drive import Disk, Drive
from asm6502.emu.c64.screen import screen_lines
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC

PAL_HZ = 985_248
IO_FETCH = 0xCFFD  # an instruction at $CFFE or above may have bytes in the I/O area
TRAP_OPCODE = 0x02  # a JAM opcode on the 6510: never in working code; VICE traps with it too
# VICE's debug cartridge (x64sc -debugcart): a write to $D7FF ends the emulator with the
# value written as its exit code -- the VICE test programs report 0 (pass) or $FF (fail)
# through it.  On a C64 without the cartridge $D7FF is a mirror of SID register $1F, which
# does not exist, so a program that is not a test has no reason to write it.
DEBUG_CART = 0xD7FF
# the CIA chips fitted: the 6526 of the first C64s (VICE x64sc's default) or the 6526A/8521
# of later boards, whose interrupt output comes one cycle earlier
CIA_MODELS = ("6526", "6526a")

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

RAM, ROM, IO = "ram", "rom", "io"
#: the banked areas in address order (an area's index is its bit in the masks below)
BANKS = (("basic", 0xA000, 0xC000), ("io", 0xD000, 0xE000), ("kernal", 0xE000, 0x10000))
IO_BIT = 1 << 1  # the io area's bit


def _config(lines: int) -> tuple[str, str, str]:
    """What the basic, io and kernal areas show for the port lines LORAM, HIRAM, CHAREN
    (bits 0-2 of $01, inputs pulled up): PRG, "Memory management"."""
    loram, hiram, charen = lines & 1, lines & 2, lines & 4
    return (ROM if loram and hiram else RAM, (IO if charen else ROM) if (loram or hiram) else RAM,
            ROM if hiram else RAM)


CONFIGS = tuple(_config(lines) for lines in range(8))
#: per 4 KB block: its area's index in BANKS (-1: not banked)
BLOCK_AREA = (-1,) * 10 + (0, 0, -1, 1, 2, 2)
KINDS = (RAM, ROM, IO)
#: every combination of what the memory list may hold in the three areas (an index: ``_held_code``)
HELD = tuple((KINDS[code % 3], KINDS[code // 3 % 3], KINDS[code // 9]) for code in range(27))
# how a write through write_high reaches its 4 KB block (``Bank.writes``)
W_PORT, W_PLAIN, W_BOTH, W_UNDER, W_IO = range(5)


def _windows(mask: int) -> tuple[int, int]:
    """The CPU's read window (read_low, read_high) spanning the areas of *mask*."""
    hooked = [start_end for i, (_n, *start_end) in enumerate(BANKS) if mask >> i & 1]
    if not hooked:
        return 0x10000, 0
    return hooked[0][0] - 1, hooked[-1][1]


WINDOWS = tuple(_windows(mask) for mask in range(8))
#: per area of BANKS: the first page flagged while it is hooked (the page before it)
FIRST_PAGE = tuple((start >> 8) - 1 for _n, start, _e in BANKS)
EDGE_PAGE = FIRST_PAGE[2]  # the I/O area's last page, the one before the KERNAL's
EDGE_AREAS = 0b110
#: per mask of areas: the address before the first page flagged for them (the run loop's fetch_low)
FETCH_LOW = tuple(min([(FIRST_PAGE[i] << 8) - 1 for i in range(3) if mask >> i & 1] or [0xFFFF]) for mask in range(8))


@dataclass(frozen=True)
class Bank:
    """The memory map for one memory configuration and one content of the memory list (see
    the module docstring): made once per machine for each of the 27 x 8 combinations, and
    put in force by reference on a switch."""

    kinds: tuple[str, str, str]  # what each area shows (CONFIGS[lines])
    held: tuple[str, str, str]  # what the memory list holds in each area (IO: nothing to read there)
    stale: int  # areas (bits) whose bytes in view the memory list does not hold
    hooked: int  # areas (bits) the CPU reads through its window: the stale ones, io while I/O shows
    low: int  # the CPU's read window (read_low, read_high) spanning the hooked areas
    high: int
    blocks: list  # per 4 KB block: the list a read in the window reads, None for the I/O registers
    writes: tuple[int, ...]  # per 4 KB block: how write_high writes there (W_...)


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


BRANCH_FLAGS = (0x80, 0x40, 0x01, 0x02)  # the flag a branch opcode tests, by its bits 7-6 (BPL/BMI N ... BNE/BEQ Z)
BRK_NMI_LAST = 3  # the last cycle of BRK (from its first, 0) in which an NMI still takes it over


def _masking(instruction, machine):
    """SEI, CLI, PLP, RTI: the CPU looks at the IRQ line in the next-to-last cycle of an
    instruction, before SEI, CLI or PLP have changed the I flag (an IRQ arriving during
    SEI is still taken, after CLI or PLP one instruction later), after RTI has restored it
    (Lorenz's test suite, programs IRQ/NMI; 64doc)."""
    restores_first = instruction.__name__ == "inst_0x40"

    def run(cpu):
        old = cpu.p & 0x04
        end = cpu.cycles + CYCLES[cpu.memory[(cpu.pc - 1) & 0xFFFF]]
        instruction(cpu)
        if not restores_first:
            machine._poll_i = (end, old)
        if old and not cpu.p & 0x04 and cpu.limit > end:  # unmasked: look at the lines soon
            cpu.limit = end if restores_first else end + 1

    return run


class C64:
    """A PAL C64.  ``run(cycles)`` runs until a stop condition; ``type_text``
    queues keys; ``transcript`` holds what went through CHROUT to the screen."""

    def __init__(self, roms: RomImages, disk: Disk | None = None, keyboard_mode: str = "buffer",
                 cia_model: str = "6526"):
        if keyboard_mode not in ("buffer", "matrix"):
            raise ValueError(f"keyboard mode {keyboard_mode!r}: buffer or matrix")
        if cia_model not in CIA_MODELS:
            raise ValueError(f"CIA model {cia_model!r}: {' or '.join(CIA_MODELS)}")
        self.roms = roms
        self.keyboard_mode = keyboard_mode
        self.kernal = list(roms.kernal)
        self.basic = list(roms.basic)
        self.chargen = list(roms.chargen)
        # VICE's power-on RAM pattern: 64 bytes $00, 64 bytes $FF, ...
        self.memory: list[int] = ([0x00] * 64 + [0xFF] * 64) * 512
        # the RAM of the banked areas at their addresses (the rest of the list unused), kept
        # current by every write there (see _write_high); the ROMs at theirs: the BASIC ROM at
        # $A000, the character ROM at $D000, the KERNAL at $E000 (made after the traps are in)
        self._under: list[int] = list(self.memory)
        self._rom: list[int] = []
        self.color = [0] * 1024
        self.port_ddr = 0
        self.port_data = 0x3F
        self.port_floating = 0  # bits 3, 6, 7 of $01 as last driven (see _write_port)
        self._lines = 0  # the port lines LORAM/HIRAM/CHAREN the areas are banked for (0: all RAM)
        self._kinds = CONFIGS[0]  # per area of BANKS: what it shows (CONFIGS[self._lines])
        self._held = list(CONFIGS[0])  # per area: what the memory list holds there
        self._held_code = 0  # HELD.index(tuple(self._held))
        self._banks: list[Bank] = []
        self._bank: Bank | None = None  # the map in force (self._banks[self._held_code << 3 | self._lines])
        # per page: fetch through _fetch_high where its flag object is true (see _flag)
        self.watch_page = -1  # the page of the run's --until-pc address (flagged while it runs)
        self._area_flags: tuple[list[bool], ...] = ([], [], [])
        self._edge_flag: list[bool] = []
        self._no_flag: list[bool] = []  # (never true)
        self._watched = [True]  # the flag of the page of the run's --until-pc address
        self._fetch_pages = [self._page_flag(page) for page in range(0x100)]
        self._flagged = 0  # areas (bits) whose pages are flagged: the hooked ones, and some no longer
        self.fetch_low = 0xFFFF  # below the first flagged page (perhaps lower: see _frame)
        self._loop_low = 0xFFFF  # the fetch_low the run loop tests with
        self.vic = VIC()
        self.vic.memory = self._vic_fetch
        self.vic.colour_ram = self.color
        new_model = cia_model == "6526a"
        self.cia1 = CIA("CIA 1", port_a_in=self._cia1_port_a, port_b_in=self._cia1_port_b, new_model=new_model)
        self.cia2 = CIA("CIA 2", new_model=new_model)
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
        self.cpu = C64CPU(self.memory, self._io_read, self._write_high)
        self.cpu.write_port = self._write_port
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
        self._table = self._build_table()
        rom = [0] * 0x10000
        rom[0xA000:0xC000], rom[0xD000:0xE000], rom[0xE000:] = self.basic, self.chargen, self.kernal
        self._rom = rom
        self._banks = [self._make_bank(HELD[code], lines) for code in range(27) for lines in range(8)]
        self._use(self._banks[0])
        self._write_port(1, self.port_data)
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
        table = instruction_table()
        machine = self

        def trap(cpu):
            addr = (cpu.pc - 1) & 0xFFFF
            handler = machine.traps.get(addr)
            if handler is None or machine.memory[addr] != TRAP_OPCODE or not machine._in_rom(addr):
                cpu.pc = addr
                if machine.untrapped is not None and machine._in_rom(addr):
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
            cpu.pc = machine._view(vector) | machine._view(vector + 1) << 8  # (py65's BRK read the list)
            machine._no_poll_at = start + CYCLES[0x00]
            cpu.limit = min(cpu.limit, start + CYCLES[0x00])

        return brk

    def _in_rom(self, addr: int) -> bool:
        """*addr* is in a ROM banked in (where traps are)."""
        if addr >= 0xE000:
            return self._kinds[2] == ROM
        return 0xA000 <= addr < 0xC000 and self._kinds[0] == ROM

    # --- memory map ---------------------------------------------------------------
    def _make_bank(self, held: tuple[str, str, str], lines: int) -> Bank:
        kinds = CONFIGS[lines]
        stale = sum(1 << i for i in range(3) if kinds[i] != held[i])
        hooked = stale | (IO_BIT if kinds[1] == IO else 0)
        low, high = WINDOWS[hooked]
        blocks: list[list[int] | None] = []
        writes = []
        for block, i in enumerate(BLOCK_AREA):
            if i < 0:
                blocks.append(self.memory)
                writes.append(W_PORT if block == 0 else W_PLAIN)
            elif kinds[i] == IO:
                blocks.append(None)
                writes.append(W_IO)
            else:
                blocks.append(self.memory if not stale >> i & 1 else self._under if kinds[i] == RAM else self._rom)
                writes.append(W_BOTH if held[i] == RAM else W_UNDER)
        return Bank(kinds, held, stale, hooked, low, high, blocks, tuple(writes))

    def _use(self, bank: Bank) -> None:
        """Put *bank* in force (``_write_port`` does the same in place)."""
        self._bank = bank
        self._kinds = bank.kinds
        cpu = self.cpu
        cpu.read_low = bank.low
        cpu.read_high = bank.high
        cpu.blocks = bank.blocks
        if bank.hooked & ~self._flagged:
            self._flag(bank.hooked)

    def _flag(self, hooked: int) -> None:
        """Flag the pages of the areas of *hooked* (their fetches go through ``_fetch_high``),
        and of those only: each area's pages share one flag object (a list, true when not
        empty), so this is a few list operations however many pages an area has."""
        changed = hooked ^ self._flagged
        for i, flag in enumerate(self._area_flags):
            if changed >> i & 1:
                if hooked >> i & 1:
                    flag.append(True)
                else:
                    flag.clear()
        edge = self._edge_flag  # (the page before the KERNAL is also the I/O area's last)
        if hooked & EDGE_AREAS and not edge:
            edge.append(True)
        elif edge and not hooked & EDGE_AREAS:
            edge.clear()
        self._flagged = hooked
        low = FETCH_LOW[hooked]
        if low < self.fetch_low:
            self.fetch_low = low
            if low < self._loop_low:  # the run loop would not look at the page: stop it
                self.cpu.limit = self.cpu.cycles

    def _page_flag(self, page: int) -> list[bool]:
        """The flag object of *page* (see _flag)."""
        if page == EDGE_PAGE:
            return self._edge_flag
        for i, (_n, start, end) in enumerate(BANKS):
            if FIRST_PAGE[i] <= page < end >> 8:
                return self._area_flags[i]
        return self._no_flag

    def _exact_fetch_low(self) -> None:
        """``fetch_low`` no lower than the flags need (the run loop takes it after a service)."""
        low = FETCH_LOW[self._flagged]
        if self.watch_page >= 0:
            low = min(low, (self.watch_page << 8) - 1)
        self.fetch_low = low

    def _refresh(self, i: int) -> None:
        """Copy the bytes in view of stale area *i* into the memory list (I/O: nothing to copy)."""
        kind = self._kinds[i]
        if kind != IO:
            _name, start, end = BANKS[i]
            self.memory[start:end] = (self._under if kind == RAM else self._rom)[start:end]
        self._held[i] = kind
        self._held_code = code = HELD.index(tuple(self._held))
        self._use(self._banks[code << 3 | self._lines])

    def settle(self) -> None:
        """Make the memory list hold every byte in view (the stale areas copied)."""
        for i in (0, 1, 2):
            if self._bank.stale >> i & 1:
                self._refresh(i)

    def _fetch_high(self, pc: int) -> None:
        """An instruction in a flagged page: its bytes in a stale area are copied in first
        (code runs there), bytes in the I/O registers are fetched from them.  A page flagged
        for an area no longer hooked loses its flags."""
        stale = self._bank.stale
        if stale:
            for i, (_n, start, end) in enumerate(BANKS):
                if stale >> i & 1 and start - 2 <= pc < end:
                    self._refresh(i)
        if IO_FETCH < pc < IO_END:
            self._fetch_io(pc)
        if self._flagged != self._bank.hooked:  # (an area no longer hooked: its flags go)
            self._flag(self._bank.hooked)

    def _view(self, addr: int) -> int:
        """The byte the CPU reads at *addr* outside the I/O registers (a vector)."""
        src = self.cpu.blocks[addr >> 12]
        return self.memory[addr] if src is None else src[addr]

    def _write_port(self, addr: int, value: int) -> None:
        """A write to the 6510's port: $00 the data direction, $01 the data.  A switch puts
        the bank for the new lines in force (the areas whose contents change become stale:
        nothing is copied)."""
        if addr:
            self.port_data = data = value
            ddr = self.port_ddr
        else:
            self.port_ddr = ddr = value
            data = self.port_data
        lines = (data | ~ddr) & 0x07  # inputs are pulled up
        if lines != self._lines:
            # (_use in place: this runs at every switch)
            self._lines = lines
            bank = self._bank = self._banks[self._held_code << 3 | lines]
            self._kinds = bank.kinds
            cpu = self.cpu
            cpu.read_low = bank.low
            cpu.read_high = bank.high
            cpu.blocks = bank.blocks
            if bank.hooked & ~self._flagged:
                self._flag(bank.hooked)
        # Reading $01: an output bit reads what is written; an input reads 1 on bits 0-2
        # and 4 (pull-ups; no datasette on the sense line), 0 on bit 5 (the motor line's
        # driver pulls it low), and on bits 3, 6 and 7, which nothing drives, the level
        # last driven (the line's capacitance holds it: Lorenz's test suite 2.15, cpuport.asm).
        # The charge fades after a while on the chip; no test here needs that.
        floating = self.port_floating = (self.port_floating & ~ddr) | (data & ddr)
        mem = self.memory
        mem[0] = ddr
        mem[1] = ((data & ddr) | (~ddr & (0x17 | (floating & 0xC8)))) & 0xFF

    def _write_high(self, addr: int, value: int) -> None:
        """A write to the 6510's port ($00/$01) or above $9FFF: an I/O register, or the RAM
        (below a ROM too), and the memory list where it holds that RAM."""
        how = self._bank.writes[addr >> 12]
        if how == W_IO:
            self._io_write(addr, value)
        elif how == W_UNDER:
            self._under[addr] = value
        elif how == W_BOTH:
            self._under[addr] = value
            self.memory[addr] = value
        elif how == W_PORT and addr < 2:
            self._write_port(addr, value)
        else:  # $C000-$CFFF
            self.memory[addr] = value

    def store(self, addr: int, value: int) -> None:
        """Write *value* to *addr* as the CPU does (RAM, the RAM below a ROM, or an I/O register)."""
        if 1 < addr < 0xA000:
            self.memory[addr] = value
        else:
            self._write_high(addr, value)

    @property
    def map(self) -> dict[str, str]:
        """What each banked area shows: "ram", "rom" or "io"."""
        return {name: kind for (name, _s, _e), kind in zip(BANKS, self._kinds)}

    @property
    def under(self) -> dict[str, list[int]]:
        """The RAM of each banked area (a copy)."""
        return {name: self._under[start:end] for name, start, end in BANKS}

    def ram(self, addr: int) -> int:
        """The RAM byte at *addr* whatever is banked in (what the VIC sees)."""
        if BLOCK_AREA[addr >> 12] < 0:
            return self.memory[addr]
        return self._under[addr]

    def _vic_fetch(self, addr: int) -> int:
        """A byte as the VIC reads it: the character ROM at $1000-$1FFF of banks 0 and 2
        (C64 Programmer's Reference Guide, "Memory management")."""
        if addr & 0x7000 == 0x1000:
            return self.chargen[addr & 0x0FFF]
        return self.ram(addr)

    def poke_ram(self, addr: int, data: bytes) -> None:
        held = self._held
        for i, b in enumerate(data):
            a = addr + i
            area = BLOCK_AREA[a >> 12]
            if area < 0:
                self.memory[a] = b
                continue
            self._under[a] = b
            if held[area] == RAM:  # (elsewhere the byte is read from _under while RAM shows)
                self.memory[a] = b

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
        vic = self.vic
        first, last = vic.ba_from, vic.ba_to
        t = first
        waited, stolen = -1, 0
        for i in range(count):
            if t > last:
                first, last = vic.pass_bus(t) if plan else vic.window_after(t)
            if t >= first and not writes >> i & 1:
                if waited < 0:
                    waited, stolen = i, last + 1 - t
                t = last + 1
                first, last = vic.pass_bus(t) if plan else vic.window_after(t)
            t += 1
        if plan and t > vic.ba_to:
            vic.pass_bus(t)
        return t, waited, stolen

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
        """A read in the CPU's window: the byte of the block's list, or of an I/O register."""
        src = self.cpu.blocks[addr >> 12]
        if src is not None:
            return src[addr]
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
            value = 0xFF  # I/O 1 and 2: no cartridge
        return value

    def _io_write(self, addr: int, value: int) -> None:
        c = self._bus_cycle(True, addr)
        page = addr >> 8
        if page < 0xD4:
            self.vic.write(addr, value, c)
        elif page < 0xD8:
            self.sid[addr & 0x1F] = value
            if addr == DEBUG_CART and self._stop is None:
                self._stop = Stop("exit", f"the program wrote ${value:02X} to ${DEBUG_CART:04X} (debug cartridge)",
                                  c, value)
                self.cpu.limit = c
        elif page < 0xDC:
            self.color[addr & 0x3FF] = value & 0x0F
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
        self._exact_fetch_low()  # (lowered by a switch in the frame: raised again once a frame)
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
                and mem[XMAX] != 0 and self._kinds[2] == ROM)

    def _service(self) -> None:
        cpu = self.cpu
        c = cpu.cycles
        cia1, cia2, vic = self.cia1, self.cia2, self.vic
        ended = c  # the last instruction's end as if the bus had been free
        stolen = 0  # the cycles the VIC held one of its reads for
        waited = -1  # that read's distance from its last cycle (0: the last cycle), -1: none
        resume = -1  # the cycle the next read may happen (the VIC holds the bus at the instruction's end)
        if c >= vic.ba_from:  # the last instruction ran into cycles the VIC takes
            tail = TAIL_WRITES[self.memory[self._last_pc]]
            count = min(c - vic.ba_from, 9)  # its cycles from the window's first on
            writes = 0
            for i in range(count):
                if tail >> (count - 1 - i) & 1:
                    writes |= 1 << i
            c, first_wait, stolen = self._through(count, writes, True)
            cpu.cycles = c
            if first_wait >= 0:
                waited = count - 1 - first_wait
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
        # whose interrupt delays match VICE testprogs interrupts/irqdma, measured on a C64).
        # On the instruction's cycles with the wait in it that is the same rule, unless the
        # read that waited comes too late for the count: then the count is that of the
        # cycles as if the bus had been free.
        need = 2
        last = self._last_pc
        op = self.memory[last]
        if (op & 0x1F == 0x10 and bool(cpu.p & BRANCH_FLAGS[op >> 6]) == bool(op & 0x20)
                and (cpu.pc ^ last + 2) < 0x100):
            # a branch taken within its page (3 cycles) looks at the lines one cycle
            # earlier (Lorenz, Test_Suite_2_15.txt, IRQ; VICE testprogs/interrupts/branchquirk)
            need = 3
        poll = c - need
        if waited >= 0 and (waited < need - 2 or (op == 0x78 and waited == 0)):
            # (SEI: an interrupt that arrives during its wait is not counted, x64sc)
            poll -= stolen
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
        elif nmi_waits and cia2.edge_at <= poll or cia2.edges - self.nmi_seen > 1:
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
        limit = min(cia1.next_event() + 2, cia2.next_event() + 2, vic.next_compare, vic.line_event,
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
        cpu.pc = self._view(vector) | self._view(vector + 1) << 8
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
        fetch = self._fetch_pages
        self.stop_cycle = cpu.cycles + max_cycles
        self.until_text = until_text
        self.idle_stop = stop_when_idle
        self.stop_when_polling = stop_when_polling
        self._idle_frames = 0
        self._poll_frames = 0
        self._stop = None
        watch = -1 if until_pc is None else until_pc
        if until_pc is not None:
            self.watch_page = until_pc >> 8
            fetch[self.watch_page] = self._watched
            self._exact_fetch_low()
        budget = (1 << 62) if max_instructions is None else max_instructions
        done = 0  # instructions (traps included) in this run
        traps = self.traps_run
        i = 0
        try:
            self._service()
            while self._stop is None:
                left = budget - done
                fetch_low = self._loop_low = self.fetch_low
                try:
                    for i in range(left):  # (the loop's counter counts the instructions)
                        pc = cpu.pc
                        if pc > fetch_low and fetch[pc >> 8]:  # (the page of --until-pc is flagged too)
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
        self._loop_low = 0xFFFF
        if until_pc is not None:
            fetch[self.watch_page] = self._page_flag(self.watch_page)
            self.watch_page = -1
            self._exact_fetch_low()
        self.settle()  # (between runs the memory list is the CPU's view)
        return self._stop

    def _fetch_io(self, pc: int) -> None:
        """The instruction at *pc* has bytes in $D000-$DFFF: with I/O banked in, they are
        fetched from the registers there (the VIC-II's sprite positions hold code as well
        as RAM does) into the memory list, which holds nothing else there while I/O shows
        (``_fetch_high`` has refreshed the area)."""
        if self._kinds[1] != IO:
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
            "port": (self.port_ddr, self.port_data, self.port_floating), "map": dict(self.map), "chips": chips,
            "sid": list(self.sid), "noise": self._noise, "nmi": self.nmi_seen, "next_frame": self.next_frame,
            "transcript": bytes(self.transcript), "drive": copy.deepcopy(vars(self.drive)),
        }

    def load_state(self, state: dict) -> None:
        cpu = self.cpu
        self.memory[:] = state["memory"]
        for name, start, end in BANKS:
            self._under[start:end] = state["under"][name]
        self.color[:] = state["color"]
        cpu.a, cpu.x, cpu.y, cpu.p, cpu.sp, cpu.pc, cpu.cycles = state["cpu"]
        cpu.limit = cpu.cycles
        self.port_ddr, self.port_data, self.port_floating = state["port"]
        self._lines = lines = (self.port_data | ~self.port_ddr) & 0x07
        self._held = list(CONFIGS[lines])  # (the memory list saved is the CPU's view)
        self._held_code = code = HELD.index(CONFIGS[lines])
        self._use(self._banks[code << 3 | lines])
        for name, chip in (("vic", self.vic), ("cia1", self.cia1), ("cia2", self.cia2)):
            for k, v in state["chips"][name].items():
                setattr(chip, k, copy.deepcopy(v))
        self.vic.cursor = None  # (the collision walk starts again from the frame's log)
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
                self.memory[ptr + 1] = end >> 8
        return start, end
