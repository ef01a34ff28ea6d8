"""The decoder's regular-expression readings of the commonest statements (in ``Decoder._read``) give
exactly the record the general reading (``Decoder._decode``) gives.

They exist only for speed: one code path means they may decide nothing on their own.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.asm.decode import _FAST, _FAST_DEFINE, _FAST_INDIRECT, Decoder, split_commas

WORDS = ["lda", "sta", "nop", "rts", "asl", "jmp", "bne", "ldx", "inc", "lax", "loop", "a", "x", "tab.1", "nop2", "LDA", "Nop"]
OPERANDS = ["", " #1", " #<tab", " >tab", " !$12", " $12", " $1234", " tab,x", " tab,Y", " ($12,x)", " ($12),y", " ($1234)",
            " (tab),x", " a", " A", " *+2", " *", " 1+2*3", " nop", " #lda", " = 5", " _ i+1", " =5", " tab+1,x", "  #1"]


def _fields(record) -> list:
    """A record's fields but its compiled expressions (closures compare by identity)."""
    fields = [(n, getattr(record, n)) for n in type(record)._fields if n not in ("fn", "parts")]
    return fields + [("node", record.node)] if hasattr(record, "fn") else fields


def _same(cpu: str, text: str) -> bool:
    """The statement decoded (fast readings first) and read by the general reading alone agree; True
    when one of the fast patterns reads the text."""
    fast = Decoder(cpu).decode(text)
    general = Decoder(cpu)._decode(text)
    assert type(fast) is type(general), text
    assert _fields(fast) == _fields(general), text
    return any(p.match(text) is not None for p in (_FAST, _FAST_DEFINE, _FAST_INDIRECT))


@pytest.mark.parametrize("text", ["nop nop", "lda lda", "rts rts", "nop", "rts", "loop nop", "lda (tab),x", "x = 5", "lda = 5"])
def test_fast_readings_agree_with_the_general_one(text):
    _same("6502", text)


@pytest.mark.parametrize("text", ["nop", "lda #1", "loop sta $d020,x", "bne loop", "lda <tab+1", "x = 5", "i _ i+1",
                                  "jmp ($fffc)", "lda ($fb),y", "sta ($20,x)", "lbl lda (ptr),y"])
def test_the_fast_readings_read_the_common_shapes(text):
    assert _same("6502", text), f"no fast pattern reads {text!r}: the comparison above would test nothing"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["", "loop ", "nop ", "lda ", "a ", "x1 "]), st.sampled_from(WORDS), st.sampled_from(OPERANDS),
       st.sampled_from(["6502", "6502i"]))
def test_fast_readings_agree_on_random_statements(label, word, operand, cpu):
    _same(cpu, label + word + operand)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=["a", "1", ",", " ", "\t", "\f", "\xa0", "<", "$"], max_size=12))
def test_split_commas_gives_each_item_stripped_at_its_place(text):
    """Both ways of splitting a data list without quotes or brackets (with and without white space):
    one item per comma-separated part, without white space, at the column where it stands."""
    items = split_commas(text, 5)
    assert len(items) == text.count(",") + 1
    for (item, offset), raw in zip(items, text.split(",")):
        assert item == raw.strip()
        assert text[offset - 5 : offset - 5 + len(item)] == item
