"""The hostile matrix, generated: every subcommand x every kind of bad input, and every subcommand
that writes a file x every kind of bad output path.

Each run happens in a scratch folder ("work") beside a folder that must never change ("outside"),
both snapshotted before and after -- every file's bytes, mode and link target. Whatever the
outcome, the run must:

- end with an exit status (0-4, or 130) and never a traceback (the command runs in-process: an
  uncaught exception fails the test by itself);
- change nothing outside "work", and inside it only the outputs the command line declares -- and
  only when it succeeded (a failed run leaves everything as it was, no temporary file behind);
- keep the mode of a file it replaces;
- print at most MAX_ERR characters on standard error (its first diagnostics, never its input whole).

Not a list of remembered cases: a new command is one row of COMMANDS, a new kind of bad input or
output one entry of INPUTS / OUTPUTS, and every combination is run. The default run takes a fixed
sample (SAMPLE combinations, the same every time); ``pytest -m slow`` runs all of them.
"""

from __future__ import annotations

import os
import random
import shutil
import stat
from pathlib import Path

import pytest

from asm6502.cli import main
from helpers import ROOT

BUILD = ROOT / "build"
GOOD_SOURCE = '10 *= $c000\n20 lda #1 ; border\n30 sta $d020\n40 rts\n'
MAX_ERR = 100_000  # what a run may print on standard error: its first diagnostics, each line cut to its width
SAMPLE = 70  # combinations in the default run (about 3 s); the slow run takes all

# name: (argv with {in} and {out}, the good input, the good output name or None (the command writes no file))
COMMANDS: dict[str, tuple[tuple[str, ...], str, str | None]] = {
    "assemble": (("{in}", "-o", "{out}"), "good.asm", "out.prg"),
    "assemble --listing": (("{in}", "-o", "ok.prg", "--listing", "{out}"), "good.asm", "out.lst"),
    "basic tok": (("basic", "tok", "{in}", "-o", "{out}"), "hello.bas", "out.prg"),
    "basic list": (("basic", "list", "{in}", "-o", "{out}"), "highiq.prg", "out.bas"),
    "basic checksum": (("basic", "checksum", "{in}", "-o", "{out}"), "highiq.prg", "out.txt"),
    "basic run": (("basic", "run", "{in}", "--input", "keys.txt", "--max-statements", "2000"), "hello.bas", None),
    "mse write": (("mse", "write", "{in}", "-o", "{out}"), "superhirn.prg", "out.txt"),
    "mse read": (("mse", "read", "{in}", "-o", "{out}"), "superhirn.mse.txt", "out.prg"),
    "typein scan": (("typein", "scan", "{in}"), "superhirn.mse.txt", None),
    "d64 list": (("d64", "list", "{in}"), "asm6502.d64", None),
    "d64 read": (("d64", "read", "{in}", "high*", "-o", "{out}"), "asm6502.d64", "out.prg"),
    "d64 write": (("d64", "write", "{out}", "{in}", "--new", "games,01", "--force"), "highiq.prg", "out.d64"),
    "disasm": (("disasm", "{in}", "-o", "{out}"), "superhirn.prg", "out.asm"),
    "convert": (("convert", "{in}", "--to", "acme", "-o", "{out}", "-q"), "good.asm", "out.a"),
    "run": (("run", "{in}", "--input", "keys.txt", "--max-instructions", "200000"), "superhirn.prg", None),
    "verify": (("verify", "superhirn", "{in}", "--secrets", "3436", "--jobs", "1", "--no-progress", "-o", "{out}"),
               "superhirn.prg", "out.txt"),
    "build": (("build", "{in}", "-q"), "build.yaml", None),
}


def good_files(work: Path) -> None:
    for name in ("highiq.prg", "superhirn.prg", "asm6502.d64", "superhirn.mse.txt"):
        shutil.copy(BUILD / name, work / name)
    (work / "good.asm").write_text(GOOD_SOURCE)
    (work / "hello.bas").write_text('10 print "hello"\n20 end\n')
    (work / "keys.txt").write_text("1\n1\n1\n1\n")
    (work / "build.yaml").write_text("artifacts:\n  made.prg: {rule: assemble, from: good.asm}\n")


# --- bad inputs: each makes a file (or names none) from the good input of the command ---------------


def _text_of(good: Path) -> bytes:
    return good.read_bytes()


def _named(work: Path, good: str, data: bytes, stem: str = "bad") -> str:
    name = stem + Path(good).suffix
    (work / name).write_bytes(data)
    return name


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
    "utf-16": lambda work, good: _named(work, good, _text_of(work / good).decode("latin-1").encode("utf-16")),
    "latin-1": lambda work, good: _named(work, good, b"10 rem \xe4\xf6\xfc \xff\n20 end\n"),
    "truncated": lambda work, good: _named(work, good, _text_of(work / good)[: len(_text_of(work / good)) // 2]),
    "one byte": lambda work, good: _named(work, good, b"\x01"),
    "deep brackets": lambda work, good: _named(work, good, b"10 lda #" + b"(" * 100_000 + b"1" + b")" * 100_000 + b"\n"),
    "long line": lambda work, good: _named(work, good, b"10 ; " + b"x" * 1_000_000 + b"\n"),
    "long word": lambda work, good: _named(work, good, b"10 " + b"x" * 1_000_000 + b"\n"),
    "control characters": lambda work, good: _named(work, good, _text_of(work / good).replace(b"\n", b"\x1b[2J\x07\n", 2)),
    "cr line ends": lambda work, good: _named(work, good, _text_of(work / good).replace(b"\n", b"\r")),
    "link loop": _link_loop,
    "dangling link": lambda work, good: os.symlink("gone" + Path(good).suffix, work / ("dangling" + Path(good).suffix))
    or "dangling" + Path(good).suffix,
}


# --- bad outputs: (the name to give, whether a successful run is acceptable) ------------------------


def _protected(work: Path, out: str) -> str:
    (work / out).write_bytes(b"keep me")
    os.chmod(work / out, 0o444)
    return out


def _private(work: Path, out: str) -> str:
    (work / out).write_bytes(b"old contents")
    os.chmod(work / out, 0o600)
    return out


def _dangling(work: Path, out: str) -> str:
    os.symlink("target-" + out, work / out)  # written through: the file it names appears
    return out


OUTPUTS = {
    "the input": (lambda work, out, good: good, False),
    "a link to the input": (lambda work, out, good: os.symlink(good, work / ("soft-" + out)) or "soft-" + out, False),
    "a hard link of the input": (lambda work, out, good: os.link(work / good, work / ("hard-" + out)) or "hard-" + out, False),
    "a directory": (lambda work, out, good: (work / out).mkdir() or out, False),
    "a missing folder": (lambda work, out, good: "nowhere/" + out, False),
    "a trailing slash": (lambda work, out, good: out + "/", False),
    "a write-protected file": (lambda work, out, good: _protected(work, out), False),
    "a full disk": (lambda work, out, good: "/dev/full", False),
    "a private file": (lambda work, out, good: _private(work, out), True),
    "a dangling link": (lambda work, out, good: _dangling(work, out), True),
}


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry below *folder*: a link's target, a file's bytes and mode, a folder."""
    out = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        if p.is_symlink():
            out[rel] = ("link", os.readlink(p))
        elif p.is_dir():
            out[rel] = ("dir", stat.S_IMODE(p.stat().st_mode))
        elif p.is_file():
            out[rel] = ("file", p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
        else:
            out[rel] = ("special",)
    return out


VERDICTS = {"verify"}  # exit 1 is a verdict, not a failure: the report is written either way


def run_case(sandbox: Path, argv: list[str], declared: set[str], capsys, success_ok: bool = True,
             verdict: bool = False) -> None:
    work, outside = sandbox / "work", sandbox / "outside"
    before_work, before_outside = snapshot(work), snapshot(outside)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code
    finally:
        os.chdir(cwd)
    _out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert len(err) <= MAX_ERR, f"{len(err):,} characters on standard error (a message echoing its input whole?)"
    assert code in (0, 1, 2, 3, 4, 130), (code, err)
    assert snapshot(outside) == before_outside, "a file outside the scratch folder changed"
    after = snapshot(work)
    changed = {k for k in set(before_work) | set(after) if before_work.get(k) != after.get(k)}
    if code != 0 and not (verdict and code == 1 and changed and changed <= declared):
        assert changed == set(), f"a failed run (exit {code}) changed {sorted(changed)}:\n{err}"
        return
    assert success_ok, f"exit 0 where a refusal was expected:\n{err}"
    assert changed <= declared, f"undeclared changes {sorted(changed - declared)}"
    for name in changed:  # a replaced file keeps its mode
        if name in before_work and before_work[name][0] == "file" and after.get(name, ("",))[0] == "file":
            assert after[name][2] == before_work[name][2], f"{name}: mode changed"


@pytest.fixture
def sandbox(tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "precious.txt").write_text("must not change\n")
    good_files(tmp_path / "work")
    return tmp_path


def _argv(template: tuple[str, ...], inp: str, out: str) -> list[str]:
    return [a.replace("{in}", inp).replace("{out}", out) for a in template]


INPUT_CASES = [(c, k) for c in COMMANDS for k in INPUTS]
OUTPUT_CASES = [(c, k) for c in COMMANDS if COMMANDS[c][2] is not None for k in OUTPUTS]
ALL = [("input", c, k) for c, k in INPUT_CASES] + [("output", c, k) for c, k in OUTPUT_CASES]
DEFAULT = set(random.Random(20).sample(range(len(ALL)), SAMPLE))
PARAMS = [pytest.param(*case, id=f"{case[0]}: {case[1]} x {case[2]}",
                       marks=() if i in DEFAULT else pytest.mark.slow) for i, case in enumerate(ALL)]


@pytest.mark.parametrize("side,command,kind", PARAMS)
def test_hostile_matrix(sandbox, capsys, side, command, kind):
    work = sandbox / "work"
    template, good, out = COMMANDS[command]
    if side == "input":
        inp = INPUTS[kind](work, good)
        declared = {out, "ok.prg"} if out else {"made.prg"}
        run_case(sandbox, _argv(template, inp, out or ""), declared, capsys, verdict=command in VERDICTS)
    else:
        if kind == "a full disk" and not Path("/dev/full").exists():
            pytest.skip("needs /dev/full")
        make, success_ok = OUTPUTS[kind]
        name = make(work, out, good)
        declared = {name, "ok.prg", "target-" + out}
        run_case(sandbox, _argv(template, good, name), declared, capsys, success_ok)


def test_the_matrix_covers_every_subcommand():
    from asm6502.cli import SUBCOMMANDS

    covered = {c.split()[0] if c.split()[0] in SUBCOMMANDS else "assemble" for c in COMMANDS}
    assert set(SUBCOMMANDS) <= covered
    assert len(ALL) > 300 and len(DEFAULT) == SAMPLE
