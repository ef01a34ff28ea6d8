"""Macros: ``name .mac params`` ... ``.men`` recorded as a body of lines, and ``'name args`` calls.

A call sets the parameters (symbols of the kind "param") to its arguments' values, and the walk
(layout.py) runs the body with the call's own suffix for the body's local labels (``.lbl`` is
``lbl:01`` in the first call); the definition itself gives each label of the body its offset, as
``name:00`` (manual p. 23).
"""

from __future__ import annotations

from asm6502.asm import expr as ex
from asm6502.asm.decode import IDENT
from asm6502.asm.entries import FORWARD, MACRO_LINE, Macro, MacroCall, MacroEnd
from asm6502.asm.lines import Line, Lines
from asm6502.asm.pseudo import PSEUDO_OPS
from asm6502.asm.state import Pass1State, address_size
from asm6502.asm.statements import Bad, Call, Data, Define, Insn, Pseudo
from asm6502.asm.symbols import SymbolTable
from asm6502.patterns import LazyPattern

MACRO_DEPTH = 16

# a macro body ends at '.men' or '.mend' (a label may stand in front: it is a local label)
_MEN = LazyPattern(r"\^?\s*(?:([A-Za-z][A-Za-z0-9.]*)\s+)?\.[Mm][Ee][Nn]")

_PSEUDO_WORD = LazyPattern(r"\.[A-Za-z]*")

_MAC = LazyPattern(r"\^?\s*(?:[A-Za-z][A-Za-z0-9.]*\s+)?\.[Mm][Aa][Cc]")


class Macros:
    """Macro definitions and calls: the macros defined, the one being recorded, where each call's body ends."""

    def __init__(self, state: Pass1State, symbols: SymbolTable):
        self.state = state
        self.symbols = symbols
        self.named: dict[str, Macro] = {}  # key -> the macro (the first definition of its name)
        self.defined: list[Macro] = []  # every definition, in order
        self.call_ends: dict[int, tuple[int, str]] = {}  # entry of a macro call -> (the entry after its body, its locals' suffix)
        self.recording: Macro | None = None  # the macro whose body the lines run now go to

    def record(self, lines: Lines, i: int) -> None:
        """A line between .mac and .men (line ``i`` of ``lines``) becomes part of the macro's body."""
        state, recording = self.state, self.recording
        assert recording is not None
        line = lines.line(i)
        text = line.statements[0].text if line.statements else ""
        m = _MEN.match(text)
        if m:
            recording.end = _PSEUDO_WORD.match(text, m.end() - 4).group(0)
            if m.group(1):  # 'label .mend': the label is the last statement of the body
                recording.body.add(line)
                recording.labeled_end = True
            if recording.redefined:
                stmt = line.statements[0]
                state.err("the end of a macro defined twice: '.men' without '.mac' [SYNTAX B]", (line, stmt.col, len(stmt.text)))
            else:
                self.defined_labels(recording)
            self.recording = None
        elif _MAC.match(text):
            state.err("a macro cannot be defined inside another macro [SYNTAX D]", (line, line.statements[0].col, len(text)))
        else:
            recording.body.add(line)
        if state.listing:
            for k, stmt in enumerate(self.recorded_statements(line)):
                state.entries.add(MACRO_LINE, state.pc, 0, state.ref, k if stmt is not None else -1, stmt, None)

    def defined_labels(self, macro: Macro) -> None:
        """The original runs a macro's definition through: every label of the body becomes
        'name:00', its offset from the body's first line (an operand not known there is absolute),
        listed by '.sym' before the calls' own (macro/macro_local_sym, rules/mac_local_sym_*).
        Only the symbol table shows them: '.x' outside a call stays an error (rules/mac_local_outside)."""
        decoder, values = self.state.decoder, self.state.values
        offset = 0
        for body_line in macro.body:
            for stmt in body_line.statements:
                if not stmt.text:
                    continue
                rec = decoder.decode(stmt.text)
                kind = type(rec)
                if rec.label is not None and kind is not Define and kind is not Bad:
                    self.symbols.definition_label(ex.local_key(rec.label, ":00"), offset)
                if isinstance(rec, Insn):
                    size = address_size(rec, values, offset, ":00") if rec.shape.form == "address" else rec.shape.size
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
        decoder = self.state.decoder
        listed = []
        for stmt in statements:
            listed.append(stmt)
            rec = decoder.decode(stmt.text) if stmt.text else None
            if type(rec) is Pseudo and PSEUDO_OPS[rec.op].pass1 == "conds.op_if" and rec.args:  # (the pass-1 handler names the '.if')
                try:
                    if not ex.value(decoder.expression(rec.args), self.state.values, self.state.pc, None):
                        break
                except (ex.ExprError, ex.Unknown):
                    pass
        return listed

    def op_mac(self, rec: Pseudo, line, stmt, local, depth, lines):
        state = self.state
        where = (line, stmt.col + rec.op_offset, rec.op_length)
        if state.listing:
            state.entries.add(MACRO_LINE, state.pc, 0, state.ref, state.k, stmt, None)
        if local is not None:
            state.err("a macro cannot be defined inside another macro [SYNTAX D]", where)
            return -1
        name = rec.label
        params_text = rec.args
        if name is None:
            m = IDENT.match(params_text)
            if not m:
                state.err(".mac needs a name: 'name .mac param,...' [SYNTAX 8]", where)
                return -1
            name = m.group()
            params_text = params_text[m.end() :].strip()
        params = tuple(p.strip() for p in params_text.split(",") if p.strip())
        key = ex.key_of(name)
        # (a parameter that is no name, '1' or '$10', is the original's SYNTAX 8 at every call, not
        # here: syntax/syntax_mac_param_digit, rules/mac_param_bad_*)
        macro = Macro(name, tuple(ex.key_of(p) if IDENT.fullmatch(p) else p for p in params), line, stmt.col)
        if key in self.named:
            # the first definition stays; this one is recorded and its end is '.men without .mac'
            # (macro/macro_redefined, rules/mac_redefined_*)
            state.err(f"macro '{name}' is defined twice [REDEFINITION]", where)
            macro.redefined = True
        else:
            self.named[key] = macro
        self.defined.append(macro)
        self.recording = macro
        return -1

    def op_men(self, rec, line, stmt, local, depth, lines):
        if local is None:
            self.state.err(".men without .mac [SYNTAX B]", (line, stmt.col + rec.op_offset, rec.op_length))
        return None

    def enter(self, rec: Call, line, stmt, local, depth: int) -> tuple[Macro, str, int] | None:
        """A call: its entry made and the parameters set; (the macro, its locals' suffix, the call's entry)
        for the walk to run the body with, None when the call is an error."""
        state = self.state
        where = (line, stmt.col, len(stmt.text))
        macro = self.named.get(ex.key_of(rec.name))
        if macro is None:
            state.err(f"unknown macro '{rec.name}' [UNDEF'D STATEMENT]", (line, stmt.col + rec.name_offset, len(rec.name)))
            return None
        if len(rec.args) != len(macro.params):
            state.err(f"macro '{macro.name}' takes {len(macro.params)} argument(s), got {len(rec.args)} [SYNTAX F]", where)
            return None
        if depth >= MACRO_DEPTH:
            state.err(f"macros nested more than {MACRO_DEPTH} deep (recursive macro?)", where)
            return None
        # the parameters are symbols that each call sets to its arguments' values (manual p. 23)
        trees = []
        for text in rec.args:
            try:
                trees.append(self.argument(text))
            except ex.ExprError as exc:
                state.err(f"{exc.message} (in the argument '{text}')", where)
                return None
        at = len(state.entries)
        args = tuple(trees)
        state.entries.add(MacroCall(None, None, macro, args), state.pc, 0, state.ref, state.k, stmt, local)
        for key, arg in zip(macro.params, args):
            if not IDENT.fullmatch(key):
                state.err(f"macro '{macro.name}': the parameter '{key}' is no name [SYNTAX 8]", where)
                continue
            self.symbols.parameter(key, arg, local)
        macro.calls += 1
        return macro, f":{macro.calls:02X}", at  # (the call's local labels: '.lbl' is 'lbl:01' in the first call)

    def leave(self, macro: Macro, suffix: str, at: int, stmt) -> None:
        """After the body of the call at entry ``at``: where it ends (for asm6502.convert), and its end's row."""
        state = self.state
        if state.listing:
            self.call_ends[at] = (len(state.entries), suffix)
            if not macro.labeled_end:
                state.entries.add(MacroEnd(None, None, macro.end), state.pc, 0, state.ref, state.k, stmt, suffix)

    def finish(self) -> None:
        """The end of pass 1: a definition still recording has no .men."""
        m = self.recording
        if m is not None:
            self.state.err(f"macro '{m.name}' has no .men [SYNTAX C]", (m.line, m.col, 4))

    def argument(self, text: str) -> ex.Node:
        """The tree of a macro argument: an expression, perhaps with a modifier in front
        (``<`` low byte, ``>`` high byte, ``!`` -- absolute -- leaves the value as it is)."""
        prefix = text[:1]
        decoder = self.state.decoder
        if prefix not in ("<", ">", "!"):
            return decoder.expression(text)
        node = decoder.expression(text[1:].lstrip())
        if prefix == "!":
            return node
        return ex.LowByte(node) if prefix == "<" else ex.HighByte(node)
