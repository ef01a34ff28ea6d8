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


@pytest.mark.parametrize("options, why", [
    (["--type", "1\\r"], "typing goes through the KERNAL's keyboard buffer and screen editor"),
    (["--disk", "build/asm6502.d64"], "device 8 is the KERNAL's serial bus and BASIC's LOAD"),
    (["--until-text", "1234"], "the stubs' CHROUT prints: nothing reaches screen memory to be found"),
])
def test_machine_options_the_stubs_cannot_honour_are_an_error(options, why):
    proc = _cli("run", "build/superhirn.prg", *options)
    assert proc.returncode == 1, why
    assert f"{options[0]} needs the C64 ROM images, and none were found" in proc.stderr, why
    assert proc.stdout == "", "it does not run"


# A program for the options the stubs honour: it waits for a line below the picture (no bad
# lines), starts CIA 1's timer A with latch 2 as a one-shot, interrupts on, counts INYs from
# "0" until the interrupt comes, prints the count ($0314's handler) and returns.  The 6526's
# interrupt output comes one cycle after the 6526A's (test_c64_models.CIA_DELAY): one INY more.
CIA_PROGRAM = """*= $c000
         sei
         lda #$fc
wait     cmp $d012
         bne wait
         lda #$00
         sta $dc0e
         lda #<handler
         sta $0314
         lda #>handler
         sta $0315
         lda #$7f
         sta $dc0d
         bit $dc0d
         lda #$81
         sta $dc0d
         lda #2
         sta $dc04
         lda #0
         sta $dc05
         ldy #$30
         cli
         lda #$19
         sta $dc0e
""" + "         iny\n" * 8 + """done     jmp done
handler  tya
         jsr $ffd2
         ldx #$fd
         txs
         rts
"""
# a line read with CHRIN, then "OK"
ASK_PROGRAM = """*= $c000
         lda #$3f
         jsr $ffd2
read     jsr $ffcf
         cmp #$0d
         bne read
         lda #$0d
         jsr $ffd2
         lda #$4f
         jsr $ffd2
         lda #$4b
         jsr $ffd2
         rts
"""


def _prg(tmp_path, source, name):
    from asm6502.asm import assemble

    path = tmp_path / f"{name}.prg"
    result = assemble(source, f"{name}.asm")
    path.write_bytes(result.prg)
    return str(path), result.symbols


@pytest.mark.parametrize("options, like, unlike, why", [
    (["--cia", "6526a"], ["--model", "c64c"], ["--model", "c64"], "the old C64 with the C64C's CIAs"),
    (["--model", "c64c", "--cia", "6526"], ["--model", "c64"], ["--model", "c64c"], "the C64C with the old CIAs"),
])
def test_cia_on_the_stubs_picks_the_chips_as_model_does(tmp_path, options, like, unlike, why):
    prg, _symbols = _prg(tmp_path, CIA_PROGRAM, "cia")
    got, same, other = (_cli("run", prg, *o) for o in (options, like, unlike))
    assert got.returncode == same.returncode == other.returncode == 0, got.stderr
    assert got.stdout == same.stdout != other.stdout, why


@pytest.mark.parametrize("options, code, stdout, said, why", [
    (["--until-pc", "handler"], 0, "", "note: pc: the PC reached $C041", "the handler is reached: a success"),
    (["--until-pc", "done"], 1, "4\n", "error: returned: returned from SYS (final RTS); the PC did not reach $C03E",
     "the interrupt comes before the loop: the program returns, the condition not met"),
    (["--until-pc", "handler", "--cycles", "100"], 1, "", "the PC did not reach $C041",
     "the cycles run out first"),
])
def test_until_pc_on_the_stubs_stops_where_the_pc_gets(tmp_path, options, code, stdout, said, why):
    prg, symbols = _prg(tmp_path, CIA_PROGRAM, "cia")
    options = [f"${symbols[o]:04X}" if o in symbols else o for o in options]
    proc = _cli("run", prg, *options, "--stats")
    assert (proc.returncode, proc.stdout) == (code, stdout), why
    assert said in proc.stderr, why


@pytest.mark.parametrize("options, stdout, why", [
    ([], "?ABC\nOK\n", "the output with the typed line echoed, as the screen shows it"),
    (["--transcript"], "?\nOK\n", "what went through CHROUT: the typed line is not"),
])
def test_transcript_on_the_stubs_is_what_went_through_chrout(tmp_path, options, stdout, why):
    prg, _symbols = _prg(tmp_path, ASK_PROGRAM, "ask")
    env = dict(os.environ, ASM6502_ROMS="none")
    proc = subprocess.run([sys.executable, "-m", "asm6502", "run", prg, *options], check=False, capture_output=True,
                          text=True, env=env, cwd=ROOT, input="ABC\n")
    assert (proc.returncode, proc.stdout) == (0, stdout), why


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
