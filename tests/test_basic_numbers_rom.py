"""BASIC V2 numbers digit for digit as the real ROM prints them.

The fixtures in ``fixtures/basic_rom/`` were printed by the C64 BASIC ROM
itself (mist64/cbmbasic, the ROM's 6502 code translated to C) through
``tools/basic_rom_oracle.py``: one file per function, one case per line,
``<argument key> TAB <what the ROM printed>``.  Here the same programs (X and
Y set to the exact 5-byte values, then PRINT F(X)) run through asm6502's
interpreter and every line must print the same text, errors included.
Rerun the driver against the oracle to regenerate or extend them.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from asm6502.basic.interpreter import Interpreter, RunOptions, fpu, parse_prg, rom_math, run_prg
from asm6502.basic.interpreter import numbers as N
from asm6502.basic.interpreter.variables import FLOAT
from asm6502.basic.tokenizer import tokenize

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "basic_rom"
ORACLE_BINARY = Path(os.environ.get("CBMBASIC") or "CBMBASIC-is-not-set")  # (tools/oracles.py)


def _load_driver():
    spec = importlib.util.spec_from_file_location("basic_rom_oracle", ROOT / "tools" / "basic_rom_oracle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


DRIVER = _load_driver()
NAMES = sorted(DRIVER.FUNCTIONS)


def load(name: str) -> tuple[list[str], list[str]]:
    keys, printed = [], []
    for line in (FIXTURES / f"{name}.txt").read_text(encoding="ascii").splitlines():
        key, text = line.split("\t")
        keys.append(key)
        printed.append(text)
    return keys, printed


def interpreter_runner(source: str):
    """Run ``source`` in asm6502's interpreter: (printed rows, error line, error text)."""
    result = run_prg(tokenize(source.lower()).prg, options=RunOptions(seed=0))
    rows = [row.rstrip() for row in result.transcript.split("\n")]
    rows = [row for row in rows if row]
    assert rows[-1] == "READY.", rows[-3:]
    rows = rows[:-1]
    if result.reason == "error":
        message, _, line = rows[-1].rpartition(" IN ")
        return rows[:-1], int(line), message
    assert result.reason == "end", result.message
    return rows, None, None


@pytest.mark.parametrize("name", NAMES)
def test_fixture_holds_ten_thousand_cases(name):
    keys, printed = load(name)
    if name == "i7":  # SIN(1/7)..SIN(200/7), COS, ..., (I/7)^(I/13): the I/7 series
        assert len(keys) == len(set(keys)) == len(printed) == 1_800
        return
    assert len(keys) == len(printed) == 10_000
    assert len(set(keys)) > 9_000  # random arguments, not one repeated


def check(name: str, step: int) -> None:
    keys, printed = load(name)
    keys, printed = keys[::step], printed[::step]
    got = DRIVER.run_cases(interpreter_runner, name, keys, chunk_size=40)
    differ = [(k, want, have) for k, want, have in zip(keys, printed, got) if want != have]
    assert not differ, f"{len(differ)} of {len(keys)} differ, first: {differ[:5]}"


@pytest.mark.parametrize("name", NAMES)
def test_interpreter_prints_what_the_rom_printed(name):
    """Every tenth case (1,000 per function) in the default run; all of the I/7 series."""
    check(name, 1 if name == "i7" else 10)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_interpreter_prints_what_the_rom_printed_every_case(name):
    """All 10,000 cases per function (about 70 s of CPU): make test-slow."""
    check(name, 1)


@pytest.mark.parametrize("source, printed", [
    # known values, as the ROM prints them
    ("PRINT SIN(333)", "-8.82111777E-03"),
    ("PRINT TAN(-24.5)", " .733321636"),
    ("PRINT 6E-17", " 6.00000001E-17"),
])
def test_issue_examples(source, printed):
    rows, error_line, _ = interpreter_runner(f"10 {source}\n")
    assert error_line is None and rows == [printed]


@pytest.mark.parametrize("key", [
    "8000000000", "8100000000", "8180000000", "81490fdaa2", "7f00000000", "0000000000",
    "ff7fffffff", "ffffffffff", "0100000000", "0180000001", "a080000000", "5f12345678",
])
def test_value_expr_sets_x_exactly(key):
    """The driver's BASIC expression for a 5-byte value gives X exactly those bytes."""
    source = f"10 X={DRIVER.value_expr(key)}\n".lower()
    prg = tokenize(source).prg
    interp = Interpreter(parse_prg(prg), prg[2:], options=RunOptions(seed=0))
    assert interp.run().reason == "end"
    assert N.pack(interp.vars[("X", FLOAT)]).hex() == key


def test_fmult_zero_byte_quirk_changes_the_product():
    # FAC = multiplier bytes FACOV, $65, $64, $63 = 00 01 00 00: the second zero
    # byte is skipped with the carry clear, so RESULT is shifted 9 bits (MLTPLY
    # $BA59 -> SHIFTR $B983).  The plain product would be exact here.
    fac = fpu.mflpt(bytes.fromhex("8100000001"))
    arg = fpu.mflpt(bytes.fromhex("82400000ff"))
    product = fpu.mul(fac, arg)
    exact = fpu.to_float(fac) * fpu.to_float(arg)
    assert fpu.to_float(fpu.round_fac(product)) != N.to_mflpt(exact)


@pytest.mark.parametrize("function, argument, error", [
    (rom_math.log, 0.0, ValueError),
    (rom_math.log, -1.0, ValueError),
    (rom_math.sqr, -4.0, ValueError),
    (rom_math.exp, 89.0, fpu.BasicOverflow),
])
def test_errors(function, argument, error):
    with pytest.raises(error):
        function(fpu.from_float(argument))


@pytest.mark.skipif(not ORACLE_BINARY.exists(), reason="ROM oracle (mist64/cbmbasic) not built")
@pytest.mark.parametrize("name", NAMES)
def test_fixture_is_what_the_oracle_prints_now(name):
    keys, printed = load(name)
    sample = keys[::100]
    assert DRIVER.run_cases(DRIVER.oracle_runner, name, sample) == printed[::100]


@given(st.integers(1, 999_999_999), st.booleans())
def test_fout_whole_number_shortcut_is_fout(n, negative):
    x = float(-n if negative else n)
    assert N.fout(x) == N.fout_fac(fpu.from_float(x))


@given(st.lists(st.integers(0, 9), min_size=1, max_size=10))
def test_fin_whole_number_shortcut_is_the_digit_loop(digits):
    whole = int("".join(map(str, digits)))
    assume(whole < 1 << 32)
    assert fpu.from_float(float(whole)) == N.accumulate(digits)


# NEXT stores STEP + variable rounded ($AD4F, MOVMF) before comparing with the
# limit; printed by the ROM oracle (whitespace dropped: our screen wraps at 40)
@pytest.mark.parametrize("source, printed", [
    ("FOR I=0 TO 2 STEP .1:PRINT I;:NEXT",
     "0 .1 .2 .3 .4 .5 .6 .7 .8 .9 1 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 1.9"),
    ("FOR I=1 TO 0 STEP -1/3:PRINT I;:NEXT", "1 .666666667 .333333333 0"),
    ("FOR I=-1 TO 1 STEP .07:PRINT I-INT(I);:NEXT:PRINT I",
     "0 .0700000001 .14 .21 .28 .35 .42 .49 .56 .63 .7 .77 .84 .91 .98 .0500000003 .12 .19 .26 .33 .4"
     " .470000001 .540000001 .610000001 .680000001 .75 .820000001 .890000001 .960000001 1.03"),
])
def test_for_loop_steps(source, printed):
    result = run_prg(tokenize(f"10 {source}\n".lower()).prg, options=RunOptions(seed=0))
    text = result.transcript.replace("READY.", "")
    assert "".join(text.split()) == "".join(printed.split())


def test_input_goes_through_fin():
    # typed answers and what the ROM oracle printed for 10 INPUT A:PRINT A:GOTO 10
    answers = [".1", "-1.5E-3", "123456789012", "1.00000000049", "6E-17", " 1 2 . 5", "-0", "1E39"]
    printed = [" .1", "-1.5E-03", " 1.23456789E+11", " 1", " 6.00000001E-17", " 12.5", " 0"]
    prg = tokenize("10 input a:print a\n20 goto 10\n").prg
    result = run_prg(prg, input_text="\n".join(answers) + "\n", options=RunOptions(seed=0))
    rows = [row.strip() for row in result.transcript.splitlines()]
    assert [row for row in rows if row and row[0] in "-. 0123456789"] == [p.strip() for p in printed]
    assert result.message == "?OVERFLOW  ERROR IN 10"
