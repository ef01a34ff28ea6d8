"""Ahoy!'s Bug Repellent: a two-letter code for each stored BASIC line, three versions.

Ahoy! printed a program's listing and after it a table of its line codes; the reader typed the
program in, ran the Bug Repellent (SYS 49152) and compared the table it printed ("LINE # 10:EO")
with the magazine's (Ahoy! 10/84, "C-64 Bug Repellent", by Michael Kleinert and David Barron:
"Compare the table your machine generates to the table in Ahoy! that follows the program").
Every version sums the line as stored (tokenized), the terminating $00 included, and shows the
byte as two letters, high nibble first, each nibble + "A" (A-P).  From the programs' machine code
(the DATA lines of the three loaders as Ahoy! printed them):

- **version 1** (Ahoy! 4/84-5/84): each byte that is not a space is added and the sum shifted
  left one bit (``CLC ADC ASL``);
- **version 2** (6/84-4/87): each byte is added with the carry that the compare before it left
  (inside quotes ``CMP #$22``, outside ``CMP #$20``: +1 for a byte from $22 or $20 on) and the sum
  XORed with the byte's position (1, 2, ...); spaces outside quotes are left out and not counted;
  the quote flag is set once when the program starts, so a line with an odd number of quotes
  changes the codes of the lines after it;
- **version 3** (5/87 on, checks each line as it is entered, BASIC's main-loop vector $0302):
  the line number's low and high byte first (position 0 and 1), then the bytes as version 2 but
  without the carry (``CLC``), the quote flag cleared for each line.

tests/test_typein_english.py checks the codes against the real programs on the C64 (an optional
test) and against code tables Ahoy! printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

VERSIONS = ("1", "2", "3")
SPACE, QUOTE = 0x20, 0x22


def _v1(body: bytes) -> int:
    value = 0
    for b in body + b"\x00":
        if b != SPACE:
            value = ((value + b) << 1) & 0xFF
    return value


def _v2(body: bytes, quote: bool) -> tuple[int, bool]:
    value = position = 0
    for b in body + b"\x00":
        position += 1
        if b == QUOTE:
            quote = not quote
        if quote:
            carry = b >= QUOTE
        elif b == SPACE:
            position -= 1
            continue
        else:
            carry = b >= SPACE
        value = ((value + b + carry) & 0xFF) ^ position
    return value, quote


def _v3(number: int, body: bytes) -> int:
    value = number & 0xFF
    value = ((value + (number >> 8)) & 0xFF) ^ 1
    position = 1
    quote = False
    for b in body + b"\x00":
        position += 1
        if b == QUOTE:
            quote = not quote
        elif b == SPACE and not quote:
            position -= 1
            continue
        value = ((value + b) & 0xFF) ^ position
    return value


def checksum(version: str, number: int, body: bytes, quote: bool = False) -> int:
    """The code of one stored line (*quote*: version 2's quote flag as the line before left it)."""
    if version == "1":
        return _v1(body)
    if version == "2":
        return _v2(body, quote)[0]
    if version == "3":
        return _v3(number, body)
    raise ValueError(f"Bug Repellent version must be 1, 2 or 3, not {version}")


def codes(version: str, lines: list[tuple[int, bytes]]) -> list[int]:
    """The code of each line of a program, in order (version 2 carries its quote flag on)."""
    out, quote = [], False
    for number, body in lines:
        if version == "2":
            value, quote = _v2(body, quote)
            out.append(value)
        else:
            out.append(checksum(version, number, body))
    return out


def letters(value: int) -> str:
    return chr(0x41 + (value >> 4)) + chr(0x41 + (value & 15))


def letters_value(code: str) -> int | None:
    if len(code) != 2 or any(not "A" <= c <= "P" for c in code):
        return None
    return (ord(code[0]) - 0x41) << 4 | (ord(code[1]) - 0x41)


PAIRS_PER_ROW = 6  # the table's columns


def table(numbers: list[int], values: list[int]) -> str:
    """The table of line codes printed after the listing: ``10 EO   20 PH ...``."""
    cells = [f"{n:>5} {letters(v)}" for n, v in zip(numbers, values, strict=True)]
    rows = [" ".join(cells[k : k + PAIRS_PER_ROW]) for k in range(0, len(cells), PAIRS_PER_ROW)]
    return "\n".join(r.rstrip() for r in rows) + "\n"


# a row of the code table: pairs of a line number and two letters, nothing else (OCR may read
# a letter as a digit or as another letter: the pair's field is taken as printed)
_PAIR = re.compile(r"(\d{1,5})\s*[:.]?\s+([A-Z0-9]{2})(?=\s|$)")
_TABLE_ROW = re.compile(r"^\s*(?:\d{1,5}\s*[:.]?\s+[A-Z0-9]{2}\s*)+$")


@dataclass(frozen=True)
class TableEntry:
    row: int
    number: int
    field: str


def find_table(text: str) -> tuple[list[TableEntry], set[int]]:
    """The code table's entries in *text*, and the rows they are on."""
    entries: list[TableEntry] = []
    rows: set[int] = set()
    for row, line in enumerate(text.split("\n"), start=1):
        if not _TABLE_ROW.match(line):
            continue
        pairs = _PAIR.findall(line)
        if not any(letters_value(code) is not None for _, code in pairs):
            continue
        rows.add(row)
        entries += [TableEntry(row, int(n), code) for n, code in pairs]
    return entries, rows
