"""``asm6502 run PRG``: run a program on the C64 machine -- on the project's stub ROMs
(``asm6502.emu.harness``), or with the real ROM images when they are found (``--roms``)."""

from __future__ import annotations

import argparse
import errno
import sys
from dataclasses import replace

from asm6502 import filetype
from asm6502.cli.common import (
    Parser,
    add_model_arguments,
    add_path_argument,
    address_arg,
    command_name,
    count_arg,
    gate,
    guarded,
    machine_model,
    read_program,
)
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.c64 import screen as pictures
from asm6502.emu.c64.roms import ENV_VAR, find_roms
from asm6502.emu.c64.session import DEFAULT_CYCLES
from asm6502.emu.c64.vic import CYCLES_PER_FRAME
from asm6502.emu.harness import (
    DEFAULT_BUDGET,
    NO_CYCLE_LIMIT,
    Machine,
    MachineOptions,
    StopReason,
    text_to_keys,
)
from asm6502.fileio import DISK_IMAGE_OR_FOLDER, INPUT, ROM_FOLDER, SCREENSHOT, Files
from asm6502.petscii import petscii_to_text

CLR = 0x93  # PETSCII clear screen (CHROUT $FFD2 clears the screen and homes the cursor)

EPILOG = """\
The program runs as after LOAD and SYS on a C64 (its VIC-II, CIAs and SID, the
timer interrupt 60 times a second) whose ROMs are the project's stubs: its final
RTS ends the run. The ROM routines it may call are CHROUT $FFD2, CHRIN $FFCF
(line input, like the screen editor), GETIN $FFE4 and BASIC's STROUT $AB1E;
interrupts go through $FF48 and the vectors $0314/$0316 to $EA31/$EA81 as on a
C64. A call into any other ROM address stops the run with an error naming it.
--cycles N stops a program that never returns (a raster loop, say) after N
clock cycles, a success (exit 0). --screenshot writes the screen as the VIC-II
shows it when the program has returned, or after those cycles (what it put in
screen memory and the registers: border, background, bitmaps, colours line by
line; CHROUT's text is printed, not drawn, and without the character ROM there
are no characters); --screenshot-at and --strip take it on the way, counted from
the program's start. --model and --cia pick the chips as on the C64, --until-pc
ADDR stops there (a success; returning first is not), --transcript leaves the
typed lines out of what is printed; --disk, --type and --until-text need the
ROM images.

Interactive (stdin is a terminal, no --input): type your answers, RETURN ends
a line. Scripted: --input FILE (or a pipe on stdin) supplies the keystrokes;
the screen is printed with the typed lines echoed.

examples:
  asm6502 run build/superhirn.prg                 # play: SYS 13312 is the load address
  asm6502 run build/superhirn.prg --input examples/answers.txt
  printf '1\\n1\\n' | asm6502 run build/superhirn.prg
exit status: 0 when the program returned with RTS (or ran its --cycles), 1 otherwise.

With the C64's ROM images (--roms DIR, the environment variable ASM6502_ROMS,
or a VICE installation's C64 directory) the program runs on a whole C64
instead: the real KERNAL and BASIC boot to READY., the .prg is put in memory
and started with RUN or SYS, --type and --input are typed on its keyboard,
device 8 is --disk (a .d64 or a folder). At the end the text screen is
printed (--transcript: what went through CHROUT instead); --screenshot
writes a PNG. PRG may be left out: then only the typed keys run. Without
--type/--input in a terminal the C64 runs in real time and you type on it
(Ctrl-D ends); piped keys need --input -.

A folder as --disk is a disk as an SD2IEC shows one: first its files
(NAME.prg, .seq, .usr as NAME of that type, any other file under its whole
name as a PRG), then the files of each .d64 image in it, in name order; a
name already listed hides a later file of that name. So a test program
beside the .d64 that holds its data finds both.

  asm6502 run --roms ~/vice/C64 build/superhirn.prg --type '1\\r1\\r' --screenshot s.png
  asm6502 run --roms ~/vice/C64 --disk build/asm6502.d64 --type 'LOAD"HIGH IQ",8\\rRUN\\r'
exit status on the C64: 0 the --until condition was met (without one: the
program waits for a key and nothing is left to type); 1 the CPU stopped
(JAM, undocumented opcode); 3 the cycle limit came first (before the --until
condition, or the default limit: with --cycles N alone, running N cycles is the
goal, 0); 4 the program waits for a key, nothing is left to type, and the --until
condition was not met. --cycles counts from the end of the boot.

Headless tests as VICE runs them (x64sc -debugcart): a write to $D7FF ends
the run at once with the value written as the exit status (VICE's test
programs write 0 for a pass, $FF for a failure), and VICE's spellings of
the options are accepted: -keybuf (--type), -limitcycles (--cycles),
-exitscreenshot (--screenshot), with one dash or two.

  asm6502 run --roms ~/vice/C64 mytest.prg -limitcycles 20000000 -exitscreenshot end.png"""


def moment_arg(text: str) -> int:
    """A moment of a run in cycles after the boot: N cycles, or Nf the end of frame N."""
    frames = text.endswith(("f", "F"))
    n = count_arg(text[:-1] if frames else text)
    return n * CYCLES_PER_FRAME if frames else n


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="asm6502 run",
        description="Run a C64 machine-code .prg on the C64 machine (py65's 6502 with the VIC-II and CIAs), with the project's KERNAL/BASIC stubs or the real ROMs.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_path_argument(p, "prg", role=INPUT, what="C64 program", metavar="PRG", nargs="?",
                   help=".prg file (2-byte load address + code); optional on the C64 (--roms)")
    p.add_argument("--sys", type=address_arg, metavar="ADDR",
                   help="start address, e.g. 13312, $3400 or 0x3400 (default: the SYS address of a BASIC start line, else the load address)")
    add_path_argument(p, "--input", role=INPUT, what="keystrokes", metavar="FILE",
                   help="keystrokes for CHRIN/GETIN from FILE ('-' = stdin); newline = RETURN")
    p.add_argument("--max-instructions", type=count_arg, default=DEFAULT_BUDGET, metavar="N",
                   help=f"stop after N 6502 instructions (default {DEFAULT_BUDGET:,})")
    p.add_argument("--stats", action="store_true", help="print the stop reason and instruction count on stderr")
    c64 = p.add_argument_group("on the C64 with its real ROMs")
    add_path_argument(c64, "--roms", role=ROM_FOLDER, metavar="DIR",
                     help="directory with the BASIC, KERNAL and character ROM images (default: "
                     "$ASM6502_ROMS, then VICE's C64 directories)")
    c64.add_argument("--no-roms", action="store_true", help="use the stubs even when ROM images are found")
    add_path_argument(c64, "--disk", role=DISK_IMAGE_OR_FOLDER, metavar="D64|DIR", help="device 8: a .d64 image, or a folder: its files, then those of the .d64 images in it")
    c64.add_argument("--type", "--keybuf", "-keybuf", dest="type", action="append", default=[], metavar="KEYS",
                     help="type KEYS (\\r = RETURN, \\xNN = a PETSCII code); may be repeated")
    c64.add_argument("--keyboard", choices=("buffer", "matrix"), default="buffer",
                     help="typing goes into the KERNAL's keyboard buffer (default, like VICE's -keybuf) "
                     "or is pressed on the keyboard matrix")
    add_model_arguments(c64, cia=True)
    c64.add_argument("--cycles", "--limitcycles", "-limitcycles", dest="cycles", type=count_arg, metavar="N",
                     help=f"stop after N clock cycles (985,248 a second): on the C64 counted from the end of the boot "
                     f"(default {DEFAULT_CYCLES:,}), on the stubs from the program's start (a success there)")
    c64.add_argument("--until-text", metavar="TEXT", help="stop when the screen shows TEXT")
    c64.add_argument("--until-pc", type=address_arg, metavar="ADDR", help="stop when the PC reaches ADDR")
    add_path_argument(c64, "--screenshot", "--exitscreenshot", "-exitscreenshot", dest="screenshot", role=SCREENSHOT, metavar="PNG",
                      help="write the final screen as a PNG picture")
    c64.add_argument("--screenshot-at", type=moment_arg, metavar="WHEN",
                     help="the screenshot shows the screen at WHEN instead of at the end: N cycles after the boot (on the "
                     "stubs: after the program's start), or Nf the end of the N-th frame after it (19,656 cycles a "
                     "frame); the run goes on after it")
    c64.add_argument("--strip", type=count_arg, metavar="FRAMES", default=1,
                     help="the screenshot holds FRAMES pictures side by side, one frame apart from --screenshot-at on")
    c64.add_argument("--transcript", action="store_true",
                     help="print what went through CHROUT to the screen instead of the final screen")
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


class _Stream:
    """Scripted output as it comes: the program runs a slice of instructions at a time and the
    screen (output with the typed lines echoed) is written after each slice, so memory stays flat
    and a reader that has gone (``| head``) stops the run within a slice."""

    SLICE = 1_000_000  # instructions (about a second of the emulator at its slowest)

    def __init__(self, stream, machine: Machine, until_pc: int | None = None, transcript: bool = False):
        self.stream = stream
        self.machine = machine
        self.until_pc = until_pc  # --until-pc: the run stops there
        self.transcript = transcript  # --transcript: the CHROUT bytes alone, without the typed lines
        self.last = "\n"

    def flush(self) -> None:
        """Write what the program printed since the last slice. CLR ($93) clears nothing in a
        file: it ends the current line, or is dropped at the start of one (as 'basic run'
        prints it), instead of a literal {clr}."""
        parts: list[str] = []
        last = self.last
        for k, chunk in enumerate(self.machine.take_screen(self.transcript).split(bytes([CLR]))):
            if k and last != "\n":  # a CLR after text on the current line
                parts.append("\n")
                last = "\n"
            text = petscii_to_text(chunk, ansi=False)
            if text:
                parts.append(text)
                last = text[-1]
        if parts:
            self.stream.write("".join(parts))
            self.stream.flush()
            self.last = last

    def run(self, start: int | None, budget: int, cycles: int = NO_CYCLE_LIMIT):
        """Machine.run in slices (*start* None: Machine.resume); the result as one run of *budget*
        instructions (and at most *cycles* clock cycles) would give it."""
        machine = self.machine
        cpu = machine.cpu
        end = cpu.cycles + cycles
        until = self.until_pc
        result = (machine.run(start, min(self.SLICE, budget), max_cycles=cycles, until_pc=until) if start is not None
                  else machine.resume(min(self.SLICE, budget), max_cycles=cycles, until_pc=until))
        done = result.instructions
        while result.reason is StopReason.BUDGET and done < budget:
            self.flush()
            result = machine.resume(min(self.SLICE, budget - done), max_cycles=end - cpu.cycles, until_pc=until)
            done += result.instructions
        self.flush()

        if result.reason is StopReason.BUDGET:
            result = replace(result, message=f"instruction budget of {budget:,} used up")
        return replace(result, instructions=done)


def _run_with_pictures(stream: _Stream, entry: int, args: argparse.Namespace, cycles: int):
    """The scripted run on the stubs, as ``_Stream.run``; with --screenshot-at (cycles after the
    program's start) and --strip, the pictures taken on the way, a frame apart, then the run goes
    on to its end.  A run that ends before a picture's moment leaves that picture out (the
    caller takes the final screen when none was taken).  Returns (result, pictures)."""
    budget = args.max_instructions
    if args.screenshot_at is None and args.strip == 1:
        return stream.run(entry, budget, cycles), []
    machine = stream.machine
    begin = machine.cpu.cycles
    end = begin + cycles
    frames: list[list[bytearray]] = []
    done = 0
    start: int | None = entry  # (None once running: the next part resumes)
    for k in range(args.strip):
        at = min(begin + (args.screenshot_at or 0) + k * CYCLES_PER_FRAME, end)
        if at > machine.cpu.cycles:
            part = stream.run(start, budget - done, at - machine.cpu.cycles)
            start, done = None, done + part.instructions
            if part.reason is not StopReason.CYCLES or machine.cpu.cycles >= end:
                return _whole(part, done, budget), frames
        frames.append(pictures.render(machine.c64))
    part = stream.run(start, budget - done, max(end - machine.cpu.cycles, 1))
    return _whole(part, done + part.instructions, budget), frames


def _whole(part, done: int, budget: int):
    """The last part's result as the whole run's: its instructions, its budget."""
    message = f"instruction budget of {budget:,} used up" if part.reason is StopReason.BUDGET else part.message
    return replace(part, instructions=done, message=message)


def _run(args: argparse.Namespace, files: Files) -> int:
    """*files*: the gate, given the command line's files by their roles (the ROM images it finds
    are its inputs too)."""
    if (args.screenshot_at is not None or args.strip != 1) and not args.screenshot:
        raise DiagnosticError([error("--screenshot-at and --strip say when to take the --screenshot: name its PNG")])
    lookup = None if args.no_roms else find_roms(args.roms, files=files)
    if lookup is not None and lookup.roms is not None:
        from asm6502.cli.run_c64 import run_on_c64

        return run_on_c64(args, lookup.roms, files)
    # what the stubs cannot do as the ROMs do: a disk (the KERNAL's serial bus and LOAD), typing
    # (the KERNAL's keyboard buffer and screen editor), text on the screen (the stubs' CHROUT
    # prints, it puts nothing in screen memory); --cia, --until-pc and --transcript they can
    machine_only = [name for name, value in (("--disk", args.disk), ("--type", args.type),
                                             ("--until-text", args.until_text)) if value]
    if machine_only or args.prg is None:
        what = ", ".join(machine_only) or "running without a PRG"
        if lookup is None:
            raise DiagnosticError([error(f"{what} needs the C64 ROM images, and --no-roms was given")])
        raise DiagnosticError([error(f"{what} needs the C64 ROM images, and none were found ({lookup.reason}): "
                                     f"give them with --roms DIR or {ENV_VAR}=DIR")])
    return _run_stubbed(args, files, lookup.note() if lookup is not None else None)


def _run_stubbed(args: argparse.Namespace, files: Files, note: str | None = None) -> int:
    data, _ = read_program(files, args.prg, texts=True)
    kind = filetype.sniff_program(data, args.prg, want="machine-code")
    if kind is not None:
        raise DiagnosticError([error(f"{args.prg} is {kind.what}; {kind.hint}")])
    # said once the program is accepted (a refused file gets one error line), to a person
    # watching the terminal or asking for --stats; a scripted run's stderr stays as it was
    if note is not None and (args.stats or sys.stderr.isatty()):
        print(f"asm6502 run: note: {note}", file=sys.stderr)
    if sys.stdout is None:  # started with standard output closed (>&-)
        raise OSError(errno.EBADF, "standard output is closed", "<stdout>")
    terminal = args.input is None and sys.stdin is not None and sys.stdin.isatty()
    # pictures on the way (--screenshot-at, --strip): the run is scripted, with the keys of --input only
    interactive = terminal and args.screenshot_at is None and args.strip == 1
    screen = _TerminalScreen(sys.stdout, ansi=sys.stdout.isatty()) if interactive else None
    machine = Machine(MachineOptions(getin_waits=interactive, model=machine_model(args)),
                      on_output=screen.put if screen else None)
    start, _end = machine.load_prg(data, name=args.prg)
    entry = args.sys
    if entry is None:  # from a BASIC start line's SYS address, as RUN would go there; else the load address
        from asm6502.disasm.basic_stub import find_stub

        stub = find_stub(data[2:], start)
        entry = start if stub is None else stub.sys_address
        if stub is not None and (args.stats or sys.stderr.isatty()):
            print(f"asm6502 run: note: started at ${entry:04X}, the SYS address of BASIC line {stub.line_number}",
                  file=sys.stderr)
    cycles = NO_CYCLE_LIMIT if args.cycles is None else args.cycles
    end = machine.cpu.cycles + cycles
    frames: list[list[bytearray]] = []  # the pictures taken on the way (--screenshot-at, --strip)
    if interactive:
        result = machine.run(entry, args.max_instructions, max_cycles=cycles, until_pc=args.until_pc)
    else:
        text = "" if terminal else files.text(args.input or "-", what="input")
        machine.feed(text_to_keys(text, args.input or "<stdin>"))
        stream = _Stream(sys.stdout, machine, args.until_pc, args.transcript)
        result, frames = _run_with_pictures(stream, entry, args, cycles)
    total = result.instructions
    waited = False
    while interactive and result.reason is StopReason.INPUT_NEEDED:
        screen.flush()
        if not waited and result.message.startswith("CHRIN"):  # a C64 shows its cursor here; say what it means
            waited = True
            fresh_line = not machine.output or machine.output[-1] in (0x0D, 0x8D)
            print(("" if fresh_line else "\n") + "(the program waits for a line: type it and press RETURN; Ctrl-D ends the run)", file=sys.stderr)
        line = sys.stdin.readline()
        if not line:
            break
        screen.swallow_cr = True
        machine.feed(text_to_keys(line if line.endswith("\n") else line + "\n", "<stdin>"))
        result = machine.resume(args.max_instructions, max_cycles=end - machine.cpu.cycles, until_pc=args.until_pc)
        total += result.instructions
    if interactive:
        screen.flush()
        if not petscii_to_text(machine.output).endswith("\n"):
            print()
    else:
        if stream.last != "\n":
            sys.stdout.write("\n")
    if args.until_pc is not None:  # (the condition asked for, as on the C64: met or not)
        ok = result.reason is StopReason.PC
    else:
        ran_out = args.cycles is not None and result.reason is StopReason.CYCLES  # (what --cycles N asked for)
        ok = result.ok or ran_out
    if args.stats or not ok:
        message = result.message
        if result.reason is StopReason.INPUT_NEEDED:
            message = f"the input ended: {message}"
        if args.until_pc is not None and not ok:
            message = f"{message}; the PC did not reach ${args.until_pc:04X}"
        hint = ("; a program that never returns (a raster loop, say) is stopped after N clock cycles, "
                "a success, by --cycles N" if result.reason is StopReason.BUDGET and args.cycles is None else "")
        print(f"asm6502 run: {'note' if ok else 'error'}: {result.reason.value}: {message} (PC ${result.pc:04X}, "
              f"{total:,} instructions){hint}", file=sys.stderr)
    if args.screenshot and ok:  # (a failed run leaves no output)
        # a program that returned changes the chips no more: the next whole frame; one stopped
        # after its cycles: the frame as the raster drew it up to then (the rest from the last one)
        picture = (pictures.png(pictures.side_by_side(frames)) if frames
                   else pictures.screenshot(machine.c64, settled=result.ok))
        files.add(args.screenshot, picture, "screenshot")
        files.commit()
        print(f"asm6502 run: note: {args.screenshot}: {pictures.NO_CHARGEN}", file=sys.stderr)
    return 0 if ok else 1


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: _run(args, gate(parser, args)), prog=command_name(parser, args))
