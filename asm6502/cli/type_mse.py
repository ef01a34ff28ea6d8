"""``asm6502 mse type FILE``: type an MSE V1.0 listing like the MSE, line by line."""

from __future__ import annotations

from asm6502.cli.common import number_arg
from asm6502.diagnostics import DiagnosticError, error


def register_type(sub) -> None:
    p = sub.add_parser(
        "type", help="type an MSE V1.0 listing in the terminal, each line checked at once",
        description="Type an MSE V1.0 listing like the MSE: the next address is shown, the 8 bytes and the "
        "checksum of that line are taken and refused at once (with the most likely fix) if the checksum does "
        "not match. .back goes back one line; .save saves; .quit saves and ends. FILE is the listing being "
        "typed (resumed if it exists).")
    p.add_argument("file", metavar="FILE", help="the listing being typed (MSE format; resumed if it exists)")
    p.add_argument("--start", type=number_arg(0, 0xFFFF, "start address"), metavar="ADDR",
                   help="start address (the header's first address; needed for a new file)")
    p.add_argument("--end", type=number_arg(1, 0x10000, "end address"), metavar="ADDR",
                   help="end address, exclusive (the header's second address)")
    p.add_argument("--name", default="", help="program name for the header")
    p.add_argument("-o", "--output", metavar="PRG", help="also write the program here when the session ends")


def run_type(args) -> int:
    from asm6502.cli import type_loop
    from asm6502.typein.mse import MseSession

    try:
        session, messages = MseSession.resume(type_loop.load(args.file), args.start, args.end, args.name)
    except ValueError as exc:
        raise DiagnosticError([error(f"{args.file}: {exc}")]) from None

    def program():
        return (args.output, session.prg) if args.output and session.rows else None

    type_loop.preflight(args.file, args.output)
    return type_loop.run(session, args.file, program, messages)
