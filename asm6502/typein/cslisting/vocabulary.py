"""What a listing itself knows: the names and words its lines print, to confirm a repair.

A program uses its variables, keywords and messages' words over and over; OCR garbles each
printed copy independently.  A repair whose changed words are ones the listing prints whole in
another line agrees with the print twice -- the checksum says the line reads so, and the word is
the program's own (64'er 10/85 p. 32 line 1160: ``£PUR`` solved to ``sPUR``, the word line 520
prints).  A word is a run of letters inside quotes; a name outside quotes is letters and digits
with a ``$`` or ``%`` after them (``A1$``); both are compared in capitals (an all-capital listing
prints a shifted letter underlined and OCR reads it as a capital or small letter alike).

The names and keywords of the lines taken (:class:`Lexicon`, every length: ``I``, ``K$``) are the
program's own too: a reading whose changes make only names the program uses elsewhere is one of
few such readings (:func:`made_names`; :func:`.verdict.familiar` counts them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from asm6502.basic.tokens import KEYWORDS
from asm6502.typein.cslisting.edits import Edit, Fix, apply, quote_flags, suspect

TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*[$%]?")
MIN_TOKEN = 3  # shorter words match by chance too easily ('OK', 'A$')


def tokens(text: str) -> list[re.Match]:
    """The words and names of a line's text (a control code's name in braces is no word)."""
    return [m for m in TOKEN.finditer(text) if len(m.group()) >= MIN_TOKEN and not _in_braces(text, m.start())]


def _in_braces(text: str, k: int) -> bool:
    opened = max(text.rfind("{", 0, k), text.rfind("<", 0, k))
    return opened >= 0 and max(text.rfind("}", 0, k), text.rfind(">", 0, k)) < opened


@dataclass(frozen=True)
class Vocabulary:
    """Each word or name (capitals) and the line numbers that print it."""

    lines: Mapping[str, frozenset[int]]

    @classmethod
    def of(cls, listing: Iterable[tuple[int, str]]) -> Vocabulary:
        where: dict[str, set[int]] = {}
        for number, text in listing:
            for m in tokens(text):
                where.setdefault(m.group().upper(), set()).add(number)
        return cls({w: frozenset(n) for w, n in where.items()})

    def elsewhere(self, word: str, number: int) -> bool:
        """*word* is printed in a line other than *number*."""
        return bool(self.lines.get(word.upper(), frozenset()) - {number})


def _spans_in_new(edits: tuple[Edit, ...]) -> list[tuple[int, int]]:
    """Where each edit's new text stands in the edited line."""
    out, delta = [], 0
    for e in sorted(edits, key=lambda e: e.start):
        a = e.start + delta
        out.append((a, a + len(e.new)))
        delta += len(e.new) - (e.end - e.start)
    return out


def confirming_words(printed: str, fix: Fix, vocabulary: Vocabulary, number: int) -> tuple[str, ...] | None:
    """The words the listing prints elsewhere that confirm every change of *fix* (each change
    inside a word of the fixed line that another line prints, and a word the print did not show
    there already); None when a change is not confirmed."""
    if not fix.edits or fix.checksum is not None:
        return None
    found = tokens(fix.text)
    before = {m.group().upper() for m in tokens(printed)}
    words: list[str] = []
    for a, b in _spans_in_new(fix.edits):
        m = next((m for m in found if m.start() <= a and b <= m.end() and (a < b or m.start() < a < m.end())), None)
        if m is None:
            return None
        word = m.group()
        if not vocabulary.elsewhere(word, number):
            return None
        if word.upper() in before and word in printed:
            return None  # the word stood there already: the change is not one the listing confirms
        words.append(word)  # (the same word with a letter shifted is a change: 'zEIT' for 'ZEIT')
    return tuple(dict.fromkeys(words))


NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*[$%]?")  # names and keywords as printed, outside quotes ('FOR', 'I', 'K1$')
_WORDS = tuple(kw for kw in KEYWORDS if kw[0].isalpha())


def names(text: str) -> list[re.Match]:
    """The runs of names and keywords of a line's text outside quotes and REM (a control code's name is inside quotes)."""
    quoted = quote_flags(text)
    return [m for m in NAME.finditer(text) if not quoted[m.start()]]


def crunched(run: str) -> list[str]:
    """A run of letters and digits cut as CRUNCH cuts it: at each place the first keyword of the
    ROM's table spelled there is a keyword, the characters between are names ('READF$' is READ and
    F$, 'TOTAL' is TO and TAL); capitals.  A piece that starts with a digit is a number, left out."""
    run = run.upper()
    pieces: list[str] = []
    name = ""
    k = 0
    while k < len(run):
        kw = next((w for w in _WORDS if run.startswith(w, k)), None)
        if kw is None:
            name += run[k]
            k += 1
            continue
        pieces.append(name)
        pieces.append(kw)
        name = ""
        k += len(kw)
    pieces.append(name)
    return [p for p in pieces if p and p[0].isalpha()]


@dataclass(frozen=True)
class Lexicon:
    """Each name or keyword (capitals) outside quotes of the lines taken, and the line numbers that print it."""

    lines: Mapping[str, frozenset[int]]

    @classmethod
    def of(cls, taken: Iterable[tuple[int, str]], printed: Iterable[tuple[int, str]] = (), upper: bool = True) -> Lexicon:
        """The names of the lines *taken* (verified or repaired), and those of the lines *printed*
        (still bad) that the print shows no damage in."""
        where: dict[str, set[int]] = {}
        for number, text in taken:
            for m in names(text):
                for piece in crunched(m.group()):
                    where.setdefault(piece, set()).add(number)
        for number, text in printed:
            for m in names(text):
                if not any(suspect(text, k, upper) for k in range(m.start(), m.end())):
                    for piece in crunched(m.group()):
                        where.setdefault(piece, set()).add(number)
        return cls({w: frozenset(n) for w, n in where.items()})

    def elsewhere(self, run: str, number: int) -> bool:
        """Every name and keyword of *run* (:func:`crunched`) is printed in a line other than *number*."""
        return all(self.lines.get(piece, frozenset()) - {number} for piece in crunched(run))


def made_names(printed: str, edits: tuple[Edit, ...], lexicon: Lexicon, number: int) -> tuple[str, ...] | None:
    """The names and keywords outside quotes that the changes *edits* make of *printed* touch (a name
    a change stands in or next to: '$' for 't' makes 'K$', ':' for 's' before 'A$' touches 'A$'),
    each one another line of the listing prints or the reading makes at two places of the line
    (the line's own name twice: 'Kl$' and 'Klt' both read 'K1$'); None where one is neither.  A
    change inside quotes or REM, or one that touches no name (a mark between numbers), makes none."""
    if not edits:
        return None
    new = apply(printed, edits)
    found = names(new)
    touched: dict[int, re.Match] = {}
    for a, b in _spans_in_new(edits):
        for m in found:
            if m.start() <= b and a <= m.end():
                touched[m.start()] = m
    places: dict[str, int] = {}
    for m in touched.values():
        for piece in crunched(m.group()):
            places[piece] = places.get(piece, 0) + 1
    if any(not lexicon.elsewhere(piece, number) and n < 2 for piece, n in places.items()):
        return None
    return tuple(places)


__all__ = ["MIN_TOKEN", "NAME", "Lexicon", "Vocabulary", "confirming_words", "crunched", "made_names", "names", "tokens"]
