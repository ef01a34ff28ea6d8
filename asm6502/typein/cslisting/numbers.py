"""Line numbers OCR broke, restored by the listing's rising numbers and the line's checksum.

OCR reads a line number's digits apart (``41 10 PRINT`` for line 4110) or loses its first digits
(``00 NEXT J`` for line 4100).  Read as printed, such a line is out of order: a number below the
listing's first parts the listing in two, one inside it is a line no program has.  A number that
does not rise between its neighbours is read again: its digits joined with the digits the text
starts with, or the numbers between the neighbours that end in its digits.  It is restored only
where exactly one of those readings rises between the neighbours AND gives the printed checksum
with the line's text as printed (a wrong reading gives it one time in 256, and at most
:data:`MAX_READINGS` are tried).  A run of broken numbers is measured against the first number
after it that rises; a listing's first line ('1 0 REM' for 10, which rises) is read apart only
where it does not verify as printed.
"""

from __future__ import annotations

from dataclasses import replace

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.layout import CHECKSUM_INSIDE, Piece, Record, digits_first
from asm6502.typein.cslisting.text import checksum_of, without_print_blanks

MAX_READINGS = 4  # readings of a number's lost first digits, above which its checksum is no witness
LOOK_AHEAD = 32  # lines after a line among which its following neighbour is sought (a run of broken numbers is shorter)


def restore(records: list[Record], upper: bool, options: ChecksumOptions) -> tuple[list[Record], list[tuple[Record, str]]]:
    """*records* with each broken line number restored; and (record, why) for each restored."""
    out = list(records)
    notes: list[tuple[Record, str]] = []
    numbered = [k for k, r in enumerate(out) if not r.lost]
    whole = [rec.checksum is not None and _verifies(rec.number, rec.text, rec, upper, options) for rec in out]
    last = -1
    for i, k in enumerate(numbered):
        rec = out[k]
        # (the next line after it that verifies as printed and rises past the line before: a run of
        # broken numbers, '56 0' over '57 0', is measured against the first whole line after it)
        later = [j for j in numbered[i + 1 : i + 1 + LOOK_AHEAD] if out[j].number > last]
        following = next((out[j].number for j in later if whole[j]), out[later[0]].number if later else None)
        rises = _rises(rec.number, last, following)
        readings: list[tuple[int, str, str]] = []
        # (a text that holds a checksum field is lines run together, not one line to number)
        if rec.checksum is not None and rec.number_text.isdigit() and not CHECKSUM_INSIDE.search(rec.text + " "):
            if not rises:
                readings = _read_apart(rec, last, following, upper, options) + \
                    _first_digits_lost(rec, last, following, upper, options)
            elif not whole[k]:
                # ('1 0 REM' at a listing's start rises too: read apart where it does not verify as printed)
                readings = _read_apart(rec, last, following, upper, options)
        if len(readings) != 1:
            last = max(last, rec.number) if rises else last
            continue
        number, text, why = readings[0]
        new = replace(rec, number=number, pieces=[Piece(text, rec.line, rec.col)] if text != rec.text else rec.pieces)
        out[k] = new
        notes.append((new, why))
        last = number
    return out, notes


def _rises(number: int, last: int, following: int | None) -> bool:
    return last < number and (following is None or number < following)


def _read_apart(rec: Record, last: int, following: int | None, upper: bool,
                options: ChecksumOptions) -> list[tuple[int, str, str]]:
    """'41 10 PRINT': the number's digits joined with the digits its text starts with, where that
    rises between the neighbours and gives the checksum: (number, text, why)."""
    found = digits_first(rec, 4)  # (or a cell of their own: '41 10<TAB>Z = PEEK...', 64'er 2/86 p. 98)
    if found is None:
        return []
    digits, rest = found
    number = int(rec.number_text + digits)
    if not _rises(number, last, following) or not _verifies(number, rest, rec, upper, options):
        return []
    return [(number, rest, f"line {number} printed as '{rec.number_text} {digits}': its digits read apart")]


def _first_digits_lost(rec: Record, last: int, following: int | None, upper: bool,
                       options: ChecksumOptions) -> list[tuple[int, str, str]]:
    """'00 NEXT J': the numbers between the neighbours that end in the number's digits (at most
    MAX_READINGS of them) and give the checksum."""
    if following is None:
        return []
    size = 10 ** len(rec.number_text)
    numbers = [head * size + rec.number for head in range(max(1, (last + 1) // size), following // size + 1)
               if _rises(head * size + rec.number, last, following)]
    if len(numbers) > MAX_READINGS:
        return []
    return [(number, rec.text, f"line {number} printed as '{rec.number_text}': its first digits lost")
            for number in numbers if _verifies(number, rec.text, rec, upper, options)]


def _verifies(number: int, text: str, rec: Record, upper: bool, options: ChecksumOptions) -> bool:
    return checksum_of(number, without_print_blanks(text.strip(" ")), upper, options) == rec.checksum


__all__ = ["LOOK_AHEAD", "MAX_READINGS", "restore"]
