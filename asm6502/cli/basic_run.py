"""``asm6502 basic run PRG``: run a tokenized C64 BASIC V2 program headless.

The sub-parser is registered by ``asm6502/cli/basic.py``; ``main`` also lets
this module run on its own (``python -m asm6502.cli.basic_run PRG``).
"""

from __future__ import annotations

import argparse
import errno
import re
import sys
from pathlib import Path

from asm6502 import c64models as models
from asm6502.cli.basic_common import add_case_option, tokenize_text
from asm6502.cli.basic_common import read_prg as _read_prg
from asm6502.cli.basic_common import read_text as _read_text
from asm6502.cli.common import (
    Parser,
    add_model_arguments,
    add_path_argument,
    command_name,
    count_arg,
    gate,
    guarded,
    machine_model,
    number_arg,
    print_diagnostics,
)
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import INPUT, ROM_FOLDER, Files, refuse_binary
from asm6502.petscii import REVERSED_SPACE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EXIT_CODES = {"end": 0, "stop": 0, "input": 0, "error": 1, "limit": 3, "unsupported": 4, "interrupt": 130}
EXIT_INPUT_WANTED = 5  # --input ran out inside INPUT: the program wanted another line


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_path_argument(p, "prg", role=INPUT, what="program", metavar="PRG",
                   help="tokenized BASIC program (.prg: 2-byte load address + program); "
                   "a .bas/.txt listing is tokenized first")
    add_path_argument(p, "--input", role=INPUT, what="keystrokes", metavar="FILE",
                   help="keystrokes for INPUT (one line per answer) and GET (one character each, "
                   "newline = RETURN); default: the terminal / standard input")
    p.add_argument("--seed", type=number_arg(0, 24 * 60 * 60 * 60 - 1, "jiffy count", hex_bounds=False), metavar="N",
                   help="start the jiffy clock TI at N (makes RND(0), RND(-TI) and TI$ repeatable); "
                   "RND(1) sequences are always the C64's power-on sequence")
    p.add_argument("--max-statements", type=count_arg, metavar="N",
                   help="stop after N statements (exit code 3), e.g. for programs that loop forever")
    p.add_argument("--screen", action="store_true",
                   help="at the end, print the final 40x25 screen instead of streaming the output")
    p.add_argument("--rom", action="store_true",
                   help="run on the whole C64 with the real BASIC and KERNAL ROMs (see --roms) instead "
                   "of the interpreter; prints the screen at the end")
    add_path_argument(p, "--roms", role=ROM_FOLDER, metavar="DIR",
                   help="directory of the ROM images for --rom (default: $ASM6502_ROMS, then VICE's C64 directories)")
    p.add_argument("--cycles", type=count_arg, metavar="N",
                   help="with --rom: stop after N clock cycles (exit code 3)")
    add_model_arguments(p)
    add_case_option(p)
    p.set_defaults(func=run)


def register_run(sub) -> None:
    p = sub.add_parser(
        "run",
        help="run a BASIC .prg headless (PRINT/INPUT on the terminal)",
        description="Run the tokenized program in PRG like a C64 after RUN: PRINT formatting, "
        "screen zones, INPUT prompts and errors as the BASIC V2 ROM prints them. "
        "Exit code: 0 normal end/STOP/input used up (a GET or WAIT polling after it), 1 BASIC error, 3 statement "
        "limit, 4 unsupported feature (disk I/O, machine code without the harness), 5 --input ran out inside "
        "INPUT (the program wanted another line).",
    )
    add_arguments(p)


def run(args, files: Files) -> int:
    """*files*: the gate (this command writes no file; it reads the program, the keystrokes, the ROMs)."""
    from asm6502.basic.interpreter import RunOptions, run_prg  # (lazy: start-up, see ARCHITECTURE.md)

    if Path(args.prg).suffix.lower() in (".bas", ".txt"):
        tok, diagnostics = tokenize_text(_read_text(args.prg, files), args.prg, args.case)
        print_diagnostics(diagnostics, prog="asm6502 basic run")
        prg = tok.prg
    else:
        prg = _read_prg(args.prg, files=files)
    if args.rom or args.roms:
        return _run_on_rom(args, prg, files)
    if args.model != models.DEFAULT.name:
        raise DiagnosticError([error(f"--model {args.model} is a C64's: it needs --rom (the interpreter is no C64 model)")])
    options = RunOptions(seed=args.seed, max_statements=args.max_statements)
    if args.input:
        data = files.read(args.input, what="input")
        refuse_binary(data, args.input, "keystrokes (a text file)")
        text = data.decode("utf-8", errors="replace")
        keys: dict[str, Any] = {"input_text": text, "stream": None, "echo": True}
    else:
        if sys.stdin is None:  # started with standard input closed (<&-)

            raise OSError(errno.EBADF, "standard input is closed (give the keystrokes with --input FILE)", "<stdin>")
        tty_in = sys.stdin.isatty()
        keys = {"input_text": "", "stream": sys.stdin, "echo": not tty_in,
                "poll_key": _terminal_poll if tty_in else None}

    column = [0]
    if sys.stdout is None:  # started with standard output closed (>&-)

        raise OSError(errno.EBADF, "standard output is closed", "<stdout>")
    tty = sys.stdout.isatty()

    def sink(text: str) -> None:
        if "\f" in text:  # CLR: clear a terminal (ANSI home + erase), else end the current line
            text = text.replace("\f", "\x1b[H\x1b[2J" if tty else ("\n" if column[0] else ""))
        sys.stdout.write(text)
        sys.stdout.flush()
        column[0] = 0 if text.endswith("\n") else column[0] + len(text)

    result = run_prg(prg, options=options, filename=args.prg, sink=None if args.screen else sink, **keys)
    if args.screen:
        sys.stdout.write(result.screen_text.rstrip("\n") + "\n")
    if result.reason == "interrupt":
        sys.stdout.write("\n" if column[0] else "")
        sys.stdout.flush()
        print("asm6502 basic run: interrupted", file=sys.stderr)
    if result.reason in ("input", "limit", "unsupported"):
        if column[0]:
            sys.stdout.write("\n")
            sys.stdout.flush()
        where = f" in line {result.line}" if result.line is not None else ""
        print(f"asm6502 basic run: note: {result.message}{where}", file=sys.stderr)
    from asm6502.basic.interpreter.inout import INPUT_EXHAUSTED  # (the interpreter is loaded by now)

    if result.reason == "input" and result.message == INPUT_EXHAUSTED and args.input:
        return EXIT_INPUT_WANTED
    return EXIT_CODES[result.reason]


def _run_on_rom(args, prg: bytes, files) -> int:
    """The program on the C64 machine: boot, put it at the start of BASIC, RUN,
    type --input; the screen at the end.  Exit codes as for the interpreter:
    a ?... ERROR message after RUN is 1, the cycle limit 3."""
    from asm6502.emu.c64 import screen, session
    from asm6502.emu.c64.roms import find_roms
    from asm6502.emu.harness import text_to_keys

    lookup = find_roms(args.roms, files=files)
    if lookup.roms is None:
        raise DiagnosticError([error(f"--rom needs the C64 ROM images: {lookup.note()}")])
    machine = session.boot(session.images(lookup.roms), model=machine_model(args))
    session.start_program(machine, prg)
    if args.input:
        machine.type_text(text_to_keys(files.text(args.input, what="input"), args.input))
    stop = machine.run(args.cycles or session.DEFAULT_CYCLES)
    lines = screen.screen_lines(machine)
    if "RUN" in lines:
        lines = lines[len(lines) - 1 - lines[::-1].index("RUN") + 1 :]
    rows = [row.rstrip(REVERSED_SPACE).rstrip() for row in lines]
    while rows and not rows[-1]:
        rows.pop()
    sys.stdout.write("\n".join(rows) + "\n")
    if stop.reason == "cycles":
        print(f"asm6502 basic run: note: {stop.message}", file=sys.stderr)
        return EXIT_CODES["limit"]
    if stop.reason == "halt":
        print(f"asm6502 basic run: error: {stop.message}", file=sys.stderr)
        return 1
    if re.search(rb"\?[A-Z ]+ ERROR", bytes(machine.transcript)):
        return EXIT_CODES["error"]
    return EXIT_CODES["end"]


def _terminal_poll() -> str | None:
    """GET on a terminal: the key pressed right now (cbreak mode, 20 ms wait), or None."""
    import os
    import select
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        ready, _, _ = select.select([fd], [], [], 0.02)
        return os.read(fd, 1).decode("latin-1") if ready else None
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def main(argv: list[str]) -> int:
    parser = Parser(prog="asm6502 basic run", description="Run a tokenized C64 BASIC V2 program.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return guarded(lambda: args.func(args, gate(parser, args)), prog=command_name(parser, args))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
