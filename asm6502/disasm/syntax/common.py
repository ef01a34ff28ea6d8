"""The rendering shared by the formatters, driven by each assembler's :class:`Spelling`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from asm6502.cpu import Cpu
from asm6502.disasm.model import Byte, Comment, Data, Instruction, Listing, Ref, Symbol, Word
from asm6502.opcodes import Mode
from asm6502.petscii import petscii_to_ascii
from asm6502.tuples import named_tuple

Spell = Callable[[Symbol], str]

#: operand layout per addressing mode ({} = the expression)
MODE_FORMAT: dict[Mode, str] = {
    Mode.IMPLIED: "", Mode.ACCUMULATOR: "", Mode.IMMEDIATE: "#{}", Mode.RELATIVE: "{}",
    Mode.ZERO_PAGE: "{}", Mode.ZERO_PAGE_X: "{},x", Mode.ZERO_PAGE_Y: "{},y",
    Mode.ABSOLUTE: "{}", Mode.ABSOLUTE_X: "{},x", Mode.ABSOLUTE_Y: "{},y",
    Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y",
}


def columns(label: str | None, text: str, width: int = 16) -> str:
    """A 64tass/ACME line: the label in the first column, the statement at ``width``
    (a label that does not fit stands on a line of its own)."""
    if label is None:
        return " " * width + text
    if len(label) >= width:
        return label + "\n" + " " * width + text
    return label.ljust(width) + text


def semicolon_comment(text: str) -> str:
    """A 64tass/ACME comment line; an empty comment is an empty line."""
    return f"; {text}".rstrip() if text else ""


def long_name(symbol: Symbol) -> str:
    return symbol.name  # 64tass and ACME take the descriptive name


def parenthesized(text: str) -> str:
    return f"({text})"  # '<' and '>' bind tighter than '+' in 64tass and ACME


@named_tuple  # (a named tuple, not a dataclass: start-up, see disasm/model.py)
class Spelling:
    """What differs between the target assemblers; :func:`render` does the rest."""

    byte: str  # the data directives
    word: str
    text: str
    separator: str  # between data items
    origin: str  # the origin statement ({} = the address)
    head: Callable[[Listing, list[str]], list[str]]  # the lines before the body (given the body)
    spell: Spell = long_name  # a symbol's name
    group: Callable[[str], str] = parenthesized  # a compound expression after '<'/'>'
    accumulator: str = ""  # the operand in accumulator mode ('asl a')
    force_operand: str = ""  # in front of a forced absolute operand
    force_mnemonic: str = ""  # after the mnemonic of a forced absolute instruction
    renames: Mapping[tuple[str, Mode | None], str] = MappingProxyType({})  # (64tass name, mode or None) -> name
    line: Callable[[str | None, str], str] = columns  # label (or None) and statement -> line
    comment: Callable[[str], str] = semicolon_comment


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


def mnemonic_text(s: Instruction, sp: Spelling) -> str:
    m = sp.renames.get((s.mnemonic, s.mode)) or sp.renames.get((s.mnemonic, None)) or s.mnemonic
    return m + (sp.force_mnemonic if s.force_absolute else "")


def operand_text(s: Instruction, sp: Spelling) -> str:
    if s.mode is Mode.ACCUMULATOR:
        return sp.accumulator
    if s.operand is None:
        return ""
    if isinstance(s.operand, Byte):
        text = byte_text(s.operand, sp.spell, sp.group)
    else:
        assert isinstance(s.operand, Ref)
        text = ref_text(s.operand, sp.spell)[0]
    return MODE_FORMAT[s.mode].format((sp.force_operand if s.force_absolute else "") + text)


def statement_text(s: Instruction | Data, sp: Spelling) -> str:
    if isinstance(s, Instruction):
        return f"{mnemonic_text(s, sp)} {operand_text(s, sp)}".rstrip()
    if s.kind == "text":
        return f'{sp.text} "{petscii_to_ascii(bytes(s.items))}"'
    if s.kind == "words":
        return f"{sp.word} " + sp.separator.join(word_text(w, sp.spell) for w in s.items)
    return f"{sp.byte} " + sp.separator.join(byte_text(b, sp.spell, sp.group) for b in s.items)


def body_lines(listing: Listing, sp: Spelling) -> list[str]:
    """The equates, the origin and the statements."""
    lines = [f"{sp.spell(e.symbol)} = {hex_number(e.value, 4 if e.value > 0xFF else 2)}" for e in listing.equates]
    lines.append(sp.line(None, sp.origin.format(hex_number(listing.origin, 4))))
    for s in listing.body:
        if isinstance(s, Comment):
            lines.append(sp.comment(s.text))
        else:
            lines.append(sp.line(sp.spell(s.label) if s.label else None, statement_text(s, sp)))
    return lines


def source_lines(listing: Listing, sp: Spelling) -> list[str]:
    body = body_lines(listing, sp)
    return sp.head(listing, body) + body


def render(listing: Listing, sp: Spelling) -> str:
    return "\n".join(source_lines(listing, sp)) + "\n"


def banner(listing: Listing, command: str, cpu: str, text_setup: tuple[str, ...] = ()) -> list[str]:
    """The head of a 64tass/ACME source: what it is, how to assemble it (``command`` with
    ``{name}``), the directive for the undocumented opcodes, and what ``.text`` needs."""
    name = listing.title.rsplit(".", 1)[0] or "program"
    lines = [f"; {listing.title} - disassembled by asm6502 disasm", f"; {listing.traced_from}",
             "; " + command.format(name=name), ""]
    if listing.cpu == Cpu.NMOS_ILLEGAL:
        lines.append(columns(None, cpu))
    if listing.uses_text:
        lines += [columns(None, text) for text in text_setup]
    return lines
