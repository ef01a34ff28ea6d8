"""The C64's memory map (asm6502/emu/c64/memmap.py) against a model of the PLA written
from the table in the C64 Programmer's Reference Guide ("Memory management"): random
sequences of port writes, reads, writes and instruction fetches, made by the machine's
6510 (its instruction table) on the map, see what the model sees.  The model is 64 KB of
RAM, the three ROMs and the port lines; it copies nothing and caches nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.emu.c64.cpu import C64CPU, instruction_table
from asm6502.emu.c64.memmap import MemoryMap

LDA_ABS, STA_ABS, LDA_ZP, STA_ZP, JMP_IND = 0xAD, 0x8D, 0xA5, 0x85, 0x6C
OPERAND = 0x0200  # where the instruction's operand bytes are put (plain RAM)
BASIC = [(i * 7 + 1) & 0xFF for i in range(0x2000)]
CHARGEN = [(i * 11 + 2) & 0xFF for i in range(0x1000)]
KERNAL = [(i * 13 + 3) & 0xFF for i in range(0x2000)]


class Model:
    """The PLA's table: per port lines, what $A000-$BFFF, $D000-$DFFF and $E000-$FFFF show."""

    def __init__(self, ram: list[int]):
        self.ram = list(ram)
        self.ddr, self.data, self.floating = 0, 0x3F, 0

    def port(self, addr: int, value: int) -> None:
        if addr:
            self.data = value
        else:
            self.ddr = value
        # the undriven input lines hold the level last driven (Lorenz 2.15, cpuport.asm)
        self.floating = (self.floating & ~self.ddr) | (self.data & self.ddr)

    def port_read(self, addr: int) -> int:
        if not addr:
            return self.ddr
        ddr = self.ddr
        return ((self.data & ddr) | (~ddr & (0x17 | (self.floating & 0xC8)))) & 0xFF

    def shows(self, addr: int) -> str:
        lines = (self.data | ~self.ddr) & 7
        loram, hiram, charen = lines & 1, lines & 2, lines & 4
        if 0xA000 <= addr < 0xC000:
            return "rom" if loram and hiram else "ram"
        if 0xD000 <= addr < 0xE000:
            return "ram" if not (loram or hiram) else "io" if charen else "chargen"
        if addr >= 0xE000:
            return "rom" if hiram else "ram"
        return "ram"

    def read(self, addr: int) -> int | str:
        kind = self.shows(addr)
        if kind == "io":
            return "io"
        if kind == "chargen":
            return CHARGEN[addr - 0xD000]
        if kind == "rom":
            return BASIC[addr - 0xA000] if addr < 0xC000 else KERNAL[addr - 0xE000]
        return self.ram[addr]


class Bus:
    """The map with the machine's CPU on it; I/O accesses are logged."""

    def __init__(self):
        self.memory = ([0x00] * 64 + [0xFF] * 64) * 512
        self.io: list[tuple] = []
        self.cpu = C64CPU(self.memory, self._io_read, self._io_write)
        self.map = MemoryMap(self.memory, BASIC, CHARGEN, KERNAL, self.cpu, self._io_write)
        self.cpu.write_high = self.map.write
        self.cpu.write_port = self.map.write_port
        self.map.write_port(1, self.map.data)
        self.table = instruction_table(self.map.zero_page_store)  # (the machine's)

    def _io_read(self, addr: int) -> int:
        self.io.append(("read", addr))
        return 0

    def _io_write(self, addr: int, value: int) -> None:
        self.io.append(("write", addr, value))

    def run(self, opcode: int, operand: int) -> None:
        self.memory[OPERAND : OPERAND + 2] = [operand & 0xFF, operand >> 8]
        self.cpu.pc = OPERAND
        self.table[opcode](self.cpu)

    def fetch(self, addr: int) -> int:
        """The run loop's opcode fetch at *addr* (the machine's page test, then the list)."""
        if self.map.fetch_flags[addr]:
            self.map.fetched(addr)
        return self.memory[addr]


addresses = st.one_of(st.integers(0x9FF0, 0xFFFF), st.sampled_from([0x9FFE, 0x9FFF, 0xA000, 0xBFFF, 0xCFFE, 0xCFFF, 0xD000, 0xDFFE, 0xDFFF, 0xE000, 0xFFFF]))
steps = st.lists(st.one_of(
    st.tuples(st.just("port"), st.sampled_from([0, 1]), st.integers(0, 255), st.sampled_from([STA_ZP, STA_ABS])),
    st.tuples(st.just("switch"), st.sampled_from([0x30, 0x33, 0x34, 0x35, 0x36, 0x37]), st.just(STA_ZP)),
    st.tuples(st.just("read"), addresses),
    st.tuples(st.just("write"), addresses, st.integers(0, 255)),
    st.tuples(st.just("fetch"), addresses),
    st.tuples(st.just("vector"), addresses),
    st.tuples(st.just("settle"),),
), max_size=60)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_every_access_sees_what_the_pla_shows(program):
    bus = Bus()
    model = Model(bus.memory)
    for step in program:
        kind = step[0]
        if kind in ("port", "switch"):
            # (a port write as STA zp, the map's own instruction, or as STA abs, through its write)
            addr, value, store = (1, *step[1:]) if kind == "switch" else step[1:]
            if kind == "switch":  # (the KERNAL's direction: the three lines outputs)
                bus.cpu.a = 0x2F
                bus.run(STA_ZP, 0)
                model.port(0, 0x2F)
            bus.cpu.a = value
            bus.run(store, addr)
            model.port(addr, value)
            bus.run(LDA_ZP, 1)
            assert bus.cpu.a == model.port_read(1)
            bus.run(LDA_ZP, 0)
            assert bus.cpu.a == model.port_read(0)
        elif kind == "read":
            addr = step[1]
            del bus.io[:]
            bus.run(LDA_ABS, addr)
            expected = model.read(addr)
            if expected == "io":
                assert bus.io == [("read", addr)]
            else:
                assert bus.cpu.a == expected and not bus.io, (hex(addr), model.shows(addr))
        elif kind == "write":
            addr, value = step[1:]
            del bus.io[:]
            bus.cpu.a = value
            bus.run(STA_ABS, addr)
            if model.shows(addr) == "io":
                assert bus.io == [("write", addr, value)]
            else:
                model.ram[addr] = value  # (with a ROM in view, the RAM below it)
                assert not bus.io
            assert bus.map.ram(addr) == model.ram[addr]
        elif kind == "fetch":  # an instruction of three bytes at addr (its operand read from the list)
            addr = step[1]
            bytes_ = [bus.fetch(addr)] + bus.memory[addr + 1 : addr + 3]
            for at, byte in zip(range(addr, 0x10000), bytes_):
                if model.shows(at) != "io":  # (the machine fetches from the registers there)
                    assert byte == model.read(at), (hex(addr), hex(at), model.shows(at))
        elif kind == "vector":
            addr = step[1] & 0xFFFE
            if model.shows(addr) != "io":
                assert bus.map.view(addr) == model.read(addr)
        else:
            bus.map.settle()
            for addr in range(0xA000, 0x10000, 0x1F3):
                if model.shows(addr) != "io":
                    assert bus.memory[addr] == model.read(addr)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 0xFF), st.sampled_from([0x34, 0x35, 0x36, 0x37]))
def test_an_indirect_jump_reads_its_pointer_where_the_cpu_sees_it(low, port):
    """JMP ($xxFF) takes its high byte from $xx00 of the same page (MCS6500 programming
    manual), through the map: a pointer below a ROM that is switched out is the RAM's."""
    bus = Bus()
    model = Model(bus.memory)
    for addr, value in ((0xA0FF, low), (0xA000, 0x12), (0xA100, 0x34), (0xE0FF, low), (0xE000, 0x56)):
        bus.map.poke(addr, bytes([value]))
        model.ram[addr] = value
    bus.cpu.a = port
    bus.run(STA_ZP, 1)
    model.port(1, port)
    for pointer in (0xA0FF, 0xE0FF):
        bus.run(JMP_IND, pointer)
        assert bus.cpu.pc == model.read(pointer) | model.read(pointer & 0xFF00) << 8
