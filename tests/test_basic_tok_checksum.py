"""64'er Checksummer 64 values.

Published values: ``1 REM`` shows <144> with Checksummer V1/V2 (64'er 5/85,
"Checksummer 64", test step 5) and < 63 > with V3 (64'er Sonderheft 4/85,
"Checksummer 64 - Neu", test step 5).  The other values are worked out by hand
from the algorithm (sum of line-number bytes and line bytes without $20; V3
rotates each byte left by its position).
"""

from __future__ import annotations

import pytest

from asm6502.basic.tokenizer import tokenize
from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing, line_checksum


def checksum_of(text: str, **options) -> int:
    line = tokenize(text + "\n").lines[0]
    return line_checksum(line.number, line.body, ChecksumOptions(**options))


@pytest.mark.parametrize("version, expected", [(1, 144), (2, 144), (3, 63)])
def test_published_one_rem(version, expected):
    assert checksum_of("1 rem", version=version) == expected


def test_one_rem_does_not_decide_the_space_question():
    # CRUNCH drops the blank after the line number: nothing to skip in "1 REM"
    assert checksum_of("1 rem", count_spaces=True) == 63


@pytest.mark.parametrize("options, expected", [
    # 10 PRINT X: bytes 0A 00 99 20 58
    (dict(version=1), (0x0A + 0x99 + 0x58) & 0xFF),  # 251
    (dict(version=3), (0x0A + 0x00 + 0x66 + 0xC2) & 0xFF),  # 99 rol 2 = 66, 58 rol 3 = C2 -> 50
    (dict(version=3, count_spaces=True), (0x0A + 0x66 + 0x85) & 0xFF),  # 58 rol 4 = 85 -> 245
])
def test_hand_computed_line(options, expected):
    assert checksum_of("10 print x", **options) == expected


def test_v2_misses_swapped_digits_v3_does_not():
    # the 64'er's own remark: "210" and "201" give the same V2 sum; V3 was made to catch it
    assert checksum_of("10 a=210", version=2) == checksum_of("10 a=201", version=2)
    assert checksum_of("10 a=210", version=3) != checksum_of("10 a=201", version=3)


def test_listing_has_one_value_per_line_in_one_column():
    text, diags = checksum_listing(tokenize("1 rem\n10 print x\n").prg)
    assert diags == ()
    assert text.splitlines() == ["1 rem      <063>", "10 print x <050>"]


def test_bad_version():
    with pytest.raises(ValueError):
        line_checksum(1, b"\x8f", ChecksumOptions(version=4))
