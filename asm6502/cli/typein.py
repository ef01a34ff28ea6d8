"""``asm6502 typein scan TXT -o DIR``: every type-in listing of a magazine page or issue read."""

from __future__ import annotations

import argparse
import re
import sys

from asm6502.cli.common import Parser, add_path_argument, command_name, gate, guarded
from asm6502.cli.typein_formats import COMMANDS, register
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import INPUT, OUTPUT, OUTPUT_FOLDER, Files, refuse_binary, write_stdout
from asm6502.typein.scan import report, scan_all

DESCRIPTION = """\
Find every type-in listing in the OCR text of a magazine page or a whole issue (MSE machine-code
listings, Checksummer BASIC listings, and printed without checksums: plain BASIC V2 and C128 BASIC
7.0 listings, Profi-Ass and Hypra-Ass sources), read each with its format (the version decided by the checksums) and report per
listing where it starts, its title (the MSE header's name or the caption printed with it) and
page, its format, its lines verified, repaired and still bad and the decisions it needs (one a
line still bad, in 'basic read --review' or 'mse read --review'). With -o DIR each listing that
came back whole is written there as NN-FORMAT.prg (--force: every listing, bad lines as printed),
a Profi-Ass or Hypra-Ass source as NN-profi-ass.asm or NN-hypra-ass.asm (in Profi-Ass's words), with the report as report.txt; --d64 FILE writes a disk
image of every program that came back whole.

  asm6502 typein scan issue.txt -o programs --d64 programs.d64


Any format of the registry can also be written, read and typed by name (the English ones: Compute!'s
Automatic Proofreader and MLX, Ahoy!'s Bug Repellent):

  asm6502 typein write build/superhirn.prg --format mlx-2 -o superhirn.mlx.txt
  asm6502 typein read superhirn.mlx.txt --format mlx-2 -o superhirn.prg
  asm6502 typein type typed.txt --format proofreader-1986
"""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="asm6502 typein", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="{scan,write,read,type}")
    s = sub.add_parser("scan", help="find and read every type-in listing of a page or an issue",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_path_argument(s, "source", role=INPUT, what="OCR text", metavar="TXT", help="the OCR text ('-' = standard input)")
    add_path_argument(s, "-o", "--output", role=OUTPUT_FOLDER, metavar="DIR",
                      help="write the programs and report.txt into this folder (made if missing)")
    s.add_argument("--force", action="store_true", help="with -o: write the programs of listings not whole too")
    s.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (there is none anyway when stderr is not a terminal)")
    add_path_argument(s, "--d64", role=OUTPUT, what="disk image", metavar="FILE",
                      help="also write a .d64 disk image holding every program that came back whole")
    register(sub)
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
    bar = None
    if not args.no_progress and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=text.count("\n") + 1, unit="row", desc="scan", file=sys.stderr, leave=False)
    try:
        result = scan_all(text, name, (lambda row, _total: bar.update(row - bar.n)) if bar else None)
    finally:
        if bar is not None:
            bar.close()
    found, loose = result.listings, result.fragments
    if not found and not loose:
        raise DiagnosticError([error(f"{name}: no type-in listing found (MSE lines, or BASIC lines with <NNN>)")])
    written: dict[int, str] = {}
    plan = files
    if args.output:
        for k, f in enumerate(found, start=1):
            if f.source:  # a Profi-Ass listing: its source, whether it assembles or not
                plan.add(f"{args.output}/{k:02d}-{f.format}.asm", f.source, "source", make_parent=True)
            if f.reading.prg and (f.reading.whole or args.force):
                path = f"{args.output}/{k:02d}-{f.format}.prg"
                plan.add(path, f.reading.prg, "program", make_parent=True)
                written[k] = path
        text_report = report(found, name, written, loose)
        plan.add(f"{args.output}/report.txt", text_report, "report", make_parent=True)
    else:
        text_report = report(found, name, fragments=loose)
    if args.d64:
        plan.add(args.d64, disk_of(found), "disk image")
    if args.output or args.d64:
        plan.commit()
    write_stdout(text_report)
    return 0 if found and all(f.reading.whole for f in found) else 1  # (a fragment alone: a person checks the print)


def disk_of(found) -> bytes:
    """A .d64 of every program that came back whole, each named by its number and title
    (or format) as far as a 1541 name can hold it."""
    from asm6502.d64 import DiskImage, petscii_name

    disk = DiskImage.format(petscii_name("TYPE-IN"), b"64")
    for k, f in enumerate(found, start=1):
        if f.reading.whole and f.reading.prg:
            disk.add_file(petscii_name(file_name(k, f.title or f.format)), f.reading.prg)
    return disk.to_bytes()


def file_name(k: int, title: str) -> str:
    """'01 SUPERHIRN II': the listing's number and title, in the letters a 1541 name takes."""
    m = re.search(r"»([^«]+)«", title)
    shown = (m.group(1) if m else title).upper()
    shown = re.sub(r"[^A-Z0-9 .\-]", "", shown.replace("Ä", "AE").replace("Ö", "OE").replace("Ü", "UE"))
    return f"{k:02d} {' '.join(shown.split())}"[:16].rstrip()


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "scan":
        return guarded(lambda: _scan(args, gate(parser, args)), prog=command_name(parser, args))
    if args.command in COMMANDS:
        return guarded(lambda: COMMANDS[args.command](args, gate(parser, args)), prog=command_name(parser, args))
    return 2  # (argparse requires a command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
