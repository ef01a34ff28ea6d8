"""The listing's rows, made from the layout entries' fields and pass 2's extras when asked for.

Pass 2 keeps the value of each '=' / '_' row; an instruction's or data entry's bytes are taken
from the object at its address (``address_space``), ``listed_values`` gives the values.
Result.listed gives each entry's "extra" -- its bytes or value -- with the entries' fields; the
rows are made from them only when asked for (Result.listing); the listing text
(asm6502/output.py) reads the columns, the bytes and the values directly (Result.listed_columns).
"""

from __future__ import annotations

from collections.abc import Iterator

from asm6502.asm.entries import FORWARD, MacroEnd, MacroLine
from asm6502.asm.pseudo import PAGE, PSEUDO_OPS, TITLE
from asm6502.asm.statements import Bad, Data, Define, Insn, Pseudo
from asm6502.diagnostics import Span
from asm6502.tuples import SlotRecord

NO_VALUE = 0xFFFFFFFF  # pass 2's number for a '=' row without a value (the values are 16 bits: expr.MAX)


class ListingRow(SlotRecord):
    """One row of the listing: one executed statement."""

    __slots__ = ("where", "address", "data", "text", "value", "page_break", "title", "macro", "definition")

    def __init__(self, where: Span | tuple, address: int | None, data: bytes, text: str,
                 value: int | None = None, page_break: bool = False, title: str | None = None,
                 macro: bool = False, definition: bool = False) -> None:  # fmt: skip
        self.where = where  # a Span, or (line, col, length) made into one on demand
        self.address = address
        self.data = data
        self.text = text  # the statement and its comment as written
        self.value = value  # for '=' / '_' rows: the value defined
        self.page_break = page_break
        self.title = title
        self.macro = macro  # a line of a macro expansion (the original lists it with '+')
        self.definition = definition  # a line recorded into a macro (the original lists it with "'")

    @property
    def span(self) -> Span:
        return as_span(self.where)

    @property
    def place(self) -> tuple[tuple[str, int], int | None]:
        """((file, line index), BASIC line number), without making a Span."""
        where = self.where
        if isinstance(where, Span):
            return (where.file, where.line), where.basic_line
        line = where[0]
        return (line.file, line.index), line.number


def as_span(where: Span | tuple) -> Span:
    """A Span from a Span or a lazy ``(line, col, length)``."""
    if isinstance(where, Span):
        return where
    line, col, length = where
    return Span(line.file, line.index, col, length, line.line_text, line.number)


def address_space(segments) -> bytes:
    """The 64 KB of addresses with the object's bytes (00 elsewhere).  A listed instruction's or data
    entry's bytes are its slice [pc, pc + size), its size as pass 1 laid it out (``entry_size``): a program
    assembled without error has one writer for each of its bytes, the entry that pass 2 encoded there
    (overlapping output is a REVERSAL error; a fatal error stops pass 2, and there is no listing then),
    and pass 2 writes each entry the bytes of pass 1's size at pass 1's address."""
    memory = bytearray(0x10000)
    for start, data in segments:
        memory[start : start + len(data)] = data
    return bytes(memory)


def entry_size(kind: type, size: int) -> int:
    """The bytes of an instruction (``kind`` Insn) or data entry of pass 1's ``size`` (an instruction's
    FORWARD: absolute, 3; a data entry's size is its bytes)."""
    return 3 if size == FORWARD and kind is Insn else size


def listed_values(defined) -> Iterator[int | None]:
    """The value of each '=' / '_' entry in order, from pass 2's ``defined`` (None: no value)."""
    return (None if value == NO_VALUE else value for value in defined)


def listing_rows(listed) -> tuple[ListingRow, ...]:
    """The rows of Result.listed's (rec, pc, line, stmt, local, extra) per layout entry."""
    shown: dict[int, tuple] = {}  # id(statement) -> its place and text (a statement in a loop or macro is listed many times)
    return tuple([row(rec, pc, line, stmt, local, extra, shown) for rec, pc, line, stmt, local, extra in listed])


def row(rec, pc, line, stmt, local, extra, shown: dict) -> ListingRow:
    place = shown.get(id(stmt)) if stmt is not None else place_and_text(line, None)
    if place is None:
        place = shown[id(stmt)] = place_and_text(line, stmt)
    where, text = place
    macro = local is not None
    kind = type(rec)
    # (fields: where, address, data, text, value, page_break, title, macro, definition)
    if kind is Insn or kind is Data:  # most rows
        return ListingRow(where, pc, extra, text, None, False, None, macro, False)
    if rec is None or kind is Bad:  # (an empty statement, after a ':', shows the address: probes rules/listing_*colon*;
        # so does a comment with blanks before it: ' ;x', rules/listing_*blank*_comment)
        return ListingRow(where, pc if rec is None and (not text or text[0] == " ") else None, b"", text, None, False, None, macro, False)
    if kind is Define:
        return ListingRow(where, None, b"", text, extra, False, None, macro, False)
    if kind is MacroLine:
        return ListingRow(where, None, b"", text, None, False, None, False, True)
    if kind is MacroEnd:  # (the definition's end as spelled, as a line of the call)
        return ListingRow(where, pc, b"", rec.spelling, None, False, None, True, False)
    if kind is Pseudo:
        listing = PSEUDO_OPS[rec.op].listing
        if listing == TITLE:
            return ListingRow(where, pc, b"", text, None, False, rec.args.strip('"'), macro, False)
        if listing == PAGE:
            return ListingRow(where, pc, b"", text, None, True, None, macro, False)
    return ListingRow(where, pc, b"", text, None, False, None, macro, False)  # other pseudo-ops, Origin, Label, MacroCall


def place_and_text(line, stmt) -> tuple[tuple, str]:
    """A statement's place (line, col, length) and its text as the listing shows it."""
    if stmt is None:
        return (line, 1, 1), ""
    return (line, stmt.col, max(1, len(stmt.text))), listed_text(line, stmt)


def with_comment(stmt) -> str:
    """A statement's text and its comment as a listing shows them (both are stripped)."""
    text = stmt.text
    if stmt.comment:
        return text + " " + stmt.comment if text else stmt.comment
    return text


def listed_text(line, stmt) -> str:
    """A statement's text as the listing shows it: with its comment, and with the blanks typed
    before a ';' or a ':' that follows (the original lists the operand as typed up to them:
    ``lda abcdefgh  ;x`` keeps both blanks; probes rules/listing_operand_*)."""
    if stmt is line and not stmt.comment:  # a line of one statement without a comment (one object: lines.PlainLine, SimpleLine)
        return "" if stmt.text == "^" else stmt.text  # ('^' alone: the up-arrow's indentation before nothing)
    if stmt.comment:
        text = stmt.text
        if not text or text == "^":  # (a comment with blanks before it, after a ':' or a '^', listed as ' ;x')
            return " " + stmt.comment if _blank_before_comment(line, stmt) else stmt.comment
        after = line.line_text[stmt.col - 1 + len(text) :]
        blanks = after[: len(after) - len(after.lstrip(" "))]
        return text + (blanks if after[len(blanks) : len(blanks) + 1] == ";" else " ") + stmt.comment
    text = stmt.text
    if text == "^":  # the up-arrow's indentation before nothing: an empty statement
        return ""
    if len(line.statements) > 1 and text:
        after = line.line_text[stmt.col - 1 + len(text) :]
        blanks = after[: len(after) - len(after.lstrip(" "))]
        if after[len(blanks) : len(blanks) + 1] == ":":
            text += blanks
    return text


def _blank_before_comment(line, stmt) -> bool:
    """Whether blanks stand before the ';' of a statement that is only a comment, after a ':' or
    a '^' (the original then lists the address and the comment in its column: ': ;x', '^  ;x';
    blanks after the line number are not there: BASIC drops them).  Probes rules/listing_*comment."""
    raw = line.line_text
    i = stmt.col - 1  # (the statement's first character: its '^', or the ';')
    if raw[i : i + 1] == "^":
        return raw[i + 1 : i + 2] in (" ", "\t")
    before = raw[:i]
    return before[-1:] in (" ", "\t") and before.rstrip(" \t").endswith(":")
