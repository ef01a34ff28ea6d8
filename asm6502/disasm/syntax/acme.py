"""ACME source (ACME 0.97 docs: AddrModes.txt, Illegals.txt): the ``+2`` mnemonic suffix
forces absolute addressing, ``!cpu nmos6502`` enables the undocumented opcodes (ACME's
names differ from 64tass's for five of them), ``!pet`` converts text in petcat's convention."""

from __future__ import annotations

from asm6502.disasm.model import Byte, Comment, Data, Instruction, Listing, Ref, Symbol
from asm6502.disasm.syntax.common import MODE_FORMAT, byte_text, columns, hex_number, ref_text, word_text
from asm6502.opcodes import Mode
from asm6502.petscii_text import petscii_to_ascii

#: 64tass name (and mode, where it matters) -> ACME's mnemonic (Illegals.txt)
ACME_NAMES: dict[tuple[str, Mode | None], str] = {
    ("isb", None): "isc",
    ("asr", None): "alr",
    ("lds", None): "las",
    ("shs", None): "tas",
    ("lax", Mode.IMMEDIATE): "lxa",
}


def _spell(symbol: Symbol) -> str:
    return symbol.name


def _group(text: str) -> str:
    return f"({text})"


def _mnemonic(s: Instruction) -> str:
    m = ACME_NAMES.get((s.mnemonic, s.mode)) or ACME_NAMES.get((s.mnemonic, None)) or s.mnemonic
    return m + ("+2" if s.force_absolute else "")


def _operand(s: Instruction) -> str:
    if s.operand is None:
        return ""
    if isinstance(s.operand, Byte):
        text = byte_text(s.operand, _spell, _group)
    else:
        assert isinstance(s.operand, Ref)
        text = ref_text(s.operand, _spell)[0]
    return MODE_FORMAT[s.mode].format(text)


def _statement(s: Instruction | Data) -> str:
    if isinstance(s, Instruction):
        return f"{_mnemonic(s)} {_operand(s)}".rstrip()
    if s.kind == "text":
        return f'!pet "{petscii_to_ascii(bytes(s.items))}"'
    if s.kind == "words":
        return "!word " + ", ".join(word_text(w, _spell) for w in s.items)
    return "!byte " + ", ".join(byte_text(b, _spell, _group) for b in s.items)


def render(listing: Listing) -> str:
    name = listing.title.rsplit(".", 1)[0] or "program"
    lines = [f"; {listing.title} - disassembled by asm6502 disasm", f"; {listing.traced_from}",
             f"; acme -f cbm -o {name}.prg {name}.a", ""]
    if listing.cpu == "6502i":
        lines.append(columns(None, "!cpu nmos6502"))
    lines += [f"{e.symbol.name} = {hex_number(e.value, 4 if e.value > 0xFF else 2)}" for e in listing.equates]
    lines.append(columns(None, f"* = {hex_number(listing.origin, 4)}"))
    for s in listing.body:
        if isinstance(s, Comment):
            lines.append(f"; {s.text}".rstrip() if s.text else "")
        else:
            lines.append(columns(s.label.name if s.label else None, _statement(s)))
    return "\n".join(lines) + "\n"
