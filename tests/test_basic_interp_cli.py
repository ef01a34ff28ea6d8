"""``asm6502 basic run`` end to end, and SYS into machine code via the py65 harness."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize

ROOT = Path(__file__).resolve().parents[1]


def asm6502(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "asm6502", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def write_prg(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "p.prg"
    path.write_bytes(tokenize(source).prg)
    return path


def test_run_prints_and_reads_input_file(tmp_path):
    prg = write_prg(tmp_path, '10 input "n";n\n20 print n*n\n')
    keys = tmp_path / "keys.txt"
    keys.write_text("12\n")
    proc = asm6502("basic", "run", str(prg), "--input", str(keys))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "N? 12\n 144 \n\nREADY.\n"  # the cursor-right after 144 streams as a blank


def test_run_reads_standard_input_and_seed_sets_ti(tmp_path):
    prg = write_prg(tmp_path, "10 input a$:print a$;ti\n")
    proc = asm6502("basic", "run", str(prg), "--seed", "600", stdin="yes\n")
    assert proc.returncode == 0, proc.stderr
    assert [line.rstrip() for line in proc.stdout.splitlines()[:2]] == ["? YES", "YES 600"]


def test_basic_error_exit_code(tmp_path):
    prg = write_prg(tmp_path, "10 print 1/0\n")
    proc = asm6502("basic", "run", str(prg))
    assert proc.returncode == 1
    assert "?DIVISION BY ZERO  ERROR IN 10" in proc.stdout


def test_statement_limit_and_screen_dump(tmp_path):
    prg = write_prg(tmp_path, '10 print "{clr}loop":goto 10\n')
    proc = asm6502("basic", "run", str(prg), "--max-statements", "50", "--screen")
    assert proc.returncode == 3
    assert proc.stdout.splitlines()[0] == "LOOP"
    assert "stopped after 50 statements" in proc.stderr


def test_missing_file_and_bad_prg(tmp_path):
    proc = asm6502("basic", "run", str(tmp_path / "nope.prg"))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    bad = tmp_path / "bad.prg"
    bad.write_bytes(b"\x01")
    proc = asm6502("basic", "run", str(bad))
    assert proc.returncode == 1 and "error" in proc.stderr and "Traceback" not in proc.stderr


def test_sys_runs_machine_code_in_the_harness():
    # LDA #"A" : JSR $FFD2 : LDA #2 : STA $0450 : LDA #7 : STA $030C : RTS
    code = [0xA9, 0x41, 0x20, 0xD2, 0xFF, 0xA9, 0x02, 0x8D, 0x50, 0x04, 0xA9, 0x07, 0x8D, 0x0C, 0x03, 0x60]
    source = (f"10 for i=0 to {len(code) - 1}:read b:poke 49152+i,b:next\n"
              "20 sys 49152:print:print peek(780)\n"
              f"30 data {','.join(map(str, code))}\n")
    result = run_prg(tokenize(source).prg, options=RunOptions(seed=0))
    # CHROUT printed "A"; the STA put screen code 2 ("B") at row 2; SYS stored A=7 at 780
    assert result.transcript == "A\n 7\nB\nREADY.\n"


def test_sys_without_harness_is_reported():
    result = run_prg(tokenize("10 sys 49152\n").prg, options=RunOptions(seed=0), sys_handler=None)
    assert result.reason == "unsupported" and "49152" in result.message
