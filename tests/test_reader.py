"""Reading source lines: the number, its column and the statement's column as BASIC reads them.

``read_lines`` reads the commonest line ('100 lda #1') without its pattern; every line must come
out as the pattern ``LINE_PARTS`` alone reads it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.asm.lines import PlainLine
from asm6502.asm.reader import LINE_PARTS, MAX_LINE_NUMBER, read_lines, read_source, split_statements


def _by_pattern(raw: str):
    """(number, number column, statements, its number is bad) of one line as LINE_PARTS reads it."""
    lead, digits, blanks, body = LINE_PARTS.match(raw).groups()
    joined = digits.replace(" ", "").replace("\t", "")
    number = int(joined) if joined and len(joined.lstrip("0")) <= 6 else None
    body = body.rstrip(" \t")
    col = len(lead) + len(digits) + len(blanks) + 1
    if ":" in body or ";" in body or '"' in body:
        statements = [(s.text, s.col, s.comment) for s in split_statements(raw, len(lead) + len(digits))]
    else:
        statements = [(body, col, "")]
    return number, len(lead) + 1, statements, bool(digits) and (number is None or number > MAX_LINE_NUMBER)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=[" ", "\t", "0", "1", "9", "a", "b", ":", ";", '"', "\f", "\xa0", "\u00b2", "\u0663"], max_size=10))
def test_every_line_reads_as_its_pattern_reads_it(raw):
    (line,), problems = read_lines("t.asm", raw + "\n")
    number, number_col, statements, bad_number = _by_pattern(raw)
    assert line.number == number
    assert line.number_col == number_col
    assert [(s.text, s.col, s.comment) for s in line.statements] == statements
    assert bool(problems) == bad_number
    assert line.line_text == raw  # (the commonest line keeps no copy of its text: PlainLine.line_text makes it again)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=[" ", "\t", "0", "1", "a", ":", ";", '"', "\f"], min_size=1, max_size=8))
def test_a_line_read_again_reads_as_the_first_time(raw):
    """(Lines without a number that were read before share their strings: reader.read_lines.  Empty
    lines are one shared line object, and so are lines of only blanks (no code, no comment): the
    first one's, as empty lines are.)"""
    lines, problems = read_lines("t.asm", f"{raw}\n 1 nop\n{raw}\n{raw}\n")
    first, _, again, third = lines
    shared = again is first
    assert shared == (first.number is None and not first.has_code and not any(s.comment for s in first.statements)
                      and type(first) is not str and lines.texts[0] is first)
    for line in (again, third):
        assert (line.number, line.number_col, line.line_text, line.has_code) == (first.number, first.number_col, first.line_text, first.has_code)
        assert [(s.text, s.col, s.comment) for s in line.statements] == [(s.text, s.col, s.comment) for s in first.statements]
        if not shared:
            assert not any(s is f for s, f in zip(line.statements, first.statements))  # (listing rows and convert key on them)
    assert [line.index for line in lines] == ([1, 2, 1, 1] if shared else [1, 2, 3, 4])
    assert [p[0].index for p in problems] in ([], [1, 3, 4])  # (a bad line number is reported on every line)


def test_the_commonest_lines():
    lines, problems = read_lines("t.asm", "100 lda #1\n110  nop\n120 1rts\n   130 rts\n64000 nop\n")
    assert [(ln.number, ln.number_col, ln.statements[0].text, ln.statements[0].col) for ln in lines] == [
        (100, 1, "lda #1", 5), (110, 1, "nop", 6), (1201, 1, "rts", 6), (130, 4, "rts", 8), (64000, 1, "nop", 7)]
    assert [(p[0].index, p[1]) for p in problems] == [(5, "line number 64000 is larger than 63999")]


def test_a_line_without_its_copy_is_its_text_again():
    """'100 lda #1' keeps no copy of the raw line (66 bytes a line less); its text is made again, leading zeros too."""
    raws = ["100 lda #1", "0100 lda #2", "00 nop", "7 x", "100 lda #1 ", "99999 nop", " 5 a", "10 a:b", "10 a ;c", "100\tnop"]
    lines, _ = read_lines("t.asm", "\n".join(raws) + "\n")
    assert [line.line_text for line in lines] == raws
    assert [type(line) is PlainLine for line in lines] == [True, True, True, True, False, True, False, False, False, False]
    plain = lines[0]  # (one object is the line and its one statement)
    assert plain.statements == (plain,) and (plain.text, plain.col, plain.comment, plain.has_code) == ("lda #1", 5, "", True)


@pytest.mark.parametrize("raw, columns", [
    ("100 sta x ; time", True), ("100 ;", True), ("100 ; routine 0, level press", True), ("100 lda #1  ", True),
    ("100 lda #1 ;x  ", True), ("100 nop\t;x\t", True), ("0100 ;x", True), ("100 ;x ;y", True), ("100 lda;x", True),
    (" ; plain text", True), ("\tlda #1 ; c", True), ("10  nop ;c", True), ("1 2 nop ; c", True), ("  ;", True),
    ("100 lda #1\x0b ;x", True), ("100 ;" + "x" * 200, True), ("99999 nop ;x", True), ("100 nop ;\xe4", True),
    ("100 \x0b;x", False), (" " * 130 + "nop ;x", False), ("100 nop:;x", False), ('100 "a;b"', False), ("150", False),
    ('100 .asc "a"', True), (' .asc "a b"', True), ('100 cmp #"0"  ', True), ('100 .asc "a" ;x', False), ('100 .asc "a"\x0b', False),
    ('100 .asc "a:b"', False), ('100 .asc "a', True),
])
def test_a_line_with_a_comment_is_columns_too(raw, columns):
    """A line of one statement (or none) and a comment or trailing blanks, as real sources have them ('100 sta x ; time',
    '100 ; routine 0'), is no object: its text, column and tail in lines.Lines' columns; ``lines[i]`` makes it again
    with the statements, comment and raw line that splitting the line gives (split_statements)."""
    lines, _ = read_lines("t.asm", raw + "\n" + raw + "\n")
    lead, digits, _, _ = LINE_PARTS.match(raw).groups()
    expected = [(s.text, s.col, s.comment) for s in split_statements(raw, len(lead) + len(digits))]
    for line in lines:
        assert line.line_text == raw
        assert [(s.text, s.col, s.comment) for s in line.statements] == expected
        assert line.has_code == any(text for text, _, _ in expected)
        assert line.number_col == len(lead) + 1
    assert [type(item) is str for item in lines.texts] == [columns, columns]


def test_lines_are_columns_and_their_objects_are_made_on_demand():
    """A line of one statement is no object: its text (shared by equal statements), its number and its
    column in lines.Lines' columns (a comment too: test_a_line_with_a_comment_is_columns_too); a line of
    several statements, or with nothing after its number, is kept as its SourceLine.  ``lines[i]`` makes
    the line again, as the reader read it."""
    raws = ["100 lda #1", "110 lda #1", " nop", "120  rts ", "130 a:b", "140 ;c", "", "", " nop", "150"]
    lines, _ = read_lines("t.asm", "\n".join(raws) + "\n")
    assert [type(text).__name__ for text in lines.texts] == [
        "str", "str", "str", "str", "SourceLine", "str", "SourceLine", "SourceLine", "str", "SourceLine"]
    assert lines.texts[0] is lines.texts[1]  # (one string per distinct statement text)
    assert lines.texts[6] is lines.texts[7]  # (every empty line is one object)
    assert [line.line_text for line in lines] == raws
    assert [line.index for line in lines[:6]] == [1, 2, 3, 4, 5, 6]
    assert [(line.number, line.number_col, line.text, line.col) for line in lines[:4]] == [
        (100, 1, "lda #1", 5), (110, 1, "lda #1", 5), (None, 2, "nop", 2), (120, 1, "rts", 6)]
    assert [type(line).__name__ for line in lines[:4]] == ["PlainLine", "PlainLine", "SimpleLine", "SimpleLine"]
    assert lines[-2].line_text == " nop" and lines[-2].index == 9



@pytest.mark.parametrize("at", [0, (1 << 16) - 2, (1 << 16) - 1, 1 << 16, 150_000])
def test_the_start_line_is_found_anywhere_in_a_long_source(at):
    """The quick test for 'sys' looks a block at a time (reader._has_sys): a 'SYS' across two blocks counts."""
    head = "" if at == 0 else "1 ;" + "x" * (at - 8) + "\n110 "  # (a comment line, then the start line's number)
    text = head + "SYS32768\n120 lda #1\n"
    assert text.index("SYS") == at
    source = read_source("t.asm", text)
    assert source.lines[source.start_index].text == "SYS32768"
