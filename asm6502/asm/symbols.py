"""Pass 1's symbol table: labels, ``=`` constants, ``_`` variables, macro parameters.

A second definition is the original's REDEFINITION (the first value stays); only the first
8 characters of a name count (expr.SIGNIFICANT), and a name spelled two ways that shares them is
warned of.  Each symbol's kind and the place of its first definition are kept for messages until
pass 2 is done (forget_places).
"""

from __future__ import annotations

from array import array
from itertools import count, islice

from asm6502.asm import expr as ex
from asm6502.asm.lines import SourceLine
from asm6502.asm.rows import as_span
from asm6502.asm.state import Pass1State
from asm6502.asm.statements import Define
from asm6502.diagnostics import note

# What made a name a symbol, its kind (convert and Result read it): a label, a constant ('=', a '-D' define, a
# '.lst' table's entry), a variable ('_'), a macro's parameter
LABEL, CONST, VAR, PARAM = "label", "const", "var", "param"


class SymbolTable:
    """The symbols of pass 1: their kinds, spellings, places and order (their values: Pass1State.values)."""

    def __init__(self, state: Pass1State):
        self.state = state
        self.values = state.values  # (the state's dict, the one every expression reads)
        self.kinds: dict[str, str] = {}  # key -> its kind (LABEL, CONST, VAR, PARAM), in the order the keys were made
        # Where each symbol was first defined (place_of): a line that is its own one statement by its number
        # among the lines run (Entries.refs) + 1 in place_refs, at the key's position in kinds (0 there, or
        # the array shorter: not so noted) -- 4 bytes a symbol, where a dict entry and an int would take 60;
        # any other place as (line, col, length of its name) in places
        self.places: dict[str, tuple] = {}
        self.place_refs = array("I")
        self.positions: dict[str, int] = {}  # key -> its position in kinds: filled by place_of (a message) only
        self.unplaced: set[str] = set()  # keys with no place in the source ('-D' defines, '.lst' tables, parameters)
        # key -> its first full spelling, where that is not the key itself (few symbols have one; a dict of them
        # all would take memory for nothing): spelling_of answers for every key
        self.spelling: dict[str, str] = {}
        # every symbol key in the order the original creates them (a list, not a dict: whether a key is in it
        # is known from kinds, definition_labels and unordered -- see ordered)
        self.order: list[str] = []
        self.unordered: set[str] = set()  # keys without a colon in kinds but not in order ('-D' defines, '.lst' tables)
        self.definition_labels: dict[str, int] = {}  # 'name:00' -> its offset in a macro's definition (macros.py)
        # the label of a statement skipped for its error -> that error's index in diags: a use of the label, undefined
        # then, is a note to that error, not an error of its own (encode.Encoder.value, assemble)
        self.skipped_labels: dict[str, int] = {}
        for name, value in state.options.defines:
            key = ex.key_of(name)
            self.values[key] = value & 0xFFFF
            self.kinds[key] = CONST
            self.unordered.add(key)
            self.unplaced.add(key)
            self.spelled(key, name.lower())

    def spelled(self, key: str, full: str) -> None:
        """Note ``full`` as the spelling of ``key`` (a name's first, or a '-D' define's latest)."""
        if full != key:
            self.spelling[key] = full
        else:
            self.spelling.pop(key, None)

    def spelling_of(self, key: str) -> str | None:
        return spelling_of(key, self.spelling, self.kinds, self.definition_labels)

    def ordered(self, key: str) -> None:
        """Add ``key`` (which is in kinds) to order unless it is there."""
        if key in self.unordered:
            self.unordered.discard(key)
            self.order.append(key)

    def define_label(self, name: str, line, stmt, local) -> None:
        self.define_value(name, self.state.pc, LABEL, line, stmt, local)

    def define_value(self, name: str, value: int, kind: str, line, stmt, local) -> None:
        """Define a label or '=' constant (pass 1 only): a second definition is the original's
        REDEFINITION, and the first value stays.  (``line`` None: the line run now, which is its own
        one statement, its object made only for a message.)"""
        full = name if name.islower() else name.lower()  # (no copy of a name already in lower case: one a symbol)
        kinds = self.kinds
        if local is None:
            key = full[: ex.SIGNIFICANT]
            if key in kinds:  # (a key without a colon: spelled since it is in kinds -- spelling_of)
                spelled = self.spelling.get(key, key)
            else:
                spelled = full
                if full != key:
                    self.spelling[key] = full
            if spelled != full:
                if line is None:
                    line = stmt = self.state.entries.line(self.state.ref)
                self.state.warn(
                    f"'{name}' and '{spelled}' are the same label: Profi-Ass keeps only the first {ex.SIGNIFICANT} characters ('{key}')",
                    (line, stmt.col, len(name)),
                    *([note("the other spelling is here", as_span(first))] if (first := self.place_of(key)) else []),
                )
        else:
            key = ex.local_key(name, local)
        if key in kinds:
            if line is None:
                line = stmt = self.state.entries.line(self.state.ref)
            first = self.place_of(key)
            self.state.err(f"duplicate symbol '{name}' [REDEFINITION]", (line, stmt.col, len(name)),
                           *([note("first defined here", as_span(first))] if first else []))  # fmt: skip
            return
        if stmt is line:  # (see place_of; the key is new: its position is the count of kinds -- note_ref, inline)
            refs = self.place_refs
            if len(refs) < len(kinds):
                refs.frombytes(bytes((len(kinds) - len(refs)) * refs.itemsize))
            refs.append(self.state.ref + 1)
        else:
            self.places[key] = (line, stmt.col, len(name))
        kinds[key] = kind
        self.values[key] = value
        self.order.append(key)

    def note_ref(self) -> None:
        """The place of a new key (the next position in kinds): the line run now, its own one statement."""
        refs = self.place_refs
        if len(refs) < len(self.kinds):
            refs.frombytes(bytes((len(self.kinds) - len(refs)) * refs.itemsize))
        refs.append(self.state.ref + 1)

    def place_of(self, key: str) -> tuple | None:
        return place_of(key, self.kinds, self.places, self.place_refs, self.positions, self.state.entries, self.state.decoder)

    def define(self, rec: Define, line, stmt, local):
        """'name = expr' ('_' for a variable).  (``line`` None: the line run now, which is its own one statement,
        its object made only for a message.)"""
        state = self.state
        try:
            value = ex.value(rec.expr, self.values, state.pc, local)
        except ex.Unknown as u:
            value = None
            if line is None:
                line = stmt = state.entries.line(state.ref)
            if not rec.var:
                state.err(f"'{u.node.name}' is not defined yet: '=' takes its value in pass 1 [UNDEF'D STATEMENT]",
                          (line, stmt.col + rec.expr_offset + u.node.offset, u.node.length))  # fmt: skip
                value = state.pc  # (the original then gives the name the program counter: labels/labels_equ_forward_ref)
        except ex.ExprError as exc:
            if line is None:
                line = stmt = state.entries.line(state.ref)
            state.err(exc.message, (line, stmt.col + rec.expr_offset + exc.offset, exc.length))
            value = None
        if rec.var:
            key = ex.key_of(rec.name)
            known = self.kinds.get(key)
            if known is None or key in self.unplaced:  # (its place noted once, not at each round of a loop: see place_of)
                if stmt is line and known is None:  # (a new key: its position is the count of kinds)
                    self.note_ref()
                else:
                    if line is None:
                        line = stmt = state.entries.line(state.ref)
                    self.places[key] = (line, stmt.col, len(rec.name))
                    self.unplaced.discard(key)
                if known is None:
                    self.kinds[key] = VAR
                    full = rec.name.lower()
                    if full != key:
                        self.spelling[key] = full
                    self.order.append(key)
                else:
                    self.ordered(key)
            if value is None:
                self.values.pop(key, None)
            else:
                self.values[key] = value
            state.entries.add(rec, state.pc, 0, state.ref, state.k, stmt, local)  # pass 2 assigns it again
        else:
            if value is not None:
                self.define_value(rec.name, value, CONST, line, stmt, None)
            mixed = state.decoder.mixed  # (an expression the usual precedence reads otherwise: its entry is checked after pass 2)
            if state.listing or mixed and id(rec.expr) in mixed:
                state.entries.add(rec, state.pc, 0, state.ref, state.k, stmt, local)
        return None

    def parameter(self, key: str, node, local) -> None:
        """A macro call sets parameter ``key`` to its argument's value (none when the argument has none yet)."""
        try:
            self.values[key] = ex.value(node, self.values, self.state.pc, local)
        except (ex.Unknown, ex.ExprError):
            self.values.pop(key, None)
        if key not in self.kinds:  # (spelled as its key: spelling_of)
            self.kinds[key] = PARAM
            self.unplaced.add(key)
            self.order.append(key)
        else:
            self.ordered(key)

    def definition_label(self, key: str, offset: int) -> None:
        """A label of a macro's definition, 'name:00', at its offset in the body (macros.Macros.defined_labels)."""
        if key not in self.definition_labels:
            self.definition_labels[key] = offset  # (spelled as its key: spelling_of)
            self.order.append(key)

    def load(self, table) -> None:
        """The (key, value) pairs of a '.lst' table: values overwrite, new keys are constants without a place."""
        for key, value in table:
            self.values[key] = value
            if key not in self.kinds:  # (spelled as its key: spelling_of)
                self.kinds[key] = CONST
                self.unplaced.add(key)
                if ":" not in key:
                    self.unordered.add(key)
            if ":" in key:  # (a local key, 'name:NN', is spelled only when a table names it)
                self.spelling.setdefault(key, key)

    def skipped(self, label: str, local, error: int) -> None:
        """The label of a statement skipped for its error (diags[error]): a use of it notes that error."""
        key = ex.key_of(label) if local is None or label[0] != "." else ex.local_key(label[1:], local)
        self.skipped_labels.setdefault(key, error)


def spelling_of(key: str, spelling: dict[str, str], kinds: dict[str, str], definition_labels: dict[str, int]) -> str | None:
    """The first full spelling of symbol ``key``, None for a key that has none.  A key without a colon
    is spelled once it is in kinds, a 'name:00' key once it is in definition_labels; local keys
    ('name:NN') of labels in calls have none."""
    found = spelling.get(key)
    if found is not None:
        return found
    if ":" in key:
        return key if key in definition_labels else None
    return key if key in kinds else None


def place_of(key: str, kinds: dict[str, str], places: dict[str, tuple], place_refs: array, positions: dict[str, int],
             entries, decoder) -> tuple | None:  # fmt: skip
    """Where symbol ``key`` was first defined: (line, col, length of its name), None where the source has no
    place for it.  A line that is its own statement is noted by its number among the lines run (Entries.refs:
    no line object, no tuple for each of a program's thousands of labels and constants); its name is its
    record's label or '=' name.  (*positions*: key -> its position in kinds, filled here as far as kinds goes.)"""
    found = places.get(key)
    if found is not None or key not in kinds:
        return found
    if len(positions) < len(kinds):  # (the keys added since: kinds only grows, in order)
        positions.update(zip(islice(kinds, len(positions), None), count(len(positions))))
    position = positions[key]
    if position >= len(place_refs) or not place_refs[position]:
        return None
    line = entries.line(place_refs[position] - 1)
    assert not isinstance(line, SourceLine)  # (noted only for a line that is its own one statement)
    rec = decoder.decode(line.text)
    name = rec.label if rec.label is not None else rec.name if type(rec) is Define else ""
    return (line, line.col, len(name))
