"""Writing the program as Profi-Ass ran it, statement by statement, in a target's syntax.

The walk follows pass 1's program (asm6502/asm/program.py, its entries): every statement that
ran, in the order it ran, ``.file`` chains merged, re-assigning the ``_``
variables and macro parameters the way pass 2 does (asm6502/asm/encode.py), so
that every expression is written with the values it has at that point.

Macros and ``.goto`` loops are written as the target's where the text allows
it: a macro call's body is written in the target's macro syntax (parameters,
local labels) with that call's values (:meth:`Writer.macro_call`), a loop's
rounds each with their own values (:meth:`Writer.loop`); when every call /
every round gives the same text, that text is the target's macro / loop body,
and the target, given the same values, makes the same bytes.  Otherwise the
calls are expanded (local labels named ``stem__NN`` after the call) and the
loop unrolled, with a comment saying why.  The zero-page/absolute choice is the
layout's: an absolute instruction whose operand fits in a byte is written
forced absolute.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple

from asm6502.asm import expr as ex
from asm6502.asm.entries import FORWARD, MacroCall, MacroEnd, MacroLine
from asm6502.asm.lines import Lines
from asm6502.asm.program import Program
from asm6502.asm.pseudo import BYTES, PSEUDO_OPS, WORDS
from asm6502.asm.reader import START_LINE
from asm6502.asm.rows import as_span
from asm6502.asm.statements import Call, Data, Define, Insn, Origin, Pseudo, Start
from asm6502.convert.expression import Scope, Text, high_byte, low_byte, rewrite
from asm6502.convert.structure import Loop, find_loops
from asm6502.convert.targets import ATOM, OPERATORS, STRING_SAFE, Target
from asm6502.cpu import Cpu, instruction_set
from asm6502.diagnostics import Diagnostic, error, warning
from asm6502.opcodes import Mode
from asm6502.petscii import petscii_to_ascii

INDENT = " " * 16
_NUMBER = re.compile(r"^\s*\d*\s?")
INDEX = {Mode.ABSOLUTE_X: ",x", Mode.ABSOLUTE_Y: ",y"}


class Writer:
    def __init__(self, target: Target, program: Program, expanded: dict[str, str] | None = None, guarded: frozenset = frozenset(),
                 wraps: dict[str, frozenset] | None = None):
        """``expanded``: the macros (by key) to expand at each call, with the reason; ``guarded``: the
        macros whose body writes a parameter that is a whole operand as '\\p + 0' (see macro_call)."""
        self.target = target
        self.program = program
        self.expanded = dict(expanded or {})
        self.guarded = guarded
        self.needs_guard: set[str] = set()
        self.wraps = dict(wraps or {})  # macro key -> the steps its body wraps to 16 bits in every call
        self.needs_wrap: dict[str, frozenset] = {}
        self.macro_needed: dict[str, set] = {}  # macro key -> the steps that needed the wrap in some call
        self.differs: dict[str, int] = {}  # macro key -> the first call whose body differs from the first call's
        # the macros written as the target's macros (until something in this run says otherwise: failed)
        self.candidates = {key for key, m in program.macros.items() if m.calls and key not in self.expanded}
        self.failed: dict[str, str] = {}  # macro key -> why it has to be expanded after all
        self.bodies: dict[str, list[str]] = {}  # macro key -> its body as the first call wrote it
        self.macro_names: dict[str, str] = {}
        self.macro_at = {(m.line.file, m.line.index): key for key, m in program.macros.items()}  # (by place: pass 1's line objects are made on demand)
        self.defining: str | None = None  # the macro whose definition lines are being passed
        self.context: tuple | None = None  # (macro, call suffix) while a body is written as the target's macro
        self.namer = self.name_of
        self.body_names: tuple[set, set] = (set(), set())  # (local labels, other symbols) the body names
        self.setter: dict[str, str] = {}  # parameter key -> the target macro whose call set it last
        self.bare_param = False  # the body being written has an operand that is a parameter alone
        self.loops_written = 0  # '.goto' loops written as the target's loops
        self.counters: dict[int, str] = {}  # id(the loop's '.goto' line) -> the target's loop counter
        self.unrolled: list[str] = []  # ... and why each of the others is unrolled
        self.wrap: frozenset = frozenset()  # (expression.py: Scope.wrap, Scope.needed)
        self.needed: set | None = None
        self.variables = {ex.key_of(entry.rec.name) for entry in program.entries if type(entry.rec) is Define and entry.rec.var}
        self.lines: list = []  # lines, and _Slot where a target macro's body goes
        self.diags: list[Diagnostic] = []
        self.names: dict[str, str] = {}  # symbol key -> name written
        self.taken: set[str] = set()
        self.values = dict(program.values)  # as pass 2 starts
        self.assigned: set[str] = set()  # variables and parameters assigned so far in the output
        self.initial: dict[str, int] = {}  # ... and those read before: their pass-1 value goes first
        self.touched: set[str] = set()  # the symbols the last expression read
        self.file: str | None = None
        self.def_line = None
        self.here = 0xC000  # the program counter after the statements so far (the original's default origin)
        # the statements that are written (the others -- errors, lone labels -- stop the assembly before)
        self.handlers: dict[type, Callable[..., None]] = {Insn: self.do_insn, Data: self.do_data, Define: self.do_define, Origin: self.do_origin, Pseudo: self.do_pseudo}

    # -- names ---------------------------------------------------------------------------

    def name_of(self, key: str) -> str:
        name = self.names.get(key)
        if name is None:
            if ":" in key:  # a macro-local label: 'stem:NN' -> 'stem__nn'
                stem, call = key.split(":")
                wanted = f"{stem.replace('.', '_')}__{call.lower()}"
            else:
                wanted = self.program.spelling.get(key, key).replace(".", "_")
                if wanted in self.target.reserved:
                    wanted += "_"
            name, n = wanted, 2
            while name in self.taken:
                name, n = f"{wanted}_{n}", n + 1
            self.taken.add(name)
            self.names[key] = name
        return name

    def body_name(self, key: str) -> str:
        """A symbol as a target macro's body names it: parameters and local labels as the target's."""
        macro, suffix, _ = self.context
        if key in macro.params:
            return self.target.param.format(p=_identifier(key))
        if ":" in key and key.endswith(suffix):
            name = self.target.local.format(l=_identifier(key.split(":")[0]))
            self.body_names[0].add(name)
            return name
        name = self.name_of(key)
        self.body_names[1].add(name)
        return name

    def fresh(self, wanted: str) -> str:
        """A name no symbol has (nor will have: it is taken)."""
        name, n = wanted, 2
        while name in self.taken or self.program.spelling_of(name) is not None:
            name, n = f"{wanted}_{n}", n + 1
        self.taken.add(name)
        return name

    def fail(self, key: str, reason: str) -> None:
        self.failed.setdefault(key, reason)

    def used(self, key: str) -> None:
        self.touched.add(key)
        setter = self.setter.get(key)
        if setter is not None and (self.context is None or key not in self.context[0].params or setter != self.context[2]):
            self.fail(setter, f"its parameter '{key}' is read outside the macro (in Profi-Ass parameters are global symbols)")
        if key not in self.assigned and self.program.symbols.get(key) in ("var", "param") and key in self.program.values:
            self.initial.setdefault(key, self.program.values[key])

    def scope(self, pc: int, local) -> Scope:
        return Scope(self.target, self.values, pc, local, self.namer, self.used, self.wrap, self.needed)

    # -- output --------------------------------------------------------------------------

    def emit(self, body: str, label: str | None = None, comment: str = "") -> None:
        if label is not None and len(label) >= len(INDENT):
            self.lines.append(label)
            label = None
        line = (label or "").ljust(len(INDENT)) + body if body else (label or "")
        if comment:
            line = (line + "  " + comment) if line.strip() else comment
        self.lines.append(line.rstrip())

    def note(self, text: str, comment: str = "") -> None:
        self.emit(f"; {text}" + (f"  {comment}" if comment else ""))

    def problem(self, kind, message: str, line, stmt) -> None:
        self.diags.append(kind(message, as_span((line, stmt.col, max(1, len(stmt.text))))))

    def label(self, rec, local) -> str | None:
        if rec.label is None:
            return None
        key = ex.local_key(rec.label, local) if local is not None else ex.key_of(rec.label)
        return self.namer(key)

    # -- the walk --------------------------------------------------------------------------

    def run(self, files: dict[str, tuple[Lines, int]]) -> None:
        """``files``: each source file's lines and the index of its start line, for the lines that did not run."""
        entries = self.entries = list(self.program.entries)  # (Entry records made from pass 1's columns)
        self.ran_lines = {(entry.line.file, entry.line.index) for entry in entries}  # (the lines of ``files`` are made again: not the entries')
        self.ran = {id(entry.stmt) for entry in entries if entry.stmt is not None}
        self.loops, self.irregular = find_loops(entries, {name: lines for name, (lines, _) in files.items()}, self.program.decoder.decode)
        cursor = {name: start for name, (lines, start) in files.items()}  # per file: the lines written up to here
        previous = None
        i, n = 0, len(entries)
        while i < n:
            line, local = entries[i].line, entries[i].local
            if line.file != self.file:
                if self.file is not None:
                    self.note(f"---- .file: {os.path.basename(line.file)} ----")
                self.file = line.file
            if local is None and line is not previous:
                if previous is not None:
                    self.unrun_statements(previous)
                previous = line
                done = cursor.get(line.file)
                if done is not None and line.index > done + 1:
                    self.unrun_lines(files[line.file][0][done : line.index - 1])
                if done is not None and line.index > done:
                    cursor[line.file] = line.index
            loop = self.loops.get(i)
            if loop is not None:
                after = self.loop(loop)
                if after is not None:
                    previous = loop.bottom
                    cursor[line.file] = max(cursor.get(line.file, 0), loop.bottom.index)
                    i = after
                    continue
            i = self.dispatch(i)
        if previous is not None:
            self.unrun_statements(previous)
        self.lines = self.fill_definitions(self.lines)
        for key, number in self.differs.items():  # calls whose bodies differ: wrap what needs it in any call, else expand
            if key in self.wraps or not self.macro_needed.get(key):
                self.fail(key, f"the call in line {number} gives other code than the first call "
                               "(zero page or absolute, or a shift by 16 or more, depends on the arguments)")  # fmt: skip
            else:
                self.needs_wrap[key] = frozenset(self.macro_needed[key])

    def dispatch(self, i: int) -> int:
        """Write layout entry ``i`` (a whole macro call when the macro is written as the target's);
        returns the index of the next entry."""
        entry = self.entries[i]
        rec, pc, size, line, stmt, local = entry.rec, entry.pc, entry.size, entry.line, entry.stmt, entry.local
        kind = type(rec)
        if rec is None:
            self.emit("", comment=stmt.comment if stmt is not None else "")
        elif kind is MacroLine:
            self.definition(line, stmt)
        elif kind is MacroCall:
            key = ex.key_of(rec.macro.name)
            if key in self.candidates:
                after = self.macro_call(i)
                if after is not None:
                    return after
            self.call(pc, rec, line, stmt, local)
        elif kind is MacroEnd:
            self.note("end of the macro call")
        else:
            handler = self.handlers.get(type(rec))
            if handler is not None:
                handler(rec, pc, size, line, stmt, local)
            if type(rec) is Insn or type(rec) is Data:
                self.here = (pc + (3 if size == FORWARD else size)) & 0xFFFF
        return i + 1

    def render(self, start: int, end: int) -> list[str]:
        """Entries start..end-1 written into a list of their own (not the output)."""
        kept, self.lines = self.lines, []
        try:
            i = start
            while i < end:
                i = self.dispatch(i)
            return self.lines
        finally:
            self.lines = kept

    def unrun_lines(self, lines) -> None:
        """Lines that never ran (skipped by '.goto' or '.if'): kept as comments."""
        for line in lines:
            if (line.file, line.index) in self.ran_lines or any(START_LINE.match(stmt.text) for stmt in line.statements):
                continue
            body = _NUMBER.sub("", line.line_text, count=1).rstrip()
            if body.lstrip().startswith(";"):
                self.emit("", comment=body.strip())
            elif body:
                self.note(f"not assembled: {body.strip()}")

    def unrun_statements(self, line) -> None:
        """Statements of a line that never ran (after an '.if' that was false)."""
        skipped = []
        for stmt in line.statements:
            if stmt.text and id(stmt) not in self.ran:
                rec = self.program.decoder.decode(stmt.text)
                if type(rec) is Start or (type(rec) is Pseudo and rec.op == "end"):
                    continue
                skipped.append(stmt.text + _blank(stmt.comment))
        if skipped:
            self.note("not assembled: " + " : ".join(skipped))

    def expression(self, node, text: str, base: int, pc: int, local) -> Text:
        self.touched = set()
        return rewrite(node, text, base, self.scope(pc, local))

    # -- instructions ---------------------------------------------------------------------

    def do_insn(self, rec: Insn, pc, size, line, stmt, local) -> None:
        label = self.label(rec, local)
        mnemonic = rec.shape.mnemonic.lower()
        names = self.target.mnemonics
        mnemonic = names.get((mnemonic, rec.shape.mode)) or names.get((mnemonic, None)) or mnemonic
        if rec.shape.form == "fixed":
            self.emit(mnemonic, label, stmt.comment)
            return
        value = self.expression(rec.expr, stmt.text, rec.offsets.expr_offset, pc, local)
        if self.context is not None and rec.shape.form != "immediate" and type(rec.expr) in (ex.Symbol, ex.Local) and ex.symbol_key(rec.expr, local) in self.context[0].params:
            self.bare_param = True  # (a parameter as the whole operand: see macro_call)
            if self.context[2] in self.guarded:
                value = Text(f"{value.text} + 0", OPERATORS["+"][0], value.value)
        if rec.shape.prefix == "<":
            value = low_byte(value)
        elif rec.shape.prefix == ">":
            value = high_byte(value)
        elif rec.shape.form == "immediate" and self.low_byte_needed(value, (id(rec), 0)):  # -128..-1 as $FF80..$FFFF
            value = low_byte(value)
        absolute = rec.shape.form == "address" and size != 2
        operand = value.text
        mode = rec.shape.mode
        if rec.shape.form == "immediate":
            operand = "#" + operand
        elif rec.shape.form == "indirect":
            operand = {Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y"}[mode].format(operand)
        elif rec.shape.form == "address":
            operand += INDEX.get(mode, "")
        if absolute and rec.shape.zp_code >= 0 and value.value <= 0xFF:
            self.emit(self.target.force_absolute.format(m=mnemonic, o=operand), label, stmt.comment)
        elif rec.shape.form == "address" and not absolute and rec.shape.code >= 0 and self.target.force_zero_page and self.reads_variable():
            self.emit(self.target.force_zero_page.format(m=mnemonic, o=operand), label, stmt.comment)
        else:
            self.emit(f"{mnemonic} {operand}", label, stmt.comment)

    def low_byte_needed(self, value: Text, key) -> bool:
        """A byte operand over $FF is written as its low byte (Profi-Ass takes the low byte)."""
        if value.value > 0xFF:
            if self.needed is not None:
                self.needed.add(key)
            return True
        return key in self.wrap

    def reads_variable(self) -> bool:
        kinds = self.program.symbols
        params = self.context[0].params if self.context else ()  # (a target macro's parameters are ACME's call-by-value symbols)
        return any(kinds.get(key) in ("var", "param") and key not in params for key in self.touched)

    # -- data -----------------------------------------------------------------------------

    def do_data(self, rec: Data, pc, size, line, stmt, local) -> None:
        """A data pseudo-op, written by the method asm6502/asm/pseudo.py names (``convert``)."""
        getattr(self, PSEUDO_OPS[rec.op].convert)(rec, pc, size, line, stmt, local)

    def convert_float(self, rec: Data, pc, size, line, stmt, local) -> None:
        """'.flp': the floats' bytes, the numbers in a comment."""
        data = b"".join(item[0] for item in rec.items)
        self.emit(f"{self.target.byte} " + ", ".join(f"${b:02x}" for b in data), self.label(rec, local),
                  f"; .flp {_after_op(stmt.text)}{_blank(stmt.comment)}")  # fmt: skip

    def convert_data(self, rec: Data, pc, size, line, stmt, local) -> None:
        """'.byt', '.wor', '.asc': the target's byte, word or text directive."""
        label = self.label(rec, local)
        target = self.target
        encode = PSEUDO_OPS[rec.op].encode
        parts = []
        strings = False
        for item, (fixed, node, prefix, offset, length) in enumerate(rec.items):
            if fixed is not None:
                if fixed:  # ('""' is no bytes)
                    parts.append(string_items(fixed))
                    strings = True
                continue
            value = self.expression(node, stmt.text, offset, pc, local)
            if prefix == "<" or (encode == BYTES and not prefix and self.low_byte_needed(value, (id(rec), item))):
                value = low_byte(value)
            elif prefix == ">":
                value = high_byte(value)
            parts.append(value.text)
        directive = target.word if encode == WORDS else target.text if strings else target.byte
        if not rec.size:  # '.asc ""': no bytes
            self.emit("", label, f"; {stmt.text}{_blank(stmt.comment)}")
            return
        self.emit(f"{directive} " + ", ".join(parts), label, stmt.comment)

    # -- definitions, origin ---------------------------------------------------------------

    def do_define(self, rec: Define, pc, size, line, stmt, local) -> None:
        key = ex.key_of(rec.name)
        value = self.expression(rec.expr, stmt.text, rec.expr_offset, pc, local)
        name = self.name_of(key)
        if rec.var:
            self.values[key] = value.value
            self.assigned.add(key)
            self.setter.pop(key, None)
            self.emit(self.target.var.format(n=name, e=value.text), comment=stmt.comment)
        elif key in self.variables:  # ('val = 5' and later 'val _ 6': one variable in the target)
            self.emit(self.target.var.format(n=name, e=value.text), comment=stmt.comment)
        else:
            self.emit(self.target.const.format(n=name, e=value.text), comment=stmt.comment)

    def do_origin(self, rec: Origin, pc, size, line, stmt, local) -> None:
        label = self.label(rec, local)
        if label is not None:
            self.emit("", label)
        value = self.expression(rec.expr, stmt.text, rec.expr_offset, self.here, local)
        self.emit(self.target.org.format(e=value.text), comment=stmt.comment)
        self.here = pc

    # -- pseudo-ops and macro calls --------------------------------------------------------

    def do_pseudo(self, rec: Pseudo, pc, size, line, stmt, local) -> None:
        """A control pseudo-op, written by the method asm6502/asm/pseudo.py names (``convert``)."""
        label = self.label(rec, local)
        if label is not None:
            self.emit("", label)
        shown = stmt.text if rec.label is None else _after_label(stmt.text)
        getattr(self, PSEUDO_OPS[rec.op].convert)(rec, shown, line, stmt, local)

    def convert_comment(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        """A pseudo-op that only steers the C64 side (listing, printer, symbol table size, pass 1): a comment."""
        self.note(shown, stmt.comment)

    def convert_goto(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        """'.goto': a comment (a loop written as the target's is not met here: see loop), and why it was unrolled."""
        self.note(shown, stmt.comment)
        why = self.irregular.pop(id(line), None) if local is None else None
        if why is not None:
            self.note(f"the .goto loop closed here is unrolled: {why}")
            self.unrolled.append(why)

    def convert_end(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        self.note(shown, stmt.comment)  # ('.end' is not laid out: not listed)

    def convert_file(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        self.note(f"{shown} (the next file follows)", stmt.comment)

    def convert_macro(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        self.definition(line, stmt)  # (pass 1 lays the '.mac' line out as a MacroLine)

    def convert_macro_end(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        if stmt.comment:  # (the end of an expansion is noted by the call; the comment is kept)
            self.emit("", comment=stmt.comment)

    def convert_unsupported(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        """A pseudo-op the target has nothing for and the program does not need: a comment and a warning."""
        self.note(shown, stmt.comment)
        self.problem(warning, f"'.{rec.name}' ({PSEUDO_OPS[rec.op].summary}) has no counterpart in {self.target.name}: left as a comment", line, stmt)

    def convert_untranslatable(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        """A pseudo-op whose effect cannot be written in the target: an error."""
        self.note(shown, stmt.comment)
        self.problem(error, f"'.{rec.name}' ({PSEUDO_OPS[rec.op].summary}) cannot be translated", line, stmt)

    def convert_symbol_load(self, rec: Pseudo, shown: str, line, stmt, local) -> None:
        """'.lst': the symbols it loads are not in the source."""
        self.note(shown, stmt.comment)
        self.problem(error, f"'.{rec.name}' ({PSEUDO_OPS[rec.op].summary}) cannot be translated: define the symbols it loads in the source instead", line, stmt)

    def call(self, pc, info: MacroCall, line, stmt, local) -> None:
        macro = info.macro
        rec = self.program.decoder.decode(stmt.text)
        label = self.label(rec, local) if isinstance(rec, Call) else None
        if label is not None:
            self.emit("", label)
        self.note(f"macro call: {_after_label(stmt.text) if label else stmt.text}", stmt.comment)
        for key, arg in zip(macro.params, rec.args):
            prefix = arg[:1] if arg[:1] in ("<", ">", "!") else ""  # (macros.py: Macros.argument)
            body = arg[len(prefix) :].lstrip()
            node = self.program.decoder.expression(body)
            value = self.expression(node, body, 0, pc, local)
            if prefix == "<":
                value = low_byte(value)
            elif prefix == ">":
                value = high_byte(value)
            self.values[key] = value.value
            self.assigned.add(key)
            self.setter.pop(key, None)
            self.emit(self.target.var.format(n=self.name_of(key), e=value.text))

    # -- macros as the target's macros --------------------------------------------------------

    def definition(self, line, stmt) -> None:
        """A line of a macro definition: the target's macro for the macros written as such
        (its body is filled in from the first call: fill_definitions), else a comment."""
        if line is self.def_line:
            return
        self.def_line = line
        key = self.macro_at.get((line.file, line.index))
        if key is not None:
            self.defining = key if key in self.candidates else None
            macro = self.program.macros[key]
            if self.defining is not None:
                params = ", ".join(self.target.param.format(p=_identifier(p)).lstrip("\\") for p in macro.params)
                wanted = _identifier(macro.name.lower())
                if self.target.macro_reserved and (wanted in self.target.macro_reserved or wanted.upper() in instruction_set(Cpu.NMOS_ILLEGAL)):
                    wanted += "_m"
                name = self.macro_names[key] = self.fresh(wanted)
                head = " ".join(self.target.macro_head.format(n=name, p=params).split())  # (no parameters: one blank)
                if self.target.macro_head.startswith("{n}"):  # the name in the label column
                    self.emit(head[len(name) :].strip(), name, stmt.comment if stmt else "")
                else:
                    self.emit(head, comment=stmt.comment if stmt else "")
                self.lines.append(_Slot(key))
                self.emit(self.target.macro_end.format())
                return
            if key in self.expanded:
                self.note(f"macro '{macro.name}' is expanded at each call: {self.expanded[key]}")
        elif self.defining is not None:
            return  # (a body line of a macro written as the target's)
        start = stmt.col - 1 if stmt is not None else 0
        self.note("macro| " + line.line_text[start:].rstrip())

    def macro_call(self, i: int) -> int | None:
        """A call of a macro written as the target's: its body is written the target's way (parameters,
        local labels) with this call's values and must come out as every other call's.  Returns the
        entry after the call, or None (then the call is expanded and the macro marked as failed)."""
        entries = self.entries
        pc, macro, line, stmt, local = entries[i].pc, entries[i].rec.macro, entries[i].line, entries[i].stmt, entries[i].local
        key = ex.key_of(macro.name)
        end, suffix = self.program.call_ends[i]
        j = i + 1
        while j < end:
            rec, inner_stmt, inner = entries[j].rec, entries[j].stmt, entries[j].local
            if inner == suffix and type(rec) is MacroCall:  # a call of a macro that is the target's too
                called = ex.key_of(rec.macro.name)
                if called not in self.candidates:
                    self.fail(key, f"its body calls '{rec.macro.name}', which is expanded")
                    return None
                j = self.program.call_ends[j][0]
                if j < end and type(entries[j].rec) is MacroEnd and entries[j].stmt is inner_stmt:
                    j += 1  # (the inner call's '.men' row)
                continue
            if inner != suffix or not (rec is None or type(rec) is Insn or type(rec) is Data or (type(rec) is Pseudo and rec.op == "men")):
                self.fail(key, f"its body holds '{_what(rec)}': only instructions, data, comments and calls go into a macro of {self.target.name}")
                return None
            j += 1
        if len(set(macro.params)) != len(macro.params):
            self.fail(key, "two parameters are the same symbol (Profi-Ass keeps 8 characters)")
            return None
        call = self.program.decoder.decode(stmt.text)
        args, arg_names, expressions = [], set(), []
        for param, arg in zip(macro.params, call.args):
            prefix = arg[:1] if arg[:1] in ("<", ">", "!") else ""  # (macros.py: Macros.argument)
            body = arg[len(prefix) :].lstrip()
            node = self.program.decoder.expression(body)
            value = self.expression(node, body, 0, pc, local)
            arg_names |= {self.name_of(k) for k in self.touched}
            if prefix == "<":
                value = low_byte(value)
            elif prefix == ">":
                value = high_byte(value)
            if self.target.param.startswith("\\") and value.precedence != ATOM:  # (64tass: the argument's text goes into the body)
                expressions.append(arg)
                value = Text(f"({value.text})", ATOM, value.value)
            elif self.context is not None and any(k in self.context[0].params for k in self.touched):
                expressions.append(arg)  # (a parameter of the calling macro: its text may be a bracketed expression)
            args.append(value.text)
            self.values[param] = value.value
            self.assigned.add(param)
        for param in macro.params:
            self.setter[param] = key
        kept = self.context, self.namer, self.body_names, self.bare_param
        self.context, self.namer, self.body_names = (macro, suffix, key), self.body_name, (set(), set())
        self.bare_param = False
        loop_wrap = self.wrap, self.needed
        self.wrap, self.needed = self.wraps.get(key, frozenset()), self.macro_needed.setdefault(key, set())
        try:
            body = self.render(i + 1, end)
        finally:
            names, bare = self.body_names, self.bare_param
            self.context, self.namer, self.body_names, self.bare_param = kept
            self.wrap, self.needed = loop_wrap
        if expressions and bare and key not in self.guarded:
            self.needs_guard.add(key)  # ('lda (2+3),y' would be indirect: written again with 'lda \\p + 0,y')
        clash = names[0] & (names[1] | arg_names | {self.target.param.format(p=_identifier(p)) for p in macro.params})
        if clash:
            self.fail(key, f"its local label '{sorted(clash)[0]}' has the name of a symbol the body or a call reads")
        first = self.bodies.setdefault(key, body)
        if first != body:
            self.differs.setdefault(key, line.number)  # (see run: the 16-bit wrap wherever a call needs it, or expanded)
        label = self.label(call, local)
        if label is not None:
            self.emit("", label)
        name = self.macro_names.get(key, _identifier(macro.name.lower()))
        self.emit(self.target.macro_call.format(n=name, a=", ".join(args)).rstrip(), comment=stmt.comment)
        mend = end < len(entries) and type(entries[end].rec) is MacroEnd and entries[end].stmt is stmt
        return end + 1 if mend else end  # (after the call's '.men' row; a 'label .men' body has none)

    def fill_definitions(self, lines: list) -> list[str]:
        out = []
        for line in lines:
            if type(line) is _Slot:
                out += self.bodies.get(line.key, [])
            else:
                out.append(line)
        return out

    # -- '.goto' loops as the target's loops ----------------------------------------------------

    def loop(self, loop: Loop) -> int | None:
        """Every round of ``loop`` written with its own values; when all rounds (body and condition)
        come out the same -- as written, or with the steps wrapped to 16 bits that need it in any
        round -- the target's loop is written and the entry after it returned.  Else the state goes
        back to before the loop, a comment says why, and None is returned (the loop is unrolled)."""
        kept = (dict(self.values), set(self.assigned), dict(self.initial), dict(self.setter), self.here, len(self.diags))
        needed: set = set()
        rounds: tuple[tuple[frozenset | None, set | None], ...] = ((frozenset(), needed), (None, None))
        for wrap, collect in rounds:
            self.wrap, self.needed = (frozenset(needed) if wrap is None else wrap), collect
            try:
                first, reason = self.rounds(loop)
            finally:
                self.wrap, self.needed = frozenset(), None
            if reason is None:
                break
            self.values, self.assigned, self.initial, self.setter, self.here = dict(kept[0]), set(kept[1]), dict(kept[2]), dict(kept[3]), kept[4]
            del self.diags[kept[5] :]
        span = f"lines {loop.top.number}-{loop.bottom.number}"
        if reason is not None:
            self.unrolled.append(reason)
            self.note(f"the .goto loop of {span} is unrolled: {reason}")
            return None
        self.loops_written += 1
        shown = " : ".join(s.text for s in loop.bottom.statements if s.text)
        counter = self.counters.get(id(loop.bottom))  # (one counter a loop, wherever it runs)
        if counter is None and "{v}" in self.target.loop_head:
            counter = self.counters[id(loop.bottom)] = self.fresh(f"loop{loop.top.number}")
        self.emit(self.target.loop_head.format(v=counter, c=first[1]), comment=f"; {span}: {shown} ({len(loop.rounds)} rounds)")
        self.lines += first[0]
        self.emit(self.target.loop_tail.format(c=first[1]))
        return loop.end

    def rounds(self, loop: Loop):
        """(the text of the first round, None) when every round is written the same, else (None, why).
        (All rounds are written: self.needed collects what needs the 16-bit wrap in any of them.)"""
        first, differ = None, False
        for start, at_if in loop.rounds:
            body = self.render(start, at_if)
            rec, pc = self.entries[at_if].rec, self.entries[at_if].pc
            try:
                node = self.program.decoder.expression(rec.args)
                condition = self.expression(node, rec.args, 0, pc, None).text
            except (KeyError, ex.ExprError, ex.Unknown):
                return None, "its condition reads a symbol that is not defined yet"
            if first is None:
                first = (body, condition)
            elif (body, condition) != first:
                differ = True
        if differ:
            return None, "its rounds are written differently (zero page or absolute, or a shift by 16 or more, changes from round to round)"
        return first, None

    def prologue(self) -> list[str]:
        """The default origin when code comes before any '*='; variables read before their first
        assignment start with their pass-1 value (as in pass 2)."""
        out = []
        for entry in self.program.entries:
            rec = entry.rec
            if type(rec) is Origin and not _reads_pc(rec.expr):
                break
            if type(rec) is Insn or type(rec) is Data or type(rec) is Origin:
                out.append(INDENT + self.target.org.format(e="$c000") + "  ; (Profi-Ass's default origin)")
                break
        return out + [INDENT + self.target.var.format(n=self.name_of(key), e=f"${value:x}") for key, value in self.initial.items()]


class _Slot(NamedTuple):
    """Where a target macro's body goes (known after its first call)."""

    key: str


def _identifier(name: str) -> str:
    return name.replace(".", "_")


def _what(rec) -> str:
    if type(rec) is Pseudo:
        return "." + rec.name
    if type(rec) is Define:
        return f"{rec.name} {'_' if rec.var else '='}"
    return type(rec).__name__.lower()


def string_items(data: bytes) -> str:
    """Bytes as the target's string items: runs of safe characters in quotes, the rest as numbers."""
    parts = []
    run = ""
    for b in data:
        ch = petscii_to_ascii(bytes((b,)))
        if len(ch) == 1 and ch in STRING_SAFE:
            run += ch
            continue
        if run:
            parts.append(f'"{run}"')
            run = ""
        parts.append(f"${b:02x}")
    if run:
        parts.append(f'"{run}"')
    return ", ".join(parts)


def _reads_pc(node) -> bool:
    return any(type(n) is ex.Counter for n in ex.walk(node))


def _blank(comment: str) -> str:
    return f" {comment}" if comment else ""


def _after_op(text: str) -> str:
    m = re.match(r"\S*\s*\.\w+\s*", text) if not text.startswith(".") else re.match(r"\.\w+\s*", text)
    return text[m.end() :] if m else text


def _after_label(text: str) -> str:
    return re.sub(r"^\^?[A-Za-z][A-Za-z0-9.]*\s+", "", text)
