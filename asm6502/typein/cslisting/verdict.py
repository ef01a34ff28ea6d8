"""Whether a ranked repair may be taken without asking (:func:`confident`), whether a line
still shows damage its fix does not explain (:func:`damage_left`), and a fix described for a person.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from asm6502 import petscii
from asm6502.typein.cslisting.edits import (
    ALNUM,
    BRACKETS_LOST,
    HABIT_NOTE,
    SPACED_DIGIT_WHY,
    TYPOGRAPHIC_QUOTES,
    UNDERLINED,
    Edit,
    Fix,
    apply,
    case_read_in_quotes,
    mixed_reading,
    quote_flags,
    readable,
    statement_before,
    stray_semicolon,
    suspect,
)
from asm6502.typein.cslisting.grammar import misread_data_items, misread_data_quotes, syntax_error
from asm6502.typein.cslisting.names import KEY_TEXT, KEY_WHY, NAME_WHY, key_edits
from asm6502.typein.cslisting.text import line_body, normalize_controls
from asm6502.typein.cslisting.vocabulary import Lexicon, Vocabulary, confirming_words, made_names

AUTO_MAX_COST = 2.0
AUTO_MARGIN = 0.5
KEYWORD_BONUS = 0.5
MIN_COST = 0.1
# readings the print cannot confirm (a glyph solved from the checksum, a rule's length): the checksum
# chose them, it does not witness them
UNREADABLE_KINDS = ("underlined", "a rule of")
# changes whose place the print need not show: the reason itself is the damage seen
SHOWN_KINDS = ("blanks inside a keyword", "':' not read", BRACKETS_LOST, NAME_WHY, KEY_WHY, SPACED_DIGIT_WHY)


_REM, _DATA, _QUOTE, _COLON = 0x8F, 0x83, 0x22, 0x3A
_OPERATORS = frozenset((0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xB1, 0xB2, 0xB3))  # + - * / ^ > = <: not misread words


def token_count(body: bytes | None) -> int:
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


def broken_name(text: str) -> bool:
    """A control-code name left unread in *text* (``<RVOFF,SPACE ?``); a key's name printed in
    square brackets (``[F8]``, :data:`.names.KEY_TEXT`) is text, no name."""
    return bool(_BROKEN_NAME.search(KEY_TEXT.sub("", normalize_controls(text))))


def damage_left(text: str, upper: bool) -> bool:
    """After a fix, the line outside quotes still shows plain damage: a digit between two
    letters (``F0R``), a letter between two digits, a lower-case letter in a capital listing,
    a character with no PETSCII code, a DATA list of numbers with a look-alike letter in one
    (``DATA 0,I,255``), a key's name in quotes with its brackets misread (``CF8J``) or an apostrophe for a one-character string's quote (``DATA"T',9``), a line that is no BASIC (:mod:`.grammar`: ``GO T0280``).  Two misreadings can cancel in an 8-bit checksum, so a
    fix that leaves such damage is not taken without asking (64'er 10/85 line 445: ``F0R F=1
    TO ll`` has a pair of changes that verifies and is wrong)."""
    quoted = quote_flags(text)
    if broken_name(text):
        return True  # a control-code name left unread ("<RVOFF,SPACE ?")
    if key_edits(text):
        return True  # a key's name whose brackets OCR misread, not read yet ('CF8J', names.key_edits)
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
        if petscii.char_to_petscii(c) is None and c not in TYPOGRAPHIC_QUOTES or (upper and c.islower()):
            return True  # (a typographic quote is OCR's '"': every reading of the line reads it so)
        if c.isdigit() and left.isalpha() and right.isalpha():
            return True
        if c.isdigit() and re.search(r"(?:FOR|NEXT) *$", text[:k].upper()):
            return True  # a variable's place
        if c.isdigit() and (not text[:k].strip() or text[:k].rstrip().endswith(":")) \
                and not statement_before(text, k).strip():
            return True  # a statement never begins with a digit
        if c.isalpha() and left.isdigit() and right.isdigit():
            return True
        if c == ";" and stray_semicolon(text, k):
            return True  # ';' outside a PRINT or INPUT list ('L=2;0=O+1')
    if "DATA" in text.upper() and (misread_data_items(text) or misread_data_quotes(text)):
        return True  # a number in a DATA list of numbers with a look-alike letter in it, a quote read as "'"
    body = line_body(text, upper)
    return body is not None and syntax_error(body) is not None  # no BASIC the ROM would run


def shows_damage(text: str, upper: bool) -> str | None:
    """What a line that verifies as printed shows of plain damage, for a person (None: nothing):
    no BASIC (:mod:`.grammar`), a look-alike letter in a DATA list of numbers, a small letter
    outside quotes in a capital listing, a character with no PETSCII code.  Only signs a
    program's own lines never show: a line that verifies is taken, unless it is no program's line."""
    body = line_body(text, upper)
    why = None if body is None else syntax_error(body)
    if why is not None:
        return f"no BASIC: {why}"
    if "DATA" in text.upper() and misread_data_items(text):
        return "a letter in a DATA list of numbers"
    quoted = quote_flags(text)
    for k, c in enumerate(text):
        if not quoted[k] and not readable(c) and c not in "{}":
            return f"'{c}', no character of the C64's"
        if upper and not quoted[k] and c.islower() and not _in_braces(text, k):
            return f"a small letter '{c}' in a listing printed in capitals"
    return None


def _in_braces(text: str, k: int) -> bool:
    return text.rfind("{", 0, k) > text.rfind("}", 0, k)


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


CONFIRMED_MAX_COST = 4.0  # a reading the listing's own words confirm, up to two or three misreadings
CHANCE_LIMIT = 0.1  # readings of a line that may verify by chance, at most, for its only one to be taken
SOLE_MAX_COST = AUTO_MAX_COST


def _unrivalled(fixes: list[Fix], upper: bool, margin: float) -> bool:
    """No other reading that leaves the print's damage explained comes within *margin* of the
    best, nor does the printed checksum misread.  A reading that stores the same bytes as the
    best is the same line, no rival ('12DOWN' and '12D0WN' inside a control name's braces)."""
    best = fixes[0]
    same: bytes | None = None
    for f in fixes[1:]:
        if f.checksum is not None:
            if f.cost < best.cost + margin:
                return False
        elif not damage_left(f.text, upper) and f.cost < best.cost + margin:
            same = line_body(best.text, upper) if same is None else same
            if same is None or line_body(f.text, upper) != same:
                return False
    return True


def confirmed(fixes: list[Fix], upper: bool, printed: str, vocabulary: Vocabulary, number: int) -> tuple[str, ...] | None:
    """The second ranking's best reading taken without asking, the words that confirm it: every
    change makes a word or name the listing prints whole in another line, no other reading is
    confirmed so, none comes within the margin, and the line shows no damage left.  The
    checksum says the line reads so; the program's own words say the same (two witnesses)."""
    if not fixes or fixes[0].cost > CONFIRMED_MAX_COST or damage_left(fixes[0].text, upper):
        return None
    words = confirming_words(printed, fixes[0], vocabulary, number)
    if not words or not _unrivalled(fixes, upper, AUTO_MARGIN):
        return None
    if any(confirming_words(printed, f, vocabulary, number) for f in fixes[1:]):
        return None
    return words


def sole_reading(fixes: list[Fix], upper: bool, chance: float) -> bool:
    """The second ranking's best reading taken without asking: where the print shows damage,
    cheap, no rival within twice the margin, no damage left, a change the print can confirm (no solved glyph, no rule length),
    and so few readings were tried at its cost that a chance match among them is unlikely
    (*chance*: the readings that could be taken expected to verify by chance, :meth:`.rank.Tried.takeable_chance`)."""
    if not fixes or fixes[0].checksum is not None or not fixes[0].edits or not fixes[0].evidence:
        return False  # (a change where the print shows no damage is asked: 'POKE 53280,S' is BASIC)
    best = fixes[0]
    if best.cost > SOLE_MAX_COST or damage_left(best.text, upper) or chance > CHANCE_LIMIT:
        return False
    if any(e.why.startswith(UNREADABLE_KINDS) for e in best.edits):
        return False
    return _unrivalled(fixes, upper, 2 * AUTO_MARGIN)


def damage_shown(text: str, edits: tuple[Edit, ...], shown: frozenset[int], quoted: list[bool]) -> bool:
    """Every change of *edits* is where the print of *text* shows damage (*shown*: the places
    :func:`.edits.suspect` names), a kind of damage seen by itself (SHOWN_KINDS) or one of the
    listing's habits -- and none is a reading the print cannot confirm or a small letter in quotes
    read as a capital (the print's shifted letters)."""
    return all((any(k in shown for k in range(e.start, max(e.end, e.start + 1))) or e.why in SHOWN_KINDS
                or e.why.endswith(HABIT_NOTE))
               and not e.why.startswith(UNREADABLE_KINDS) and not case_read_in_quotes(text, e, quoted)
               for e in edits)


def shown_places(text: str, upper: bool) -> frozenset[int]:
    """The places of *text* where the print shows damage (:func:`.edits.suspect`)."""
    return frozenset(k for k in range(len(text)) if suspect(text, k, upper))


def familiar_reading(printed: str, edits: tuple[Edit, ...], lexicon: Lexicon, number: int, shown: frozenset[int],
                     quoted: list[bool]) -> tuple[str, ...] | None:
    """The names a reading of line *number* makes, where it is a familiar reading: every change where
    the print shows damage (:func:`damage_shown`), no printed character read two ways
    (:func:`.edits.mixed_reading`), and touching only names and keywords the listing's other lines
    print, one at least (:func:`.vocabulary.made_names`); None otherwise."""
    if not edits or not damage_shown(printed, edits, shown, quoted) or mixed_reading(printed, edits):
        return None  # (one glyph read two ways in a line is no habit of one OCR run: 'l3', 'P+l' as 13 and P+I)
    made = made_names(printed, edits, lexicon, number)
    return made or None


FAMILIAR_MAX_COST = 4.0  # as CONFIRMED_MAX_COST: up to three misreadings, the listing's names the second witness


def familiar(fixes: list[Fix], upper: bool, printed: str, lexicon: Lexicon, number: int,
             chance: Callable[[float], float]) -> tuple[str, ...] | None:
    """The second ranking's best reading taken without asking, the names that make it familiar: every
    change where the print shows damage and touching only names the listing's other lines print
    (:func:`familiar_reading`; three changes too), no damage left, no rival within twice the margin, and
    the familiar readings tried at its cost and that margin would give a chance match less than
    CHANCE_LIMIT times (*chance* of a cost: :meth:`.rank.Tried.familiar_chance`).  The checksum says
    the line reads so; the program's own names say the same, and few readings are that familiar
    (a wrong one verifying by chance must be one of them)."""
    if not fixes or fixes[0].checksum is not None or fixes[0].cost > FAMILIAR_MAX_COST:
        return None
    best = fixes[0]
    made = familiar_reading(printed, best.edits, lexicon, number, shown_places(printed, upper), quote_flags(printed))
    if made is None or damage_left(best.text, upper) or not _unrivalled(fixes, upper, 2 * AUTO_MARGIN):
        return None
    return made if chance(best.cost + 2 * AUTO_MARGIN) <= CHANCE_LIMIT else None


def habitual(fixes: list[Fix], upper: bool, chance: float) -> bool:
    """The second ranking's best reading taken without asking: one of its changes at least is one
    of the listing's habits (:mod:`.habits`: its other lines verify with the same misreading), every
    change is where the print shows damage, no damage is left, no rival comes within twice the
    margin, and the readings with a habit in them tried at its cost and that margin would give a
    chance match less than CHANCE_LIMIT times (*chance*, :meth:`.rank.Tried.habit_chance`)."""
    if not fixes or fixes[0].checksum is not None or not fixes[0].evidence or chance > CHANCE_LIMIT:
        return False
    best = fixes[0]
    if not any(e.why.endswith(HABIT_NOTE) for e in best.edits) or best.cost > SOLE_MAX_COST \
            or damage_left(best.text, upper):
        return False
    if any(e.why.startswith(UNREADABLE_KINDS) for e in best.edits):
        return False
    return _unrivalled(fixes, upper, 2 * AUTO_MARGIN)


def _sure_rule(fixes: list[Fix], upper: bool) -> bool:
    """The only reading found is a REM's rule of dashes counted anew (OCR cannot count a rule,
    or lost it in a gap of the print), the line shows no other damage and a misread checksum
    is clearly less likely: taken (64'er 10/85 p. 131 line 130 'REM *   *', the banner's rule
    lost; p. 54 line 200 '36 dashes for 24).  A rule is a REM's text: a wrong length changes a
    comment, never what the program does.  A rule lost at a REM's end, where no gap shows it, is
    offered only: every REM can have lost one, and of the 40 lengths tried one verifies by chance
    one time in six on a line with damage the print does not show (a letter read for a mark in a
    word: High IQ's 'GAMEZ 32' for 'GAME: 32', tests/test_basic_read_habits.py)."""
    best = fixes[0]
    if best.checksum is not None or not best.edits or not all(
            e.why.startswith("a rule of") and e.why.endswith("not read") or re.fullmatch(r"a rule of \d+ dashes read as \d+", e.why)
            or e.why == "two dashes read as one long one"
            for e in best.edits):
        return False
    if damage_left(best.text, upper) or any(f.checksum is None for f in fixes[1:]):
        return False
    return all(f.cost >= best.cost + AUTO_MARGIN for f in fixes[1:])


_SPECIFIC = re.compile(r"\{[^{}]*\}|'[^']*'|\b\d+ (?=dashes|')")


def kind_of(fix: Fix) -> str:
    """The kind of change a fix makes, for a decision over a class of lines (the review's ``a``):
    its reasons without the characters and lengths of this line ("underlined (graphics character)
    read as", "O read as 0"); "" for the checksum read wrong or the line as printed."""
    if fix.checksum is not None or not fix.edits:
        return ""
    return "; ".join(sorted({" ".join(_SPECIFIC.sub("", e.why).split()) for e in fix.edits}))


def describe(text: str, fix: Fix, printed: int) -> str:
    """The change in listing terms: ``'POKE' instead of 'P0KE' (O read as 0)``."""
    if fix.checksum is not None and fix.checksum == printed and not fix.edits:
        return "as printed (it verifies, though it shows damage)"
    if fix.checksum is not None:
        return f"the checksum misread: <{fix.checksum:03d}> instead of <{printed:03d}> (the line as printed gives {fix.checksum:03d})"
    # edits whose words touch are shown together: 'SI+11' instead of 'SI+ll'
    groups: list[tuple[int, int, list[Edit]]] = []
    for e in sorted(fix.edits, key=lambda e: e.start):
        lo, hi = e.start, e.end
        while lo > 0 and ALNUM.match(text[lo - 1]) and e.start - lo < 8:
            lo -= 1
        while hi < len(text) and ALNUM.match(text[hi]) and hi - e.end < 8:
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
