"""ACME source (ACME 0.97 docs: AddrModes.txt, Illegals.txt): the ``+2`` mnemonic suffix
forces absolute addressing, ``!cpu nmos6502`` enables the undocumented opcodes (ACME's
names differ from 64tass's for five of them), ``!pet`` converts text in petcat's convention."""

from __future__ import annotations

from asm6502.cpu import Cpu
from asm6502.dialects import ACME as DIALECT
from asm6502.disasm.model import Listing
from asm6502.disasm.syntax.common import Spelling, banner
from asm6502.disasm.syntax.common import render as render_with

#: 64tass name (and mode, where it matters) -> ACME's mnemonic (asm6502/dialects.py)
ACME_NAMES = DIALECT.renames


def _head(listing: Listing, body: list[str]) -> list[str]:
    command = DIALECT.command.format(out="{name}.prg", src="{name}" + DIALECT.suffix)
    return banner(listing, command, DIALECT.cpu_directive.format(DIALECT.cpu_names[Cpu.NMOS_ILLEGAL]))


ACME = Spelling(byte=DIALECT.byte, word=DIALECT.word, text=DIALECT.text, separator=", ", origin=DIALECT.origin, head=_head,
                force_operand=DIALECT.force_operand, force_mnemonic=DIALECT.force_mnemonic, renames=ACME_NAMES)


def render(listing: Listing) -> str:
    return render_with(listing, ACME)
