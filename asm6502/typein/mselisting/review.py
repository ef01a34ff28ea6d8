"""The MSE side of the review session (``mse read --review``).

Each line still bad after :func:`asm6502.typein.mselisting.checking.read_listings` becomes an
:class:`asm6502.typein.review.Item`: the OCR row, the ranked readings that verify, written as
the listing prints them.  A decision keeps a line's characters after its address (the bytes and
the checksum, in the version's own writing: hex for V1.0, the letter code for V2.x), checked as
``mse type`` checks a typed line; :func:`apply` puts the decided lines' bytes into the program.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from asm6502.diagnostics import warning
from asm6502.typein.mselisting.checking import LineReport, ReadResult
from asm6502.typein.mselisting.formats import FORMATS
from asm6502.typein.review import Decision, Fix, Item

_BLANKS = re.compile(r"[\s:]")
_ADDRESS = re.compile(r"^\s*([0-9A-Fa-f]{4})\s*:")
MAX_SHOWN = 100  # characters of an OCR row shown


def key_of(listing: int, address: int, several: bool) -> str:
    return f"{listing}/${address:04X}" if several else f"${address:04X}"


def _payload(line: str) -> str:
    return line.split(":", 1)[1].strip()


def _row(text_lines: list[str], report: LineReport) -> str:
    """The OCR row of a line, from its address on (a row may hold two columns)."""
    row = text_lines[report.line - 1] if 0 < report.line <= len(text_lines) else ""
    at = row.upper().find(f"{report.address:04X}")
    return row[max(at, 0):].replace("\t", " ").strip()[:MAX_SHOWN]


def items(results: Sequence[ReadResult], text: str) -> list[Item]:
    """Every line still bad, in every listing read from *text*."""
    text_lines = text.split("\n")
    several = len(results) > 1
    out = []
    for k, result in enumerate(results, start=1):
        fmt = FORMATS[result.version]
        for r in result.report:
            if r.status != "bad" or not r.data:
                continue
            fixes = []
            for data in r.fixes:
                shown = fmt.format_line(r.address, data, result.start)
                changed = [f"${r.address + i:04X}: {new:02X} instead of {old:02X}"
                           for i, (old, new) in enumerate(zip(r.data, data, strict=False)) if old != new]
                fixes.append(Fix(shown, _payload(shown), ", ".join(changed) or "the checksum misread"))
            out.append(Item(key_of(k, r.address, several), f"text line {r.line}",
                            f"the line for ${r.address:04X} does not verify", _row(text_lines, r), tuple(fixes),
                            # the readings come ranked; a line with a single one is the likeliest decision
                            float(len(fixes)) if fixes else float("inf")))
    return out


class Checker:
    """Checks a line's characters for the review (a decision read back, a fix, a retyped line)."""

    def __init__(self, results: Sequence[ReadResult]):
        several = len(results) > 1
        self.lines: dict[str, tuple[ReadResult, LineReport]] = {
            key_of(k, r.address, several): (result, r)
            for k, result in enumerate(results, start=1) for r in result.report if r.status == "bad" and r.data}

    def data(self, key: str, text: str) -> tuple[bytes | None, str]:
        """The bytes *text* (the characters after the address) gives when its checksum matches."""
        result, r = self.lines[key]
        fmt = FORMATS[result.version]
        m = _ADDRESS.match(text)
        if m is not None and int(m.group(1), 16) == r.address:
            text = text[m.end():]  # typed with its address, as printed
        chars = []
        for c in _BLANKS.sub("", text):
            n = fmt.norm_char(c)
            if n is None:
                return None, f"{c!r} is not a character of an MSE V{result.version} line"
            chars.append(n)
        digits = "".join(chars)
        address = f"{r.address:04X}"
        want = 2 * len(r.data) + 2 if fmt.short_lines else fmt.payload_chars  # (V1.0: the last line may be short)
        if fmt.short_lines and len(digits) == want + 4 and digits[:4] == address:
            digits = digits[4:]  # a V1.0 line typed with its address, without the colon
        if len(digits) != want:
            return None, f"the line for ${r.address:04X} has {want} characters after its address, not {len(digits)}"
        if not fmt.verifies(address + digits, result.start):
            return None, f"the checksum of the line for ${r.address:04X} does not match its bytes"
        return fmt.decode(address + digits)[1], f"ok: the line for ${r.address:04X}"

    def check(self, item: Item, text: str) -> tuple[str | None, str]:
        data, answer = self.data(item.key, text)
        return (None, answer) if data is None else (text, answer)

    def retype(self, item: Item, typed: str) -> tuple[str | None, list[str]]:
        kept, answer = self.check(item, typed.strip())
        return (kept, [answer]) if kept is not None else (None, [f"refused: {answer}"])


def apply(results: Sequence[ReadResult], decisions: Mapping[str, Decision]) -> list[ReadResult]:
    """*results* with the decided lines' bytes in the program ("accepted"), each verified again;
    the line's errors go, a warning says what was decided."""
    checker = Checker(results)
    several = len(results) > 1
    out = []
    for k, result in enumerate(results, start=1):
        image = bytearray(result.data)
        reports = list(result.report)
        diags = list(result.diagnostics)
        for i, r in enumerate(reports):
            key = key_of(k, r.address, several)
            decision = decisions.get(key)
            if decision is None or key not in checker.lines:
                continue
            data, _ = checker.data(key, decision.text)
            if data is None:
                continue
            for j, b in enumerate(data):
                if result.start <= r.address + j < result.end:
                    image[r.address + j - result.start] = b
            named = f"${r.address:04X}"
            diags = [d for d in diags if not (d.is_error and d.span is not None and d.span.line == r.line
                                              and named in d.message)]
            what = "retyped" if decision.kind == "typed" else "a fix taken"
            diags.append(warning(f"line {named} as decided in the review ({what}): "
                                 f"{FORMATS[result.version].format_line(r.address, data, result.start)}"))
            reports[i] = r._replace(status="accepted", data=data, repair=f"{what} in the review")  # type: ignore[attr-defined]  # (a named tuple)
        out.append(result._replace(data=bytes(image), report=tuple(reports), diagnostics=tuple(diags)))  # type: ignore[attr-defined]  # (a named tuple)
    return out


__all__ = ["Checker", "apply", "items", "key_of"]
