"""csglyph: a shifted letter or graphics character inside quotes solved from the checksum."""

from __future__ import annotations

import pytest

from asm6502.typein.cslisting import glyph as csglyph
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import quote_flags
from asm6502.typein.cslisting.text import control_spans, line_body


def checksum_of(number: int, version: int):
    def checksum(text: str) -> int | None:
        body = line_body(text, True)
        return None if body is None else line_checksum(number, body, ChecksumOptions(version))
    return checksum


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize("text,k", [
    ('DATA"Y",0,112,34', 5),  # 10/85 p. 74 line 8502: {CBM-K} read as Y
    ('DATA"5",999,241', 5),  # p. 74 line 8508: {CBM-@} read as 5
    ('PRINT"<CLR>BITTE KORREKT FORMATIERTE £ISKETTE"', 32),  # p. 32 line 580: shifted D read as £
    ('PRINT"ZEIT :"TM"S"TAB(SP)', 6),  # p. 32 line 1120: shifted Z, the underline lost
])
def test_the_byte_that_fits_is_the_one_printed(text, k, version):
    # whatever byte the print had at text[k], solving from the checksum finds it again
    checksum = checksum_of(1120, version)
    for code in (0xA0, 0xAB, 0xBA, 0xC1, 0xC4, 0xDA, 0xDF):
        printed = checksum(text[:k] + csglyph.spelled(code, True) + text[k + 1:])
        assert csglyph.solve(text, k, printed, version == 3, checksum) == code


@pytest.mark.parametrize("text,want", [
    ('DATA"Y",0', [(5, "alone")]),
    ('DATA"5",999', [(5, "alone")]),  # a glyph alone in quotes read as a digit
    ('PRINT"25"', []),  # a digit in a number is printed so
    ('PRINT"£ISK WIRD"', [(6, "symbol"), (11, "initial")]),  # (the I of £ISK is inside the word)
    ('PRINT"<CLR>EIN"', [(11, "initial")]),  # inside a control-code name: not a glyph
    ('REM "£ISK"', []),  # after REM: not in quotes
])
def test_places(text, want):
    skip = {k for i, j, _ in control_spans(text) for k in range(i, j)}
    got = [(p.index, p.kind) for p in csglyph.places(text, quote_flags(text), skip, True)]
    assert got == want


def test_the_solved_reading_is_offered_never_taken():
    # 10/85 p. 74 line 8510: the disk's {CBM-G} is the first fix, and the line stays bad
    from asm6502.typein.cslisting.read import read_listings
    result, = read_listings('8510 DATA"^",0,12,74 ,106,74,12,0,0,27 ,69,0,0,0,0,0,0 <214>\n', "t")
    line, = result.lines
    assert line.status == "bad"
    assert line.fixed_texts[0] == 'DATA"{CBM-G}",0,12,74 ,106,74,12,0,0,27 ,69,0,0,0,0,0,0'


@pytest.mark.parametrize("line,status,fixed", [
    # 10/85 p. 55 line 200: the rule read as 36 dashes is 24 long -- the only reading, and the
    # line shows no other damage: taken (a rule is a comment's text)
    ("200 REM EINLESEN------------------------------------ <076>", "repaired", "REM EINLESEN" + "-" * 24),
    # 10/85 p. 131 line 130: the rule between the stars lost (the same)
    ("120 REM * A L A R M A N L A G E * <233>\n130 REM *   * <226>", "repaired", "REM * " + "-" * 21 + "   *"),
    # 10/85 p. 54 line 22: the rule (5 dashes read as 6) and a 5 read as S both verify: offered
    ("22 REM------ANGELSAECHSISCH FUERDRUCKER---- <160>", "bad", "REM-----ANGELSAECHSISCH FUERDRUCKER----"),
])
def test_a_rem_rule_of_any_length_is_found(line, status, fixed):
    from asm6502.typein.cslisting.read import read_listings
    result, = read_listings(line + "\n", "t")
    r = result.lines[-1]
    assert r.status == status
    text = r.fixed_texts[0] if status == "bad" else r.text
    assert line_body(text, True).replace(b" ", b"") == line_body(fixed, True).replace(b" ", b"")


@pytest.mark.parametrize("line,status,text", [
    # Hypra-Text 34050: a lone typographic quote is the quote mark, not a character to replace
    # (it was 'repaired' to an X that happened to verify)
    ('34050 PRINT"{HOME,20DOWN >";EN;\u201c<2SPAC ET";EMt <009>', "bad", None),
    # Hypra-Text 56103: a fix of an unreadable character does not "make a keyword" (it was
    # 'repaired' to a shifted P: shifted letters in quotes counted as keywords)
    ('56103 PRINT" IST, DANN DIE \u00dcYPRA-TEXTaiSKETTE" <246>', "bad", None),
    # floppy-adjust 445: one glyph read one way: 'll' is 11, with F0R's 0 for O
    ("445 POKE CU,24:PRINT:F0R F=1 TO ll:PRINT:NEXT:POKE CU,10:PRINT <217>", "repaired",
     "POKE CU,24:PRINT:FOR F=1 TO 11:PRINT:NEXT:POKE CU,10:PRINT"),
    # floppy-adjust 1180: {RVOFF} is 64'er's spelling; the underlined E is offered, not taken
    ('1180 IF TM>MT THEN PRINT"<RVSON,UP,RED>FALSCHE\u00a3INSTELLUNG !<RVOFF,WHITE?" <001>', "bad",
     'IF TM>MT THEN PRINT"<RVSON,UP,RED>FALSCHEeINSTELLUNG !<RVOFF,WHITE?"'),
])
def test_real_lines(line, status, text):
    from asm6502.typein.cslisting.read import read_listings
    result, = read_listings(line + "\n", "t")
    r, = result.lines
    assert r.status == status
    if status == "repaired":
        assert r.text == text
    elif text is not None:
        assert r.fixed_texts[0] == text


def test_deep_places_are_words_in_quotes_begun_by_two_characters_or_a_small_letter():
    from asm6502.typein.cslisting import glyph as csglyph
    from asm6502.typein.cslisting.edits import quote_flags

    text = 'PRINT"flAX. <SROBE lYE. £ISK":X=fl'
    got = [(p.index, p.width, p.kind) for p in csglyph.two_character_places(text, quote_flags(text), set(), True)]
    # 'fl' (two characters or a small letter), '<S', 'l' before 'YE'; '£' is a place of its own,
    # 'fl' outside quotes is no place
    assert got == [(6, 2, "two"), (12, 2, "two"), (19, 2, "two"), (19, 1, "small")]
    assert csglyph.two_character_places(text, quote_flags(text), set(), False) == []
