"""The character set a page is drawn with: the C64's own, from the user's character ROM, or this
project's fallback design (:mod:`.fallback`) when none is given.

A character of the listing's text is found in the ROM by its screen code (``petscii``'s screen
code tables, the one place that maps them): a text with lower-case letters is drawn from the ROM's
second set (lower and upper case), an all-capital text from the first (capitals and graphics), as
the C64 shows them after SHIFT+C= or at power-on.
"""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.petscii import screen_code_char
from asm6502.typein.publish import fallback

CHARGEN_SIZE = 4096  # 901225-01: two sets of 256 characters, 8 bytes each
SET_BYTES = 2048


@dataclass(frozen=True)
class GlyphSet:
    """Eight 8-bit rows per character (bit 7: the left pixel); *source* says where they come from."""

    source: str  # shown under the page: "this project's fallback glyphs", "the character ROM FILE"
    lower: dict[str, tuple[int, ...]]  # the set a text with lower-case letters is drawn from
    upper: dict[str, tuple[int, ...]]  # the set of an all-capital text

    def for_text(self, text: str) -> dict[str, tuple[int, ...]]:
        """The set *text* is drawn with (see the module docstring)."""
        return self.lower if any(c.islower() for c in text) else self.upper

    def glyph(self, table: dict[str, tuple[int, ...]], ch: str) -> tuple[int, ...]:
        """The rows of *ch*; a character the set lacks is the fallback's (an open box if it has none either)."""
        return table.get(ch) or fallback.rows(ch)


def fallback_set() -> GlyphSet:
    table = {ch: fallback.rows(ch) for ch in fallback.GLYPHS}
    return GlyphSet("this project's own fallback glyphs (no character ROM given)", table, table)


def _screen_table(rom: bytes, lower: bool) -> dict[str, tuple[int, ...]]:
    base = SET_BYTES if lower else 0
    table: dict[str, tuple[int, ...]] = {}
    for code in range(128):
        ch = screen_code_char(code, lower)
        if ch and ch not in table:
            table[ch] = tuple(rom[base + 8 * code : base + 8 * code + 8])
    table["█"] = tuple(rom[base + 8 * 0xA0 : base + 8 * 0xA0 + 8])  # the reversed space
    return table


def chargen_set(rom: bytes, source: str) -> GlyphSet:
    """The glyphs of a 4 KB character ROM image (*rom*; the caller checked its size)."""
    return GlyphSet(f"the character ROM {source}", _screen_table(rom, True), _screen_table(rom, False))
