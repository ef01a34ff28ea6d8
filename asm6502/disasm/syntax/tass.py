"""64tass source (64tass reference manual, v1.58): ``@w`` forces absolute addressing,
``.cpu "6502i"`` enables the undocumented opcodes, a petcat-convention ``.enc``
makes ``.text`` read like Profi-Ass's ``.asc``."""

from __future__ import annotations

from asm6502.disasm.model import Listing
from asm6502.disasm.syntax.common import Spelling, banner
from asm6502.disasm.syntax.common import render as render_with

#: petcat's convention as a 64tass encoding: a-z -> $41-$5A, A-Z -> $C1-$DA, the rest of $20-$5F as is
ENCODING = ('.enc "petcat"', '.cdef " @", $20, "az", $41, "[_", $5b, "AZ", $c1')


def _head(listing: Listing, body: list[str]) -> list[str]:
    return banner(listing, "64tass -o {name}.prg {name}.s", '.cpu "6502i"', ENCODING)


TASS = Spelling(byte=".byte", word=".word", text=".text", separator=", ", origin="* = {}", head=_head,
                accumulator="a", force_operand="@w ")


def render(listing: Listing) -> str:
    return render_with(listing, TASS)
