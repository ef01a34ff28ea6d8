"""The listing in the original's format: the manual's five example programs, line for line as the
original Profi-Ass 64 V2.0 printed them (the oracle's <name>.screen.txt of the test-data collection
profiass-manual: tests/manifests/profiass-manual/MANIFEST.md)."""

from __future__ import annotations

import pytest
import testdata
from helpers import real_text

from asm6502.asm import assemble
from asm6502.asm.listing import render, split_statement

MANUAL = "profiass-manual"


def original_listing(screen: str) -> str:
    """What the original printed from the first page header to the end (its '{$0c}' is a form feed)."""
    lines = screen.splitlines()
    start = lines.index("{$0c}")
    body = [ln for ln in lines[start:] if ln != "READY."]
    return "\n".join(body).replace("{$0c}", "\f") + "\n"


@pytest.mark.parametrize("name", [n.removesuffix(".src") for n in testdata.names(MANUAL, ".src")])
def test_manual_listing_as_the_original(name):
    source = real_text(MANUAL, f"{name}.src").lower()  # typed in upper-case mode: unshifted letters
    ours = render(assemble(source, f"{name}.src"))
    assert ours.splitlines() == original_listing(real_text(MANUAL, f"{name}.screen.txt")).splitlines()


@pytest.mark.parametrize(
    "text, columns",
    [
        ("loop lda #1", ("loop", "lda", "#1")),
        ("lda #1", ("", "lda", "#1")),
        ("x = 5", ("x", "=", "5")),
        ("i _ i+1", ("i", "\u2190", "i+1")),
        ("*= $c000", ("", "*=", "$c000")),
        ("'cursor 10,10", ("", "'cursor", "10,10")),
        ("text1 .asc \"a\"", ("text1", ".asc", '"a"')),
    ],
)
def test_columns(text, columns):
    assert split_statement(text) == columns

# Every probe that the original listed without errors is compared line for line by
# tests/test_profiass_oracle.py::test_listing_as_the_original (cases that differ: known_failing.txt).
