"""A spare checksum no neighbour took, weighed against the next line's rows (cslisting/spares.py).

Each shape: line B's checksum printed beside line A's, B's row without one, and the row under B
without a number of its own.  Either the row is B's second row (its checksum B's), or B's number
OCR lost and the row is a line of its own (C).  The second reading is taken only where A verifies
with the first of its two checksums and B's row with the second; the row is then placed as C.
"""

from __future__ import annotations

import pytest

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import checksum_of

V3 = ChecksumOptions(3)


def cs(number: int, text: str) -> str:
    value = checksum_of(number, text, True, V3)
    assert value is not None
    return f"<{value:03d}>"


A = (710, "P=0: FOR N=13 TO 69: IF B(N)=1 THEN P=P+1")
B = (720, "NEXT N")
C = (730, 'PRINT "THE GAME IS OVER."')
D = (740, 'PRINT "YOU HAD"; P; "PIECES REMAINING."')
BEFORE = (700, "REM ** GAME OVER **")


def page(rows: list[str]) -> str:
    return "\n".join([f"{BEFORE[0]} {BEFORE[1]} {cs(*BEFORE)}", *rows, f"{D[0]} {D[1]} {cs(*D)}"]) + "\n"


def taken(text: str) -> dict[int, bytes]:
    return {r.number: r.body for result in read_listings(text, "t") for r in result.lines
            if r.status in ("verified", "repaired")}


def bodies(*lines: tuple[int, str]) -> dict[int, bytes]:
    got = taken("\n".join(f"{n} {t} {cs(n, t)}" for n, t in lines) + "\n")
    assert set(got) == {n for n, _ in lines}
    return got


@pytest.mark.parametrize("rows, want, why", [
    ([f"{A[0]} {A[1]} {cs(*A)} {cs(*B)}", f"{B[0]} {B[1]}", f"{C[1]} {cs(*C)}"], (700, 710, 720, 730, 740),
     "B's checksum beside A's, C's number lost: A, B and C each verify with their own"),
    ([f"{A[0]} {A[1]} {cs(*A)}", f"{B[0]} {B[1]}", f"{C[1]} {cs(B[0], B[1] + ' ' + C[1])}"], (700, 710, 720, 740),
     "no spare: a row without a number under B is B's second row"),
    ([f"{A[0]} {A[1]} {cs(*A)} <001>", f"{B[0]} {B[1]}", f"{C[1]} {cs(B[0], B[1] + ' ' + C[1])}"],
     (700, 720, 740), "a spare that checks neither A nor B: B of two rows stands, A stays bad"),
])
def test_a_spare_checksum_and_the_next_lines_rows(rows, want, why):
    got = taken(page(rows))
    assert tuple(sorted(got)) == want, why
    lines = dict([BEFORE, A, C, D]) | {B[0]: B[1]}
    two_rows = B[1] + " " + C[1]
    for number in got:
        text = two_rows if number == 720 and 730 not in want else lines[number]
        assert got[number].replace(b" ", b"") == bodies((number, text))[number].replace(b" ", b""), (number, why)
