"""What pass 1 hands pass 2: one :class:`Entry` per executed statement (kept as the columns of
:class:`Entries`), and the macro records.

An entry's ``rec`` is a decoded statement (asm6502/asm/decode.py: ``Record``), one of the
macro bookkeeping records below, or None (a line without code, kept for the listing).
Every reader dispatches on ``type(entry.rec)``; no field carries two meanings.
(Slot records, as the decoded statements: a large program lays out tens of thousands.)
"""

from __future__ import annotations

from array import array

from asm6502.asm.decode import Record
from asm6502.asm.reader import Line, Stmt
from asm6502.tuples import SlotRecord, slot_record


class Macro:
    """A macro as ``.mac`` defines it; the calls count up as pass 1 runs them."""

    __slots__ = ("name", "params", "body", "line", "col", "calls", "end", "labeled_end", "redefined")

    def __init__(self, name: str, params: tuple[str, ...], line: Line, col: int):
        self.name, self.params, self.line, self.col = name, params, line, col
        self.body: list[Line] = []
        self.calls = 0
        self.end = ".men"  # the end of the definition as spelled (.men or .mend), listed after each call
        self.labeled_end = False  # 'label .mend': that line is the body's last, listed as it is
        self.redefined = False  # a second '.mac' of a name: REDEFINITION, never called (the first one is)


@slot_record
class MacroLine(SlotRecord):
    """A line of a macro definition (the ``.mac`` line, the body, the ``.men``): listed, not run."""

    label: None
    problem: None


@slot_record
class MacroCall(SlotRecord):
    """A macro call as it ran: the macro and its arguments' closures (pass 2 sets the parameters again)."""

    label: None
    problem: None
    macro: Macro
    args: tuple  # one compiled expression per parameter


@slot_record
class MacroEnd(SlotRecord):
    """The end of a call's body, listed with the definition's end as spelled (``.men`` or ``.mend``)."""

    label: None
    problem: None
    spelling: str


MACRO_LINE = MacroLine.make(None, None)  # (one record serves every definition line)

# what an entry's ``rec`` holds
Laid = Record | MacroLine | MacroCall | MacroEnd | None


@slot_record
class Entry(SlotRecord):
    """One executed statement as pass 1 laid it out."""

    rec: Laid
    pc: int  # its address
    size: int  # its size; for an instruction that could be zero page, 2 (zero page), 3 (absolute) or FORWARD
    line: Line
    stmt: Stmt | None
    local: str | None  # the suffix of the macro call it belongs to (":01"), or None


FORWARD = 4  # an entry's size code: absolute (3 bytes) because the operand was a forward reference


class Entries:
    """Pass 1's entries, one column per field of :class:`Entry`: the i-th entry is the i-th item of
    each.  The passes and the listing read the columns; ``entries[i]`` and iteration give
    :class:`Entry` records made on demand (``convert``, diagnostics).  (An Entry and its address took
    112 bytes an entry; the columns take 36 -- addresses and sizes as 4-byte array items -- the
    large bench program 2.2 MB less, 1 M lines of ' nop' 75 MB less.)"""

    __slots__ = ("recs", "pcs", "sizes", "lines", "stmts", "locals", "_add_pc")

    def __init__(self) -> None:
        self.recs: list[Laid] = []
        self.pcs = array("I")  # addresses (unsigned: an array of "i" converts each item through PyArg_Parse, 3 times the cost)
        self.sizes: list[int] = []  # (cached small ints or the records' own sizes: no object an entry; a list appends faster than an array)
        self.lines: list[Line] = []
        self.stmts: list[Stmt | None] = []
        self.locals: list[str | None] = []
        self._add_pc = self.pcs.append  # (an array's method is looked up by name at each call)

    def add(self, rec: Laid, pc: int, size: int, line: Line, stmt: Stmt | None, local: str | None) -> None:
        self.recs.append(rec)
        self._add_pc(pc)
        self.sizes.append(size)
        self.lines.append(line)
        self.stmts.append(stmt)
        self.locals.append(local)

    def __len__(self) -> int:
        return len(self.recs)

    def __getitem__(self, i: int) -> Entry:
        return Entry.make(self.recs[i], self.pcs[i], self.sizes[i], self.lines[i], self.stmts[i], self.locals[i])

    def __iter__(self):
        return map(Entry.make, self.recs, self.pcs, self.sizes, self.lines, self.stmts, self.locals)
