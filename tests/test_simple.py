"""simple.py gives the full assembler's result, or leaves the program to it.

Whenever the quick sweep returns a result, it must equal what the full
assembler (``assembler._assemble``) makes of the same text without a listing:
segments, symbols, labels, and no diagnostics.  Where it cannot be sure it
returns None, and ``assemble()`` runs the full assembler.
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from helpers import ROOT
from test_fuzz import FUZZ_SHORT, asm_inputs

from asm6502 import assembler
from asm6502.assembler import Options
from asm6502.diagnostics import DiagnosticError

sys.path.insert(0, str(ROOT / "bench"))
import gen_large  # noqa: E402

OPTIONS = Options(listing=False)


def quick(text: str):
    return assembler._assemble_simple(text, OPTIONS)


def full(text: str):
    try:
        return assembler._assemble(text, "s.asm", OPTIONS)
    except DiagnosticError as exc:
        return exc


def check(text: str) -> bool:
    """True if the quick sweep took the program; then its result must be the full assembler's."""
    result = quick(text)
    if result is None:
        return False
    expected = full(text)
    assert not isinstance(expected, DiagnosticError), expected.render() if hasattr(expected, "render") else expected
    assert expected.diagnostics == ()
    assert result.segments == expected.segments
    assert result.symbols == expected.symbols and list(result.symbols) == list(expected.symbols)
    assert result.labels == expected.labels
    assert result.diagnostics == () and result.listing == ()
    return True


@pytest.mark.parametrize("seed", range(8))
def test_generated_programs_take_the_quick_sweep(seed):
    """The benchmark's kind of program: every statement is in the subset."""
    text = gen_large.render_program(gen_large.generate(1500, seed), "asm6502")
    if isinstance(full(text), DiagnosticError):  # cut short, a forward reference can be left undefined
        assert quick(text) is None
    else:
        assert check(text)


def test_the_benchmark_program_takes_the_quick_sweep():
    assert check(gen_large.render_program(gen_large.generate(20_000, 6502), "asm6502"))


SIMPLE = [
    "*= $1000\nlda #1\nrts",
    "10 sys32768\n20 *= $8000\n30 loop dex ; count\n40 bne loop\n50 rts",
    "*= $c000\n lda fwd\n sta z\nz = $fb\nfwd = $1234",
    "*= $c000\n lda <table\n ldx #>table\n jmp (vec)\nvec .wor table\ntable .byt 1,2,<vec,>vec",
    "*= $1000\n lda ($fb),y\n sta ($fb,x)\n ldx z,y\n stx z,y\nz = $10",
    "*= $1000\n rol a\n lda a\na = $20",
    "*= $1000\n lda !$12\n lda $12\n .byte 1\n .word 2",
    "*= $1000\nx = 2+3*4\n lda #x\n*= $2000\n nop",
    "*= $fffe\n nop\n nop",
]


@pytest.mark.parametrize("text", SIMPLE)
def test_simple_programs(text):
    assert check(text)


NOT_SIMPLE = [
    "*= $1000\n lda nowhere",  # undefined
    "*= $1000\nl nop\nl nop",  # duplicate
    "*= $1000\n lda #$100",  # out of range
    "*= $1000\nv _ 1",  # a variable
    "*= $1000\n lda #1 : rts",  # ':'
    '*= $1000\n .asc "hi"',  # a string
    "*= $1000\n.if 1\n nop",  # control flow
    "*= $1000\n bne far\n*= $2000\nfar rts",  # branch out of range
    "*= $1000\n jmp ($10ff)",  # warned about
    "*= $1000\nlonglabel1 nop\n jmp longlabel2",  # 8 characters: warned about
    " nop",  # no start address
    "*= $1000\n sys32768",  # the start line, not first
    "*= $ffff\n lda $1234",  # past $FFFF
    "*= $1000\n nop\n*= $1000\n nop",  # overlapping output
    "*= fwd\nfwd = $1000",  # '*=' not known in pass 1
    "*= $1000\n lda 1/0",  # arithmetic error
]


@pytest.mark.parametrize("text", NOT_SIMPLE)
def test_the_rest_is_left_to_the_full_assembler(text):
    assert quick(text) is None


@settings(max_examples=FUZZ_SHORT, deadline=None)
@given(text=asm_inputs)
def test_fuzzed_sources(text):
    check(text)


# random programs inside the subset, with the edges of its rules
names = st.sampled_from(["a", "b", "zp", "lab", "loop", "Loop", "longlabel1", "longlabel2", "x.y"])
numbers = st.sampled_from(["0", "255", "256", "$ff", "$100", "$ffff", "%1010", "65535", "65536"])
atoms = st.one_of(names, numbers)
exprs = st.tuples(atoms, st.lists(st.tuples(st.sampled_from("+-*/&!^<>"), atoms), max_size=2)).map(
    lambda t: t[0] + "".join(op + a for op, a in t[1])
)
mnemonics = st.sampled_from(["lda", "sta", "ldx", "stx", "jmp", "jsr", "bne", "beq", "rol", "inc", "bit", "cpx", "tax", "nop"])
operands = st.one_of(
    st.just(""),
    st.just(" a"),
    exprs.map(lambda e: " " + e),
    exprs.map(lambda e: " #" + e),
    st.tuples(st.sampled_from(["<", ">", "!"]), exprs).map(lambda t: " " + t[0] + t[1]),
    st.tuples(exprs, st.sampled_from([",x", ",y", ",X"])).map(lambda t: " " + t[0] + t[1]),
    exprs.map(lambda e: f" ({e}),y"),
    exprs.map(lambda e: f" ({e},x)"),
    exprs.map(lambda e: f" ({e})"),
)
statements = st.one_of(
    st.tuples(mnemonics, operands).map("".join),
    st.tuples(names, mnemonics, operands).map(lambda t: f"{t[0]} {t[1]}{t[2]}"),
    names,
    st.tuples(names, exprs).map(lambda t: f"{t[0]} = {t[1]}"),
    st.tuples(st.sampled_from([".byt", ".wor"]), st.lists(exprs, min_size=1, max_size=3)).map(lambda t: t[0] + " " + ",".join(t[1])),
    exprs.map(lambda e: "*= " + e),
    st.just("; a comment"),
)
programs = st.tuples(st.sampled_from(["*= $1000", "*= $ff", "*= $fff0", "10 sys32768\n20 *= $c000"]), st.lists(statements, max_size=25)).map(
    lambda t: t[0] + "\n" + "\n".join(f"{30 + i} {s}" for i, s in enumerate(t[1])) + "\n"
)


@settings(max_examples=max(FUZZ_SHORT * 4, 400), deadline=None)
@given(programs)
def test_random_simple_programs(text):
    check(text)


# ... and programs built to be valid, so that most of them take the quick sweep
VALUES = ["zp", "big", "late", "$12", "$ff", "$100", "$fffe", "0", "255", "%11"]
OFFSETS = ["", "+1", "-1", "+$10", "*2"]
TEMPLATES = [
    " {m} {v}", " lda #{half}{v}", " lda {v},{xy}", " bne {near}", " jmp {v}", " .{data} <{v},>{v}",
    " lda ({zp}),y ; comment", "{c} = {v}",
]


@st.composite
def valid_programs(draw):
    lines = ["10 sys32768", "20 *= $c000", "30 zp = $fb", "40 big = $1234"]
    labels = draw(st.integers(1, 6))
    for n in range(labels):
        lines.append(f"l{n}" if draw(st.booleans()) else f"l{n} nop")
        for _ in range(draw(st.integers(0, 5))):
            value = draw(st.sampled_from(VALUES + [f"l{draw(st.integers(0, labels - 1))}"])) + draw(st.sampled_from(OFFSETS))
            template = draw(st.sampled_from(TEMPLATES))
            lines.append(template.format(
                v=value,
                m=draw(st.sampled_from(["lda", "ldx", "sta", "adc", "cmp", "inc", "bit"])),
                half=draw(st.sampled_from(["<", ">"])),
                xy=draw(st.sampled_from("xy")),
                near=f"l{min(labels - 1, n + draw(st.integers(0, 1)))}",
                data=draw(st.sampled_from(["byt", "wor"])),
                zp=draw(st.sampled_from(["zp", "$fb"])),
                c=f"c{len(lines)}",
            ))  # fmt: skip
    lines.append("late = $2345")
    return "\n".join(lines) + "\n"


@settings(max_examples=max(FUZZ_SHORT * 2, 300), deadline=None)
@given(valid_programs())
def test_random_valid_programs(text):
    check(text)


def test_most_valid_programs_take_the_quick_sweep():
    """(So that the test above is not empty.)"""
    taken = []

    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(valid_programs())
    def count(text):
        taken.append(check(text))

    count()
    assert sum(taken) > len(taken) // 2, f"{sum(taken)} of {len(taken)}"
