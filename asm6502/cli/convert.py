"""``asm6502 convert SRC --to 64tass|acme [-o OUT]``: a Profi-Ass source in a modern assembler's syntax."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asm6502.asm import Options
from asm6502.asm.pseudo import FOREIGN
from asm6502.cli.assemble import parse_defines, read_source_text
from asm6502.cli.common import (
    Parser,
    add_diagnostics_options,
    add_path_argument,
    command_name,
    cpu_arg,
    gate,
    guarded,
    print_diagnostics,
    take_repeated,
)
from asm6502.convert import TARGETS, convert
from asm6502.cpu import CPUS
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import INPUT, INPUT_FOLDER, OUTPUT, Files


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="asm6502 convert",
        description="Translate a Profi-Ass 64 source into 64tass or ACME syntax that assembles to the same bytes. "
        "Macros become the target's macros and .if/.goto loops the target's loops where that gives the same "
        "code at every call and round; the others are written as Profi-Ass ran them (loops unrolled, macro "
        "calls expanded with local labels as name__NN), with a comment saying why. .file chains merged; "
        "expressions re-bracketed for the target's operator precedence; comments kept.",
    )
    add_path_argument(parser, "source", role=INPUT, what="source", metavar="SRC", help="Profi-Ass source (.asm text, or a C64 .prg source)")
    parser.add_argument("--to", required=True, choices=sorted(TARGETS), help="the target assembler")
    add_path_argument(parser, "-o", "--output", role=OUTPUT, metavar="OUT", help="output file (default: SRC with .s for 64tass, .a for ACME)")
    parser.add_argument("--check", action="store_true", help="assemble the result with the target assembler and compare its bytes with asm6502's")
    add_path_argument(parser, "-I", "--include", role=INPUT_FOLDER, what="include folder", action="append", default=[],
                      metavar="DIR", help="directory for .file names (repeatable)")
    add_path_argument(parser, "--disk", role=INPUT, what="disk image", metavar="D64", help="a .d64 image whose files .file names are looked up in")
    parser.add_argument("-D", "--define", action="append", default=[], metavar="NAME=VALUE", help="define a constant before assembly (repeatable)")
    parser.add_argument("--cpu", type=cpu_arg, choices=CPUS, default="6502", help="6502i: also the undocumented NMOS opcodes")
    parser.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    add_diagnostics_options(parser)
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    defines, rest = take_repeated(argv, "-D", "--define")
    args = parser.parse_args(rest)
    args.define += defines
    return guarded(lambda: _run(args, gate(parser, args)), args.diagnostics_format, args.caret, prog=command_name(parser, args))


def _run(args, plan: Files) -> int:
    """*plan*: the gate: never over an input (the .file members too), nothing written on failure."""
    source = Path(args.source)
    options = Options(
        cpu=args.cpu, defines=parse_defines(args.define), include_dirs=tuple(args.include), disk=args.disk, listing=False
    )
    text, _name = read_source_text(source, plan)
    try:
        conversion = convert(text, str(source), args.to, options, plan)
    except DiagnosticError as exc:
        raise _foreign_source(exc, source) from None
    if not args.quiet:
        print_diagnostics(conversion.diagnostics, more=conversion.result.more_warnings, form=args.diagnostics_format,
                          caret=args.caret, prog="asm6502 convert")  # (warnings the assembly only counted)
        shape = conversion.structure
        print(f"structure: {len(shape.macros)} macro(s) as {args.to} macros, {len(shape.expanded)} expanded at each call; "
              f"{shape.loops} .goto loop(s) as {args.to} loops, {len(shape.unrolled)} unrolled", file=sys.stderr)  # fmt: skip
    out = Path(args.output) if args.output else source.with_suffix(TARGETS[args.to].suffix)
    if out.resolve() == source.resolve():
        raise DiagnosticError([error(f"the output '{out}' would overwrite the source: give another name with -o")])
    if args.check:
        _check(args.to, conversion)
    plan.add(out, conversion.text, "output")
    plan.commit()
    if not args.quiet:
        prg = conversion.result.prg
        start = prg[0] | prg[1] << 8 if len(prg) >= 2 else 0
        size = max(len(prg) - 2, 0)
        print(f"wrote {out}: a {args.to} source of {conversion.text.count(chr(10)):,} lines, assembling to "
              f"${start:04X}-${start + max(size - 1, 0):04X} ({size:,} bytes) as {source} does", file=sys.stderr)
    return 0


# the marks of a 64tass or ACME habit in the assembler's messages: their pseudo-ops, 'label:', '* = $c000'
_FOREIGN_MARKS = (FOREIGN, "a label has no colon", "no blank between '*' and '='")


def _foreign_source(exc: DiagnosticError, source: Path) -> DiagnosticError:
    """The errors of a source that uses 64tass's or ACME's pseudo-ops, after one that says which way convert goes."""
    foreign = sum(any(mark in d.message for mark in _FOREIGN_MARKS for d in (diag, *diag.notes)) for diag in exc.diagnostics)
    if not foreign:
        return exc
    head = error(f"{source} looks like a 64tass or ACME source ({foreign} statement{'s' if foreign != 1 else ''} written as "
                 "they write them): convert translates a Profi-Ass source into 64tass or ACME, not back; assemble this one "
                 "with 64tass or ACME")  # fmt: skip
    return DiagnosticError([head, *exc.diagnostics], exc.more_errors, exc.more_warnings)


def _check(target: str, conversion) -> None:
    from asm6502.convert.check import assemble_with

    done = assemble_with(target, conversion.text)
    expected = conversion.result.prg
    if not done.ok:
        raise DiagnosticError([error(f"{target} did not assemble the converted source:\n{done.messages.rstrip()}")])
    if done.prg != expected:
        at = next((i for i, (a, b) in enumerate(zip(done.prg, expected)) if a != b), min(len(done.prg), len(expected)))
        raise DiagnosticError([error(f"{target} gives other bytes than asm6502: {len(done.prg)} vs {len(expected)} bytes, "
                                     f"first difference at file offset {at}")])  # fmt: skip
    print(f"checked: {target} assembles it to the same {len(expected)} bytes as asm6502", file=sys.stderr)
