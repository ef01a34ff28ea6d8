"""tools/real_programs.py: real programs from public repositories on the C64 (the programs and
the ROM images stay outside the repository: ASM6502_REAL_PROGRAMS names the programs' folder,
the ROMs are found as ``asm6502 run`` finds them); the manifest's form is checked always."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from asm6502.emu.c64 import roms as romlib

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import real_programs

FOLDER = os.environ.get("ASM6502_REAL_PROGRAMS")
ROMS = romlib.find_roms().roms
PROGRAMS = real_programs.load_manifest()
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_entry_is_complete(program):
    assert program.kind in real_programs.KINDS
    assert program.author and program.shows and program.cycles > 0
    for src in program.files.values():
        assert set(src) == {"repo", "commit", "path", "blob"}
        assert re.fullmatch(r"[0-9a-f]{40}", src["commit"]) and re.fullmatch(r"[0-9a-f]{40}", src["blob"])
    named = [n for n in (program.prg, program.disk) if n]
    assert named and set(named) <= set(program.files)
    assert program.pixels and re.fullmatch(r"[0-9a-f]{64}", program.pixels)
    assert all(op not in real_programs.DOCUMENTED for op in program.undocumented)


def test_manifest_names_each_program_once_and_covers_the_kinds():
    names = [p.name for p in PROGRAMS]
    assert len(names) == len(set(names))
    assert {p.kind for p in PROGRAMS} == set(real_programs.KINDS)
    assert any(p.undocumented for p in PROGRAMS if p.kind == "packed")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("data", [b"", b"\x01\x08\x00\x00", bytes(range(256)) * 3])
def test_blob_id_is_the_one_git_gives(tmp_path, data):
    f = tmp_path / "f.prg"
    f.write_bytes(data)
    git = subprocess.run(["git", "hash-object", str(f)], capture_output=True, text=True, check=True)
    assert real_programs.git_blob_id(data) == git.stdout.strip()


def test_a_missing_or_other_file_is_named(tmp_path):
    p = PROGRAMS[0]
    (local,) = p.files
    assert "is missing: git -C" in real_programs.check_files(p, tmp_path)[0]
    (tmp_path / local).write_bytes(b"\x01\x08")
    assert f"is not {p.files[local]['repo']}'s" in real_programs.check_files(p, tmp_path)[0]


def test_command_line_is_asm6502_run():
    telengard = next(p for p in PROGRAMS if p.name == "telengard")
    line = real_programs.command_line(telengard, "real", "roms")
    assert line.startswith("asm6502 run --roms roms --disk real/telengard.d64 --type ")
    assert "once the screen shows 'Read in an old one': type 'R'" in line


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
@pytest.mark.skipif(not FOLDER, reason="ASM6502_REAL_PROGRAMS does not name the folder of the real programs")
@pytest.mark.skipif(ROMS is None, reason="no C64 ROM images (ASM6502_ROMS)")
def test_program_shows_what_its_author_shows(program):
    outcome = real_programs.run_program(program, Path(FOLDER), str(ROMS.origin))
    assert outcome.failures == []
