"""``asm6502 basic type FILE``: type a Checksummer listing, each line checked as it is entered."""

from __future__ import annotations

from asm6502.cli.common import add_path_argument
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import EDITED, OUTPUT, Files


def register_type(sub) -> None:
    p = sub.add_parser(
        "type",
        help="type a Checksummer listing in the terminal, each line checked at once",
        description="Type a 64'er Checksummer listing like the original: each numbered line with its printed "
        "<NNN> is checked the moment it is entered and refused at once (with the most likely fix) if the "
        "checksum does not match. A line without <NNN> is stored and its checksum shown to compare. Typing a "
        "line number again replaces the line; .back takes the last line back; .save saves; .quit saves and "
        "ends. FILE is the listing being typed (resumed if it exists).")
    add_path_argument(p, "file", role=EDITED, what="typed listing", metavar="FILE", help="the listing being typed (Checksummer format; resumed if it exists)")
    add_path_argument(p, "-o", "--output", role=OUTPUT, what="program", metavar="PRG", help="also write the program here when the session ends")
    p.add_argument("--version", type=int, choices=(1, 2, 3), default=3, dest="checksum_version",
                   help="Checksummer version of the print (1/2: 64'er 1-7/85; 3: from 8/85, default)")
    p.add_argument("--case", choices=("lower", "petcat", "upper"), default="petcat",
                   help="lower (or petcat, the default): capitals are shifted letters; "
                   "upper: type as printed in capitals (capitals are the unshifted letters)")
    p.set_defaults(func=run_type)


def run_type(args, files: Files) -> int:
    from asm6502.basic.tokenizer import tokenize
    from asm6502.cli import type_loop
    from asm6502.typein.basic import BasicSession

    try:
        file = type_loop.SessionFile(args.file, files)
        session, messages = BasicSession.resume(file.load(), args.checksum_version)
    except ValueError as exc:
        raise DiagnosticError([error(f"{args.file}: {exc}")]) from None
    session.upper = args.case == "upper"

    def program():
        if not args.output or not session.lines:
            return None
        text = "".join(f"{n} {session.lines[n]}\n" for n in sorted(session.lines))
        return args.output, tokenize(text, filename=args.file).prg

    type_loop.preflight(args.file, args.output)
    return type_loop.run(session, file, program, messages)
