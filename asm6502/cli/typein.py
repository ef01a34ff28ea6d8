"""``asm6502 typein scan TXT -o DIR``: every type-in listing of a magazine page or issue read."""

from __future__ import annotations

import argparse
import sys

from asm6502.cli.common import add_path_argument, command_name, gate, guarded
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import INPUT, OUTPUT_FOLDER, Files, refuse_binary, write_stdout
from asm6502.typein.scan import report, scan

DESCRIPTION = """\
Find every type-in listing in the OCR text of a magazine page or a whole issue (MSE machine-code
listings, Checksummer BASIC listings), read each with its format (the version decided by the
checksums) and report per listing where it starts, its format and its lines verified, repaired
and still bad. With -o DIR each listing that came back whole is written there as NN-FORMAT.prg
(--force: every listing, bad lines as printed) with the report as report.txt.

  asm6502 typein scan issue.txt -o programs
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="asm6502 typein", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{scan}")
    s = sub.add_parser("scan", help="find and read every type-in listing of a page or an issue",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_path_argument(s, "source", role=INPUT, what="OCR text", metavar="TXT", help="the OCR text ('-' = standard input)")
    add_path_argument(s, "-o", "--output", role=OUTPUT_FOLDER, metavar="DIR",
                      help="write the programs and report.txt into this folder (made if missing)")
    s.add_argument("--force", action="store_true", help="with -o: write the programs of listings not whole too")
    return parser


def _scan(args: argparse.Namespace, files: Files) -> int:
    """*files*: the gate, given the command line's files by their roles."""
    name = "<stdin>" if args.source == "-" else args.source
    raw = files.read(args.source, what="OCR text")
    refuse_binary(raw, name, "an OCR text")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")  # old OCR output
    found = scan(text, name)
    if not found:
        raise DiagnosticError([error(f"{name}: no type-in listing found (MSE lines, or BASIC lines with <NNN>)")])
    written: dict[int, str] = {}
    if args.output:
        plan = files
        for k, f in enumerate(found, start=1):
            if f.reading.prg and (f.reading.whole or args.force):
                path = f"{args.output}/{k:02d}-{f.format}.prg"
                plan.add(path, f.reading.prg, "program", make_parent=True)
                written[k] = path
        text_report = report(found, name, written)
        plan.add(f"{args.output}/report.txt", text_report, "report", make_parent=True)
        plan.commit()
    else:
        text_report = report(found, name)
    write_stdout(text_report)
    return 0 if all(f.reading.whole for f in found) else 1


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "scan":
        return guarded(lambda: _scan(args, gate(parser, args)), prog=command_name(parser, args))
    return 2  # (argparse requires a command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
