"""Blanks inside quotes that OCR inserted or dropped, settled by the listing's own words (:func:`settle`).

The Checksummer skips blanks, so a blank OCR put into a string's word (64'er 11/85 p. 89 line
3040: ``TASTE DRU ECKEN``) or lost between two words (10/85 p. 32 line 1180: ``FALSCHEEINSTELLUNG``)
is invisible to the checksum: the line verifies with the blank or without it.  The listing can
tell where it prints the same words elsewhere -- a program's messages repeat their words -- so:

- two words of a string with one blank between them are one word where another line prints that
  word (in a string or a REM) and no other line prints the two words side by side;
- a word of a string is two where :data:`PART_WITNESSES` other lines print those two side by side,
  no other line prints the word, and exactly one cut of it into two words is so printed.  One line
  is not enough: OCR inserts blanks far more often than it drops them (11/85 p. 89, 9/85 p. 70:
  dozens inserted, none dropped), and a line that prints ``ANGEH AENGT`` is then the one misread,
  not the line that prints ``ANGEHAENGT`` (9/85 p. 70 lines 270 and 360) -- the join above takes
  that pair, and two witnesses of the parted words leave no line the join would take.

- a DATA item of one character in quotes loses the blanks beside it inside the quotes where the other
  lines print such items (a table of characters: 10/85 p. 74 Listing 4) without blanks, PART_WITNESSES
  of them at least and more than print one with a blank.

Anything else stays as printed: only the listing's evidence, never a dictionary, moves a blank.
Words are runs of :data:`MIN_WORD` letters or more (a short one joins or parts by chance), compared
in capitals (an all-capital listing prints a shifted letter as its capital), outside control names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MIN_WORD = 3  # letters a word that joins or parts has at least (each half of it too)
PART_WITNESSES = 2  # other lines that print two words side by side, to part them in a word
_MARK_OR_WORD = re.compile(r"[{}<>]|[A-Za-z]+")


def _texts(text: str) -> list[tuple[int, str]]:
    """The stretches of *text* inside quotes, and after a REM outside them: (offset, text)."""
    out, quote, start = [], False, 0
    upper = text.upper()
    for k, c in enumerate(text):
        if c == '"':
            if quote:
                out.append((start, text[start:k]))
            else:
                start = k + 1
            quote = not quote
        elif not quote and upper.startswith("REM", k):
            out.append((k + 3, text[k + 3 :]))
            return out
    if quote:
        out.append((start, text[start:]))
    return out


def _words(text: str) -> list[tuple[int, int, str]]:
    """The words of *text*'s strings and REM: (start, end, capitals), control names left out
    (``{CLR}``, ``<2SPACE>``: no word of the program's)."""
    out = []
    for offset, part in _texts(text):
        depth = 0
        for m in _MARK_OR_WORD.finditer(part):
            g = m.group()
            if g in "{<":
                depth += 1
            elif g in "}>":
                depth = max(0, depth - 1)
            elif not depth:
                out.append((offset + m.start(), offset + m.end(), g.upper()))
    return out


# a DATA item that is one character in quotes (or one control or graphics name): its blanks inside the
# quotes, before and after it ('DATA" T" ,60', 'DATA"T",60')
_ONE_CHARACTER_ITEM = re.compile(r"""(?:(?<=DATA)|(?<=,)) *"( *)(?:\{[^{}"]*\}|[^{}" ,:])( *)"(?= *(?:,|:|$))""",
                                 re.IGNORECASE)


def _one_character_items(text: str) -> list[re.Match]:
    return list(_ONE_CHARACTER_ITEM.finditer(text)) if "DATA" in text.upper() else []


@dataclass(frozen=True)
class Words:
    """The words the lines print (capitals -> line numbers), and each two printed side by side
    with one blank between them; the lines that print a DATA item of one character in quotes
    without a blank beside it (*lone*), and with one (*blanked*)."""

    single: dict[str, frozenset[int]]
    pairs: dict[tuple[str, str], frozenset[int]]
    lone: frozenset[int] = frozenset()
    blanked: frozenset[int] = frozenset()

    @classmethod
    def of(cls, lines: Iterable[tuple[int, str]]) -> Words:
        single: dict[str, set[int]] = {}
        pairs: dict[tuple[str, str], set[int]] = {}
        lone: set[int] = set()
        blanked: set[int] = set()
        for number, text in lines:
            words = _words(text)
            for _, _, w in words:
                single.setdefault(w, set()).add(number)
            for (_, a_end, a), (b_start, _, b) in zip(words, words[1:]):
                if text[a_end:b_start] == " ":
                    pairs.setdefault((a, b), set()).add(number)
            for m in _one_character_items(text):
                (blanked if m.group(1) or m.group(2) else lone).add(number)
        return cls({w: frozenset(n) for w, n in single.items()}, {p: frozenset(n) for p, n in pairs.items()},
                   frozenset(lone), frozenset(blanked - lone))

    def lone_items(self, number: int) -> bool:
        """The other lines print a DATA list's one-character strings without blanks: PART_WITNESSES
        of them at least, more than print one with a blank."""
        lone = len(self.lone - {number})
        return lone >= PART_WITNESSES and lone > len(self.blanked - {number})

    def elsewhere(self, word: str, number: int) -> bool:
        return bool(self.single.get(word, frozenset()) - {number})

    def pair_elsewhere(self, a: str, b: str, number: int, lines: int = 1) -> bool:
        return len(self.pairs.get((a, b), frozenset()) - {number}) >= lines


def settle(text: str, number: int, words: Words) -> tuple[str, tuple[str, ...]]:
    """*text* with each blank inside its strings joined or parted where the listing's *words*
    say so; and what was done, for a person (empty: the text as it was)."""
    found = _words(text)
    cuts: list[tuple[int, int, str, str]] = []  # (start, end, new text, why)
    for (a_start, a_end, a), (b_start, b_end, b) in zip(found, found[1:]):
        if text[a_end:b_start] != " " or len(a) < MIN_WORD or len(b) < MIN_WORD:
            continue
        if words.elsewhere(a + b, number) and not words.pair_elsewhere(a, b, number):
            cuts.append((a_end, b_start, "", f"'{text[a_start:b_end]}' is '{a + b}' as other lines print it"))
    for start, end, w in found:
        if len(w) < 2 * MIN_WORD or words.elsewhere(w, number):
            continue
        splits = [k for k in range(MIN_WORD, len(w) - MIN_WORD + 1) if words.pair_elsewhere(w[:k], w[k:], number, PART_WITNESSES)]
        if len(splits) == 1:
            k = splits[0]
            cuts.append((start + k, start + k, " ", f"'{text[start:end]}' is '{w[:k]} {w[k:]}' as other lines print it"))
    if words.lone_items(number):  # ('DATA" T" ,60' where the table's other lines print 'DATA"T",60')
        for m in _one_character_items(text):
            for g in (1, 2):
                if m.group(g):
                    cuts.append((m.start(g), m.end(g), "", f"'{m.group(0).strip()}' is a DATA string of one character,"
                                                          " as other lines print theirs"))
    if not cuts:
        return text, ()
    out, last = [], 0
    for start, end, new, _ in sorted(cuts):
        out.append(text[last:start] + new)
        last = end
    return "".join(out) + text[last:], tuple(why for *_, why in sorted(cuts))


__all__ = ["MIN_WORD", "PART_WITNESSES", "Words", "settle"]
