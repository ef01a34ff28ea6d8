"""The gate (fileio.Files): every file a run reads is an input that no output of the same run may
replace; names from inside a source stay in the output folder; the file system's rules are kept
(write protection, modes, 'name/'); closed and broken standard streams end quietly.

Each row is a case that can lose a file, wrote where nobody asked or
printed a traceback.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import ROOT, run_cli

BUILD = ROOT / "build"
PROGRAM = "10 *= $c000\n20 lda #1\n30 sta $d020\n40 rts\n"


run = run_cli  # the command in-process (helpers.run_cli)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file below *folder* with its bytes and mode (hidden temporary files too)."""
    return {str(p.relative_to(folder)): (p.read_bytes(), stat.S_IMODE(p.lstat().st_mode))
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.fixture
def work(tmp_path, monkeypatch):
    """A project folder (the cwd) inside a scratch folder, so that a write outside it shows."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.asm").write_text('10 *= $c000\n20 lda #1\n30 .file 8,"part2"\n')
    (project / "part2.asm").write_text('10 sta $d020\n20 rts\n30 .end 8,"main"\n')
    (project / "border.asm").write_text(PROGRAM)
    (project / "notes.txt").write_text("my notes\n")
    for name in ("highiq.prg", "superhirn.prg", "asm6502.d64"):
        shutil.copy(BUILD / name, project / name)
    monkeypatch.chdir(project)
    return project


# --- 1. everything read is an input, whenever it is read ------------------------------------------

MEMBER_OVERWRITES = [
    ("main.asm", "-o", "part2.asm"),
    ("main.asm", "-o", "x.prg", "--listing", "part2.asm"),
    ("main.asm", "-o", "x.prg", "--labels", "./part2.asm"),
    ("main.asm", "-o", "x.prg", "--mse", "part2.asm"),
    ("convert", "main.asm", "--to", "acme", "-o", "part2.asm"),
    ("convert", "main.asm", "--to", "64tass", "-o", "link.s"),  # a symbolic link to the member
    ("main.asm", "-o", "hard.asm"),  # a hard link of the member
]


@pytest.mark.parametrize("argv", MEMBER_OVERWRITES, ids=[" ".join(a) for a in MEMBER_OVERWRITES])
def test_a_file_member_is_never_an_output(capsys, work, argv):
    os.symlink("part2.asm", work / "link.s")
    os.link(work / "part2.asm", work / "hard.asm")
    before = snapshot(work.parent)
    code, _, err = run(capsys, *argv)
    assert code == 1 and "writing it would destroy the input" in err, err
    assert snapshot(work.parent) == before


def test_an_lst_symbol_file_is_never_an_output(capsys, work):
    (work / "make.asm").write_text('10 *= $c000\n20 base = $d020\n30 rts\n40 .sst 8,2,"syms,s,w"\n')
    assert run(capsys, "make.asm", "-o", "make.prg")[0] == 0
    (work / "use.asm").write_text('10 *= $c000\n20 .lst 8,2,"syms"\n30 sta base\n')
    before = snapshot(work.parent)
    code, _, err = run(capsys, "use.asm", "-o", "syms")
    assert code == 1 and "the file named by the source 'syms'" in err
    assert snapshot(work.parent) == before


def test_an_sst_never_replaces_a_file_member(capsys, work):
    (work / "main.asm").write_text('10 *= $c000\n20 lda #1\n30 .sst 8,2,"part2.asm,s,w"\n40 .file 8,"part2"\n')
    before = snapshot(work.parent)
    code, _, err = run(capsys, "main.asm", "-o", "x.prg", "--overwrite")  # even when the user allows replacing
    assert code == 1 and "writing it would destroy the input" in err
    assert snapshot(work.parent) == before


def test_a_build_never_replaces_a_file_member(capsys, work):
    (work / "build.yaml").write_text("artifacts:\n  part2.asm: {rule: assemble, from: main.asm}\n")
    before = snapshot(work.parent)
    code, _, err = run(capsys, "build")
    assert code == 1 and "part2.asm" in err and "destroy the input" in err
    assert snapshot(work.parent) == before


# --- 2. names from inside a source stay in the output folder ---------------------------------------

SST_NAMES = {
    "an absolute path": "{outside}/abs.sst",
    "a parent folder": "../up.sst",
    "a folder": "sub/x.sst",
    "the folder itself": "..",
}


@pytest.mark.parametrize("name", SST_NAMES.values(), ids=SST_NAMES.keys())
def test_sst_names_are_one_flat_name(capsys, work, name):
    (work / "sub").mkdir()
    (work / "s.asm").write_text(f'10 *= $c000\n20 rts\n30 .sst 8,2,"{name.format(outside=work.parent)},s,w"\n')
    before = snapshot(work.parent)
    code, _, err = run(capsys, "s.asm", "-o", "s.prg")
    assert code == 1 and "a name from the source is one file name in the output folder" in err
    assert snapshot(work.parent) == before


def test_sst_does_not_replace_an_unrelated_file(capsys, work):
    (work / "s.asm").write_text('10 *= $c000\n20 rts\n30 .sst 8,2,"NOTES.TXT,s,w"\n')
    before = snapshot(work.parent)
    code, _, err = run(capsys, "s.asm", "-o", "s.prg")
    assert code == 1 and "would replace a file this command did not write" in err and "--overwrite" in err
    assert snapshot(work.parent) == before
    assert run(capsys, "s.asm", "-o", "s.prg", "--overwrite")[0] == 0  # the user said so
    assert (work / "notes.txt").read_bytes() != b"my notes\n"


def test_sst_replaces_its_own_symbol_table(capsys, work):
    (work / "s.asm").write_text('10 *= $c000\n20 rts\n30 .sst 8,2,"syms,s,w"\n')
    assert run(capsys, "s.asm", "-o", "s.prg")[0] == 0
    (work / "s.asm").write_text('10 *= $c000\n20 x = 5\n30 rts\n40 .sst 8,2,"syms,s,w"\n')
    assert run(capsys, "s.asm", "-o", "s.prg")[0] == 0  # a symbol table: what an earlier run wrote


def test_sst_does_not_follow_a_link_out_of_the_folder(capsys, work):
    (work.parent / "outside.sst").write_bytes(b"")
    os.symlink(work.parent / "outside.sst", work / "syms")
    (work / "s.asm").write_text('10 *= $c000\n20 rts\n30 .sst 8,2,"syms,s,w"\n')
    code, _, err = run(capsys, "s.asm", "-o", "s.prg", "--overwrite")
    assert code == 1 and "is a link leading out of the output folder" in err
    assert (work.parent / "outside.sst").read_bytes() == b""


def test_opt_o_names_do_not_replace_an_unrelated_file(capsys, work):
    source = '10 open 1,8,1,"notes.txt"\n20 sys 9*4096\n30 .opt o1\n40 *= $c000\n50 rts\n'
    (work / "o.asm").write_text(source)
    (work / "notes.txt.prg").write_text("not a program of this source\n")
    before = snapshot(work.parent)
    code, _, err = run(capsys, "o.asm")
    assert code == 1 and "'.opt o#'" in err and "--overwrite" in err
    assert snapshot(work.parent) == before
    (work / "notes.txt.prg").unlink()
    assert run(capsys, "o.asm")[0] == 0 and (work / "notes.txt.prg").read_bytes() == b"\x00\xc0\x60"
    assert run(capsys, "o.asm")[0] == 0  # the same program again: it replaces what it wrote


def test_build_outputs_do_not_leave_through_a_link(capsys, work):
    (work.parent / "elsewhere").mkdir()
    os.symlink(work.parent / "elsewhere", work / "out")
    (work / "build.yaml").write_text("artifacts:\n  out/b.prg: {rule: assemble, from: border.asm}\n")
    code, _, err = run(capsys, "build")
    assert code == 1 and "leads out of the manifest's folder" in err
    assert list((work.parent / "elsewhere").iterdir()) == []


# --- 3. the file system's rules --------------------------------------------------------------------


def test_a_write_protected_output_is_refused(capsys, work):
    (work / "old.prg").write_bytes(b"old")
    os.chmod(work / "old.prg", 0o444)
    code, _, err = run(capsys, "border.asm", "-o", "old.prg")
    assert code == 1 and "'old.prg' is write-protected" in err
    assert (work / "old.prg").read_bytes() == b"old"


def test_a_write_protected_disk_image_is_refused(capsys, work):
    os.chmod(work / "asm6502.d64", 0o444)
    before = snapshot(work)
    code, _, err = run(capsys, "d64", "write", "asm6502.d64", "border.asm")
    assert code == 1 and "write-protected" in err
    assert snapshot(work) == before


def test_a_replaced_file_keeps_its_mode(capsys, work):
    (work / "private.prg").write_bytes(b"old")
    os.chmod(work / "private.prg", 0o600)
    assert run(capsys, "border.asm", "-o", "private.prg")[0] == 0
    assert stat.S_IMODE((work / "private.prg").stat().st_mode) == 0o600
    assert (work / "private.prg").read_bytes() == bytes.fromhex("00c0a9018d20d060")


def test_a_trailing_slash_never_names_the_file(capsys, work):
    (work / "existing.prg").write_bytes(b"keep")
    for argv in (("border.asm", "-o", "existing.prg/"), ("disasm", "superhirn.prg", "-o", "existing.prg/"),
                 ("basic", "list", "highiq.prg", "-o", "existing.prg/")):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "ends with '/'" in err
    assert (work / "existing.prg").read_bytes() == b"keep"


def test_errors_name_the_users_file_not_the_temporary_one(capsys, work, monkeypatch):
    from asm6502 import fileio

    def refused(directory, name):
        raise PermissionError(13, "Permission denied", os.path.join(directory, f".{name}.{os.getpid()}.0.tmp"))

    monkeypatch.setattr(fileio, "_new_file", refused)
    code, _, err = run(capsys, "border.asm", "-o", "x.prg")
    assert code == 1 and err.strip() == "asm6502: error: x.prg: Permission denied"


# --- 4. streams ------------------------------------------------------------------------------------

CLOSED = [
    ("basic", "list", "highiq.prg", ">&-"),
    ("basic", "checksum", "highiq.prg", ">&-"),
    ("disasm", "superhirn.prg", ">&-"),
    ("mse", "write", "superhirn.prg", ">&-"),
    ("border.asm", "-o", "-", ">&-"),
    ("d64", "list", "asm6502.d64", ">&-"),
    ("run", "superhirn.prg", "<&-"),
    ("basic", "run", "highiq.prg", "<&-"),
    ("mse", "read", "-", "<&-"),
    ("border.asm", "-o", "b.prg", "2>&-"),
]


def shell(work: Path, line: str, timeout: float = 60) -> subprocess.CompletedProcess:
    exe = f"{sys.executable} -m asm6502"
    return subprocess.run(["bash", "-c", line.replace("asm6502", exe, 1)], cwd=work, capture_output=True,
                          timeout=timeout)


@pytest.mark.parametrize("argv", CLOSED, ids=[" ".join(a) for a in CLOSED])
def test_a_closed_stream_is_a_clear_error(work, argv):
    *words, redirect = argv
    done = shell(work, "asm6502 " + " ".join(words) + " " + redirect)
    assert b"Traceback" not in done.stderr
    if redirect == "2>&-":
        assert done.returncode == 0 and (work / "b.prg").exists()
    else:
        assert done.returncode == 1
        stream = b"standard output is closed" if redirect == ">&-" else b"standard input is closed"
        assert stream in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["d64 list asm6502.d64", "basic list highiq.prg", "disasm superhirn.prg",
                                     "mse write superhirn.prg"])
def test_a_reader_gone_away_is_quiet(work, command):
    done = shell(work, f"asm6502 {command} | head -1 >/dev/null; exit ${{PIPESTATUS[0]}}")
    assert (done.returncode, done.stderr) == (0, b"")


def test_run_stops_soon_after_the_reader_has_gone(work):
    (work / "loop.asm").write_text("10 *= $c000\n20 loop lda #65\n30 jsr $ffd2\n40 jmp loop\n")
    assert shell(work, "asm6502 loop.asm -o loop.prg").returncode == 0
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = shell(work, "asm6502 run loop.prg --max-instructions 200000000 </dev/null | head -c 10 >/dev/null; "
                       "exit ${PIPESTATUS[0]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert (done.returncode, done.stderr) == (0, b"")
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    assert used < 10  # CPU seconds (a loaded machine stretches the wall clock); the whole budget takes minutes


def test_basic_run_stops_when_the_reader_has_gone(work):
    (work / "p.bas").write_text('10 print "x";\n20 goto 10\n')
    done = shell(work, "asm6502 basic run p.bas | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}", timeout=30)
    assert (done.returncode, done.stderr) == (0, b"")


def test_ctrl_c_in_basic_run_is_130(work):
    (work / "p.bas").write_text('10 print "x";\n20 goto 10\n')
    proc = subprocess.Popen([sys.executable, "-m", "asm6502", "basic", "run", "p.bas"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert proc.stdout.read(1) == b"X"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"Traceback" not in err and b"interrupted" in err


# --- 6. words --------------------------------------------------------------------------------------


def test_control_characters_in_a_source_line_are_shown_escaped(capsys, work):
    (work / "esc.asm").write_text("10 *= $c000\n20 lda @\x1b]0;title\x07\x1b[2J\n")
    code, _, err = run(capsys, "esc.asm", "-o", "e.prg")
    assert code == 1 and "\x1b" not in err and "\x07" not in err
    assert "  20 lda @\\x1b]0;title\\x07\\x1b[2J\n         ^" in err


def test_a_long_name_in_a_message_is_shown_by_its_ends(capsys, work):
    (work / "long.asm").write_text("10 *= $c000\n20 " + "ab" * 50_000 + "\n")
    code, _, err = run(capsys, "long.asm", "-o", "l.prg")
    head = err.splitlines()[0]
    assert code == 1 and len(err) < 1_000
    assert "'" + "ab" * 50 + "..." + "ab" * 10 + "' (100,000 characters)" in head


@pytest.mark.parametrize("kind", ["a folder", "a pipe"])
def test_a_file_name_that_is_no_file_says_what_it_is(capsys, work, kind):
    if kind == "a folder":
        (work / "part2").mkdir()
        words = "'part2' is a directory, not a file"
    else:
        os.mkfifo(work / "part2")
        words = "'part2' is not a regular file"
    (work / "part2.asm").unlink()
    code, _, err = run(capsys, "main.asm", "-o", "m.prg")
    assert code == 1 and words in err and "no such file" not in err


def test_a_directory_as_input_is_named_so(capsys, work):
    (work / "folder.asm").mkdir()
    code, _, err = run(capsys, "folder.asm")
    assert code == 1 and "source 'folder.asm' is a directory, not a file" in err


@pytest.mark.parametrize("argv", [("basic", "tok", "{f}", "-o", "x.prg"), ("convert", "{f}", "--to", "acme"),
                                  ("mse", "read", "{f}"), ("basic", "checksum", "{f}", "--from", "text")])
@pytest.mark.parametrize("encoding", ["utf-16", "binary"])
def test_binary_and_utf16_input_is_one_clear_error(capsys, work, argv, encoding):
    f = "in.txt"
    data = '10 print "hello"\n20 goto 10\n'.encode("utf-16") if encoding == "utf-16" else bytes(range(256)) * 8
    (work / f).write_bytes(data)
    code, _, err = run(capsys, *[a.format(f=f) for a in argv])
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert ("UTF-16" if encoding == "utf-16" else "binary data") in err


def test_build_check_tells_inputs_from_outputs(capsys, work):
    """A one-folder project: the sources and the manifest are no stale artifacts."""
    (work / "build.yaml").write_text("artifacts:\n  border.prg: {rule: assemble, from: border.asm}\n")
    assert run(capsys, "build")[0] == 0
    code, out, _ = run(capsys, "build", "--check")
    assert code == 0 and "stale" not in out
    (work / "out").mkdir()
    (work / "build.yaml").write_text("artifacts:\n  out/border.prg: {rule: assemble, from: border.asm}\n")
    assert run(capsys, "build")[0] == 0
    (work / "out" / "old.prg").write_bytes(b"x")  # a leftover in a folder of artifacts only
    code, out, _ = run(capsys, "build", "--check")
    assert code == 1 and "out/old.prg: not made by build.yaml" in out and "border.asm" not in out


def test_verify_checks_where_the_program_loads(capsys, work):
    started = time.perf_counter()
    code, _, err = run(capsys, "verify", "superhirn", "highiq.prg", "--jobs", "1")
    assert code == 1 and "highiq.prg loads at $0801-" in err and "starts at $3400" in err
    assert time.perf_counter() - started < 5


def test_an_unchanged_write_protected_artifact_is_left_alone(capsys, work):
    """build rewrites only files whose bytes changed: a read-only artifact that is up to date is no error."""
    (work / "build.yaml").write_text("artifacts:\n  border.prg: {rule: assemble, from: border.asm}\n")
    assert run(capsys, "build")[0] == 0
    os.chmod(work / "border.prg", 0o444)
    code, out, _ = run(capsys, "build")
    assert code == 0 and "unchanged" in out
    (work / "border.asm").write_text(PROGRAM.replace("lda #1", "lda #2"))
    code, _, err = run(capsys, "build")
    assert code == 1 and "'border.prg' is write-protected" in err
