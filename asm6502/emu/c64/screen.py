"""What the C64 shows: the text screen as Unicode text, and as a picture.

Text: screen codes (the bytes in screen memory) -> Unicode, by the tables of
``asm6502.petscii`` (``screen_code_char``).

Picture: the VIC-II's display drawn from memory the way the chip fetches it
(bank from CIA 2 port A, screen and character base from $D018, the
character ROM at $1000-$1FFF in banks 0 and 2), in standard text, multicolour
text, extended background colour, hires bitmap and multicolour bitmap modes,
with the border and sprites, 384 x 272 pixels like VICE's PAL screenshots, line
by line as the raster drew them (``vicdraw``).  Colours: Philip "Pepto" Timmermann's measured PAL palette.
"""

from __future__ import annotations

import struct
import zlib

from asm6502.emu.c64 import vicdraw, vicframe
from asm6502.petscii import screen_code_char

COLUMNS, ROWS = 40, 25
WIDTH, HEIGHT = 384, 272
LEFT, TOP = 32, 35  # border widths left/top (VICE's default PAL screenshot)

# Pepto's PAL VIC-II palette (www.pepto.de/projects/colorvic/)
PALETTE: tuple[tuple[int, int, int], ...] = (
    (0x00, 0x00, 0x00), (0xFF, 0xFF, 0xFF), (0x68, 0x37, 0x2B), (0x70, 0xA4, 0xB2),
    (0x6F, 0x3D, 0x86), (0x58, 0x8D, 0x43), (0x35, 0x28, 0x79), (0xB8, 0xC7, 0x6F),
    (0x6F, 0x4F, 0x25), (0x43, 0x39, 0x00), (0x9A, 0x67, 0x59), (0x44, 0x44, 0x44),
    (0x6C, 0x6C, 0x6C), (0x9A, 0xD2, 0x84), (0x6C, 0x5E, 0xB5), (0x95, 0x95, 0x95),
)

def vic_bank(machine) -> int:
    cia2 = machine.cia2.regs
    out = cia2[0] | (~cia2[2] & 0xFF)
    return (3 - (out & 3)) * 0x4000


def screen_base(machine) -> int:
    return vic_bank(machine) + (machine.vic.regs[0x18] >> 4) * 0x400


def char_base(machine) -> int:
    return vic_bank(machine) + ((machine.vic.regs[0x18] >> 1) & 7) * 0x800


def _vic_byte(machine, addr: int) -> int:
    """A byte as the VIC reads it: the character ROM at $1000-$1FFF of banks 0 and 2."""
    if addr & 0x7000 == 0x1000:
        return machine.chargen[addr & 0x0FFF]
    return machine.ram(addr)


def lower_case(machine) -> bool:
    """The text uses the lower/upper case character set ($D018 bit 1 with the ROM)."""
    return bool(machine.vic.regs[0x18] & 0x02)


def screen_codes(machine) -> list[list[int]]:
    base = screen_base(machine)
    return [[_vic_byte(machine, base + row * COLUMNS + col) for col in range(COLUMNS)] for row in range(ROWS)]


def screen_lines(machine) -> list[str]:
    """The 25 lines of the text screen, trailing blanks removed."""
    lower = lower_case(machine)
    return ["".join(screen_code_char(c, lower) for c in row).rstrip(" ") for row in screen_codes(machine)]


def screen_text(machine) -> str:
    lines = screen_lines(machine)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


# --- the picture -------------------------------------------------------------------
#: what a picture on the stub ROMs lacks (said beside every screenshot taken without the character ROM)
NO_CHARGEN = ("drawn without the C64's character ROM: border, background, bitmaps and colours "
              "as the VIC-II shows them, but no characters (give the ROM images with --roms)")


def render(machine, cycle: int | None = None) -> list[bytearray]:
    """HEIGHT rows of WIDTH palette indices: the picture on the monitor at *cycle* (default:
    now) -- the lines the raster has drawn in this frame, the rest of the previous frame,
    each line drawn from the registers in force as the raster passed it
    (``vicdraw``: mid-line writes from the column their cycle reaches)."""
    vic = machine.vic
    now = machine.cpu.cycles if cycle is None else cycle
    current, previous = vic.frames_for_picture(now)
    split = min((now - current.cycle) // vicframe.CYCLES_PER_LINE, vicframe.LINES)
    rows: list[bytearray] = []
    for log, first, last, until in ((current, 0, split, now), (previous, split, vicframe.LINES, 1 << 62)):
        drawer = vicdraw.LineDrawer(log, vic.memory, machine.color, vic.model, vic.timed)
        for line in range(last):
            drawer.step()
            if line >= first and vicdraw.FIRST_LINE <= line < vicdraw.FIRST_LINE + HEIGHT:
                rows.append(vicdraw.draw_line(drawer, until))
            drawer.finish_line()
    return rows


def side_by_side(pictures: list[list[bytearray]]) -> list[bytearray]:
    """Pictures of the same height in one row, left to right (an animation's frames as a strip)."""
    return [bytearray().join(p[y] for p in pictures) for y in range(len(pictures[0]))]


def png(rows: list[bytearray], palette=PALETTE) -> bytes:
    """An 8-bit palette PNG (PNG specification, ISO/IEC 15948): signature, IHDR,
    PLTE, one IDAT (filter 0 on every row, zlib level 9), IEND.  No time stamp,
    so the same picture gives the same bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    height, width = len(rows), len(rows[0])
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    plte = b"".join(bytes(c) for c in palette)
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"PLTE", plte)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def screenshot(machine, settled: bool = False) -> bytes:
    """The PNG of ``render``.  *settled*: the program has ended and nothing changes the chips any
    more (a SYS run that returned): the whole next frame, drawn from the registers as it left
    them, as a monitor shows it from then on."""
    now = machine.cpu.cycles
    return png(render(machine, now + vicframe.CYCLES_PER_LINE * vicframe.LINES if settled else None))
