"""A magazine page or a whole issue's OCR text in, every type-in listing in it found and read.

Each family's reader finds its own listings in the whole text (MSE: by their ``PROGRAMM :``
headers and the shape of their lines; Checksummer: numbered lines ending in ``<NNN>``, a new
listing where the line numbers start again or a caption between names another listing, one
listing over a page break where the captions name the same one, a column of checksums printed
after the lines or of numbers before them set back (:mod:`.cslisting.columns`); the English formats: Compute!'s ``:rem 123`` and
``GE 10 ...`` lines, MLX lines, Ahoy! listings with their code table) and decides the version by the checksums; what a
reader finds nothing of is not reported.  Each listing found is named by its format in the
registry (:mod:`.formats`) and the line of the text where it starts.

In the rows no MSE or Checksummer listing holds, listings printed without checksums are found:
Hypra-Ass source (``hypra-ass``, :mod:`.hypra`), then (:mod:`.plain`) plain BASIC (``basic``, or
``basic-7.0`` where the C128's keywords make its lines read) and Profi-Ass source (``profi-ass``),
in one column or two, of one line or more (BASIC) or four (a source); a listing's printed pieces
are joined where the captions say they are one; a listing's later pieces the readers found apart from
a short first piece are joined to it, and a one-line reading that is no listing's is reported as a
possible fragment, not as a program (:mod:`.pieces`).  A listing not whole with no line still bad says
what keeps it from being whole (:func:`what_is_wrong`).  Each listing is
named as a person finds it in the issue: the MSE header's program name, else the caption the
magazine printed next to it (``Listing 1. »Disk-Designer« ...``), and the page its footer gives.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from asm6502.basic.tokenizer import link_program
from asm6502.typein import hypra, pieces, plain
from asm6502.typein.cslisting import read as cs_read
from asm6502.typein.cslisting.columns import LINE_START, listing_row, set_columns_back
from asm6502.typein.cslisting.layout import find_records
from asm6502.typein.formats import FORMATS, Reading
from asm6502.typein.mselisting import checking as mse_read

BASICS = ("basic", "basic-7.0")
PLAIN = ("basic", "basic-7.0", "profi-ass", "hypra-ass")  # listings printed without checksums (:mod:`.plain`), beside FORMATS


@dataclass(frozen=True)
class Found:
    """One listing of the text: its format's registry name (or one of PLAIN), its reading."""

    format: str
    title: str  # the MSE header's program name, else the caption printed with it; "" when none
    reading: Reading
    last_line: int = 0  # the last row of the text the listing holds
    page: int | None = None  # the page the magazine's footer gives, when one is near
    source: str = ""  # a Profi-Ass listing's source text
    numbers: tuple[tuple[int, int], ...] = ()  # (line number, row) of each line; an MSE listing's (address, row)
    headed: bool = False  # an MSE listing: its ``PROGRAMM :`` header was read

    @property
    def line(self) -> int:
        return self.reading.first_line


@dataclass(frozen=True)
class Scan:
    listings: list[Found]
    fragments: list[Found]  # one-line readings no person takes for a program (:func:`pieces.fragments`)


def scan(text: str, filename: str = "<input>") -> list[Found]:
    """Every type-in listing in *text*, in the order they start.  Never raises for bad input."""
    return scan_all(text, filename).listings


def scan_all(text: str, filename: str = "<input>", progress: Callable[[int, int], None] | None = None) -> Scan:
    """Every type-in listing in *text* and the possible fragments, each in the order they start.
    *progress* is told (rows read, rows in all) as the Checksummer stretches are read, where a
    scan's time goes (a whole issue's text takes seconds, each listing's fixes ranked)."""
    total = text.count("\n") + 1
    found: list[Found] = []
    taken: set[int] = set()  # rows an MSE or Checksummer listing holds
    for r in mse_read.read_listings(text, filename):
        if not r.report or not any(x.status in ("verified", "repaired") for x in r.report):
            continue  # no line of it verifies: not an MSE listing
        name = f"mse-{r.version}"
        rows = [x.line for x in r.report]
        taken.update(rows)
        found.append(Found(name, (r.name or "").strip(), Reading(
            name, r.prg, r.count("verified"), r.count("repaired"), r.count("bad"), min(rows), r.diagnostics),
            max(rows), numbers=tuple((x.address, x.line) for x in r.report), headed=r.name is not None))
    columned = set_columns_back(text)
    for c in _checksummer_listings(columned, filename, taken, (lambda row: progress(row, total)) if progress else None):
        taken.update(range(min(x.line for x in c.lines), max(x.line for x in c.lines) + 1))
        found.append(_cs_found(c))
    taken.update(n for n, (a, b) in enumerate(zip(text.split("\n"), columned.split("\n")), start=1) if a != b)
    for e in _english(text, filename):
        taken.update(range(e.line, e.last_line + 1))
        found.append(e)
    for h in _joined(hypra.find(text, taken, filename), text, filename):
        taken.update(range(h.first_row, h.last_row + 1))
        found.append(_plain_found(h))
    for p in _joined(plain.find(text, taken, filename), text, filename):
        found.append(_plain_found(p))
    assert all(f.format in FORMATS or f.format in PLAIN for f in found)
    text_rows = text.split("\n")
    page = pieces.Page(text_rows, lambda rows, fam: _read_rows(rows, fam, filename),
                       lambda a, first, b, single: _parted_between(text_rows, a, first, b, single),
                       lambda row, held: _own_caption(text_rows, row, held), lambda rows, fam: _in_order(rows, fam, filename))
    found = pieces.led_in(pieces.placed(pieces.joined(sorted(found, key=lambda f: f.line), page), page), page)
    footers = _footers(text_rows)
    named = [Found(f.format, f.title or _caption_row_after(text_rows, f.last_line) or caption(text_rows, f.line, f.last_line)
                   or _caption_within(text_rows, f),
                   f.reading, f.last_line,
                   _page(footers, f.line, f.last_line), f.source, f.numbers, f.headed) for f in found]
    listings, loose = pieces.fragments(sorted(named, key=lambda f: f.line), page)
    if progress is not None:
        progress(total, total)
    return Scan(listings, loose)


def _cs_found(c: cs_read.ReadResult) -> Found:
    name = f"checksummer-{c.version}"
    return Found(name, "", Reading(
        name, c.prg, c.count("verified"), c.count("repaired"), c.count("bad") + c.count("unchecked"),
        min(x.line for x in c.lines), c.diagnostics), max(x.line for x in c.lines),
        numbers=tuple((x.number, x.line) for x in c.lines))


def _plain_found(p: plain.PlainListing) -> Found:
    return Found(p.language, "", Reading(p.language, p.prg, 0, 0, p.bad, p.first_row, p.diagnostics, len(p.lines)),
                 p.last_row, source=p.source, numbers=tuple((x.number, x.row) for x in p.lines))


def _read_rows(text: str, family: str, filename: str) -> list[Found]:
    """The listings of *family* that its reader finds in *text* (the rows of a listing's pieces)."""
    if family == "basic":
        return [_plain_found(p) for p in plain.find(text, set(), filename) if p.language in BASICS]
    return [_cs_found(c) for c in cs_read.read_listings(set_columns_back(text), filename)
            if _verifies(c) and f"checksummer-{c.version}" == family]


def _in_order(text: str, family: str, filename: str) -> Found | None:
    """The lines of *family* in *text* read as one listing in the order of their numbers (each
    number once), from its first row to its last; None when it holds none.  Plain BASIC: the
    numbered lines read again as one; Checksummer: each line verifies by its own checksum, so the
    listings its reader finds are one listing of all their lines."""
    if family == "basic":
        lines = sorted({line.number: line for stretch in plain.numbered_lines(text, set())
                        for line in stretch}.values(), key=lambda line: line.number)
        if not lines:
            return None
        f = _plain_found(plain.read_basic(lines, filename))
        rows = [line.row for line in lines]
        return Found(f.format, "", replace(f.reading, first_line=min(rows)), max(rows), numbers=f.numbers)
    parts = [c for c in cs_read.read_listings(set_columns_back(text), filename) if _verifies(c)]
    reports = sorted((x for c in parts for x in c.lines), key=lambda x: x.number)
    if not parts or len({c.version for c in parts}) > 1 or len({x.number for x in reports}) < len(reports):
        return None
    try:
        prg, _ = link_program([(x.number, x.body, x.line) for x in reports if x.body is not None], parts[0].start)
    except ValueError:
        return None
    name = f"checksummer-{parts[0].version}"
    count = {status: sum(c.count(status) for c in parts) for status in ("verified", "repaired", "bad", "unchecked")}
    rows = [x.line for x in reports]
    return Found(name, "", Reading(name, prg, count["verified"], count["repaired"], count["bad"] + count["unchecked"],
                                   min(rows), tuple(d for c in parts for d in c.diagnostics)), max(rows),
                 numbers=tuple((x.number, x.line) for x in reports))


def _caption_within(rows: list[str], f: Found) -> str:
    """The caption on a row between a listing's pieces (the first piece's, its own): "" when none."""
    lines = {row for _, row in f.numbers}
    return next((caption(rows, n, n) for n in range(f.line, f.last_line + 1)
                 if n not in lines and _CAPTION_ROW.match(rows[n - 1])), "")


def _parted_between(rows: list[str], a: int, first: int, b: int, single: bool) -> bool:
    """Whether a caption on the rows after row *a* and before row *first* ends the listing there:
    unless the caption after row *b* names the same listing (a listing printed over several
    columns or pages has its caption on each), the magazine's caption under a listing ends it.
    A *single* line after it is a line split off the listing unless its own caption names another."""
    after = _caption_below(rows, b)
    between = [caption(rows, n, n) for n in range(a + 1, first)
               if any(_CAPTION_ROW.match(cell) for cell in rows[n - 1].split("\t"))]
    if single:
        return any(_other_listing(c, after) for c in between)
    return any(not (after and _same_listing(c, after)) for c in between)


def _own_caption(rows: list[str], row: int, held: set[int]) -> bool:
    """Whether a caption stands on one of the pieces.OWN_CAPTION_ROWS rows of text before or after
    *row* and is no other listing's: one above it that follows the last row of a listing (in
    *held*) is that listing's."""
    for step in (-1, 1):
        n, seen = row + step, 0
        while 1 <= n <= len(rows) and seen < pieces.OWN_CAPTION_ROWS and n not in held:
            if rows[n - 1].strip():
                if _caption_in(rows[n - 1]) is not None:
                    above = next((k for k in range(n - 1, 0, -1) if rows[k - 1].strip()), 0)
                    if step == 1 or above not in held:
                        return True
                seen += 1
            n += step
    return False


CAPTION = re.compile(r"\bListing(?:\s*\d+)?[.:]?\s[^\t]*")
CAPTION_ROWS = 6  # rows after a listing's last row (or before its first) where its caption may stand
MAX_CAPTION = 70
_FOOTER = re.compile(r"^\s*(\d{1,3})\s+\S{0,10}\s*$")
_ISSUE = re.compile(r"^\s*Ausgabe\s")


def caption(rows: list[str], first: int, last: int) -> str:
    """The caption the magazine printed with a listing (``Listing 1. »Disk-Designer«, ...``):
    in the rows just after its last row, else just before its first; "" when none."""
    for n in [*range(last, min(len(rows), last + CAPTION_ROWS) + 1), *range(first - 1, max(0, first - CAPTION_ROWS) - 1, -1)]:
        m = _caption_in(rows[n - 1]) if n >= 1 else None
        if m is not None:
            return _shown(m)
    return ""


def _shown(m: re.Match[str]) -> str:
    """A caption as the report shows it: its words, MAX_CAPTION characters at most."""
    text = " ".join(m.group(0).split())
    return text if len(text) <= MAX_CAPTION else text[: MAX_CAPTION - 3].rstrip() + "..."


def _caption_in(row: str) -> re.Match[str] | None:
    """The caption in a cell of *row*: a cell that starts with 'Listing', a short one that names
    it, or one where it follows a listing's last checksum ('... <178> Listing 1. Die User-Port-
    Alarmanlage', 10/85 p. 131) -- not the article's sentence about it ('In Listing 1 ist ein
    kleines Beispielprogramm zu finden, ...', 10/85 p. 18), short ones too when they lead in to
    what follows with a colon (a correction: '... in Listing 3 muß Zeile 120 so lauten:')."""
    for cell in row.split("\t"):
        m = CAPTION.search(cell)
        if m is None:
            continue
        before = cell[: m.start()].rstrip()
        if not before or before[-1] == ">" or _CAPTION_ROW.match(cell):
            return m
        if len(cell.strip()) <= MAX_CAPTION and not cell.rstrip().endswith(":"):
            return m
    return None


def _footers(rows: list[str]) -> list[tuple[int, int]]:
    """(row, page) of each page footer: a row of the page number (and a mark OCR made of the
    magazine's logo) over 'Ausgabe 9/September 1985'."""
    out = []
    for n, row in enumerate(rows[:-1], start=1):
        m = _FOOTER.match(row)
        if m is not None and _ISSUE.match(rows[n]):
            out.append((n, int(m.group(1))))
    return out


def _page(footers: list[tuple[int, int]], first: int, last: int) -> int | None:
    """The page of the first footer among a listing's rows (or within a few rows of them)."""
    near = [page for row, page in footers if first - CAPTION_ROWS <= row <= last + CAPTION_ROWS]
    return near[0] if near else None


ENGLISH_FAMILIES = ("proofreader", "bugrepellent", "mlx")


def _english(text: str, filename: str) -> list[Found]:
    """The English formats' listings: per family the version whose checksums verify the most
    lines as printed, and only where at least half of its lines (and two) do -- a reader takes any
    line of its shape, and a few lines of another format verify by chance."""
    found: list[Found] = []
    for family in ENGLISH_FAMILIES:
        best: Reading | None = None
        for fmt in (f for f in FORMATS.values() if f.family == family):
            for r in fmt.read(text, filename):
                if r.verified >= max(2, len(r.lines) / 2) and (best is None or r.verified > best.verified):
                    best = r
        if best is not None:
            found.append(Found(best.format, "", best, max((x.row for x in best.lines), default=best.first_line)))
    return found


PROSE_ROWS = 3  # rows of text in a row that hold no listing line: the listings before and after are two


def _stretches(text: str) -> list[tuple[int, int]]:
    """The stretches of *text* (first and last row, 1-based) that hold Checksummer lines, cut where
    article text stands between them and the line numbers start again: an issue's listings are
    read one stretch at a time (one listing's lines would be taken into the next one otherwise)."""
    used: dict[int, int] = {}  # row: the number of a listing line on it
    for r in find_records(text).records:
        for at in (r.line, r.checksum_line, *(p.line for p in r.pieces)):
            if at:
                used[at] = r.number
    rows = text.split("\n")
    stretches: list[tuple[int, int]] = []
    lo = hi = 0
    prose = 0
    for n, row in enumerate(rows, start=1):
        if n in used:
            if lo and prose >= PROSE_ROWS:
                stretches.append((lo, hi))
                lo = 0
            lo, hi, prose = lo or n, n, 0
        elif row.strip():
            prose += 1
    if lo:
        stretches.append((lo, hi))
    # a listing that goes on after the article text (its line numbers continue) is one stretch
    # -- unless a caption between them names another listing than the one after them (a listing
    # printed over several pages has its caption on each page, '(Schluß)' on the last)
    merged: list[tuple[int, int]] = []
    for lo, hi in stretches:
        if merged and min(v for k, v in used.items() if lo <= k <= hi) > max(
                v for k, v in used.items() if merged[-1][0] <= k <= merged[-1][1]) and \
                _same_listing(caption(rows, merged[-1][1], merged[-1][1]), caption(rows, hi, hi)):
            merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return [part for lo, hi in merged for part in _parted(rows, lo, hi, used)]


_CAPTION_ROW = re.compile(r"^\W{0,12}(?:64\W?er\W*)?Listing\b")


def _parted(rows: list[str], lo: int, hi: int, used: dict[int, int]) -> list[tuple[int, int]]:
    """The stretch *lo*-*hi* cut at each caption row inside it that names another listing than
    the next caption does: two listings printed one under the other with only a caption between
    (Tips & Tricks: 'Listing 1. Der Einzeiler zum Zeilencopy ...', then Listing 2's lines, whose
    numbers go on from it) are two, whatever their numbers."""
    until = min((k for k in used if k > hi), default=len(rows) + 1)  # the next listing line after the stretch
    captions = [n for n in range(lo, until) if n not in used and _CAPTION_ROW.match(rows[n - 1])]
    out = []
    for here, after in zip(captions, captions[1:]):
        if lo < here < hi and _other_listing(caption(rows, here, here), caption(rows, after, after)):
            body = [k for k in used if lo <= k < here]
            if body:
                out.append((lo, max(body)))
            lo = here + 1
    return [*out, (lo, hi)]


_CAPTION_NUMBER = re.compile(r"Listing\s*(\d+)")
_CAPTION_WORD = re.compile(r"[^\W\d_][\w\-]{5,}")
# words any caption may hold: no name of a listing
_CAPTION_COMMON = frozenset({"listing", "programm", "eingabe", "beachten", "bitte", "seite", "schluß", "schluss",
                             "version", "fortsetzung", "verwenden", "checksummer"})


_QUOTED = re.compile(r"»([^«]{1,30})«")


def _words(caption_text: str) -> set[str]:
    """The words of a caption that may name its listing: the long ones, and the name in »«
    whatever its length (»Demo«)."""
    return ({w.lower().strip("-") for w in _CAPTION_WORD.findall(caption_text)} - _CAPTION_COMMON) | {
        q.strip().lower() for q in _QUOTED.findall(caption_text)}


def _same_listing(before: str, after: str) -> bool:
    """Whether the captions before and after a gap are one listing's: no caption between, or the
    same listing number and a name they share ('Listing 1. »Disk-Designer«, Version für den C 64'
    and '... (Schluß)'; 'Listing. Schreiberling druckt ...' and 'Listing Schreiberling. Verwenden
    Sie ...'); a listing printed over several pages has its caption on each."""
    if not before or not after:
        return True
    numbers = [_CAPTION_NUMBER.search(c) for c in (before, after)]
    if all(numbers) and numbers[0].group(1) != numbers[1].group(1):  # type: ignore[union-attr]
        return False

    return bool(_words(before) & _words(after))


def _joined(listings: list[plain.PlainListing], text: str, filename: str) -> list[plain.PlainListing]:
    """The plain BASIC listings with the ones a listing's printed pieces gave joined: two listings
    one after the other are one when the second's numbers go on from the first's (a jump of more
    than plain.MAX_STEP cuts a stretch: 12/85 p. 79-81 Graphik-80's 10160 ... 12000, 14140 ...
    19900; a stretch whose lines the grammar refused is no listing: LITVERW's lines 7140-9310 on
    p. 74) and the captions after them name the same listing; the numbered rows between them whose
    numbers go on are lines of it that are still bad (no grammar read them)."""
    rows = text.split("\n")
    footers = {row for row, _ in _footers(rows)}
    out: list[plain.PlainListing] = []
    for p in listings:
        if p.language in BASICS and any(line.row in footers for line in p.lines):  # a page footer is no line
            kept = [line for line in p.lines if line.row not in footers]
            if len(kept) < plain.MIN_LINES:
                continue
            p = plain.read_basic(kept, filename)
        last = out[-1] if out else None
        if (last is not None and (last.language == p.language or {last.language, p.language} <= set(BASICS))
                and p.lines[0].number > last.lines[-1].number
                and _pieces_of_one(rows, last, p)):
            between = [line for line in _rows_between(rows, last, p) if line.row not in footers]
            out[-1] = _basic_of(last, between, p, filename)
        else:
            out.append(p)
    return out


def _pieces_of_one(rows: list[str], a: plain.PlainListing, b: plain.PlainListing) -> bool:
    """Whether *b* goes on from *a* (its numbers above a's already known): the captions after
    them name the same listing; where article text stands between, both must have a caption
    that does (an example in the text is no piece of the listing after it)."""
    before, after = caption(rows, a.last_row, a.last_row), _caption_below(rows, b.last_row)
    if _prose_between(rows, a, b) and not (before and after):
        return False
    return _same_listing(before, after)


def _prose_between(rows: list[str], a: plain.PlainListing, b: plain.PlainListing) -> bool:
    """Whether article text stands between two listings: a row longer than a caption that is
    none and does not start with a number (a line no grammar read is a row of the listing)."""
    return any(len(row := rows[r - 1].strip()) > MAX_CAPTION and not row[:1].isdigit() and _caption_in(row) is None
               for r in range(a.last_row + 1, b.first_row))


def _rows_between(rows: list[str], a: plain.PlainListing, b: plain.PlainListing) -> list[plain.Line]:
    """The numbered rows between *a* and *b* whose numbers rise from a's last line to b's first."""
    out: list[plain.Line] = []
    number = a.lines[-1].number
    for r in range(a.last_row + 1, b.first_row):
        m = LINE_START.match(rows[r - 1])
        if m and number < int(m.group(1)) < b.lines[0].number:
            number = int(m.group(1))
            out.append(plain.Line(number, rows[r - 1][m.end(1):].strip(), r))
    return out


def _basic_of(a: plain.PlainListing, between: list[plain.Line], b: plain.PlainListing | None,
              filename: str) -> plain.PlainListing:
    """One plain BASIC listing of the lines of *a*, the lines *between* (still bad unless the
    grammar reads them) and *b*, read again in one dialect and linked again (the pointers go on);
    a Profi-Ass or Hypra-Ass listing of the lines of *a* and *b*, assembled again."""
    if a.language == "profi-ass":
        return plain.assembled([*a.lines, *(b.lines if b else ())], filename)
    if a.language == "hypra-ass":
        return hypra.read([*a.lines, *(b.lines if b else ())], filename)
    return plain.read_basic([*a.lines, *between, *(b.lines if b else ())], filename)


def _verifies(c: cs_read.ReadResult) -> bool:
    return bool(c.lines) and any(x.status in ("verified", "repaired") for x in c.lines)


def _checksummer_listings(text: str, filename: str, taken: set[int],
                          reached: Callable[[int], None] | None = None) -> list[cs_read.ReadResult]:
    """The Checksummer listings of *text*, stretch by stretch; a listing the magazine printed over
    a page break (its caption, the page footer, maybe the next article's first rows between) is one:
    the last listing of a stretch and the first of the next are read as one when the numbers go on
    (the next one's first line above the last one's) and the captions after them name the same
    listing ('Listing 2. Demoprogramm zu »Hyperscreen«' and '... (Schluß)'), with no other
    listing's rows (*taken*) between.  The stretches cut at the prose alone; a stretch's reading
    may hold several listings (numbers that start again), so the rule looks at listings.
    *reached* is told each stretch's last row once it is read."""
    rows = text.split("\n")
    listings: list[cs_read.ReadResult] = []
    for lo, hi in _stretches(text):
        here = [c for c in cs_read.read_listings(_only(text, lo, hi), filename) if _verifies(c)]
        if listings and here and _goes_on(rows, listings[-1], here[0], taken):
            again = [c for c in cs_read.read_listings(_only(text, _first_row(listings[-1]), _last_row(here[0])), filename)
                     if _verifies(c)]
            if len(again) == 1:
                listings[-1] = again[0]
                here = here[1:]
        listings.extend(here)
        if reached is not None:
            reached(hi)
    return listings


def _first_row(c: cs_read.ReadResult) -> int:
    return min(x.line for x in c.lines)


def _last_row(c: cs_read.ReadResult) -> int:
    return max(x.line for x in c.lines)


def _goes_on(rows: list[str], before: cs_read.ReadResult, after: cs_read.ReadResult, taken: set[int]) -> bool:
    """Whether *after* continues *before*: its first line number above the last one's, the
    captions after both name the same listing, and no other listing stands between them."""
    numbers = (max(x.number for x in before.lines), min(x.number for x in after.lines))
    if numbers[1] <= numbers[0] or any(_last_row(before) < n < _first_row(after) for n in taken):
        return False
    return _same_listing(_caption_after(rows, _last_row(before)), _caption_after(rows, _last_row(after)))


CAPTION_REACH = 40  # rows after a listing's last row where its caption may stand past empty rows


def _caption_after(rows: list[str], row: int) -> str:
    """The caption printed after the listing that ends in *row*: the first caption row after it
    before the next numbered line (past a column of checksums, or the empty rows it leaves when it
    is set back beside its lines), else the one ``caption`` finds."""
    return _caption_row_after(rows, row) or caption(rows, row, row)


def _caption_below(rows: list[str], row: int) -> str:
    """The caption printed under the listing that ends in *row* (none above it: a caption above
    the listing's last rows is an earlier listing's)."""
    if found := _caption_row_after(rows, row):
        return found
    return next((_shown(m) for n in range(row + 1, min(len(rows), row + CAPTION_ROWS) + 1)
                 if (m := _caption_in(rows[n - 1])) is not None), "")


def _caption_row_after(rows: list[str], row: int) -> str:
    for n in range(row + 1, min(len(rows), row + CAPTION_REACH) + 1):
        if _CAPTION_ROW.match(rows[n - 1]):
            return caption(rows, n, n)
        if listing_row(rows[n - 1]):
            break
    return ""


def _other_listing(before: str, after: str) -> bool:
    """Whether two captions name two listings for certain: other listing numbers, or names on
    both that share no word ('Listing 2. Demo' and 'Listing 2. Demo (Fortsetzung)' are one)."""
    numbers = [_CAPTION_NUMBER.search(c) for c in (before, after)]
    if all(numbers):
        return numbers[0].group(1) != numbers[1].group(1)  # type: ignore[union-attr]

    return bool(_words(before)) and bool(_words(after)) and not _words(before) & _words(after)


def _only(text: str, lo: int, hi: int) -> str:
    """*text* with every row outside *lo*-*hi* left empty (the rows keep their numbers)."""
    return "\n".join(row if lo <= n <= hi else "" for n, row in enumerate(text.split("\n"), start=1))


def report(found: list[Found], filename: str, written: dict[int, str] | None = None,
           fragments: list[Found] | None = None) -> str:
    """The report of a scan: one row per listing (where it starts, its format, its lines by how
    they were read, whether it came back whole, the file written), then one per possible fragment."""
    written = written or {}
    loose = fragments or []
    rows = [f"{filename}: {len(found)} type-in listing{'s' if len(found) != 1 else ''}" + (
        f", {len(loose)} possible fragment{'s' if len(loose) != 1 else ''}" if loose else "")]
    for k, f in enumerate(found, start=1):
        r = f.reading
        title = f" {f.title!r}" if f.title else ""
        page = f" (p. {f.page})" if f.page is not None else ""
        out = f" -> {written[k]}" if k in written else ""
        if f.format in PLAIN:
            lines = (f"{r.unchecked} lines, no checksums (read as printed), {r.bad} still bad"
                     if f.format.startswith("basic") else
                     f"{r.unchecked} lines, no checksums, " + ("assembles" if r.whole else "does not assemble"))
        else:
            lines = f"{r.verified} verified, {r.repaired} repaired, {r.bad} still bad"
        # each line still bad is one decision of the review (basic read --review, mse read --review)
        verdict = "whole" if r.whole else \
            f"not whole, {r.bad} line{'s' if r.bad != 1 else ''} to correct" if f.format in PLAIN else \
            f"not whole, {r.bad} decision{'s' if r.bad != 1 else ''} needed" if r.bad else \
            f"not whole: {what_is_wrong(r)}"
        rows.append(f"{k}. line {f.line}{page}: {f.format}{title}: {lines}; {verdict}{out}")
    for f in loose:
        number = f.numbers[0][0] if f.numbers else 0
        page = f" (p. {f.page})" if f.page is not None else ""
        if f.format.startswith("mse-"):
            rows.append(f"- line {f.line}{page}: possible fragment, not a program: one {f.format} row (${number:04X}) "
                        f"with no header and no caption; check the print: a row of a listing whose header "
                        f"OCR lost (type it into that one) or of the article (nothing to type)")
            continue
        rows.append(f"- line {f.line}{page}: possible fragment, not a program: one {f.format} line ({number}) with no "
                    f"caption and no listing its number goes on; check the print: a line of a listing "
                    f"(type it into that one) or of the article (nothing to type)")
    return "\n".join(rows) + "\n"


_COUNT = re.compile(r"\((\d+) lines\)")
_OUT_OF_PLACE = ("out of order", "out of sequence", "not a line start", "outside the header's range", "duplicate line")


def what_is_wrong(r: Reading) -> str:
    """What keeps a listing whose lines all read from being whole, and what a person does about
    it: lines the page does not give (retyped from the magazine), lines whose address puts them
    in no place (checked against the print), else the first error."""
    errors = [d.message for d in r.diagnostics if d.is_error]
    missing = sum(int(m.group(1)) if (m := _COUNT.search(e)) else 1 for e in errors if "missing" in e)
    astray = sum(any(k in e for k in _OUT_OF_PLACE) for e in errors)
    parts = []
    if missing:
        parts.append(f"{missing} line{'s' if missing != 1 else ''} not found on the page "
                     f"(type {'them' if missing != 1 else 'it'} from the print)")
    if astray:
        parts.append(f"{astray} line{'s' if astray != 1 else ''} out of place "
                     f"(check {'their addresses' if astray != 1 else 'its address'} in the print)")
    if not parts:
        parts.append(errors[0] if errors else "nothing was read")
    return "; ".join(parts)
