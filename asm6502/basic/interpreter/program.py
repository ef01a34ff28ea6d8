"""A tokenized BASIC program as the interpreter reads it from .prg bytes.

Lines are found the way the ROM relinks a loaded program (LINKPRG $A533):
each line is a 2-byte link, a 2-byte line number and bytes up to $00; a link
whose high byte is 0 ends the program.  The stored links are not trusted.
"""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.diagnostics import DiagnosticError, Span, error


@dataclass(frozen=True)
class Line:
    number: int
    body: bytes  # tokenized bytes including the terminating $00
    address: int  # address of the line's link field


@dataclass(frozen=True)
class Program:
    load_address: int
    lines: tuple[Line, ...]
    end_address: int  # first byte after the $0000 end link

    def index_of(self, number: int) -> int | None:
        for i, line in enumerate(self.lines):
            if line.number == number:
                return i
        return None


def parse_prg(prg: bytes, *, filename: str = "<prg>") -> Program:
    """Split ``prg`` (2-byte load address + image) into lines."""
    if len(prg) < 2:
        raise DiagnosticError([error("file too short for a .prg (no 2-byte load address)", Span(filename, 1, 1, 0))])
    load = prg[0] | (prg[1] << 8)
    image = prg[2:]
    if load + len(image) >= 0x10000:  # VARTAB ($2D), the first byte after it, must be an address too
        raise DiagnosticError([error(f"loads at ${load:04X} with {len(image)} bytes: a program (and the variables "
                                     "after it) must end below $FFFF", Span(filename, 1, 1, 0))])
    lines: list[Line] = []
    offset = 0
    while True:
        if offset + 2 > len(image):
            break  # missing end link: treat the end of the file as the end
        if image[offset + 1] == 0:
            offset += 2
            break
        if offset + 4 > len(image):
            break
        number = image[offset + 2] | (image[offset + 3] << 8)
        end = image.find(b"\x00", offset + 4)
        if end < 0:
            raise DiagnosticError([error(f"line {number} at ${load + offset:04X} has no $00 terminator",
                                         Span(filename, 1, 1, 0))])
        lines.append(Line(number, bytes(image[offset + 4:end + 1]), load + offset))
        offset = end + 1
    return Program(load, tuple(lines), load + offset)
