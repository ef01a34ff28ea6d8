"""``asm6502 run`` on the C64 with the real ROMs (``--roms``): boot, load,
type, run until a stop condition, print the screen, write a screenshot."""

from __future__ import annotations

import argparse
import sys
import time

from asm6502.emu.c64 import screen, session
from asm6502.emu.c64.roms import RomSet
from asm6502.emu.harness import petscii_to_text, text_to_keys


def run_on_c64(args: argparse.Namespace, roms: RomSet) -> int:
    from asm6502 import filetype
    from asm6502.diagnostics import DiagnosticError, error
    from asm6502.emu.c64.drive import Disk
    from asm6502.fileio import MAX_PRG_BYTES, OutputPlan, read_input, read_text

    plan = OutputPlan()
    prg = None
    if args.prg is not None:
        prg = read_input(args.prg, MAX_PRG_BYTES, "C64 program")
        if len(prg) < 2:
            raise DiagnosticError([error(f"{args.prg}: a .prg file needs a 2-byte load address")])
        kind = filetype.sniff_program(prg, args.prg, want="any")  # a BASIC .prg runs too
        if kind is not None:
            raise DiagnosticError([error(f"{args.prg} is {kind.what}; {kind.hint}")])
        plan.add_input(args.prg, "program")
    disk = None
    if args.disk is not None:
        disk = Disk.open(args.disk)
        plan.add_input(args.disk, "disk")
    keys = [session.typed_keys(t) for t in args.type]
    if args.input is not None:
        keys.append(text_to_keys(read_text(args.input, what="input"), args.input))
        if args.input != "-":
            plan.add_input(args.input, "input")
    if args.screenshot:
        plan.check(args.screenshot, "screenshot")
    spec = session.RunSpec(args.cycles or session.DEFAULT_CYCLES, args.until_text, args.until_pc)
    interactive = args.input is None and not args.type and sys.stdin.isatty() and not spec.has_condition

    started = time.perf_counter()
    machine = session.boot(session.images(roms), disk=disk, keyboard_mode=args.keyboard)
    boot_cycles = machine.cpu.cycles
    if prg is not None:
        session.start_program(machine, prg, args.sys)
    for k in keys:
        machine.type_text(k)
    first = machine.cpu.cycles
    stop = machine.run(spec.cycles, spec.until_text, spec.until_pc)
    while interactive and stop.reason == "idle":
        sys.stdout.write("\x1b[H\x1b[2J" + screen.screen_text(machine))
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            break
        machine.type_text(text_to_keys(line if line.endswith("\n") else line + "\n", "<stdin>"))
        stop = machine.run(spec.cycles - (machine.cpu.cycles - first), spec.until_text, spec.until_pc)
    elapsed = time.perf_counter() - started
    if args.transcript:
        text = petscii_to_text(bytes(machine.transcript))
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
    else:
        sys.stdout.write(screen.screen_text(machine))
    if args.screenshot:
        plan.add(args.screenshot, screen.screenshot(machine), "screenshot")
        plan.commit()
    code = session.exit_code(stop, spec)
    if args.stats or code:
        total = machine.cpu.cycles
        print(f"asm6502 run: {stop.reason}: {stop.message} (PC ${machine.cpu.pc:04X}, {total:,} cycles, "
              f"boot {boot_cycles:,}; {total / max(elapsed, 1e-9):,.0f} cycles/s, "
              f"{total / max(elapsed, 1e-9) / 985_248:.2f} x a PAL C64)", file=sys.stderr)
    return code
