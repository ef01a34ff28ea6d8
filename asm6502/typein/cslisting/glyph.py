"""Shifted letters and graphics characters inside quotes, solved from the checksum.

64'er printed a listing's shifted letters as underlined capitals and its graphics characters
as their glyphs (10/85 p. 54, "Eingabehinweise").  OCR has no letter for either: it reads an
underlined capital as the capital (the underline lost), as another capital or as a symbol
(``£ISKETTE``, ``SITTE`` for "Bitte", ``BECHNEN`` for "Rechnen"), and a graphics glyph as
some letter or symbol (``DATA"Y"`` for ``{CBM-K}``, ``"g"`` for ``{CBM-@}``).  Real print:
the test-data collection basic_read (tests/manifests/basic_read/; 64'er 10/85 pp. 32, 73-74).

Both are bytes $A0-$DF typed inside quotes.  Replacing one character by one byte changes the
Checksummer value by a bijection of that byte (V1/V2 add it, V3 adds it rotated left by its
position, checksummer.py), so at a given place exactly one byte gives the printed value:
it is solved, not guessed -- and because some byte always fits, such a reading is offered
and ranked, taken without asking only when the word it makes is one the listing prints in
another line (:mod:`.vocabulary`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from asm6502 import petscii

GRAPHICS = range(0xA0, 0xE0)  # SHIFT-SPACE, CBM- and SHIFT- graphics; $C1-$DA are the shifted letters
SHIFTED_LETTERS = range(0xC1, 0xDB)
PUNCTUATION = " .,:;!?-+*/=()'\"<>"  # printed as themselves: not a glyph OCR had no letter for
# costs, in the units of edits.py (an ordinary OCR confusion costs 1)
SYMBOL_COST = 1.5  # a symbol inside quotes is any graphics character or shifted letter
ALONE_COST = 2.5  # a letter alone in quotes may be a glyph read as a letter ("Y"), or just a letter ("J")
SAME_LETTER_COST = 1.5  # a word's first letter shifted, the underline lost
OTHER_LETTER_COST = 2.5  # a word's first letter is another shifted letter ('SITTE' for "Bitte")
# OCR's usual readings of an underlined capital, printed -> meant (10/85 p. 32: 'SITTE', 'SISKETTE',
# 'SANN', 'ZASTE', 'ELOPPY' for Bitte, Diskette, Dann, Taste, Floppy)
UNDERLINE_READS = {"S": "BD", "Z": "T", "E": "F"}
_PROBE_A, _PROBE_B = 0xC3, 0xC1  # differ in one bit: their checksums differ by a power of two


@dataclass(frozen=True)
class Place:
    """A character inside quotes that may stand for a shifted letter or graphics character."""

    index: int
    allowed: range
    kind: str  # "symbol", "alone", "initial"; deep search: "two" (characters), "small" (letter)
    width: int = 1  # characters OCR made of the glyph


def places(text: str, quoted: list[bool], skip: set[int], upper: bool) -> list[Place]:
    """Where *text* (a capital listing's line) may show a glyph OCR misread: inside quotes (not
    after REM, not inside control-code names), a symbol, a letter alone, a word's first letter."""
    out: list[Place] = []
    quote = False
    for k, c in enumerate(text):
        if not quote and text.upper().startswith("REM", k):
            return out  # a REM's text is not typed in quotes
        if c == '"':
            quote = not quote
            continue
        if not quote or not quoted[k] or k in skip or c == " ":
            continue
        left = text[k - 1] if k else " "
        right = text[k + 1] if k + 1 < len(text) else " "
        if c.isalpha() and c.isascii():
            if not left.isalpha() and not right.isalpha():
                out.append(Place(k, GRAPHICS, "alone"))
            elif upper and (left in PUNCTUATION or left in '"}') and c.isupper():
                out.append(Place(k, SHIFTED_LETTERS, "initial"))
        elif c.isdigit() and left == '"' == right:  # a glyph alone in quotes read as a digit ('DATA"5"')
            out.append(Place(k, GRAPHICS, "alone"))
        elif not c.isdigit() and c not in PUNCTUATION:
            # a symbol before a word is the word's first letter, underlined ('£ISKETTE')
            word = upper and right.isalpha() and not left.isalpha()
            out.append(Place(k, SHIFTED_LETTERS if word else GRAPHICS, "symbol"))
    return out


def two_character_places(text: str, quoted: list[bool], skip: set[int], upper: bool) -> list[Place]:
    """Where a capital listing's word inside quotes may begin with an underlined capital that OCR
    read as two characters: a ligature or a symbol before a capital ('flAX.' for "Max.",
    '<SROBEINSTELLUNG' for "Grobeinstellung", 'fiDJUST' for "Adjust"; 10/85 p. 32) -- or as
    a small letter ('lYE.')."""
    out: list[Place] = []
    if not upper:
        return out
    quote = False
    for k, c in enumerate(text[:-2]):
        if not quote and text.upper().startswith("REM", k):
            return out
        if c == '"':
            quote = not quote
            continue
        if not quote or not quoted[k] or k in skip or k + 1 in skip:
            continue
        left = text[k - 1] if k else " "
        pair, after = text[k : k + 2], text[k + 2]
        if left.isalnum() or not after.isupper() or " " in pair or '"' in pair or any(d.isdigit() for d in pair):
            continue
        if c.islower() or c in "<>([":  # (another symbol is a place of its own: '£ISKETTE')
            out.append(Place(k, SHIFTED_LETTERS, "two", 2))
        if c.islower() and text[k + 1].isupper():  # 'lYE.' for "Bye." (10/85 p. 32 line 450)
            out.append(Place(k, SHIFTED_LETTERS, "small"))
    return out


def spelled(code: int, upper: bool) -> str:
    """*code* as a listing line writes it: a shifted letter as a lower-case letter in a capital
    listing (upper case in petcat text), anything else by its petcat name."""
    if code in SHIFTED_LETTERS:
        letter = chr(code - 0xC1 + ord("a"))
        return letter if upper else letter.upper()
    return petscii.escape(code)


def _rol(value: int, bits: int) -> int:
    bits %= 8
    return ((value << bits) | (value >> (8 - bits))) & 0xFF


def solve(text: str, k: int, printed: int, rotates: bool, checksum: Callable[[str], int | None],
          width: int = 1) -> int | None:
    """The one byte that, put for text[k:k + width], gives the *printed* checksum (None if the
    place in the line cannot be told: the line does not tokenize with a byte there)."""
    a = checksum(text[:k] + petscii.escape(_PROBE_A, named=False) + text[k + width :])
    b = checksum(text[:k] + petscii.escape(_PROBE_B, named=False) + text[k + width :])
    if a is None or b is None:
        return None
    shift = 0
    if rotates:
        diff = (a - b) & 0xFF
        fits = [p for p in range(8) if (_rol(_PROBE_A, p) - _rol(_PROBE_B, p)) & 0xFF == diff]
        if len(fits) != 1:
            return None
        shift = fits[0]
    rest = (a - _rol(_PROBE_A, shift)) & 0xFF
    need = (printed - rest) & 0xFF
    return _rol(need, 8 - shift)


def cost(place: Place, code: int, printed_char: str) -> float:
    if place.kind == "initial":
        letter = chr(code - 0xC1 + ord("A")) if code in SHIFTED_LETTERS else ""
        usual = letter == printed_char.upper() or letter in UNDERLINE_READS.get(printed_char.upper(), "")
        return SAME_LETTER_COST if usual else OTHER_LETTER_COST
    if place.kind in ("two", "small"):
        return OTHER_LETTER_COST
    return SYMBOL_COST if place.kind == "symbol" else ALONE_COST


__all__ = ["GRAPHICS", "SHIFTED_LETTERS", "UNDERLINE_READS", "Place", "cost", "places", "solve", "spelled",
           "two_character_places"]
