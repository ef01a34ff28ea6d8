"""Control-code names inside quotes that OCR misread past :func:`.text.normalize_controls`'s
reading, as edits: the bracket read as another mark (``£2RIGHT,DOWN>``, ``t2RIGHT,D0WN>``,
``LCLR>``, ``<RVSONJ``), blanks inside a name (``<7SPAC EJ``, ``<5R I GHT J``), one letter of a name
misread (``<DDWN>``, ``<SPACE,RVGFF,SPACE>``, ``<Fl>``; 64'er 10/85 p. 73, 9/85 p. 70).

The names are a closed list (:func:`asm6502.petscii.name_table`, the plain words of it): an item
of a bracket span whose letters differ from exactly one of them in one place, and from none
other so closely, is read as that name.  Every edit is offered to the checksum like any other;
one that reads a name's letter otherwise costs more than one that only reads its brackets and
blanks.

A key's name the print sets as text in square brackets inside quotes (``"... [F8] DRUECKEN"``,
``"LADEN [5]"``; 64'er 10/85, Hypra-Text) is no control name: OCR reads its brackets as letters
or digits (``CF8J``, ``C5I``, ``EF13``, ``[F7I``) and :func:`key_edits` reads them
back, a key of a closed list between a mark like '[' and one like ']', set apart as a word.
"""

from __future__ import annotations

import re
from functools import lru_cache

from asm6502 import petscii
from asm6502.typein.cslisting.edits import Edit, quote_flags
from asm6502.typein.cslisting.text import control_spans, plain_quotes

OPEN_READS = "<{[(\u00a3tL"  # what OCR made of a name's opening bracket (the print's '<')
CLOSE_READS = ">})]I?J"  # ... and of its closing one
MAX_NAME = 40  # a bracket span this long at most
NAME_COST = 1.0  # a name whose brackets or blanks OCR misread
NAME_LETTER_COST = 1.0  # ... and each letter of it read as another, more
NAME_WHY = "a control name's brackets or blanks misread"  # the print shows it: the name is whole
NAME_LETTER_WHY = "a control name's letter misread"  # a guess among the names: offered
# a key's name between two marks like brackets, set apart as a word inside quotes, leaves the one
# reading: near-certain (normal.NORMAL_COST), so that a shifted letter solved from the checksum
# elsewhere in the line is no rival to it
KEY_COST = 0.5
KEY_WHY = "a key's name in square brackets, its brackets misread"  # text, not a control code
KEY_OPEN_READS = "CEL[("  # what OCR made of a key name's '['
KEY_CLOSE_READS = "JI13])"  # ... and of its ']'
# the keys a listing names in square brackets: the function keys, a digit, the keys with no
# control code (a code's name in square brackets, '[HOME]', '[RETURN]', is the code to
# :func:`.text.normalize_controls`, not text)
KEY_WORDS = ("SHIFT", "CTRL", "CBM", "RESTORE")
_KEY = re.compile(r"F[1-8lI|]|[0-9]|" + "|".join(KEY_WORDS))
KEY_TEXT = re.compile(r"\[(?:F[1-8]|[0-9]|" + "|".join(KEY_WORDS) + r")\]")  # one read right
_ITEM = re.compile(r"^(\d*)([A-Za-z][A-Za-z0-9]*)$")


@lru_cache(maxsize=1)
def _plain_names() -> tuple[str, ...]:
    """The control names that are plain words (capitals), the ones 64'er printed."""
    return tuple(sorted({k.upper() for k in petscii.name_table() if k.isalnum() and len(k) >= 2}))


def _item(item: str) -> tuple[str, int] | None:
    """One comma item of a span as a name (count and name, petcat spelling) and the letters it
    reads otherwise; None if no name is near."""
    joined = item.replace(" ", "")
    m = _ITEM.match(joined)
    if m is None:
        return None
    count, word = m.group(1), m.group(2).upper().replace("0", "O")
    if word[:1] == "F" and len(word) == 2 and word[1] in "LI|":
        word = "F1"  # a function key's 1 read as l or I
    names = _plain_names()
    if word in names:
        return (f"{count} {word}" if count else word), 0
    near = [n for n in names if len(n) == len(word) >= 3 and sum(a != b for a, b in zip(n, word)) == 1]
    if len(near) != 1:
        return None
    return (f"{count} {near[0]}" if count else near[0]), 1


def _span_reading(inner: str) -> tuple[str, int] | None:
    """A span's inside as petcat names (``{2 RIGHT}{DOWN}``) and its letters read otherwise."""
    parts, letters = [], 0
    for item in inner.split(","):
        got = _item(item)
        if got is None:
            return None
        parts.append("{" + got[0] + "}")
        letters += got[1]
    return "".join(parts), letters


def _beside(plain: str, quoted: list[bool], i: int, j: int) -> tuple[int, int]:
    """The span plain[i:j] with the blanks inside quotes beside it: the listing printer sets a
    blank beside a code inside its braces, so one outside them is the typesetting's
    (:func:`.text.without_print_blanks`) -- but for blanks between two codes."""
    lo, hi = i, j
    while lo > 0 and plain[lo - 1] == " " and quoted[lo - 1]:
        lo -= 1
    while hi < len(plain) and plain[hi] == " " and quoted[hi]:
        hi += 1
    if lo < i and plain[lo - 1 : lo] in (">", "}"):
        lo = i
    if hi > j and plain[hi : hi + 1] in ("<", "{"):
        hi = j
    return lo, hi


def name_edits(text: str) -> list[Edit]:
    """The bracket spans inside quotes that :func:`.text.control_spans` does not read, read as
    control names (each span one edit)."""
    plain = plain_quotes(text)
    if len(plain) != len(text):
        return []
    read = {k for i, j, _ in control_spans(plain) for k in range(i, j)}
    quoted = quote_flags(plain)
    out: list[Edit] = []
    i = 0
    while i < len(plain):
        c = plain[i]
        if c not in OPEN_READS or i in read or not quoted[i]:
            i += 1
            continue
        # (a mark that is no bracket, 't' or 'L', opens a name before its count, 't2RIGHT', or
        # before a whole name and its closing bracket, 'LCLR>'; not 'tEXT')
        counted = c in "<{[" or plain[i + 1 : i + 2].isdigit()
        for j in range(i + 2, min(len(plain), i + MAX_NAME)):
            if plain[j] == '"' or j in read or plain[j] in "<{":
                break
            if plain[j] not in CLOSE_READS or c == "[" and plain[j] not in ">}":
                continue  # ('[F7]' is printed so: a key's name in square brackets is text)
            got = _span_reading(plain[i + 1 : j].rstrip(" "))
            if got is not None and not counted and (got[1] or plain[j] not in ">}" or " " in plain[i + 1 : j]):
                got = None
            if got is not None:
                new, letters = got
                lo, hi = _beside(plain, quoted, i, j + 1)
                out.append(Edit(lo, hi, new, NAME_COST + NAME_LETTER_COST * letters,
                                NAME_LETTER_WHY if letters else NAME_WHY))
                i = j
                break
            if plain[j] in ">}]":
                break
        i += 1
    return out


def key_edits(text: str) -> list[Edit]:
    """The key names inside quotes printed in square brackets whose brackets OCR misread, as
    ``[NAME]`` (each one edit): a mark of KEY_OPEN_READS, a key of KEY_WORDS (a function key's 1
    read as l or I), a mark of KEY_CLOSE_READS, with neither a letter nor a digit beside them;
    none where both brackets read as brackets are ('[F7]') or as parentheses ('(F1)', which text
    prints too)."""
    plain = plain_quotes(text)
    if len(plain) != len(text):
        return []
    quoted = quote_flags(plain)
    out: list[Edit] = []
    for i, c in enumerate(plain):
        if c not in KEY_OPEN_READS or not quoted[i] or (i and plain[i - 1].isalnum()):
            continue
        m = _KEY.match(plain, i + 1)
        if m is None:
            continue
        j = m.end()
        close = plain[j : j + 1]
        if not close or close not in KEY_CLOSE_READS or not quoted[j] or plain[j + 1 : j + 2].isalnum():
            continue
        if (c, close) in (("[", "]"), ("(", ")")):
            continue
        key = m.group(0)
        if key[0] == "F" and len(key) == 2:
            key = "F" + key[1].replace("l", "1").replace("I", "1").replace("|", "1")
        out.append(Edit(i, j + 1, f"[{key}]", KEY_COST, KEY_WHY))
    return out


__all__ = ["KEY_TEXT", "KEY_WHY", "NAME_LETTER_WHY", "NAME_WHY", "key_edits", "name_edits"]
