"""A publication drawn: each page an SVG of character cells (the glyphs of a :class:`GlyphSet`,
every pixel a square, so any renderer draws the same page), and an HTML page that shows them with
the listing's text under them to copy.

Geometry: a cell is 8 x 8 units, a row 10 (two units of leading), the title twice the size;
margins of 6 cells. At 96 dpi one unit is one pixel: a page of 84 cells is 768 pixels wide.
"""

from __future__ import annotations

import html

from asm6502.typein.publish.glyphs import GlyphSet
from asm6502.typein.publish.page import COLUMN_LINES, GUTTER, TITLE_ROWS, Page, Publication

CELL = 8
ROW = 10
MARGIN = 6 * CELL
INK = "#000"
PAPER = "#fff"


def _glyph_path(rows: tuple[int, ...]) -> str:
    """The ink of a glyph as one path: each row's runs of set pixels as rectangles."""
    parts = []
    for y, bits in enumerate(rows):
        x = 0
        while x < 8:
            if bits & (0x80 >> x):
                run = x
                while run < 8 and bits & (0x80 >> run):
                    run += 1
                parts.append(f"M{x} {y}h{run - x}v1h{x - run}z")
                x = run
            else:
                x += 1
    return "".join(parts)


class _Canvas:
    def __init__(self, glyphs: GlyphSet, text: str):
        self.glyphs = glyphs
        self.table = glyphs.for_text(text)
        self.ids: dict[str, str] = {}
        self.defs: list[str] = []
        self.body: list[str] = []

    def _id(self, ch: str) -> str:
        if ch not in self.ids:
            ident = f"g{ord(ch):x}"
            self.ids[ch] = ident
            self.defs.append(f'<path id="{ident}" d="{_glyph_path(self.glyphs.glyph(self.table, ch))}"/>')
        return self.ids[ch]

    def text(self, x: int, y: int, line: str, scale: int = 1) -> None:
        for k, ch in enumerate(line):
            if ch == " ":
                continue
            at = x + k * CELL * scale
            if scale == 1:
                self.body.append(f'<use href="#{self._id(ch)}" x="{at}" y="{y}"/>')
            else:
                self.body.append(f'<use href="#{self._id(ch)}" transform="translate({at} {y}) scale({scale})"/>')

    def rule(self, x: int, y: int, width: int) -> None:
        self.body.append(f'<rect x="{x}" y="{y}" width="{width}" height="1"/>')


def page_size(pub: Publication) -> tuple[int, int]:
    rows = TITLE_ROWS + 1 + COLUMN_LINES + 2  # (+2: the footer and the rule over it)
    return 2 * MARGIN + pub.width * CELL, 2 * MARGIN + rows * ROW


def svg(pub: Publication, page: Page, glyphs: GlyphSet) -> str:
    """One page as an SVG document."""
    width, height = page_size(pub)
    canvas = _Canvas(glyphs, pub.listing)
    y = MARGIN
    if page.number == 1:
        canvas.text(MARGIN, y, pub.title, scale=2)
        y += TITLE_ROWS * ROW + ROW
        for row in page.header:
            canvas.text(MARGIN, y, row)
            y += ROW
    else:
        y += (TITLE_ROWS + 1) * ROW
    for k, column in enumerate(page.columns):
        x = MARGIN + k * (page.column_width + GUTTER) * CELL
        for n, line in enumerate(column):
            canvas.text(x, y + n * ROW, line)
    foot = height - MARGIN - ROW
    canvas.rule(MARGIN, foot - ROW // 2, pub.width * CELL)
    canvas.text(MARGIN, foot, page.footer)
    source = f"glyphs: {glyphs.source}"
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{html.escape(pub.title)} ({html.escape(pub.format.name)}), page {page.number}</title>",
        f"<desc>{html.escape(source)}</desc>",
        "<defs>", *canvas.defs, "</defs>",
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
        f'<g fill="{INK}">', *canvas.body, "</g>",
        "</svg>", ""])


def page_name(page: Page) -> str:
    return f"page-{page.number}.svg"


def html_page(pub: Publication, glyphs: GlyphSet) -> str:
    """The publication as one HTML page: the title, the header, each page's SVG, the listing's text."""
    e = html.escape
    pages = [f'<p><img src="{page_name(p)}" alt="{e(pub.title)}, page {p.number}" style="max-width:100%"></p>'
             for p in pub.pages]
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{e(pub.title)}</title>",
        "</head>",
        "<body>",
        f"<h1>{e(pub.title)}</h1>",
        "<p>" + "<br>\n".join(e(row) for row in pub.facts) + "</p>",
        *pages,
        f"<p>The listing as text ({e(pub.format.name)}), to copy:</p>",
        f"<pre>{e(pub.listing)}</pre>",
        f"<p><small>Glyphs: {e(glyphs.source)}.</small></p>",
        "</body>",
        "</html>", ""])
