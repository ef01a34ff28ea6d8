#!/usr/bin/env python3
"""Measure how deep the C64 BASIC ROM nests before ?OUT OF MEMORY, with the ROM itself.

For every probe in tests/fixtures/basic_stack_limits.txt (a program whose
nesting grows with N) this finds the smallest N at which the ROM stops with
?OUT OF MEMORY, and rewrites the last column of the fixture.  The ROM is
mist64/cbmbasic (``$CBMBASIC_ORACLE``, see tools/oracles.py); the programs are
tokenized by asm6502 (the ROM's own editor truncates lines at 80 characters).

    python3 tools/basic_stack_limits.py [--oracle DIR]

tests/test_basic_stack.py checks the interpreter against the fixture.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "basic_stack_limits.txt"
sys.path.insert(0, str(ROOT))

from asm6502.basic.tokenizer import tokenize  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from oracles import cbmbasic_dir, require_cbmbasic  # noqa: E402


def read_probes(path: Path = FIXTURE) -> list[list[str]]:
    """Rows ``name | program with {n} (\\n between lines) | smallest N giving ?OUT OF MEMORY``."""
    rows = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append([field.strip() for field in line.split("|")])
    return rows


def program(template: str, n: int) -> str:
    return eval("f" + repr(template.replace("\\n", "\n")), {"n": n, "rep": lambda s, k: s * k}) + "\n"


def rom_runs_out(oracle: Path, text: str) -> bool:
    prg = tokenize(text, filename="probe").prg
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.prg"
        path.write_bytes(prg)
        out = subprocess.run([str(oracle / "runprg.sh"), str(path)], stdin=subprocess.DEVNULL,
                             capture_output=True, timeout=30).stdout
    return b"OUT OF MEMORY" in out


def first_failure(oracle: Path, template: str, high: int = 40) -> int:
    low = 0  # runs; high: runs out (checked)
    if not rom_runs_out(oracle, program(template, high)):
        raise SystemExit(f"no ?OUT OF MEMORY at n={high}: {template}")
    while high - low > 1:
        mid = (low + high) // 2
        if rom_runs_out(oracle, program(template, mid)):
            high = mid
        else:
            low = mid
    return high


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--oracle", type=Path, default=cbmbasic_dir())
    args = ap.parse_args()
    os.environ.setdefault("CBMBASIC_ORACLE", str(args.oracle))
    require_cbmbasic("tools/basic_stack_limits.py")
    header = [line for line in FIXTURE.read_text().splitlines() if line.startswith("#")]
    out = []
    for name, template, _old in read_probes():
        n = first_failure(args.oracle, template)
        print(f"{name}: {n}", file=sys.stderr)
        out.append(f"{name} | {template} | {n}")
    FIXTURE.write_text("\n".join(header + out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
