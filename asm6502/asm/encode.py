"""Pass 2: encode the laid-out entries into bytes.

Pass 2 runs no control statement: it walks the entries of pass 1's Program in order,
assigns the ``_`` variables and macro parameters again (the original redefines
them in both passes), and turns every instruction and data entry into bytes
at the address pass 1 gave it, with the size pass 1 chose.  Errors on values
are reported here: an undefined symbol, a value out of range, a branch too far.
"""

from __future__ import annotations

from array import array
from itertools import count

from asm6502.asm import expr as ex
from asm6502.asm.entries import FORWARD, MacroCall
from asm6502.asm.precedence import is_mixed, written
from asm6502.asm.program import Program
from asm6502.asm.pseudo import PSEUDO_OPS, WORDS
from asm6502.asm.rows import NO_VALUE, as_span
from asm6502.asm.statements import Data, Define, Insn
from asm6502.diagnostics import Diagnostic, error, note, warning
from asm6502.opcodes import ZERO_PAGE_FORM, Mode

NEAR_ASKED = 50  # undefined names a run looks for a near spelling of


class Encoder:
    def __init__(self, program: Program):
        self.program = program
        self.diags: list[Diagnostic] = []
        self.chunks: list[tuple[int, bytearray, tuple]] = []  # (start, bytes, where)
        # with a listing, the value of each '=' / '_' entry at its point of pass 2 (NO_VALUE: none); None without.  An
        # instruction's or data entry's bytes are not kept: they are the object's at [pc, pc + its size from pass 1)
        # (rows.address_space: every byte of a program assembled without error has that one writer).  (A bytes object
        # an instruction and a list's pointer an entry would be kept to pass 2's end for nothing.)
        self.defined = array("I") if program.options.listing else None
        self.fatal = False
        self.near: dict[str, str] = {}  # an undefined name -> its "did you mean" ('' for none)

    def err(self, message: str, where) -> None:
        if self.program.kept.has_room(True):  # (beyond the run's room only counted: diagnostics.Kept)
            self.diags.append(error(message, as_span(where)))

    def warn(self, message: str, where) -> None:
        if self.program.kept.has_room(False):
            self.diags.append(warning(message, as_span(where)))

    def near_symbol(self, name: str) -> str:
        """'; did you mean 'loop'?' for an undefined symbol spelled like a defined one (difflib), for the first
        NEAR_ASKED names a run asks about (each a pass over the symbols); else ''."""
        found = self.near.get(name)
        if found is None:
            if len(self.near) >= NEAR_ASKED or name[0] == ".":
                return ""
            from difflib import get_close_matches  # (only when an error asks: not at every start)

            spelling = self.program.spelling
            names = [spelling.get(k, k) for k in self.program.values if ":" not in k and abs(len(k) - len(name)) <= 2]
            close = get_close_matches(name, names, n=1, cutoff=0.75)
            found = self.near[name] = f"; did you mean '{close[0]}'?" if close else ""
        return found

    def place(self, at: int) -> tuple:
        """Entry ``at``'s line and statement, made for a message (the entries keep neither object)."""
        return self.program.entries.place(at)

    def value(self, node, values, pc, local, at, expr_offset) -> int | None:
        """An expression's value in pass 2; None after reporting an error (the statement's line made only then)."""
        try:
            return ex.value(node, values, pc, local)
        except ex.Unknown as u:
            node = u.node
            line, stmt = self.place(at)
            col = stmt.col
            if node.name[0] == "." and local is None:
                self.err(f"'{node.name}' outside a macro: a label local to a macro is referenced only inside it [SYNTAX 5]",
                         (line, col + expr_offset + node.offset, node.length))  # fmt: skip
                return None
            what = f"local label '{node.name}'" if node.name[0] == "." else f"symbol '{node.name}'"
            where = (line, col + expr_offset + node.offset, node.length)
            root = self.program.skipped_labels.get(u.key)
            if root is not None:  # (the label of a statement skipped for its error: shown after that error, pointing to it)
                cause = self.program.diagnostics[root].span
                if self.program.kept.has_room(True):
                    self.diags.append(error(
                        f"undefined {what} [UNDEF'D STATEMENT]", as_span(where),
                        note(f"'{node.name}' is the label of this statement, skipped for its error (shown above)", cause), cause=cause))
                return None
            self.err(f"undefined {what}{self.near_symbol(node.name)} [UNDEF'D STATEMENT]", where)
        except ex.ExprError as exc:
            line, stmt = self.place(at)
            self.err(exc.message, (line, stmt.col + expr_offset + exc.offset, exc.length))
        return None

    def run(self) -> None:
        lay = self.program
        values = self.values = dict(lay.values)  # pass 1's symbols; '_' variables and parameters change as pass 2 goes
        listing = lay.options.listing
        chunks = self.chunks
        out: bytearray = None  # the bytearray of the current chunk
        end = -1  # the address after it
        define = self.defined.append if listing else None
        key_of = ex.key_of  # (a module's function looked up once: a listing run asks it at every '=' row)
        reversal_fatal = lay.object_lfn is not None or lay.object_buffer  # (a file or '.opt o''s buffer cannot go back)
        high = -1
        entries = lay.entries
        for at, rec, pc, size, local in zip(count(), entries.recs, entries.pcs, entries.sizes, entries.locals):
            kind = type(rec)
            if kind is Insn:
                shape = rec.shape  # (the instruction's Form: statements.Insn)
                data = shape.fixed if shape.form == "fixed" and not shape.unstable else self.instruction(rec, pc, size, at, local, values)
            elif kind is Data:
                data = self.data(rec, pc, values, at, local)
            else:
                if kind is Define and rec.var:
                    value = self.value(rec.expr, values, pc, local, at, rec.expr_offset)
                    if value is not None:
                        values[key_of(rec.name)] = value
                elif kind is MacroCall:
                    for key, arg in zip(rec.macro.params, rec.args):
                        value = self.value(arg, values, pc, local, at, 0)
                        if value is not None:
                            values[key] = value
                if listing and kind is Define:  # ('=' and '_' rows show the value at this point of pass 2: 16 bits, expr.MAX)
                    value = values.get(key_of(rec.name))
                    define(NO_VALUE if value is None else value)
                continue
            if data and pc == end:  # (most entries: the code goes on where the last ended)
                out += data
                end += len(data)
                if end > 0x10000:
                    self.err(f"the program counter passes $FFFF (at ${pc:04X} + {len(data)} bytes)", self.where(at))
                    self.fatal = True
                    break
                if end > high:
                    high = end
            elif data:
                if pc != end and end == 0x10000 and pc == 0:
                    self.err("the program counter passes $FFFF (the original wraps round to $0000; a .prg cannot)",
                             self.where(at))  # fmt: skip
                    self.fatal = True
                    break
                if pc != end:
                    if pc < high:
                        if reversal_fatal:
                            self.err(f"code at ${pc:04X} is below the code before (up to ${high - 1:04X}): the object file "
                                     "or buffer cannot go back [REVERSAL]", self.where(at))  # fmt: skip
                            self.fatal = True
                            break
                    out = bytearray()
                    chunks.append((pc, out, self.where(at)))
                out += data
                end = pc + len(data)
                if end > 0x10000:
                    self.err(f"the program counter passes $FFFF (at ${pc:04X} + {len(data)} bytes)", self.where(at))
                    self.fatal = True
                    break
                if end > high:
                    high = end

    def where(self, at: int) -> tuple:
        """Entry ``at``'s statement as a lazy span."""
        line, stmt = self.place(at)
        return (line, stmt.col, len(stmt.text))

    # -- instructions ------------------------------------------------------------------

    def instruction(self, rec: Insn, pc: int, size: int, at: int, local, values) -> bytes:
        """An instruction entry's bytes."""
        shape = rec.shape  # (the instruction's Form: statements.Insn)
        form = shape.form
        if form == "fixed":
            if shape.unstable:
                self.unstable(rec, at)
            return shape.fixed
        value = self.value(rec.expr, values, pc, local, at, rec.offsets.expr_offset)
        if value is None:
            return bytes(3 if size == FORWARD else size)  # the original: the size stays, the bytes are 00
        prefix = shape.prefix
        if prefix and prefix != "!":
            value = value & 0xFF if prefix == "<" else value >> 8
        if shape.unstable:
            self.unstable(rec, at)
        if form == "address":
            if size == 2:
                if value > 0xFF:
                    self.err(
                        f"value ${value:04X}{self.reached(rec.expr, at, rec.offsets.expr_offset)} does not fit {ZERO_PAGE_FORM[shape.mode].label}, and {shape.mnemonic} has no "
                        f"{shape.mode.label} mode [ILLEGAL QUANTITY]",
                        self.operand(rec, at),
                    )
                    return bytes(2)
                return bytes((shape.zp_code, value))
            if shape.code < 0:
                self.err(f"{shape.mnemonic} has no {shape.mode.label} mode (it has: {', '.join(m.label for m in shape.modes)}) [SYNTAX 2]",
                         self.operand(rec, at))  # fmt: skip
                return bytes(3)
            if size == FORWARD and value <= 0xFF:
                self.warn(
                    f"'{self.place(at)[1].text}' is assembled absolute (a forward reference to ${value:02X}): the original Profi-Ass "
                    "sizes it absolute in pass 1 but writes zero page in pass 2, so its output differs from here on",
                    self.operand(rec, at),
                )
            return bytes((shape.code, value & 0xFF, value >> 8))
        if form == "immediate":
            return bytes((shape.code, self.byte(value, rec, at, "immediate mode")))
        if form == "branch":
            distance = value - (pc + 2)
            if not -128 <= distance <= 127:
                over = distance - 127 if distance > 0 else -128 - distance
                self.err(
                    f"branch out of range: target ${value:04X} is {distance:+d} bytes away, {over} byte{'s' if over != 1 else ''} "
                    "too far (a branch reaches -128..+127) [BRANCH OUT OF RANGE]",
                    self.operand(rec, at),
                )
                return bytes(2)
            return bytes((shape.code, distance & 0xFF))
        if shape.mode is Mode.INDIRECT:  # JMP ($nnnn)
            if value & 0xFF == 0xFF:
                self.warn(
                    f"JMP (${value:04X}) reads its target from ${value:04X} and ${value & 0xFF00:04X}, not "
                    f"${(value + 1) & 0xFFFF:04X}: the NMOS 6502 does not carry into the high byte",
                    self.operand(rec, at),
                )
            return bytes((shape.code, value & 0xFF, value >> 8))
        if value > 0xFF:  # ($nn,X) and ($nn),Y
            self.err(f"value ${value:04X}{self.reached(rec.expr, at, rec.offsets.expr_offset)} is not a zero-page address ({shape.mode.label} needs $00-$FF) [ILLEGAL QUANTITY]",
                     self.operand(rec, at))  # fmt: skip
            return bytes(2)
        return bytes((shape.code, value))

    def byte(self, value: int, rec: Insn, at: int, what: str) -> int:
        """The one-byte rule: 0-255, or $FF80-$FFFF (a negative number, -128..-1)."""
        if value <= 0xFF:
            return value
        if value >= 0xFF80:
            return value & 0xFF
        self.err(f"value ${value:04X}{self.reached(rec.expr, at, rec.offsets.expr_offset)} does not fit in a byte ({what}: 0-255 or "
                 "-128..-1) [ILLEGAL QUANTITY]", self.operand(rec, at))  # fmt: skip
        return 0

    def reached(self, node, at: int, offset: int) -> str:
        """How a value out of range was reached, when the usual precedence would read its expression otherwise
        (' (= [$0400+12]*40, read left to right)'); else ''."""
        mixed = self.program.decoder.mixed  # (None without the warnings: the tree is asked, on this error's path only)
        if (id(node) not in mixed) if mixed is not None else not is_mixed(node):
            return ""
        return f" (= {written(node, self.place(at)[1].text[offset:])}, read left to right)"

    def operand(self, rec: Insn, at: int) -> tuple:
        line, stmt = self.place(at)
        return (line, stmt.col + rec.offsets.operand_offset, rec.offsets.operand_length)

    def unstable(self, rec: Insn, at: int) -> None:
        line, stmt = self.place(at)
        self.warn(f"{rec.shape.mnemonic} is an unstable undocumented opcode: its result differs between chips",
                  (line, stmt.col + rec.offsets.mnemonic_offset, len(rec.shape.mnemonic)))  # fmt: skip

    # -- data ------------------------------------------------------------------------------

    def data(self, rec: Data, pc: int, values, at: int, local) -> bytes:
        """A data entry's bytes: each item's fixed bytes or value (asm6502/asm/pseudo.py: ``encode``)."""
        word = PSEUDO_OPS[rec.op].encode == WORDS
        out = bytearray()
        it = iter(rec.parts)  # (four an item: the bytes or the tree, prefix, offset, length)
        for item, prefix, offset, length in zip(it, it, it, it):
            if type(item) is bytes:
                out += item
                continue
            value = self.value(item, values, pc, local, at, offset)
            if value is None:
                value = 0
            elif prefix:
                value = value & 0xFF if prefix == "<" else value >> 8
            if word:
                out += value.to_bytes(2, "little")
            elif value <= 0xFF:
                out.append(value)
            elif value >= 0xFF80:
                out.append(value & 0xFF)
            else:
                line, stmt = self.place(at)
                self.err(f"value ${value:04X}{self.reached(item, at, offset)} does not fit in a byte (0-255 or -128..-1) [ILLEGAL QUANTITY]",
                         (line, stmt.col + offset, length))  # fmt: skip
                out.append(0)
        return bytes(out)

