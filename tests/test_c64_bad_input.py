"""The bad-input bar of the commands that run the C64, generated from the CLI's declarations: every
command with a ROM folder (a --roms role) or a disk (a --disk role, cli.common.add_path_argument)
x every kind of bad ROM set or bad disk, and every such command x a program that jams or never
stops, on the stubs and (when the ROM images are found) on the C64 with its ROMs.

Each run ends with the usual exit status and never a traceback: a bad ROM set or disk with exit 1
and one line on standard error (``error: ...``, naming the file or folder), before anything runs;
a program that jams or never stops with the status its command documents and the stop named.

The good command lines (GOOD) are the only table kept by hand; a command that declares --roms or
--disk without one fails test_every_command_has_a_good_line.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from helpers import ROOT
from test_roles import parsers

from asm6502 import fileio
from asm6502.cli import main
from asm6502.cli.common import ROLE_ATTRIBUTE
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import roms as romlib


def _declared(kind: str) -> list[tuple[str, str]]:
    return [(prog, a.option_strings[-1]) for prog, parser in parsers() for a in parser._actions
            if getattr(a, ROLE_ATTRIBUTE, None) is not None and getattr(a, ROLE_ATTRIBUTE).kind == kind]


ROM_OPTIONS = _declared(fileio.ROMS)
DISK_OPTIONS = _declared(fileio.DISK)
COMMANDS = sorted({prog for prog, _ in ROM_OPTIONS + DISK_OPTIONS})

JAM = b"\x02"  # JAM (KIL): the CPU stops until a reset (Graham, 6510 unintended opcodes)
# a good command line per command, the program it runs named PROGRAM; for the program rows,
# how a program that jams and one that never stops are written, and the options that bound a run
GOOD = {
    "asm6502 run": ["run", "PROGRAM"],
    "asm6502 basic run": ["basic", "run", "PROGRAM", "--case", "upper"],
    "asm6502 verify superhirn": ["verify", "superhirn", "PROGRAM", "--secrets", "3436", "--jobs", "1", "--no-progress"],
    "asm6502 publish": ["publish", "PROGRAM", "-o", "pages", "--screenshot"],
}
PROGRAMS = {  # (file name, a program that jams, one that never stops)
    "asm6502 run": ("prog.prg", b"\x00\xc0" + JAM, b"\x00\xc0\x4c\x00\xc0"),
    "asm6502 basic run": ("prog.bas", b"10 POKE 49152,2:SYS 49152\n", b"10 GOTO 10\n"),
    "asm6502 verify superhirn": ("superhirn.prg", b"\x00\x34" + JAM, b"\x00\x34\x4c\x00\x34"),
    "asm6502 publish": ("prog.prg", b"\x00\xc0" + JAM, b"\x00\xc0\x4c\x00\xc0"),
}
BOUNDS = {  # (on the stubs, on the C64 with its ROMs): a run that never stops ends soon
    "asm6502 run": (["--max-instructions", "200000"], ["--cycles", "3000000", "--until-text", "NEVER"]),
    "asm6502 basic run": (["--max-statements", "2000"], ["--rom", "--cycles", "3000000"]),
    "asm6502 verify superhirn": ([], []),
    "asm6502 publish": (["--cycles", "300000"], ["--cycles", "3000000"]),
}
# the exit status each command documents for (jams, never stops): (on the stubs, on the C64)
STATUS = {
    "asm6502 run": {"jams": (1, 1), "never stops": (1, 3)},  # 1 the CPU stopped; 3 the cycle limit came first
    "asm6502 basic run": {"jams": (4, 1), "never stops": (3, 3)},  # 4 machine code without the harness; 3 a limit
    "asm6502 verify superhirn": {"jams": (1, 1), "never stops": (1, 1)},  # 1: the claims do not hold
    # the screenshot of a program running (on the stubs as on the C64): a program that jams has no
    # picture (1); one that never stops is shown after --cycles (0)
    "asm6502 publish": {"jams": (1, 1), "never stops": (0, 0)},
}
NAMED = {"jams": ("$02", "rom images"), "never stops": ("budget", "never stops", "reached", "statements", "rom images")}


def _real_roms() -> tuple[Path | None, str]:
    try:
        lookup = romlib.find_roms()
    except DiagnosticError as exc:
        return None, str(exc)
    if lookup.roms is None:
        return None, f"no C64 ROM images ({lookup.reason})"
    return Path(lookup.roms.origin), ""


REAL_ROMS, WHY = _real_roms()
needs_roms = pytest.mark.skipif(REAL_ROMS is None, reason=WHY)
KERNAL = "kernal-901227-03.bin"


def _rom_folder(work: Path, kernal: bytes | None) -> str:
    """A ROM folder whose BASIC and character ROM are right when the real ones are found (else of
    the right size, the wrong bytes) and whose KERNAL is *kernal* (None: none)."""
    folder = work / "roms"
    folder.mkdir()
    for kind in romlib.ROM_KINDS:
        if kind.key == "kernal":
            continue
        source = REAL_ROMS / kind.names[0] if REAL_ROMS is not None else None
        if source is not None and source.is_file():
            shutil.copy(source, folder / kind.names[0])
        else:
            (folder / kind.names[0]).write_bytes(bytes(kind.size))
    if kernal is not None:
        (folder / KERNAL).write_bytes(kernal)
    return "roms"


def _kernal_folder(work: Path) -> str:
    _rom_folder(work, None)
    (work / "roms" / KERNAL).mkdir()
    return "roms"


BAD_ROMS = {
    "missing folder": lambda work: "nowhere",
    "a file": lambda work: "PROGRAM",
    "empty folder": lambda work: (work / "void").mkdir() or "void",
    "no KERNAL": lambda work: _rom_folder(work, None),
    "a short KERNAL": lambda work: _rom_folder(work, bytes(4000)),
    "a KERNAL of the wrong bytes": lambda work: _rom_folder(work, bytes(8192)),
    "a KERNAL that is a folder": _kernal_folder,
}


def _broken_image_folder(work: Path) -> str:
    (work / "disk").mkdir()
    (work / "disk" / "game.prg").write_bytes(b"\x01\x08\x00\x00")
    (work / "disk" / "data.d64").write_bytes(bytes(1000))
    return "disk"


def _file(work: Path, name: str, data: bytes) -> str:
    (work / name).write_bytes(data)
    return name


BAD_DISKS = {
    "missing": lambda work: "nothing.d64",
    "empty": lambda work: _file(work, "empty.d64", b""),
    "random bytes": lambda work: _file(work, "noise.d64", os.urandom(174848)),
    "a short image": lambda work: _file(work, "short.d64", (ROOT / "build" / "asm6502.d64").read_bytes()[:90000]),
    "a text": lambda work: _file(work, "notes.d64", b"10 print\n"),
    "a folder holding a broken .d64": _broken_image_folder,
    "a dangling link": lambda work: os.symlink("gone.d64", work / "dangling.d64") or "dangling.d64",
}


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def _good_line(prog: str, work: Path, program: bytes | None = None) -> list[str]:
    name, jams, _never = PROGRAMS[prog]
    (work / name).write_bytes(program if program is not None else _good_program(prog))
    return [name if a == "PROGRAM" else a for a in GOOD[prog]]


def _good_program(prog: str) -> bytes:
    if prog == "asm6502 verify superhirn":
        return (ROOT / "build" / "superhirn.prg").read_bytes()
    return PROGRAMS[prog][2] if prog == "asm6502 basic run" else b"\x00\xc0\x60"  # an RTS


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(romlib.ENV_VAR, "none")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no keys: scripted, not a terminal
    return tmp_path


def test_every_command_has_a_good_line():
    assert COMMANDS and set(COMMANDS) <= set(GOOD) and set(GOOD) == set(PROGRAMS) == set(BOUNDS) == set(STATUS)


def _refused(code: int, out: str, err: str, named: str) -> None:
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1, err
    assert len(lines) == 1 and "error:" in lines[0] and named in lines[0], err
    assert out == "", "something ran before the bad input was refused"


@pytest.mark.parametrize("prog, option", ROM_OPTIONS)
@pytest.mark.parametrize("kind", list(BAD_ROMS))
def test_a_bad_rom_folder_is_refused_in_one_line(work, capsys, prog, option, kind):
    argv = _good_line(prog, work)
    value = BAD_ROMS[kind](work)
    extra = ["--rom"] if prog == "asm6502 basic run" else []
    code, out, err = _run(argv + extra + [option, value], capsys)
    _refused(code, out, err, value)


@needs_roms
@pytest.mark.parametrize("prog, option", DISK_OPTIONS)
@pytest.mark.parametrize("kind", list(BAD_DISKS))
def test_a_disk_that_is_not_one_is_refused_in_one_line(work, capsys, prog, option, kind):
    argv = _good_line(prog, work)
    value = BAD_DISKS[kind](work)
    code, out, err = _run(argv + ["--roms", str(REAL_ROMS), option, value], capsys)
    _refused(code, out, err, value)


@pytest.mark.parametrize("machine", ["stubs", pytest.param("C64", marks=needs_roms)])
@pytest.mark.parametrize("case", ["jams", "never stops"])
@pytest.mark.parametrize("prog", COMMANDS)
def test_a_program_that_jams_or_never_stops(work, capsys, prog, case, machine):
    _name, jams, never = PROGRAMS[prog]
    argv = _good_line(prog, work, jams if case == "jams" else never)
    on_c64 = machine == "C64"
    argv += BOUNDS[prog][on_c64] + (["--roms", str(REAL_ROMS)] if on_c64 else [])
    code, out, err = _run(argv, capsys)
    assert code == STATUS[prog][case][on_c64], (code, err)
    said = (out + err).lower()
    assert code == 0 or any(word in said for word in NAMED[case]), err  # (a stop is named; 0: it ended as asked)
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) <= 1, err
