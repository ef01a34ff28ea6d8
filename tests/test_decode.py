"""The decoder's splitting of a data list into its items."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.asm.operand_text import split_commas


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
