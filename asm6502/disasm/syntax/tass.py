"""64tass source (64tass reference manual, v1.58): ``@w`` forces absolute addressing,
``.cpu "6502i"`` enables the undocumented opcodes, a petcat-convention ``.enc``
makes ``.text`` read like Profi-Ass's ``.asc``."""

from __future__ import annotations

from asm6502.cpu import Cpu
from asm6502.dialects import TASS as DIALECT
from asm6502.disasm.model import Listing
from asm6502.disasm.syntax.common import Spelling, banner
from asm6502.disasm.syntax.common import render as render_with

#: petcat's convention as a 64tass encoding: a-z -> $41-$5A, A-Z -> $C1-$DA, the rest of $20-$5F as is
ENCODING = ('.enc "petcat"', '.cdef " @", $20, "az", $41, "[_", $5b, "AZ", $c1')


def _head(listing: Listing, body: list[str]) -> list[str]:
    command = DIALECT.command.format(out="{name}.prg", src="{name}" + DIALECT.suffix)
    return banner(listing, command, DIALECT.cpu_directive.format(DIALECT.cpu_names[Cpu.NMOS_ILLEGAL]), ENCODING)


TASS = Spelling(byte=DIALECT.byte, word=DIALECT.word, text=DIALECT.text, separator=", ", origin=DIALECT.origin, head=_head,
                accumulator="a", force_operand=DIALECT.force_operand, force_mnemonic=DIALECT.force_mnemonic,
                renames=DIALECT.renames)


def render(listing: Listing) -> str:
    return render_with(listing, TASS)
