"""Helpers shared by the sub-command front ends (printing, error handling)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable

from asm6502 import filetype
from asm6502.diagnostics import FORMS, Diagnostic, DiagnosticError, error, errors_first, render
from asm6502.fileio import MAX_IMAGE_BYTES, MAX_PRG_BYTES, Files, Role, hold_standard_descriptors, silence_stdout
from asm6502.numparse import check_range, parse_int

# --- the parsers: argparse's, without importing shutil ----------------------------------------

def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it: COLUMNS, else the terminal's, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Width:
    """A help formatter given the terminal's width: argparse's own asks shutil for it, and argparse
    makes a formatter at every add_argument, so every command would import shutil (with bz2, lzma:
    7 M instructions of a small command's start-up, bench/README.md)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position,  # type: ignore[call-arg]
                         _columns() - 2 if width is None else width)


class HelpFormatter(_Width, argparse.HelpFormatter):
    pass


class RawDescriptionHelpFormatter(_Width, argparse.RawDescriptionHelpFormatter):
    pass


_OWN_FORMATTERS: dict[type, type] = {argparse.HelpFormatter: HelpFormatter,
                                     argparse.RawDescriptionHelpFormatter: RawDescriptionHelpFormatter}


class Parser(argparse.ArgumentParser):
    """The parser of every command: argparse's, with the formatters above (its sub-commands' parsers
    are Parsers too: add_subparsers makes them of the parser's class)."""

    def __init__(self, **kwargs) -> None:
        chosen = kwargs.get("formatter_class", argparse.HelpFormatter)
        kwargs["formatter_class"] = _OWN_FORMATTERS.get(chosen, chosen)
        super().__init__(**kwargs)


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


def number_arg(low: int | None = None, high: int | None = None, what: str = "number", *,
               hex_bounds: bool = True) -> Callable[[str], int]:
    """An argparse ``type``: one number spelling for every option (13312, $3400, 0x3400, %1010), range-checked."""

    def parse(text: str) -> int:
        try:
            value = parse_int(text)
            if low is not None or high is not None:
                check_range(value, -(1 << 64) if low is None else low, 1 << 64 if high is None else high, what, text,
                            hex_bounds=hex_bounds)
            return value
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = what  # argparse names the type in its messages
    return parse


int_arg = number_arg()  # any integer
byte_arg = number_arg(0, 0xFF, "byte")
address_arg = number_arg(0, 0xFFFF, "address")
count_arg = number_arg(1, 1 << 48, "count", hex_bounds=False)


# --- arguments that name a file or a folder: each says its role where it is declared -------------

ROLE_ATTRIBUTE = "path_role"  # the attribute of an argparse action that holds its fileio.Role


def add_path_argument(parser, *flags: str, role: Role, what: str | None = None, **kwargs) -> argparse.Action:
    """``parser.add_argument(*flags, **kwargs)`` for an argument naming a file or a folder, with its
    role (fileio.INPUT, OUTPUT, ROM_FOLDER ...; *what* names it in messages): ``gate`` hands every
    such argument's value to the command's ``fileio.Files`` before the command does anything
    (tests/test_roles.py fails for an argument that names a file without a role)."""
    action = parser.add_argument(*flags, **kwargs)
    setattr(action, ROLE_ATTRIBUTE, role if what is None else role.named(what))
    return action


def path_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[tuple[Role, str]]:
    """The (role, value) of every argument with a role that the command line gave, in the chosen
    sub-command's parser too (a list option gives one pair per value)."""
    found: list[tuple[Role, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None) if action.dest != argparse.SUPPRESS else None
            if chosen in action.choices:
                found += path_arguments(action.choices[chosen], args)
            continue
        role = getattr(action, ROLE_ATTRIBUTE, None)
        value = getattr(args, action.dest, None)
        if role is None or value is None:
            continue
        found += [(role, str(v)) for v in (value if isinstance(value, list) else [value])]
    return found


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


def gate(parser: argparse.ArgumentParser, args: argparse.Namespace, **options) -> Files:
    """The command's ``fileio.Files``, given the role of every file and folder its command line
    names (inputs registered, outputs checked) -- call it inside ``guarded``."""
    files = Files(strict=True, **options)
    for role, path in path_arguments(parser, args):
        files.declare(role, path)
    return files


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


def cpu_arg(text: str) -> str:
    """An argparse ``type`` for --cpu: a CPU as 64tass or ACME name it (cpu.cpu_named)."""
    from asm6502.cpu import cpu_named

    try:
        return cpu_named(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_diagnostics_options(parser: argparse.ArgumentParser) -> None:
    """--diagnostics-format and --no-caret: diagnostics as an editor's problem matcher reads them."""
    parser.add_argument("--diagnostics-format", choices=FORMS, default="gnu",
                        help="gnu: file:line:col: error: ... (default); msvc: file(line,col): error: ...")
    parser.add_argument("--no-caret", dest="caret", action="store_false",
                        help="no source line and caret under a message (one line each, for editors)")


def command_name(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The command as its messages name it: the prog of the (sub-)parser that took the command line
    ('asm6502 d64 validate'), which argparse puts in front of its own errors too."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if chosen in action.choices:
                return command_name(action.choices[chosen], args)
    return parser.prog


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


PROGRAM_KINDS = ("machine-code", "basic-prg")


def read_program(files: Files, path: str, what: str = "C64 program", *, texts: bool = False):
    """A C64 program's bytes and its kind (``filetype.sniff``); any other file (a text, a listing, a disk
    image) is refused by what it is, naming the command that reads it.  *texts*: a text is handed on (the
    caller's own check names the command for it)."""
    raw = files.read(path, MAX_IMAGE_BYTES, what)  # (a disk image too, to be named as one)
    kind = filetype.sniff(raw, path)
    if kind.name not in PROGRAM_KINDS and not (texts and kind.name != "d64"):
        raise DiagnosticError([error(f"{path} is {kind.what}, not a C64 program (.prg); {kind.hint}")])
    if len(raw) > MAX_PRG_BYTES:
        raise DiagnosticError([error(f"{path}: {what} larger than {MAX_PRG_BYTES:,} bytes; is it the right file?")])
    return raw, kind
