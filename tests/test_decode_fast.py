"""The decoder's regular-expression readings (``_fast``, ``_fast_define``, ``_fast_indirect``) give
exactly the record the general reading (``_decode``) gives, for every statement they accept.

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


def _same(cpu: str, text: str) -> None:
    decoder = Decoder(cpu)
    general = Decoder(cpu)._decode(text)
    for pattern, reader in ((_FAST, decoder._fast), (_FAST_DEFINE, decoder._fast_define), (_FAST_INDIRECT, decoder._fast_indirect)):
        m = pattern.match(text)
        fast = reader(m) if m is not None else None
        if fast is None:
            continue
        assert type(fast) is type(general), text
        fields = [f for f in getattr(type(fast), "_fields", ()) if f not in ("fn",)]
        assert [getattr(fast, f) for f in fields] == [getattr(general, f) for f in fields], text


@pytest.mark.parametrize("text", ["nop nop", "lda lda", "rts rts", "nop", "rts", "loop nop", "lda (tab),x", "x = 5", "lda = 5"])
def test_fast_readings_agree_with_the_general_one(text):
    _same("6502", text)


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
