"""``basic read`` and BASIC's grammar: a reading that is no BASIC, or a DATA list of numbers with a
look-alike letter in it, shows damage -- whatever its checksum says.

An 8-bit checksum lets one misread line in 256 through, and many cheap readings of one line
(every 1 of a DATA line read as l or I, small letters inside quotes made capitals) make a chance
match likelier still.  The rows below are lines of the tuning listings' disk programs (the test
data collection basic_read) as generated OCR damage (asm6502.typein.cslisting.damage) printed
them, each one the reader once took wrong; the property runs the same damage on whole programs.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from helpers import real_text
from hypothesis import example, given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import detokenize, link_program, tokenize
from asm6502.typein.cslisting import damage as csdamage
from asm6502.typein.cslisting.checksum import checksum_listing, line_checksum
from asm6502.typein.cslisting.grammar import misread_data_items, syntax_error
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body

ROOT = Path(__file__).parent.parent
TUNING_DISKS = ("8510-floppy-adjust.disk.txt", "8510-schreiberling.disk.txt", "8510-alarmanlage.disk.txt",
                "8510-codeschloss.disk.txt")


def _body(text: str) -> bytes:
    body = line_body(text, True)
    assert body is not None
    return body


@pytest.mark.parametrize("text, why", [
    ("GOT0280", "GO without TO"),
    ("IF LEN(A3$(I))=0 T HEN A3$(I)=LEFT$(O$,1)", "IF without THEN or GOTO"),
    ("IF A=1 THEN A3^(I)=1", "a variable without '=' after it"),
    ("POKE199.0", "POKE or WAIT without its comma"),
    ("WAIT 198", "POKE or WAIT without its comma"),
    ("FOR I=1 T0 10", "FOR without '=' and TO"),
    ("ON X G0TO 10,20", "ON without GOTO or GOSUB"),
    ("GOSUB 100X", "GOTO or GOSUB with more than a line number"),
    ("PRINT CHR$(147;A", "brackets that do not pair"),
    ("PRINT A):B=1", "brackets that do not pair"),
    ("A=1:+B", "no statement starts so"),
    ("IF A THEN 100 X", "a line number after THEN with more after it"),
    ("GET S#:S=ASC(S$)", "'#' where only PRINT#, INPUT# and GET# have it"),
    ("S=ASC(S#)", "'#' where only PRINT#, INPUT# and GET# have it"),
    ("PRINT A#", "'#' where only PRINT#, INPUT# and GET# have it"),
])
def test_what_is_no_basic(text, why):
    assert syntax_error(_body(text)) == why


@pytest.mark.parametrize("text", [
    "GOTO280", "GO TO 280", "IF A$=\"T HEN\" THEN PRINT\"GO\":GOTO 10", "IF X GOTO 100", "IF A THEN 100",
    "POKE 53280,PEEK(2)", "WAIT 198,1", "FOR I=1 TO 10 STEP 2:NEXT", "ON X GOSUB 10,20,30",
    "LET A3$(I)=LEFT$(O$,LEN(A1$(I)))", "A%(1,2)=3", "PRINT TAB(5)\"(\";SPC(2)", "REM ( GO T0 ) :",
    "DATA (,:PRINT", "DATA \"A:B\",1:GOTO 10", "::", "PRINT#1,\"U1:\"2;0;T;1", "INPUT\"X\";A$",
    "IF A=1 THEN IF B=2 THEN C=3", "DEF FN A(X)=X*2", "SYS 49152", "END",
    "PRINT #4,A", "INPUT#1,A$", "INPUT #1,A$", "GET#2,A$", "GET #8,A$:IF A$=\"#\" THEN 10", "REM #", "DATA #",
])
def test_what_is_basic(text):
    assert syntax_error(_body(text)) is None


@pytest.mark.parametrize("text, items", [
    ("DATA 0,I,255,l3I,-l", ["I", "l3I", "-l"]),
    ("DATA 0,I6,3L,63,63,0,0,-L", ["I6", "3L", "-L"]),
    ("DATA 0,1,255,S,255", ["S"]),
    ("DATA 0,1,2,3", []),
    ("DATA A9,00,8D,20,D0,60", []),  # hex bytes: a DATA list of words
    ("DATA SOS,OIL,ZIG,1", []),  # words of look-alike letters: too few numbers
    ("DATA 1,2,\"I\",3", []),
    ("PRINT\"DATA 0,I,1,2\"", ["I"]),  # (what a DATA statement is, only a line's reading says)
])
def test_look_alike_letters_in_a_data_list_of_numbers(text, items):
    assert [text[a:b].strip() for a, b in misread_data_items(text)] == items


# (number, the disk's line in capitals, as the damage printed it, the checksum printed: None is the
# disk line's own)
TAKEN_WRONG_ONCE = [
    # the line as printed verifies by chance; GO T0280 is no BASIC
    (380, "GOTO280", "GOT0280", None),
    # its checksum misread too, and the misread line gives it
    (282, "IF LEN(A3$(I))=0 THEN A3$(I)=LEFT$(O$,LEN(A1$(I)))",
     "IF LEN(A3$(I))=0 T HEN A3^(I)=LEFT$(O$,LEN(A1$(I)))", "printed"),
    # small letters inside quotes made capitals: cheap changes that sum to what 'I' for '1' left
    (196, "PRINT\"        DANN  'return'  DRUECKEN        {wht}\";:POKE199,0",
     "PRINT\"        DANN  'return'  DRUECKEN        {wht}\";:POKEI99,0", None),
    # a keyword made of 'P0KE' is no witness for ',' read as '.' elsewhere (the checksum misread)
    (196, "PRINT\"        DANN  'return'  DRUECKEN        {wht}\";:POKE199,0",
     "PRINT\"        DANN  'return'  DRUECKEN        {wht}\";:P0KE199,0",
     "PRINT\"        DANN  'return'  DRUECKEN        {wht}\";:POKE199.0"),
    # every 1 read as l or I: a part of them read back verifies by chance
    (2230, "DATA 0,1,2,3,1,0,1,2,2,2,3,1,0,0,-1", "DATA 0,l,2,3,I,0,l,2,2,2,3,l,0,0,-I", None),
    (1040, "DATA 0,1,255,255,255,1,1,1,1,1,1,130,254,124,0,-1,-1",
     "DATA 0,I,255,255,255,I,l,I,I,l,l,I30,254,l24,0,-l,-l", None),
    (2460, "DATA 0,1,3,7,13,57,113,193,129,3,3,0,-1,-1", "DATA 0,l,3,7,I3,57,lI3,I93,l29,3,3,0,-I,-l", None),
    (1640, "DATA 0,16,31,63,63,0,0,-1", "DATA 0,I6,3l,63,63,0,0,-l", None),
]


def _checksum(number: int, text: str) -> int:
    return line_checksum(number, _body(text))


@pytest.mark.parametrize("number, truth, printed, given_checksum", TAKEN_WRONG_ONCE)
def test_a_damaged_line_is_never_taken_for_another(number, truth, printed, given_checksum):
    checksum = _checksum(number, truth if given_checksum is None else
                         printed if given_checksum == "printed" else given_checksum)
    if given_checksum == "printed":
        assert checksum != _checksum(number, truth)  # (the row is what it says: a misread checksum)
    first, last = "1 REM ** CAPITALS PRINTED **", "63000 END"
    rows = [f"{first}  <{_checksum(1, first[2:]):03d}>", f"{number} {printed}  <{checksum:03d}>",
            f"{last}  <{_checksum(63000, 'END'):03d}>"]
    result, = read_listings("\n".join(rows) + "\n", "t")  # (between two lines that verify, in capitals)
    _, line, _ = result.lines
    if line.status in ("verified", "repaired"):
        assert line.body is not None and line.body.replace(b" ", b"") == _body(truth).replace(b" ", b""), line.repair
    else:
        assert line.status == "bad"  # left to the review


@cache
def _listing(name: str) -> str:
    lines = tokenize(real_text("basic_read", name), filename=name).lines
    prg, _ = link_program([(line.number, line.body, 1) for line in lines], 0x0801)
    return checksum_listing(prg)[0]


@cache
def _highiq() -> str:
    return checksum_listing((ROOT / "build" / "highiq.prg").read_bytes())[0]


def _wrong(listing: str, seed: int, rate: float) -> list[tuple[int, str, str]]:
    damaged = csdamage.damage_listing(listing, random.Random(seed),
                                      classes={k: min(1.0, rate * v) for k, v in csdamage.REALISTIC.items()})
    truth = {t.number: t.text for t in damaged.lines}
    return [(r.number, r.printed, r.text) for result in read_listings(damaged.text, "t") for r in result.lines
            if r.status in ("verified", "repaired") and r.number in truth
            and (r.body or b"").replace(b" ", b"") != _body(truth[r.number]).replace(b" ", b"")]


@settings(max_examples=4, deadline=None, derandomize=True)
@given(name=st.sampled_from(TUNING_DISKS), seed=st.integers(0, 100_000))
@example(name="8510-schreiberling.disk.txt", seed=0)  # line 1040 (the reader before: wrong)
@example(name="8510-schreiberling.disk.txt", seed=2)  # lines 282 and 2230
@example(name="8510-floppy-adjust.disk.txt", seed=9)  # line 196
def test_no_character_damage_at_the_realistic_rates_makes_a_wrong_line(name, seed):
    # (at twice the rates, 2 lines in 4,410 still come back wrong: bench figures in the docs)
    assert _wrong(_listing(name), seed, 1.0) == []


@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=st.integers(0, 100_000))
def test_no_character_damage_makes_a_wrong_line_of_high_iq(seed):
    # (at twice the rates a REM whose checksum was misread can take a rule of dashes that gives it:
    # 'REM ** ONE MOVE **', seed 6023 -- a comment's length, never what the program does)
    assert _wrong(_highiq(), seed, 1.0) == []


def test_every_line_of_the_programs_is_basic():
    prg = (ROOT / "build" / "highiq.prg").read_bytes()
    assert [(line.number, syntax_error(line.body)) for line in detokenize(prg).lines if syntax_error(line.body)] == []
    for name in TUNING_DISKS:
        lines = tokenize(real_text("basic_read", name), filename=name).lines
        assert [(line.number, syntax_error(line.body)) for line in lines if syntax_error(line.body)] == [], name
