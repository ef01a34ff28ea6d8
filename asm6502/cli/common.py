"""Helpers shared by the sub-command front ends (printing, error handling)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable

from asm6502.diagnostics import Diagnostic, DiagnosticError, render


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for d in diagnostics:
        print(render(d), file=stream)


def int_arg(text: str) -> int:
    """Parse an address or byte: ``0x360C``, ``$360C`` (hex) or ``13312`` (decimal)."""
    t = text.strip()
    try:
        if t.startswith("$"):
            return int(t[1:], 16)
        return int(t, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r} (use 13312, 0x3400 or $3400)") from None


def guarded(fn: Callable[[], int]) -> int:
    """Run a command body; turn expected failures into messages and exit codes.

    DiagnosticError -> its diagnostics, exit 1; OSError -> one line, exit 1;
    Ctrl-C -> exit 130. Never a traceback for bad input.
    """
    try:
        return fn()
    except DiagnosticError as exc:
        print_diagnostics(exc.diagnostics)
        return 1
    except OSError as exc:
        name = exc.filename if exc.filename is not None else ""
        reason = exc.strerror or str(exc)
        print(f"asm6502: error: {name}: {reason}" if name else f"asm6502: error: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("asm6502: interrupted", file=sys.stderr)
        return 130
