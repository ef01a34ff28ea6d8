"""``asm6502 disasm``: a .prg back to source that reassembles to the same bytes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asm6502.cli.common import Parser, add_path_argument, command_name, cpu_arg, gate, guarded, int_arg, read_program
from asm6502.disasm import CPUS, SYNTAXES, SourceTooLong, disassemble
from asm6502.disasm.basic_stub import find_stub, find_sys
from asm6502.fileio import INPUT, OUTPUT, Files, write_stdout
from asm6502.filetype import BASIC_TXTTAB

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


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="asm6502 disasm", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_path_argument(p, "prg", role=INPUT, what="C64 program", metavar="PRG", help="C64 program file")
    add_path_argument(p, "-o", "--output", role=OUTPUT, metavar="SRC", help="write the source here (default: standard output)")
    p.add_argument("--entry", type=_address, action="extend", nargs="+", metavar="ADDR",
                   help="trace code from these addresses instead of the default entry (13312, 0x3400 or "
                   "$3400; '--entry A B' and '--entry A --entry B' both work; the first is named 'start')")
    p.add_argument("--data", action="store_true", help="no tracing: write every byte as data")
    p.add_argument("--syntax", choices=SYNTAXES, default="profi",
                   help="profi: Profi-Ass 64 (line-numbered, default); 64tass; acme")
    p.add_argument("--cpu", type=cpu_arg, choices=CPUS, default="6502",
                   help="6502i: decode the undocumented NMOS opcodes too (64tass's names)")
    return p


def _run(args: argparse.Namespace, plan: Files) -> int:
    """*plan*: the gate: never over the input, nothing written on failure."""
    raw, kind = read_program(plan, args.prg, ".prg")
    if len(raw) < 3:
        print(f"asm6502 disasm: error: {args.prg}: too short for a .prg (a 2-byte load address and at "
              "least one byte)", file=sys.stderr)
        return 1
    origin = raw[0] | raw[1] << 8
    entries = [] if args.data else args.entry
    if entries is None and origin == BASIC_TXTTAB and find_stub(raw[2:], origin) is None:  # (disassemble
        found = find_sys(raw[2:], origin)  # starts at a first line's SYS itself)
        if found is None or not origin <= found[1] < origin + len(raw) - 2:
            if kind.name == "basic-prg":
                where = "no SYS" if found is None else f"its SYS {found[1]} (line {found[0]}) calls code outside the file"
                print(f"asm6502 disasm: error: {args.prg} is a BASIC program ({where}); list it with "
                      f"'asm6502 basic list {args.prg}', or give the machine code's address with --entry", file=sys.stderr)
                return 1
            found = None
    else:
        found = None
    if found is not None:
        print(f"asm6502 disasm: note: {args.prg} is a BASIC program; disassembling from its SYS {found[1]} "
              f"(line {found[0]}, ${found[1]:04X})", file=sys.stderr)
        entries = [found[1]]
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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.data and args.entry:
        parser.error("--data and --entry exclude each other")
    return guarded(lambda: _run(args, gate(parser, args)), prog=command_name(parser, args))
