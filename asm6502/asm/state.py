"""What every concern of pass 1 shares: the state of the walk, its diagnostics, and how it stops.

Pass 1 (layout.py) is one object made of a mixin per concern -- symbols.py, macros.py,
conditionals.py (``.if``, ``.goto``, ``.end``), files.py (``.file`` chains, ``.sst``/``.lst``),
options.py (``.opt``, ``.sym``, ``.stm``, the listing's pseudo-ops) -- each with its own state,
all on this base.
"""

from __future__ import annotations

from asm6502.asm import expr as ex
from asm6502.asm.decode import Decoder
from asm6502.asm.entries import Entries
from asm6502.asm.result import Options
from asm6502.asm.rows import as_span
from asm6502.asm.statements import Pseudo
from asm6502.diagnostics import Diagnostic, Kept, error, warning

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.asm.lines import Lines
    from asm6502.asm.statements import Insn


class Stop(Exception):
    """Ends pass 1 (``.end``, a fatal error)."""


class NextFile(Exception):
    """``.file``: pass 1 goes on with another file's lines (and the current one ends)."""

    def __init__(self, lines, start):
        super().__init__()
        self.lines, self.start = lines, start


class Pass1State:
    """The state every concern reads: the options, the decoder, the entries laid out so far, the program
    counter, the statement run now and the diagnostics."""

    def __init__(self, options: Options, reader, opens: dict, kept: Kept | None = None):
        self.options = options
        self.reader = reader  # (name, line) -> list[Line], raises OSError
        self.opens = opens
        self.decoder = Decoder(options.cpu, mixed=options.precedence)
        self.listing = options.listing
        self.values: dict[str, int] = {}  # symbol key -> its value (symbols.py keeps the rest of the table)
        self.ref = 0  # the line of the statement run now (Entries.refs): entries and places of definitions note it
        self.k = 0  # that statement's number in its line (OTHER_STMT or more: none of the line's own; Entries.add)
        self.diags: list[Diagnostic] = []
        self.kept = kept if kept is not None else Kept()  # the run's room for diagnostics
        self.layout = Entries()  # what pass 1 laid out
        self.pc = 0xC000  # the original's default origin

    if TYPE_CHECKING:  # (the walk, layout.Layout's: a macro call runs its body with it, a definition sizes it)
        def run_lines(self, lines: Lines, i: int, depth: int, local: str | None) -> None: ...

        def address_size(self, rec: Insn, values: dict, pc: int, local) -> int: ...

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
