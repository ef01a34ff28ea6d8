"""Time asm6502 against 64tass, ACME and Ophis on two large programs, in the same run.

    .venv/bin/python bench/bench_assemblers.py [--program all|large|real] [--repeat 3]

The programs, each written in our dialect and in 64tass, ACME and Ophis syntax:

* ``large`` (``gen_large.py``): one instruction a line, every addressing mode of every
  mnemonic, equates, labels, branches, ``.byt``/``.wor``;
* ``real`` (``gen_real.py``): shaped like a real Profi-Ass source -- ``.opt``, macros with
  local labels, ``:`` between statements, comments, strings, tables made by ``.goto``
  loops, conditional assembly.

Each tool assembles each program ``--repeat`` times, in rounds: every round runs every tool
once, so that a slow or fast spell of a shared machine falls on all tools alike.  The best
wall-clock time counts, and the best CPU time (user + system of the tool's process) is shown
beside it: on a shared machine the wall clock also waits for other processes, the CPU time much
less.
All outputs of a program must be byte-identical, and every peer must be installed (exit
status 1 otherwise: a ratio without its peer measured in the same run is no result).
``make bench`` installs Ophis into .venv first.

Timed:

* ``asm6502``          -- ``.venv/bin/asm6502 SRC -o ... --format raw -q`` (the command as a
  user runs it: Python start-up and imports included; the package is byte-compiled first,
  as pip does for an installed package);
* ``asm6502 listing``  -- the same with ``--listing FILE``;
* ``64tass``  -- ``64tass --nostart``;  ``acme`` -- ``acme -f plain``;
* ``ophis``   -- the ``ophis`` command from the ``ophis-asm`` package (see README).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_large  # noqa: E402
import gen_real  # noqa: E402

GOAL = 0.20  # asm6502 / Ophis, measured in the same run
INSTALL = {"ophis": "'make bench' installs it into .venv: pip install ophis-asm",
           "64tass": "apt-get install 64tass", "acme": "apt-get install acme"}


def cpu_now() -> float:
    """CPU time (user + system) of this process and of its finished child processes."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(fn) -> tuple[float, float]:
    """The wall-clock time and the CPU time of one run of ``fn``."""
    c0 = cpu_now()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0, cpu_now() - c0


def run_tool(args: list[str]) -> None:
    proc = subprocess.run(args, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")


def compile_package() -> None:
    """Byte-compile asm6502 as pip does for an installed package (Ophis's modules are compiled
    at its installation; an editable install with PYTHONDONTWRITEBYTECODE set would otherwise
    compile ours at every start of the command)."""
    import compileall

    import asm6502

    compileall.compile_dir(str(Path(asm6502.__file__).parent), quiet=1)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    compile_package()
    if args.keep:
        return _bench(args, Path(args.keep))
    with tempfile.TemporaryDirectory(prefix="asm6502-bench-") as tmp:
        return _bench(args, Path(tmp))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="benchmark asm6502 against 64tass, ACME and Ophis")
    parser.add_argument("--program", choices=("all", "large", "real"), default="all", help="which program (default: both)")
    parser.add_argument("--lines", type=int, default=50_000, help="size of the large program in lines (default 50000)")
    parser.add_argument("--seed", type=int, default=6502, help="generator seed (default 6502)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tool; the best time counts (default 3)")
    parser.add_argument("--keep", metavar="DIR", help="keep the generated sources and outputs in DIR")
    return parser


def _sources(program: str, args, work: Path) -> dict[str, Path]:
    """Write the program in every dialect; return dialect -> path."""
    if program == "large":
        items = gen_large.generate(args.lines, args.seed)
        texts = {d: gen_large.render_program(items, d) for d in gen_large.DIALECTS}
    else:
        prog = gen_real.generate(seed=args.seed)
        texts = {d: gen_real.render(prog, d) for d in gen_real.DIALECTS}
    paths = {}
    for dialect, text in texts.items():
        paths[dialect] = work / f"{program}{gen_large.SUFFIX[dialect]}"
        paths[dialect].write_text(text)
    return paths


def _bench(args, work: Path) -> int:
    work.mkdir(parents=True, exist_ok=True)
    venv_bin = Path(sys.executable).parent
    ours = shutil.which("asm6502", path=str(venv_bin)) or shutil.which("asm6502")
    ophis = shutil.which("ophis", path=str(venv_bin)) or shutil.which("ophis")
    status = 0
    programs = ("large", "real") if args.program == "all" else (args.program,)
    print(f"best of {args.repeat} runs per tool, in {args.repeat} rounds" + (f", files in {work}" if args.keep else ""))
    for program in programs:
        src = _sources(program, args, work)
        out = {name: work / f"{program}-{name.replace(' ', '-')}.bin" for name in ("asm6502", "asm6502 listing", "64tass", "acme", "ophis")}
        ours_cmd = [ours, str(src["asm6502"]), "--format", "raw", "-q", "-o", str(out["asm6502"])] if ours else None
        tools = {
            "asm6502": ours_cmd,
            "asm6502 listing": ours_cmd and ours_cmd[:-1] + [str(out["asm6502 listing"]), "--listing", str(work / f"{program}.lst")],
            "64tass": [shutil.which("64tass") or "64tass", "--nostart", "--quiet", "--no-warn", "-o", str(out["64tass"]), str(src["64tass"])],
            "acme": [shutil.which("acme") or "acme", "-f", "plain", "-o", str(out["acme"]), str(src["acme"])],
            "ophis": [ophis, "-q", "-o", str(out["ophis"]), str(src["ophis"])] if ophis else None,
        }
        missing = [name for name, cmd in tools.items() if cmd is None or shutil.which(cmd[0]) is None]
        runnable = {name: cmd for name, cmd in tools.items() if name not in missing}
        samples: dict[str, list[tuple[float, float]]] = {name: [] for name in runnable}
        print(f"'{program}': {args.repeat} rounds of {len(runnable)} commands, each command once a round (about a "
              "minute for both programs on 2 cores)", file=sys.stderr, flush=True)
        # Round robin: every tool is timed once in each round, so that a slower or faster spell of a
        # shared machine falls on all of them alike, not on the tool that happened to run then.
        for round_number in range(1, args.repeat + 1):
            print(f"  round {round_number}/{args.repeat} ...", file=sys.stderr, flush=True)
            for name, cmd in list(runnable.items()):
                try:
                    samples[name].append(timed(lambda: run_tool(cmd)))
                except RuntimeError as exc:
                    print(f"ERROR: {name} failed on '{program}': {str(exc).splitlines()[1:2]}", file=sys.stderr)
                    status = 1
                    del runnable[name], samples[name]
        times = {name: min(t for t, _ in runs) for name, runs in samples.items()}
        cpu = {name: min(c for _, c in runs) for name, runs in samples.items()}
        outputs = {name: out[name].read_bytes() for name in times}
        reference = outputs.get("64tass") or next(iter(outputs.values()))
        lines = src["asm6502"].read_text().count("\n")
        print()
        print(f"program '{program}': {lines} lines in our dialect, {len(reference)} bytes")
        print(f"{'assembler':<18} {'time (s)':>9} {'CPU (s)':>8} {'lines/s':>10}  output")
        for name, t in times.items():
            same = "identical" if outputs[name] == reference else "DIFFERENT"
            print(f"{name:<18} {t:>9.3f} {cpu[name]:>8.3f} {lines / t:>10,.0f}  {same}")
        for name in missing:
            print(f"{name:<18} {'-':>9} {'-':>8} {'-':>10}  not installed")
            print(f"ERROR: {name} is not installed ({INSTALL.get(name, 'make')}); the benchmark needs every peer",
                  file=sys.stderr)
            status = 1
        print(f"{'ratio':<26} {'time':>7} {'CPU':>7}")
        for mine in ("asm6502", "asm6502 listing"):
            for other in ("ophis", "64tass", "acme"):
                if mine in times and other in times:
                    goal = f"   (goal: <= {GOAL:.2f})" if other == "ophis" else ""
                    print(f"{mine + ' / ' + other:<26} {times[mine] / times[other]:7.2f} {cpu[mine] / cpu[other]:7.2f}{goal}")
        if any(data != reference for data in outputs.values()):
            print(f"ERROR: the outputs of '{program}' differ", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
