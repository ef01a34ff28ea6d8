"""``asm6502 mse type FILE``: type an MSE V1.0 listing like the MSE, line by line."""

from __future__ import annotations

from asm6502.cli.common import add_path_argument, number_arg
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import EDITED, OUTPUT, Files


def register_type(sub) -> None:
    p = sub.add_parser(
        "type", help="type an MSE V1.0 listing in the terminal, each line checked at once",
        description="Type an MSE V1.0 listing like the MSE: the next address is shown, the 8 bytes and the "
        "checksum of that line are taken and refused at once (with the most likely fix) if the checksum does "
        "not match. .back goes back one line; .save saves; .quit saves and ends. FILE is the listing being "
        "typed (resumed if it exists).")
    add_path_argument(p, "file", role=EDITED, what="typed listing", metavar="FILE", help="the listing being typed (MSE format; resumed if it exists)")
    p.add_argument("--start", type=number_arg(0, 0xFFFF, "start address"), metavar="ADDR",
                   help="start address (the header's first address; needed for a new file)")
    p.add_argument("--end", type=number_arg(1, 0x10000, "end address"), metavar="ADDR",
                   help="end address, exclusive (the header's second address)")
    p.add_argument("--name", default="", help="program name for the header")
    add_path_argument(p, "-o", "--output", role=OUTPUT, what="program", metavar="PRG", help="also write the program here when the session ends")


def run_type(args, files: Files) -> int:
    from asm6502.cli import type_loop
    from asm6502.typein.mse import MseSession

    if args.start is not None and args.end is not None and args.end <= args.start:
        raise DiagnosticError([error(f"--end ${args.end:04X} is not after --start ${args.start:04X} "
                                     "(the end address is exclusive: the first address after the program)")])
    try:
        file = type_loop.SessionFile(args.file, files)
        session, messages = MseSession.resume(file.load(), args.start, args.end, args.name)
    except ValueError as exc:
        raise DiagnosticError([error(f"{args.file}: {exc}")]) from None

    def program():
        return (args.output, session.prg) if args.output and session.rows else None

    type_loop.preflight(args.file, args.output)
    return type_loop.run(session, file, program, messages)
