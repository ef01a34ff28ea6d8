"""The hostile matrix, generated from the roles the commands declare: every argument of every
command that names a file or a folder (cli.common.add_path_argument, walked from cli/commands.py)
x every kind of bad value for its role -- bad inputs for an input, bad output paths for an output,
bad folders for a folder.

The only table kept by hand is one good command line per command (BASE); the arguments to vary
are found in the parsers, and an output or folder option the good line leaves out is added to it.
A new option that names a file is in the matrix the day it is declared (tests/test_roles.py fails
until it is), and a command without a good line here fails test_every_declared_argument_is_varied.

Each run happens in a scratch folder ("work") beside a folder that must never change ("outside"),
both snapshotted before and after -- every file's bytes, mode, owner and link target. Whatever the
outcome, the run must:

- end with an exit status (0-4, or 130) and never a traceback (the command runs in-process: an
  uncaught exception fails the test by itself);
- change nothing outside "work", and inside it only the outputs the command line declares -- and
  only when it succeeded (a failed run leaves everything as it was, no temporary file behind);
- keep the mode and owner of a file it replaces; update a hard-linked output in place (its other
  name sees the new bytes, as with cp);
- print at most MAX_ERR characters on standard error (its first diagnostics, never its input whole).

And every command's good line x every kind of bad standard output (STREAMS: closed, a reader that
has gone, an encoding without the C64's characters, a full disk), in its own process: no traceback,
the usual exit status.

The default run takes a fixed sample (SAMPLE file cases and 12 stream cases, the same every time);
``pytest -m slow`` runs all (test_the_matrix_size says how many there are).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from helpers import ROOT
from test_roles import parsers

from asm6502 import fileio
from asm6502.cli import main
from asm6502.cli.common import ROLE_ATTRIBUTE

BUILD = ROOT / "build"
GOOD_SOURCE = '10 *= $c000\n20 start lda #1 ; border\n30 sta $d020\n40 rts\n'
MAX_ERR = 100_000  # what a run may print on standard error: its first diagnostics, each line cut to its width
SAMPLE = 110  # cases in the default run (about 4 s); the slow run takes all
FAKE_ROMS = {"basic-901226-01.bin": 8192, "kernal-901227-03.bin": 8192, "chargen-901225-01.bin": 4096}

# one good command line per command (the parser's prog); every input it names is in good_files
BASE: dict[str, list[str]] = {
    "asm6502": ["good.asm", "-o", "out.prg", "--disk", "asm6502.d64"],
    "asm6502 build": ["build", "build.yaml", "-q"],
    "asm6502 mse write": ["mse", "write", "superhirn.prg", "-o", "out.txt"],
    "asm6502 mse read": ["mse", "read", "superhirn.mse.txt", "-o", "out.prg"],
    "asm6502 mse type": ["mse", "type", "typed.txt", "--start", "$c000", "-o", "typed.prg"],
    "asm6502 basic tok": ["basic", "tok", "hello.bas", "-o", "out.prg"],
    "asm6502 basic list": ["basic", "list", "highiq.prg", "-o", "out.bas"],
    "asm6502 basic checksum": ["basic", "checksum", "highiq.prg", "-o", "out.txt"],
    "asm6502 basic read": ["basic", "read", "highiq.checksum.txt", "-o", "out.prg"],
    "asm6502 basic type": ["basic", "type", "typed.bas", "-o", "typed.prg"],
    "asm6502 basic run": ["basic", "run", "hello.bas", "--input", "keys.txt", "--max-statements", "2000"],
    "asm6502 run": ["run", "superhirn.prg", "--input", "keys.txt", "--max-instructions", "200000"],
    "asm6502 verify superhirn": ["verify", "superhirn", "superhirn.prg", "--secrets", "3436", "--jobs", "1",
                                 "--no-progress", "-o", "out.txt"],
    "asm6502 d64 list": ["d64", "list", "asm6502.d64"],
    "asm6502 d64 read": ["d64", "read", "asm6502.d64", "high*", "-o", "out.prg"],
    "asm6502 d64 write": ["d64", "write", "out.d64", "highiq.prg", "--new", "games,01", "--force"],
    "asm6502 d64 delete": ["d64", "delete", "asm6502.d64", "high*"],
    "asm6502 d64 rename": ["d64", "rename", "asm6502.d64", "high iq", "peg solitaire"],
    "asm6502 d64 validate": ["d64", "validate", "asm6502.d64"],
    "asm6502 disasm": ["disasm", "superhirn.prg", "-o", "out.asm"],
    "asm6502 convert": ["convert", "good.asm", "--to", "acme", "-o", "out.a", "-q", "--disk", "asm6502.d64"],
    "asm6502 typein scan": ["typein", "scan", "superhirn.mse.txt", "-o", "programs"],
    "asm6502 publish": ["publish", "superhirn.prg", "-o", "pages", "--chargen", "roms/chargen-901225-01.bin"],
    "asm6502 typein write": ["typein", "write", "superhirn.prg", "--format", "mlx-2", "-o", "out.txt"],
    "asm6502 typein read": ["typein", "read", "superhirn.mse.txt", "--format", "mse-1.0", "-o", "out.prg"],
    "asm6502 typein type": ["typein", "type", "typed.txt", "--format", "mlx-2", "--start", "$c000", "-o", "typed.prg"],
}
def _mse_line() -> str:
    from asm6502.typein.mselisting import checksum_v1

    data = bytes([0xA9, 0x00, 0x8D, 0x20, 0xD0, 0xA9, 0x01, 0x8D])
    return data.hex(" ") + f" {checksum_v1(0xC000, data):02x}"


# what the typing sessions read: one good line (so that the program is written too), then .quit
STDIN = {"asm6502 mse type": _mse_line() + "\n.quit\n", "asm6502 basic type": '10 print "hi"\n.quit\n',
         "asm6502 typein type": "A9 37 85 FC A9 D7 85 FE 5B\n.quit\n"}
VERDICTS = {"asm6502 verify superhirn", "asm6502 typein scan"}  # exit 1 is a verdict, not a failure: the report is written either way
# a good value for a folder or output option the good line leaves out, by the role's kind
ADDED = {fileio.FOLDER: "inc", fileio.ROMS: "roms", fileio.DISK: "disk", fileio.WRITE: "extra.out", fileio.OUTDIR: "programs"}


def good_files(work: Path) -> None:
    for name in ("highiq.prg", "superhirn.prg", "asm6502.d64", "superhirn.mse.txt", "highiq.checksum.txt"):
        shutil.copy(BUILD / name, work / name)
    (work / "good.asm").write_text(GOOD_SOURCE)
    (work / "hello.bas").write_text('10 print "hello"\n20 end\n')
    (work / "keys.txt").write_text("1\n1\n1\n1\n")
    (work / "build.yaml").write_text("artifacts:\n  made.prg: {rule: assemble, from: good.asm}\n")
    (work / "inc").mkdir()
    (work / "roms").mkdir()
    for name, size in FAKE_ROMS.items():  # the right sizes, the wrong bytes: refused by their checksums
        (work / "roms" / name).write_bytes(bytes([len(name)]) * size)
    (work / "disk").mkdir()
    (work / "disk" / "game.prg").write_bytes(b"\x01\x08\x00\x00")


# --- the cases: (command, option, side, kind), from the parsers' declarations ---------------------


def _slot(parser: argparse.ArgumentParser, argv: list[str], action: argparse.Action) -> int | None:
    """Where in *argv* the value of *action* is (None: the good line does not give it)."""
    if action.option_strings:
        return next((i + 1 for i, a in enumerate(argv) if a in action.option_strings), None)
    value = getattr(parser.parse_args(_sub_argv(argv)), action.dest, None)
    if isinstance(value, list):
        value = value[0] if value else None
    return argv.index(value) if value in argv else None


def _sub_argv(argv: list[str]) -> list[str]:
    """*argv* as the leaf parser sees it (without the command words)."""
    return argv[_words(argv):]


def _words(argv: list[str]) -> int:
    """How many command words start *argv* (the parsers' progs: 'asm6502 mse write' has two)."""
    return next((k for k in (2, 1) if " ".join(["asm6502", *argv[:k]]) in BY_PROG), 0)


PARSERS = parsers()
BY_PROG = dict(PARSERS)
DECLARED = [(prog, parser, a) for prog, parser in PARSERS for a in parser._actions if hasattr(a, ROLE_ATTRIBUTE)]


def declared() -> list[tuple[str, argparse.ArgumentParser, argparse.Action]]:
    return DECLARED


def command_line(prog: str, parser, action) -> tuple[list[str], int]:
    """The good line of *prog* with *action*'s value in it (added when the line leaves it out), and
    where that value is."""
    argv = list(BASE[prog])
    at = _slot(parser, argv, action)
    if at is None:
        kind = getattr(action, ROLE_ATTRIBUTE).kind
        assert kind in ADDED, f"{prog}: the good line in BASE must give a value for {action.option_strings or action.dest}"
        argv += [action.option_strings[-1], ADDED[kind]]
        at = len(argv) - 1
    return argv, at


# --- bad inputs: each makes a file (or names none) from the good value ----------------------------


def _named(work: Path, good: str, data: bytes, stem: str = "bad") -> str:
    name = stem + Path(good).suffix
    (work / name).write_bytes(data)
    return name


def _text_of(work: Path, good: str) -> bytes:
    return (work / good).read_bytes() if (work / good).is_file() else b"10 rem\n"


def _link_loop(work: Path, good: str) -> str:
    os.symlink("loop2" + Path(good).suffix, work / ("loop1" + Path(good).suffix))
    os.symlink("loop1" + Path(good).suffix, work / ("loop2" + Path(good).suffix))
    return "loop1" + Path(good).suffix


def _huge(work: Path, good: str) -> str:
    name = "huge" + Path(good).suffix
    with open(work / name, "wb") as fh:  # a sparse 40 MB file of zero bytes
        fh.truncate(40 * 1024 * 1024)
    return name


INPUTS = {
    "missing": lambda work, good: "nothing" + Path(good).suffix,
    "directory": lambda work, good: (work / ("folder" + Path(good).suffix)).mkdir() or "folder" + Path(good).suffix,
    "trailing slash": lambda work, good: good + "/",
    "empty": lambda work, good: _named(work, good, b""),
    "huge": _huge,
    "zero bytes": lambda work, good: _named(work, good, b"\0" * 5000),
    "random bytes": lambda work, good: _named(work, good, random.Random(good).randbytes(6000)),
    "utf-16": lambda work, good: _named(work, good, _text_of(work, good).decode("latin-1").encode("utf-16")),
    "latin-1": lambda work, good: _named(work, good, b"10 rem \xe4\xf6\xfc \xff\n20 end\n"),
    "truncated": lambda work, good: _named(work, good, _text_of(work, good)[: len(_text_of(work, good)) // 2]),
    "one byte": lambda work, good: _named(work, good, b"\x01"),
    "deep brackets": lambda work, good: _named(work, good, b"10 lda #" + b"(" * 100_000 + b"1" + b")" * 100_000 + b"\n"),
    "long line": lambda work, good: _named(work, good, b"10 ; " + b"x" * 1_000_000 + b"\n"),
    "long word": lambda work, good: _named(work, good, b"10 " + b"x" * 1_000_000 + b"\n"),
    "control characters": lambda work, good: _named(work, good, _text_of(work, good).replace(b"\n", b"\x1b[2J\x07\n", 2)),
    "cr line ends": lambda work, good: _named(work, good, _text_of(work, good).replace(b"\n", b"\r")),
    "link loop": _link_loop,
    "dangling link": lambda work, good: os.symlink("gone" + Path(good).suffix, work / ("dangling" + Path(good).suffix))
    or "dangling" + Path(good).suffix,
    "a name of 255 bytes": lambda work, good: _named(work, good, _text_of(work, good), "n" * (255 - len(Path(good).suffix))),
}


# --- bad folders (for a folder's role: include folder, ROM folder, disk folder) -----------------


def _many(work: Path, good: str) -> str:
    (work / "many").mkdir()
    for k in range(250):
        (work / "many" / f"f{k:03d}.prg").write_bytes(b"\x01\x08" + bytes([k]))
    return "many"


FOLDERS = {
    "missing": lambda work, good: "nowhere",
    "a file": lambda work, good: "keys.txt",
    "empty": lambda work, good: (work / "void").mkdir() or "void",
    "dangling link": lambda work, good: os.symlink("gone", work / "dangling") or "dangling",
    "link loop": lambda work, good: _link_loop(work, ""),
    "250 files": _many,
}


# --- bad outputs: (make the name to give, whether a successful run is acceptable) ---------------


def _protected(work: Path, out: str) -> str:
    (work / out).write_bytes(b"keep me")
    os.chmod(work / out, 0o444)
    return out


def _private(work: Path, out: str) -> str:
    (work / out).write_bytes(b"old contents")
    os.chmod(work / out, 0o600)
    return out


def _dangling(work: Path, out: str) -> str:
    (work / out).unlink(missing_ok=True)  # (a file the command edits is there: the link takes its place)
    os.symlink("target-" + out, work / out)  # written through: the file it names appears
    return out


def _directory(work: Path, out: str) -> str:
    (work / out).unlink(missing_ok=True)  # (a file the command edits is there: a folder takes its place)
    (work / out).mkdir()
    return out


def _twin(work: Path, out: str) -> str:
    (work / out).write_bytes(b"old contents")
    os.link(work / out, work / ("twin-" + out))  # updated in place: the twin sees the new bytes
    return out


def _owned(work: Path, out: str) -> str:
    (work / out).write_bytes(b"old contents")
    os.chown(work / out, 4321, 4321)  # (root only: see OWNERS)
    return out


def _locked(work: Path, out: str) -> str:
    (work / "locked").mkdir()
    if not _lock(work / "locked"):
        pytest.skip("no way to make a folder this user cannot write (chattr +i, or chmod as a user)")
    return "locked/" + out


def _lock(folder: Path) -> bool:
    if os.geteuid() != 0:
        os.chmod(folder, 0o555)
        return True
    return subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False).returncode == 0 \
        if shutil.which("chattr") else False


def _unlock(folder: Path) -> None:
    if folder.is_dir():
        if shutil.which("chattr"):
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)
        os.chmod(folder, 0o755)


OUTPUTS = {
    "the input": (lambda work, out, good: good, False),
    "a link to the input": (lambda work, out, good: os.symlink(good, work / ("soft-" + out)) or "soft-" + out, False),
    "a hard link of the input": (lambda work, out, good: os.link(work / good, work / ("hard-" + out)) or "hard-" + out, False),
    "a ROM image": (lambda work, out, good: "roms/kernal-901227-03.bin", None),
    "a disk folder's file": (lambda work, out, good: "disk/game.prg", None),
    "a directory": (lambda work, out, good: _directory(work, out), False),
    "a missing folder": (lambda work, out, good: "nowhere/" + out, False),
    "a trailing slash": (lambda work, out, good: out + "/", False),
    "a write-protected file": (lambda work, out, good: _protected(work, out), False),
    "a folder that cannot be written": (lambda work, out, good: _locked(work, out), False),
    "a full disk": (lambda work, out, good: "/dev/full", False),
    "a private file": (lambda work, out, good: _private(work, out), True),
    "a dangling link": (lambda work, out, good: _dangling(work, out), True),
    "a file with a hard link": (lambda work, out, good: _twin(work, out), True),
    "another owner's file": (lambda work, out, good: _owned(work, out), True),
    "a name of 255 bytes": (lambda work, out, good: "n" * (255 - len(Path(out).suffix)) + Path(out).suffix, True),
}
OWNERS = os.geteuid() == 0  # only root can give a file to another owner
# bad folders to write into (an output folder: made if missing, every file in it an output)
OUTDIRS = {
    "missing (made)": (lambda work, out, good: "made-dir", True),
    "an existing folder": (lambda work, out, good: (work / "there").mkdir() or "there", True),
    "a file": (lambda work, out, good: "keys.txt", False),
    "the input": (lambda work, out, good: good, False),
    "a dangling link": (lambda work, out, good: os.symlink("gone", work / "dangling") or "dangling", False),
    "a folder that cannot be written": (lambda work, out, good: _locked(work, out).split("/")[0], False),
}


def _good_input(argv: list[str], parser, prog: str) -> str | None:
    """An input of the command line, to name as an output ("the input"); None: it reads none but
    the file it edits (a typing session)."""
    for _p, q, a in declared():
        if q is parser and getattr(a, ROLE_ATTRIBUTE).kind == fileio.READ:
            at = _slot(parser, argv, a)
            if at is not None:
                return argv[at]
    return None


NEEDS_AN_INPUT = {"the input", "a link to the input", "a hard link of the input"}


def cases() -> list[tuple[str, str, str, str]]:
    out = []
    for prog, _parser, action in declared():
        kind = getattr(action, ROLE_ATTRIBUTE).kind
        option = action.option_strings[-1] if action.option_strings else action.dest
        kinds = ({fileio.READ: INPUTS, fileio.DISK: INPUTS | {f"folder: {k}": v for k, v in FOLDERS.items()},
                  fileio.FOLDER: FOLDERS, fileio.ROMS: FOLDERS, fileio.WRITE: OUTPUTS,
                  fileio.EDIT: INPUTS | OUTPUTS, fileio.OUTDIR: OUTDIRS}[kind])
        for k in kinds:
            if k in NEEDS_AN_INPUT and kinds is not INPUTS and _good_input(BASE[prog], _parser, prog) is None:
                continue
            side = "output" if kinds is OUTPUTS or (kind == fileio.EDIT and k in OUTPUTS) else "input"
            if kinds is OUTDIRS:
                side = "outdir"
            if side == "input" and kind in (fileio.FOLDER, fileio.ROMS) or side == "input" and k.startswith("folder: "):
                side = "folder"
            out.append((prog, option, side, k))
    return out


ALL = cases()
DEFAULT = set(random.Random(20).sample(range(len(ALL)), SAMPLE))
PARAMS = [pytest.param(*case, id=f"{case[0]} {case[1]}: {case[2]} x {case[3]}",
                       marks=() if i in DEFAULT else pytest.mark.slow) for i, case in enumerate(ALL)]


# --- one run --------------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry below *folder*: a link's target, a file's bytes, mode and owner, a folder."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        st = p.lstat()
        if p.is_symlink():
            out[rel] = ("link", os.readlink(p))
        elif p.is_dir():
            out[rel] = ("dir", stat.S_IMODE(st.st_mode))
        elif p.is_file():
            out[rel] = ("file", p.read_bytes(), stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid)
        else:
            out[rel] = ("special",)
    return out


def run_case(sandbox: Path, argv: list[str], declared_names: set[str], capsys, monkeypatch, *,
             success_ok: bool = True, verdict: bool = False, stdin: str | None = None,
             folders: tuple[str, ...] = ()) -> tuple[int, dict, dict]:
    """*folders*: declared output folders (a successful run may make them and write into them)."""
    work, outside = sandbox / "work", sandbox / "outside"
    before_work, before_outside = snapshot(work), snapshot(outside)
    monkeypatch.chdir(work)
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    _out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert len(err) <= MAX_ERR, f"{len(err):,} characters on standard error (a message echoing its input whole?)"
    assert code in (0, 1, 2, 3, 4, 130), (code, err)
    assert snapshot(outside) == before_outside, "a file outside the scratch folder changed"
    after = snapshot(work)
    changed = {k for k in set(before_work) | set(after) if before_work.get(k) != after.get(k)}
    assert not [k for k in after if ".asm6502." in k], "a temporary file was left behind"
    inside = {k for k in changed if any(k == f or k.startswith(f + "/") for f in folders)}
    if code != 0 and not (verdict and code == 1 and changed and changed - inside <= declared_names):
        assert changed == set(), f"a failed run (exit {code}) changed {sorted(changed)}:\n{err}"
        return code, before_work, after
    assert success_ok, f"exit 0 where a refusal was expected:\n{err}"
    assert changed - inside <= declared_names, f"undeclared changes {sorted(changed - inside - declared_names)}"
    for name in changed:  # a replaced file keeps its mode and owner
        if name in before_work and before_work[name][0] == "file" and after.get(name, ("",))[0] == "file":
            assert after[name][2:] == before_work[name][2:], f"{name}: mode or owner changed"
    return code, before_work, after


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("template")
    good_files(folder)
    return folder


@pytest.fixture
def sandbox(tmp_path, template, monkeypatch):
    monkeypatch.setenv("ASM6502_ROMS", "none")  # the stubs, never a ROM folder of this machine
    shutil.copytree(template, tmp_path / "work", symlinks=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "precious.txt").write_text("must not change\n")
    yield tmp_path
    _unlock(tmp_path / "work" / "locked")


def _outputs_of(argv: list[str], prog: str) -> set[str]:
    parser = BY_PROG[prog]
    names = set()
    for _p, q, a in declared():
        if q is parser and getattr(a, ROLE_ATTRIBUTE).kind in (fileio.WRITE, fileio.EDIT):
            at = _slot(parser, argv, a)
            if at is not None:
                names.add(argv[at])
    return names | {"made.prg"}  # (build.yaml's artifact)


@pytest.mark.parametrize("prog,option,side,kind", PARAMS)
def test_hostile_matrix(sandbox, capsys, monkeypatch, prog, option, side, kind):
    work = sandbox / "work"
    parser = BY_PROG[prog]
    action = next(a for _p, q, a in declared() if q is parser and (a.option_strings[-1:] or [a.dest])[0] == option)
    argv, at = command_line(prog, parser, action)
    good = argv[at]
    success_ok: bool | None = True
    if side == "input":
        argv[at] = INPUTS[kind](work, good)
    elif side == "folder":
        argv[at] = FOLDERS[kind.removeprefix("folder: ")](work, good)
    elif side == "outdir":
        make, success_ok = OUTDIRS[kind]
        argv[at] = make(work, good, _good_input(argv, parser, prog))
    else:
        if kind == "a full disk" and not Path("/dev/full").exists():
            pytest.skip("needs /dev/full")
        if kind == "another owner's file" and not OWNERS:
            pytest.skip("only root can give a file to another owner")
        make, success_ok = OUTPUTS[kind]
        argv[at] = make(work, good, _good_input(argv, parser, prog))
        if success_ok is None:  # another role's input: refused where the command has that role
            wanted = fileio.ROMS if kind == "a ROM image" else fileio.DISK
            other = [a for _p, q, a in declared() if q is parser and getattr(a, ROLE_ATTRIBUTE).kind == wanted]
            success_ok = not other  # (a command without that role: writing there is writing a file)
            if other and _slot(parser, argv, other[0]) is None:
                argv += [other[0].option_strings[-1], ADDED[wanted]]
    names = _outputs_of(argv, prog)
    names |= {os.readlink(work / n) for n in names if (work / n).is_symlink()}  # (written through the link)
    declared_names = names | {"target-" + n for n in names} | {"twin-" + n for n in names}
    folders = tuple(argv[at] for _p, q, a in declared() if q is parser and getattr(a, ROLE_ATTRIBUTE).kind == fileio.OUTDIR
                    for at in [_slot(parser, argv, a)] if at is not None)
    code, _before, after = run_case(sandbox, argv, declared_names, capsys, monkeypatch, success_ok=bool(success_ok),
                                    verdict=prog in VERDICTS, stdin=STDIN.get(prog), folders=folders)
    if code == 0 and kind == "a file with a hard link" and argv[at] in after and after[argv[at]][0] == "file":
        assert after["twin-" + argv[at]][1] == after[argv[at]][1], "the hard link's other name kept the old bytes"


def test_the_matrix_size():
    """How many cases the declarations generate (all of them with -m slow): 797 file cases and 72
    stream cases when this was written."""
    assert len(ALL) >= 700 and len(DEFAULT) == SAMPLE, f"{len(ALL)} cases"
    assert len(STREAM_CASES) == 4 * len(BASE) and len(STREAM_DEFAULT) == 12


def test_every_declared_argument_is_varied():
    """Every command with a file argument has a good line, and each of its declared arguments has
    its own cases."""
    progs = {prog for prog, _p, _a in declared()}
    assert progs <= set(BASE), f"commands without a good line in BASE: {sorted(progs - set(BASE))}"
    varied = {(prog, option) for prog, option, _s, _k in ALL}
    for prog, parser, action in declared():
        assert (prog, action.option_strings[-1] if action.option_strings else action.dest) in varied
        command_line(prog, parser, action)  # (an input the good line does not give fails here)


# --- every command x every kind of bad standard stream --------------------------------------------

# (the redirection or environment, what it does to standard output)
STREAMS = {
    "closed": ("{cmd} >&-", {}),
    "a reader that has gone": ("{cmd} | head -c 1 >/dev/null; exit ${{PIPESTATUS[0]}}", {}),
    "an encoding without the C64's characters": ("{cmd}", {"PYTHONIOENCODING": "ascii"}),
    "a full disk": ("{cmd} >/dev/full", {}),
}
STREAM_CASES = [(prog, kind) for prog in BASE for kind in STREAMS]
STREAM_DEFAULT = set(random.Random(7).sample(range(len(STREAM_CASES)), 12))


def _shell_line(argv: list[str]) -> str:
    import shlex

    return " ".join(shlex.quote(a) for a in argv)


@pytest.mark.parametrize("prog,kind", [pytest.param(*c, id=f"{c[0]}: {c[1]}", marks=() if i in STREAM_DEFAULT else pytest.mark.slow)
                                       for i, c in enumerate(STREAM_CASES)])
def test_every_command_with_a_bad_standard_output(sandbox, prog, kind):
    """No traceback and the usual exit status (a clear error for a closed stream or a full disk,
    quiet for a reader that has gone, '?' for a character the encoding has not)."""
    import sys

    if kind == "a full disk" and not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    argv = [a for a in BASE[prog] if a != "-q"]
    line, env = STREAMS[kind]
    stdin = STDIN.get(prog, "")
    done = subprocess.run(["bash", "-c", line.format(cmd=_shell_line([sys.executable, "-m", "asm6502", *argv]))],
                          cwd=sandbox / "work", input=stdin.encode(), capture_output=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT), ASM6502_ROMS="none", **env))
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")[-2000:]
    assert done.returncode in (0, 1, 3, 4), (done.returncode, done.stderr[-500:])
    if kind == "a reader that has gone":
        assert b"Broken pipe" not in done.stderr
