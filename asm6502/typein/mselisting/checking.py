"""Checking a listing read: each line's checksum (repairs, fixes), the lines' address sequence,
missing lines; the result (:class:`ReadResult`, a :class:`LineReport` per line); reading a page."""

from __future__ import annotations

from asm6502.diagnostics import Diagnostic, Span, error, note, warning
from asm6502.tuples import named_tuple
from asm6502.typein.confusion import SUSPECT_FACTOR, char_cost
from asm6502.typein.mselisting import ocr
from asm6502.typein.mselisting.codec import MAX_FIXES_SHOWN, MSE_FILL
from asm6502.typein.mselisting.formats import FORMATS, VERSIONS, MseFormat, reason
from asm6502.typein.mselisting.parsing import LineRecord, Parse, SourceText, blank_outside, cut_column, headers, parse
from asm6502.typein.mselisting.writing import check_version, write_listing


@named_tuple
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


@named_tuple
class ReadResult:
    """What :func:`read_listing` found: the bytes from *start* to *end* and diagnostics."""

    version: str
    name: str | None
    start: int
    end: int
    data: bytes
    lines: int
    diagnostics: tuple[Diagnostic, ...] = ()
    report: tuple[LineReport, ...] = ()
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


@named_tuple
class _Fix:
    """A correction that makes a line's checksum match."""

    cost: float
    digits: str  # the corrected line (address + payload + checksum characters)
    description: str


def _describe(fmt: MseFormat, rec: LineRecord, new: str, how: str) -> str:
    """Say in listing terms what changes between rec.digits and *new*."""
    changed = [i for i in range(len(new)) if new[i] != rec.digits[i]]
    csum_at = len(new) - 2
    if changed[0] >= csum_at:
        what = f"checksum {new[csum_at:]} instead of {rec.printed[csum_at:]}"
    else:
        what = fmt.describe_change(rec, new, changed[0])
    return f"possible fix: {what}{how}"


def _suggest_fixes(fmt: MseFormat, rec: LineRecord, start: int) -> list[_Fix]:
    """Single-character changes, and the format's other likely ones (whole bytes, transpositions), that make *rec* verify."""
    fixes: dict[str, _Fix] = {}

    def consider(new: str, cost: float, how: str) -> None:
        if new != rec.digits and fmt.verifies(new, start):
            if new not in fixes or cost < fixes[new].cost:
                fixes[new] = _Fix(cost, new, _describe(fmt, rec, new, how))

    digits, printed = rec.digits, rec.printed
    n = len(digits)
    alphabet = fmt.alphabet
    for i in range(4, n):  # the address is handled by the sequence check
        for alt in alphabet:
            if alt != digits[i]:
                cost = char_cost(printed[i], alt) * (SUSPECT_FACTOR if printed[i].upper() != digits[i].upper() else 1.0)
                consider(digits[:i] + alt + digits[i + 1 :], cost, reason([(printed[i], alt)]))
    fmt.more_fixes(rec, start, consider)
    return sorted(fixes.values(), key=lambda f: (f.cost, f.digits))


def _read_as_warnings(rec: LineRecord, src: SourceText, diags: list[Diagnostic]) -> None:
    for i, (d, p) in enumerate(zip(rec.digits, rec.printed)):
        if d != p and d != p.upper() and d != p.lower() and ocr.WILDCARD not in (d, ocr.read_char(p)):
            diags.append(warning(f"read '{p}' as '{d}'", src.span(rec.offsets[i], 1)))


def _range_text(lo: int, hi: int, per_line: int) -> str:
    count = (hi - lo) // per_line + 1
    return f"line ${lo:04X}" if count == 1 else f"lines ${lo:04X}-${hi:04X} ({count} lines)"


def _check(parse: Parse, src: SourceText, fill: int) -> ReadResult:
    fmt, version, header, records = parse.fmt, parse.version, parse.header, parse.records
    diags = parse.diagnostics
    per_line = fmt.bytes_per_line
    name = header.name if header else None
    budget = ocr.Budget()  # the listing's search budget
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
    if fmt.start_in_checksum and not header:
        diags.append(warning(
            f"no 'PROGRAMM :' header: taking ${start:04X} as the start address for the V{version} checksums",
            src.span(records[0].start, 4, context=False),
        ))

    case = ocr.letter_case([r.cells for r in records])
    cut = cut_column(records)
    reports: list[LineReport] = []
    placed: dict[int, tuple[LineRecord, bytes]] = {}  # intended line address -> record, data
    unreadable: set[int] = set()  # reported already; not "missing" as well
    prev: int | None = None
    for k, rec in enumerate(records):
        nxt = records[k + 1].address if k + 1 < len(records) else None
        where = src.span(rec.start, 4)
        addr_note = [] if where.source else [note(f"the line reads: {rec.text}")]
        if cut and fmt.no_checksum(rec):
            data = bytes.fromhex(rec.digits[4:].replace(ocr.WILDCARD, "0"))
            diags.append(error(f"the line for ${rec.address:04X} has 8 bytes but no checksum (column cut off?): "
                               "it cannot be verified", where))
            reports.append(LineReport(rec.address, src.line_of(rec.start), "bad", data))
            placed.setdefault(rec.address, (rec, data))
            prev = rec.address if prev is None else max(prev, rec.address)
            continue
        if not rec.complete:
            shown = rec.text[:60]
            diags.append(error(f"cannot read the line for ${rec.address:04X}: expected {fmt.shape}; it reads {shown!r}", where))
            unreadable.add(rec.address)
            reports.append(LineReport(rec.address, src.line_of(rec.start), "bad", b""))
            if prev is None or rec.address == prev + per_line:
                prev = rec.address
            continue
        address, data, printed_cs = fmt.decode(rec.digits.replace(ocr.WILDCARD, "0"))
        # -- where does this line belong?
        expected = start if prev is None else prev + per_line
        intended = address
        if prev is None and header is None or address == expected:
            pass
        elif (nxt is not None and nxt == expected + per_line) or (
            nxt is None and header is not None and expected < header.end <= expected + per_line
        ):
            intended = expected  # sits in the slot of $expected: a misread address
            if fmt.verifies(f"{expected:04X}" + rec.digits[4:], start) and not fmt.verifies(rec.digits, start):
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
            if fmt.verifies(rec.digits, start) and not (address - start) % per_line:
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
        if fmt.short_lines and not header and len(data) < per_line and k + 1 < len(records):
            diags.append(error(f"line for ${address:04X} has only {len(data)} data bytes; only the last line may be short", where, *addr_note))
        # -- checksum
        checked = fmt.check_line(rec, address, data, case, diags, src, addr_note, budget)
        if checked is not None:
            data, status, repair, fixes = checked
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
        computed = fmt.checksum(address, data, start)
        suggested = _suggest_fixes(fmt, rec, start) if printed_cs != computed else []
        reports.append(LineReport(address, src.line_of(rec.start), "verified" if printed_cs == computed else "bad", data,
                                  fixes=tuple(fmt.decode(f.digits)[1] for f in suggested)))
        if printed_cs != computed:
            cs_at = rec.offsets[-2]
            notes = addr_note + [note(f.description) for f in suggested[:MAX_FIXES_SHOWN]]
            if len(suggested) > MAX_FIXES_SHOWN:
                notes.append(note(f"{len(suggested) - MAX_FIXES_SHOWN} less likely single-character/byte changes also match"))
            diags.append(error(
                f"checksum mismatch at ${address:04X} (computed {fmt.show_checksum(computed)}, "
                f"printed {fmt.printed_checksum(rec)})",
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
        if fmt.unknown_end_warning:
            diags.append(warning(
                f"no 'PROGRAMM :' header: the end address is unknown, keeping all {per_line} bytes of the last line",
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
        check_version(version)
    src = SourceText(text, filename)
    tried = [parse(text, src, FORMATS[v]) for v in ([version] if version else VERSIONS)]
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
    starts = [h.offset for h in headers(text)]
    if len(starts) < 2:
        return [read_listing(text, filename, version=version, fill=fill)]
    bounds = list(zip(starts, starts[1:] + [len(text)]))
    return [read_listing(blank_outside(text, lo, hi), filename, version=version, fill=fill) for lo, hi in bounds]
