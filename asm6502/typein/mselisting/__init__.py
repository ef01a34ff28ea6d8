"""MSE ("MaschinenSpracheEditor") type-in listings from 64'er magazine: write and read.

Three incompatible line formats were printed (facts checked against all 66
lines of the Superhirn II listing in 64'er and the published sample lines):

MSE V1.0 (64'er 2/85-6/90)::

    3400 : A9 93 20 D2 FF A9 01 8D 42

  address, 8 data bytes (fewer on the last line), checksum byte.  Checksum: a 16-bit value
  starts at the low byte of the line address; for each data byte: add it, shift left one bit
  (16 bits kept); result = (low + high + 1) mod 256.

MSE V2.0 (7/90-4/91) and V2.1 (5/91-5/94)::

    0801: apdl fa35 fhxc llw6 7777 75e7  bu

  15 bytes a line = 120 bits, most significant first, cut into 24 five-bit values written
  with the alphabet ``7abcdefghijklmnopqrstuvwxyz23456`` in 6 groups of 4, then a
  2-character checksum of an 8-bit value v (see :func:`checksum_v2`).

Header: ``PROGRAMM : NAME START END`` with END exclusive, then a dashed rule.  The MSE
filled memory it had not been given with $AA.

Decision (not documented in the magazine): V2.x lines are always full 15-byte lines; the
bytes of the last line past the header's end address are written as the fill byte and are
dropped again on reading (the end address in the header says where the program ends).

Reading accepts listings as people have them: upper/lower case, extra or missing spaces,
OCR'd text with all lines run together, prose around the listing, header or not, and
letters an OCR engine puts in place of digits (``O`` for ``0``, ``I`` for ``1``...).
Every line's checksum is verified; a bad line gets the corrections that make its
checksum match, most likely (common OCR confusions) first.

Modules, by job: :mod:`.formats` (the versions as objects, ``V1Format`` and ``V2Format``, listed
once in ``FORMATS``), :mod:`.writing` (listings), :mod:`.parsing` (a text's listing lines),
:mod:`.checking` (checksums, repairs, the address sequence, per-line reports:
verified / repaired / still bad, :class:`LineReport`), :mod:`.codec` (checksums, the V2 letter
code, the digits OCR reads for others; the costs are :mod:`asm6502.typein.confusion`), :mod:`.ocr` (V1.0 lines read by their structure from OCR text;
ranked repairs), :mod:`.damage` (synthetic OCR damage for tests and ``bench/mse_ocr_roundtrip.py``).
This module is the package's face: the names other modules use.  The reading side's names
(:mod:`.checking`, with the parser and the OCR repairs under it) are loaded when first asked for:
writing a listing does not need them (start-up, tests/test_imports.py).
"""

from __future__ import annotations

from asm6502.typein.confusion import CONFUSIONS, ORDINARY_COST, SECOND_CHANGE_COST, SUSPECT_FACTOR, TRANSPOSE_COST, char_cost
from asm6502.typein.mselisting.codec import (
    ALPHA_LOOKALIKES,
    ALPHABET,
    HEX_LOOKALIKES,
    MAX_FIXES_SHOWN,
    MSE_FILL,
    V1_RULE,
    V2_CHECKSUM_GAP,
    checksum_v1,
    checksum_v2,
    decode_v2_checksum,
    decode_v2_data,
    encode_v2_checksum,
    encode_v2_data,
)
from asm6502.typein.mselisting.formats import BYTES_PER_LINE, FORMATS, VERSIONS, MseFormat, V1Format, V2Format
from asm6502.typein.mselisting.writing import LAST_LINE_LAYOUTS, check_version, format_line, write_listing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.typein.mselisting.checking import LineReport, ReadResult, corrected_listing, read_listing, read_listings

_READING = frozenset({"LineReport", "ReadResult", "corrected_listing", "read_listing", "read_listings"})


__all__ = [
    "ALPHA_LOOKALIKES", "CONFUSIONS", "HEX_LOOKALIKES", "ORDINARY_COST", "SECOND_CHANGE_COST", "SUSPECT_FACTOR",
    "TRANSPOSE_COST", "ALPHABET", "BYTES_PER_LINE", "FORMATS", "LAST_LINE_LAYOUTS", "MAX_FIXES_SHOWN", "MSE_FILL", "V1_RULE",
    "V2_CHECKSUM_GAP", "VERSIONS", "LineReport", "MseFormat", "ReadResult", "V1Format", "V2Format", "char_cost",
    "check_version", "checksum_v1", "checksum_v2", "corrected_listing", "decode_v2_checksum", "decode_v2_data",
    "encode_v2_checksum", "encode_v2_data", "format_line", "read_listing", "read_listings", "write_listing",
]  # fmt: skip


def __getattr__(name: str):
    """The reading side's names, from :mod:`.checking` (imported at the first one asked for)."""
    if name not in _READING:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from asm6502.typein.mselisting import checking

    return getattr(checking, name)
