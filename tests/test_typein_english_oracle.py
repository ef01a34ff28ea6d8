"""The English checkers themselves as the oracle: Compute!'s New Automatic Proofreader (1986) and
Ahoy!'s three Bug Repellents, run on the whole C64 (``asm6502 run`` with the ROM images), give
the checksums asm6502's formats compute for the same lines.

The checking programs are third-party material: they are read from the test-data collection
``english_typein`` (tests/manifests/english_typein, found through ``$ASM6502_TESTDATA``); without
them or without the ROM images every test here is skipped with the reason.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import testdata
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import MAX_LINE_NUMBER
from asm6502.emu.c64 import roms
from asm6502.typein.english import bugrepellent, printed, proofreader

COLLECTION = "english_typein"


def _roms() -> str | None:
    for where in (os.environ.get("ASM6502_C64_ROMS"), os.environ.get("ASM6502_ROMS")):
        if where and where != "none" and os.path.isdir(where):
            return where
    try:
        lookup = roms.find_roms()
    except Exception:  # noqa: BLE001 (any failure to find them is a skip)
        return None
    return getattr(lookup.roms, "origin", None) if lookup.roms is not None else None


ROMS = _roms()
MISSING = testdata.available(COLLECTION)
pytestmark = [pytest.mark.skipif(ROMS is None, reason="no C64 ROM images (ASM6502_C64_ROMS or ASM6502_ROMS)"),
              pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]


def _keys(line: bytes) -> str:
    """A typed line as ``asm6502 run --type`` takes it."""
    return "".join(chr(b) if chr(b).isalnum() and b < 0x80 else f"\\x{b:02x}" for b in line) + "\\r"


def _run(program: str, keys: str, transcript: bool = True) -> str:
    prg = testdata.path(COLLECTION, program)
    argv = [sys.executable, "-m", "asm6502", "run", "--roms", str(ROMS), str(prg), "--type", keys]
    env = dict(os.environ, ASM6502_ROMS=str(ROMS))
    done = subprocess.run(argv + (["--transcript"] if transcript else []), capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    return done.stdout


# a line as a magazine printed it: keywords, numbers, strings with spaces and keys in them
_WORD = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;!", max_size=12)
_KEYS = st.sampled_from(["{CLR}", "{DOWN}", "{RVS}", "{OFF}", "{3 SPACES}", "{SHIFT-A}", "{C= *}", "{RED}"])
_STRING = st.lists(st.one_of(_WORD, _KEYS), max_size=3).map(lambda parts: '"' + "".join(parts) + '"')
_STATEMENT = st.one_of(
    _STRING.map(lambda s: f"PRINT {s}"),
    st.tuples(st.sampled_from("ABXYZ"), st.integers(0, 65535)).map(lambda t: f"{t[0]}={t[1]}"),
    st.tuples(st.integers(0, 65535), st.integers(0, 255)).map(lambda t: f"POKE {t[0]},{t[1]}"),
    st.integers(0, 63999).map(lambda n: f"GOTO {n}"),
    st.just("FOR I=1 TO 10:NEXT I"),
)
_LINE = st.tuples(st.integers(0, MAX_LINE_NUMBER),
                  st.lists(_STATEMENT, min_size=1, max_size=2).map(":".join)).filter(lambda t: len(f"{t[0]} {t[1]}") < 70)


@settings(max_examples=3, deadline=None, phases=(Phase.generate,),
          suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINE, min_size=1, max_size=6, unique_by=lambda t: t[0]))
def test_the_new_proofreader_shows_the_letters_we_compute(lines):
    keys = "".join(_keys(printed.typed(n, text)) for n, text in lines)
    shown = re.findall(r"\{home\}\{rvon\}([A-Z]{2})\{rvof\}", _run("proofreader2.prg", "RUN\\r" + keys))
    want = [proofreader.letters(proofreader.checksum_1986(n, printed.typed(n, text))) for n, text in lines]
    assert shown[-len(lines):] == want


@pytest.mark.parametrize("version", ["1", "2"])
@settings(max_examples=3, deadline=None, phases=(Phase.generate,),
          suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINE, min_size=1, max_size=8, unique_by=lambda t: t[0]))
def test_the_bug_repellent_prints_the_codes_we_compute(version, lines):
    lines = sorted(lines)
    keys = "NEW\\r" + "".join(_keys(printed.typed(n, text)) for n, text in lines) + "SYS49152\\rS"
    shown = dict(re.findall(r"LINE # (\d+):([A-P]{2})", _run(f"bugrepellent{version}.prg", keys)))
    bodies = [(n, printed.stored(text)) for n, text in lines]
    want = {str(n): bugrepellent.letters(v) for (n, _), v in zip(bodies, bugrepellent.codes(version, bodies), strict=True)}
    assert shown == want


@settings(max_examples=4, deadline=None, phases=(Phase.generate,),
          suppress_health_check=[HealthCheck.too_slow])
@given(line=_LINE)
def test_bug_repellent_3_shows_the_code_we_compute(line):
    """Version 3 checks each line as it is entered and writes the code into the screen's top
    left corner (screen memory, not CHROUT): one line a run, the final screen read."""
    n, text = line
    # (the loader empties the keyboard buffer before its first question: ten keys typed for that)
    screen = _run("bugrepellent3.prg", "X" * 10 + "N\\rY\\rNEW\\r" + _keys(printed.typed(n, text)), transcript=False)
    want = bugrepellent.letters(bugrepellent.checksum("3", n, printed.stored(text)))
    assert re.findall("[A-P]{2}", screen.split("\n")[0])[:1] == [want]
