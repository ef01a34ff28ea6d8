"""MSE ("MaschinenSpracheEditor") type-in listings from 64'er magazine: write and read.

Three incompatible line formats were printed (facts from issue 3, checked against all 66
lines of the Superhirn II listing in 64'er and the published sample lines):

MSE V1.0 (64'er 2/85-6/90)::

    3400 : A9 93 20 D2 FF A9 01 8D 42

  address, 8 data bytes (fewer on the last line), checksum byte.  Checksum: a 16-bit value
  starts at the low byte of the line address; for each data byte: add it, shift left one bit
  (16 bits kept); result = (low + high + 1) mod 256.

MSE V2.0 (7/90-4/91) and V2.1 (5/91-5/94)::

    0801: apdl fa35 fhxc llw6 7777 75e7  bu

  15 bytes a line = 120 bits, most significant first, cut into 24 five-bit values written
  with the alphabet ``7abcdefghijklmnopqrstuvwxyz23456`` in 6 groups of 4, then a
  2-character checksum of an 8-bit value v (see :func:`checksum_v2`).

Header: ``PROGRAMM : NAME START END`` with END exclusive, then a dashed rule.  The MSE
filled memory it had not been given with $AA.

Decision (not documented in the magazine): V2.x lines are always full 15-byte lines; the
bytes of the last line past the header's end address are written as the fill byte and are
dropped again on reading (the end address in the header says where the program ends).

Reading accepts listings as people have them: upper/lower case, extra or missing spaces,
OCR'd text with all lines run together, prose around the listing, header or not, and
letters an OCR engine puts in place of digits (``O`` for ``0``, ``I`` for ``1``...).
Every line's checksum is verified; a bad line gets the corrections that make its
checksum match, most likely (common OCR confusions) first.

Modules: :mod:`asm6502.mse.codec` (checksums, the V2 letter code, OCR confusion costs),
:mod:`asm6502.mse.ocr` (V1.0 lines read by their structure from OCR text; ranked single and
double repairs; when a repair is made without asking), :mod:`asm6502.mse.damage` (synthetic
OCR damage for tests and ``bench/mse_ocr_roundtrip.py``); this module writes listings, places
the lines read in their address sequence and reports (issue 13: verified / repaired / still bad
per line, :class:`LineReport`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, note, warning
from asm6502.mse import ocr

from asm6502.mse.codec import (  # noqa: F401  (re-exported: asm6502.mse.checksum_v1 ...)
    VERSIONS,
    BYTES_PER_LINE,
    MSE_FILL,
    ALPHABET,
    _ALPHA_VALUE,
    _HEX,
    V1_RULE,
    V2_CHECKSUM_GAP,
    HEX_LOOKALIKES,
    ALPHA_LOOKALIKES,
    CONFUSIONS,
    ORDINARY_COST,
    TRANSPOSE_COST,
    SECOND_CHANGE_COST,
    MAX_FIXES_SHOWN,
    SUSPECT_FACTOR,
    char_cost,
    checksum_v1,
    checksum_v2,
    encode_v2_checksum,
    decode_v2_checksum,
    encode_v2_data,
    decode_v2_data,
)


LAST_LINE_LAYOUTS = ("short", "full")


def _check_version(version: str) -> None:
    if version not in VERSIONS:
        raise DiagnosticError([error(f"unknown MSE version {version!r} (use 1.0, 2.0 or 2.1)")])


def format_line(address: int, data: bytes, *, version: str = "1.0", start: int | None = None) -> str:
    """One listing line as printed: V1.0 ``3400 : A9 .. 42``, V2.x ``0801: apdl ..  bu``."""
    if version == "1.0":
        body = " ".join(f"{b:02X}" for b in data)
        return f"{address:04X} : {body} {checksum_v1(address, data):02X}"
    chars = encode_v2_data(data)
    groups = " ".join(chars[i : i + 4] for i in range(0, 24, 4))
    v = checksum_v2(address, data, start=address if start is None else start, version=version)
    return f"{address:04x}: {groups}{V2_CHECKSUM_GAP}{encode_v2_checksum(v)}"


def write_listing(
    load_address: int,
    data: bytes,
    *,
    name: str = "",
    version: str = "1.0",
    end: int | None = None,
    fill: int = MSE_FILL,
    last_line: str = "short",
) -> str:
    """An MSE listing for *data* loaded at *load_address*: header, rule, one line per row.

    *end* is the exclusive end address for the header (default: just after *data*); bytes
    between the data and *end* are *fill*.  V2.x pads its last 15-byte line with *fill*.
    V1.0 *last_line*: "short" prints only the bytes below *end* (Superhirn II, 64'er);
    "full" prints all 8, *fill* past *end*, the checksum over all 8 (six of the listings
    of issue 13, e.g. end $03A2, last line ``039C : 8d 15 d0 4c 31 ea 00 00 dc``).
    """
    _check_version(version)
    if last_line not in LAST_LINE_LAYOUTS:
        raise DiagnosticError([error(f"unknown last-line layout {last_line!r} (use short or full)")])
    problems = []
    if not 0 <= load_address <= 0xFFFF:
        problems.append(error(f"load address ${load_address:X} is outside $0000-$FFFF"))
    if not 0 <= fill <= 0xFF:
        problems.append(error(f"fill value {fill} is not a byte (0-255)"))
    data_end = load_address + len(data)
    if end is None:
        end = data_end
    if end < data_end:
        problems.append(error(f"end address ${end:04X} is before the end of the data (${data_end:04X})"))
    if end > 0x10000:
        problems.append(error(f"end address ${end:X} is beyond $FFFF+1"))
    if end <= load_address and end >= data_end:
        problems.append(error("nothing to list: the program is empty"))
    if problems:
        raise DiagnosticError(problems)
    image = bytes(data) + bytes([fill]) * (end - data_end)
    per_line = BYTES_PER_LINE[version]
    # An end of $10000 prints as 0000: the header holds 16-bit addresses.
    header = " ".join(p for p in ("PROGRAMM :", name.strip(), f"{load_address:04X}", f"{end & 0xFFFF:04X}") if p)
    lines = [header]
    rows = []
    for offset in range(0, len(image), per_line):
        chunk = image[offset : offset + per_line]
        if version != "1.0" or last_line == "full":
            chunk = chunk + bytes([fill]) * (per_line - len(chunk))
        rows.append(format_line(load_address + offset, chunk, version=version, start=load_address))
    lines.append("-" * max(len(V1_RULE), *(len(r) for r in rows)) if version != "1.0" else V1_RULE)
    lines += rows
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class LineReport:
    """How one listing line was read: "verified" as printed, "repaired" (the checksum chose one
    reading, *repair* says which), or "bad" (*fixes*: the data of the readings that verify,
    most likely first)."""

    address: int
    line: int  # line in the text
    status: str
    data: bytes
    repair: str = ""
    fixes: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class ReadResult:
    """What :func:`read_listing` found: the bytes from *start* to *end* and diagnostics."""

    version: str
    name: str | None
    start: int
    end: int
    data: bytes
    lines: int
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    report: tuple[LineReport, ...] = field(default=())
    tail: bytes = b""  # V1.0 full last line: the bytes it shows past the end address

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.report)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def prg(self) -> bytes:
        """C64 .prg: little-endian load address, then the data."""
        return self.start.to_bytes(2, "little") + self.data


@dataclass(frozen=True)
class _Fix:
    """A correction that makes a line's checksum match."""

    cost: float
    digits: str  # the corrected line (address + payload + checksum characters)
    description: str


class _Text:
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


def _read_hex(chars: str) -> tuple[str, int] | None:
    """Normalize OCR look-alikes; return (hex digits, number substituted) or None."""
    out, subst = [], 0
    for c in chars:
        if c in HEX_LOOKALIKES:
            out.append(HEX_LOOKALIKES[c])
            subst += 1
        elif c.upper() in _HEX:
            out.append(c.upper())
        else:
            return None
    return "".join(out), subst


def _norm_char(c: str, version: str) -> str | None:
    if version == "1.0":
        r = _read_hex(c)
        return r[0] if r else None
    lc = c.lower()
    if lc in _ALPHA_VALUE:
        return lc
    return ALPHA_LOOKALIKES.get(c)


@dataclass(frozen=True)
class _Record:
    address: int  # as printed (normalized)
    digits: str  # 4 address hex digits, then payload and checksum characters (normalized)
    printed: str  # the same characters as they appear in the text
    offsets: tuple[int, ...]  # text offset of each character in digits
    start: int  # text offset of the record
    text: str  # the record as it appears, for messages
    complete: bool  # the payload has the expected number of characters
    cells: tuple = ()  # V1.0: the payload as read (ocr.Cell), for ranking repairs


@dataclass(frozen=True)
class _Header:
    name: str
    start: int
    end: int
    offset: int
    length: int


def _find_header(text: str) -> _Header | None:
    return next(_headers(text), None)


def _headers(text: str):
    for m in _HEADER.finditer(text):
        s, e = _read_hex(m.group("start")), _read_hex(m.group("end"))
        if s and e:
            start, end = int(s[0], 16), int(e[0], 16)
            end = end or 0x10000  # a program up to $FFFF ends at "0000"
            yield _Header((m.group("name") or "").strip(), start, end, m.start(), m.end() - m.start())


def _candidates(text: str, begin: int, src: _Text) -> list[tuple[int, int, int]]:
    """Record starts after *begin*: (record offset, address end offset, payload offset)."""
    found = {}
    for m in _RECORD_START.finditer(text, begin):
        addr = _read_hex(m.group(1))
        if addr and addr[1] <= 1:
            found[m.start(1)] = (m.start(1), m.end(1), m.end())
    lines_with_colon = {src.line_of(off) for off in found}
    for m in _BARE_RECORD_START.finditer(text, begin):
        addr = _read_hex(m.group(1))
        if addr and addr[1] == 0 and src.line_of(m.start(1)) not in lines_with_colon:
            found.setdefault(m.start(1), (m.start(1), m.end(1), m.end(1)))
    return [found[k] for k in sorted(found)]


def _take(text: str, begin: int, end: int, version: str, want: int) -> tuple[list[tuple[int, str, str]], int]:
    """Up to *want* payload characters from text[begin:end].

    Returns [(offset, normalized, printed)] and the offset where unread text starts (*end*
    if none).  Reading stops at the first word that cannot be part of a line.
    """
    got: list[tuple[int, str, str]] = []
    for tok in re.finditer(r"\S+", text[begin:end]):
        norm = [_norm_char(c, version) for c in tok.group()]
        if any(n is None for n in norm) or len(got) >= want:
            return got, begin + tok.start()
        for i, (c, n) in enumerate(zip(tok.group(), norm)):
            if len(got) == want:
                return got, begin + tok.start() + i
            got.append((begin + tok.start() + i, n, c))
    return got, end


_V2_SEPARATOR = re.compile(r"[ \t]+(\S)(?=[ \t])")
_BARE_AFTER = re.compile(r"[ \t]*([0-9A-Fa-f]{4})[ \t]+(?=\S)")


def _payload_len(version: str) -> int:
    return 18 if version == "1.0" else 26  # V1: 8 bytes + checksum in hex; V2: 24 + 2 chars


def _decode(version: str, digits: str) -> tuple[int, bytes, int | None]:
    """(address, data, printed checksum value) of a record's characters."""
    address = int(digits[:4], 16)
    if version == "1.0":
        return address, bytes.fromhex(digits[4:-2]), int(digits[-2:], 16)
    return address, decode_v2_data(digits[4:28]), decode_v2_checksum(digits[28:30])


def _computed(version: str, address: int, data: bytes, start: int) -> int:
    if version == "1.0":
        return checksum_v1(address, data)
    return checksum_v2(address, data, start=start, version=version)


def _show_checksum(version: str, v: int) -> str:
    return f"{v:02X}" if version == "1.0" else encode_v2_checksum(v)


def _verifies(version: str, digits: str, start: int) -> bool:
    if ocr.WILDCARD in digits:
        return False
    address, data, printed = _decode(version, digits)
    return printed is not None and _computed(version, address, data, start) == printed


def _describe(version: str, rec: _Record, new: str, how: str) -> str:
    """Say in listing terms what changes between rec.digits and *new*."""
    changed = [i for i in range(len(new)) if new[i] != rec.digits[i]]
    csum_at = len(new) - 2
    if changed[0] >= csum_at:
        what = f"checksum {new[csum_at:]} instead of {rec.printed[csum_at:]}"
    elif version == "1.0":
        k = (changed[0] - 4) // 2
        lo = 4 + 2 * k
        what = f"byte at ${rec.address + k:04X}: {new[lo:lo + 2]} instead of {rec.printed[lo:lo + 2]}"
    else:
        k = changed[0] - 4
        group, pos = divmod(k, 4)
        lo = 4 + 4 * group
        what = f"group {group + 1} '{new[lo:lo + 4]}' instead of '{rec.printed[lo:lo + 4]}'"
    return f"possible fix: {what}{how}"


def _reason(pairs: list[tuple[str, str]]) -> str:
    names = [f"{m} read as {p}" for p, m in pairs if char_cost(p, m) < ORDINARY_COST]
    return f" ({', '.join(names)}: common OCR confusion)" if names else ""


def _suggest_fixes(version: str, rec: _Record, start: int) -> list[_Fix]:
    """Single-character, single-byte (V1) and transposition changes that make *rec* verify."""
    fixes: dict[str, _Fix] = {}

    def consider(new: str, cost: float, how: str) -> None:
        if new != rec.digits and _verifies(version, new, start):
            if new not in fixes or cost < fixes[new].cost:
                fixes[new] = _Fix(cost, new, _describe(version, rec, new, how))

    digits, printed = rec.digits, rec.printed
    n = len(digits)
    alphabet = _HEX if version == "1.0" else ALPHABET
    for i in range(4, n):  # the address is handled by the sequence check
        for alt in alphabet:
            if alt != digits[i]:
                cost = char_cost(printed[i], alt) * (SUSPECT_FACTOR if printed[i].upper() != digits[i].upper() else 1.0)
                consider(digits[:i] + alt + digits[i + 1 :], cost, _reason([(printed[i], alt)]))
    if version == "1.0":
        for lo in range(4, n, 2):  # whole-byte changes, incl. the checksum byte
            for value in range(256):
                hi_d, lo_d = f"{value:02X}"
                if hi_d == digits[lo] or lo_d == digits[lo + 1]:
                    continue  # single-digit changes were tried above
                new = digits[:lo] + hi_d + lo_d + digits[lo + 2 :]
                if (hi_d, lo_d) == (digits[lo + 1], digits[lo]):
                    consider(new, TRANSPOSE_COST, " (digits swapped)")
                else:
                    pairs = [(printed[lo], hi_d), (printed[lo + 1], lo_d)]
                    consider(new, SECOND_CHANGE_COST + sum(char_cost(p, m) for p, m in pairs), _reason(pairs))
    else:
        for i in range(4, n - 1):
            if digits[i] != digits[i + 1] and i != n - 3:
                new = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]
                consider(new, TRANSPOSE_COST, " (characters swapped)")
        address, data, _ = _decode(version, digits)
        want = encode_v2_checksum(_computed(version, address, data, start))
        pairs = [(printed[n - 2], want[0]), (printed[n - 1], want[1])]
        extra = SECOND_CHANGE_COST if all(p != m for p, m in pairs) else 0.0
        consider(digits[: n - 2] + want, extra + sum(char_cost(p, m) for p, m in pairs), _reason(pairs))
    return sorted(fixes.values(), key=lambda f: (f.cost, f.digits))


@dataclass
class _Parse:
    version: str
    header: _Header | None
    records: list[_Record]
    diagnostics: list[Diagnostic]
    good: int = 0  # records whose checksum verifies, minus those that do not
    verified: int = 0
    shaped: int = 0

    @property
    def repairs(self) -> int:
        """Characters read as something else than printed (OCR letters taken as digits)."""
        return sum(d.upper() != p.upper() for r in self.records for d, p in zip(r.digits, r.printed))


def _records_v1(text: str, begin: int, src: _Text, header: _Header | None) -> tuple[list[_Record], list[Diagnostic]]:
    """V1.0 lines by their structure (:mod:`asm6502.mse.ocr`), the address sequence guiding."""
    toks = ocr.tokens(text, begin, len(text))
    scanner = ocr.LineScanner(toks)
    records: list[_Record] = []
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
        records.append(_Record(
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


def _parse(text: str, src: _Text, version: str) -> _Parse:
    """Find the listing's lines: V1.0 by their structure (:func:`_records_v1`), V2.x by
    characters of the letter code after an address and ':'."""
    header = _find_header(text)
    diags: list[Diagnostic] = []
    begin = header.offset + header.length if header else 0
    if version == "1.0":
        records, diags = _records_v1(text, begin, src, header)
        return _select(text, src, version, header, records, diags)
    cands = _candidates(text, begin, src)
    per_line = BYTES_PER_LINE[version]
    records: list[_Record] = []

    def read_record(rec_start: int, addr_end: int, payload: int, stop: int) -> tuple[_Record, int]:
        addr_digits = _read_hex(text[rec_start:addr_end])[0]
        address = int(addr_digits, 16)
        n_want = _payload_len(version)
        sep = _V2_SEPARATOR.match(text, payload, stop)
        if sep and sep.group(1) in ocr.SEPARATOR_READINGS:
            payload = sep.end(1)  # a lone character after the address is the misread ':' (issue 13)
        got, rest = _take(text, payload, stop, version, n_want)
        complete = len(got) == n_want
        rec = _Record(
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
    return _select(text, src, version, header, records, diags)


def _select(text: str, src: _Text, version: str, header: _Header | None, records: list[_Record],
            diags: list[Diagnostic]) -> _Parse:
    per_line = BYTES_PER_LINE[version]
    # Where the listing is: after a header, up to the last line inside the header's range
    # (plus one misaddressed line shaped like a listing line); without one, the densest
    # stretch of credible lines.  Other candidates are prose that happens to match.
    def in_range(r: _Record) -> bool:
        return header is None or header.start <= r.address < header.end

    cut = _cut_column(records)
    complete_at = [i for i, r in enumerate(records) if (r.complete or cut and _no_checksum(r, version)) and in_range(r)]
    if not complete_at:
        return _Parse(version, header, [], [])
    if header:
        first, last = 0, complete_at[-1]
    else:
        first, last = _densest_stretch(records, version)
    while header and last + 1 < len(records) and in_range(records[last + 1]):
        last += 1  # an unreadable last line is still a line of the listing
    if header and last + 1 < len(records) and records[last + 1].complete:
        # One more line with a wrong address, shaped like the listing's last line?
        final = header.start + per_line * ((header.end - header.start - 1) // per_line)
        shapes = {len(records[complete_at[-1]].digits), 4 + _payload_len(version)}
        if version == "1.0":
            shapes.add(4 + 2 * (header.end - final + 1))
        if len(records[last + 1].digits) in shapes:
            last += 1
    lo, hi = records[first].start, records[last].start
    records = records[first : last + 1]
    diags = [d for d in diags if lo <= src.starts[d.span.line - 1] + d.span.col - 1 <= hi]
    start = header.start if header else records[0].address
    verified = sum(r.complete and _verifies(version, r.digits, start) for r in records)
    good = 2 * verified - len(records)
    # Lines shaped like this version's (V1.0: 8 two-digit bytes, checksum column or not; V2:
    # complete lines), for a listing whose checksums cannot decide (checksum column cut off).
    if version == "1.0":
        shaped = sum(r.complete or (len(r.cells) >= 16 and len(r.cells) % 2 == 0) for r in records)
    else:
        shaped = sum(r.complete for r in records)
    return _Parse(version, header, records, diags, good, verified, shaped)


def _no_checksum(rec: _Record, version: str) -> bool:
    """A V1.0 line with its 8 bytes but nothing after them (checksum column lost)."""
    return version == "1.0" and not rec.complete and len(rec.cells) == 16


def _cut_column(records: list[_Record]) -> bool:
    """Most V1.0 lines have 8 bytes and no checksum: the column was cut off (a lone such line
    lost a byte instead)."""
    return sum(len(r.cells) == 16 for r in records) > max(1, sum(len(r.cells) == 18 for r in records))


MAX_GAP = 3  # unreadable candidates tolerated between two credible lines of one listing


def _densest_stretch(records: list[_Record], version: str) -> tuple[int, int]:
    """Without a header: where is the listing among the candidates?

    A line is credible if it reads completely and either its checksum verifies or its
    address continues a neighbour's.  Credible lines at most MAX_GAP candidates apart form
    one stretch; the stretch with the most credible lines is the listing.
    """
    per_line = BYTES_PER_LINE[version]
    start = next(r.address for r in records if r.complete)

    def credible(k: int) -> bool:
        r = records[k]
        if not r.complete:
            return False
        near = [records[j] for j in (k - 1, k + 1) if 0 <= j < len(records) and records[j].complete]
        return _verifies(version, r.digits, start) or any(abs(n.address - r.address) == per_line for n in near)

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


def _read_as_warnings(rec: _Record, src: _Text, diags: list[Diagnostic]) -> None:
    for i, (d, p) in enumerate(zip(rec.digits, rec.printed)):
        if d != p and d != p.upper() and d != p.lower() and ocr.WILDCARD not in (d, ocr.read_char(p)):
            diags.append(warning(f"read '{p}' as '{d}'", src.span(rec.offsets[i], 1)))


def _check_v1(rec: _Record, address: int, data: bytes, case: str | None, diags: list[Diagnostic], src: _Text,
              addr_note: list[Diagnostic]) -> tuple[bytes, str, str, tuple[bytes, ...]]:
    """Verify a V1.0 line; repair it when one reading is clearly the most likely.

    Returns (data, status, repair, fixes).
    """
    payload = rec.digits[4:]
    if ocr.verifies(address, payload):
        return data, "verified", "", ()
    cells = rec.cells
    fixes = ocr.rank_fixes(address, cells, case)
    swaps = ocr.transpositions(address, cells, TRANSPOSE_COST)
    ranked = sorted(fixes + [c for c in swaps if c.digits not in {f.digits for f in fixes}],
                    key=lambda c: (c.cost, c.digits))

    def text_of(c: ocr.Candidate) -> str:
        return ocr.describe(address, cells, c, swapped=c in swaps)

    cs_at = rec.offsets[-2]
    if ocr.confident(ranked):
        best = ranked[0]
        repair = text_of(best)
        diags.append(warning(f"repaired line ${address:04X}: {repair}", src.span(cs_at, 2), *addr_note))
        return bytes.fromhex(best.digits[:-2]), "repaired", repair, ()
    shown = ranked[:MAX_FIXES_SHOWN]
    if all(len(c.changes) > 1 for c in shown):
        # a typed listing's typo is one arbitrary character: show the likeliest single change too
        shown += [c for c in ranked[MAX_FIXES_SHOWN:] if len(c.changes) == 1][:1]
    notes = addr_note + [note("possible fix: " + text_of(f)) for f in shown]
    if len(ranked) > len(shown):
        notes.append(note(f"{len(ranked) - len(shown)} less likely changes also match"))
    if ocr.WILDCARD in payload:
        what = f"unreadable character in the line for ${address:04X}"
        what += "" if ranked else " (no reading verifies)"
    else:
        computed = checksum_v1(address, data)
        what = f"checksum mismatch at ${address:04X} (computed {computed:02X}, printed {payload[-2:]})"
    diags.append(error(what, src.span(cs_at, 2), *notes))
    return data, "bad", "", tuple(bytes.fromhex(f.digits[:-2]) for f in ranked)


def _range_text(lo: int, hi: int, per_line: int) -> str:
    count = (hi - lo) // per_line + 1
    return f"line ${lo:04X}" if count == 1 else f"lines ${lo:04X}-${hi:04X} ({count} lines)"


def _check(parse: _Parse, src: _Text, fill: int) -> ReadResult:
    version, header, records = parse.version, parse.header, parse.records
    diags = parse.diagnostics
    per_line = BYTES_PER_LINE[version]
    name = header.name if header else None
    if header and header.end <= header.start:
        diags.append(error(
            f"header end address ${header.end:04X} is not after the start address ${header.start:04X}",
            src.span(header.offset, header.length),
        ))
    if not records:
        diags.append(error(f"no MSE V{version} listing lines found", Span(src.filename, 1, 0)))
        start = header.start if header else 0
        return ReadResult(version, name, start, start, b"", 0, tuple(diags))
    start = header.start if header else min(r.address for r in records)
    if version == "2.0" and not header:
        diags.append(warning(
            f"no 'PROGRAMM :' header: taking ${start:04X} as the start address for the V2.0 checksums",
            src.span(records[0].start, 4, context=False),
        ))

    case = ocr.letter_case([r.cells for r in records])
    cut = _cut_column(records)
    reports: list[LineReport] = []
    placed: dict[int, tuple[_Record, bytes]] = {}  # intended line address -> record, data
    unreadable: set[int] = set()  # reported already; not "missing" as well
    prev: int | None = None
    for k, rec in enumerate(records):
        nxt = records[k + 1].address if k + 1 < len(records) else None
        where = src.span(rec.start, 4)
        addr_note = [] if where.source else [note(f"the line reads: {rec.text}")]
        if cut and _no_checksum(rec, version):
            data = bytes.fromhex(rec.digits[4:].replace(ocr.WILDCARD, "0"))
            diags.append(error(f"the line for ${rec.address:04X} has 8 bytes but no checksum (column cut off?): "
                               "it cannot be verified", where))
            reports.append(LineReport(rec.address, src.line_of(rec.start), "bad", data))
            placed.setdefault(rec.address, (rec, data))
            prev = rec.address if prev is None else max(prev, rec.address)
            continue
        if not rec.complete:
            shown = rec.text[:60]
            what = "8 data bytes and a checksum" if version == "1.0" else "6 groups of 4 characters and a 2-character checksum"
            diags.append(error(f"cannot read the line for ${rec.address:04X}: expected {what}; it reads {shown!r}", where))
            unreadable.add(rec.address)
            reports.append(LineReport(rec.address, src.line_of(rec.start), "bad", b""))
            if prev is None or rec.address == prev + per_line:
                prev = rec.address
            continue
        address, data, printed_cs = _decode(version, rec.digits.replace(ocr.WILDCARD, "0"))
        # -- where does this line belong?
        expected = start if prev is None else prev + per_line
        intended = address
        if prev is None and header is None:
            pass
        elif address == expected:
            pass
        elif (nxt is not None and nxt == expected + per_line) or (
            nxt is None and header is not None and expected < header.end <= expected + per_line
        ):
            intended = expected  # sits in the slot of $expected: a misread address
            if _verifies(version, f"{expected:04X}" + rec.digits[4:], start) and not _verifies(version, rec.digits, start):
                diags.append(error(
                    f"address misread: the line printed as ${address:04X} belongs at ${expected:04X} "
                    f"(its checksum matches ${expected:04X})", where, *addr_note))
                placed.setdefault(intended, (rec, data))
                prev = intended
                continue
            diags.append(error(f"line address ${address:04X} out of sequence: expected ${expected:04X}", where, *addr_note))
        elif address in placed:
            first_rec = placed[address][0]
            first_line = src.line_of(first_rec.start)
            if first_rec.digits == rec.digits:
                diags.append(warning(f"duplicate line for ${address:04X} (same as line {first_line}), ignored", where, *addr_note))
            else:
                diags.append(error(f"duplicate line for ${address:04X}, different from line {first_line}", where, *addr_note))
            continue
        elif address < expected and prev is not None:
            if _verifies(version, rec.digits, start) and not (address - start) % per_line:
                # a page's columns run together by OCR interleave two stretches of the
                # listing; a line whose checksum verifies is placed by its address
                diags.append(warning(f"line for ${address:04X} is out of order (it follows ${prev:04X}); "
                                     "placed by its address", where, *addr_note))
            else:
                diags.append(error(f"line for ${address:04X} is out of order (it follows ${prev:04X})", where,
                                   *addr_note))
        if (intended - start) % per_line:
            diags.append(error(
                f"address ${intended:04X} is not a line start (${start:04X} + a multiple of {per_line})", where, *addr_note))
        if header and not header.start <= intended < header.end:
            diags.append(error(
                f"line for ${intended:04X} is outside the header's range ${header.start:04X}-${header.end - 1:04X}",
                where, *addr_note))
        # -- short lines (V1.0 only; the count with a header is checked while reading)
        if version == "1.0" and not header and len(data) < per_line and k + 1 < len(records):
            diags.append(error(f"line for ${address:04X} has only {len(data)} data bytes; only the last line may be short", where, *addr_note))
        # -- checksum
        if version == "1.0":
            data, status, repair, fixes = _check_v1(rec, address, data, case, diags, src, addr_note)
            if header and address < header.end < address + len(data):
                keep = header.end - address
                diags.append(note(
                    f"the last line shows {len(data)} bytes (its checksum covers all {len(data)}); keeping the "
                    f"{keep} below the header's end address ${header.end:04X}", where))
            reports.append(LineReport(address, src.line_of(rec.start), status, data, repair, fixes))
            _read_as_warnings(rec, src, diags)
            placed.setdefault(intended, (rec, data))
            prev = intended if prev is None else max(prev, intended)
            continue
        computed = _computed(version, address, data, start)
        reports.append(LineReport(address, src.line_of(rec.start), "verified" if printed_cs == computed else "bad", data))
        if printed_cs != computed:
            cs_at = rec.offsets[-2]
            fixes = _suggest_fixes(version, rec, start)
            notes = addr_note + [note(f.description) for f in fixes[:MAX_FIXES_SHOWN]]
            if len(fixes) > MAX_FIXES_SHOWN:
                notes.append(note(f"{len(fixes) - MAX_FIXES_SHOWN} less likely single-character/byte changes also match"))
            printed_txt = rec.printed[-2:] if version != "1.0" else rec.digits[-2:]
            diags.append(error(
                f"checksum mismatch at ${address:04X} (computed {_show_checksum(version, computed)}, "
                f"printed {printed_txt})",
                src.span(cs_at, 2), *notes))
        _read_as_warnings(rec, src, diags)
        placed.setdefault(intended, (rec, data))
        prev = intended if prev is None else max(prev, intended)

    if not placed:
        return ReadResult(version, name, start, start, b"", len(records), tuple(diags), tuple(reports))
    if header:
        end = header.end
    else:
        end = max(a + len(d) for a, (_, d) in placed.items())
        if version != "1.0":
            diags.append(warning(
                "no 'PROGRAMM :' header: the end address is unknown, keeping all 15 bytes of the last line",
                src.span(records[-1].start, 4, context=False)))
    end = max(end, start)
    beyond = [(a, rec) for a, (rec, d) in sorted(placed.items()) if a + len(d) > 0x10000]
    if beyond and end > 0x10000:  # the C64's memory ends at $FFFF: no .prg can load there
        address, rec = beyond[0]
        diags.append(error(f"the line at ${address:04X} runs past $FFFF, the end of the C64's memory",
                           src.span(rec.start, 4)))
        end = 0x10000
    image = bytearray([fill]) * (end - start)
    tail = bytearray()  # what a full last line shows past the end address
    for address, (_, data) in sorted(placed.items()):
        for i, b in enumerate(data):
            if start <= address + i < end:
                image[address + i - start] = b
            elif address < end <= address + i:
                tail.append(b)
    # -- missing lines
    missing = [a for a in range(start, end, per_line) if a not in placed and a not in unreadable]
    runs: list[tuple[int, int]] = []
    for a in missing:
        if runs and runs[-1][1] + per_line == a:
            runs[-1] = (runs[-1][0], a)
        else:
            runs.append((a, a))
    by_address = sorted(placed.items())
    for lo, hi in runs:
        after = next((rec for a, (rec, _) in by_address if a > hi), None)
        if after is not None:
            diags.append(error(f"missing {_range_text(lo, hi, per_line)} before this line", src.span(after.start, 4)))
        else:
            last = by_address[-1][1][0]
            diags.append(error(
                f"listing ends early: missing {_range_text(lo, hi, per_line)} (header end ${end:04X})",
                src.span(last.start, 4)))
    diags.sort(key=lambda d: (d.span.line, d.span.col) if d.span else (0, 0))
    return ReadResult(version, name, start, end, bytes(image), len(records), tuple(diags), tuple(reports), bytes(tail))


def corrected_listing(result: ReadResult) -> str:
    """The listing as it should have been printed: the bytes read (with their repairs), in the
    layout read (a full last line keeps the bytes it showed past the end address)."""
    text = write_listing(result.start, result.data + result.tail, name=result.name or "", version=result.version,
                         last_line="full" if result.tail else "short")
    header, rest = text.split("\n", 1)
    shown = " ".join(p for p in ("PROGRAMM :", (result.name or "").strip(), f"{result.start:04X}",
                                 f"{result.end & 0xFFFF:04X}") if p)
    return shown + "\n" + rest


def read_listing(text: str, filename: str, *, version: str | None = None, fill: int = MSE_FILL) -> ReadResult:
    """Read an MSE listing (V1.0, V2.0 or V2.1; *version* None = decide by the checksums).

    Never raises for bad input: everything wrong is in ``result.diagnostics``.
    Missing lines are filled with *fill* ($AA, as the MSE did).
    """
    if version is not None:
        _check_version(version)
    src = _Text(text, filename)
    tried = [_parse(text, src, v) for v in ([version] if version else VERSIONS)]
    # A reading that found lines beats one that found none (a V1.0 listing whose only line is
    # wrong is still a V1.0 listing); then most verified (minus failing) lines wins; then most
    # lines read; then the reading that needed fewer repairs (e.g. V2 letters taken as OCR'd
    # hex digits); ties go to the older format.
    best = max(tried, key=lambda p: (bool(p.records), p.verified, p.shaped, p.good, len(p.records), -p.repairs,
                                     -VERSIONS.index(p.version)))
    return _check(best, src, fill)


def read_listings(text: str, filename: str, *, version: str | None = None, fill: int = MSE_FILL) -> list[ReadResult]:
    """Every listing on a page: one per 'PROGRAMM :' header (text before the first header,
    and between listings, is prose to them).  Without two headers: ``[read_listing(...)]``.

    Each listing is read from the page with the other listings blanked out, so messages keep
    the page's line and column numbers.
    """
    starts = [h.offset for h in _headers(text)]
    if len(starts) < 2:
        return [read_listing(text, filename, version=version, fill=fill)]
    bounds = list(zip(starts, starts[1:] + [len(text)]))
    return [read_listing(_blank_outside(text, lo, hi), filename, version=version, fill=fill) for lo, hi in bounds]


def _blank_outside(text: str, lo: int, hi: int) -> str:
    def blank(part: str) -> str:
        return re.sub(r"[^\n]", " ", part)

    return blank(text[:lo]) + text[lo:hi] + blank(text[hi:])

