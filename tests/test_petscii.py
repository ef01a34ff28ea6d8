"""The one PETSCII module: every command reads the same tables (asm6502.petscii).

Where two copies of a convention used to differ, the cases below pin the one kept (C64
Programmer's Reference Guide, appendices C and E; the KERNAL's key tables at $EB81/$EBC2).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asm6502 import petscii
from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.interpreter.keyboard import ascii_to_petscii as interpreter_key
from asm6502.basic.tokenizer import tokenize
from asm6502.d64 import display_name, petscii_name
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.harness import text_to_keys


@pytest.mark.parametrize(("data", "text"), [
    (b"\x93", "{clr}"), (b"\x12HI\x92", "{rvon}HI{rvof}"), (b"\x0d", "\n"), (b"\x8d", "\n"),
    (b"\x5c\x5e\x5f\xff\xde", "£↑←ππ"),
    # every control code by petcat's name, as 'basic list' writes it in a string (not {$03})
    (b"\x03", "{stop}"), (b"\x85", "{f1}"), (b"\x01", "{CTRL-A}"), (b"\x1b", "{esc}"),
    (b"\xc1\xa0\x60", "{$c1}{$a0}{$60}"),  # graphics in the upper case/graphics set: no terminal character
])
def test_petscii_to_text(data, text):
    assert petscii.petscii_to_text(data) == text


def test_ansi_controls():
    assert petscii.petscii_to_text(b"\x93A\x05", ansi=True) == "\x1b[2J\x1b[HA"  # colours dropped


@pytest.mark.parametrize(("ch", "code"), [
    ("a", 0x41), ("A", 0x41), ("1", 0x31), ("@", 0x40), ("[", 0x5B), ("]", 0x5D),
    ("£", 0x5C), ("\\", 0x5C), ("↑", 0x5E), ("^", 0x5E), ("←", 0x5F), ("_", 0x5F), ("π", 0xFF), ("~", 0xFF),
    ("{", None), ("\t", None), ("é", None), ("`", None),
])
def test_typed_code(ch, code):
    assert petscii.typed_code(ch) == code


@given(st.characters(max_codepoint=0x3FF))
def test_every_typing_command_types_the_same_key(ch):
    """``basic run --input``, ``run --input`` and the .d64 names read a PC's character alike
    ('£' used to be $A3 in the interpreter, '^' and '_' were refused by ``run``)."""
    code = petscii.typed_code(ch)
    if ch in "\n\r\b\x7f":
        return
    assert interpreter_key(ch) == (0x3F if code is None else code)  # no key: read as '?'
    if code is None:
        with pytest.raises(DiagnosticError):
            text_to_keys(ch)
    else:
        assert text_to_keys(ch) == bytes([code])


@pytest.mark.parametrize(("text", "name"), [("π", b"\xff"), ("a£", b"\x41\x5c")])
def test_file_names_by_the_typing_convention(text, name):
    assert petscii_name(text) == name
    assert petscii_name(display_name(name)) == name


def test_pi_shown_in_a_file_name_only_where_it_can_be_typed_back():
    assert display_name(b"\xff") == "π" and display_name(b"\xde") == "{$DE}"


def test_basic_run_shows_the_c64_s_own_glyphs():
    """The interpreter's screen and the whole C64's (run --roms) read one screen-code table: a
    shifted B in the upper case/graphics set is U+1FB72 (it was '|' in one and the Legacy
    Computing character in the other)."""
    result = run_prg(tokenize('10 print chr$(194);chr$(113)\n').prg, options=RunOptions(seed=0))
    assert "\U0001FB72\u25CF" in result.transcript
    assert petscii.screen_code_char(petscii.petscii_to_screen(194)) == "\U0001FB72"


@pytest.mark.parametrize(("code", "screen"), [
    (0x41, 0x01), (0x20, 0x20), (0x5C, 0x1C), (0xC1, 0x41), (0xA0, 0x60), (0xFF, 0x5E), (0xDE, 0x5E), (0x60, 0x40),
])
def test_petscii_to_screen(code, screen):
    assert petscii.petscii_to_screen(code) == screen


def test_key_tables_name_keys_of_the_matrix():
    from asm6502.emu.c64.keyboard import KEY_INDEX

    assert set(petscii.KEY_CODES) <= set(KEY_INDEX) and set(petscii.SHIFTED_KEY_CODES) <= set(KEY_INDEX)
