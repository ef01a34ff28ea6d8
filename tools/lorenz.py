#!/usr/bin/env python3
"""Run Wolfgang Lorenz's C64 Emulator Test Suite 2.15 on asm6502's C64 and print a table.

The suite (265 programs) and the C64 ROM images stay outside the repository: name their
folders with arguments or the environment variables ASM6502_LORENZ and ASM6502_ROMS.  The
suite folder holds the programs as files without extension, as floooh/chips-test's
tests/testsuite-2.15/bin does (" start" there is ``_start``, "sbcb(eb)" is ``sbcb_eb``).

Each program runs alone, as ``asm6502 run --roms ROMS --disk SUITE SUITE/NAME --until-pc '$E16F'``
would run it: the C64 boots (once per worker; each test starts from that state), the program
is loaded and RUN.  A test prints "NAME - OK" and loads the next one through BASIC's LOAD
($E16F): it passed.  On an error it prints a dump and waits for a key: it failed (the run
stops when the KERNAL is polled for keys in vain).  A test that does neither within the
cycle budget fails with "budget".

``--chain`` runs the suite as on a C64 instead: LOAD" START",8 and RUN are typed, and the suite
loads each next program itself, up to "finish", which prints "TEST SUITE V2.15 COMPLETED"; a
failing test stops the chain (it waits for a key).

usage:
  ASM6502_LORENZ=DIR ASM6502_ROMS=DIR .venv/bin/python tools/lorenz.py
  .venv/bin/python tools/lorenz.py --suite DIR --roms DIR --jobs 2 adca trap1 cpuport
  .venv/bin/python tools/lorenz.py --suite DIR --roms DIR --chain
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from asm6502 import c64models as models
from asm6502.emu.c64 import roms as romlib
from asm6502.emu.c64 import screen, session
from asm6502.emu.c64.drive import Disk, DiskFile
from asm6502.emu.c64.machine import C64
from asm6502.opcodes import OPCODES

LOAD_NEXT = 0xE16F  # BASIC's LOAD, where each test jumps to load the next one
DEFAULT_BUDGET = 400_000_000  # cycles per test (the longest ones, shaay and its kin, need about 63 million)
CHAIN_BUDGET = 8_000_000_000  # the whole suite: about 80 minutes of C64 time (its readme)
FINISHED = "TEST SUITE V2.15 COMPLETED"

# File names in the folder -> the names the suite LOADs them by.
FOLDER_NAMES = {"_start": " start", "sbcb_eb": "sbcb(eb)"}

# Test names of undocumented instructions (Lorenz's names: aso = SLO, lse = SRE, axs = SAX,
# dcm = DCP, ins = ISC, ...) and of the other groups, by prefix.
UNDOCUMENTED_PREFIXES = ("aso", "rla", "lse", "rra", "axs", "lax", "dcm", "ins", "anc", "alr", "arr",
                         "sbx", "las", "ane", "lxa", "sha", "shx", "shy", "shs", "nop", "sbcb(eb)")
CPU_TESTS = ("trap", "branchwrap", "mmu", "mmufetch", "cpuport", "cputiming", " start", "finish")
INTERRUPT_TESTS = ("irq", "nmi")
GROUPS = ("documented opcodes", "undocumented opcodes", "CPU: traps, port, timing", "CIA 6526",
          "IRQ/NMI")


def group_of(name: str) -> str:
    if name.startswith(UNDOCUMENTED_PREFIXES):
        return GROUPS[1]
    if name in INTERRUPT_TESTS:
        return GROUPS[4]
    if name.startswith(CPU_TESTS):
        return GROUPS[2]
    if name[:3].upper() in OPCODES:
        return GROUPS[0]
    return GROUPS[3]  # cia*, cnto2, cntdef, icr01, imr, flipos, oneshot, loadth


@dataclass(frozen=True)
class Outcome:
    name: str
    passed: bool
    cycles: int
    seconds: float
    detail: str  # why it failed (the stop and the last lines on the screen)


def suite_disk(folder: str) -> Disk:
    """Device 8 with every program of the folder under the name the suite loads it by."""
    files = [DiskFile(_petscii(name), "PRG", file_of(folder, name).read_bytes()) for name in test_names(folder)]
    return Disk(b"LORENZ 2.15", b"00", files, 664 - sum(f.blocks for f in files))


def _petscii(name: str) -> bytes:
    return bytes(ord(c) - 0x20 if "a" <= c <= "z" else ord(c) for c in name)


def test_names(folder: str) -> list[str]:
    """The suite's programs in FOLDER: every file that loads at $0801 (each is a BASIC program with
    its SYS line; a folder may hold other files beside them, as chips-test's holds dump.h)."""
    names = sorted(p.name for p in Path(folder).iterdir() if p.is_file() and _loads_at_0801(p))
    return [FOLDER_NAMES.get(n, n) for n in names]


def other_files(folder: str) -> list[str]:
    """The files of FOLDER that are not programs of the suite (left out, and named)."""
    return sorted(p.name for p in Path(folder).iterdir() if p.is_file() and not _loads_at_0801(p))


def _loads_at_0801(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(2) == b"\x01\x08"


def file_of(folder: str, name: str) -> Path:
    inverse = {v: k for k, v in FOLDER_NAMES.items()}
    return Path(folder) / inverse.get(name, name)


class Bench:
    """One booted C64 with the suite on device 8; each test starts from the booted state."""

    def __init__(self, suite: str, rom_dir: str):
        self.suite = suite
        # the old C64: the suite's expected values were recorded on one (models.py)
        machine = C64(session.images(romlib.load_dir(rom_dir)), disk=suite_disk(suite), model=models.model("c64"))
        stop = machine.run(session.BOOT_LIMIT)
        if stop.reason != "idle":
            raise SystemExit(f"lorenz: the C64 did not reach READY. ({stop.message})")
        machine.transcript.clear()
        self.machine = machine
        self.booted = machine.save_state()

    def run(self, name: str, budget: int) -> Outcome:
        m = self.machine
        m.load_state(self.booted)
        prg = file_of(self.suite, name).read_bytes()
        started = time.process_time()
        c0 = m.cpu.cycles
        session.start_program(m, prg)
        try:
            stop = m.run(budget, until_pc=LOAD_NEXT)
        except Exception as exc:  # a crash of the machine is that test's failure; the table goes on
            return Outcome(name, False, m.cpu.cycles - c0, time.process_time() - started,
                           f"crash: {type(exc).__name__}: {exc}")
        text = screen.screen_text(m)
        if name == "finish":
            passed = FINISHED in text
        else:
            passed = stop.reason == "pc" and " - ok" in text.lower()
        lines = [line.rstrip() for line in text.split("\n") if line.strip()]
        detail = "" if passed else f"{stop.reason}: {stop.message} | " + " / ".join(lines[-4:])
        return Outcome(name, passed, m.cpu.cycles - c0, time.process_time() - started, detail)


_BENCH: list[Bench] = []  # the worker process's machine (made by _init)


def _init(suite: str, rom_dir: str) -> None:
    _BENCH.append(Bench(suite, rom_dir))


def _work(job: tuple[str, int]) -> Outcome:
    return _BENCH[0].run(*job)


def run_tests(suite: str, rom_dir: str, names: list[str], budget: int = DEFAULT_BUDGET, jobs: int = 2,
              progress=None) -> list[Outcome]:
    """Run each test alone; *progress(done, total, outcome)* is called as each finishes."""
    results: list[Outcome] = []
    work = [(n, budget) for n in names]
    if jobs <= 1:
        bench = Bench(suite, rom_dir)
        outcomes = (bench.run(*w) for w in work)
        for o in outcomes:
            results.append(o)
            if progress:
                progress(len(results), len(work), o)
    else:
        with multiprocessing.Pool(jobs, _init, (suite, rom_dir)) as pool:
            for o in pool.imap_unordered(_work, work):
                results.append(o)
                if progress:
                    progress(len(results), len(work), o)
    order = {n: i for i, n in enumerate(names)}
    return sorted(results, key=lambda o: order[o.name])


def run_chain(suite: str, rom_dir: str, budget: int = CHAIN_BUDGET, progress=None) -> tuple[bool, str, list[str]]:
    """LOAD and RUN " start" and let the suite load its programs; returns (finished, how it stopped,
    the names loaded)."""
    bench = Bench(suite, rom_dir)
    m = bench.machine
    m.type_text(b'LOAD" START",8\rRUN\r')  # (the suite's own LOADs use the device number this sets)
    loaded: list[str] = []
    end = m.cpu.cycles + budget
    while True:
        stop = m.run(max(1, end - m.cpu.cycles), until_pc=LOAD_NEXT)
        if stop.reason != "pc":
            break
        mem = m.memory
        addr = mem[0xBB] | mem[0xBC] << 8
        name = bytes(mem[addr:addr + mem[0xB7]]).decode("latin-1").lower()
        loaded.append(name)
        if progress:
            progress(name, m.cpu.cycles)
        m.run(1)  # past $E16F
    text = screen.screen_text(m)
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    # (the suite prints it in the lower-case character set: the screen text shows small letters)
    return FINISHED.lower() in text.lower(), f"{stop.reason}: {stop.message} | " + " / ".join(lines[-3:]), loaded


def table(results: list[Outcome]) -> str:
    rows = []
    total_pass = 0
    for g in GROUPS:
        mine = [r for r in results if group_of(r.name) == g]
        if not mine:
            continue
        ok = sum(r.passed for r in mine)
        total_pass += ok
        rows.append(f"{g:28} {ok:4} / {len(mine):<4}")
    rows.append(f"{'total':28} {total_pass:4} / {len(results):<4}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="tests to run (default: all in the folder)")
    ap.add_argument("--suite", default=os.environ.get("ASM6502_LORENZ"),
                    help="the folder of the suite's programs (default: $ASM6502_LORENZ)")
    ap.add_argument("--roms", default=os.environ.get("ASM6502_ROMS"),
                    help="the folder of the C64 ROM images (default: $ASM6502_ROMS)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="cycles per test")
    ap.add_argument("--chain", action="store_true", help='run from " start" to "finish" as the suite chains itself')
    ap.add_argument("--failures", action="store_true", help="list each failed test with why")
    args = ap.parse_args(argv)
    if not args.suite or not args.roms:
        ap.error("name the suite folder (--suite or ASM6502_LORENZ) and the ROM folder (--roms or ASM6502_ROMS)")
    started = time.perf_counter()
    if args.chain:
        def shown(name: str, cycles: int) -> None:
            print(f"  {cycles:>14,} cycles  LOAD {name!r}", file=sys.stderr, flush=True)

        finished, message, loaded = run_chain(args.suite, args.roms, progress=shown)
        where = "reached finish" if finished else f"stopped in {loaded[-1] if loaded else ' start'!r}"
        print(f"chained run: {where} after {len(loaded)} loads ({message}; {time.perf_counter() - started:.0f} s)")
        return 0 if finished else 1
    names = args.names or test_names(args.suite)
    unknown = [n for n in names if not file_of(args.suite, n).is_file()]
    if unknown:
        ap.error(f"not a program of the suite in {args.suite}: {', '.join(unknown)}")
    if not args.names and other_files(args.suite):
        print(f"lorenz: left out (not programs of the suite): {', '.join(other_files(args.suite))}", file=sys.stderr)

    def progress(done: int, total: int, o: Outcome) -> None:
        mark = "ok  " if o.passed else "FAIL"
        print(f"[{done:3}/{total}] {mark} {o.name:12} {o.cycles:>12,} cycles {o.seconds:6.1f} s",
              file=sys.stderr, flush=True)

    results = run_tests(args.suite, args.roms, names, args.budget, args.jobs, progress)
    if args.failures:
        for r in results:
            if not r.passed:
                print(f"FAIL {r.name:12} {r.detail}")
    print(table(results))
    print(f"({time.perf_counter() - started:.0f} s wall, {sum(r.seconds for r in results):.0f} s CPU)")
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
