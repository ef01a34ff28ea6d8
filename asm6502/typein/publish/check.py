"""``publish --check``: the page read back as a reader would read it, and the lines a reader is
likely to get wrong.

1. The page's own text (``Publication.text``: header, columns in reading order, footers) is read
   with the format's reader, the same engine ``mse read``/``basic read``/``typein scan`` use; the
   check passes when that gives exactly one listing, whole, and the identical program.
2. Every line of the listing is then read again in each of the ways a reader is likely to misread
   it: each character taken for a look-alike (:mod:`asm6502.typein.confusion`, the likeliest pairs,
   the line's letter case kept) and each pair of neighbouring characters, or neighbouring groups of
   equal length (an MSE line's bytes), swapped. A line is read alone, after the listing's frame
   (the rows before its first line: an MSE header), with the same reader. Each misreading ends one
   of four ways: the reader repairs it (the checksum ranked the right line first), the reader
   reports the line bad (the typist is told), the reader repairs it into another line with the
   same checksum, or it passes: the checksum cannot see it -- the checksum's blind spot on that
   line. The last two are read again in the whole listing (the lines around may give one away: a
   line number out of order) and named only when they pass there too.
3. Lines with long runs of control codes in braces (``{down}{down}{down}``) are named as well.

Each named line comes with a safer way to write it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from asm6502.typein.confusion import CONFUSIONS
from asm6502.typein.formats import Reading, TypeinFormat
from asm6502.typein.publish.page import Publication

LIKELY_COST = 1.0  # the look-alikes considered: CONFUSIONS at this cost or below (the five likeliest pairs)
CONTROL = re.compile(r"\{[^{}]*\}")
CONTROL_RUN = 3  # this many control codes in braces in a row: a run a typist loses count in
GROUP = re.compile(r"\S+")


def _partners() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for a, b, cost in CONFUSIONS:
        if cost <= LIKELY_COST:
            table.setdefault(a, []).append(b)
            table.setdefault(b, []).append(a)
    return {k: tuple(sorted(set(v))) for k, v in table.items()}


@dataclass(frozen=True)
class Misreading:
    text: str  # the line as misread
    how: str  # "'8' read as 'B' at column 12", "'8D' and '52' swapped"
    kind: str  # "glyph" or "swap"
    pair: str = ""  # a glyph's look-alike pair as the page summary counts it: "8/B"


@dataclass(frozen=True)
class LineRisk:
    row: int  # the listing's row (1-based, as the writer wrote it)
    line: str
    silent: tuple[Misreading, ...]  # pass the checksum: the program is wrong
    misrepaired: tuple[Misreading, ...]  # the reader repairs them into another line with the same checksum
    controls: int  # the longest run of control codes in braces
    advice: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Tally:
    """How the misreadings of one kind ended, over the whole listing."""

    repaired: int = 0
    caught: int = 0
    silent: int = 0  # passed the checksum as misread
    misrepaired: int = 0  # the reader's repair chose another line that fits the checksum
    lines: frozenset[int] = frozenset()  # rows where one was caught but not repaired

    def add(self, outcome: str, row: int) -> Tally:
        return Tally(self.repaired + (outcome == "repaired"), self.caught + (outcome == "caught"),
                     self.silent + (outcome == "silent"), self.misrepaired + (outcome == "misrepaired"),
                     self.lines | ({row} if outcome == "caught" else set()))


@dataclass(frozen=True)
class CheckResult:
    reading: Reading | None  # the page's text read back (None: no listing found in it)
    listings: int  # how many listings the reader found in the page's text
    identical: bool
    lines: int  # rows of the listing misread one by one (0: the read-back only)
    tallies: dict[str, Tally]  # per look-alike pair ("8/B") and "swap"
    risks: tuple[LineRisk, ...]
    difference: str = ""  # where the program read back differs from the one published ("": nowhere, or unread)

    @property
    def ok(self) -> bool:
        return self.identical

    def total(self, outcome: str) -> int:
        return sum(getattr(t, outcome) for t in self.tallies.values())


def misreadings(line: str, partners: dict[str, tuple[str, ...]]) -> Iterator[Misreading]:
    """The likely misreadings of *line* (see the module docstring), each once."""
    seen = {line}
    lower = any(c.islower() for c in line)
    for k, ch in enumerate(line):
        for other in partners.get(ch.upper(), ()):
            if other.isalpha() and (ch.islower() or (not ch.isalpha() and lower)):
                other = other.lower()
            text = line[:k] + other + line[k + 1 :]
            if text not in seen:
                seen.add(text)
                pair = "/".join(sorted((ch.upper(), other.upper())))
                yield Misreading(text, f"'{ch}' read as '{other}' at column {k + 1}", "glyph", pair)
    for k in range(len(line) - 1):
        a, b = line[k], line[k + 1]
        if a != b and not a.isspace() and not b.isspace():
            text = line[:k] + b + a + line[k + 2 :]
            if text not in seen:
                seen.add(text)
                yield Misreading(text, f"'{a}{b}' typed as '{b}{a}' at column {k + 1}", "swap")
    groups = list(GROUP.finditer(line))
    for g, h in zip(groups, groups[1:]):
        if len(g.group()) == len(h.group()) > 1 and g.group() != h.group():
            text = line[: g.start()] + h.group() + line[g.end() : h.start()] + g.group() + line[h.end() :]
            if text not in seen:
                seen.add(text)
                yield Misreading(text, f"'{g.group()}' and '{h.group()}' swapped", "swap")


def _good(r: Reading) -> int:
    return r.verified + r.repaired


def _frame(fmt: TypeinFormat, rows: list[str]) -> int:
    """How many rows come before the listing's first line (the rows a line is read after)."""
    for k in range(len(rows)):
        readings = fmt.read("\n".join(rows[: k + 1]))
        if any(_good(r) for r in readings):
            return k
    return 0


def compact_controls(line: str) -> str:
    """*line* with each repeat of one control code written once with its count (``{down}{down}{down}``:
    ``{3 down}``, as ``petscii.parse_brace`` reads it); the stored bytes stay the same."""
    def one(m: re.Match) -> str:
        name = m.group(1)
        count = len(m.group(0)) // len(name)
        return f"{{{count} {name[1:-1]}}}"

    return re.sub(r"(\{[a-z][^{}\d]*\})\1+", one, line)


def _control_run(line: str) -> int:
    longest = 0
    for m in re.finditer(r"(?:\{[^{}]*\})+", line):
        longest = max(longest, len(CONTROL.findall(m.group())))
    return longest


def _advice(fmt: TypeinFormat, line: str, silent: list[Misreading], misrepaired: list[Misreading],
            controls: int) -> tuple[str, ...]:
    out = []
    basic = fmt.program == "basic-prg"
    if any(m.kind == "swap" for m in silent):
        out.append("the checksum cannot see this swap: "
                   + ("write the line another way (reorder or split its statements, another variable name) "
                      "so the pair is not side by side, or name the line in the article" if basic
                      else "name the line in the article so the typist compares it twice, or publish in a "
                      "format whose checksum weighs each byte's place"))
    pairs = sorted({m.pair for m in silent if m.kind == "glyph"})
    if pairs:
        out.append("a look-alike (" + ", ".join(pairs) + ") passes the checksum: "
                   + ("a variable name without the look-alike, or CHR$() for the character in a string"
                      if basic else "print the line in a face whose look-alikes differ"))
    if misrepaired:
        out.append("the reader repairs the misreading into another line with the same checksum (one of 256 "
                   "values cannot tell them apart): name the line in the article for a second look")
    if controls >= CONTROL_RUN:
        shorter = compact_controls(line)
        out.append(f"{controls} control codes in a row: "
                   + (f"write the repeats with their count: {shorter.rstrip()}" if shorter != line else
                      "give them a line of their own, or name them in the article's key to the codes"))
    return tuple(out)


def _outcome(fmt: TypeinFormat, head: list[str], base: Reading, m: Misreading) -> str:
    got = fmt.read("\n".join([*head, m.text]))
    r = got[0] if got else None
    if r is None or _good(r) < _good(base) or r.bad:
        return "caught"
    if r.prg == base.prg:
        return "repaired"
    return "misrepaired" if r.repaired > base.repaired else "silent"


def _in_context(fmt: TypeinFormat, rows: list[str], row: int, m: Misreading, prg: bytes) -> str:
    """The outcome of a misreading in the whole listing (the lines around it may give it away:
    a line number out of order)."""
    text = "\n".join([*rows[: row - 1], m.text, *rows[row:]])
    got = fmt.read(text)
    r = got[0] if len(got) == 1 else None
    if r is None or r.bad or not r.whole:
        return "caught"
    if r.prg == prg:
        return "repaired"
    if r.repaired:
        return "misrepaired"
    return "caught" if r.diagnostics else "silent"  # (a warning tells the reader too: a line number out of order)


def check(pub: Publication, prg: bytes, *, misread: bool = True) -> CheckResult:
    """Read the publication's page text back and (*misread*) look for the lines a reader is likely to misread."""
    fmt = pub.format
    readings = fmt.read(pub.text())
    reading = readings[0] if readings else None
    identical = len(readings) == 1 and reading is not None and reading.whole and reading.prg == prg
    rows = pub.listing.rstrip("\n").split("\n")
    frame = _frame(fmt, rows) if misread else len(rows)
    head = rows[:frame]
    partners = _partners()
    tallies: dict[str, Tally] = {}
    risks = []
    checked = 0
    for row, line in enumerate(rows[frame:], start=frame + 1):
        base = fmt.read("\n".join([*head, line])) if line.strip() else []
        if not base or not _good(base[0]):
            continue
        checked += 1
        silent, misrepaired = [], []
        for m in misreadings(line, partners):
            outcome = _outcome(fmt, head, base[0], m)
            if outcome in ("silent", "misrepaired"):  # (few: worth reading the whole listing for)
                outcome = _in_context(fmt, rows, row, m, prg)
            key = m.pair or m.kind
            tallies[key] = tallies.get(key, Tally()).add(outcome, row)
            if outcome == "silent":
                silent.append(m)
            elif outcome == "misrepaired":
                misrepaired.append(m)
        controls = _control_run(line)
        if silent or misrepaired or controls >= CONTROL_RUN:
            risks.append(LineRisk(row, line, tuple(silent), tuple(misrepaired), controls,
                                  _advice(fmt, line, silent, misrepaired, controls)))
    difference = _difference(reading.prg, prg) if reading is not None and reading.prg and not identical else ""
    return CheckResult(reading, len(readings), identical, checked, dict(sorted(tallies.items())), tuple(risks),
                       difference)


def _difference(got: bytes, want: bytes) -> str:
    """Where the program read back first differs from the one published."""
    load = int.from_bytes(want[:2], "little")
    at = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return (f"a different program: {len(got) - 2:,} bytes read for {len(want) - 2:,}, the first difference "
            f"at ${load + at - 2:04X}")


def report(result: CheckResult, pub: Publication, prg_name: str) -> str:
    """The check's findings as text."""
    out = []
    r = result.reading
    if result.identical and r is not None:
        out.append(f"{prg_name}: the page's text reads back as {pub.format.name} to the identical program "
                   f"({len(r.prg) - 2:,} bytes; {r.verified} lines verified, {r.repaired} repaired)")
    elif r is None:
        out.append(f"{prg_name}: the page's text holds no {pub.format.name} listing the reader finds")
    else:
        why = [f"{result.listings} listings found" if result.listings != 1 else "",
               f"{r.bad} line{'s' if r.bad != 1 else ''} bad" if r.bad else "", result.difference]
        out.append(f"{prg_name}: the page's text does NOT read back to the program ("
                   + ", ".join(w for w in why if w) + ")")
        out += [f"  {d.message}" for d in r.diagnostics[:10]]
    if not result.lines:
        out.append("no misreadings tried (the read-back only)")
        return "\n".join(out) + "\n"
    tried = sum(t.repaired + t.caught + t.silent + t.misrepaired for t in result.tallies.values())
    out.append(f"misreadings tried: {tried:,} on {result.lines} lines: repaired by the reader "
               f"{result.total('repaired'):,}, reported bad {result.total('caught'):,}, "
               f"passing the checksum {result.total('silent'):,}, repaired into a wrong line "
               f"{result.total('misrepaired'):,}")
    for key, t in result.tallies.items():
        what = "neighbours swapped" if key == "swap" else f"{key} taken for each other"
        out.append(f"  {what}: {t.repaired:,} repaired, {t.caught:,} reported bad ({len(t.lines)} lines), "
                   f"{t.silent:,} pass, {t.misrepaired:,} repaired wrongly")
    for risk in result.risks:
        out.append(f"row {risk.row}: {risk.line.rstrip()}")
        for m in risk.silent[:4]:
            out.append(f"  passes the checksum: {m.how}")
        if len(risk.silent) > 4:
            out.append(f"  ... and {len(risk.silent) - 4} more that pass")
        for m in risk.misrepaired[:4]:
            out.append(f"  repaired into a wrong line: {m.how}")
        if len(risk.misrepaired) > 4:
            out.append(f"  ... and {len(risk.misrepaired) - 4} more repaired wrongly")
        for advice in risk.advice:
            out.append(f"  suggestion: {advice}")
    unrepaired = sorted(k for k, t in result.tallies.items() if k != "swap" and t.caught)
    if unrepaired:
        out.append(f"look-alikes the checker catches but cannot point to ({', '.join(unrepaired)}): the typist must "
                   "find the character; set the page in a face where they differ (the fallback glyphs' zero is "
                   "slashed, their one has a foot)")
    if not result.risks:
        out.append("no line where a likely misreading passes the checksum or is repaired wrongly")
    return "\n".join(out) + "\n"
