"""The NMOS 6502 instruction set: one literal table, everything else derived.

Source: MOS Technology MCS6500 Microcomputer Family Programming Manual (1976),
appendix B (instruction summary), and the MCS6502 datasheet opcode matrix.
56 mnemonics, 151 documented opcodes.
"""

from __future__ import annotations

from enum import Enum


class Mode(Enum):
    """Addressing modes, named as in the MCS6500 programming manual.

    The value is the operand size in bytes.
    """

    IMPLIED = ("implied", 0)
    ACCUMULATOR = ("accumulator", 0)
    IMMEDIATE = ("immediate", 1)
    ZERO_PAGE = ("zero page", 1)
    ZERO_PAGE_X = ("zero page,X", 1)
    ZERO_PAGE_Y = ("zero page,Y", 1)
    ABSOLUTE = ("absolute", 2)
    ABSOLUTE_X = ("absolute,X", 2)
    ABSOLUTE_Y = ("absolute,Y", 2)
    INDIRECT = ("indirect", 2)  # JMP ($nnnn) only
    INDEXED_INDIRECT = ("(zero page,X)", 1)  # ($nn,X)
    INDIRECT_INDEXED = ("(zero page),Y", 1)  # ($nn),Y
    RELATIVE = ("relative", 1)  # branches: signed 8-bit offset from the next instruction

    # Members are singletons: hash them by identity (in C) instead of Enum's
    # Python-level hash of the name; the assembler looks modes up constantly.
    __hash__ = object.__hash__

    @property
    def label(self) -> str:
        return self.value[0]

    @property
    def operand_size(self) -> int:
        return self.value[1]


M = Mode
# fmt: off
OPCODES: dict[str, dict[Mode, int]] = {
    "ADC": {M.IMMEDIATE: 0x69, M.ZERO_PAGE: 0x65, M.ZERO_PAGE_X: 0x75, M.ABSOLUTE: 0x6D, M.ABSOLUTE_X: 0x7D,
            M.ABSOLUTE_Y: 0x79, M.INDEXED_INDIRECT: 0x61, M.INDIRECT_INDEXED: 0x71},
    "AND": {M.IMMEDIATE: 0x29, M.ZERO_PAGE: 0x25, M.ZERO_PAGE_X: 0x35, M.ABSOLUTE: 0x2D, M.ABSOLUTE_X: 0x3D,
            M.ABSOLUTE_Y: 0x39, M.INDEXED_INDIRECT: 0x21, M.INDIRECT_INDEXED: 0x31},
    "ASL": {M.ACCUMULATOR: 0x0A, M.ZERO_PAGE: 0x06, M.ZERO_PAGE_X: 0x16, M.ABSOLUTE: 0x0E, M.ABSOLUTE_X: 0x1E},
    "BCC": {M.RELATIVE: 0x90},
    "BCS": {M.RELATIVE: 0xB0},
    "BEQ": {M.RELATIVE: 0xF0},
    "BIT": {M.ZERO_PAGE: 0x24, M.ABSOLUTE: 0x2C},
    "BMI": {M.RELATIVE: 0x30},
    "BNE": {M.RELATIVE: 0xD0},
    "BPL": {M.RELATIVE: 0x10},
    "BRK": {M.IMPLIED: 0x00},
    "BVC": {M.RELATIVE: 0x50},
    "BVS": {M.RELATIVE: 0x70},
    "CLC": {M.IMPLIED: 0x18},
    "CLD": {M.IMPLIED: 0xD8},
    "CLI": {M.IMPLIED: 0x58},
    "CLV": {M.IMPLIED: 0xB8},
    "CMP": {M.IMMEDIATE: 0xC9, M.ZERO_PAGE: 0xC5, M.ZERO_PAGE_X: 0xD5, M.ABSOLUTE: 0xCD, M.ABSOLUTE_X: 0xDD,
            M.ABSOLUTE_Y: 0xD9, M.INDEXED_INDIRECT: 0xC1, M.INDIRECT_INDEXED: 0xD1},
    "CPX": {M.IMMEDIATE: 0xE0, M.ZERO_PAGE: 0xE4, M.ABSOLUTE: 0xEC},
    "CPY": {M.IMMEDIATE: 0xC0, M.ZERO_PAGE: 0xC4, M.ABSOLUTE: 0xCC},
    "DEC": {M.ZERO_PAGE: 0xC6, M.ZERO_PAGE_X: 0xD6, M.ABSOLUTE: 0xCE, M.ABSOLUTE_X: 0xDE},
    "DEX": {M.IMPLIED: 0xCA},
    "DEY": {M.IMPLIED: 0x88},
    "EOR": {M.IMMEDIATE: 0x49, M.ZERO_PAGE: 0x45, M.ZERO_PAGE_X: 0x55, M.ABSOLUTE: 0x4D, M.ABSOLUTE_X: 0x5D,
            M.ABSOLUTE_Y: 0x59, M.INDEXED_INDIRECT: 0x41, M.INDIRECT_INDEXED: 0x51},
    "INC": {M.ZERO_PAGE: 0xE6, M.ZERO_PAGE_X: 0xF6, M.ABSOLUTE: 0xEE, M.ABSOLUTE_X: 0xFE},
    "INX": {M.IMPLIED: 0xE8},
    "INY": {M.IMPLIED: 0xC8},
    "JMP": {M.ABSOLUTE: 0x4C, M.INDIRECT: 0x6C},
    "JSR": {M.ABSOLUTE: 0x20},
    "LDA": {M.IMMEDIATE: 0xA9, M.ZERO_PAGE: 0xA5, M.ZERO_PAGE_X: 0xB5, M.ABSOLUTE: 0xAD, M.ABSOLUTE_X: 0xBD,
            M.ABSOLUTE_Y: 0xB9, M.INDEXED_INDIRECT: 0xA1, M.INDIRECT_INDEXED: 0xB1},
    "LDX": {M.IMMEDIATE: 0xA2, M.ZERO_PAGE: 0xA6, M.ZERO_PAGE_Y: 0xB6, M.ABSOLUTE: 0xAE, M.ABSOLUTE_Y: 0xBE},
    "LDY": {M.IMMEDIATE: 0xA0, M.ZERO_PAGE: 0xA4, M.ZERO_PAGE_X: 0xB4, M.ABSOLUTE: 0xAC, M.ABSOLUTE_X: 0xBC},
    "LSR": {M.ACCUMULATOR: 0x4A, M.ZERO_PAGE: 0x46, M.ZERO_PAGE_X: 0x56, M.ABSOLUTE: 0x4E, M.ABSOLUTE_X: 0x5E},
    "NOP": {M.IMPLIED: 0xEA},
    "ORA": {M.IMMEDIATE: 0x09, M.ZERO_PAGE: 0x05, M.ZERO_PAGE_X: 0x15, M.ABSOLUTE: 0x0D, M.ABSOLUTE_X: 0x1D,
            M.ABSOLUTE_Y: 0x19, M.INDEXED_INDIRECT: 0x01, M.INDIRECT_INDEXED: 0x11},
    "PHA": {M.IMPLIED: 0x48},
    "PHP": {M.IMPLIED: 0x08},
    "PLA": {M.IMPLIED: 0x68},
    "PLP": {M.IMPLIED: 0x28},
    "ROL": {M.ACCUMULATOR: 0x2A, M.ZERO_PAGE: 0x26, M.ZERO_PAGE_X: 0x36, M.ABSOLUTE: 0x2E, M.ABSOLUTE_X: 0x3E},
    "ROR": {M.ACCUMULATOR: 0x6A, M.ZERO_PAGE: 0x66, M.ZERO_PAGE_X: 0x76, M.ABSOLUTE: 0x6E, M.ABSOLUTE_X: 0x7E},
    "RTI": {M.IMPLIED: 0x40},
    "RTS": {M.IMPLIED: 0x60},
    "SBC": {M.IMMEDIATE: 0xE9, M.ZERO_PAGE: 0xE5, M.ZERO_PAGE_X: 0xF5, M.ABSOLUTE: 0xED, M.ABSOLUTE_X: 0xFD,
            M.ABSOLUTE_Y: 0xF9, M.INDEXED_INDIRECT: 0xE1, M.INDIRECT_INDEXED: 0xF1},
    "SEC": {M.IMPLIED: 0x38},
    "SED": {M.IMPLIED: 0xF8},
    "SEI": {M.IMPLIED: 0x78},
    "STA": {M.ZERO_PAGE: 0x85, M.ZERO_PAGE_X: 0x95, M.ABSOLUTE: 0x8D, M.ABSOLUTE_X: 0x9D, M.ABSOLUTE_Y: 0x99,
            M.INDEXED_INDIRECT: 0x81, M.INDIRECT_INDEXED: 0x91},
    "STX": {M.ZERO_PAGE: 0x86, M.ZERO_PAGE_Y: 0x96, M.ABSOLUTE: 0x8E},
    "STY": {M.ZERO_PAGE: 0x84, M.ZERO_PAGE_X: 0x94, M.ABSOLUTE: 0x8C},
    "TAX": {M.IMPLIED: 0xAA},
    "TAY": {M.IMPLIED: 0xA8},
    "TSX": {M.IMPLIED: 0xBA},
    "TXA": {M.IMPLIED: 0x8A},
    "TXS": {M.IMPLIED: 0x9A},
    "TYA": {M.IMPLIED: 0x98},
}
# fmt: on
del M

# --- derived tables -------------------------------------------------------

#: opcode byte -> (mnemonic, mode)
DECODE: dict[int, tuple[str, Mode]] = {
    code: (mnemonic, mode) for mnemonic, modes in OPCODES.items() for mode, code in modes.items()
}

BRANCHES: frozenset[str] = frozenset(m for m, modes in OPCODES.items() if Mode.RELATIVE in modes)

#: absolute-width mode -> its zero-page twin (the assembler picks the short form when it can)
ZERO_PAGE_FORM: dict[Mode, Mode] = {
    Mode.ABSOLUTE: Mode.ZERO_PAGE,
    Mode.ABSOLUTE_X: Mode.ZERO_PAGE_X,
    Mode.ABSOLUTE_Y: Mode.ZERO_PAGE_Y,
}


def instruction_size(mode: Mode) -> int:
    return 1 + mode.operand_size


# --- bus access and cycles ------------------------------------------------------
# How an instruction uses its operand's memory decides its cycle count in each mode
# (MCS6500 programming manual, appendix A; "64doc" by John West and Marko Makela,
# "6510 Instruction Timing"): a read takes the last cycle for the read, and an indexed
# read one more when the index carries into the high byte; a write always spends that
# cycle (it cannot know the carry in time); a read-modify-write reads, writes the old
# value back while it computes, then writes the new one.


class Access:
    """How an instruction uses its operand's memory: ``Access.READ``, ``WRITE``, ``RMW`` (read-modify-write) or
    ``OTHER`` (no operand in memory, or the operand is a jump target), one object each, told apart with ``is``
    (a copy or a pickle is the same object, as an Enum member's).  Not an Enum: making that class costs 0.7 M
    instructions of every assembly's start-up (bench/startup.py)."""

    __slots__ = ("name", "value")
    READ: Access
    WRITE: Access
    RMW: Access
    OTHER: Access

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    def __repr__(self) -> str:
        return f"<Access.{self.name}: {self.value!r}>"

    def __reduce__(self):
        return getattr, (Access, self.name)

    def __copy__(self) -> Access:
        return self

    def __deepcopy__(self, memo) -> Access:
        return self


Access.READ = Access("READ", "read")
Access.WRITE = Access("WRITE", "write")
Access.RMW = Access("RMW", "read-modify-write")
Access.OTHER = Access("OTHER", "other")


A = Access
#: mnemonic -> how it uses its operand (documented instructions)
ACCESS: dict[str, Access] = {
    **dict.fromkeys(("ADC", "AND", "BIT", "CMP", "CPX", "CPY", "EOR", "LDA", "LDX", "LDY", "ORA", "SBC"), A.READ),
    **dict.fromkeys(("STA", "STX", "STY"), A.WRITE),
    **dict.fromkeys(("ASL", "DEC", "INC", "LSR", "ROL", "ROR"), A.RMW),
}
del A

#: cycles of each memory mode by access (the same appendix)
MODE_CYCLES: dict[Access, dict[Mode, int]] = {
    Access.READ: {Mode.IMMEDIATE: 2, Mode.ZERO_PAGE: 3, Mode.ZERO_PAGE_X: 4, Mode.ZERO_PAGE_Y: 4, Mode.ABSOLUTE: 4,
                  Mode.ABSOLUTE_X: 4, Mode.ABSOLUTE_Y: 4, Mode.INDEXED_INDIRECT: 6, Mode.INDIRECT_INDEXED: 5,
                  Mode.IMPLIED: 2},
    Access.WRITE: {Mode.ZERO_PAGE: 3, Mode.ZERO_PAGE_X: 4, Mode.ZERO_PAGE_Y: 4, Mode.ABSOLUTE: 4,
                   Mode.ABSOLUTE_X: 5, Mode.ABSOLUTE_Y: 5, Mode.INDEXED_INDIRECT: 6, Mode.INDIRECT_INDEXED: 6},
    Access.RMW: {Mode.ACCUMULATOR: 2, Mode.ZERO_PAGE: 5, Mode.ZERO_PAGE_X: 6, Mode.ABSOLUTE: 6, Mode.ABSOLUTE_X: 7,
                 Mode.ABSOLUTE_Y: 7, Mode.INDEXED_INDIRECT: 8, Mode.INDIRECT_INDEXED: 8},
}
#: instructions without a memory operand that take more than two cycles
OTHER_CYCLES: dict[tuple[str, Mode], int] = {
    ("BRK", Mode.IMPLIED): 7, ("RTI", Mode.IMPLIED): 6, ("RTS", Mode.IMPLIED): 6, ("JSR", Mode.ABSOLUTE): 6,
    ("JMP", Mode.ABSOLUTE): 3, ("JMP", Mode.INDIRECT): 5, ("PHA", Mode.IMPLIED): 3, ("PHP", Mode.IMPLIED): 3,
    ("PLA", Mode.IMPLIED): 4, ("PLP", Mode.IMPLIED): 4,
}
#: modes in which a read takes one cycle more when the indexed address crosses a page
PAGE_CROSSING_MODES: frozenset[Mode] = frozenset({Mode.ABSOLUTE_X, Mode.ABSOLUTE_Y, Mode.INDIRECT_INDEXED})


def cycles(access: Access, mnemonic: str, mode: Mode) -> int:
    """The cycles an instruction takes (a taken branch: one more, two across a page;
    an indexed read across a page: one more, see ``PAGE_CROSSING_MODES``)."""
    if access is Access.OTHER:
        return OTHER_CYCLES.get((mnemonic, mode), 2)
    return MODE_CYCLES[access][mode]


assert len(OPCODES) == 56 and len(DECODE) == 151
