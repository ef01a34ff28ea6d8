"""The misreadings of a printed BASIC line as edits with a cost (lower = more likely).

The kinds of edit are the misreadings found in 64'er print: OCR confusions
(O/0, l/1/I, B/8, S/5, ``"``/``''``, ``;``/``:``, ``,``/``.``), a keyword with one letter
misread (``PRJNT``), blanks inside a keyword (``PR I NT``, ``GO TO`` -- the C64 stores
``go to`` as GO TO, not GOTO), an unreadable character (a graphics or shifted character
printed as a symbol OCR has no letter for), a stray speck, a rule of dashes whose length OCR
cannot count, one glyph's misreading swept over a line as one decision, and the listing's own
confusions learned from its sure repairs (:func:`learn`).  The cost of one character read for
another is the shared model, :mod:`asm6502.typein.confusion`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from asm6502 import petscii
from asm6502.basic.tokens import KEYWORDS
from asm6502.typein.confusion import SUSPECT_FACTOR
from asm6502.typein.cslisting.grammar import LOOK_ALIKES, misread_data_items
from asm6502.typein.cslisting.text import control_spans, plain_quotes


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
    ("<", "(", 1.5),  # ... and as < (10/85 p. 73 line 33020: 'At<PQ)' for 'A$(PQ)', p. 74 line 30020: 'CHR$<X)')
    ("s", ":", 1.5), ("j", "I", 1.5),  # 10/85 p. 55 lines 290, 320 ('s' for ':'), p. 131 line 570 ('jR' for IR)
    ("x", ":", 2.0),  # 12/85 p. 77 ('SYS 49152xPRINT', 'NEXT XxREM': the colon's two dots run into an x)
    ("-", ":", 2.0), ("-", ".", 2.0),  # a dot's speck drawn out (10/85 p. 132 line 250 '1 - CL', p. 131 line 350 'K-')
)
STRAYS = ".,'`-\u2019\u2018"
LOST_COLON_COST = 1.0
LONE_COLON_COST = 1.5
UNDERLINED = "\u00a3^#&@"  # what OCR made of an underlined (shifted) capital inside quotes
MAX_UNKNOWN = 2  # a line with more unreadable characters than this cannot be fixed by one or two changes
UNKNOWN_COST = 2.5
# an unreadable glyph in a row of one mark ('REM *♦* SAVE FILE ***', '****♦'; 10/85 p. 73-74, 9/85
# p. 70) or alone on a line ('2000 ■': a ':' line, 9/85 p. 70) is that mark, the likeliest reading
# there is: cheaper than any other reading of the glyph by more than twice the margin a rival
# needs (verdict.AUTO_MARGIN), so that the chance match counted for it is its one reading
MARK_GLYPH_COST = 0.2
STRAY_COST = 2.0
KEYWORD_LETTER_COST = 2.0
JOIN_COST = 1.0
PAIR_EXTRA = 0.5
LIKELY = 1.0  # moves that may be paired
MAX_PAIR_EDITS = 24



def _confusions() -> dict[str, list[tuple[str, float]]]:
    table: dict[str, list[tuple[str, float]]] = {}
    for a, b, cost in PAIRS:
        table.setdefault(a, []).append((b, cost))
        table.setdefault(b, []).append((a, cost))
    for a, b, cost in ONE_WAY:
        table.setdefault(a, []).append((b, cost))
    return table


CONFUSIONS = _confusions()
ALNUM = re.compile(r"[A-Za-z0-9]")


TYPOGRAPHIC_QUOTES = "\u201c\u201d\u201e\u2033"  # the quote mark; OCR's '\u00ab' and '\u00bb' are commas as often


def readable(c: str) -> bool:
    """*c* stands for a PETSCII character (a typographic quote is the quote mark)."""
    return petscii.char_to_petscii(c) is not None or c in "{}" or c in TYPOGRAPHIC_QUOTES


def quote_flags(text: str) -> list[bool]:
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
    return quote_flags(text)[k]


def case_read_in_quotes(text: str, e: Edit, quoted: list[bool]) -> bool:
    """*e* makes a small letter inside quotes a capital: the print's shifted letters read small."""
    return e.end == e.start + 1 and quoted[e.start] and text[e.start].islower() and e.new == text[e.start].upper()


_FILE_HASH = re.compile(r"(?:PRINT|INPUT|GET) *$", re.IGNORECASE)


def suspect(text: str, k: int, upper: bool) -> bool:
    """The print shows damage at text[k]: a character of the wrong class for its neighbours
    (a digit inside a word, a letter inside a number), a lower-case letter in a capital
    listing, a character with no PETSCII code."""
    c = text[k]
    if not readable(c):
        return True
    if upper and c.islower():
        return True
    if c in LOOK_ALIKES and "DATA" in text.upper() and any(a <= k < b for a, b in misread_data_items(text)):
        return True  # a letter in a DATA list of numbers where a digit reads the same ('DATA 0,I,255,l3I')
    if upper and c in UNDERLINED and quote_flags(text)[k] and ((k + 1 < len(text) and text[k + 1].isalpha())
                                                         or (k and text[k - 1].isalpha())):
        return True  # "£ISKETTE": a shifted D printed underlined
    if c in "#^*&t" and k and text[k - 1].isalnum() and (k + 1 == len(text) or text[k + 1] in "(=,;:)\"+ "):
        return c != "t" or text[k - 1].isupper()  # G# for G$, A2*(72) for A2$(72), CHRt(146)
    if c == "#" and not quote_flags(text)[k] and not _FILE_HASH.search(text[:k]):
        return True  # '#' is BASIC only after PRINT, INPUT, GET ('GET R#sIF': R$, its ':' misread too)
    left = text[k - 1] if k else " "
    right = text[k + 1] if k + 1 < len(text) else " "
    if c in STRAYS and (not text[k + 1 :].strip() or (c in ".," and left.isdigit() and right == " ")) \
            and not quote_flags(text)[k]:
        return True  # a speck at the line's end or after a number ('360 :\'', 'W=41. THEN'; 10/85 p. 54)
    if c == "!" and not quote_flags(text)[k]:
        return True  # '!' outside quotes is no BASIC ('0,-!' for '0,-1'; 10/85 p. 56)
    if c in "<>" and not quote_flags(text)[k] and _bracket_misread(text, k):
        return True  # 'PEEK(X>);' and 'At<PQ)': a bracket read as a comparison (10/85 p. 73)
    if c != "(" and _FUNCTION_BEFORE.search(text[:k]) and not quote_flags(text)[k]:
        return True  # a function's '(' misread ('CHR$CX)'; 10/85 p. 55)
    if c.isdigit() and k >= 2 and k + 2 < len(text) and left == " " == right and text[k - 2].isalpha() \
            and text[k + 2].isalpha():
        return True  # a letter of a word set letter-spaced ('C 0 D E S C H L 0 S S'; 10/85 p. 132)
    if c == ";" and not quote_flags(text)[k] and stray_semicolon(text, k):
        return True  # ';' belongs to PRINT and INPUT only ('FOR 1=1 TO 23;O$=...', 10/85 p. 54)
    if c.isdigit() and (not text[:k].strip() or text[:k].rstrip().endswith(":")) \
            and not statement_before(text, k).strip() and not quote_flags(text)[k]:
        return True  # a statement never begins with a digit ('8 F=ASC(...)' for ':  F=...'; 9/85 p. 70)
    if c.isdigit():
        if re.search(r"(?:FOR|NEXT) *$", text[:k].upper()) and not quoted_at(text, k):
            return True  # a variable's place: 'FOR 1=1 TO 23' is FOR I
        return (left.isalpha() or right.isalpha()) and not (left.isdigit() or right.isdigit())
    if c.isalpha() and c in "OIlSBZGDQT":
        return left.isdigit() or (right.isdigit() and (not left.isalpha() or _after_keyword(text, k)))
    return not text.strip(" ").strip(c)  # a line that is one character like '=' is no statement


def _bracket_misread(text: str, k: int) -> bool:
    """text[k], a '<' or '>' outside quotes, cannot be the comparison BASIC reads: a '>' with no
    operand after it (a ')', ':', ';', ',' or the line's end follows), or a '<' in a stretch of
    its statement (up to a quote or THEN) that closes more brackets than it opens, a '>' that is no
    comparison counted as a ')' ('J<K>:' for 'J(K):'); nor part of '<>', '<=', '>='."""
    left = text[k - 1] if k else " "
    after = text[k + 1 :].lstrip(" ")
    if left in "<>=" or after[:1] in ("<", ">", "="):
        return False
    if text[k] == ">":
        return after[:1] in ("", ")", ":", ";", ",")
    head = statement_before(text, k)
    start = k - len(head)
    end = len(text)
    for stop in (":", '"', "THEN"):
        at = text.upper().find(stop, k + 1)
        end = min(end, at) if at >= 0 else end
    if '"' in head or "THEN" in head.upper():
        start = max(head.rfind('"'), head.upper().rfind("THEN")) + start + 1
    stretch = range(start, end)
    closes = sum(text[i] == ")" or text[i] == ">" and i != k and _bracket_misread(text, i) for i in stretch)
    return closes > sum(text[i] == "(" for i in stretch)


_NUMBER_KEYWORD_BEFORE = re.compile(r"(?:POKE|GOTO|GOSUB|THEN|SYS|WAIT|TO|STEP|RUN|LIST|TAB\(|SPC\(|CHR\$\(?) *$")


def _after_keyword(text: str, k: int) -> bool:
    """text[k] follows a keyword whose argument is mostly a number ('POKEI99', 'GOTOl00'), outside quotes."""
    return bool(_NUMBER_KEYWORD_BEFORE.search(text[max(0, k - 8) : k].upper())) and not quote_flags(text)[k]


_FUNCTION_BEFORE = re.compile(r"(?<![A-Za-z])(?:CHR\$|LEFT\$|RIGHT\$|MID\$|STR\$|VAL|ASC|LEN|PEEK|SGN|INT|ABS|USR|FRE|POS|SQR|RND|TAB|SPC"
                              r"|LOG|EXP|COS|SIN|TAN|ATN) *$")
_PRINTS = re.compile(r"PRINT|INPUT|CMD|\?", re.IGNORECASE)


def stray_semicolon(text: str, k: int) -> bool:
    """text[k], a ';' outside quotes, stands in a statement that is no PRINT, INPUT or CMD: BASIC
    has no place for it there."""
    return not _PRINTS.search(statement_before(text, k))


def keywords_at(text: str) -> dict[int, tuple[int, str]]:
    """For each character of *text* that is part of a keyword as CRUNCH reads it (outside
    quotes, before REM and DATA), the keyword's (start, spelling)."""
    out: dict[int, tuple[int, str]] = {}
    quoted = quote_flags(text)
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


def statement_before(text: str, k: int) -> str:
    """The statement *text*[k] stands in, up to k (from the last ':' outside quotes)."""
    quoted = quote_flags(text)
    start = 0
    for i in range(k):
        if text[i] == ":" and not quoted[i]:
            start = i + 1
    return text[start:k]


HABIT_NOTE = "as in the listing's other lines"  # a habit edit's reason ends so


def habit_places(text: str, keywords: bool = False) -> dict[str, list[int]]:
    """Where each character of *text* may be a habit's misreading: every place of it outside the
    keywords the line prints whole (CRUNCH's reading: 'PRINT' keeps its T) and the control names
    (a blank and a quote are no habit's).  *keywords*: the places inside those keywords instead
    (``INT=""`` is ``IN$=""``: a habit learned elsewhere may make a word of a keyword)."""
    inside = set(keywords_at(text))
    skip = set() if keywords else inside
    if plain_quotes(text) == text:  # (offsets agree)
        for i, j, _ in control_spans(text):
            skip.update(range(i, j))
    out: dict[str, list[int]] = {}
    for k, d in enumerate(text):
        if k not in skip and d not in ' "' and (not keywords or k in inside):
            out.setdefault(d, []).append(k)
    return out


HABIT_COST = 0.5  # a misreading the listing's other lines show (habits.py): the likeliest there is


def candidate_edits(text: str, upper: bool, learned: frozenset[tuple[str, str]] = frozenset(),
                    habits: frozenset[tuple[str, str]] = frozenset()) -> list[Edit]:
    """Single edits of *text*; a confusion in *learned* (this page's OCR made it in sure repairs,
    :func:`learn`) costs less; one in *habits* (the listing's lines show it, :mod:`.habits`) is
    read at each of its places, cheaply."""
    edits: list[Edit] = []
    where = habit_places(text) if habits else {}
    in_keywords = habit_places(text, keywords=True) if habits else {}
    for c, m in sorted(habits):
        edits += [Edit(k, k + 1, m, HABIT_COST, f"{m} read as {c}, {HABIT_NOTE}") for k in where.get(c, ())]
        edits += [Edit(k, k + 1, m, HABIT_COST, f"{m} read as {c} in a keyword's letters, {HABIT_NOTE}")
                  for k in in_keywords.get(c, ())]
    quoted = quote_flags(text)
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
            # (inside quotes a small letter is the print's shifted capital as OCR reads it: no damage shown)
            edits.append(Edit(k, k + 1, c.upper(), 1.0 * (1.0 if quoted[k] else factor), f"{c.upper()} read as {c}"))
        if not readable(c) and unknown <= MAX_UNKNOWN:
            mark = _row_mark(text, k)
            if mark:
                edits.append(Edit(k, k + 1, mark, MARK_GLYPH_COST, f"{mark} read as '{c}' in a row of '{mark}'"))
            for m in _replacements(upper):
                edits.append(Edit(k, k + 1, m, UNKNOWN_COST, f"unreadable '{c}'"))
            edits.append(Edit(k, k + 1, "", STRAY_COST, f"stray '{c}'"))
        elif c in STRAYS and not (c == "-" and "-" in (text[k - 1 : k] + text[k + 1 : k + 2])):
            # (a dash beside a dash is a rule's: its length is a rule edit)
            edits.append(Edit(k, k + 1, "", STRAY_COST * factor, f"stray '{c}'"))
    edits += keyword_edits(text, quoted, upper)
    edits += closing_brackets(text, quoted)
    if not text.strip():  # typing a bare number deletes a line: the print had something, mostly ':'
        edits.append(Edit(0, len(text), ":", LOST_COLON_COST, "':' not read"))
    elif len(text.strip()) == 1 and text.strip() not in ":=" and unknown == 0:
        # a line of one mark is no statement: 64'er set off a program's parts with ':' lines,
        # OCR reads the lone ':' as '=' (ONE_WAY) or as '1' (10/85 p. 131 line 670: '670 1 <138>')
        edits.append(Edit(0, len(text), ":", LONE_COLON_COST, f": read as {text.strip()}"))
    elif len(text.strip()) == 1 and unknown == 1:  # one glyph OCR could not read, alone: a ':' line too
        edits.append(Edit(0, len(text), ":", MARK_GLYPH_COST, f": read as '{text.strip()}' alone on a line"))
    return edits


ROW_MARKS = "*-=+#."  # the marks 64'er set rows of (REM banners, rules)
ROW_MIN = 3  # a row of one mark on one side of a glyph alone, at least


def _row_mark(text: str, k: int) -> str:
    """The mark text[k] stands in a row of: the same mark on both sides of it, or a row of
    ROW_MIN of them on one side and no other character on the other; '' if none."""
    left = text[k - 1] if k else ""
    right = text[k + 1] if k + 1 < len(text) else ""
    if left and left == right and left in ROW_MARKS:
        return left
    for mark, run, other in ((left, text[:k][::-1], right), (right, text[k + 1 :], left)):
        if mark and mark in ROW_MARKS and len(run) - len(run.lstrip(mark)) >= ROW_MIN and other in ("", " "):
            return mark
    return ""


CLOSERS_LOST_COST = 1.0
MAX_OPEN = 3  # brackets left open at a line's end that its closing run may have lost
_CLOSER_READS = re.compile(r"[)>\]}| ]*$")  # what OCR makes of the closing brackets at a line's end
_ENDS_EXPRESSION = re.compile(r":|THEN|GOTO|GOSUB|STEP|\bTO\b")
BRACKETS_LOST = "closing brackets lost at the line's end"


def closing_brackets(text: str, quoted: list[bool]) -> list[Edit]:
    """BASIC's grammar: the brackets a line opens are closed.  A line whose end leaves one to
    :data:`MAX_OPEN` open (outside quotes, before a REM) lost closing brackets there, or OCR
    read them as other marks ('LEN(A1$(I) >>' for 'LEN(A1$(I)))'; 10/85 p. 55): the run of
    such marks at the end becomes the brackets the line needs."""
    depth, stripped, opened = 0, text.rstrip(" "), []
    for k, c in enumerate(stripped):
        if quoted[k]:
            continue
        if text.upper().startswith("REM", k):
            return []
        if c == "(":
            depth += 1
            opened.append(k)
        elif c == ")":
            depth -= 1
            if depth < 0:
                return []
            opened.pop()
    if not 0 < depth <= MAX_OPEN or (stripped and quoted[len(stripped) - 1]):
        return []
    if _ENDS_EXPRESSION.search(stripped[opened[0]:].upper()):
        return []  # the open bracket's expression ends before the line does: its ')' is lost elsewhere
    m = _CLOSER_READS.search(stripped)
    assert m is not None  # (the pattern matches the empty end)
    start = m.start()
    run = stripped[start:]
    while start < len(stripped) and run and run[0] in ")":  # brackets read right stay
        start, run = start + 1, run[1:]
    closing = run.count(")")
    need = depth + closing
    return [Edit(start, len(stripped), ")" * need, CLOSERS_LOST_COST, BRACKETS_LOST)]


RUN_MIN = 8  # a quoted run this long of mostly one character may be a row of one graphics glyph
RUN_SHARE = 0.5
RUN_COST = 2.0
RUN_LENGTH_COST = 0.1  # each character more or fewer than OCR read
SCREEN_WIDTH = 40  # a row of the glyph across the screen, the usual length of such a rule
RUN_MORE = 12  # lengths tried beyond the one read (OCR merges and drops glyphs of a row)


def graphics_runs(text: str, upper: bool) -> list[Edit]:
    """A string that is a row of one graphics glyph OCR read as letters ('"TTTT...T^TFrfTf"' for
    40 {CBM-T}; 10/85 p. 32 line 197): the string's text made a run of the graphics character on
    the key of the letter OCR read most (Commodore or shifted), as long as the screen or about as
    long as read.  OCR cannot count such a row; the checksum can only check a length, not find
    it (a run eight longer sums nearly alike): offered, never taken unasked."""
    out: list[Edit] = []
    for m in re.finditer(r'"([^"]*)"', text):
        run = m.group(1).strip(" ")
        if len(run) < RUN_MIN or " " in run or "{" in run or "<" in run:
            continue
        counts: dict[str, int] = {}
        for c in run.upper():
            counts[c] = counts.get(c, 0) + 1
        key, n = max(counts.items(), key=lambda kv: kv[1])
        if not key.isalpha() or not key.isascii() or n < RUN_SHARE * len(run):
            continue
        for prefix in ("CBM", "SHIFT"):
            name = f"{prefix}-{key}"
            if petscii.parse_brace(name) is None:
                continue
            for k in sorted({SCREEN_WIDTH, *range(max(1, len(run) - 4), len(run) + RUN_MORE + 1)}):
                cost = RUN_COST + RUN_LENGTH_COST * min(abs(k - len(run)), abs(k - SCREEN_WIDTH))
                out.append(Edit(m.start(1), m.end(1), "{" + f"{k} {name}" + "}", cost,
                                f"a row of {k} {{{name}}} read as '{run}'"))
    return out


def _replacements(upper: bool) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return (letters if upper else letters.lower()) + "0123456789$:;,.\"'()+-*/=<> " + ("" if not upper else letters.lower())


def keyword_edits(text: str, quoted: list[bool], upper: bool) -> list[Edit]:
    """Blanks inside a keyword (``PR I NT``, ``GO TO``) and one misread letter in a keyword."""
    out: list[Edit] = []
    for m in re.finditer(r"[A-Za-z$#]+(?: +[A-Za-z$#(]+)+", text):
        if quoted[m.start()]:
            continue
        joined = _join_keyword_blanks(m.group(0))
        if joined != m.group(0):
            out.append(Edit(m.start(), m.end(), joined, JOIN_COST, "blanks inside a keyword"))
    for m in _SPACED_DIGIT.finditer(text):  # 'T 0 3' for 'TO 3': a keyword's last letter read as a digit apart
        joined = m.group(1) + _DIGIT_LETTERS[m.group(2)]
        if not quoted[m.start()] and joined.upper() in _SPELLED_APART:
            out.append(Edit(m.start(), m.end(), joined, JOIN_COST + SPACED_DIGIT_COST,
                            SPACED_DIGIT_WHY))
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


_SPACED_DIGIT = re.compile(r"(?<![A-Za-z0-9$])([A-Za-z]{1,6}) +([0158])(?= |$)")
_DIGIT_LETTERS = {"0": "O", "1": "I", "5": "S", "8": "B"}
_SPELLED_APART = frozenset(kw for kw in KEYWORDS if kw.isalpha() and len(kw) >= 2)
SPACED_DIGIT_COST = 0.5
SPACED_DIGIT_WHY = "blanks inside a keyword, a letter of it read as a digit"  # the print shows the damage


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


def apply(text: str, edits: tuple[Edit, ...]) -> str:
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: e.start] + e.new + text[e.end :]
    return text


SWEEP_EACH = 0.1  # one misreading repeated all over a line (OCR read every 1 of "-1" as l)


def sweeps(text: str, edits: list[Edit], upper: bool) -> list[tuple[tuple[Edit, ...], float]]:
    """The same confusion at every place the print shows it, as one move."""
    groups: dict[tuple[str, str, str], list[Edit]] = {}
    for e in edits:
        if e.end == e.start + 1 and len(e.new) == 1 and e.why == f"{e.new} read as {text[e.start]}" \
                and suspect(text, e.start, upper):
            groups.setdefault((text[e.start], e.new, ""), []).append(e)
        elif e.why.endswith(HABIT_NOTE):  # a habit of the listing's, wherever it can be (keywords apart)
            groups.setdefault((text[e.start], e.new, e.why), []).append(e)
    # one decision (this glyph is that character) made once, whatever the number of places
    return [(tuple(es), min(e.cost for e in es) + SWEEP_EACH * (len(es) - 1)) for es in groups.values() if len(es) >= 2]


MIXED_READING_COST = 1.0  # OCR reads one glyph one way within a line: 'll' is '11', rarely 'LI'


def mixed_reading(text: str, edits: tuple[Edit, ...]) -> bool:
    """The edits read one printed character two ways ('ll' as 'LI')."""
    readings: dict[str, set[str]] = {}
    for e in edits:
        if e.end == e.start + 1 and len(e.new) == 1:
            readings.setdefault(text[e.start], set()).add(e.new)
    return any(len(v) > 1 for v in readings.values())


def overlaps(a: Edit, b: Edit) -> bool:
    return a.start < b.end and b.start < a.end or a.start == b.start


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
RULE_AT_END = " at the REM's end"  # (no gap in the print shows where it was: any REM could have lost one)


def rem_rule_edits(text: str) -> tuple[list[Edit], list[Edit]]:
    """A rule of dashes (or dots, stars) as 64'er printed it to set off a program's parts or to
    pad a screen line is a line OCR cannot count: it reads more or fewer of them, an em dash for
    two, or loses a REM's rule at its end (10/85 p. 54-56, Schreiberling lines 5-1864 and 320;
    p. 131 line 130).  (rule edits, em dashes read for two dashes)."""
    quoted = quote_flags(text)
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
    gaps = [(start + 3 + m.start() + 1, "") for m in re.finditer(r" {2,}(?=\S)", body)]  # 'REM *   *'
    if not body.rstrip().endswith(("-", "\u2014", "\u2013")):
        gaps.append((len(text.rstrip()), RULE_AT_END))
    for at, where in gaps:
        for n in range(1, REM_RULE_LOST + 1):
            out.append(Edit(at, at, " " + "-" * n + " ", REM_RULE_COST, f"a rule of {n} dashes not read{where}"))
    return out, dashes


_QUOTED_RULE = re.compile(r"-{4,}|\.{4,}|\*{4,}")
# blanks between two control names (or a name and a quote) inside quotes: nothing else printed there
_QUOTED_GAP = re.compile(r"(?<=[>}\]I])( +)(?=[<{\[])|(?<=\")( +)(?=[<{\[])|(?<=[>}\]])( +)(?=\")")


def quoted_gap_rules(text: str) -> list[Edit]:
    """A rule of dashes printed inside quotes between two control codes, that OCR lost and left
    a blank for (10/85 p. 132 line 350: '"<5RIGHT> <CYAN>"' for 11 dashes between them): every
    length up to REM_RULE_LOST, offered only (a blank between control codes is mostly typed)."""
    quoted = quote_flags(text)
    out = []
    for m in _QUOTED_GAP.finditer(text):
        lo, hi = m.span()
        if quoted[lo] and quoted[hi - 1] and not text.upper().startswith("REM", 0):
            out += [Edit(lo, hi, "-" * n, REM_RULE_COST, f"a rule of {n} dashes in quotes lost")
                    for n in range(2, REM_RULE_LOST + 1)]
    return out


LEARNED_MIN = 3  # sure repairs of one listing that show a confusion: this page's OCR makes it (two could both be chance matches)
LEARNED_FACTOR = 0.5


def learn(repairs: Iterable[tuple[str, Fix]]) -> frozenset[tuple[str, str]]:
    """The confusions (printed, meant) this listing's OCR made in *repairs* (printed text, the
    fix taken without asking) in at least LEARNED_MIN lines: one page is set in one typeface and
    read by one OCR run, so its habits hold for its other lines (10/85 p. 73 reads every '$'
    of the page as 't').  Only plain one-character confusions are learned, never a solved glyph."""
    lines: dict[tuple[str, str], int] = {}
    for text, fix in repairs:
        for key in set(confusions(text, fix)):
            lines[key] = lines.get(key, 0) + 1
    return frozenset(key for key, n in lines.items() if n >= LEARNED_MIN)


def confusions(text: str, fix: Fix) -> tuple[tuple[str, str], ...]:
    """The plain one-character confusions (printed, meant) *fix* makes of *text*, a habit's
    readings among them (never a solved glyph, a blank or a rule)."""
    return tuple((text[e.start], e.new) for e in fix.edits if e.end == e.start + 1 and (
        e.why == f"{e.new} read as {text[e.start]}" or e.why.startswith(f"{e.new} read as {text[e.start]}, ")))
