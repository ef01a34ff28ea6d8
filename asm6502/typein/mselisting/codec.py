"""MSE line codecs: checksums (V1.0, V2.0, V2.1), the V2 letter code, the digits OCR reads for others.

Facts checked against all 66 lines of the Superhirn II listing in 64'er and the
published sample lines; see the package docstring for the line formats.
"""

from __future__ import annotations

MSE_FILL = 0xAA  # the MSE's fill value for memory it was not given

# MSE V2.x digit alphabet: "7" = 0, "a" = 1, ..., "z" = 26, "2" = 27, ..., "6" = 31.
ALPHABET = "7abcdefghijklmnopqrstuvwxyz23456"
_ALPHA_VALUE = {c: i for i, c in enumerate(ALPHABET)}
_HEX = "0123456789ABCDEF"

V1_RULE = "-" * 35  # the dashed rule as printed under the Superhirn II header (64'er)
V2_CHECKSUM_GAP = "  "  # two spaces before the V2 checksum, as in the published samples

# Characters OCR engines (and hurried typists) put where a digit belongs, read as that digit.
HEX_LOOKALIKES = {
    "O": "0", "o": "0", "Q": "0", "I": "1", "i": "1", "l": "1", "|": "1", "!": "1",
    "S": "5", "s": "5", "Z": "2", "z": "2", "G": "6", "g": "9", "T": "7", "t": "F",
}
ALPHA_LOOKALIKES = {"0": "o", "1": "l", "8": "b", "9": "g"}  # V2 alphabet has no 0, 1, 8, 9

MAX_FIXES_SHOWN = 3
WILDCARD = "?"  # a digit as read where OCR could not read one (any digit may be meant)


def read_hex(chars: str) -> tuple[str, int] | None:
    """Normalize OCR look-alikes; return (hex digits, number substituted) or None."""
    out, subst = [], 0
    for c in chars:
        if c in HEX_LOOKALIKES:
            out.append(HEX_LOOKALIKES[c])
            subst += 1
        elif c.upper() in _HEX:
            out.append(c.upper())
        else:
            return None
    return "".join(out), subst


# ---------------------------------------------------------------- checksums and line codecs


def checksum_v1(address: int, data: bytes) -> int:
    """MSE V1.0 line checksum: 16-bit add-then-shift from lo(address)."""
    v = address & 0xFF
    for b in data:
        v = (v + b) & 0xFFFF
        v = (v << 1) & 0xFFFF
    return ((v & 0xFF) + (v >> 8) + 1) & 0xFF


def _rol8(v: int) -> int:
    return ((v << 1) | (v >> 7)) & 0xFF


def checksum_v2(address: int, data: bytes, *, start: int, version: str) -> int:
    """MSE V2.x 8-bit checksum value.

    V2.0: v = lo(address) XOR hi($1C00 + address - start), bytes in reverse order;
    V2.1: v = lo(address), bytes in forward order; each step v = rol8((v + b) mod 256).
    """
    if version == "2.0":
        v = (address & 0xFF) ^ (((0x1C00 + address - start) >> 8) & 0xFF)
        seq = reversed(data)
    elif version == "2.1":
        v = address & 0xFF
        seq = iter(data)
    else:
        raise ValueError(f"not an MSE V2 version: {version!r}")
    for b in seq:
        v = _rol8((v + b) & 0xFF)
    return v


def encode_v2_checksum(v: int) -> str:
    """First char = alphabet[bit0*4 + bit1*2 + bit2], second = alphabet[v >> 3]."""
    return ALPHABET[(v & 1) * 4 + ((v >> 1) & 1) * 2 + ((v >> 2) & 1)] + ALPHABET[v >> 3]


def decode_v2_checksum(text: str) -> int | None:
    """The 8-bit value of a 2-character V2 checksum, None if it cannot be one."""
    if len(text) != 2 or any(c not in _ALPHA_VALUE for c in text):
        return None
    first = _ALPHA_VALUE[text[0]]
    if first >= 8:
        return None
    bit0, bit1, bit2 = (first >> 2) & 1, (first >> 1) & 1, first & 1
    return (_ALPHA_VALUE[text[1]] << 3) | (bit2 << 2) | (bit1 << 1) | bit0


def encode_v2_data(data: bytes) -> str:
    """15 bytes -> 24 alphabet characters (120 bits, most significant first), no spaces."""
    if len(data) != 15:
        raise ValueError("an MSE V2 line holds exactly 15 bytes")
    n = int.from_bytes(data, "big")
    return "".join(ALPHABET[(n >> (115 - 5 * i)) & 31] for i in range(24))


def decode_v2_data(text: str) -> bytes:
    """24 alphabet characters -> 15 bytes."""
    if len(text) != 24:
        raise ValueError("an MSE V2 line has 24 data characters")
    n = 0
    for c in text:
        n = (n << 5) | _ALPHA_VALUE[c]
    return n.to_bytes(15, "big")
