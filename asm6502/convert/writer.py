"""Writing the program as Profi-Ass ran it, statement by statement, in a target's syntax.

The walk follows pass 1's layout (asm6502/asm/layout.py): every statement that
ran, in the order it ran -- ``.if``/``.goto`` loops unrolled, macro calls
expanded (their local labels named ``stem__NN`` after the call), ``.file``
chains merged -- and re-assigns the ``_`` variables and macro parameters the
way pass 2 does (asm6502/asm/encode.py), so that every expression is written
with the values it has at that point.  The zero-page/absolute choice is the
layout's: an absolute instruction whose operand fits in a byte is written
forced absolute.
"""

from __future__ import annotations

import os
import re

from asm6502.asm import expr as ex
from asm6502.asm.decode import Call, Data, Define, Insn, Origin, Pseudo, Start
from asm6502.asm.layout import FORWARD, Layout
from asm6502.asm.reader import START_LINE
from asm6502.asm.result import as_span
from asm6502.convert.expression import Scope, Text, high_byte, low_byte, rewrite
from asm6502.convert.targets import STRING_SAFE, Target
from asm6502.diagnostics import Diagnostic, error, warning
from asm6502.opcodes import Mode

INDENT = " " * 16
_NUMBER = re.compile(r"^\s*\d*\s?")
# pseudo-ops that only steer the C64 side (listing, printer, symbol table size): kept as comments
_COMMENT_ONLY = {"opt", "tit", "pag", "sym", "stm", "if", "got"}
INDEX = {Mode.ABSOLUTE_X: ",x", Mode.ABSOLUTE_Y: ",y"}


class Writer:
    def __init__(self, target: Target, layout: Layout):
        self.target = target
        self.layout = layout
        self.lines: list[str] = []
        self.diags: list[Diagnostic] = []
        self.names: dict[str, str] = {}  # symbol key -> name written
        self.taken: set[str] = set()
        self.values = dict(layout.values)  # as pass 2 starts
        self.assigned: set[str] = set()  # variables and parameters assigned so far in the output
        self.initial: dict[str, int] = {}  # ... and those read before: their pass-1 value goes first
        self.touched: set[str] = set()  # the symbols the last expression read
        self.file: str | None = None
        self.def_line = None
        self.here = 0xC000  # the program counter after the statements so far (the original's default origin)
        # the statements that are written (the others -- errors, lone labels -- stop the assembly before)
        self.handlers = {Insn: self.do_insn, Data: self.do_data, Define: self.do_define, Origin: self.do_origin, Pseudo: self.do_pseudo}

    # -- names ---------------------------------------------------------------------------

    def name_of(self, key: str) -> str:
        name = self.names.get(key)
        if name is None:
            if ":" in key:  # a macro-local label: 'stem:NN' -> 'stem__nn'
                stem, call = key.split(":")
                wanted = f"{stem.replace('.', '_')}__{call.lower()}"
            else:
                wanted = self.layout.spelling.get(key, key).replace(".", "_")
                if wanted in self.target.reserved:
                    wanted += "_"
            name, n = wanted, 2
            while name in self.taken:
                name, n = f"{wanted}_{n}", n + 1
            self.taken.add(name)
            self.names[key] = name
        return name

    def used(self, key: str) -> None:
        self.touched.add(key)
        if key not in self.assigned and self.layout.kinds.get(key) in ("var", "param") and key in self.layout.values:
            self.initial.setdefault(key, self.layout.values[key])

    def scope(self, pc: int, local) -> Scope:
        return Scope(self.target, self.values, pc, local, self.name_of, self.used)

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
        return self.name_of(key)

    # -- the walk --------------------------------------------------------------------------

    def run(self, files: dict[str, tuple[list, int]]) -> None:
        """``files``: each source file's lines and the index of its start line, for the lines that did not run."""
        entries = self.layout.layout
        self.ran_lines = {id(entry[3]) for entry in entries}
        self.ran = {id(entry[4]) for entry in entries if entry[4] is not None}
        cursor = {name: start for name, (lines, start) in files.items()}  # per file: the lines written up to here
        previous = None
        for rec, pc, size, line, stmt, local in entries:
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
            if rec is None:
                self.emit("", comment=stmt.comment if stmt is not None else "")
            elif isinstance(rec, str) and rec == "def":
                if line is not self.def_line:
                    self.def_line = line
                    start = stmt.col - 1 if stmt is not None else 0
                    self.note("macro| " + line.text[start:].rstrip())
            elif isinstance(rec, str) and rec == "call":
                self.call(pc, size, line, stmt, local)
            elif isinstance(rec, str) and rec == "mend":
                self.note("end of the macro call")
            else:
                handler = self.handlers.get(type(rec))
                if handler is not None:
                    handler(rec, pc, size, line, stmt, local)
                if type(rec) is Insn or type(rec) is Data:
                    self.here = (pc + (3 if size == FORWARD else size)) & 0xFFFF

        if previous is not None:
            self.unrun_statements(previous)

    def unrun_lines(self, lines) -> None:
        """Lines that never ran (skipped by '.goto' or '.if'): kept as comments."""
        for line in lines:
            if id(line) in self.ran_lines or any(START_LINE.match(stmt.text) for stmt in line.statements):
                continue
            body = _NUMBER.sub("", line.text, count=1).rstrip()
            if body.lstrip().startswith(";"):
                self.emit("", comment=body.strip())
            elif body:
                self.note(f"not assembled: {body.strip()}")

    def unrun_statements(self, line) -> None:
        """Statements of a line that never ran (after an '.if' that was false)."""
        skipped = []
        for stmt in line.statements:
            if stmt.text and id(stmt) not in self.ran:
                rec = self.layout.decoder.decode(stmt.text)
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
        mnemonic = rec.mnemonic.lower()
        names = self.target.mnemonics
        mnemonic = names.get((mnemonic, rec.mode)) or names.get((mnemonic, None)) or mnemonic
        if rec.form == "fixed":
            self.emit(mnemonic, label, stmt.comment)
            return
        value = self.expression(rec.node, stmt.text, rec.expr_offset, pc, local)
        if rec.prefix == "<":
            value = low_byte(value)
        elif rec.prefix == ">":
            value = high_byte(value)
        elif rec.form == "immediate" and value.value > 0xFF:  # -128..-1 as $FF80..$FFFF
            value = low_byte(value)
        absolute = rec.form == "address" and size != 2
        operand = value.text
        mode = rec.mode
        if rec.form == "immediate":
            operand = "#" + operand
        elif rec.form == "indirect":
            operand = {Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y"}[mode].format(operand)
        elif rec.form == "address":
            operand += INDEX.get(mode, "")
        if absolute and rec.zp_code >= 0 and value.value <= 0xFF:
            self.emit(self.target.force_absolute.format(m=mnemonic, o=operand), label, stmt.comment)
        elif rec.form == "address" and not absolute and rec.code >= 0 and self.target.force_zero_page and self.reads_variable():
            self.emit(self.target.force_zero_page.format(m=mnemonic, o=operand), label, stmt.comment)
        else:
            self.emit(f"{mnemonic} {operand}", label, stmt.comment)

    def reads_variable(self) -> bool:
        kinds = self.layout.kinds
        return any(kinds.get(key) in ("var", "param") for key in self.touched)

    # -- data -----------------------------------------------------------------------------

    def do_data(self, rec: Data, pc, size, line, stmt, local) -> None:
        label = self.label(rec, local)
        target = self.target
        if rec.op == "flp":
            data = b"".join(item[0] for item in rec.items)
            self.emit(f"{target.byte} " + ", ".join(f"${b:02x}" for b in data), label, f"; .flp {_after_op(stmt.text)}{_blank(stmt.comment)}")
            return
        parts = []
        strings = False
        for fixed, fn, node, prefix, offset, length in rec.items:
            if fixed is not None:
                if fixed:  # ('""' is no bytes)
                    parts.append(string_items(fixed))
                    strings = True
                continue
            value = self.expression(node, stmt.text, offset, pc, local)
            if prefix == "<" or (rec.op == "byt" and not prefix and value.value > 0xFF):
                value = low_byte(value)
            elif prefix == ">":
                value = high_byte(value)
            parts.append(value.text)
        directive = target.word if rec.op == "wor" else target.text if strings else target.byte
        if not rec.size:  # '.asc ""': no bytes
            self.emit("", label, f"; {stmt.text}{_blank(stmt.comment)}")
            return
        self.emit(f"{directive} " + ", ".join(parts), label, stmt.comment)

    # -- definitions, origin ---------------------------------------------------------------

    def do_define(self, rec: Define, pc, size, line, stmt, local) -> None:
        key = ex.key_of(rec.name)
        value = self.expression(rec.node, stmt.text, rec.expr_offset, pc, local)
        name = self.name_of(key)
        if rec.var:
            self.values[key] = value.value
            self.assigned.add(key)
            self.emit(self.target.var.format(n=name, e=value.text), comment=stmt.comment)
        else:
            self.emit(self.target.const.format(n=name, e=value.text), comment=stmt.comment)

    def do_origin(self, rec: Origin, pc, size, line, stmt, local) -> None:
        label = self.label(rec, local)
        if label is not None:
            self.emit("", label)
        value = self.expression(rec.node, stmt.text, rec.expr_offset, self.here, local)
        self.emit(self.target.org.format(e=value.text), comment=stmt.comment)
        self.here = pc

    # -- pseudo-ops and macro calls --------------------------------------------------------

    def do_pseudo(self, rec: Pseudo, pc, size, line, stmt, local) -> None:
        label = self.label(rec, local) if rec.op != "mac" else None
        if label is not None:
            self.emit("", label)
        shown = stmt.text if rec.label is None else _after_label(stmt.text)
        if rec.op == "men":
            return  # (the end of an expansion is noted by the call)
        if rec.op == "fil":
            self.note(f"{shown} (the next file follows)", stmt.comment)
        elif rec.op in _COMMENT_ONLY:
            self.note(shown, stmt.comment)
        elif rec.op == "sst":
            self.note(shown, stmt.comment)
            self.problem(warning, f"'.{rec.name}' (write the symbol table to a file) has no counterpart in {self.target.name}: left as a comment", line, stmt)
        elif rec.op == "lst":
            self.note(shown, stmt.comment)
            self.problem(error, f"'.{rec.name}' (load a symbol table from disk) cannot be translated: define the symbols it loads in the source instead", line, stmt)
        else:
            self.note(shown, stmt.comment)

    def call(self, pc, info, line, stmt, local) -> None:
        macro, fns = info
        rec = self.layout.decoder.decode(stmt.text)
        label = self.label(rec, local) if isinstance(rec, Call) else None
        if label is not None:
            self.emit("", label)
        self.note(f"macro call: {_after_label(stmt.text) if label else stmt.text}", stmt.comment)
        for key, arg in zip(macro.params, rec.args):
            prefix = arg[:1] if arg[:1] in ("<", ">", "!") else ""  # (layout.py: Layout.argument)
            body = arg[len(prefix) :].lstrip()
            node, _ = self.layout.decoder.expression(body)
            value = self.expression(node, body, 0, pc, local)
            if prefix == "<":
                value = low_byte(value)
            elif prefix == ">":
                value = high_byte(value)
            self.values[key] = value.value
            self.assigned.add(key)
            self.emit(self.target.var.format(n=self.name_of(key), e=value.text))

    def prologue(self) -> list[str]:
        """The default origin when code comes before any '*='; variables read before their first
        assignment start with their pass-1 value (as in pass 2)."""
        out = []
        for rec, *_ in self.layout.layout:
            if type(rec) is Origin and not _reads_pc(rec.node):
                break
            if type(rec) is Insn or type(rec) is Data or type(rec) is Origin:
                out.append(INDENT + self.target.org.format(e="$c000") + "  ; (Profi-Ass's default origin)")
                break
        return out + [INDENT + self.target.var.format(n=self.name_of(key), e=f"${value:x}") for key, value in self.initial.items()]


def string_items(data: bytes) -> str:
    """Bytes as the target's string items: runs of safe characters in quotes, the rest as numbers."""
    from asm6502.petscii_text import petscii_to_ascii

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
    kind = type(node)
    if kind is ex.PC:
        return True
    if kind is ex.Neg:
        return _reads_pc(node.operand)
    if kind is ex.Chain:
        return _reads_pc(node.first) or any(_reads_pc(operand) for _, _, operand in node.rest)
    return False


def _blank(comment: str) -> str:
    return f" {comment}" if comment else ""


def _after_op(text: str) -> str:
    m = re.match(r"\S*\s*\.\w+\s*", text) if not text.startswith(".") else re.match(r"\.\w+\s*", text)
    return text[m.end() :] if m else text


def _after_label(text: str) -> str:
    return re.sub(r"^\^?[A-Za-z][A-Za-z0-9.]*\s+", "", text)
