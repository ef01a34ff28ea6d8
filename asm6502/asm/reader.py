"""Reading a Profi-Ass source: a BASIC program of numbered lines.

On the C64 a Profi-Ass source is a BASIC program: every line starts with a
line number (0-63999), ``:`` separates statements, ``;`` starts a comment and
(a quirk of the original) a ``:`` outside double quotes ends the comment, so
``lda #1 ; one : sta 2`` holds two statements.  Lines without a number are
accepted too (a plain text file).

The lines before the one holding ``SYS 32768`` (the assembler's start line) are
BASIC that the C64 runs first: they are skipped, but their ``OPEN lfn,dev,sa,
"name"`` statements are read, because ``.opt o#`` / ``.opt p#`` write the
object code and the listing into the file opened as ``lfn`` (manual p. 17).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from itertools import chain

from asm6502.asm.lines import MAX_COL, NO_NUMBER, TAILED, Line, Lines, SimpleLine, SourceLine, Statement
from asm6502.diagnostics import Kept
from asm6502.patterns import LazyPattern
from asm6502.tuples import SlotRecord

MAX_LINE_NUMBER = 63999  # the largest line number C64 BASIC accepts (LINGET, $A96B)


class OpenFile(SlotRecord):
    """``OPEN lfn,dev,sa,"name"`` in the BASIC lines before the start line."""

    __slots__ = ("lfn", "device", "secondary", "name")

    def __init__(self, lfn: int, device: int, secondary: int | None, name: str | None) -> None:
        self.lfn = lfn
        self.device = device
        self.secondary = secondary
        self.name = name  # without a "@0:" / "0:" drive prefix and ",p,w" type suffixes


class Source(SlotRecord):
    __slots__ = ("lines", "problems", "opens", "start_index")

    def __init__(self, lines: Lines, problems: list[tuple[Line, str, int]], opens: dict[int, OpenFile],
                 start_index: int) -> None:  # fmt: skip
        self.lines = lines  # the assembler lines: from the start line on (all lines when there is none)
        self.problems = problems  # (line, message, length) of bad line numbers
        self.opens = opens  # by logical file number
        self.start_index = start_index  # index in ``lines`` of the first line after the start line (0: no start line)


_statement = Statement


def split_statements(text: str, start: int) -> list[Statement]:
    """Split ``text[start:]`` at ``:`` outside quotes; peel off ``;`` comments."""
    if '"' not in text and ":" not in text:  # one statement (and perhaps a comment)
        body, semi, comment = text[start:].partition(";")
        lead = len(body) - len(body.lstrip())
        return [_statement(body.strip(), start + lead + 1, (semi + comment).rstrip())]
    if '"' not in text and ";" not in text:  # statements joined by ':', no comment
        out = []
        pos = start
        for part in text[start:].split(":"):
            stripped = part.strip()
            out.append(_statement(stripped, pos + len(part) - len(part.lstrip()) + 1, ""))
            pos += len(part) + 1
        return out
    if '"' not in text:  # no quotes: every ':' separates (it also ends a comment)
        out = []
        pos = start
        for part in text[start:].split(":"):
            body, semi, comment = part.partition(";")
            stripped = body.strip()
            lead = len(body) - len(body.lstrip())
            out.append(_statement(stripped, pos + lead + 1, (semi + comment).rstrip()))
            pos += len(part) + 1
        return out
    out = []  # quotes: a ':' or ';' inside "..." (or after an unclosed '"') is text, also in a comment
    pos = start
    n = len(text)
    while True:
        m = _SEGMENT.match(text, pos)
        body, comment = m.groups()
        lead = len(body) - len(body.lstrip())
        out.append(_statement(body.strip(), pos + lead + 1, comment.rstrip()))
        pos = m.end() + 1  # (after the ':' that ends the statement)
        if pos > n:
            return out


# one statement: its text up to a ';' outside quotes, then the comment; both end at a ':' outside quotes
# (runs that give nothing back: no anchor follows, so the longest reading is the one taken either way)
_SEGMENT = re.compile(r'((?:[^:;"]++|"[^"]*+"?)*+)((?:;(?:[^:"]++|"[^"]*+"?)*+)?)')


# one line: leading blanks, the line number's digits, blanks, the rest (its trailing blanks are
# stripped after: a lazy group before '[ \t]*$' makes the scan twice as slow).  The digits are a digit, then digits
# and blanks up to the last digit: one run, not a repeated group; the other runs give nothing back (a fifth
# cheaper).  (BASIC skips blanks inside a line number: "100 1abc" is line 1001, "abc", LINGET $A96B)
LINE_PARTS = re.compile(r"^([ \t]*+)([0-9](?:[0-9 \t]*[0-9])?|)([ \t]*+)(.*+)$")
_NOT_AFTER_ONE_BLANK = " \t0123456789"  # (or nothing: '"" in' is true) -- a line '100 x' whose x is none of these has its
# statements after the one blank (more blanks, or a digit, which BASIC would join to the number: LINE_PARTS reads it)


class _StartLine:
    """The start line: "sys32768", "sys 32768", "sys 8*4096" (not a label such as 'system').  ``match(text)``
    is true where ``re.match(r"sys(?![a-z.])", text, re.IGNORECASE)`` is: the letters in any case as that pattern
    takes them (also U+017F long s for s; after them no letter, also U+0130, U+0131, U+017F, U+212A, nor '.'),
    without compiling it (a pattern that ignores case: about 1 M instructions of every assembly's start-up;
    tests/test_reader_start_line.py holds the two to the same answers for every character)."""

    __slots__ = ()

    def match(self, text: str) -> bool:
        return (len(text) >= 3 and text[0] in _S and text[1] in _Y and text[2] in _S
                and text[3:4] not in _AFTER)


_S = frozenset("sS\u017f")
_Y = frozenset("yY")
_AFTER = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.\u0130\u0131\u017f\u212a")  # (no '': the text may end)
START_LINE = _StartLine()
_OPEN = LazyPattern(r'open\s*(\d+)\s*(?:,\s*(\d+)\s*(?:,\s*(\d+)\s*)?)?(?:,\s*"([^"]*)"?)?', re.IGNORECASE)


_LINE_BREAK = LazyPattern(r"\r\n|\r|\n")


_BLOCK = 1 << 16  # characters split at a time: no list of every line's text beside the lines themselves (a text
# of short lines split whole takes many times its own size in strings)


def _raw_lines(text: str):
    """The lines of *text* (without their breaks), split a block at a time; the lines of the blocks are
    handed on by ``chain`` (C: a generator resumed for every line would cost time on every line, one resumed a
    block costs nothing)."""
    if "\r" in text:
        raw = _LINE_BREAK.split(text)
        if raw[-1] == "":
            raw.pop()
        return raw
    return chain.from_iterable(_blocks(text))


def _blocks(text: str):
    """The lines of a text without CR, a list a block."""
    pos, n = 0, len(text)
    while pos < n:
        end = text.find("\n", pos + _BLOCK)
        if end < 0:
            end = n
        parts = text[pos:end].split("\n")  # (the same lines as one split, a quarter of the time of a regex)
        if end == n and parts[-1] == "":
            parts.pop()
        yield parts
        pos = end + 1


def read_lines(file: str, pieces: str | Iterable[str], room: Kept | None = None) -> tuple[Lines, list[tuple[Line, str, int]]]:
    """All lines of a text (or of its pieces, each ending where a line ends: a file read a piece at a
    time), each with its BASIC line number and statements (as the columns of :class:`Lines`).

    Lines end at LF, CR LF or CR only: a form feed or a NEL ($85) inside a line is a
    character of that line (``str.splitlines`` would break there and shift every later
    line's position).  *room*: the run's room for diagnostics (a bad line number beyond it is only
    counted there).
    """
    if room is None:
        room = Kept()
    raw_lines = _raw_lines(pieces) if isinstance(pieces, str) else chain.from_iterable(map(_raw_lines, pieces))
    lines = Lines(file)
    texts = lines.texts
    append = texts.append  # a one-statement line's text, else the line's object
    add_number = lines.numbers.append
    add_col = lines.cols.append
    raws = lines.raws  # (a SimpleLine's raw line at its position; shorter than texts: PlainLines after the last)
    add_tail = lines.tails.append
    add_tail_at = lines.tail_at.append
    problems: list = []  # (index, number as shown, length)
    statement = _statement
    make_line = SourceLine
    parts = LINE_PARTS.match
    blank = None  # every empty line is this one object (its index: the first empty line's): memory stays
    # near the text's own size however many empty lines a file has (an object each would take hundreds of times more)
    unnumbered: dict[str, int] = {}  # a line without a number -> the index of its first reading
    shared: dict[str, str] = {}
    share = shared.setdefault  # a one-statement line's statement text -> its first string: lines of the same statement
    # share one (most programs repeat statements; the decoder's tables hold that string already)
    for index, raw in enumerate(raw_lines, 1):
        if not raw:
            if blank is None:
                blank = make_line(file, index, None, 1, raw, (statement("", 1, ""),), False)
            append(blank)
            add_number(NO_NUMBER)
            add_col(0)
            continue
        digits, blank_after, body = raw.partition(" ")
        if len(digits) < 6 and digits.isdigit() and digits.isascii() and (body[:1] not in _NOT_AFTER_ONE_BLANK or blank_after and not body):
            # the commonest line, '100 lda #1': its number, one blank, its statements (LINE_PARTS reads it so too)
            number = int(digits)
            if number > MAX_LINE_NUMBER:
                if room.has_room(True):
                    problems.append((index, str(number), len(digits)))
            start = len(digits)
            col = start + 2
            number_col = 1
            kept = body
        else:
            first = unnumbered.get(raw)
            if first is not None:  # (read before: the same strings, statement objects of its own: less memory
                # for a text of many equal lines)
                was = texts[first - 1]
                if type(was) is str:
                    raws += [None] * (index - 1 - len(raws))
                    raws.append(raws[first - 1])
                    append(was)
                    add_number(NO_NUMBER)
                    add_col(lines.cols[first - 1])
                    if lines.cols[first - 1] & TAILED:
                        add_tail_at(index - 1)
                        add_tail(lines.tails[bisect_left(lines.tail_at, first - 1)])
                    continue
                if not was.has_code and not any(s.comment for s in was.statements):
                    append(was)  # (a line of only blanks: one object for all of them, as for empty lines -- 20 MB
                    add_number(NO_NUMBER)  # of ' ' lines took 2.5 GB, 117 bytes per byte of input)
                    add_col(0)
                    continue
                statements = tuple([statement(s.text, s.col, s.comment) for s in was.statements])
                append(make_line(file, index, None, was.number_col, was.line_text, statements, was.has_code))
                add_number(NO_NUMBER)
                add_col(0)
                continue
            lead, digits, blanks, body = parts(raw).groups()
            start = len(lead) + len(digits)
            col = start + len(blanks) + 1
            number_col = len(lead) + 1
            kept = None
            if digits:
                if " " in digits or "\t" in digits:  # blanks inside the number: BASIC joins its digits
                    digits = digits.replace(" ", "").replace("\t", "")
                number = int(digits) if len(digits) <= 6 or len(digits.lstrip("0")) <= 6 else None
                if (number is None or number > MAX_LINE_NUMBER) and room.has_room(True):
                    problems.append((index, str(number) if number is not None else digits.lstrip("0")[:12] + "...", len(digits)))
            else:
                number = None
                unnumbered[raw] = index
        body = body.rstrip(" \t")
        if ":" in body or '"' in body and (";" in body or body[:1].isspace() or body[-1:].isspace()):
            # (quotes without ':' or ';': one statement, read as any; split_statements would strip white space that is not a blank)
            statements = tuple(split_statements(raw, start))
            has_code = statements[0].text != "" if len(statements) == 1 else any(s.text for s in statements)
        elif ";" not in body:  # one statement
            if body is kept:  # (rstrip gave back the same string: no trailing blanks, the line is its number, ' ', body)
                if not body:  # ('100 ': the number alone, a line without code as a line of only a comment is: its
                    add_tail_at(index - 1)  # empty text and empty tail; a SourceLine took 330 bytes such a line)
                    add_tail("")
                    append("")
                    add_number(number)
                    add_col(col | TAILED)
                    continue
                # (the commonest line: its text, number and column; no object)
                append(share(body, body))
                add_number(number)
                add_col(col)
                continue
            if body:
                if kept is not None:  # ('100 lda #1  ': the number's line with trailing blanks, its tail)
                    tail = kept[len(body):]
                    add_tail_at(index - 1)
                    add_tail(share(tail, tail))
                    append(share(body, body))
                    add_number(number)
                    add_col(col | TAILED)
                    continue
                if col <= MAX_COL:  # (its number's column: Lines.line reads it from the raw line, after its leading blanks)
                    raws += [None] * (index - 1 - len(raws))
                    raws.append(raw)
                    append(share(body, body))
                    add_number(NO_NUMBER if number is None else number)
                    add_col(col)
                else:
                    append(SimpleLine(file, index, number, number_col, raw, share(body, body), col))
                    add_number(NO_NUMBER if number is None else number)
                    add_col(0)
                continue
            statements = (statement(body, col, ""),)  # (nothing after the number)
            has_code = False
        else:  # one statement and a comment (split_statements' first case, on the line's own parts)
            text, _, comment = body.partition(";")
            if text[:1].isspace():  # (white space but blanks before it: split_statements counts it)
                statements = tuple(split_statements(raw, start))
            elif col <= MAX_COL:  # (no object: its text, and its tail in the sparse column -- Lines)
                text = text.rstrip()
                if kept is not None:  # ('100 sta x ; time': its line made again from its number, text and tail)
                    tail = kept[len(text):]
                else:  # (its raw line kept: the tail is the comment)
                    raws += [None] * (index - 1 - len(raws))
                    raws.append(raw)
                    tail = (";" + comment).rstrip()
                add_tail_at(index - 1)
                add_tail(share(tail, tail))  # (comments recur: ';', '; time')
                append(share(text, text))
                add_number(NO_NUMBER if number is None else number)
                add_col(col | TAILED)
                continue
            else:
                statements = (statement(text.rstrip(), col, (";" + comment).rstrip()),)
            has_code = statements[0].text != ""
        append(make_line(file, index, number, number_col, raw, statements, has_code))
        add_number(NO_NUMBER if number is None else number)
        add_col(0)
    problems = [(lines.line(index - 1), f"line number {shown} is larger than {MAX_LINE_NUMBER}", length) for index, shown, length in problems]
    return lines, problems


def file_name(c64_name: str) -> str:
    """A file name as the drive stores it: without "@0:"/"0:" and ",p,w"-style suffixes."""
    name = c64_name
    if ":" in name[:3]:
        name = name.split(":", 1)[1]
    return name.split(",", 1)[0]


def _has_sys(text: str) -> bool:
    """"sys" in *text* in any case (START_LINE ignores case as casefold does), a block at a time: no folded
    copy of the whole text (it would raise the reading's peak; blocks overlap by two characters)."""
    return any("sys" in text[pos : pos + _BLOCK + 2].casefold() for pos in range(0, len(text), _BLOCK))


def read_source(file: str, text: str | Iterable[str], room: Kept | None = None) -> Source:
    """The source's lines, with the BASIC lines before the start line separated off.  *text*: the
    text, or its pieces, each ending where a line ends (taken one at a time, let go once read)."""
    found: list[bool] = []  # (a piece with 'sys': a quick test first)

    def watched(pieces):
        for piece in pieces:
            if not found and _has_sys(piece):
                found.append(True)
            yield piece

    lines, problems = read_lines(file, watched((text,) if isinstance(text, str) else text), room)
    opens: dict[int, OpenFile] = {}
    if not found:
        return Source(lines, problems, opens, 0)
    for i, item in enumerate(lines.texts):
        if type(item) is str:  # (a line of one statement: its text)
            if not START_LINE.match(item):
                continue
        elif not item.has_code or not any(START_LINE.match(s.text) for s in item.statements):
            continue
        for before in lines[:i]:
            for s in before.statements:
                m = _OPEN.match(s.text)
                if m:
                    lfn, dev, sa, name = m.groups()
                    opens[int(lfn)] = OpenFile(int(lfn), int(dev or 1), int(sa) if sa else None, file_name(name) if name else None)
        return Source(lines, problems, opens, i)  # (the start line itself runs: statements may follow 'sys' after ':')
    return Source(lines, problems, opens, 0)
