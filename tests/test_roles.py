"""Every command-line argument that names a file or a folder declares its role where it is
declared (cli.common.add_path_argument), and the command's gate (fileio.Files) has them before
the command does anything: an input is registered, an output checked, and a file found later (a ROM
image, a disk folder's file) is an input the moment it is found, so no output can replace it.

The parsers are walked from cli/commands.py: a new command or option is checked the day it is added.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
from pathlib import Path

import pytest
from helpers import ROOT

from asm6502 import fileio
from asm6502.cli import SUBCOMMANDS, main
from asm6502.cli.common import ROLE_ATTRIBUTE, add_path_argument, path_arguments

# metavars (or their parts: 'D64|DIR') and destinations that say an argument names a file or folder
FILE_WORDS = {"FILE", "FILES", "PRG", "SRC", "TXT", "DIR", "IMG", "D64", "PNG", "OUT", "MANIFEST", "PATH",
              "FOLDER", "IMAGE", "OUTPUT", "INPUT", "SOURCE", "LISTING", "ROMS", "DISK", "SCREENSHOT", "INCLUDE"}
VALUE_ACTIONS = (argparse._StoreAction, argparse._AppendAction, argparse._ExtendAction)


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every parser of every command, sub-commands' parsers included, by their command line."""
    from asm6502.cli import assemble

    found = [("asm6502", assemble.build_parser())]
    for name, (module, _summary) in SUBCOMMANDS.items():
        found.append((f"asm6502 {name}", importlib.import_module(module).build_parser()))
    out = []
    while found:
        prog, parser = found.pop(0)
        out.append((prog, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                found += [(f"{prog} {sub}", p) for sub, p in action.choices.items()]
    return out


def names_a_file(action: argparse.Action) -> bool:
    words = set(re.split(r"[^A-Za-z0-9]+", (action.metavar if isinstance(action.metavar, str) else "") or ""))
    words.add(action.dest.upper())
    return bool(words & FILE_WORDS)


def unroled(parser: argparse.ArgumentParser) -> list[str]:
    return [("/".join(a.option_strings) or a.dest) for a in parser._actions
            if isinstance(a, VALUE_ACTIONS) and names_a_file(a) and getattr(a, ROLE_ATTRIBUTE, None) is None]


def test_the_walk_sees_every_command():
    progs = [prog for prog, _ in parsers()]
    assert len(progs) >= 20
    for prog in ("asm6502", "asm6502 run", "asm6502 basic type", "asm6502 mse type", "asm6502 d64 write",
                 "asm6502 verify superhirn", "asm6502 build"):
        assert prog in progs


def test_every_argument_naming_a_file_declares_its_role():
    missing = [f"{prog}: {name}" for prog, parser in parsers() for name in unroled(parser)]
    assert missing == [], ("arguments naming a file or folder without a role (declare them with "
                           "cli.common.add_path_argument):\n" + "\n".join(missing))


def test_an_argument_without_its_role_is_found():
    """(The check above is no test that cannot fail.)"""
    p = argparse.ArgumentParser()
    p.add_argument("-o", "--output")
    p.add_argument("--keys", metavar="FILE")
    add_path_argument(p, "src", role=fileio.INPUT, metavar="SRC")
    p.add_argument("--count", metavar="N")
    assert unroled(p) == ["-o/--output", "--keys"]


def test_every_role_is_one_the_gate_knows():
    kinds = {fileio.READ, fileio.WRITE, fileio.EDIT, fileio.FOLDER, fileio.ROMS, fileio.DISK, fileio.OUTDIR}
    roles = [getattr(a, ROLE_ATTRIBUTE) for _, p in parsers() for a in p._actions if hasattr(a, ROLE_ATTRIBUTE)]
    assert len(roles) >= 35 and {r.kind for r in roles} == kinds


def test_the_chosen_sub_commands_arguments_are_given_with_their_roles():
    from asm6502.cli import run

    parser = run.build_parser()
    args = parser.parse_args(["p.prg", "--roms", "r", "--disk", "d", "--screenshot", "s.png", "--input", "k"])
    got = {(role.kind, path) for role, path in path_arguments(parser, args)}
    assert got == {("read", "p.prg"), ("roms", "r"), ("disk", "d"), ("write", "s.png"), ("read", "k")}
    from asm6502.cli import d64

    parser = d64.build_parser()
    args = parser.parse_args(["write", "x.d64", "a.prg", "b.prg", "--new", "x,01"])
    assert [(r.kind, p) for r, p in path_arguments(parser, args)] == [("edit", "x.d64"), ("read", "a.prg"), ("read", "b.prg")]


# --- files found later are inputs the moment they are found --------------------------------------

FAKE_ROMS = {"basic-901226-01.bin": 8192, "kernal-901227-03.bin": 8192, "chargen-901225-01.bin": 4096}


@pytest.fixture
def work(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roms").mkdir()
    for name, size in FAKE_ROMS.items():  # (the roles are checked before the images' checksums)
        (tmp_path / "roms" / name).write_bytes(bytes([len(name)]) * size)
    (tmp_path / "p.prg").write_bytes((ROOT / "build" / "superhirn.prg").read_bytes())
    (tmp_path / "disk").mkdir()
    (tmp_path / "disk" / "game.prg").write_bytes(b"\x01\x08game")
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("argv, said", [
    (["run", "--roms", "roms", "p.prg", "--screenshot", "roms/kernal-901227-03.bin"], "is the ROM image"),
    (["run", "--roms", "roms", "p.prg", "--screenshot", "link-to-kernal"], "is the ROM image"),
    (["verify", "superhirn", "p.prg", "--roms", "roms", "-o", "roms/basic-901226-01.bin", "--jobs", "1"],
     "is the ROM image"),
])
def test_no_output_replaces_a_rom_image(work, capsys, argv, said):
    os.symlink("roms/kernal-901227-03.bin", work / "link-to-kernal")
    before = _snapshot(work)
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    if said:
        assert said in err and "choose another output name" in err
    assert _snapshot(work) == before


def test_an_output_over_a_disk_folders_file_is_refused(work, capsys):
    (work / "roms").rename(work / "elsewhere")  # (no ROMs: the disk is looked at before the ROMs are needed)
    from asm6502.cli import run
    from asm6502.cli.common import gate
    from asm6502.diagnostics import DiagnosticError
    from asm6502.emu.c64.drive import Disk

    parser = run.build_parser()
    args = parser.parse_args(["--disk", "disk", "--screenshot", "disk/game.prg"])
    files = gate(parser, args)
    with pytest.raises(DiagnosticError, match=r"screenshot .disk/game\.prg. is the disk file .disk/game\.prg."):
        Disk.load("disk", files)


# --- a strict gate reads nothing without a role ---------------------------------------------------


@pytest.fixture
def tree(tmp_path):
    for name in ("declared.asm", "stray.asm", "found.asm"):
        (tmp_path / name).write_text("*=$c000\n")
    (tmp_path / "roms").mkdir()
    (tmp_path / "roms" / "kernal.bin").write_bytes(b"\0" * 16)
    return tmp_path


@pytest.mark.parametrize("how, readable", [
    ("declared input", True),
    ("inside a declared ROM folder", True),
    ("found by lookup", True),
    ("named nowhere", False),
    ("a link to a declared input", True),
])
def test_a_strict_gate_reads_only_what_has_a_role(tree, how, readable):
    files = fileio.Files(strict=True)
    files.declare(fileio.INPUT, tree / "declared.asm")
    files.declare(fileio.ROM_FOLDER, tree / "roms")
    (tree / "link.asm").symlink_to(tree / "declared.asm")
    path = {"declared input": tree / "declared.asm", "inside a declared ROM folder": tree / "roms" / "kernal.bin",
            "found by lookup": files.found(tree / "found.asm"), "named nowhere": tree / "stray.asm",
            "a link to a declared input": tree / "link.asm"}[how]
    if readable:
        assert files.read(path)
    else:
        with pytest.raises(fileio.UndeclaredFile, match=r"stray\.asm"):
            files.read(path)
        with pytest.raises(fileio.UndeclaredFile):
            files.read_start(path)


def test_a_gate_made_for_more_outputs_keeps_the_roles(tree):
    files = fileio.Files(strict=True)
    files.declare(fileio.INPUT, tree / "declared.asm")
    more = files.fresh()
    assert more.strict and more.read(tree / "declared.asm")
    with pytest.raises(fileio.UndeclaredFile):
        more.read(tree / "stray.asm")


@pytest.mark.parametrize("prog, parser", parsers(), ids=[p for p, _ in parsers()])
def test_every_commands_gate_is_strict(prog, parser):
    from asm6502.cli.common import gate

    assert gate(parser, argparse.Namespace()).strict


def test_rom_images_found_through_the_environment_are_read_as_found(tmp_path, monkeypatch):
    """A ROM folder no argument names ($ASM6502_ROMS, a VICE folder) is a lookup: its images are
    inputs the moment they are found, and a strict gate reads them."""
    from asm6502.diagnostics import DiagnosticError
    from asm6502.emu.c64 import roms

    (tmp_path / "kernal-901227-03.bin").write_bytes(bytes(8192))  # the size of a KERNAL, not its bytes
    monkeypatch.setenv(roms.ENV_VAR, str(tmp_path))
    files = fileio.Files(strict=True)
    try:
        roms.find_roms(None, files=files)
    except DiagnosticError:
        pass  # (not the real image: said as such)
    assert str(tmp_path / "kernal-901227-03.bin") in files.inputs
