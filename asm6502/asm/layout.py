"""Pass 1: run the program and lay it out.

Pass 1 runs every control statement -- ``.if``, ``.goto``, macro calls,
``.file`` chains, ``.end`` -- sizes every instruction and data statement,
defines the symbols, and writes down each executed statement as one layout
entry (entries.py: :class:`Entry` -- the decoded statement or a macro record,
its address, its size, its line and statement, its macro call's suffix).

Pass 2 (encode.py) only walks these entries.  Each concern of the pass is a module of its own,
an object the walk holds: the symbol table (symbols.py), the macros (macros.py), ``.if``/``.goto``/
``.end`` (conditionals.py), the files (files.py), the listing and output options (options.py), all
on the one state of the pass (state.py, with the one zero-page rule: ``address_size``).  This module
is the walk over the lines and the statements, and the statements that lay out code and data.
"""

from __future__ import annotations

from asm6502.asm import expr as ex
from asm6502.asm.conditionals import Conditionals
from asm6502.asm.entries import FORWARD, OTHER_STMT
from asm6502.asm.files import MAX_CHAIN, IncludedFiles
from asm6502.asm.lines import NO_NUMBER, Lines, SourceLine
from asm6502.asm.macros import Macros
from asm6502.asm.operand_text import overflow_resume
from asm6502.asm.options import ListingOptions
from asm6502.asm.program import Program
from asm6502.asm.pseudo import CONTROL, DATA, DEFINITION, HIDDEN, PSEUDO_OPS, foreign_hint
from asm6502.asm.reader import split_statements
from asm6502.asm.result import Options
from asm6502.asm.state import NextFile, Pass1State, Stop, address_size
from asm6502.asm.statements import Bad, Call, Data, Define, Insn, Label, Origin, Pseudo, Start
from asm6502.asm.symbols import LABEL, SymbolTable
from asm6502.diagnostics import Kept, note

__all__ = ["Layout"]


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


def _handlers(kind: str) -> tuple[tuple[str, str, str, bool], ...]:
    """(name, the Layout attribute its handler's object is or "", the method, listed) of every pseudo-op of a
    kind: the registry's names split once, not at each assembly (Layout.handler reads one name so)."""
    return tuple((name, *op.pass1.rpartition(".")[::2], op.listing not in (DEFINITION, HIDDEN))
                 for name, op in PSEUDO_OPS.items() if op.kind == kind)  # fmt: skip


_CONTROL_HANDLERS = _handlers(CONTROL)
_DATA_HANDLERS = _handlers(DATA)


class Layout:
    """One assembly's pass 1: the walk over the lines, and the concerns it hands statements to."""

    def __init__(self, options: Options, reader, opens: dict, kept: Kept | None = None):
        self.options = options
        self.state = state = Pass1State(options, kept)
        self.symbols = SymbolTable(state)
        self.macros = Macros(state, self.symbols)
        self.files = IncludedFiles(state, self.symbols, reader)
        self.conds = Conditionals(state, self.files)
        self.listing_opts = ListingOptions(state, self.symbols, opens)
        self.executed = 0
        # statements pass 1 may run: every statement of every file once, plus max_statements
        # for what .goto and macros repeat (an endless .goto loop ends there)
        self.budget = options.max_statements
        self.uncounted: list[Lines] = []  # files whose lines' statements after the first are not in the budget yet
        self.started = False
        self.sources: dict[str, tuple[Lines, int]] = {}  # each file run -> its lines and start line (Program.sources)
        # pseudo-op -> (its pass-1 handler, listed here): asm6502/asm/pseudo.py
        self.pseudo = {name: (getattr(getattr(self, owner) if owner else self, method), listed)
                       for name, owner, method, listed in _CONTROL_HANDLERS}  # fmt: skip
        self.data_ops = {name: getattr(getattr(self, owner) if owner else self, method) for name, owner, method, _ in _DATA_HANDLERS}

    def handler(self, name: str):
        """The pass-1 handler a pseudo-op's entry names: 'conds.op_if' is the conditionals' ``op_if``, a name
        without a dot one of this walk's own (``lay_data``).  AttributeError: there is none."""
        owner, _, method = name.rpartition(".")
        return getattr(getattr(self, owner) if owner else self, method)

    # -- the walk -----------------------------------------------------------------------

    def run(self, lines: Lines, start: int) -> Program:
        """Run the source from its start line (and the files of its .file chain): the program it makes."""
        chained = 0
        while True:
            self.sources.setdefault(lines.file, (lines, start))
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
                self.state.err(f"more than {MAX_CHAIN} .file chains: does a file name itself?", self.files.chained)
            except Stop:
                pass
            break
        if self.conds.last_line is None:
            self.conds.last_line = next((number for number in reversed(lines.numbers) if number != NO_NUMBER), None)
        self.files.finish()
        self.conds.finish()
        self.macros.finish()
        return self.program()

    def program(self) -> Program:
        """What the pass made (program.Program: the one value the stages after it read)."""
        state, symbols, macros, opts = self.state, self.symbols, self.macros, self.listing_opts
        return Program(
            options=self.options, entries=state.entries, decoder=state.decoder, sources=self.sources,
            values=state.values, symbols=symbols.kinds, spelling=symbols.spelling, order=symbols.order,
            definition_labels=symbols.definition_labels, skipped_labels=symbols.skipped_labels,
            places=symbols.places, place_refs=symbols.place_refs, positions=symbols.positions,
            macros=macros.named, macro_order=macros.defined, call_ends=macros.call_ends,
            opens=opts.opens, object_lfn=opts.object_lfn, object_buffer=opts.object_buffer, listing_lfn=opts.listing_lfn,
            symbol_listing=opts.symbol_listing, symbol_memory=opts.symbol_memory, sst=self.files.sst,
            last_line=self.conds.last_line, diagnostics=state.diags, kept=state.kept,
        )  # fmt: skip

    def run_lines(self, lines: Lines, i: int, depth: int, local: str | None) -> None:
        """Run ``lines`` from position ``i`` (a file, or a macro body when ``local`` is set).

        (The program counter and the statement count live in locals while instructions are laid
        out, and in the state and ``self`` whenever another method runs: every statement but an
        instruction.  A line of one statement is read from the columns, its text; its object is made
        only for a statement other than an instruction.)"""
        state, macros, symbols = self.state, self.macros, self.symbols
        decoder = state.decoder
        decode = decoder.decode
        decoded = decoder.records.get  # (the decoder's memory, asked first: most texts were met before)
        entries = state.entries
        recs, refs, stmts = entries.recs, entries.refs, entries.stmts
        add_pc = entries.pcs.append  # (an array's method is looked up by name at each call)
        add_size = entries.sizes.append
        add_ref = refs.append
        add_stmt = stmts.append
        size_of = address_size
        define_value = symbols.define_value
        define = symbols.define
        values = state.values
        listing = state.listing
        limit = self.budget
        executed = self.executed
        pc = state.pc
        other_stmt = OTHER_STMT
        texts = lines.texts
        before = (lines.base if lines.base >= 0 else entries.register(lines)) - 1  # (the ref of line i is before + i after i += 1)
        n = len(texts)
        while i < n:
            item = texts[i]
            i += 1
            if macros.recording is not None:
                state.ref = before + i
                macros.record(lines, i - 1)
                continue
            if type(item) is str:  # a line of one statement: its text (perhaps with a comment: lines.CommentedLine)
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
                        state.ref = before + i
                        define_value(rec.label, pc, LABEL, None, None, local)
                    shape = rec.shape
                    size = size_of(rec, values, pc, local) if shape.form == "address" else shape.size
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
                    state.ref = before + i
                    state.k = 0
                    self.executed, state.pc = executed, pc
                    define(rec, None, None, local)
                    continue
                elif type(rec) is Data:  # ('.byt' and the like: as 'statement' lays them out, without the line's object)
                    executed += 1
                    state.ref = before + i
                    state.k = 0
                    self.executed, state.pc = executed, pc
                    if rec.label is not None:
                        symbols.define_label(rec.label, None, None, local)
                    self.data_ops[rec.op](rec, None, None, local)
                    pc = state.pc
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
            ref = state.ref = before + i  # (a macro call restores it: Layout.call)
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
                        self.executed, state.pc = executed, pc
                        state.err(f"assembly stopped after {limit} statements ({self.options.max_statements} more than the "
                                 "source holds): endless .goto loop?", (line, stmt.col, len(text)))
                        raise Stop
                    rec = decoded(text)
                    if rec is None:
                        rec = decode(text)
                    if (k != 0 and local is None
                            and (rec.label is not None or type(rec) is Define or type(rec) is Bad or text[0] == "^")
                            and blank_after_colon(line, stmt)):  # fmt: skip
                        rec = decoder.decode_after_blank_colon(text)
                    if type(rec) is Insn:
                        if rec.label is not None:
                            define_value(rec.label, pc, LABEL, line, stmt, local)
                        shape = rec.shape
                        size = size_of(rec, values, pc, local) if shape.form == "address" else shape.size
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
                    self.executed, state.pc = executed, pc
                    state.k = k
                    if type(rec) is Define:  # ('statement' would only pass it on to 'define', which moves neither
                        # count and goes on with the line: a definition is a common statement)
                        define(rec, line, stmt, local)
                        continue
                    outcome = self.statement(rec, line, stmt, local, depth, lines)
                    executed, pc = self.executed, state.pc
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
        self.executed, state.pc = executed, pc

    def full_budget(self) -> int:
        """The budget with every statement of the files run so far.  A line's statements after its first
        are counted only when the budget of one a line is used up: most programs never get there, and
        counting them at the start would take a pass over every line (a list of a count per line would be
        many times the text's size, a generator costs time on every line)."""
        for lines in self.uncounted:
            self.budget += sum(len(line.statements) - 1 for line in lines.texts if type(line) is SourceLine)
        self.uncounted = []
        return self.budget

    def statement(self, rec, line, stmt, local, depth, lines):
        """Every statement but an instruction; returns None, -1 (skip the rest of the line) or a line index."""
        state, symbols = self.state, self.symbols
        kind = type(rec)
        if rec.label is not None and (kind is Data or kind is Origin):  # ('label *= *+n' reserves n bytes)
            symbols.define_label(rec.label, line, stmt, local)
        if kind is Define:
            return symbols.define(rec, line, stmt, local)
        if kind is Data:
            self.data_ops[rec.op](rec, line, stmt, local)
            return None
        if kind is Label:  # (a label needs a statement after it: the original's SYNTAX 0)
            close = state.decoder.near_mnemonics(rec.label)
            typo = f" (a typo of {' or '.join(close)}?)" if close else ""
            after = stmt.col - 1 + len(stmt.text)
            colon = () if typo or line.line_text[after:after + 1] != ":" else (note(  # the 64tass/ACME habit 'loop: jmp loop'
                f"in Profi-Ass ':' separates statements and a label has no colon: write '{rec.label} "
                f"{line.line_text[after + 1:].split(';')[0].strip() or 'nop'}'"),)
            state.err(f"a label needs a statement after it on its line: '{rec.label}' alone{typo} [SYNTAX 0]", (line, stmt.col, len(rec.label)), *colon)
            return None
        if kind is Origin:
            return self.origin(rec, line, stmt, local)
        if kind is Pseudo:
            found = self.pseudo.get(rec.op)
            if rec.label is not None and rec.op != "mac":  # ('name .mac': the macro's name)
                symbols.define_label(rec.label, line, stmt, local)
            if found is None:
                hint = foreign_hint(rec.name)
                state.err(f"unknown pseudo-op '.{rec.name}' [SYNTAX 7]", (line, stmt.col + rec.op_offset, rec.op_length),
                          *((note(hint),) if hint else ()))  # fmt: skip
                return None
            handler, listed = found
            if state.listing and listed:
                state.entries.add(rec, state.pc, 0, state.ref, state.k, stmt, local)
            return handler(rec, line, stmt, local, depth, lines)
        if kind is Call:
            if rec.label is not None:
                symbols.define_label(rec.label, line, stmt, local)
            self.call(rec, line, stmt, local, depth)
            return None
        if kind is Start:
            if not self.started:  # the start line: what follows it on the line is assembled
                self.started = True
                return None
            state.err("'sys' is the start line: only the first one starts the assembler [SYNTAX 1]", (line, stmt.col, len(stmt.text)))
            return None
        # Bad: the original skips the statement, its label too (a reference to it is then
        # UNDEF'D STATEMENT in pass 2: fuzz seeds 199, 604)
        message, offset, length = rec.problem
        if local is None and LOCAL_JUNK in message:  # 'lda .l "x"' outside a macro: SYNTAX 5 (rules/local_junk_*)
            message = "a label local to a macro (.name) is referenced only inside a macro, and " + message.replace(LOCAL_JUNK, "").replace("[SYNTAX 3]", "[SYNTAX 5]")
        kept = len(state.diags)
        if line is not None and _after_comment(line.line_text, stmt.col):
            state.err(message, (line, stmt.col + offset, length), note(COMMENT_ENDS))
        else:
            state.err(message, (line, stmt.col + offset, length))
        if rec.label is not None and len(state.diags) > kept:
            symbols.skipped(rec.label, local, kept)
        if state.listing:
            state.entries.add(rec, state.pc, 0, state.ref, state.k, stmt, local)
        return None

    def call(self, rec: Call, line, stmt, local, depth: int) -> None:
        """A macro call: its body run with the call's suffix for its local labels (macros.py sets it up)."""
        entered = self.macros.enter(rec, line, stmt, local, depth)
        if entered is None:
            return
        macro, suffix, at = entered
        state = self.state
        ref, k = state.ref, state.k
        self.run_lines(macro.body, 0, depth + 1, suffix)
        state.ref, state.k = ref, k
        self.macros.leave(macro, suffix, at, stmt)

    # -- code and data ---------------------------------------------------------------------

    def lay_data(self, rec: Data, line, stmt, local) -> None:
        """``.byt``, ``.wor``, ``.flp``: laid out at the program counter."""
        state = self.state
        state.entries.add(rec, state.pc, rec.size, state.ref, state.k, stmt, local)
        state.pc = (state.pc + rec.size) & 0xFFFF

    def lay_asc(self, rec: Data, line, stmt, local) -> None:
        """``.asc``: as data (its length is the operand's, checked by the decoder: OPERAND_LIMIT)."""
        self.lay_data(rec, line, stmt, local)

    def origin(self, rec: Origin, line, stmt, local):
        state = self.state
        try:
            value = ex.value(rec.expr, state.values, state.pc, local)
        except ex.Unknown as u:
            state.err(f"the address in '*=' must be known in pass 1: '{u.node.name}' is not [UNDEF'D STATEMENT]",
                      (line, stmt.col + rec.expr_offset + u.node.offset, u.node.length))  # fmt: skip
            raise Stop from None
        except ex.ExprError as exc:
            state.err(exc.message, (line, stmt.col + rec.expr_offset + exc.offset, exc.length))
            raise Stop from None
        old = state.pc
        state.pc = value
        # (the listing shows the new address, or with a label in front the label's value)
        state.entries.add(rec, value if rec.label is None else old, 0, state.ref, state.k, stmt, local)
        return None
