"""BASIC V2 tokenizer: tricky lines and the bytes the C64 ROM stores for them.

Expected bytes are worked out by hand from the ROM's CRUNCH routine ($A57C-$A612,
C64 BASIC ROM disassembly) and the token table at $A09E, not produced by this
tokenizer.  Text is petcat style: lowercase = unshifted letters ($41-$5A),
uppercase = shifted letters ($C1-$DA), ~ = pi.
"""

from __future__ import annotations

import pytest

from asm6502.basic.tokenizer import crunch_text, detokenize, tokenize
from asm6502.diagnostics import DiagnosticError


def h(text: str) -> bytes:
    return bytes.fromhex(text)


CRUNCH_TABLE = [
    # (line text after the number, stored bytes, why)
    ('print"hi"', "99 22 48 49 22", "keyword, then a string copied as is"),
    ("?a", "99 41", "? is stored as the PRINT token ($A59C)"),
    ("pO53280,0", "97 35 33 32 38 30 2c 30", "abbreviation: P + shifted O = POKE"),
    ("gO100", "89 31 30 30", "G + shifted O: GOTO comes before GO and GOSUB in the table"),
    ("eN", "80", "E + shifted N = END"),
    ("enD", "45 4e", "a shifted LAST letter equals the table byte: no match, the shifted D is then dropped"),
    ("ifx=athen10", "8b 58 b2 41 a7 31 30", "keywords found without spaces; 'athen' is a + THEN"),
    ("score=1", "53 43 b0 45 b2 31", "keyword inside a name: sc OR e"),
    ("fort=1to9", "81 54 b2 31 a4 39", "FOR T = 1 TO 9 written together"),
    ("goto10", "89 31 30", "GOTO"),
    ("go to 10", "cb 20 a4 20 31 30", "GO and TO as two tokens"),
    ("pr int", "50 52 20 b5", "a space inside a keyword breaks it; INT found"),
    ("input#1,a$", "84 31 2c 41 24", "INPUT# comes before INPUT"),
    ("print#1", "98 31", "PRINT# comes before PRINT"),
    ("ab=val(a$)", "41 42 b2 c5 28 41 24 29", "no keyword starts 'ab='; VAL found"),
    ("print tab(5)", "99 20 a3 35 29", "TAB( includes the parenthesis"),
    ("def fna(x)=x*~", "96 20 a5 41 28 58 29 b2 58 ac ff", "FN token, pi stored as $FF"),
    ("a=~", "41 b2 ff", "pi outside quotes"),
    ('print "a:b?c"', "99 20 22 41 3a 42 3f 43 22", "no tokens and no ? -> PRINT inside quotes"),
    ('print"end', "99 22 45 4e 44", "unclosed quote runs to the line end"),
    ("rem pOke \"x", "8f 20 50 cf 4b 45 20 22 58", "after REM everything is stored as typed"),
    ("rem A", "8f 20 c1", "shifted letters survive after REM"),
    ("data a,b,?:print", "83 20 41 2c 42 2c 3f 3a 99", "DATA: nothing tokenized until ':'"),
    ('data "a:b",c:?', "83 20 22 41 3a 42 22 2c 43 3a 99", "a ':' in quotes does not end DATA"),
    ("data print", "83 20 50 52 49 4e 54", "keywords stay letters in DATA"),
    ("A=1", "b2 31", "a shifted letter outside quotes is dropped ($A585)"),
    ('print"A"', "99 22 c1 22", "shifted letters are kept inside quotes"),
    ('print"{clr}{5 down}x"', "99 22 93 11 11 11 11 11 58 22", "control codes and a repeat in quotes"),
    ('print"{CLR}{2SPACE}{RVSON}"', "99 22 93 20 20 12 22", "64'er spellings"),
    ('print"{clear}{down*2}{reverse on}"', "99 22 93 11 11 12 22", "tok64 spellings"),
    ('print"{$c1}{65}"', "99 22 c1 41 22", "{$hh} and {ddd}"),
    ("poke 53280,0: sys 64738", "97 20 35 33 32 38 30 2c 30 3a 20 9e 20 36 34 37 33 38", "spaces are kept"),
    ("a=b or c", "41 b2 42 20 b0 20 43", "OR between spaces"),
    ("x=len(a$)+1", "58 b2 c3 28 41 24 29 aa 31", "+ is a token"),
    ("a<>b", "41 b3 b1 42", "< and > are separate tokens"),
    ('a$="x"+chr$(13)', "41 24 b2 22 58 22 aa c7 28 31 33 29", "CHR$ includes the dollar"),
    ("{$8f}not a comment", "8f 4e 4f 54 20 41 20 43 4f 4d 4d 45 4e 54", "an escaped REM token also starts a comment"),
]


@pytest.mark.parametrize("text, expected, why", CRUNCH_TABLE, ids=[row[0] for row in CRUNCH_TABLE])
def test_crunch_matches_rom(text, expected, why):
    assert crunch_text(text) == h(expected), why


def test_one_rem_program_layout():
    # $0801: link $0807, line 1, REM, $00, then the $0000 end marker
    result = tokenize("1 rem\n")
    assert result.prg == h("01 08 07 08 01 00 8f 00 00 00")
    assert [(line.number, line.address, line.link) for line in result.lines] == [(1, 0x0801, 0x0807)]


def test_links_chain_and_start_address():
    result = tokenize("10 print\n20 end\n", start=0x1C01)
    assert result.prg == h("01 1c 07 1c 0a 00 99 00 0d 1c 14 00 80 00 00 00")


def test_spaces_after_line_number_are_dropped_others_kept():
    assert tokenize("10    print  1\n").lines[0].body == h("99 20 20 31")


def test_spaces_between_line_number_digits_belong_to_the_number():
    result = tokenize("1 0 print\n")
    assert result.lines[0].number == 10
    assert any("line number 10" in d.message for d in result.diagnostics)


@pytest.mark.parametrize("number, ok", [("0", True), ("63999", True), ("064000", False), ("64000", False), ("65535", False)])
def test_line_number_range(number, ok):
    text = f"{number} end\n"
    if ok:
        assert tokenize(text).lines[0].number == int(number)
    else:
        with pytest.raises(DiagnosticError) as exc:
            tokenize(text, filename="t.bas")
        assert exc.value.errors[0].render().startswith("t.bas:1:1: error: line number")


def test_duplicate_replaces_out_of_order_sorts_bare_number_deletes():
    result = tokenize("20 a=2\n10 a=1\n20 a=3\n30 end\n30\n")
    assert [(line.number, line.body) for line in result.lines] == [(10, h("41 b2 31")), (20, h("41 b2 33"))]
    messages = " | ".join(d.message for d in result.diagnostics)
    assert "replaces line 20" in messages
    assert "sorts it in" in messages
    assert "deletes line 30" in messages


def test_errors_are_collected_with_positions():
    text = "10 print\nprint 1\n20 print \"{bogus}\"\n30 x=`\n"
    with pytest.raises(DiagnosticError) as exc:
        tokenize(text, filename="bad.bas")
    rendered = [d.render().splitlines()[0] for d in exc.value.errors]
    assert rendered == [
        "bad.bas:2:1: error: missing line number (a C64 would run this line at once)",
        "bad.bas:3:11: error: unknown control-code name {bogus}",
        "bad.bas:4:6: error: '`' has no PETSCII equivalent (write {$hh})",
    ]


def test_line_too_long_to_type_warns_with_length():
    line = "10 rem " + "x" * 74  # 81 characters
    result = tokenize(line + "\n")
    assert any("81 characters as typed" in d.message for d in result.diagnostics)
    assert not any("as typed" in d.message for d in tokenize(line[:-1] + "\n").diagnostics)


def test_escapes_count_one_cell_each_when_typed():
    # 3 + 5 + 2 quotes + 70 cells of {down*70}: exactly 80 cells, no warning
    result = tokenize('10 print"{down*70}"\n')
    assert not any("as typed" in d.message for d in result.diagnostics)


def test_control_code_outside_quotes_warns_but_is_stored():
    result = tokenize("10 rem {clr}\n")
    assert result.lines[0].body == h("8f 20 93")
    assert any("cannot be typed outside quotes" in d.message for d in result.diagnostics)


def test_dropped_shifted_letter_warns_at_its_column():
    result = tokenize("10 A=1\n", filename="s.bas")
    (diag,) = [d for d in result.diagnostics if "does not store" in d.message]
    assert diag.render().startswith("s.bas:1:4: warning: the C64 does not store the shifted letter 'A'")


def test_trailing_spaces_are_dropped_like_the_screen_editor():
    result = tokenize('10 print"a   \n')
    assert result.lines[0].body == h("99 22 41")
    assert any("trailing spaces" in d.message for d in result.diagnostics)


def test_255_byte_line_tokenizes_and_lists_back():
    # a line far longer than a C64 can take: still stored, listed, round-tripped
    text = "10 rem " + "x" * 250 + "\n"
    result = tokenize(text)
    assert len(result.lines[0].body) == 252
    assert detokenize(result.prg).text == text
    long = tokenize("10 rem " + "x" * 251 + "\n")
    assert any("LIST on a C64 stops after 252" in d.message for d in long.diagnostics)


def test_a_line_number_of_thousands_of_digits_with_spaces_is_an_error():
    """(Python refuses to convert decimal texts of more than 4,300 digits; the warning must not try.)"""
    with pytest.raises(DiagnosticError) as info:
        tokenize("1 " * 3000 + "print\n")
    assert "out of range" in info.value.errors[0].message


@pytest.mark.parametrize("header", [";life.prg ==0801==", ";HIGH IQ ==1c01==  ", "  ;a b.prg ==0801==\r"])
def test_petcat_header_lines_are_skipped(header):
    body = "10 print 1\n20 end\n"
    for text in (header + "\n" + body, body + header + "\n"):
        result = tokenize(text)
        assert result.prg == tokenize(body).prg
        # only a header naming another load address is mentioned (the program is tokenized for $0801)
        assert [d.message for d in result.diagnostics] == ([] if "==0801==" in header else
                                                           [result.diagnostics[0].message])
        assert all("$1C01" in d.message for d in result.diagnostics)


def test_a_line_like_a_petcat_header_but_numbered_is_basic():
    result = tokenize("10 rem ;x ==0801==\n")
    assert result.lines[0].number == 10
