"""Profi-Ass source -> 64tass or ACME source that assembles to the same bytes.

:func:`convert` first assembles the source with asm6502 (an error there is
an error of the conversion: only a program that assembles can be converted),
with a listing's entries, and writes every statement of pass 1's program
(asm.program.Program: its entries, symbols, macros and source files) in the
order it ran, in the target's syntax (writer.py): expressions re-bracketed for
the target's precedence (expression.py), ``.file`` chains merged, comments
kept.  Macros become the target's macros and ``.goto`` loops the target's
loops where every call / every round comes out as the same text; the others
are expanded / unrolled, with a comment saying why (structure.py finds the
loops).  A macro that turns out not to fit is marked and the program written
again with it expanded.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from asm6502.asm.pipeline import assemble_program
from asm6502.asm.result import Options, Result
from asm6502.convert.targets import TARGETS, Target
from asm6502.convert.writer import INDENT, Writer
from asm6502.diagnostics import Diagnostic, DiagnosticError, error

__all__ = ["Conversion", "TARGETS", "convert"]


class Structure(NamedTuple):
    """What became the target's macros and loops, and what was written out as Profi-Ass ran it."""

    macros: tuple[str, ...]  # macros written as the target's macros
    expanded: tuple[tuple[str, str], ...]  # (macro, why) expanded at each call
    loops: int  # '.goto' loops (occurrences) written as the target's loops
    unrolled: tuple[str, ...]  # why each '.goto' loop of the loop shape is left unrolled (also a comment there)


class Conversion(NamedTuple):
    text: str  # the converted source
    diagnostics: tuple[Diagnostic, ...]  # asm6502's warnings on the source, then what was left as a comment
    result: Result  # asm6502's assembly of the original: the bytes the converted source must give
    structure: Structure = Structure((), (), 0, ())


def convert(text: str, filename: str, target: str, options: Options = Options(), files=None) -> Conversion:
    """Convert Profi-Ass source ``text`` for ``target`` ("64tass" or "acme").
    Raises DiagnosticError when the source does not assemble or a statement cannot be translated.
    *files*: the command's gate (``fileio.Files``) the files of a ``.file`` chain are read through."""
    chosen = TARGETS.get(target)
    if chosen is None:
        raise DiagnosticError([error(f"unknown target '{target}' (use {' or '.join(TARGETS)})")])
    program, result = assemble_program(text, filename, options.replace(listing=True), files)
    expanded: dict[str, str] = {}
    guarded: frozenset[str] = frozenset()
    wraps: dict[str, frozenset] = {}
    while True:  # macros that cannot be the target's macros as written are expanded, guarded or wrapped; written again
        writer = Writer(chosen, program, expanded, guarded, wraps)
        writer.run(program.sources)
        if not writer.failed and not writer.needs_guard and not writer.needs_wrap:
            break
        expanded.update(writer.failed)
        guarded |= writer.needs_guard
        wraps.update(writer.needs_wrap)
    if any(d.is_error for d in writer.diags):
        raise DiagnosticError(writer.diags)
    lines, start = program.sources[filename]
    head = _header(chosen, filename, options, lines[:start], writer)
    body = writer.lines
    names = {key: m.name for key, m in program.macros.items()}
    structure = Structure(
        tuple(names[key] for key in sorted(writer.candidates)),
        tuple((names[key], why) for key, why in sorted(expanded.items())),
        writer.loops_written,
        tuple(writer.unrolled),
    )
    return Conversion("\n".join(head + body) + "\n", result.diagnostics + tuple(writer.diags), result, structure)


def _header(target: Target, filename: str, options: Options, basic_lines, writer: Writer) -> list[str]:
    out = [f"; {os.path.basename(filename)}: converted from Profi-Ass 64 by 'asm6502 convert --to {target.name}'"]
    out += [f"; assemble with: {target.command}"]
    out += [f"; BASIC before the start line: {line.line_text.strip()}" for line in basic_lines if line.has_code]
    out += [line.format(cpu=target.cpu[options.cpu]) for line in target.header]
    for name, value in options.defines:
        out.append(INDENT + target.const.format(n=writer.name_of(name.lower()[:8]), e=f"${value:x}") + "  ; (-D on the command line)")
    out += writer.prologue()
    return out
