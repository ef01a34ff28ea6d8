"""Pass 1's output and listing options: ``.opt`` (which files the object and the listing go to),
``.sym`` (a symbol table after the listing), ``.stm`` (the original's symbol memory), ``.tit``
and ``.pag`` (shown by the listing), and the pseudo-ops that need a running C64."""

from __future__ import annotations

from asm6502.asm.state import Pass1State
from asm6502.asm.symbols import SymbolTable
from asm6502.patterns import LazyPattern

_OPT_ITEM = LazyPattern(r"([Oo][Oo]|[OoPpMmNn])(#|\d+|=.*)?\Z")


class ListingOptions:
    """``.opt``, ``.sym``, ``.stm``, ``.tit``, ``.pag``, ``.gtb``/``.sys``: where the object and the listing
    go, whether the symbol table is listed, the original's symbol memory."""

    def __init__(self, state: Pass1State, symbols: SymbolTable, opens: dict):
        self.state = state
        self.symbols = symbols  # ('.stm' counts the symbols defined before it)
        self.opens = opens  # the OPEN statements before the start line: lfn -> (device, secondary address, name)
        self.object_lfn: int | None = None
        self.object_buffer = False  # '.opt o': the object goes to the original's buffer in the C64's BASIC RAM
        self.symbol_memory: tuple[int, int] | None = None  # '.stm': (lowest address, symbols defined before it)
        self.listing_lfn: int | None = None
        self.symbol_listing = False

    def op_opt(self, rec, line, stmt, local, depth, lines):
        """``.opt P,P#,P=expr,O,OO,O#,O=expr,M,N``: listing and object output (manual p. 17)."""
        after = line.line_text[stmt.col - 1 + len(stmt.text) :]
        if after[:1] in (" ", "\t") and after.lstrip().startswith(";") and rec.args.rsplit(",", 1)[-1].strip().lower() == "p":
            # a P last, then a blank and a comment: the original looks for the file number there and
            # finds none (opt/opt_p_comment_after, rules/opt_p_blank_comment_*; 'p;x', 'p1 ;x', 'oo ;x' are fine)
            self.state.err(".opt P, a blank and a comment: the original reads a file number after P and finds none "
                     "(write 'p;' or put the P first) [UNDEF'D STATEMENT]", (line, stmt.col, len(stmt.text)))
        for item in filter(None, (a.strip() for a in rec.args.split(","))):
            m = _OPT_ITEM.match(item)
            if m is None:
                self.state.err(f"unknown .opt option '{item}' [SYNTAX 5]", (line, stmt.col + rec.args_offset, len(rec.args)))
                continue
            letter, arg = m.group(1).lower(), m.group(2)
            if arg and arg[0] == "=" and letter in "op":
                what = "the listing's characters" if letter == "p" else "the object code"
                self.state.err(f".opt {item}: hands {what} to a routine of the running C64: not supported here (leave it out, or use "
                         f"{'P' if letter == 'p' else 'O'}# with an OPEN line)", (line, stmt.col + rec.args_offset, len(rec.args)))  # fmt: skip
                continue
            if letter in ("n", "o", "oo"):  # (the O options exclude each other: opt/opt_o1_and_oo)
                self.object_buffer = letter == "o" and not arg
            if letter == "n":
                self.object_lfn = self.listing_lfn = None
            elif arg and arg[0].isdigit():
                lfn = int(arg)
                if lfn not in self.opens:
                    self.state.warn(f".opt {item}: no 'OPEN {lfn},...' before the start line names this file", (line, stmt.col, len(stmt.text)))
                if letter == "o":
                    self.object_lfn = lfn
                elif letter == "p":
                    self.listing_lfn = lfn
        return None

    def op_listing(self, rec, line, stmt, local, depth, lines):
        return None  # .tit / .pag: the listing shows them (encode.py)

    def op_accept(self, rec, line, stmt, local, depth, lines):
        """``.stm addr``: the lowest address of the original's symbol table (it grows down from $8000);
        pipeline.py checks the symbols against it after pass 1 (SYM TABLE OVERFLOW)."""
        if rec.args:
            value = self.state.value_of(rec, rec.args, line, stmt, local)
            if value is not None:
                self.symbol_memory = (value, len(self.symbols.order))
        return None

    def op_sym(self, rec, line, stmt, local, depth, lines):
        if rec.args:
            self.state.value_of(rec, rec.args, line, stmt, local)  # symbols a line
        self.symbol_listing = True
        return None

    def op_c64(self, rec, line, stmt, local, depth, lines):
        what = {"gtb": "gets the next source from BASIC memory", "sys": "calls machine code during assembly"}[rec.op]
        self.state.err(f"'.{rec.name}' needs a running C64 (it {what}): not supported here", (line, stmt.col + rec.op_offset, rec.op_length))
        return None
