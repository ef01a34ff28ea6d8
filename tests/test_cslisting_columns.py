"""A Checksummer listing whose checksums the page prints as a column of their own after the
lines' bodies, or whose line numbers it prints as a column before them: ``basic read`` (the
layout stage) and ``typein scan`` both set the column back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import tokenize
from asm6502.typein.cslisting import columns
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


def _columned(sizes: list[int], shapes: str = "") -> str:
    """The listing re-laid in blocks of *sizes* lines (the rest in one last block; a rest shorter
    than MIN_COLUMN, which is no column, goes with the block before): each block its bodies,
    then its checksums one to a row ('a', the default), or its numbers one to a row, then its
    bodies each with its checksum ('b'); *shapes* gives the blocks' shapes in turn, over again."""
    rows, at = [], 0
    for k, size in enumerate([*sizes, len(LINES)]):
        if 0 < len(LINES) - (at + size) < MIN_COLUMN:
            size = len(LINES) - at
        block = LINES[at:at + size]
        if not block:
            break
        if (shapes or "a")[k % len(shapes or "a")] == "a":
            rows += [body for body, _ in block] + [checksum for _, checksum in block]
        else:
            rows += [body.split(" ", 1)[0] for body, _ in block] + [
                f"{body.split(' ', 1)[1]}\t{checksum}" for body, checksum in block]
        at += size
    return PROSE + "\n".join(rows) + "\n" + PROSE


def _read_back(text: str) -> tuple[int, bytes]:
    results = cs_read.read_listings(text, "page.txt")
    assert len(results) == 1
    return results[0].count("verified"), results[0].prg


def test_the_listing_has_lines_enough():
    assert len(LINES) == len(WRITTEN.splitlines()) >= 40


@pytest.mark.parametrize("sizes,shapes", [
    ([], "a"),  # one column of checksums after all the lines
    ([], "b"),  # one column of numbers before all the bodies
    ([MIN_COLUMN], "a"),  # the smallest block first
    ([MIN_COLUMN], "b"),
    ([10, 10, 10], "a"),
    ([10, 10, 10], "ab"),  # the shapes in turn on one page
    ([25], "ba"),
    ([MIN_COLUMN] * 8, "ab"),
])
def test_basic_read_and_scan_take_every_line_back(sizes, shapes):
    text = _columned(sizes, shapes)
    assert _read_back(text) == (len(LINES), PRG)
    found = scan(text, "page.txt")
    assert [(f.reading.verified, f.reading.prg) for f in found] == [(len(LINES), PRG)]


@given(st.lists(st.integers(MIN_COLUMN, 30), max_size=8), st.text("ab", min_size=1, max_size=4))
def test_any_block_sizes_and_shapes_read_back_whole(sizes, shapes):
    assert _read_back(_columned(sizes, shapes)) == (len(LINES), PRG)


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


def _numbers_first(numbers: list[str], block: list[tuple[str, str]]) -> str:
    return "\n".join(numbers + [f"{body.split(' ', 1)[1]}\t{checksum}" for body, checksum in block]) + "\n"


@pytest.mark.parametrize("name,numbers", [
    ("numbers the checksums do not verify", [str(int(b.split()[0]) + 1) for b, _ in LINES[:10]]),
    ("more bodies than numbers by more than two", [b.split()[0] for b, _ in LINES[:7]]),
    ("more numbers than bodies", [b.split()[0] for b, _ in LINES[:11]]),
    ("numbers that do not rise", [b.split()[0] for b, _ in reversed(LINES[:10])]),
])
def test_a_column_of_numbers_that_does_not_fit_stays_as_printed(name, numbers):
    text = _numbers_first(numbers, LINES[:10])
    assert set_columns_back(text) == text


def test_a_column_of_numbers_is_set_in_front_of_its_bodies():
    text = _numbers_first([b.split()[0] for b, _ in LINES[:10]], LINES[:10])
    assert set_columns_back(text).split("\n")[10:20] == [f"{b}\t{c}" for b, c in LINES[:10]]


def _rising_by_definition(numbers: list[int]) -> list[int]:
    """The longest rising sequence ending in the last number, by its definition: per number, the
    first longest one among those ending in a smaller number before it, extended by it."""
    best: list[list[int]] = []
    for k, number in enumerate(numbers):
        chain = max((best[j] for j in range(k) if numbers[j] < number), key=len, default=[])
        best.append([*chain, k])
    return best[-1]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=40))
def test_rising_chain_is_the_definitions(numbers):
    assert columns.rising_chain(numbers) == _rising_by_definition(numbers)
