"""Disassembler: a C64 program back to source that reassembles to the same bytes.

``disassemble(origin, memory, ...)`` traces the code from the entry points
(:mod:`.trace`), names the labels by role and the ROM/I/O addresses by their
usual names (:mod:`.layout`, :mod:`asm6502.c64map`) and writes the source in
Profi-Ass, 64tass or ACME syntax (:mod:`.syntax`).
"""

from __future__ import annotations

from asm6502.cpu import CPUS
from asm6502.disasm.basic_stub import find_stub
from asm6502.disasm.decode import decoder
from asm6502.disasm.layout import build
from asm6502.disasm.model import Listing
from asm6502.disasm.syntax import RENDERERS
from asm6502.disasm.syntax.profi import SourceTooLong
from asm6502.disasm.trace import Word, analyse

SYNTAXES = tuple(RENDERERS)

__all__ = ["CPUS", "SYNTAXES", "SourceTooLong", "disassemble", "listing"]


def listing(origin: int, memory: bytes, *, entries: list[int] | None = None, cpu: str = "6502",
            title: str = "program") -> Listing:
    """The program as statements.  ``entries`` None: the SYS address of a BASIC start line,
    else the load address; an empty list: no code at all (everything is data)."""
    if not memory:
        raise ValueError("the program is empty")
    if origin + len(memory) > 0x10000:
        raise ValueError(f"the program runs past $FFFF (${origin:04X} + {len(memory)} bytes)")
    stub = find_stub(memory, origin)
    if stub is not None and not origin <= stub.sys_address < origin + len(memory):
        stub = None  # SYS into ROM or elsewhere: not a start line for this program
    if entries is None:
        entries = [stub.sys_address] if stub else [origin]
    outside = [e for e in entries if not origin <= e < origin + len(memory)]
    if outside:
        raise ValueError(f"entry ${outside[0]:04X} is outside the program (${origin:04X}-${origin + len(memory) - 1:04X})")
    title = "".join(c if " " <= c <= "~" else "?" for c in title)  # it goes into comment lines
    dec = decoder(cpu)
    a = analyse(memory, origin, entries, dec)
    if stub is not None and not any(a.claimed(x) for x in range(origin, origin + 4)):
        link = a.word_at(origin)
        a.words[origin] = Word(link, pointer=link != 0)
        a.words[origin + 2] = Word(a.word_at(origin + 2), pointer=False)
    return build(a, dec, entries, title, cpu, stub)


def disassemble(origin: int, memory: bytes, *, syntax: str = "profi", entries: list[int] | None = None,
                cpu: str = "6502", title: str = "program") -> str:
    """Source text in ``syntax`` ("profi", "64tass" or "acme") that assembles to ``memory`` at ``origin``."""
    return RENDERERS[syntax](listing(origin, memory, entries=entries, cpu=cpu, title=title))
