"""What every concern of pass 1 shares: the state of the walk, its diagnostics, how it stops, and
the one zero-page rule.

Pass 1 (layout.py) holds one object per concern -- symbols.py (the symbol table), macros.py,
conditionals.py (``.if``, ``.goto``, ``.end``), files.py (``.file`` chains, ``.sst``/``.lst``),
options.py (``.opt``, ``.sym``, ``.stm``, the listing's pseudo-ops) -- each with its own state,
and each given the one :class:`Pass1State` of the pass.
"""

from __future__ import annotations

from asm6502.asm import expr as ex
from asm6502.asm.decode import Decoder
from asm6502.asm.entries import FORWARD, Entries
from asm6502.asm.result import Options
from asm6502.asm.rows import as_span
from asm6502.asm.statements import Pseudo
from asm6502.diagnostics import Diagnostic, Kept, error, warning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.asm.statements import Insn


class Stop(Exception):
    """Ends pass 1 (``.end``, a fatal error)."""


class NextFile(Exception):
    """``.file``: pass 1 goes on with another file's lines (and the current one ends)."""

    def __init__(self, lines, start):
        super().__init__()
        self.lines, self.start = lines, start


class Pass1State:
    """The state every concern reads: the options, the decoder, the entries laid out so far, the symbols'
    values, the program counter, the statement run now and the diagnostics."""

    def __init__(self, options: Options, kept: Kept | None = None):
        self.options = options
        self.decoder = Decoder(options.cpu, mixed=options.precedence)
        self.listing = options.listing
        # symbol key -> its value: what every expression reads (symbols.py keeps the rest of the table)
        self.values: dict[str, int] = {}
        self.ref = 0  # the line of the statement run now (Entries.refs): entries and places of definitions note it
        self.k = 0  # that statement's number in its line (OTHER_STMT or more: none of the line's own; Entries.add)
        self.diags: list[Diagnostic] = []
        self.kept = kept if kept is not None else Kept()  # the run's room for diagnostics
        self.entries = Entries()  # what pass 1 laid out
        self.pc = 0xC000  # the original's default origin

    def err(self, message: str, where, *notes: Diagnostic) -> None:
        if self.kept.has_room(True):  # (beyond the run's room only counted: diagnostics.Kept)
            self.diags.append(error(message, as_span(where), *notes))

    def warn(self, message: str, where, *notes: Diagnostic) -> None:
        if self.kept.has_room(False):
            self.diags.append(warning(message, as_span(where), *notes))

    def value_of(self, rec: Pseudo, text: str, line, stmt, local, offset: int | None = None):
        """The value of a pseudo-op's expression argument (None: an error was reported)."""
        offset = rec.args_offset if offset is None else offset
        try:
            return ex.value(self.decoder.expression(text), self.values, self.pc, local)
        except ex.ExprError as exc:
            self.err(exc.message, (line, stmt.col + offset + exc.offset, exc.length))
        except ex.Unknown as u:
            self.err(f"'{u.node.name}' is not defined yet: .{rec.name} needs its value in pass 1 [UNDEF'D STATEMENT]",
                     (line, stmt.col + offset + u.node.offset, u.node.length))  # fmt: skip
        return None


def address_size(rec: Insn, values: dict, pc: int, local) -> int:
    """The one zero-page rule: zero page when the mnemonic has it, no '!' forces absolute, and
    the operand's value is known in pass 1 and fits in a byte (or the mnemonic has only zero page).
    FORWARD: the value is not known yet (laid out as 3 bytes)."""
    shape = rec.shape  # (the instruction's Form: statements.Insn)
    if shape.zp_code < 0 or shape.prefix == "!":
        return 3
    if shape.code < 0:
        return 2
    node = rec.expr
    if type(node) is ex.Number:  # (a number is sized by its own value, whatever its prefix)
        value = node.value
    else:
        try:
            value = ex.value(node, values, pc, local)
        except ex.Unknown:
            return FORWARD
        except ex.ExprError:
            return 3  # (reported in pass 2)
        if shape.prefix:
            return 2
    return 2 if value <= 0xFF else 3
