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

from asm6502.cli.basic_common import add_case_option, tokenize_text
from asm6502.cli.basic_common import read_prg as _read_prg
from asm6502.cli.basic_common import read_text as _read_text
from asm6502.cli.basic_run import register_run
from asm6502.cli.common import guarded, print_diagnostics
from asm6502.fileio import OutputPlan
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


def _report(diagnostics, quiet: bool) -> None:
    if not quiet:
        print_diagnostics(diagnostics)


# --------------------------------------------------------------------------- tok
def register_tok(sub) -> None:
    p = sub.add_parser(
        "tok",
        help="tokenize a petcat-style listing into a .prg",
        description="Tokenize SRC (petcat text: lowercase = unshifted, {clr}, {$93}, ~ = pi) into a .prg "
        "with exactly the bytes a C64 stores when the lines are typed in.",
    )
    p.add_argument("source", metavar="SRC", help="BASIC listing text (.bas)")
    p.add_argument("-o", "--output", metavar="OUT.prg", help="output file (default: SRC with .prg)")
    p.add_argument("--start", type=address_arg, default=0x0801, metavar="ADDR",
                   help="load address in hex (default 0801, the C64's BASIC start; 1C01 for a C128)")
    add_case_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_tok)


def run_tok(args) -> int:
    text = _read_text(args.source)
    result, diagnostics = tokenize_text(text, args.source, args.case, args.start)
    _report(diagnostics, args.quiet)
    _write(args.output or str(Path(args.source).with_suffix(".prg")), result.prg, args.source, "output")
    return 0


def _write(path: str | None, data: bytes | str, source: str, what: str) -> None:
    """The one output rule: never over an input, all or nothing (fileio.OutputPlan)."""
    if path is None:
        sys.stdout.write(data if isinstance(data, str) else data.decode("latin-1"))
        return
    plan = OutputPlan()
    plan.add_input(source)
    plan.add(path, data, what)
    plan.commit()


# --------------------------------------------------------------------------- list
def register_list(sub) -> None:
    p = sub.add_parser(
        "list",
        help="list a BASIC .prg as petcat-style text",
        description="List PRG as text that 'asm6502 basic tok' turns back into the same bytes. "
        "Unprintable bytes appear as {$hh}; broken links, trailing machine code and other oddities are warned about.",
    )
    p.add_argument("prg", metavar="PRG", help="a BASIC program file (2-byte load address + program)")
    p.add_argument("-o", "--output", metavar="TXT", help="write the listing here instead of standard output")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_list)


def run_list(args) -> int:
    from asm6502.basic.tokenizer import detokenize

    result = detokenize(_read_prg(args.prg, want="any"), filename=args.prg)  # lists any .prg
    _report(result.diagnostics, args.quiet)
    _write(args.output, result.text, args.prg, "listing")
    return 0


# --------------------------------------------------------------------------- checksum
def register_checksum(sub) -> None:
    p = sub.add_parser(
        "checksum",
        help="64'er Checksummer listing (<NNN> after each line)",
        description="Print the program as a 64'er type-in listing: every line followed by its "
        "Checksummer 64 value <NNN>. INPUT is a .prg, or a listing text (.bas/.txt) that is tokenized first.",
    )
    p.add_argument("input", metavar="PRG|SRC", help="BASIC .prg, or listing text (.bas, .txt)")
    p.add_argument("--version", type=int, choices=(1, 2, 3), default=3, dest="checksum_version",
                   help="Checksummer version: 1/2 (64'er 1-7/85, plain sum) or 3 (from 8/85, rotating; default)")
    p.add_argument("--v3-count-spaces", action="store_true",
                   help="V3: let skipped spaces advance the rotation too (unconfirmed variant; see checksummer.py)")
    p.add_argument("--from", dest="kind", choices=("auto", "prg", "text"), default="auto",
                   help="how to read INPUT (auto: .bas/.txt are text, anything else a .prg)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the listing here instead of standard output")
    add_case_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="do not print warnings")
    p.set_defaults(func=run_checksum)


def run_checksum(args) -> int:
    from asm6502.basic.checksummer import ChecksumOptions, checksum_listing

    kind = args.kind
    if kind == "auto":
        kind = "text" if Path(args.input).suffix.lower() in (".bas", ".txt") else "prg"
    if kind == "text":
        tok, diagnostics = tokenize_text(_read_text(args.input), args.input, args.case)
        _report(diagnostics, args.quiet)
        prg = tok.prg
    else:
        prg = _read_prg(args.input)
    options = ChecksumOptions(version=args.checksum_version, count_spaces=args.v3_count_spaces)
    text, diagnostics = checksum_listing(prg, filename=args.input, options=options)
    _report(diagnostics if kind == "prg" else (), args.quiet)
    _write(args.output, text, args.input, "listing")
    return 0


# --------------------------------------------------------------------------- run
# --------------------------------------------------------------------------- main
COMMANDS: list[tuple[str, Register]] = [
    ("tok", register_tok),
    ("list", register_list),
    ("checksum", register_checksum),
    ("run", register_run),
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    return guarded(lambda: args.func(args))
