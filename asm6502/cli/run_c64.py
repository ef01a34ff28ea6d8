"""``asm6502 run`` on the C64 with the real ROMs (``--roms``): boot, load,
type, run until a stop condition, print the screen, write a screenshot."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time

from asm6502 import filetype
from asm6502.cli.common import machine_model, read_program
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.c64 import screen, session
from asm6502.emu.c64.drive import Disk
from asm6502.emu.c64.machine import Stop
from asm6502.emu.c64.roms import RomSet
from asm6502.emu.c64.vic import CYCLES_PER_FRAME
from asm6502.emu.harness import text_to_keys
from asm6502.fileio import Files, write_stdout
from asm6502.petscii import petscii_to_text

# Terminal keys -> PETSCII (C64 Programmer's Reference Guide, appendix C).
_TERMINAL_KEYS = {
    "\r": 0x0D, "\n": 0x0D, "\x7f": 0x14, "\b": 0x14,
    "\x1b[A": 0x91, "\x1b[B": 0x11, "\x1b[C": 0x1D, "\x1b[D": 0x9D, "\x1b[H": 0x13,
    "\x1bOP": 0x85, "\x1bOQ": 0x86, "\x1bOR": 0x87, "\x1bOS": 0x88,
}
SLICE = 19_656 * 2  # two frames between looks at the terminal (1/25 s of C64 time)


def _terminal_keys(text: str) -> bytes:
    out = bytearray()
    i = 0
    while i < len(text):
        for seq in sorted(_TERMINAL_KEYS, key=len, reverse=True):
            if text.startswith(seq, i):
                out.append(_TERMINAL_KEYS[seq])
                i += len(seq)
                break
        else:
            ch = text[i]
            if ch == "\u00a3" or "a" <= ch.lower() <= "z" or 0x20 <= ord(ch) <= 0x5D:
                out += text_to_keys(ch)  # other keys the C64 does not have are ignored
            i += 1
    return bytes(out)


def _interactive(machine, spec):
    """Real-time use in a terminal: the C64 runs at its own speed (paced by the
    wall clock), the screen is redrawn when it changes, keys typed go into the
    keyboard buffer; Ctrl-D ends the run (Ctrl-C too)."""
    import select
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    shown = None
    start_cycles = machine.cpu.cycles
    start = time.perf_counter()
    stop = None
    try:
        tty.setcbreak(fd)
        while True:
            stop = machine.run(SLICE, spec.until_text, spec.until_pc, stop_when_idle=False)
            if stop.reason != "cycles":
                break
            if machine.cpu.cycles - start_cycles >= spec.cycles:
                break
            text = screen.screen_text(machine)
            if text != shown:
                # home, each line erased to its end, the rest of the screen erased: no flicker
                sys.stdout.write("\x1b[H" + "".join(line + "\x1b[K\r\n" for line in text.split("\n")[:-1])
                                 + "\x1b[J")
                sys.stdout.flush()
                shown = text
            ahead = (machine.cpu.cycles - start_cycles) / 985_248 - (time.perf_counter() - start)
            ready, _, _ = select.select([fd], [], [], max(0.0, ahead))
            if ready:
                data = os.read(fd, 64).decode("utf-8", errors="replace")
                if "\x04" in data:  # Ctrl-D
                    break
                machine.type_text(_terminal_keys(data))
    except KeyboardInterrupt:
        pass
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[H\x1b[2J")
    if stop is not None and stop.reason != "cycles":
        return stop
    return Stop("idle", "the session was ended from the keyboard", machine.cpu.cycles)


def _run_with_pictures(machine, spec: session.RunSpec, args: argparse.Namespace,
                       boot_cycles: int) -> tuple[Stop, list[list[bytearray]]]:
    """Run as asked; with --screenshot-at, take the pictures on the way (at WHEN and, with
    --strip, a frame apart after it), then run on to the end.  A run that stops before a
    picture's moment leaves it out (the final screen is taken when none was)."""
    polling = args.cycles is None
    end = boot_cycles + spec.cycles
    if args.screenshot_at is None and args.strip == 1:
        return machine.run(spec.cycles, spec.until_text, spec.until_pc, stop_when_polling=polling), []
    moment = boot_cycles + (args.screenshot_at or 0)
    pictures: list[list[bytearray]] = []
    for k in range(args.strip):
        at = min(moment + k * CYCLES_PER_FRAME, end)
        if at > machine.cpu.cycles:
            stop = machine.run(at - machine.cpu.cycles, spec.until_text, spec.until_pc, stop_when_polling=polling)
            if stop.reason != "cycles" or machine.cpu.cycles >= end:
                return stop, pictures or [screen.render(machine)]
        pictures.append(screen.render(machine))
    stop = machine.run(max(end - machine.cpu.cycles, 1), spec.until_text, spec.until_pc, stop_when_polling=polling)
    return stop, pictures


def run_on_c64(args: argparse.Namespace, roms: RomSet, files: Files) -> int:
    """*files*: the gate: every input registered as it is read, the screenshot written last."""
    if sys.stdout is None:  # started with standard output closed (>&-): said before the C64 is booted
        raise OSError(errno.EBADF, "standard output is closed", "<stdout>")
    prg = None
    if args.prg is not None:
        prg, _ = read_program(files, args.prg, texts=True)
        if len(prg) < 2:
            raise DiagnosticError([error(f"{args.prg}: a .prg file needs a 2-byte load address")])
        kind = filetype.sniff_program(prg, args.prg, want="any")  # a BASIC .prg runs too
        if kind is not None:
            raise DiagnosticError([error(f"{args.prg} is {kind.what}; {kind.hint}")])
    disk = Disk.load(args.disk, files) if args.disk is not None else None
    keys = [session.typed_keys(t) for t in args.type]
    if args.input is not None:
        keys.append(text_to_keys(files.text(args.input, what="input"), args.input))
    spec = session.RunSpec(args.cycles or session.DEFAULT_CYCLES, args.until_text, args.until_pc)
    interactive = (args.input is None and not args.type and sys.stdin.isatty() and not spec.has_condition
                   and args.screenshot_at is None)

    started = time.process_time()  # the speed --stats tells is per CPU second (a busy machine shares its cores)
    machine = session.boot(session.images(roms), disk=disk, keyboard_mode=args.keyboard,
                           model=machine_model(args))
    boot_cycles = machine.cpu.cycles
    if prg is not None:
        session.start_program(machine, prg, args.sys)
    for k in keys:
        machine.type_text(k)
    pictures: list[list[bytearray]] = []
    if interactive and sys.stdout.isatty():
        stop = _interactive(machine, spec)
    else:
        # an explicit --cycles runs on while a program polls GET in vain (an animation, say)
        stop, pictures = _run_with_pictures(machine, spec, args, boot_cycles)
    elapsed = time.process_time() - started
    if args.transcript:
        text = petscii_to_text(bytes(machine.transcript))
        write_stdout(text if text.endswith("\n") or not text else text + "\n")
    else:
        write_stdout(screen.screen_text(machine))
    if args.screenshot:
        if not pictures:
            pictures = [screen.render(machine)]
        files.add(args.screenshot, screen.png(screen.side_by_side(pictures)), "screenshot")
        files.commit()
    code = session.exit_code(stop, spec)
    if stop.reason == "cycles" and args.cycles is not None and not spec.has_condition:
        code = 0  # (--cycles N alone: running N cycles is what was asked, a screenshot after them say)
    if args.stats or code:
        total = machine.cpu.cycles
        # (--cycles counts from the end of the boot, as the limit does: the boot's own cycles are told apart)
        said = f"the limit of {spec.cycles:,} cycles was reached" if stop.reason == "cycles" else stop.message
        print(f"asm6502 run: {'error' if code else 'note'}: {stop.reason}: {said} (PC ${machine.cpu.pc:04X}, {total - boot_cycles:,} cycles "
              f"after the boot of {boot_cycles:,}; {total / max(elapsed, 1e-9):,.0f} cycles per CPU second, "
              f"{total / max(elapsed, 1e-9) / 985_248:.2f} x a PAL C64)", file=sys.stderr)
    return code
