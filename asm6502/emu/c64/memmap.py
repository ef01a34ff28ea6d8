"""The C64's memory map: the 6510's port $00/$01 and the PLA's banking of the BASIC ROM,
the I/O area (or the character ROM) and the KERNAL over the RAM.

The CPU reads one list of 65,536 ints, the memory list (``memory``): RAM, and the ROM
bytes where the list holds a ROM.  Beside it, the RAM below the banked areas (``under``)
and the three ROMs (``rom``) are lists of 65,536 as well, each byte at its address (the
rest unused), so a byte of any of them is ``list[addr]``.

What the memory list holds in each banked area (``held``) need not be what the CPU sees
there (``kinds``): a switch copies nothing.  For each combination of the two (27 x 8)
the map is made once, when first needed (a ``Bank``), and a switch puts the one for the
new port lines in force by reference: the CPU reads a byte of the banked areas ($A000 and
up) from the list its 4 KB block names in the bank's tuple (``cpu.blocks``: the memory list
where it holds what is in view, else the RAM or ROM in view; None for the I/O registers) in
place, without a call.  That tuple is the port's whole state: after its 16 blocks it holds
the bank (``BANK_AT``) and the value last written to $01 (``DATA_AT``), one tuple per bank
and value, so a write to $01 is one table entry (``port``, by the value written: what $01
reads back and that tuple) and two stores.  Writing the RAM keeps ``under`` current, and the
memory list where it holds that RAM, so switching back to what the list holds makes it
right again at no cost.  A stale area is copied in (8 KB or 4 KB, some microseconds) when
code runs there -- the run loop fetches an instruction in a flagged page through the
machine -- and when a run ends (between runs the memory list is the CPU's view).

Facts: the PLA's memory configurations and the processor port (C64 Programmer's Reference
Guide, "Memory management"; Mapping the C64, $0000, $0001); the port's floating bits as
Wolfgang Lorenz's test suite 2.15 (cpuport.asm) expects them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
#: every combination of what the memory list may hold in the three areas (its index: ``held_code``)
HELD = tuple((KINDS[code % 3], KINDS[code // 3 % 3], KINDS[code // 9]) for code in range(27))
# how a write reaches its 4 KB block (``Bank.writes``)
W_PORT, W_PLAIN, W_BOTH, W_UNDER, W_IO = range(5)


#: per area: the first page flagged while it is hooked (the page before it: an instruction
#: there may have operand bytes in the area)
FIRST_PAGE = tuple((start >> 8) - 1 for _n, start, _e in BANKS)
EDGE_PAGE = FIRST_PAGE[2]  # the I/O area's last page, the one before the KERNAL's
EDGE_AREAS = 0b110
BLOCKS = 16
BANK_AT, DATA_AT = BLOCKS, BLOCKS + 1  # in the port's state tuple (cpu.blocks), after the blocks


@dataclass(frozen=True, slots=True, eq=False)
class Bank:
    """The map for one memory configuration and one content of the memory list."""

    lines: int  # the port lines LORAM/HIRAM/CHAREN
    kinds: tuple[str, str, str]  # what each area shows (CONFIGS[lines])
    held: tuple[str, str, str]  # what the memory list holds in each area (IO: nothing to read there)
    stale: int  # areas (bits) whose bytes in view the memory list does not hold
    hooked: int  # areas (bits) the CPU reads elsewhere than the memory list: the stale ones, io while I/O shows
    blocks: tuple  # per 4 KB block: the list a read there reads, None for the I/O registers
    writes: tuple[int, ...]  # per 4 KB block: how a write reaches it (W_...)
    states: list  # per value written to $01: the port's state tuple (cpu.blocks), made on demand

    def state(self, data: int) -> tuple:
        """The port's state with this bank in force and *data* written to $01."""
        made = self.states[data]
        if made is None:
            made = self.states[data] = (*self.blocks, self, data)
        return made


class MemoryMap:
    """The port, the banking and the lists behind them (see the module docstring).  The
    machine gives it the CPU (whose ``blocks`` and ``limit`` it sets) and the function that
    writes an I/O register.  Its attributes are slots: ``write_port`` runs at every switch."""

    __slots__ = ("memory", "under", "rom", "cpu", "io_write", "ddr", "kept", "after", "afters", "port", "ports",
                 "port_sets", "inputs", "followers", "held", "held_code", "banks", "area_flags", "edge_flag", "watched", "fetch_flags",
                 "flagged", "watch_page")

    def __init__(self, memory: list[int], basic: list[int], chargen: list[int], kernal: list[int], cpu,
                 io_write: Callable[[int, int], None]):
        self.memory = memory
        self.under = list(memory)  # the RAM of the banked areas at their addresses
        rom = [0] * 0x10000
        rom[0xA000:0xC000], rom[0xD000:0xE000], rom[0xE000:] = basic, chargen, kernal
        self.rom = rom
        self.cpu = cpu
        self.io_write = io_write
        self.ddr = 0
        self.kept = 0  # the levels the input lines of $01 hold (see write_ddr)
        self.held = list(CONFIGS[0])  # per area: what the memory list holds there (all RAM: it does)
        self.held_code = 0  # HELD.index(tuple(self.held))
        self.banks: list[Bank | None] = [None] * (27 * 8)  # by held_code << 3 | lines, made on demand
        # per value written to $01: the bank in force then (for this direction and held)
        self.afters: dict[int, list[Bank]] = {}  # (by held_code << 8 | ddr)
        self.after = self._after()
        # Per value written to $01: (what $01 reads back, the port's state tuple), or None:
        # not made yet, and never where the bank hooks an area whose pages are not flagged
        # (``switch`` flags them first: see flag); one table per set of flagged areas
        # (``ports``, by ``flagged``), for this direction, held and what the input lines
        # read (``port_sets``).
        self.inputs = 0x17  # what the input lines of $01 read (see write_ddr)
        self.port_sets: dict[tuple[int, int, int], list[list | None]] = {}
        self.ports: list[list | None] = []
        self.port: list = []
        self.followers: list[Callable[[list], None]] = []  # zero_page_store's: each given the table in force
        # Per address: its page's flag object, true (not empty) where the run loop fetches
        # through the machine (indexed by the PC itself: no shift for the page on the run
        # loop's path).  The pages of an area share one (see flag); the page before the
        # KERNAL, which is the I/O area's last, has its own; a page of no area holds False.
        self.area_flags: tuple[list[bool], ...] = ([], [], [])
        self.edge_flag: list[bool] = []
        self.watched = [True]  # the flag of the page of the run's --until-pc address
        self.watch_page = -1
        self.fetch_flags: list[list[bool] | bool] = []
        for page in range(0x100):
            self.fetch_flags += [self.page_flag(page)] * 0x100
        self.flagged = 0  # areas (bits) whose pages are flagged: the hooked ones, perhaps more (see flag)
        self.cpu.blocks = self.after[0x3F].state(0x3F)  # (the data register's value at power-on)
        self._port_tables()
        self.switch(0x3F)

    def _make(self, held: tuple[str, str, str], lines: int) -> Bank:
        kinds = CONFIGS[lines]
        stale = sum(1 << i for i in range(3) if kinds[i] != held[i])
        hooked = stale | (IO_BIT if kinds[1] == IO else 0)
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
                blocks.append(self.memory if not stale >> i & 1 else self.under if kinds[i] == RAM else self.rom)
                writes.append(W_BOTH if held[i] == RAM else W_UNDER)
        return Bank(lines, kinds, held, stale, hooked, tuple(blocks), tuple(writes), [None] * 0x100)

    def _bank(self, held_code: int, lines: int) -> Bank:
        bank = self.banks[held_code << 3 | lines]
        if bank is None:
            bank = self.banks[held_code << 3 | lines] = self._make(HELD[held_code], lines)
        return bank

    # --- the bank in force -------------------------------------------------------------
    @property
    def bank(self) -> Bank:
        return self.cpu.blocks[BANK_AT]

    @property
    def data(self) -> int:
        """The value last written to $01 (the port's data register)."""
        return self.cpu.blocks[DATA_AT]

    @property
    def kinds(self) -> tuple[str, str, str]:
        return self.bank.kinds

    def _after(self) -> list[Bank]:
        key = self.held_code << 8 | self.ddr
        after = self.afters.get(key)
        if after is None:
            code, ddr = self.held_code, self.ddr
            after = self.afters[key] = [self._bank(code, (value | ~ddr) & 0x07) for value in range(0x100)]  # (pull-ups)
        return after

    def write_port(self, addr: int, value: int) -> None:
        """A write to the 6510's port: $00 the data direction (``write_ddr``), $01 the data
        (``switch``)."""
        if addr:
            self.switch(value)
        else:
            self.write_ddr(value)

    def switch(self, data: int) -> None:
        """*data* written to $01: what $01 reads back and the bank for the new lines come
        in force (the port's table entry; the areas the bank hooks flagged first)."""
        entry = self.port[data]
        if entry is None:
            bank = self.after[data]
            if bank.hooked & ~self.flagged:
                self.flag(bank.hooked)  # (another table: self.port)
            entry = self.port[data]
            if entry is None:
                entry = self.port[data] = ((data & self.ddr) | self.inputs, bank.state(data))
        self.memory[1], self.cpu.blocks = entry

    def zero_page_store(self, value: Callable) -> Callable:
        """The CPU's instruction for a zero-page store (STA, STX, STY, SAX zp) of
        ``value(cpu)``: a write to $01 is ``switch``'s, done in place (without a call:
        programs that switch banks often do it with these, so it costs one table entry
        and two stores more than a plain store; the table in force is the closure's own,
        kept current by ``follow``: no attribute read), $00 goes to ``write_ddr``."""
        mm = self
        port = self.port

        def inst(cpu):
            m = cpu.memory
            addr = m[cpu.pc]
            if addr > 1:
                m[addr] = value(cpu)
            elif addr:
                try:  # (a try costs nothing until it catches)
                    m[1], cpu.blocks = port[value(cpu)]
                except TypeError:  # the entry is None: areas to flag first
                    mm.switch(value(cpu))
            else:
                mm.write_ddr(value(cpu))
            cpu.pc += 1

        def follow(table: list) -> None:
            nonlocal port
            port = table

        self.followers.append(follow)
        return inst

    def write_ddr(self, ddr: int) -> None:
        """Reading $01: an output bit reads what is written; an input reads 1 on bits 0-2
        and 4 (pull-ups; no datasette on the sense line), 0 on bit 5 (the motor line's
        driver pulls it low), and on bits 3, 6 and 7, which nothing drives, the level last
        driven (the line's capacitance holds it: Lorenz's test suite 2.15, cpuport.asm) --
        so what the inputs read changes only here.  (The charge fades after a while on the
        chip; no test here needs that.)"""
        data = self.data
        driven = self.kept | (data & self.ddr)  # each line's level as last driven
        self.kept = driven & ~ddr & 0xFF
        self.ddr = ddr
        self.memory[0] = ddr
        self._port_tables()
        self.switch(data)

    def _port_tables(self) -> None:
        """The tables for the direction, held and input levels now (``after``, ``ports``, ``port``)."""
        ddr = self.ddr
        self.inputs = inputs = ~ddr & (0x17 | (self.kept & 0xC8)) & 0xFF
        self.after = self._after()
        key = (self.held_code, ddr, inputs)
        ports = self.port_sets.get(key)
        if ports is None:
            ports = self.port_sets[key] = [None] * 8
        self.ports = ports
        self._use_port(self.flagged)

    def write(self, addr: int, value: int) -> None:
        """A write to the port ($00/$01) or above $9FFF, as the CPU makes it: an I/O register,
        or the RAM (below a ROM too), and the memory list where it holds that RAM."""
        how = self.cpu.blocks[BANK_AT].writes[addr >> 12]
        if how == W_IO:
            self.io_write(addr, value)
        elif how == W_UNDER:
            self.under[addr] = value
        elif how == W_BOTH:
            self.under[addr] = value
            self.memory[addr] = value
        elif how == W_PORT and addr < 2:
            self.write_port(addr, value)
        else:  # $C000-$CFFF (and $0002-$9FFF)
            self.memory[addr] = value

    def view(self, addr: int) -> int:
        """The byte the CPU reads at *addr* outside the I/O registers (a vector)."""
        src = self.bank.blocks[addr >> 12]
        return self.memory[addr] if src is None else src[addr]

    def in_rom(self, addr: int) -> bool:
        """*addr* is in a ROM banked in (where traps are)."""
        kinds = self.bank.kinds
        if addr >= 0xE000:
            return kinds[2] == ROM
        return 0xA000 <= addr < 0xC000 and kinds[0] == ROM

    # --- stale areas -------------------------------------------------------------------
    def refresh(self, i: int) -> None:
        """Copy the bytes in view of stale area *i* into the memory list (I/O: nothing to copy)."""
        kind = self.bank.kinds[i]
        if kind != IO:
            _name, start, end = BANKS[i]
            self.memory[start:end] = (self.under if kind == RAM else self.rom)[start:end]
        self.held[i] = kind
        self.held_code = HELD.index(tuple(self.held))
        self._port_tables()
        self.switch(self.data)

    def settle(self) -> None:
        """Make the memory list hold every byte in view (the stale areas copied)."""
        for i in (0, 1, 2):
            if self.bank.stale >> i & 1:
                self.refresh(i)

    def fetched(self, pc: int) -> None:
        """An instruction at *pc* in a flagged page: its bytes in a stale area are copied in
        first; a page flagged for an area no longer hooked loses its flag."""
        stale = self.bank.stale
        if stale:
            for i, (_n, start, end) in enumerate(BANKS):
                if stale >> i & 1 and start - 2 <= pc < end:
                    self.refresh(i)
        if self.flagged != self.bank.hooked:
            self.flag(self.bank.hooked)

    # --- the run loop's page flags -------------------------------------------------------
    def flag(self, hooked: int) -> None:
        """Flag the pages of the areas of *hooked*, and only those: the pages of an area
        share one flag object (a list, true when not empty), so this is a few list
        operations however many pages an area has.  A switch calls it only when an area
        comes to be hooked: the flags of an area no longer hooked stay until code runs
        there (``fetched``), so code switching an area back and forth costs no flags."""
        changed = hooked ^ self.flagged
        for i, flag in enumerate(self.area_flags):
            if changed >> i & 1:
                if hooked >> i & 1:
                    flag.append(True)
                else:
                    flag.clear()
        edge = self.edge_flag
        if hooked & EDGE_AREAS and not edge:
            edge.append(True)
        elif edge and not hooked & EDGE_AREAS:
            edge.clear()
        self.flagged = hooked
        self._use_port(hooked)

    def _use_port(self, flagged: int) -> None:
        """Put the port table for the areas *flagged* in force."""
        table = self.ports[flagged]
        if table is None:
            table = self.ports[flagged] = [None] * 0x100
        self.port = table
        for follow in self.followers:
            follow(table)

    def page_flag(self, page: int) -> list[bool] | bool:
        """The flag object of *page* (see flag)."""
        if page == EDGE_PAGE:
            return self.edge_flag
        for i, (_n, _start, end) in enumerate(BANKS):
            if FIRST_PAGE[i] <= page < end >> 8:
                return self.area_flags[i]
        return False  # (a page of no area is never flagged: False, whose truth the run loop tests fastest)

    def watch(self, page: int) -> None:
        """Flag *page* (the run's --until-pc address's) for the run; -1: none."""
        if self.watch_page >= 0:
            self._flag_page(self.watch_page, self.page_flag(self.watch_page))
        self.watch_page = page
        if page >= 0:
            self._flag_page(page, self.watched)

    def _flag_page(self, page: int, flag: list[bool] | bool) -> None:
        self.fetch_flags[page << 8:(page + 1) << 8] = [flag] * 0x100

    # --- RAM ---------------------------------------------------------------------------
    def ram(self, addr: int) -> int:
        """The RAM byte at *addr* whatever is banked in (what the VIC sees)."""
        if BLOCK_AREA[addr >> 12] < 0:
            return self.memory[addr]
        return self.under[addr]

    def poke(self, addr: int, data: bytes) -> None:
        """Put *data* into the RAM at *addr* (below the ROMs and I/O too)."""
        held = self.held
        for i, b in enumerate(data):
            a = addr + i
            area = BLOCK_AREA[a >> 12]
            if area < 0:
                self.memory[a] = b
                continue
            self.under[a] = b
            if held[area] == RAM:  # (elsewhere the byte is read from under while RAM shows)
                self.memory[a] = b

    def areas(self) -> dict[str, list[int]]:
        """The RAM of each banked area (a copy)."""
        return {name: self.under[start:end] for name, start, end in BANKS}

    def restore(self, under: dict[str, list[int]], ddr: int, data: int, kept: int) -> None:
        """The RAM below the areas and the port as saved, the memory list already holding
        the CPU's view."""
        for name, start, end in BANKS:
            self.under[start:end] = under[name]
        self.ddr, self.kept = ddr, kept
        lines = (data | ~ddr) & 0x07
        self.held = list(CONFIGS[lines])
        self.held_code = HELD.index(CONFIGS[lines])
        self._port_tables()
        self.switch(data)
