"""The listing in the original's format: the manual's five example programs, line for line as the
original Profi-Ass 64 V2.0 printed them (tests/fixtures/profiass/manual/*.screen.txt, oracle output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from asm6502.asm import assemble
from asm6502.asm.listing import render, split_statement

MANUAL = Path(__file__).resolve().parent / "fixtures" / "profiass" / "manual"


def original_listing(screen: str) -> str:
    """What the original printed from the first page header to the end (its '{$0c}' is a form feed)."""
    lines = screen.splitlines()
    start = lines.index("{$0c}")
    body = [ln for ln in lines[start:] if ln != "READY."]
    return "\n".join(body).replace("{$0c}", "\f") + "\n"


@pytest.mark.parametrize("name", sorted(p.stem for p in MANUAL.glob("*.src")))
def test_manual_listing_as_the_original(name):
    source = (MANUAL / f"{name}.src").read_text().lower()  # typed in upper-case mode: unshifted letters
    ours = render(assemble(source, f"{name}.src"))
    assert ours.splitlines() == original_listing((MANUAL / f"{name}.screen.txt").read_text()).splitlines()


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
