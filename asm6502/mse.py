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
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, note, warning

VERSIONS = ("1.0", "2.0", "2.1")
BYTES_PER_LINE = {"1.0": 8, "2.0": 15, "2.1": 15}
MSE_FILL = 0xAA  # the MSE's fill value for memory it was not given (issue 3)

# MSE V2.x digit alphabet: "7" = 0, "a" = 1, ..., "z" = 26, "2" = 27, ..., "6" = 31.
ALPHABET = "7abcdefghijklmnopqrstuvwxyz23456"
_ALPHA_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_HEX = "0123456789ABCDEF"

V1_RULE = "-" * 35  # the dashed rule as printed under the Superhirn II header (64'er)
V2_CHECKSUM_GAP = "  "  # two spaces before the V2 checksum, as in the published samples

# Characters OCR engines (and hurried typists) put where a digit belongs, read as that digit.
HEX_LOOKALIKES = {
    "O": "0", "o": "0", "Q": "0", "I": "1", "i": "1", "l": "1", "|": "1", "!": "1",
    "S": "5", "s": "5", "Z": "2", "z": "2", "G": "6", "g": "9", "T": "7",
}
ALPHA_LOOKALIKES = {"0": "o", "1": "l", "8": "b", "9": "g"}  # V2 alphabet has no 0, 1, 8, 9

# Likely confusions (printed, meant) with a cost; anything else costs ORDINARY_COST.
# Lower cost = ranked first.  The first four are the ones issue 3 names.
CONFUSIONS: tuple[tuple[str, str, float], ...] = (
    ("8", "B", 1.0), ("0", "D", 1.0), ("5", "S", 1.0), ("1", "I", 1.0),
    ("0", "O", 1.0), ("D", "O", 1.5), ("1", "L", 1.5), ("I", "L", 1.5), ("I", "J", 1.5),
    ("1", "7", 2.0), ("6", "G", 2.0), ("2", "Z", 2.0), ("0", "Q", 2.0), ("3", "8", 2.0),
    ("6", "8", 2.0), ("E", "F", 2.0), ("B", "D", 2.0), ("C", "G", 2.0), ("C", "O", 2.0),
    ("M", "N", 2.0), ("H", "N", 2.0), ("U", "V", 2.0), ("V", "W", 2.0), ("G", "Q", 2.0), ("7", "T", 2.0),
    ("0", "8", 2.5), ("9", "8", 2.5), ("C", "E", 2.5), ("B", "E", 2.5), ("4", "A", 2.5),
    ("5", "6", 2.5), ("C", "0", 2.5), ("9", "G", 2.5), ("V", "Y", 2.5), ("A", "O", 2.5),
    ("E", "O", 2.5), ("B", "H", 2.5), ("R", "N", 2.5), ("F", "T", 2.5), ("5", "3", 2.5),
)
ORDINARY_COST = 3.0
TRANSPOSE_COST = 3.0
SECOND_CHANGE_COST = 2.0  # two independent slips in one byte are rarer than one
MAX_FIXES_SHOWN = 3
SUSPECT_FACTOR = 0.5  # a letter OCR put where a digit belongs is itself evidence of a misreading


def _confusion_table() -> dict[tuple[str, str], float]:
    table: dict[tuple[str, str], float] = {}
    for a, b, cost in CONFUSIONS:
        table[(a, b)] = table[(b, a)] = cost
    return table


_CONFUSION_COST = _confusion_table()


def char_cost(printed: str, meant: str) -> float:
    """How unlikely it is that *meant* was printed/read as *printed* (case-insensitive)."""
    p, m = printed.upper(), meant.upper()
    if p == m:
        return 0.0
    return _CONFUSION_COST.get((p, m), ORDINARY_COST)


# ---------------------------------------------------------------- checksums and line codecs


def checksum_v1(address: int, data: bytes) -> int:
    """MSE V1.0 line checksum (issue 3): 16-bit add-then-shift from lo(address)."""
    v = address & 0xFF
    for b in data:
        v = (v + b) & 0xFFFF
        v = (v << 1) & 0xFFFF
    return ((v & 0xFF) + (v >> 8) + 1) & 0xFF


def _rol8(v: int) -> int:
    return ((v << 1) | (v >> 7)) & 0xFF


def checksum_v2(address: int, data: bytes, *, start: int, version: str) -> int:
    """MSE V2.x 8-bit checksum value (issue 3).

    V2.0: v = lo(address) XOR hi($1C00 + address - start), bytes in reverse order;
    V2.1: v = lo(address), bytes in forward order; each step v = rol8((v + b) mod 256).
    """
    if version == "2.0":
        v = (address & 0xFF) ^ (((0x1C00 + address - start) >> 8) & 0xFF)
        seq = reversed(data)
    elif version == "2.1":
        v = address & 0xFF
        seq = iter(data)
    else:
        raise ValueError(f"not an MSE V2 version: {version!r}")
    for b in seq:
        v = _rol8((v + b) & 0xFF)
    return v


def encode_v2_checksum(v: int) -> str:
    """First char = alphabet[bit0*4 + bit1*2 + bit2], second = alphabet[v >> 3]."""
    return ALPHABET[(v & 1) * 4 + ((v >> 1) & 1) * 2 + ((v >> 2) & 1)] + ALPHABET[v >> 3]


def decode_v2_checksum(text: str) -> int | None:
    """The 8-bit value of a 2-character V2 checksum, None if it cannot be one."""
    if len(text) != 2 or any(c not in _ALPHA_VALUE for c in text):
        return None
    first = _ALPHA_VALUE[text[0]]
    if first >= 8:
        return None
    bit0, bit1, bit2 = (first >> 2) & 1, (first >> 1) & 1, first & 1
    return (_ALPHA_VALUE[text[1]] << 3) | (bit2 << 2) | (bit1 << 1) | bit0


def encode_v2_data(data: bytes) -> str:
    """15 bytes -> 24 alphabet characters (120 bits, most significant first), no spaces."""
    if len(data) != 15:
        raise ValueError("an MSE V2 line holds exactly 15 bytes")
    n = int.from_bytes(data, "big")
    return "".join(ALPHABET[(n >> (115 - 5 * i)) & 31] for i in range(24))


def decode_v2_data(text: str) -> bytes:
    """24 alphabet characters -> 15 bytes."""
    if len(text) != 24:
        raise ValueError("an MSE V2 line has 24 data characters")
    n = 0
    for c in text:
        n = (n << 5) | _ALPHA_VALUE[c]
    return n.to_bytes(15, "big")


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
) -> str:
    """An MSE listing for *data* loaded at *load_address*: header, rule, one line per row.

    *end* is the exclusive end address for the header (default: just after *data*); bytes
    between the data and *end* are *fill*.  V2.x pads its last 15-byte line with *fill*.
    """
    _check_version(version)
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
        if version != "1.0":
            chunk = chunk + bytes([fill]) * (per_line - len(chunk))
        rows.append(format_line(load_address + offset, chunk, version=version, start=load_address))
    lines.append("-" * max(len(V1_RULE), *(len(r) for r in rows)) if version != "1.0" else V1_RULE)
    lines += rows
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- reading


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
    rf"PR[O0]GRAM+[ \t]*[:;]?[ \t]*(?:(?P<name>[^\n]*?)[ \t]+)?"
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


@dataclass(frozen=True)
class _Header:
    name: str
    start: int
    end: int
    offset: int
    length: int


def _find_header(text: str) -> _Header | None:
    for m in _HEADER.finditer(text):
        s, e = _read_hex(m.group("start")), _read_hex(m.group("end"))
        if s and e:
            start, end = int(s[0], 16), int(e[0], 16)
            end = end or 0x10000  # a program up to $FFFF ends at "0000"
            return _Header((m.group("name") or "").strip(), start, end, m.start(), m.end() - m.start())
    return None


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

    @property
    def repairs(self) -> int:
        """Characters read as something else than printed (OCR letters taken as digits)."""
        return sum(d.upper() != p.upper() for r in self.records for d, p in zip(r.digits, r.printed))


def _parse(text: str, src: _Text, version: str) -> _Parse:
    header = _find_header(text)
    diags: list[Diagnostic] = []
    begin = header.offset + header.length if header else 0
    cands = _candidates(text, begin, src)
    per_line = BYTES_PER_LINE[version]
    records: list[_Record] = []

    def read_record(rec_start: int, addr_end: int, payload: int, stop: int) -> tuple[_Record, int]:
        addr_digits = _read_hex(text[rec_start:addr_end])[0]
        address = int(addr_digits, 16)
        n_want = _payload_len(version)
        if version == "1.0" and header and header.start <= address < header.end:
            n_want = 2 * (min(per_line, header.end - address) + 1)
        got, rest = _take(text, payload, stop, version, n_want)
        complete = len(got) == n_want
        inside = header is not None and header.start <= address < header.end
        if version == "1.0" and not complete and len(got) >= 4 and len(got) % 2 == 0 and not inside:
            complete = True  # a short line; whether it may be short is checked later
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
    # Where the listing is: after a header, up to the last line inside the header's range
    # (plus one misaddressed line shaped like a listing line); without one, the densest
    # stretch of credible lines.  Other candidates are prose that happens to match.
    def in_range(r: _Record) -> bool:
        return header is None or header.start <= r.address < header.end

    complete_at = [i for i, r in enumerate(records) if r.complete and in_range(r)]
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
    good = sum(1 if r.complete and _verifies(version, r.digits, start) else -1 for r in records)
    return _Parse(version, header, records, diags, good)


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

    placed: dict[int, tuple[_Record, bytes]] = {}  # intended line address -> record, data
    unreadable: set[int] = set()  # reported already; not "missing" as well
    prev: int | None = None
    for k, rec in enumerate(records):
        nxt = records[k + 1].address if k + 1 < len(records) else None
        where = src.span(rec.start, 4)
        addr_note = [] if where.source else [note(f"the line reads: {rec.text}")]
        if not rec.complete:
            shown = rec.text[:60]
            what = "8 data bytes and a checksum" if version == "1.0" else "6 groups of 4 characters and a 2-character checksum"
            diags.append(error(f"cannot read the line for ${rec.address:04X}: expected {what}; it reads {shown!r}", where))
            unreadable.add(rec.address)
            if prev is None or rec.address == prev + per_line:
                prev = rec.address
            continue
        address, data, printed_cs = _decode(version, rec.digits)
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
            diags.append(error(f"line for ${address:04X} is out of order (it follows ${prev:04X})", where, *addr_note))
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
        computed = _computed(version, address, data, start)
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
        for i, (d, p) in enumerate(zip(rec.digits, rec.printed)):
            if d != p and d != p.upper() and d != p.lower():
                diags.append(warning(f"read '{p}' as '{d}'", src.span(rec.offsets[i], 1)))
        placed.setdefault(intended, (rec, data))
        prev = intended if prev is None else max(prev, intended)

    if not placed:
        return ReadResult(version, name, start, start, b"", len(records), tuple(diags))
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
    for address, (_, data) in sorted(placed.items()):
        for i, b in enumerate(data):
            if start <= address + i < end:
                image[address + i - start] = b
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
    return ReadResult(version, name, start, end, bytes(image), len(records), tuple(diags))


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
    best = max(tried, key=lambda p: (bool(p.records), p.good, len(p.records), -p.repairs, -VERSIONS.index(p.version)))
    return _check(best, src, fill)
