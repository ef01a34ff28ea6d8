"""Reading a listing's text: where its lines are, each line's characters as read.

V1.0 lines are read by their structure (:mod:`asm6502.typein.mselisting.ocr`), V2.x lines by the characters
of the letter code after an address and ':'; a format (asm6502/typein/mselisting/formats.py) says which.
Without a header, the listing is the densest stretch of credible lines among the candidates.
"""

from __future__ import annotations

import bisect
import re

from asm6502.diagnostics import Diagnostic, Span, warning
from asm6502.tuples import SlotRecord, named_tuple
from asm6502.typein.mselisting import ocr
from asm6502.typein.mselisting.codec import HEX_LOOKALIKES, read_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.typein.mselisting.formats import MseFormat


class SourceText:
    """Line/column lookup for offsets into the listing text."""

    def __init__(self, text: str, filename: str):
        self.text = text
        self.filename = filename
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def line_text(self, line: int) -> str:
        begin = self.starts[line - 1]
        end = self.text.find("\n", begin)
        return self.text[begin : end if end >= 0 else len(self.text)].rstrip("\r")

    def line_end(self, offset: int) -> int:
        end = self.text.find("\n", offset)
        return len(self.text) if end < 0 else end

    def span(self, offset: int, length: int = 1, *, context: bool = True) -> Span:
        line = self.line_of(offset)
        col = offset - self.starts[line - 1] + 1
        source = self.line_text(line)
        # A run-together OCR line is too long to echo under every message.
        return Span(self.filename, line, col, length, source if context and len(source) <= 120 else None)


_LOOK_HEX = "".join(re.escape(c) for c in HEX_LOOKALIKES)
_ADDR_CHAR = f"[0-9A-Fa-f{_LOOK_HEX}]"
_RECORD_START = re.compile(rf"({_ADDR_CHAR}{{4}})[ \t]*[:;]")
_BARE_RECORD_START = re.compile(rf"^[ \t]*({_ADDR_CHAR}{{4}})(?=[ \t]+\S)", re.M)
_HEADER = re.compile(
    rf"P[RK][O0AQ]G[RK][A@4O][MN]+[ \t]*[:;]?[ \t]*(?:(?P<name>[^\n]*?)[ \t]+)?"
    rf"(?P<start>{_ADDR_CHAR}{{4}})[ \t]+(?P<end>{_ADDR_CHAR}{{4}})"
    rf"(?=[ \t]*(?:\r?\n|$|-{{3,}}|{_ADDR_CHAR}{{4}}[ \t]*[:;]))",
    re.I,
)


@named_tuple
class LineRecord:
    """One listing line as read."""

    address: int  # as printed (normalized)
    digits: str  # 4 address hex digits, then payload and checksum characters (normalized)
    printed: str  # the same characters as they appear in the text
    offsets: tuple[int, ...]  # text offset of each character in digits
    start: int  # text offset of the record
    text: str  # the record as it appears, for messages
    complete: bool  # the payload has the expected number of characters
    cells: tuple = ()  # V1.0: the payload as read (ocr.Cell), for ranking repairs


@named_tuple
class Header:
    """``PROGRAMM : NAME START END`` (END exclusive)."""

    name: str
    start: int
    end: int
    offset: int
    length: int


def find_header(text: str) -> Header | None:
    return next(headers(text), None)


def headers(text: str):
    for m in _HEADER.finditer(text):
        s, e = read_hex(m.group("start")), read_hex(m.group("end"))
        if s and e:
            start, end = int(s[0], 16), int(e[0], 16)
            end = end or 0x10000  # a program up to $FFFF ends at "0000"
            yield Header((m.group("name") or "").strip(), start, end, m.start(), m.end() - m.start())


def _candidates(text: str, begin: int, src: SourceText) -> list[tuple[int, int, int]]:
    """Record starts after *begin*: (record offset, address end offset, payload offset)."""
    found = {}
    for m in _RECORD_START.finditer(text, begin):
        addr = read_hex(m.group(1))
        if addr and addr[1] <= 1:
            found[m.start(1)] = (m.start(1), m.end(1), m.end())
    lines_with_colon = {src.line_of(off) for off in found}
    for m in _BARE_RECORD_START.finditer(text, begin):
        addr = read_hex(m.group(1))
        if addr and addr[1] == 0 and src.line_of(m.start(1)) not in lines_with_colon:
            found.setdefault(m.start(1), (m.start(1), m.end(1), m.end(1)))
    return [found[k] for k in sorted(found)]


def _take(text: str, begin: int, end: int, fmt: MseFormat, want: int) -> tuple[list[tuple[int, str, str]], int]:
    """Up to *want* payload characters from text[begin:end].

    Returns [(offset, normalized, printed)] and the offset where unread text starts (*end*
    if none).  Reading stops at the first word that cannot be part of a line.
    """
    got: list[tuple[int, str, str]] = []
    for tok in re.finditer(r"\S+", text[begin:end]):
        norm = [fmt.norm_char(c) for c in tok.group()]
        if any(n is None for n in norm) or len(got) >= want:
            return got, begin + tok.start()
        for i, (c, n) in enumerate(zip(tok.group(), norm)):
            if len(got) == want:
                return got, begin + tok.start() + i
            got.append((begin + tok.start() + i, n, c))
    return got, end


_V2_SEPARATOR = re.compile(r"[ \t]+(\S)(?=[ \t])")
_BARE_AFTER = re.compile(r"[ \t]*([0-9A-Fa-f]{4})[ \t]+(?=\S)")


class Parse(SlotRecord):
    """One reading of a text as a listing of one format."""

    __slots__ = ("fmt", "header", "records", "diagnostics", "good", "verified", "shaped")

    def __init__(self, fmt: MseFormat, header: Header | None, records: list[LineRecord], diagnostics: list[Diagnostic],
                 good: int = 0, verified: int = 0, shaped: int = 0):
        self.fmt = fmt
        self.header = header
        self.records = records
        self.diagnostics = diagnostics
        self.good = good  # records whose checksum verifies, minus those that do not
        self.verified = verified
        self.shaped = shaped

    @property
    def version(self) -> str:
        return self.fmt.version

    @property
    def repairs(self) -> int:
        """Characters read as something else than printed (OCR letters taken as digits)."""
        return sum(d.upper() != p.upper() for r in self.records for d, p in zip(r.digits, r.printed))


def records_by_structure(text: str, begin: int, src: SourceText, header: Header | None) -> tuple[list[LineRecord], list[Diagnostic]]:
    """V1.0 lines by their structure (:mod:`asm6502.typein.mselisting.ocr`), the address sequence guiding."""
    toks = ocr.tokens(text, begin, len(text))
    scanner = ocr.LineScanner(toks)
    records: list[LineRecord] = []
    diags: list[Diagnostic] = []
    expected = header.start if header else None
    i = 0
    while i < len(toks):
        if not scanner.starts_line(i, expected):
            i += 1
            continue
        raw, j = scanner.read(i, expected)
        if len(raw.payload) % 2 and raw.separator and ocr.read_char(raw.separator) not in (None, "", ocr.WILDCARD):
            other, k = scanner.read(i, expected, sep_as_payload=True)
            if len(other.payload) % 2 == 0:
                raw, j = other, k  # "1931 8 d ff ...": a byte split in two, no separator
        address = ocr.address_value(raw.address, expected)
        if any(c.digit == ocr.WILDCARD for c in raw.address):
            diags.append(warning(f"unreadable address '{text[raw.start:raw.start + 4]}' taken as {address:04X}"
                                 + (" (the address sequence)" if address == expected else ""),
                                 src.span(raw.start, 4)))
        payload = raw.payload
        n = len(payload)
        last = header is not None and header.start <= address < header.end <= address + 8
        short = 2 * (header.end - address) + 2 if last else None
        if last and n > short and not ocr.verifies(address, "".join(c.digit for c in payload)):
            if ocr.verifies(address, "".join(c.digit for c in payload[:short])):
                payload = payload[:short]  # a short last line with something after it
                n = short
        inside = header is not None and header.start <= address < header.end
        if inside:
            complete = n == ocr.PAYLOAD_CHARS or n == short
        else:
            complete = n >= 4 and n % 2 == 0
        cells = tuple(ocr.Cell(d, c.printed, c.offset) for d, c in zip(f"{address:04X}", raw.address)) + payload
        printed_end = (payload[-1].offset + 1) if payload else raw.end
        records.append(LineRecord(
            address,
            "".join(c.digit for c in cells),
            "".join(c.printed for c in cells),
            tuple(c.offset for c in cells),
            raw.start,
            text[raw.start : printed_end].strip(),
            complete,
            payload,
        ))
        if complete:
            if raw.separator == "" and not toks[i].line_start and records[:-1]:
                diags.append(warning(f"no ':' after the address {text[raw.start:raw.start + 4]}", src.span(raw.start, 4)))
            elif raw.separator not in ("", ":"):
                diags.append(warning(f"read '{raw.separator}' as the ':' after the address",
                                     src.span(raw.separator_offset, 1)))
            for at, c in raw.dropped:
                diags.append(warning(f"ignored stray '{c}'", src.span(at, 1)))
        expected = address + 8
        i = max(j, i + 1)
    return records, diags


def records_by_candidates(text: str, begin: int, src: SourceText, fmt: MseFormat) -> tuple[list[LineRecord], list[Diagnostic]]:
    """V2.x lines: the characters of the letter code after an address and ':'."""
    diags: list[Diagnostic] = []
    cands = _candidates(text, begin, src)
    per_line = fmt.bytes_per_line
    records: list[LineRecord] = []

    def read_record(rec_start: int, addr_end: int, payload: int, stop: int) -> tuple[LineRecord, int]:
        addr_digits = read_hex(text[rec_start:addr_end])[0]
        address = int(addr_digits, 16)
        n_want = fmt.payload_chars
        sep = _V2_SEPARATOR.match(text, payload, stop)
        if sep and sep.group(1) in ocr.SEPARATOR_READINGS:
            payload = sep.end(1)  # a lone character after the address is the misread ':'
        got, rest = _take(text, payload, stop, fmt, n_want)
        complete = len(got) == n_want
        rec = LineRecord(
            address,
            addr_digits + "".join(g[1] for g in got),
            text[rec_start:addr_end] + "".join(g[2] for g in got),
            tuple(range(rec_start, addr_end)) + tuple(g[0] for g in got),
            rec_start,
            text[rec_start : (got[-1][0] + 1) if got else stop].strip(),
            complete,
        )
        return rec, rest

    for k, (rec_start, addr_end, payload) in enumerate(cands):
        stop = min(cands[k + 1][0] if k + 1 < len(cands) else len(text), src.line_end(payload))
        rec, rest = read_record(rec_start, addr_end, payload, stop)
        records.append(rec)
        # OCR often loses a ':'; in run-together text the next line then hides in this
        # one's leftovers: "... 8D 42 3408 3E 03 ...".  Take it when it reads completely.
        while rec.complete and (m := _BARE_AFTER.match(text, rest, stop)):
            nxt, rest = read_record(m.start(1), m.end(1), m.end(1), stop)
            if not nxt.complete or nxt.address != rec.address + per_line:
                break
            diags.append(warning(f"no ':' after the address {text[m.start(1):m.end(1)]}", src.span(m.start(1), 4)))
            records.append(nxt)
            rec = nxt
    return records, diags


def parse(text: str, src: SourceText, fmt: MseFormat) -> Parse:
    """Find the listing's lines as ``fmt``'s (:meth:`MseFormat.find_records`), then where the listing is."""
    header = find_header(text)
    begin = header.offset + header.length if header else 0
    records, diags = fmt.find_records(text, begin, src, header)
    return _select(src, fmt, header, records, diags)


def _select(src: SourceText, fmt: MseFormat, header: Header | None, records: list[LineRecord], diags: list[Diagnostic]) -> Parse:
    per_line = fmt.bytes_per_line
    # Where the listing is: after a header, up to the last line inside the header's range
    # (plus one misaddressed line shaped like a listing line); without one, the densest
    # stretch of credible lines.  Other candidates are prose that happens to match.
    def in_range(r: LineRecord) -> bool:
        return header is None or header.start <= r.address < header.end

    cut = cut_column(records)
    complete_at = [i for i, r in enumerate(records) if (r.complete or cut and fmt.no_checksum(r)) and in_range(r)]
    if not complete_at:
        return Parse(fmt, header, [], [])
    if header:
        first, last = 0, complete_at[-1]
    else:
        first, last = _densest_stretch(records, fmt)
    while header and last + 1 < len(records) and in_range(records[last + 1]):
        last += 1  # an unreadable last line is still a line of the listing
    if header and last + 1 < len(records) and records[last + 1].complete:
        # One more line with a wrong address, shaped like the listing's last line?
        final = header.start + per_line * ((header.end - header.start - 1) // per_line)
        shapes = {len(records[complete_at[-1]].digits), 4 + fmt.payload_chars} | fmt.last_line_shapes(header.end, final)
        if len(records[last + 1].digits) in shapes:
            last += 1
    lo, hi = records[first].start, records[last].start
    records = records[first : last + 1]
    diags = [d for d in diags if lo <= src.starts[d.span.line - 1] + d.span.col - 1 <= hi]
    start = header.start if header else records[0].address
    verified = sum(r.complete and fmt.verifies(r.digits, start) for r in records)
    good = 2 * verified - len(records)
    # lines shaped like this format's, for a listing whose checksums cannot decide (checksum column cut off)
    shaped = sum(fmt.shaped(r) for r in records)
    return Parse(fmt, header, records, diags, good, verified, shaped)


def cut_column(records: list[LineRecord]) -> bool:
    """Most V1.0 lines have 8 bytes and no checksum: the column was cut off (a lone such line
    lost a byte instead)."""
    return sum(len(r.cells) == 16 for r in records) > max(1, sum(len(r.cells) == 18 for r in records))


MAX_GAP = 3  # unreadable candidates tolerated between two credible lines of one listing


def _densest_stretch(records: list[LineRecord], fmt: MseFormat) -> tuple[int, int]:
    """Without a header: where is the listing among the candidates?

    A line is credible if it reads completely and either its checksum verifies or its
    address continues a neighbour's.  Credible lines at most MAX_GAP candidates apart form
    one stretch; the stretch with the most credible lines is the listing.
    """
    per_line = fmt.bytes_per_line
    start = next(r.address for r in records if r.complete)

    def credible(k: int) -> bool:
        r = records[k]
        if not r.complete:
            return False
        near = [records[j] for j in (k - 1, k + 1) if 0 <= j < len(records) and records[j].complete]
        return fmt.verifies(r.digits, start) or any(abs(n.address - r.address) == per_line for n in near)

    good = [k for k in range(len(records)) if credible(k)] or [next(k for k, r in enumerate(records) if r.complete)]
    best, first = (good[0], good[0]), good[0]
    count = best_count = 1
    for prev, k in zip(good, good[1:]):
        if k - prev > MAX_GAP + 1:
            first, count = k, 0
        count += 1
        if count > best_count:
            best, best_count = (first, k), count
    return best


def blank_outside(text: str, lo: int, hi: int) -> str:
    def blank(part: str) -> str:
        return re.sub(r"[^\n]", " ", part)

    return blank(text[:lo]) + text[lo:hi] + blank(text[hi:])
