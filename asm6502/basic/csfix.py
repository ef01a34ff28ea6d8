"""A printed BASIC line as the C64 stores it, and ranked repairs that make its checksum match.

The text of a listing line as typed or OCR'd goes through three readings before it is
tokenized (:func:`line_body`):

1. control-code names as 64'er printed them and OCR read them: ``{CLR}``, ``<CLR,DOWN>``,
   ``{HOME, 2D0WNI`` (the closing brace read as ``I``, O as 0), ``C8SPACE,WHITE }`` (the
   opening brace read as ``C``) become petcat names (:func:`normalize_controls`);
2. typographic quotes become ``"``;
3. an all-capital listing is read with capitals as the unshifted letters (``case.from_capitals``).

A line whose checksum does not match gets candidate edits, each with a cost (lower = more
likely), single edits and pairs of likely ones; an edit list whose line verifies is a fix
(:func:`rank_fixes`).  The kinds of edit are the misreadings found in 64'er print: OCR confusions
(O/0, l/1/I, B/8, S/5, ``"``/``''``, ``;``/``:``, ``,``/``.``), a keyword with one letter
misread (``PRJNT``), blanks inside a keyword (``PR I NT``, ``GO TO`` -- the C64 stores
``go to`` as GO TO, not GOTO), an unreadable character (a graphics or shifted character
printed as a symbol OCR has no letter for), a stray speck, and the printed checksum itself
misread (``<087>`` for ``<067>``).  From real 64'er print too: a shifted letter or
graphics character inside quotes solved from the checksum (:mod:`asm6502.basic.csglyph`), a rule
of dashes whose length OCR cannot count, one glyph's misreading swept over a line as one decision,
and a higher cost for a reading that leaves the print's damage unexplained.  A
second ranking of the lines still bad (``deep``, offered only): the listing's own confusions
learned from its sure repairs (:func:`learn`), three misreadings, a likely with a less likely
one, an underlined capital read as two characters, and both rules of a REM counted wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations, product

from asm6502 import petscii
from asm6502.basic import csglyph
from asm6502.basic.case import from_capitals
from asm6502.basic.checksummer import ChecksumOptions, line_checksum
from asm6502.basic.tokenizer import crunch
from asm6502.basic.tokens import KEYWORDS
from asm6502.mse import ORDINARY_COST, char_cost

# --------------------------------------------------------------------------- reading a line
_OPENERS = "<{[(C"
_CLOSERS = ">})]I?"
_STRONG_CLOSERS = ">})]"
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"'})


def _ocr_name(item: str) -> str:
    """A control name as OCR read it: count digits kept, O read as 0 in the name."""
    m = re.match(r"^\s*(\d*)\s*(.*?)\s*$", item, re.DOTALL)
    assert m is not None  # every string matches
    count, name = m.group(1), m.group(2)
    return count + name.replace("0", "O").replace(" ", "")


def _name_codes(inner: str, numeric_ok: bool) -> list[int] | None:
    codes: list[int] = []
    for item in inner.split(","):
        if not item.strip():
            return None
        if not numeric_ok and re.fullmatch(r"\s*\$?[0-9a-fA-F]*\s*", item):
            return None  # "(13)" is CHR$(13)'s argument, not a control code
        got = petscii.parse_brace(item) or petscii.parse_brace(_ocr_name(item))
        if got is None:
            return None
        codes += [got[0]] * got[1]
    return codes


def _spelled(codes: list[int]) -> str:
    out, k = [], 0
    while k < len(codes):
        n = 1
        while k + n < len(codes) and codes[k + n] == codes[k]:
            n += 1
        name = petscii.escape(codes[k])[1:-1]
        out.append("{" + (f"{n} {name}" if n > 1 else name) + "}")
        k += n
    return "".join(out)


Names = dict[tuple[str, bool], "list[int] | None"]  # a line's control names already read


def control_spans(text: str, names: Names | None = None) -> list[tuple[int, int, list[int]]]:
    """Where *text* (quotes already plain) spells control codes: (start, end, codes).  *names*:
    the names read before (the readings of one line repeat them)."""
    names = {} if names is None else names
    spans: list[tuple[int, int, list[int]]] = []
    i = 0
    quote = False
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            quote = not quote
        if c in _OPENERS and (quote or c in "<{["):
            found = None
            for j in range(i + 1, min(n, i + 40)):
                d = text[j]
                if d == '"' or (d in "<{" and j > i + 1):
                    break
                if d not in _CLOSERS:
                    continue
                key = (text[i + 1 : j], c == "{")
                if key not in names:
                    names[key] = _name_codes(*key)
                codes = names[key]
                if codes:
                    found = (i, j + 1, codes)
                    break
                if d in _STRONG_CLOSERS:
                    break
            if found:
                spans.append(found)
                i = found[1]
                continue
        i += 1
    return spans


def plain_quotes(text: str) -> str:
    return text.replace("''", '"').translate(QUOTES)


def normalize_controls(text: str, names: Names | None = None) -> str:
    """Control-code names in any of the bracket spellings OCR gives, as petcat ``{name}``s."""
    text = plain_quotes(text)
    out, last = [], 0
    for i, j, codes in control_spans(text, names):
        out.append(text[last:i] + _spelled(codes))
        last = j
    return "".join(out) + text[last:]


def petcat_text(text: str, upper: bool, names: Names | None = None) -> str:
    """A printed line's text (after its number) as petcat text."""
    text = normalize_controls(text, names)
    return from_capitals(text) if upper else text


def line_body(text: str, upper: bool) -> bytes | None:
    """The bytes the C64 stores for a printed line's text; None if it has unknown names."""
    return statement_bodies(text, upper, {})


def _statements(plain: str) -> list[str]:
    """*plain* (quotes plain) cut at each ':' outside quotes, up to a REM: CRUNCH ($A579) leaves
    quotes and DATA at a ':' outside quotes, so each statement is tokenized as if it began the
    line.  One piece when a '{$..}' could be a quote or colon written as a code."""
    if "{$" in plain:
        return [plain]
    out, last, quote = [], 0, False
    upper = plain.upper()
    for k, c in enumerate(plain):
        if c == '"':
            quote = not quote
        elif not quote:
            if c == ":":
                out.append(plain[last:k])
                last = k + 1
            elif c in "Rr" and upper.startswith("REM", k):
                break  # (any case: a REM ends the cutting, whichever letters it is)
    out.append(plain[last:])
    return out


_CHUNK = re.compile(r"(\{[^{}]*\}|[{}]|[^{},]+,?|,)")


def _pieces(petcat: str, chunks: dict[str, list[petscii.Piece] | None]) -> list[petscii.Piece] | None:
    """``petscii.parse_text`` of *petcat* (None on an error), read in chunks -- each control
    name, and the text between them cut after each ',': the text is read one character or one
    ``{...}`` at a time, so the chunks' pieces make the whole's (their columns aside, which
    tokenizing does not use), and a reading of a line that changes one place reads one chunk."""
    out: list[petscii.Piece] = []
    for chunk in _CHUNK.findall(petcat):
        if chunk not in chunks:
            pieces, errors = petscii.parse_text(chunk)
            chunks[chunk] = None if errors else pieces
        got = chunks[chunk]
        if got is None:
            return None
        out += got
    return out


def statement_bodies(text: str, upper: bool, cache: dict[str, bytes | None],
                     chunks: dict[str, list[petscii.Piece] | None] | None = None,
                     names: Names | None = None) -> bytes | None:
    """:func:`line_body`, each statement tokenized once per line read (*cache*: statement text ->
    bytes): the readings of a line differ in one or two places, so most of its statements
    repeat (tokenizing them again and again would be a large share of ``basic read``'s time)."""
    chunks = {} if chunks is None else chunks
    parts = _statements(plain_quotes(text))
    parts[0] = parts[0].lstrip(" ")
    parts[-1] = parts[-1].rstrip(" ")
    out = []
    for part in parts:
        if part not in cache:
            pieces = _pieces(petcat_text(part, upper, names), chunks)
            cache[part] = None if pieces is None else crunch(pieces).body
        body = cache[part]
        if body is None:
            return None
        out.append(body)
    return b":".join(out)


def checksum_of(number: int, text: str, upper: bool, options: ChecksumOptions) -> int | None:
    body = line_body(text, upper)
    return None if body is None else line_checksum(number, body, options)


# --------------------------------------------------------------------------- edits
@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new: str
    cost: float
    why: str  # "0 read as O", "blanks in a keyword", ...


@dataclass(frozen=True)
class Fix:
    cost: float
    text: str  # the corrected line text (as printed: same case and spelling)
    edits: tuple[Edit, ...]
    evidence: bool  # every change is where the print shows damage
    checksum: int | None = None  # set when the fix is "the checksum was misread"


# Printed -> meant, with a cost; symmetric pairs are listed once in PAIRS.
PAIRS: tuple[tuple[str, str, float], ...] = (
    ("0", "O", 1.0), ("1", "I", 1.0), ("8", "B", 1.0), ("5", "S", 1.0), (";", ":", 1.0), (",", ".", 1.0),
    ("2", "Z", 1.5), ("6", "G", 1.5), ("0", "D", 1.5), ("O", "D", 1.5), ("O", "Q", 1.5), ("E", "F", 2.0),
    ("H", "N", 2.0), ("M", "N", 2.0), ("U", "V", 2.0), ("C", "G", 2.0), ("7", "T", 2.0), ("P", "F", 2.0),
    ("R", "K", 2.0), ("3", "8", 2.0), ("6", "8", 2.0), ("1", "7", 2.0), ("+", "-", 2.0), ("'", '"', 1.5),
)
ONE_WAY: tuple[tuple[str, str, float], ...] = (
    ("l", "1", 1.0), ("l", "I", 1.0), ("|", "1", 1.0), ("|", "I", 1.0), ("!", "1", 1.5), ("!", "I", 1.5),
    ("#", "$", 1.0), ("^", "$", 1.5), ("*", "$", 2.0), ("&", "$", 2.0), ("s", "$", 2.0), ("t", "$", 2.0),
    ("\u2014", "-", 1.0), ("\u2013", "-", 1.0), ("\u00bb", ",", 1.5), ("i", "1", 1.5),
    ("=", ":", 1.5), ("T", "^", 1.5),  # ':' alone on a line read as '='; the up-arrow (power) read as T
    ("t", "^", 1.5), ("f", "^", 1.5),  # ... or as t or f (10/85 p. 32 line 920: '" t MAX."' for '" ^ max."')
    ("C", "(", 1.5), (">", ")", 1.5),  # round brackets read as C and > (10/85 p. 55: 'CHR$CX)', 'LEN(Al$(I) >>')
    ("s", ":", 1.5), ("j", "I", 1.5),  # 10/85 p. 55 lines 290, 320 ('s' for ':'), p. 131 line 570 ('jR' for IR)
    ("-", ":", 2.0), ("-", ".", 2.0),  # a dot's speck drawn out (10/85 p. 132 line 250 '1 - CL', p. 131 line 350 'K-')
)
STRAYS = ".,'`-\u2019\u2018"
LOST_COLON_COST = 1.0
LONE_COLON_COST = 1.5
UNDERLINED = "\u00a3^#&@"  # what OCR made of an underlined (shifted) capital inside quotes
MAX_UNKNOWN = 2  # a line with more unreadable characters than this cannot be fixed by one or two changes
UNKNOWN_COST = 2.5
STRAY_COST = 2.0
KEYWORD_LETTER_COST = 2.0
JOIN_COST = 1.0
PAIR_EXTRA = 0.5
LIKELY = 1.0  # moves that may be paired
MAX_PAIR_EDITS = 24
SUSPECT_FACTOR = 0.5


def _confusions() -> dict[str, list[tuple[str, float]]]:
    table: dict[str, list[tuple[str, float]]] = {}
    for a, b, cost in PAIRS:
        table.setdefault(a, []).append((b, cost))
        table.setdefault(b, []).append((a, cost))
    for a, b, cost in ONE_WAY:
        table.setdefault(a, []).append((b, cost))
    return table


CONFUSIONS = _confusions()
_ALNUM = re.compile(r"[A-Za-z0-9]")


TYPOGRAPHIC_QUOTES = "\u201c\u201d\u201e\u2033"  # the quote mark; OCR's '\u00ab' and '\u00bb' are commas as often


def readable(c: str) -> bool:
    """*c* stands for a PETSCII character (a typographic quote is the quote mark)."""
    return petscii.char_to_petscii(c) is not None or c in "{}" or c in TYPOGRAPHIC_QUOTES


def _quoted(text: str) -> list[bool]:
    """For each character: inside quotes (or after REM), where keywords are not crunched."""
    out, quote, rem = [], False, False
    text = plain_quotes(text) if len(plain_quotes(text)) == len(text) else text
    upper = text.upper()
    for k, c in enumerate(text):
        if not quote and not rem and upper.startswith("REM", k):
            rem = True
        out.append(quote or rem)
        if c == '"':
            quote = not quote
    return out


def quoted_at(text: str, k: int) -> bool:
    return _quoted(text)[k]


def suspect(text: str, k: int, upper: bool) -> bool:
    """The print shows damage at text[k]: a character of the wrong class for its neighbours
    (a digit inside a word, a letter inside a number), a lower-case letter in a capital
    listing, a character with no PETSCII code."""
    c = text[k]
    if not readable(c):
        return True
    if upper and c.islower():
        return True
    if upper and c in UNDERLINED and _quoted(text)[k] and ((k + 1 < len(text) and text[k + 1].isalpha())
                                                         or (k and text[k - 1].isalpha())):
        return True  # "£ISKETTE": a shifted D printed underlined
    if c in "#^*&t" and k and text[k - 1].isalnum() and (k + 1 == len(text) or text[k + 1] in "(=,;:)\"+ "):
        return c != "t" or text[k - 1].isupper()  # G# for G$, A2*(72) for A2$(72), CHRt(146)
    left = text[k - 1] if k else " "
    right = text[k + 1] if k + 1 < len(text) else " "
    if c in STRAYS and (not text[k + 1 :].strip() or (c in ".," and left.isdigit() and right == " ")) \
            and not _quoted(text)[k]:
        return True  # a speck at the line's end or after a number ('360 :\'', 'W=41. THEN'; 10/85 p. 54)
    if c == "!" and not _quoted(text)[k]:
        return True  # '!' outside quotes is no BASIC ('0,-!' for '0,-1'; 10/85 p. 56)
    if c != "(" and _FUNCTION_BEFORE.search(text[:k]) and not _quoted(text)[k]:
        return True  # a function's '(' misread ('CHR$CX)'; 10/85 p. 55)
    if c.isdigit() and k >= 2 and k + 2 < len(text) and left == " " == right and text[k - 2].isalpha() \
            and text[k + 2].isalpha():
        return True  # a letter of a word set letter-spaced ('C 0 D E S C H L 0 S S'; 10/85 p. 132)
    if c == ";" and not _quoted(text)[k] and not _PRINTS.search(_statement_before(text, k)):
        return True  # ';' belongs to PRINT and INPUT only ('FOR 1=1 TO 23;O$=...', 10/85 p. 54)
    if c.isdigit() and (not text[:k].strip() or text[:k].rstrip().endswith(":")) \
            and not _statement_before(text, k).strip() and not _quoted(text)[k]:
        return True  # a statement never begins with a digit ('8 F=ASC(...)' for ':  F=...'; 9/85 p. 70)
    if c.isdigit():
        if re.search(r"(?:FOR|NEXT) *$", text[:k].upper()) and not quoted_at(text, k):
            return True  # a variable's place: 'FOR 1=1 TO 23' is FOR I
        return (left.isalpha() or right.isalpha()) and not (left.isdigit() or right.isdigit())
    if c.isalpha() and c in "OIlSBZGDQT":
        return left.isdigit() or (right.isdigit() and not left.isalpha())
    return not text.strip(" ").strip(c)  # a line that is one character like '=' is no statement


_FUNCTION_BEFORE = re.compile(r"(?<![A-Za-z])(?:CHR\$|LEFT\$|RIGHT\$|MID\$|STR\$|VAL|ASC|LEN|PEEK|SGN|INT|ABS|USR|FRE|POS|SQR|RND"
                              r"|LOG|EXP|COS|SIN|TAN|ATN) *$")
_PRINTS = re.compile(r"PRINT|INPUT|CMD|\?", re.IGNORECASE)


def _statement_before(text: str, k: int) -> str:
    """The statement *text*[k] stands in, up to k (from the last ':' outside quotes)."""
    quoted = _quoted(text)
    start = 0
    for i in range(k):
        if text[i] == ":" and not quoted[i]:
            start = i + 1
    return text[start:k]


def candidate_edits(text: str, upper: bool, learned: frozenset[tuple[str, str]] = frozenset()) -> list[Edit]:
    """Single edits of *text*; a confusion in *learned* (this page's OCR made it in sure repairs,
    :func:`learn`) costs less."""
    edits: list[Edit] = []
    quoted = _quoted(text)
    inside: set[int] = set()
    if text == plain_quotes(text):  # (offsets agree)
        for i, j, _ in control_spans(text):
            inside.update(range(i, j))
    unknown = sum(not readable(c) for c in text)
    for k, c in enumerate(text):
        if k in inside:
            continue
        sus = suspect(text, k, upper)
        factor = SUSPECT_FACTOR if sus else 1.0
        options = CONFUSIONS.get(c, []) if c != "-" or "-" not in text[k - 1 : k] + text[k + 1 : k + 2] else []
        # (a dash beside a dash is a rule's: its length is a rule edit)
        if c.isalpha() and c.islower() and not upper:
            options = options + [(m.lower(), cost) for m, cost in CONFUSIONS.get(c.upper(), ())]
        if not upper:  # petcat text: the unshifted letters are the lower-case ones
            options = [(m.lower(), cost) for m, cost in options if m.isalpha() and m.isupper()] + options
        for m, cost in options:
            if upper and m.isalpha() and m.islower():
                continue
            cost *= LEARNED_FACTOR if sus and (c, m) in learned else 1.0  # where the print shows damage
            edits.append(Edit(k, k + 1, m, cost * factor, f"{m} read as {c}"))
        if upper and c.isalpha() and c.islower() and c.upper() not in (e.new for e in edits if e.start == k):
            edits.append(Edit(k, k + 1, c.upper(), 1.0 * factor, f"{c.upper()} read as {c}"))
        if not readable(c) and unknown <= MAX_UNKNOWN:
            for m in _replacements(upper):
                edits.append(Edit(k, k + 1, m, UNKNOWN_COST, f"unreadable '{c}'"))
            edits.append(Edit(k, k + 1, "", STRAY_COST, f"stray '{c}'"))
        elif c in STRAYS and not (c == "-" and "-" in (text[k - 1 : k] + text[k + 1 : k + 2])):
            # (a dash beside a dash is a rule's: its length is a rule edit)
            edits.append(Edit(k, k + 1, "", STRAY_COST * factor, f"stray '{c}'"))
    edits += _keyword_edits(text, quoted, upper)
    if not text.strip():  # typing a bare number deletes a line: the print had something, mostly ':'
        edits.append(Edit(0, len(text), ":", LOST_COLON_COST, "':' not read"))
    elif len(text.strip()) == 1 and text.strip() not in ":=" and unknown == 0:
        # a line of one mark is no statement: 64'er set off a program's parts with ':' lines,
        # OCR reads the lone ':' as '=' (ONE_WAY) or as '1' (10/85 p. 131 line 670: '670 1 <138>')
        edits.append(Edit(0, len(text), ":", LONE_COLON_COST, f": read as {text.strip()}"))
    return edits


def _replacements(upper: bool) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return (letters if upper else letters.lower()) + "0123456789$:;,.\"'()+-*/=<> " + ("" if not upper else letters.lower())


def _keyword_edits(text: str, quoted: list[bool], upper: bool) -> list[Edit]:
    """Blanks inside a keyword (``PR I NT``, ``GO TO``) and one misread letter in a keyword."""
    out: list[Edit] = []
    for m in re.finditer(r"[A-Za-z$#]+(?: +[A-Za-z$#(]+)+", text):
        if quoted[m.start()]:
            continue
        joined = _join_keyword_blanks(m.group(0))
        if joined != m.group(0):
            out.append(Edit(m.start(), m.end(), joined, JOIN_COST, "blanks inside a keyword"))
    for m in re.finditer(r"[A-Za-z]{3,}", text):
        if quoted[m.start()]:
            continue
        word = m.group(0).upper()
        for kw in KEYWORDS:
            if len(kw) < 3 or not kw.isalpha() or len(kw) > len(word):
                continue
            for off in range(len(word) - len(kw) + 1):
                part = word[off : off + len(kw)]
                diff = [i for i in range(len(kw)) if part[i] != kw[i]]
                if len(diff) == 1:
                    k = m.start() + off + diff[0]
                    new = kw[diff[0]] if (upper or text[k].isupper()) else kw[diff[0]].lower()
                    cost = KEYWORD_LETTER_COST * (SUSPECT_FACTOR if suspect(text, k, upper) else 1.0)
                    out.append(Edit(k, k + 1, new, cost, f"{kw} misread"))
    return out


def _join_keyword_blanks(run: str) -> str:
    """*run* without the blanks that fall inside a keyword (``PRIN T TAB(`` -> ``PRINT TAB(``);
    the blanks between words stay (the C64 stores them)."""
    letters, blank_before = [], []  # blank_before[i]: blanks before letters[i]
    pending = 0
    for c in run:
        if c == " ":
            pending += 1
        else:
            letters.append(c)
            blank_before.append(pending)
            pending = 0
    joined = "".join(letters).upper()
    drop = [False] * len(letters)
    i = 0
    while i < len(joined):  # left to right, the first keyword in table order, as CRUNCH reads
        kw = next((k for k in KEYWORDS if joined.startswith(k, i)), None)
        if kw is None:
            i += 1
            continue
        for k in range(i + 1, i + len(kw)):
            drop[k] = True
        i += len(kw)
    return "".join((" " * blank_before[i] if not drop[i] else "") + c for i, c in enumerate(letters)) + " " * pending


def keyword_join(text: str, number: int, printed: int, upper: bool, options: ChecksumOptions) -> tuple[Fix, str] | None:
    """A line that verifies as printed with a blank inside a keyword (``PRIN T``) and verifies
    with the keyword whole too -- the Checksummer skips blanks and the token happens to sum the
    same as its letters: the keyword is taken (the blank is OCR damage)."""
    edits = tuple(e for e in _keyword_edits(text, _quoted(text), upper) if e.why == "blanks inside a keyword")
    if not edits:
        return None
    new = apply(text, edits)
    body = line_body(new, upper)
    if body is None or line_checksum(number, body, options) != printed:
        return None
    fix = Fix(sum(e.cost for e in edits), new, edits, True)
    return fix, describe(text, fix, printed)


def apply(text: str, edits: tuple[Edit, ...]) -> str:
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: e.start] + e.new + text[e.end :]
    return text


SWEEP_EACH = 0.1  # one misreading repeated all over a line (OCR read every 1 of "-1" as l)


def _sweeps(text: str, edits: list[Edit], upper: bool) -> list[tuple[tuple[Edit, ...], float]]:
    """The same confusion at every place the print shows it, as one move."""
    groups: dict[tuple[str, str], list[Edit]] = {}
    for e in edits:
        if e.end == e.start + 1 and len(e.new) == 1 and e.why == f"{e.new} read as {text[e.start]}" \
                and suspect(text, e.start, upper):
            groups.setdefault((text[e.start], e.new), []).append(e)
    # one decision (this glyph is that character) made once, whatever the number of places
    return [(tuple(es), min(e.cost for e in es) + SWEEP_EACH * (len(es) - 1)) for es in groups.values() if len(es) >= 2]


MIXED_READING_COST = 1.0  # OCR reads one glyph one way within a line: 'll' is '11', rarely 'LI'


def _mixed(text: str, edits: tuple[Edit, ...]) -> bool:
    """The edits read one printed character two ways ('ll' as 'LI')."""
    readings: dict[str, set[str]] = {}
    for e in edits:
        if e.end == e.start + 1 and len(e.new) == 1:
            readings.setdefault(text[e.start], set()).add(e.new)
    return any(len(v) > 1 for v in readings.values())


def _overlap(a: Edit, b: Edit) -> bool:
    return a.start < b.end and b.start < a.end or a.start == b.start


DAMAGE_LEFT_COST = 1.0
# readings the print cannot confirm (a glyph solved from the checksum, a rule's length): offered only
UNREADABLE_KINDS = ("underlined", "a rule of")
LIKELY_SWEEP = 1.5  # a sweep of a few places may be paired too (F0R F=1 TO ll: 0 for O and both l for 1)
MAX_GLYPH_PLACES = 12
DEEP_CONTEXTS = 6  # the cheapest readings paired before a solved glyph


def _glyph_fixes(number: int, text: str, printed: int, upper: bool, options: ChecksumOptions,
                 likely: list[tuple[tuple[Edit, ...], float]], consider: Callable[..., None],
                 body_of: Callable[[str], bytes | None], deep: bool = False) -> None:
    """A shifted letter or graphics character inside quotes that OCR misread (csglyph), alone,
    after a likely edit elsewhere, or with another word's first letter shifted as printed.
    *deep*: also an underlined capital read as two characters, and after two such readings."""
    plain = plain_quotes(text)
    if len(plain) != len(text):
        return
    skip = {k for i, j, _ in control_spans(plain) for k in range(i, j)}
    found_places = csglyph.places(plain, _quoted(plain), skip, upper)[:MAX_GLYPH_PLACES]
    if deep:
        found_places += csglyph.two_character_places(plain, _quoted(plain), skip, upper)[:MAX_GLYPH_PLACES]
    if not found_places:
        return

    def checksum(candidate: str) -> int | None:
        body = body_of(candidate)
        return None if body is None else line_checksum(number, body, options)

    def glyph_move(base: str, place: csglyph.Place) -> tuple[tuple[Edit, ...], float] | None:
        code = csglyph.solve(base, place.index, printed, options.version == 3, checksum, place.width)
        c = text[place.index : place.index + place.width]
        if code is None or code not in place.allowed or (place.width == 1 and code == petscii.char_to_petscii(
                from_capitals(c) if upper else c)):
            return None
        new = csglyph.spelled(code, upper)
        cost = csglyph.cost(place, code, c) * (SUSPECT_FACTOR if suspect(text, place.index, upper) else 1.0)
        what = "graphics character" if code not in csglyph.SHIFTED_LETTERS else "shifted letter"
        return (Edit(place.index, place.index + place.width, new, cost, f"underlined ({what}) {new} read as '{c}'"),), cost

    for place in found_places:
        move = glyph_move(text, place)
        if move:
            consider((move,), 0.0)
    contexts = [m for m in likely if all(e.end - e.start == len(e.new) for e in m[0])]
    for p in found_places:
        if p.kind != "initial":
            continue
        c = text[p.index]
        for meant in c + csglyph.UNDERLINE_READS.get(c.upper(), ""):
            new = meant.lower() if upper else meant.upper()
            why = "itself" if meant == c else f"'{c}'"
            contexts.append(((Edit(p.index, p.index + 1, new, csglyph.SAME_LETTER_COST,
                                   f"underlined (shifted letter) {meant} read as {why}"),), csglyph.SAME_LETTER_COST))
    if deep:  # two readings before the solved one (10/85 p. 32 line 450: CL0SE l, "lYE." for "Bye.")
        singles = sorted((m for m in contexts if len(m[0]) == 1), key=lambda m: m[1])[:DEEP_CONTEXTS]
        for a, b in combinations(singles, 2):
            if not _overlap(a[0][0], b[0][0]):
                both = (a[0] + b[0], a[1] + b[1] + PAIR_EXTRA)
                consider((both,), 0.0, offered=True)
                contexts.append(both)
    for context in contexts:
        base = apply(text, context[0])
        for place in found_places:
            if any(e.start < place.index + place.width and place.index < max(e.end, e.start + 1) for e in context[0]):
                continue
            move = glyph_move(base, place)
            if move:
                consider((context, move), PAIR_EXTRA, offered=len(context[0]) > 1)


REM_RULE_COST = 2.0  # the length of a printed rule of dashes is hard to read ...
RULE_DASH_COST = 0.05  # ... but OCR counts closer more often than not (10/85 p. 54: 7 for 6, 27 for 19)
RULE_MORE_COST = 0.1  # ... and reads more dashes than printed, not fewer (p. 54-56: 7/6, 27/19, 36/24, 26/25, 28/16)


def _rule_cost(n: int, have: int) -> float:
    """A rule read as *have* marks that is *n* long; a rule is never read for fewer than half
    its marks, nor a printed rule for one mark or none (REM_RULE_COST + inf: not tried)."""
    return REM_RULE_COST + (RULE_DASH_COST * (have - n) if n <= have else RULE_MORE_COST * (n - have))
REM_RULE_MORE = 20  # lengths tried beyond the one read
REM_RULE_LOST = 40  # a rule OCR lost at a REM's end: up to this long
_RULE = re.compile(r"-{2,}|\u2014|\u2013")


def _rem_rule_edits(text: str) -> tuple[list[Edit], list[Edit]]:
    """A rule of dashes (or dots, stars) as 64'er printed it to set off a program's parts or to
    pad a screen line is a line OCR cannot count: it reads more or fewer of them, an em dash for
    two, or loses a REM's rule at its end (10/85 p. 54-56, Schreiberling lines 5-1864 and 320;
    p. 131 line 130).  (rule edits, em dashes read for two dashes)."""
    quoted = _quoted(text)
    start = next((k for k in range(len(text)) if quoted[k] and text.upper().startswith("REM", k)
                  and (k == 0 or not quoted[k - 1])), None)
    out: list[Edit] = []
    dashes: list[Edit] = []
    # inside quotes: a run of four or more (a short one is likely what was typed)
    quote_end = len(text) if start is None else start
    for m in _QUOTED_RULE.finditer(text[:quote_end]):
        if quoted[m.start()] and quoted[m.end() - 1]:
            have = len(m.group(0))
            for n in range(max(1, have // 2), have + REM_RULE_MORE + 1):
                if n != have:  # (OCR reads a rule longer, not shorter: _rule_cost, as in a REM)
                    out.append(Edit(m.start(), m.end(), m.group(0)[0] * n, _rule_cost(n, have),
                                    f"a rule of {n} '{m.group(0)[0]}' read as {have}"))
    if start is None:
        return out, dashes
    body = text[start + 3 :]
    for m in _RULE.finditer(body):
        lo, hi = start + 3 + m.start(), start + 3 + m.end()
        if m.group(0)[0] != "-":
            dashes.append(Edit(lo, hi, "--", SUSPECT_FACTOR, "two dashes read as one long one"))
        have = len(m.group(0)) if m.group(0)[0] == "-" else 2
        for n in range(max(0, have // 2) if have > 2 else 0, have + REM_RULE_MORE + 1):
            if n != have or m.group(0)[0] != "-":
                out.append(Edit(lo, hi, "-" * n, _rule_cost(n, have),
                                f"a rule of {n} dashes read as {len(m.group(0))}"))
    gaps = [start + 3 + m.start() + 1 for m in re.finditer(r" {2,}(?=\S)", body)]  # 'REM *   *'
    if not body.rstrip().endswith(("-", "\u2014", "\u2013")):
        gaps.append(len(text.rstrip()))
    for at in gaps:
        for n in range(1, REM_RULE_LOST + 1):
            out.append(Edit(at, at, " " + "-" * n + " ", REM_RULE_COST, f"a rule of {n} dashes not read"))
    return out, dashes


_QUOTED_RULE = re.compile(r"-{4,}|\.{4,}|\*{4,}")
# blanks between two control names (or a name and a quote) inside quotes: nothing else printed there
_QUOTED_GAP = re.compile(r"(?<=[>}\]I])( +)(?=[<{\[])|(?<=\")( +)(?=[<{\[])|(?<=[>}\]])( +)(?=\")")


def _quoted_gap_rules(text: str) -> list[Edit]:
    """A rule of dashes printed inside quotes between two control codes, that OCR lost and left
    a blank for (10/85 p. 132 line 350: '"<5RIGHT> <CYAN>"' for 11 dashes between them): every
    length up to REM_RULE_LOST, offered only (a blank between control codes is mostly typed)."""
    quoted = _quoted(text)
    out = []
    for m in _QUOTED_GAP.finditer(text):
        lo, hi = m.span()
        if quoted[lo] and quoted[hi - 1] and not text.upper().startswith("REM", 0):
            out += [Edit(lo, hi, "-" * n, REM_RULE_COST, f"a rule of {n} dashes in quotes lost")
                    for n in range(2, REM_RULE_LOST + 1)]
    return out


LEARNED_MIN = 2  # sure repairs of one listing that show a confusion: this page's OCR makes it
LEARNED_FACTOR = 0.5


def learn(repairs: Iterable[tuple[str, Fix]]) -> frozenset[tuple[str, str]]:
    """The confusions (printed, meant) this listing's OCR made in *repairs* (printed text, the
    fix taken without asking) in at least LEARNED_MIN lines: one page is set in one typeface and
    read by one OCR run, so its habits hold for its other lines (10/85 p. 73 reads every '$'
    of the page as 't').  Only plain one-character confusions are learned, never a solved glyph."""
    lines: dict[tuple[str, str], int] = {}
    for text, fix in repairs:
        seen = {(text[e.start], e.new) for e in fix.edits
                if e.end == e.start + 1 and e.why == f"{e.new} read as {text[e.start]}"}
        for key in seen:
            lines[key] = lines.get(key, 0) + 1
    return frozenset(key for key, n in lines.items() if n >= LEARNED_MIN)


@dataclass
class Tried:
    """The texts of one line already read: their bytes, and the ones that do not verify."""

    bodies: dict[str, bytes | None] = field(default_factory=dict)
    misses: set[str] = field(default_factory=set)
    statements: dict[str, bytes | None] = field(default_factory=dict)
    chunks: dict[str, list[petscii.Piece] | None] = field(default_factory=dict)
    names: Names = field(default_factory=dict)


DEEP_MAX_COST = 1.5  # moves combined three at a time
DEEP_MOVES = 14
DEEP_COST = 4.0  # a triple dearer than this is not tried
DEEP_WIDE = 6  # likely moves paired with as many less likely ones
DEEP_WIDE_COST = 2.0


def _rem_checksum(number: int, text: str, upper: bool, options: ChecksumOptions,
                  body_of: Callable[[str], bytes | None]) -> tuple[int, Callable[[str], int | None]] | None:
    """(where a REM's text starts, the checksum of a text that differs from *text* only there),
    computed on the bytes: a REM's text is stored as typed, one byte per character."""
    quoted = _quoted(text)
    start = next((k + 3 for k in range(len(text)) if quoted[k] and text.upper().startswith("REM", k)
                  and (k == 0 or not quoted[k - 1])), None)

    def literal(tail: str) -> bytes | None:
        tail = tail.rstrip(" ")
        if "{" in tail or "}" in tail:
            return None
        codes = [petscii.char_to_petscii(c) for c in (from_capitals(tail) if upper else tail)]
        return None if None in codes else bytes(c for c in codes if c is not None)

    body = body_of(text)
    tail = None if start is None else literal(text[start:])
    if start is None or body is None or tail is None or not body.endswith(tail):
        return None
    head = body[: len(body) - len(tail)]

    def checksum(candidate: str) -> int | None:
        new = literal(candidate[start:])
        return None if new is None else line_checksum(number, head + new, options)

    return start, checksum


def rank_fixes(number: int, text: str, printed: int, upper: bool, options: ChecksumOptions,
               limit: int = 20, learned: frozenset[tuple[str, str]] = frozenset(), deep: bool = False,
               tried: Tried | None = None) -> list[Fix]:
    """Readings of a line's text whose checksum is *printed*, most likely first; and the reading
    that the checksum itself was misread (the text as printed, the checksum it gives).  *learned*:
    the listing's own confusions (:func:`learn`); *deep*: three misreadings combined too (offered,
    never taken without asking: three changes can cancel in an 8-bit checksum).  *tried*: the
    texts already read for this line (a second ranking reads each text once)."""
    edits = candidate_edits(text, upper, learned)
    tried = Tried() if tried is None else tried
    memo, misses = tried.bodies, tried.misses

    def body_of(candidate: str) -> bytes | None:
        if candidate not in memo:
            memo[candidate] = statement_bodies(candidate, upper, tried.statements, tried.chunks, tried.names)
        return memo[candidate]

    found: dict[str, Fix] = {}
    # the keywords of the line as printed (an unreadable character left out: a fix that only
    # makes the line readable does not make a keyword of a misread one)
    base_tokens = _tokens(line_body("".join(c if readable(c) else " " for c in text), upper))

    def consider(moves: tuple[tuple[tuple[Edit, ...], float], ...], extra: float, offered: bool = False) -> None:
        chosen = tuple(e for m in moves for e in m[0])
        cost = extra + sum(c for _, c in moves) + (MIXED_READING_COST if len(chosen) > 1 and _mixed(text, chosen) else 0.0)
        new = apply(text, chosen)
        if new in found and found[new].cost <= cost or new in misses:
            return
        body = body_of(new)
        if body is None or line_checksum(number, body, options) != printed:
            misses.add(new)  # the same text is reached by other moves: read it once
        else:
            # a shifted letter guessed for an underline mark is one of 26: offered, never taken unasked
            evidence = all((any(suspect(text, k, upper) for k in range(e.start, max(e.end, e.start + 1)) if k < len(text))
                            or e.why in ("blanks inside a keyword", "':' not read"))
                           and not e.why.startswith(UNREADABLE_KINDS) for e in chosen)
            if _tokens(body) > base_tokens:  # the change makes a keyword of a misread one (G0SUB, PDKE)
                cost = max(MIN_COST, cost - KEYWORD_BONUS)
                evidence = evidence or all(e.end == e.start + 1 and not e.why.startswith(UNREADABLE_KINDS) for e in chosen)
            if _unmakes_keyword(text, new, chosen):
                cost += KEYWORD_LOST_COST  # a keyword printed whole, unmade ('POR' for FOR, '(HR' for CHR)
            if any(_makes_damage(text, e) for e in chosen):
                cost += MAKES_DAMAGE_COST  # a digit put into a word the print shows whole ('LSAECHSI5CH')
            if damage_left(new, upper):
                cost += DAMAGE_LEFT_COST  # a reading that leaves the print's damage unexplained
            found[new] = Fix(cost, new, chosen, evidence and not offered)

    moves = [((e,), e.cost) for e in edits] + _sweeps(text, edits, upper)
    for move in moves:
        consider((move,), 0.0)
    # (a keyword's misread letter first among equals: DAfA0 is DATA 0)
    likely = sorted((m for m in moves if len(m[0]) == 1 and m[1] <= LIKELY),
                    key=lambda m: (m[1], not m[0][0].why.endswith(" misread")))[:MAX_PAIR_EDITS]
    likely += [m for m in moves if len(m[0]) > 1 and m[1] <= LIKELY_SWEEP]  # sweeps are few: always paired
    for a, b in combinations(likely, 2):
        if not any(_overlap(x, y) for x in a[0] for y in b[0]):
            consider((a, b), PAIR_EXTRA)
    _glyph_fixes(number, text, printed, upper, options, likely, consider, body_of, deep)
    if deep:
        _triples(text, upper, moves, consider)
        # a likely misreading and a less likely one (10/85 p. 55 line 260: 'Al$(I)' twice, 'CHR$CX)')
        wide = sorted((m for m in moves if LIKELY < m[1] <= DEEP_WIDE_COST), key=lambda m: m[1])[:DEEP_WIDE]
        for a, b in product(sorted(likely, key=lambda m: m[1])[:DEEP_WIDE], wide):
            if not any(_overlap(x, y) for x in a[0] for y in b[0]):
                consider((a, b), PAIR_EXTRA, offered=True)
    rules, dashes = _rem_rule_edits(text)
    if deep:  # a rule lost from quotes: alone (each length paired with every helper would cost more than it finds)
        for edit in _quoted_gap_rules(text):
            consider((((edit,), edit.cost),), 0.0)
    helpers = [m for m in likely if len(m[0]) == 1 and m[1] < LIKELY] + [((d,), d.cost) for d in dashes]
    if deep:  # two rules of a REM, both counted wrong (10/85 p. 54 lines 5 and 20)
        read = [e for e in rules if " read as " in e.why]
        quick = _rem_checksum(number, text, upper, options, body_of)
        for ra, rb in combinations(read, 2):
            if ra.start != rb.start and not _overlap(ra, rb):
                # (each pair of lengths is checked on the bytes first: there are hundreds)
                if quick is not None and min(ra.start, rb.start) >= quick[0] and quick[1](apply(text, (ra, rb))) == printed:
                    consider((((ra,), ra.cost), ((rb,), rb.cost)), PAIR_EXTRA, offered=True)
    for edit in rules:
        consider((((edit,), edit.cost),), 0.0)
        for helper in helpers:  # the rule and one misreading the print shows elsewhere
            if not any(_overlap(edit, e) or e.start == edit.end for e in helper[0]):
                consider((((edit,), edit.cost), helper), PAIR_EXTRA)
    computed = checksum_of(number, text, upper, options)
    fixes = sorted(found.values(), key=lambda f: (f.cost, f.text))
    if computed is not None:
        shown_p, shown_c = f"{printed:03d}", f"{computed:03d}"
        diff = [(p, c) for p, c in zip(shown_p, shown_c) if p != c]
        if len(diff) <= 2:
            cost = sum(char_cost(p, c) for p, c in diff) + (PAIR_EXTRA if len(diff) == 2 else 0.0)
            fixes.append(Fix(cost, text, (), False, computed))
            fixes.sort(key=lambda f: (f.cost, f.text))
    return fixes[:limit]


KEYWORD_LOST_COST = 1.0
MAKES_DAMAGE_COST = 1.5


def _keywords_at(text: str) -> dict[int, tuple[int, str]]:
    """For each character of *text* that is part of a keyword as CRUNCH reads it (outside
    quotes, before REM and DATA), the keyword's (start, spelling)."""
    out: dict[int, tuple[int, str]] = {}
    quoted = _quoted(text)
    i = 0
    while i < len(text):
        if quoted[i]:
            i += 1
            continue
        kw = next((k for k in KEYWORDS if text.startswith(k, i)), None)
        if kw is None:
            i += 1
            continue
        for k in range(i, i + len(kw)):
            out[k] = (i, kw)
        if kw == "DATA":
            break
        i += len(kw)
    return out


def _unmakes_keyword(text: str, new: str, edits: tuple[Edit, ...]) -> bool:
    """A one-character edit changes a letter of a keyword the print shows whole and the new
    text does not read that keyword there ('POR' for FOR, 'PRUNT' for PRINT)."""
    if any(e.end != e.start + 1 or len(e.new) != 1 for e in edits) or not any(text[e.start].isalpha() for e in edits):
        return False  # (an operator read for '$' is no keyword the print shows: 'CHR^(13)')
    old_kw = _keywords_at(text)
    if not any(e.start in old_kw for e in edits):
        return False
    new_kw = _keywords_at(new)
    return any(text[e.start].isalpha() and e.start in old_kw and new_kw.get(e.start) != old_kw[e.start] for e in edits)


def _makes_damage(text: str, e: Edit) -> bool:
    """The edit puts a digit into a word of three or more letters the print shows whole: OCR
    reads a printed letter as a digit and the reverse, but a clean word is rarely a misread
    number (10/85 p. 54 line 22: '5 read as S' in ANGELSAECHSISCH verifies by chance)."""
    if e.end != e.start + 1 or len(e.new) != 1 or not e.new.isdigit() or not text[e.start].isalpha():
        return False
    lo, hi = e.start, e.end
    while lo > 0 and text[lo - 1].isalpha():
        lo -= 1
    while hi < len(text) and text[hi].isalpha():
        hi += 1
    return hi - lo >= 3 and all(c.isupper() for c in text[lo:hi]) or hi - lo >= 3 and all(c.islower() for c in text[lo:hi])


def _triples(text: str, upper: bool, moves: list[tuple[tuple[Edit, ...], float]], consider: Callable[..., None]) -> None:
    """Three likely misreadings in one line, each where the print shows damage (10/85 p. 55
    line 160: 'Al^(72),A2*(72),A3*(72)')."""
    pool = sorted((m for m in moves if m[1] <= DEEP_MAX_COST
                   and all(k < len(text) and suspect(text, k, upper) for e in m[0] for k in range(e.start, max(e.end, e.start + 1)))),
                  key=lambda m: m[1])[:DEEP_MOVES]
    for trio in combinations(pool, 3):
        if sum(c for _, c in trio) + 2 * PAIR_EXTRA > DEEP_COST:
            continue
        if any(_overlap(x, y) for a, b in combinations(trio, 2) for x in a[0] for y in b[0]):
            continue
        consider(trio, 2 * PAIR_EXTRA, offered=True)


AUTO_MAX_COST = 2.0
AUTO_MARGIN = 0.5
KEYWORD_BONUS = 0.5
MIN_COST = 0.1


_REM, _DATA, _QUOTE, _COLON = 0x8F, 0x83, 0x22, 0x3A
_OPERATORS = frozenset((0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xB1, 0xB2, 0xB3))  # + - * / ^ > = <: not misread words


def _tokens(body: bytes | None) -> int:
    """Keyword tokens in a stored line (a shifted or graphics character inside quotes, after
    REM or in DATA is a character, not a keyword)."""
    if body is None:
        return 0
    count, quote, data = 0, False, False
    for b in body:
        if b == _QUOTE:
            quote = not quote
        elif quote:
            continue
        elif b == _REM:
            return count + 1
        elif data:
            data = b != _COLON
        elif b >= 0x80 and b not in _OPERATORS:
            count += 1
            data = b == _DATA
    return count


_BROKEN_NAME = re.compile(r"[<\[][A-Za-z0-9 .\-]{2,12}[,>}\]?]")


def damage_left(text: str, upper: bool) -> bool:
    """After a fix, the line outside quotes still shows plain damage: a digit between two
    letters (``F0R``), a letter between two digits, a lower-case letter in a capital listing,
    a character with no PETSCII code.  Two misreadings can cancel in an 8-bit checksum, so a
    fix that leaves such damage is not taken without asking (64'er 10/85 line 445: ``F0R F=1
    TO ll`` has a pair of changes that verifies and is wrong)."""
    quoted = _quoted(text)
    if _BROKEN_NAME.search(normalize_controls(text)):
        return True  # a control-code name left unread ("<RVOFF,SPACE ?")
    for k, c in enumerate(text):
        if not readable(c):
            return True
        if quoted[k]:
            if upper and c in UNDERLINED and suspect(text, k, upper):
                return True  # an underlined (shifted) letter OCR made a symbol of: not read yet
            if upper and c.islower() and text[k + 1 : k + 2].islower() and text[k + 2 : k + 3].isupper() \
                    and not (k and text[k - 1].isalnum()):
                return True  # an underlined capital OCR read as a ligature ('flAX.', 'fiDJUST'; 10/85 p. 32)
            continue
        left = text[k - 1] if k else " "
        right = text[k + 1] if k + 1 < len(text) else " "
        if petscii.char_to_petscii(c) is None or (upper and c.islower()):
            return True
        if c.isdigit() and left.isalpha() and right.isalpha():
            return True
        if c.isdigit() and re.search(r"(?:FOR|NEXT) *$", text[:k].upper()):
            return True  # a variable's place
        if c.isdigit() and (not text[:k].strip() or text[:k].rstrip().endswith(":")) \
                and not _statement_before(text, k).strip():
            return True  # a statement never begins with a digit
        if c.isalpha() and left.isdigit() and right.isdigit():
            return True
    return False


def confident(fixes: list[Fix], upper: bool = False) -> bool:
    """Repair without asking: the best fix is where the print shows damage, cheap, clearly
    ahead of the next one, and leaves no plain damage behind."""
    if fixes and _sure_rule(fixes, upper):
        return True
    if not fixes or not fixes[0].evidence or fixes[0].cost > AUTO_MAX_COST or fixes[0].checksum is not None:
        return False
    if damage_left(fixes[0].text, upper):
        return False
    # a reading that leaves plain damage behind (or keeps the damaged line and blames the
    # checksum) is no rival of one that clears it
    rivals = [f for f in fixes[1:] if f.checksum is None and not damage_left(f.text, upper)]
    return not rivals or rivals[0].cost >= fixes[0].cost + AUTO_MARGIN


def _sure_rule(fixes: list[Fix], upper: bool) -> bool:
    """The only reading found is a REM's rule of dashes counted anew (OCR cannot count a rule,
    or lost it in a gap of the print), the line shows no other damage and a misread checksum
    is clearly less likely: taken (64'er 10/85 p. 131 line 130 'REM *   *', the banner's rule
    lost; p. 54 line 200 '36 dashes for 24).  A rule is a REM's text: a wrong length changes a
    comment, never what the program does."""
    best = fixes[0]
    if best.checksum is not None or not best.edits or not all(
            e.why.startswith("a rule of") and e.why.endswith("not read") or re.fullmatch(r"a rule of \d+ dashes read as \d+", e.why)
            or e.why == "two dashes read as one long one"
            for e in best.edits):
        return False
    if damage_left(best.text, upper) or any(f.checksum is None for f in fixes[1:]):
        return False
    return all(f.cost >= best.cost + AUTO_MARGIN for f in fixes[1:])


def describe(text: str, fix: Fix, printed: int) -> str:
    """The change in listing terms: ``'POKE' instead of 'P0KE' (O read as 0)``."""
    if fix.checksum is not None:
        return f"the checksum misread: <{fix.checksum:03d}> instead of <{printed:03d}> (the line as printed gives {fix.checksum:03d})"
    # edits whose words touch are shown together: 'SI+11' instead of 'SI+ll'
    groups: list[tuple[int, int, list[Edit]]] = []
    for e in sorted(fix.edits, key=lambda e: e.start):
        lo, hi = e.start, e.end
        while lo > 0 and _ALNUM.match(text[lo - 1]) and e.start - lo < 8:
            lo -= 1
        while hi < len(text) and _ALNUM.match(text[hi]) and hi - e.end < 8:
            hi += 1
        if groups and lo <= groups[-1][1]:
            glo, ghi, members = groups[-1]
            groups[-1] = (glo, max(ghi, hi), [*members, e])
        else:
            groups.append((lo, hi, [e]))
    parts = []
    for lo, hi, members in groups:
        old = text[lo:hi]
        new = apply(old, tuple(Edit(e.start - lo, e.end - lo, e.new, e.cost, e.why) for e in members))
        whys = list(dict.fromkeys(e.why for e in members))
        parts.append(f"'{new}' instead of '{old}' ({', '.join(whys)})")
    merged: dict[str, int] = {}
    for part in parts:
        merged[part] = merged.get(part, 0) + 1
    return "; ".join(p if n == 1 else f"{p} x{n}" for p, n in merged.items())


__all__ = [
    "ORDINARY_COST",
    "Edit",
    "Fix",
    "Tried",
    "apply",
    "candidate_edits",
    "checksum_of",
    "confident",
    "describe",
    "learn",
    "line_body",
    "normalize_controls",
    "petcat_text",
    "rank_fixes",
    "suspect",
]
