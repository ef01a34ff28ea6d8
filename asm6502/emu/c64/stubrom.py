"""The project's own BASIC and KERNAL ROMs: what the C64 machine runs on without the user's.

The images are made here, not copied from a C64: every byte is the trap opcode ($02, a
JAM on the 6510, which the machine turns into a call of its owner's Python routine)
except

* the routines whose behaviour programs depend on as machine code -- the interrupt
  entries and exits, which programs reach through the vectors $0314/$0316/$0318 and
  chain to ($EA31, $EA81, $FEBC), written out as 6502 code below (the same instructions
  at the same addresses as KERNAL 901227-03, by its disassembly);
* the two texts of the BASIC ROM that programs print through STROUT (OK, ERROR);
* the hardware vectors at $FFFA-$FFFF.

The ROM routines themselves (``TRAPS``: CHROUT, CHRIN, GETIN, STROUT, the jiffy clock,
the end of SYS, BRK) are Python (``asm6502.emu.harness``): a trap costs one instruction
where the ROM's routine runs hundreds, and the keys and the output are the host's
anyway.  A call to any other ROM address (or a run into the ROM from RAM) lands on a
trap without a routine: the run stops naming the address.

``prepare`` leaves RAM and the chips as the KERNAL and BASIC leave them after the
power-on reset (RAMTAS, RESTOR, IOINIT, CINT and BASIC's cold start, KERNAL 901227-03):
the RAM vectors, the memory pointers, a cleared screen, the VIC-II's registers, and CIA 1's
timer A interrupting 60 times a second, so the jiffy clock runs and programs that chain
their interrupt code to the KERNAL's work as on a C64.  Facts: Mapping the Commodore 64
(the addresses), the KERNAL's disassembly (the values).
"""

from __future__ import annotations

from asm6502.c64map import ADDRESS, RAM_VECTORS
from asm6502.emu.c64.machine import C64, TRAP_OPCODE, RomImages

# ROM routines stood in for by traps (address: name); SYS_RETURN and BRK are the machine's
CHROUT = ADDRESS["chrout"]
CHRIN = ADDRESS["chrin"]
GETIN = ADDRESS["getin"]
STROUT = ADDRESS["strout"]
UDTIM = ADDRESS["udtim"]
# BASIC's SYS ($E12A) pushes $E146 before jumping to the routine, so its final RTS continues
# at $E147, which stores A/X/Y/P into $030C-$030F (SAREG..SPREG, Mapping)
SYS_RETURN = 0xE147
BRK_ENTRY = 0xFE66  # the KERNAL's BRK handler (warm start), the default of the vector $0316
RESET = 0xFCE2
TRAPS = {CHROUT: "CHROUT", CHRIN: "CHRIN", GETIN: "GETIN", STROUT: "STROUT", UDTIM: "UDTIM",
         SYS_RETURN: "SYS return", BRK_ENTRY: "BRK"}

IRQ_ENTRY = 0xFF48
IRQ_HANDLER = 0xEA31
IRQ_EXIT = 0xEA81
NMI_ENTRY = 0xFE43
NMI_HANDLER = 0xFE47
NMI_EXIT = 0xFEBC

# 6502 code of the stub KERNAL: (address, bytes) with each instruction spelled out
KERNAL_CODE: tuple[tuple[int, bytes], ...] = (
    # $FF48: the IRQ and BRK entry: save A, X, Y; the B flag in the pushed P tells BRK from IRQ
    (IRQ_ENTRY, bytes([
        0x48,              # PHA
        0x8A,              # TXA
        0x48,              # PHA
        0x98,              # TYA
        0x48,              # PHA
        0xBA,              # TSX
        0xBD, 0x04, 0x01,  # LDA $0104,X  (the P the interrupt pushed)
        0x29, 0x10,        # AND #$10
        0xF0, 0x03,        # BEQ $FF58
        0x6C, 0x16, 0x03,  # JMP ($0316)  BRK
        0x6C, 0x14, 0x03,  # JMP ($0314)  IRQ ($FF58)
    ])),
    # $EA31: the IRQ handler: the jiffy clock, then acknowledge CIA 1 (the real one also
    # blinks the cursor and scans the keyboard: keys come from the host here)
    (IRQ_HANDLER, bytes([
        0x20, 0xEA, 0xFF,  # JSR $FFEA  UDTIM
        0xAD, 0x0D, 0xDC,  # LDA $DC0D  (reading the ICR clears it)
        0x4C, 0x81, 0xEA,  # JMP $EA81
    ])),
    # $EA81 and $FEBC: restore Y, X, A and return from the interrupt
    (IRQ_EXIT, bytes([0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40])),  # PLA TAY PLA TAX PLA RTI
    (NMI_EXIT, bytes([0x68, 0xA8, 0x68, 0xAA, 0x68, 0x40])),
    # $FE43: the NMI entry, through the vector $0318
    (NMI_ENTRY, bytes([
        0x78,              # SEI
        0x6C, 0x18, 0x03,  # JMP ($0318)
    ])),
    # $FE47: the default NMI handler: save A, X, Y, acknowledge CIA 2, return
    (NMI_HANDLER, bytes([
        0x48, 0x8A, 0x48, 0x98, 0x48,  # PHA TXA PHA TYA PHA
        0xA9, 0x7F,        # LDA #$7F
        0x8D, 0x0D, 0xDD,  # STA $DD0D  (CIA 2's interrupts off)
        0xAC, 0x0D, 0xDD,  # LDY $DD0D  (and acknowledged)
        0x4C, 0xBC, 0xFE,  # JMP $FEBC
    ])),
    # the hardware vectors NMI, RESET, IRQ/BRK
    (0xFFFA, bytes([NMI_ENTRY & 0xFF, NMI_ENTRY >> 8, RESET & 0xFF, RESET >> 8,
                    IRQ_ENTRY & 0xFF, IRQ_ENTRY >> 8])),
)

# BASIC ROM texts that programs print via STROUT (BASIC ROM disassembly): $A364
# "CR O K CR", $A369 "  ERROR" (the messages of the READY/error printer).
BASIC_TEXTS: tuple[tuple[int, bytes], ...] = (
    (0xA364, bytes([0x0D, 0x4F, 0x4B, 0x0D, 0x00])),
    (0xA369, bytes([0x20, 0x20, 0x45, 0x52, 0x52, 0x4F, 0x52, 0x00])),
)


def _image(base: int, size: int, parts: tuple[tuple[int, bytes], ...]) -> bytes:
    image = bytearray([TRAP_OPCODE]) * size
    for addr, data in parts:
        image[addr - base : addr - base + len(data)] = data
    return bytes(image)


def images(chargen: bytes | None = None) -> RomImages:
    """The stub BASIC and KERNAL, with the user's character ROM if there is one (else none:
    ``has_chargen`` says so, and a picture of the screen shows no characters)."""
    return RomImages(_image(0xA000, 0x2000, BASIC_TEXTS), _image(0xE000, 0x2000, KERNAL_CODE),
                     chargen if chargen is not None else bytes(0x1000), stub=True)


# The VIC-II's registers $D000-$D02E as CINT writes them (KERNAL table at $ECB9): the
# screen on, 25 rows, Y scroll 3, the raster compare line $137, screen at $0400 and the
# upper-case characters ($D018 $14), light blue border on blue
VIC_INIT = bytes([0] * 17 + [0x9B, 0x37, 0, 0, 0, 0x08, 0, 0x14, 0x0F, 0, 0, 0, 0, 0, 0,
                  0x0E, 0x06, 0x01, 0x02, 0x03, 0x04, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x4C])
PAL_TIMER = 0x4025  # CIA 1 timer A: 1/60 s on a PAL C64 (IOINIT, $FDDD)
SCREEN = 0x0400
LIGHT_BLUE = 14  # COLOR $0286 after CINT: the text colour the cleared screen gets

# (address, value) of the KERNAL's and BASIC's variables after the cold start (Mapping)
VARIABLES: tuple[tuple[int, int], ...] = (
    (0x2B, 0x01), (0x2C, 0x08),  # TXTTAB: BASIC text at $0801
    (0x2D, 0x03), (0x2E, 0x08), (0x2F, 0x03), (0x30, 0x08), (0x31, 0x03), (0x32, 0x08),  # VARTAB, ARYTAB, STREND
    (0x33, 0x00), (0x34, 0xA0), (0x37, 0x00), (0x38, 0xA0),  # FRETOP, MEMSIZ: $A000
    (0x9A, 0x03),  # DFLTO: the screen
    (0xB2, 0x3C), (0xB3, 0x03),  # TAPE1: the cassette buffer $033C
    (0x0281, 0x00), (0x0282, 0x08), (0x0283, 0x00), (0x0284, 0xA0),  # MEMSTR, MEMSIZ of the KERNAL
    (0x0286, LIGHT_BLUE), (0x0288, SCREEN >> 8), (0x0289, 10), (0x028B, 4), (0x028F, 0x48), (0x0290, 0xEB),
)


def prepare(machine: C64) -> None:
    """RAM and chips as the KERNAL and BASIC leave them after the cold start (see above)."""
    mem = machine.memory
    mem[0x0002:0x0100] = [0] * 0xFE  # RAMTAS clears pages 0, 2 and 3 ($0002-$0101, $0200-$03FF)
    mem[0x0200:0x0400] = [0] * 0x200
    at, vectors = RAM_VECTORS
    mem[at : at + len(vectors)] = vectors
    for addr, value in VARIABLES:
        mem[addr] = value
    mem[0x0800:0x0803] = [0, 0, 0]  # NEW: an empty BASIC program
    mem[SCREEN : SCREEN + 1000] = [0x20] * 1000
    machine.color[:1000] = [LIGHT_BLUE] * 1000
    store = machine.store
    for i, value in enumerate(VIC_INIT):
        store(0xD000 + i, value)
    for addr, value in ((0xDC0D, 0x7F), (0xDD0D, 0x7F), (0xDC00, 0x7F), (0xDC02, 0xFF), (0xDC03, 0x00),
                        (0xDD00, 0x07), (0xDD02, 0x3F),  # VIC bank 0, the serial lines released
                        (0xDC04, PAL_TIMER & 0xFF), (0xDC05, PAL_TIMER >> 8),
                        (0xDC0D, 0x81), (0xDC0E, 0x11)):  # timer A's interrupt on; start it, loaded
        store(addr, value)
    store(0x0000, 0x2F)
    store(0x0001, 0x37)


def has_chargen(roms: RomImages) -> bool:
    return any(roms.chargen)
