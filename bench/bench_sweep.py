"""Benchmark the Superhirn sweep on the C64 machine without ROM images (the stub ROMs).

Runs, in one process tree and on the same secrets:

  x1         one process (the per-core speed);
  xN         N worker processes (the real sweep).

Wall times depend on what else runs on the machine (the sweep needs both
cores free to reach its speed); CPU times (per-game process time, summed)
do not.

Both runs must produce identical games (guesses and instruction counts).

usage:
  .venv/bin/python bench/bench_sweep.py                 # all 1296 secrets (~2 min)
  .venv/bin/python bench/bench_sweep.py --sample 144    # every 9th secret
  .venv/bin/python bench/bench_sweep.py --prg build/superhirn.prg --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asm6502.emu import superhirn as sh  # noqa: E402


def load_prg(path: str | None) -> bytes:
    if path:
        return Path(path).read_bytes()
    from asm6502.asm import assemble

    source = ROOT / "sources" / "superhirn.asm"
    return assemble(source.read_text(encoding="utf-8"), filename=str(source)).prg


def timed(prg: bytes, secrets, jobs: int) -> tuple[float, sh.SweepReport]:
    started = time.perf_counter()
    report = sh.sweep(prg, secrets, jobs=jobs, scenarios=False)
    return time.perf_counter() - started, report


def main() -> int:
    p = argparse.ArgumentParser(description="Superhirn sweep benchmark")
    p.add_argument("--prg", help="program to run (default: assemble sources/superhirn.asm)")
    p.add_argument("--sample", type=int, default=0, metavar="N",
                   help="use N secrets spread over all 1296 (default: all)")
    p.add_argument("--jobs", type=int, default=2, help="processes for the second sweep (default 2)")
    args = p.parse_args()

    prg = load_prg(args.prg)
    secrets = sh.program_order()
    if args.sample:
        step = max(1, len(secrets) // args.sample)
        secrets = secrets[::step][: args.sample]
    runs = [("x1", 1), (f"x{args.jobs}", args.jobs)]
    results = {}
    print(f"{len(secrets)} secrets, two runs (--sample N for a shorter run)", file=sys.stderr, flush=True)
    for label, jobs in runs:
        print(f"running {label} ...", file=sys.stderr, flush=True)
        seconds, report = timed(prg, secrets, jobs)
        results[label] = (seconds, report)
        print(f"{label:4s} {seconds:8.2f} s wall  {report.cpu_seconds:8.2f} CPU s  "
              f"{report.instructions:,} instructions  {report.instructions / report.cpu_seconds:,.0f} instr/CPU s",
              flush=True)
    reference = [(g.secret, g.guesses, g.instructions) for g in results["x1"][1].games]
    for label, (_s, report) in results.items():
        same = [(g.secret, g.guesses, g.instructions) for g in report.games] == reference
        if not same or not report.all_passed:
            print(f"MISMATCH: {label} did not play the same games as x1", file=sys.stderr)
            return 1
    one, many = results["x1"][0], results[runs[1][0]][0]
    print(f"secrets: {len(secrets)}; both runs played identical games; {runs[1][0]} / x1: {many / one:.1%} of the wall time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
