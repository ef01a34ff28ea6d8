"""What the ``asm6502 basic`` sub-commands share: reading a listing or a .prg, the ``--case`` option,
tokenizing a listing (used by basic.py and basic_run.py)."""

from __future__ import annotations

import argparse

from asm6502 import filetype
from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, warning
from asm6502.fileio import MAX_PRG_BYTES, read_input


def read_text(path: str) -> str:
    data = read_input(path, what="BASIC listing")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_prg(path: str, want: str = "basic") -> bytes:
    """A BASIC .prg; a text file or machine code gets one error naming the right command."""
    data = read_input(path, MAX_PRG_BYTES, "C64 program")
    kind = filetype.sniff_program(data, path, want=want)
    if kind is not None:
        raise DiagnosticError([error(f"{path} is {kind.what}; {kind.hint}")])
    return data


def add_case_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--case", choices=("petcat", "upper"), default=None,
                   help="petcat (default): lower case = unshifted letters, capitals = shifted; "
                   "upper: an all-capital listing as magazines print it and OCR reads it (capitals = unshifted letters)")


def tokenize_text(text: str, filename: str, case: str | None, start: int = 0x0801):
    """Tokenize listing text; an all-capital listing read as petcat gets one clear warning instead of one per letter."""
    from asm6502.basic.case import from_capitals, looks_all_capitals  # (lazy: start-up, see ARCHITECTURE.md)
    from asm6502.basic.tokenizer import tokenize  # (lazy: start-up, see ARCHITECTURE.md)

    if case == "upper":
        return tokenize(from_capitals(text), filename=filename, start=start), []
    result = tokenize(text, filename=filename, start=start)
    if case is None and looks_all_capitals(text):
        shifted = [d for d in result.diagnostics if "shifted letter" in d.message]
        hint: list[Diagnostic] = [warning(
            "every letter is a capital: petcat text reads capitals as SHIFTED letters (graphics), which the C64 "
            f"drops outside quotes ({len(shifted)} warnings not shown); if the listing was printed or OCR'd in "
            "capitals, tokenize it with --case upper", Span(filename, 1))]
        return result, hint + [d for d in result.diagnostics if d not in shifted]
    return result, list(result.diagnostics)
