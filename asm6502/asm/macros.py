"""Macros: ``name .mac params`` ... ``.men`` recorded as a body of lines, and ``'name args`` calls.

A call sets the parameters (symbols of the kind "param") to its arguments' values and runs the
body with its own suffix for the body's local labels (``.lbl`` is ``lbl:01`` in the first call);
the definition itself gives each label of the body its offset, as ``name:00`` (manual p. 23).
"""

from __future__ import annotations

from asm6502.asm import expr as ex
from asm6502.asm.decode import IDENT
from asm6502.asm.entries import FORWARD, MACRO_LINE, Macro, MacroCall, MacroEnd
from asm6502.asm.lines import Line, Lines
from asm6502.asm.pseudo import PSEUDO_OPS
from asm6502.asm.statements import Bad, Call, Data, Define, Insn, Pseudo
from asm6502.asm.symbols import PARAM, SymbolTable
from asm6502.patterns import LazyPattern

MACRO_DEPTH = 16

# a macro body ends at '.men' or '.mend' (a label may stand in front: it is a local label)
_MEN = LazyPattern(r"\^?\s*(?:([A-Za-z][A-Za-z0-9.]*)\s+)?\.[Mm][Ee][Nn]")

_PSEUDO_WORD = LazyPattern(r"\.[A-Za-z]*")

_MAC = LazyPattern(r"\^?\s*(?:[A-Za-z][A-Za-z0-9.]*\s+)?\.[Mm][Aa][Cc]")


class Macros(SymbolTable):
    """Macro definitions and calls (a mixin of layout.Layout)."""

    def start_macros(self) -> None:
        self.call_ends: dict[int, tuple[int, str]] = {}  # layout index of a macro call -> (index after its body, its locals' suffix)
        self.macros: dict[str, Macro] = {}
        self.macro_order: list[Macro] = []
        self.recording: Macro | None = None

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
                    size = self.address_size(rec, self.values, offset, ":00") if rec.shape.form == "address" else rec.shape.size
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
                    if not ex.value(self.decoder.expression(rec.args), self.values, self.pc, None):
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
        trees = []
        for text in rec.args:
            try:
                trees.append(self.argument(text))
            except ex.ExprError as exc:
                self.err(f"{exc.message} (in the argument '{text}')", where)
                return None
        at = len(self.layout)
        args = tuple(trees)
        self.layout.add(MacroCall(None, None, macro, args), self.pc, 0, self.ref, self.k, stmt, local)
        for key, arg in zip(macro.params, args):
            if not IDENT.fullmatch(key):
                self.err(f"macro '{macro.name}': the parameter '{key}' is no name [SYNTAX 8]", where)
                continue
            try:
                self.values[key] = ex.value(arg, self.values, self.pc, local)
            except (ex.Unknown, ex.ExprError):
                self.values.pop(key, None)
            if key not in self.symbols:  # (spelled as its key: spelling_of)
                self.symbols[key] = PARAM
                self.unplaced.add(key)
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
                self.layout.add(MacroEnd(None, None, macro.end), self.pc, 0, self.ref, self.k, stmt, suffix)
        return None

    def argument(self, text: str) -> ex.Node:
        """The tree of a macro argument: an expression, perhaps with a modifier in front
        (``<`` low byte, ``>`` high byte, ``!`` -- absolute -- leaves the value as it is)."""
        prefix = text[:1]
        if prefix not in ("<", ">", "!"):
            return self.decoder.expression(text)
        node = self.decoder.expression(text[1:].lstrip())
        if prefix == "!":
            return node
        return ex.LowByte(node) if prefix == "<" else ex.HighByte(node)
