"""Benchmark the Superhirn sweep: naive py65 loop vs the harness's fast path.

Runs, in one process tree and on the same secrets:

  naive      py65 ``MPU.step()`` per instruction, Python stub/opcode checks
             before every step, one process (the reference engine);
  fast x1    the fast engine in one process (per-core speed-up);
  fast xN    the fast engine with N worker processes (the real sweep).

Wall times depend on what else runs on the machine (the sweep needs both
cores free to reach its speed); CPU times (per-game process time, summed)
do not.

Every run must produce identical games (guesses and instruction counts).

usage:
  .venv/bin/python bench/bench_sweep.py                 # all 1296 secrets (~3 min)
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


def timed(prg: bytes, secrets, engine: str, jobs: int) -> tuple[float, sh.SweepReport]:
    started = time.perf_counter()
    report = sh.sweep(prg, secrets, jobs=jobs, engine=engine, scenarios=False)
    return time.perf_counter() - started, report


def main() -> int:
    p = argparse.ArgumentParser(description="naive vs fast Superhirn sweep benchmark")
    p.add_argument("--prg", help="program to run (default: assemble sources/superhirn.asm)")
    p.add_argument("--sample", type=int, default=0, metavar="N",
                   help="use N secrets spread over all 1296 (default: all)")
    p.add_argument("--jobs", type=int, default=2, help="processes for the fast sweep (default 2)")
    args = p.parse_args()

    prg = load_prg(args.prg)
    secrets = sh.program_order()
    if args.sample:
        step = max(1, len(secrets) // args.sample)
        secrets = secrets[::step][: args.sample]
    runs = [("naive", "naive", 1), ("fast x1", "fast", 1), (f"fast x{args.jobs}", "fast", args.jobs)]
    results = {}
    print(f"{len(secrets)} secrets, three runs; the naive one comes first and is the slowest "
          "(--sample N for a shorter run)", file=sys.stderr, flush=True)
    for label, engine, jobs in runs:
        print(f"running {label} ...", file=sys.stderr, flush=True)
        seconds, report = timed(prg, secrets, engine, jobs)
        results[label] = (seconds, report)
        rate = report.instructions / seconds
        print(f"{label:9s} {seconds:8.2f} s wall  {report.cpu_seconds:8.2f} CPU s  "
              f"{report.instructions:,} instructions  {rate:,.0f} instr/s", flush=True)

    reference = [(g.secret, g.guesses, g.instructions) for g in results["naive"][1].games]
    for label, (_s, report) in results.items():
        same = [(g.secret, g.guesses, g.instructions) for g in report.games] == reference
        if not same or not report.all_passed:
            print(f"MISMATCH: {label} did not play the same games as the naive loop", file=sys.stderr)
            return 1
    naive = results["naive"][0]
    naive_cpu = results["naive"][1].cpu_seconds
    print(f"secrets: {len(secrets)}; all runs played identical games")
    print(f"fast x1 / naive: {results['fast x1'][0] / naive:.1%} of the naive wall time, "
          f"{results['fast x1'][1].cpu_seconds / naive_cpu:.1%} of its CPU time (per-core speed)")
    sweep_label = f"fast x{args.jobs}"
    ratio = results[sweep_label][0] / naive
    print(f"{sweep_label} / naive: {ratio:.1%} of the naive time (goal: < 35%) -> "
          f"{'met' if ratio < 0.35 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
