"""Peak memory (maximum resident set) and time of asm6502 commands on large and hostile inputs.

Each command runs as a user runs it, in its own process, forked by a small launcher that reports the
command's own ru_maxrss (os.wait4; see _LAUNCHER); an address-space limit (--limit-mb) keeps a runaway
from taking the shared machine down. The ratio is the peak above the tiny command's, per input byte.

    .venv/bin/python bench/bench_memory.py            # every case, the table of bench/README.md
    .venv/bin/python bench/bench_memory.py --case blank-32mb
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_assemblers import compile_package  # noqa: E402  (the commands run byte-compiled, as an installed package:

# compiling a module at start-up would be measured too -- 2 MB more on the large program)
ASM6502 = [sys.executable, "-m", "asm6502"]


def make_inputs(folder: Path) -> dict[str, Path]:
    subprocess.run([sys.executable, str(HERE / "gen_large.py"), "--out", str(folder)], check=True, capture_output=True)
    subprocess.run([sys.executable, str(HERE / "gen_large.py"), "--out", str(folder / "quarter"), "--lines", "12500"],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, str(HERE / "gen_real.py"), "--out", str(folder)], check=True, capture_output=True)
    (folder / "blank.asm").write_bytes(b"\n" * 32_000_000)
    (folder / "nop.asm").write_bytes(b"10 *= $c000\n" + b" nop\n" * 1_000_000)
    (folder / "bad.asm").write_bytes(b"10 *= $c000\n" + b" xq\n" * 1_000_000)  # an error a line
    (folder / "tiny.asm").write_text("10 *= $c000\n20 rts\n")
    (folder / "loop.asm").write_text("10 *= $c000\n20 loop lda #65\n30 jsr $ffd2\n40 jmp loop\n")
    subprocess.run(ASM6502 + ["loop.asm", "-o", "loop.prg"], cwd=folder, check=True)
    body = "".join(f"{100 + i} nop ; a comment to make the source 2 mb long\n" for i in range(45_000))
    (folder / "self.asm").write_text("10 *=$c000\n" + body + '63000 .file 8,"self.asm"\n')
    return {name: folder / name for name in ("tiny.asm", "big.asm", "quarter/big.asm", "real.asm", "blank.asm", "nop.asm", "bad.asm",
                                          "loop.prg", "self.asm")}


CASES = {
    # name: (command words, the input whose size the ratio is taken of)
    "tiny (the fixed base)": (["tiny.asm", "-o", "out.prg"], "tiny.asm"),
    "large (bench)": (["big.asm", "-o", "out.bin", "--format", "raw", "-q"], "big.asm"),
    "large, a quarter": (["quarter/big.asm", "-o", "out.bin", "--format", "raw", "-q"], "quarter/big.asm"),
    "large + listing": (["big.asm", "-o", "out.bin", "--format", "raw", "-q", "--listing", "out.lst"], "big.asm"),
    "real (bench)": (["real.asm", "-o", "out.bin", "--format", "raw", "-q"], "real.asm"),
    "blank-32mb": (["blank.asm", "-o", "out.bin", "-q"], "blank.asm"),
    "blank-32mb convert": (["convert", "blank.asm", "--to", "acme", "-o", "out.a", "-q"], "blank.asm"),
    "nop-1M-lines": (["nop.asm", "-o", "out.bin", "-q"], "nop.asm"),
    "1M lines, an error each": (["bad.asm", "-o", "out.bin", "-q"], "bad.asm"),
    "self .file 2 MB": (["self.asm", "-o", "out.bin", "-q"], "self.asm"),
    "run print loop 30M insns": (["run", "loop.prg", "--max-instructions", "30000000"], "loop.prg"),
}


# Linux counts in a process's ru_maxrss the resident memory of every address space it has had: a
# child forked from this script starts with this script's pages (20 MB and more once asm6502 is
# imported here), and exec keeps that high-water mark -- a command that peaks below it would measure
# this script.  So each command is forked by a small launcher of its own (a bare interpreter, about
# 8 MB: less than the smallest command measured) that reports the command's own ru_maxrss.
_LAUNCHER = """
import os, resource, sys, time
limit = int(sys.argv[1]) << 20
started = time.perf_counter()
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), time.perf_counter() - started, usage.ru_maxrss)
"""


def measure(words: list[str], cwd: Path, limit_mb: int) -> tuple[int, float, int]:
    """(exit status, seconds, peak KB) of one command."""
    proc = subprocess.run([sys.executable, "-S", "-c", _LAUNCHER, str(limit_mb)] + ASM6502 + words, cwd=cwd,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, check=True)
    status, seconds, peak_kb = proc.stdout.split()  # (the command's own output: /dev/null)
    return int(status), float(seconds), int(peak_kb)  # KB on Linux


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="only these cases")
    parser.add_argument("--limit-mb", type=int, default=4000, help="address-space limit of each command")
    args = parser.parse_args()
    compile_package()
    folder = Path(tempfile.mkdtemp(prefix="asm6502-mem-"))
    try:
        inputs = make_inputs(folder)
        base_kb = measure(CASES["tiny (the fixed base)"][0], folder, args.limit_mb)[2]
        print(f"{'case':<26} {'input':>10} {'exit':>4} {'time':>7} {'peak RSS':>10} {'(RSS-base)/input':>16}")
        peaks = {}
        for name in args.case or list(CASES):
            words, measured = CASES[name]
            size = inputs[measured].stat().st_size
            code, seconds, peak_kb = measure(words, folder, args.limit_mb)
            peaks[name] = (size, peak_kb)
            # (no ratio for an input of a few bytes -- the run case's 10-byte program: its command's own base is
            # another, the emulator's modules)
            ratio = f"{max(0, peak_kb - base_kb) * 1024 / size:>15.1f}x" if size >= 1024 else f"{'-':>16}"
            print(f"{name:<26} {size / 1e6:>8.2f}MB {code:>4} {seconds:>6.2f}s {peak_kb / 1024:>8.0f}MB {ratio}", flush=True)
        if "large (bench)" in peaks and "large, a quarter" in peaks:  # what each more byte of such a program costs,
            # the fixed costs a program meets (lazily made tables, imports) taken out: the "20 x the input plus a base"
            (size, peak), (small, small_peak) = peaks["large (bench)"], peaks["large, a quarter"]
            print(f"slope, large against a quarter of it: {(peak - small_peak) * 1024 / (size - small):.1f} bytes per input byte")
    finally:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
