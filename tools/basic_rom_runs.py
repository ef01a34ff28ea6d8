#!/usr/bin/env python3
"""Run small BASIC programs on the real ROM (the cbmbasic oracle) and store what it printed.

Writes tests/fixtures/basic_rom/runs.json: [{"source": ..., "rom": ...}], the ROM's output
as runprg.sh normalises it (CR -> LF, cursor-right -> blank; script mode prints no READY.).
The programs are tokenized with asm6502 (byte-exact with the ROM's CRUNCH, see
tests/test_basic_tok*.py).  Maintainer use only, needs the cbmbasic oracle (``$CBMBASIC``, ``$CBMBASIC_ORACLE``: tools/oracles.py):

    .venv/bin/python tools/basic_rom_runs.py
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import sys
from pathlib import Path

from asm6502.basic.tokenizer import tokenize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oracles import cbmbasic_dir, require_cbmbasic  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUNPRG = cbmbasic_dir() / "runprg.sh"
OUT = ROOT / "tests" / "fixtures" / "basic_rom" / "runs.json"

# PTRGET ($B08B) corners: ST/TI reserved only as plain variables; FN names; LIST in a program.
PROGRAMS = [
    "10 dim st(5):st(1)=3:print st(1)",
    "10 dim ti(3):ti(2)=4:print ti(2)",
    "10 stack(2)=7:print stack(2);st(2)",
    "10 st(1)=5:ti(1)=6:print st(1);ti(1);st;ti$(1)",
    "10 dim st$(2):st$(1)=\"x\":ti$(0)=\"y\":print st$(1);ti$(0)",
    "10 ti%=3:st$=\"x\":st%=4:print ti%;st$;st%",
    "10 ti=5",
    "10 st=5",
    "10 time=3",
    "10 stop=3",
    "10 for ti=1 to 2:next",
    "10 for st(1)=1 to 2:next",
    "10 for i%=1 to 2:next",
    "10 read st:data 1",
    "10 get ti",
    "10 def fn ti(x)=x*2:def fn st(x)=x+1:print fn ti(3);fn st(3)",
    "10 def fn a%(x)=1",
    "10 def fn a(x%)=1",
    "10 def fn a$(x)=1",
    "10 def fn a(x$)=1",
    "10 print fn a%(1)",
    "10 print fn a$(1)",
    "10 print st;ti(1);st(2)",
    '10 print "a";:list',
    '10 print "a"\n20 list',
    '10 rem x\n20 print "b";\n30 list 10-20',
]


def run(source: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        prg = Path(tmp) / "p.prg"
        prg.write_bytes(tokenize(source + "\n").prg)
        proc = subprocess.run([str(RUNPRG), str(prg)], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        return proc.stdout.decode("latin-1")


def main() -> None:
    require_cbmbasic("tools/basic_rom_runs.py")
    cases = [{"source": source, "rom": run(source)} for source in PROGRAMS]
    OUT.write_text(json.dumps(cases, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(cases)} runs)")


if __name__ == "__main__":
    main()
