"""``asm6502 disasm``: a .prg back to source that reassembles to the same bytes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asm6502.cli.common import cpu_arg, guarded, int_arg
from asm6502.disasm import CPUS, SYNTAXES, SourceTooLong, disassemble
from asm6502.fileio import MAX_PRG_BYTES, Files, write_stdout

DESCRIPTION = """\
Disassemble a C64 program (.prg: 2-byte load address, then the bytes) into source for
Profi-Ass 64 (line-numbered, default), 64tass or ACME that reassembles to the same bytes.
Code is traced from the entry points (the SYS address of a BASIC start line such as
'10 SYS 2064', else the load address; or --entry); everything else is data.

  asm6502 disasm build/superhirn.prg -o superhirn.asm
  asm6502 disasm build/superhirn.prg --syntax 64tass -o sh.s && 64tass -o sh2.prg sh.s
"""


def _address(text: str) -> int:
    value = int_arg(text)
    if not 0 <= value <= 0xFFFF:
        raise argparse.ArgumentTypeError(f"not an address ($0000-$FFFF): {text!r}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="asm6502 disasm", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("prg", metavar="PRG", help="C64 program file")
    p.add_argument("-o", "--output", metavar="SRC", help="write the source here (default: standard output)")
    p.add_argument("--entry", type=_address, action="extend", nargs="+", metavar="ADDR",
                   help="trace code from these addresses instead of the default entry (13312, 0x3400 or "
                   "$3400; '--entry A B' and '--entry A --entry B' both work; the first is named 'start')")
    p.add_argument("--data", action="store_true", help="no tracing: write every byte as data")
    p.add_argument("--syntax", choices=SYNTAXES, default="profi",
                   help="profi: Profi-Ass 64 (line-numbered, default); 64tass; acme")
    p.add_argument("--cpu", type=cpu_arg, choices=CPUS, default="6502",
                   help="6502i: decode the undocumented NMOS opcodes too (64tass's names)")
    return p


def _run(args: argparse.Namespace) -> int:
    plan = Files()  # the gate: never over the input, nothing written on failure
    raw = plan.read(args.prg, MAX_PRG_BYTES, ".prg")
    if args.output:
        plan.check(args.output, "output")
    if len(raw) < 3:
        print(f"asm6502 disasm: error: {args.prg}: too short for a .prg (a 2-byte load address and at "
              "least one byte)", file=sys.stderr)
        return 1
    origin = raw[0] | raw[1] << 8
    entries = [] if args.data else args.entry
    try:
        text = disassemble(origin, raw[2:], syntax=args.syntax, entries=entries, cpu=args.cpu,
                           title=Path(args.prg).name)
    except (SourceTooLong, ValueError) as exc:
        print(f"asm6502 disasm: error: {args.prg}: {exc}", file=sys.stderr)
        return 1
    if args.output:
        plan.add(args.output, text, "output")
        plan.commit()
    else:
        write_stdout(text)
    return 0


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.data and args.entry:
        _parser().error("--data and --entry exclude each other")
    return guarded(lambda: _run(args))
