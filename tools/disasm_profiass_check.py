#!/usr/bin/env python3
"""Assemble disassemblies with the ORIGINAL Profi-Ass 64 V2.0 (the oracle) and compare the bytes.

    .venv/bin/python tools/disasm_profiass_check.py [--random N] [--fixtures]

Superhirn II (build/superhirn.prg) is disassembled in Profi-Ass syntax and fed to
the oracle's profiass.py (``$PROFIASS_ORACLE``, tools/oracles.py; real ROMs, real Profi-Ass, typed in key by key);
its object code must equal the .prg.  --random N does the same for N random programs of
tests/disasm_programs.py (documented opcodes, at $C000, where '.opt oo' may assemble into
memory without hitting the source, Profi-Ass or the zero page) and N arbitrary byte strings.
--fixtures writes what the oracle printed for Superhirn to tests/fixtures/disasm/ (the source
fed to it, the screen output, the object file), for tests/test_disasm_profiass.py.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from disasm_programs import FlowGen  # noqa: E402

from asm6502.disasm import disassemble  # noqa: E402
from oracles import profiass_dir, require_profiass  # noqa: E402

ORACLE = profiass_dir() / "profiass.py"
FIXTURES = ROOT / "tests" / "fixtures" / "disasm"


def oracle(source: str) -> tuple[bytes, str]:
    """(object .prg, screen output) of the original assembler."""
    with tempfile.TemporaryDirectory() as tmp:
        src, obj = Path(tmp, "src.txt"), Path(tmp, "obj.prg")
        src.write_text(source)
        proc = subprocess.run([sys.executable, str(ORACLE), str(src), "--obj", str(obj)],
                              capture_output=True, text=True, timeout=300)
        return (obj.read_bytes() if obj.exists() else b""), proc.stdout


def check(name: str, origin: int, data: bytes) -> bool:
    source = disassemble(origin, data, title=name)
    obj, screen = oracle(source)
    ok = obj == origin.to_bytes(2, "little") + data and "NO ERRORS" in screen
    if not ok:
        print(f"{name}: DIFFERENT\n{screen}", file=sys.stderr)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--random", type=int, default=0, metavar="N")
    ap.add_argument("--fixtures", action="store_true")
    args = ap.parse_args()
    require_profiass("tools/disasm_profiass_check.py")  # no oracle: say so, not "DIFFERS" / "0 of N"
    prg = (ROOT / "build" / "superhirn.prg").read_bytes()
    source = disassemble(0x3400, prg[2:], title="superhirn.prg")
    obj, screen = oracle(source)
    same = obj == prg
    print(f"superhirn.prg: original Profi-Ass {'assembles the disassembly to the same bytes' if same else 'DIFFERS'}"
          f" ({'NO ERRORS' if 'NO ERRORS' in screen else 'errors'})")
    with tempfile.TemporaryDirectory() as tmp:  # the same source tokenized as a C64 saves it, then LOADed
        src, tok, obj2 = Path(tmp, "sh.asm"), Path(tmp, "sh-src.prg"), Path(tmp, "obj.prg")
        src.write_text(source)
        subprocess.run([sys.executable, "-m", "asm6502", "basic", "tok", str(src), "-o", str(tok)], check=True)
        subprocess.run([sys.executable, str(ORACLE), "--prg", str(tok), "--obj", str(obj2)], capture_output=True,
                       timeout=300)
        loaded_same = obj2.exists() and obj2.read_bytes() == prg
    print(f"superhirn.prg: tokenized with 'asm6502 basic tok' and LOADed: {'same bytes' if loaded_same else 'DIFFERS'}")
    same = same and loaded_same
    if args.fixtures:
        FIXTURES.mkdir(parents=True, exist_ok=True)
        (FIXTURES / "superhirn.profi.asm").write_text(source)
        (FIXTURES / "superhirn.profiass-screen.txt").write_text(screen)
        (FIXTURES / "superhirn.profiass-object.prg").write_bytes(obj)
    good = int(same)
    total = 1
    for seed in range(args.random):
        data, _ = FlowGen(seed).program(0xC000)
        good += check(f"flow{seed}", 0xC000, data)
        rnd = random.Random(seed)
        good += check(f"bytes{seed}", 0xC000, bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 300))))
        total += 2
    print(f"{good} of {total} disassemblies assembled by the original Profi-Ass to the same bytes")
    return 0 if good == total else 1


if __name__ == "__main__":
    sys.exit(main())
