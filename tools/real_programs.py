#!/usr/bin/env python3
"""Run real C64 programs nobody on the project wrote -- games with raster interrupts, packed
programs that use undocumented opcodes, BASIC programs that read disk files -- on asm6502's
C64 and check that each shows what its author's screenshot or description shows.

The programs come from public repositories and stay outside this one: the manifest
(tests/manifests/real_programs/manifest.jsonl) names each file's repository, commit, path
and git blob id, how the program is run, what its author shows and what the screen must
show. Name the folder that holds the files (flat, under the manifest's names); a file whose
blob id differs is refused, a missing one is named with the ``git show`` that gets it.

Each program runs as ``asm6502 run --roms ROMS [PRG] [--disk D64] --type KEYS --cycles N
--screenshot PNG`` runs it (the command is printed with ``-v``); a program that must be
answered once its screen shows a text (a menu) gets those keys then. The checks:

* ``text``: lines the text screen must show at the end;
* ``undocumented``: opcodes outside the 151 documented ones the CPU must have run (each
  instruction is counted as it runs), so a packed program's use of them is seen, not assumed;
* ``pixels``: the sha256 of the final picture's palette indices (384 x 272, as
  ``--screenshot`` draws it).  The checksum was taken from a run whose picture was compared
  by eye with the author's (``author`` and ``shows`` in the manifest say what both show); a
  change of the emulator that changes the picture fails here: look at the PNG
  (``--pictures DIR``) and take the new checksum with ``--update`` when it still shows what
  the author's does.

usage:
  .venv/bin/python tools/real_programs.py --roms ~/vice/C64 FOLDER
  .venv/bin/python tools/real_programs.py --roms ~/vice/C64 FOLDER telengard interceptor -v
  .venv/bin/python tools/real_programs.py --roms ~/vice/C64 FOLDER --pictures shots
  .venv/bin/python tools/real_programs.py --roms ~/vice/C64 FOLDER --update
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asm6502.diagnostics import DiagnosticError  # noqa: E402
from asm6502.emu.c64 import roms as romlib  # noqa: E402
from asm6502.emu.c64 import screen, session  # noqa: E402
from asm6502.emu.c64.drive import Disk  # noqa: E402
from asm6502.fileio import MAX_PRG_BYTES, Files  # noqa: E402
from asm6502.opcodes import OPCODES  # noqa: E402

MANIFEST = ROOT / "tests" / "manifests" / "real_programs" / "manifest.jsonl"
DOCUMENTED = frozenset(op for modes in OPCODES.values() for op in modes.values())
JAM = 0x02  # (the machine's ROM traps use it; the run stops on it anyway)
KINDS = ("game", "packed", "basic-disk")


@dataclass(frozen=True)
class Program:
    name: str
    kind: str
    files: dict[str, dict[str, str]]  # local name -> repo, commit, path, blob
    prg: str | None
    disk: str | None
    type: list[str]
    when: list[tuple[str, str]]  # (text on the screen, keys typed then)
    cycles: int
    author: str
    shows: str
    text: list[str] = field(default_factory=list)
    undocumented: list[int] = field(default_factory=list)
    pixels: str = ""


@dataclass(frozen=True)
class Outcome:
    name: str
    passed: bool
    failures: list[str]
    undocumented: dict[int, int]
    pixels: str
    seconds: float
    picture: list[bytearray]


def load_manifest(path: Path = MANIFEST) -> list[Program]:
    programs = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        d = json.loads(line)
        run, expect = d["run"], d["expect"]
        programs.append(Program(
            name=d["name"], kind=d["kind"], files=d["files"], prg=run.get("prg"), disk=run.get("disk"),
            type=run.get("type", []), when=[(t, k) for t, k in run.get("when", [])], cycles=run["cycles"],
            author=d["author"], shows=d["shows"], text=expect.get("text", []),
            undocumented=[int(op.lstrip("$"), 16) for op in expect.get("undocumented", [])],
            pixels=expect.get("pixels", "")))
    return programs


def git_blob_id(data: bytes) -> str:
    """The id git gives a file's content (``git hash-object``): sha1 of "blob SIZE\\0" + data."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def command_line(p: Program, folder: str = "FOLDER", roms: str = "ROMS", png: str | None = None) -> str:
    """The ``asm6502 run`` command that runs *p* (keys typed at a screen's text are not in it)."""
    words = ["asm6502", "run", "--roms", roms]
    if p.prg:
        words.append(f"{folder}/{p.prg}")
    if p.disk:
        words += ["--disk", f"{folder}/{p.disk}"]
    for t in p.type:
        words += ["--type", t]
    words += ["--cycles", str(p.cycles), "--screenshot", png or f"{p.name}.png"]
    line = " ".join(shlex.quote(w) for w in words)
    for text, keys in p.when:
        line += f"   # then, once the screen shows {text!r}: type {keys!r}"
    return line


def check_files(p: Program, folder: Path) -> list[str]:
    """What is wrong with the program's files in *folder* (missing, or another file)."""
    problems = []
    for local, src in p.files.items():
        path = folder / local
        if not path.is_file():
            problems.append(f"{local} is missing: git -C CLONE_OF_{src['repo'].replace('/', '_')} show "
                            f"{src['commit'][:12]}:{shlex.quote(src['path'])} > {shlex.quote(str(path))}")
            continue
        got = git_blob_id(path.read_bytes())
        if got != src["blob"]:
            problems.append(f"{local} is not {src['repo']}'s {src['path']} (blob {got}, the manifest's {src['blob']})")
    return problems


def _counting(table: list, counts: Counter) -> None:
    """Wrap every undocumented opcode's entry of the machine's instruction table so each one
    the CPU runs is counted (the run loop reads the table at each run's start)."""
    def counted(op, instruction):
        def run(cpu):
            counts[op] += 1
            instruction(cpu)
        return run

    for op in range(256):
        if op not in DOCUMENTED and op != JAM:
            table[op] = counted(op, table[op])


def pixels_digest(picture: list[bytearray]) -> str:
    return hashlib.sha256(b"".join(bytes(row) for row in picture)).hexdigest()


def run_program(p: Program, folder: Path, rom_dir: str) -> Outcome:
    files = Files()
    started = time.process_time()
    failures = check_files(p, folder)
    if failures:
        return Outcome(p.name, False, failures, {}, "", 0.0, [])
    disk = Disk.load(str(folder / p.disk), files) if p.disk else None
    machine = session.boot(session.images(romlib.load_dir(rom_dir)), disk=disk)
    boot = machine.cpu.cycles
    counts: Counter = Counter()
    _counting(machine._table, counts)
    if p.prg:
        session.start_program(machine, files.read(folder / p.prg, MAX_PRG_BYTES, "C64 program"))
    for keys in p.type:
        machine.type_text(session.typed_keys(keys))
    end = boot + p.cycles
    for text, keys in p.when:
        stop = machine.run(max(end - machine.cpu.cycles, 1), until_text=text, stop_when_polling=False)
        if stop.reason != "text":
            failures.append(f"the screen never showed {text!r} ({stop.reason}: {stop.message})")
            break
        machine.type_text(session.typed_keys(keys))
    if not failures and machine.cpu.cycles < end:
        stop = machine.run(end - machine.cpu.cycles, stop_when_polling=False)
        if stop.reason not in ("cycles", "idle"):
            failures.append(f"the run stopped: {stop.reason}: {stop.message}")
    picture = screen.render(machine)
    shown = screen.screen_text(machine)
    failures += [f"the screen does not show {t!r}" for t in p.text if t not in shown]
    failures += [f"undocumented opcode ${op:02X} never ran" for op in p.undocumented if not counts[op]]
    digest = pixels_digest(picture)
    if p.pixels and digest != p.pixels:
        failures.append(f"the picture differs (pixels {digest[:16]}, the manifest's {p.pixels[:16]})")
    return Outcome(p.name, not failures, failures, dict(sorted(counts.items())), digest,
                   time.process_time() - started, picture)


def update_manifest(outcomes: list[Outcome], path: Path = MANIFEST) -> int:
    """Take each run's pixel checksum into the manifest (the lines' other fields kept)."""
    digests = {o.name: o.pixels for o in outcomes if o.pixels}
    lines = []
    changed = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            d = json.loads(line)
            if d["name"] in digests and d["expect"].get("pixels") != digests[d["name"]]:
                d["expect"]["pixels"] = digests[d["name"]]
                changed += 1
            line = json.dumps(d, ensure_ascii=False)
        lines.append(line)
    files = Files(overwrite=True)
    files.add(path, ("\n".join(lines) + "\n").encode("utf-8"), "manifest")
    files.commit()
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", nargs="?", default=os.environ.get("ASM6502_REAL_PROGRAMS"),
                    help="the folder holding the programs' files (default: $ASM6502_REAL_PROGRAMS)")
    ap.add_argument("names", nargs="*", help="programs to run (default: all of the manifest)")
    ap.add_argument("--roms", default=os.environ.get("ASM6502_ROMS"),
                    help="the folder of the C64 ROM images (default: $ASM6502_ROMS)")
    ap.add_argument("--pictures", metavar="DIR", help="write each final picture as DIR/NAME.png")
    ap.add_argument("--update", action="store_true", help="take the pictures' checksums into the manifest")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each program's command and what it shows")
    args = ap.parse_args(argv)
    if not args.folder or not args.roms:
        ap.error("name the programs' folder (or ASM6502_REAL_PROGRAMS) and the ROM folder (--roms or ASM6502_ROMS)")
    programs = load_manifest()
    known = {p.name for p in programs}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        ap.error(f"not in the manifest: {', '.join(unknown)} (it has {', '.join(sorted(known))})")
    chosen = [p for p in programs if not args.names or p.name in args.names]
    folder = Path(args.folder)
    outcomes = []
    for p in chosen:
        try:
            o = run_program(p, folder, args.roms)
        except DiagnosticError:
            raise  # (the ROMs or a disk image the user named: one line, as the commands say it)
        except Exception as exc:  # a crash of the machine is that program's failure; the table goes on
            o = Outcome(p.name, False, [f"crash: {type(exc).__name__}: {exc}"], {}, "", 0.0, [])
        outcomes.append(o)
        used = ", ".join(f"${op:02X} x{n:,}" for op, n in o.undocumented.items()) or "none"
        print(f"{'ok  ' if o.passed else 'FAIL'} {p.name:14} {p.kind:10} {o.seconds:6.1f} s  undocumented: {used}")
        for f in o.failures:
            print(f"       {f}")
        if args.verbose:
            print(f"       {command_line(p, str(folder), args.roms)}")
            print(f"       author: {p.author}")
            print(f"       shows:  {p.shows}")
        if args.pictures and o.picture:
            files = Files(overwrite=True)
            files.add(Path(args.pictures) / f"{p.name}.png", screen.png(o.picture), "screenshot", make_parent=True)
            files.commit()
    if args.update:
        print(f"manifest: {update_manifest(outcomes)} checksums taken")
    passed = sum(o.passed for o in outcomes)
    print(f"{passed} of {len(outcomes)} programs show what their authors' do")
    return 0 if passed == len(outcomes) else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except DiagnosticError as exc:
        print("\n".join(f"real_programs: error: {d.message}" for d in exc.diagnostics), file=sys.stderr)
        sys.exit(2)
