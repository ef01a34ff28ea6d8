"""A Checksummer listing whose checksums the page prints as a column of their own after the
lines' bodies: ``basic read`` (the layout stage) and ``typein scan`` both set it back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asm6502.basic.tokenizer import tokenize
from asm6502.typein.cslisting import read as cs_read
from asm6502.typein.cslisting.columns import MIN_COLUMN, set_columns_back
from asm6502.typein.formats import FORMATS
from asm6502.typein.scan import scan

SOURCE = Path(__file__).resolve().parent.parent / "sources" / "highiq.bas"
PRG = tokenize(SOURCE.read_text(), filename=str(SOURCE)).prg
WRITTEN = FORMATS["checksummer-3"].write(PRG)
_LINE = re.compile(r"^(?P<body>\d+ .*?)\s+(?P<sum><\d{3}>)\s*$")
LINES = [(m.group("body"), m.group("sum")) for row in WRITTEN.splitlines() if (m := _LINE.match(row))]
PROSE = "Das folgende Programm ist schnell eingetippt.\n"


def _columned(sizes: list[int]) -> str:
    """The listing re-laid in blocks of *sizes* lines (the rest in one last block; a rest shorter
    than MIN_COLUMN, which is no column, goes with the block before): each block its bodies,
    then its checksums one to a row."""
    rows, at = [], 0
    for size in [*sizes, len(LINES)]:
        if 0 < len(LINES) - (at + size) < MIN_COLUMN:
            size = len(LINES) - at
        block = LINES[at:at + size]
        if not block:
            break
        rows += [body for body, _ in block] + [checksum for _, checksum in block]
        at += size
    return PROSE + "\n".join(rows) + "\n" + PROSE


def _read_back(text: str) -> tuple[int, bytes]:
    results = cs_read.read_listings(text, "page.txt")
    assert len(results) == 1
    return results[0].count("verified"), results[0].prg


def test_the_listing_has_lines_enough():
    assert len(LINES) == len(WRITTEN.splitlines()) >= 40


@pytest.mark.parametrize("sizes", [
    [],  # one column after all the lines
    [MIN_COLUMN],  # the smallest block first
    [10, 10, 10],
    [25],
    [MIN_COLUMN] * 8,
])
def test_basic_read_and_scan_take_every_line_back(sizes):
    text = _columned(sizes)
    assert _read_back(text) == (len(LINES), PRG)
    found = scan(text, "page.txt")
    assert [(f.reading.verified, f.reading.prg) for f in found] == [(len(LINES), PRG)]


@given(st.lists(st.integers(MIN_COLUMN, 30), max_size=8))
def test_any_block_sizes_read_back_whole(sizes):
    assert _read_back(_columned(sizes)) == (len(LINES), PRG)


@pytest.mark.parametrize("name,change", [
    ("a checksum lost", lambda rows: rows[:-2] + rows[-1:]),  # which line each belongs to is unknown
    ("a column shorter than MIN_COLUMN", lambda rows: rows),
])
def test_a_column_that_does_not_fit_stays_as_printed(name, change):
    block = LINES[:MIN_COLUMN] if "shorter" in name else LINES[:10]
    bodies = [b for b, _ in block]
    sums = [c for _, c in block][: MIN_COLUMN - 1] if "shorter" in name else [c for _, c in block]
    text = "\n".join(change(bodies + sums)) + "\n"
    assert set_columns_back(text) == text


def test_text_without_a_column_is_returned_as_it_is():
    assert set_columns_back(WRITTEN) is WRITTEN
