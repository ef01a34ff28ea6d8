"""Expression text shared by the formatters (each passes its spelling of symbols)."""

from __future__ import annotations

from collections.abc import Callable

from asm6502.disasm.model import Byte, Ref, Symbol, Word
from asm6502.opcodes import Mode

Spell = Callable[[Symbol], str]

#: operand layout per addressing mode ({} = the expression)
MODE_FORMAT: dict[Mode, str] = {
    Mode.IMPLIED: "", Mode.ACCUMULATOR: "", Mode.IMMEDIATE: "#{}", Mode.RELATIVE: "{}",
    Mode.ZERO_PAGE: "{}", Mode.ZERO_PAGE_X: "{},x", Mode.ZERO_PAGE_Y: "{},y",
    Mode.ABSOLUTE: "{}", Mode.ABSOLUTE_X: "{},x", Mode.ABSOLUTE_Y: "{},y",
    Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y",
}


def hex_number(value: int, digits: int) -> str:
    return f"${value:0{digits}x}"


def offset_text(offset: int) -> str:
    return "" if offset == 0 else f"+{offset}" if offset > 0 else f"-{-offset}"


def ref_text(ref: Ref, spell: Spell, adjust: int = 0) -> tuple[str, bool]:
    """(text, compound): ``sym``, ``sym+2``, ``$1234``; compound when it has an operator."""
    if ref.symbol is None:
        return hex_number((ref.value + adjust) & 0xFFFF, ref.digits), False
    off = ref.offset + adjust
    return spell(ref.symbol) + offset_text(off), off != 0


def byte_text(b: Byte, spell: Spell, group: Callable[[str], str]) -> str:
    """A byte operand; ``group`` brackets a compound expression after ``<``/``>`` if the
    target assembler's precedence needs it (Profi-Ass's prefix applies to the whole expression)."""
    if b.ref is None or not b.part:
        return hex_number(b.value, 2)
    text, compound = ref_text(b.ref, spell, b.adjust)
    return b.part + (group(text) if compound else text)


def word_text(w: Word, spell: Spell) -> str:
    if w.ref is None:
        return str(w.value) if w.decimal else hex_number(w.value, 4)
    return ref_text(w.ref, spell, w.adjust)[0]


def columns(label: str | None, text: str, width: int = 16) -> str:
    """A 64tass/ACME line: the label in the first column, the statement at ``width``
    (a label that does not fit stands on a line of its own)."""
    if label is None:
        return " " * width + text
    if len(label) >= width:
        return label + "\n" + " " * width + text
    return label.ljust(width) + text
