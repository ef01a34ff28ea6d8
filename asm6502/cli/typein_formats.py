"""``asm6502 typein write|read|type --format NAME``: any format of the registry (typein.formats),
the English ones first among them (Compute!'s Automatic Proofreader and MLX, Ahoy!'s Bug Repellent)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asm6502.basic.tokenizer import detokenize
from asm6502.cli import type_loop
from asm6502.cli.common import add_path_argument, number_arg, print_diagnostics, read_program
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import EDITED, INPUT, OUTPUT, Files, refuse_binary, write_stdout
from asm6502.typein.english.session import BasicTyping, MlxTyping
from asm6502.typein.formats import FORMATS

ENGLISH = tuple(n for n, f in FORMATS.items() if f.family in ("proofreader", "bugrepellent", "mlx"))
FORMAT_HELP = ("proofreader-1983 (Compute!, ':rem 123' after each line), proofreader-1986 (the New Automatic "
               "Proofreader, two letters before each line), bugrepellent-1/-2/-3 (Ahoy! 4/84, 6/84, 5/87: the "
               "listing and a table of line codes), mlx-1 (MLX: decimal, six bytes a line), mlx-2 (MLX II: hex, "
               "eight bytes a line); the MSE and Checksummer formats too (mse-1.0, checksummer-3, ...)")


def register(sub) -> None:
    w = sub.add_parser("write", help="print a .prg as a type-in listing in a magazine's format",
                       description="Print a .prg (BASIC or machine code) as a type-in listing in the chosen "
                       "format, with the checksums as the magazine printed them.")
    add_path_argument(w, "prg", role=INPUT, what="C64 program", metavar="PRG", help="the program (.prg)")
    w.add_argument("--format", required=True, choices=sorted(FORMATS), metavar="NAME", help=FORMAT_HELP)
    add_path_argument(w, "-o", "--output", role=OUTPUT, what="listing", metavar="TXT",
                      help="write the listing here (default: standard output)")
    w.add_argument("--name", help="the program's name for the listing's header (default: the file name in capitals)")

    r = sub.add_parser("read", help="read a type-in listing (typed or OCR'd) back into a .prg",
                       description="Read a listing in the chosen format back into a .prg, every line's checksum "
                       "verified; a damaged line is repaired when one reading alone verifies, else reported with "
                       "its likeliest readings. Nothing is written unless every line verifies (or --force).")
    add_path_argument(r, "txt", role=INPUT, what="listing", metavar="TXT", help="the listing ('-' = standard input)")
    r.add_argument("--format", required=True, choices=sorted(FORMATS), metavar="NAME", help=FORMAT_HELP)
    add_path_argument(r, "-o", "--output", role=OUTPUT, what="program", metavar="PRG", help="write the program here")
    r.add_argument("--force", action="store_true", help="write the program even with bad lines (exit status 1)")
    r.add_argument("--report", action="store_true", help="print every line's report (row, key, status, checksum)")

    t = sub.add_parser("type", help="type a listing in the terminal, each line checked at once",
                       description="Type a listing in one of the English formats like its checker: each line is "
                       "checked the moment it is entered and refused at once (with the likeliest fix) if its "
                       "checksum does not match. BASIC: type the line as printed with its checksum (a line "
                       "without one is stored and its checksum shown); MLX: the next address is shown, type "
                       "the bytes and the checksum. .back takes the last line back; .save saves; .quit saves and "
                       "ends. FILE is the listing being typed (resumed if it exists).")
    add_path_argument(t, "file", role=EDITED, what="typed listing", metavar="FILE", help="the listing being typed")
    t.add_argument("--format", required=True, choices=ENGLISH, metavar="NAME", help=FORMAT_HELP)
    add_path_argument(t, "-o", "--output", role=OUTPUT, what="program", metavar="PRG",
                      help="also write the program here when the session ends")
    t.add_argument("--start", type=number_arg(0, 0xFFFF, "start address"), metavar="ADDR",
                   help="MLX: the starting address (needed for a new file)")
    t.add_argument("--end", type=number_arg(0, 0xFFFF, "end address"), metavar="ADDR",
                   help="MLX: the ending address (the program's last byte)")


def _text(files: Files, path: str) -> str:
    raw = files.read(path, what="listing")
    refuse_binary(raw, "<stdin>" if path == "-" else path, "a listing text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # old OCR output


def run_write(args: argparse.Namespace, files: Files) -> int:
    raw, _ = read_program(files, args.prg)
    if len(raw) < 3:
        raise DiagnosticError([error(f"{args.prg}: too short for a .prg (a load address and at least one byte)")])
    fmt = FORMATS[args.format]
    name = args.name if args.name is not None else Path(args.prg).stem.upper()
    if fmt.kind == "basic":
        if not detokenize(raw, filename=args.prg).lines:
            raise DiagnosticError([error(f"{args.prg}: no BASIC line in it; {args.format} prints BASIC programs")])
    text = fmt.write(raw, name)
    if args.output:
        files.add(args.output, text, "listing")
        files.commit()
    else:
        write_stdout(text)
    return 0


def run_read(args: argparse.Namespace, files: Files) -> int:
    text = _text(files, args.txt)
    name = "<stdin>" if args.txt == "-" else args.txt
    fmt = FORMATS[args.format]
    readings = fmt.read(text, name)
    if not readings or not readings[0].prg:
        raise DiagnosticError([error(f"{name}: no {args.format} listing found ({fmt.shape})")])
    status = 0
    for k, reading in enumerate(readings, start=1):
        print_diagnostics(reading.diagnostics, prog="asm6502 typein read")
        if args.report:
            for r in reading.lines:
                print(f"{name}:{r.row}: {r.key}: {r.status} {r.printed or '-'} {r.computed or '-'}"
                      + (f" ({r.note})" if r.note else ""), file=sys.stderr)
        print(f"{name}: {args.format}: {reading.verified} lines verified, {reading.repaired} repaired, "
              f"{reading.bad} still bad", file=sys.stderr)
        output = args.output
        if output and len(readings) > 1:
            output = str(Path(output).with_name(f"{Path(output).stem}-{k}{Path(output).suffix}"))
        if output:
            if reading.whole or args.force:
                plan = files.fresh() if k > 1 else files
                plan.add(output, reading.prg, "program")
                plan.commit()
            else:
                print(f"asm6502 typein: {output} not written ({reading.bad} bad line(s); --force writes it anyway)",
                      file=sys.stderr)
        status |= 0 if reading.whole else 1
    return status


def run_type(args: argparse.Namespace, files: Files) -> int:
    fmt = FORMATS[args.format]
    file = type_loop.SessionFile(args.file, files)
    session: BasicTyping | MlxTyping
    if fmt.kind == "machine-code":
        if args.start is not None and args.end is not None and args.end < args.start:
            raise DiagnosticError([error(f"--end {args.end} is before --start {args.start}")])
        session = MlxTyping(fmt.version, fmt.shape, args.start, args.end)
    else:
        session = BasicTyping(fmt.family, fmt.version, fmt.shape)
    try:
        messages = session.resume(file.load())
    except ValueError as exc:
        raise DiagnosticError([error(f"{args.file}: {exc}")]) from None

    def program():
        if not args.output:
            return None
        if isinstance(session, MlxTyping):
            return (args.output, session.prg) if session.rows else None
        return (args.output, session.prg()) if session.lines else None

    type_loop.preflight(args.file, args.output)
    return type_loop.run(session, file, program, messages)


COMMANDS = {"write": run_write, "read": run_read, "type": run_type}
