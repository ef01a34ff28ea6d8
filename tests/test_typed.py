"""A text source as the C64 stored it (asm6502/asm/typed.py): BASIC's CRUNCH drops the shifted keys
typed outside quotes; the project keeps those inside a word and in a comment (docs/assembler.md: deviations).
The original's side of every row is an oracle fixture (tests/fixtures/profiass/rules/)."""

from __future__ import annotations

import pytest

from asm6502.asm.typed import as_typed


@pytest.mark.parametrize(
    "typed, stored",
    [
        ("120 lda #1 A", "120 lda #1 "),  # rules/junk_shifted_blank
        ('120 lda #"b"A', '120 lda #"b"'),  # rules/junk_shifted_after_char
        ('120 lda #"b"{$c1}', '120 lda #"b"'),  # rules/junk_shifted_code: a code written in braces is a key too
        ('120 ldx #"b"A:nop', '120 ldx #"b":nop'),  # rules/junk_shifted_then_colon
        ('120 .asc "a"A', '120 .asc "a"'),  # rules/asc_tail_shifted
        ('120 .asc "aA"B', '120 .asc "aA"'),  # in quotes every key stays (rules/shifted_then_junk)
        ('120 lda #"{$22}"', '120 lda #"""'),  # '{$22}' is the quote key (rules/char_quote_code)
        ("120 Abc = 5", "120 Abc = 5"),  # a capital in a word: the letter (deviation: labels/labels_shifted_name)
        ("120 LDA #$FF", "120 LDA #$FF"),  # (the C64 would store ' #$': the project keeps the word)
        ("120 nop ;xAy", "120 nop ;xAy"),  # a comment as written (deviation: rules/shifted_comment)
        ("120 nop ; A x:lda #1 A", "120 nop ; A x:lda #1 "),  # a ':' ends the comment
        ("120 lda #1\r", "120 lda #1\r"),
    ],
)
def test_line_as_stored(typed, stored):
    assert as_typed(typed) == stored


def test_a_source_without_shifted_keys_is_the_same_object():
    text = "100 sys32768\n110 lda #1 ; x\n"
    assert as_typed(text) is text




@pytest.mark.parametrize("at", [0, (1 << 16) - 1, 1 << 16, 3 * (1 << 16) + 7, 199_999])
def test_a_shifted_key_anywhere_in_a_long_source_is_seen(at):
    """The quick test looks a block at a time (typed.py): a key in the last or first place of a block counts."""
    text = " " * at + "A" + " " * (199_999 - at)  # (a shifted key between blanks: dropped)
    assert as_typed(text) == " " * 199_999
