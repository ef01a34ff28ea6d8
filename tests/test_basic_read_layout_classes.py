"""``basic read`` against the layout classes of lines OCR parts, joins or numbers wrongly
(asm6502.typein.cslisting.damage.MORE_LAYOUT_CLASSES): a line number's digits read apart ('41 10')
or its first digits lost ('00 NEXT J'), a line broken over rows where the second row starts with
digits, two checksums at one line's end (the line before or after it without one), a row of page
furniture inside a listing.  A tokenized program (High IQ, build/highiq.prg; the tuning disks'
programs where the test data is present) is printed as a Checksummer listing by the project's own
writer, then damaged by the class: the lines come back with their own numbers and checksums, and
nothing taken is wrong.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from helpers import real_text
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import link_program, tokenize
from asm6502.typein.cslisting import damage as csdamage
from asm6502.typein.cslisting.checksum import checksum_listing, line_checksum
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

ROOT = Path(__file__).parent.parent
TUNING_DISKS = ("8510-floppy-adjust.disk.txt", "8510-schreiberling.disk.txt", "8510-alarmanlage.disk.txt",
                "8510-codeschloss.disk.txt")


def _cs(number: int, text: str) -> str:
    return f"<{line_checksum(number, line_body(text, True)):03d}>"


LINES = [(4090, 'PRINT"HALLO"'), (4100, "NEXT J"), (4110, "A=5:GOTO 4090"), (4120, "POKE 53280,0"), (4130, "END")]
T = dict(LINES)
C = {n: _cs(n, t) for n, t in LINES}


def _row(n: int) -> str:
    return f"{n} {T[n]} {C[n]}"


def _listing(*rows: str) -> str:
    return "\n".join(rows) + "\n"


REST = [_row(n) for n in (4120, 4130)]


@pytest.mark.parametrize("shape, text", [
    ("digits read apart", _listing(_row(4090), _row(4100), f"41 10 {T[4110]} {C[4110]}", *REST)),
    ("digits read apart in the number's cell", _listing(_row(4090), _row(4100), f"41 10\t{T[4110]}\t{C[4110]}", *REST)),
    ("digits read apart, one digit first", _listing(_row(4090), _row(4100), f"4 110 {T[4110]} {C[4110]}", *REST)),
    ("first digits lost", _listing(_row(4090), f"00 {T[4100]} {C[4100]}", _row(4110), *REST)),
    ("two broken numbers in a row", _listing(_row(4090), f"41 00 {T[4100]} {C[4100]}", f"10 {T[4110]} {C[4110]}",
                                             *REST)),
    ("the first line's digits read apart", _listing(f"40 90 {T[4090]} {C[4090]}", _row(4100), _row(4110), *REST)),
    ("two checksums, the next line without", _listing(_row(4090), f"4100 {T[4100]} {C[4100]} {C[4110]}",
                                                      f"4110 {T[4110]}", *REST)),
    ("two checksums, the line before without", _listing(_row(4090), f"4100 {T[4100]}",
                                                        f"4110 {T[4110]} {C[4100]} {C[4110]}", *REST)),
    ("two lines, both checksums at the end", _listing(_row(4090), f"4100 {T[4100]} 4110 {T[4110]} {C[4100]} "
                                                                  f"{C[4110]}", *REST)),
    ("two checksums in cells of their own", _listing(_row(4090), f"4100 {T[4100]} {C[4100]}\t{C[4110]}",
                                                     f"4110 {T[4110]}", *REST)),
    ("two lines, both numbers first", _listing(_row(4090), f"4100 4110 {T[4100]} {T[4110]} {C[4100]} {C[4110]}",
                                              *REST)),
    ("two lines, both numbers first in a cell", _listing(_row(4090), f"4100 4110\t{T[4100]} {T[4110]}\t{C[4100]} "
                                                                    f"{C[4110]}", *REST)),
    ("three lines in a row, their checksums in a cell", _listing(
        _row(4090), f"4100 {T[4100]} 4110 {T[4110]} 4120 {T[4120]}\t{C[4100]} {C[4110]} {C[4120]}", _row(4130))),
    ("two checksums in one cell of their own", _listing(_row(4090), f"4100 {T[4100]}\t{C[4100]} {C[4110]}",
                                                        f"4110 {T[4110]}\t", *REST)),
    ("two checksums in one cell after a wide gap", _listing(_row(4090), f"4100 {T[4100]}\t\t{C[4100]} {C[4110]}",
                                                            f"4110 {T[4110]}\t", *REST)),
    ("a checksum against the text, the next line after it", _listing(
        _row(4090), f"4100 {T[4100]}{C[4100]} 4110 {T[4110]}\t{C[4110]}", *REST)),
    ("the footer inside", _listing(_row(4090), _row(4100), "Ausgabe 10/Oktober 1985", _row(4110), *REST)),
    ("a caption inside", _listing(_row(4090), _row(4100), "Listing 1. Fortsetzung von Seite 72", _row(4110), *REST)),
    ("a page number and the stamp inside", _listing(_row(4090), _row(4100), "74 64'er", _row(4110), *REST)),
    ("a page number and the logo inside", _listing(_row(4090), _row(4100), "75 \u00a3k?Jj*", _row(4110), *REST)),
])
def test_a_layout_shape_reads_back_whole(shape, text):
    results = read_listings(text, "t")
    assert [(r.number, r.status) for result in results for r in result.lines] == \
        [(n, "verified") for n, _ in LINES], shape


@pytest.mark.parametrize("misread", ["?^", "?>", "?", "^", "*>", ":>"])
def test_a_checksum_whose_closing_bracket_ocr_read_as_marks_ends_its_column(misread):
    # '103<TAB>:<TAB><079?^<TAB>450<TAB>:<TAB>IF W=40 ...' (64'er 2/86 p. 102): the left column's line
    # ends there, and the right column's number starts its own line
    rows = [f"{n}\t{T[n]}\t{C[n][:-1]}{misread}\t{9000 + k}\tREM {k}\t{_cs(9000 + k, f'REM {k}')}"
            for k, n in enumerate(T)]
    results = read_listings(_listing(*rows), "t")
    assert [(r.number, r.status) for result in results for r in result.lines] == \
        [(n, "verified") for n in T] + [(9000 + k, "verified") for k in range(len(T))]


def test_three_lines_in_a_row_beside_another_column_each_read_with_its_own_checksum():
    # (the other column's line stays in its column: read after the left column's lines)
    text = _listing(_row(4090), f"4100 {T[4100]} 4110 {T[4110]} 4120 {T[4120]}\t{C[4100]} {C[4110]} {C[4120]}"
                                f"\t9000 REM X {_cs(9000, 'REM X')}", _row(4130))
    results = read_listings(text, "t")
    assert [(r.number, r.status) for result in results for r in result.lines] == \
        [(n, "verified") for n, _ in LINES] + [(9000, "verified")]


@pytest.mark.parametrize("shape, rows, number, text", [
    # a row that goes on with a line and starts with digits: the digits are the line's
    ("digits that do not rise", ["1 DATA 169,0,191,1", f"63 {_cs(1, 'DATA 169,0,191,163')}", f"2 END {_cs(2, 'END')}"],
     1, "DATA 169,0,191,163"),
    ("a number and a statement below it", ["5040 IF X=9", f"99 THEN 5042 {_cs(5040, 'IF X=999 THEN 5042')}",
                                           f"5042 END {_cs(5042, 'END')}"], 5040, "IF X=999 THEN 5042"),
    ("a bracket lost before the checksum", ["6000 PRINT PEEK(49", f"152)\t{_cs(6000, 'PRINT PEEK(49152)')}",
                                            f"6010 END {_cs(6010, 'END')}"], 6000, "PRINT PEEK(49152)"),
])
def test_a_row_going_on_with_digits_is_the_lines(shape, rows, number, text):
    result, = read_listings(_listing(*rows), "t")
    line = next(r for r in result.lines if r.number == number)
    assert (line.status, line.text.replace(" ", "")) == ("verified", text.replace(" ", "")), shape
    assert len(result.lines) == 2


def test_a_number_that_fits_stays_a_line():
    # '4105' rises between 4100 and 4110: a line of its own, not the line above going on
    text = _listing(_row(4090), f"4100 {T[4100]}", f"4105 {T[4110]} {C[4110]}", _row(4110), *REST)
    result, = read_listings(text, "t")
    assert 4105 in [r.number for r in result.lines]


def test_a_broken_number_no_checksum_verifies_stays_as_printed():
    # the line's text misread too: no reading of its number gives its checksum, so none is taken
    text = _listing(_row(4090), _row(4100), f"41 10 {T[4110]}X {C[4110]}", *REST)
    numbers = [r.number for result in read_listings(text, "t") for r in result.lines]
    assert 4110 not in numbers


@cache
def _high_iq() -> str:
    return checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())[0]


def _read_back(listing: str, seed: int, classes: dict[str, float], characters: float = 0.0
               ) -> tuple[list[tuple[int, list[str]]], int, int]:
    """(wrong lines: number, classes), lines hit by *classes*, of them taken."""
    rng = random.Random(seed)
    damaged = csdamage.damage_listing(listing, rng,
                                      classes={k: characters * v for k, v in csdamage.REALISTIC.items()})
    damaged = csdamage.damage_layout(damaged, rng, classes=classes)
    taken = {r.number: r for result in read_listings(damaged.text, "t") for r in result.lines
             if r.status in ("verified", "repaired")}

    def bare(body: bytes | None) -> bytes | None:  # (blanks: invisible to the checksum)
        return None if body is None else body.replace(b" ", b"")

    wrong = [(t.number, t.classes) for t in damaged.lines if t.number in taken
             and bare(taken[t.number].body) != bare(line_body(t.text, True))]
    hit = [t for t in damaged.lines if set(t.classes) & set(classes)]
    return wrong, len(hit), sum(t.number in taken for t in hit)


# measured on High IQ, 25 seeds at rates 0.05-0.45 each: the smallest share of the lines hit that
# came back in one listing (of all lines hit: 341 of 341 read apart, 283 of 330 with first digits
# lost, 204 of 206 broken at digits, all of the others).  Lost first digits: a number with more than
# numbers.MAX_READINGS readings between its neighbours ('0' for 700 between 600 and 710) is left as it is;
# digits at a row's start: '...(197' / '8)' reads '(197' as a checksum that lost its '>' (hypothesis
# found 4 of 6 lines back at seed 206, rate 0.34)
SHARE_BACK = {"number-split": 0.9, "number-head-lost": 0.5, "broken-digits": 0.6, "checksums-together": 1.0,
              "checksums-after": 1.0, "furniture": 1.0}


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), rate=st.floats(0.05, 0.45))
@pytest.mark.parametrize("cls", csdamage.MORE_LAYOUT_CLASSES)
def test_a_layout_class_comes_back_and_nothing_is_wrong(cls, seed, rate):
    wrong, hit, back = _read_back(_high_iq(), seed, {cls: rate})
    assert wrong == []
    assert back >= SHARE_BACK[cls] * hit - 1  # (one line more may stay where a run of hits meets)


@pytest.mark.xfail(reason="open: all classes together at high rates, hypothesis finds wrong lines where a layout "
                          "choice is witnessed by one checksum (seed 2299: High IQ 720 read apart, its checksum set "
                          "beside 710's, the next line's text taken as 720's and verifying by the 1-in-256 chance); "
                          "spares.py weighs the shape where the next line's number is lost, not the others", strict=False)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), rates=st.lists(st.floats(0, 0.3), min_size=len(csdamage.MORE_LAYOUT_CLASSES),
                                                   max_size=len(csdamage.MORE_LAYOUT_CLASSES)))
def test_the_layout_classes_together_make_no_wrong_line(seed, rates):
    classes = dict(zip(csdamage.MORE_LAYOUT_CLASSES, rates))
    wrong, _, _ = _read_back(_high_iq(), seed, classes | {"joined": 0.1, "number-lost": 0.1, "broken": 0.1})
    assert wrong == []


@cache
def _disk_listing(name: str) -> str:
    lines = tokenize(real_text("basic_read", name), filename=name).lines
    prg, _ = link_program([(line.number, line.body, 1) for line in lines], 0x0801)
    return checksum_listing(prg)[0]


@pytest.mark.xfail(reason="open: hypothesis found a wrong line (Schreiberling's disk, seed 0, rate 0.25: 1500's number "
                          "read apart and its checksum set beside 1490's; the next row '1 510 DATA ...', 1510 read "
                          "apart, is joined to 1500 as a row going on with digits, and verifies with 1510's checksum "
                          "by the 1-in-256 chance: a layout choice witnessed by one checksum)", strict=False)
@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(TUNING_DISKS), seed=st.integers(0, 10_000), rate=st.floats(0, 0.3))
def test_the_layout_classes_with_misread_characters_make_no_wrong_line(name, seed, rate):
    # the characters misread too (damage.REALISTIC): a line is taken only where its checksum verifies
    classes = dict.fromkeys(csdamage.MORE_LAYOUT_CLASSES, rate)
    wrong, _, _ = _read_back(_disk_listing(name), seed, classes, characters=1.0)
    assert wrong == []


def test_a_line_longer_than_a_typed_line_keeps_its_rows_and_checksum():
    # a line of graphics characters, each read as several marks (64'er 12/85 p. 106, Frogger's
    # lines 1-3): its own row however long, and the row right under it that ends it with its checksum
    long = 'PRINT"' + "AB" * 70
    rest = 'CD"'
    text = _listing(_row(4090), f"4100 {long}", f"{rest}  {_cs(4100, long + rest)}", _row(4110), *REST)
    results = read_listings(text, "t")
    assert [(r.number, r.status) for result in results for r in result.lines] == \
        [(4090, "verified"), (4100, "verified"), (4110, "verified"), (4120, "verified"), (4130, "verified")]


@pytest.mark.parametrize("lost", [None, 3, 6])
def test_a_checksum_column_with_rows_joined_and_a_checksum_lost_is_paired_by_its_checksums(lost):
    # 64'er 2/86 p. 75 (the MPS-801 routine): the lines, then their checksums in a column of their
    # own, OCR joining some rows ('<058> < 000 > <231>') and losing some: each checksum that verifies
    # a line and no other goes to it; a line whose checksum was lost is read without one
    lines = [(n * 10, f"PRINT {n}*{n + 1}:A{n}=1") for n in range(1, 9)]
    checks = [_cs(n, t) for k, (n, t) in enumerate(lines) if k != lost]
    column = checks[:3] + [" ".join(checks[3:6])] + checks[6:]
    text = _listing(*(f"{n} {t}" for n, t in lines), *column, "Listing 1. Ein Test")
    results = read_listings(text, "t")
    got = {r.number: r.status for result in results for r in result.lines}
    assert {n: s for n, s in got.items() if s != "verified"} == ({} if lost is None else {lines[lost][0]: "unchecked"})
    assert set(got) == {n for n, _ in lines} - ({lines[0][0]} if lost == 0 else set())
