"""Synthetic OCR damage for Checksummer listings: test and benchmark material.

Each damage class is one kind of misreading found in the real 64'er OCR of the
test data (the collection basic_read: tests/manifests/basic_read/): a letter O in a keyword read as 0 (``P0KE``), a digit 1
read as l or I (``-l``, ``CHR$(l)``), ``$`` read as ``#`` or ``^`` (``G#``), a blank inside a
keyword (``PR I NT``), ``;``/``:`` and ``,``/``.`` swapped, a checksum digit misread
(``<l*7>``, 6/8).  The print is all capitals, as 64'er printed listings.  A
:class:`Damaged` listing remembers each line's true text, so a test can say what the reader
must recover.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from asm6502.basic.case import from_capitals

CLASSES = ("o-zero", "one-l", "dollar", "keyword-blank", "punctuation", "checksum", "several")
_LINE = re.compile(r"^(\d+) (.*?)\s+<(\d{3})>$")
_CHECKSUM_SLIPS = {"6": "8", "8": "6", "3": "8", "1": "7", "7": "1", "0": "8", "5": "6"}
KEYWORDS_TO_SPLIT = ("PRINT", "GOTO", "GOSUB", "POKE", "NEXT", "THEN", "RETURN", "INPUT")


@dataclass
class LineTruth:
    number: int
    text: str  # the line as printed (capitals), undamaged
    classes: list[str] = field(default_factory=list)


@dataclass
class Damaged:
    text: str
    lines: list[LineTruth]


def _outside_quotes(text: str) -> list[int]:
    """Indexes of characters outside quotes and before a REM."""
    out, quote = [], False
    upper = text.upper()
    for k, c in enumerate(text):
        if not quote and upper.startswith("REM", k):
            break
        if c == '"':
            quote = not quote
        elif not quote and c != "{":
            out.append(k)
    return out


def _damage_line(text: str, rng: random.Random, classes: dict[str, float], hit: list[str]) -> str:
    spots = _outside_quotes(text)

    def chance(name: str) -> bool:
        if rng.random() < classes.get(name, 0.0):
            hit.append(name)
            return True
        return False

    chars = list(text)
    o = [k for k in spots if chars[k] == "O" and k and chars[k - 1].isalpha()]
    if o and chance("o-zero"):
        chars[rng.choice(o)] = "0"
    ones = [k for k in spots if chars[k] == "1"]
    if ones and chance("one-l"):
        for k in ones if rng.random() < 0.5 else [rng.choice(ones)]:  # often every 1 of a line
            chars[k] = rng.choice("lI")
    dollars = [k for k in spots if chars[k] == "$"]
    if dollars and chance("dollar"):
        chars[rng.choice(dollars)] = rng.choice("#^")
    punct = [k for k in spots if chars[k] in ";:,."]
    if punct and chance("punctuation"):
        k = rng.choice(punct)
        chars[k] = {";": ":", ":": ";", ",": ".", ".": ","}[chars[k]]
    text = "".join(chars)
    if classes.get("several", 0.0) > 0:  # (a class not asked for draws nothing: the others' damage stays)
        text = _several(text, rng, classes["several"], hit)
    if chance("keyword-blank"):
        found = [(m.start(), kw) for kw in KEYWORDS_TO_SPLIT for m in re.finditer(kw, text)
                 if m.start() in _outside_quotes(text)]
        if found:
            at, kw = rng.choice(found)
            cut = at + rng.randrange(1, len(kw))
            text = text[:cut] + " " + text[cut:]
        else:
            hit.remove("keyword-blank")
    return text


SEVERAL_MIN = 3  # changes the class "several" makes in a line at least


def _several(text: str, rng: random.Random, rate: float, hit: list[str]) -> str:
    """Class "several": independent misreadings in one line, as 64'er 10/85 p. 73 shows them
    (``CHRt(PEEK(X>);:X=X+l``): every '$' read as 't' (the page's habit), each '1' read as 'l'
    and each ')' before a ':', ';', ')' or the line's end read as '>', each '(' after a name
    read as '<', each with a chance of one half -- SEVERAL_MIN changes at least, else the line
    is left as it was."""
    if rng.random() >= rate:
        return text
    spots = set(_outside_quotes(text))
    chars = list(text)
    changed = 0
    for k in sorted(spots):
        c, right = chars[k], text[k + 1 : k + 2]
        if c == "$":
            chars[k] = "t"
            changed += 1
        elif rng.random() < 0.5 and (c == "1" or c == ")" and right in ("", ":", ";", ")")
                                      or c == "(" and k and text[k - 1].isalnum()):
            chars[k] = {"1": "l", ")": ">", "(": "<"}[c]
            changed += 1
    if changed < SEVERAL_MIN:
        return text
    hit.append("several")
    return "".join(chars)


def damage_listing(listing: str, rng: random.Random, *, classes: dict[str, float]) -> Damaged:
    """Print a petcat Checksummer listing (``basic checksum`` output) in capitals, then damage
    each line: every class hits a line with its probability."""
    out, truths = [], []
    for row in listing.splitlines():
        m = _LINE.match(row)
        if not m:
            out.append(row)
            continue
        number, text, checksum = int(m.group(1)), from_capitals(m.group(2)), m.group(3)
        truth = LineTruth(number, text)
        damaged = _damage_line(text, rng, classes, truth.classes)
        if rng.random() < classes.get("checksum", 0.0):
            k = rng.randrange(3)
            if checksum[k] in _CHECKSUM_SLIPS:
                checksum = checksum[:k] + _CHECKSUM_SLIPS[checksum[k]] + checksum[k + 1 :]
                truth.classes.append("checksum")
        out.append(f"{number} {damaged}  <{checksum}>")
        truths.append(truth)
    return Damaged("\n".join(out) + "\n", truths)


# Assumed per-line rates for a page of mixed damage (the real pages of the fixtures show these
# kinds; their rates vary from page to page).
REALISTIC = {"o-zero": 0.08, "one-l": 0.15, "dollar": 0.08, "keyword-blank": 0.05, "punctuation": 0.04,
             "checksum": 0.03}


LAYOUT_CLASSES = ("joined", "number-lost", "broken")
# the layout classes of lines OCR parts, joins or numbers wrongly (10/85 p. 74, 9/85 p. 70, and
# what 64'er 12/85's SWAP and a page's furniture show): see :func:`damage_layout`
MORE_LAYOUT_CLASSES = ("number-split", "number-head-lost", "broken-digits", "checksums-together",
                       "checksums-after", "furniture")
# rows of a page that belong to no line: the footer, a caption going on over a page, the stamp
FURNITURE = ("Ausgabe 10/Oktober 1985", "Listing 1. Fortsetzung von Seite 72", "\u00a9 64'er", "74 \u00a9 64'er",
             "75 64'er")


def _chance(rng: random.Random, classes: dict[str, float], name: str, hit: list[str]) -> bool:
    # (a class not asked for draws nothing: the others' damage stays what it was without it)
    if classes.get(name, 0.0) > 0 and rng.random() < classes[name]:
        hit.append(name)
        return True
    return False


_ROW = re.compile(r"^(\d+) (.*?)(\s+<\d{3}>)$")


def damage_layout(damaged: Damaged, rng: random.Random, *, classes: dict[str, float]) -> Damaged:
    """The rows of a printed listing (:func:`damage_listing`'s text) as OCR lays them out on
    the real pages of the test data: a row run into the row before it ("joined", 10/85 p. 131
    came out as one row a listing), a line's number lost ("number-lost", never the first
    line's or the last one's: a listing's ends are where its place says nothing), a line broken
    over two rows ("broken"; "broken-digits": where the second row starts with a digit, 10/85
    p. 74 '1 DATA ...,191,1' / '63 <004>'), a number's digits read apart ("number-split",
    '41 10' for 4110) or its first digits lost ("number-head-lost", '00 NEXT J' for 4100; never
    the first or last line's), a line's checksum at the end of the row before it
    ("checksums-together": '10 A <c1> <c2>' / '20 B'), a line run into the row before it ahead
    of that one's checksum ("checksums-after": '10 A 20 B <c1> <c2>'), a row of page furniture
    before a line ("furniture": the footer, a caption, the stamp).  The truths name the layout
    classes a line was hit by."""
    rows = [row for row in damaged.text.splitlines() if row.strip()]
    out: list[str] = []
    whole = False  # out[-1] is one whole line with its checksum
    for k, (row, truth) in enumerate(zip(rows, damaged.lines)):
        m = _ROW.match(row)
        if m is None:
            out.append(row)
            whole = False
            continue
        number, text, field = m.groups()
        head = f"{number} "
        inner = 0 < k < len(rows) - 1
        if inner and _chance(rng, classes, "number-lost", truth.classes):
            head = ""
        elif len(number) > 1 and _chance(rng, classes, "number-split", truth.classes):
            cut = rng.randrange(1, len(number))
            head = f"{number[:cut]} {number[cut:]} "
        elif inner and len(number) > 1 and _chance(rng, classes, "number-head-lost", truth.classes):
            head = number[rng.randrange(1, len(number)) :] + " "
        # (the print wraps a long line at its width, between any two characters but blanks,
        # which OCR would drop at a row's end)
        cuts = [i for i in range(1, len(text)) if text[i - 1] != " " and text[i] != " "]
        digit_cuts = [i for i in cuts if text[i].isdigit()]
        if digit_cuts and _chance(rng, classes, "broken-digits", truth.classes):
            cut = rng.choice(digit_cuts)
            pieces = [head + text[:cut], text[cut:] + field]
        elif cuts and _chance(rng, classes, "broken", truth.classes):
            cut = rng.choice(cuts)
            pieces = [head + text[:cut], text[cut:] + field]
        else:
            pieces = [head + text + field]
        if out and _chance(rng, classes, "furniture", truth.classes):
            out.append(rng.choice(FURNITURE))
            whole = False
        if whole and len(pieces) == 1 and _chance(rng, classes, "checksums-together", truth.classes):
            out[-1] += field
            pieces = [head + text]
        elif whole and len(pieces) == 1 and head and _chance(rng, classes, "checksums-after", truth.classes):
            before = _ROW.match(out[-1])
            assert before is not None
            out[-1] = f"{before.group(1)} {before.group(2)} {head}{text}{before.group(3)}{field}"
            pieces = []
        elif out and pieces and _chance(rng, classes, "joined", truth.classes):
            out[-1] += " " + pieces.pop(0)
        out.extend(pieces)
        whole = bool(pieces) and len(pieces) == 1 and _ROW.match(pieces[0]) is not None
    return Damaged("\n".join(out) + "\n", damaged.lines)
