"""What an assembly is asked for (Options) and what it gives (Result, ListingRow)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from asm6502.diagnostics import Diagnostic, Span


@dataclass(frozen=True)
class Options:
    """How to assemble.  Frozen: the same options always give the same bytes."""

    cpu: str = "6502"  # "6502" (documented opcodes) or "6502i" (with undocumented ones)
    defines: tuple[tuple[str, int], ...] = ()  # -D name=value
    max_statements: int = 1_000_000  # guard against endless .goto loops (pass 1)
    include_dirs: tuple[str, ...] = ()  # -I: more directories for .file/.lst names
    disk: str | None = None  # --disk: a .d64 image that .file/.lst names are looked up in (after the directories)
    listing: bool = True  # keep the listing rows (Result.listing); off, a large program assembles faster


class ListingRow(NamedTuple):
    """One row of the listing: one executed statement."""

    where: Span | tuple  # a Span, or (SourceLine, col, length) made into one on demand
    address: int | None
    data: bytes
    text: str  # the statement and its comment as written
    value: int | None = None  # for '=' / '_' rows: the value defined
    page_break: bool = False
    title: str | None = None
    macro: bool = False  # a line of a macro expansion (the original lists it with '+')
    definition: bool = False  # a line recorded into a macro (the original lists it with "'")

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
    """A Span from a Span or a lazy ``(SourceLine, col, length)``."""
    if isinstance(where, Span):
        return where
    line, col, length = where
    return Span(line.file, line.index, col, length, line.text, line.number)


@dataclass(frozen=True)
class Result:
    segments: tuple[tuple[int, bytes], ...]  # (start, bytes) in address order, no overlaps
    symbols: dict[str, int]  # every symbol (case-folded, 8 significant characters) -> value
    labels: dict[str, int]  # the subset that names addresses (labels, not '=' constants)
    diagnostics: tuple[Diagnostic, ...]  # warnings (errors raise DiagnosticError)
    listing: tuple[ListingRow, ...]
    object_name: str | None = None  # '.opt o#': the name of the file OPENed as # before the start line
    listing_name: str | None = None  # '.opt p#' likewise, for the listing
    files: dict[str, bytes] = field(default_factory=dict)  # files the source writes ('.sst' symbol tables)
    symbol_table: tuple[tuple[str, int], ...] | None = None  # '.sym': (name, value) in the original's order
    macro_calls: tuple[tuple[str, int], ...] = ()  # (macro name, number of calls), for '.sym'

    @property
    def load_address(self) -> int:
        if not self.segments:
            raise ValueError("the program is empty")
        return self.segments[0][0]

    @property
    def end_address(self) -> int:
        """First address after the last byte (exclusive)."""
        start, data = self.segments[-1]
        return start + len(data)

    def gaps(self) -> list[tuple[int, int]]:
        """(start, length) of the holes between segments."""
        out = []
        for (s1, d1), (s2, _) in zip(self.segments, self.segments[1:]):
            if s1 + len(d1) < s2:
                out.append((s1 + len(d1), s2 - s1 - len(d1)))
        return out

    def image_with(self, fill: int = 0x00) -> bytes:
        base = self.load_address
        out = bytearray([fill]) * (self.end_address - base)
        for start, data in self.segments:
            out[start - base : start - base + len(data)] = data
        return bytes(out)

    @property
    def image(self) -> bytes:
        """Bytes from the load address to the end, gaps filled with $00 (as the original's file)."""
        return self.image_with(0x00)

    @property
    def prg(self) -> bytes:
        """C64 .prg: 2-byte little-endian load address, then the image."""
        return self.load_address.to_bytes(2, "little") + self.image
