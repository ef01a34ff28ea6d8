"""The second ranking's repairs taken with a second witness: the listing's own words
(typein/cslisting/vocabulary.py), or so few readings tried that a chance match is unlikely; and
BASIC's grammar closing the brackets a line's end lost (edits.closing_brackets)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import BRACKETS_LOST, Edit, Fix, apply, closing_brackets, graphics_runs, quote_flags
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body, without_print_blanks
from asm6502.typein.cslisting.verdict import confirmed, sole_reading
from asm6502.typein.cslisting.vocabulary import Vocabulary, confirming_words, tokens


def printed(number: int, meant: str, shown: str | None = None) -> str:
    """A capital listing's line as printed: *shown* (the OCR's reading, default *meant*) with the
    checksum of *meant*, the line the magazine's disk has."""
    body = line_body(meant, True)
    assert body is not None
    return f"{number} {meant if shown is None else shown} <{line_checksum(number, body, ChecksumOptions(3)):03d}>"


# a capital listing whose line 20 prints the words the damaged line 30 needs
LISTING = [
    printed(10, 'PRINT"{CLR}BITTE EINE TASTE DRUECKEN"'),
    printed(20, 'INPUT"sPUR ";T:IF T<1 OR T>35 THEN 20'),
]


@pytest.mark.parametrize("others,line,status,text", [
    # a shifted S printed underlined, read as '£': the word SPUR is the listing's own (line 20)
    (LISTING, printed(30, 'PRINT"sPUR : "T', 'PRINT"£PUR : "T'), "repaired", 'PRINT"sPUR : "T'),
    # the same line where no other line prints SPUR: solved from the checksum, one byte of 64, asked
    (LISTING[:1], printed(30, 'PRINT"sPUR : "T', 'PRINT"£PUR : "T'), "bad", 'PRINT"£PUR : "T'),
    # the underline lost, the letter read as itself: TASTE printed whole in line 10
    (LISTING, printed(30, 'PRINT"tASTE"', 'PRINT"TASTE"'), "repaired", 'PRINT"tASTE"'),
])
def test_a_solved_letter_is_taken_when_the_listing_prints_its_word(others, line, status, text):
    result, = read_listings("\n".join([*others, line]) + "\n", "t.txt")
    got = next(r for r in result.lines if r.number == 30)
    assert (got.status, got.text) == (status, text)
    if status == "repaired":
        assert "the listing prints" in got.repair


@pytest.mark.parametrize("printed_text,fix_text,edits,words", [
    # the change makes a word another line prints: confirmed by it
    ('PRINT"£PUR"', 'PRINT"sPUR"', (Edit(6, 7, "s", 1.5, "underlined"),), ("sPUR",)),
    # a name outside quotes (three characters at least: 'A1$')
    ("DIM Al$(72)", "DIM A1$(72)", (Edit(5, 6, "1", 1.0, "1 read as l"),), ("A1$",)),
    # a word nobody else prints: not confirmed
    ('PRINT"£ANN"', 'PRINT"dANN"', (Edit(6, 7, "d", 1.5, "underlined"),), None),
    # a change outside every word (a colon): not confirmed
    ("A=1-B=2", "A=1:B=2", (Edit(3, 4, ":", 1.0, ": read as -"),), None),
    # the word stood there already (the change is elsewhere in it, the same letters): not confirmed
    ('PRINT"SPUR"', 'PRINT"SPUR"', (Edit(6, 7, "S", 1.0, "S read as S"),), None),
])
def test_confirming_words(printed_text, fix_text, edits, words):
    vocabulary = Vocabulary.of([(20, 'INPUT"sPUR";T'), (40, "PRINT A1$(I)"), (50, "PRINT A1$")])
    assert apply(printed_text, edits) == fix_text
    assert confirming_words(printed_text, Fix(1.5, fix_text, edits, False), vocabulary, 30) == words


def test_a_word_of_the_line_itself_confirms_nothing():
    vocabulary = Vocabulary.of([(30, 'PRINT"sPUR"')])
    fix = Fix(1.5, 'PRINT"sPUR"', (Edit(6, 7, "s", 1.5, "underlined"),), False)
    assert confirming_words('PRINT"£PUR"', fix, vocabulary, 30) is None


def test_control_code_names_are_no_words():
    assert [m.group() for m in tokens('PRINT"{CLR}<2 DOWN>BITTE"')] == ["PRINT", "BITTE"]


def _fix(cost: float, text: str, evidence: bool = True, why: str = "O read as 0") -> Fix:
    return Fix(cost, text, (Edit(0, 1, text[0], cost, why),), evidence)


@pytest.mark.parametrize("fixes,chance,taken", [
    ([_fix(1.0, "A=1")], 0.05, True),
    ([_fix(1.0, "A=1")], 0.5, False),  # many readings tried as cheap: one verifying may be chance
    ([_fix(1.0, "A=1"), _fix(1.8, "A=2")], 0.05, False),  # a rival within twice the margin
    ([_fix(1.0, "A=1"), _fix(2.5, "A=2")], 0.05, True),
    ([_fix(1.0, "A=1", evidence=False)], 0.0, False),  # no damage printed there: asked
    ([_fix(1.0, "A=1", why="underlined (shifted letter) a read as 'A'")], 0.0, False),  # a solved glyph
    ([_fix(2.5, "A=1")], 0.0, False),  # too dear
])
def test_sole_reading(fixes, chance, taken):
    assert sole_reading(fixes, True, chance) is taken


def test_two_confirmed_readings_are_asked():
    vocabulary = Vocabulary.of([(20, 'PRINT"sPUR cPUR"')])
    a = Fix(1.5, 'PRINT"sPUR"', (Edit(6, 7, "s", 1.5, "underlined"),), False)
    b = Fix(2.5, 'PRINT"cPUR"', (Edit(6, 7, "c", 2.5, "underlined"),), False)
    assert confirmed([a], True, 'PRINT"£PUR"', vocabulary, 30) == ("sPUR",)
    assert confirmed([a, b], True, 'PRINT"£PUR"', vocabulary, 30) is None


@pytest.mark.parametrize("text,fixed", [
    ("A$=LEFT$(D$,LEN(A1$(I) >>", "A$=LEFT$(D$,LEN(A1$(I)))"),  # '>' for ')' at the end
    ("PRINT CHR$(147", "PRINT CHR$(147)"),  # lost at the end
    ("X=PEEK(53280]", "X=PEEK(53280)"),
    ("IF A=(B THEN 10", None),  # the bracket's expression ends at THEN: not at the line's end
    ("A=B:C=(D", "A=B:C=(D)"),
    ("A=(B:C=D", None),
    ('PRINT"(("', None),  # brackets in quotes are text
    ("REM (SIC", None),
    ("A=B)", None),
    ("A=((((B", None),  # more than three open: no one reading
])
def test_closing_brackets(text, fixed):
    edits = closing_brackets(text, quote_flags(text))
    assert (apply(text, (edits[0],)) if edits else None) == fixed
    assert all(e.why == BRACKETS_LOST for e in edits)


EXPRESSIONS = st.recursive(
    st.sampled_from(["A", "B1", "I", "7", "255", "A$"]),
    lambda inner: st.one_of(
        st.tuples(st.sampled_from(["LEN(", "ASC(", "PEEK(", "INT(", "A1$(", "("]), inner).map(lambda t: t[0] + t[1] + ")"),
        st.tuples(inner, st.sampled_from(["+", "*", "-", ","]), inner).map("".join)),
    max_leaves=6)


@settings(max_examples=200, deadline=None)
@given(EXPRESSIONS, st.integers(1, 3), st.sampled_from(["", " ", ">", ">>", "]"]))
def test_brackets_lost_at_the_end_come_back(expression, lost, read_as):
    # generated damage: the last closing brackets of a line lost (or read as other marks)
    line = f"X={expression}"
    tail = len(line) - len(line.rstrip(")"))
    assume(tail > 0)
    lost = min(lost, tail)
    damaged = line[: len(line) - lost] + read_as
    edits = closing_brackets(damaged, quote_flags(damaged))
    assert edits and apply(damaged, (edits[0],)).replace(" ", "") == line


def test_a_lost_bracket_is_repaired_when_the_checksum_says_so():
    meant = "PRINT CHR$(147)"
    result, = read_listings(printed(10, meant, "PRINT CHR$(147") + "\n", "t.txt")
    line, = result.lines
    assert (line.status, line.text) == ("repaired", meant)


@pytest.mark.parametrize("text,want", [
    # the listing printer folds a blank beside a control code into the braces: one outside is not typed
    ('PRINT"NICHT <RVOFF,SPACE >ZERSTOERT"', 'PRINT"NICHT<RVOFF,SPACE >ZERSTOERT"'),
    ('PRINT"A {CLR} B"', 'PRINT"A{CLR}B"'),
    ('PRINT "{CLR}"', 'PRINT "{CLR}"'),  # outside quotes: the listing's own spacing, not stored
    ('PRINT"{CLR} {DOWN}"', 'PRINT"{CLR} {DOWN}"'),  # between two codes: the place of something lost
    ('A$="X  <DOWN>":REM <UP> X', 'A$="X<DOWN>":REM <UP> X'),
    ('PRINT"BITTE TASTE"', 'PRINT"BITTE TASTE"'),  # no code: untouched
    ("PRINT''A <CLR>''", "PRINT''A <CLR>''"),  # '' for a quote: offsets differ, left as read
])
def test_print_blanks_beside_control_codes(text, want):
    assert without_print_blanks(text) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["A", "B", " ", "{CLR}", "{DOWN}", '"', ":", "1"]), max_size=14))
def test_print_blanks_change_no_checksum(parts):
    # generated lines: dropping the print's blanks never changes what the Checksummer sums
    text = "PRINT" + "".join(parts)
    body, new = line_body(text, True), line_body(without_print_blanks(text), True)
    if body is not None and new is not None:
        assert line_checksum(10, body, ChecksumOptions(3)) == line_checksum(10, new, ChecksumOptions(3))


def test_a_row_of_one_glyph_is_offered_at_its_length():
    # a row of 40 {CBM-T} that OCR read as T's and some other marks, 'PRINT' letter-spaced
    meant = 'PRINT"{40 CBM-T}"'
    result, = read_listings(printed(197, meant, 'PR I NT " TTTTTTTTTTTTTTTTTTTTTTT^TFrfTfTf"') + "\n", "t.txt")
    line, = result.lines
    assert line.status == "bad"  # a length the checksum checks but cannot find: asked
    # (the blank after PRINT is stored, the Checksummer skips it)
    bodies = [b.replace(b" ", b"") for t in line.fixed_texts if (b := line_body(t, True)) is not None]
    assert bodies.count(line_body(meant, True)) == 1


@settings(max_examples=100, deadline=None)
@given(st.sampled_from("TABCDQ"), st.integers(8, 60), st.integers(-4, 4), st.sampled_from(["CBM", "SHIFT"]))
def test_a_row_of_one_glyph_is_among_the_run_readings(key, length, misread, prefix):
    # generated damage: a row of *length* glyphs read as the key's letter, a few more or fewer
    read = max(8, length + misread)
    text = f'PRINT"{key * read}"'
    news = {e.new for e in graphics_runs(text, True)}
    if abs(read - length) <= 4 or length == 40:
        assert "{" + f"{length} {prefix}-{key}" + "}" in news


@pytest.mark.parametrize("text", [
    'PRINT"BITTE TASTE DRUECKEN"',  # words: no row
    'PRINT"TTT"',  # too short to be a row
    'PRINT"ABCDEFGHIJ"',  # no letter most of it
    'PRINT"{CLR}TTTTTTTTTT"',  # a control code in it: not one row
])
def test_no_row_reading(text):
    assert graphics_runs(text, True) == []
