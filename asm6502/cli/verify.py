"""``asm6502 verify superhirn PRG``: play Superhirn II against every secret code."""

from __future__ import annotations

import argparse
import json
import os
import sys

from asm6502 import c64models as models
from asm6502.cli.common import (
    Parser,
    add_model_arguments,
    add_path_argument,
    command_name,
    gate,
    guarded,
    machine_model,
    number_arg,
)
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu import superhirn
from asm6502.emu.harness import Machine
from asm6502.fileio import INPUT, MAX_PRG_BYTES, REPORT, ROM_FOLDER, Files, write_stdout

EPILOG = """\
Runs the program's machine code on the C64 machine with the project's stub ROMs. First the
article's worked example (secret 3436) and its ERROR cases are played; then an
automatic codebreaker answers truthfully for each of the 6^4 = 1296 secrets.
Every game must end with "OK" on the secret and match, guess by guess and byte
by byte, an independent Python model of the article's algorithm. The report
gives the guess-count distribution, mean, maximum, the hardest secrets, the
6502 instructions executed, and whether "in maximal sechs Versuchen" holds.

examples:
  asm6502 verify superhirn build/superhirn.prg            # full sweep, both cores
  asm6502 verify superhirn build/superhirn.prg --jobs 1 --secrets 3436,6465
  asm6502 verify superhirn build/superhirn.prg --json -o build/superhirn-verify.json
exit status: 0 when every check passed (whatever the guess counts), 1 when a
game or scenario failed -- or, with --require-claim, when a game needs more
than six guesses."""


def _usable_cpus() -> int:
    """CPUs this process may run on (an affinity mask or a container limits it below os.cpu_count())."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# Two workers where two CPUs are usable, else one: a second worker shortens the full sweep on two
# cores and gains nothing on one (bench/README.md, "Figures behind choices in the code").
DEFAULT_JOBS = min(2, _usable_cpus())


def _secrets(text: str) -> list[tuple[int, ...]]:
    try:
        codes = [superhirn.parse_code(t.strip()) for t in text.split(",") if t.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not codes:
        raise argparse.ArgumentTypeError(f"no secret in {text!r}: give codes like 3436,6465")
    return codes


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="asm6502 verify",
        description="Verify a program on the C64 machine against an independent model.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="program", required=True, metavar="PROGRAM")
    s = sub.add_parser(
        "superhirn",
        help="Superhirn II (64'er): every secret code, the worked example, the ERROR cases",
        description="Play Superhirn II's machine code against every secret code.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_path_argument(s, "prg", role=INPUT, what="C64 program", metavar="PRG", help="the assembled program (.prg loading at $3400)")
    s.add_argument("--jobs", type=number_arg(1, 256, "job count", hex_bounds=False), default=DEFAULT_JOBS, metavar="N",
                   help=f"worker processes (default {DEFAULT_JOBS}; see README for the measurement)")
    s.add_argument("--secrets", type=_secrets, metavar="LIST",
                   help="only these secrets, comma-separated (e.g. 3436,6465); default: all 1296")
    s.add_argument("--json", action="store_true", help="write the report as JSON")
    add_path_argument(s, "-o", "--output", role=REPORT, metavar="FILE", help="write the report to FILE instead of stdout")
    s.add_argument("--no-progress", action="store_true",
                   help="no progress bar on stderr (there is none anyway when stderr is not a terminal)")
    add_path_argument(s, "--roms", role=ROM_FOLDER, metavar="DIR",
                   help="play on the whole C64 with the real KERNAL and BASIC ROMs from DIR (default: "
                   "$ASM6502_ROMS, then VICE's C64 directories; about 0.25 CPU s a game)")
    s.add_argument("--no-roms", action="store_true", help="use the ROM stubs even when ROM images are found")
    add_model_arguments(s)
    s.add_argument("--require-claim", action="store_true",
                   help="also fail (exit 1) when a secret needs more than six guesses")
    return p


def _verify_superhirn(args: argparse.Namespace, plan: Files) -> int:
    """*plan*: the gate, given the command line's files by their roles."""
    prg = plan.read(args.prg, MAX_PRG_BYTES, "C64 program")
    Machine().load_prg(prg, name=args.prg)  # a bad file is a diagnostic before any game
    _check_loads_at(prg, args.prg, superhirn.SYS_ADDRESS, "Superhirn II")
    from asm6502.emu.c64.roms import find_roms

    lookup = None if args.no_roms else find_roms(args.roms, files=plan)
    roms = None
    if lookup is not None:
        print(f"asm6502 verify: note: {lookup.note()}", file=sys.stderr)
        if lookup.roms is not None:
            from asm6502.emu.c64.session import images

            roms = images(lookup.roms)
    if roms is None and args.model != models.DEFAULT.name:
        raise DiagnosticError([error(f"--model {args.model} is the whole C64's: it needs the C64 ROM images "
                                     "(--roms DIR), the ROM stubs play on the default model")])
    total = len(args.secrets) if args.secrets else 6 ** superhirn.POSITIONS
    bar = None
    if not args.no_progress and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", desc="superhirn", file=sys.stderr, leave=False)
    try:
        report = superhirn.sweep(prg, args.secrets, jobs=args.jobs,
                                 progress=(lambda _record: bar.update(1)) if bar else None, roms=roms,
                                 model=machine_model(args))
    finally:
        if bar is not None:
            bar.close()
    text = json.dumps(report.to_json(), indent=2) + "\n" if args.json else report.render() + "\n"
    if args.output:
        plan.add(args.output, text, "report")
        plan.commit()
    else:
        write_stdout(text)
    if not report.all_passed:
        return 1
    if args.require_claim and not report.claim_holds:
        return 1
    return 0


def _check_loads_at(prg: bytes, name: str, start: int, game: str) -> None:
    """The program must hold the game's start address (it is started with SYS there): another
    program would only play games of "BRK at $xxxx"."""
    load = int.from_bytes(prg[:2], "little")
    end = load + len(prg) - 2
    if not load <= start < end:
        raise DiagnosticError([error(f"{name} loads at ${load:04X}-${end - 1:04X}; {game} starts at ${start:04X} "
                                     f"(SYS {start}): is it the right program?")])


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: _verify_superhirn(args, gate(parser, args)), prog=command_name(parser, args))
