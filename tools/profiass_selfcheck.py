#!/usr/bin/env python3
"""Run the original Profi-Ass 64 V2.0 on asm6502's own C64 and compare with the oracle's fixtures.

The fixtures of the original assembler (tools/profiass_oracle.py) were made with a separate
runner outside this project.  This script makes the same records on ``asm6502.emu.c64`` -- the
machine of ``asm6502 run --roms`` -- and compares them, field by field, with the committed
ones: when they agree, fixtures can be made with the project alone.

What the user supplies (third-party material, never in the repository): the C64 ROM images
(``--roms DIR`` or ``$ASM6502_ROMS``) and the program, ``profi-ass.prg`` (``--prg FILE`` or
``$PROFIASS_HOME/profi-ass.prg``: the oracle's README says where it comes from).  The C64
boots, ``LOAD"PROFI-ASS",8,1`` and ``RUN`` are typed as a user would (as ``asm6502 run
--type`` types: into the KERNAL's keyboard buffer); then, for each case, ``NEW``, the
source's lines (key by key, as the fixture format says: ``--case lower`` a-z unshifted, A-Z
shifted), ``RUN``.  The screen output (CHROUT) is read as the oracle's records are: the
listing from the line "2" of pass 2 to READY., the errors, the ``]XXXX-YYYY`` range and the
object code in that range of RAM (the free RAM is filled with $00 first: the fixtures record
bytes the assembler did not write as $00).

Cases: the manual's programs and the real corpus (test-data collections ``profiass-manual``,
``profiass-corpus``: tests/testdata.py says where they are) and every Nth program of
tests/fixtures/profiass/fuzz/programs.jsonl (``--fuzz-every N``, 0: none).  Left out (said
per case): cases that need files on the drive, and those that list to a printer (device 4:
the machine has none, Profi-Ass gets DEVICE NOT PRESENT).  Not compared: the files an
``.opt o1`` source writes to drive 8.

usage:
  .venv/bin/python tools/profiass_selfcheck.py --roms DIR --prg profi-ass.prg
  .venv/bin/python tools/profiass_selfcheck.py --roms DIR --prg profi-ass.prg --fuzz-every 50 --only fuzz
  .venv/bin/python tools/profiass_selfcheck.py --roms DIR --prg profi-ass.prg ex1_p20 bass_irq
Each case is printed as it is done (the fields that differ, if any), then a table by group.
exit status 0 when every case run matches, 1 otherwise, 2 when the material is missing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from asm6502.emu.c64 import roms as romlib  # noqa: E402
from asm6502.emu.c64 import session  # noqa: E402
from asm6502.emu.c64.drive import Disk, DiskFile  # noqa: E402

FUZZ = ROOT / "tests" / "fixtures" / "profiass" / "fuzz" / "programs.jsonl"
BOOT_CYCLES = 20_000_000
RUN_CYCLES = 800_000_000  # a case's RUN: the large corpus sources list hundreds of lines
TYPE_CYCLES_PER_LINE = 400_000
# the fixture format's regions (tools/profiass_oracle.py): the C64's and the assembler's own RAM,
# and the free RAM it fills with $00 before the RUN (from the end of the BASIC program)
BUSY = ((0x0000, 0x0800), (0x8000, 0xA000))
FREE_RAM = ((None, 0x8000), (0xA000, 0xD000), (0xE000, 0x10000))
VARTAB = 0x2D
RANGE_RE = re.compile(r"\]\s*([0-9A-F]{4})-([0-9A-F]{4})")
PASS1_COUNT_RE = re.compile(r"(?:^|\n)(\d+) ERRORS? IN PASS 1")
PASS2_COUNT_RE = re.compile(r"(?:^|\n)(\d+|NO) ERRORS?\n")
CONTROL_NAMES = {0x93: "{clr}", 0x13: "{home}", 0x11: "{down}", 0x91: "{up}", 0x1D: "{right}",
                 0x9D: "{left}", 0x12: "{rvs on}", 0x92: "{rvs off}", 0x0E: "{lower}", 0x8E: "{upper}",
                 0x05: "{white}", 0x14: "{del}", 0x94: "{inst}"}
COMPARED = ("range", "object_hex", "no_errors", "pass1_errors", "pass2_errors", "errors", "basic_error",
            "listing")


def keys(line: str, case: str) -> bytes:
    """A source line as the fixture format types it: a-z the unshifted letter keys ($41-$5A),
    A-Z shifted ($C1-$DA; with case "upper" unshifted too), ^ _ \\ the up-arrow, left-arrow
    and pound keys, {$hh} the key with that PETSCII code."""
    out = bytearray()
    i = 0
    while i < len(line):
        ch = line[i]
        m = re.match(r"\{\$([0-9a-fA-F]{2})\}", line[i:])
        if m:
            out.append(int(m.group(1), 16))
            i += len(m.group(0))
            continue
        o = ord(ch)
        if "a" <= ch <= "z":
            out.append(o - 0x20)
        elif "A" <= ch <= "Z":
            out.append(o if case == "upper" else o + 0x80)
        elif ch in "^\u2191":
            out.append(0x5E)
        elif ch in "_\u2190":
            out.append(0x5F)
        elif ch in "\\\u00a3":
            out.append(0x5C)
        elif ch == "\t":
            out.append(0x20)
        elif 0x20 <= o <= 0x5D:
            out.append(o)
        else:
            raise ValueError(f"no C64 key for {ch!r}")
        i += 1
    return bytes(out)


def screen_text(data: bytes) -> str:
    """CHROUT bytes as the fixtures' screen text: the power-on character set ($41-$5A A-Z,
    $C1-$DA a-z), CR a new line, LF nothing, control codes by name, others {$hh}."""
    out = []
    for c in data:
        if c in (0x0D, 0x8D):
            out.append("\n")
        elif c == 0x0A:
            continue
        elif 0x41 <= c <= 0x5A:
            out.append(chr(c))
        elif 0xC1 <= c <= 0xDA:
            out.append(chr(c - 0x60))
        elif 0x20 <= c <= 0x40 or c in (0x5B, 0x5D):
            out.append(chr(c))
        elif c == 0x5C:
            out.append("\u00a3")
        elif c == 0x5E:
            out.append("\u2191")
        elif c == 0x5F:
            out.append("\u2190")
        else:
            out.append(CONTROL_NAMES.get(c, "{$%02x}" % c))
    return "".join(out)


class Runner:
    """One C64 with Profi-Ass started (the state every case begins from)."""

    def __init__(self, roms, prg: bytes):
        disk = Disk(b"PROFI-ASS", b"00", [DiskFile(b"PROFI-ASS", "PRG", prg)], 664 - (len(prg) + 253) // 254)
        self.machine = m = session.boot(roms, disk=disk)
        for typed, want in ((b'LOAD"PROFI-ASS",8,1\r', "READY."), (b"RUN\r", "NO ERRORS")):
            m.type_text(typed)
            stop = m.run(BOOT_CYCLES)
            if stop.reason != "idle" or want not in screen_text(bytes(m.transcript)):
                raise RuntimeError(f"Profi-Ass did not start ({stop.reason}: {stop.message}): "
                                   f"{screen_text(bytes(m.transcript))[-200:]!r}")
        m.transcript.clear()
        self.state = m.save_state()

    def record(self, text: str, case: str) -> dict:
        m = self.machine
        m.load_state(self.state)
        lines = [ln for ln in text.splitlines() if ln.strip()]
        m.type_text(b"NEW\r")
        m.run(BOOT_CYCLES)
        for ln in lines:
            m.type_text(keys(ln.lstrip(), case) + b"\r")
        m.run(len(lines) * TYPE_CYCLES_PER_LINE + 2_000_000)
        vartab = m.memory[VARTAB] | m.memory[VARTAB + 1] << 8
        for lo, hi in FREE_RAM:
            lo = vartab if lo is None else lo
            m.poke_ram(lo, bytes(hi - lo))
        m.transcript.clear()
        m.type_text(b"RUN\r")
        stop = m.run(RUN_CYCLES)
        screen = screen_text(bytes(m.transcript))
        from profiass_oracle import parse_screen

        parsed = parse_screen(screen)
        found = RANGE_RE.findall(screen)
        rng = (int(found[-1][0], 16), int(found[-1][1], 16)) if found else None
        obj = None
        if rng and rng[1] > rng[0] and not any(rng[0] < hi and lo < rng[1] for lo, hi in BUSY):
            body = bytes(m.ram(a) for a in range(rng[0], rng[1]))
            if any(body):
                obj = body.hex().upper()
        p1 = PASS1_COUNT_RE.findall(screen)
        p2 = PASS2_COUNT_RE.findall(screen)
        return {
            "range": ["%04X" % rng[0], "%04X" % rng[1]] if rng else None,
            "object_hex": obj,
            "no_errors": "NO ERRORS" in screen and not p1,
            "pass1_errors": int(p1[-1]) if p1 else 0,
            "pass2_errors": (0 if p2[-1] == "NO" else int(p2[-1])) if p2 else None,
            "errors": parsed["errors"],
            "basic_error": parsed["basic_error"],
            "listing": parsed["listing"],
            "end": stop.reason,
        }


def cases(only: set[str], names: set[str], fuzz_every: int) -> list[tuple[str, str, str, str, dict]]:
    """(group, name, text, case, expected record) of every case to run."""
    import testdata

    found = []
    for group, collection in (("manual", "profiass-manual"), ("corpus", "profiass-corpus")):
        if only and group not in only:
            continue
        folder = next((r / collection for r in testdata.roots() if (r / collection).is_dir()), None)
        if folder is None:
            print(f"profiass_selfcheck: no test-data folder {collection} (tests/testdata.py): skipped",
                  file=sys.stderr)
            continue
        for src in sorted(folder.glob("*.src")):
            record = json.loads(src.with_suffix(".json").read_text())
            found.append((group, src.stem, src.read_text(encoding="utf-8"), record.get("case", "lower"), record))
    if fuzz_every and (not only or "fuzz" in only):
        for k, line in enumerate(FUZZ.read_text().splitlines()):
            if k % fuzz_every == 0:
                item = json.loads(line)
                found.append(("fuzz", f"fuzz{item['seed']}", item["source"], item.get("case", "lower"), item))
    return [c for c in found if not names or c[1] in names]


def _worker(task):
    roms_dir, prg_path, batch = task
    lookup = romlib.find_roms(roms_dir)
    runner = Runner(session.images(lookup.roms), Path(prg_path).read_bytes())
    out = []
    for group, name, text, case, expected in batch:
        started = time.process_time()
        skip = ("needs files on the drive" if expected.get("disk") else
                "lists to a printer, which the machine does not have" if expected.get("printer") else None)
        if skip:
            out.append((group, name, "skipped", [skip], 0.0))
            print(f"  {group:7} {name:24} skipped  {skip}", flush=True)
            continue
        got = runner.record(text, case)
        diffs = [key for key in COMPARED if key in expected and got[key] != expected[key]]
        out.append((group, name, "ok" if not diffs else "differs", diffs, time.process_time() - started))
        print(f"  {group:7} {name:24} {out[-1][2]:8} {', '.join(diffs)} ({out[-1][4]:.1f} CPU s)", flush=True)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="only these cases (fixture names; fuzz cases are fuzz<seed>)")
    ap.add_argument("--roms", default=os.environ.get("ASM6502_ROMS"), help="C64 ROM images (default $ASM6502_ROMS)")
    ap.add_argument("--prg", default=str(Path(os.environ.get("PROFIASS_HOME", "profiass")) / "profi-ass.prg"),
                    help="Profi-Ass 64 V2.0 (default $PROFIASS_HOME/profi-ass.prg)")
    ap.add_argument("--only", action="append", choices=("manual", "corpus", "fuzz"), default=[],
                    help="only this group (may be repeated)")
    ap.add_argument("--fuzz-every", type=int, default=25, metavar="N", help="every Nth fuzz program (default 25; 0: none)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not args.roms or not Path(args.prg).is_file():
        print("profiass_selfcheck: needs the C64 ROM images (--roms) and profi-ass.prg (--prg)", file=sys.stderr)
        return 2
    todo = cases(set(args.only), set(args.names), args.fuzz_every)
    if not todo:
        print("profiass_selfcheck: no cases", file=sys.stderr)
        return 2
    jobs = max(1, min(args.jobs, len(todo)))
    tasks = [(args.roms, args.prg, todo[k::jobs]) for k in range(jobs)]
    started = time.perf_counter()
    if jobs == 1:
        results = _worker(tasks[0])
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = [r for part in pool.map(_worker, tasks) for r in part]
    by_group: dict[str, list[int]] = {}
    for group, _name, verdict, _diffs, _seconds in sorted(results):
        counts = by_group.setdefault(group, [0, 0, 0])
        counts[("ok", "differs", "skipped").index(verdict)] += 1
    print(f"{'group':8} {'match':>6} {'differ':>7} {'skipped':>8}")
    for group, (ok, bad, skipped) in by_group.items():
        print(f"{group:8} {ok:>6} {bad:>7} {skipped:>8}")
    total = [sum(c[k] for c in by_group.values()) for k in range(3)]
    print(f"{'total':8} {total[0]:>6} {total[1]:>7} {total[2]:>8}  ({time.perf_counter() - started:.0f} s wall)")
    return 0 if total[1] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
