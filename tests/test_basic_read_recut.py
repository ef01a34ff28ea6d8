"""Lines OCR ran together, each checksum read in a row of its own (asm6502.typein.cslisting.recut).

A stretch of High IQ (build/highiq.prg, printed in capitals) written as one stream of text cut
into as many rows as it has lines, the k-th checksum after the k-th row, as 64'er 11/85 p. 89
came out of OCR (``1000 PRINT"{CLR}"; 1010 PRINT "...`` with line 1000's <176>, the next row's
<021> line 1010's): the lines come back with their own checksums, and nothing wrong is taken.
"""

from __future__ import annotations

import pytest
from test_basic_read_habits import high_iq_rows

from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body


def run_together(rows: list[tuple[int, str, int]], start: int, count: int) -> str:
    """The listing with lines start..start+count-1 as one stream cut into *count* rows (a row
    never starts with a digit: OCR would read it as a line of its own)."""
    stretch = rows[start : start + count]
    stream = " ".join(f"{n} {t}" for n, t, _ in stretch)
    width = -(-len(stream) // count)
    while True:
        cut = [stream[i : i + width] for i in range(0, len(stream), width)]
        if not any(c.lstrip(" ")[:1].isdigit() for c in cut[1:]):
            break
        width += 1
    out = [f"{n} {t} <{c:03d}>" for n, t, c in rows[:start]]
    out += [row + (f"\t<{stretch[i][2]:03d}>" if i < len(stretch) else "") for i, row in enumerate(cut)]
    out += [f"{n} {t} <{c:03d}>" for n, t, c in rows[start + count :]]
    return "\n".join(out) + "\n"


def _stretches():
    return [(start, count) for start in range(2, 50, 4) for count in (3, 5, 8)]


# measured: of the 36 stretches, those whose lines all come back (the others: fewer rows than lines
# where a long line fills a row alone -- the checksums cannot be given in order, the lines stay lost)
NOT_BACK = {(18, 5), (18, 8), (26, 8), (42, 8)}


@pytest.mark.parametrize("start,count", _stretches())
def test_lines_run_together_come_back_with_their_own_checksums(start, count):
    rows = high_iq_rows()
    truth = {n: line_body(t, True).replace(b" ", b"") for n, t, _ in rows}
    result, = read_listings(run_together(rows, start, count), "t")
    # (blanks outside quotes aside: a row's end loses its blank, which the checksum skips)
    assert [r.number for r in result.lines if r.status in ("verified", "repaired")
            and (r.body is None or r.body.replace(b" ", b"") != truth.get(r.number))] == []
    stretch = [n for n, _, _ in rows[start : start + count]]
    read = {r.number: r.status for r in result.lines}
    back = all(read.get(n) in ("verified", "repaired") for n in stretch)
    assert back == ((start, count) not in NOT_BACK)
