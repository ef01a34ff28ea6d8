"""A magazine page or a whole issue's OCR text in, every type-in listing in it found and read.

Each family's reader finds its own listings in the whole text (MSE: by their ``PROGRAMM :``
headers and the shape of their lines; Checksummer: numbered lines ending in ``<NNN>``, a new
listing where the line numbers start again; the English formats: Compute!'s ``:rem 123`` and
``GE 10 ...`` lines, MLX lines, Ahoy! listings with their code table) and decides the version by the checksums; what a
reader finds nothing of is not reported.  Each listing found is named by its format in the
registry (:mod:`.formats`) and the line of the text where it starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.typein.cslisting import read as cs_read
from asm6502.typein.cslisting.layout import find_records
from asm6502.typein.formats import FORMATS, Reading
from asm6502.typein.mselisting import checking as mse_read


@dataclass(frozen=True)
class Found:
    """One listing of the text: its format's registry name, its reading."""

    format: str
    title: str  # the MSE header's program name; "" when the listing has none
    reading: Reading

    @property
    def line(self) -> int:
        return self.reading.first_line


def scan(text: str, filename: str = "<input>") -> list[Found]:
    """Every type-in listing in *text*, in the order they start.  Never raises for bad input."""
    found: list[Found] = []
    for r in mse_read.read_listings(text, filename):
        if not r.report or not any(x.status in ("verified", "repaired") for x in r.report):
            continue  # no line of it verifies: not an MSE listing
        name = f"mse-{r.version}"
        found.append(Found(name, (r.name or "").strip(), Reading(
            name, r.prg, r.count("verified"), r.count("repaired"), r.count("bad"), min(x.line for x in r.report), r.diagnostics)))
    for c in (c for lo, hi in _stretches(text) for c in cs_read.read_listings(_only(text, lo, hi), filename)):
        if not c.lines or not any(x.status in ("verified", "repaired") for x in c.lines):
            continue  # no line of it verifies: not a Checksummer listing
        name = f"checksummer-{c.version}"
        found.append(Found(name, "", Reading(
            name, c.prg, c.count("verified"), c.count("repaired"), c.count("bad") + c.count("unchecked"),
            min(x.line for x in c.lines), c.diagnostics)))
    found += _english(text, filename)
    assert all(f.format in FORMATS for f in found)
    return sorted(found, key=lambda f: f.line)


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
            found.append(Found(best.format, "", best))
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
    merged: list[tuple[int, int]] = []
    for lo, hi in stretches:
        if merged and min(v for k, v in used.items() if lo <= k <= hi) > max(
                v for k, v in used.items() if merged[-1][0] <= k <= merged[-1][1]):
            merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return merged


def _only(text: str, lo: int, hi: int) -> str:
    """*text* with every row outside *lo*-*hi* left empty (the rows keep their numbers)."""
    return "\n".join(row if lo <= n <= hi else "" for n, row in enumerate(text.split("\n"), start=1))


def report(found: list[Found], filename: str, written: dict[int, str] | None = None) -> str:
    """The report of a scan: one row per listing (where it starts, its format, its lines by how
    they were read, whether it came back whole, the file written)."""
    written = written or {}
    rows = [f"{filename}: {len(found)} type-in listing{'s' if len(found) != 1 else ''}"]
    for k, f in enumerate(found, start=1):
        r = f.reading
        title = f" {f.title!r}" if f.title else ""
        out = f" -> {written[k]}" if k in written else ""
        rows.append(f"{k}. line {f.line}: {f.format}{title}: {r.verified} verified, {r.repaired} repaired, "
                    f"{r.bad} still bad; {'whole' if r.whole else 'not whole'}{out}")
    return "\n".join(rows) + "\n"
