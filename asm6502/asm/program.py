"""The value pass 1 hands on: :class:`Program`.

Pass 2 (encode.py), the checks after it (pipeline.py), the listing and ``convert`` read the
program from this value only -- its entries (one per executed statement), its symbols, the
macros that ran, what the source asked of the output, and pass 1's diagnostics -- never the
pass's own state.
"""

from __future__ import annotations

from array import array

from asm6502.asm.decode import Decoder
from asm6502.asm.entries import Entries, Macro
from asm6502.asm.lines import Lines
from asm6502.asm.result import Options
from asm6502.asm.symbols import place_of, spelling_of
from asm6502.diagnostics import Diagnostic, Kept


class Program:
    """What pass 1 made of a source.  (A class of slots, not a dataclass: the dataclasses module is not
    among the command's start-up imports.)"""

    __slots__ = ("options", "entries", "decoder", "sources", "values", "symbols", "spelling", "order", "definition_labels", "skipped_labels", "places", "place_refs", "macros", "macro_order", "call_ends", "opens", "object_lfn", "object_buffer", "listing_lfn", "symbol_listing", "symbol_memory", "sst", "last_line", "diagnostics", "kept", "positions")

    options: Options
    entries: Entries  # one per executed statement, in the order they ran (entries.py)
    decoder: Decoder  # the statement records by text, and their expressions (convert reads texts that did not run)
    sources: dict[str, tuple[Lines, int]]  # each file run (the main source, a .file chain's) -> its lines, its start line
    # the symbols: values as pass 1 ends, kinds, first spellings, the order the original makes them in
    values: dict[str, int]
    symbols: dict[str, str]  # key -> its kind: "label", "const", "var" or "param" (symbols.py)
    spelling: dict[str, str]  # key -> its first full spelling where that is not the key
    order: list[str]
    definition_labels: dict[str, int]  # 'name:00' -> its offset in its macro's definition
    skipped_labels: dict[str, int]  # the label of a statement skipped for its error -> that error's index in diagnostics
    places: dict[str, tuple]  # where each symbol was first defined (symbols.py: place_of)
    place_refs: array
    macros: dict[str, Macro]  # key -> the macro (the first definition)
    macro_order: list[Macro]  # every definition, in order
    call_ends: dict[int, tuple[int, str]]  # entry of a macro call -> (the entry after its body, its locals' suffix)
    # what the source asks of the output
    opens: dict  # the OPEN statements before the start line: lfn -> (device, secondary address, name)
    object_lfn: int | None
    object_buffer: bool
    listing_lfn: int | None
    symbol_listing: bool
    symbol_memory: tuple[int, int] | None  # '.stm': (lowest address, symbols defined before it)
    sst: list[tuple[str, dict[str, int]]]  # '.sst' tables: (file name, the values at that point)
    last_line: int | None
    diagnostics: list[Diagnostic]  # pass 1's
    kept: Kept  # the run's room for diagnostics
    positions: dict[str, int]  # (place_of's index of symbols: filled when a message asks)


    def __init__(self, options, entries, decoder, sources, values, symbols, spelling, order, definition_labels, skipped_labels, places, place_refs, macros, macro_order, call_ends, opens, object_lfn, object_buffer, listing_lfn, symbol_listing, symbol_memory, sst, last_line, diagnostics, kept, positions: dict[str, int]) -> None:
        self.options = options
        self.entries = entries
        self.decoder = decoder
        self.sources = sources
        self.values = values
        self.symbols = symbols
        self.spelling = spelling
        self.order = order
        self.definition_labels = definition_labels
        self.skipped_labels = skipped_labels
        self.places = places
        self.place_refs = place_refs
        self.macros = macros
        self.macro_order = macro_order
        self.call_ends = call_ends
        self.opens = opens
        self.object_lfn = object_lfn
        self.object_buffer = object_buffer
        self.listing_lfn = listing_lfn
        self.symbol_listing = symbol_listing
        self.symbol_memory = symbol_memory
        self.sst = sst
        self.last_line = last_line
        self.diagnostics = diagnostics
        self.kept = kept
        self.positions = positions

    def spelling_of(self, key: str) -> str | None:
        """The first full spelling of symbol ``key`` (None: it has none)."""
        return spelling_of(key, self.spelling, self.symbols, self.definition_labels)

    def place_of(self, key: str) -> tuple | None:
        """Where symbol ``key`` was first defined: (line, col, length of its name)."""
        return place_of(key, self.symbols, self.places, self.place_refs, self.positions, self.entries, self.decoder)

    def forget_places(self) -> None:
        """Drop where the symbols were defined (after the last message that names a place: the Result keeps
        the kinds, and the places would be kept to its end for nothing)."""
        self.places = {}
        self.place_refs = array("I")
        self.positions = {}
