"""Hostile input and the mistakes users really make: no traceback, no input changed,
nothing written outside the asked-for place, no partial outputs.

Every row is a probe that once lost a file, wrote half the outputs or crashed.
The generators make what random fuzzing never does: deep nesting, a file
named as its own output, the same file under another name (symbolic and hard
links), bytes that are not UTF-8, and inputs of unbounded size (/dev/zero).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from asm6502.cli import main
from asm6502.fileio import OutputPlan
from asm6502.diagnostics import DiagnosticError
from helpers import ROOT, run_cli

BUILD = ROOT / "build"
PROGRAM = "10 *= $c000\n20 lda #1\n30 sta $d020\n40 rts\n"


run = run_cli  # the command in-process (helpers.run_cli)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file below *folder* (hidden temporary files too) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A folder with one input of every kind, as the cwd."""
    for name in ("superhirn-src.prg", "highiq.prg", "superhirn.prg", "asm6502.d64", "superhirn.mse.txt"):
        shutil.copy(BUILD / name, tmp_path / name)
    (tmp_path / "border.asm").write_text(PROGRAM)
    (tmp_path / "hello.bas").write_text('10 print "hello"\n20 goto 10\n')  # two lines are enough to tell
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- data loss: an output that is an input, under any name ----------------------------------------


def links(work: Path) -> None:
    os.symlink("border.asm", work / "soft.asm")
    os.link(work / "border.asm", work / "hard.asm")
    os.symlink("superhirn-src.prg", work / "soft.prg")
    os.link(work / "superhirn-src.prg", work / "hard.prg")


OVERLAPS = [
    # the default output name of a saved Profi-Ass source is the source itself
    ("superhirn-src.prg",),
    ("border.asm", "-o", "border.asm"),
    ("border.asm", "-o", "soft.asm"),  # a symbolic link to the source
    ("border.asm", "-o", "hard.asm"),  # a hard link of the source
    ("superhirn-src.prg", "-o", "hard.prg"),
    ("border.asm", "-o", "x.prg", "--listing", "x.prg"),  # two outputs, one file
    ("border.asm", "-o", "x.prg", "--labels", "border.asm"),
    ("border.asm", "-o", "x.prg", "--mse", "soft.asm"),
    ("basic", "list", "highiq.prg", "-o", "highiq.prg"),
    ("basic", "tok", "hello.bas", "-o", "hello.bas"),
    ("basic", "checksum", "highiq.prg", "-o", "highiq.prg"),
    ("d64", "read", "asm6502.d64", "high iq", "-o", "asm6502.d64"),
    ("d64", "write", "asm6502.d64", "asm6502.d64"),  # the image added to itself
    ("mse", "write", "superhirn.prg", "-o", "superhirn.prg"),
    ("mse", "read", "superhirn.mse.txt", "-o", "superhirn.mse.txt"),
]


@pytest.mark.parametrize("argv", OVERLAPS, ids=[" ".join(a) for a in OVERLAPS])
def test_an_output_never_replaces_an_input(capsys, work, argv):
    links(work)
    before = snapshot(work)
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert "Traceback" not in err and "error:" in err
    assert snapshot(work) == before


MANIFEST_OVERLAPS = {
    "the manifest itself": "build.yaml",
    "its own source (a cycle)": "border.asm",
    "a link to its source": "soft.asm",
    "a hard link of its source": "hard.asm",
}


@pytest.mark.parametrize("output", MANIFEST_OVERLAPS.values(), ids=MANIFEST_OVERLAPS.keys())
def test_a_build_never_replaces_its_sources(capsys, work, output):
    links(work)
    (work / "build.yaml").write_text(f"artifacts:\n  {output}:\n    rule: assemble\n    from: border.asm\n")
    before = snapshot(work)
    code, _, err = run(capsys, "build")
    assert code == 1 and "build.yaml:2:3: error:" in err or "build.yaml:4:11: error: dependency cycle" in err
    assert snapshot(work) == before


@pytest.mark.parametrize("output", ["../escaped.prg", "{work}/escaped.prg", "build/../../escaped.prg"])
def test_build_outputs_stay_inside_the_manifests_folder(capsys, work, output):
    output = output.format(work=work)  # an absolute path outside the project
    project = work / "project"
    project.mkdir()
    (project / "border.asm").write_text(PROGRAM)
    (project / "build.yaml").write_text(f"artifacts:\n  {output}:\n    rule: assemble\n    from: border.asm\n")
    code, _, err = run(capsys, "build", project / "build.yaml")
    assert code == 1
    assert f"{project / 'build.yaml'}:2:3: error: output" in err and "outside the manifest's folder" in err
    assert not (work / "escaped.prg").exists()


def test_d64_new_refuses_to_replace_a_file_that_is_not_a_disk_image(capsys, work):
    (work / "notes.txt").write_text("my notes\n")
    code, _, err = run(capsys, "d64", "write", "notes.txt", "highiq.prg", "--new", "GAMES,01")
    assert code == 1 and "not a .d64 image" in err and "--force" in err
    assert (work / "notes.txt").read_text() == "my notes\n"
    assert run(capsys, "d64", "write", "notes.txt", "highiq.prg", "--new", "GAMES,01", "--force")[0] == 0
    code, out, _ = run(capsys, "d64", "list", "notes.txt")
    assert code == 0 and '"HIGHIQ"' in out


def test_d64_new_replaces_a_disk_image(capsys, work):
    assert run(capsys, "d64", "write", "asm6502.d64", "highiq.prg", "--new", "GAMES,01")[0] == 0
    code, out, _ = run(capsys, "d64", "list", "asm6502.d64")
    assert out.splitlines()[0].startswith('0 "GAMES')


def test_no_directory_is_created_for_an_output(capsys, work):
    code, _, err = run(capsys, "border.asm", "-o", "nowhere/deeper/x.prg")
    assert code == 1 and "directory 'nowhere/deeper' does not exist" in err
    assert not (work / "nowhere").exists()


# --- partial outputs ------------------------------------------------------------------------------


def test_a_bad_second_output_leaves_the_first_unwritten(capsys, work):
    (work / "listing-dir").mkdir()
    before = snapshot(work)
    code, _, err = run(capsys, "border.asm", "-o", "a.prg", "--listing", "listing-dir")
    assert code == 1 and "is a directory" in err
    assert snapshot(work) == before


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device that is always full)")
def test_a_full_disk_leaves_nothing_written(capsys, work):
    before = snapshot(work)
    code, _, err = run(capsys, "border.asm", "-o", "a.prg", "--labels", "a.labels", "--listing", "/dev/full")
    assert code == 1 and "No space left on device" in err
    assert snapshot(work) == before  # a.prg and a.labels were written to temporary files, then removed


def test_a_failing_later_write_leaves_nothing_written(work, monkeypatch):
    """The third of three outputs fails (a full disk): the first two stay as they were, no temporary files."""
    from asm6502 import fileio

    (work / "one.txt").write_text("old one\n")
    real = fileio._new_file  # (the plan's temporary files)
    calls = []

    def new_file(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(fileio, "_new_file", new_file)
    plan = OutputPlan()
    for name in ("one.txt", "two.txt", "three.txt"):
        plan.add(work / name, f"new {name}\n")
    before = snapshot(work)
    with pytest.raises(OSError):
        plan.commit()
    assert snapshot(work) == before


def test_a_build_whose_later_write_fails_writes_no_artifact(capsys, work, monkeypatch):
    from asm6502 import fileio

    (work / "build.yaml").write_text(textwrap.dedent("""\
        artifacts:
          out/a.prg: {rule: assemble, from: border.asm}
          out/a.labels: {rule: vice-labels, from: border.asm}
          out/a.lst: {rule: listing, from: border.asm}
    """))
    real = fileio._new_file  # (the plan's temporary files)
    calls = []

    def new_file(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(fileio, "_new_file", new_file)
    code, _, err = run(capsys, "build")
    assert code == 1 and "No space left on device" in err
    assert not [p for p in (work / "out").iterdir()]  # the folder may exist; no file, no temporary file


def test_ctrl_c_while_writing_leaves_nothing(capsys, work, monkeypatch):
    from asm6502 import fileio

    (work / "build.yaml").write_text("artifacts:\n  a.prg: {rule: assemble, from: border.asm}\n"
                                     "  a.lst: {rule: listing, from: border.asm}\n")
    real = fileio._new_file  # (the plan's temporary files)
    calls = []

    def new_file(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(fileio, "_new_file", new_file)
    before = snapshot(work)
    code, _, err = run(capsys, "build")
    assert code == 130 and "interrupted" in err
    assert snapshot(work) == before


def test_sigint_during_a_build_exits_130_without_outputs(work):
    """A real SIGINT once the program runs (Python's own start-up, ~40 ms, is outside it)."""
    source = (ROOT / "sources" / "superhirn.asm").read_text()
    count = 300  # sources, so that the build lasts well past the signal (40 took 0.09 s in all, too close to it)
    for i in range(count):
        (work / f"s{i}.asm").write_text(source)
    (work / "build.yaml").write_text("artifacts:\n" + "".join(
        f"  out/a{i}.prg: {{rule: assemble, from: s{i}.asm}}\n" for i in range(count)))
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from asm6502.cli import main; "
                             "print('ready', flush=True); sys.exit(main(['build']))"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=work)
    assert proc.stdout.readline() == b"ready\n"
    time.sleep(0.1)  # main() has begun
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err
    made = sorted(p.name for p in (work / "out").iterdir()) if (work / "out").exists() else []
    if proc.returncode == 130:
        assert made == []
    else:  # the build was faster than the signal: then it is complete (a signal after main()
        # returned ends the interpreter itself: -SIGINT)
        assert proc.returncode in (0, -signal.SIGINT) and len(made) == count


# --- tracebacks: every one of these once crashed ---------------------------------------------------


def bam_mismatch(work: Path) -> str:
    """A disk whose BAM counts free blocks on track 5 that its bitmap does not have."""
    data = bytearray((work / "asm6502.d64").read_bytes())
    bam = 0x16500  # track 18, sector 0
    entry = bam + 4 + 4 * (5 - 1)
    data[entry] = 21
    data[entry + 1:entry + 4] = b"\x00\x00\x00"
    (work / "bam.d64").write_bytes(data)
    return "bam.d64"


def generated(work: Path) -> None:
    """The hostile inputs, made on the spot."""
    (work / "latin1.yaml").write_bytes(b"artifacts:\n  x.prg: {rule: assemble, from: \xe4.asm}\n")
    (work / "deep.yaml").write_text("artifacts: " + "[" * 500 + "]" * 500 + "\n")
    (work / "latin1.txt").write_bytes(b"1\n\xff\n")
    (work / "fn.bas").write_text("10 def fn a(x)=fn a(x)\n20 print fn a(1)\n")
    (work / "parens.bas").write_text("10 print " + "(" * 500 + "1" + ")" * 500 + "\n")
    (work / "minus.bas").write_text("10 print " + "-" * 1000 + "1\n")
    # BASIC loading at $FFF0: line 10 PRINT"A", the end marker, and bytes up to $FFFF
    (work / "top.prg").write_bytes(b"\xf0\xff\xf8\xff\x0a\x00\x99\x22\x41\x00\x00\x00" + bytes(6))
    (work / "top.mse").write_text("FFFC : 01 02 03 04 05 06 07 08 EC\n")  # runs past $FFFF
    bam_mismatch(work)


TRACEBACKS = [
    # (argv, exit code, a words of the message)
    (("border.asm", "--fill", "256"), 2, "out of range"),
    (("run", "superhirn.prg", "--sys", "70000"), 2, "out of range"),
    (("run", "superhirn.prg", "--input", "latin1.txt"), 1, "latin1.txt:2:1: error: not UTF-8"),
    (("verify", "superhirn", "superhirn.prg", "--secrets", ","), 2, "no secret"),
    (("verify", "superhirn", "superhirn.prg", "--jobs", "0"), 2, "out of range"),
    (("build", "latin1.yaml"), 1, "latin1.yaml:2:33: error: not UTF-8"),
    (("build", "deep.yaml"), 1, "nested too deeply"),
    (("basic", "run", "fn.bas"), 1, "?OUT OF MEMORY"),
    (("basic", "run", "parens.bas"), 1, "?OUT OF MEMORY"),
    (("basic", "run", "minus.bas"), 1, "?OUT OF MEMORY"),
    (("basic", "run", "top.prg"), 1, "must end below $FFFF"),
    (("basic", "tok", "hello.bas", "--start", "70000"), 2, "out of range"),
    (("d64", "write", "bam.d64", "highiq.prg"), 1, "the BAM is inconsistent"),
    (("mse", "read", "top.mse", "-o", "top2.prg"), 1, "runs past $FFFF"),
    (("mse", "write", "superhirn.prg", "--end", "0x10001"), 2, "out of range"),
    (("border.asm", "-D", "x=" + "-" * 1000 + "1"), 1, "bad -D"),
    (("border.asm", "-D", "x=" + "(" * 500 + "1" + ")" * 500), 1, "bad -D"),
    (("border.asm", "-D", "x=70000"), 1, "does not fit in 16 bits"),
]


@pytest.mark.parametrize("argv,code,message", TRACEBACKS, ids=[" ".join(a)[:60] for a, _, _ in TRACEBACKS])
def test_a_clear_error_instead_of_a_traceback(capsys, work, argv, code, message):
    generated(work)
    before = snapshot(work)
    got, out, err = run(capsys, *argv)
    assert got == code, err
    assert message in out + err
    assert snapshot(work) == before


HUGE = [
    ("/dev/zero",),
    ("basic", "list", "/dev/zero"),
    ("basic", "tok", "/dev/zero", "-o", "x.prg"),
    ("mse", "read", "/dev/zero"),
    ("mse", "write", "/dev/zero"),
    ("d64", "list", "/dev/zero"),
    ("run", "/dev/zero"),
    ("build", "/dev/zero"),
    ("huge.asm",),
]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("argv", HUGE, ids=[" ".join(a) for a in HUGE])
def test_huge_inputs_are_refused_quickly(capsys, work, argv):
    with open(work / "huge.asm", "wb") as fh:  # a sparse 40 MB file of zero bytes
        fh.truncate(40 * 1024 * 1024)
    started = time.perf_counter()
    code, _, err = run(capsys, *argv)
    assert code == 1 and "larger than" in err
    assert time.perf_counter() - started < 10


def test_pool_workers_end_with_their_parent(tmp_path):
    """verify's worker processes exit when the parent is killed (they would wait for ever)."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        pytest.skip("needs /proc/PID/task/PID/children to find the workers")
    proc = subprocess.Popen([sys.executable, "-m", "asm6502", "verify", "superhirn", str(BUILD / "superhirn.prg"),
                             "--jobs", "2", "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            workers = [int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()]
    finally:
        proc.kill()
        proc.wait()
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{w}").exists() and "zombie" not in _state(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    alive = [w for w in workers if Path(f"/proc/{w}").exists() and "zombie" not in _state(w)]
    for w in alive:
        os.kill(w, signal.SIGKILL)
    assert alive == []


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0]
    except (OSError, IndexError):
        return "zombie"


# --- the mistakes users make: one clear answer ----------------------------------------------------


WRONG_FILES = [
    ("asm6502.d64", "asm6502 d64 list asm6502.d64"),
    ("highiq.prg", "asm6502 basic list highiq.prg"),
    ("hello.bas", "asm6502 basic tok hello.bas"),
    ("superhirn.mse.txt", "asm6502 mse read superhirn.mse.txt"),
    ("superhirn.prg", "asm6502 run superhirn.prg"),
]


@pytest.mark.parametrize("name,command", WRONG_FILES, ids=[w[0] for w in WRONG_FILES])
def test_a_wrong_file_for_the_assembler_names_the_right_command(capsys, work, name, command):
    code, _, err = run(capsys, name, "-o", "out.prg")
    assert code == 1
    assert command in err
    assert len(err.splitlines()) == 1  # one line, not one error per line of the file
    assert not (work / "out.prg").exists()


@pytest.mark.parametrize("typo,meant", [("biuld", "build"), ("bulid", "build"), ("basci", "basic"),
                                        ("verfiy", "verify"), ("d46", "d64"), ("MSE", "mse")])
def test_a_misspelled_command_gets_a_suggestion(capsys, work, typo, meant):
    code, _, err = run(capsys, typo)
    assert code == 2 and f"did you mean '{meant}'?" in err


def test_a_file_named_like_a_command_is_still_assembled(capsys, work):
    (work / "bild").write_text(PROGRAM)  # close to 'build', but it is a file
    assert run(capsys, "bild", "-o", "b.prg")[0] == 0


def test_all_capital_basic_is_read_as_typed_in_capitals_and_says_so(capsys, work):
    (work / "caps.bas").write_text('10 PRINT "HELLO"\n20 GOTO 10\n')
    code, _, err = run(capsys, "basic", "tok", "caps.bas", "-o", "caps.prg")
    assert code == 0 and "warning" not in err
    assert len([line for line in err.splitlines() if "note: no lower-case letter" in line]) == 1
    assert run(capsys, "basic", "tok", "caps.bas", "--case", "upper", "-o", "upper.prg")[0] == 0
    assert run(capsys, "basic", "tok", "hello.bas", "-o", "lower.prg")[0] == 0
    assert (work / "caps.prg").read_bytes() == (work / "upper.prg").read_bytes() == (work / "lower.prg").read_bytes()
    code, out, _ = run(capsys, "basic", "list", "caps.prg")
    assert code == 0 and out == '10 print "hello"\n20 goto 10\n'


@pytest.mark.parametrize("word", ["lower", "petcat"])
def test_case_lower_reads_capitals_as_shifted_letters_in_both_commands(capsys, work, word):
    (work / "caps.bas").write_text('10 PRINT "HELLO"\n')
    code, _, err = run(capsys, "basic", "tok", "caps.bas", "--case", word, "-o", "caps.prg")
    assert code == 0 and "shifted letter 'P'" in err and "note: no lower-case" not in err
    assert (work / "caps.prg").read_bytes()[6:8] == b' "'  # PRINT dropped: the C64 skips shifted letters
    assert run(capsys, "border.asm", "--case", word, "-o", "b.prg", "-w")[0] == 0


def test_case_upper_keeps_control_names(capsys, work):
    (work / "caps.bas").write_text('10 PRINT "{CLR}HI"\n')
    (work / "lower.bas").write_text('10 print "{clr}hi"\n')
    assert run(capsys, "basic", "tok", "caps.bas", "--case", "upper", "-o", "a.prg")[0] == 0
    assert run(capsys, "basic", "tok", "lower.bas", "-o", "b.prg")[0] == 0
    assert (work / "a.prg").read_bytes() == (work / "b.prg").read_bytes()


def test_vice_labels_are_names_the_monitor_accepts(capsys, work):
    (work / "dots.asm").write_text("100 *= $c000\n110 loop.1 nop\n120 loop1 nop\n130 a.b.c rts\n")
    assert run(capsys, "dots.asm", "-o", "d.prg", "-l", "d.labels")[0] == 0
    assert (work / "d.labels").read_text() == "al C:c000 .loop_1\nal C:c001 .loop1\nal C:c002 .a_b_c\n"


def test_64tass_and_acme_spellings(capsys, work):
    code, _, _ = run(capsys, "border.asm", "-o", "b.prg", "-l", "b.labels", "-L", "b.lst", "-I", ".", "-w",
                     "-D", "base=0xc000", "-D", "mask=%1010", "-D", "top=$ff")
    assert code == 0 and {"b.prg", "b.labels", "b.lst"} <= {p.name for p in work.iterdir()}
    code, out, _ = run(capsys, "-V")
    assert code == 0 and out.startswith("asm6502 ")


# --- positions -------------------------------------------------------------------------------------


def test_one_bad_v1_line_is_reported_where_it_is(capsys, work):
    (work / "one.txt").write_text("3400 : A9 93 20 D2 FF A9 01 8D 43\n")  # checksum 42 misread as 43
    code, _, err = run(capsys, "mse", "read", "one.txt")
    assert code == 1
    assert "one.txt:1:32: error: checksum mismatch at $3400 (computed 42, printed 43)" in err
    assert "note: possible fix: checksum 42 instead of 43" in err


@pytest.mark.parametrize("breaker,line", [("\x85", 4), ("\u2028", 4)])
def test_manifest_lines_are_counted_as_yaml_counts_them(capsys, work, breaker, line):
    """YAML counts NEL and LINE SEPARATOR as line breaks: the shown line must be the one meant."""
    (work / "build.yaml").write_text(f"artifacts:\n  # note {breaker} more\n  # {chr(12)} form feed\n", encoding="utf-8")
    code, _, err = run(capsys, "build")
    assert code == 1
    assert f"build.yaml:{line}:5: error: not valid YAML: character #x000c is not allowed" in err
    assert "\n    # \\x0c form feed\n" in err  # the line the error is in, under it (the control character shown escaped)


def test_petcat_listings_with_their_header_line(capsys, work):
    """petcat -2 prints ';NAME ==0801==' above the listing; it is not a line to type."""
    (work / "pc.bas").write_text(';hello.prg ==0801==\n10 print "hello"\n20 goto 10\n')
    assert run(capsys, "basic", "tok", "pc.bas", "-o", "pc.prg")[0] == 0
    assert run(capsys, "basic", "tok", "hello.bas", "-o", "hello.prg")[0] == 0
    assert (work / "pc.prg").read_bytes() == (work / "hello.prg").read_bytes()
    (work / "c128.bas").write_text(';hello.prg ==1c01==\n10 print "hello"\n')
    code, _, err = run(capsys, "basic", "tok", "c128.bas", "-o", "c128.prg")
    assert code == 0 and "--start 1C01" in err


WRONG_PROGRAMS = [
    (("run", "highiq.prg"), "asm6502 basic run highiq.prg"),
    (("run", "border.asm"), "asm6502 border.asm"),
    (("basic", "run", "superhirn.prg"), "asm6502 run superhirn.prg"),
    (("basic", "list", "border.asm"), "asm6502 basic tok border.asm"),
    (("basic", "checksum", "superhirn.prg"), "asm6502 run superhirn.prg"),
]


@pytest.mark.parametrize("argv,command", WRONG_PROGRAMS, ids=[" ".join(a) for a, _ in WRONG_PROGRAMS])
def test_a_wrong_program_names_the_right_command(capsys, work, argv, command):
    code, _, err = run(capsys, *argv)
    assert code == 1 and command in err and len(err.splitlines()) == 1


# --- one number reader for every option and manifest value ---------------------------------------

NUMBERS = [("13312", 13312), ("$3400", 0x3400), ("0x3400", 0x3400), ("0X3400", 0x3400), ("%1010", 10),
           ("0b1010", 10), ("0xC0_00", 0xC000), (" 255 ", 255), ("-1", -1)]
NOT_NUMBERS = ["", "$", "0x", "%2", "1e3", "12ab", "--1", "$-1", "0x" + "f" * 41]


@pytest.mark.parametrize("text,value", NUMBERS)
def test_numbers_are_read_one_way(text, value):
    from asm6502.numparse import parse_int

    assert parse_int(text) == value


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_not_numbers(text):
    from asm6502.numparse import parse_int

    with pytest.raises(ValueError, match="not a number"):
        parse_int(text)


@pytest.mark.parametrize("spelling", ["255", "$ff", "0xff", "%11111111"])
def test_every_option_takes_every_spelling(capsys, work, spelling):
    assert run(capsys, "border.asm", "-o", "b.prg", "--fill", spelling)[0] == 0
    assert run(capsys, "mse", "write", "superhirn.prg", "--fill", spelling, "-o", "m.txt")[0] == 0
    (work / "build.yaml").write_text(f"artifacts:\n  c.prg: {{rule: assemble, from: border.asm, fill: '{spelling}'}}\n")
    assert run(capsys, "build")[0] == 0


# --- the output rule as a property ----------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# names in a folder holding one input, "in.txt": the input itself, a symbolic and a hard link to
# it, a link into a missing folder, a folder, and fresh names
NAMES = ["in.txt", "soft.txt", "hard.txt", "new1.txt", "new2.txt", "sub", "missing/x.txt", "./new1.txt"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(outputs=st.lists(st.sampled_from(NAMES), min_size=1, max_size=4))
def test_the_output_rule_never_touches_an_input_and_is_all_or_nothing(tmp_path_factory, outputs):
    folder = tmp_path_factory.mktemp("rule")
    (folder / "in.txt").write_text("input\n")
    os.symlink("in.txt", folder / "soft.txt")
    os.link(folder / "in.txt", folder / "hard.txt")
    (folder / "sub").mkdir()
    before = snapshot(folder)
    plan = OutputPlan()
    plan.add_input(folder / "in.txt", "input")
    try:
        for i, name in enumerate(outputs):
            plan.add(folder / name, f"output {i}\n")
        plan.commit()
    except DiagnosticError:
        assert snapshot(folder) == before  # refused before anything was written
        return
    after = snapshot(folder)
    assert after["in.txt"] == b"input\n"
    written = {os.path.normpath(name): f"output {i}\n".encode() for i, name in enumerate(outputs)}
    assert len(written) == len(outputs)  # accepted only when all names differ
    for name, data in written.items():
        assert after[name] == data
    assert set(after) == set(before) | set(written)  # no temporary file left


def test_an_output_that_is_a_link_is_written_through_it(capsys, work):
    (work / "real").mkdir()
    (work / "real" / "b.prg").write_bytes(b"old")
    os.symlink("real/b.prg", work / "b.prg")
    assert run(capsys, "border.asm", "-o", "b.prg")[0] == 0
    assert (work / "b.prg").is_symlink()
    assert (work / "real" / "b.prg").read_bytes() == bytes.fromhex("00c0" "a901" "8d20d0" "60")


@pytest.mark.parametrize(
    "argv",
    [
        ("disasm", "superhirn.prg", "-o", "superhirn.prg"),
        ("disasm", "superhirn.prg", "-o", "./superhirn.prg"),
        ("convert", "border.asm", "--to", "acme", "-o", "border.asm"),
        ("convert", "border.asm", "--to", "64tass", "-o", "link.s"),  # a symbolic link to the source
    ],
)
def test_disasm_and_convert_never_write_over_their_input(capsys, work, argv):
    (work / "link.s").symlink_to(work / "border.asm")
    before = snapshot(work)
    code, _, err = run(capsys, *argv)
    assert code == 1 and "error" in err
    assert snapshot(work) == before


def test_disasm_and_convert_write_nothing_into_a_missing_folder(capsys, work):
    before = snapshot(work)
    for argv in (("disasm", "superhirn.prg", "-o", "nowhere/x.asm"), ("convert", "border.asm", "--to", "acme", "-o", "nowhere/x.a")):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "does not exist" in err
    assert snapshot(work) == before and not (work / "nowhere").exists()
