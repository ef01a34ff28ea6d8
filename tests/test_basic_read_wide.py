"""The widest ranking (asm6502.typein.cslisting.wide): several independent misreadings in one line.

A line with its '$' read as 't', a '1' as 'l' and a ')' as '>' at once is out of reach of the
pairs and triples of likely moves; the widest ranking reads every combination of the moves where
the print shows damage, cheapest first, within its bounds, and offers what verifies.  Never a
wrong line: the damage is made from correct lines (damage class "several") and every line taken
is checked against its truth.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from asm6502.typein.cslisting import damage as csdamage
from asm6502.typein.cslisting import edits, rank, wide
from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing
from asm6502.typein.cslisting.edits import SPACED_DIGIT_WHY, keyword_edits, quote_flags, suspect
from asm6502.typein.cslisting.rank import Tried, rank_fixes
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import checksum_of, line_body

ROOT = Path(__file__).parent.parent
OPTIONS = ChecksumOptions(3)


def _no_wide(*_args: object) -> int:
    return 0


def _ranked(truth: str, printed: str) -> tuple[int | None, rank.Tried, list]:
    """Where *truth* stands among the two rankings' fixes of *printed* (None: not among them)."""
    value = checksum_of(100, truth, True, OPTIONS)
    assert value is not None
    tried = Tried()
    rank_fixes(100, printed, value, True, OPTIONS, tried=tried)
    fixes = rank_fixes(100, printed, value, True, OPTIONS, tried=tried, deep=True)
    texts = [f.text for f in fixes]
    return (texts.index(truth) + 1 if truth in texts else None), tried, fixes


# (the line, as OCR read it with several misreadings, where the truth ranks with the widest ranking)
SEVERAL = [
    ("PRINT MID$(A$,P,1);:X=X+1", "PRINT MIDt(At,P,l>;:X=X+l", 1),
    ("B$=LEFT$(A$,1):C$=B$(1)", "Bt=LEFTt(At,l>:Ct=Bt(1)", 2),
    ("IF LEN(A$)>1 THEN N$=A$+STR$(N)", "IF LEN(At)>l THEN Nt=At+STRt(N>", 1),
    ("FOR I=1 TO LEN(T$):K$=MID$(T$,I,1)", "FOR I=l TO LEN(Tt>:Kt=MIDt(Tt,I,l)", 3),
]


@pytest.mark.parametrize("truth,printed,where", SEVERAL)
def test_several_misreadings_are_ranked_by_the_widest_ranking_only(truth, printed, where, monkeypatch):
    at, _, fixes = _ranked(truth, printed)
    assert at == where
    assert not fixes[at - 1].evidence  # offered: the widest ranking takes nothing by itself
    monkeypatch.setattr(rank, "widest_search", _no_wide)
    assert _ranked(truth, printed)[0] is None  # without it the truth is not among the fixes


def test_the_widest_ranking_stops_at_its_bound_and_says_so(monkeypatch):
    monkeypatch.setattr(wide, "WIDE_TEXTS", 5)
    truth, printed, _ = SEVERAL[0]
    _, tried, _ = _ranked(truth, printed)
    assert tried.wide_left > 0 and tried.skipped == 0  # counted apart from the line's budget
    monkeypatch.setattr(rank, "widest_search", _no_wide)
    _, narrow, _ = _ranked(truth, printed)
    assert narrow.wide_left == 0 and tried.read - narrow.read <= 5 + 1  # (the text read when the bound was hit)


# (a line, the mark's place, whether the print shows damage there: a '<' or '>' no comparison can be)
BRACKETS = [
    ("PRINT CHR$(PEEK(X>);", ">", True),  # a '>' with no operand after it
    ("READ J<K>: NEXT K", "<", True),  # ... and a '<' before it, the bracket it closes
    ("IF B<N)=1 THEN X$=\"! \"", "<", True),
    ("PRINT TAB<9>;", "<", True),  # TAB and SPC are keywords with their '(' only
    ("A=LEN(B$>:C=1", ">", True),
    ("IF A>B THEN 10", ">", False),
    ("IF A<>B THEN 10", ">", False),
    ("IF A>=B THEN 10", ">", False),
    ("A$=B$<PQ):C=1", "<", True),  # a '<' in a statement that closes more brackets than it opens
    ("IF A<(B) THEN 10", "<", False),
    ("IF A<B THEN 10", "<", False),
    ('PRINT "A>";B', ">", False),  # inside quotes
]


@pytest.mark.parametrize("text,mark,shown", BRACKETS)
def test_a_bracket_read_as_a_comparison_shows_damage(text, mark, shown):
    assert suspect(text, text.index(mark), True) is shown


LISTINGS = [("highiq.prg", 11), ("highiq.prg", 12), ("highiq.prg", 13)]


def test_a_line_whose_widest_search_stopped_says_so_and_takes_nothing(monkeypatch):
    monkeypatch.setattr(wide, "WIDE_TEXTS", 5)
    truth, printed, _ = SEVERAL[0]
    value = checksum_of(100, truth, True, OPTIONS)
    result, = read_listings(f"100 {printed}  <{value:03d}>\n", "t", case="upper")
    assert result.lines[0].status == "bad"
    assert any("the widest search" in n.message for d in result.diagnostics for n in d.notes)


@pytest.mark.parametrize("prg,seed", LISTINGS)
def test_several_misreadings_in_a_listing_are_never_taken_wrong(prg, seed):
    listing, _ = checksum_listing((ROOT / "build" / prg).read_bytes())
    damaged = csdamage.damage_listing(listing, random.Random(seed), classes={"several": 1.0})
    result, = read_listings(damaged.text, "t")
    truth = {t.number: t for t in damaged.lines}
    hit = ranked = 0
    for r in result.lines:
        t = truth[r.number]
        if r.status in ("verified", "repaired"):
            assert r.body == line_body(t.text, True), (r.number, t.text, r.printed, r.repair)
        if "several" in t.classes:
            hit += 1
            body = line_body(t.text, True)
            ranked += r.status == "repaired" or any(line_body(f, True) == body for f in r.fixed_texts)
        else:
            assert r.status == "verified"
    # measured on these seeds: every line of the class among the fixes offered (7, 5 and 6 lines)
    assert hit >= 5 and ranked == hit


# (as printed, the keyword read whole; None: no keyword there)
SPACED = [
    ("FOR I=0 T 0 3", "TO"),  # TO's O read as 0 and set apart
    ("IF A THEN G0SUB 1", None),  # (a digit inside the word: the keyword's letter edits read it)
    ("X=T 0", "TO"),  # (offered to the checksum like any reading: 'X=T0' may be meant; the checksum tells)
    ("PRINT A 1", None),  # 'A' and 'I' make no keyword
    ('PRINT"T 0"', None),  # inside quotes
]


@pytest.mark.parametrize("text,keyword", SPACED)
def test_a_keyword_set_apart_with_a_letter_read_as_a_digit(text, keyword):
    got = [e.new for e in keyword_edits(text, quote_flags(text), True) if e.why == SPACED_DIGIT_WHY]
    assert got == ([keyword] if keyword else [])


# (a correct line, as OCR read it with a keyword set apart and other damage, where the truth ranks)
SPACED_LINES = [
    # (a rival at the same cost verifies by chance: 'A$(1)' with FOR 1 and T 0 left as printed)
    ("FOR I=0 TO 3:PRINT A$(I):NEXT", "FOR 1=0 T 0 3:PRINT A$(I):NEXT", 2),
    ("FOR I=0 TO 5:PRINT L$D$(I):NEXT", "FOR 1=0 T 0 5:PRINT L$D$(I)sNEXT", 1),
]


@pytest.mark.parametrize("truth,printed,where", SPACED_LINES)
def test_a_keyword_set_apart_is_ranked(truth, printed, where, monkeypatch):
    assert _ranked(truth, printed)[0] == where
    monkeypatch.setattr(edits, "_SPACED_DIGIT", re.compile("(?!)"))  # without the reading: not found
    assert _ranked(truth, printed)[0] is None
