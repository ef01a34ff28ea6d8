"""A listing's printed pieces joined where the readers found them apart, and the one-line readings
no person takes for a program set aside as possible fragments.

The readers cut a listing where article text, a caption, a column or a page break stands in it.
A listing whose first piece is short (fewer than :data:`plain.MIN_LINES` lines: a first line at
the foot of a column) goes on in the rows after it: the cells there that start with a line number
rising from its last line (in the first cell of a row, or in a later one beside a column of article
text) are read again with its rows, by the listing's own reader; the reading is taken when it is
one listing of the same family whose added lines read as well as a listing's lines do.  A listing
of one line after a listing of its family whose numbers it goes on is joined to it the same way;
one whose number falls between two lines of a listing of its family next to it is read into it
in number order (:func:`placed`).

A listing without checksums whose first lines OCR ran into the end of the article's row before it
reads them from there (:func:`led_in`).

A listing of one line that stays apart and has no caption of its own (``Listing ...`` on a row
next to it), or an MSE reading of one row without its header, is no program a person types: a
line of an example in running text, a row of a table or of prose that reads as BASIC or as an
MSE row, a line split off a listing where its number fits nowhere.  The scan reports it as a
possible fragment and writes no program of it -- unless it is a program by itself
(:func:`one_line_program`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from asm6502.basic.tokenizer import detokenize
from asm6502.basic.tokens import TOKEN_OF
from asm6502.typein import plain

if TYPE_CHECKING:
    from asm6502.typein.scan import Found

JOIN_REACH = 40  # rows after a piece's last line where the next piece may start (past a column of article text)
MIN_STEP = 10  # the gap between two pieces may be as large as the largest step inside them, or this
LEAD_REACH = plain.MIN_LINES * plain.MAX_TYPED  # characters at a row's end where a listing's first lines may stand
OWN_CAPTION_ROWS = 2  # rows of text before or after a one-line listing where its own caption stands
JOINABLE = ("basic", "checksummer-1", "checksummer-3")  # the families whose lines are numbered BASIC lines

_NUMBERED = re.compile(r"^\s*(\d{1,5})\s+\S")
_CHECKSUM_END = re.compile(r"<\s*\d{1,3}\s*>\s*$")


def family(fmt: str) -> str:
    """The reader a format's listings are read with: one for the BASIC dialects without checksums."""
    return "basic" if fmt in ("basic", "basic-7.0") else fmt


@dataclass(frozen=True)
class Page:
    """The text a scan reads and what the scan knows of it, for the rules here."""

    rows: list[str]
    read_rows: Callable[[str, str], list[Found]]  # (a text, a family): the listings its reader finds in it
    # (row a piece ends, row the next starts, row it ends, the next is one line): a caption between ends the listing
    parted: Callable[[int, int, int, bool], bool]
    captioned: Callable[[int, set[int]], bool]  # (row, rows other listings hold): it has a caption of its own
    read_in_order: Callable[[str, str], Found | None]  # (a text, a family): its lines as one listing, in number order


def joined(found: list[Found], page: Page) -> list[Found]:
    """*found* (in row order) with each listing's later pieces joined to it."""
    out = list(found)
    k = 0
    while k < len(out):
        whole = _going_on(out[k], out, page) if family(out[k].format) in JOINABLE else None
        if whole is None:
            k += 1
            continue
        held = set(range(whole.line, whole.last_line + 1))
        # (each join adds a line: the loop ends)
        out[k] = whole
        out = out[: k + 1] + [f for f in out[k + 1:] if not set(range(f.line, f.last_line + 1)) <= held]
    return out


def placed(found: list[Found], page: Page) -> list[Found]:
    """*found* with each one-line listing whose number falls between two lines of a listing of
    its family next to it (within JOIN_REACH rows) read into that listing: a line OCR gave apart
    from its listing ('40 ...' above or below a listing of 10, 20, 30, 50)."""
    out = list(found)
    for c in [f for f in found if family(f.format) in JOINABLE and len(f.numbers) == 1]:
        if c not in out:
            continue
        k = out.index(c)
        (n, row), = c.numbers
        for a in [out[j] for j in (k - 1, k + 1) if 0 <= j < len(out)]:
            numbers = sorted(m for m, _ in a.numbers)
            near = min(abs(row - a.line), abs(row - a.last_line)) <= JOIN_REACH
            if family(a.format) != family(c.format) or len(a.numbers) < 2 or not near or n in numbers \
                    or not numbers[0] < n < numbers[-1]:
                continue
            rows = {row} | set(range(a.line, a.last_line + 1))
            whole = page.read_in_order("\n".join(text if r in rows else "" for r, text in enumerate(page.rows, start=1)),
                                       family(a.format))
            if whole is not None and len(whole.numbers) == len(a.numbers) + 1 \
                    and whole.reading.bad <= a.reading.bad + c.reading.bad:
                out = [whole if f is a else f for f in out if f is not c]
                break
    return out


def led_in(found: list[Found], page: Page) -> list[Found]:
    """*found* with the first lines of a listing without checksums that OCR ran into the end of
    the article's row before it ('... nicht mehr erfüllt ist: 10 D0 WHILE A<=5 20 : INPUT A' over
    '30 LOOP', 10/85 p. 17) read with it: the row's tail from a line number on, its numbers rising
    into the listing's first by the listing's steps, no article word left in its lines."""
    out = []
    held = {r for f in found for r in range(f.line, f.last_line + 1)}
    for f in found:
        before = f.line - 1
        tail = _lead_in(page.rows[before - 1], f) if family(f.format) == "basic" and before >= 1 \
            and before not in held else None
        if tail is not None:
            text = "\n".join(tail if n == before else row if f.line <= n <= f.last_line else ""
                             for n, row in enumerate(page.rows, start=1))
            again = page.read_rows(text, "basic")
            added = len(again[0].numbers) - len(f.numbers) if len(again) == 1 else 0
            if added > 0 and _fits(f, again[0], before_first=True) and again[0].reading.bad <= f.reading.bad + added // 2:
                f = again[0]
        out.append(f)
    return out


_LINE_IN_ROW = re.compile(r"(?<=\s)(\d{1,5})\s+[A-Za-z]")


def _lead_in(row: str, f: Found) -> str | None:
    """The longest tail of *row* that is numbered lines rising to below *f*'s first line, with
    no article word left in them; None when none is."""
    first = min(n for n, _ in f.numbers)
    row = row[-LEAD_REACH:]
    for m in _LINE_IN_ROW.finditer(row):
        tail = row[m.start():].strip()
        stretches = plain.numbered_lines(tail, set())
        if len(stretches) == 1 and stretches[0][-1].number < first and len(stretches[0]) < plain.MIN_LINES \
                and not any(plain.prose_left(line.text) for line in stretches[0]):
            return tail
    return None


def fragments(found: list[Found], page: Page) -> tuple[list[Found], list[Found]]:
    """(the listings, the possible fragments) of *found*: a fragment is a listing of one line,
    without a checksum that verifies it, or an MSE reading of one row without its header
    (:func:`lone_mse_row`), with no caption of its own."""
    listings: list[Found] = []
    loose: list[Found] = []
    for f in found:
        lone = family(f.format) in JOINABLE and len(f.numbers) == 1 and f.reading.verified + f.reading.repaired == 0 \
            and not one_line_program(f)
        held = {r for g in found if g is not f for r in range(g.line, g.last_line + 1)}
        (loose if (lone or lone_mse_row(f)) and not page.captioned(f.line, held) else listings).append(f)
    return listings, loose


_PRINT, _INPUTS = TOKEN_OF["PRINT"], {TOKEN_OF[k] for k in ("INPUT", "GET", "READ")}
_JUMPS = bytes(sorted(TOKEN_OF[k] for k in ("GOTO", "GOSUB", "THEN", "RUN")))
_TARGETS = re.compile(b"[" + _JUMPS + rb"]\s*(\d+(?:\s*,\s*\d+)*)")  # (ON ... GOTO lists several)
_COLON = 0x3A


def one_line_program(f: Found) -> bool:
    """A plain BASIC line that is a program by itself, as the one-liners articles print in
    their text ('10 PRINT CHR$(205.5+RND(1));:GOTO 10', a formula between an INPUT and a PRINT):
    two statements or more, a PRINT, every jump to its own number (outside strings, REM and DATA), and it reads what it works on
    (INPUT, GET, READ) or runs again (a jump to itself).  A line of a listing quoted in the
    text jumps to others or prints nothing ('20 GET A$:IF A$="" THEN 20' waits for a key)."""
    if family(f.format) != "basic" or len(f.numbers) != 1 or f.reading.bad or not f.reading.prg:
        return False
    lines = detokenize(f.reading.prg).lines
    if len(lines) != 1:
        return False
    line = lines[0]
    body = plain.outside_strings(line.body)
    targets = {int(n) for m in _TARGETS.finditer(body) for n in m.group(1).split(b",")}
    statements = body.count(_COLON) + 1
    jumps_home = targets <= {line.number}
    loops = line.number in targets
    return statements >= 2 and _PRINT in body and jumps_home and (loops or bool(_INPUTS & set(body)))


def lone_mse_row(f: Found) -> bool:
    """An MSE reading of one row and no ``PROGRAMM :`` header: no listing a person types (MSE
    asks for the start and end address the header gives), but a row of hex-looking words in the
    article whose last one happens to check (a table, an address with its postcode) or a row
    split off a listing.  One row's checksum is one byte: a row of prose that reads as one
    verifies by chance one time in 256."""
    return f.format.startswith("mse-") and len(f.numbers) == 1 and not f.headed



def _going_on(a: Found, found: list[Found], page: Page) -> Found | None:
    """*a* with the piece after it joined, or None: where *a* is short, the rows after it that go
    on from its last line; else a listing of one line right after it."""
    later = [f for f in found if f.line > a.last_line]
    if len(a.numbers) >= plain.MIN_LINES:
        if not later or len(later[0].numbers) != 1 or family(later[0].format) != family(a.format):
            return None
        kept = _continued(a, page.rows, stop=later[0].last_line + 1)
    else:
        kept = _continued(a, page.rows, stop=min((f.line for f in later if family(f.format) != family(a.format)),
                                                  default=len(page.rows) + 1))
    if not kept or page.parted(a.last_line, min(kept), max(kept), len(a.numbers) >= plain.MIN_LINES):
        return None
    text = "\n".join(row if a.line <= n <= a.last_line else kept.get(n, "")
                     for n, row in enumerate(page.rows, start=1))
    again = page.read_rows(text, family(a.format))
    if len(again) != 1 or family(again[0].format) != family(a.format):
        return None
    whole = again[0]
    added = len(whole.numbers) - len(a.numbers)
    if added <= 0 or not set(a.numbers) <= set(whole.numbers) or not _fits(a, whole):
        return None
    return whole if _reads_as_well(a, whole, added) else None


def _continued(a: Found, rows: list[str], stop: int) -> dict[int, str]:
    """The rows after *a* (up to row *stop*, and JOIN_REACH rows past the last one taken) that go
    on from its last line, each as the cells of it from the first that does: row -> its text."""
    last = max(n for n, _ in a.numbers)
    kept: dict[int, str] = {}
    column = -1  # the cell the piece stands in: a checksum or a line's end in it goes with the line above
    reach = a.last_line + JOIN_REACH
    for r in range(a.last_line + 1, min(stop, len(rows) + 1, reach + 1)):
        cells = plain.cells(rows[r - 1])
        numbers = [(i, int(m.group(1))) for i, c in enumerate(cells) if (m := _NUMBERED.match(c))]
        starts = [(i, n) for i, n in numbers if n > last]
        if numbers and not starts:
            break  # the numbers start again: another listing
        if starts:
            i, n = starts[0]
            if any(m <= n for j, m in numbers if j > i):
                break  # two columns of lines side by side: a layout the readers read themselves
            kept[r] = "\t".join(cells[i:])
            last, column, reach = max(m for _, m in numbers), i, r + JOIN_REACH
        elif column >= 0 and kept.get(r - 1) is not None and any(_CHECKSUM_END.search(c) for c in cells[column:]):
            kept[r] = "\t".join(cells[column:])  # (the end of a line broken over two rows)
        else:
            column = -1
    return kept


def _fits(a: Found, whole: Found, before_first: bool = False) -> bool:
    """Whether the pieces' numbers go on as a listing's do: the gap from *a*'s last line to the
    next is no larger than the largest step inside the pieces (or MIN_STEP) -- an example's
    '10 ... 40' and a listing's '100 ...' after it are two.  *before_first*: the gap is the one
    before *a*'s first line (*a* is the later piece)."""
    numbers = sorted(n for n, _ in whole.numbers)
    last = max(n for n, _ in a.numbers) if not before_first else max(n for n, _ in whole.numbers if n < min(
        m for m, _ in a.numbers))
    gap_at = numbers.index(last)
    steps = [b - x for k, (x, b) in enumerate(zip(numbers, numbers[1:])) if k != gap_at]
    return gap_at + 1 < len(numbers) and numbers[gap_at + 1] - last <= max([MIN_STEP, *steps])


def _reads_as_well(a: Found, whole: Found, added: int) -> bool:
    """The lines added read as a listing's: by their checksums (most verify or are repaired), or
    without checksums by the grammar (no more of them still bad than the readers let a listing hold)."""
    r, before = whole.reading, a.reading
    if r.unchecked:
        return (r.bad - before.bad) <= (1 - plain.GRAMMAR_SHARE) * added
    return (r.verified + r.repaired) - (before.verified + before.repaired) >= added / 2
