"""The cases a hostile user found outside the matrix's reach, each as the user met it: writes as cp
and make expect them, the check and the write seeing one file, streams and encodings, Ctrl-C in
worker processes, words that name the user's path and sizes, typing sessions sharing their file,
and work bounded by the input (many -D options, typing modes linear in their input)."""

from __future__ import annotations

import io
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, oracle_home, run_cli

from asm6502 import fileio
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import roms

BUILD = ROOT / "build"
SOURCE = "10 *= $c000\n20 start lda #1\n30 sta $d020\n40 rts\n"
ENV = dict(os.environ, PYTHONPATH=str(ROOT), ASM6502_ROMS="none")


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ASM6502_ROMS", "none")
    (tmp_path / "a.asm").write_text(SOURCE)
    for name in ("superhirn.prg", "highiq.prg", "superhirn.mse.txt"):
        shutil.copy(BUILD / name, tmp_path / name)
    return tmp_path


def _real_roms() -> Path | None:
    for place in (os.environ.get(roms.ENV_VAR), str(oracle_home() / "roms")):
        if place and place.lower() not in ("none", "off") and Path(place).is_dir():
            try:
                roms.load_dir(place)
                return Path(place)
            except DiagnosticError:
                continue
    return None


REAL_ROMS = _real_roms()
needs_roms = pytest.mark.skipif(REAL_ROMS is None, reason=f"needs the C64 ROM images ({roms.ENV_VAR}=DIR)")


# --- writes as cp and make expect ---------------------------------------------------------------


def test_a_hard_linked_output_is_updated_in_place(work, capsys):
    (work / "o.prg").write_bytes(b"old")
    os.link(work / "o.prg", work / "twin.prg")
    code, _, err = run_cli(capsys, "a.asm", "-o", "o.prg")
    assert code == 0, err
    assert (work / "twin.prg").read_bytes() == (work / "o.prg").read_bytes() == bytes.fromhex("00c0a9018d20d060")
    assert os.stat(work / "o.prg").st_nlink == 2


def test_a_failed_in_place_write_puts_the_old_bytes_back(work, monkeypatch):
    (work / "o.prg").write_bytes(b"old bytes")
    os.link(work / "o.prg", work / "twin.prg")
    real = fileio._write_all
    calls = []

    def failing(fd, data):
        calls.append(1)
        if len(calls) == 1:
            real(fd, data[:3])
            raise OSError(28, "No space left on device")
        real(fd, data)

    monkeypatch.setattr(fileio, "_write_all", failing)
    plan = fileio.Files()
    plan.add("o.prg", b"the new bytes")
    with pytest.raises(OSError, match="No space"):
        plan.commit()
    assert (work / "twin.prg").read_bytes() == b"old bytes"
    assert [p.name for p in work.iterdir() if ".asm6502." in p.name] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another owner")
def test_a_replaced_file_keeps_its_owner_and_mode(work, capsys):
    (work / "o.prg").write_bytes(b"old")
    os.chown(work / "o.prg", 4321, 4322)
    os.chmod(work / "o.prg", 0o640)
    assert run_cli(capsys, "a.asm", "-o", "o.prg")[0] == 0
    st = os.stat(work / "o.prg")
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (4321, 4322, 0o640)


LONG = "n" * 251  # + ".prg": 255 bytes, the longest name a file may have


@pytest.mark.parametrize("argv, made", [
    (["a.asm", "-o", LONG + ".prg"], LONG + ".prg"),
    (["basic", "tok", "hello.bas", "-o", LONG + ".prg"], LONG + ".prg"),
    (["d64", "write", LONG + ".d64", "highiq.prg", "--new", "games,01"], LONG + ".d64"),
    (["build", "-q"], LONG + ".prg"),
    (["sst.asm", "-o", "s.prg"], "n" * 255),
    (["mse", "read", "superhirn.mse.txt", "-o", "n" * 236 + ".prg", "--fix"], "n" * 236 + ".fixed.txt"),
])
def test_a_name_of_255_bytes_is_written(work, capsys, argv, made):
    (work / "hello.bas").write_text('10 print "hi"\n')
    (work / "build.yaml").write_text(f"artifacts:\n  {LONG}.prg: {{rule: assemble, from: a.asm}}\n")
    (work / "sst.asm").write_text(f'10 *= $c000\n20 .sst 8,2,"{"n" * 255}"\n30 rts\n')
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert (work / made).is_file() and [p.name for p in work.iterdir() if p.name.endswith(".tmp")] == []


def test_a_name_too_long_is_said_before_any_work(work, capsys):
    code, _, err = run_cli(capsys, "a.asm", "-o", "n" * 256)
    assert code == 1 and "the file name is 256 bytes, more than the 255" in err


def test_two_rules_writing_one_file_are_an_error(work, capsys):
    (work / "build.yaml").write_text("artifacts:\n  a.prg: {rule: assemble, from: a.asm}\n"
                                     "  ./a.prg: {rule: listing, from: a.asm}\n")
    code, _, err = run_cli(capsys, "build")
    assert code == 1 and "two rules write one file: './a.prg' is 'a.prg', which line 2 already makes" in err
    assert not (work / "a.prg").exists()


def test_a_link_to_an_input_put_in_the_outputs_place_after_planning_is_refused(work):
    """Between the check when an output is planned and the write, the output's name becomes a link to
    the source: the write sees it (each output's name is resolved again, once, when written)."""
    plan = fileio.Files()
    plan.read("a.asm")
    plan.add("o.prg", b"program")
    os.symlink("a.asm", work / "o.prg")
    with pytest.raises(DiagnosticError, match=r"output 'o\.prg' is the input 'a\.asm'"):
        plan.commit()
    assert (work / "a.asm").read_text() == SOURCE


def test_a_link_put_in_the_outputs_place_while_it_is_written_is_not_followed(work, monkeypatch):
    """The name is resolved once: a link that appears after that is replaced, never written through."""
    plan = fileio.Files()
    plan.read("a.asm")
    plan.add("o.prg", b"program")
    real = fileio._new_file

    def meanwhile(directory, name):
        os.symlink("a.asm", work / "o.prg")  # (another process, just after the last check)
        return real(directory, name)

    monkeypatch.setattr(fileio, "_new_file", meanwhile)
    plan.commit()
    assert (work / "a.asm").read_text() == SOURCE
    assert not (work / "o.prg").is_symlink() and (work / "o.prg").read_bytes() == b"program"


# --- streams and encodings ----------------------------------------------------------------------


def _sh(work: Path, line: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line.replace("asm6502", f"{sys.executable} -m asm6502", 1)], cwd=work,
                          capture_output=True, env=kw.pop("env", ENV), timeout=120, **kw)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_block_graphics_on_a_terminal_that_cannot_show_them(work, encoding):
    """Every command's standard output (cli.main sets it up): a character the encoding has not is '?'."""
    done = subprocess.run([sys.executable, "-c", "from asm6502.cli.common import standard_streams; standard_streams(); "
                           "print('READY.\\u2588\\u259a')"], capture_output=True, env=dict(ENV, PYTHONIOENCODING=encoding),
                          timeout=30)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"READY.??\n", b"")


@needs_roms
@pytest.mark.parametrize("line, code", [
    ("asm6502 run --roms {roms} superhirn.prg --cycles 3000000 >&-", 1),
    ("PYTHONIOENCODING=ascii asm6502 run --roms {roms} superhirn.prg --cycles 3000000", 0),
    ("asm6502 run --roms {roms} superhirn.prg --cycles 3000000 | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}", 0),
])
def test_run_on_the_c64_with_bad_streams(work, line, code):
    done = _sh(work, line.format(roms=REAL_ROMS))
    assert done.returncode == code and b"Traceback" not in done.stderr
    if ">&-" in line:
        assert b"standard output is closed" in done.stderr


def test_ctrl_c_in_verify_with_two_workers_is_130(work):
    proc = subprocess.Popen([sys.executable, "-m", "asm6502", "verify", "superhirn", "superhirn.prg", "--jobs", "2",
                             "--no-progress"], cwd=work, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    time.sleep(2.5)  # the workers are playing (the whole sweep takes a minute)
    os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the terminal's whole process group
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert err.count(b"interrupted") == 1


# --- words --------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [8191, 8193])
def test_a_rom_of_the_wrong_size_is_named_with_both_sizes(tmp_path, size):
    (tmp_path / "kernal-901227-03.bin").write_bytes(bytes(size))
    with pytest.raises(DiagnosticError) as info:
        roms.load_dir(tmp_path)
    assert f"kernal-901227-03.bin has {size:,} bytes; the kernal ROM 901227-03 has 8,192" in str(info.value)


def test_a_rom_folder_of_many_files_is_looked_through(tmp_path):
    for k in range(250):  # sorted before the ROM images
        (tmp_path / f"a{k:03d}.bin").write_bytes(bytes([k]) * 100)
    (tmp_path / "kernal-901227-03.bin").write_bytes(bytes([0xEA]) * 8192)
    with pytest.raises(DiagnosticError) as info:
        roms.load_dir(tmp_path)
    assert "kernal-901227-03.bin is not the kernal ROM" in str(info.value)  # looked at, not "no kernal ROM"


@needs_roms
def test_a_rom_folder_of_many_files_finds_its_roms(tmp_path):
    for k in range(250):
        (tmp_path / f"a{k:03d}.bin").write_bytes(bytes([k]) * 8192)  # the size of a ROM: read, and passed over
    for image in REAL_ROMS.iterdir():
        shutil.copy(image, tmp_path / ("z-" + image.name))
    assert roms.load_dir(tmp_path).origin == str(tmp_path)


def test_a_full_disk_names_the_path(work, capsys):
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    code, _, err = run_cli(capsys, "a.asm", "-o", "/dev/full")
    assert code == 1 and "/dev/full: No space left on device" in err
    done = _sh(work, "asm6502 mse write superhirn.prg >/dev/full")
    assert done.returncode == 1 and b"<stdout>: No space left on device" in done.stderr


def test_a_folder_that_cannot_be_written_is_blamed(work, capsys):
    (work / "locked").mkdir()
    if os.geteuid() == 0:
        if not shutil.which("chattr") or subprocess.run(["chattr", "+i", "locked"], capture_output=True).returncode:
            pytest.skip("chattr +i is not available")
    else:
        os.chmod(work / "locked", 0o555)
    try:
        code, _, err = run_cli(capsys, "a.asm", "-o", "locked/o.prg")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", "locked"], capture_output=True)
        os.chmod(work / "locked", 0o755)
    assert code == 1 and "the folder 'locked' cannot be written" in err
    assert list((work / "locked").iterdir()) == []


@pytest.mark.parametrize("argv, said", [
    (["a.asm", "-o", "o.prg", "-D", "x=$"], "bad -D 'x=$': '$' without digits is no number"),
    (["a.asm", "-o", "o.prg", "-D", "x=%"], "'%' without digits is no number"),
    (["convert", "a.asm", "--to", "acme", "-D", "x=$+1"], "'$' without digits is no number"),
    (["mse", "type", "t.txt", "--start", "$c000", "--end", "$bf00"], "--end $BF00 is not after --start $C000"),
    (["mse", "type", "t.txt", "--start", "$c000", "--end", "$c000"], "--end $C000 is not after --start $C000"),
    (["d64", "write", "d.d64", "highiq.prg", "highiq.prg", "--new", "x,01", "--replace"],
     "'highiq.prg' and 'highiq.prg' both get the disk name \"highiq\""),
])
def test_a_value_that_cannot_be_what_it_names_is_an_error(work, capsys, argv, said):
    code, _, err = run_cli(capsys, *argv)
    assert code == 1 and said in err
    assert not (work / "o.prg").exists() and not (work / "d.d64").exists() and not (work / "t.txt").exists()


# --- a typing session sharing its file ----------------------------------------------------------


class _Typist(io.StringIO):
    """Standard input typing *lines*; before the line numbered *at*, *meanwhile* runs (another writer)."""

    def __init__(self, lines: list[str], at: int, meanwhile):
        super().__init__("".join(line + "\n" for line in lines))
        self.count = 0
        self.at = at
        self.meanwhile = meanwhile

    def readline(self, *args):
        self.count += 1
        if self.count == self.at:
            self.meanwhile()
        return super().readline(*args)


@pytest.mark.parametrize("command, typed, other", [
    (["basic", "type", "prog.txt"], ['10 print "mine"', ".quit"], "20 print \"theirs\" <123>\n"),
    (["mse", "type", "prog.txt", "--start", "$c000"], ["a9 00 8d 20 d0 a9 01 8d 6f", ".quit"], "C008 : ff\n"),
])
def test_a_session_whose_file_changed_saves_beside_it(work, capsys, monkeypatch, command, typed, other):
    from asm6502.typein.mselisting import checksum_v1

    if command[0] == "mse":
        data = bytes.fromhex(typed[0][:-3])
        typed = [typed[0][:-2] + f"{checksum_v1(0xC000, data):02x}", typed[1]]
    (work / "prog.txt").write_text("")

    def other_writer():
        with open(work / "prog.txt", "a") as fh:
            fh.write(other)

    monkeypatch.setattr("sys.stdin", _Typist(typed, 2, other_writer))
    code, out, err = run_cli(capsys, *command)
    assert code == 0, err
    assert (work / "prog.txt").read_text() == other  # the other writer's lines, as they wrote them
    assert "was changed by another program since this session read it" in out and "saved prog.txt.1" in out
    assert ("mine" if command[0] == "basic" else "A9 00 8D") in (work / "prog.txt.1").read_text()


# --- bounded work -------------------------------------------------------------------------------


def test_twenty_thousand_defines_are_quick(work, capsys):
    argv = ["a.asm", "-o", "o.prg", "-q"] + [a for k in range(20_000) for a in ("-D", f"v{k}={k}")]
    started = time.perf_counter()
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert time.perf_counter() - started < 5  # (20 s when argparse read them: its time grows with their square)


def test_a_disk_folder_is_read_lazily(tmp_path):
    from asm6502.emu.c64.drive import Disk

    for k in range(300):
        (tmp_path / f"f{k:03d}.prg").write_bytes(b"\x01\x08" + bytes([k % 256]) * 1000)
    files = fileio.Files()
    reads = []
    real = files.read
    files.read = lambda *a, **kw: reads.append(a[0]) or real(*a, **kw)  # type: ignore[method-assign]
    disk = Disk.load(str(tmp_path), files)
    assert reads == [] and len(files.inputs) == 300  # every file an input once listed, none read
    assert disk.files[0].blocks == 4 and b"BLOCKS FREE" in disk.directory_program()
    assert disk.find(b"F007").data == b"\x01\x08" + bytes([7]) * 1000 and len(reads) == 1


def test_a_pasted_line_of_megabytes_is_refused_at_once():
    from asm6502.typein.basic import MAX_TYPED, BasicSession

    session = BasicSession()
    started = time.perf_counter()
    answer = session.feed('10 print "' + "x" * 5_000_000 + '" <123>')
    assert time.perf_counter() - started < 1 and answer[0].startswith("refused: 5,000,017 characters in one line")
    assert session.lines == {} and not session.dirty
    near = '10 print "' + "x" * (MAX_TYPED - 20) + '"'  # (the longest accepted: stored, its checksum shown)
    assert session.feed(near)[0].startswith("ok: line 10")
