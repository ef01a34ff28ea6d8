"""A newcomer's first hour: the files of examples/ and the mistakes a 64tass, ACME,
petcat or VICE user makes without reading, each with the answer the user needs."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asm6502.filetype import basic_line_chain, is_machine_code
from helpers import ROOT, run_cli

EXAMPLES = ROOT / "examples"
BUILD = ROOT / "build"


run = run_cli  # the command in-process (helpers.run_cli)


def assemble(capsys, tmp_path, source: str, name: str = "prog") -> Path:
    (tmp_path / f"{name}.asm").write_text(source)
    code, _, err = run(capsys, tmp_path / f"{name}.asm", "-o", tmp_path / f"{name}.prg")
    assert code == 0, err
    return tmp_path / f"{name}.prg"


def long_program(lines: int) -> str:
    """Machine code whose bytes happen to list as a few BASIC-looking lines (the issue's
    'unexpected { ... [SYNTAX 8] (line 8333)')."""
    body = [f"{120 + i} lda #{i % 256} : sta $d020" for i in range(lines)]
    return "\n".join(["100 sys 32768", "110 *= $c000", *body, f"{120 + lines} rts"]) + "\n"


# --- item 1: machine code given to the assembler or to 'basic run' ----------------------------

@pytest.mark.parametrize("program", ["hello", "long"])
@pytest.mark.parametrize("command", [(), ("basic", "run")], ids=["asm6502", "basic run"])
def test_machine_code_given_to_the_wrong_command_names_run(capsys, tmp_path, program, command):
    source = (EXAMPLES / "hello.asm").read_text() if program == "hello" else long_program(400)
    prg = assemble(capsys, tmp_path, source)
    code, out, err = run(capsys, *command, prg)
    assert code == 1 and out == ""
    assert "is a machine-code program (loads at $C000)" in err and f"'asm6502 run {prg}'" in err


@pytest.mark.parametrize("name", ["highiq.prg", "superhirn-src.prg"])
def test_basic_programs_and_saved_sources_chain_as_basic(name):
    data = (BUILD / name).read_bytes()
    lines, ended = basic_line_chain(data)
    assert ended and lines > 50 and not is_machine_code(data)


def test_machine_code_does_not_chain_as_basic():
    assert is_machine_code((BUILD / "superhirn.prg").read_bytes())


# --- item 2: an all-capital listing --------------------------------------------------------------

def test_the_capitals_example_tokenizes_as_typed_and_runs(capsys, tmp_path):
    code, _, err = run(capsys, "basic", "tok", EXAMPLES / "HELLO.BAS", "-o", tmp_path / "hello.prg")
    assert code == 0 and "warning" not in err and "note: no lower-case letter" in err
    code, out, _ = run(capsys, "basic", "list", tmp_path / "hello.prg")
    assert out.startswith('10 print "hello world"\n20 for i=1 to 3\n')
    code, out, _ = run(capsys, "basic", "run", tmp_path / "hello.prg")
    assert code == 0 and out.startswith("HELLO WORLD\n 1  2  3 \n")


# --- item 4: an interactive run says what the waiting cursor means --------------------------------

def test_an_interactive_run_says_once_that_the_program_waits_for_a_line():
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command on a terminal
        os.execv(sys.executable, [sys.executable, "-m", "asm6502", "run", str(BUILD / "superhirn.prg")])
    out = b""
    deadline = time.monotonic() + 20
    sent = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if not sent and b"RETURN" in out:
            os.write(fd, b"6\n0\n")  # 6 blacks: the program says ERROR and ends
            sent = True
    os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert "1234" in text and "ERROR" in text
    assert text.count("(the program waits for a line: type it and press RETURN") == 1


# --- the second program: raster bars, a headless screenshot, a type-in listing (docs/raster.md) ------

DOCS = ROOT / "docs"


def _stubs(*argv, roms: str = "none") -> subprocess.CompletedProcess:
    """An asm6502 command in a process of its own, with empty input, the ROM images looked for in ROMS."""
    return subprocess.run([sys.executable, "-m", "asm6502", *map(str, argv)], capture_output=True, text=True,
                          input="", env=dict(os.environ, ASM6502_ROMS=roms), timeout=120)


def _bars(capsys, tmp_path) -> Path:
    code, _, err = run(capsys, EXAMPLES / "bars.asm", "-o", tmp_path / "bars.prg")
    assert code == 0 and "$C000-$C0B1, 178 bytes" in err
    return tmp_path / "bars.prg"


def test_the_raster_example_on_the_stubs_gives_the_picture_in_docs(capsys, tmp_path):
    shot = tmp_path / "bars.png"
    proc = _stubs("run", _bars(capsys, tmp_path), "--cycles", "200000", "--screenshot", shot)
    code, out, err = proc.returncode, proc.stdout, proc.stderr
    assert code == 0 and out == "RASTER BARS. SPACE ENDS THEM.\n"
    assert "but no characters" in err and "error" not in err
    assert shot.read_bytes() == (DOCS / "bars.png").read_bytes()


def _real_roms() -> tuple[str | None, str]:
    """The folder of this machine's C64 ROM images (found as the commands find them: looked for when
    this module is imported, before each test's environment hides them), or why there is none."""
    from asm6502.diagnostics import DiagnosticError
    from asm6502.emu.c64.roms import find_roms

    try:
        lookup = find_roms()
    except DiagnosticError as exc:
        return None, str(exc)
    return (str(lookup.roms.origin), "") if lookup.roms is not None else (None, f"no C64 ROM images ({lookup.reason})")


REAL_ROMS, NO_ROMS_WHY = _real_roms()


@pytest.mark.skipif(REAL_ROMS is None, reason=NO_ROMS_WHY)
def test_the_raster_example_on_the_real_roms_gives_the_picture_in_docs(capsys, tmp_path):
    shot = tmp_path / "bars-c64.png"
    code, out, _ = run(capsys, "run", "--roms", REAL_ROMS, _bars(capsys, tmp_path), "--cycles", "3000000",
                       "--screenshot", shot)
    assert code == 0 and "SYS49152" in out and "RASTER BARS. SPACE ENDS THEM." in out
    assert shot.read_bytes() == (DOCS / "bars-c64.png").read_bytes()


@pytest.mark.parametrize("cycles, code, said", [
    (None, 1, "budget: instruction budget of 100,000 used up"),  # no --cycles: the error names it
    ("50000", 0, ""),  # --cycles N on the stubs: N cycles ran, a success
])
def test_a_program_that_never_returns_on_the_stubs(tmp_path, cycles, code, said):
    prg = tmp_path / "loop.prg"
    prg.write_bytes(b"\x00\xc0" + bytes([0xEE, 0x20, 0xD0, 0x4C, 0x00, 0xC0]))  # INC $D020 / JMP $C000
    limit = ["--cycles", cycles] if cycles else []
    proc = _stubs("run", prg, "--max-instructions", "100000", *limit, "--screenshot", tmp_path / "x.png")
    got, err = proc.returncode, proc.stderr
    assert got == code and said in err
    assert (tmp_path / "x.png").exists() == (code == 0)  # (a failed run writes nothing)
    if cycles is None:
        assert "by --cycles N" in err


def test_a_program_that_returns_before_its_cycles_is_a_success(capsys, tmp_path):
    prg = assemble(capsys, tmp_path, (EXAMPLES / "hello.asm").read_text())
    proc = _stubs("run", prg, "--cycles", "1000000", "--stats")
    assert proc.returncode == 0 and proc.stdout == "HELLO, WORLD!\n" and "note: returned" in proc.stderr


def test_a_machine_option_without_roms_says_what_was_looked_for(capsys, tmp_path):
    proc = _stubs("run", _bars(capsys, tmp_path), "--type", "x")
    code, err = proc.returncode, proc.stderr
    assert code == 1 and "--type needs the C64 ROM images, and none were found" in err
    assert "running with" not in err  # (it does not run)


# --- item 10: MSE readings --------------------------------------------------------------------------

def test_mse_all_fixes_lists_every_reading_found(capsys, tmp_path):
    two = tmp_path / "two.txt"  # two typos in one line: B for 8, E for 5
    two.write_text((EXAMPLES / "typo.mse.txt").read_text().replace("60 4B 45 3C", "60 4B 4E 3C"))
    code, _, err = run(capsys, "mse", "read", two)
    assert code == 1 and "less likely changes also match" in err and "--all-fixes" in err
    code, _, err = run(capsys, "mse", "read", two, "--all-fixes")
    listed = [line for line in err.splitlines() if line.lstrip()[:1].isdigit() and ". $C0" in line]
    assert code == 1
    total = int(err.split(" readings of line $C008")[0].rsplit(" ", 1)[1])
    assert len(listed) == total > 3


def test_mse_read_of_the_one_typo_example_names_the_fix(capsys, tmp_path):
    code, _, err = run(capsys, "mse", "read", EXAMPLES / "typo.mse.txt", "-o", tmp_path / "t.prg")
    assert code == 1 and not (tmp_path / "t.prg").exists()
    assert "note: possible fix: byte at $C00E: 48 instead of 4B (8 read as B: common OCR confusion)" in err


def test_verify_names_its_cases_without_issue_numbers():
    from asm6502.emu.superhirn import SCENARIOS

    assert not [s.source for s in SCENARIOS if "issue" in s.source]


def test_the_answers_example_plays_superhirn_to_ok(capsys):
    code, out, _ = run(capsys, "run", BUILD / "superhirn.prg", "--input", EXAMPLES / "answers.txt")
    assert code == 0 and out.startswith("1234\n") and out.endswith("3436\n4\nOK\n")


def test_the_bad_example_fails_with_the_readme_error(capsys, tmp_path):
    code, _, err = run(capsys, EXAMPLES / "bad.asm", "-o", tmp_path / "bad.prg")
    assert code == 1 and not (tmp_path / "bad.prg").exists()
    assert "bad.asm:3:8: error: undefined symbol 'nowhere' [UNDEF'D STATEMENT] (line 30)" in err


def test_examples_are_listed_in_their_readme():
    readme = (EXAMPLES / "README.md").read_text()
    files = sorted(p.name for p in EXAMPLES.iterdir() if p.name != "README.md")
    assert files and [name for name in files if f"`{name}`" not in readme] == []


def test_the_module_runs_as_a_command():
    proc = subprocess.run([sys.executable, "-m", "asm6502", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("asm6502 ")


# --- item 9: maintainer scripts without their oracle ------------------------------------------------

@pytest.mark.parametrize("script", [
    ["disasm_profiass_check.py"], ["profiass_oracle.py", "check", "1"], ["basic_rom_oracle.py", "--only", "SIN"],
    ["basic_rom_runs.py"], ["basic_stack_limits.py"]])
def test_a_maintainer_script_says_plainly_that_its_oracle_is_missing(tmp_path, script):
    env = dict(os.environ, PROFIASS_HOME=str(tmp_path / "none"), CBMBASIC=str(tmp_path / "none"))
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / script[0]), *script[1:]], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "oracle is not set up, so nothing was checked" in proc.stderr and str(tmp_path / "none") in proc.stderr
    assert "DIFFERS" not in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_basic_rom_oracle_takes_function_names_in_any_case_and_refuses_unknown_ones(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "basic_rom_oracle.py"), "--only", "SIN,nope"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "unknown nope" in proc.stderr and "Traceback" not in proc.stderr
