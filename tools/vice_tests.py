#!/usr/bin/env python3
"""Run VICE's CIA and interrupt test programs (testprogs/CIA, testprogs/interrupts, as
floooh/chips-test keeps them in tests/vice-tests) on asm6502's C64 and print a table.

The programs report through VICE's debug cartridge: a write of 0 to $D7FF is a pass, $FF
a failure (``asm6502 run`` ends with that value as its exit status).  Only those that do
are run, on the old PAL C64 (``--model c64``): those with "new" in their name on 6526A CIAs
(``--cia 6526a``), the others on its 6526; "ntsc" variants are passed over, so are the
programs that only record data (record*, cia-b-counts-a).  A folder holding a .d64 gets it as device 8 (the data files
some programs load), else the folder itself.  The suite stays outside the repository;
name its folder:

    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 /path/to/vice-tests
    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 /path/to/vice-tests CIA/tod

With ``--testlist FILE`` (VICE's testbench/c64-testlist.in) it runs the tests that list
names instead, of the folders given (default VICII, CIA, CPU, interrupts), the way VICE's
testbench runs x64sc: each program autostarted (LOAD and RUN) on a PAL C64C (``--model c64c``:
VIC-II 8565, 6526A CIAs; a 6569 where the list says vicii-old, 6526s for cia-old), at most the listed number of cycles from power-on
(a part may name a folder under the top ones: VICII/border).  ``exitcode`` tests pass when
the program writes 0 to $D7FF; ``screenshot`` tests when the picture at the end (the debug cartridge's exit or
the cycle limit) matches the reference in the test's references/ folder pixel for pixel,
over the area both pictures cover once their text windows' top-left corners are put on
each other (testbench/cmpscreens.c's rule; both at 32, 35 in x64sc's PAL screenshots,
the reference's colours read as Pepto's PAL palette, testbench/x64sc-hooks.sh).  The
table counts pass, fail, and the tests not run with the reason; beside it, how many of
them VICE's x64sc passes (the newest testbench/results/x64sc-*-result.txt):

    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 --testlist /path/to/testbench/c64-testlist.in
    .venv/bin/python tools/vice_tests.py --roms ~/vice/C64 --testlist /path/to/testbench/c64-testlist.in VICII -v

A part may be a folder inside one (VICII/spritesplit).  ``--diff DIR`` keeps, for each failed
screenshot test, our picture and a picture of ours, the reference and where they differ.
"""

from __future__ import annotations

import argparse
import re
import struct
import sys
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from asm6502 import c64models as models  # noqa: E402
from asm6502.emu.c64 import roms as romlib  # noqa: E402
from asm6502.emu.c64 import screen, session  # noqa: E402
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
    model = models.DEFAULT.with_chips(cia="6526a" if "new" in prg.name.lower() else "6526")
    machine = session.boot(images, disk=disk, model=model)
    session.start_program(machine, files.read(prg, MAX_PRG_BYTES, "C64 program"))
    stop = machine.run(LIMIT, stop_when_polling=False)
    if stop.reason == "exit":
        return ("pass" if stop.code == 0 else f"fail (${stop.code:02X})"), ""
    return stop.reason, stop.message


# --- the testbench's list ------------------------------------------------------------------
TESTLIST_PARTS = ["VICII", "CIA", "CPU", "interrupts"]
RUN_TYPES = ("exitcode", "screenshot")
SCREEN_OFFSET = (32, 35)  # the text window's top-left corner in x64sc's PAL screenshots (and ours)
# options the machine has no counterpart for: the test is listed as not supported, with this reason
UNSUPPORTED_OPTIONS = {
    "vicii-ntsc": "NTSC VIC-II", "vicii-ntscold": "NTSC VIC-II",
    "mountcrt": "cartridge", "reu": "REU", "geo": "GeoRAM", "plus": "RAM expansion", "dqbb": "DQBB",
    "ramcart": "RamCart", "isepic": "Isepic", "mountg64": "G64 disk", "mountp64": "P64 disk",
}


@dataclass
class Listed:
    folder: str  # as the list spells it: ../VICII/border/
    prg: str
    kind: str  # exitcode, screenshot, interactive, analyzer
    limit: int
    options: list[str] = field(default_factory=list)

    @property
    def part(self) -> str:
        return self.folder.strip("./").split("/")[0]

    @property
    def name(self) -> str:
        return self.folder.strip("./").rstrip("/") + "/" + self.prg

    @property
    def expect(self) -> str:
        for o in self.options:
            if o.startswith("expect:"):
                return o.split(":", 1)[1]
        return "ok"


def read_testlist(path: Path) -> list[Listed]:
    tests = []
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if len(fields) < 4:
            continue
        limit = int(fields[3]) if fields[3].strip().isdigit() else 0
        tests.append(Listed(fields[0].strip(), fields[1].strip(), fields[2].strip(), limit,
                            [f.strip() for f in fields[4:] if f.strip()]))
    return tests


def x64sc_results(testbench: Path) -> dict[tuple[str, str, str], str]:
    """(folder, prg, type) -> ok/error/noref in the newest x64sc result file."""
    files = sorted(testbench.glob("results/x64sc-r*-result.txt"),
                   key=lambda p: int(re.search(r"-r(\d+)", p.name).group(1)))  # type: ignore[union-attr]
    files = [p for p in files if "ntsc" not in p.name]
    if not files:
        return {}
    out = {}
    for line in files[-1].read_text(encoding="latin-1").splitlines():
        f = line.split(",")
        if len(f) >= 4:
            out[(f[0].rstrip("/"), f[1], f[3])] = f[2]
    return out


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's pixels as rows of RGB bytes (8-bit RGB, RGBA, grey or palette; no interlace:
    the PNG specification, ISO/IEC 15948, filters 0-4)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, palette = 8, b"", b""
    width = height = depth = ctype = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace:
                raise ValueError(f"PNG depth {depth}, interlace {interlace}: not read here")
        elif kind == b"PLTE":
            palette = body
        elif kind == b"IDAT":
            idat += body
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            if f == 1:
                line[i] = (line[i] + a) & 0xFF
            elif f == 2:
                line[i] = (line[i] + b) & 0xFF
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif f == 4:
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        prev = line
        if ctype == 3:
            rgb = b"".join(palette[3 * v:3 * v + 3] for v in line)
        elif ctype == 0:
            rgb = bytes(v for v in line for _ in range(3))
        elif ctype == 4:
            rgb = bytes(line[i] for i in range(0, stride, 2) for _ in range(3))
        else:
            rgb = b"".join(bytes(line[i:i + 3]) for i in range(0, stride, bpp))
        rows.append(rgb)
    return width, height, rows


TESTBENCH_MODEL = models.model("c64c")  # testbench/x64sc-hooks.sh: x64sc -model c64c
OLD = models.model("c64")


def machine_model(listed: Listed) -> models.Model:
    """The machine x64sc runs a test on: the testbench starts it as a C64C (``-model c64c``,
    testbench/x64sc-hooks.sh: VIC-II 8565, 6526A CIAs, its ANE constants), with the old C64's
    VIC-II (6569) for vicii-old and its CIAs (6526) for cia-old (``-VICIImodel``,
    ``-ciamodel``; the CPU stays the C64C's)."""
    return TESTBENCH_MODEL.with_chips(vic=OLD.vic if "vicii-old" in listed.options else None,
                                      cia=OLD.cia if "cia-old" in listed.options else None)


def reference_for(listed: Listed, folder: Path) -> Path | None:
    """The reference picture VICE's testbench.sh picks for a PAL run of x64sc (its default
    C64C: VIC-II 8565): NAME-8565.png, else NAME.png; with vicii-old NAME-6569.png first."""
    refs = folder / "references"
    names = [f"{listed.prg}-6569.png"] if "vicii-old" in listed.options else []
    names += [f"{listed.prg}-8565.png", f"{listed.prg}.png"]
    for name in names:
        if (refs / name).is_file():
            return refs / name
    return None


def compare_screens(ours: list[bytearray], reference: bytes) -> tuple[str, list[bytearray]]:
    """('' when the pictures agree where both have pixels (text windows aligned), else why
    not; the compared area as the reference shows it, palette indices, 16 where its
    colour is not Pepto's)."""
    width, height, ref = decode_png(reference)
    pepto = {bytes(c): i for i, c in enumerate(screen.PALETTE)}
    (ox, oy), (rx, ry) = SCREEN_OFFSET, SCREEN_OFFSET
    dx, dy = min(ox, rx), min(oy, ry)
    w = dx + min(len(ours[0]) - ox, width - rx)
    h = dy + min(len(ours) - oy, height - ry)
    why, theirs = "", []
    for y in range(h):
        row, ref_row = ours[y + oy - dy], ref[y + ry - dy]
        line = bytearray(w)
        for x in range(w):
            rgb = ref_row[3 * (x + rx - dx):3 * (x + rx - dx) + 3]
            colour = pepto.get(rgb)
            line[x] = 16 if colour is None else colour
            if why:
                continue
            if colour is None:
                why = f"the reference's colour {rgb.hex()} at {x},{y} is not Pepto's PAL palette"
            elif row[x + ox - dx] != colour:
                why = f"first difference at {x},{y}: {row[x + ox - dx]} instead of {colour}"
        theirs.append(line)
    return why, theirs


# the --diff pictures' colours: Pepto's 16, then 16 = a reference colour outside them (magenta),
# 17-32 = colour 0-15 where both pictures agree, dimmed to a grey of its brightness
DIFF_PALETTE = (*screen.PALETTE, (0xFF, 0x00, 0xFF),
                *(((r * 3 + g * 6 + b) // 40,) * 3 for r, g, b in screen.PALETTE))


def diff_picture(ours: list[bytearray], theirs: list[bytearray]) -> list[bytearray]:
    """Ours, the reference and their difference side by side, over the area compared (text
    windows aligned): in the third the pixels where both agree dimmed, the others as ours."""
    gap = bytearray([16]) * 4
    rows = []
    for y, ref_row in enumerate(theirs):  # (both text windows at SCREEN_OFFSET: the area starts at 0, 0)
        mine = ours[y][:len(ref_row)]
        diff = bytearray(c if c != r else 17 + c for c, r in zip(mine, ref_row))
        rows.append(mine + gap + ref_row + gap + diff)
    return rows


def unsupported(listed: Listed, folder: Path) -> str:
    if listed.kind not in RUN_TYPES:
        return listed.kind
    for option in listed.options:
        for prefix, why in UNSUPPORTED_OPTIONS.items():
            if option.startswith(prefix):
                return why
    if not listed.prg:
        return "no program"
    if not (folder / listed.prg).is_file():
        return "program missing"
    if listed.kind == "screenshot" and reference_for(listed, folder) is None:
        return "no reference picture"
    return ""


def run_listed(images, listed: Listed, folder: Path, files: Files,
               diff: Path | None = None) -> tuple[str, str]:
    """(ok / error / timeout, why) as the testbench reports a test.  With *diff*, a failed
    screenshot test leaves there our picture (NAME.png, NAME the test's folder and program
    with / as _) and ours, the reference and their difference side by side (NAME-diff.png)."""
    disks = [o.split(":", 1)[1] for o in listed.options if o.startswith("mountd64:")]
    disk = Disk.load(str(folder / disks[0]) if disks else str(folder), files)
    machine = session.boot(images, disk=disk, model=machine_model(listed))
    session.start_program(machine, files.read(folder / listed.prg, MAX_PRG_BYTES, "C64 program"))
    stop = machine.run(max(listed.limit - machine.cpu.cycles, 1), stop_when_polling=False, stop_when_idle=False)
    if listed.kind == "exitcode":
        if stop.reason == "exit":
            return ("ok", "") if stop.code == 0 else ("error", f"exit code ${stop.code:02X}")
        return ("timeout", "") if stop.reason == "cycles" else ("error", stop.message)
    if stop.reason == "halt":
        return "error", stop.message
    reference = reference_for(listed, folder)
    assert reference is not None
    ours = screen.render(machine)
    why, theirs = compare_screens(ours, reference.read_bytes())
    if why and diff is not None:
        stem = listed.name.replace("/", "_")
        diff.mkdir(parents=True, exist_ok=True)
        (diff / f"{stem}.png").write_bytes(screen.png(ours))
        (diff / f"{stem}-diff.png").write_bytes(screen.png(diff_picture(ours, theirs), DIFF_PALETTE))
    return ("error", why) if why else ("ok", "")


def part_of(listed: Listed, parts: list[str]) -> str | None:
    """The part (a folder of the suite: VICII, VICII/spritesplit) a listed test is run under."""
    folder = listed.folder.strip("./").rstrip("/")
    for part in parts:
        if folder == part.strip("/") or folder.startswith(part.strip("/") + "/"):
            return part
    return None


def run_testlist(images, testlist: Path, parts: list[str], verbose: bool, diff: Path | None = None) -> int:
    base = testlist.parent
    x64sc = x64sc_results(base)
    table: dict[str, Counter] = {}
    for listed in read_testlist(testlist):
        part = part_of(listed, parts)
        if part is None:
            continue
        folder = (base / listed.folder).resolve()
        counts = table.setdefault(part, Counter())
        counts["listed"] += 1
        vice = x64sc.get((listed.folder.rstrip("/"), listed.prg, listed.kind))
        why = unsupported(listed, folder)
        start = time.process_time()
        if why:
            counts[f"not run: {why}"] += 1
            result = "skip"
        else:
            got, why = run_listed(images, listed, folder, Files(), diff)
            result = "pass" if got == listed.expect else "fail"
            counts[result] += 1
            if vice == "ok":
                counts["x64sc passes"] += 1
                counts[f"{result} where x64sc passes"] += 1
        if verbose:
            print(f"{listed.name:58} {listed.kind:10} {result:5} x64sc:{vice or '-':6} "
                  f"{time.process_time() - start:5.1f} s  {why}".rstrip(), flush=True)
    print()
    print(f"{'folder':12} {'listed':>6} {'pass':>5} {'fail':>5} {'x64sc ok':>8} {'pass/x64sc ok':>13}  not run (why)")
    total = Counter()
    for part in parts:
        c = table.get(part, Counter())
        total.update(c)
        skips = ", ".join(f"{k[9:]} {v}" for k, v in sorted(c.items()) if k.startswith("not run: "))
        print(f"{part:12} {c['listed']:6} {c['pass']:5} {c['fail']:5} {c['x64sc passes']:8} "
              f"{c['pass where x64sc passes']:13}  {skips}")
    print(f"{'all':12} {total['listed']:6} {total['pass']:5} {total['fail']:5} {total['x64sc passes']:8} "
          f"{total['pass where x64sc passes']:13}")
    return 0 if total["fail"] == 0 else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", nargs="?", help="the folder holding CIA/ and interrupts/")
    ap.add_argument("parts", nargs="*", help="subfolders to run (default CIA interrupts; with --testlist "
                    + " ".join(TESTLIST_PARTS) + ")")
    ap.add_argument("--roms", help="ROM directory (default: the lookup asm6502 run uses)")
    ap.add_argument("--testlist", type=Path, metavar="FILE", help="run the tests VICE's testbench list names")
    ap.add_argument("-v", "--verbose", action="store_true", help="with --testlist: a line per test")
    ap.add_argument("--diff", type=Path, metavar="DIR", help="with --testlist: for each failed screenshot "
                    "test, our picture and one of ours, the reference and their difference side by side")
    args = ap.parse_args()
    if args.testlist is not None and args.suite is not None:
        # (the suite's folder may be named before the parts: the list's folders are relative to it)
        if Path(args.suite).resolve() != args.testlist.resolve().parent.parent:
            args.parts.insert(0, args.suite)
    if args.testlist is None and args.suite is None:
        ap.error("name the suite's folder, or --testlist FILE")
    lookup = romlib.find_roms(args.roms)
    if lookup.roms is None:
        print(f"vice_tests: {lookup.note()}", file=sys.stderr)
        return 2
    images = session.images(lookup.roms)
    if args.testlist is not None:
        return run_testlist(images, args.testlist, args.parts or TESTLIST_PARTS, args.verbose, args.diff)
    base = Path(args.suite)
    found = programs(base, args.parts or ["CIA", "interrupts"])
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
