"""The undocumented ("illegal") NMOS 6502 opcodes, enabled with ``--cpu 6502i``.

One literal table, with one mnemonic set: the names 64tass uses for its
"6502i" CPU (64tass reference manual, section "6502 illegal opcodes",
table "Additional opcodes").  64tass's aliases (AHX ALR AXS DCM INS ISC LAE
LAS LXA TAS XAA) are deliberately not accepted: one name per instruction.

Where an instruction exists at more than one opcode (the NOP family, JAM,
SBC $EB, ...), the table holds the one encoding 64tass emits, so the output
is byte-identical with ``64tass -i``.  Opcode facts: MOS MCS6502 die
behaviour as documented in "No More Secrets - NMOS 6510 Unintended Opcodes"
(groepaz, 2021).
"""

from __future__ import annotations

from asm6502.opcodes import Access, Mode

M = Mode
# fmt: off
UNDOCUMENTED: dict[str, dict[Mode, int]] = {
    "ANC": {M.IMMEDIATE: 0x0B},                      # AND #, then C = bit 7
    "ANE": {M.IMMEDIATE: 0x8B},                      # A = (A | magic) & X & #  (a.k.a. XAA)
    "ARR": {M.IMMEDIATE: 0x6B},                      # AND #, then ROR A (odd flags)
    "ASR": {M.IMMEDIATE: 0x4B},                      # AND #, then LSR A (a.k.a. ALR)
    "DCP": {M.INDEXED_INDIRECT: 0xC3, M.ZERO_PAGE: 0xC7, M.ABSOLUTE: 0xCF, M.INDIRECT_INDEXED: 0xD3,
            M.ZERO_PAGE_X: 0xD7, M.ABSOLUTE_Y: 0xDB, M.ABSOLUTE_X: 0xDF},  # DEC m, then CMP m
    "ISB": {M.INDEXED_INDIRECT: 0xE3, M.ZERO_PAGE: 0xE7, M.ABSOLUTE: 0xEF, M.INDIRECT_INDEXED: 0xF3,
            M.ZERO_PAGE_X: 0xF7, M.ABSOLUTE_Y: 0xFB, M.ABSOLUTE_X: 0xFF},  # INC m, then SBC m (a.k.a. ISC)
    "JAM": {M.IMPLIED: 0x02},                        # halts the CPU (also $12 $22 ... $F2)
    "LAX": {M.INDEXED_INDIRECT: 0xA3, M.ZERO_PAGE: 0xA7, M.IMMEDIATE: 0xAB, M.ABSOLUTE: 0xAF,
            M.INDIRECT_INDEXED: 0xB3, M.ZERO_PAGE_Y: 0xB7, M.ABSOLUTE_Y: 0xBF},  # LDA m + LDX m
    "LDS": {M.ABSOLUTE_Y: 0xBB},                     # A = X = S = m & S  (a.k.a. LAS)
    "NOP": {M.IMMEDIATE: 0x80, M.ZERO_PAGE: 0x04, M.ZERO_PAGE_X: 0x14, M.ABSOLUTE: 0x0C,
            M.ABSOLUTE_X: 0x1C},                     # reads the operand, does nothing
    "RLA": {M.INDEXED_INDIRECT: 0x23, M.ZERO_PAGE: 0x27, M.ABSOLUTE: 0x2F, M.INDIRECT_INDEXED: 0x33,
            M.ZERO_PAGE_X: 0x37, M.ABSOLUTE_Y: 0x3B, M.ABSOLUTE_X: 0x3F},  # ROL m, then AND m
    "RRA": {M.INDEXED_INDIRECT: 0x63, M.ZERO_PAGE: 0x67, M.ABSOLUTE: 0x6F, M.INDIRECT_INDEXED: 0x73,
            M.ZERO_PAGE_X: 0x77, M.ABSOLUTE_Y: 0x7B, M.ABSOLUTE_X: 0x7F},  # ROR m, then ADC m
    "SAX": {M.INDEXED_INDIRECT: 0x83, M.ZERO_PAGE: 0x87, M.ABSOLUTE: 0x8F, M.ZERO_PAGE_Y: 0x97},  # m = A & X
    "SBX": {M.IMMEDIATE: 0xCB},                      # X = (A & X) - #  (a.k.a. AXS)
    "SHA": {M.INDIRECT_INDEXED: 0x93, M.ABSOLUTE_Y: 0x9F},  # m = A & X & (H+1)  (a.k.a. AHX)
    "SHS": {M.ABSOLUTE_Y: 0x9B},                     # S = A & X, m = S & (H+1)  (a.k.a. TAS)
    "SHX": {M.ABSOLUTE_Y: 0x9E},                     # m = X & (H+1)
    "SHY": {M.ABSOLUTE_X: 0x9C},                     # m = Y & (H+1)
    "SLO": {M.INDEXED_INDIRECT: 0x03, M.ZERO_PAGE: 0x07, M.ABSOLUTE: 0x0F, M.INDIRECT_INDEXED: 0x13,
            M.ZERO_PAGE_X: 0x17, M.ABSOLUTE_Y: 0x1B, M.ABSOLUTE_X: 0x1F},  # ASL m, then ORA m
    "SRE": {M.INDEXED_INDIRECT: 0x43, M.ZERO_PAGE: 0x47, M.ABSOLUTE: 0x4F, M.INDIRECT_INDEXED: 0x53,
            M.ZERO_PAGE_X: 0x57, M.ABSOLUTE_Y: 0x5B, M.ABSOLUTE_X: 0x5F},  # LSR m, then EOR m
}
# fmt: on

#: Instructions whose result depends on the individual chip, temperature or
#: bus activity ("No More Secrets": ANE "highly unstable"; SHA/SHS/SHX/SHY
#: unstable in the high-byte AND and on page crossing).  The assembler warns
#: when they are used.  LAX #imm ($AB, "LXA") is just as unstable, but LAX in
#: its other modes is stable, so it is listed per opcode in UNSTABLE_OPCODES.
UNSTABLE: frozenset[str] = frozenset({"ANE", "SHA", "SHS", "SHX", "SHY"})

#: The unstable opcode bytes, including LAX #imm ($AB).
UNSTABLE_OPCODES: frozenset[int] = frozenset(
    {code for m in UNSTABLE for code in UNDOCUMENTED[m].values()} | {UNDOCUMENTED["LAX"][Mode.IMMEDIATE]}
)

# 20 mnemonics, 70 opcodes: the 64tass table (NOP and JAM once per mode, no SBC $EB duplicate)
assert len(UNDOCUMENTED) == 20 and sum(len(modes) for modes in UNDOCUMENTED.values()) == 70

#: how each undocumented instruction uses its operand ("No More Secrets": the RMW
#: combinations take the RMW timing, SAX and the SH* group the write timing, the rest
#: the read timing, page-crossing cycle included)
ACCESS: dict[str, Access] = {
    **dict.fromkeys(("DCP", "ISB", "RLA", "RRA", "SLO", "SRE"), Access.RMW),
    **dict.fromkeys(("SAX", "SHA", "SHS", "SHX", "SHY"), Access.WRITE),
    **dict.fromkeys(("ANC", "ANE", "ARR", "ASR", "LAX", "LDS", "NOP", "SBX"), Access.READ),
    "JAM": Access.OTHER,
}

#: The other encodings of the same instructions ("No More Secrets", opcode matrix):
#: the assembler never emits them (64tass does not), the CPU runs them all.
ALTERNATES: dict[int, tuple[str, Mode]] = {
    **dict.fromkeys((0x1A, 0x3A, 0x5A, 0x7A, 0xDA, 0xFA), ("NOP", M.IMPLIED)),
    **dict.fromkeys((0x82, 0x89, 0xC2, 0xE2), ("NOP", M.IMMEDIATE)),
    **dict.fromkeys((0x44, 0x64), ("NOP", M.ZERO_PAGE)),
    **dict.fromkeys((0x34, 0x54, 0x74, 0xD4, 0xF4), ("NOP", M.ZERO_PAGE_X)),
    **dict.fromkeys((0x3C, 0x5C, 0x7C, 0xDC, 0xFC), ("NOP", M.ABSOLUTE_X)),
    **dict.fromkeys((0x12, 0x22, 0x32, 0x42, 0x52, 0x62, 0x72, 0x92, 0xB2, 0xD2, 0xF2), ("JAM", M.IMPLIED)),
    0x2B: ("ANC", M.IMMEDIATE),
    0xEB: ("SBC", M.IMMEDIATE),
}
del M
assert len(ALTERNATES) == 35

#: Other names for the same instructions (64tass accepts them as aliases; asm6502 does not,
#: to keep one documented mnemonic set) -> the name used here.  For error messages.
ALIASES: dict[str, str] = {
    "AHX": "SHA", "ALR": "ASR", "AXS": "SBX", "DCM": "DCP", "INS": "ISB", "ISC": "ISB",
    "LAE": "LDS", "LAS": "LDS", "LXA": "LAX", "TAS": "SHS", "XAA": "ANE",
}
