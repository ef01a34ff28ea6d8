"""Positions and diagnostics shared by every reader in the toolchain.

Every error or warning carries a :class:`Span` (file, 1-based line and column).
Readers collect diagnostics and return them; only the CLI prints them.
The rendered form follows the GCC/Clang convention::

    sources/x.asm:12:9: error: undefined symbol 'loop' (Profi-Ass line 480)
      480 sta loop
              ^~~~
"""

from __future__ import annotations

from operator import itemgetter

from asm6502.patterns import LazyPattern


class Severity(str):
    """A diagnostic's severity: ``Severity.ERROR``, ``WARNING`` or ``NOTE``, one object each (told apart with
    ``is``; a copy or a pickle is the same object), a str equal to its value ('error'), with the name, value,
    str and repr of the members of ``class Severity(str, Enum)``.  Not an Enum: making that class costs 0.7 M
    instructions of every command's start-up (bench/startup.py)."""

    __slots__ = ()
    ERROR: Severity
    WARNING: Severity
    NOTE: Severity

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return self.value.upper()

    def __repr__(self) -> str:
        return f"<Severity.{self.name}: {self.value!r}>"

    def __str__(self) -> str:
        return f"Severity.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self):
        return getattr, (Severity, self.name)

    def __copy__(self) -> Severity:
        return self

    def __deepcopy__(self, memo) -> Severity:
        return self


Severity.ERROR = Severity("error")
Severity.WARNING = Severity("warning")
Severity.NOTE = Severity("note")


# Span and Diagnostic are records of a tuple's fields, written out (not dataclasses: importing dataclasses costs
# the assembler command a few milliseconds of its start-up): they compare, hash and order by their fields as
# tuples do, without a tuple made for each comparison (a run keeps and compares a thousand of each).


class Span(tuple):
    """A place in an input: file name, 1-based line and column, and a width."""

    __slots__ = ()

    def __new__(cls, file: str, line: int, col: int = 1, length: int = 1, source: str | None = None,
                basic_line: int | None = None) -> Span:  # fmt: skip
        return tuple.__new__(cls, (file, line, col, length, source, basic_line))

    file: str = property(itemgetter(0))  # type: ignore[assignment]
    line: int = property(itemgetter(1))  # type: ignore[assignment]
    col: int = property(itemgetter(2))  # type: ignore[assignment]
    length: int = property(itemgetter(3))  # type: ignore[assignment]
    source: str | None = property(itemgetter(4))  # type: ignore[assignment]  # the whole source line, for the caret display
    basic_line: int | None = property(itemgetter(5))  # type: ignore[assignment]  # Profi-Ass / BASIC line number, when there is one

    def __getnewargs__(self) -> tuple:  # (pickling: the fields, as __new__ takes them)
        return tuple(self)

    def __repr__(self) -> str:
        return "Span(" + ", ".join(f"{name}={value!r}" for name, value in zip(_SPAN_FIELDS, self)) + ")"

    def at(self, col: int, length: int = 1) -> Span:
        """The same line, another column."""
        return Span(self.file, self.line, col, length, self.source, self.basic_line)


_SPAN_FIELDS = ("file", "line", "col", "length", "source", "basic_line")
_DIAGNOSTIC_FIELDS = ("severity", "message", "span", "notes", "cause")


class Diagnostic(tuple):
    __slots__ = ()

    def __new__(cls, severity: Severity, message: str, span: Span | None = None, notes: tuple[Diagnostic, ...] = (),
                cause: Span | None = None) -> Diagnostic:  # fmt: skip
        return tuple.__new__(cls, (severity, message, span, notes, cause))

    severity: Severity = property(itemgetter(0))  # type: ignore[assignment]
    message: str = property(itemgetter(1))  # type: ignore[assignment]
    span: Span | None = property(itemgetter(2))  # type: ignore[assignment]
    notes: tuple[Diagnostic, ...] = property(itemgetter(3))  # type: ignore[assignment]
    # a consequence of another error (an undefined label whose statement was skipped for it): the span of that
    # error, which is shown first (in_order)
    cause: Span | None = property(itemgetter(4))  # type: ignore[assignment]

    def __getnewargs__(self) -> tuple:
        return tuple(self)

    def __repr__(self) -> str:
        return "Diagnostic(" + ", ".join(f"{name}={value!r}" for name, value in zip(_DIAGNOSTIC_FIELDS, self)) + ")"

    def replace(self, **changes) -> Diagnostic:
        """The same diagnostic with the fields named changed."""
        fields = dict(zip(_DIAGNOSTIC_FIELDS, self))
        fields.update(changes)
        return Diagnostic(**fields)

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def render(self) -> str:
        return render(self)


def error(message: str, span: Span | None = None, *notes: Diagnostic, cause: Span | None = None) -> Diagnostic:
    return Diagnostic(Severity.ERROR, message, span, tuple(notes), cause)


def warning(message: str, span: Span | None = None, *notes: Diagnostic) -> Diagnostic:
    return Diagnostic(Severity.WARNING, message, span, tuple(notes))


def note(message: str, span: Span | None = None) -> Diagnostic:
    return Diagnostic(Severity.NOTE, message, span)


SHOWN_WIDTH = 200  # characters of a source line echoed under a message
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))}


def shown(text: str) -> str:
    """*text* safe to echo on a terminal: control characters as ``\\x1b`` (an ESC sequence in a
    source line would retitle the window or clear the screen), tabs and line breaks kept."""
    return text.translate({c: e for c, e in _CONTROLS.items() if c not in (9, 10)})


QUOTED_WIDTH = 200  # characters of a quoted name or text shown whole in a message (a path in a command is less)


_LONG_QUOTED = LazyPattern(r"'([^'\n]{%d,})'" % (QUOTED_WIDTH + 1))


def _short_quotes(message: str) -> str:
    """*message* with every quoted text longer than QUOTED_WIDTH shown by its ends (a line of megabytes
    with no blank is one 'label': quoted whole, the message would be as long as the line)."""
    if len(message) <= 2 * QUOTED_WIDTH:
        return message
    return _LONG_QUOTED.sub(lambda m: f"'{m[1][: QUOTED_WIDTH // 2]}...{m[1][-20:]}' ({len(m[1]):,} characters)", message)


def _caret_lines(span: Span) -> list[str]:
    if span.source is None:
        return []
    text = span.source.rstrip("\r\n").expandtabs(1)
    col = max(1, min(span.col, len(text) + 1))
    width = max(1, min(span.length, len(text) - col + 1)) if text else 1
    if len(text) > SHOWN_WIDTH:  # a very long line: the part around the caret, '...' for the rest
        start = max(0, min(col - 1 - SHOWN_WIDTH // 2, len(text) - SHOWN_WIDTH))
        head, tail = ("..." if start else ""), ("..." if start + SHOWN_WIDTH < len(text) else "")
        width = min(width, SHOWN_WIDTH - (col - 1 - start))
        text, col = head + text[start : start + SHOWN_WIDTH] + tail, col - start + len(head)
    before, marked = shown(text[: col - 1]), shown(text[col - 1 : col - 1 + width])
    return ["  " + shown(text), "  " + " " * len(before) + "^" + "~" * (max(1, len(marked)) - 1)]


FORMS = ("gnu", "msvc")  # where a diagnostic's place is written: file:line:col: (GCC, Clang) or file(line,col): (MSVC)


def render(diag: Diagnostic, form: str = "gnu", caret: bool = True, prog: str | None = None) -> str:
    """Render a diagnostic (and its notes) as text, without a trailing newline: its place in the *form* of FORMS
    (editors' problem matchers read either), and under it the source line with a caret unless not *caret*.
    One without a place is the command's: *prog* ('asm6502 d64 validate') stands in front of it, as argparse
    puts it in front of its own errors."""
    span = diag.span
    if span is None:
        head = f"{prog}: {diag.severity.value}: {diag.message}" if prog else f"{diag.severity.value}: {diag.message}"
    elif form == "msvc":
        where = f"{span.line},{span.col}" if span.col else f"{span.line}"
        head = f"{span.file}({where}): {diag.severity.value}: {diag.message}"
    elif span.col:
        head = f"{span.file}:{span.line}:{span.col}: {diag.severity.value}: {diag.message}"
    else:
        head = f"{span.file}:{span.line}: {diag.severity.value}: {diag.message}"
    if span is not None and span.basic_line is not None:
        head += f" (line {span.basic_line})"
    lines = [shown(_short_quotes(head))]
    if span is not None and caret:
        lines += _caret_lines(span)
    for n in diag.notes:
        lines.append(render(n, form, caret))
    return "\n".join(lines)


def errors_first(diagnostics) -> list[Diagnostic]:
    """The errors, then the warnings, each in their order: no warning hides an error."""
    diagnostics = list(diagnostics)
    return [d for d in diagnostics if d.is_error] + [d for d in diagnostics if not d.is_error]


def in_source_order(diagnostics) -> list[Diagnostic]:
    """Diagnostics as a compiler prints them: the errors, then the warnings, each by file (in the order the files
    first appear), line and column; an error caused by another right after its cause.  (The assembler's passes find
    them in another order: a pass-1 error on line 110 before pass 2's on 90.)"""
    files: dict[str, int] = {}
    for d in diagnostics:
        if d.span is not None:
            files.setdefault(d.span.file, len(files))
        if d.cause is not None:
            files.setdefault(d.cause.file, len(files))

    def place(span: Span | None) -> tuple:
        return (files[span.file], span.line, span.col or 0) if span is not None else (len(files), 0, 0)

    def key(d: Diagnostic) -> tuple:
        if d.cause is not None:
            return (not d.is_error, *place(d.cause), 1, place(d.span))
        return (not d.is_error, *place(d.span), 0)

    return sorted(diagnostics, key=key)


KEPT = 1000  # errors (and as many warnings) one run keeps; beyond them they are only counted (a source of a million bad
# lines would make a million diagnostics, each far larger than its line; a user reads the first)


class Kept:
    """The room one run has left for diagnostics: its first KEPT errors and its first KEPT warnings are
    kept, the rest counted (a room for each: a thousand warnings never hide the first error)."""

    __slots__ = ("error_room", "warning_room", "errors", "warnings")

    def __init__(self, room: int = KEPT) -> None:
        self.error_room = self.warning_room = room
        self.errors = 0  # errors not kept
        self.warnings = 0  # warnings not kept

    def has_room(self, is_error: bool) -> bool:
        """Whether one more diagnostic is kept; if not, it is counted (an error when *is_error*).
        (Asked before the diagnostic is made: beyond the room no message or span is made at all.)"""
        if is_error:
            if self.error_room > 0:
                self.error_room -= 1
                return True
            self.errors += 1
            return False
        if self.warning_room > 0:
            self.warning_room -= 1
            return True
        self.warnings += 1
        return False

    def admit(self, diagnostics) -> list[Diagnostic]:
        """Those of *diagnostics* that are kept."""
        return [d for d in diagnostics if self.has_room(d.is_error)]


class DiagnosticError(Exception):
    """Raised by library functions when input cannot be processed.

    Carries every diagnostic collected (errors and warnings) so the caller can
    print all of them, not only the first -- up to ``KEPT`` errors and as many warnings: *more_errors* and
    *more_warnings* count those beyond (see :class:`Kept`).
    """

    def __init__(self, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...], more_errors: int = 0, more_warnings: int = 0):
        self.diagnostics = tuple(diagnostics)
        self.more_errors, self.more_warnings = more_errors, more_warnings
        first = next((d for d in self.diagnostics if d.is_error), None)
        super().__init__(render(first) if first else "error")

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def more(self) -> int:
        """Diagnostics not kept."""
        return self.more_errors + self.more_warnings
