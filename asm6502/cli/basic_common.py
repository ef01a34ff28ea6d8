"""What the ``asm6502 basic`` sub-commands share: reading a listing or a .prg through the command's
gate, the ``--case`` option, tokenizing a listing (used by basic.py and basic_run.py)."""

from __future__ import annotations

import argparse

from asm6502 import filetype
from asm6502.cli.common import read_program
from asm6502.diagnostics import DiagnosticError, Span, error, note
from asm6502.fileio import Files, refuse_binary


def read_text(path: str, files: Files | None = None) -> str:
    """A BASIC listing text, read through the command's gate; a binary or UTF-16 file is one clear error."""
    data = (files if files is not None else Files()).read(path, what="BASIC listing")
    refuse_binary(data, path, "a BASIC listing text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_prg(path: str, want: str = "basic", files: Files | None = None) -> bytes:
    """A BASIC .prg; a text file or machine code gets one error naming the right command."""
    data, _ = read_program(files if files is not None else Files(), path, texts=True)
    kind = filetype.sniff_program(data, path, want=want)
    if kind is not None:
        raise DiagnosticError([error(f"{path} is {kind.what}; {kind.hint}")])
    return data


CASES = ("lower", "upper", "petcat")  # the assembler's words; petcat is the same reading as lower


def add_case_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--case", choices=(*CASES, "auto"), default=None,
                   help="lower (or petcat): lower case = unshifted letters, capitals = shifted (petcat); "
                   "upper: an all-capital listing as magazines print it and OCR reads it (capitals = unshifted "
                   "letters). Default (auto): upper for a listing without any lower-case letter, else lower")


def tokenize_text(text: str, filename: str, case: str | None, start: int = 0x0801):
    """Tokenize listing text. Without --case, a listing without a lower-case letter is one typed or
    OCR'd in capitals (petcat would read every letter as a shifted one, which CRUNCH drops outside
    quotes): it is read as --case upper, and a note says so."""
    from asm6502.basic.case import from_capitals, looks_all_capitals  # (lazy: start-up, tests/test_imports.py)
    from asm6502.basic.tokenizer import tokenize  # (lazy: start-up, tests/test_imports.py)

    case = None if case == "auto" else case
    if case is None and looks_all_capitals(text):
        result = tokenize(from_capitals(text), filename=filename, start=start)
        said = note("no lower-case letter in the listing: read as typed in capitals (capitals are the unshifted "
                    "letters, as --case upper); give --case lower to read capitals as shifted letters (petcat)",
                    Span(filename, 1))
        return result, [said, *result.diagnostics]
    if case == "upper":
        return tokenize(from_capitals(text), filename=filename, start=start), []
    result = tokenize(text, filename=filename, start=start)
    return result, list(result.diagnostics)
