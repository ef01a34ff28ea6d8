"""``asm6502 basic ...``: C64 BASIC V2 programs (tokenize, list, checksum).

Each sub-command is one entry in ``COMMANDS``: a name and a function that adds
its sub-parser and sets ``func`` (the command body, returning an exit code).
Adding a command is one ``register_x`` function and one list entry.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from asm6502 import filetype
from asm6502.cli.basic_common import add_case_option, tokenize_text
from asm6502.cli.basic_common import read_prg as _read_prg
from asm6502.cli.basic_common import read_text as _read_text
from asm6502.cli.basic_run import register_run
from asm6502.cli.common import Parser, add_path_argument, command_name, gate, guarded, print_diagnostics
from asm6502.cli.type_basic import register_type
from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.fileio import INPUT, OUTPUT, Files, write_stdout
from asm6502.numparse import SPELLINGS, check_range, parse_int

Register = Callable[["argparse._SubParsersAction"], None]


def address_arg(text: str) -> int:
    """A load address: ``0801`` (hex, as C64 people write it), ``$0801`` or ``0x0801``."""
    t = text.strip()
    try:
        # the one number reader (numparse), with bare digits read as hex
        value = parse_int(t if t.startswith(("$", "0x", "0X", "%", "0b", "0B")) else "$" + t)
        return check_range(value, 0, 0xFFFF, "address", text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (bare digits are hex: 0801; or {SPELLINGS})") from None


def _report(diagnostics, quiet: bool, prog: str) -> None:
    if not quiet:
        print_diagnostics(diagnostics, prog=prog)


# --------------------------------------------------------------------------- tok
def register_tok(sub) -> None:
    p = sub.add_parser(
        "tok",
        help="tokenize a petcat-style listing into a .prg",
        description="Tokenize SRC (petcat text: lowercase = unshifted, {clr}, {$93}, ~ = pi) into a .prg "
        "with exactly the bytes a C64 stores when the lines are typed in.",
    )
    add_path_argument(p, "source", role=INPUT, what="BASIC listing", metavar="SRC", help="BASIC listing text (.bas)")
    add_path_argument(p, "-o", "--output", role=OUTPUT, metavar="OUT.prg", help="output file (default: SRC with .prg)")
    p.add_argument("--start", type=address_arg, default=0x0801, metavar="ADDR",
                   help="load address in hex (default 0801, the C64's BASIC start; 1C01 for a C128)")
    add_case_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_tok)


def run_tok(args, files: Files) -> int:
    text = _read_text(args.source, files)
    _refuse_checksummer_listing(text, args.source)
    result, diagnostics = tokenize_text(text, args.source, args.case, args.start)
    _report(diagnostics, args.quiet, f"asm6502 basic {args.command}")
    _write(args.output or str(Path(args.source).with_suffix(".prg")), result.prg, args.source, "output", files)
    return 0


def _write(path: str | None, data: bytes | str, source: str, what: str, files: Files | None = None) -> None:
    """The one output rule: never over an input, all or nothing (the gate, fileio.Files)."""
    if path is None:
        write_stdout(data if isinstance(data, str) else data.decode("latin-1"))
        return
    plan = files if files is not None else Files()
    plan.add_input(source)
    plan.add(path, data, what)
    plan.commit()


def _refuse_checksummer_listing(text: str, path: str) -> None:
    """A Checksummer listing would keep every ' <021>' in its line: name the command that reads it."""
    marked, rows = filetype.checksummer_marks(text)
    if rows and len(marked) * 2 >= rows:
        raise DiagnosticError([error(
            f"{path} is a Checksummer listing ({len(marked)} of {rows} lines end in <NNN>); "
            f"'asm6502 basic read {path} -o PROGRAM.prg' takes the checksums off and checks every line",
            Span(path, marked[0]))])


# --------------------------------------------------------------------------- read
def register_read(sub) -> None:
    p = sub.add_parser(
        "read",
        help="read a Checksummer listing (typed or OCR'd) back into a .prg, every line checked",
        description="Read a 64'er Checksummer listing (every line followed by <NNN>) typed or OCR'd from a "
        "magazine: take each checksum off, tokenize the line as the C64 stores it and check it (V1/V2 or V3, "
        "decided by the checksums). OCR as it comes is read: two columns per page, lines broken over rows, "
        "captions and article text in between, control codes as {CLR} or <CLR,DOWN>, letters for digits. "
        "A line whose damage shows in the print and has one clearly most likely reading is repaired (and the "
        "repair named); other bad lines are reported with the most likely fixes. Nothing is written unless "
        "every line verifies (or --force).")
    add_path_argument(p, "source", role=INPUT, what="listing", metavar="TXT", help="listing text ('-' = standard input)")
    add_path_argument(p, "-o", "--output", role=OUTPUT, what="program", metavar="PRG",
                      help="write the program here (without -o: only check)")
    p.add_argument("--force", action="store_true",
                   help="write the PRG even when lines fail to verify (bad lines as printed); the exit status is still 1")
    p.add_argument("--fix", action="store_true", help="with -o: also write the corrected listing (petcat text with "
                   "each line's <NNN>, repairs applied) next to the PRG, as NAME.fixed.txt")
    p.add_argument("--accept", metavar="LINE", action="append", default=[],
                   help="take a fix you confirmed for a line still bad: LINE (its first fix), LINE=RANK (the "
                   "RANK-th offered), LISTING/LINE[=RANK] (with several listings in the text), or all (every "
                   "bad line's first fix); an unchecked line (checksum unreadable) is taken as printed. "
                   "Repeatable; with --fix the corrected listing shows what was taken")
    p.add_argument("--version", choices=("auto", "1", "2", "3"), default="auto", dest="checksum_version",
                   help="Checksummer version (default auto: the one that reproduces more printed checksums)")
    p.add_argument("--case", choices=("auto", "lower", "petcat", "upper"), default="auto",
                   help="auto (default): a listing in capitals is read with capitals as unshifted letters; "
                   "lower (or petcat): capitals are shifted letters; upper: capitals are unshifted letters")
    p.add_argument("--review", action="store_true",
                   help="with -o: walk the lines still bad in the terminal, likeliest first: a key takes a fix "
                   "(1-9), retypes the line as printed (t, checked as typed), skips it (s), takes the last "
                   "decision back (b) or ends (q); the decisions are saved in PRG's NAME.review.txt after each "
                   "one and the same command resumes them")
    p.set_defaults(func=run_read)


def run_read(args, files: Files) -> int:
    from asm6502.typein.cslisting.accept import accept, parse_choice
    from asm6502.typein.cslisting.read import read_listings

    if args.fix and not args.output:
        raise DiagnosticError([error("--fix needs -o PRG (the corrected listing is written next to it)")])
    name = "<stdin>" if args.source == "-" else args.source
    version = None if args.checksum_version == "auto" else int(args.checksum_version)
    try:
        choices = [parse_choice(c) for c in args.accept]
    except ValueError as exc:
        raise DiagnosticError([error(str(exc))]) from None
    results = read_listings(_read_text(args.source, files), name, version=version,
                            case=None if args.case == "auto" else args.case)
    if choices:
        results = accept(results, [c for c in choices if c is not None], take_all=None in choices)
    decisions = None
    if args.review:
        results, decisions = _review(results, args.output, files)
    status = 0
    for k, result in enumerate(results, start=1):
        output = args.output
        if output and len(results) > 1:  # several listings in one text: X.prg -> X-1.prg, X-2.prg, ...
            output = str(Path(output).with_name(f"{Path(output).stem}-{k}{Path(output).suffix}"))
        label = name if len(results) == 1 else f"{name} (listing {k} of {len(results)})"
        if decisions is not None:
            _report_decisions(label, decisions, f"{k}/" if len(results) > 1 else "", result.count("bad")
                              + result.count("unchecked") + len(result.lost))
        status |= _report_read(args, result, label, output, files)
    return status


def _review(results, output: str | None, files: Files):
    """The review session over the lines still bad (cli/review.py): the results with the lines
    decided taken, and the decisions."""
    from asm6502.cli import review
    from asm6502.typein.cslisting import review as csreview

    review.need_output(output)
    assert output is not None
    decisions = review.run(csreview.items(results), csreview.Checker(results), review.state_path(output), files)
    return csreview.apply(results, decisions), decisions


def _report_decisions(label: str, decisions, prefix: str, left: int) -> None:
    from asm6502.cli import review

    fixes, typed = review.count(decisions, prefix)
    print(f"{label}: {fixes + typed} decision(s) in the review ({fixes} fix(es) taken, {typed} line(s) retyped), "
          f"{left} line(s) still in the way", file=sys.stderr)


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _report_read(args, result, label: str, output: str | None, files: Files) -> int:
    print_diagnostics(result.diagnostics, prog="asm6502 basic read")
    if result.lines:
        numbers = [r.number for r in result.lines]
        version = "V1/V2" if result.version in (1, 2) else "V3"
        print(f"{label}: Checksummer {version}, {_lines(len(numbers))} ({numbers[0]}-{numbers[-1]})"
              f"{', capitals read as unshifted letters' if result.upper else ''}", file=sys.stderr)
        confirmed = f", {result.count('accepted')} as you confirmed" if result.count("accepted") else ""
        unchecked = f", {result.count('unchecked')} unchecked" if result.count("unchecked") else ""
        print(f"{label}: {_lines(result.count('verified'))} verified, {result.count('repaired')} repaired{confirmed}, "
              f"{result.count('bad')} still bad{unchecked}", file=sys.stderr)
    if not output:
        return 0 if result.ok else 1
    n_err = len(result.errors)
    if result.ok or (args.force and result.lines):
        plan = files.fresh()  # one gate per listing written; the inputs as the command read them
        plan.add(output, result.prg, "program")
        fixed = str(Path(output).with_suffix(".fixed.txt"))
        if args.fix:
            plan.add(fixed, result.corrected_listing(), "corrected listing")
        plan.commit()
        if args.fix:
            print(f"asm6502 basic read: wrote the corrected listing to {fixed}", file=sys.stderr)
        if not result.ok:
            print(f"asm6502 basic read: wrote {output} despite {n_err} error(s) (--force)", file=sys.stderr)
    else:
        print(f"asm6502 basic read: {output} not written ({n_err} error(s); --force writes it anyway)", file=sys.stderr)
    return 0 if result.ok else 1


# --------------------------------------------------------------------------- list
def register_list(sub) -> None:
    p = sub.add_parser(
        "list",
        help="list a BASIC .prg as petcat-style text",
        description="List PRG as text that 'asm6502 basic tok' turns back into the same bytes. "
        "Unprintable bytes appear as {$hh}; broken links, trailing machine code and other oddities are warned about.",
    )
    add_path_argument(p, "prg", role=INPUT, what="C64 program", metavar="PRG",
                      help="a BASIC program file (2-byte load address + program)")
    add_path_argument(p, "-o", "--output", role=OUTPUT, what="listing", metavar="TXT",
                      help="write the listing here instead of standard output")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_list)


def run_list(args, files: Files) -> int:
    from asm6502.basic.tokenizer import detokenize

    result = detokenize(_read_prg(args.prg, want="any", files=files), filename=args.prg)  # lists any .prg
    _report(result.diagnostics, args.quiet, f"asm6502 basic {args.command}")
    _write(args.output, result.text, args.prg, "listing", files)
    return 0


# --------------------------------------------------------------------------- checksum
def register_checksum(sub) -> None:
    p = sub.add_parser(
        "checksum",
        help="64'er Checksummer listing (<NNN> after each line)",
        description="Print the program as a 64'er type-in listing: every line followed by its "
        "Checksummer 64 value <NNN>. INPUT is a .prg, or a listing text (.bas/.txt) that is tokenized first.",
    )
    add_path_argument(p, "input", role=INPUT, metavar="PRG|SRC", help="BASIC .prg, or listing text (.bas, .txt)")
    p.add_argument("--version", type=int, choices=(1, 2, 3), default=3, dest="checksum_version",
                   help="Checksummer version: 1/2 (64'er 1-7/85, plain sum) or 3 (from 8/85, rotating; default)")
    p.add_argument("--v3-count-spaces", action="store_true",
                   help="V3: let skipped spaces advance the rotation too (not what 64'er printed: see checksummer.py)")
    p.add_argument("--from", dest="kind", choices=("auto", "prg", "text"), default="auto",
                   help="how to read INPUT (auto: .bas/.txt are text, anything else a .prg)")
    add_path_argument(p, "-o", "--output", role=OUTPUT, what="listing", metavar="FILE",
                      help="write the listing here instead of standard output")
    add_case_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_checksum)


def run_checksum(args, files: Files) -> int:
    from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing

    kind = args.kind
    if kind == "auto":
        kind = "text" if Path(args.input).suffix.lower() in (".bas", ".txt") else "prg"
    if kind == "text":
        tok, diagnostics = tokenize_text(_read_text(args.input, files), args.input, args.case)
        _report(diagnostics, args.quiet, f"asm6502 basic {args.command}")
        prg = tok.prg
    else:
        prg = _read_prg(args.input, files=files)
    options = ChecksumOptions(version=args.checksum_version, count_spaces=args.v3_count_spaces)
    text, diagnostics = checksum_listing(prg, filename=args.input, options=options)
    _report(diagnostics if kind == "prg" else (), args.quiet, f"asm6502 basic {args.command}")
    _write(args.output, text, args.input, "listing", files)
    return 0


# --------------------------------------------------------------------------- run
# --------------------------------------------------------------------------- main
COMMANDS: list[tuple[str, Register]] = [
    ("tok", register_tok),
    ("list", register_list),
    ("checksum", register_checksum),
    ("read", register_read),
    ("type", register_type),
    ("run", register_run),
]


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="asm6502 basic",
        description="C64 BASIC V2 programs: tokenize petcat-style text, list .prg files, 64'er Checksummer listings.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for _name, register in COMMANDS:
        register(sub)
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: args.func(args, gate(parser, args)), prog=command_name(parser, args))
