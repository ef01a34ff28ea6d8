"""Pass 1: run the program and lay it out.

Pass 1 runs every control statement -- ``.if``, ``.goto``, macro calls,
``.file`` chains, ``.end`` -- sizes every instruction and data statement,
defines the symbols, and writes down each executed statement as one layout
entry (entries.py: :class:`Entry` -- the decoded statement or a macro record,
its address, its size, its line and statement, its macro call's suffix).

Pass 2 (encode.py) only walks these entries.  Zero page is decided here, in
one place (:meth:`Layout.address_size`).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from itertools import count, islice
from types import MethodType

from asm6502.asm import expr as ex
from asm6502.asm.decode import IDENT, Bad, Call, Data, Decoder, Define, Insn, Label, Origin, Pseudo, Start, overflow_resume
from asm6502.asm.entries import FORWARD, MACRO_LINE, OTHER_STMT, Entries, Macro, MacroCall, MacroEnd
from asm6502.asm.pseudo import CONTROL, DATA, DEFINITION, HIDDEN, PSEUDO_OPS, foreign_hint
from asm6502.asm.reader import NO_NUMBER, Line, Lines, SourceLine, file_name, split_statements
from asm6502.asm.result import Options
from asm6502.asm.rows import as_span
from asm6502.asm.symfile import read_symbols
from asm6502.diagnostics import Diagnostic, Kept, error, note, warning
from asm6502.patterns import LazyPattern

__all__ = ["FORWARD", "Layout", "Macro"]

MACRO_DEPTH = 16


MAX_CHAIN = 1000  # .file chains followed in one pass (a file naming itself would go on for ever)



# A symbol's kind and where it was first defined, packed in one small int (Layout.symbols: one dict, not two):
# bits 0-1 its kind (KIND_NAMES), bit 2 set when its place is a tuple in Layout.places, bit 3 when it is the
# number among the lines run (Entries.refs), plus 1, of the line that is its own one statement, in Layout.place_refs
# at the key's position in symbols.  (That number packed in the int would make a large int object a symbol; the
# array takes 4 bytes a symbol.)
KIND_NAMES = ("label", "const", "var", "param")
LABEL, CONST, VAR, PARAM = range(4)
IN_PLACES = 4
PLACED = 8


class Kinds:
    """Layout.symbols read as key -> "label" | "const" | "var" | "param" (what convert and Result ask)."""

    def __init__(self, symbols: dict[str, int]):
        self.symbols = symbols

    def get(self, key: str, default=None):
        packed = self.symbols.get(key)
        return default if packed is None else KIND_NAMES[packed & 3]

    def __getitem__(self, key: str) -> str:
        return KIND_NAMES[self.symbols[key] & 3]

    def __contains__(self, key: str) -> bool:
        return key in self.symbols


LOCAL_JUNK = " with a macro-local label"  # (in expr.py's message for what follows such an expression)


def blank_after_colon(line, stmt) -> bool:
    """A blank between the ':' and the statement: the original then refuses a label or a
    definition there (SYNTAX 1), but takes one right after the ':' (``pastrt =$80:pastop =$c0``,
    ``lbl lda #1:other lda #2``; probes rules/colon_*)."""
    return stmt.col >= 2 and line.line_text[stmt.col - 2] in " \t"

COMMENT_ENDS = "a ':' ends a comment in Profi-Ass: the rest of the line is a new statement"


def _after_comment(text: str | None, col: int) -> bool:
    """Whether the statement at column *col* of a line comes right after a comment that a ':' ended
    ('lda #1 ;note: this sets the colour')."""
    if not text or not text[: col - 1].rstrip(" \t").endswith(":"):
        return False
    quoted = comment = ended = False
    for ch in text[: col - 1]:
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            comment = True
        elif ch == ":" and not quoted:
            ended, comment = comment, False
    return ended


class Stop(Exception):
    """Ends pass 1 (``.end``, a fatal error)."""


class NextFile(Exception):
    """``.file``: pass 1 goes on with another file's lines (and the current one ends)."""

    def __init__(self, lines, start):
        super().__init__()
        self.lines, self.start = lines, start


# a macro body ends at '.men' or '.mend' (a label may stand in front: it is a local label)
_MEN = LazyPattern(r"\^?\s*(?:([A-Za-z][A-Za-z0-9.]*)\s+)?\.[Mm][Ee][Nn]")
_PSEUDO_WORD = LazyPattern(r"\.[A-Za-z]*")
_MAC = LazyPattern(r"\^?\s*(?:[A-Za-z][A-Za-z0-9.]*\s+)?\.[Mm][Aa][Cc]")
_DEVICE_NAME = LazyPattern(r'\s*(?:(\d+)\s*,\s*)?"')  # '8,"name"' (or '"name"': device 8)
DRIVES = range(8, 12)  # the IEC bus devices a 1541 drive can be set to
_OPT_ITEM = LazyPattern(r"([Oo][Oo]|[OoPpMmNn])(#|\d+|=.*)?\Z")


class Layout:
    """One assembly's pass 1 (its state is read by pass 2 afterwards)."""

    def __init__(self, options: Options, reader, opens: dict, kept: Kept | None = None):
        self.options = options
        self.reader = reader  # (name, line) -> list[Line], raises OSError
        self.opens = opens
        self.decoder = Decoder(options.cpu, mixed=options.precedence)
        self.listing = options.listing
        self.values: dict[str, int] = {}
        # key -> its kind and where it was first defined, packed (KIND_NAMES; see place_of); kinds reads the kinds
        self.symbols: dict[str, int] = {}
        self.kinds = Kinds(self.symbols)
        self.places: dict[str, tuple] = {}  # key -> (line, col, length of its name) where that is not a line number
        self.place_refs = array("I")  # a PLACED symbol's line's ref + 1, at the key's position in symbols (0: none)
        self.positions: dict[str, int] | None = None  # key -> its position in symbols: made by place_of (a message) only
        # key -> its first full spelling, where that is not the key itself (few symbols have one; a dict of them
        # all would take memory for nothing): spelling_of answers for every key
        self.spelling: dict[str, str] = {}
        self.ref = 0  # the line of the statement run now (Entries.refs): entries and places of definitions note it
        self.k = 0  # that statement's number in its line (OTHER_STMT or more: none of the line's own; Entries.add)
        # every symbol key in the order the original creates them (a list, not a dict: whether a key is in it
        # is known from symbols, definition_labels and unordered -- see ordered)
        self.order: list[str] = []
        self.unordered: set[str] = set()  # keys without a colon in symbols but not in order ('-D' defines, '.lst' tables)
        self.definition_labels: dict[str, int] = {}  # 'name:00' -> its offset in a macro's definition (see defined_labels)
        self.diags: list[Diagnostic] = []
        # the label of a statement skipped for its error -> that error's index in diags: a use of the label, undefined
        # then, is a note to that error, not an error of its own (encode.Encoder.value, assemble)
        self.skipped_labels: dict[str, int] = {}
        self.kept = kept if kept is not None else Kept()  # the run's room for diagnostics
        self.layout = Entries()  # what pass 1 laid out
        self.call_ends: dict[int, tuple[int, str]] = {}  # layout index of a macro call -> (index after its body, its locals' suffix)
        self.macros: dict[str, Macro] = {}
        self.macro_order: list[Macro] = []
        self.recording: Macro | None = None
        self.pc = 0xC000  # the original's default origin
        self.executed = 0
        # statements pass 1 may run: every statement of every file once, plus max_statements
        # for what .goto and macros repeat (an endless .goto loop ends there)
        self.budget = options.max_statements
        self.uncounted: list[Lines] = []  # files whose lines' statements after the first are not in the budget yet
        self.object_lfn: int | None = None
        self.object_buffer = False  # '.opt o': the object goes to the original's buffer in the C64's BASIC RAM
        self.symbol_memory: tuple[int, int] | None = None  # '.stm': (lowest address, symbols defined before it)
        self.listing_lfn: int | None = None
        self.symbol_listing = False
        self.started = False
        self.ended = False
        self.last_line: int | None = None  # the number of the last line read: the .end line, else the last line
        self.chained: tuple | None = None  # where the first .file was met
        self.chain_closed = False
        self.numbered: dict = {}  # id(lines) -> line number -> index (see line_numbers)
        self.if_unknown: list[tuple[str, str, tuple]] = []  # (key, name of a .if symbol not known in pass 1, where)
        self.sst: list[tuple[str, dict[str, int]]] = []  # ('.sst' file name, the symbols at that point)
        # pseudo-op -> (its pass-1 method, listed here): asm6502/asm/pseudo.py
        self.pseudo = {name: (getattr(self, op.pass1), op.listing not in (DEFINITION, HIDDEN))
                       for name, op in PSEUDO_OPS.items() if op.kind == CONTROL}  # fmt: skip
        self.data_ops = {name: getattr(self, op.pass1) for name, op in PSEUDO_OPS.items() if op.kind == DATA}
        for name, value in options.defines:
            key = ex.key_of(name)
            self.values[key] = value & 0xFFFF
            self.symbols[key] = CONST
            self.unordered.add(key)
            self.spelled(key, name.lower())

    # -- diagnostics ------------------------------------------------------------------

    def err(self, message: str, where, *notes: Diagnostic) -> None:
        if self.kept.has_room(True):  # (beyond the run's room only counted: diagnostics.Kept)
            self.diags.append(error(message, as_span(where), *notes))

    def warn(self, message: str, where, *notes: Diagnostic) -> None:
        if self.kept.has_room(False):
            self.diags.append(warning(message, as_span(where), *notes))

    # -- the walk -----------------------------------------------------------------------

    def run(self, lines: Lines, start: int) -> None:
        chained = 0
        while True:
            self.budget += len(lines)  # (every line has a statement; its others are counted when needed: full_budget)
            self.uncounted.append(lines)
            try:
                self.run_lines(lines, start, 0, None)
            except NextFile as chain:
                lines, start = chain.lines, chain.start
                self.started = False  # (the next file of the chain has its own start line)
                chained += 1
                if chained <= MAX_CHAIN:
                    continue
                self.err(f"more than {MAX_CHAIN} .file chains: does a file name itself?", self.chained)
            except Stop:
                pass
            break
        if self.last_line is None:
            self.last_line = next((number for number in reversed(lines.numbers) if number != NO_NUMBER), None)
        if self.chained is not None and not self.chain_closed:
            self.warn("a .file chain ends without '.end 8,\"first file\"': the original would run pass 2 on the last "
                      "file only (the manual asks for the .end); here the whole chain is assembled", self.chained)  # fmt: skip
        for key, name, where in self.if_unknown:
            if key in self.values:
                self.err(f"'{name}' is defined further down: .if needs its value in pass 1 [UNDEF'D STATEMENT]", where)
        if self.recording is not None:
            m = self.recording
            self.err(f"macro '{m.name}' has no .men [SYNTAX C]", (m.line, m.col, 4))

    def run_lines(self, lines: Lines, i: int, depth: int, local: str | None) -> None:
        """Run ``lines`` from position ``i`` (a file, or a macro body when ``local`` is set).

        (The program counter and the statement count live in locals while instructions are laid
        out, and in ``self`` whenever another method runs: every statement but an instruction.  A
        line of one statement is read from the columns, its text; its object is made only for a
        statement other than an instruction.)"""
        decode = self.decoder.decode
        decoded = self.decoder.records.get  # (the decoder's memory, asked first: most texts were met before)
        entries = self.layout
        recs, refs, stmts = entries.recs, entries.refs, entries.stmts
        add_pc = entries.pcs.append  # (an array's method is looked up by name at each call)
        add_size = entries.sizes.append
        add_ref = refs.append
        add_stmt = stmts.append
        address_size = self.address_size
        define_value = self.define_value
        values = self.values
        listing = self.listing
        limit = self.budget
        executed = self.executed
        pc = self.pc
        other_stmt = OTHER_STMT
        texts = lines.texts
        before = (lines.base if lines.base >= 0 else entries.register(lines)) - 1  # (the ref of line i is before + i after i += 1)
        n = len(texts)
        while i < n:
            item = texts[i]
            i += 1
            if self.recording is not None:
                self.ref = before + i
                self.record(lines, i - 1)
                continue
            if type(item) is str:  # a line of one statement: its text (perhaps with a comment: reader.CommentedLine)
                rec = decoded(item)
                if rec is None:
                    if not item:  # (only a comment: a row of the listing; asked only here: pass 1 never decodes "")
                        if listing:
                            entries.add(None, pc, 0, before + i, 0, None, local)
                        continue
                    rec = decode(item)
                if executed >= limit:
                    pass  # (the budget: as any line, below)
                elif type(rec) is Insn:  # (the commonest statement, laid out from the columns)
                    executed += 1
                    if rec.label is not None:
                        self.ref = before + i
                        define_value(rec.label, pc, LABEL, None, None, local)
                    shape = rec.shape
                    size = address_size(rec, values, pc, local) if shape.form == "address" else shape.size
                    if entries.local is not local:  # (the entries' locals are runs: a macro call's body, the lines after it)
                        entries.mark(local)
                    recs.append(rec)
                    add_pc(pc)
                    add_size(size)
                    add_ref(before + i)
                    add_stmt(0)
                    pc = (pc + (3 if size == FORWARD else size)) & 0xFFFF
                    continue
                elif type(rec) is Define:  # (the next commonest: its line's object made only for a message)
                    executed += 1
                    self.ref = before + i
                    self.k = 0
                    self.executed, self.pc = executed, pc
                    self.define(rec, None, None, local)
                    continue
                elif type(rec) is Data:  # ('.byt' and the like: as 'statement' lays them out, without the line's object)
                    executed += 1
                    self.ref = before + i
                    self.k = 0
                    self.executed, self.pc = executed, pc
                    if rec.label is not None:
                        self.define_label(rec.label, None, None, local)
                    self.data_ops[rec.op](rec, None, None, local)
                    pc = self.pc
                    continue
                line = lines.line(i - 1)  # (any other statement: as any line, with its object made now)
                statements: list | tuple = (line,)
            elif item.has_code:
                line = item
                statements = line.statements
            else:
                if listing:  # each statement a row: ';call:' is a comment and an empty statement (rules/listing_comment_colon_end)
                    for k, stmt in enumerate(item.statements or (None,)):
                        entries.add(None, pc, 0, before + i, k if stmt is not None else -1, stmt, local)
                continue
            ref = self.ref = before + i  # (a macro call restores it: Layout.call)
            first = 0  # the number of the line's first statement (its own statements: an entry notes one by its number)
            while statements:
                resume = None  # (statements after an OVERFLOW: see overflow_resume)
                k = first - 1
                for stmt in statements:
                    k += 1  # (no enumerate: an object a line)
                    text = stmt.text
                    if not text or text == "^" and (k == 0 or not blank_after_colon(line, stmt)):
                        # a comment, or nothing between two ':' (listed with the address: rules/listing_double_colon),
                        # or the up-arrow's indentation before nothing ('^;x': rules/listing_caret_*)
                        if listing:
                            entries.add(None, pc, 0, ref, k, stmt, local)
                        continue
                    executed += 1
                    if executed > limit and executed > (limit := self.full_budget()):
                        self.executed, self.pc = executed, pc
                        self.err(f"assembly stopped after {limit} statements ({self.options.max_statements} more than the "
                                 "source holds): endless .goto loop?", (line, stmt.col, len(text)))
                        raise Stop
                    rec = decoded(text)
                    if rec is None:
                        rec = decode(text)
                    if (k != 0 and local is None
                            and (rec.label is not None or type(rec) is Define or type(rec) is Bad or text[0] == "^")
                            and blank_after_colon(line, stmt)):  # fmt: skip
                        rec = self.decoder.decode_after_blank_colon(text)
                    if type(rec) is Insn:
                        if rec.label is not None:
                            define_value(rec.label, pc, LABEL, line, stmt, local)
                        shape = rec.shape
                        size = address_size(rec, values, pc, local) if shape.form == "address" else shape.size
                        if k < other_stmt:
                            if entries.local is not local:
                                entries.mark(local)
                            recs.append(rec)
                            add_pc(pc)
                            add_size(size)
                            add_ref(ref)
                            add_stmt(k)
                        else:
                            entries.add(rec, pc, size, ref, k, stmt, local)
                        pc = (pc + (3 if size == FORWARD else size)) & 0xFFFF
                        continue
                    self.executed, self.pc = executed, pc
                    self.k = k
                    if type(rec) is Define:  # ('statement' would only pass it on to 'define', which moves neither
                        # count and goes on with the line: a definition is a common statement)
                        self.define(rec, line, stmt, local)
                        continue
                    outcome = self.statement(rec, line, stmt, local, depth, lines)
                    executed, pc = self.executed, self.pc
                    if outcome is not None:
                        if outcome >= 0:  # .goto: the index of the line to go on with
                            i = outcome
                        break  # the rest of the line is skipped (.if false, .goto, .mac)
                    if type(rec) is Bad and rec.problem[0].endswith("[OVERFLOW]"):
                        after = overflow_resume(text, rec.problem[1])
                        if after is not None:
                            resume = tuple(split_statements(line.line_text, stmt.col - 1 + after))
                            break
                statements = resume
                first = OTHER_STMT  # (statements split again: none of the line's own, noted as themselves)
        self.executed, self.pc = executed, pc

    def full_budget(self) -> int:
        """The budget with every statement of the files run so far.  A line's statements after its first
        are counted only when the budget of one a line is used up: most programs never get there, and
        counting them at the start would take a pass over every line (a list of a count per line would be
        many times the text's size, a generator costs time on every line)."""
        for lines in self.uncounted:
            self.budget += sum(len(line.statements) - 1 for line in lines.texts if type(line) is SourceLine)
        self.uncounted = []
        return self.budget

    def address_size(self, rec: Insn, values: dict, pc: int, local) -> int:
        """The one zero-page rule: zero page when the mnemonic has it, no '!' forces absolute, and
        the operand's value is known in pass 1 and fits in a byte (or the mnemonic has only zero page)."""
        shape = rec.shape  # (the instruction's Form: decode.Insn)
        if shape.zp_code < 0 or shape.prefix == "!":
            return 3
        if shape.code < 0:
            return 2
        fn = rec.fn
        if isinstance(fn, str):  # a symbol's key (expr.compile_node: the commonest operand)
            value = values.get(fn)
            if value is None:
                return FORWARD
            if shape.prefix:
                return 2
        elif type(fn) is MethodType and type(fn.__self__) is ex.Num:  # a number (expr.constant_of, inline)
            value = fn.__self__.value
        else:
            try:
                value = fn(values, pc, local)
            except ex.Unknown:
                return FORWARD
            except ex.ExprError:
                return 3  # (reported in pass 2)
            if shape.prefix:
                return 2
        return 2 if value <= 0xFF else 3

    def statement(self, rec, line, stmt, local, depth, lines):
        """Every statement but an instruction; returns None, -1 (skip the rest of the line) or a line index."""
        kind = type(rec)
        if rec.label is not None and (kind is Data or kind is Origin):  # ('label *= *+n' reserves n bytes)
            self.define_label(rec.label, line, stmt, local)
        if kind is Define:
            return self.define(rec, line, stmt, local)
        if kind is Data:
            self.data_ops[rec.op](rec, line, stmt, local)
            return None
        if kind is Label:  # (a label needs a statement after it: the original's SYNTAX 0)
            close = self.decoder.near_mnemonics(rec.label)
            typo = f" (a typo of {' or '.join(close)}?)" if close else ""
            after = stmt.col - 1 + len(stmt.text)
            colon = () if typo or line.line_text[after:after + 1] != ":" else (note(  # the 64tass/ACME habit 'loop: jmp loop'
                f"in Profi-Ass ':' separates statements and a label has no colon: write '{rec.label} "
                f"{line.line_text[after + 1:].split(';')[0].strip() or 'nop'}'"),)
            self.err(f"a label needs a statement after it on its line: '{rec.label}' alone{typo} [SYNTAX 0]", (line, stmt.col, len(rec.label)), *colon)
            return None
        if kind is Origin:
            return self.origin(rec, line, stmt, local)
        if kind is Pseudo:
            found = self.pseudo.get(rec.op)
            if rec.label is not None and rec.op != "mac":  # ('name .mac': the macro's name)
                self.define_label(rec.label, line, stmt, local)
            if found is None:
                hint = foreign_hint(rec.name)
                self.err(f"unknown pseudo-op '.{rec.name}' [SYNTAX 7]", (line, stmt.col + rec.op_offset, rec.op_length),
                         *((note(hint),) if hint else ()))  # fmt: skip
                return None
            handler, listed = found
            if self.listing and listed:
                self.layout.add(rec, self.pc, 0, self.ref, self.k, stmt, local)
            return handler(rec, line, stmt, local, depth, lines)
        if kind is Call:
            if rec.label is not None:
                self.define_label(rec.label, line, stmt, local)
            return self.call(rec, line, stmt, local, depth)
        if kind is Start:
            if not self.started:  # the start line: what follows it on the line is assembled
                self.started = True
                return None
            self.err("'sys' is the start line: only the first one starts the assembler [SYNTAX 1]", (line, stmt.col, len(stmt.text)))
            return None
        # Bad: the original skips the statement, its label too (a reference to it is then
        # UNDEF'D STATEMENT in pass 2: fuzz seeds 199, 604)
        message, offset, length = rec.problem
        if local is None and LOCAL_JUNK in message:  # 'lda .l "x"' outside a macro: SYNTAX 5 (rules/local_junk_*)
            message = "a label local to a macro (.name) is referenced only inside a macro, and " + message.replace(LOCAL_JUNK, "").replace("[SYNTAX 3]", "[SYNTAX 5]")
        kept = len(self.diags)
        if line is not None and _after_comment(line.line_text, stmt.col):
            self.err(message, (line, stmt.col + offset, length), note(COMMENT_ENDS))
        else:
            self.err(message, (line, stmt.col + offset, length))
        if rec.label is not None and len(self.diags) > kept:
            self.skipped_labels.setdefault(ex.key_of(rec.label) if local is None or rec.label[0] != "." else
                                           ex.local_key(rec.label[1:], local), kept)
        if self.listing:
            self.layout.add(rec, self.pc, 0, self.ref, self.k, stmt, local)
        return None

    # -- data ----------------------------------------------------------------------------

    def lay_data(self, rec: Data, line, stmt, local) -> None:
        """``.byt``, ``.wor``, ``.flp``: laid out at the program counter."""
        self.layout.add(rec, self.pc, rec.size, self.ref, self.k, stmt, local)
        self.pc = (self.pc + rec.size) & 0xFFFF

    def lay_asc(self, rec: Data, line, stmt, local) -> None:
        """``.asc``: as data (its length is the operand's, checked by the decoder: OPERAND_LIMIT)."""
        self.lay_data(rec, line, stmt, local)

    # -- symbols -------------------------------------------------------------------------

    def spelled(self, key: str, full: str) -> None:
        """Note ``full`` as the spelling of ``key`` (a name's first, or a '-D' define's latest)."""
        if full != key:
            self.spelling[key] = full
        else:
            self.spelling.pop(key, None)

    def spelling_of(self, key: str) -> str | None:
        """The first full spelling of symbol ``key``, None for a key that has none.  A key without a colon
        is spelled once it is in symbols, a 'name:00' key once it is in definition_labels; local keys
        ('name:NN') of labels in calls have none."""
        found = self.spelling.get(key)
        if found is not None:
            return found
        if ":" in key:
            return key if key in self.definition_labels else None
        return key if key in self.symbols else None

    def ordered(self, key: str) -> None:
        """Add ``key`` (which is in symbols) to order unless it is there."""
        if key in self.unordered:
            self.unordered.discard(key)
            self.order.append(key)

    def define_label(self, name: str, line, stmt, local) -> None:
        self.define_value(name, self.pc, LABEL, line, stmt, local)

    def define_value(self, name: str, value: int, kind: int, line, stmt, local) -> None:
        """Define a label or '=' constant (pass 1 only): a second definition is the original's
        REDEFINITION, and the first value stays.  (``line`` None: the line run now, which is its own
        one statement, its object made only for a message.)"""
        full = name if name.islower() else name.lower()  # (no copy of a name already in lower case: one a symbol)
        if local is None:
            key = full[: ex.SIGNIFICANT]
            if key in self.symbols:  # (a key without a colon: spelled since it is in symbols -- spelling_of)
                spelled = self.spelling.get(key, key)
            else:
                spelled = full
                if full != key:
                    self.spelling[key] = full
            if spelled != full:
                if line is None:
                    line = stmt = self.layout.line(self.ref)
                self.warn(
                    f"'{name}' and '{spelled}' are the same label: Profi-Ass keeps only the first {ex.SIGNIFICANT} characters ('{key}')",
                    (line, stmt.col, len(name)),
                    *([note("the other spelling is here", as_span(first))] if (first := self.place_of(key)) else []),
                )
        else:
            key = ex.local_key(name, local)
        if key in self.symbols:
            if line is None:
                line = stmt = self.layout.line(self.ref)
            first = self.place_of(key)
            self.err(f"duplicate symbol '{name}' [REDEFINITION]", (line, stmt.col, len(name)),
                     *([note("first defined here", as_span(first))] if first else []))  # fmt: skip
            return
        symbols = self.symbols
        if stmt is line:  # (see place_of; the key is new: its position is the count of symbols)
            refs = self.place_refs
            if len(refs) < len(symbols):
                refs.frombytes(bytes((len(symbols) - len(refs)) * refs.itemsize))
            refs.append(self.ref + 1)
            symbols[key] = PLACED | kind
        else:
            symbols[key] = IN_PLACES | kind
            self.places[key] = (line, stmt.col, len(name))
        self.values[key] = value
        self.order.append(key)

    def forget_places(self) -> None:
        """Keep only the kinds of the symbols (after the last message that names a place: the Result keeps
        them, and the places would be kept to its end for nothing)."""
        symbols = self.symbols
        for key, packed in symbols.items():  # (in place: a new dict would be the peak of a run without a listing)
            symbols[key] = packed & 3
        self.places = {}
        self.place_refs = array("I")
        self.positions = None

    def place_of(self, key: str) -> tuple | None:
        """Where symbol ``key`` was first defined: (line, col, length of its name).  A line that is its own
        statement is noted by its number among the lines run (Entries.refs: no line object, no tuple for
        each of a program's thousands of labels and constants); its name is its record's label or '=' name."""
        symbols = self.symbols
        packed = symbols.get(key)
        if packed is None or packed < PLACED:
            return self.places[key] if packed is not None and packed & IN_PLACES else None
        positions = self.positions
        if positions is None:
            positions = self.positions = {}
        if len(positions) < len(symbols):  # (the keys added since: symbols only grows, in order)
            positions.update(zip(islice(symbols, len(positions), None), count(len(positions))))
        line = self.layout.line(self.place_refs[positions[key]] - 1)
        assert not isinstance(line, SourceLine)  # (noted only for a line that is its own one statement)
        rec = self.decoder.decode(line.text)
        name = rec.label if rec.label is not None else rec.name if type(rec) is Define else ""
        return (line, line.col, len(name))

    def define(self, rec: Define, line, stmt, local):
        """'name = expr' ('_' for a variable).  (``line`` None: the line run now, which is its own one statement,
        its object made only for a message.)"""
        try:
            value = ex.value_of(rec.fn, self.values, self.pc, local)
        except ex.Unknown as u:
            value = None
            if line is None:
                line = stmt = self.layout.line(self.ref)
            if not rec.var:
                self.err(f"'{u.node.name}' is not defined yet: '=' takes its value in pass 1 [UNDEF'D STATEMENT]",
                         (line, stmt.col + rec.expr_offset + u.node.offset, u.node.length))  # fmt: skip
                value = self.pc  # (the original then gives the name the program counter: labels/labels_equ_forward_ref)
        except ex.ExprError as exc:
            if line is None:
                line = stmt = self.layout.line(self.ref)
            self.err(exc.message, (line, stmt.col + rec.expr_offset + exc.offset, exc.length))
            value = None
        if rec.var:
            key = ex.key_of(rec.name)
            packed = self.symbols.get(key)
            if packed is None or packed < 4:  # (its place noted once, not at each round of a loop: see place_of)
                kind = VAR if packed is None else packed
                if stmt is line and packed is None:  # (a new key: its position is the count of symbols)
                    refs = self.place_refs
                    if len(refs) < len(self.symbols):
                        refs.frombytes(bytes((len(self.symbols) - len(refs)) * refs.itemsize))
                    refs.append(self.ref + 1)
                    self.symbols[key] = PLACED | kind
                else:
                    if line is None:
                        line = stmt = self.layout.line(self.ref)
                    self.symbols[key] = IN_PLACES | kind
                    self.places[key] = (line, stmt.col, len(rec.name))
                if packed is None:
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
            self.layout.add(rec, self.pc, 0, self.ref, self.k, stmt, local)  # pass 2 assigns it again
        else:
            if value is not None:
                self.define_value(rec.name, value, CONST, line, stmt, None)
            mixed = self.decoder.mixed  # (an expression the usual precedence reads otherwise: its entry is checked after pass 2)
            if self.listing or mixed and id(rec.fn) in mixed:
                self.layout.add(rec, self.pc, 0, self.ref, self.k, stmt, local)
        return None

    def origin(self, rec: Origin, line, stmt, local):
        try:
            value = ex.value_of(rec.fn, self.values, self.pc, local)
        except ex.Unknown as u:
            self.err(f"the address in '*=' must be known in pass 1: '{u.node.name}' is not [UNDEF'D STATEMENT]",
                     (line, stmt.col + rec.expr_offset + u.node.offset, u.node.length))  # fmt: skip
            raise Stop from None
        except ex.ExprError as exc:
            self.err(exc.message, (line, stmt.col + rec.expr_offset + exc.offset, exc.length))
            raise Stop from None
        old = self.pc
        self.pc = value
        # (the listing shows the new address, or with a label in front the label's value)
        self.layout.add(rec, value if rec.label is None else old, 0, self.ref, self.k, stmt, local)
        return None

    # -- macros --------------------------------------------------------------------------

    def record(self, lines: Lines, i: int) -> None:
        """A line between .mac and .men (line ``i`` of ``lines``) becomes part of the macro's body."""
        line = lines.line(i)
        text = line.statements[0].text if line.statements else ""
        m = _MEN.match(text)
        if m:
            self.recording.end = _PSEUDO_WORD.match(text, m.end() - 4).group(0)
            if m.group(1):  # 'label .mend': the label is the last statement of the body
                self.recording.body.add(line)
                self.recording.labeled_end = True
            if self.recording.redefined:
                stmt = line.statements[0]
                self.err("the end of a macro defined twice: '.men' without '.mac' [SYNTAX B]", (line, stmt.col, len(stmt.text)))
            else:
                self.defined_labels(self.recording)
            self.recording = None
        elif _MAC.match(text):
            self.err("a macro cannot be defined inside another macro [SYNTAX D]", (line, line.statements[0].col, len(text)))
        else:
            self.recording.body.add(line)
        if self.listing:
            for k, stmt in enumerate(self.recorded_statements(line)):
                self.layout.add(MACRO_LINE, self.pc, 0, self.ref, k if stmt is not None else -1, stmt, None)

    def defined_labels(self, macro: Macro) -> None:
        """The original runs a macro's definition through: every label of the body becomes
        'name:00', its offset from the body's first line (an operand not known there is absolute),
        listed by '.sym' before the calls' own (macro/macro_local_sym, rules/mac_local_sym_*).
        Only the symbol table shows them: '.x' outside a call stays an error (rules/mac_local_outside)."""
        offset = 0
        for body_line in macro.body:
            for stmt in body_line.statements:
                if not stmt.text:
                    continue
                rec = self.decoder.decode(stmt.text)
                kind = type(rec)
                if rec.label is not None and kind is not Define and kind is not Bad:
                    key = ex.local_key(rec.label, ":00")
                    if key not in self.definition_labels:
                        self.definition_labels[key] = offset  # (spelled as its key: spelling_of)
                        self.order.append(key)
                if isinstance(rec, Insn):
                    size = self.address_size(rec, self.values, offset, ":00") if rec.form == "address" else rec.size
                    offset += 3 if size == FORWARD else size
                elif isinstance(rec, Data):
                    offset += rec.size

    def recorded_statements(self, line: Line) -> list:
        """The statements the original lists for a line recorded into a macro: every one, up to a
        '.if' that is false where the definition stands (its '*' there; a value it cannot know yet,
        such as a parameter's, goes on): probes rules/listing_mac_*, corpus georam_out."""
        statements = line.statements
        if len(statements) < 2:
            return [statements[0] if statements else None]
        listed = []
        for stmt in statements:
            listed.append(stmt)
            rec = self.decoder.decode(stmt.text) if stmt.text else None
            if type(rec) is Pseudo and PSEUDO_OPS[rec.op].pass1 == "op_if" and rec.args:  # (the pass-1 method names the '.if')
                try:
                    fn = self.decoder.compiled(rec.args)
                    if not ex.value_of(fn, self.values, self.pc, None):
                        break
                except (ex.ExprError, ex.Unknown):
                    pass
        return listed

    def op_mac(self, rec: Pseudo, line, stmt, local, depth, lines):
        where = (line, stmt.col + rec.op_offset, rec.op_length)
        if self.listing:
            self.layout.add(MACRO_LINE, self.pc, 0, self.ref, self.k, stmt, None)
        if local is not None:
            self.err("a macro cannot be defined inside another macro [SYNTAX D]", where)
            return -1
        name = rec.label
        params_text = rec.args
        if name is None:
            m = IDENT.match(params_text)
            if not m:
                self.err(".mac needs a name: 'name .mac param,...' [SYNTAX 8]", where)
                return -1
            name = m.group()
            params_text = params_text[m.end() :].strip()
        params = tuple(p.strip() for p in params_text.split(",") if p.strip())
        key = ex.key_of(name)
        # (a parameter that is no name, '1' or '$10', is the original's SYNTAX 8 at every call, not
        # here: syntax/syntax_mac_param_digit, rules/mac_param_bad_*)
        macro = Macro(name, tuple(ex.key_of(p) if IDENT.fullmatch(p) else p for p in params), line, stmt.col)
        if key in self.macros:
            # the first definition stays; this one is recorded and its end is '.men without .mac'
            # (macro/macro_redefined, rules/mac_redefined_*)
            self.err(f"macro '{name}' is defined twice [REDEFINITION]", where)
            macro.redefined = True
        else:
            self.macros[key] = macro
        self.macro_order.append(macro)
        self.recording = macro
        return -1

    def op_men(self, rec, line, stmt, local, depth, lines):
        if local is None:
            self.err(".men without .mac [SYNTAX B]", (line, stmt.col + rec.op_offset, rec.op_length))
        return None

    def call(self, rec: Call, line, stmt, local, depth):
        where = (line, stmt.col, len(stmt.text))
        macro = self.macros.get(ex.key_of(rec.name))
        if macro is None:
            self.err(f"unknown macro '{rec.name}' [UNDEF'D STATEMENT]", (line, stmt.col + rec.name_offset, len(rec.name)))
            return None
        if len(rec.args) != len(macro.params):
            self.err(f"macro '{macro.name}' takes {len(macro.params)} argument(s), got {len(rec.args)} [SYNTAX F]", where)
            return None
        if depth >= MACRO_DEPTH:
            self.err(f"macros nested more than {MACRO_DEPTH} deep (recursive macro?)", where)
            return None
        # the parameters are symbols that each call sets to its arguments' values (manual p. 23)
        compiled = []
        for arg in rec.args:
            try:
                compiled.append(self.argument(arg))
            except ex.ExprError as exc:
                self.err(f"{exc.message} (in the argument '{arg}')", where)
                return None
        at = len(self.layout)
        fns = tuple(compiled)
        self.layout.add(MacroCall.make(None, None, macro, fns), self.pc, 0, self.ref, self.k, stmt, local)
        for key, fn in zip(macro.params, fns):
            if not IDENT.fullmatch(key):
                self.err(f"macro '{macro.name}': the parameter '{key}' is no name [SYNTAX 8]", where)
                continue
            try:
                self.values[key] = ex.value_of(fn, self.values, self.pc, local)
            except (ex.Unknown, ex.ExprError):
                self.values.pop(key, None)
            if key not in self.symbols:  # (spelled as its key: spelling_of)
                self.symbols[key] = PARAM
                self.order.append(key)
            else:
                self.ordered(key)
        macro.calls += 1
        suffix = f":{macro.calls:02X}"  # (the call's local labels: '.lbl' is 'lbl:01' in the first call)
        ref, k = self.ref, self.k
        self.run_lines(macro.body, 0, depth + 1, suffix)
        self.ref, self.k = ref, k
        if self.listing:  # where the call's body ends in the layout (for asm6502.convert)
            self.call_ends[at] = (len(self.layout), suffix)
            if not macro.labeled_end:
                self.layout.add(MacroEnd.make(None, None, macro.end), self.pc, 0, self.ref, self.k, stmt, suffix)
        return None

    def argument(self, text: str):
        """The compiled expression of a macro argument: an expression, perhaps with a modifier in front
        (``<`` low byte, ``>`` high byte, ``!`` -- absolute -- leaves the value as it is)."""
        prefix = text[:1]
        if prefix not in ("<", ">", "!"):
            return self.decoder.compiled(text)
        fn = self.decoder.compiled(text[1:].lstrip())
        if prefix == "!":
            return fn
        value_of = ex.value_of
        if prefix == "<":
            return lambda v, pc, loc: value_of(fn, v, pc, loc) & 0xFF
        return lambda v, pc, loc: value_of(fn, v, pc, loc) >> 8

    # -- pseudo-ops ----------------------------------------------------------------------

    def value_of(self, rec: Pseudo, text: str, line, stmt, local, offset: int | None = None):
        """The value of a pseudo-op's expression argument (None: an error was reported)."""
        offset = rec.args_offset if offset is None else offset
        try:
            fn = self.decoder.compiled(text)
            return ex.value_of(fn, self.values, self.pc, local)
        except ex.ExprError as exc:
            self.err(exc.message, (line, stmt.col + offset + exc.offset, exc.length))
        except ex.Unknown as u:
            self.err(f"'{u.node.name}' is not defined yet: .{rec.name} needs its value in pass 1 [UNDEF'D STATEMENT]",
                     (line, stmt.col + offset + u.node.offset, u.node.length))  # fmt: skip
        return None

    def op_if(self, rec, line, stmt, local, depth, lines):
        if not rec.args:
            self.err(".if needs an expression [SYNTAX 5]", (line, stmt.col + rec.op_offset, rec.op_length))
            return -1
        try:
            fn = self.decoder.compiled(rec.args)
            value = ex.value_of(fn, self.values, self.pc, local)
        except ex.ExprError as exc:
            self.err(exc.message, (line, stmt.col + rec.args_offset + exc.offset, exc.length))
            return -1
        except ex.Unknown as u:  # a symbol never defined counts as 0 (the original); one defined further down is an error
            self.if_unknown.append((u.key, u.node.name, (line, stmt.col + rec.args_offset + u.node.offset, u.node.length)))
            return -1
        return None if value else -1

    def op_goto(self, rec, line, stmt, local, depth, lines):
        value = self.value_of(rec, rec.args, line, stmt, local) if rec.args else None
        if value is None:
            if not rec.args:
                self.err(".goto needs a line number [SYNTAX 5]", (line, stmt.col + rec.op_offset, rec.op_length))
            return -1
        index = self.line_numbers(lines).get(value)
        if index is not None:
            return index
        self.err(f".goto {value}: there is no line {value}" + (" in this macro" if local else "") + " [UNDEF'D STATEMENT]",
                 (line, stmt.col + rec.args_offset, len(rec.args)))  # fmt: skip
        raise Stop  # fatal in the original (manual p. 31)

    def line_numbers(self, lines: Lines):
        """BASIC line number -> position in ``lines`` (a file or a macro body), made once per Lines: ``.get(number)``.

        Lines in ascending order of number (lines without a number between them), as a BASIC program
        is, are looked up by bisection in an array of their numbers (4 bytes a line; a dict of every
        number would take many times that where ``.goto`` loops run many lines); others by a dict."""
        table = self.numbered.get(id(lines))
        if table is None:
            numbers = lines.numbers
            keys = numbers  # each line's number, a line without one taking the number before it (0 at the start)
            if NO_NUMBER in numbers:
                keys, last = array("I"), 0
                for number in numbers:
                    if number != NO_NUMBER:
                        last = number
                    keys.append(last)
            else:
                keys = array("I", numbers)
            if keys.tolist() == sorted(keys):  # (unsigned items: an array of "i" converts each through PyArg_Parse, 3 times the cost)
                table = self.numbered[id(lines)] = _Ascending(keys, numbers)
            else:  # (the first line of a number counts: the reversed pairs let it overwrite the later ones)
                table = self.numbered[id(lines)] = dict(zip(reversed(numbers), range(len(numbers) - 1, -1, -1)))
                table.pop(NO_NUMBER, None)
        return table

    def op_end(self, rec, line, stmt, local, depth, lines):
        self.ended = True
        if local is None:
            self.last_line = line.number
        if rec.args:
            self.chain_closed = True  # '.end 8,"first"': the original reloads the chain's first file for pass 2
        texts = lines.texts
        after = self.ref - lines.base + 1
        rest = next((lines.line(k) for k in range(after, len(texts)) if (texts[k] if type(texts[k]) is str else texts[k].has_code)), None)
        if rest is not None and local is None:
            self.warn("the lines after .end are BASIC that the C64 runs after the assembly: they are not assembled "
                      "(the original hands them to BASIC)", (rest, rest.statements[0].col, len(rest.statements[0].text)))  # fmt: skip
        raise Stop

    def op_file(self, rec, line, stmt, local, depth, lines):
        """``.file dev,"name"``: go on with the next source of the chain (this one ends here)."""
        where = (line, stmt.col + rec.args_offset, max(1, len(rec.args)))
        m = _DEVICE_NAME.match(rec.args)
        if m is None:
            hint = foreign_hint(rec.name) if rec.name.lower() != "file" else None  # ('.fill': 64tass's, read as '.fil')
            self.err('.file needs a device and a file name: .file 8,"name" [SYNTAX 6]', where, *((note(hint),) if hint else ()))
            return None
        device = int(m.group(1)) if m.group(1) else 8
        name = file_argument(rec.args)
        if not name:
            self.err('.file needs a file name: .file 8,"name" [SYNTAX 6]', where)
            return None
        if device not in DRIVES:
            self.err(f".file {device},...: device {device} is not a disk drive (8-11) [DEVICE NOT PRESENT]", where)
            raise Stop
        if self.chained is None:
            self.chained = (line, stmt.col, len(stmt.text))
        try:
            new_lines, start = self.reader(name, line)
        except OSError as exc:
            self.err(f"cannot read .file '{name}': {exc.strerror or exc} [IEEE]", where)
            raise Stop from None
        raise NextFile(new_lines, start)

    def op_opt(self, rec, line, stmt, local, depth, lines):
        """``.opt P,P#,P=expr,O,OO,O#,O=expr,M,N``: listing and object output (manual p. 17)."""
        after = line.line_text[stmt.col - 1 + len(stmt.text) :]
        if after[:1] in (" ", "\t") and after.lstrip().startswith(";") and rec.args.rsplit(",", 1)[-1].strip().lower() == "p":
            # a P last, then a blank and a comment: the original looks for the file number there and
            # finds none (opt/opt_p_comment_after, rules/opt_p_blank_comment_*; 'p;x', 'p1 ;x', 'oo ;x' are fine)
            self.err(".opt P, a blank and a comment: the original reads a file number after P and finds none "
                     "(write 'p;' or put the P first) [UNDEF'D STATEMENT]", (line, stmt.col, len(stmt.text)))
        for item in filter(None, (a.strip() for a in rec.args.split(","))):
            m = _OPT_ITEM.match(item)
            if m is None:
                self.err(f"unknown .opt option '{item}' [SYNTAX 5]", (line, stmt.col + rec.args_offset, len(rec.args)))
                continue
            letter, arg = m.group(1).lower(), m.group(2)
            if arg and arg[0] == "=" and letter in "op":
                what = "the listing's characters" if letter == "p" else "the object code"
                self.err(f".opt {item}: hands {what} to a routine of the running C64: not supported here (leave it out, or use "
                         f"{'P' if letter == 'p' else 'O'}# with an OPEN line)", (line, stmt.col + rec.args_offset, len(rec.args)))  # fmt: skip
                continue
            if letter in ("n", "o", "oo"):  # (the O options exclude each other: opt/opt_o1_and_oo)
                self.object_buffer = letter == "o" and not arg
            if letter == "n":
                self.object_lfn = self.listing_lfn = None
            elif arg and arg[0].isdigit():
                lfn = int(arg)
                if lfn not in self.opens:
                    self.warn(f".opt {item}: no 'OPEN {lfn},...' before the start line names this file", (line, stmt.col, len(stmt.text)))
                if letter == "o":
                    self.object_lfn = lfn
                elif letter == "p":
                    self.listing_lfn = lfn
        return None

    def op_listing(self, rec, line, stmt, local, depth, lines):
        return None  # .tit / .pag: the listing shows them (encode.py)

    def op_accept(self, rec, line, stmt, local, depth, lines):
        """``.stm addr``: the lowest address of the original's symbol table (it grows down from $8000);
        assemble.py checks the symbols against it after pass 1 (SYM TABLE OVERFLOW)."""
        if rec.args:
            value = self.value_of(rec, rec.args, line, stmt, local)
            if value is not None:
                self.symbol_memory = (value, len(self.order))
        return None

    def op_sym(self, rec, line, stmt, local, depth, lines):
        if rec.args:
            self.value_of(rec, rec.args, line, stmt, local)  # symbols a line
        self.symbol_listing = True
        return None

    def op_sst(self, rec, line, stmt, local, depth, lines):
        name = file_argument(rec.args)
        if not name:
            self.err('.sst needs a file name: .sst 8,2,"name,s,w" [SYNTAX 6]', (line, stmt.col + rec.op_offset, rec.op_length))
        elif '"' not in rec.args:
            self.err('.sst needs the file name in quotes: .sst 8,2,"name,s,w" [SYNTAX 6]', (line, stmt.col + rec.args_offset, len(rec.args)))
        else:
            self.sst.append((name, dict(self.values)))
        return None

    def op_lst(self, rec, line, stmt, local, depth, lines):
        """``.lst dev,sa,"name"``: load a symbol table written by ``.sst`` (values overwrite, no checks)."""
        name = file_argument(rec.args)
        where = (line, stmt.col + rec.args_offset, max(1, len(rec.args)))
        if not name:
            self.err('.lst needs a file name: .lst 8,2,"name" [SYNTAX 6]', where)
            return None
        try:
            data = self.reader(name, line, raw=True)
            table = read_symbols(data)
        except (OSError, ValueError) as exc:
            self.err(f"cannot read .lst '{name}': {getattr(exc, 'strerror', None) or exc}", where)
            return None
        for key, value in table:
            self.values[key] = value
            if key not in self.symbols:  # (spelled as its key: spelling_of)
                self.symbols[key] = CONST
                if ":" not in key:
                    self.unordered.add(key)
            if ":" in key:  # (a local key, 'name:NN', is spelled only when a table names it)
                self.spelling.setdefault(key, key)
        return None

    def op_c64(self, rec, line, stmt, local, depth, lines):
        what = {"gtb": "gets the next source from BASIC memory", "sys": "calls machine code during assembly"}[rec.op]
        self.err(f"'.{rec.name}' needs a running C64 (it {what}): not supported here", (line, stmt.col + rec.op_offset, rec.op_length))
        return None


class _Ascending:
    """The lines of a list in ascending order of number, looked up by bisection (Layout.line_numbers)."""

    __slots__ = ("keys", "numbers")

    def __init__(self, keys: array, numbers: array):
        self.keys, self.numbers = keys, numbers

    def get(self, number: int) -> int | None:
        """The index of the first line of that number.  (A line without a number has the key of the
        numbered line before it, which comes first; only those before the first numbered line, key 0,
        are passed over here.)"""
        keys = self.keys
        i = bisect_left(keys, number)
        while i < len(keys) and keys[i] == number:
            if self.numbers[i] == number:
                return i
            i += 1
        return None


def file_argument(args: str) -> str | None:
    """The file name of ``dev,"name"`` / ``dev,sa,"name"`` / ``"name"`` / ``name``, without drive and type."""
    m = re.search(r'"([^"]*)"?', args)
    text = m.group(1) if m else args.split(",")[-1].strip()
    return file_name(text).strip() or None
