"""A checksum no neighbour took, weighed against the rows of the line after it.

OCR sets a line's checksum beside the one of the line before (``710 ... <078> <080>``) when the
line's own row lost it (``720 NEXT N``); where the row after that one has no number of its own
(OCR lost it too: ``PRINT "THE GAME IS OVER." <092>``, line 730), the layout reads that row as
line 720's second row, and 720 with 730's checksum verifies one time in 256 by chance.  Two
readings stand then: the line of two rows, or the spare checksum the next line's and the rows
after its first a line whose number was lost.  The second is taken where the checksums witness
it twice -- the line before verifies with the first of its two checksums AND the next line's text
up to exactly one of its blanks or rows with the second (by chance one time in 65,536 for each
place tried) -- whatever the first reading gives; the rest is then placed as a line whose number
OCR lost (read.py), by its own checksum.  (The same where OCR ran the rows together:
``720 NEXT N PRINT "THE GAME IS OVER." <092>``.)
"""

from __future__ import annotations

from dataclasses import replace

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.layout import Piece, Record, read_checksum
from asm6502.typein.cslisting.text import checksum_of, without_print_blanks


def weigh(records: list[Record], upper: bool, options: ChecksumOptions) -> list[Record]:
    """*records* with each spare checksum left at a line's end given to the line after it, its
    rows after the first a line whose number was lost, where both checksums verify so."""
    out: list[Record] = []
    k = 0
    while k < len(records):
        rec = records[k]
        nxt = records[k + 1] if k + 1 < len(records) else None
        split = _split(rec, nxt, upper, options) if rec.spare_left is not None and nxt is not None else None
        if split is None:
            out.append(rec)
            k += 1
            continue
        out.extend(split)
        k += 2
    return out


def _verifies(number: int, text: str, checksum: int | None, upper: bool, options: ChecksumOptions) -> bool:
    return checksum is not None and checksum_of(number, without_print_blanks(text.strip(" ")), upper, options) == checksum


def _split(rec: Record, nxt: Record, upper: bool, options: ChecksumOptions) -> list[Record] | None:
    spare = rec.spare_left
    assert spare is not None
    if nxt.lost or rec.lost or nxt.checksum is None or rec.checksum is None or \
            (nxt.column, nxt.block) != (rec.column, rec.block) or not rec.pieces:
        return None
    own = rec.pieces[:-1]  # (the spare's text, appended last as printed, taken off)
    first = read_checksum(spare.match)
    if not _verifies(rec.number, "".join(p.text for p in own), first.value, upper, options):
        return None
    # where the line whose number was lost may start: at each blank or row of the next line's
    # text; exactly one place must give its first part the second checksum (each place one more
    # chance of 1 in 256, against the 1 in 256 of the line before verifying with the first)
    text = nxt.text
    starts = {i for i, c in enumerate(text) if c == " " and text[:i].strip() and text[i:].strip()}
    at = 0
    for piece in nxt.pieces[:-1]:
        at += len(piece.text)
        starts.add(at)
    fits = [i for i in sorted(starts) if text[i:].strip() and _verifies(nxt.number, text[:i], rec.checksum, upper, options)]
    if len(fits) != 1:
        return None
    cut = fits[0]
    row, col, at = nxt.line, nxt.col, 0
    for piece in nxt.pieces:  # (the row and column the second part starts in)
        if at + len(piece.text) > cut:
            row, col = piece.line, piece.col + max(0, cut - at)
            break
        at += len(piece.text)
    before = replace(rec, pieces=own, checksum=first.value, checksum_text=first.text, checksum_line=spare.line,
                     checksum_col=spare.col, spare_left=None)
    line = replace(nxt, pieces=[Piece(text[:cut], nxt.line, nxt.col)], checksum=rec.checksum,
                   checksum_text=rec.checksum_text, checksum_line=rec.checksum_line, checksum_col=rec.checksum_col)
    lost = Record(nxt.number, "", row, col, [Piece(text[cut:].strip(" "), row, col)], nxt.checksum, nxt.checksum_text,
                  nxt.checksum_line, nxt.checksum_col, column=nxt.column, block=nxt.block, order=nxt.order, lost=True)
    return [before, line, lost]


__all__ = ["weigh"]
