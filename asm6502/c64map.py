"""The C64's memory map: ROM entry points, I/O registers and system locations, with their usual names.

The one home of these facts: the disassembler names addresses from ``ALL``, the emulators
(``emu.harness``, ``emu.c64``, the BASIC interpreter's screen) take their addresses from ``ADDRESS``.

Each row: (address, size in bytes, name, Profi-Ass name).  The first name is
the one 64tass and ACME sources use (descriptive, with ``_``); the second is
the register's name in the C64 Programmer's Reference Guide and in "Mapping
the Commodore 64" (S. Leemon, COMPUTE! 1984), which fits Profi-Ass's rules
(letters and digits, 8 significant characters).  ``size`` > 1 marks an area:
an address inside it is written ``name+offset``.

Sources, per table:

* KERNAL jump table $FF81-$FFF3: C64 Programmer's Reference Guide (1982),
  chapter 5 "User callable KERNAL routines".
* VIC-II $D000-$D02E: MOS 6567/6569 data sheet register map; names as in
  Mapping the C64, locations 53248-53294.
* SID $D400-$D41C: MOS 6581 data sheet; Mapping the C64, 54272-54300.
* CIA 1 $DC00-$DC0F and CIA 2 $DD00-$DD0F: MOS 6526 data sheet; Mapping the
  C64, 56320-56335 and 56576-56591.
* RAM and BASIC ROM locations: Mapping the C64 (the location's own entry).
"""

from __future__ import annotations

from asm6502.tuples import named_tuple


@named_tuple
class RomName:
    address: int
    size: int
    name: str  # 64tass / ACME
    short: str  # Profi-Ass (<= 8 characters, letters and digits)


def _same(address: int, name: str, size: int = 1) -> RomName:
    return RomName(address, size, name, name)


# fmt: off
KERNAL: tuple[RomName, ...] = tuple(_same(a, n) for a, n in (
    (0xFF81, "cint"), (0xFF84, "ioinit"), (0xFF87, "ramtas"), (0xFF8A, "restor"), (0xFF8D, "vector"),
    (0xFF90, "setmsg"), (0xFF93, "second"), (0xFF96, "tksa"), (0xFF99, "memtop"), (0xFF9C, "membot"),
    (0xFF9F, "scnkey"), (0xFFA2, "settmo"), (0xFFA5, "acptr"), (0xFFA8, "ciout"), (0xFFAB, "untlk"),
    (0xFFAE, "unlsn"), (0xFFB1, "listen"), (0xFFB4, "talk"), (0xFFB7, "readst"), (0xFFBA, "setlfs"),
    (0xFFBD, "setnam"), (0xFFC0, "open"), (0xFFC3, "close"), (0xFFC6, "chkin"), (0xFFC9, "chkout"),
    (0xFFCC, "clrchn"), (0xFFCF, "chrin"), (0xFFD2, "chrout"), (0xFFD5, "load"), (0xFFD8, "save"),
    (0xFFDB, "settim"), (0xFFDE, "rdtim"), (0xFFE1, "stop"), (0xFFE4, "getin"), (0xFFE7, "clall"),
    (0xFFEA, "udtim"), (0xFFED, "screen"), (0xFFF0, "plot"), (0xFFF3, "iobase"),
))

VIC: tuple[RomName, ...] = (
    RomName(0xD000, 1, "vic_spr0_x", "sp0x"), RomName(0xD001, 1, "vic_spr0_y", "sp0y"),
    RomName(0xD002, 1, "vic_spr1_x", "sp1x"), RomName(0xD003, 1, "vic_spr1_y", "sp1y"),
    RomName(0xD004, 1, "vic_spr2_x", "sp2x"), RomName(0xD005, 1, "vic_spr2_y", "sp2y"),
    RomName(0xD006, 1, "vic_spr3_x", "sp3x"), RomName(0xD007, 1, "vic_spr3_y", "sp3y"),
    RomName(0xD008, 1, "vic_spr4_x", "sp4x"), RomName(0xD009, 1, "vic_spr4_y", "sp4y"),
    RomName(0xD00A, 1, "vic_spr5_x", "sp5x"), RomName(0xD00B, 1, "vic_spr5_y", "sp5y"),
    RomName(0xD00C, 1, "vic_spr6_x", "sp6x"), RomName(0xD00D, 1, "vic_spr6_y", "sp6y"),
    RomName(0xD00E, 1, "vic_spr7_x", "sp7x"), RomName(0xD00F, 1, "vic_spr7_y", "sp7y"),
    RomName(0xD010, 1, "vic_spr_xmsb", "msigx"),
    RomName(0xD011, 1, "vic_ctrl1", "scroly"),
    RomName(0xD012, 1, "vic_raster", "raster"),
    RomName(0xD013, 1, "vic_lpen_x", "lpenx"),
    RomName(0xD014, 1, "vic_lpen_y", "lpeny"),
    RomName(0xD015, 1, "vic_spr_enable", "spena"),
    RomName(0xD016, 1, "vic_ctrl2", "scrolx"),
    RomName(0xD017, 1, "vic_spr_yexp", "yxpand"),
    RomName(0xD018, 1, "vic_memptr", "vmcsb"),
    RomName(0xD019, 1, "vic_irq", "vicirq"),
    RomName(0xD01A, 1, "vic_irq_mask", "irqmsk"),
    RomName(0xD01B, 1, "vic_spr_prio", "spbgpr"),
    RomName(0xD01C, 1, "vic_spr_mcolor", "spmc"),
    RomName(0xD01D, 1, "vic_spr_xexp", "xxpand"),
    RomName(0xD01E, 1, "vic_spr_coll", "spspcl"),
    RomName(0xD01F, 1, "vic_spr_bg_coll", "spbgcl"),
    RomName(0xD020, 1, "vic_border", "extcol"),
    RomName(0xD021, 1, "vic_bg0", "bgcol0"),
    RomName(0xD022, 1, "vic_bg1", "bgcol1"),
    RomName(0xD023, 1, "vic_bg2", "bgcol2"),
    RomName(0xD024, 1, "vic_bg3", "bgcol3"),
    RomName(0xD025, 1, "vic_spr_mc0", "spmc0"),
    RomName(0xD026, 1, "vic_spr_mc1", "spmc1"),
    RomName(0xD027, 1, "vic_spr0_color", "sp0col"), RomName(0xD028, 1, "vic_spr1_color", "sp1col"),
    RomName(0xD029, 1, "vic_spr2_color", "sp2col"), RomName(0xD02A, 1, "vic_spr3_color", "sp3col"),
    RomName(0xD02B, 1, "vic_spr4_color", "sp4col"), RomName(0xD02C, 1, "vic_spr5_color", "sp5col"),
    RomName(0xD02D, 1, "vic_spr6_color", "sp6col"), RomName(0xD02E, 1, "vic_spr7_color", "sp7col"),
)

SID: tuple[RomName, ...] = (
    RomName(0xD400, 1, "sid_v1_freq_lo", "frelo1"), RomName(0xD401, 1, "sid_v1_freq_hi", "frehi1"),
    RomName(0xD402, 1, "sid_v1_pw_lo", "pwlo1"), RomName(0xD403, 1, "sid_v1_pw_hi", "pwhi1"),
    RomName(0xD404, 1, "sid_v1_ctrl", "vcreg1"), RomName(0xD405, 1, "sid_v1_ad", "atdcy1"),
    RomName(0xD406, 1, "sid_v1_sr", "surel1"),
    RomName(0xD407, 1, "sid_v2_freq_lo", "frelo2"), RomName(0xD408, 1, "sid_v2_freq_hi", "frehi2"),
    RomName(0xD409, 1, "sid_v2_pw_lo", "pwlo2"), RomName(0xD40A, 1, "sid_v2_pw_hi", "pwhi2"),
    RomName(0xD40B, 1, "sid_v2_ctrl", "vcreg2"), RomName(0xD40C, 1, "sid_v2_ad", "atdcy2"),
    RomName(0xD40D, 1, "sid_v2_sr", "surel2"),
    RomName(0xD40E, 1, "sid_v3_freq_lo", "frelo3"), RomName(0xD40F, 1, "sid_v3_freq_hi", "frehi3"),
    RomName(0xD410, 1, "sid_v3_pw_lo", "pwlo3"), RomName(0xD411, 1, "sid_v3_pw_hi", "pwhi3"),
    RomName(0xD412, 1, "sid_v3_ctrl", "vcreg3"), RomName(0xD413, 1, "sid_v3_ad", "atdcy3"),
    RomName(0xD414, 1, "sid_v3_sr", "surel3"),
    RomName(0xD415, 1, "sid_cutoff_lo", "cutlo"), RomName(0xD416, 1, "sid_cutoff_hi", "cuthi"),
    RomName(0xD417, 1, "sid_resonance", "reson"), RomName(0xD418, 1, "sid_volume", "sigvol"),
    RomName(0xD419, 1, "sid_pot_x", "potx"), RomName(0xD41A, 1, "sid_pot_y", "poty"),
    RomName(0xD41B, 1, "sid_osc3", "random"), RomName(0xD41C, 1, "sid_env3", "env3"),
)

# The 16 registers of a 6526, in address order: (64tass/ACME suffix, Mapping's names for CIA 1, CIA 2)
_CIA_REGISTERS = (
    ("pra", "ciapra", "ci2pra"), ("prb", "ciaprb", "ci2prb"), ("ddra", "ciddra", "c2ddra"),
    ("ddrb", "ciddrb", "c2ddrb"), ("ta_lo", "timalo", "ti2alo"), ("ta_hi", "timahi", "ti2ahi"),
    ("tb_lo", "timblo", "ti2blo"), ("tb_hi", "timbhi", "ti2bhi"), ("tod_10th", "todten", "to2ten"),
    ("tod_sec", "todsec", "to2sec"), ("tod_min", "todmin", "to2min"), ("tod_hr", "todhrs", "to2hrs"),
    ("sdr", "ciasdr", "ci2sdr"), ("icr", "ciaicr", "ci2icr"), ("cra", "ciacra", "ci2cra"),
    ("crb", "ciacrb", "ci2crb"),
)
CIA: tuple[RomName, ...] = tuple(
    RomName(base + i, 1, f"{prefix}_{suffix}", (cia1, cia2)[n])
    for n, (base, prefix) in enumerate(((0xDC00, "cia1"), (0xDD00, "cia2")))
    for i, (suffix, cia1, cia2) in enumerate(_CIA_REGISTERS)
)

SYSTEM: tuple[RomName, ...] = (
    RomName(0x0000, 1, "cpu_ddr", "d6510"),        # 6510 on-chip port: data direction
    RomName(0x0001, 1, "cpu_port", "r6510"),       # 6510 on-chip port: memory configuration
    _same(0x0073, "chrget"),                       # BASIC: get next character of the program text
    _same(0x0079, "chrgot"),                       # BASIC: the current character again
    _same(0x0090, "status"),                       # KERNAL I/O status (ST)
    _same(0x00C5, "lstx"),                         # matrix code of the last key pressed
    RomName(0x00C6, 1, "kbd_count", "ndx"),        # characters in the keyboard buffer
    _same(0x00CB, "sfdx"),                         # matrix code of the key pressed now
    RomName(0x00D3, 1, "cursor_col", "pntr"),      # cursor column on the logical line
    RomName(0x00D6, 1, "cursor_row", "tblx"),      # cursor row
    RomName(0x0277, 10, "kbd_buffer", "keyd"),     # keyboard buffer (10 bytes)
    RomName(0x0286, 1, "text_color", "color"),     # current text colour
    _same(0x0288, "hibase"),                       # high byte of the screen memory for the editor
    _same(0x028D, "shflag"),                       # SHIFT/CTRL/Commodore key flags
    RomName(0x0314, 2, "irq_vector", "cinv"),      # IRQ vector (default $EA31)
    RomName(0x0316, 2, "brk_vector", "cbinv"),     # BRK vector
    RomName(0x0318, 2, "nmi_vector", "nminv"),     # NMI vector
    RomName(0x0400, 1000, "screen_ram", "scrram"), # default screen memory (40 x 25)
    RomName(0xD800, 1000, "color_ram", "colram"),  # colour RAM (40 x 25 nybbles)
    _same(0xA474, "ready"),                        # BASIC: print READY. and go to the main loop
    _same(0xAB1E, "strout"),                       # BASIC: print the 0-terminated string at A/Y
    _same(0xAD8A, "frmnum"),                       # BASIC: evaluate a numeric expression
    _same(0xAEFD, "chkcom"),                       # BASIC: check for and skip a comma
    _same(0xB79E, "getbyt"),                       # BASIC: evaluate an expression 0-255 into X
    _same(0xBDCD, "linprt"),                       # BASIC: print the unsigned integer in A (high) / X (low)
)
# fmt: on

# KERNAL and BASIC variables the emulators use that a disassembly does not name: programs use these
# zero-page bytes for their own data too (the tape buffer's and BASIC's pointers), so a name would mislead.
VARIABLES: tuple[RomName, ...] = (
    RomName(0x002B, 2, "basic_start", "txttab"),   # start of the BASIC program text
    RomName(0x002D, 2, "basic_vars", "vartab"),    # start of the BASIC variables (end of the program)
    RomName(0x0099, 1, "input_device", "dfltn"),   # default input device (0 = keyboard)
    RomName(0x009A, 1, "output_device", "dflto"),  # default output device (3 = screen)
    RomName(0x00A0, 3, "jiffy_clock", "time"),     # jiffies since power-on (or TI$), high byte first
    RomName(0x00CC, 1, "cursor_blink", "blnsw"),   # 0 = the cursor blinks (the editor waits for a key)
    RomName(0x00D0, 1, "input_from_screen", "crsw"),  # CHRIN reads the line from the screen
    RomName(0x0289, 1, "kbd_size", "xmax"),        # size of the keyboard buffer
    RomName(0x030C, 1, "sys_a", "sareg"),          # A for SYS, and after it (X, Y, P follow)
)

ALL: tuple[RomName, ...] = KERNAL + VIC + SID + CIA + SYSTEM

# an address by its Profi-Ass (Mapping the C64) name: ADDRESS["chrout"] == 0xFFD2
ADDRESS: dict[str, int] = {row.short: row.address for row in ALL + VARIABLES}

# The RAM vectors $0314-$0333 as the KERNAL's RESTOR sets them at the cold start (its table at
# $FD30): IRQ $EA31, BRK $FE66, NMI $FE47, OPEN ... SAVE (Mapping, $0314-$0333)
RAM_VECTORS = (0x0314, bytes([0x31, 0xEA, 0x66, 0xFE, 0x47, 0xFE, 0x4A, 0xF3, 0x91, 0xF2, 0x0E, 0xF2,
                              0x50, 0xF2, 0x33, 0xF3, 0x57, 0xF1, 0xCA, 0xF1, 0xED, 0xF6, 0x3E, 0xF1,
                              0x2F, 0xF3, 0x66, 0xFE, 0xA5, 0xF4, 0xED, 0xF5]))

BASIC_ROM = (0xA000, 0xBFFF)  # the BASIC ROM's addresses, first and last (PRG, memory map)
IO_AREA = (0xD000, 0xDFFF)  # I/O registers and colour RAM, or the character ROM
KERNAL_ROM = (0xE000, 0xFFFF)

_BY_ADDRESS: dict[int, RomName] = {row.address: row for row in ALL}


def lookup(address: int) -> tuple[RomName, int] | None:
    """The name for ``address`` and the offset into it (0 for an exact match), or None."""
    row = _BY_ADDRESS.get(address)
    if row is not None:
        return row, 0
    for row in ALL:
        if row.size > 1 and row.address < address < row.address + row.size:
            return row, address - row.address
    return None
