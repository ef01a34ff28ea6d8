"""Two-pass assembler for the Profi-Ass 64 V2.0 dialect.

One function, :meth:`_Assembly.run_pass`, runs both passes (``final=False``
then ``final=True``).  Pass 1 learns symbol values; an operand whose value
is not known yet in pass 1 (a forward reference) is sized absolute, and
pass 2 uses the same size, then checks that no label moved (phase error).
Diagnostics of the final pass are the ones reported.

How it stays fast (``bench/``): without a listing, a simple program (labels,
constants, instructions and data with operands of numbers and symbols) takes
the quick sweep of ``simple.py``, which gives this module's result or leaves
the program to it.  Here, each distinct statement text is decoded once
(``statements.py``); pass 1 only sizes instructions and data lists, and
evaluates only what can change a size (an address that may be zero page) or
defines a symbol; symbols and simple chains are evaluated without the tree
walker unless something needs a diagnostic (``quick_value``); a main file
without control flow runs as one straight loop (``run_straight``); listing
rows and Span objects are made only when asked for.

The dialect (Profi-Ass 64 V2.0 manual, Data Becker 1984, summarised in
issue 2 of this project):

* ``NNN [label] mnemonic operand ;comment`` -- BASIC line numbers, ``:``
  separates statements, a ``:`` outside quotes also ends a comment;
* labels: a letter then letters, digits, ``.``; only 8 characters count;
  this implementation folds case (a text file's ``Loop`` and ``loop`` are
  the same label);
* ``label = expr`` constant, ``label _ expr`` redefinable, ``*= expr`` and
  ``label *= expr``;
* pseudo-ops by their first three letters: ``.byt .wor .asc .opt .end .if
  .goto .mac .men .file .tit .pag``;
* ``'name args`` calls a macro.
"""

from __future__ import annotations

import gc
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from asm6502 import expr as ex
from asm6502 import simple
from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, note, warning
from asm6502.opcodes import ZERO_PAGE_FORM, Mode
from asm6502.source import SourceLine, Statement, read_lines
from asm6502.statements import IDENT, SIGNIFICANT, START_LINE, DataList, Decoder, Definition, Instruction, petscii, split_commas

ASC_LIMIT = 55  # longest .asc string Profi-Ass accepts
MACRO_DEPTH = 16

# Profi-Ass pseudo-ops that only make sense inside the C64 program itself
# (get BASIC text, SYS, load/save source, symbol table or listing to the
# screen/printer, floppy commands).  We report them instead of guessing.
C64_ONLY = {
    "gtb": "get the next source from BASIC memory",
    "sys": "call machine code during assembly",
    "stm": "store the source in memory",
    "sst": "store the symbol table",
    "lst": "list the source on the C64 screen (use --listing FILE)",
    "sym": "print the symbol table on the C64 (use --labels FILE)",
    "flp": "send a floppy command",
}


@dataclass(frozen=True)
class Options:
    """How to assemble.  Frozen: the same options always give the same bytes."""

    cpu: str = "6502"  # "6502" (documented opcodes) or "6502i" (with undocumented ones)
    defines: tuple[tuple[str, int], ...] = ()  # -D name=value
    max_statements: int = 1_000_000  # guard against endless .goto loops (per pass)
    search_paths: tuple[str, ...] = ()  # extra directories for .file
    listing: bool = True  # keep the listing rows (Result.listing); off, a large program assembles faster


class ListingRow(NamedTuple):
    """One row of the listing (a tuple: the final pass makes one per statement)."""

    where: Span | tuple  # a Span, or (SourceLine, col, length) made into one on demand
    address: int | None
    data: bytes
    text: str
    value: int | None = None  # for '=' rows: the value defined
    page_break: bool = False
    title: str | None = None

    @property
    def span(self) -> Span:
        return _as_span(self.where)


def _as_span(where: Span | tuple) -> Span:
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
        """Bytes from the load address to the end, gaps filled with $00."""
        return self.image_with(0x00)

    @property
    def prg(self) -> bytes:
        """C64 .prg: 2-byte little-endian load address, then the image."""
        return self.load_address.to_bytes(2, "little") + self.image


# --------------------------------------------------------------------------



@dataclass
class _Macro:
    name: str
    params: tuple[str, ...]
    body: list[SourceLine]
    locals: frozenset[str]
    span: Span


@dataclass
class _Scope:
    """Where statements come from: a file's lines, or a macro expansion."""

    lines: list[SourceLine]
    local_names: dict[str, str] = field(default_factory=dict)  # macro-local label -> unique key
    substitutions: dict[str, str] = field(default_factory=dict)  # macro parameter -> argument text
    _by_number: dict[int, int] | None = None

    def index_of(self, number: int) -> int | None:
        """Index of the first line with BASIC line number ``number`` (for .goto)."""
        if self._by_number is None:
            self._by_number = {}
            for i, line in enumerate(self.lines):
                if line.number is not None:
                    self._by_number.setdefault(line.number, i)
        return self._by_number.get(number)


class _Stop(Exception):
    """Ends the current pass early (after .end or a fatal error)."""


def _key(name: str) -> str:
    return name.lower()[:SIGNIFICANT]


class _Assembly:
    def __init__(self, lines: list[SourceLine], options: Options, reader):
        self.main_lines = lines
        self.options = options
        self.reader = reader  # (name, from_span) -> list[SourceLine]
        # carried from pass to pass
        self.previous: dict[str, int] = {}  # symbol values at the end of the previous pass
        self.unknown_in_pass1: set[int] = set()  # statement serials sized absolute for a forward ref
        self.pass1_defined: dict[str, int] = {}
        self.prev_kinds: dict[str, str] = {}
        self.spelling: dict[str, str] = {}  # 8-character key -> first full spelling (kept across passes)
        self.decoder = Decoder(options.cpu)  # statement texts decoded once, for both passes
        self.program: list | None = None  # the main file as a straight program (see straight_program)
        self.program_built = False

    # -- one pass ---------------------------------------------------------

    def run_pass(self, final: bool) -> None:
        self.final = final
        self.listing = final and self.options.listing  # listing rows are made in the final pass, when asked for
        self.diags: list[Diagnostic] = []
        self.values: dict[str, int] = {}
        self.kinds: dict[str, str] = {}  # key -> "label" | "const" | "var"
        self.defined_at: dict[str, Span | tuple] = {}  # where each symbol was first defined (see _as_span)
        self.macros: dict[str, _Macro] = {}
        self.pc: int | None = None
        self.pc_span: Span | None = None
        self.chunks: list[tuple[int, bytearray, Span]] = []
        self.chunk_end = -1  # the address after the last chunk's bytes (emitting there extends it)
        self.rows: list[ListingRow] = []
        self.serial = 0
        self.executed = 0
        self.expansions = 0
        self.overflowed = False
        self.recording: _Macro | None = None
        self.warned_collisions: set[tuple[str, str]] = set()
        for name, value in self.options.defines:
            self.define(name, value, Span("<command line>", 0, 0), "const")
        main = _Scope(self.main_lines)
        try:
            program = None if self.listing else self.straight_program()
            if program is not None and len(program) <= self.options.max_statements:
                self.executed = len(program)  # (each statement runs once)
                self.run_straight(program, main)
            else:
                self.run_scope(main, depth=0)
        except _Stop:
            pass
        if self.recording is not None:
            self.err(f"macro '{self.recording.name}' has no .men", self.recording.span)
        if not final:
            self.previous = dict(self.values)
            self.pass1_defined = dict(self.values)
            self.prev_kinds = dict(self.kinds)

    def run_scope(self, scope: _Scope, depth: int) -> None:
        """Run a file's lines or a macro's body, statement by statement; ``.goto`` jumps inside it."""
        lines = scope.lines
        limit = self.options.max_statements
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if self.recording is not None:
                self.record(line)
                continue
            if not line.has_code:
                if self.listing:
                    comment = " ".join(s.comment for s in line.statements if s.comment)
                    self.rows.append(ListingRow(self.span(line, 1, 1), None, b"", comment))
                continue
            for stmt in line.statements:
                self.executed += 1
                if self.executed > limit:
                    self.err(
                        f"assembly stopped after {limit} statements: endless .goto loop?",
                        self.span(line, stmt.col, max(1, len(stmt.text))),
                    )
                    raise _Stop
                outcome = self.run_statement(line, stmt, scope, depth)
                if outcome is not None:
                    if outcome != "skip-line":  # the index of the line .goto jumps to
                        i = outcome
                    break  # the rest of the line is skipped (.if false, .goto, .mac)

    def straight_program(self) -> list[tuple[SourceLine, Statement, object]] | None:
        """The main file as (line, statement, decoded statement) rows, when it has no control
        flow -- no .if, .goto, .mac, .file or macro call -- so that every statement runs
        once, in order (see :meth:`run_straight`); None when it has some."""
        if not self.program_built:
            self.program_built = True
            program = []
            for line in self.main_lines:
                if not line.has_code:
                    continue
                for stmt in line.statements:
                    decoded = self.decoder.statement(stmt.text) if stmt.text else None
                    if decoded is None and _FLOW.match(stmt.text):
                        return None
                    program.append((line, stmt, decoded))
            self.program = program
        return self.program

    def run_straight(self, program: list, scope: _Scope) -> None:
        """Run a straight program: what :meth:`run_scope` does, with the commonest statements
        written out here -- a large program spends most of its time in this loop.  Anything
        that may need a diagnostic, and any instruction with a label in front, takes
        :meth:`run_statement`.  (Only passes without a listing run here.)"""
        final = self.final
        for line, stmt, decoded in program:
            kind = type(decoded)
            if kind is Instruction and decoded.label is None and decoded.problem is None:
                data = self.quick_instruction(decoded) if final else None
                if final and data is not None:
                    self.serial += 1
                    self.emit(data, (line, stmt.col, len(stmt.text)))
                    continue
                if not final and self.quick_size(decoded):
                    continue
            elif kind is Definition and decoded.problem is None:
                value = self.quick_operand(decoded.node, "")
                if value is not _LONG_WAY:
                    self.serial += 1
                    self.define(decoded.name, value, (line, stmt.col, len(decoded.name)), decoded.kind, scope)
                    continue
            elif kind is str:  # a label on its own
                self.serial += 1
                self.define_label(decoded, (line, stmt.col, len(decoded)), scope)
                continue
            elif kind is DataList:
                self.serial += 1
                self.data(line, stmt, decoded, scope)
                continue
            self.run_statement(line, stmt, scope, 0)

    def quick_operand(self, node: ex.Node | None, prefix: str):
        """An operand's value (after a < or > prefix) from :meth:`quick_value`, or _LONG_WAY."""
        kind = type(node)
        if kind is ex.Num:
            value = node.value
        elif kind is ex.Sym:
            value = self.quick_symbol(node.name)
        elif kind is ex.Chain:
            value = self.quick_value(node)
        else:
            return _LONG_WAY
        return value if value is _LONG_WAY else ex.with_prefix(value, prefix)

    def quick_size(self, insn: Instruction) -> bool:
        """Pass 1 of :meth:`instruction` for an instruction without label or problem, when no
        diagnostic can come of it; False: take the long way."""
        if insn.form != "address":
            self.serial += 1
            self.pc = ((self.pc or 0) + insn.size) & 0xFFFF
            return True
        value = self.quick_operand(insn.node, insn.prefix)
        if value is _LONG_WAY:
            return False
        zero_page = insn.zp_code >= 0 and insn.prefix != "!" and (insn.code < 0 or (value is not None and value <= 0xFF))
        if not zero_page and insn.code < 0:
            return False
        self.serial += 1
        if value is None:
            self.unknown_in_pass1.add(self.serial)
        self.pc = ((self.pc or 0) + (2 if zero_page else 3)) & 0xFFFF
        return True

    def quick_instruction(self, insn: Instruction) -> bytes | None:
        """The final pass of :meth:`instruction` for an instruction without label or problem,
        when no diagnostic can come of it: its bytes; None: take the long way."""
        form = insn.form
        if insn.unstable:
            return None
        if form == "fixed":
            return insn.fixed
        value = self.quick_operand(insn.node, insn.prefix)
        if value is _LONG_WAY:
            return None
        if form == "address":
            if insn.zp_code >= 0 and insn.prefix != "!" and (
                insn.code < 0 or (value <= 0xFF and self.serial + 1 not in self.unknown_in_pass1)
            ):
                return bytes((insn.zp_code, value)) if value <= 0xFF else None
            return bytes((insn.code, value & 0xFF, value >> 8)) if insn.code >= 0 else None
        if form == "immediate":
            return bytes((insn.code, value)) if value <= 0xFF else None
        if form == "branch":
            distance = value - ((self.pc or 0) + 2)
            return bytes((insn.code, distance & 0xFF)) if -128 <= distance <= 127 else None
        return None  # (indirect forms are rare: the long way)

    def record(self, line: SourceLine) -> None:
        """A line between .mac and .men: it becomes part of the macro's body."""
        first = line.statements[0].text.lower() if line.statements else ""
        if re.match(r"(?:[a-z][a-z0-9.]*\s+)?\.men", first):
            self.recording = None
        elif re.match(r"(?:[a-z][a-z0-9.]*\s+)?\.mac", first):
            self.err("a macro cannot be defined inside another macro", self.span(line, line.statements[0].col))
        else:
            self.recording.body.append(line)

    # -- helpers -----------------------------------------------------------

    def span(self, line: SourceLine, col: int, length: int = 1) -> Span:
        return Span(line.file, line.index, col, length, line.text, line.number)

    def err(self, message: str, span: Span, *notes: Diagnostic) -> None:
        self.diags.append(error(message, span, *notes))

    def warn(self, message: str, span: Span, *notes: Diagnostic) -> None:
        self.diags.append(warning(message, span, *notes))

    def lookup(self, name: str, offset: int, length: int) -> int | None:
        """A symbol's value for :func:`ex.evaluate`, in the context :meth:`evaluate_node` set."""
        scope, line, base_col = self.context
        short = name[:SIGNIFICANT]  # (the parser gives names in lower case)
        key = scope.local_names.get(short, short) if scope.local_names else short
        if self.final and self.spelling.get(short, name) != name:
            pair = (short, name)
            if pair not in self.warned_collisions:
                self.warned_collisions.add(pair)
                self.warn(
                    f"'{name}' refers to '{self.spelling[short]}': Profi-Ass keeps only the first "
                    f"{SIGNIFICANT} characters ('{short}')",
                    self.span(line, base_col + offset, length),
                )
        value = self.values.get(key)
        if value is not None:
            return value
        if self.prev_kinds.get(key) == "var":
            raise ex.ExprError(f"'{name}' is used before it is assigned (a '_' variable has no forward value)", offset, length)
        if self.final:
            if key in self.previous:
                return self.previous[key]
            raise ex.ExprError(f"undefined symbol '{name}'", offset, length)
        return None

    def evaluate_node(self, node: ex.Node, line: SourceLine, col: int, scope: _Scope) -> int | None:
        """Value of a parsed expression starting at 1-based ``col``; errors are recorded, then _BadOperand."""
        kind = type(node)
        if kind is ex.Num:
            return node.value
        if (kind is ex.Sym or kind is ex.Chain) and not scope.local_names:
            value = self.quick_value(node)
            if value is not _LONG_WAY:
                return value
        self.context = (scope, line, col)
        try:
            return ex.evaluate(node, self.lookup, self.pc if self.pc is not None else 0)
        except ex.ExprError as exc:
            self.err(exc.message, self.span(line, col + exc.offset, exc.length))
            raise _BadOperand from None

    def evaluate(self, text: str, line: SourceLine, col: int, scope: _Scope) -> int | None:
        """Evaluate ``text`` (starting at 1-based ``col``); errors are recorded, then _BadOperand."""
        try:
            node = self.decoder.parse(text)
        except ex.ExprError as exc:
            self.err(exc.message, self.span(line, col + exc.offset, exc.length))
            raise _BadOperand from None
        return self.evaluate_node(node, line, col, scope)

    def quick_value(self, node: ex.Sym | ex.Chain):
        """The value of a symbol, or of numbers and symbols joined by operators, without
        :func:`ex.evaluate`; ``_LONG_WAY`` when something needs a diagnostic (an undefined
        symbol, a spelling warning, an arithmetic error), which the long way reports."""
        if type(node) is ex.Sym:
            return self.quick_symbol(node.name)
        first = node.first
        value = first.value if type(first) is ex.Num else self.quick_symbol(first.name) if type(first) is ex.Sym else _LONG_WAY
        for op, offset, operand in node.rest:
            kind = type(operand)
            right = operand.value if kind is ex.Num else self.quick_symbol(operand.name) if kind is ex.Sym else _LONG_WAY
            if value is _LONG_WAY or right is _LONG_WAY:
                return _LONG_WAY
            if value is None or right is None:  # (pass 1: a forward reference makes the whole value unknown)
                value = None
            elif op == "+":
                value = (value + right) & 0xFFFF
            elif op == "-":
                value = (value - right) & 0xFFFF
            else:
                try:
                    value = ex.apply(op, value, right, offset)
                except ex.ExprError:
                    return _LONG_WAY
        return value

    def quick_symbol(self, name: str):
        """A symbol's value as :meth:`lookup` gives it, or ``_LONG_WAY`` where lookup has something to report."""
        key = name[:SIGNIFICANT]
        value = self.values.get(key)
        if not self.final:
            return value  # None: a forward reference, unknown in pass 1
        if self.spelling.get(key) != name:
            return _LONG_WAY  # perhaps an 8-character collision to warn about
        if value is None:
            if self.prev_kinds.get(key) == "var":
                return _LONG_WAY
            value = self.previous.get(key)
            if value is None:
                return _LONG_WAY  # undefined
        return value

    def define(self, name: str, value: int | None, where: Span | tuple, kind: str, scope: _Scope | None = None) -> None:
        """Give ``name`` a value; ``where`` is a Span or a lazy (line, col, length)."""
        full = name.lower()
        short = full[:SIGNIFICANT]
        key = scope.local_names.get(short, short) if scope else short
        spelled = self.spelling.get(short)
        if spelled is None:
            self.spelling[short] = full
        elif spelled != full and (short, full) not in self.warned_collisions:
            self.warned_collisions.add((short, full))
            if self.final:
                self.warn(
                    f"'{name}' and '{spelled}' are the same label: Profi-Ass keeps only "
                    f"the first {SIGNIFICANT} characters ('{short}')",
                    _as_span(where),
                    note("the other spelling is here", _as_span(self.defined_at[key])) if key in self.defined_at else note("see above"),
                )
        old_kind = self.kinds.get(key)
        if old_kind is not None and not (kind == "var" and old_kind == "var"):
            first = self.defined_at.get(key)
            self.err(
                f"duplicate symbol '{name}'" + (" (a '_' variable cannot also be a label or '=' constant)" if "var" in (kind, old_kind) else ""),
                _as_span(where),
                *([note("first defined here", _as_span(first))] if first else []),
            )
            return
        if old_kind is None:
            self.defined_at[key] = where
        self.kinds[key] = kind
        if value is None:
            return
        if self.final and kind != "var" and self.pass1_defined.get(key, value) != value:
            self.err(
                f"phase error: '{name}' is ${value:04X} in pass 2 but was ${self.pass1_defined[key]:04X} in pass 1",
                _as_span(where),
            )
        self.values[key] = value

    def advance(self, size: int) -> None:
        """Pass 1: move the program counter past ``size`` bytes (no output is kept in pass 1)."""
        self.pc = ((self.pc or 0) + size) & 0xFFFF

    def emit(self, data: bytes, where: Span | tuple) -> None:
        """Output ``data`` at the program counter; ``where`` is a Span or (line, col, length)."""
        pc = self.pc
        end = pc + len(data) if pc is not None else -1
        if pc == self.chunk_end and end <= 0x10000:  # the common case: continue the current segment
            self.chunks[-1][1].extend(data)
            self.chunk_end = end
            self.pc = end & 0xFFFF
            return
        if not data:
            return
        span = _as_span(where)
        if pc is None:
            self.err("no start address: set one with '*= $xxxx' before the first code or data", span)
            pc = self.pc = 0
        if pc + len(data) > 0x10000:
            if not self.overflowed:
                self.overflowed = True
                self.err(f"program counter passes $FFFF (at ${pc:04X} + {len(data)} bytes)", span)
            self.pc = (pc + len(data)) & 0xFFFF  # wraps like the 6502's program counter
            return
        self.chunks.append((pc, bytearray(data), span))
        self.chunk_end = pc + len(data)
        self.pc = self.chunk_end & 0xFFFF

    # -- statements ---------------------------------------------------------

    def run_statement(self, line, stmt: Statement, scope: _Scope, depth):
        text = stmt.text
        col = stmt.col
        if not text:
            if stmt.comment and self.listing:
                self.rows.append(ListingRow(self.span(line, col), None, b"", stmt.comment))
            return None
        if scope.substitutions:
            text = _substitute(text, scope.substitutions).strip()
            if not text:  # a statement that was only an (empty) macro argument
                return None
        self.serial += 1
        # instructions, definitions and lone labels -- most of any program -- take the short way
        decoded = self.decoder.statement(text)
        if decoded is not None:
            try:
                kind = type(decoded)
                if kind is Instruction:
                    self.instruction(line, stmt, decoded, scope)
                elif kind is Definition:
                    self.definition(line, stmt, decoded, scope)
                elif kind is DataList:
                    self.data(line, stmt, decoded, scope)
                else:  # a label on its own
                    self.define_label(decoded, (line, col, len(decoded)), scope)
                    if self.listing:
                        self.rows.append(ListingRow((line, col, len(stmt.text)), None, b"", _shown(stmt)))
            except _BadOperand:
                if self.listing:
                    self.rows.append(ListingRow((line, col, len(stmt.text)), None, b"", _shown(stmt)))
            return None
        if not self.listing:
            try:
                return self.statement(line, stmt, text, col, scope, depth)
            except _BadOperand:
                return None
        start_pc = self.pc
        self.shown = _shown(stmt)
        n_rows = len(self.rows)
        n_chunks_bytes = self._emitted()
        try:
            outcome = self.statement(line, stmt, text, col, scope, depth)
        except _BadOperand:
            outcome = None
        if len(self.rows) == n_rows:
            data = self._bytes_since(n_chunks_bytes)
            self.rows.append(ListingRow((line, col, len(stmt.text)), start_pc if data else None, data, self.shown))
        return outcome

    def _emitted(self) -> tuple[int, int]:
        return (len(self.chunks), len(self.chunks[-1][1]) if self.chunks else 0)

    def _bytes_since(self, mark: tuple[int, int]) -> bytes:
        n, length = mark
        out = bytearray()
        if n and n <= len(self.chunks):
            out += self.chunks[n - 1][1][length:]
        for chunk in self.chunks[n:]:
            out += chunk[1]
        return bytes(out)

    def statement(self, line, stmt, text, col, scope, depth):
        """Any statement but an instruction (those are decoded once, see :meth:`instruction`)."""
        where = (line, col, len(text))  # the statement's span, made only when needed
        # the start line:  100 sys32768  /  sys 9*4096
        if START_LINE.match(text):
            if line is next((l for l in self.main_lines if l.has_code), None):
                return None
            self.err("'sys' is only accepted as the program's first line (the start line 'sys32768')", self.span(*where))
            return None

        if text.startswith("*"):
            rest = text[1:].lstrip()
            if rest.startswith("="):
                return self.set_pc(line, rest[1:], col + (len(text) - len(rest)) + 1, scope, self.span(*where))
            self.err("expected '*= address'", self.span(*where))
            return None
        if text.startswith("."):
            return self.pseudo(line, text, col, scope, depth)
        if text.startswith("'"):
            return self.call_macro(line, text, col, scope, depth)

        m = IDENT.match(text)
        if not m:
            self.err(f"unexpected '{text[0]}' at the start of a statement", self.span(line, col))
            return None
        # a label (instructions, with or without a label, were recognised by their shape above)
        word = m.group(0)
        rest = text[m.end() :]
        label_span = (line, col, len(word))  # made into a Span only when needed
        after = rest.lstrip()
        after_col = col + m.end() + (len(rest) - len(after))
        if after[:1] in ("=", "_"):  # 'label = expr' constant, 'label _ expr' redefinable (C64 left arrow)
            value = self.evaluate_operand_value(after[1:], line, after_col + 1, scope)
            self.define(word, value, label_span, "const" if after[0] == "=" else "var", scope)
            if self.listing and value is not None:
                self.rows.append(ListingRow(label_span, None, b"", self.shown, value=value))
            return None
        if after.lower().startswith(".mac"):
            return self.pseudo(line, after, after_col, scope, depth, label=word)
        self.define_label(word, label_span, scope)
        if not after:
            return None
        if after.startswith("*"):
            rest2 = after[1:].lstrip()
            if rest2.startswith("="):
                return self.set_pc(line, rest2[1:], after_col + (len(after) - len(rest2)) + 1, scope, self.span(*where))
        if after.startswith("."):
            return self.pseudo(line, after, after_col, scope, depth)
        if after.startswith("'"):
            return self.call_macro(line, after, after_col, scope, depth)
        m2 = IDENT.match(after)
        bad = m2.group(0) if m2 else after.split()[0]
        hint = _undocumented_hint(word, self.options.cpu)
        if hint:  # 'lax $12' without --cpu 6502i, or 64tass's alias 'alr #1': say so instead of "unknown mnemonic '$12'"
            self.err(hint, _as_span(label_span))
            return None
        self.err(f"unknown mnemonic '{bad}' (after label '{word}')", self.span(line, after_col, len(bad)))
        return None

    def definition(self, line, stmt: Statement, decoded: Definition, scope: _Scope) -> None:
        """``name = value`` (a constant) or ``name _ value`` (a variable, the C64's left arrow)."""
        col = stmt.col
        if decoded.problem is not None:
            message, offset, length = decoded.problem
            self.err(message, self.span(line, col + offset, length))
            raise _BadOperand
        where = (line, col, len(decoded.name))
        value = self.evaluate_node(decoded.node, line, col + decoded.expr_offset, scope)
        self.define(decoded.name, value, where, decoded.kind, scope)
        if self.listing:
            self.rows.append(ListingRow(where, None, b"", _shown(stmt), value=value))

    def define_label(self, name: str, where: Span | tuple, scope: _Scope) -> None:
        """A label takes the program counter's value."""
        if self.pc is None:
            self.err(f"label '{name}' before any '*=': there is no address to give it", _as_span(where))
        else:
            self.define(name, self.pc, where, "label", scope)

    def evaluate_operand_value(self, text: str, line, col: int, scope) -> int | None:
        stripped = text.lstrip()
        col += len(text) - len(stripped)
        if not stripped:
            self.err("expression expected", self.span(line, col))
            raise _BadOperand
        return self.evaluate(stripped, line, col, scope)

    def set_pc(self, line, text, col, scope, span_all):
        value = self.evaluate_operand_value(text, line, col, scope)
        if value is None:
            if self.final:
                return None
            self.err("the address in '*=' must be known in pass 1", span_all)
            raise _Stop
        self.pc = value
        self.pc_span = span_all
        return None

    # -- pseudo-ops ------------------------------------------------------------

    def pseudo(self, line, text, col, scope, depth, label: str | None = None):
        m = re.match(r"\.([A-Za-z#]+)", text)
        if not m:
            self.err("pseudo-op name expected after '.'", self.span(line, col))
            return None
        name = m.group(1).lower()
        short = name[:3]
        args = text[m.end() :]
        args_stripped = args.strip()
        args_col = col + m.end() + (len(args) - len(args.lstrip()))
        op_span = self.span(line, col, m.end())
        if short == "asc":  # (.byt and .wor are decoded like instructions: see statements.py)
            if not (args_stripped.startswith('"') and args_stripped.endswith('"') and len(args_stripped) >= 2):
                self.err('.asc expects one string in double quotes: .asc "text"', self.span(line, args_col, max(1, len(args_stripped))))
                return None
            body = args_stripped[1:-1]
            if '"' in body:
                self.err('.asc takes one string; use .byt for lists', self.span(line, args_col, len(args_stripped)))
                return None
            if len(body) > ASC_LIMIT:
                self.warn(f".asc string is {len(body)} characters; Profi-Ass accepts at most {ASC_LIMIT}", self.span(line, args_col, len(args_stripped)))
            data, problems = petscii(body, args_col + 1)
            for message, problem_col, length in problems:
                self.err(message, self.span(line, problem_col, length))
            self.emit(data, op_span)
        elif short == "opt":
            for item in filter(None, (a.strip() for a in args.split(","))):
                if not re.fullmatch(r"[A-Za-z#]+", item):
                    self.err(f"unknown .opt option '{item}'", self.span(line, args_col, len(item)))
        elif short == "end":
            raise _Stop
        elif short == "if":
            value = self.evaluate_operand_value(args, line, args_col, scope)
            if value is None:
                self.unknown_in_pass1.add(self.serial)
                return "skip-line"
            if self.final and self.serial in self.unknown_in_pass1:
                self.err(
                    ".if uses a symbol defined further down: the condition must be known in pass 1",
                    self.span(line, args_col, len(args_stripped)),
                )
            return None if value else "skip-line"
        elif short == "got":
            value = self.evaluate_operand_value(args, line, args_col, scope)
            target = None if value is None else scope.index_of(value)
            if target is None:
                if value is not None:
                    self.err(f".goto {value}: there is no line {value}" + (" in this macro" if scope.local_names or scope.substitutions else ""), self.span(line, args_col, len(args_stripped)))
                return "skip-line"
            return target
        elif short == "mac":
            params_text = args_stripped
            if label is None:
                mm = IDENT.match(params_text)
                if not mm:
                    self.err(".mac needs a name: '.mac name param,...' or 'name .mac param,...'", op_span)
                    return "skip-line"
                label = mm.group(0)
                params_text = params_text[mm.end() :].strip()
            params = tuple(p.strip().lower() for p in params_text.split(",") if p.strip())
            for p in params:
                if not IDENT.fullmatch(p):
                    self.err(f"bad macro parameter name '{p}'", op_span)
            key = _key(label)
            if key in self.macros and self.final:
                self.err(f"macro '{label}' is defined twice", op_span, note("first defined here", self.macros[key].span))
            self.recording = _Macro(label.lower(), params, [], frozenset(), op_span)
            self.macros[key] = self.recording
            return "skip-line"
        elif short == "men":
            self.err(".men without .mac", op_span)
        elif short == "fil":
            name = args_stripped.strip('"')
            if not name:
                self.err(".file needs a file name", op_span)
                return None
            try:
                lines = self.reader(name, line)
            except OSError as exc:
                self.err(f"cannot read .file '{name}': {exc.strerror or exc}", self.span(line, args_col, len(args_stripped)))
                return None
            self.run_scope(_Scope(lines), depth)
            raise _Stop
        elif short == "tit":
            if self.listing:
                self.rows.append(ListingRow(op_span, None, b"", text, title=args_stripped.strip('"')))
        elif short == "pag":
            if self.listing:
                self.rows.append(ListingRow(op_span, None, b"", text, page_break=True))
        elif short in C64_ONLY:
            self.err(f"'.{name}' is not supported off the C64 (Profi-Ass uses it to {C64_ONLY[short]})", op_span)
        else:
            self.err(f"unknown pseudo-op '.{name}'", op_span)
        return None

    def data(self, line, stmt: Statement, decoded: DataList, scope: _Scope) -> None:
        """``.byt`` and ``.wor`` lists (with or without a label in front); pass 1 only needs their size."""
        col = stmt.col
        if decoded.label is not None:
            self.define_label(decoded.label, (line, col, len(decoded.label)), scope)
        op_span = (line, col + decoded.op_offset, decoded.op_length)
        if not decoded.items:
            self.err(f"{'.wor' if decoded.word else '.byt'} needs at least one value", _as_span(op_span))
            return
        if not self.final:
            self.advance(decoded.size)
            return
        out = bytearray()
        quick = not scope.local_names
        for item in decoded.items:
            for message, offset, length in item.problems:
                self.err(message, self.span(line, col + offset, length))
            if item.node is None:
                out += item.fixed
                continue
            value = self.quick_operand(item.node, item.prefix) if quick else _LONG_WAY
            if value is _LONG_WAY:
                try:
                    value = self.evaluate_node(item.node, line, col + item.expr_offset, scope)
                except _BadOperand:
                    value = 0
                value = ex.with_prefix(value, item.prefix)
            if decoded.word:
                out += value.to_bytes(2, "little")
            elif value > 0xFF:
                self.err(f"value ${value:04X} does not fit in a byte", self.span(line, col + item.offset, item.length))
                out.append(0)
            else:
                out.append(value)
        data = bytes(out)
        if self.listing:
            self.rows.append(ListingRow((line, col, len(stmt.text)), self.pc if data else None, data, _shown(stmt)))
        self.emit(data, op_span)

    # -- macros ----------------------------------------------------------------------

    def call_macro(self, line, text, col, scope, depth):
        m = IDENT.match(text, 1)
        if not m:
            self.err("macro name expected after \"'\"", self.span(line, col))
            return None
        name = m.group(0)
        macro = self.macros.get(_key(name))
        if macro is None:
            self.err(f"unknown macro '{name}'", self.span(line, col, m.end()))
            return None
        if depth >= MACRO_DEPTH:
            self.err(f"macros nested more than {MACRO_DEPTH} deep (recursive macro?)", self.span(line, col, m.end()))
            return None
        args_text = text[m.end() :].strip()
        args = [a for a, _ in split_commas(args_text, 0)] if args_text else []
        if len(args) != len(macro.params):
            self.err(f"macro '{name}' takes {len(macro.params)} argument(s), got {len(args)}", self.span(line, col, len(text)))
            return None
        self.expansions += 1
        if self.listing:
            self.rows.append(ListingRow(self.span(line, col, len(text)), None, b"", self.shown))
        local_names = {}
        for body_line in macro.body:
            for st in body_line.statements:
                lm = IDENT.match(st.text)
                if lm and lm.group(0).upper() not in self.decoder.opcodes and not st.text.lower().startswith("sys"):
                    key = _key(lm.group(0))
                    if key not in macro.params:
                        local_names[key] = f"{key}@{self.expansions}"
        subs = {p: (f"[{a}]" if _is_compound(a) else a) for p, a in zip(macro.params, args)}
        self.run_scope(_Scope(macro.body, local_names, subs), depth + 1)
        return None

    # -- instructions -----------------------------------------------------------------

    def instruction(self, line, stmt: Statement, insn: Instruction, scope: _Scope) -> None:
        """Assemble one instruction statement (with or without a label in front).

        Pass 1 only needs the instruction's size, which its text fixes except for an
        address that could be zero page: only those operands are evaluated in pass 1.
        """
        col = stmt.col
        if insn.label is not None:
            self.define_label(insn.label, (line, col, len(insn.label)), scope)
        if insn.problem is not None:
            message, offset, length = insn.problem
            self.err(message, self.span(line, col + offset, length))
            raise _BadOperand
        form = insn.form
        if form == "address":
            try:
                value = self.operand_value(line, col, insn, scope)
            except _BadOperand:
                if self.final and self.serial in self.unknown_in_pass1:  # pass 1 sized it absolute
                    self.advance(3 if insn.code >= 0 else 2)  # the addresses that follow stay those of pass 1
                raise
            data = self.address_mode(line, col, insn, value)
            if not self.final:
                self.advance(len(data))
                return
        elif not self.final:
            self.advance(insn.size)
            return
        elif form == "fixed":
            data = insn.fixed
        else:
            try:
                value = self.operand_value(line, col, insn, scope)
            except _BadOperand:
                self.advance(insn.size)  # the addresses that follow stay those of pass 1
                raise
            if form == "immediate":
                if value > 0xFF:
                    self.err(f"value ${value:04X} does not fit in a byte (immediate mode)", self.operand_span(line, col, insn))
                    value &= 0xFF
                data = bytes((insn.code, value))
            elif form == "branch":
                distance = value - ((self.pc or 0) + 2)
                if not -128 <= distance <= 127:
                    over = distance - 127 if distance > 0 else -128 - distance
                    self.err(
                        f"branch out of range: target ${value:04X} is {distance:+d} bytes away, "
                        f"{over} byte{'s' if over != 1 else ''} too far (a branch reaches -128..+127)",
                        self.operand_span(line, col, insn),
                    )
                    distance = 0
                data = bytes((insn.code, distance & 0xFF))
            elif insn.mode is Mode.INDIRECT:  # JMP ($nnnn)
                if value & 0xFF == 0xFF:
                    self.warn(
                        f"JMP (${value:04X}) reads its target from ${value:04X} and ${value & 0xFF00:04X}, "
                        "not $%04X: the NMOS 6502 does not carry into the high byte" % ((value + 1) & 0xFFFF),
                        self.operand_span(line, col, insn),
                    )
                data = bytes((insn.code, value & 0xFF, value >> 8))
            else:  # ($nn,X) and ($nn),Y
                if value > 0xFF:
                    self.err(f"value ${value:04X} is not a zero-page address ({insn.mode.label} needs $00-$FF)", self.operand_span(line, col, insn))
                    value &= 0xFF
                data = bytes((insn.code, value))
        if insn.unstable:
            self.warn(
                f"{insn.mnemonic} is an unstable undocumented opcode: its result differs between chips",
                self.span(line, col + insn.mnemonic_offset, len(insn.mnemonic)),
            )
        where = (line, col, len(stmt.text))
        if self.listing:
            self.rows.append(ListingRow(where, self.pc, data, _shown(stmt)))
        self.emit(data, where)

    def operand_value(self, line, col: int, insn: Instruction, scope: _Scope) -> int | None:
        """The operand's value after a < or > prefix; None only for a forward reference in pass 1."""
        return ex.with_prefix(self.evaluate_node(insn.node, line, col + insn.expr_offset, scope), insn.prefix)

    def address_mode(self, line, col: int, insn: Instruction, value: int | None) -> bytes:
        """Zero page or absolute: zero page when the value is known (in pass 1) to be $00-$FF."""
        if not self.final and value is None:
            self.unknown_in_pass1.add(self.serial)
        if insn.zp_code >= 0 and insn.prefix != "!" and (
            insn.code < 0 or (value is not None and value <= 0xFF and self.serial not in self.unknown_in_pass1)
        ):
            if value is not None and value > 0xFF:
                self.err(
                    f"value ${value:04X} does not fit {ZERO_PAGE_FORM[insn.mode].label}, and {insn.mnemonic} has no {insn.mode.label} mode",
                    self.operand_span(line, col, insn),
                )
                value = 0
            return bytes((insn.zp_code, value or 0))
        if insn.code < 0:
            modes = ", ".join(m.label for m in insn.modes)
            self.err(f"{insn.mnemonic} has no {insn.mode.label} mode (it has: {modes})", self.operand_span(line, col, insn))
            raise _BadOperand
        value = value or 0
        return bytes((insn.code, value & 0xFF, value >> 8))

    def operand_span(self, line, col: int, insn: Instruction) -> Span:
        return self.span(line, col + insn.operand_offset, insn.operand_length)


def _shown(stmt: Statement) -> str:
    """A statement as the listing shows it: its text and its comment."""
    return stmt.text + " " + stmt.comment if stmt.comment else stmt.text




def _undocumented_hint(word: str, cpu: str) -> str | None:
    from asm6502.opcodes_undoc import ALIASES, UNDOCUMENTED

    name = word.upper()
    if name in ALIASES:
        return f"'{word}' is another name for {ALIASES[name]}: asm6502 uses 64tass's names for the undocumented opcodes" + (
            " (and needs --cpu 6502i)" if cpu != "6502i" else ""
        )
    if name in UNDOCUMENTED and cpu != "6502i":
        return f"{name} is an undocumented NMOS opcode: assemble with --cpu 6502i to use it"
    return None


_LONG_WAY = object()  # see _Assembly.quick_value
# statements that make a program other than straight (see _Assembly.straight_program):
# .if, .goto, .mac, .men, .file and macro calls, with or without a label in front
_FLOW = re.compile(r"(?:[A-Za-z][A-Za-z0-9.]*\s*)?(?:'|\.(?:if|got|mac|men|fil))", re.IGNORECASE)


class _BadOperand(Exception):
    """The operand had an error (already recorded)."""


def _is_compound(arg: str) -> bool:
    return any(op in arg for op in "+-*/!&^<>") and not arg.startswith(("#", '"'))


def _substitute(text: str, subs: dict[str, str]) -> str:
    out = []
    i = 0
    in_quote = False
    while i < len(text):
        ch = text[i]
        if ch == '"':
            in_quote = not in_quote
        if not in_quote and ch in ex.SYMBOL_START and (i == 0 or text[i - 1] not in ex.SYMBOL_CHARS):
            m = IDENT.match(text, i)
            word = m.group(0)
            out.append(subs.get(word.lower(), word))
            i = m.end()
            continue
        out.append(ch)
        i += 1
    return "".join(out)


# --------------------------------------------------------------------------
# public API


def read_source(text: str, filename: str) -> tuple[list[SourceLine], list[Diagnostic]]:
    lines, problems = read_lines(filename, text)
    diags = [error(message, Span(filename, line.index, line.number_col, length, line.text, None)) for line, message, length in problems]
    return lines, diags


def assemble(text: str, filename: str = "<input>", options: Options = Options()) -> Result:
    """Assemble Profi-Ass source text.  Raises DiagnosticError when there are errors."""
    if options.cpu not in ("6502", "6502i"):
        raise DiagnosticError([error(f"unknown CPU '{options.cpu}' (use 6502 or 6502i)")])
    # Reading and both passes allocate hundreds of thousands of small, acyclic objects;
    # CPython's cyclic collector would re-scan them all again and again (about a quarter
    # of the run time on a 50,000-line program), so it is paused and then restored.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if not options.listing and options.cpu == "6502" and not options.defines:
            result = _assemble_simple(text, options)  # most programs: quick, or None
            if result is not None:
                return result
        return _assemble(text, filename, options)
    finally:
        if collecting:
            gc.enable()


def _assemble_simple(text: str, options: Options) -> Result | None:
    """The result of simple.py's quick sweep, when the program is simple and clean (see there)."""
    found = simple.assemble_simple(text, options.max_statements)
    if found is None:
        return None
    chunks, values, kinds, spelling = found
    segments, overlaps = _segments(chunks)
    if overlaps or not segments:
        return None  # the full assembler reports them
    symbols = {spelling.get(k, k): v for k, v in values.items()}
    labels = {spelling.get(k, k): v for k, v in values.items() if kinds.get(k) == "label"}
    return Result(tuple(segments), symbols, labels, (), ())


def _assemble(text: str, filename: str, options: Options) -> Result:
    lines, diags = read_source(text, filename)

    def reader(name: str, from_line: SourceLine) -> list[SourceLine]:
        candidates = [Path(from_line.file).parent / name] + [Path(p) / name for p in options.search_paths]
        for path in candidates:
            if path.is_file():
                sub_lines, sub_diags = read_source(path.read_text(encoding="utf-8", errors="replace"), os.fspath(path))
                diags.extend(d for d in sub_diags if d not in diags)
                return sub_lines
        raise FileNotFoundError(2, "no such file", name)

    job = _Assembly(lines, options, reader)
    job.run_pass(final=False)
    job.run_pass(final=True)
    # a .goto loop can repeat the same statement many times: report each problem once
    all_diags = list(dict.fromkeys(diags + job.diags))
    segments, overlap_diags = _segments(job.chunks)
    all_diags += overlap_diags
    if any(d.is_error for d in all_diags):
        raise DiagnosticError(all_diags)
    if not segments:
        raise DiagnosticError(all_diags + [error("the program produces no bytes", Span(filename, 1, 1, 1, lines[0].text if lines else "", None))])
    # report each symbol under its first spelling (Profi-Ass itself only knows 8 characters)
    symbols = {job.spelling.get(k, k): v for k, v in job.values.items() if "@" not in k}
    labels = {job.spelling.get(k, k): v for k, v in job.values.items() if job.kinds.get(k) == "label" and "@" not in k}
    return Result(tuple(segments), symbols, labels, tuple(all_diags), tuple(job.rows))


def assemble_file(path: str | os.PathLike, options: Options = Options()) -> Result:
    p = Path(path)
    return assemble(p.read_text(encoding="utf-8", errors="replace"), os.fspath(path), options)


def _segments(chunks) -> tuple[list[tuple[int, bytes]], list[Diagnostic]]:
    diags = []
    ordered = sorted(chunks, key=lambda c: c[0])
    merged: list[tuple[int, bytearray, Span]] = []
    for start, data, span in ordered:
        if merged:
            prev_start, prev_data, prev_span = merged[-1]
            prev_end = prev_start + len(prev_data)
            if start < prev_end:
                diags.append(
                    error(
                        f"code at ${start:04X}-${start + len(data) - 1:04X} overwrites earlier output at "
                        f"${prev_start:04X}-${prev_end - 1:04X}",
                        span,
                        note("the earlier output starts here", prev_span),
                    )
                )
                continue
            if start == prev_end:
                prev_data.extend(data)
                continue
        merged.append((start, bytearray(data), span))
    return [(s, bytes(d)) for s, d, _ in merged], diags
