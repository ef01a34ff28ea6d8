"""The Superhirn source in the C64's tokenized form (as
Profi-Ass 64 saves it) detokenizes and assembles to the printed bytes.

Ground truth: the MSE listing printed in the article
(cut from the seed article by helpers.superhirn_listing, $3400-$360B; its last byte $FF is the
listing's fill after the program's end)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import superhirn_listing

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "sources/superhirn.asm"


def printed_bytes() -> tuple[int, bytes]:
    """Address and bytes of the printed listing: 'AAAA : 8 data bytes, checksum'."""
    lines = [line for line in superhirn_listing().splitlines() if " : " in line and not line.startswith("PROGRAMM")]
    start = int(lines[0].split(":")[0], 16)
    data = b"".join(bytes.fromhex(" ".join(line.split(":")[1].split()[:-1])) for line in lines)
    return start, data


def test_tokenized_source_assembles_to_the_printed_bytes():
    tokenizer = pytest.importorskip("asm6502.basic.tokenizer", reason="BASIC tokenizer not written yet")
    from asm6502.asm import assemble

    text = SOURCE.read_text()
    prg = tokenizer.tokenize(text, filename=str(SOURCE)).prg
    assert prg[:2] == b"\x01\x08"  # a BASIC program at $0801, as Profi-Ass saves sources
    back = tokenizer.detokenize(prg, filename="superhirn-src.prg").text
    result = assemble(back, filename="superhirn-src.prg")
    start, printed = printed_bytes()
    assert result.load_address == start
    assert result.image == printed[: len(result.image)]
    assert len(printed) - len(result.image) <= 1  # at most the listing's trailing fill byte
    assert result.segments == assemble(text, filename=str(SOURCE)).segments


def test_tokenizing_really_produces_tokens():
    """Keywords inside mnemonics and labels ('and', 'or', 'end' ...) become BASIC
    tokens, so the tokenized file differs from the plain text; otherwise the
    round trip above would prove nothing."""
    tokenizer = pytest.importorskip("asm6502.basic.tokenizer", reason="BASIC tokenizer not written yet")
    from asm6502.basic.tokens import TOKEN_OF

    prg = tokenizer.tokenize(SOURCE.read_text(), filename=str(SOURCE)).prg
    # source line 650 "and #%00100000": the mnemonic is typed as the keyword AND
    assert bytes([TOKEN_OF["AND"]]) + b" #%00100000" in prg
