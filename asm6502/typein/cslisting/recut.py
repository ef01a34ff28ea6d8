"""Lines OCR ran together, each checksum read in a row of its own (:func:`recut`).

A page whose lines wrap over rows can come out of OCR as one stream: a row holds the end of one
line and the start of the next, so a line's number stands inside another line's text, and the
checksum column is read row by row -- the k-th checksum of a stretch belongs to the k-th line
that starts in it, not to the line its row starts with (64'er 11/85 p. 89: ``1000 PRINT"{CLR}";
1010 PRINT "... <176>`` is line 1000's <176>; the next row's <021>, line 1010's).  Such a stretch
-- rows between two lines that verify as printed, in one column, none of whose lines verifies, one
of them without its own number and one with a line number inside its text -- is read again as one
text cut at every line number in it that rises between its neighbours, and its checksums are given
to those lines in order (where the whole stretch does not read so, the stretch up to one of its
numberless rows is tried: the lines after it may be no part of the run).  The new reading is kept
only where the number of lines is the number of checksums and at least :data:`MIN_VERIFIED` of its
lines then verify as printed (each one in 256 by chance) or, short of that, verify or are surely
repaired (:func:`.verdict.confident`); one of two where the stretch is two lines.  9/85 p. 70:
``1360 sIF ... THEN A$=F$ 1370 sPROGR$(J)=... <071>`` / ``A$+RIGHT^(...) <109>``, its ':' read as
's' in every line, line 1370 with damage of its own.  The checksums themselves witness the cut.
"""

from __future__ import annotations

import re

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.layout import Piece, Record
from asm6502.typein.cslisting.rank import rank_fixes
from asm6502.typein.cslisting.text import checksum_of, without_print_blanks
from asm6502.typein.cslisting.verdict import confident

MIN_VERIFIED = 2
# a line number inside a text: digits after a blank, a blank and a letter after them (a statement)
_INSIDE = re.compile(r"(?<=\s)(\d{1,5}) +(?=[A-Za-z?])")


def _verifies(rec: Record, upper: bool, options: ChecksumOptions) -> bool:
    text = without_print_blanks(rec.text.strip(" "))
    return rec.checksum is not None and not rec.lost and checksum_of(rec.number, text, upper, options) == rec.checksum


def _cut(stream: str, first: int, limit: int | None) -> list[tuple[int, str, int]]:
    """*stream* (starting with line *first*'s text) cut at each line number inside it that rises
    and stays below *limit*: (number, text, offset of the number)."""
    out = [(first, 0, 0)]
    for m in _INSIDE.finditer(stream):
        n = int(m.group(1))
        if n > out[-1][0] and (limit is None or n < limit):
            out.append((n, m.start(), m.end()))
    return [(n, stream[start:(out[k + 1][1] if k + 1 < len(out) else len(stream))].strip(), at)
            for k, (n, at, start) in enumerate(out)]


def recut(records: list[Record], upper: bool, options: ChecksumOptions) -> tuple[list[Record], list[tuple[int, int]]]:
    """*records* with each stretch of lines run together read again where its checksums witness
    the new cut; and (first, last) line numbers of each stretch read again."""
    out: list[Record] = []
    stretches: list[tuple[int, int]] = []
    k = 0
    def anchor(at: int) -> bool:
        # a line that verifies as printed, unless another line's number stands inside it and rows
        # without a number follow (it verified by chance: '340 IF B(N)=0 THEN X$="O " 350 PRINT X$;')
        rec = records[at]
        if not _verifies(rec, upper, options):
            return False
        following = next((r.number for r in records[at + 1 :] if not r.lost), None)
        return not (at + 1 < len(records) and records[at + 1].lost and len(_cut(rec.text, rec.number, following)) > 1)

    while k < len(records):
        rec = records[k]
        if rec.lost or anchor(k):
            out.append(rec)
            k += 1
            continue
        end = k + 1
        # (a stretch stays in one column of one page: OCR runs a column's rows together, not two columns)
        while end < len(records) and (records[end].lost or not anchor(end)) and \
                (records[end].column, records[end].block) == (rec.column, rec.block):
            end += 1
        stretch = records[k:end]
        limit = records[end].number if end < len(records) else None
        new = _read_again(stretch, limit, upper, options)
        # (else the stretch up to one of its rows without a number, the last such first: the lines
        # after it may be no part of the run -- 9/85 p. 70's column goes on with the next page's)
        for cut in [c + 1 for c in range(len(stretch) - 2, 0, -1) if stretch[c].lost and not stretch[c + 1].lost]:
            if new is not None:
                break
            new = _read_again(stretch[:cut], stretch[cut].number, upper, options)
            if new is not None:
                new += stretch[cut:]
        if new is None:
            out += stretch
        else:
            out += new
            stretches.append((new[0].number, new[-1].number))
        k = end
    return out, stretches


def _read_again(stretch: list[Record], limit: int | None, upper: bool, options: ChecksumOptions) -> list[Record] | None:
    if not any(_INSIDE.search(r.text) for r in stretch) or not any(r.lost for r in stretch):
        return None
    # (a row that starts without a number goes on with the text before it: a line broken over rows)
    stream = "".join(r.text if r.lost else (" " if i else "") + (f"{r.number} " if i else "") + r.text.strip()
                     for i, r in enumerate(stretch))
    checksums = [r for r in stretch if r.checksum is not None]
    lines = _cut(stream, stretch[0].number, limit)
    if len(lines) != len(checksums) or len({n for n, _, _ in lines}) != len(lines):
        return None
    new = [Record(n, str(n), cs.line, cs.col, [Piece(text, cs.line, cs.col)], cs.checksum, cs.checksum_text,
                  cs.checksum_line, cs.checksum_col, cs.column, cs.block, cs.order)
           for (n, text, _), cs in zip(lines, checksums)]
    witnesses = [_verifies(r, upper, options) for r in new]
    if sum(witnesses) < MIN_VERIFIED:
        witnesses = [w or _surely_repaired(r, upper, options) for w, r in zip(witnesses, new)]
    if sum(witnesses) < min(MIN_VERIFIED, len(new) - 1):
        return None
    return new


def _surely_repaired(rec: Record, upper: bool, options: ChecksumOptions) -> bool:
    """*rec*'s best fix is sure (:func:`.verdict.confident`): its checksum witnesses the cut as a
    line that verifies as printed does (9/85 p. 70: ``1360 sIF ...``, its ':' read as 's')."""
    if rec.checksum is None or rec.checksum > 255:
        return False
    text = without_print_blanks(rec.text.strip(" "))
    return confident(rank_fixes(rec.number, text, rec.checksum, upper, options), upper)


__all__ = ["MIN_VERIFIED", "recut"]
