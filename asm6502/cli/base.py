"""What every command runs with, argparse or not: its diagnostics printed, its failures turned into
messages and exit codes, its gate of files, the standard streams made safe, and its options declared
as values (``Opt``).  No argparse here: the assembler reads a plain command line without it
(``read_plain``), and cli.common, which every other command's parser comes from, builds on this module.

Options declared once: a command's parser is made from its ``Opt`` values (``add_declared``: --help, and
every message about a wrong command line), and a command line of declared options in their plain
spellings is read from them without argparse (``read_plain``): importing argparse and the look-ups of
gettext's translations that it makes for its messages are 15 M instructions of the assembler's
start-up (bench/README.md).  ``read_plain`` takes a command line only where argparse would take it to
the same values; anything else (--help, --version, an abbreviated or unknown option, short options run
together, a value that starts with '-', a value argparse would refuse, a missing or extra argument)
gives None, and the command hands the line to argparse, which answers as it always does.
tests/test_declared.py holds the two to the same values, for every declared option.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence

from asm6502.diagnostics import FORMS, Diagnostic, DiagnosticError, errors_first, render
from asm6502.fileio import Files, Role, hold_standard_descriptors, silence_stdout
from asm6502.numparse import check_range, parse_int

MAX_SHOWN = 50  # diagnostics printed before the rest is only counted (a wrong file gives thousands)


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream=None, limit: int = MAX_SHOWN, more: int = 0,
                      form: str = "gnu", caret: bool = True, prog: str | None = None) -> None:
    """The first *limit* diagnostics, errors first (no warning hides an error), then how many
    more there are (*more*: those the run only counted); *form*, *caret*, *prog*: as diagnostics.render."""
    stream = stream or sys.stderr
    hidden = more
    for i, d in enumerate(errors_first(diagnostics)):
        if i < limit:
            print(render(d, form, caret, prog), file=stream)
        else:
            hidden += 1
    if hidden:
        print(f"... {hidden} more diagnostics not shown", file=stream)


def number_value(low: int | None = None, high: int | None = None, what: str = "number", *,
                 hex_bounds: bool = True) -> Callable[[str], int]:
    """A number option's value: one spelling for every option (13312, $3400, 0x3400, %1010), range-checked;
    a ValueError says what is wrong (cli.common.number_arg makes it argparse's ``type``)."""

    def parse(text: str) -> int:
        value = parse_int(text)
        if low is not None or high is not None:
            check_range(value, -(1 << 64) if low is None else low, 1 << 64 if high is None else high, what, text,
                        hex_bounds=hex_bounds)
        return value

    parse.__name__ = what  # argparse names the type in its messages
    return parse


def cpu_value(text: str) -> str:
    """--cpu's value: a CPU as 64tass or ACME name it (cpu.cpu_named); a ValueError names the CPUs."""
    from asm6502.cpu import cpu_named

    return cpu_named(text)



def files_for(paths: Iterable[tuple[Role, str]], **options) -> Files:
    """The command's ``fileio.Files``, given the (role, value) of every file and folder its command line
    names (inputs registered, outputs checked) -- call it inside ``guarded``."""
    files = Files(strict=True, **options)
    for role, path in paths:
        files.declare(role, path)
    return files


def take_repeated(argv: list[str], short: str, long: str) -> tuple[list[str], list[str]]:
    """The values of a repeatable option (``-D x``, ``-Dx``, ``--define x``, ``--define=x``) taken out
    of *argv* before argparse sees it, and the rest: argparse's time grows with the square of the
    number of options (20,000 -D took 20 s, 0.1 s so); a value missing at the end is left to argparse's message."""
    values: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg in (short, long) and i + 1 < len(argv):
            values.append(argv[i + 1])
            i += 2
            continue
        if arg.startswith(long + "="):
            values.append(arg[len(long) + 1:])
        elif arg.startswith(short) and len(arg) > len(short) and not arg.startswith("--"):
            values.append(arg[len(short):])
        else:
            rest.append(arg)
        i += 1
    return values, rest


class _Discard:
    """Standard error when the command was started with it closed (2>&-): nothing can be told."""

    encoding = "utf-8"

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


def standard_streams() -> None:
    """Make a command safe when started with standard input, output or error closed (<&-, >&-):
    the closed descriptors are taken by /dev/null (fileio.hold_standard_descriptors) so that no
    file the command opens gets them; ``sys.stdin``/``sys.stdout`` stay None, so a read or write of
    them is a clear error (fileio.read_input, fileio.write_stdout), and a closed standard error
    discards the messages."""
    hold_standard_descriptors()
    if sys.stderr is None:
        sys.stderr = _Discard()
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:  # a character the terminal's encoding has not (the C64's block
        reconfigure(errors="replace")  # graphics under PYTHONIOENCODING=ascii or latin-1) is shown as '?'



def reader_gone() -> int:
    """Standard output's reader has gone (``| head``): stop quietly with exit status 0, as ``cat``
    ends under SIGPIPE without a message; later writes (the interpreter's last flush) go nowhere."""
    silence_stdout()
    return 0


def guarded(fn: Callable[[], int], form: str = "gnu", caret: bool = True, prog: str = "asm6502") -> int:
    """Run a command body; turn expected failures into messages and exit codes.

    Every message without a place in an input starts with *prog* (``command_name``): ``asm6502 CMD: error: ...``;
    one with a place is ``file:line:col: error: ...``.

    DiagnosticError -> its diagnostics, exit 1; OSError -> one line naming the user's file,
    exit 1; standard output's reader gone (``| head``) -> quiet, exit 0; Ctrl-C -> exit 130
    (outputs are written only at the very end, so nothing is half-written). Never a traceback
    for bad input.
    """
    try:
        return fn()
    except BrokenPipeError:
        return reader_gone()
    except DiagnosticError as exc:
        print_diagnostics(exc.diagnostics, more=exc.more, form=form, caret=caret, prog=prog)
        return 1
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        print(f"{prog}: error: {name}: {reason}" if name else f"{prog}: error: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; nothing written", file=sys.stderr)
        return 130
    except RecursionError:  # a last line of defence: every reader has its own nesting limit
        print(f"{prog}: error: the input is nested too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{prog}: error: out of memory (is the input the right file?)", file=sys.stderr)
        return 1


# --- options declared once -------------------------------------------------------------------

ROLE_ATTRIBUTE = "path_role"  # the attribute of an argparse action that holds its fileio.Role

# an action's default when the declaration gives none (as argparse's)
_ACTION_DEFAULT = {"store_true": False, "store_false": True}
_TAKES_VALUE = ("store", "append")


class Opt:
    """One option (flags with '-') or positional argument (one name) as ``add_argument`` takes it: *action*
    one of store, store_true, store_false, store_const, append, version; *type* reads a value (a
    ValueError says what is wrong); *role*: the fileio.Role of an argument that names a file or folder
    (its name in messages given: ``Role.named``); *argparse*: the rest of add_argument's keywords (help,
    metavar, version)."""

    __slots__ = ("flags", "action", "dest", "default", "type", "choices", "const", "role", "argparse")

    def __init__(self, *flags: str, action: str = "store", dest: str | None = None, default: object = None,
                 type: Callable[[str], object] | None = None, choices: Sequence[str] | None = None,
                 const: object = None, role: Role | None = None, **argparse: object) -> None:
        self.flags = flags
        self.action = action
        self.dest = dest or _dest_of(flags)
        self.default = default
        self.type = type
        self.choices = choices
        self.const = const
        self.role = role
        self.argparse = argparse

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")

    def add_to(self, parser) -> None:
        """``parser.add_argument`` of this declaration; one with a role as cli.common.add_path_argument adds it."""
        kwargs = dict(self.argparse)
        if self.action != "store":
            kwargs["action"] = self.action
        for name in ("dest", "default", "choices", "const"):
            value = getattr(self, name)
            if value is not None and not (name == "dest" and (self.positional or value == _dest_of(self.flags))):
                kwargs[name] = value
        if self.type is not None:
            kwargs["type"] = argparse_type(self.type)
        action = parser.add_argument(*self.flags, **kwargs)
        if self.role is not None:
            setattr(action, ROLE_ATTRIBUTE, self.role)


def argparse_type(value: Callable[[str], object]) -> Callable[[str], object]:
    """An argparse ``type`` from a function that reads an option's value (a ValueError says what is
    wrong): argparse prints that message, not its own 'invalid value'."""

    def parse(text: str):
        try:
            return value(text)
        except ValueError as exc:
            import argparse  # (argparse calls this: it is loaded)

            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = value.__name__  # argparse names the type in its messages
    return parse


def _dest_of(flags: Sequence[str]) -> str:
    """argparse's dest for flags without one given: the first long flag's name, else the first flag's."""
    if not flags[0].startswith("-"):
        return flags[0]
    long = next((f for f in flags if f.startswith("--")), flags[0])
    return long.lstrip("-").replace("-", "_")


def add_declared(parser, options: Sequence[Opt]) -> None:
    """Every declaration's argument added to *parser*, in their order."""
    for opt in options:
        opt.add_to(parser)


def read_plain(options: Sequence[Opt], argv: Sequence[str]) -> dict[str, object] | None:
    """The values (dest -> value) argparse would give *argv* with *options*, or None for a command line
    this reader leaves to argparse (see the module's text).  An option given twice: the last counts
    (append: every value, after a copy of the default)."""
    by_flag = {flag: opt for opt in options if not opt.positional for flag in opt.flags}
    positionals = [opt for opt in options if opt.positional]
    values: dict[str, object] = {}
    given: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "-" or not arg.startswith("-"):
            given.append(arg)
            continue
        opt = by_flag.get(arg)
        attached = None
        if opt is None and arg.startswith("--") and "=" in arg:
            name, _, attached = arg.partition("=")
            opt = by_flag.get(name)
            if opt is None or opt.action not in _TAKES_VALUE or not attached:
                return None
        if opt is None or opt.action == "version":
            return None
        if opt.action in _TAKES_VALUE:
            if attached is None:
                if i == len(argv) or (argv[i].startswith("-") and argv[i] != "-"):
                    return None
                attached = argv[i]
                i += 1
            value = _value(opt, attached)
            if value is _REFUSED:
                return None
            if opt.action == "append":
                seen = values.get(opt.dest, opt.default)
                values[opt.dest] = [*(seen if isinstance(seen, list) else ()), value]
            else:
                values[opt.dest] = value
        elif opt.action == "store_const":
            values[opt.dest] = opt.const
        else:
            values[opt.dest] = opt.action == "store_true"
    if len(given) != len(positionals):
        return None
    for opt, text in zip(positionals, given):
        value = _value(opt, text)
        if value is _REFUSED:
            return None
        values[opt.dest] = value
    for opt in options:  # the defaults: the first declaration of a dest gives it, a text one read by its type (as argparse)
        if opt.dest in values or opt.action == "version":
            continue
        default = _ACTION_DEFAULT.get(opt.action) if opt.default is None else opt.default
        if isinstance(default, str) and opt.type is not None:
            default = _value(opt, default)
            if default is _REFUSED:
                return None
        elif isinstance(default, list):
            default = list(default)
        values[opt.dest] = default
    return values


_REFUSED = object()


def _value(opt: Opt, text: str) -> object:
    """An argument's value read by its type and checked against its choices, or _REFUSED."""
    try:
        value = opt.type(text) if opt.type is not None else text
    except (TypeError, ValueError):  # (argparse refuses both)
        return _REFUSED
    if opt.choices is not None and value not in opt.choices:
        return _REFUSED
    return value


def declared_paths(options: Sequence[Opt], values) -> list[tuple[Role, str]]:
    """The (role, value) of every declared argument with a role that the command line gave (a list
    option gives one pair per value), as cli.common.path_arguments gives them from the parser."""
    found: list[tuple[Role, str]] = []
    for opt in options:
        value = getattr(values, opt.dest, None)
        if opt.role is None or value is None:
            continue
        found += [(opt.role, str(v)) for v in (value if isinstance(value, list) else [value])]
    return found


# --diagnostics-format and --no-caret: diagnostics as an editor's problem matcher reads them
DIAGNOSTICS_OPTIONS = (
    Opt("--diagnostics-format", choices=FORMS, default="gnu",
        help="gnu: file:line:col: error: ... (default); msvc: file(line,col): error: ..."),
    Opt("--no-caret", dest="caret", action="store_false",
        help="no source line and caret under a message (one line each, for editors)"),
)
