"""ACME source (ACME 0.97 docs: AddrModes.txt, Illegals.txt): the ``+2`` mnemonic suffix
forces absolute addressing, ``!cpu nmos6502`` enables the undocumented opcodes (ACME's
names differ from 64tass's for five of them), ``!pet`` converts text in petcat's convention."""

from __future__ import annotations

from asm6502.disasm.model import Listing
from asm6502.disasm.syntax.common import Spelling, banner
from asm6502.disasm.syntax.common import render as render_with
from asm6502.opcodes import Mode

#: 64tass name (and mode, where it matters) -> ACME's mnemonic (Illegals.txt)
ACME_NAMES: dict[tuple[str, Mode | None], str] = {
    ("isb", None): "isc",
    ("asr", None): "alr",
    ("lds", None): "las",
    ("shs", None): "tas",
    ("lax", Mode.IMMEDIATE): "lxa",
}


def _head(listing: Listing, body: list[str]) -> list[str]:
    return banner(listing, "acme -f cbm -o {name}.prg {name}.a", "!cpu nmos6502")


ACME = Spelling(byte="!byte", word="!word", text="!pet", separator=", ", origin="* = {}", head=_head,
                force_mnemonic="+2", renames=ACME_NAMES)


def render(listing: Listing) -> str:
    return render_with(listing, ACME)
