"""Finding and checking ROM images (no real ROM needed: fake images of the
right size are refused by their checksums), and the command line without ROMs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT

from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import roms, session


def _write(path, size, fill=0):
    path.write_bytes(bytes([fill]) * size)


def test_missing_directory_is_a_clear_error(tmp_path):
    with pytest.raises(DiagnosticError, match="ROM directory not found"):
        roms.load_dir(tmp_path / "nope")


def test_empty_directory_names_every_missing_image(tmp_path):
    with pytest.raises(DiagnosticError) as info:
        roms.load_dir(tmp_path)
    text = str(info.value)
    for part in ("basic ROM 901226-01", "kernal ROM 901227-03", "chargen ROM 901225-01"):
        assert part in text


def test_wrong_image_is_named_with_its_checksum(tmp_path):
    _write(tmp_path / "kernal-901227-03.bin", 8192, 0xEA)
    with pytest.raises(DiagnosticError) as info:
        roms.load_dir(tmp_path)
    assert "kernal-901227-03.bin is not the kernal ROM 901227-03" in str(info.value)
    assert "expected DBE3E7C7" in str(info.value)


@pytest.mark.parametrize("value", ["none", "off", ""])
def test_environment_variable_turns_the_search_off(value):
    lookup = roms.find_roms(env={roms.ENV_VAR: value})
    assert lookup.roms is None and "stubs" in lookup.note()


def test_vice_places_without_roms_are_passed_over(tmp_path):
    (tmp_path / "C64").mkdir()
    lookup = roms.find_roms(env={}, places=[tmp_path / "C64", tmp_path / "missing"])
    assert lookup.roms is None
    assert lookup.searched == [str(tmp_path / "C64"), str(tmp_path / "missing")]


def test_environment_directory_with_bad_roms_is_an_error(tmp_path):
    with pytest.raises(DiagnosticError):
        roms.find_roms(env={roms.ENV_VAR: str(tmp_path)})


@pytest.mark.parametrize("text, keys", [
    (r"RUN\r", b"RUN\r"),
    ("run\n", b"RUN\r"),
    (r"\x93A", b"\x93A"),
    (r'LOAD"$",8\r', b'LOAD"$",8\r'),
])
def test_typed_keys(text, keys):
    assert session.typed_keys(text) == keys


def test_typed_keys_bad_escape():
    with pytest.raises(DiagnosticError, match="unknown escape"):
        session.typed_keys(r"A\q")


def _cli(*args, env_roms="none"):
    env = dict(os.environ, ASM6502_ROMS=env_roms)
    return subprocess.run([sys.executable, "-m", "asm6502", *args], check=False, capture_output=True, text=True,
                          env=env, cwd=ROOT, input="1\n1\n")


def test_run_without_roms_uses_the_stubs_and_says_so():
    proc = _cli("run", "build/superhirn.prg", "--stats")
    assert "running with the KERNAL/BASIC stubs" in proc.stderr
    assert "stubs" not in _cli("run", "build/superhirn.prg").stderr  # a scripted run stays quiet
    assert "1234" in proc.stdout


def test_machine_options_without_roms_are_an_error():
    proc = _cli("run", "build/superhirn.prg", "--type", "1\\r")
    assert proc.returncode == 1
    assert "--type needs the C64 ROM images" in proc.stderr


def test_a_screenshot_without_roms_says_what_it_lacks(tmp_path):
    prg = tmp_path / "border.prg"
    prg.write_bytes(b"\x00\xc0" + bytes([0xA9, 0x00, 0x8D, 0x20, 0xD0, 0x60]))  # LDA #0 / STA $D020 / RTS
    shot = tmp_path / "x.png"
    proc = _cli("run", str(prg), "--screenshot", str(shot))
    assert proc.returncode == 0 and shot.read_bytes().startswith(b"\x89PNG")
    assert "without the C64's character ROM" in proc.stderr and "no characters" in proc.stderr
    failed = _cli("run", "build/superhirn.prg", "--screenshot", str(tmp_path / "y.png"))  # the input ends
    assert failed.returncode == 1 and not (tmp_path / "y.png").exists()


def test_bad_roms_directory_is_an_error_without_traceback(tmp_path):
    proc = _cli("run", "build/superhirn.prg", "--roms", str(tmp_path))
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "no basic ROM 901226-01" in proc.stderr
