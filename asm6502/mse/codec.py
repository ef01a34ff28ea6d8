"""MSE line codecs: checksums (V1.0, V2.0, V2.1), the V2 letter code, OCR confusions.

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

# Likely confusions (printed, meant) with a cost; anything else costs ORDINARY_COST.
# Lower cost = ranked first.  The first five, at cost 1.0, are the likeliest.
CONFUSIONS: tuple[tuple[str, str, float], ...] = (
    ("8", "B", 1.0), ("0", "D", 1.0), ("5", "S", 1.0), ("1", "I", 1.0),
    ("0", "O", 1.0), ("D", "O", 1.5), ("1", "L", 1.5), ("I", "L", 1.5), ("I", "J", 1.5),
    ("1", "7", 2.0), ("6", "G", 2.0), ("2", "Z", 2.0), ("0", "Q", 2.0), ("3", "8", 2.0),
    ("6", "8", 2.0), ("E", "F", 2.0), ("B", "D", 2.0), ("C", "G", 2.0), ("C", "O", 2.0),
    ("M", "N", 2.0), ("H", "N", 2.0), ("U", "V", 2.0), ("V", "W", 2.0), ("G", "Q", 2.0), ("7", "T", 2.0),
    ("0", "8", 2.5), ("9", "8", 2.5), ("C", "E", 2.5), ("B", "E", 2.5), ("4", "A", 2.5),
    ("5", "6", 2.5), ("C", "0", 2.5), ("9", "G", 2.5), ("V", "Y", 2.5), ("A", "O", 2.5),
    ("E", "O", 2.5), ("B", "H", 2.5), ("R", "N", 2.5), ("F", "T", 2.5), ("5", "3", 2.5),
    ("6", "B", 1.5), ("A", "D", 1.5),  # lower-case print: b/6, a/d
)
ORDINARY_COST = 3.0
TRANSPOSE_COST = 3.0
SECOND_CHANGE_COST = 2.0  # two independent slips in one byte are rarer than one
MAX_FIXES_SHOWN = 3
SUSPECT_FACTOR = 0.5  # a letter OCR put where a digit belongs is itself evidence of a misreading


def _confusion_table() -> dict[tuple[str, str], float]:
    table: dict[tuple[str, str], float] = {}
    for a, b, cost in CONFUSIONS:
        table[(a, b)] = table[(b, a)] = cost
    return table


_CONFUSION_COST = _confusion_table()


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


def char_cost(printed: str, meant: str) -> float:
    """How unlikely it is that *meant* was printed/read as *printed* (case-insensitive)."""
    p, m = printed.upper(), meant.upper()
    if p == m:
        return 0.0
    return _CONFUSION_COST.get((p, m), ORDINARY_COST)


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
