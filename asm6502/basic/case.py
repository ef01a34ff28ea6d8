"""All-capital listings: BASIC as magazines printed it and OCR reads it.

In petcat text (what ``basic tok`` reads) lower-case letters are the C64's
unshifted letters -- the ones keywords are made of -- and capitals are the
shifted letters, which CRUNCH ($A585) drops outside quotes.  A listing typed
from a magazine or OCR'd is usually all capitals, meaning the unshifted
letters: ``from_capitals`` swaps the case of every letter outside ``{...}``
control names, so ``PRINT "HELLO"`` reads as the C64 shows it.
"""

from __future__ import annotations

import re
import string

BRACES = re.compile(r"(\{[^{}\n]*\})")
MIN_LETTERS = 4  # fewer letters than this decide nothing
SWAP = str.maketrans(string.ascii_uppercase + string.ascii_lowercase, string.ascii_lowercase + string.ascii_uppercase)


def _outside_braces(text: str) -> list[str]:
    """The parts of *text* outside ``{...}`` control names (every other piece of the split)."""
    return BRACES.split(text)[0::2]


def looks_all_capitals(text: str) -> bool:
    """Letters outside {...} are all capitals (and there are a few of them)."""
    letters = [c for part in _outside_braces(text) for c in part if c.isascii() and c.isalpha()]
    return len(letters) >= MIN_LETTERS and not any(c.islower() for c in letters)


def from_capitals(text: str) -> str:
    """Read capitals as the unshifted letters (and lower case as the shifted ones)."""
    pieces = BRACES.split(text)
    return "".join(piece if i % 2 else piece.translate(SWAP) for i, piece in enumerate(pieces))
