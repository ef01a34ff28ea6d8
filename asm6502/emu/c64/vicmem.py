"""The RAM as the VIC-II read it in a given cycle.

The VIC reads the RAM in the first half of each of its cycles and the CPU writes it in
the second (Bauer 3.6.1), so a fetch in cycle k sees the CPU's writes of the cycles before
k.  The picture and the collisions are drawn later than the VIC read the bytes; a program
that changes character data within a line (VICE testprogs VICII/gfxfetch) or sprite
pointers and data within a frame (VICII/spritepriorities) shows what was in memory at the
fetch.  So the CPU's writes to the RAM the VIC reads are kept, with the byte each replaced
(``writes``: (cycle, address, old byte) in cycle order), for the two frames a picture can
show (the one in progress and the one before), and ``read_at`` reads the memory of a cycle.

Only the addresses the VIC reads are kept (``watched``): the video matrix (the sprite
pointers in its last 8 bytes), the character generator, the bitmap while BMM is set, the
enabled sprites' 64-byte blocks and the idle-state bytes ($3FFF, $39FF) of the VIC's bank,
without the character ROM's image at $1000-$1FFF of banks 0 and 2 (C64 Programmer's
Reference Guide, "Memory management") and without pages 0 and 1 (zero page and stack: their
writes take the CPU's shortest path).  The CPU stores to every other address of
$0002-$9FFF with a plain list store; a store to a watched one its instruction keeps itself,
or hands to the machine (``VicMemory``).  What is watched grows as the registers and
pointers change in a frame and shrinks at a frame's start to what the two frames read.

The colour RAM is kept whole: the c-access reads its nibble together with the matrix byte,
on the upper four lines of the VIC's 12-bit data bus (VICE's x64sc, vicii-fetch.c:
``vicii_fetch_matrix`` fills the matrix and the colour buffer in one access).  The CPU's
stores reach it as I/O writes, which the machine hands on (``wrote_colour``); a nibble is
kept at address ``COLOUR`` + its index.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from operator import itemgetter

from asm6502.emu.c64.cpu import BANKED, CALL, KEEP, PLAIN_WRITES

Fetch = Callable[[int], int]
Area = tuple[int, int]  # [first, end) addresses

CYCLES_PER_FRAME = 63 * 312
LOWEST = 0x200  # pages 0 and 1 are never watched
COLOUR = 0x10000  # the colour RAM's index 0 in ``writes`` (after the VIC's 16-bit addresses)
# the VIC registers whose writes change what it reads: BMM ($D011), the sprites enabled, the
# matrix and character memory ($D018)
REGS = frozenset((0x11, 0x15, 0x18))
_CYCLE = itemgetter(0)


def _without_rom(first: int, end: int) -> list[Area]:
    """[first, end) less the character ROM's image ($1000-$1FFF of banks 0 and 2) and pages 0-1."""
    out = []
    bank = first & 0xC000
    cut = (bank + 0x1000, bank + 0x2000) if bank in (0x0000, 0x8000) else (end, end)
    for lo, hi in ((first, min(end, cut[0])), (max(first, cut[1]), end)):
        lo = max(lo, LOWEST)
        if lo < hi:
            out.append((lo, hi))
    return out


def areas(regs: list[int], ram: Fetch) -> frozenset[Area]:
    """The RAM the VIC reads under the registers *regs* (0x40: the bank as CIA 2 port A's bits
    read) and the sprite pointers in *ram* (``ram``: a byte of the RAM at an address)."""
    bank = (3 - (regs[0x40] & 3)) * 0x4000
    d011, d018 = regs[0x11], regs[0x18]
    matrix = bank + (d018 >> 4) * 0x400
    chars = bank + (d018 >> 1 & 7) * 0x800
    found = [*_without_rom(matrix, matrix + 0x400), *_without_rom(chars, chars + 0x800),
             *_without_rom(bank + 0x39FF, bank + 0x3A00), *_without_rom(bank + 0x3FFF, bank + 0x4000)]
    if d011 & 0x20:
        bitmap = bank + (d018 & 0x08) * 0x400
        found += _without_rom(bitmap, bitmap + 0x2000)
    for n in range(8):
        if regs[0x15] >> n & 1:
            block = bank + ram(matrix + 0x3F8 + n) * 64
            found += _without_rom(block, block + 64)
    return frozenset(found)


class VicMemory:
    """The writes to the RAM the VIC reads (see the module docstring).  *read*: a byte as the
    VIC reads it now (the character ROM's image included); *ram*: a RAM byte now; *colour*:
    the colour RAM now (1024 nibbles).  The CPU's
    instructions hold ``plain``, ``kept``, ``writes`` and ``store`` (``cpu.instruction_table``):
    ``plain`` clear and ``kept`` KEEP where they append a store to ``writes`` themselves (the
    RAM below $A000), CALL where they call ``store`` (the machine's: the RAM under the ROMs
    and I/O, and the sprite pointers, whose writes change what is read), which it sets."""

    __slots__ = ("read", "ram", "colour", "plain", "kept", "store", "writes", "areas", "frame_areas", "pointers",
                 "_found", "_index", "_indexed")

    def __init__(self, read: Fetch, ram: Fetch, colour: list[int] | None = None):
        self.read = read
        self.ram = ram
        self.colour = [0] * 1024 if colour is None else colour
        self.plain = list(PLAIN_WRITES)
        self.kept = [0] * 0x10000
        self.store: Callable[[int, int], None] | None = None
        self.writes: list[tuple[int, int, int]] = []
        self.areas: frozenset[Area] = frozenset()  # watched now
        self.frame_areas: set[Area] = set()  # read in the frame in progress (as far as known)
        self._found: dict[tuple, frozenset[Area]] = {}  # ``areas`` by what they depend on
        self.pointers = 0x10000  # the address of the sprite pointers (a write there changes the areas)
        self._index: dict[int, tuple[list[int], list[int]]] = {}  # address: (cycles, old bytes)
        self._indexed = 0  # the writes in the index

    # --- what is watched ------------------------------------------------------------
    def _now(self, regs: list[int]) -> frozenset[Area]:
        """``areas`` under *regs*, kept by the registers and pointers they depend on."""
        bank = (3 - (regs[0x40] & 3)) * 0x4000
        pointers = bank + (regs[0x18] >> 4) * 0x400 + 0x3F8
        enabled = regs[0x15]
        ram = self.ram
        key = (regs[0x11] & 0x20, enabled, regs[0x18], regs[0x40] & 3,
               tuple(ram(pointers + n) for n in range(8)) if enabled else ())
        found = self._found.get(key)
        if found is None:
            if len(self._found) > 64:
                self._found.clear()
            found = self._found[key] = areas(regs, ram)
        if pointers != self.pointers:
            old, self.pointers = self.pointers, pointers
            self._mark_pointers(old)
            self._mark_pointers(pointers)
        return found

    def look(self, regs: list[int]) -> None:
        """The registers or pointers changed: watch what the VIC reads under them too."""
        now = self._now(regs)
        self.frame_areas |= now
        new = now - self.areas
        if new:
            self._mark(new, True)
            self.areas = self.areas | new
            self._mark_pointers(self.pointers)

    def new_frame(self, regs: list[int], frame_cycle: int) -> None:
        """A frame begins in *frame_cycle*: watch what the frame before and this one read, keep
        the writes from the frame before's start on."""
        now = self._now(regs)
        keep = frozenset(self.frame_areas | now)
        self.frame_areas = set(now)
        if keep != self.areas:
            self._mark(self.areas - keep, False)
            self._mark(keep, True)
            self.areas = keep
            self._mark_pointers(self.pointers)
        writes = self.writes
        if writes and writes[0][0] < frame_cycle - CYCLES_PER_FRAME:
            del writes[:bisect_left(writes, frame_cycle - CYCLES_PER_FRAME, key=_CYCLE)]
            self._index, self._indexed = {}, 0

    def _mark(self, found, on: bool) -> None:
        plain, kept = self.plain, self.kept
        for lo, hi in found:
            mid = min(max(lo, BANKED + 1), hi)  # (KEEP below $A000, CALL from there on)
            kept[lo:mid] = [KEEP if on else 0] * (mid - lo)
            kept[mid:hi] = [CALL if on else 0] * (hi - mid)
            plain[lo:hi] = [False] * (hi - lo) if on else PLAIN_WRITES[lo:hi]

    def _mark_pointers(self, at: int) -> None:
        """The eight bytes from *at*: CALL where they are the pointers and watched, else KEEP."""
        kept = self.kept
        for addr in range(at, min(at + 8, 0x10000)):
            if kept[addr]:
                kept[addr] = CALL if at == self.pointers or addr > BANKED else KEEP

    def clear(self) -> None:
        """Forget the writes (a snapshot was loaded)."""
        self.writes.clear()
        self._index, self._indexed = {}, 0

    # --- the writes -----------------------------------------------------------------
    def wrote(self, cycle: int, addr: int, old: int, regs: list[int]) -> None:
        """The CPU replaced *old* at watched *addr* in *cycle* (*regs*: the VIC's registers)."""
        self.writes.append((cycle, addr, old))
        if self.pointers <= addr < self.pointers + 8:
            self.look(regs)

    def wrote_colour(self, cycle: int, index: int, old: int) -> None:
        """The CPU replaced nibble *old* at colour RAM *index* in *cycle*."""
        self.writes.append((cycle, COLOUR + index, old))

    def quiet_since(self, cycle: int) -> bool:
        """Whether no watched byte changed from *cycle* on (the memory now is the memory then)."""
        writes = self.writes
        return not writes or writes[-1][0] < cycle

    def read_at(self, addr: int, cycle: int) -> int:
        """The byte at *addr* (``COLOUR`` + an index: the colour RAM's nibble) as the VIC read
        it in *cycle*: the one the first write from that cycle on replaced, else the byte now."""
        writes = self.writes
        index = self._index
        if self._indexed != len(writes):
            for c, a, old in writes[self._indexed:]:
                entry = index.get(a)
                if entry is None:
                    index[a] = ([c], [old])
                else:
                    entry[0].append(c)
                    entry[1].append(old)
            self._indexed = len(writes)
        entry = index.get(addr)
        if entry is not None:
            i = bisect_left(entry[0], cycle)
            if i < len(entry[0]):
                return entry[1][i]
        return self.read(addr) if addr < COLOUR else self.colour[addr - COLOUR]
