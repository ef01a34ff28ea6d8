"""``asm6502 publish PRG --format NAME -o DIR``: a program laid out as a magazine printed it,
and ``--check``: the page read back, the lines a reader is likely to misread."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

from asm6502.cli.common import Parser, add_path_argument, command_name, count_arg, gate, guarded, read_program
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import (
    INPUT,
    MAX_IMAGE_BYTES,
    OUTPUT_FOLDER,
    ROM_FOLDER,
    Files,
    scratch_folder,
    write_atomic,
    write_stdout,
)
from asm6502.typein.formats import FORMATS, TypeinFormat
from asm6502.typein.publish import glyphs
from asm6502.typein.publish.check import check, report
from asm6502.typein.publish.page import lay_out
from asm6502.typein.publish.render import html_page, page_name, svg

if TYPE_CHECKING:
    from asm6502.emu.c64.roms import RomSet

DEFAULT_FORMAT = {"machine-code": "mse-1.0", "basic-prg": "checksummer-3"}
# librsvg's converter (Debian: librsvg2-bin): several SVG pages in, one PDF out, with the page size of
# the SVG; a system package (not a Python dependency the project would carry, as cairosvg would be,
# which needs cairo besides); it honours SOURCE_DATE_EPOCH, so the same pages give the same PDF
PDF_TOOL = "rsvg-convert"
SCREENSHOT_CYCLES = 20_000_000  # about 20 s of C64 time: a program's first screen is up by then

DESCRIPTION = f"""\
Lay a C64 program (.prg: BASIC or machine code) out for print in a type-in format, as the
magazines printed it: a header (title, where it loads and how it starts, the checking program
to type it in with), the format's lines with their checksums in one column, in columns and pages,
a footer on each page. Written into DIR: page-N.svg (each page), listing.html (the pages and the
listing's text to copy), listing.txt (the pages' text as a reader or OCR sees it); with --pdf
listing.pdf ({PDF_TOOL} makes it), with --d64 a disk with the program, with --screenshot a
picture of the program running on the C64: with the ROM images (--roms DIR) the real KERNAL
starts it; without them a machine-code program runs on the project's stub ROMs (as 'asm6502
run' runs it), and the picture has no characters unless --chargen gives the character ROM.

The C64's characters are drawn from the character ROM when one is given (--chargen FILE or
--roms DIR); without, from this project's own glyphs (slashed zero), said on every page.

--check reads the page's text back with the format's reader and passes when it gives the identical
program; it then misreads every line in the likely ways (look-alike glyphs, swapped neighbours),
reads each again and names the lines where a misreading passes the checksum, with a safer way to
write them (--quick: the read-back only). Exit 1 when the page does not read back.

Formats: {", ".join(FORMATS)}.

  asm6502 publish build/superhirn.prg --format mse-1.0 --title "Superhirn II" -o superhirn
  asm6502 publish build/highiq.prg --format checksummer-3 --title "High IQ" --check
"""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="asm6502 publish", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_path_argument(p, "prg", role=INPUT, what="C64 program", metavar="PRG", help="the program (.prg)")
    p.add_argument("--format", choices=sorted(FORMATS), metavar="NAME",
                   help="the type-in format (default: mse-1.0 for machine code, checksummer-3 for BASIC)")
    add_path_argument(p, "-o", "--output", role=OUTPUT_FOLDER, metavar="DIR",
                      help="write the pages and the rest into this folder (made if missing)")
    p.add_argument("--title", help="the listing's title (default: the program file's name)")
    p.add_argument("--name", help="the program's name in the listing and on the disk (default: the file's "
                   "name in capitals)")
    add_path_argument(p, "--chargen", role=INPUT, what="character ROM", metavar="FILE",
                      help="draw the characters from this 4 KB character ROM image")
    add_path_argument(p, "--roms", role=ROM_FOLDER, metavar="DIR",
                      help="the C64's ROM images: the character ROM for the glyphs, all three for --screenshot")
    p.add_argument("--pdf", action="store_true", help=f"also listing.pdf, the pages made into one PDF by {PDF_TOOL}")
    p.add_argument("--d64", action="store_true", help="also NAME.d64, a disk holding the program")
    p.add_argument("--screenshot", action="store_true",
                   help="also screenshot.png: the program started on the C64 (with --roms; without, machine code "
                   "on the stub ROMs), after --cycles")
    p.add_argument("--type", action="append", default=[], metavar="KEYS",
                   help="with --screenshot: type KEYS after the start (\\r = RETURN; on the stubs the keys CHRIN and "
                   "GETIN read); may be repeated")
    p.add_argument("--cycles", type=count_arg, default=SCREENSHOT_CYCLES, metavar="N",
                   help=f"with --screenshot: clock cycles run after the start (default {SCREENSHOT_CYCLES:,})")
    p.add_argument("--check", action="store_true", help="read the page back and name the lines likely to be misread")
    p.add_argument("--quick", action="store_true", help="with --check: only the read-back, no misreadings tried")
    return p


def _format(args: argparse.Namespace, kind: str) -> TypeinFormat:
    name = args.format or DEFAULT_FORMAT[kind]
    fmt = FORMATS[name]
    if fmt.program and fmt.program != kind:
        fitting = ", ".join(n for n, f in FORMATS.items() if f.program in ("", kind))
        what = "a BASIC program" if kind == "basic-prg" else "machine code"
        raise DiagnosticError([error(f"{args.prg} is {what}; {name} prints "
                                     f"{'BASIC' if fmt.program == 'basic-prg' else 'machine code'}: use one of {fitting}")])
    return fmt


def _glyphs(args: argparse.Namespace, files: Files) -> tuple[glyphs.GlyphSet, RomSet | None, bytes | None]:
    """The glyphs the pages are drawn with (--chargen, else --roms' character ROM, else the fallback),
    the ROM set of --roms (None without) and the character ROM of --chargen (None without)."""
    roms = None
    if args.roms:
        from asm6502.emu.c64.roms import load_dir

        roms = load_dir(args.roms, files)
    if args.chargen:
        rom = files.read(args.chargen, glyphs.CHARGEN_SIZE + 1, "character ROM", regular=True)
        if len(rom) != glyphs.CHARGEN_SIZE:
            raise DiagnosticError([error(f"{args.chargen}: a character ROM image has {glyphs.CHARGEN_SIZE:,} bytes, "
                                         f"this file {len(rom):,}")])
        return glyphs.chargen_set(rom, os.path.basename(args.chargen)), roms, rom
    if roms is not None:
        return glyphs.chargen_set(roms.chargen, f"of {os.path.basename(os.path.normpath(args.roms))}"), roms, None
    return glyphs.fallback_set(), None, None


def _pdf(svgs: list[tuple[str, str]]) -> bytes:
    tool = shutil.which(PDF_TOOL)
    if tool is None:
        raise DiagnosticError([error(f"--pdf needs {PDF_TOOL} (Debian and Ubuntu: apt install librsvg2-bin); "
                                     "nothing was written")])
    with scratch_folder() as tmp:
        names = []
        for name, text in svgs:
            path = os.path.join(tmp, name)
            write_atomic(path, text)  # (the gate: a scratch folder of this run only)
            names.append(path)
        out = os.path.join(tmp, "listing.pdf")
        env = dict(os.environ, SOURCE_DATE_EPOCH="0")  # no creation date in the file: the same pages, the same PDF
        proc = subprocess.run([tool, "-f", "pdf", "-o", out, *names], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise DiagnosticError([error(f"{PDF_TOOL} failed: {proc.stderr.strip()[:300]}")])
        return Files().read(out, MAX_IMAGE_BYTES, "PDF")


def _screenshot(args: argparse.Namespace, roms: RomSet | None, prg: bytes, kind: str,
                chargen: bytes | None) -> tuple[bytes, str | None]:
    """The PNG of the program running, and a note on what it lacks (on the stub ROMs)."""
    if roms is None:
        return _stub_screenshot(args, prg, kind, chargen)
    return _c64_screenshot(args, roms, prg), None


def _stub_screenshot(args: argparse.Namespace, prg: bytes, kind: str, chargen: bytes | None) -> tuple[bytes, str]:
    """Machine code on the project's stub ROMs, as 'asm6502 run' runs it: from the SYS address of a
    BASIC start line, else from the load address, --type's keys for CHRIN and GETIN, until it
    returns, waits for a line with no keys left, or has run --cycles."""
    from asm6502.disasm.basic_stub import find_stub
    from asm6502.emu import harness
    from asm6502.emu.c64 import screen, session

    if kind == "basic-prg":
        raise DiagnosticError([error(f"--screenshot: {args.prg} is a BASIC program, and BASIC runs on the C64's own "
                                     "ROMs only: give the ROM images with --roms DIR")])
    machine = harness.Machine(chargen=chargen)
    load, _end = machine.load_prg(prg, name=args.prg)
    stub = find_stub(prg[2:], load)
    for keys in args.type:
        machine.feed(session.typed_keys(keys))
    result = machine.run(stub.sys_address if stub is not None else load, harness.DEFAULT_BUDGET, max_cycles=args.cycles)
    if result.reason not in (harness.StopReason.RETURNED, harness.StopReason.CYCLES, harness.StopReason.INPUT_NEEDED):
        raise DiagnosticError([error(f"--screenshot on the stub ROMs: {result.reason.value}: {result.message} (PC "
                                     f"${result.pc:04X}); no screenshot of it is written (the ROM images, --roms DIR, "
                                     "run any program)")])
    if chargen is None:
        lacks = screen.NO_CHARGEN
    else:
        lacks = (f"on the stub ROMs with the characters of {os.path.basename(args.chargen)}: the stubs' CHROUT prints "
                 "its text instead of writing it to the screen, so only what the program puts into screen memory "
                 "shows (give the ROM images with --roms)")
    return screen.screenshot(machine.c64, settled=result.ok), lacks


def _c64_screenshot(args: argparse.Namespace, roms: RomSet, prg: bytes) -> bytes:
    from asm6502.emu.c64 import screen, session

    machine = session.boot(session.images(roms))
    session.start_program(machine, prg)
    for keys in args.type:
        machine.type_text(session.typed_keys(keys))
    stop = machine.run(args.cycles, None, None, stop_when_polling=True)
    if stop.reason == "halt":  # (a jammed CPU, a program that ran into a ROM-less trap: no picture of it running)
        raise DiagnosticError([error(f"--screenshot: {stop.message}; the program does not run, so no screenshot "
                                     "of it is written")])
    return screen.screenshot(machine)


def _d64(name: str, prg: bytes) -> bytes:
    from asm6502.d64 import DiskImage, petscii_name

    disk = DiskImage.format(petscii_name(name[:16], what="disk name"), b"64", origin="<publish>")
    disk.add_file(petscii_name(name[:16]), prg)
    return disk.to_bytes()


def _publish(args: argparse.Namespace, files: Files) -> int:
    if not args.output and not args.check:
        raise DiagnosticError([error("give -o DIR (where the pages go), --check, or both")])
    if (args.pdf or args.d64 or args.screenshot) and not args.output:
        raise DiagnosticError([error("--pdf, --d64 and --screenshot write into the output folder: give -o DIR")])
    prg, kind = read_program(files, args.prg)
    if len(prg) < 3:
        raise DiagnosticError([error(f"{args.prg}: no program after the load address")])
    fmt = _format(args, kind.name)
    stem = os.path.splitext(os.path.basename(args.prg))[0]
    name = args.name or stem.upper()
    title = args.title or stem
    glyph_set, roms, chargen = _glyphs(args, files)
    pub = lay_out(fmt, prg, kind.name, title, name)
    code = 0
    if args.check:
        result = check(pub, prg, misread=not args.quick)
        write_stdout(report(result, pub, args.prg))
        code = 0 if result.ok else 1
    if args.output and code:
        print("asm6502 publish: the page does not read back to the program; nothing written", file=sys.stderr)
    elif args.output:
        out = args.output
        pages = [(page_name(p), svg(pub, p, glyph_set)) for p in pub.pages]
        for page, text in pages:
            files.add(os.path.join(out, page), text, "page", make_parent=True)
        files.add(os.path.join(out, "listing.html"), html_page(pub, glyph_set), "HTML page", make_parent=True)
        files.add(os.path.join(out, "listing.txt"), pub.text(), "page text", make_parent=True)
        if args.pdf:
            files.add(os.path.join(out, "listing.pdf"), _pdf(pages), "PDF", make_parent=True)
        if args.d64:
            files.add(os.path.join(out, f"{stem}.d64"), _d64(name, prg), "disk image", make_parent=True)
        lacks = None
        if args.screenshot:
            picture, lacks = _screenshot(args, roms, prg, kind.name, chargen)
            files.add(os.path.join(out, "screenshot.png"), picture, "screenshot", make_parent=True)
        done = files.commit()
        print(f"wrote {out}: {', '.join(os.path.basename(path) for path, _ in done)} ({fmt.name}, "
              f"{len(pub.pages)} page{'s' if len(pub.pages) != 1 else ''})", file=sys.stderr)
        if lacks is not None:
            print(f"asm6502 publish: note: screenshot.png: {lacks}", file=sys.stderr)
    return code


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: _publish(args, gate(parser, args)), prog=command_name(parser, args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
