"""Decoded statements: what the text says, worked out once (statements.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.opcodes import Mode
from asm6502.statements import DataList, Decoder, Definition, Instruction


@pytest.fixture(scope="module")
def decoder():
    return Decoder("6502")


# statement, form, mode, size (0: zero page or absolute, decided in the passes), opcode(s), label
INSTRUCTIONS = [
    ("tax", "fixed", Mode.IMPLIED, 1, (0xAA, -1), None),
    ("rol a", "fixed", Mode.ACCUMULATOR, 1, (0x2A, -1), None),
    ("lda #$10", "immediate", Mode.IMMEDIATE, 2, (0xA9, -1), None),
    ("lda z7,x", "address", Mode.ABSOLUTE_X, 3, (0xBD, 0xB5), None),
    ("stx z1,y", "address", Mode.ABSOLUTE_Y, 3, (-1, 0x96), None),
    ("loop bne loop", "branch", Mode.RELATIVE, 2, (0xD0, -1), "loop"),
    ("jmp ($0300)", "indirect", Mode.INDIRECT, 3, (0x6C, -1), None),
    ("lda ($fb),y", "indirect", Mode.INDIRECT_INDEXED, 2, (0xB1, -1), None),
    ("sta ($fb,x)", "indirect", Mode.INDEXED_INDIRECT, 2, (0x81, -1), None),
]


@pytest.mark.parametrize("text, form, mode, size, codes, label", INSTRUCTIONS)
def test_instructions(decoder, text, form, mode, size, codes, label):
    insn = decoder.statement(text)
    assert type(insn) is Instruction and insn.problem is None
    assert (insn.form, insn.mode, insn.code, insn.zp_code, insn.label) == (form, mode, *codes, label)
    if form != "address":
        assert insn.size == size


def test_offsets_are_from_the_statement_start(decoder):
    insn = decoder.statement("l35 adc l35+$24,y")
    assert insn.mnemonic_offset == 4 and insn.operand_offset == 8 and insn.expr_offset == 8
    assert decoder.statement("adc l35+$24,y").expr_offset == 4  # the same operand, decoded once
    assert decoder.statement("lda  < table").prefix == "<"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("lda", ("LDA needs an operand", 0, 3)),
        ("tax #1", ("TAX takes no operand", 4, 2)),
        ("jmp #1", ("JMP has no immediate mode (it has: absolute, indirect)", 4, 2)),
        ("bne x,y", ("BNE has no indexed mode (it has: relative)", 4, 3)),
        ("lda #", ("expression expected", 5, 1)),
        ("lda $1g", ("invalid hex number", 4, 3)),
    ],
)
def test_problems_are_found_once(decoder, text, problem):
    assert decoder.statement(text).problem == problem


def test_other_statements(decoder):
    assert decoder.statement("loop") == "loop"  # a lone label
    d = decoder.statement("f33 = a20+$02")
    assert type(d) is Definition and (d.name, d.kind, d.expr_offset) == ("f33", "const", 6)
    assert decoder.statement("v _ 1").kind == "var"
    data = decoder.statement('tab .byt 1,"ab",<x,')
    assert type(data) is DataList and data.label == "tab" and data.size == 4
    assert [i.fixed for i in data.items] == [b"\0", b"AB", b"\0", b""]
    assert data.items[3].problems == (("value expected between commas", 19, 1),)  # just after the last comma
    for text in ("*= $1000", ".asc \"x\"", "'m 1", "sys32768", "m .mac a", ".if 1"):
        assert decoder.statement(text) is None, text


# --- the quick operand reading equals the general one ---------------------------------

operand_texts = st.tuples(
    st.sampled_from([" ", "  ", "\t", ""]),
    st.sampled_from(["", "#"]),
    st.sampled_from(["", "<", ">", "!"]),
    st.sampled_from(["a", "A", "z7", "$12", "$1234", "%101", "300", "l35+$24", "x*2-1", "1/0", "99999", "a.b", "(z)"]),
    st.sampled_from(["", ",x", ",Y", ", x", ",z"]),
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(mnemonic=st.sampled_from(sorted(Decoder("6502i").opcodes)), operand=operand_texts)
def test_quick_operand_reading_equals_the_general_one(mnemonic, operand):
    decoder = Decoder("6502i")
    quick = decoder._quick_operand(mnemonic, operand)
    if quick is not None:  # None: the general reading's job
        decoder._quick_operand = lambda mnemonic, operand: None
        assert repr(quick) == repr(decoder._operand(mnemonic, operand))
