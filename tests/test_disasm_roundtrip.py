"""The disassembler's promise: its output reassembles to the same bytes, in all three syntaxes.

Checked with asm6502 (Profi-Ass syntax), 64tass and ACME on Superhirn II, on
arbitrary bytes (hypothesis), on random programs with real control flow
(tests/disasm_programs.py) and on the random programs of the 64tass
differential test.  Long runs:
``DISASM_EXAMPLES=5000 .venv/bin/python -m pytest -m slow tests/test_disasm_roundtrip.py``
"""

from __future__ import annotations

import os

import pytest
from disasm_assemblers import SYNTAXES, reassemble
from disasm_programs import FlowGen
from helpers import ROOT, SEEDS
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.asm import assemble
from asm6502.disasm import disassemble, listing
from asm6502.disasm.model import Instruction

SUPERHIRN = (ROOT / "build" / "superhirn.prg").read_bytes()
LONG = int(os.environ.get("DISASM_EXAMPLES", "5000"))


def round_trip(syntax: str, origin: int, data: bytes, cpu: str = "6502", entries=None) -> None:
    source = disassemble(origin, data, syntax=syntax, cpu=cpu, entries=entries)
    assert reassemble(syntax, source, cpu) == data, source


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_superhirn_reassembles(syntax):
    round_trip(syntax, 0x3400, SUPERHIRN[2:])
    round_trip(syntax, 0x3400, SUPERHIRN[2:], entries=[0x3400, 0x35E4])  # with the relocator as code


# The manual's example programs (typed in for the Profi-Ass oracle, beside the checkout).  Pages 27
# and 32 are left out: asm6502 refuses '.sym' (C64 only) and 'adc #-10' (the original takes it as $F6).
MANUAL = SEEDS.parent / "oracle" / "profiass" / "manual"


@pytest.mark.parametrize("syntax", SYNTAXES)
@pytest.mark.parametrize("example", ["ex1_p20", "ex2_p24", "ex3_p26"])
def test_manual_examples_reassemble(example, syntax):
    path = MANUAL / f"{example}.txt"
    if not path.is_file():
        pytest.skip(f"{path} not found (the shared reference material is not beside the checkout)")
    result = assemble(path.read_text(), path.name)
    round_trip(syntax, result.load_address, result.image)


# --- arbitrary bytes -------------------------------------------------------------------------

@st.composite
def programs(draw, max_size: int = 200):
    data = draw(st.binary(min_size=1, max_size=max_size))
    origin = draw(st.one_of(st.integers(0, 0x10000 - len(data)), st.sampled_from([0x0000, 0x0801, 0xC000]),
                            st.just(0x10000 - len(data))))
    cpu = draw(st.sampled_from(["6502", "6502i"]))
    entries = draw(st.sampled_from([None, []]))  # traced from the start, or all data
    return origin, data, cpu, entries


@pytest.mark.parametrize("syntax", SYNTAXES)
@settings(max_examples=120)
@given(program=programs())
def test_arbitrary_bytes_reassemble(syntax, program):
    origin, data, cpu, entries = program
    round_trip(syntax, origin, data, cpu, entries)


@pytest.mark.slow
@pytest.mark.parametrize("syntax", SYNTAXES)
@settings(max_examples=LONG)
@given(program=programs(max_size=2000))
def test_arbitrary_bytes_reassemble_long(syntax, program):
    origin, data, cpu, entries = program
    round_trip(syntax, origin, data, cpu, entries)


# --- random programs with control flow ------------------------------------------------------

def flow_program(seed: int):
    cpu = "6502i" if seed % 3 == 0 else "6502"
    tricks = seed % 2 == 1
    origin = 0x0800 + (seed * 0x97) % 0x8000
    data, reachable = FlowGen(seed, cpu, tricks).program(origin)
    return origin, data, cpu, tricks, reachable


def check_flow_program(seed: int, syntaxes=SYNTAXES) -> None:
    origin, data, cpu, tricks, reachable = flow_program(seed)
    if not tricks:  # every instruction the program can reach is found as code, at its own address
        found = {s.address for s in listing(origin, data, cpu=cpu).body if isinstance(s, Instruction)}
        assert reachable <= found, f"seed {seed}: not traced: {sorted(f'${a:04x}' for a in reachable - found)}"
    for syntax in syntaxes:
        round_trip(syntax, origin, data, cpu)


@pytest.mark.parametrize("block", range(4))
def test_flow_programs_reassemble(block):
    for seed in range(block * 50, (block + 1) * 50):
        check_flow_program(seed)


@pytest.mark.slow
def test_flow_programs_reassemble_long():
    for seed in range(100_000, 100_000 + LONG):
        check_flow_program(seed)


def test_flow_programs_use_every_table_kind():
    """The generator really makes the jump tables the tracer is meant to find."""
    texts = [disassemble(o, d, cpu=c, syntax="64tass") for o, d, c, _, _ in map(flow_program, range(60))]
    assert any(".word sub_" in t and "-1" in t for t in texts)  # RTS trick, interleaved
    assert any(".byte <(sub_" in t or ".byte <start-1" in t for t in texts)  # RTS trick, split
    assert any("jmp (vec_" in t for t in texts)  # vector


# --- the 64tass differential generator's programs -----------------------------------------------

def check_differential_program(seed: int) -> None:
    from test_differential_64tass import ProgramGen

    image = assemble(ProgramGen(seed).program()[0]).image
    for syntax in SYNTAXES:
        round_trip(syntax, 0x2000, image)


@pytest.mark.parametrize("block", range(2))
def test_differential_generator_programs_reassemble(block):
    for seed in range(block * 50, (block + 1) * 50):
        check_differential_program(seed)


@pytest.mark.slow
def test_differential_generator_programs_reassemble_long():
    for seed in range(50_000, 50_000 + LONG // 5):
        check_differential_program(seed)
