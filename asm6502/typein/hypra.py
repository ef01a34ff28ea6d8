"""Hypra-Ass sources found in OCR text, read into the Profi-Ass form the assembler takes.

Hypra-Ass (64'er 7/85) keeps its source as BASIC lines: after each line number a minus sign, a
label right after it, an instruction after a blank, a pseudo-op (``.ba``, ``.eq``) right after it
or after a blank (``100 -.ba $c000``, ``110 -loop   lda #0``, ``120 -; comment``).  The 64'er
prints such sources in one or two columns; OCR gives each column's line number in a cell of its
own (``100<TAB>-.ba $c000<TAB>480<TAB>-error lda #5``), and reads the minus sign as a dash, a
tilde or a quote mark -- or loses it.

:func:`find` takes the numbered cells of the rows no other listing holds, a column at a time
(the first line of a row in one, the second in the other); a run of :data:`plain.MIN_LINES`
lines or more whose numbers rise is a Hypra-Ass source when most of them print the minus sign
and nearly all read as assembler statements.  The lines are then written in Profi-Ass's words
(:func:`profi_ass_line`: ``.ba`` -> ``*=``, ``.eq``/``.gl`` -> ``name = value``, ``.by`` ->
``.byt``, ``.wo`` -> ``.wor``, ``.tx`` -> ``.asc``) and assembled; no checksum checks them.
"""

from __future__ import annotations

import re

from asm6502.typein import plain

_DASHES = "-\u2013\u2014~\u201c\u201d\u201e\"'"  # what OCR makes of the minus sign after the number
_CELL_NUMBER = re.compile(r"^\s*(\d{1,5}|[\dlIO]{3,5})\s*$")  # (OCR reads 1 and 0 of a number as l, I, O: 'lOO')
_DIGITS = str.maketrans("lIO", "110")
_NUMBER_TEXT = re.compile(r"^\s*(\d{1,5})(?=\s*[" + _DASHES + r"])(.*)$")
MARKED_SHARE = 0.5  # lines that print the minus sign, of a Hypra-Ass source
_PSEUDO = {"ba": "*=", "by": ".byt", "wo": ".wor", "tx": ".asc", "en": ".end"}
_EQUATE = ("eq", "gl")
_IGNORED = ("li", "sy", "st", "ob", "co")  # listing, symbols, object file: no bytes of the program


def _row_lines(row: str) -> list[tuple[int, str]]:
    """The numbered lines of a row, in the order of its cells: a number in a cell of its own and
    the text of the cells after it, or a number and a dash in one cell."""
    out: list[tuple[int, list[str]]] = []
    closed = False  # an empty cell after a line's text: what follows it in the row is no part of it (a caption)
    for cell in row.split("\t"):
        m = _CELL_NUMBER.match(cell)
        if m is not None:
            out.append((int(m.group(1).translate(_DIGITS)), []))
            closed = False
            continue
        m = _NUMBER_TEXT.match(cell)
        if m is not None:
            out.append((int(m.group(1)), [m.group(2)]))
            closed = False
        elif out and not closed:
            if not cell.strip() and any(c.strip() for c in out[-1][1]):
                closed = True
            out[-1][1].append(cell)
    return [(n, " ".join(c.strip() for c in cells if c.strip())) for n, cells in out]


def marked(text: str) -> bool:
    """Whether a line's text starts with the minus sign Hypra-Ass puts after the number."""
    return bool(text) and text[0] in _DASHES


def _body(text: str) -> str:
    return text[1:] if marked(text) else text


def _shaped(line: plain.Line) -> bool:
    body = _body(line.text).strip()
    return not body or plain.asm_shaped(body) or bool(re.match(r"(?i)[a-z]\w*\s+\.[a-z]{2}\b", body))


def find(text: str, taken: set[int], filename: str = "<input>") -> list[plain.PlainListing]:
    """Every Hypra-Ass source in the rows of *text* not in *taken*."""
    out = []
    for run in plain.columns(text, taken, _row_lines):
        if len(run) < plain.MIN_LINES:
            continue
        if sum(marked(line.text) for line in run) >= MARKED_SHARE * len(run) and \
                sum(_shaped(line) for line in run) >= plain.GRAMMAR_SHARE * len(run):
            out.append(read(run, filename))
    return out


def profi_ass_line(text: str) -> str:
    """One Hypra-Ass line's text (after its number) in Profi-Ass's words."""
    body = _mnemonic_read(_body(text).strip())
    m = re.match(r"(?i)^(?:([a-z][\w]*)\s+)?\.([a-z]{2})\b\s*(.*)$", body)
    if m is None:
        return body
    label, op, rest = m.group(1), m.group(2).lower(), m.group(3)
    if op in _EQUATE:
        return rest
    if op in _IGNORED:
        return f";.{op} {rest}".rstrip()
    word = _PSEUDO.get(op, "." + op)
    return f"{label + ' ' if label else ''}{word} {rest}".rstrip()


_FIRST_WORDS = re.compile(r"^(\S+)(\s+\S+)?")


def _mnemonic_read(body: str) -> str:
    """The statement with a mnemonic OCR read with a capital I for its small l ('Ida' for 'lda'),
    as the first word or the one after a label, set right where only the small l makes one."""
    m = _FIRST_WORDS.match(body)
    if m is None:
        return body
    for g in (1, 2):
        word = (m.group(g) or "").strip()
        if len(word) == 3 and "I" in word and word.lower() not in plain.MNEMONICS and \
                word.replace("I", "l").lower() in plain.MNEMONICS:
            at = m.start(g) + m.group(g).index(word)
            return body[:at] + word.replace("I", "l") + body[at + 3:]
    return body


def read(run: list[plain.Line], filename: str) -> plain.PlainListing:
    """A Hypra-Ass listing of *run*: its lines in Profi-Ass's words, assembled."""
    lines = [plain.Line(line.number, profi_ass_line(line.text), line.row) for line in run]
    p = plain.assembled(lines, filename)
    return plain.PlainListing("hypra-ass", tuple(run), p.prg, p.bad, p.diagnostics, p.source)


__all__ = ["find", "marked", "profi_ass_line", "read"]
