"""Ranked repairs of a line whose checksum does not match (:func:`rank_fixes`).

Candidate edits (:mod:`.edits`), single edits and pairs of likely ones; an edit list whose line
verifies is a fix.  From real 64'er print too: a shifted letter or graphics character inside
quotes solved from the checksum (:mod:`.glyph`), the printed checksum itself misread (``<087>``
for ``<067>``), and a higher cost for a reading that leaves the print's damage unexplained.  A
second ranking of the lines still bad (``deep``; taken only with a second witness, :mod:`.verdict`): three misreadings, a likely with a
less likely one, an underlined capital read as two characters, and both rules of a REM counted
wrong.  Every search is bounded: a line's rankings read at most :data:`MAX_LINE_TEXTS` texts
(``Tried.budget``); the candidates left when it is spent are counted (``Tried.skipped``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations, product

from asm6502 import petscii
from asm6502.basic.case import from_capitals
from asm6502.basic.tokens import KEYWORDS
from asm6502.typein.confusion import SUSPECT_FACTOR, char_cost
from asm6502.typein.cslisting import glyph
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import (
    HABIT_NOTE,
    LIKELY,
    MAX_PAIR_EDITS,
    MIXED_READING_COST,
    PAIR_EXTRA,
    Edit,
    Fix,
    apply,
    candidate_edits,
    case_read_in_quotes,
    graphics_runs,
    keyword_edits,
    keywords_at,
    mixed_reading,
    overlaps,
    quote_flags,
    quoted_gap_rules,
    readable,
    rem_rule_edits,
    suspect,
    sweeps,
)
from asm6502.typein.cslisting.names import key_edits, name_edits
from asm6502.typein.cslisting.text import Names, checksum_of, control_spans, line_body, plain_quotes, statement_bodies
from asm6502.typein.cslisting.verdict import (
    KEYWORD_BONUS,
    MIN_COST,
    UNREADABLE_KINDS,
    damage_left,
    damage_shown,
    describe,
    shown_places,
    token_count,
)
from asm6502.typein.cslisting.wide import search as widest_search
from asm6502.typein.cslisting.wide import shown_moves

DAMAGE_LEFT_COST = 1.0
LIKELY_SWEEP = 1.5  # a sweep of a few places may be paired too (F0R F=1 TO ll: 0 for O and both l for 1)
MAX_GLYPH_PLACES = 12
GLYPH_READINGS = len(glyph.GRAPHICS)  # a glyph solved from the checksum is one of the graphics bytes
DEEP_CONTEXTS = 6  # the cheapest readings paired before a solved glyph


def _glyph_fixes(number: int, text: str, printed: int, upper: bool, options: ChecksumOptions,
                 likely: list[tuple[tuple[Edit, ...], float]], consider: Callable[..., None],
                 body_of: Callable[[str], bytes | None], deep: bool = False) -> None:
    """A shifted letter or graphics character inside quotes that OCR misread (:mod:`.glyph`), alone,
    after a likely edit elsewhere, or with another word's first letter shifted as printed.
    *deep*: also an underlined capital read as two characters, and after two such readings."""
    plain = plain_quotes(text)
    if len(plain) != len(text):
        return
    # (no glyph inside a control name, read or misread: '<DOWN,RIGHT,4SPACE J' holds no shifted 'r')
    skip = {k for i, j, _ in control_spans(plain) for k in range(i, j)} | {
        k for e in name_edits(plain) + key_edits(plain) for k in range(e.start, e.end)}
    found_places = glyph.places(plain, quote_flags(plain), skip, upper)[:MAX_GLYPH_PLACES]
    if deep:
        found_places += glyph.two_character_places(plain, quote_flags(plain), skip, upper)[:MAX_GLYPH_PLACES]
    if not found_places:
        return

    def checksum(candidate: str) -> int | None:
        body = body_of(candidate)
        return None if body is None else line_checksum(number, body, options)

    def glyph_move(base: str, place: glyph.Place) -> tuple[tuple[Edit, ...], float] | None:
        code = glyph.solve(base, place.index, printed, options.version == 3, checksum, place.width)
        c = text[place.index : place.index + place.width]
        if code is None or code not in place.allowed or (place.width == 1 and code == petscii.char_to_petscii(
                from_capitals(c) if upper else c)):
            return None
        new = glyph.spelled(code, upper)
        cost = glyph.cost(place, code, c) * (SUSPECT_FACTOR if suspect(text, place.index, upper) else 1.0)
        what = "graphics character" if code not in glyph.SHIFTED_LETTERS else "shifted letter"
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
        for meant in c + glyph.UNDERLINE_READS.get(c.upper(), ""):
            new = meant.lower() if upper else meant.upper()
            why = "itself" if meant == c else f"'{c}'"
            contexts.append(((Edit(p.index, p.index + 1, new, glyph.SAME_LETTER_COST,
                                   f"underlined (shifted letter) {meant} read as {why}"),), glyph.SAME_LETTER_COST))
    if deep:  # two readings before the solved one (10/85 p. 32 line 450: CL0SE l, "lYE." for "Bye.")
        singles = sorted((m for m in contexts if len(m[0]) == 1), key=lambda m: m[1])[:DEEP_CONTEXTS]
        for a, b in combinations(singles, 2):
            if not overlaps(a[0][0], b[0][0]):
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



def keyword_join(text: str, number: int, printed: int, upper: bool, options: ChecksumOptions) -> tuple[Fix, str] | None:
    """A line that verifies as printed with a blank inside a keyword (``PRIN T``) and verifies
    with the keyword whole too -- the Checksummer skips blanks and the token happens to sum the
    same as its letters: the keyword is taken (the blank is OCR damage)."""
    edits = tuple(e for e in keyword_edits(text, quote_flags(text), upper) if e.why == "blanks inside a keyword")
    if not edits:
        return None
    new = apply(text, edits)
    body = line_body(new, upper)
    if body is None or line_checksum(number, body, options) != printed:
        return None
    fix = Fix(sum(e.cost for e in edits), new, edits, True)
    return fix, describe(text, fix, printed)


MAX_LINE_TEXTS = 4000  # texts the rankings of one line read at most (the real pages need 2,011 at most)


@dataclass
class Tried:
    """The texts of one line already read: their bytes, and the ones that do not verify; and the
    line's search budget: *budget* texts read at most (*read* so far), the candidates left unread
    when it was spent (*skipped*: the search stopped there)."""

    bodies: dict[str, bytes | None] = field(default_factory=dict)
    misses: set[str] = field(default_factory=set)
    statements: dict[str, bytes | None] = field(default_factory=dict)
    chunks: dict[str, list[petscii.Piece] | None] = field(default_factory=dict)
    names: Names = field(default_factory=dict)
    budget: int = MAX_LINE_TEXTS
    read: int = 0
    skipped: int = 0
    # (cost, readings, changes) of each candidate read: a solved glyph stands for every byte it could be
    weighed: list[tuple[float, int, tuple[Edit, ...]]] = field(default_factory=list)
    habitual: list[float] = field(default_factory=list)  # the cost of each reading read with a habit (habits.py)
    wide_left: int = 0  # the subsets the widest ranking (wide.py) left when a bound stopped it

    def released(self) -> Tried:
        """The same line's budget without the texts held (a listing holds only so many)."""
        return Tried(budget=self.budget, read=self.read, skipped=self.skipped, weighed=self.weighed,
                     habitual=self.habitual, wide_left=self.wide_left)

    def chance_matches(self, cost: float) -> float:
        """How many of the readings tried at *cost* or cheaper would verify by chance if none
        were the line (each gives one of 256 checksums)."""
        return sum(n for c, n, _ in self.weighed if c <= cost) / 256

    def takeable_chance(self, cost: float, text: str, upper: bool) -> float:
        """:meth:`chance_matches` of the readings of *text* that could be taken without asking were
        they the best: every change where the print shows damage (:func:`_could_be_evidence`; a
        reading that changes a place the print shows clean is never taken by itself, so its chance
        match can only hold a repair back, never make a wrong one)."""
        shown = shown_places(text, upper)
        quoted = quote_flags(text)
        return sum(n for c, n, chosen in self.weighed if c <= cost and _could_be_evidence(text, chosen, shown, quoted)) / 256

    def familiar_chance(self, cost: float, text: str, upper: bool,
                        familiar: Callable[[tuple[Edit, ...], frozenset[int], list[bool]], bool]) -> float:
        """:meth:`chance_matches` of the readings of *text* that would be familiar were they the best
        (*familiar*(edits, shown, quoted) true: :func:`.verdict.familiar_reading`), three changes too."""
        shown = shown_places(text, upper)
        quoted = quote_flags(text)
        return sum(n for c, n, chosen in self.weighed if c <= cost and familiar(chosen, shown, quoted)) / 256

    def habit_chance(self, cost: float) -> float:
        """:meth:`chance_matches` of the readings with one of the listing's habits in them."""
        return sum(c <= cost for c in self.habitual) / 256


DEEP_MAX_COST = 1.5  # moves combined three at a time
DEEP_MOVES = 14
DEEP_COST = 4.0  # a triple dearer than this is not tried
DEEP_WIDE = 6  # likely moves paired with as many less likely ones
DEEP_WIDE_COST = 2.0


def _rem_checksum(number: int, text: str, upper: bool, options: ChecksumOptions,
                  body_of: Callable[[str], bytes | None]) -> tuple[int, Callable[[str], int | None]] | None:
    """(where a REM's text starts, the checksum of a text that differs from *text* only there),
    computed on the bytes: a REM's text is stored as typed, one byte per character."""
    quoted = quote_flags(text)
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
               tried: Tried | None = None, habits: frozenset[tuple[str, str]] = frozenset()) -> list[Fix]:
    """Readings of a line's text whose checksum is *printed*, most likely first; and the reading
    that the checksum itself was misread (the text as printed, the checksum it gives).  *learned*:
    the listing's own confusions (:func:`learn`); *habits*: the misreadings its lines show
    (:mod:`.habits`); *deep*: three misreadings combined too (offered,
    taken without asking only with a second witness, verdict.confirmed and verdict.sole_reading:
    three changes can cancel in an 8-bit checksum).  *tried*: the
    texts already read for this line (a second ranking reads each text once)."""
    edits = candidate_edits(text, upper, learned, habits) + name_edits(text) + key_edits(text)
    tried = Tried() if tried is None else tried
    if tried.read >= tried.budget:  # the listing's budget is spent: the line is not searched
        tried.skipped += len(edits)
        return []
    memo, misses = tried.bodies, tried.misses

    def body_of(candidate: str) -> bytes | None:
        if candidate not in memo:
            if tried.read >= tried.budget:  # the budget is spent: the text is not read
                tried.skipped += 1
                return None
            tried.read += 1
            memo[candidate] = statement_bodies(candidate, upper, tried.statements, tried.chunks, tried.names)
        return memo[candidate]

    found: dict[str, Fix] = {}
    quoted = quote_flags(text)
    shown = shown_places(text, upper)
    # the keywords of the line as printed (an unreadable character left out: a fix that only
    # makes the line readable does not make a keyword of a misread one)
    base_tokens = token_count(line_body("".join(c if readable(c) else " " for c in text), upper))

    def consider(moves: tuple[tuple[tuple[Edit, ...], float], ...], extra: float, offered: bool = False) -> None:
        if tried.read >= tried.budget:  # the budget is spent: candidates are counted, not read
            tried.skipped += 1
            return
        chosen = tuple(e for m in moves for e in m[0])
        cost = extra + sum(c for _, c in moves) + (MIXED_READING_COST if len(chosen) > 1 and mixed_reading(text, chosen) else 0.0)
        new = apply(text, chosen)
        if new in found and found[new].cost <= cost or new in misses:
            return
        if new not in memo:
            tried.weighed.append((cost, 1 + sum(GLYPH_READINGS - 1 for e in chosen if e.why.startswith("underlined")), chosen))
            if any(e.why.endswith(HABIT_NOTE) for e in chosen):
                tried.habitual.append(cost)
        body = body_of(new)
        if body is None or line_checksum(number, body, options) != printed:
            misses.add(new)  # the same text is reached by other moves: read it once
        else:
            # a shifted letter guessed for an underline mark is one of 26: no evidence (verdict.confirmed
            # may still take it, with the listing's words as the second witness)
            evidence = damage_shown(text, chosen, shown, quoted)
            if token_count(body) > base_tokens:  # the change makes a keyword of a misread one (G0SUB, PDKE)
                cost = max(MIN_COST, cost - KEYWORD_BONUS)
                evidence = evidence or _keyword_made(text, new, chosen, upper)
            if _unmakes_keyword(text, new, tuple(e for e in chosen if not e.why.endswith(HABIT_NOTE))):
                cost += KEYWORD_LOST_COST  # a keyword printed whole, unmade ('POR' for FOR, '(HR' for CHR)
            if any(_makes_damage(text, e) for e in chosen):
                cost += MAKES_DAMAGE_COST  # a digit put into a word the print shows whole ('LSAECHSI5CH')
            if damage_left(new, upper):
                cost += DAMAGE_LEFT_COST  # a reading that leaves the print's damage unexplained
            found[new] = Fix(cost, new, chosen, evidence and not offered)

    moves = [((e,), e.cost) for e in edits] + sweeps(text, edits, upper)
    for move in moves:
        consider((move,), 0.0)
    # (a keyword's misread letter first among equals: DAfA0 is DATA 0)
    likely = sorted((m for m in moves if len(m[0]) == 1 and m[1] <= LIKELY),
                    key=lambda m: (m[1], not m[0][0].why.endswith(" misread")))[:MAX_PAIR_EDITS]
    likely += [m for m in moves if len(m[0]) > 1 and m[1] <= LIKELY_SWEEP]  # sweeps are few: always paired
    for a, b in combinations(likely, 2):
        if not any(overlaps(x, y) for x in a[0] for y in b[0]):
            consider((a, b), PAIR_EXTRA)
    _glyph_fixes(number, text, printed, upper, options, likely, consider, body_of, deep)
    if deep:
        _triples(text, upper, moves, consider)
        # a likely misreading and a less likely one (10/85 p. 55 line 260: 'Al$(I)' twice, 'CHR$CX)')
        wide = sorted((m for m in moves if LIKELY < m[1] <= DEEP_WIDE_COST), key=lambda m: m[1])[:DEEP_WIDE]
        for a, b in product(sorted(likely, key=lambda m: m[1])[:DEEP_WIDE], wide):
            if not any(overlaps(x, y) for x in a[0] for y in b[0]):
                consider((a, b), PAIR_EXTRA, offered=True)
    rules, dashes = rem_rule_edits(text)
    if deep:  # a row of one graphics glyph whose length OCR lost: alone, offered
        joins = [m for m in likely if all(e.why == "blanks inside a keyword" for e in m[0])]
        for edit in graphics_runs(text, upper):
            consider((((edit,), edit.cost),), 0.0, offered=True)
            for join in joins:  # ('PR I NT " TTTT...')
                if not any(overlaps(edit, e) for e in join[0]):
                    consider((((edit,), edit.cost), join), PAIR_EXTRA, offered=True)
    if deep:  # a rule lost from quotes: alone (each length paired with every helper would cost more than it finds)
        for edit in quoted_gap_rules(text):
            consider((((edit,), edit.cost),), 0.0)
    helpers = [m for m in likely if len(m[0]) == 1 and m[1] < LIKELY] + [((d,), d.cost) for d in dashes]
    if deep:  # two rules of a REM, both counted wrong (10/85 p. 54 lines 5 and 20)
        read = [e for e in rules if " read as " in e.why]
        quick = _rem_checksum(number, text, upper, options, body_of)
        for ra, rb in combinations(read, 2):
            if ra.start != rb.start and not overlaps(ra, rb):
                # (each pair of lengths is checked on the bytes first: there are hundreds)
                if quick is not None and min(ra.start, rb.start) >= quick[0] and quick[1](apply(text, (ra, rb))) == printed:
                    consider((((ra,), ra.cost), ((rb,), rb.cost)), PAIR_EXTRA, offered=True)
    for edit in rules:
        consider((((edit,), edit.cost),), 0.0)
        for helper in helpers:  # the rule and one misreading the print shows elsewhere
            if not any(overlaps(edit, e) or e.start == edit.end for e in helper[0]):
                consider((((edit,), edit.cost), helper), PAIR_EXTRA)
    if deep and all(damage_left(f.text, upper) for f in found.values()):
        # no reading found that explains the print's damage: every combination of the moves where it shows
        left = widest_search(text, upper, shown_moves(text, upper, moves), consider, lambda: tried.read)
        tried.wide_left += left  # (a search stopped by its bound takes nothing unasked: read.py)
    computed = checksum_of(number, text, upper, options)
    fixes = _one_a_line(sorted(found.values(), key=lambda f: (f.cost, f.text)), body_of)
    if computed is not None:
        shown_p, shown_c = f"{printed:03d}", f"{computed:03d}"
        diff = [(p, c) for p, c in zip(shown_p, shown_c) if p != c]
        if len(diff) <= 2:
            cost = sum(char_cost(p, c) for p, c in diff) + (PAIR_EXTRA if len(diff) == 2 else 0.0)
            fixes.append(Fix(cost, text, (), False, computed))
            fixes.sort(key=lambda f: (f.cost, f.text))
    return fixes[:limit]


def _one_a_line(fixes: list[Fix], body_of: Callable[[str], bytes | None]) -> list[Fix]:
    """*fixes* (cheapest first) with one reading of each stored line: two texts that store the same
    bytes are one line ('{HOME,12DOWN,RVSO N>' and '{HOME}{12 DOWN}{RVSON}', the second reading
    a name's letter where the print shows a misread name).  Of those, the cheapest one whose
    changes are where the print shows damage is kept, else the cheapest."""
    groups: dict[bytes | None, list[Fix]] = {}
    for f in fixes:
        groups.setdefault(body_of(f.text), []).append(f)
    keep = {id(next((f for f in group if f.evidence), group[0])) for body, group in groups.items() if body is not None}
    return [f for f in fixes if id(f) in keep or body_of(f.text) is None]


KEYWORD_LOST_COST = 1.0


def _could_be_evidence(text: str, edits: tuple[Edit, ...], shown: frozenset[int], quoted: list[bool]) -> bool:
    """The reading's changes could all count as evidence if it verified (the test :func:`rank_fixes`
    makes of a fix, without its body): each where the print shows damage (*shown*), a blank in a
    keyword, a ':' or brackets lost, a habit's -- or each a letter of a keyword the new text
    spells (:func:`_keyword_made`, here without asking whether the keyword is new: counted rather
    than missed).  Never a solved glyph or a rule's length."""
    if any(e.why.startswith(UNREADABLE_KINDS) or case_read_in_quotes(text, e, quoted) for e in edits):
        return False
    if damage_shown(text, edits, shown, quoted):
        return True
    if not all(e.end == e.start + 1 and len(e.new) == 1 for e in edits):
        return False
    new = apply(text, edits)
    return all(e.start in shown or e.new.isalpha() and _spells_keyword(new, e.start) for e in edits)
MAKES_DAMAGE_COST = 1.5


def _keyword_made(text: str, new: str, edits: tuple[Edit, ...], upper: bool) -> bool:
    """Every edit is one character, and each one the print does not show as damage makes a
    letter of a keyword the new text reads where the print read none ('P0KE'): the keyword is
    the evidence for its own letters, never for a change elsewhere in the line ('P0KE199,0' is
    no witness for '199.0')."""
    if any(e.end != e.start + 1 or len(e.new) != 1 or e.why.startswith(UNREADABLE_KINDS) for e in edits):
        return False
    return all(suspect(text, e.start, upper) or _spells_keyword(new, e.start) for e in edits)


_SPELLED = frozenset(kw for kw in KEYWORDS if len(kw) >= 3 and kw.isalpha())
_SPELLED_LENGTHS = tuple(sorted({len(kw) for kw in _SPELLED}))


def _spells_keyword(new: str, k: int) -> bool:
    """new[k] is a letter of a keyword spelled out around it (of three letters or more)."""
    window = new[max(0, k - _SPELLED_LENGTHS[-1] + 1) : k + _SPELLED_LENGTHS[-1]].upper()
    at = min(k, _SPELLED_LENGTHS[-1] - 1)  # new[k] in the window
    return any(window[s : s + n] in _SPELLED for n in _SPELLED_LENGTHS for s in range(max(0, at - n + 1), at + 1))


def _unmakes_keyword(text: str, new: str, edits: tuple[Edit, ...]) -> bool:
    """A one-character edit changes a letter of a keyword the print shows whole and the new
    text does not read that keyword there ('POR' for FOR, 'PRUNT' for PRINT)."""
    if any(e.end != e.start + 1 or len(e.new) != 1 for e in edits) or not any(text[e.start].isalpha() for e in edits):
        return False  # (an operator read for '$' is no keyword the print shows: 'CHR^(13)')
    old_kw = keywords_at(text)
    if not any(e.start in old_kw for e in edits):
        return False
    new_kw = keywords_at(new)
    return any(text[e.start].isalpha() and e.start in old_kw and new_kw.get(e.start) != old_kw[e.start] for e in edits)


def _makes_damage(text: str, e: Edit) -> bool:
    """The edit puts a digit between two letters, or into a word of three or more letters the print shows whole: OCR
    reads a printed letter as a digit and the reverse, but a clean word is rarely a misread
    number (10/85 p. 54 line 22: '5 read as S' in ANGELSAECHSISCH verifies by chance)."""
    if e.end != e.start + 1 or len(e.new) != 1 or not e.new.isdigit() or not text[e.start].isalpha():
        return False
    if e.start > 0 and e.end < len(text) and text[e.start - 1].isalpha() and text[e.end].isalpha():
        return True  # a digit between two letters ('f1ENDERN' of 'flENDERN', an underlined A read as 'fl'; 10/85 p. 73)
    lo, hi = e.start, e.end
    while lo > 0 and text[lo - 1].isalpha() and not _ends_keyword(text[:lo]):
        lo -= 1
    while hi < len(text) and text[hi].isalpha():
        hi += 1
    return hi - lo >= 3 and all(c.isupper() for c in text[lo:hi]) or hi - lo >= 3 and all(c.islower() for c in text[lo:hi])


def _ends_keyword(head: str) -> bool:
    """*head* ends with a keyword of three letters or more ('POKE' of 'POKEI99': a word starts after it)."""
    upper = head.upper()
    return any(len(kw) >= 3 and kw.isalpha() and upper.endswith(kw) for kw in KEYWORDS)


def _triples(text: str, upper: bool, moves: list[tuple[tuple[Edit, ...], float]], consider: Callable[..., None]) -> None:
    """Three likely misreadings in one line, each where the print shows damage or one of the
    listing's habits (10/85 p. 55 line 160: 'Al^(72),A2*(72),A3*(72)')."""
    pool = sorted((m for m in moves if m[1] <= DEEP_MAX_COST
                   and all(e.why.endswith(HABIT_NOTE) or e.why == "blanks inside a keyword"
                           or all(k < len(text) and suspect(text, k, upper)
                                                             for k in range(e.start, max(e.end, e.start + 1)))
                           for e in m[0])),
                  key=lambda m: m[1])[:DEEP_MOVES]
    for trio in combinations(pool, 3):
        if sum(c for _, c in trio) + 2 * PAIR_EXTRA > DEEP_COST:
            continue
        if any(overlaps(x, y) for a, b in combinations(trio, 2) for x in a[0] for y in b[0]):
            continue
        consider(trio, 2 * PAIR_EXTRA, offered=True)
