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
from typing import NamedTuple

MAX_LINE_NUMBER = 63999  # the largest line number C64 BASIC accepts (LINGET, $A96B)


class Statement(NamedTuple):
    text: str  # without the comment, trailing blanks removed
    col: int  # 1-based column of text[0] in the source line
    comment: str = ""  # ';...' that followed, if any


class SourceLine(NamedTuple):
    file: str
    index: int  # 1-based physical line in the file
    number: int | None  # the BASIC line number
    number_col: int
    text: str  # the raw line
    statements: tuple[Statement, ...]
    has_code: bool  # False for empty and comment-only lines


class OpenFile(NamedTuple):
    """``OPEN lfn,dev,sa,"name"`` in the BASIC lines before the start line."""

    lfn: int
    device: int
    secondary: int | None
    name: str | None  # without a "@0:" / "0:" drive prefix and ",p,w" type suffixes


class Source(NamedTuple):
    lines: list[SourceLine]  # the assembler lines: from the start line on (all lines when there is none)
    problems: list[tuple[SourceLine, str, int]]  # (line, message, length) of bad line numbers
    opens: dict[int, OpenFile]  # by logical file number
    start_index: int  # index in ``lines`` of the first line after the start line (0: no start line)


def split_statements(text: str, start: int) -> list[Statement]:
    """Split ``text[start:]`` at ``:`` outside quotes; peel off ``;`` comments."""
    if '"' not in text:  # no quotes: every ':' separates (it also ends a comment)
        out = []
        pos = start
        for part in text[start:].split(":"):
            body, semi, comment = part.partition(";")
            stripped = body.strip()
            lead = len(body) - len(body.lstrip())
            out.append(Statement(stripped, pos + lead + 1, (semi + comment).rstrip()))
            pos += len(part) + 1
        return out
    statements: list[Statement] = []
    seg_start = start
    comment_at: int | None = None
    in_quote = False
    i = start
    n = len(text)
    while i <= n:
        ch = text[i] if i < n else ":"
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and ch == ";" and comment_at is None:
            comment_at = i
        elif (not in_quote or i == n) and ch == ":":
            body_end = comment_at if comment_at is not None else i
            body = text[seg_start:body_end]
            lead = len(body) - len(body.lstrip())
            comment = text[comment_at:i].rstrip() if comment_at is not None else ""
            statements.append(Statement(body.strip(), seg_start + lead + 1, comment))
            seg_start = i + 1
            comment_at = None
            in_quote = False
        i += 1
    return statements


# one line of a joined text: leading blanks, the line number's digits, blanks, the rest without its trailing blanks
# (BASIC skips blanks inside a line number: "100 1abc" is line 1001, "abc", LINGET $A96B)
LINE_PARTS = re.compile(r"^([ \t]*)((?:[0-9]+(?:[ \t]+(?=[0-9]))?)*)([ \t]*)(.*?)[ \t]*$", re.MULTILINE)
# the start line: "sys32768", "sys 32768", "sys 8*4096" (not a label such as 'system')
START_LINE = re.compile(r"sys(?![a-z.])", re.IGNORECASE)
_ANY_START = re.compile(r"sys(?![a-z.])", re.IGNORECASE)  # (a quick test before the line-by-line search)
_OPEN = re.compile(r'open\s*(\d+)\s*(?:,\s*(\d+)\s*(?:,\s*(\d+)\s*)?)?(?:,\s*"([^"]*)"?)?', re.IGNORECASE)


def read_lines(file: str, text: str) -> tuple[list[SourceLine], list[tuple[SourceLine, str, int]]]:
    """All lines of ``text`` (split like ``str.splitlines``), each with its BASIC line number and statements."""
    raw_lines = text.splitlines()
    parts = LINE_PARTS.findall("\n".join(raw_lines))
    lines: list[SourceLine] = []
    problems: list[tuple[SourceLine, str, int]] = []
    append = lines.append
    new = tuple.__new__  # (a named tuple's own __new__ is a Python function: too slow for every line)
    for index, raw, (lead, digits, blanks, body) in zip(range(1, len(raw_lines) + 1), raw_lines, parts):
        start = len(lead) + len(digits)
        if " " in digits or "\t" in digits:  # blanks inside the number: BASIC joins its digits
            digits = digits.replace(" ", "").replace("\t", "")
        number = (int(digits) if len(digits) <= 6 or len(digits.lstrip("0")) <= 6 else None) if digits else None
        if ":" in body or ";" in body or '"' in body:
            statements = tuple(split_statements(raw, start))
            has_code = any(s.text for s in statements)
        else:
            statements = (new(Statement, (body, start + len(blanks) + 1, "")),)
            has_code = bool(body)
        line = new(SourceLine, (file, index, number, len(lead) + 1, raw, statements, has_code))
        append(line)
        if digits and (number is None or number > MAX_LINE_NUMBER):
            shown = str(number) if number is not None else digits.lstrip("0")[:12] + "..."
            problems.append((line, f"line number {shown} is larger than {MAX_LINE_NUMBER}", len(digits)))
    return lines, problems


def file_name(c64_name: str) -> str:
    """A file name as the drive stores it: without "@0:"/"0:" and ",p,w"-style suffixes."""
    name = c64_name
    if ":" in name[:3]:
        name = name.split(":", 1)[1]
    return name.split(",", 1)[0]


def read_source(file: str, text: str) -> Source:
    """The source's lines, with the BASIC lines before the start line separated off."""
    lines, problems = read_lines(file, text)
    opens: dict[int, OpenFile] = {}
    if _ANY_START.search(text) is None:
        return Source(lines, problems, opens, 0)
    for i, line in enumerate(lines):
        if not line.has_code:
            continue
        if any(START_LINE.match(s.text) for s in line.statements):
            for before in lines[:i]:
                for s in before.statements:
                    m = _OPEN.match(s.text)
                    if m:
                        lfn, dev, sa, name = m.groups()
                        opens[int(lfn)] = OpenFile(int(lfn), int(dev or 1), int(sa) if sa else None, file_name(name) if name else None)
            return Source(lines, problems, opens, i)  # (the start line itself runs: statements may follow 'sys' after ':')
    return Source(lines, problems, opens, 0)
