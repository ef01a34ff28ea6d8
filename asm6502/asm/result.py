"""What an assembly is asked for (Options) and what it gives (Result, ListingRow)."""

from __future__ import annotations

from functools import cached_property
from itertools import repeat

from asm6502.asm import expr as ex
from asm6502.asm.entries import Entries
from asm6502.asm.pseudo import PSEUDO_OPS, WORDS
from asm6502.asm.rows import ListingRow, address_space, as_span, entry_size, listed_values, listing_rows
from asm6502.asm.statements import Data, Define, Insn
from asm6502.diagnostics import Diagnostic
from asm6502.tuples import SlotRecord

__all__ = ["ListingRow", "Options", "Result", "as_span"]  # (ListingRow and as_span live in rows.py)


class Options(SlotRecord):
    """How to assemble.  Immutable: the same options always give the same bytes.  (Options and
    Result are no dataclasses: importing dataclasses costs the command a few milliseconds.)"""

    __slots__ = ("cpu", "defines", "max_statements", "include_dirs", "disk", "listing", "case", "empty_ok", "precedence")

    def __init__(self, cpu: str = "6502", defines: tuple[tuple[str, int], ...] = (),
                 max_statements: int = 1_000_000, include_dirs: tuple[str, ...] = (),
                 disk: str | None = None, listing: bool = True, case: str = "lower", empty_ok: bool = False,
                 precedence: bool = True) -> None:  # fmt: skip
        self.cpu = cpu  # a name of asm6502.cpu.Cpu: "6502" (documented opcodes) or "6502i" (with undocumented ones)
        self.defines = defines  # -D name=value
        self.max_statements = max_statements  # guard against endless .goto loops (statements run in pass 1)
        self.include_dirs = include_dirs  # -I: more directories for .file/.lst names
        self.disk = disk  # --disk: a .d64 image that .file/.lst names are looked up in (after the directories)
        self.listing = listing  # keep the listing rows (Result.listing); off, a large program assembles faster
        # how letters were typed: "lower" (petcat's convention: a-z are the C64's unshifted letters,
        # A-Z the shifted ones) or "upper" (a listing printed in capitals: every letter is unshifted)
        self.case = case
        # a program without a single byte (definitions only, for their listing): a Result without segments
        # and a warning (the original assembles it: org/org_no_code) instead of the error "produces no bytes"
        self.empty_ok = empty_ok
        # a warning wherever an expression's value read left to right (as Profi-Ass reads it) differs from its value
        # with the usual operator precedence ('$0400+12*40': $A1E0, not $05E0)
        self.precedence = precedence

    def replace(self, **changes) -> Options:
        """The same options with the fields named changed."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return Options(**fields)


class Result:
    """An assembled program."""

    segments: tuple[tuple[int, bytes], ...]  # (start, bytes) in address order, no overlaps
    # symbols, labels: see the properties
    diagnostics: tuple[Diagnostic, ...]  # warnings (errors raise DiagnosticError)
    # listed: see the property
    object_name: str | None  # '.opt o#': the name of the file OPENed as # before the start line
    listing_name: str | None  # '.opt p#' likewise, for the listing
    files: dict[str, bytes]  # files the source writes ('.sst' symbol tables)
    symbol_table: tuple[tuple[str, int], ...] | None  # '.sym': (name, value) in the original's order
    macro_calls: tuple[tuple[str, int], ...]  # (macro name, number of calls), for '.sym'
    last_line: int | None  # the BASIC number of the last line read (the .end line): the listing's number of the start line's statements

    def __init__(self, segments, tables, diagnostics, listed, object_name=None, listing_name=None,
                 files=None, symbol_table=None, macro_calls=(), last_line=None, more_warnings=0):  # fmt: skip
        # tables: pass 1's (values, first spellings, kinds) by symbol key, from which ``symbols`` and
        # ``labels`` are made when first asked for (most runs of the command never ask)
        # listed: (pass 1's layout entries (entries.Entries), pass 2's value of each '=' entry (encode.Encoder.defined;
        # None without a listing))
        self.segments, self._tables, self.diagnostics, self._listed = segments, tables, diagnostics, listed
        self.object_name, self.listing_name, self.files = object_name, listing_name, {} if files is None else files
        self.symbol_table, self.macro_calls, self.last_line = symbol_table, macro_calls, last_line
        self.more_warnings = more_warnings  # warnings beyond the run's room (diagnostics.Kept): counted, not kept

    def __eq__(self, other) -> bool:  # (every field, with the listing rows instead of the pairs they are made from)
        if type(other) is not Result:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in _COMPARED) and self.listing == other.listing

    __hash__ = None  # (mutable dicts inside)

    def __repr__(self) -> str:
        return f"Result({', '.join(f'{f}={getattr(self, f)!r}' for f in _COMPARED)})"

    @cached_property
    def symbols(self) -> dict[str, int]:
        """Every symbol (its first spelling, lower case) -> value; macro-local labels left out."""
        values, spelling, _ = self._tables
        return {spelling.get(k, k): v for k, v in values.items() if ":" not in k}

    @cached_property
    def labels(self) -> dict[str, int]:
        """The symbols that name addresses (labels, not '=' constants)."""
        values, spelling, kinds = self._tables
        return {spelling.get(k, k): v for k, v in values.items() if kinds.get(k) == "label" and ":" not in k}

    @cached_property
    def addresses(self) -> dict[str, int]:
        """The symbols that name addresses: the labels, and the '=' constants that an instruction uses as an address
        ('sta runde', 'lda screen+1,x', 'lda #<table') or a '.wor' holds; not those used only as numbers
        ('zeile = 10' in 'ldx #zeile')."""
        values, spelling, kinds = self._tables
        used = _address_uses(self._listed[0].recs)
        return {spelling.get(k, k): v for k, v in values.items()
                if ":" not in k and (kinds.get(k) == "label" or kinds.get(k) == "const" and k in used)}

    @property
    def listed_columns(self) -> tuple:
        """(pass 1's Entries, the 64 KB of addresses with the object's bytes -- an instruction's or data entry's are
        its slice [pc, pc + rows.entry_size(kind, size)) --, an iterator of each '=' entry's value in order, None where
        none; the entries are empty without a listing): the listing text reads the columns, lines and statements
        included, without making their objects."""
        entries, defined = self._listed
        if defined is None:  # (no listing: no rows)
            return Entries(), b"", iter(())
        return entries, address_space(self.segments), listed_values(defined)

    @property
    def listed(self):
        """(rec, pc, line, stmt, local, bytes or value) per listed statement -- a layout entry's fields and its
        bytes (an instruction or data), its value ('=') or None -- in the order of the listing: an iterator."""
        entries, defined = self._listed
        if defined is None:
            return iter(())
        _, memory, values = self.listed_columns
        return map(_row_fields, entries.recs, entries.pcs, entries.sizes, entries.placed(every=False), entries.locals,
                   repeat(memory), repeat(values))  # fmt: skip

    @cached_property
    def listing(self) -> tuple[ListingRow, ...]:
        """One row per executed statement (empty unless Options.listing), made when first asked for."""
        return listing_rows(self.listed)

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


_COMPARED = ("segments", "symbols", "labels", "diagnostics", "object_name", "listing_name", "files", "symbol_table", "macro_calls")


def _row_fields(rec, pc, size, place, local, memory, values) -> tuple:
    """(rec, pc, line, stmt, local, extra) of a listed entry (its line and statement made on demand)."""
    kind = type(rec)
    if kind is Insn or kind is Data:
        extra = memory[pc : pc + entry_size(kind, size)]
    else:
        extra = next(values) if kind is Define else None
    return rec, pc, place[0], place[1], local, extra


def _address_uses(recs) -> set[str]:
    """The symbol keys that instructions use as addresses (any operand but an immediate one without '<' or '>')
    and '.wor' items hold (pointers)."""
    used: set[str] = set()
    seen: set[int] = set()  # (a record run many times, in a loop or macro, is looked at once)
    for rec in recs:
        if id(rec) in seen:
            continue
        seen.add(id(rec))
        if isinstance(rec, Insn):
            node = rec.expr
            if node is not None and (rec.shape.form != "immediate" or rec.shape.prefix in ("<", ">")):
                used.update(n.key for n in ex.walk(node) if type(n) is ex.Symbol)
        elif isinstance(rec, Data) and PSEUDO_OPS[rec.op].encode == WORDS:
            it = iter(rec.parts)
            for item, _prefix, _offset, _length in zip(it, it, it, it):
                if type(item) is not bytes:
                    used.update(n.key for n in ex.walk(item) if type(n) is ex.Symbol)
    return used
