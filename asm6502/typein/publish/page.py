"""A type-in listing laid out for print: the header a magazine put over it, the listing's lines in
columns, page by page, and the page's text as a reader (or OCR) sees it.

The listing's lines are the format's own writer's (``TypeinFormat.write``): its checksums stand in
one column there already, and a monospaced page keeps them so. What this module adds is what an
editor adds around a listing:

- a header: the title, what the program is (machine code: where it loads, where it ends, its
  length and how it is started; BASIC: lines, bytes, RUN), the checking program to type it in
  with, and a key to the control codes the listing names in braces (``{clr} SHIFT+CLR/HOME``);
- columns: as many as the page's width holds (MSE lines two, BASIC lines one), filled in order; the
  last page's columns balanced, as a magazine set a listing's end;
- page breaks after ``COLUMN_LINES`` rows, the first page's columns shortened by the header; a
  line longer than the page widens the page (it is not broken into rows: a reader takes a line
  as the writer printed it);
- a footer on every page: the title and "page N of M", so loose pages go back in order.

Nothing in it depends on the date or the machine: the same program gives the same page.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from asm6502.petscii import key_stroke, parse_brace
from asm6502.typein.formats import TypeinFormat

PAGE_CHARS = 84  # a page's text width in character cells (two MSE columns and the gutter)
COLUMN_LINES = 66  # rows of listing in a column of a full page
GUTTER = 4  # cells between two columns
TITLE_ROWS = 2  # the title is set twice the size of the listing's characters


@dataclass(frozen=True)
class Page:
    number: int
    header: tuple[str, ...]  # rows above the columns (the first page only)
    columns: tuple[tuple[str, ...], ...]
    column_width: int  # cells
    footer: str


@dataclass(frozen=True)
class Publication:
    title: str
    format: TypeinFormat
    listing: str  # the format writer's text
    facts: tuple[str, ...]  # the header's rows under the title
    pages: tuple[Page, ...]
    width: int  # the pages' text width in cells

    def text(self) -> str:
        """The pages as OCR reads them: each page's title and header rows, its columns one after the
        other (a column reader reads down a column before the next), its footer; pages in order."""
        out: list[str] = []
        for page in self.pages:
            if page.number == 1:
                out += [self.title, "", *page.header]
            for column in page.columns:
                out += [line.rstrip() for line in column]
            out += ["", page.footer, ""]
        return "\n".join(out)


def control_key(listing: str, width: int = PAGE_CHARS) -> tuple[str, ...]:
    """The header's key to the control codes a listing names in braces, in the order they first come:
    ``{clr} SHIFT+CLR/HOME``, rows of at most *width* cells (none: the listing has no such code)."""
    entries: dict[str, str] = {}
    for m in re.finditer(r"\{([^{}]+)\}", listing):
        parsed = parse_brace(m.group(1))
        if parsed is None:
            continue
        name = "{" + re.sub(r"^\d+\s*|\s*\*\s*\d+$", "", m.group(1)) + "}"  # {4 down}: the key of {down}
        key = key_stroke(parsed[0])
        entries.setdefault(name, key or f"CHR$({parsed[0]})")
    if not entries:
        return ()
    rows, row = [], "Control codes, and the keys that give them:"
    for name, key in entries.items():
        item = f" {name} {key},"
        if len(row) + len(item) > width:
            rows.append(row)
            row = " "
        row += item
    return (*rows, row.rstrip(","))


def describe(prg: bytes, kind: str, fmt: TypeinFormat, lines: int) -> tuple[str, ...]:
    """The header's rows: what the program is, how it starts, how to type it in."""
    load = int.from_bytes(prg[:2], "little")
    size = len(prg) - 2
    end = load + size
    if kind == "basic-prg":
        what = f"BASIC V2, {lines} lines, {size:,} bytes from ${load:04X}. Start it with RUN."
    else:
        start = "RUN (a BASIC line starts it)" if load == 0x0801 else f"SYS {load}"
        what = f"Machine code: ${load:04X} to ${end - 1:04X} ({load} to {end - 1}), {size:,} bytes. Start it with {start}."
    how = (f"Type it in with the {fmt.checker}: it checks each line against the checksum printed "
           "with it (the checker's, not the program's).")
    return (*textwrap.wrap(what, PAGE_CHARS), *textwrap.wrap(how, PAGE_CHARS))


def _basic_lines(prg: bytes) -> int:
    """The lines of a BASIC program, by its chain of line links (each line: link, number, text, 0)."""
    load = int.from_bytes(prg[:2], "little")
    at, count = 2, 0
    while at + 4 <= len(prg):
        link = int.from_bytes(prg[at : at + 2], "little")
        if link == 0 or link - load + 2 <= at:
            break
        count += 1
        at = link - load + 2
    return count


def _split(rows: list[str], first: int, per_column: int, columns: int) -> list[list[list[str]]]:
    """The rows in columns of *per_column* (*first* on the first page), *columns* a page; the last
    page's columns balanced (each as long as the first, the last one shorter)."""
    pages: list[list[list[str]]] = []
    at = 0
    while at < len(rows):
        height = first if not pages else per_column
        left = len(rows) - at
        if left < height * columns:  # the last page: balanced
            height = -(-left // columns)
        page = []
        for _ in range(columns):
            if at >= len(rows):
                break
            page.append(rows[at : at + height])
            at += height
        pages.append(page)
    return pages or [[[]]]


def lay_out(fmt: TypeinFormat, prg: bytes, kind: str, title: str, name: str) -> Publication:
    """The publication of *prg* (*kind*: ``filetype.sniff``'s name for it) in format *fmt*."""
    listing = fmt.write(prg, name)
    rows = listing.rstrip("\n").split("\n")
    width = max(len(r) for r in rows)
    columns = max(1, (PAGE_CHARS + GUTTER) // (width + GUTTER))
    page_width = max(PAGE_CHARS, width)
    facts = describe(prg, kind, fmt, _basic_lines(prg) if kind == "basic-prg" else len(rows)) + control_key(
        listing, page_width)
    header = (*facts, "")
    first = COLUMN_LINES - TITLE_ROWS - 1 - len(header)
    split = _split(rows, first, COLUMN_LINES, columns)
    pages = tuple(Page(n, header if n == 1 else (), tuple(tuple(c) for c in cols), width,
                       f"{title} -- page {n} of {len(split)}")
                  for n, cols in enumerate(split, start=1))
    return Publication(title, fmt, listing, facts, pages, page_width)
