"""Time asm6502 against 64tass, ACME and Ophis on one large program, in the same run.

    .venv/bin/python bench/bench_assemblers.py [--lines 50000] [--repeat 3]

Generates the program with ``gen_large.py`` (our dialect, 64tass, ACME and Ophis
syntax), assembles it with every tool ``--repeat`` times, keeps the best wall-clock
time of each, checks that all outputs are byte-identical and prints a table with
the ratios.  A missing tool is reported and left out.  Exit status 1 if any
output differs.

Timed:

* ``asm6502 (in-process)`` -- ``assemble()`` on the text already in memory, without a
  listing (like the CLI without ``--listing``); ``(in-process, listing)`` keeps the listing;
* ``asm6502 (CLI)``        -- ``.venv/bin/asm6502 big.asm -o ... --format raw``
  (includes the Python start-up and imports);
* ``64tass``  -- ``64tass --nostart``;  ``acme`` -- ``acme -f plain``;
* ``ophis``   -- the ``ophis`` command from the ``ophis-asm`` package (see README).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_large  # noqa: E402

from asm6502.assembler import Options, assemble  # noqa: E402


def best_of(repeat: int, fn) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def run_tool(args: list[str]) -> None:
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.keep:
        return _bench(args, Path(args.keep))
    with tempfile.TemporaryDirectory(prefix="asm6502-bench-") as tmp:
        return _bench(args, Path(tmp))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="benchmark asm6502 against 64tass, ACME and Ophis")
    parser.add_argument("--lines", type=int, default=50_000, help="program size in lines (default 50000)")
    parser.add_argument("--seed", type=int, default=6502, help="generator seed (default 6502)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tool; the best time counts (default 3)")
    parser.add_argument("--keep", metavar="DIR", help="keep the generated sources and outputs in DIR")
    return parser


def _bench(args, work: Path) -> int:
    items = gen_large.generate(args.lines, args.seed)
    work.mkdir(parents=True, exist_ok=True)
    src = {}
    for dialect in gen_large.DIALECTS:
        src[dialect] = work / f"big{gen_large.SUFFIX[dialect]}"
        src[dialect].write_text(gen_large.render_program(items, dialect))
    text = src["asm6502"].read_text()

    venv_bin = Path(sys.executable).parent
    ours_cli = shutil.which("asm6502", path=str(venv_bin)) or shutil.which("asm6502")
    ophis = shutil.which("ophis", path=str(venv_bin)) or shutil.which("ophis")
    tools = {
        "asm6502 (in-process)": (None, work / "ours-inproc.bin"),
        "asm6502 (in-process, listing)": (None, work / "ours-inproc-listing.bin"),
        "asm6502 (CLI)": ([ours_cli, str(src["asm6502"]), "--format", "raw", "-q", "-o", str(work / "ours-cli.bin")] if ours_cli else None,
                          work / "ours-cli.bin"),
        "64tass": ([shutil.which("64tass") or "64tass", "--nostart", "--quiet", "--no-warn", "-o", str(work / "64tass.bin"), str(src["64tass"])],
                   work / "64tass.bin"),
        "acme": ([shutil.which("acme") or "acme", "-f", "plain", "-o", str(work / "acme.bin"), str(src["acme"])], work / "acme.bin"),
        "ophis": ([ophis, "-q", "-o", str(work / "ophis.bin"), str(src["ophis"])] if ophis else None, work / "ophis.bin"),
    }

    times: dict[str, float] = {}
    missing = []
    print(f"timing {len(tools)} assemblers, {args.repeat} runs each, on {args.lines:,} lines "
          "(under a minute on 2 cores; progress on stderr)", file=sys.stderr, flush=True)
    for i, (name, (cmd, out)) in enumerate(tools.items(), 1):
        print(f"  [{i}/{len(tools)}] {name} ...", file=sys.stderr, flush=True)
        if name.startswith("asm6502 (in-process"):
            holder = {}
            options = Options(listing=name.endswith("listing)"))
            times[name] = best_of(args.repeat, lambda: holder.__setitem__("r", assemble(text, str(src["asm6502"]), options)))
            out.write_bytes(holder["r"].image)
            continue
        if cmd is None or shutil.which(cmd[0]) is None:
            missing.append(name)
            continue
        times[name] = best_of(args.repeat, lambda: run_tool(cmd))

    outputs = {name: tools[name][1].read_bytes() for name in times}
    reference = outputs["asm6502 (in-process)"]
    identical = all(data == reference for data in outputs.values())

    lines = text.count("\n")
    print(f"program: {lines} lines, {len(reference)} bytes (${gen_large.START:04X}-${gen_large.START + len(reference) - 1:04X}), "
          f"best of {args.repeat} runs" + (f", files in {work}" if args.keep else ""))
    print(f"{'assembler':<30} {'time (s)':>9} {'lines/s':>10}  output")
    for name, t in times.items():
        same = "identical" if outputs[name] == reference else "DIFFERENT"
        print(f"{name:<30} {t:>9.3f} {lines / t:>10,.0f}  {same}")
    for name in missing:
        print(f"{name:<30} {'-':>9} {'-':>10}  not installed")
    ours = times["asm6502 (CLI)"] if "asm6502 (CLI)" in times else times["asm6502 (in-process)"]
    print()
    for other in ("ophis", "64tass", "acme"):
        if other in times:
            print(f"asm6502 CLI / {other:<7} = {ours / times[other]:7.2f}" + ("   (goal: <= 0.20)" if other == "ophis" else ""))
    if "ophis" in times:
        print(f"asm6502 in-process / ophis = {times['asm6502 (in-process)'] / times['ophis']:5.2f}")
    if not identical:
        print("ERROR: the outputs differ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
