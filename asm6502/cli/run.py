"""``asm6502 run PRG``: run a machine-code program in py65 with C64 ROM stubs."""

from __future__ import annotations

import argparse
import sys

from asm6502 import filetype
from asm6502.cli.common import address_arg, count_arg, guarded
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.harness import (
    DEFAULT_BUDGET,
    Machine,
    MachineOptions,
    StopReason,
    petscii_to_text,
    text_to_keys,
)
from asm6502.fileio import MAX_PRG_BYTES, read_input, read_text

EPILOG = """\
The program runs as after LOAD and SYS: its final RTS ends the run. The C64
routines it may call are stubbed: CHROUT $FFD2, CHRIN $FFCF (line input,
like the screen editor), GETIN $FFE4 and BASIC's STROUT $AB1E; a call into any
other ROM address stops the run with an error naming it.

Interactive (stdin is a terminal, no --input): type your answers, RETURN ends
a line. Scripted: --input FILE (or a pipe on stdin) supplies the keystrokes;
the screen is printed with the typed lines echoed.

examples:
  asm6502 run build/superhirn.prg                 # play: SYS 13312 is the load address
  asm6502 run build/superhirn.prg --input answers.txt
  printf '1\\n1\\n' | asm6502 run build/superhirn.prg
exit status: 0 when the program returned with RTS, 1 otherwise."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="asm6502 run",
        description="Run a C64 machine-code .prg in the py65 6502 emulator with KERNAL/BASIC-ROM stubs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("prg", metavar="PRG", help=".prg file (2-byte load address + code)")
    p.add_argument("--sys", type=address_arg, metavar="ADDR",
                   help="start address, e.g. 13312, $3400 or 0x3400 (default: the load address)")
    p.add_argument("--input", metavar="FILE",
                   help="keystrokes for CHRIN/GETIN from FILE ('-' = stdin); newline = RETURN")
    p.add_argument("--max-instructions", type=count_arg, default=DEFAULT_BUDGET, metavar="N",
                   help=f"stop after N 6502 instructions (default {DEFAULT_BUDGET:,})")
    p.add_argument("--engine", choices=("fast", "naive"), default="fast",
                   help="fast (default) or naive: the py65 step()-per-instruction reference loop")
    p.add_argument("--stats", action="store_true", help="print the stop reason and instruction count on stderr")
    return p


class _TerminalScreen:
    """Live output for a terminal.  The terminal already moved to a new line
    when the user pressed RETURN; the C64 does not, the program prints its own
    CR -- so the first CR after a typed line is not shown again."""

    def __init__(self, stream, ansi: bool):
        self.stream = stream
        self.ansi = ansi
        self.swallow_cr = False

    def put(self, byte: int) -> None:
        if self.swallow_cr and byte == 0x0D:
            self.swallow_cr = False
            return
        self.swallow_cr = False
        self.stream.write(petscii_to_text(bytes([byte]), ansi=self.ansi))

    def flush(self) -> None:
        self.stream.flush()


def _run(args: argparse.Namespace) -> int:

    data = read_input(args.prg, MAX_PRG_BYTES, "C64 program")
    kind = filetype.sniff_program(data, args.prg, want="machine-code")
    if kind is not None:
        raise DiagnosticError([error(f"{args.prg} is {kind.what}; {kind.hint}")])
    interactive = args.input is None and sys.stdin.isatty()
    screen = _TerminalScreen(sys.stdout, ansi=sys.stdout.isatty()) if interactive else None
    machine = Machine(MachineOptions(engine=args.engine, getin_waits=interactive),
                      on_output=screen.put if screen else None)
    start, _end = machine.load_prg(data, name=args.prg)
    if not interactive:
        text = read_text(args.input or "-", what="input")
        machine.feed(text_to_keys(text, args.input or "<stdin>"))
    result = machine.run(start if args.sys is None else args.sys, args.max_instructions)
    total = result.instructions
    while interactive and result.reason is StopReason.INPUT_NEEDED:
        screen.flush()
        line = sys.stdin.readline()
        if not line:
            break
        screen.swallow_cr = True
        machine.feed(text_to_keys(line if line.endswith("\n") else line + "\n", "<stdin>"))
        result = machine.resume(args.max_instructions)
        total += result.instructions
    if interactive:
        screen.flush()
        if not petscii_to_text(machine.output).endswith("\n"):
            print()
    else:
        text = petscii_to_text(bytes(machine.screen), ansi=False)
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    if args.stats or not result.ok:
        message = result.message
        if result.reason is StopReason.INPUT_NEEDED:
            message = f"the input ended: {message}"
        print(f"asm6502 run: {result.reason.value}: {message} (PC ${result.pc:04X}, "
              f"{total:,} instructions)", file=sys.stderr)
    return 0 if result.ok else 1


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    return guarded(lambda: _run(args))
