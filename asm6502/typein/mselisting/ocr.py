"""MSE V1.0 lines from OCR text, read by the structure of a line, and ranked repairs.

A printed V1.0 line is ``ADDR : B1 B2 B3 B4 B5 B6 B7 B8 CS``: a 4-digit address, the
separator, 8 two-digit bytes (fewer on a short last line), the checksum.  OCR of a
magazine page damages it in ways a character-class tokenizer cannot see through
(found in 11 printed 64'er listings):

* the ``:`` read as ``s 5 3 8 a S 0 *`` or a block glyph - it sits where the separator
  belongs, so it is the separator whatever it looks like;
* letters in the address (``lall`` for 1A11) - read through :data:`HEX_LOOKALIKES`,
  the address sequence (+8 a line) settles the rest;
* stray punctuation (``97-``, ``, ac``, ``f.8``) - dropped;
* an unreadable character (``1?``) - kept as a wildcard the checksum fills in;
* hex digits misread as other hex digits (``8d`` as ``Bd``) - found by the checksum,
  single and double changes ranked by how likely OCR makes them (:func:`rank_fixes`).

This module tokenizes text into line records and ranks candidate readings; the package
(``asm6502.typein.mselisting``) places the lines in sequence and reports.
"""

from __future__ import annotations

import re
from itertools import combinations

from asm6502.tuples import named_tuple
from asm6502.typein.confusion import ORDINARY_COST, SUSPECT_FACTOR, char_cost
from asm6502.typein.mselisting.codec import HEX_LOOKALIKES, WILDCARD, checksum_v1

HEX = "0123456789ABCDEF"
PAYLOAD_CHARS = 18  # 8 bytes + checksum, two hex digits each
# What OCR made of the ':' after the address (s, 5, 3, 8, a, S, 0, * or a block glyph).
SEPARATOR_READINGS = frozenset(":;sS538a0*.,|!=#%&") | frozenset("\u2588\u2589\u258c\u25a0\u25aa\u25ae\u25a1\u2592\u2593")
STRAY = frozenset(".,-'`\"_~^\u2018\u2019\u201a\u201c\u201d\u00b4")  # specks OCR adds between digits: dropped
UNREADABLE = frozenset("?\ufffd")  # what OCR prints for a character it could not read
WILD_COST = 1.0  # filling an unreadable character: every digit is as likely
PAIR_COST_LIMIT = ORDINARY_COST  # in a pair of changes, each must be a likely confusion
PAIR_EXTRA = 0.5  # two confusions in one line: a little less likely than their costs say
AUTO_CONFUSION = 1.5  # an automatic repair changes a character only into its close look-alike
# A repair is made without asking only where the print itself shows OCR damage (a '?', a
# look-alike letter, a hex letter in the other case than the listing's) and no other reading
# is nearly as likely.  A clean-looking hex digit misread as another (8 for B in an upper-case
# listing) is left to the user with the ranked fixes: the 8-bit checksum alone cannot tell
# the true fix from a chance match often enough (measured: tests/test_mse_ocr.py).
AUTO_MAX_COST = 4.0
AUTO_MARGIN = 1.5
AUTO_MARGIN_CLEAN = 0.5


@named_tuple
class Token:
    text: str
    offset: int
    line_start: bool  # first token of a physical line


@named_tuple
class Cell:
    """One character of a line as read: the hex digit it stands for (or '?'), as printed."""

    digit: str
    printed: str
    offset: int


@named_tuple
class RawLine:
    """A line found in the text: address cells, separator as printed (or ''), payload cells."""

    address: tuple[Cell, ...]
    separator: str
    separator_offset: int
    payload: tuple[Cell, ...]
    start: int
    end: int  # text offset after the last character read
    dropped: tuple[tuple[int, str], ...]  # stray characters left out: (offset, char)


def tokens(text: str, begin: int, end: int) -> list[Token]:
    """Whitespace-separated words of text[begin:end]; a ':' is a word of its own."""
    out = []
    last = begin
    for m in re.finditer(r"[^\s:]+|:", text[begin:end]):
        at = begin + m.start()
        gap = text[last:at]
        out.append(Token(m.group(), at, "\n" in gap or at == 0 or (last == begin and _at_line_start(text, at))))
        last = at + len(m.group())
    return out


def _at_line_start(text: str, at: int) -> bool:
    line_begin = text.rfind("\n", 0, at) + 1
    return text[line_begin:at].strip() == ""


def read_char(c: str) -> str | None:
    """The hex digit a printed character stands for; '?' if unreadable; '' if a stray speck;
    None if it cannot be part of a line."""
    if c.upper() in HEX:
        return c.upper()
    if c in HEX_LOOKALIKES:
        return HEX_LOOKALIKES[c]
    if c in UNREADABLE or (ord(c) > 0x7F and c not in STRAY):
        return WILDCARD
    if c in STRAY:
        return ""
    return None


def address_cells(tok: Token, wild_ok: bool = False) -> tuple[Cell, ...] | None:
    """The 4 address characters of *tok* (its first 4), if they read as hex (a wildcard only
    if *wild_ok*)."""
    if len(tok.text) < 4:
        return None
    cells = []
    for k, c in enumerate(tok.text[:4]):
        d = read_char(c)
        if not d or (d == WILDCARD and not wild_ok):
            return None
        cells.append(Cell(d, c, tok.offset + k))
    return tuple(cells)


def address_value(cells: tuple[Cell, ...], expected: int | None = None) -> int:
    """The address; an unreadable digit is taken from *expected* when the rest agrees
    (else read as 0)."""
    digits = "".join(c.digit for c in cells)
    if WILDCARD in digits and expected is not None:
        want = f"{expected:04X}"
        if all(d in (w, WILDCARD) for d, w in zip(digits, want)):
            return expected
    return int(digits.replace(WILDCARD, "0"), 16)


def _is_separator(tok: Token) -> bool:
    return len(tok.text) == 1 and tok.text in SEPARATOR_READINGS


def _payload_cells(tok: Token) -> tuple[list[Cell], list[tuple[int, str]]] | None:
    cells, dropped = [], []
    for k, c in enumerate(tok.text):
        d = read_char(c)
        if d is None:
            return None
        if d == "":
            dropped.append((tok.offset + k, c))
        else:
            cells.append(Cell(d, c, tok.offset + k))
    return cells, dropped


class LineScanner:
    """Finds V1.0 line records in a token list, guided by the expected next address."""

    def __init__(self, toks: list[Token], max_chars: int = PAYLOAD_CHARS):
        self.toks = toks
        self.max_chars = max_chars

    def head(self, i: int) -> tuple[tuple[Cell, ...], str, int, int] | None:
        """At token i: (address cells, separator as printed, its offset, index of the payload's
        first token), if token i can start a line."""
        toks = self.toks
        tok = toks[i]
        cells = address_cells(tok)
        if cells is None and len(tok.text) == 4 and i + 1 < len(toks) and _is_separator(toks[i + 1]):
            cells = address_cells(tok, wild_ok=True)  # "1?31 :": the sequence fills it in
        if cells is None or len(tok.text) > 5:
            return None
        if len(tok.text) == 5:  # separator run into the address: "1931s"
            if tok.text[4] not in SEPARATOR_READINGS:
                return None
            return cells, tok.text[4], tok.offset + 4, i + 1
        if i + 1 < len(toks) and _is_separator(toks[i + 1]):
            return cells, toks[i + 1].text, toks[i + 1].offset, i + 2
        return cells, "", -1, i + 1

    def strong_start(self, i: int) -> bool:
        """Token i is an address with a separator after it."""
        h = self.head(i)
        return h is not None and h[1] != ""

    def starts_line(self, i: int, expected: int | None) -> bool:
        h = self.head(i)
        if h is None:
            return False
        if h[1]:
            return True
        tok = self.toks[i]
        bare_hex = all(c.upper() in HEX for c in tok.text)
        if expected is not None and address_value(h[0], expected) == expected:
            return True
        return tok.line_start and bare_hex and self._bytes_follow(h[3])

    def _bytes_follow(self, j: int) -> bool:
        """At least 4 bytes' worth of hex digits follow on the same physical line, nothing else."""
        n = 0
        for tok in self.toks[j:]:
            if tok.line_start and tok is not self.toks[j]:
                break
            got = _payload_cells(tok)
            if got is None:
                return False
            n += len(got[0])
        return n >= 8

    def read(self, i: int, expected: int | None, *, sep_as_payload: bool = False) -> tuple[RawLine, int]:
        """The line starting at token i, and the index of the first token after it.

        *sep_as_payload*: the lone character after the address is half a split byte
        (``1931 8 d ff ...``), not the separator.
        """
        cells, sep, sep_at, j = self.head(i)
        payload: list[Cell] = []
        dropped: list[tuple[int, str]] = []
        toks = self.toks
        if sep_as_payload and sep and j == i + 2:
            sep, sep_at, j = "", -1, i + 1
        elif not sep and j < len(toks) and len(toks[j].text) == 3 and toks[j].text[0] in SEPARATOR_READINGS:
            rest = _payload_cells(Token(toks[j].text[1:], toks[j].offset + 1, False))
            if rest is not None and len(rest[0]) == 2:  # "1931 sff": separator run into the first byte
                sep, sep_at = toks[j].text[0], toks[j].offset
                payload, dropped = list(rest[0]), list(rest[1])
                j += 1
        nxt = None if expected is None else expected + 8
        end = toks[j - 1].offset + len(toks[j - 1].text)
        while j < len(toks) and len(payload) < self.max_chars:
            tok = toks[j]
            if len(payload) >= 4 and (self.strong_start(j) or (tok.line_start and self.starts_line(j, nxt))):
                break
            if tok.line_start and payload and len(payload) % 2 == 0 and not (len(tok.text) == 2 and tok.text[0] != ":"):
                break  # the physical line ended and the next does not go on with bytes
            got = _payload_cells(tok)
            if got is None:
                break
            room = self.max_chars - len(payload)
            payload += got[0][:room]
            dropped += got[1]
            j += 1
            end = tok.offset + len(tok.text)
            if len(got[0]) > room:
                break  # the rest of the word is not this line's
        raw = RawLine(cells, sep, sep_at, tuple(payload), toks[i].offset, end, tuple(dropped))
        return raw, j


# ----------------------------------------------------------------------------- repairs


@named_tuple
class Candidate:
    """A reading of a line's payload that verifies, with its cost (lower = more likely)."""

    cost: float
    digits: str  # payload + checksum hex digits
    changes: tuple[tuple[int, str, str], ...]  # (payload index, printed, meant)
    evidence: bool = False  # every change is at a character the print shows as damaged


def letter_case(lines: list[tuple[Cell, ...]]) -> str | None:
    """'lower' or 'upper': how the listing prints the hex letters A-F (None if undecided)."""
    lower = sum(c.printed in "abcdef" for cells in lines for c in cells)
    upper = sum(c.printed in "ABCDEF" for cells in lines for c in cells)
    if lower > 2 * upper and lower >= 4:
        return "lower"
    if upper > 2 * lower and upper >= 4:
        return "upper"
    return None


def _suspect(cell: Cell, case: str | None) -> bool:
    """A character that was not printed as a plain hex digit of the listing's case."""
    p = cell.printed
    if p.upper() not in HEX:
        return True
    if case == "lower" and p in "ABCDEF":
        return True
    return case == "upper" and p in "abcdef"


def _alternatives(cell: Cell, case: str | None) -> list[tuple[str, float]]:
    if cell.digit == WILDCARD:
        return [(d, WILD_COST) for d in HEX]
    factor = SUSPECT_FACTOR if _suspect(cell, case) else 1.0
    # An arbitrary misreading costs ORDINARY_COST, less than two look-alike slips: typed
    # listings (one arbitrary typo) are read by the same code.  (Costing it 4.0 puts the true
    # fix of OCR damage first a little more often - 338 instead of 333 of 378 lines in
    # bench/mse_ocr_roundtrip.py - and hides a typist's single typo behind chance pairs.)
    return [(d, char_cost(cell.printed, d) * factor) for d in HEX if d != cell.digit]


def verifies(address: int, digits: str) -> bool:
    if WILDCARD in digits or len(digits) < 4 or len(digits) % 2:
        return False
    data = bytes.fromhex(digits[:-2])
    return checksum_v1(address, data) == int(digits[-2:], 16)


LISTING_READINGS = 500_000  # readings one listing's repairs try at most (a line tries 34,695 at most)


class Budget:
    """The readings a listing's repairs may still try (*left*), and those not tried when it ran out."""

    __slots__ = ("left", "skipped")

    def __init__(self, left: int = LISTING_READINGS, skipped: int = 0):
        self.left = left
        self.skipped = skipped


def rank_fixes(address: int, cells: tuple[Cell, ...], case: str | None, limit: int = 40,
               budget: Budget | None = None) -> list[Candidate]:
    """Readings of *cells* (payload + checksum) that verify at *address*, most likely first.

    Single changes of any character; pairs of changes where each is a likely OCR confusion
    (or fills an unreadable character).  A cell printed as a look-alike letter, or as a hex
    letter in the other case than the listing's, is suspect and cheaper to change.  *budget*:
    the listing's; once spent, the readings left are counted in ``budget.skipped``, not tried.
    """
    digits = "".join(c.digit for c in cells)
    wild = [k for k, c in enumerate(cells) if c.digit == WILDCARD]
    alts = [_alternatives(c, case) for c in cells]
    found: dict[str, Candidate] = {}

    def consider(changes: list[tuple[int, str, float]], extra: float) -> None:
        if budget is not None:
            if budget.left <= 0:
                budget.skipped += 1
                return
            budget.left -= 1
        new = list(digits)
        for k, d, _ in changes:
            new[k] = d
        text = "".join(new)
        if verifies(address, text):
            cost = extra + sum(c for _, _, c in changes)
            if text not in found or cost < found[text].cost:
                evidence = all(_suspect(cells[k], case) and (cells[k].digit == WILDCARD or char_cost(cells[k].printed, d) <= AUTO_CONFUSION)
                               for k, d, _ in changes)
                found[text] = Candidate(cost, text, tuple((k, cells[k].printed, d) for k, d, _ in changes), evidence)

    if len(wild) > 2:
        return []
    if len(wild) == 2:
        a, b = wild
        for da, ca in alts[a]:
            for db, cb in alts[b]:
                consider([(a, da, ca), (b, db, cb)], 0.0)
    elif len(wild) == 1:
        (a,) = wild
        for da, ca in alts[a]:
            consider([(a, da, ca)], 0.0)
            for k in range(len(cells)):
                if k != a:
                    for dk, ck in alts[k]:
                        if ck < PAIR_COST_LIMIT:
                            consider([(a, da, ca), (k, dk, ck)], PAIR_EXTRA)
    else:
        for k in range(len(cells)):
            for dk, ck in alts[k]:
                consider([(k, dk, ck)], 0.0)
        likely = [[(d, c) for d, c in alts[k] if c < PAIR_COST_LIMIT] for k in range(len(cells))]
        for a, b in combinations(range(len(cells)), 2):
            for da, ca in likely[a]:
                for db, cb in likely[b]:
                    consider([(a, da, ca), (b, db, cb)], PAIR_EXTRA)
    ranked = sorted(found.values(), key=lambda c: (c.cost, c.digits))
    return ranked[:limit]


def confident(fixes: list[Candidate]) -> bool:
    """Take the best reading without asking: likely enough, and clearly ahead of the next."""
    if not fixes or fixes[0].cost > AUTO_MAX_COST or not fixes[0].evidence:
        return False
    best = fixes[0].cost
    # Another reading the print also shows damage for, nearly as likely: ask.  One that
    # changes clean-looking characters: ask only if it is close.
    return all(f.cost - best >= (AUTO_MARGIN if f.evidence else AUTO_MARGIN_CLEAN) for f in fixes[1:])


def transpositions(address: int, cells: tuple[Cell, ...], cost: float) -> list[Candidate]:
    """The two digits of one byte swapped (a typist's slip more than OCR's)."""
    digits = "".join(c.digit for c in cells)
    out = []
    for lo in range(0, len(digits) - 1, 2):
        a, b = digits[lo], digits[lo + 1]
        if a != b and WILDCARD not in (a, b):
            new = digits[:lo] + b + a + digits[lo + 2 :]
            if verifies(address, new):
                out.append(Candidate(cost, new, ((lo, cells[lo].printed, b), (lo + 1, cells[lo + 1].printed, a))))
    return out


def describe(address: int, cells: tuple[Cell, ...], cand: Candidate, *, swapped: bool = False) -> str:
    """The change in listing terms: ``byte at $340A: 8D instead of BD (8 read as B: ...)``."""
    printed = "".join(c.printed for c in cells)
    last = len(cells) // 2 - 1
    parts = []
    for byte in sorted({k // 2 for k, _, _ in cand.changes}):
        lo = 2 * byte
        new, old = cand.digits[lo : lo + 2], printed[lo : lo + 2]
        parts.append(f"checksum {new} instead of {old}" if byte == last else f"byte at ${address + byte:04X}: {new} instead of {old}")
    if swapped:
        return "; ".join(parts) + " (digits swapped)"
    confusions = [f"{m} read as {p}" for _, p, m in cand.changes
                  if p not in UNREADABLE and read_char(p) != WILDCARD and char_cost(p, m) < ORDINARY_COST]
    unreadable = [p for _, p, _ in cand.changes if read_char(p) == WILDCARD]
    why = []
    if confusions:
        why.append(f"{', '.join(confusions)}: common OCR confusion")
    if unreadable:
        why.append("unreadable " + ", ".join(f"'{p}'" for p in unreadable))
    return "; ".join(parts) + (f" ({'; '.join(why)})" if why else "")
