"""The disassembly as statements, independent of any assembler's syntax.

The formatters (``asm6502/disasm/syntax/``) turn these into text.  The records are named tuples,
not dataclasses: importing ``dataclasses`` (with ``inspect``) costs the command 42 M instructions of
its start-up (bench/README.md).
"""

from __future__ import annotations

from asm6502.opcodes import Mode
from asm6502.tuples import named_tuple


@named_tuple
class Symbol:
    name: str  # 64tass / ACME spelling
    short: str  # Profi-Ass spelling: letters and digits, at most 8 characters


@named_tuple
class Ref:
    """An address: ``symbol+offset``, or a bare number printed with ``digits`` hex digits."""

    value: int
    symbol: Symbol | None = None
    offset: int = 0
    digits: int = 4


@named_tuple
class Byte:
    """A byte operand: a number, or the low (``<``) / high (``>``) byte of ``ref + adjust``."""

    value: int
    part: str = ""
    ref: Ref | None = None
    adjust: int = 0


@named_tuple
class Word:
    """A ``.wor`` item: ``ref + adjust`` (adjust -1 in RTS-trick tables), or a bare number."""

    value: int
    ref: Ref | None = None
    adjust: int = 0
    decimal: bool = False  # a plain number written in decimal (a BASIC line number)


@named_tuple
class Equate:
    symbol: Symbol
    value: int


@named_tuple
class Instruction:
    address: int
    label: Symbol | None
    mnemonic: str  # lower case, 64tass names
    mode: Mode
    operand: Ref | Byte | None
    force_absolute: bool = False


@named_tuple
class Data:
    address: int
    label: Symbol | None
    kind: str  # "bytes", "text" (PETSCII, see TEXT_BYTES), "words"
    items: tuple  # Byte items, the text's bytes, or Word items


@named_tuple
class Comment:
    text: str  # never contains ':' (it would end a Profi-Ass comment)


@named_tuple
class Listing:
    title: str  # the program's file name (no directories)
    origin: int
    end: int  # the first address after the program
    cpu: str
    entries: tuple[int, ...]  # where the code was traced from
    equates: tuple[Equate, ...]
    body: tuple[Instruction | Data | Comment, ...]

    @property
    def traced_from(self) -> str:
        """A header line saying where the code was traced from."""
        if not self.entries:
            return "no code traced - every byte is data"
        return "code traced from " + ", ".join(f"${e:04x}" for e in self.entries)

    @property
    def uses_text(self) -> bool:
        return any(isinstance(s, Data) and s.kind == "text" for s in self.body)


#: Bytes written as text: PETSCII that reads the same in petcat's convention in all three
#: syntaxes (Profi-Ass .asc, 64tass with a petcat .enc, ACME !pet): $20-$5F without the
#: quote and the pound sign (``\`` starts an escape sequence in ACME 0.97 strings), and the
#: shifted letters $C1-$DA (upper case in the source).
TEXT_BYTES: frozenset[int] = frozenset(set(range(0x20, 0x60)) - {0x22, 0x5C}) | frozenset(range(0xC1, 0xDB))
