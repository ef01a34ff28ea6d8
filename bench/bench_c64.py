"""Benchmark the C64 machine (asm6502.emu.c64) on the real ROMs.

The workloads, each in emulated clock cycles per CPU second and against a
real PAL C64 (985,248 cycles a second):

  boot       power on to READY. (the KERNAL's RAM test and BASIC's cold start)
  basic      RUN of a BASIC loop (floating point, FOR/NEXT, string handling)
  superhirn  Superhirn II's first game (secret 3436, the article's example)
             after SYS 13312, answers typed on the keyboard
  banking    machine code switching the BASIC ROM out and in through $01 around
             each read of $A000 (65,536 times, a switch every 9.5 cycles: the
             worst case), then READY.
  under ROM  a text viewer's loop: 4 KB of text in the RAM under the KERNAL,
             each byte read with the ROMs out ($01 = $35) and printed through
             CHROUT with them back in, then READY.
             (Each of these two beside the same code without the switches, "same,
             no switch": the port writes go to $02, the text lies at $4000; the two
             run alternately, a round of each (a round: the workload repeated for
             about a CPU second), and the median of the pairs' ratios of speeds is
             printed below the table, with their range.)
  raster     a raster interrupt program: two interrupts a frame (lines $50 and
             $A0) change the border colour, acknowledged with ASL $D019, the
             display on (bad lines take their cycles) for 256 frames, then READY.

and, side by side, the same Superhirn game on the same machine with the
project's stub ROMs (asm6502.emu.harness: CHROUT/CHRIN in Python, no screen
editor), which counts instructions: the two are compared by the time a game
takes.

Each workload runs ``--rounds`` times (default 3); the best CPU time counts
(the shared machine's load falls on the rounds unevenly).  Goal (issue 22):
at least 2 x the real machine; boot to READY. in under 2 s.  Goal
(issue 31): boot and BASIC-bound programs at least 10 x, the raster interrupt
program at least 5 x, bank-switching code no slower than other code.

usage:
  ASM6502_ROMS=~/vice/C64 .venv/bin/python bench/bench_c64.py
  .venv/bin/python bench/bench_c64.py --roms "$PROFIASS_HOME/roms" --rounds 5
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asm6502.asm import assemble
from asm6502.basic.tokenizer import tokenize
from asm6502.emu import superhirn as sh
from asm6502.emu.c64 import roms as romlib
from asm6502.emu.c64 import session
from asm6502.emu.c64.machine import C64

PAL_HZ = 985_248
RATIO_SECONDS = 1.0  # CPU time of each round of a ratio's workloads (see ratio_rounds)
RATIO_ROUNDS = 5  # pairs of rounds a ratio is the median of, at least
BASIC_LOOP = ('10 a$="":for i=1 to 400:a=a+sqr(i)*sin(i):a$=a$+"x"\n'
              '20 if len(a$)>20 then a$=""\n30 next:print a;ti\n')
SECRET = (3, 4, 3, 6)
BANKING = """*= $c000
         ldy #0
outer    ldx #0
inner    lda #$36
         sta $01
         lda $a000
         lda #$37
         sta $01
         dex
         bne inner
         dey
         bne outer
         rts
"""
# A text viewer's loop over a text kept in the RAM under the KERNAL ROM (4 KB at $E000): each
# byte is read with the ROMs switched out ($01 = $35, interrupts off meanwhile) and printed
# through the KERNAL's CHROUT with them back in -- the shape of code that keeps data under a
# ROM and calls the ROM between reads.  The text is written there first (a write with the
# ROM in view goes to the RAM below it).
UNDER_ROM = """*= $c000
         ldx #0
         stx $fb
         lda #$e0
         sta $fc
         ldy #0
fill     tya
         and #$1f
         ora #$40
         sta ($fb),y
         iny
         bne fill
         inc $fc
         lda $fc
         cmp #$f0
         bne fill
         lda #$e0
         sta $fc
show     sei
         lda #$35
         sta $01
         lda ($fb),y
         ldx #$37
         stx $01
         cli
         jsr $ffd2
         iny
         bne show
         inc $fc
         lda $fc
         cmp #$f0
         bne show
         rts
"""
RASTER = """*= $c000
         sei
         lda #<irq
         sta $0314
         lda #>irq
         sta $0315
         lda #$7f
         sta $dc0d
         lda $dc0d
         lda #$1b
         sta $d011
         lda #$50
         sta $d012
         lda #1
         sta $d01a
         lda #0
         sta count
         sta count+1
         cli
wait     lda count+1
         cmp #2
         bne wait
         sei
         lda #0
         sta $d01a
         lda #$31
         sta $0314
         lda #$ea
         sta $0315
         lda #$81
         sta $dc0d
         cli
         rts
irq      asl $d019
         lda $d012
         cmp #$a0
         bcs low
         lda #2
         sta $d020
         lda #$a0
         sta $d012
         jmp done
low      lda #14
         sta $d020
         lda #$50
         sta $d012
done     inc count
         bne out
         inc count+1
out      jmp $ea81
count    .wor 0
"""


#: each bank-switching workload beside the same code without the switches (the port writes
#: go to $02 instead of $01, the text lies in plain RAM at $4000): (label, name, switching, plain)
SWITCHING = (
    ("bank switching", "banking", BANKING, BANKING.replace("sta $01", "sta $02")),
    ("RAM under ROM", "under_rom", UNDER_ROM,
     UNDER_ROM.replace("#$e0", "#$40").replace("#$f0", "#$50").replace("sta $01", "sta $02")
     .replace("stx $01", "stx $02")),
)


class Workloads:
    """The workloads on one set of ROM images, each a function that runs it once and returns
    the cycles it took (the game: its instructions); the ones after the boot start from the
    same machine at READY.  bench/count_c64.py counts their instructions."""

    def __init__(self, images):
        self.images = images
        self.ready = session.boot(images)
        self.state = self.ready.save_state()

    def boot(self):
        m = C64(self.images)
        stop = m.run(session.BOOT_LIMIT)
        assert stop.reason == "idle", stop
        return m.cpu.cycles

    def _program(self, prg: bytes, limit: int):
        ready, state = self.ready, self.state

        def workload():
            ready.load_state(state)
            start = ready.cpu.cycles
            session.start_program(ready, prg)
            stop = ready.run(limit)
            assert stop.reason == "idle", stop
            return ready.cpu.cycles - start

        return workload

    def basic(self):
        return self._program(tokenize(BASIC_LOOP).prg, 500_000_000)

    def machine_code(self, source: str, name: str = "workload.asm"):
        return self._program(assemble(source, name).prg, 100_000_000)

    def raster(self):
        return self.machine_code(RASTER, "raster.asm")

    def game(self, prg: bytes):
        ready = self.ready
        ready.load_state(self.state)
        ready.inject_prg(prg)
        game_state = ready.save_state()

        def workload():
            ready.load_state(game_state)
            played = sh.play_c64(ready, sh.truthful(SECRET))
            assert played.outcome == "OK", played
            return played.instructions

        return workload

    def named(self, name: str):
        """The workload of *name* (as bench/count_c64.py names them): boot, basic, raster,
        banking, banking_plain, under_rom, under_rom_plain."""
        if name == "boot":
            return self.boot
        if name in ("basic", "raster"):
            return getattr(self, name)()
        for _label, key, switching, plain in SWITCHING:
            if name == key:
                return self.machine_code(switching)
            if name == key + "_plain":
                return self.machine_code(plain)
        raise KeyError(name)


def clock(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return value, time.perf_counter() - wall, time.process_time() - cpu


def best(rounds, fn):
    results = [clock(fn) for _ in range(rounds)]
    return min(results, key=lambda r: r[2])


def repeated(fn, times):
    """*fn* run *times* times: the cycles of all."""

    def run():
        return sum(fn() for _ in range(times))

    return run


def ratio_rounds(rounds, switching, plain, seconds=RATIO_SECONDS):
    """The speed of *switching* against *plain* (same code without the switches): *rounds*
    pairs of rounds run alternately (the shared machine's slow and fast spells fall on both
    sides alike), each round the workload repeated for about *seconds* of CPU time (a round
    of one run, a tenth of a second, moved by some per cent); each pair's ratio of speeds,
    their median and range.  Returns (median, low, high, runs per round, best round of each
    side)."""
    once = clock(plain)[2]
    times = max(1, round(seconds / max(once, 1e-3)))
    first, second = repeated(switching, times), repeated(plain, times)
    pairs = [(clock(first), clock(second)) for _ in range(rounds)]
    ratios = sorted((a[0] / a[2]) / (b[0] / b[2]) for a, b in pairs)
    return (ratios[len(ratios) // 2], ratios[0], ratios[-1], times,
            min((a for a, _b in pairs), key=lambda r: r[2]), min((b for _a, b in pairs), key=lambda r: r[2]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--roms", help="ROM directory (default: the lookup asm6502 run uses)")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    lookup = romlib.find_roms(args.roms)
    if lookup.roms is None:
        print(f"bench_c64: {lookup.note()}", file=sys.stderr)
        return 2
    images = session.images(lookup.roms)
    prg = (ROOT / "build" / "superhirn.prg").read_bytes()
    rows = []
    ratios = []  # (workload, its speed against the same code without the switches)

    print("bench_c64: boot ...", file=sys.stderr)
    work = Workloads(images)
    cycles, wall, cpu = best(args.rounds, work.boot)
    rows.append(("boot to READY.", cycles, wall, cpu))

    print("bench_c64: BASIC loop ...", file=sys.stderr)
    cycles, wall, cpu = best(args.rounds, work.basic())
    rows.append(("BASIC loop", cycles, wall, cpu))

    for label, _key, source, control in SWITCHING:
        print(f"bench_c64: {label}, with and without switching ...", file=sys.stderr)
        ratio, low, high, times, switching, plain = ratio_rounds(
            max(args.rounds, RATIO_ROUNDS), work.machine_code(source), work.machine_code(control))
        rows.append((f"{label} x{times}", *switching))
        rows.append(("  same, no switch", *plain))
        ratios.append((label, ratio, low, high, times, max(args.rounds, RATIO_ROUNDS)))

    print("bench_c64: raster interrupts ...", file=sys.stderr)
    cycles, wall, cpu = best(args.rounds, work.raster())
    rows.append(("raster interrupts", cycles, wall, cpu))

    print("bench_c64: Superhirn II game on the C64 ...", file=sys.stderr)
    cycles, wall, cpu = best(args.rounds, work.game(prg))
    rows.insert(2, ("Superhirn II game", cycles, wall, cpu))

    def stubbed():
        played = sh.play_machine(prg, sh.truthful(SECRET))
        assert played.outcome == "OK", played
        return played.instructions

    print("bench_c64: Superhirn II game, stub ROMs ...", file=sys.stderr)
    instructions, _s_wall, s_cpu = best(args.rounds, stubbed)

    print(f"C64 machine on {lookup.roms.origin}, best of {args.rounds} rounds (CPU time = process time)")
    print()
    print(f"    {'workload':<20} {'cycles':>12} {'CPU s':>7} {'wall s':>7} {'cycles/CPU s':>13} {'x PAL C64':>9}")
    for name, cycles, wall, cpu in rows:
        rate = cycles / cpu
        print(f"    {name:<20} {cycles:>12,} {cpu:>7.3f} {wall:>7.3f} {rate:>13,.0f} {rate / PAL_HZ:>9.2f}")
    print()
    for name, ratio, low, high, times, pairs in ratios:
        print(f"    {name} against the same code without the switches: {ratio:.3f} of its speed (the median "
              f"of {pairs} pairs of rounds run alternately, {low:.3f}-{high:.3f}; a round {times} runs, "
              f"about {RATIO_SECONDS:.0f} CPU s)")
    print()
    game_cycles, game_cpu = rows[2][1], rows[2][3]
    print(f"    Superhirn II game, stub ROMs: {instructions:,} instructions in {s_cpu:.3f} CPU s "
          f"({instructions / s_cpu:,.0f} instructions/s); on the C64 {game_cpu:.3f} CPU s "
          f"({game_cpu / s_cpu:.1f} x the stub ROMs' time; the real ROMs also run the KERNAL's "
          f"screen editor, keyboard interrupt and {game_cycles / PAL_HZ:.2f} s of C64 time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
