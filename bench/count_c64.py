"""Machine instructions of the C64 machine's workloads (bench/bench_c64.py's), counted by
valgrind's callgrind: the same count in every run, where a timing moves by per cents on a
shared machine.  Each workload is one run of a script that boots the machine to READY.,
builds the workload (a program assembled, the assembler's modules imported) and runs it
once, less the same script that builds it and does not run it, byte-compiled first,
``PYTHONHASHSEED=0``.

usage:
  .venv/bin/python bench/count_c64.py --roms DIR [--tree REV-OR-DIR] [WORKLOAD ...]

Millions of instructions per workload; ``--tree`` counts another tree's (a folder, or a git
revision archived to a scratch folder; it must have bench/bench_c64.py's ``Workloads``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = ("boot", "basic", "banking", "banking_plain", "under_rom", "under_rom_plain", "raster")
SCRIPT = """import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/bench")
import bench_c64
from asm6502.emu.c64 import roms, session
work = bench_c64.Workloads(session.images(roms.find_roms(sys.argv[2]).roms))
workload = work.named(sys.argv[3])
if sys.argv[4] == "run":
    workload()
"""


def count(tree: Path, roms: str, workload: str, scratch: Path, run: str) -> int:
    """Total instructions of one run of SCRIPT for *workload* on *tree* (*run*: "run" or "build")."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPYCACHEPREFIX=str(scratch / "pycache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    script = scratch / "count.py"
    script.write_text(SCRIPT)
    command = [sys.executable, str(script), str(tree), roms, workload, run]
    subprocess.run(command, env=env, check=True, capture_output=True)  # writes the byte-code
    out = scratch / "callgrind.out"
    proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                          env=env, capture_output=True, text=True)
    found = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.MULTILINE)
    if proc.returncode or found is None:
        raise SystemExit(f"count_c64: {workload}: no count from callgrind:\n{proc.stderr}")
    out.unlink()
    return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--roms", required=True, help="ROM directory")
    ap.add_argument("--tree", help="a folder or a git revision (default: this checkout)")
    ap.add_argument("workloads", nargs="*", help=f"of {', '.join(WORKLOADS)} (default: all)")
    args = ap.parse_args()
    unknown = sorted(set(args.workloads) - set(WORKLOADS))
    if unknown:
        ap.error(f"no workload {', '.join(unknown)}")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        tree = ROOT
        if args.tree and Path(args.tree).is_dir():
            tree = Path(args.tree).resolve()
        elif args.tree:
            tree = scratch / "tree"
            tree.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.tree], capture_output=True,
                                     check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        for name in args.workloads or WORKLOADS:
            ran = count(tree, args.roms, name, scratch, "run") - count(tree, args.roms, name, scratch, "build")
            print(f"{name:<16} {ran / 1e6:>10,.1f} M", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
