"""Listings printed without checksums: plain BASIC and Profi-Ass source, found in OCR text.

A magazine issue prints, beside its MSE and Checksummer listings, BASIC programs with no
checksum and assembler sources in Profi-Ass 64's line-numbered form (as the Superhirn article
prints its source: ``100 sys32768 110 .opt oo,p 120 *= $3400 ...``, all lines in one row).
Both are numbered lines; :func:`find` cuts them out of the rows no other listing holds:

- a row is cut at each number that goes on from the line before (greater, not by more than
  :data:`MAX_STEP`), stands after a blank, outside quotes and not after an operator or a
  ``GOTO``-like word, and is followed by a statement's first character;
- lines whose numbers rise form a stretch; a stretch of :data:`MIN_LINES` lines or more is a
  listing when its lines read as one language: Profi-Ass (a mnemonic, a pseudo-op, a label, a
  ``name = value``, a comment) or BASIC V2 (each statement a keyword or an assignment, as the
  C64's CRUNCH reads it).

No checksum checks these lines, so none is called verified or repaired: a BASIC line is taken
as printed (a line the grammar refuses is "still bad"); a Profi-Ass listing is whole when the
assembler assembles it (its errors name the lines still bad).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from asm6502.basic import v7
from asm6502.basic.case import from_capitals, looks_all_capitals
from asm6502.basic.tokenizer import BASIC_START, MAX_LINE_NUMBER, crunch_text, link_program
from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error
from asm6502.opcodes import OPCODES

MIN_LINES = 4  # numbered lines in a row of rising numbers before they are taken as a listing
MAX_STEP = 1000  # a line number more than this above the last one is no line start
GRAMMAR_SHARE = 0.75  # lines of a stretch that must read as the language for it to be a listing
PROSE_ROWS = 2  # rows of other text between lines that end a stretch

_NUMBER = re.compile(r"(?:(?<=\s)|^)(\d{1,5})(?=\s+\S)")
_STATEMENT_START = re.compile(r"[A-Za-z.;*?\"!:]")  # (':' too: the 64'er sets statements in with it)
_NOT_AFTER = re.compile(r"(?i)(?:goto|gosub|then|run|list|step|to|[-+*/=<>(,#^])\s*$")
MNEMONICS = frozenset(m.lower() for m in OPCODES)
_ASM_NAME = re.compile(r"(?i)^[a-z][a-z0-9_]*")
_STATEMENT_TOKENS = frozenset(range(0x80, 0xA3)) | {0xCB}  # END .. NEW, GO: the keywords a statement starts with
_REM, _DATA, _EQUALS = 0x8F, 0x83, 0xB2


@dataclass(frozen=True)
class Line:
    number: int
    text: str
    row: int  # 1-based row of the text


@dataclass(frozen=True)
class PlainListing:
    """A listing found: its language ("basic" or "profi-ass"), its lines, what was read."""

    language: str
    lines: tuple[Line, ...]
    prg: bytes  # the program (BASIC) or the assembled machine code (Profi-Ass); b"" if none
    bad: int  # lines the grammar or the assembler refused
    diagnostics: tuple[Diagnostic, ...]
    source: str = ""  # Profi-Ass: the source as the assembler reads it

    @property
    def first_row(self) -> int:
        return self.lines[0].row

    @property
    def last_row(self) -> int:
        return self.lines[-1].row


def _cut(row: str, last: int) -> list[tuple[int, str]]:
    """The numbered lines of one row (a cell of it), given the last line number before."""
    starts: list[tuple[int, int, int]] = []
    for m in _NUMBER.finditer(row):
        n = int(m.group(1))
        before = row[: m.start()]
        if starts or before.strip():
            if not (last < n <= min(MAX_LINE_NUMBER, last + MAX_STEP)) or before.count('"') % 2 \
                    or _NOT_AFTER.search(before):
                continue
        elif n > MAX_LINE_NUMBER:
            return []
        after = row[m.end():].lstrip()
        if not _STATEMENT_START.match(after):
            continue
        starts.append((m.start(), m.end(), n))
        last = n
    out = []
    for k, (s, e, n) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(row)
        out.append((n, row[e:end].strip()))
    return out if starts and not row[: starts[0][0]].strip() else []


_BARE_NUMBER = re.compile(r"^\s*\d{1,5}\s*$")
_SPLIT_NUMBER = re.compile(r"^\d{1,4}\s+[A-Za-z]")


def cells(row: str) -> list[str]:
    """The tab-separated cells of a row, a cell of a bare line number joined with the cell after
    it (OCR gives a line's number and its text as two cells: ``1<TAB>DATA 169, 49``)."""
    out: list[str] = []
    for cell in row.split("\t"):
        if out and _BARE_NUMBER.match(out[-1]) and cell.strip():
            # (digits going on in the next cell are the number's: LINGET skips blanks between digits)
            out[-1] = out[-1].strip() + ("" if _SPLIT_NUMBER.match(cell) else " ") + cell
        else:
            out.append(cell)
    return out


def numbered_lines(text: str, taken: set[int]) -> list[list[Line]]:
    """Stretches of numbered lines with rising numbers in the rows not in *taken* (of any length)."""
    stretches: list[list[Line]] = []
    current: list[Line] = []
    prose = 0
    for r, row in enumerate(text.split("\n"), start=1):
        if r in taken:
            prose = PROSE_ROWS
            continue
        found = []
        last = current[-1].number if current else -1
        for cell in cells(row):
            for n, t in _cut(cell, last):
                found.append(Line(n, t, r))
                last = n
        if not found:
            if row.strip():
                prose += 1
            continue
        if current and (prose >= PROSE_ROWS or found[0].number <= current[-1].number):
            stretches.append(current)
            current = []
        prose = 0
        for line in found:
            if current and line.number <= current[-1].number:
                stretches.append(current)
                current = []
            current.append(line)
    if current:
        stretches.append(current)
    return _mended(stretches, text.split("\n"))


def _mended(stretches: list[list[Line]], rows: list[str]) -> list[list[Line]]:
    """Stretches one after the other with no text between joined where one line number breaks
    the rise and its neighbours go on past it (OCR read the number of the last line of the first,
    or of the first line of the second, wrong: 120 130 180 140 150 or 120 130 40 150 160)."""
    out: list[list[Line]] = []
    for b in stretches:
        a = out[-1] if out else None
        # (each on two rows or more: the two lines of a row of a listing in two columns are no such pair)
        if a is not None and len({line.row for line in a}) > 1 and len({line.row for line in b}) > 1 and \
                not any(rows[r - 1].strip() for r in range(a[-1].row + 1, b[0].row)) and (
                len(a) >= 2 and a[-2].number < b[0].number <= a[-2].number + MAX_STEP
                or len(b) >= 2 and a[-1].number < b[1].number <= a[-1].number + MAX_STEP):
            out[-1] = a + b
        else:
            out.append(b)
    return out


def out_of_sequence(lines: tuple[Line, ...] | list[Line]) -> list[Line]:
    """The lines whose number breaks the rise where the lines on either side of it rise (at an
    end: where it does not rise from, or to, its one neighbour)."""
    out = []
    for k, line in enumerate(lines):
        before = lines[k - 1].number if k else -1
        after = lines[k + 1].number if k + 1 < len(lines) else MAX_LINE_NUMBER + 1
        if before < after and not before < line.number < after:
            out.append(line)
    return out


def columns(text: str, taken: set[int], row_lines: Callable[[str], list[tuple[int, str]]]) -> list[list[Line]]:
    """The runs of lines of a listing printed in columns side by side (*row_lines*: a row's
    numbered lines, left to right): per column (the first, second ... line of a row) its lines
    whose numbers rise, cut where PROSE_ROWS rows of other text stand between; a run of the
    second column joined after the run of the first that stands beside it and ends below its
    first number (the listing goes on at the top of the right column)."""
    runs: list[list[Line]] = []
    current: dict[int, list[Line]] = {}
    prose = 0
    for r, row in enumerate(text.split("\n"), start=1):
        lines = [] if r in taken else row_lines(row)
        if not lines:
            if row.strip() or r in taken:
                prose += 1
            if prose >= PROSE_ROWS:
                runs.extend(current.values())
                current = {}
            continue
        prose = 0
        for k, (n, t) in enumerate(lines):
            run = current.setdefault(k, [])
            if run and not run[-1].number < n <= run[-1].number + MAX_STEP:
                runs.append(run)
                run = current[k] = []
            run.append(Line(n, t, r))
    runs.extend(current.values())
    runs = sorted((run for run in runs if run), key=lambda run: run[0].row)
    out: list[list[Line]] = []
    used: set[int] = set()
    for i, a in enumerate(runs):
        if i in used:
            continue
        used.add(i)
        for j, b in enumerate(runs):
            if j not in used and a[0].row <= b[0].row <= a[-1].row and b[0].number > a[-1].number:
                a = a + b
                used.add(j)
                break
        out.append(a)
    return out


def _cell_lines(row: str) -> list[tuple[int, str]]:
    """The numbered lines of a row, cell by cell (a line's number starts its cell)."""
    return [(n, t) for cell in cells(row) for n, t in _cut(cell, -1)]


def asm_shaped(text: str) -> bool:
    """A Profi-Ass statement: a mnemonic, a pseudo-op, a comment, ``*=``, ``name = value``, or a
    label before one of them."""
    t = text.strip().lower()
    if not t or t[0] in ".;*":
        return True
    m = _ASM_NAME.match(t)
    if m is None:
        return False
    word, rest = m.group(0), t[m.end():].lstrip()
    if word in MNEMONICS and (not rest or rest[0] in "#$%(<>;:" or rest[0].isalnum()):
        return True
    if rest.startswith("="):
        return True
    second = _ASM_NAME.match(rest)
    return second is not None and (second.group(0) in MNEMONICS or rest[0] in ".;")


def basic_body(text: str, upper: bool) -> bytes | None:
    """The bytes CRUNCH stores for a printed line's text; None when the text is no BASIC text."""
    try:
        return crunch_text(from_capitals(text) if upper else text)
    except ValueError:
        return None


def basic_grammatical(body: bytes, starts: frozenset[int] = _STATEMENT_TOKENS) -> bool:
    """Every statement of a crunched line starts with a statement keyword (one of *starts*: V2's
    by default) or is an assignment."""
    statements: list[bytes] = []
    current = bytearray()
    quote = False
    k = 0
    while k < len(body):
        b = body[k]
        if b == 0x22:
            quote = not quote
        if not quote and b == ord(":"):
            statements.append(bytes(current))
            current = bytearray()
        elif not quote and not current.strip() and b == _REM:
            current.append(b)
            break  # the rest of the line is the remark
        else:
            current.append(b)
        k += 1
    statements.append(bytes(current))
    for s in statements:
        s = s.strip()
        if not s or s[0] in starts:
            continue
        m = re.match(rb"[A-Za-z][A-Za-z0-9]*[$%]?(\(.*\))?\s*", s)
        if m is None or m.end() >= len(s) or s[m.end()] != _EQUALS:
            return False
    return True


def find(text: str, taken: set[int], filename: str = "<input>") -> list[PlainListing]:
    """Every plain BASIC and Profi-Ass listing in the rows of *text* not in *taken*: a stretch of
    MIN_LINES lines or more that reads as one language, or a shorter one of BASIC lines that
    reads as nothing else (:func:`short_basic`)."""
    out: list[PlainListing] = []
    shorts: list[PlainListing] = []  # short ones: kept unless a listing in columns holds their rows
    rows = text.split("\n")
    for stretch in numbered_lines(text, taken):
        if _checksummed(stretch):
            continue
        if len(stretch) < MIN_LINES:
            if len({line.row for line in stretch}) < len(stretch):
                continue  # (two lines on one row: two columns' lines, read below)
            # (a short listing's lines begin their rows: 't<TAB>16 Sprites vor' is a table's; a line
            # beside article text after them is a later piece's, joined to them by the scan)
            begins = [rows[line.row - 1].lstrip().startswith(str(line.number)) for line in stretch]
            stretch = stretch[: begins.index(False)] if False in begins else stretch
            if not stretch:
                continue
            p = short_basic(stretch, filename)
            if p is not None:
                shorts.append(p)
            continue
        asm = sum(asm_shaped(line.text) for line in stretch)
        if asm >= GRAMMAR_SHARE * len(stretch):
            out.append(_profi_ass(stretch, filename))
            continue
        p = read_basic(stretch, filename)
        if p.bad <= (1 - GRAMMAR_SHARE) * len(stretch):
            out.append(p)
    held = taken | {line.row for p in out for line in p.lines}
    listed = len(out)
    for run in columns(text, held, _cell_lines):  # a listing in two columns: the rows above hold none of it
        if len({line.row for line in run}) == len(run) or _checksummed(run):
            continue
        if len(run) < MIN_LINES:
            short = short_basic(run, filename)
            if short is not None:
                out.append(short)
        elif sum(asm_shaped(line.text) for line in run) >= GRAMMAR_SHARE * len(run):
            out.append(_profi_ass(run, filename))
        elif (p := read_basic(run, filename)).bad <= (1 - GRAMMAR_SHARE) * len(run):
            out.append(p)
    in_columns = {line.row for p in out[listed:] for line in p.lines}
    out += [p for p in shorts if not any(line.row in in_columns for line in p.lines)]
    return sorted(out, key=lambda p: p.first_row)


_CHECKSUM_FIELD = re.compile(r"<\s*\d{1,3}\s*>\s*$")


def _checksummed(stretch: list[Line]) -> bool:
    """Whether most lines end in a Checksummer field (``<117>``): a Checksummer listing the
    Checksummer reader could not lay out, no plain one."""
    return sum(bool(_CHECKSUM_FIELD.search(line.text)) for line in stretch) * 2 > len(stretch)


def _bodies(stretch: list[Line]) -> tuple[str, list[bytes | None], list[bool]]:
    """The dialect a stretch reads best in ("basic": V2, "basic-7.0": the C128's), each line's
    bytes in it and whether the grammar reads each: 7.0 where it reads more lines than V2 does
    (a line of V2 reads the same in 7.0 unless a name holds one of 7.0's keywords)."""
    upper = looks_all_capitals(" ".join(line.text for line in stretch))
    v2, good2 = _v2(stretch, upper)
    if not all(good2) and _nearly_all(stretch, not upper):  # a stray small letter (OCR's l for I) in capitals
        other = _v2(stretch, not upper)
        if sum(other[1]) > sum(good2):
            v2, good2 = other
    if all(good2):
        return "basic", v2, good2
    seven = [_v7_body(line.text) for line in stretch]
    good7 = [b is not None and basic_grammatical(b, v7.STATEMENT_STARTS) for b in seven]
    # (7.0 reads capitals whatever the case: it is taken only for lines its own keywords make read)
    gained = [g7 and not g2 and b is not None and max(outside_strings(b), default=0) >= 0xCC
              for g2, g7, b in zip(good2, good7, seven, strict=True)]
    if any(gained) and sum(good7) > sum(good2):
        return "basic-7.0", seven, good7
    return "basic", v2, good2


CASE_SHARE = 0.9  # letters of the one case, of a listing read in it though looks_all_capitals says otherwise


def _nearly_all(stretch: list[Line], upper: bool) -> bool:
    letters = [c for line in stretch for c in line.text if c.isalpha()]
    return bool(letters) and sum(c.isupper() == upper for c in letters) >= CASE_SHARE * len(letters)


def _v2(stretch: list[Line], upper: bool) -> tuple[list[bytes | None], list[bool]]:
    bodies = [basic_body(line.text, upper) for line in stretch]
    return bodies, [b is not None and basic_grammatical(b) for b in bodies]


_QUOTES = str.maketrans("\u201c\u201d\u201e", '"""')  # the quote marks OCR prints for BASIC's


def _v7_body(text: str) -> bytes | None:
    try:
        return v7.crunch_text(text.translate(_QUOTES))
    except ValueError:
        return None


def read_basic(stretch: list[Line], filename: str) -> PlainListing:
    """A plain BASIC listing of *stretch* in the dialect it reads best in; its lines the grammar
    refuses are still bad."""
    language, bodies, good = _bodies(stretch)
    return _basic(stretch, bodies, good, filename, language)


SHORT_TYPED = 80  # characters a line of a short listing holds at most, its number with it (two screen rows)


def short_basic(stretch: list[Line], filename: str) -> PlainListing | None:
    """A listing of one to MIN_LINES-1 lines (Tips & Tricks' one-liners), or None: every line
    reads as BASIC, fits two screen rows, and no word of five letters or more is left of it
    outside quotes, REM and DATA once its keywords are taken out (prose that starts with a number
    -- '1985 erschien ...' -- leaves its words), and one of its statements starts with a keyword."""
    language, bodies, good = _bodies(stretch)
    if not all(good) or any(len(f"{line.number} {line.text}") > SHORT_TYPED for line in stretch):
        return None
    code = [outside_strings(b) for b in bodies if b is not None]
    if any(prose_left(line.text) for line in stretch) or not any(
            any(s.strip()[:1] and s.strip()[0] in (v7.STATEMENT_STARTS if language == "basic-7.0" else _STATEMENT_TOKENS)
                for s in c.split(b":")) for c in code):
        return None
    return _basic(stretch, bodies, good, filename, language)


_KEYWORDS = re.compile("|".join(re.escape(k) for k in sorted(v7.TOKENS, key=len, reverse=True)), re.IGNORECASE)
_STRINGS = re.compile(r'"[^"]*"?|(?i:rem).*$|(?i:data)[^:]*')
_PROSE_WORD = re.compile(r"[^\W\d_]{5,}")


def prose_left(text: str) -> bool:
    """Whether a word of five letters or more is left of a printed line outside its strings, REM
    and DATA once its keywords (V2's and 7.0's) are taken out: prose ('1 Gehaeuse'), not code."""
    return bool(_PROSE_WORD.search(_KEYWORDS.sub(" ", _STRINGS.sub(" ", text))))


def outside_strings(body: bytes) -> bytes:
    """A crunched line without what stands in quotes, after REM and after DATA (up to a ':')."""
    out = bytearray()
    quote = data = False
    for b in body:
        if b == 0x22:
            quote = not quote
            continue
        if quote:
            continue
        if b == _REM:
            out.append(b)
            break
        if data and b != ord(":"):
            continue
        data = b == _DATA
        out.append(b)
    return bytes(out)


def _basic(stretch: list[Line], bodies: list[bytes | None], good: list[bool], filename: str,
           language: str = "basic") -> PlainListing:
    diags = [error(f"line {line.number}: not read as BASIC (each statement a keyword or an assignment); "
                   f"it reads: {line.number} {line.text[:60]}", Span(filename, line.row, 1))
             for line, ok in zip(stretch, good, strict=True) if not ok]
    diags += [error(f"line {line.number}: its number breaks the rise of the numbers around it (misread?); "
                    f"it reads: {line.number} {line.text[:60]}", Span(filename, line.row, 1))
              for line, ok in zip(stretch, good, strict=True) if ok and line in out_of_sequence(stretch)]
    entries = [(line.number, body, line.row) for line, body in zip(stretch, bodies, strict=True) if body is not None]
    try:
        prg, _ = link_program(entries, v7.START if language == "basic-7.0" else BASIC_START)
    except ValueError as exc:
        diags.append(error(str(exc), Span(filename, stretch[0].row, 1)))
        prg = b""
    return PlainListing(language, tuple(stretch), prg, len(diags), tuple(diags))


_PROSE_START = re.compile(r"(?<=[a-z0-9\-])[A-Z\u00c0-\u00de][a-z\u00df-\u00ff]")
MAX_TYPED = 80  # characters of a line with its number: the C64's screen editor takes two rows of 40


def _without_prose(stretch: list[Line]) -> list[Line]:
    """The last line of a listing in small letters, without the article text OCR ran into it
    ('3240 aufgehts jmp $3400 ; programm-startAnmerkung: Urspruenglich ...'): cut before the first
    capital that follows a small letter, where the line is longer than a C64 line can be typed."""
    last = stretch[-1]
    if any(c.isupper() for line in stretch[:-1] for c in line.text):
        return stretch
    m = _PROSE_START.search(last.text)
    if m is None or len(f"{last.number} {last.text}") <= MAX_TYPED:
        return stretch
    return stretch[:-1] + [Line(last.number, last.text[: m.start()].rstrip(), last.row)]


def _on_page(d: Diagnostic, stretch: list[Line], filename: str) -> Diagnostic:
    """The assembler's diagnostic with its place on the page: the source's n-th line is the
    stretch's n-th line, which stands in its row of the text."""
    span = d.span
    if span is None or not 1 <= span.line <= len(stretch):
        return d
    return d.replace(span=Span(filename, stretch[span.line - 1].row, span.col, span.length, span.source, span.basic_line))


class _NoFiles:
    """The gate a listing read from a page assembles with: a source that names another file
    ('.file', '.lst') names one of the magazine's disk, not one beside the text."""

    def found(self, path, what: str = "input"):
        return path  # (and reading it is refused)

    def read(self, path, *args, **kwargs) -> bytes:
        raise FileNotFoundError(2, "a listing read from a page loads no file (its source names another one)",
                                str(path))


def _profi_ass(stretch: list[Line], filename: str) -> PlainListing:
    return assembled(_without_prose(stretch), filename)


def assembled(stretch: list[Line], filename: str) -> PlainListing:
    """A Profi-Ass listing of *stretch*'s lines, assembled (whole when it assembles; its errors
    name the lines still bad)."""
    from asm6502.asm.pipeline import assemble

    source = "".join(f"{line.number} {line.text}\n" for line in stretch)
    try:
        result = assemble(source, filename, files=_NoFiles())
    except DiagnosticError as exc:
        lines = {d.span.line for d in exc.diagnostics if d.is_error and d.span is not None}  # (source lines)
        errors = tuple(_on_page(d, stretch, filename) for d in exc.diagnostics if d.is_error)
        return PlainListing("profi-ass", tuple(stretch), b"", max(1, len(lines)), errors, source)
    except OSError as exc:  # (a file the source names: see _NoFiles)
        problem = error(f"the source names the file '{exc.filename}', which is not on the page",
                        Span(filename, stretch[0].row, 1))
        return PlainListing("profi-ass", tuple(stretch), b"", 1, (problem,), source)
    return PlainListing("profi-ass", tuple(stretch), result.prg, 0, (), source)


__all__ = ["Line", "PlainListing", "asm_shaped", "assembled", "columns", "out_of_sequence", "read_basic", "short_basic", "basic_grammatical", "find", "numbered_lines"]
