"""Reading the English formats back from typed or OCR'd text, the checksums ranking repairs.

A line is read in two steps, and repaired only when one reading alone verifies:

1. **as printed**, each character that cannot be what it stands for (a letter in a number, a
   digit among the checksum letters, ``I`` in a hex byte) read as the characters it looks like
   (:mod:`asm6502.typein.confusion`), every combination tried;
2. if none verifies: **one more misreading** that the print does not show (a ``3`` for an ``8``,
   ``B`` for ``8`` in hex, ``O`` for ``0`` in BASIC text), each place and look-alike tried.

A line with exactly one verifying reading is taken (``repaired`` when it is not the print);
with none or several it is ``bad`` and its likeliest readings are named.  A damaged machine-code
address is taken from the line before (addresses go up by the line length).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product

from asm6502.basic.case import BRACES
from asm6502.basic.tokenizer import MAX_LINE_NUMBER, link_program
from asm6502.diagnostics import Diagnostic, Span, error, warning
from asm6502.typein.confusion import CONFUSIONS, char_cost
from asm6502.typein.english import bugrepellent, mlx, printed, proofreader

MAX_COMBINATIONS = 4096  # readings of one line's damaged characters tried at most
SLIP_COST = 2.0  # a misreading the print does not show: only the look-alikes up to this cost


@dataclass(frozen=True)
class LineReport:
    """One line of a listing as read: where (row of the text), its key (line number or address),
    how it was read, its bytes, the checksum as printed and as computed, what was changed."""

    row: int
    key: int
    status: str  # "verified", "repaired", "bad", "unchecked" (no checksum printed for it)
    data: bytes
    printed: str
    computed: str
    text: str = ""  # BASIC: the line's text as taken (the repaired text when repaired)
    note: str = ""


@dataclass(frozen=True)
class Listing:
    prg: bytes
    lines: tuple[LineReport, ...]
    diagnostics: tuple[Diagnostic, ...] = field(default=())

    def count(self, status: str) -> int:
        return sum(1 for r in self.lines if r.status == status)


def _partners() -> dict[str, list[tuple[float, str]]]:
    out: dict[str, list[tuple[float, str]]] = {}
    for a, b, cost in CONFUSIONS:
        if cost <= SLIP_COST:
            out.setdefault(a, []).append((cost, b))
            out.setdefault(b, []).append((cost, a))
    return out


_PARTNERS = _partners()


def field_readings(field: str, alphabet: str, value: Callable[[str], int | None]) -> list[tuple[float, int]]:
    """The values a checksum field of letters or digits may have been (damaged characters read
    as the look-alikes in *alphabet*)."""
    options = []
    for c in field.upper():
        if c in alphabet:
            options.append([(0.0, c)])
        else:
            near = [(char_cost(c, d), d) for d in alphabet if char_cost(c, d) <= 2.5]
            if not near:
                return []
            options.append(near)
    out = []
    for combo in product(*options):
        got = value("".join(d for _, d in combo))
        if got is not None:
            out.append((sum(c for c, _ in combo), got))
    return sorted(set(out))


def _text_slips(text: str) -> Iterator[tuple[float, str, str]]:
    """*text* with one character misread: (cost, text, what changed), outside key names."""
    pos = 0
    for k, part in enumerate(BRACES.split(text)):
        if k % 2 == 0:
            for i, c in enumerate(part):
                at = pos + i
                if c.islower():
                    yield 0.5, text[:at] + c.upper() + text[at + 1 :], f"'{c}' at column {at + 1} read as '{c.upper()}'"
                for cost, p in _PARTNERS.get(c.upper(), ()):
                    if p != c.upper():
                        yield cost, text[:at] + p + text[at + 1 :], f"'{c}' at column {at + 1} read as '{p}'"
        pos += len(part)


# --------------------------------------------------------------------------- BASIC formats
@dataclass(frozen=True)
class BasicRules:
    """How one BASIC format's checksum is printed and computed."""

    name: str
    style: str  # the key spellings: "compute" or "ahoy"
    alphabet: str  # the checksum field's characters
    value: Callable[[str], int | None]  # field text -> checksum value
    show: Callable[[int], str]  # value -> field text

    def checksum(self, number: int, text: str, state: bool) -> tuple[int, bool] | None:
        raise NotImplementedError


@dataclass(frozen=True)
class ProofreaderRules(BasicRules):
    version: str = "1983"

    def checksum(self, number: int, text: str, state: bool) -> tuple[int, bool] | None:
        line = printed.typed(number, text, self.style)
        if line is None or printed.stored(text, self.style) is None:
            return None
        if self.version == "1983":
            return proofreader.checksum_1983(line), state
        return proofreader.checksum_1986(number, line), state


@dataclass(frozen=True)
class RepellentRules(BasicRules):
    version: str = "2"

    def checksum(self, number: int, text: str, state: bool) -> tuple[int, bool] | None:
        body = printed.stored(text, self.style)
        if body is None:
            return None
        if self.version == "2":
            return bugrepellent._v2(body, state)
        return bugrepellent.checksum(self.version, number, body), state


def _decimal(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) <= 255 else None


def proofreader_rules(version: str) -> ProofreaderRules:
    if version == "1983":
        return ProofreaderRules("proofreader-1983", "compute", "0123456789", _decimal, str, version)
    return ProofreaderRules("proofreader-1986", "compute", proofreader.LETTERS, proofreader.letters_value,
                            proofreader.letters, version)


def repellent_rules(version: str) -> RepellentRules:
    return RepellentRules(f"bugrepellent-{version}", "ahoy", "ABCDEFGHIJKLMNOP", bugrepellent.letters_value,
                          bugrepellent.letters, version)


def line_number(token: str) -> tuple[int, str] | None:
    """A printed line number: its value and, when OCR read a digit as a letter, what was read
    (None: not a number, or a number no line has)."""
    if token.isdigit():
        return (int(token), "") if int(token) <= MAX_LINE_NUMBER else None
    digits = ""
    for c in token:
        if c.isdigit():
            digits += c
            continue
        near = sorted((char_cost(c, d), d) for d in "0123456789" if char_cost(c, d) <= SLIP_COST)
        if not near or len(near) > 1 and near[0][0] == near[1][0]:
            return None
        digits += near[0][1]
    value = int(digits)
    return (value, f"line number {token!r} read as {value}") if value <= MAX_LINE_NUMBER else None


def read_basic_line(rules: BasicRules, row: int, number_text: str, text: str,
                    field_for: Callable[[int], str | None], state: bool) -> tuple[LineReport, bool]:
    """One printed line -> its report and the state for the next line (version 2's quote flag).
    *field_for*: the checksum printed for a line number (None: none printed for it)."""
    text = text.rstrip()
    got_number = line_number(number_text)
    if got_number is None:
        return LineReport(row, 0, "bad", b"", "", "", text, f"{number_text!r} is no line number"), state
    number, number_note = got_number
    report, after = _read_basic_line(rules, row, number, text, field_for, state)
    if number_note and report.status == "verified":
        report = LineReport(row, number, "repaired", report.data, report.printed, report.computed, report.text, number_note)
    elif number_note:
        report = LineReport(row, report.key, report.status, report.data, report.printed, report.computed, report.text,
                            f"{number_note}; {report.note}")
    return report, after


def _number_slips(digits: str) -> list[tuple[float, int]]:
    """The line numbers *digits* may have been with one digit misread for a look-alike."""
    out = []
    for k, c in enumerate(digits):
        for cost, p in _PARTNERS.get(c, ()):
            if p.isdigit() and (k or p != "0"):
                value = int(digits[:k] + p + digits[k + 1 :])
                if value <= MAX_LINE_NUMBER:
                    out.append((cost, value))
    return sorted(set(out))


Hit = tuple[float, int, str, int, str, bool]  # cost, line number, text, checksum, what changed, state after


def _read_basic_line(rules: BasicRules, row: int, number: int, text: str,
                     field_for: Callable[[int], str | None], state: bool) -> tuple[LineReport, bool]:
    field_text = field_for(number)
    got = rules.checksum(number, text, state)
    computed = "" if got is None else rules.show(got[0])
    body = printed.stored(text, rules.style) or b""
    if field_text is None:
        return LineReport(row, number, "unchecked", body, "", computed, text, "no checksum printed for it"), \
            got[1] if got else state
    fields = field_readings(field_text, rules.alphabet, rules.value)
    if got is not None and rules.value(field_text.upper()) == got[0]:
        return LineReport(row, number, "verified", body, field_text, computed, text), got[1]
    # step 1: the text as printed, the field's damaged characters read as their look-alikes
    hits: list[Hit] = []
    if got is not None:
        hits = [(cost, number, text, value, "", got[1]) for cost, value in fields if value == got[0]]
    if not hits:  # step 2: one misreading more, in the text, the line number or the field
        seen: dict[str, tuple[int, bool] | None] = {}
        for cost, candidate, what in _text_slips(text):
            if candidate not in seen:
                seen[candidate] = rules.checksum(number, candidate, state)
            value_state = seen[candidate]
            if value_state is not None:
                hits += [(cost + c, number, candidate, v, what, value_state[1]) for c, v in fields if v == value_state[0]]
        for cost, other in _number_slips(str(number)):
            other_field = field_for(other)
            value_state = rules.checksum(other, text, state)
            if other_field is None or value_state is None:
                continue
            hits += [(cost + c, other, text, v, f"line number {number} read as {other}", value_state[1])
                     for c, v in field_readings(other_field, rules.alphabet, rules.value) if v == value_state[0]]
        if got is not None:
            up = field_text.upper()
            for k, c in enumerate(up):
                for cost, p in _PARTNERS.get(c, ()):
                    if rules.value(up[:k] + p + up[k + 1 :]) == got[0]:
                        hits.append((cost, number, text, got[0], f"the checksum's '{c}' read as '{p}'", got[1]))
    distinct = {(n, t, v) for _, n, t, v, _, _ in hits}
    if len(distinct) == 1:
        cost, key, taken, value, what, after = min(hits)
        note = what or f"the checksum {field_text!r} read as {rules.show(value)!r}"
        return LineReport(row, key, "repaired", printed.stored(taken, rules.style) or b"", field_for(key) or field_text,
                          rules.show(value), taken, note), after
    if got is None:
        note = "the line has a key name or character nobody printed"
    elif hits:
        options = sorted(hits)[:3]
        note = f"{len(distinct)} readings verify; likeliest: " + "; ".join(w or "the checksum misread" for *_, w, _ in options)
    else:
        note = f"the text gives {computed}, the print says {field_text}"
    return LineReport(row, number, "bad", body, field_text, computed, text, note), got[1] if got else state


def build_basic(lines: list[LineReport]) -> bytes:
    """The .prg of the lines read (a line number given twice: the later line)."""
    by_number: dict[int, bytes] = {}
    for r in lines:
        by_number[r.key] = r.data
    prg, _ = link_program([(n, b, None) for n, b in sorted(by_number.items())])
    return prg


def read_proofreader(text: str, version: str, filename: str = "<input>") -> list[Listing]:
    rules = proofreader_rules(version)
    found = proofreader.find_1983(text) if version == "1983" else proofreader.find_1986(text)
    if version == "1986":  # a code before the number: two of the sixteen letters (or their look-alikes)
        found = [f for f in found if field_readings(f.field, rules.alphabet, rules.value)]
    if not found:
        return []
    reports = []
    state = False
    for f in found:
        report, state = read_basic_line(rules, f.row, f.number, f.text, same(f.field), state)
        reports.append(report)
    # a numbered row among the listing's lines whose checksum was not found: reported, not lost
    taken = {f.row for f in found}
    rows = text.split("\n")
    for row in range(found[0].row, found[-1].row + 1):
        token, rest = numbered(rows[row - 1])
        got = line_number(token) if token else None
        if row not in taken and got is not None:
            reports.append(LineReport(row, got[0], "bad", printed.stored(rest, rules.style) or b"", "", "", rest,
                                      "no checksum read at the line's end" if version == "1983" else "no checksum read before the line"))
    reports.sort(key=lambda r: r.row)
    return [_listing(reports, filename)]


def same(field_text: str) -> Callable[[int], str | None]:
    """The Proofreader's field is on the line itself: the same for any number the line may have."""
    def field_for(_number: int) -> str | None:
        return field_text
    return field_for


def read_repellent(text: str, version: str, filename: str = "<input>") -> list[Listing]:
    rules = repellent_rules(version)
    entries, table_rows = bugrepellent.find_table(text)
    if not entries:
        return []
    codes = {e.number: e.field for e in entries}
    rows = text.split("\n")
    reports = []
    state = False
    for row, line in enumerate(rows, start=1):
        if row in table_rows:
            continue
        token, rest = numbered(line)
        if token is None:
            continue
        report, state = read_basic_line(rules, row, token, rest, codes.get, state)
        reports.append(report)
    if not reports:
        return []
    return [_listing(reports, filename)]


_NUMBERED = re.compile(r"^\s*([0-9A-Za-z]{1,5})(?: (.*)|)$")


def numbered(line: str) -> tuple[str | None, str]:
    """A listing line's number as printed (a digit in it, any letter a digit's look-alike) and its text."""
    m = _NUMBERED.match(line)
    if not m or not any(c.isdigit() for c in m.group(1)) or line_number(m.group(1)) is None:
        return None, ""
    return m.group(1), m.group(2) or ""


def _listing(reports: list[LineReport], filename: str) -> Listing:
    diagnostics = [error(f"line {r.key}: {r.note}", _row(filename, r.row)) for r in reports if r.status == "bad"]
    diagnostics += [warning(f"line {r.key} repaired: {r.note}", _row(filename, r.row))
                    for r in reports if r.status == "repaired"]
    return Listing(build_basic(reports), tuple(reports), tuple(diagnostics))


# --------------------------------------------------------------------------- MLX
def address_value(text: str, version: str) -> int | None:
    try:
        value = int(text, 10 if version == "1" else 16)
    except ValueError:
        return None
    return value if value <= 0xFFFF else None


def read_mlx(text: str, version: str, filename: str = "<input>") -> list[Listing]:
    found = mlx.find_lines(text, version)
    if not found:
        return []
    start, end = mlx.header(text, version)
    n = mlx.PER_LINE[version]
    reports: list[LineReport] = []
    expected = start
    for f in found:
        printed_address = address_value(f.address.upper(), version)
        # the address the line before leads to, the print's, and the print's with a digit misread
        readings = [a for _, a in mlx.address_readings(f.address, version)]

        def fits(a: int | None) -> bool:
            return a is not None and (start is None or start <= a and (a - start) % n == 0) and (end is None or a <= end)

        first = [a for a in dict.fromkeys((expected, *readings[:1])) if fits(a)]
        more = [a for a in dict.fromkeys(readings[1:]) if fits(a) and a not in first]
        report = mlx_line(version, f, first, more, printed_address)
        reports.append(report)
        expected = (report.key if report.status != "bad" or expected is None else expected) + n
    if start is None or start > min(r.key for r in reports):
        start = min(r.key for r in reports)
    image = bytearray()
    diagnostics: list[Diagnostic] = []
    for r in sorted(reports, key=lambda r: r.key):
        at = r.key - start
        if at < 0:
            continue
        if at > len(image):
            diagnostics.append(error(f"no line for ${start + len(image):04X}-${r.key - 1:04X}", _row(filename, r.row)))
            image += bytes(at - len(image))
        image[at : at + len(r.data)] = r.data
    if end is not None and end >= start:
        image = image[: end - start + 1]
    diagnostics += [error(f"{mlx.format_address(version, r.key)}: {r.note}", _row(filename, r.row))
                    for r in reports if r.status == "bad"]
    diagnostics += [warning(f"{mlx.format_address(version, r.key)} repaired: {r.note}", _row(filename, r.row))
                    for r in reports if r.status == "repaired"]
    return [Listing(start.to_bytes(2, "little") + bytes(image), tuple(reports), tuple(diagnostics))]


def mlx_line(version: str, f: mlx.PrintedLine, addresses: list[int], more: list[int],
              printed_address: int | None) -> LineReport:
    """*addresses*: the line before's next and the print's; *more*: the print's with a digit
    misread (tried in step 2 only, like any misreading the print does not show)."""
    fields = [mlx.readings(x, version) for x in f.fields]
    if not addresses:
        addresses, more = more[:1], more[1:]
    show = f"{'' if version == '1' else '$'}"
    if any(not r for r in fields) or not addresses:
        return LineReport(f.row, addresses[0] if addresses else 0, "bad", b"", f.fields[-1], "", "",
                          "a field that is no byte")
    exact = [r[0][1] if r[0][0] == 0 and len(r) == 1 else None for r in fields]
    if printed_address in addresses and all(v is not None for v in exact):
        data, value = bytes(exact[:-1]), exact[-1]  # type: ignore[arg-type]
        if mlx.checksum(version, printed_address, data) == value:
            return LineReport(f.row, printed_address, "verified", data, f.fields[-1], str(value))
    # step 1: damaged characters read as their look-alikes, the address from the sequence
    hits: list[tuple[float, int, bytes, str]] = []
    combos = 1
    for r in fields:
        combos *= len(r)
    if combos <= MAX_COMBINATIONS:
        for address in addresses:
            extra = 0.0 if address == printed_address else 1.0
            for combo in product(*fields):
                data = bytes(v for _, v in combo[:-1])
                if mlx.checksum(version, address, data) == combo[-1][1]:
                    hits.append((extra + sum(c for c, _ in combo), address, data, "the damaged characters read"))
    if not hits:  # step 2: one misreading the print does not show, on the likeliest reading
        base = [r[0][1] for r in fields]
        for address in addresses:
            for k, x in enumerate(f.fields):
                for cost, value in mlx.slips(x, version, SLIP_COST) if fields[k][0][0] == 0 else ():
                    values = base[:k] + [value] + base[k + 1 :]
                    data = bytes(values[:-1])
                    if mlx.checksum(version, address, data) == values[-1]:
                        hits.append((cost, address, data, f"field {k + 1} {x!r} read as {mlx.format_address(version, value)[-3 if version == '1' else -2:]}"))
        data = bytes(base[:-1])
        hits += [(2.0, address, data, "the address misread") for address in more
                 if mlx.checksum(version, address, data) == base[-1]]
    if any(a == addresses[0] for _, a, _, _ in hits):  # the address the line before leads to, first
        hits = [h for h in hits if h[1] == addresses[0]]
    distinct = {(a, d) for _, a, d, _ in hits}
    address = addresses[0]
    if len(distinct) == 1:
        cost, address, data, what = min(hits)
        note = what if address == printed_address else f"{what}, address {show}{mlx.format_address(version, address)} (the line before's next)"
        return LineReport(f.row, address, "repaired", data, f.fields[-1], str(mlx.checksum(version, address, data)), "", note)
    data = bytes(r[0][1] for r in fields[:-1])
    computed = str(mlx.checksum(version, address, data))
    note = f"{len(distinct)} readings verify" if hits else f"the bytes give checksum {computed}, the print says {f.fields[-1]}"
    return LineReport(f.row, address, "bad", data, f.fields[-1], computed, "", note)


def _row(filename: str, row: int) -> Span:
    """Where a listing line stands in the text read (its row; the note says the column)."""
    return Span(filename, row, 1, 1, None)
