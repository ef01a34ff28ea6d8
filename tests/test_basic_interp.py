"""Small BASIC V2 programs and what a C64 screen shows after RUN.

Each expected transcript follows from documented ROM behaviour (addresses in
the comments refer to the C64 BASIC ROM, 901226-01):
* PRINT of a number: FOUT text (sign or space first), then [CURSOR RIGHT]
  ($AB3B: on the screen a cursor-right, not a space, so nothing is overwritten);
  "," moves to the next multiple of 10 ($AAE8); TAB(n)/SPC(n) also print
  cursor-rights ($AB19).
* After the program: the "READY." message is CR, "READY.", CR ($A376), so a
  program that ended its last line shows a blank line before READY.
* Errors: CR, "?", message, "  ERROR" ($A369), " IN " and the line ($A371,
  $BDC2), then READY.; STOP prints CR "BREAK" ($A381) " IN n".
* INPUT: "?" and a cursor-right ($ABF9), "??" when more items are needed,
  "?REDO FROM START" / "?EXTRA IGNORED" ($ACFC/$AD0C), an empty line leaves
  the variables alone ($ABEA).
The transcript is the screen's rows (right-trimmed), rows scrolled away first.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize


def run(source: str, keys: str = "", max_statements: int = 100_000):
    prg = tokenize(source).prg
    return run_prg(prg, input_text=keys, options=RunOptions(seed=0, max_statements=max_statements))


def out(*rows: str) -> str:
    return "\n".join(rows) + "\n"


READY = ("", "READY.")


@pytest.mark.parametrize("source, expected", [
    # --- PRINT formatting -----------------------------------------------------
    ('10 print "hello"', out("HELLO", *READY)),
    ('10 print "a";', out("A", "READY.")),                      # no CR before READY's CR
    ("10 print 1/3", out(" .333333333", *READY)),
    ("10 print 1;2;-3", out(" 1  2 -3", *READY)),
    ("10 print 1,2,3", out(" 1         2         3", *READY)),
    ('10 print "a",', out("A", "READY.")),
    ('10 print "a";tab(10);"b";spc(3);"c"', out("A         B   C", *READY)),
    ('10 print "abcdef";tab(3);"x"', out("ABCDEFX", *READY)),   # TAB behind the cursor: nothing
    ('10 print "xxxx":print "{home}";1', out(" 1XX", "", "READY.")),  # cursor-right keeps the X
    ("10 print 1e9;999999999;.01;.001", out(" 1E+09  999999999  .01  1E-03", *READY)),
    ("10 print -2^2;2^3^2;2+3*4;2^-1", out("-4  64  14  .5", *READY)),
    ("10 print 1=1;1<>1;2>=2;\"a\"<\"b\"", out("-1  0 -1 -1", *READY)),
    ("10 print 5 and 3;5 or 3;not 0;not 1=2", out(" 1  7 -1 -1", *READY)),
    ("10 print int(-3.7);int(3.7);abs(-2);sgn(-5);sgn(0)", out("-4  3  2 -1  0", *READY)),
    ('10 print str$(5);len(str$(-5));val(" 1 2x");val("1e2")', out(" 5 2  12  100", *READY)),
    ('10 print asc("a");chr$(66);left$("hello",2);right$("hello",2);mid$("hello",2,3);mid$("hello",4)',
     out(" 65 BHELOELLLO", *READY)),
    ('10 a$="ab"+"cd":print a$;len(a$)', out("ABCD 4", *READY)),
    # --- variables ------------------------------------------------------------
    ("10 ab=1:abc=2:print ab", out(" 2", *READY)),              # two significant characters
    ("10 a%=3.7:a=1.5:a$=\"s\":print a%;a;a$", out(" 3  1.5 S", *READY)),
    ("10 print a;a%;\"[\"a$\"]\"", out(" 0  0 []", *READY)),
    ("10 a(10)=5:print a(10);a(0)", out(" 5  0", *READY)),      # default bound 10
    ("10 dim b(20):b(20)=7:print b(20)", out(" 7", *READY)),
    ("10 dim c(2,3):c(2,3)=1:print c(2,3)+c(1,1)", out(" 1", *READY)),
    # --- control flow ---------------------------------------------------------
    ("10 for i=1 to 3:print i;:next:print i", out(" 1  2  3  4", *READY)),
    ("10 for i=5 to 1:print i;:next", out(" 5", "READY.")),       # the body runs once
    ("10 for i=1 to 2:for j=1 to 2:print i*10+j;:next:next", out(" 11  12  21  22", "READY.")),
    ("10 for i=1 to 2:for j=1 to 2:print i*10+j;:next j,i", out(" 11  12  21  22", "READY.")),
    ("10 for i=3 to 1 step -1:print i;:next", out(" 3  2  1", "READY.")),
    ("10 gosub 100:print \"back\":end\n100 print \"sub\":return", out("SUB", "BACK", *READY)),
    ("10 for i=1 to 2:gosub 100:next:print \"ok\":end\n100 for j=1 to 5:return",
     out("OK", *READY)),                                          # RETURN drops the open FOR J
    ("10 on 2 goto 20,30:print \"x\"\n20 print \"a\":end\n30 print \"b\"", out("B", *READY)),
    ("10 on 3 goto 20,30:print \"x\"\n20 print \"a\"", out("X", "A", *READY)),
    ("10 on 1 gosub 30:print \"c\":end\n30 print \"s\":return", out("S", "C", *READY)),
    ("10 if 1 then print \"t\"\n20 if 0 then print \"f\"\n30 if 1 goto 50\n40 print \"no\"\n50 print \"e\"",
     out("T", "E", *READY)),
    ("10 if 1 then 30\n20 print \"no\"\n30 print \"y\":if 0 then print \"n\":print \"n\"", out("Y", *READY)),
    ("10 def fn f(x)=x*x+1:x=7:print fn f(3);x", out(" 10  7", *READY)),
    ("10 read a,b$,c:print a;b$;c\n20 data 1,\" x \",3", out(" 1  X  3", *READY)),
    ("10 read a$,b$:print \"[\"a$\"][\"b$\"]\"\n20 data  hello world ,x", out("[HELLO WORLD ][X]", *READY)),
    ("10 read a:restore:read b:print a;b\n20 data 4,5", out(" 4  4", *READY)),
    ("10 print \"a\":end:print \"b\"", out("A", *READY)),
    # --- errors ---------------------------------------------------------------
    ("10 print 1/0", out("", "?DIVISION BY ZERO  ERROR IN 10", "READY.")),
    ("10 print \"x\";\n20 x=", out("X", "?SYNTAX  ERROR IN 20", "READY.")),
    ("110 goto 200", out("", "?UNDEF'D STATEMENT  ERROR IN 110", "READY.")),
    ("10 return", out("", "?RETURN WITHOUT GOSUB  ERROR IN 10", "READY.")),
    ("10 next", out("", "?NEXT WITHOUT FOR  ERROR IN 10", "READY.")),
    ("10 read a", out("", "?OUT OF DATA  ERROR IN 10", "READY.")),
    ("10 read a\n20 data x", out("", "?SYNTAX  ERROR IN 20", "READY.")),   # names the DATA line
    ("10 a(11)=1", out("", "?BAD SUBSCRIPT  ERROR IN 10", "READY.")),
    ("10 a(1)=1:print a(1,1)", out("", "?BAD SUBSCRIPT  ERROR IN 10", "READY.")),
    ("10 dim a(5):dim a(5)", out("", "?REDIM'D ARRAY  ERROR IN 10", "READY.")),
    ("10 print asc(\"\")", out("", "?ILLEGAL QUANTITY  ERROR IN 10", "READY.")),
    ("10 a%=40000", out("", "?ILLEGAL QUANTITY  ERROR IN 10", "READY.")),
    ("10 a$=1", out("", "?TYPE MISMATCH  ERROR IN 10", "READY.")),
    ("10 print 1e38*10", out("", "?OVERFLOW  ERROR IN 10", "READY.")),
    ("10 print fn a(1)", out("", "?UNDEF'D FUNCTION  ERROR IN 10", "READY.")),
    ("10 for i=1 to 2:for j=1 to 2:for i=1 to 1:next i:next j",
     out("", "?NEXT WITHOUT FOR  ERROR IN 10", "READY.")),      # FOR I dropped the frames above it
    ("10 stop", out("", "BREAK IN 10", "READY.")),
    ("10 dim a(10000)", out("", "?OUT OF MEMORY  ERROR IN 10", "READY.")),   # 50 KB > 38911 bytes free
    ("10 def fn f(x)=1/x\n20 print fn f(0)", out("", "?DIVISION BY ZERO  ERROR IN 20", "READY.")),
])
def test_program_output(source, expected):
    assert run(source).transcript == expected


def test_screen_memory_is_visible_to_peek():
    # "A" has screen code 1 (C64 PRG, screen codes); row 1 starts at 1024+40
    result = run('10 print "a":print peek(1024);peek(1064)')
    assert result.transcript == out("A", " 1  32", *READY)


def test_poke_into_screen_memory_shows_on_screen():
    assert run("10 poke 1024+3,2").transcript == out("   B", "READY.")


def test_long_line_wraps_after_40_columns():
    result = run('10 print "' + "x" * 45 + '";pos(0)')
    assert result.transcript == out("X" * 40, "XXXXX 45", *READY)  # POS counts the 80-column logical line


def test_rnd_after_power_on_and_reseed():
    # first RND(1) after power-on: .185564016 (see test_basic_interp_numbers)
    result = run("10 print rnd(1)\n20 x=rnd(-3):a=rnd(1):x=rnd(-3):b=rnd(1):print a=b")
    assert result.transcript == out(" .185564016", "-1", *READY)


def test_ti_dollar_follows_the_seeded_clock():
    assert run('10 print ti$:ti$="123456":print ti$').transcript == out("000000", "123456", *READY)


@pytest.mark.parametrize("source, keys, expected", [
    ('10 input a:print a*2', "21\n", out("? 21", " 42", *READY)),
    ('10 input "age";a:print a', "7\n", out("AGE? 7", " 7", *READY)),
    ('10 input a,b:print a+b', "1\n2\n", out("? 1", "?? 2", " 3", *READY)),
    ('10 input a:print a', "1,2\n", out("? 1,2", "?EXTRA IGNORED", " 1", *READY)),
    ('10 input a:print a', "x\n5\n", out("? X", "?REDO FROM START", "? 5", " 5", *READY)),
    ('10 a=3:input a:print a', "\n", out("?", " 3", *READY)),
    ('10 input a,b:print a;b', "1:2\n3\n", out("? 1:2", "?? 3", " 1  3", *READY)),  # ":" ends the line
    ('10 input a$,b$:print a$"/"b$', '" hi, there",x\n', out('? " HI, THERE",X', " HI, THERE/X", *READY)),
])
def test_input(source, keys, expected):
    assert run(source, keys).transcript == expected


def test_get_reads_single_keys():
    result = run('10 get a$:if a$="" then 10\n20 print asc(a$);:if a$<>"q" then 10', "ab\nq")
    assert result.transcript == out(" 65  66  13  81", "READY.")


def test_input_script_running_out_stops_cleanly():
    result = run("10 input a:goto 10", "1\n")
    assert result.reason == "input" and result.transcript == out("? 1", "?")


def test_statement_limit():
    result = run("10 goto 10", max_statements=500)
    assert result.reason == "limit" and result.statements == 500


def test_get_into_a_number():
    assert run("10 get a:get b:print a;b", "7").transcript == out(" 7  0", *READY)
    # a key that is not a number: ?SYNTAX ERROR without a line number ($AB53)
    assert run("10 get a", "x").transcript == out("", "?SYNTAX  ERROR", "READY.")


def test_input_drops_trailing_blanks_like_the_screen_editor():
    assert run('10 input a$:print "["a$"]"', "ab  \n").transcript == out("? AB", "[AB]", *READY)


def test_quote_mode_shows_control_codes_reversed():
    # after an odd number of quotes the editor is in quote mode ($D4): a HOME
    # code is displayed (reversed "S", screen code $93) instead of executed
    result = run('10 print chr$(34);chr$(19);"a":print peek(1025)')
    assert result.transcript == out('"SA', " 147", *READY)


def test_clear_screen_keeps_earlier_rows_in_the_transcript():
    result = run('10 print "a":print "{clr}b";:print peek(1024)')
    assert result.transcript == out("A", "B 2", *READY)
    assert result.screen_text.split("\n")[0] == "B 2"


# --- robustness: any token soup ends in a BASIC outcome, never a Python exception ---
_SOUP = st.sampled_from(list(range(0x80, 0xCC)) + [0xFF] + list(b'0123456789.,;:"()$%+-ABCIXZ E'))


def _prg(bodies: list[list[int]]) -> bytes:
    out, address = bytearray([0x01, 0x08]), 0x0801
    for number, body in enumerate(bodies, start=1):
        following = address + 4 + len(body) + 1
        out += bytes([following & 0xFF, following >> 8, number * 10, 0]) + bytes(body) + b"\x00"
        address = following
    return bytes(out + b"\x00\x00")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_SOUP, min_size=1, max_size=12), min_size=1, max_size=4))
def test_random_token_soup_never_crashes(bodies):
    result = run_prg(_prg(bodies), input_text="1\n2\nA\n", sys_handler=None,
                     options=RunOptions(seed=0, max_statements=300))
    assert result.reason in ("end", "stop", "error", "input", "limit", "unsupported")
    assert result.transcript.endswith("READY.\n") == (result.reason in ("end", "stop", "error"))
