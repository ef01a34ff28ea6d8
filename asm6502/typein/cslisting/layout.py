"""Checksummer listing lines found in typed or OCR'd text.

A 64'er BASIC listing prints every line followed by its Checksummer value ``<NNN>``.
Typed, a listing is one line per row.  OCR of a magazine page is not: the page has two
listing columns, and the OCR text gives each physical row as tab-separated cells, the left
column's cells first (line number, text, checksum), then the right column's (number and
text in one cell, checksum)::

    100<TAB>REM ** FLOPPY **<TAB><233><TAB>580 PRINT"BITTE KORREKT FORMATIERTE D
    120<TAB>PRINT"{CLR}":POKE 53280,1<TAB><TAB>ISKETTE"<TAB><246>
    <TAB>2:POKE 53281,0<TAB><166><TAB>600 PRINT"EINLEGEN
    (64'er 10/85 p. 32, the test-data collection basic_read)

An empty cell is the empty slot of a column (no number: the row goes on with the line
above; no checksum: the line goes on in the next row).  A printed line longer than the
print width goes on in the next row without a number; its checksum comes at its end (a row that
goes on with digits, '63' or '99 THEN 5042', is the line's where they would be a line number that
does not rise between its neighbours: :func:`_join_continuations`).
Captions (``Listing 1. ...``), the ``(c) 64'er`` stamp, page headers and article text
are rows or cells that belong to no line; they are counted as ``prose`` and never read as
BASIC (not kept: a page of 8 million rows of article text would hold gigabytes).  Text without a
number right under a line that ended with its checksum is a line whose number OCR lost when its
own checksum follows within two rows (a :class:`Record` marked ``lost``; the reader places it by
its neighbours and its checksum), else prose; lines run together into one row are each at most
a line long, their checksums between them.  This module only finds the pieces; :mod:`asm6502.typein.cslisting.read` checks them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, pairwise

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.columns import set_columns_back
from asm6502.typein.cslisting.text import checksum_of, without_print_blanks

# OCR's readings of the digits of a printed checksum or line number
DIGIT_LOOKALIKES = {"O": "0", "o": "0", "Q": "0", "D": "0", "I": "1", "l": "1", "|": "1", "!": "1",
                    "S": "5", "s": "5", "B": "8", "Z": "2", "z": "2", "G": "6"}
_DIGIT = "0-9" + "".join(re.escape(c) for c in DIGIT_LOOKALIKES)
# a line number's 1 read as a letter, even first (9/85 p. 73: 'i0i0 DATA' is line 1010)
NUMBER_LOOKALIKES = {**DIGIT_LOOKALIKES, "i": "1"}
_ONE_FIRST = r"[iIl|][0-9][0-9iIl|]{1,3}(?=\s)"
# a speck OCR saw touching a checksum field's bracket (9/85 p. 73 line 100: '6<TAB>.<172>')
_SPECK = "[.,'`\u2019]?"
_OPEN = r"[<({\[«]"
_CLOSE = r"[>)}\]»]"
# <233>, < 104 >, <O67> (a letter for a digit), 078> or <078 (one bracket lost)
_CHECKSUM = rf"(?:{_OPEN}\s*(?P<a>[{_DIGIT}](?:\s?[{_DIGIT}]){{2}})\s*{_CLOSE}|{_OPEN}\s*(?P<b>[0-9]{{3}})|(?P<c>[0-9]{{3}})\s*{_CLOSE})"
# (a cell of its own: a speck may stand after it too, or be its '>' read as '.': '<184.')
# (or its closing bracket read as marks: '<079?^', '<098?>', '<184:>', 64'er 2/86 p. 102)
_CLOSE_MISREAD = rf"[?^*:;]{{1,2}}{_CLOSE}?"
CHECKSUM_CELL = re.compile(rf"^\s*{_SPECK}{_CHECKSUM}(?:[.,]|{_CLOSE_MISREAD})?\s*$")
CHECKSUM_AT_END = re.compile(rf"(?:^|\s){_SPECK}{_CHECKSUM}\s*$")
CHECKSUM_INSIDE = re.compile(rf"(?<=\s)[<({{\[«]\s*(?P<a>[{_DIGIT}](?:\s?[{_DIGIT}]){{2}})\s*[>)}}\]»](?=\s)")
NUMBER_CELL = re.compile(rf"^\s*(?P<n>[0-9](?:[{_DIGIT}]){{0,4}})\s*$")
# "400-REM": the blank after the number read as a dash
NUMBERED = re.compile(rf"^\s*(?P<n>[0-9][{_DIGIT}]{{0,4}}|{_ONE_FIRST})(?:\s+|-(?=[A-Za-z])|(?=[A-Za-z?]))(?P<rest>\S.*)$")
MAX_LINE_TEXT = 120  # a typed line is at most 80 characters; print adds blanks after keywords
MAX_RUN_TEXT = 8 * MAX_LINE_TEXT  # lines run together into one line's text, their numbers lost
MAX_OWN_TEXT = 3 * MAX_LINE_TEXT  # a row's own text as OCR reads it: a line of graphics characters, each several marks


@dataclass(frozen=True)
class Piece:
    """Text of one cell or row, with where it stands in the input (1-based line and column)."""

    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Spare:
    """A checksum that stood before a line's own one at the line's end: its text, where it stands."""

    match: re.Match
    line: int
    col: int


@dataclass
class Record:
    """One listing line as found: its number, its text in pieces, its printed checksum."""

    number: int
    number_text: str
    line: int
    col: int
    pieces: list[Piece] = field(default_factory=list)
    checksum: int | None = None
    checksum_text: str = ""
    checksum_line: int = 0
    checksum_col: int = 0
    column: int = 0
    block: int = 0
    order: int = 0
    lost: bool = False  # its number OCR lost (*number* is the line's before it): placed by the reader
    spare: Spare | None = None  # a checksum printed before its own one: a neighbour's (_share_checksums)
    spare_left: Spare | None = None  # such a checksum no neighbour took, left at the text's end (spares.py)

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.pieces)


@dataclass(frozen=True)
class Checksum:
    value: int
    text: str  # as printed
    misread: bool  # letters were read as digits (<O67>)


def read_checksum(match: re.Match) -> Checksum:
    raw = match.group("a") or match.group("b") or match.group("c")
    digits = "".join(DIGIT_LOOKALIKES.get(c, c) for c in raw if not c.isspace())
    return Checksum(int(digits) & 0xFF if int(digits) < 256 else int(digits), match.group(0).strip().lstrip(".,'`\u2019"),
                    any(c in DIGIT_LOOKALIKES for c in raw))


# a checksum field OCR damaged past reading: each character stands for these digits
_FIELD_DIGITS = {**DIGIT_LOOKALIKES, "Q": "08", "j": "1", "i": "1"}
_FIELD_OPEN = "<({[\u00ab-"
_FIELD_CLOSE = ">}]\u00bb"
MAX_FIELD_VALUES = 10  # a field with one digit unreadable; more is no check


@dataclass(frozen=True)
class DamagedField:
    head: str  # the line's text before the field
    text: str  # the field as printed
    values: tuple[int, ...]  # the checksums it can be


def damaged_checksum(text: str) -> DamagedField | None:
    """A checksum field at the end of *text* that OCR damaged so it does not read as ``<NNN>``:
    the opening bracket read as '-', a digit as a symbol or a letter (64'er 10/85 p. 131:
    '-^38>' for <238>, '<j Q9 >' for <189>; p. 56: '<l*7>' for <187>).  Its values: every
    byte whose three digits agree with what can be read (at most one digit unreadable)."""
    body = text.rstrip()
    if not body or body[-1] not in _FIELD_CLOSE:
        return None
    for k in range(len(body) - 2, max(-1, len(body) - 10), -1):
        if body[k] in _FIELD_OPEN:
            break
    else:
        return None
    inner = body[k + 1 : -1].replace(" ", "")
    if not 1 <= len(inner) <= 3 or '"' in inner or not any(c.isdigit() or c in DIGIT_LOOKALIKES for c in inner):
        return None
    sets = ["0123456789"] * (3 - len(inner)) + [c if c.isdigit() else _FIELD_DIGITS.get(c, "0123456789") for c in inner]
    values = tuple(sorted({v for a in sets[0] for b in sets[1] for c in sets[2] if (v := int(a + b + c)) <= 255}))
    if not values or len(values) > MAX_FIELD_VALUES:
        return None
    return DamagedField(body[:k].rstrip(), body[k:].strip(), values)


# digits OCR reads as one another in a line number (10/85 p. 131: '350' for 550)
NUMBER_DIGIT_CONFUSIONS = {"3": "58", "5": "36", "6": "58", "8": "3609", "0": "896", "9": "80", "1": "7", "7": "1"}


def number_readings(text: str) -> list[int]:
    """The line numbers *text* can be with one digit misread."""
    digits = "".join(NUMBER_LOOKALIKES.get(c, c) for c in text)
    return [int(digits[:k] + d + digits[k + 1 :]) for k, c in enumerate(digits)
            for d in NUMBER_DIGIT_CONFUSIONS.get(c, "")]


def read_number(text: str) -> int:
    return int("".join(NUMBER_LOOKALIKES.get(c, c) for c in text))


def _cells(raw: str) -> list[tuple[str, int]]:
    out, pos = [], 1
    for part in raw.split("\t"):
        out.append((part, pos))
        pos += len(part) + 1
    return out


@dataclass
class _Segment:
    """One column's part of a row."""

    column: int
    number: tuple[str, int] | None = None  # number cell (left column) or inline number
    texts: list[tuple[str, int]] = field(default_factory=list)
    checksum: tuple[re.Match, int] | None = None
    spare: tuple[re.Match, int] | None = None  # a checksum before the segment's own one ('A <123> <045>')


def _segments(raw: str) -> list[_Segment]:
    """A row split into its columns by the slot rule (see the module docstring)."""
    cells = _cells(raw)
    if len(cells) == 1:
        only = _Segment(0)
        _text_cell(only, *cells[0])
        return [only]
    segs: list[_Segment] = []
    seg: _Segment | None = _Segment(0)
    slot = 0  # left column: 0 = number slot, 1 = text slot, 2 = more text / checksum / end
    for k, (text, col) in enumerate(cells):
        if seg is None:
            seg = _Segment(len(segs))
            slot = 1
        assert seg is not None
        two = _two_checksums(text)
        if two is not None:  # '10 A<TAB><TAB><194> <144>': a cell of two checksums, one a neighbour's
            (first, first_at), (own, own_at) = two
            seg.spare, seg.checksum = (first, col + first_at), (own, col + own_at)
            segs.append(seg)
            seg = None
            continue
        m = CHECKSUM_CELL.match(text)
        if m and not m.group("a") and _full_checksum_next(cells, k):
            # '152)<TAB><118>': digits that end a line broken over rows, its checksum after them
            seg.texts.append((text, col))
            slot = 2
            continue
        if m:
            if seg.checksum is not None and seg.checksum[0].group("a") and m.group("a"):
                # 'A <123><TAB><045>': two checksums, one a neighbour's
                seg.spare = seg.checksum
            seg.checksum = (m, col + m.start())
            segs.append(seg)
            seg = None
            continue
        if not text.strip():
            rest = [t for t, _ in cells[k + 1 :] if t.strip()]
            if slot >= 2 and len(rest) == 1 and (CHECKSUM_CELL.match(rest[0]) or _two_checksums(rest[0])) and (
                    seg.number or seg.texts):
                continue  # "900<TAB>REM X<TAB><TAB><007>": a wide gap before the line's own checksum
            if slot >= 2:
                segs.append(seg)
                seg = None
            else:
                slot += 1  # the empty number or text slot
            continue
        if NUMBER_CELL.match(text) and (slot == 0 or (slot == 1 and seg.column > 0 and not seg.texts
                                                      and seg.number is None and _text_follows(cells, k))):
            # (the right column's number in a cell of its own, as the left one's, 9/85 p. 70 --
            # not a line's last digits broken into the next row: 'GOTO' / '30030' <056>)
            seg.number = (text.strip(), col + len(text) - len(text.lstrip()))
            slot = 1
            continue
        if slot == 0 or (slot == 1 and seg.column > 0 and not seg.texts):
            _text_cell(seg, text, col)
        else:
            _text_cell(seg, text, col, inline_number=False)
        slot = 2
    if seg is not None and (seg.number or seg.texts or seg.checksum):
        segs.append(seg)
    return segs


def _two_checksums(text: str) -> tuple[tuple[re.Match, int], tuple[re.Match, int]] | None:
    """A cell that is two checksums with their brackets and nothing else ('<194> <144>', 64'er 12/85
    p. 153: line 10's own and line 20's, which OCR set in line 10's row): each with where it starts."""
    own = CHECKSUM_AT_END.search(text)
    if own is None or not own.group("a"):
        return None
    first = CHECKSUM_CELL.match(text[: own.start()])
    if first is None or not first.group("a"):
        return None
    lead = len(first.group(0)) - len(first.group(0).lstrip())
    return (first, lead), (own, own.start() + len(own.group(0)) - len(own.group(0).lstrip()))


def _full_checksum_next(cells: list[tuple[str, int]], k: int) -> bool:
    """The next cell after cells[k] with text in it is a checksum with both its brackets."""
    after = next((t for t, _ in cells[k + 1 :] if t.strip()), "")
    m = CHECKSUM_CELL.match(after)
    return m is not None and m.group("a") is not None


def _text_follows(cells: list[tuple[str, int]], k: int) -> bool:
    """The cell after cells[k] holds a line's text, or is its empty text slot before the
    line's checksum ('1490<TAB><TAB><196>': the text OCR lost) -- not the checksum itself."""
    if k + 1 >= len(cells):
        return False
    after = cells[k + 1][0]
    if not after.strip():
        return k + 2 < len(cells) and bool(CHECKSUM_CELL.match(cells[k + 2][0]))
    return not CHECKSUM_CELL.match(after)


def _text_cell(seg: _Segment, text: str, col: int, *, inline_number: bool = True) -> None:
    end = CHECKSUM_AT_END.search(text)
    if end:
        seg.checksum = (end, col + end.start() + (len(end.group(0)) - len(end.group(0).lstrip())))
        text = text[: end.start()]
        before = CHECKSUM_AT_END.search(text)
        if before and before.group("a") and end.group("a"):  # 'A <123> <045>': two checksums, one a neighbour's
            # (both with their brackets: '...(1' / '978)  <155>' is a line's text before its checksum)
            seg.spare = (before, col + before.start() + (len(before.group(0)) - len(before.group(0).lstrip())))
            text = text[: before.start()]
    m = NUMBERED.match(text) if inline_number and not seg.texts and seg.number is None else None
    if m:
        seg.number = (m.group("n"), col + m.start("n"))
        seg.texts.append((m.group("rest"), col + m.start("rest")))
    elif text.strip():
        seg.texts.append((text, col))


_NUMBER_RUN = re.compile(r"^\s*\d{1,5}(?:\s+\d{1,5})+\s*$")
_CHECKSUM_RUN = re.compile(rf"^\s*(?:{_CHECKSUM}\s*){{2,}}$")


def _unmerge(raw: str) -> list[str] | None:
    """OCR sometimes reads a block of lines column by column: the line numbers in one cell, the
    texts in the next, the checksums in a third (64'er 10/85 p. 55, lines 1010-1120).  When the
    numbers rise, the checksums are as many and the texts split at their common first word into
    as many, the block is read back as one row a line."""
    cells = [c for c in raw.split("\t") if c.strip()]
    if len(cells) != 3 or not _NUMBER_RUN.match(cells[0]) or not _CHECKSUM_RUN.match(cells[2]):
        return None
    numbers = cells[0].split()
    values = [int(n) for n in numbers]
    checksums = [m.group(0).strip() for m in re.finditer(_CHECKSUM, cells[2])]
    first = cells[1].split()[0] if cells[1].split() else ""
    texts = [first + t for t in cells[1].split(first)[1:]] if first else []
    if values != sorted(values) or not len(numbers) == len(checksums) == len(texts):
        return None
    return [f"{n}\t{t.strip()}\t{c}" for n, t, c in zip(numbers, texts, checksums)]


_LINE_AFTER_CHECKSUM = re.compile(r"(?<=[>)}\]])[ \t]+(?=([0-9]{1,5})[ \t]+[A-Za-z?:=])")
# a checksum with both brackets right after the text, no blank between them
_GLUED_CHECKSUM = re.compile(r"(?<=\S)<[0-9]{3}>[ \t]*$")
_FIRST_NUMBER = re.compile(r"^\s*([0-9]{1,5})[ \t]")
# a caption ("Listing 1. Die ...") or the "(c) 64'er" stamp (OCR: "e 64'er", "© 64^er")
_PROSE_AFTER_CHECKSUM = re.compile(r"(?<=[>)}\]])[ \t]+(?=[A-ZÄÖÜ][a-zäöüß]+[ .,:]|[©@ceC][ \t]?64\S?er)")


def _run_together(raw: str) -> list[str]:
    """A row that holds several lines one after the other (``10 PRINT 1 <123> 20 END <045>``;
    64'er 10/85 p. 131 came out of OCR as one row a listing), as one row each.  A cut is made
    after a checksum that reads as one, or before a line number that rises; in a row with tabs
    (two columns) only where there are several such cuts, and then the tabs were gaps inside
    the lines.  The later rows are padded with blanks so columns stay the row's."""
    first = _FIRST_NUMBER.match(raw)
    last = int(first.group(1)) if first else -1
    cuts = []
    in_one_cell = False  # a cut after a checksum, in the row's first cell (no tab before it)
    glued: list[int] = []  # checksums OCR set against the text before them ('At-----<019> 40010 IF')
    for m in _LINE_AFTER_CHECKSUM.finditer(raw):
        number = int(m.group(1))
        head = raw[: m.start()]
        after_checksum = CHECKSUM_AT_END.search(head)
        stuck = None if after_checksum else _GLUED_CHECKSUM.search(head)
        if after_checksum or stuck or number > last:
            cuts.append(m.end())
            last = number
            in_one_cell = in_one_cell or bool((after_checksum or stuck) and "\t" not in head)
            if stuck is not None:
                glued.append(stuck.start())
    caption = _PROSE_AFTER_CHECKSUM.search(raw)
    if caption and CHECKSUM_AT_END.search(raw[: caption.start()]) and (cuts or "\t" not in raw):
        cuts.append(caption.end())  # "... <178> Listing 1. Die User-Port-Alarmanlage."
    if not cuts or ("\t" in raw and len(cuts) < 2 and not in_one_cell):
        return [raw]
    bounds = [0, *cuts, len(raw)]
    parts = [" " * lo + "".join(" " + c if at in glued else c for at, c in enumerate(raw[lo:hi], lo))
             for lo, hi in pairwise(bounds)]
    return [p.replace("\t", " ") for p in parts] if "\t" in raw else parts


MAX_RUN_CUTS = 12  # numbers inside a run's text among which its cuts are chosen (more: the row stays)


def _checksum_run_apart(raw: str) -> list[str]:
    """A row whose text holds three or more lines one after the other, their checksums after them
    in a cell of their own ('10 POKE ...:CLR 20 PRINT ... 30 PRINT ...<TAB><000> <068> <075><TAB>170
    POKE ...', 64'er 1/86 p. 146), as one row a line, the row's cells before it staying with the first and those after it
    (the other column's) with the last.
    The text is cut before line numbers inside it that rise from the line's own: where exactly as
    many rise as there are lines after the first, there; where more could, at the one choice under
    which every line gives its checksum in one checksum variant; else the row stays as it is (two
    lines are the two-checksum shapes, :func:`_share_checksums`)."""
    cells = raw.split("\t")
    at = next((i for i, c in enumerate(cells) if i and _CHECKSUM_RUN.match(c)), None)
    if at is None:
        return [raw]
    found = list(re.finditer(_CHECKSUM, cells[at]))
    if len(found) < 3:
        return [raw]
    j = at - 1
    while j > 0 and not cells[j].strip():
        j -= 1
    head = NUMBERED.match(cells[j])
    if head is not None:
        number_text, text, lead = head.group("n"), head.group("rest"), cells[:j]
    elif j and NUMBER_CELL.match(cells[j - 1]):
        number_text, text, lead = cells[j - 1].strip(), cells[j], cells[: j - 1]
    else:
        return [raw]
    first = read_number(number_text)
    inside = [m for m in _NUMBER_INSIDE.finditer(text) if int(m.group(1)) > first][:MAX_RUN_CUTS + 1]
    if len(inside) > MAX_RUN_CUTS or len(inside) < len(found) - 1:
        return [raw]
    values = [read_checksum(m).value for m in found]
    choices = [c for c in combinations(inside, len(found) - 1)
               if all(a < b for a, b in pairwise([first] + [int(m.group(1)) for m in c]))]
    if len(choices) > 1:
        choices = [c for c in choices if _run_verifies(first, text, c, values)]
    if len(choices) != 1:
        return [raw]
    (cuts,) = choices
    bounds = [0, *(m.start() for m in cuts), len(text)]
    parts = [text[lo:hi].strip() for lo, hi in pairwise(bounds)]
    numbers = [number_text] + [m.group(1) for m in cuts]
    rows = [f"{n} {t[len(n):].strip() if k else t}" for k, (n, t) in enumerate(zip(numbers, parts))]
    checks = [m.group(0).strip() for m in found]
    out = [f"{r}\t{c}" for r, c in zip(rows, checks)]
    out[0] = "\t".join([*lead, out[0]])
    out[-1] = "\t".join([out[-1], *cells[at + 1:]])
    return out


def _run_verifies(first: int, text: str, cuts: tuple[re.Match, ...], values: list[int]) -> bool:
    """Every line of *text* cut at *cuts* gives its checksum, in one checksum variant."""
    bounds = [0, *(m.start() for m in cuts), len(text)]
    lines = [(first, text[: bounds[1]])] + [(int(m.group(1)), text[m.end(): hi]) for m, hi in zip(cuts, bounds[2:])]
    return _all_verify(lines, values)


# the checksum variants a layout cannot know yet (V1/V2/V3, each in capitals or not)
_VARIANTS = tuple(ChecksumOptions(version) for version in (1, 2, 3))


def _all_verify(lines: list[tuple[int, str]], values: list[int]) -> bool:
    """Every (number, text) of *lines* gives its checksum of *values*, in one checksum variant."""
    return any(all(checksum_of(n, without_print_blanks(t.strip()), upper, options) == v
                   for (n, t), v in zip(lines, values))
               for options in _VARIANTS for upper in (True, False))


# 64'er's page footer: the page number and the magazine's logo (OCR: '70 £k?Jj*', '72 ^a?',
# '74 33a?'), over "Ausgabe 9/September 1985" (10/85: "Ausgabe lO/Oktober 1985")
_FOOTER = re.compile(r"^\s*Ausgabe\s+[0-9lIO]{1,2}\s*/\s*[A-Z][a-z]+\s+19[0-9]{2}\s*$")
_LOGO = re.compile(r"^\s*[^A-Za-z\s]*(?:[A-Za-z][^A-Za-z\s]*){0,3}\s*$")  # a few marks, no word
# a caption row inside a listing ('Listing 1. Fortsetzung von Seite 72')
_CAPTION_ROW = re.compile(r"^\s*Listing\s+\d+\s*[.:]\s+[A-ZÄÖÜ]")
# the magazine's stamp after a page number ('74 64'er', '74 (c) 64'er')
_STAMP = re.compile(r"^\s*(?:\(c\)|[©@ceC])?[ \t]?64\S?er\s*$")


@dataclass
class Layout:
    records: list[Record]
    prose: int  # pieces of text that belong to no line (captions, article text, stamps)


def _lines(text: str) -> Iterator[str]:
    """The rows of *text* one at a time (a list of them all would be the text's size again, in
    small strings: tens of bytes a row)."""
    at = 0
    while True:
        end = text.find("\n", at)
        if end < 0:
            yield text[at:]
            return
        yield text[at:end]
        at = end + 1


def find_records(text: str) -> Layout:
    """Every numbered line with its pieces and checksum, in listing order (a column of
    checksums printed apart from its lines set back beside them first: :mod:`.columns`)."""
    text = set_columns_back(text)
    open_: dict[int, Record] = {}  # column -> the line still being read
    records: list[Record] = []
    prose = 0
    block = 0
    counter = 0
    rows = ((lineno, part) for lineno, raw in enumerate(_lines(text), start=1)
            for together in _run_together(raw.rstrip("\r")) for part in _checksum_run_apart(together))
    last_row = 0
    closed: dict[int, int] = {}  # column -> the row in which its last line ended with its checksum
    carried: set[int] = set()  # columns whose *closed* row is carried over one row the column left empty
    for lineno, raw in rows:
        if not raw.strip():
            continue
        if _CAPTION_ROW.match(raw) and "\t" not in raw:  # a caption inside a listing: no line's text
            prose += 1
            continue
        if _FOOTER.match(raw):  # the page footer: its page number is no line (9/85 p. 70 '70 £k?Jj*')
            for col, page in list(open_.items()):
                if page.checksum is None and page.line == last_row and _LOGO.match(page.text):
                    del open_[col]
                    prose += 1 + len(page.pieces)
            prose += 1
            continue
        previous, last_row = last_row, lineno
        unmerged = _unmerge(raw)
        if unmerged is not None:  # a block of lines OCR ran together: one row a line
            for row in unmerged:
                for seg in _segments(row):
                    number = seg.number
                    if number is None:
                        continue
                    counter += 1
                    one = Record(read_number(number[0]), number[0], lineno, 1, column=0, block=block, order=counter)
                    one.pieces = [Piece(t, lineno, 1) for t, _ in seg.texts]
                    if seg.checksum is not None:
                        cs = read_checksum(seg.checksum[0])
                        one.checksum, one.checksum_text = cs.value, cs.text
                        one.checksum_line, one.checksum_col = lineno, 1
                    records.append(one)
            continue
        segs = _segments(raw)
        tabbed = "\t" in raw
        any_record = False
        for seg in segs:
            rec: Record | None = open_.get(seg.column)
            if seg.number is not None:
                value = read_number(seg.number[0])
                # a row that goes on with an open line's text can start with digits ("-\n1<TAB><144>")
                continuation = rec is not None and rec.checksum is None and value <= rec.number and not (
                    seg.texts and seg.texts[0][0].lstrip()[:1].isalpha()) and not (  # "100 REM" starts a line
                    _STAMP.match(rec.text))  # (nothing goes on with a page number: '75 64'er' / '1 50 CU=')
                if continuation:
                    seg.texts.insert(0, (seg.number[0] + (" " if seg.texts else ""), seg.number[1]))
                else:
                    if rec is not None:
                        _close(rec, open_, records)
                    counter += 1
                    rec = Record(value, seg.number[0], lineno, seg.number[1], column=seg.column, block=block,
                                 order=counter)
                    open_[seg.column] = rec
            elif rec is None and seg.texts and closed.get(seg.column) == previous and records:
                # text without a number right under a line that ended with its checksum: a line
                # whose number OCR lost -- kept only if its own checksum follows (else prose)
                before = next((r for r in reversed(records) if r.column == seg.column), records[-1])
                counter += 1
                rec = Record(before.number, "", lineno, seg.texts[0][1], column=seg.column, block=block,
                             order=counter, lost=True)
                open_[seg.column] = rec
            # (two checksums at the end: the row may hold two lines, '10 A 20 B <123> <045>')
            longest = MAX_LINE_TEXT * (2 if seg.spare is not None else 1)
            for t, col in seg.texts:
                # (a numbered row's own first text is its line's, however long OCR made it: a line of
                # graphics characters reads as several marks each, 64'er 12/85 p. 106 Frogger's 1-3)
                own = rec is not None and not rec.pieces and rec.line == lineno and not rec.lost and len(t) <= MAX_OWN_TEXT
                # (and the row that ends it with its checksum, right under it: its end)
                ends = rec is not None and seg.checksum is not None and rec.checksum is None and not rec.lost \
                    and lineno == rec.line + 1 and seg.number is None and _line_length(t) <= longest
                if rec is not None and (own or ends or _line_length(rec.text + t) <= longest) and \
                        len(rec.text) + len(t) <= MAX_RUN_TEXT and not (
                        rec.lost and lineno > rec.line + 1):  # (a lost number's line: two rows at most)
                    rec.pieces.append(Piece(t, lineno, col))
                    any_record = True
                else:
                    if rec is not None:
                        _close(rec, open_, records)
                        rec = None
                    prose += 1
            if seg.checksum is not None:
                m, col = seg.checksum
                if rec is not None:
                    cs = read_checksum(m)
                    rec.checksum, rec.checksum_text = cs.value, cs.text
                    rec.checksum_line, rec.checksum_col = lineno, col
                    if seg.spare is not None:
                        rec.spare = Spare(seg.spare[0], lineno, seg.spare[1])
                    _close(rec, open_, records)
                    closed[seg.column] = lineno
                    any_record = True
                else:
                    prose += 1
            elif seg.number is not None and rec is not None and not seg.texts:
                any_record = True
        if tabbed:  # (a column left empty in a row of two: the row after it is still right under its line)
            for column in [c for c, row in closed.items() if row == previous and c not in carried
                           and all(seg.column != c or not (seg.number or seg.texts or seg.checksum) for seg in segs)]:
                closed[column] = lineno
                carried.add(column)
        for seg in segs:
            if closed.get(seg.column) != lineno:
                carried.discard(seg.column)
        if not tabbed and not any_record and open_.get(1) is None and records and records[-1].column == 1:
            block += 1  # text below a two-column stretch: the next stretch starts a new page
    for rec in list(open_.values()):
        if not _close(rec, open_, records):
            prose += len(rec.pieces)
    records.sort(key=lambda r: (r.block, r.column, r.order))
    # (a page number first: the row under it is no continuation of it)
    kept = _without_furniture(records)
    # (checksums shared first: a line given its checksum so is no line that goes on in the next row)
    return Layout(_join_continuations(_share_checksums(kept)), prose + len(records) - len(kept))


def _without_furniture(records: list[Record]) -> list[Record]:
    """*records* without the page numbers inside a listing: a row that reads as a number and the
    stamp or a few marks ('74 64'er', '70 £k?Jj*' where no footer follows), without a checksum,
    whose number does not rise between its neighbours in its column (read as a line, it would
    part the listing in two)."""
    out: list[Record] = []
    for k, rec in enumerate(records):
        if rec.checksum is None and not rec.lost and (
                _STAMP.match(rec.text) or _LOGO.match(rec.text) and not rec.text.strip().isalpha()):  # ('END' is BASIC)
            before = next((r.number for r in reversed(out) if (r.column, r.block) == (rec.column, rec.block)), None)
            after = next((r.number for r in records[k + 1 :] if (r.column, r.block) == (rec.column, rec.block)), None)
            if before is not None and after is not None and not before < rec.number < after:
                continue
        out.append(rec)
    return out


def _share_checksums(records: list[Record]) -> list[Record]:
    """Two checksums at one line's end ('10 A <123> <045>' over '20 B', or '10 A 20 B <123> <045>'):
    the first is the line's before it where that one has none; else the line is given the first
    and the line after it, which has none, the second; else the one line number inside the text
    that rises between its neighbours starts the second checksum's line.  Neighbours in the same
    column only; the checksums then check both lines."""
    out: list[Record] = []
    for k, rec in enumerate(records):
        out.append(rec)
        if rec.spare is None:
            continue
        spare, rec.spare = rec.spare, None
        first = read_checksum(spare.match)

        if k and _takes(records[k - 1], rec):
            _give(records[k - 1], first.value, first.text, spare.line, spare.col)
            continue
        if k + 1 < len(records) and _takes(records[k + 1], rec):
            second: Record | None = records[k + 1]
        else:
            # (the next number above the line's own: a broken one, '8 90', is no neighbour)
            following = next((r.number for r in records[k + 1 :] if not r.lost and (r.column, r.block) ==
                              (rec.column, rec.block) and r.number > rec.number), None)
            second = _second_line(rec, following, first.value)
            if second is None:  # (no neighbour takes it: it stays in the text, as printed)
                rec.pieces.append(Piece(" " + spare.match.group(0).strip(), spare.line, spare.col))
                rec.spare_left = spare
                continue
            out.append(second)
        assert second is not None and rec.checksum is not None
        _give(second, rec.checksum, rec.checksum_text, rec.checksum_line, rec.checksum_col)
        _give(rec, first.value, first.text, spare.line, spare.col)
    return out


def _takes(other: Record, rec: Record) -> bool:
    """*other* is a line of *rec*'s column without a checksum."""
    return other.checksum is None and (other.column, other.block) == (rec.column, rec.block)


def _give(rec: Record, value: int, text: str, line: int, col: int) -> None:
    rec.checksum, rec.checksum_text = value, text
    rec.checksum_line, rec.checksum_col = line, col


_NUMBER_INSIDE = re.compile(r"(?<=\s)(\d{1,5}) +(?=[A-Za-z?])")
_NUMBER_APART_INSIDE = re.compile(r"(?<=\s)(\d{1,4}) (\d{1,4}) +(?=[A-Za-z?])")  # '8 80 IF': its digits read apart


_DIGITS_FIRST = re.compile(r"^\s*(\d{1,5})\s+(?=\S)")


def digits_first(rec: Record, width: int) -> tuple[str, str] | None:
    """(digits, the text after them) where *rec*'s text starts with at most *width* digits and a
    blank, or its first piece is such digits, a cell of its own ('1020 1030<TAB>IF', '41 10<TAB>Z')."""
    first = rec.pieces[0].text.strip() if len(rec.pieces) > 1 else ""
    if first.isdigit() and len(first) <= width:
        return first, "".join(p.text for p in rec.pieces[1:])
    m = _DIGITS_FIRST.match(rec.text)
    return (m.group(1), rec.text[m.end():]) if m and len(m.group(1)) <= width else None


def _second_line(rec: Record, following: int | None, first_checksum: int) -> Record | None:
    """The line whose number stands inside *rec*'s text, cut off *rec* (which keeps the text before
    it): the one number inside, as printed or its digits read apart ('8 80'), that rises between
    *rec*'s and the *following* line's; or both numbers printed first (:func:`_numbers_first`)."""
    text = rec.text
    front = digits_first(rec, 5)
    if front and rec.number < int(front[0]) and (following is None or int(front[0]) < following):
        assert rec.checksum is not None
        return _numbers_first(rec, int(front[0]), front[1], first_checksum, rec.checksum)
    inside = [(n, m) for m in _NUMBER_INSIDE.finditer(text)
              if rec.number < (n := int(m.group(1))) and (following is None or n < following)]
    if not inside:  # (only where no number inside rises as printed: 'THEN 200 800 PRINT' is 800)
        inside = [(n, m) for m in _NUMBER_APART_INSIDE.finditer(text)
                  if rec.number < (n := int(m.group(1) + m.group(2))) and (following is None or n < following)]
    if len(inside) != 1:
        return None
    number, m = inside[0]
    rec.pieces = [Piece(text[: m.start()].rstrip(), rec.line, rec.col)]
    return Record(number, str(number), rec.line, rec.col, [Piece(text[m.end() :], rec.line, rec.col)],
                  column=rec.column, block=rec.block, order=rec.order)


def _numbers_first(rec: Record, number: int, text: str, first_checksum: int, checksum: int) -> Record | None:
    """'1020 1030<TAB>IF ... THEN 1010 INPUT ...<TAB><061> <197>' (64'er 2/86 p. 98): two lines
    run together with both numbers before both texts.  The texts part at the one blank where the
    first text gives the first checksum with the first number and the rest the second with the
    second, in one checksum variant (two 8-bit checksums agree by chance one time in 65,536 a
    blank); no such blank, or more than one: None."""
    splits = [k for k, c in enumerate(text) if c == " " and text[:k].strip() and text[k:].strip()]
    found = [k for k in splits if _all_verify([(rec.number, text[:k]), (number, text[k:])], [first_checksum, checksum])]
    if len(found) != 1:
        return None
    (k,) = found
    rec.pieces = [Piece(text[:k].rstrip(), rec.line, rec.col)]
    return Record(number, str(number), rec.line, rec.col, [Piece(text[k:].lstrip(), rec.line, rec.col)],
                  column=rec.column, block=rec.block, order=rec.order)


_FIELD_AT_END = re.compile(r"<[^<>{}\s]{1,4}>\s*$")  # '<m>': a checksum field whose digits OCR lost


def _join_continuations(records: list[Record]) -> list[Record]:
    """*records* with each row that goes on with the line above it joined to that line, where
    the row starts with digits that read as a line number out of order: the line above has no
    checksum yet, the row comes right under its last row, and its number does not rise between
    that line's and the next line's (64'er 10/85 p. 74: '1 DATA ...,191,1' / '63<TAB><004>' is
    line 1 ending in 163; '5040 ... IF X(l)=9' / '99 THEN 5042' is line 5040's 999).  A number
    that fits between its neighbours stays a line."""
    out: list[Record] = []
    for k, rec in enumerate(records):
        above = out[-1] if out else None
        if above is not None and not rec.lost and not above.lost and above.checksum is None and rec.number_text \
                and above.column == rec.column and above.block == rec.block and above.pieces \
                and rec.line == above.pieces[-1].line + 1:
            following = next((r.number for r in records[k + 1 :] if not r.lost and r.column == rec.column
                              and r.block == rec.block), None)
            # (and the listing goes on rising from the line above: '30 ... <m>' / '10 PRINT 1' / '20 ...'
            # is a listing starting again, after a line whose checksum field OCR damaged)
            if not (above.number < rec.number and (following is None or rec.number < following)) and (
                    following is None or following > above.number) and damaged_checksum(above.text) is None \
                    and not _FIELD_AT_END.search(above.text):
                rest = rec.text
                above.pieces.append(Piece(rec.number_text + (" " if rest[:1].isalpha() else ""), rec.line, rec.col))
                above.pieces.extend(rec.pieces)
                above.checksum, above.checksum_text = rec.checksum, rec.checksum_text
                above.checksum_line, above.checksum_col = rec.checksum_line, rec.checksum_col
                continue
        out.append(rec)
    return out


# a control code's name as the print spells it ('<RVSON,SHIFT-SPACE,RVOFF}', '{2DOWN>'): as typed,
# a byte a name
_CONTROL_NAMES = re.compile(r"[<{][^<>{}\"]{1,40}?[>}]")


def _line_length(text: str) -> int:
    """The length of the last line in *text* as typed: lines run together are each as long as a
    line, and a control code's name is one character a name (64'er 12/85 p. 106: Frogger's lines
    1-3, a screen of graphics and colours in quotes, print 300 characters of names for 80 typed)."""
    last = None
    for last in CHECKSUM_INSIDE.finditer(text):
        pass
    line = text[last.end():] if last is not None else text
    return len(line) - sum(len(m.group()) - 1 - m.group().count(",") for m in _CONTROL_NAMES.finditer(line))


def _close(rec: Record, open_: dict[int, Record], records: list[Record]) -> bool:
    """The line *rec* ends; a line whose number was lost counts only with its checksum (False:
    it was prose)."""
    if open_.get(rec.column) is rec:
        del open_[rec.column]
    if rec.lost and rec.checksum is None:
        return False
    records.append(rec)
    return True
