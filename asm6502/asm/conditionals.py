"""Control flow of pass 1: ``.if`` (the rest of the line runs or not), ``.goto`` (a line of the same
file or macro body, by its BASIC number) and ``.end`` (the pass ends)."""

from __future__ import annotations

from array import array
from bisect import bisect_left

from asm6502.asm import expr as ex
from asm6502.asm.files import IncludedFiles
from asm6502.asm.lines import NO_NUMBER, Lines
from asm6502.asm.state import Pass1State, Stop


class Conditionals:
    """``.if``, ``.goto``, ``.end``: the symbols ``.if`` could not know, the line numbers of each file and
    macro body, the number of the last line read."""

    def __init__(self, state: Pass1State, files: IncludedFiles):
        self.state = state
        self.files = files  # ('.end 8,"first"' closes their chain)
        self.last_line: int | None = None  # the number of the last line read: the .end line, else the last line
        self.numbered: dict = {}  # id(lines) -> line number -> index (see line_numbers)
        self.if_unknown: list[tuple[str, str, tuple]] = []  # (key, name of a .if symbol not known in pass 1, where)

    def op_if(self, rec, line, stmt, local, depth, lines):
        state = self.state
        if not rec.args:
            state.err(".if needs an expression [SYNTAX 5]", (line, stmt.col + rec.op_offset, rec.op_length))
            return -1
        try:
            value = ex.value(state.decoder.expression(rec.args), state.values, state.pc, local)
        except ex.ExprError as exc:
            state.err(exc.message, (line, stmt.col + rec.args_offset + exc.offset, exc.length))
            return -1
        except ex.Unknown as u:  # a symbol never defined counts as 0 (the original); one defined further down is an error
            self.if_unknown.append((u.key, u.node.name, (line, stmt.col + rec.args_offset + u.node.offset, u.node.length)))
            return -1
        return None if value else -1

    def op_goto(self, rec, line, stmt, local, depth, lines):
        state = self.state
        value = state.value_of(rec, rec.args, line, stmt, local) if rec.args else None
        if value is None:
            if not rec.args:
                state.err(".goto needs a line number [SYNTAX 5]", (line, stmt.col + rec.op_offset, rec.op_length))
            return -1
        index = self.line_numbers(lines).get(value)
        if index is not None:
            return index
        state.err(f".goto {value}: there is no line {value}" + (" in this macro" if local else "") + " [UNDEF'D STATEMENT]",
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
        if local is None:
            self.last_line = line.number
        if rec.args:
            self.files.close_chain()  # '.end 8,"first"': the original reloads the chain's first file for pass 2
        texts = lines.texts
        after = self.state.ref - lines.base + 1
        rest = next((lines.line(k) for k in range(after, len(texts)) if (texts[k] if type(texts[k]) is str else texts[k].has_code)), None)
        if rest is not None and local is None:
            self.state.warn("the lines after .end are BASIC that the C64 runs after the assembly: they are not assembled "
                      "(the original hands them to BASIC)", (rest, rest.statements[0].col, len(rest.statements[0].text)))  # fmt: skip
        raise Stop

    def finish(self) -> None:
        """The end of pass 1: a '.if' symbol defined further down is an error (one never defined counts as 0)."""
        for key, name, where in self.if_unknown:
            if key in self.state.values:
                self.state.err(f"'{name}' is defined further down: .if needs its value in pass 1 [UNDEF'D STATEMENT]", where)


class _Ascending:
    """The lines of a list in ascending order of number, looked up by bisection (Conditionals.line_numbers)."""

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
