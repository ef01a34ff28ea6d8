"""Helpers shared by the sub-command front ends (printing, error handling)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable

from asm6502.diagnostics import FORMS, Diagnostic, DiagnosticError, errors_first, render
from asm6502.fileio import hold_standard_descriptors, silence_stdout
from asm6502.numparse import check_range, parse_int

MAX_SHOWN = 50  # diagnostics printed before the rest is only counted (a wrong file gives thousands)


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream=None, limit: int = MAX_SHOWN, more: int = 0,
                      form: str = "gnu", caret: bool = True) -> None:
    """The first *limit* diagnostics, errors first (no warning hides an error), then how many
    more there are (*more*: those the run only counted); *form*, *caret*: as diagnostics.render."""
    stream = stream or sys.stderr
    hidden = more
    for i, d in enumerate(errors_first(diagnostics)):
        if i < limit:
            print(render(d, form, caret), file=stream)
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


def cpu_arg(text: str) -> str:
    """An argparse ``type`` for --cpu: a CPU as 64tass or ACME name it (cpu.cpu_named)."""
    from asm6502.cpu import cpu_named

    try:
        return cpu_named(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


int_arg = number_arg()  # any integer
byte_arg = number_arg(0, 0xFF, "byte")
address_arg = number_arg(0, 0xFFFF, "address")
count_arg = number_arg(1, 1 << 48, "count", hex_bounds=False)


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


def reader_gone() -> int:
    """Standard output's reader has gone (``| head``): stop quietly with exit status 0, as ``cat``
    ends under SIGPIPE without a message; later writes (the interpreter's last flush) go nowhere."""
    silence_stdout()
    return 0


def add_diagnostics_options(parser: argparse.ArgumentParser) -> None:
    """--diagnostics-format and --no-caret: diagnostics as an editor's problem matcher reads them."""
    parser.add_argument("--diagnostics-format", choices=FORMS, default="gnu",
                        help="gnu: file:line:col: error: ... (default); msvc: file(line,col): error: ...")
    parser.add_argument("--no-caret", dest="caret", action="store_false",
                        help="no source line and caret under a message (one line each, for editors)")


def guarded(fn: Callable[[], int], form: str = "gnu", caret: bool = True) -> int:
    """Run a command body; turn expected failures into messages and exit codes.

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
        print_diagnostics(exc.diagnostics, more=exc.more, form=form, caret=caret)
        return 1
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        print(f"asm6502: error: {name}: {reason}" if name else f"asm6502: error: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("asm6502: interrupted; nothing written", file=sys.stderr)
        return 130
    except RecursionError:  # a last line of defence: every reader has its own nesting limit
        print("asm6502: error: the input is nested too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print("asm6502: error: out of memory (is the input the right file?)", file=sys.stderr)
        return 1
