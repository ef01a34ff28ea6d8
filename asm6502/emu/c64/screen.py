"""What the C64 shows: the text screen as Unicode text, and as a picture.

Text: screen codes (the bytes in screen memory) -> Unicode, by the tables of
``asm6502.petscii`` (``screen_code_char``).

Picture: the VIC-II's display drawn from memory the way the chip fetches it
(bank from CIA 2 port A, screen and character base from $D018, the
character ROM at $1000-$1FFF in banks 0 and 2), in standard text, multicolour
text, extended background colour, hires bitmap and multicolour bitmap modes,
with the border, 384 x 272 pixels like VICE's PAL screenshots.  Sprites are
not drawn.  Colours: Philip "Pepto" Timmermann's measured PAL palette.
"""

from __future__ import annotations

import struct
import zlib

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
def render(machine) -> list[bytearray]:
    """HEIGHT rows of WIDTH palette indices."""
    regs = machine.vic.regs
    border = regs[0x20] & 0x0F
    bg = [regs[0x21 + i] & 0x0F for i in range(4)]
    d011, d016 = regs[0x11], regs[0x16]
    ecm, bmm, mcm = bool(d011 & 0x40), bool(d011 & 0x20), bool(d016 & 0x10)
    rows = [bytearray([border]) * WIDTH for _ in range(HEIGHT)]
    if not d011 & 0x10:  # display off: border colour only
        return rows
    bank = vic_bank(machine)
    screen = screen_base(machine)
    chars = char_base(machine)
    bitmap = bank + (0x2000 if regs[0x18] & 0x08 else 0)
    color = machine.color
    for row in range(ROWS):
        for col in range(COLUMNS):
            cell = row * COLUMNS + col
            code = _vic_byte(machine, screen + cell)
            fg = color[cell] & 0x0F
            x0 = LEFT + col * 8
            for line in range(8):
                y = TOP + row * 8 + line
                if bmm:
                    data = _vic_byte(machine, bitmap + cell * 8 + line)
                    if mcm:
                        colours = (bg[0], code >> 4, code & 0x0F, fg)
                        pixels = _multicolour(data, colours)
                    else:
                        pixels = _hires(data, code >> 4, code & 0x0F)
                elif ecm:
                    data = _vic_byte(machine, chars + (code & 0x3F) * 8 + line)
                    pixels = _hires(data, fg, bg[code >> 6])
                else:
                    data = _vic_byte(machine, chars + code * 8 + line)
                    if mcm and fg & 0x08:
                        pixels = _multicolour(data, (bg[0], bg[1], bg[2], fg & 0x07))
                    else:
                        pixels = _hires(data, fg, bg[0])
                rows[y][x0 : x0 + 8] = pixels
    return rows


def _hires(data: int, fg: int, bg: int) -> bytes:
    return bytes(fg if data & (0x80 >> i) else bg for i in range(8))


def _multicolour(data: int, colours: tuple[int, int, int, int]) -> bytes:
    out = bytearray()
    for shift in (6, 4, 2, 0):
        c = colours[(data >> shift) & 3]
        out += bytes((c, c))
    return bytes(out)


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


def screenshot(machine) -> bytes:
    return png(render(machine))
