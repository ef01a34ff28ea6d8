"""What pass 1 hands pass 2: one :class:`Entry` per executed statement (kept as the columns of
:class:`Entries`), and the macro records.

An entry's ``rec`` is a decoded statement (asm6502/asm/statements.py: ``Record``), one of the
macro bookkeeping records below, or None (a line without code, kept for the listing).
Every reader dispatches on ``type(entry.rec)``; no field carries two meanings.
(Slot records, as the decoded statements: a large program lays out tens of thousands.)
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import chain, repeat
from operator import sub

from asm6502.asm.lines import Line, Lines, SourceLine, Stmt
from asm6502.asm.statements import Record
from asm6502.tuples import SlotRecord


class Macro:
    """A macro as ``.mac`` defines it; the calls count up as pass 1 runs them."""

    __slots__ = ("name", "params", "body", "line", "col", "calls", "end", "labeled_end", "redefined")

    def __init__(self, name: str, params: tuple[str, ...], line: Line, col: int):
        self.name, self.params, self.line, self.col = name, params, line, col
        self.body = Lines(line.file, array("I"))  # (its lines' indexes in their file)
        self.calls = 0
        self.end = ".men"  # the end of the definition as spelled (.men or .mend), listed after each call
        self.labeled_end = False  # 'label .mend': that line is the body's last, listed as it is
        self.redefined = False  # a second '.mac' of a name: REDEFINITION, never called (the first one is)


class MacroLine(SlotRecord):
    """A line of a macro definition (the ``.mac`` line, the body, the ``.men``): listed, not run."""

    __slots__ = ("label", "problem")
    label: None
    problem: None

    def __init__(self, label: None, problem: None) -> None:
        self.label = label
        self.problem = problem


class MacroCall(SlotRecord):
    """A macro call as it ran: the macro and its arguments' closures (pass 2 sets the parameters again)."""

    __slots__ = ("label", "problem", "macro", "args")
    label: None
    problem: None
    macro: Macro
    args: tuple  # one tree per parameter

    def __init__(self, label: None, problem: None, macro: Macro, args: tuple) -> None:
        self.label = label
        self.problem = problem
        self.macro = macro
        self.args = args


class MacroEnd(SlotRecord):
    """The end of a call's body, listed with the definition's end as spelled (``.men`` or ``.mend``)."""

    __slots__ = ("label", "problem", "spelling")
    label: None
    problem: None
    spelling: str

    def __init__(self, label: None, problem: None, spelling: str) -> None:
        self.label = label
        self.problem = problem
        self.spelling = spelling


MACRO_LINE = MacroLine(None, None)  # (one record serves every definition line)

# what an entry's ``rec`` holds
Laid = Record | MacroLine | MacroCall | MacroEnd | None


class Entry(SlotRecord):
    """One executed statement as pass 1 laid it out."""

    __slots__ = ("rec", "pc", "size", "line", "stmt", "local")
    rec: Laid
    pc: int  # its address
    size: int  # its size; for an instruction that could be zero page, 2 (zero page), 3 (absolute) or FORWARD
    line: Line
    stmt: Stmt | None
    local: str | None  # the suffix of the macro call it belongs to (":01"), or None

    def __init__(self, rec: Laid, pc: int, size: int, line: Line, stmt: Stmt | None, local: str | None) -> None:
        self.rec = rec
        self.pc = pc
        self.size = size
        self.line = line
        self.stmt = stmt
        self.local = local


FORWARD = 4  # an entry's size code: absolute (3 bytes) because the operand was a forward reference


NO_STMT = 0xFF  # an entry's statement number: the entry has none
OTHER_STMT = 0xFE  # ... a statement of no line's statements (after an OVERFLOW, split again): in Entries.other


class Entries:
    """Pass 1's entries, one column per field of :class:`Entry`: the i-th entry is the i-th item of
    each.  An entry's line is a number among every line pass 1 ran (``refs``: the position in its
    :class:`lines.Lines` plus where they start, ``register``) and its statement is its number in the
    line (``stmts``): no line or statement object an entry.  The passes and the listing read the
    columns; ``entries[i]`` and iteration give :class:`Entry` records made on demand (``convert``,
    diagnostics).  (A record an entry takes several times the memory of the columns: the
    record's pointer, addresses, sizes and line numbers as 4-byte array items, the statement number
    one byte.)  The macro call an entry belongs to (its ``local``) is kept by runs: ``local_at`` the
    first entry of each run, ``local_of`` its suffix (None outside a call).  (A list of the entries' sizes
    and one of their locals would take a pointer an entry each.)"""

    __slots__ = ("recs", "pcs", "sizes", "refs", "stmts", "local", "local_at", "local_of", "other", "sources", "starts", "_add_pc")

    def __init__(self) -> None:
        self.recs: list[Laid] = []
        self.pcs = array("I")  # addresses (unsigned: an array of "i" converts each item through PyArg_Parse, 3 times the cost)
        self.sizes = array("I")  # (unsigned, as pcs)
        self.refs = array("I")  # the entry's line: Lines.base + its position there
        self.stmts = bytearray()  # the entry's statement: its number in the line's statements (NO_STMT, OTHER_STMT)
        self.local: str | None = None  # the local of the last run (the entries added now belong to it: see mark)
        self.local_at = array("I")  # the first entry of each run of entries of one local after the first (none: every entry's is None)
        self.local_of: list[str | None] = []  # the runs' locals
        self.other: dict[int, Stmt] = {}  # entry -> its statement, where that is OTHER_STMT
        self.sources: list[Lines] = []  # every Lines run, in the order registered
        self.starts = array("I")  # their bases
        self._add_pc = self.pcs.append  # (an array's method is looked up by name at each call)

    def register(self, lines: Lines) -> int:
        """Give ``lines`` its base (the ref of its first line) and return it."""
        base = lines.base = self.starts[-1] + len(self.sources[-1]) if self.sources else 0
        self.sources.append(lines)
        self.starts.append(base)
        return base

    def add(self, rec: Laid, pc: int, size: int, ref: int, number: int, stmt: Stmt | None, local: str | None) -> None:
        """An entry for statement ``number`` of the line ``ref`` (-1: none; OTHER_STMT or more: ``stmt``
        itself, none of its line's statements, or one beyond the 254th)."""
        if local is not self.local:
            self.mark(local)
        self.recs.append(rec)
        self._add_pc(pc)
        self.sizes.append(size)
        self.refs.append(ref)
        if 0 <= number < OTHER_STMT:
            self.stmts.append(number)
        elif number < 0:
            self.stmts.append(NO_STMT)
        else:
            self.stmts.append(OTHER_STMT)
            self.other[len(self.recs) - 1] = stmt

    def mark(self, local: str | None) -> None:
        """The entries added from now on belong to the macro call ``local`` (None: none)."""
        self.local = local
        at = len(self.recs)
        if self.local_at and self.local_at[-1] == at:  # (a run without entries: replaced)
            self.local_of[-1] = local
        else:
            self.local_at.append(at)
            self.local_of.append(local)

    @property
    def locals(self):
        """Every entry's local, in order (an iterator)."""
        starts = self.local_at
        if not starts:
            return repeat(None, len(self.recs))
        ends = starts[1:]
        ends.append(len(self.recs))
        return chain(repeat(None, starts[0]), chain.from_iterable(map(repeat, self.local_of, map(sub, ends, starts))))

    def local_of_entry(self, i: int) -> str | None:
        """Entry ``i``'s local."""
        run = bisect_right(self.local_at, i) - 1
        return None if run < 0 else self.local_of[run]

    def __len__(self) -> int:
        return len(self.recs)

    def source(self, ref: int) -> Lines:
        """The Lines that holds the line of ``ref``."""
        return self.sources[bisect_right(self.starts, ref) - 1]

    def line(self, ref: int) -> Line:
        """The line of ``ref`` (made on demand when its Lines keeps none)."""
        lines = self.sources[bisect_right(self.starts, ref) - 1]
        return lines.line(ref - lines.base)

    def statement(self, i: int, line: Line) -> Stmt | None:
        """Entry ``i``'s statement, of its line ``line``."""
        number = self.stmts[i]
        return statement_of(number, line, self.other[i] if number == OTHER_STMT else None)

    def place(self, i: int) -> tuple[Line, Stmt | None]:
        """Entry ``i``'s line and statement (made on demand)."""
        line = self.line(self.refs[i])
        return line, self.statement(i, line)

    def __getitem__(self, i: int) -> Entry:
        line, stmt = self.place(i)
        return Entry(self.recs[i], self.pcs[i], self.sizes[i], line, stmt, self.local_of_entry(i))

    def placed(self, every: bool = True):
        """(line, statement) of every entry in order, made on demand: the entries of a line share its
        object, and so do the lines of a macro's body with their file's (as ``is`` compares them).
        ``every=False`` (the listing text): only the entries of one line in a row share it, no table of
        every line made."""
        made: dict = {}  # (file, index) -> the line made
        get = made.get
        line_of = self.line
        statement = self.statement
        last = -1
        line = None
        for i, ref in enumerate(self.refs):
            if ref != last:
                last = ref
                line = line_of(ref)
                if every:
                    key = (line.file, line.index)
                    line = get(key) or made.setdefault(key, line)
            yield line, statement(i, line)

    def __iter__(self):
        return map(lambda rec, pc, size, place, local: Entry(rec, pc, size, place[0], place[1], local),
                   self.recs, self.pcs, self.sizes, self.placed(), self.locals)


def statement_of(number: int, line: Line, other: Stmt | None) -> Stmt | None:
    """The statement of ``line`` an entry notes as ``number`` (``other``: an OTHER_STMT entry's statement)."""
    if number == 0 and not isinstance(line, SourceLine):  # (a line that is its own one statement)
        return line
    if number >= OTHER_STMT:
        return None if number == NO_STMT else other
    return line.statements[number]

