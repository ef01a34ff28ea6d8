"""A listing's checksums printed as a column of their own, set back beside its lines.

Some pages print a listing's checksums as a column of their own that OCR reads after the
lines (64'er 12/85 p. 83: lines 10-470 of Seeschlacht, then 40 rows '<060>' ...; 12/85 p. 106:
Frogger).  Both readers of Checksummer listings (``basic read`` through :func:`.layout.find_records`
and ``typein scan``) read the text with such columns set back: this module is the one place
the rule lives.
"""

from __future__ import annotations

import re

CHECKSUM_ROW = re.compile(r"^\s*<\s*(\d{3})\s*>\s*$")
LINE_START = re.compile(r"^\s*(\d{1,5})\s+\S")
_CHECKSUM_FIELD = re.compile(r"<\s*\d{3}\s*>")
# MIN_COLUMN rows that are each one checksum and nothing else, anywhere in the text
_ANY_COLUMN = re.compile(r"^(?:[ \t]*<[ \t]*\d{3}[ \t]*>[ \t]*\r?\n){3}", re.MULTILINE)
MIN_COLUMN = 3  # rows of a checksum column: fewer are no column
TEXT_ROWS = 3  # rows that begin with no number (article text): the lines above them are no column's


def set_columns_back(text: str) -> str:
    """*text* with each column of bare checksums set back beside its lines.

    Where a run of at least MIN_COLUMN rows of one checksum each follows rows of numbered lines
    without checksums, and those rows hold as many lines (numbers that rise, a line broken over
    rows has one) as the run has checksums, the k-th checksum is put at the end of the k-th
    line's last row and the run's rows are left empty (every row keeps its number).  Anything
    else stays as it is; text with no such run is returned as it is, not split into rows."""
    if not _ANY_COLUMN.search(text + "\n"):
        return text
    rows = text.split("\n")
    out = list(rows)
    n = 0
    while n < len(rows):
        if not CHECKSUM_ROW.match(rows[n]):
            n += 1
            continue
        end = n
        while end < len(rows) and CHECKSUM_ROW.match(rows[end]):
            end += 1
        run = list(range(n, end))
        starts = _line_starts(rows, n) if len(run) >= MIN_COLUMN else []
        if len(starts) == len(run) or len(starts) > len(run) >= MIN_COLUMN and not listing_row(rows[starts[-len(run)] - 1]):
            starts = starts[len(starts) - len(run):]
            for k, start in enumerate(starts):
                last = (starts[k + 1] if k + 1 < len(starts) else n) - 1
                while last > start and not rows[last].strip():
                    last -= 1
                out[last] = rows[last].rstrip() + "\t" + rows[run[k]].strip()
            for r in run:
                out[r] = ""
        n = end
    return "\n".join(out)


def listing_row(row: str) -> bool:
    """Whether *row* begins with a line number and the line's text."""
    return bool(LINE_START.match(row))


def _line_starts(rows: list[str], below: int) -> list[int]:
    """The rows (0-based) where the lines above row *below* start: in the rows up to an empty row,
    a row with a checksum or TEXT_ROWS rows that begin with no number (article text), the rows
    whose leading numbers form the longest rising sequence ending in the last numbered row (a row
    of a line broken over rows may begin with digits too)."""
    top, prose = below, 0
    while top > 0 and rows[top - 1].strip() and not _CHECKSUM_FIELD.search(rows[top - 1]):
        prose = 0 if listing_row(rows[top - 1]) else prose + 1
        if prose >= TEXT_ROWS:
            top += prose - 1
            break
        top -= 1
    candidates = [(r, int(m.group(1))) for r in range(top, below) if (m := LINE_START.match(rows[r]))]
    if not candidates:
        return []
    # the longest rising sequence of numbers that ends in the last candidate (n is small: O(n^2))
    best: list[list[int]] = []
    for k, (_, number) in enumerate(candidates):
        chain = max((best[j] for j in range(k) if candidates[j][1] < number), key=len, default=[])
        best.append([*chain, k])
    return [candidates[k][0] for k in best[-1]]
