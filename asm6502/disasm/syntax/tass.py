"""64tass source (64tass reference manual, v1.58): ``@w`` forces absolute addressing,
``.cpu "6502i"`` enables the undocumented opcodes, a petcat-convention ``.enc``
makes ``.text`` read like Profi-Ass's ``.asc``."""

from __future__ import annotations

from asm6502.disasm.model import Byte, Comment, Data, Instruction, Listing, Ref, Symbol
from asm6502.disasm.syntax.common import MODE_FORMAT, byte_text, columns, hex_number, ref_text, word_text
from asm6502.opcodes import Mode
from asm6502.petscii_text import petscii_to_ascii

#: petcat's convention as a 64tass encoding: a-z -> $41-$5A, A-Z -> $C1-$DA, the rest of $20-$5F as is
ENCODING = ('.enc "petcat"', '.cdef " @", $20, "az", $41, "[_", $5b, "AZ", $c1')


def _spell(symbol: Symbol) -> str:
    return symbol.name


def _group(text: str) -> str:
    return f"({text})"


def _operand(s: Instruction) -> str:
    if s.mode is Mode.ACCUMULATOR:
        return "a"
    if s.operand is None:
        return ""
    if isinstance(s.operand, Byte):
        text = byte_text(s.operand, _spell, _group)
    else:
        assert isinstance(s.operand, Ref)
        text = ref_text(s.operand, _spell)[0]
    return MODE_FORMAT[s.mode].format(("@w " if s.force_absolute else "") + text)


def _statement(s: Instruction | Data) -> str:
    if isinstance(s, Instruction):
        return f"{s.mnemonic} {_operand(s)}".rstrip()
    if s.kind == "text":
        return f'.text "{petscii_to_ascii(bytes(s.items))}"'
    if s.kind == "words":
        return ".word " + ", ".join(word_text(w, _spell) for w in s.items)
    return ".byte " + ", ".join(byte_text(b, _spell, _group) for b in s.items)


def render(listing: Listing) -> str:
    name = listing.title.rsplit(".", 1)[0] or "program"
    lines = [f"; {listing.title} - disassembled by asm6502 disasm", f"; {listing.traced_from}",
             f"; 64tass -o {name}.prg {name}.s", ""]
    if listing.cpu == "6502i":
        lines.append(columns(None, '.cpu "6502i"'))
    if listing.uses_text:
        lines += [columns(None, text) for text in ENCODING]
    lines += [f"{e.symbol.name} = {hex_number(e.value, 4 if e.value > 0xFF else 2)}" for e in listing.equates]
    lines.append(columns(None, f"* = {hex_number(listing.origin, 4)}"))
    for s in listing.body:
        if isinstance(s, Comment):
            lines.append(f"; {s.text}".rstrip() if s.text else "")
        else:
            lines.append(columns(s.label.name if s.label else None, _statement(s)))
    return "\n".join(lines) + "\n"
