"""The near-certain misreadings of a line, read all at once (:func:`normal_edits`).

Some misreadings BASIC's grammar or the listing itself leaves one reading for: a keyword
spelled with a look-alike digit (``G0SUB``, ``CL0SE``, ``GQTO``), a digit where only a
variable can stand (``FOR 1=``, a statement ``0=0+1``), a keyword's letters set apart
(``PR I NT``, ``T 0 3``), ``;`` or ``s`` between two statements where no PRINT list goes on
(``GOSUB 500;PRINT``, ``PRINTsNEXT``), ``l`` in a line number (``GOSUB l``), ``7.`` for ``%``
after a name (``T97.=1``), an apostrophe for a quote of a one-character DATA string
(``DATA"T',999``), and a habit of the listing's (:mod:`.habits`) at a place the print
shows damage (``PTt;`` on a page that reads every '$' as 't').  Each alone is one edit the
ranking (:mod:`.rank`) finds; four of them in one line are more than its pairs and triples
reach.  Read together, they leave a line whose remaining damage the ranking can search and the
checksum confirm (read.py: only as the acceptance rules of :mod:`.verdict` allow).
"""

from __future__ import annotations

import re

from asm6502.basic.tokens import KEYWORDS
from asm6502.typein.cslisting.edits import (
    SPACED_DIGIT_WHY,
    Edit,
    apply,
    keyword_edits,
    keywords_at,
    overlaps,
    quote_flags,
    statement_before,
    suspect,
)
from asm6502.typein.cslisting.grammar import misread_data_quotes

NORMAL_COST = 0.5  # each near-certain reading (a habit's cost: the likeliest misreadings there are)
# look-alike characters OCR reads for a keyword's letters (edits.PAIRS: the cheapest confusions)
_LETTER_OF = {"0": "O", "1": "I", "5": "S", "8": "B", "6": "G", "Q": "O", "D": "O"}
_DIGIT_LETTER = {"0": "O", "1": "I", "5": "S", "8": "B"}  # a digit where a variable's letter stands
_KEYWORDS = tuple(sorted((kw for kw in KEYWORDS if kw.isalpha() and len(kw) >= 4), key=len, reverse=True))
# the keywords that open a statement: the ROM's table up to NEW ($A2), before TAB(, TO, THEN, the
# operators and the functions, which go on an expression
_STATEMENTS = tuple(sorted((kw for kw in KEYWORDS[: KEYWORDS.index("NEW") + 1] if kw.isalpha()), key=len, reverse=True))
MAX_ROUNDS = 3  # one reading may open the place of the next ('s 0=0' -> ': 0=0' -> ': O=0')
_NUMBER_AFTER = re.compile(r"(?:GOTO|GOSUB|THEN|RUN|CLOSE) *$")
_PRINTS = re.compile(r"PRINT|INPUT|\?", re.IGNORECASE)
_ASSIGNS = re.compile(r"[A-Z0158][A-Z0-9]?[$%]? *[=(]")
_WORD = re.compile(r"[A-Za-z0-9]+")
_PERCENT = re.compile(r"(?<=[A-Z])([A-Z0-9]?)7\.(?= *[=),;:]| *$)")


def _garbled_keywords(text: str, quoted: list[bool]) -> list[Edit]:
    """A keyword of four letters or more spelled with look-alikes of its letters, a digit among
    them ('G0SUB', 'CL0SE 2', 'GQTO'), followed by nothing but digits: CRUNCH reads no such word,
    a variable's name is two letters."""
    out = []
    for m in _WORD.finditer(text):
        if quoted[m.start()]:
            continue
        word = m.group(0)
        for kw in _KEYWORDS:
            head, rest = word[: len(kw)], word[len(kw) :]
            if len(head) < len(kw) or (rest and not rest.isdigit()) or head == kw:
                continue
            diff = [i for i in range(len(kw)) if head[i] != kw[i]]
            if all(_LETTER_OF.get(head[i]) == kw[i] for i in diff) and any(not head[i].isalpha() or head[i] == "Q"
                                                                          for i in diff):
                out += [Edit(m.start() + i, m.start() + i + 1, kw[i], NORMAL_COST, f"{kw} misread") for i in diff]
                break
    return out


def _variable_digits(text: str, quoted: list[bool]) -> list[Edit]:
    """A digit where BASIC reads only a variable: after FOR or NEXT, or opening a statement
    followed by '=' ('FOR 1=0', '0=0+1')."""
    out = []
    for k, c in enumerate(text):
        if c not in _DIGIT_LETTER or quoted[k]:
            continue
        before = text[:k].upper()
        after = text[k + 1 :].lstrip(" ")
        loop = re.search(r"(?:^|[: ])(?:FOR|NEXT) *$", before) is not None and after[:1] in ("=", ":", "")
        opens = not statement_before(text, k).strip() and re.match(r"[A-Z0-9]? *=", text[k + 1 :]) is not None
        if loop or opens:
            out.append(Edit(k, k + 1, _DIGIT_LETTER[c], NORMAL_COST, f"{_DIGIT_LETTER[c]} read as {c}, a variable's place"))
    return out


def _letters_apart(text: str, quoted: list[bool], upper: bool) -> list[Edit]:
    """A keyword printed with a letter of one or two apart ('PR I NT', 'T 0 3'): joined."""
    out = []
    for e in keyword_edits(text, quoted, upper):
        if e.why == SPACED_DIGIT_WHY:
            out.append(Edit(e.start, e.end, e.new, NORMAL_COST, e.why))
        elif e.why == "blanks inside a keyword":
            pieces = text[e.start : e.end].split()
            if len(pieces) >= 3 and any(len(p) <= 2 for p in pieces[1:-1]):
                out.append(Edit(e.start, e.end, e.new, NORMAL_COST, e.why))
    return out


def _statement_ends(text: str, quoted: list[bool], upper: bool) -> list[Edit]:
    """';' (outside a PRINT or INPUT list, or a second one in it), in a capital listing 's', or a
    '5' set apart, where a statement ends and a keyword or an assignment starts the next one
    ('GOSUB 500;PRINT', 'S$;;FOR', 'PRINTsNEXT', 'L=2 s 0=0', 'GOSUB 61410 5 GOTO'): ':'."""
    out = []
    for k, c in enumerate(text):
        if quoted[k] or c not in (";", "s", "5") or (c == "s" and not upper):
            continue
        if c == "5" and not (text[k - 1 : k] == " " and text[k + 1 : k + 2] == " "):
            continue
        if c == ";" and _PRINTS.search(statement_before(text, k)) and not text[:k].rstrip(" ").endswith(";"):
            continue
        after = text[k + 1 :].lstrip(" ").upper()
        left = text[:k].rstrip(" ")
        # (an assignment opens it: a name, a digit misread for its letter too, '=' or an array's '(')
        opens = after.startswith(_STATEMENTS) or _ASSIGNS.match(after) is not None
        ends = not left or left[-1] in "0123456789)\";" or left.upper().endswith(_STATEMENTS) or c == ";"
        if c == "5":  # (a digit set apart after a number is no number of it only before a keyword)
            opens = after.startswith(_STATEMENTS)
        if opens and ends and (c == ";" or k + 1 < len(text)):
            out.append(Edit(k, k + 1, ":", NORMAL_COST, f": read as {c} between two statements"))
    return out


def _line_numbers(text: str, quoted: list[bool], upper: bool) -> list[Edit]:
    """'l' (a capital listing: no small letters outside quotes) where a number stands, after
    GOTO, GOSUB, THEN, RUN or CLOSE ('GOSUB l', 'CLOSE l'): '1'."""
    return [Edit(k, k + 1, "1", NORMAL_COST, "1 read as l, a number's place")
            for k, c in enumerate(text) if upper and c == "l" and not quoted[k]
            and _NUMBER_AFTER.search(text[:k].upper()) and not text[k + 1 : k + 2].isupper()]


def _percent(text: str, quoted: list[bool]) -> list[Edit]:
    """'7.' after a name where the name ends ('T97.= 1'): a name holds no '.', the '%' of an
    integer variable OCR read as two characters."""
    return [Edit(m.end() - 2, m.end(), "%", NORMAL_COST, "% read as 7.") for m in _PERCENT.finditer(text)
            if not quoted[m.start()]]


DATA_QUOTE_WHY = "a DATA string's quote read as an apostrophe"


def _data_quotes(text: str) -> list[Edit]:
    """An apostrophe for a quote of a one-character DATA string (``DATA"T',999``): '"'
    (:func:`.grammar.misread_data_quotes`)."""
    return [Edit(k, k + 1, '"', NORMAL_COST, DATA_QUOTE_WHY) for k in misread_data_quotes(text)]


_NAME_END = re.compile(r"(?<![A-Za-z0-9$])[A-Z][A-Z0-9]?$")


def _habits(text: str, upper: bool, habits: frozenset[tuple[str, str]], quoted: list[bool]) -> list[Edit]:
    """A habit of the listing's at every place outside quotes and keywords where the print shows
    damage (:func:`.edits.suspect`); one standing for '$' only where a string's '$' stands, after
    a name of one or two characters, before what ends a name ('PTt;', 'CHRt(', 'ASC(NT)')."""
    inside = keywords_at(text)
    out = []
    for c, m in sorted(habits):
        for k, d in enumerate(text):
            if d != c or quoted[k] or k in inside:
                continue
            if m == "$":
                name = _NAME_END.search(text[:k]) is not None or text[:k].upper().endswith(_FUNCTIONS)
                if not (name and text[k + 1 : k + 2] in ("", *'(=,;:)"+<> ')):
                    continue
            elif not suspect(text, k, upper):
                continue
            out.append(Edit(k, k + 1, m, NORMAL_COST, f"{m} read as {c}, as in the listing's other lines"))
    return out


_FUNCTIONS = ("CHR", "STR", "MID", "LEFT", "RIGHT")  # the string functions, their '$' misread ('CHRt(')


def normal_edits(text: str, upper: bool, habits: frozenset[tuple[str, str]] = frozenset()) -> tuple[Edit, ...]:
    """The near-certain readings of *text*, in up to MAX_ROUNDS rounds (each read on the text the
    rounds before made), as edits of *text*."""
    total: tuple[Edit, ...] = ()
    for _ in range(MAX_ROUNDS):
        found = _one_round(apply(text, total), upper, habits)
        if not found:
            break
        total = compose(text, total, found)
    return total


def _one_round(text: str, upper: bool, habits: frozenset[tuple[str, str]]) -> tuple[Edit, ...]:
    """The near-certain readings of *text*, none overlapping another (the first found wins, in
    the order of the classes above), left to right."""
    quoted = quote_flags(text)
    found = (_garbled_keywords(text, quoted) + _letters_apart(text, quoted, upper) + _variable_digits(text, quoted)
             + _statement_ends(text, quoted, upper) + _line_numbers(text, quoted, upper) + _percent(text, quoted)
             + _habits(text, upper, habits, quoted) + _data_quotes(text))
    taken: list[Edit] = []
    for e in found:
        if not any(overlaps(e, t) for t in taken):
            taken.append(e)
    return tuple(sorted(taken, key=lambda e: e.start))


def compose(printed: str, first: tuple[Edit, ...], then: tuple[Edit, ...]) -> tuple[Edit, ...]:
    """Edits of *printed* that make what *then* makes of ``apply(printed, first)``: an edit of
    *then* that touches one of *first* becomes one edit with it."""
    # (each edit of *first* as a region of the new text: start, end, and the shift before it)
    regions, shift = [], 0
    for e in sorted(first, key=lambda e: e.start):
        regions.append((e.start + shift, e.start + shift + len(e.new), e))
        shift += len(e.new) - (e.end - e.start)
    new_text = apply(printed, first)

    def to_printed(pos: int) -> int:
        back = 0
        for lo, hi, e in regions:
            if hi <= pos:
                back += len(e.new) - (e.end - e.start)
        return pos - back

    groups: list[list] = []  # [lo, hi, firsts, thens] in the new text's places
    for lo, hi, e in regions:
        groups.append([lo, hi, [e], []])
    for t in sorted(then, key=lambda e: e.start):
        touching = [g for g in groups if g[0] < max(t.end, t.start + 1) and t.start < max(g[1], g[0] + 1)
                    or g[0] == t.start]
        merged = [min([t.start, *(g[0] for g in touching)]), max([t.end, *(g[1] for g in touching)]),
                  [x for g in touching for x in g[2]], [x for g in touching for x in g[3]] + [t]]
        groups = [g for g in groups if not any(g is x for x in touching)] + [merged]
    out = []
    for lo, hi, firsts, thens in groups:
        if not thens:
            out.extend(firsts)
            continue
        span_lo, span_hi = to_printed(lo), to_printed(hi)
        new = apply(new_text[lo:hi], tuple(Edit(e.start - lo, e.end - lo, e.new, e.cost, e.why) for e in thens))
        whys = ", ".join(dict.fromkeys(e.why for e in firsts + thens))
        out.append(Edit(span_lo, span_hi, new, sum(e.cost for e in firsts + thens), whys))
    return tuple(sorted(out, key=lambda e: e.start))


__all__ = ["DATA_QUOTE_WHY", "NORMAL_COST", "compose", "normal_edits"]
