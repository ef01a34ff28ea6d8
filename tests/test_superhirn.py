"""Superhirn II (64'er): the source must give back the printed bytes, byte for byte."""

from __future__ import annotations

import os

import pytest

from asm6502 import output
from asm6502.asm import assemble_file
from helpers import FIXTURES, ROOT, printed_superhirn

GOLDEN = FIXTURES.parent / "golden"


@pytest.fixture(scope="module")
def result():
    return assemble_file(ROOT / "sources" / "superhirn.asm")


def test_printed_listing_is_complete():
    start, data = printed_superhirn()
    assert start == 0x3400 and len(data) == 524  # $3400-$360B; header says end $360C (exclusive)


def test_source_gives_the_printed_bytes(result):
    start, data = printed_superhirn()
    # the program's last instruction is JMP $3400 at $3608-$360A; the printed
    # dump has one more byte ($FF at $360B) that the source does not produce
    assert result.segments == ((0x3400, data[:523]),)
    assert result.prg == b"\x00\x34" + data[:523]
    assert data[523] == 0xFF


def test_labels_match_the_article(result):
    # entry points visible in the printed machine code (JSR/JMP targets)
    assert result.labels["grloop"] == 0x3437
    assert result.labels["liloop"] == 0x353B
    assert result.labels["antwort"] == 0x35AC
    assert result.labels["text"] == 0x35DF
    assert result.symbols["runde"] == 830


def test_no_warnings(result):
    assert result.diagnostics == ()


@pytest.mark.parametrize(
    "name, render",
    [
        ("superhirn.lst", lambda r: output.listing_text(r, "superhirn.asm")),
        ("superhirn.labels", output.vice_labels),
        ("superhirn.hex", output.intel_hex),
    ],
)
def test_golden_outputs(result, name, render):
    """Listing, VICE labels and Intel HEX as reviewed; UPDATE_GOLDEN=1 rewrites them."""
    text = render(result)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text()


def test_intel_hex_holds_the_same_bytes(result):
    from io import StringIO

    from intelhex import IntelHex

    ih = IntelHex(StringIO(output.intel_hex(result)))
    assert ih.minaddr() == 0x3400 and ih.maxaddr() == 0x360A
    assert bytes(ih.tobinarray()) == result.image


def test_the_mse_listing_we_write_is_the_article_s():
    """build/superhirn.mse.txt, written by asm6502 from sources/superhirn.asm, is the MSE listing
    the article printed, line for line (cut from the seed's run-together OCR)."""
    from helpers import superhirn_listing

    assert (ROOT / "build" / "superhirn.mse.txt").read_text(encoding="utf-8") == superhirn_listing()