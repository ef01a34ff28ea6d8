#!/usr/bin/env python3
"""Run VICE's CIA and interrupt test programs (testprogs/CIA, testprogs/interrupts, as
floooh/chips-test keeps them in tests/vice-tests) on asm6502's C64 and print a table.

The programs report through VICE's debug cartridge: a write of 0 to $D7FF is a pass, $FF
a failure (``asm6502 run`` ends with that value as its exit status).  Only those that do
are run, on a PAL C64: those with "new" in their name on 6526A CIAs (``--cia 6526a``),
the others on the 6526 of VICE's default; "ntsc" variants are passed over, so are the
programs that only record data (record*, cia-b-counts-a).  A folder holding a .d64 gets it as device 8 (the data files
some programs load), else the folder itself.  The suite stays outside the repository;
name its folder:

    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 /path/to/vice-tests
    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 /path/to/vice-tests CIA/tod
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asm6502.emu.c64 import roms as romlib  # noqa: E402
from asm6502.emu.c64 import session  # noqa: E402
from asm6502.emu.c64.drive import Disk  # noqa: E402
from asm6502.fileio import MAX_PRG_BYTES, Files  # noqa: E402

REPORTS = (b"\x8d\xff\xd7", b"\x8e\xff\xd7", b"\x8c\xff\xd7")  # STA/STX/STY $D7FF
PASSED_OVER = ("ntsc", "record", "cia-b-counts-a.prg")
LIMIT = 60_000_000  # cycles: the slowest (TOD) programs finish within 45 M


def programs(base: Path, parts: list[str]) -> list[Path]:
    found = []
    for part in parts:
        for prg in sorted((base / part).rglob("*.prg")):
            data = prg.read_bytes()
            if any(word in prg.name.lower() for word in PASSED_OVER) or not any(r in data for r in REPORTS):
                continue
            found.append(prg)
    return found


def run_one(images, prg: Path, files: Files) -> tuple[str, str]:
    images_d64 = sorted(prg.parent.glob("*.d64"))
    disk = Disk.load(str(images_d64[0] if images_d64 else prg.parent), files)
    machine = session.boot(images, disk=disk, cia_model="6526a" if "new" in prg.name.lower() else "6526")
    session.start_program(machine, files.read(prg, MAX_PRG_BYTES, "C64 program"))
    stop = machine.run(LIMIT, stop_when_polling=False)
    if stop.reason == "exit":
        return ("pass" if stop.code == 0 else f"fail (${stop.code:02X})"), ""
    return stop.reason, stop.message


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", help="the folder holding CIA/ and interrupts/")
    ap.add_argument("parts", nargs="*", default=["CIA", "interrupts"], help="subfolders to run")
    ap.add_argument("--roms", help="ROM directory (default: the lookup asm6502 run uses)")
    args = ap.parse_args()
    lookup = romlib.find_roms(args.roms)
    if lookup.roms is None:
        print(f"vice_tests: {lookup.note()}", file=sys.stderr)
        return 2
    images = session.images(lookup.roms)
    base = Path(args.suite)
    found = programs(base, args.parts)
    passed = 0
    for prg in found:
        start = time.process_time()
        result, message = run_one(images, prg, Files())
        passed += result == "pass"
        name = str(prg.relative_to(base))
        print(f"{name:56} {result:12} {time.process_time() - start:5.1f} s  {message}".rstrip())
    print(f"{passed} of {len(found)} pass")
    return 0 if passed == len(found) else 1


if __name__ == "__main__":
    sys.exit(main())
