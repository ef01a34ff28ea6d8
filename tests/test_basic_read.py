"""``basic read``: Checksummer listings typed or OCR'd back into a program, every line checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from asm6502.basic.tokenizer import crunch_text, tokenize
from asm6502.cli import basic
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import Edit, Fix, apply, learn
from asm6502.typein.cslisting.rank import rank_fixes
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body, normalize_controls
from asm6502.typein.cslisting.verdict import confident

ROOT = Path(__file__).parent.parent


def run(argv, capsys):
    code = basic.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def cs(number: int, text: str, version: int = 3) -> int:
    return line_checksum(number, crunch_text(text), ChecksumOptions(version))


def listing(rows, version=3, upper=False):
    """A listing as printed: each line, its <NNN> (checksum of the true text), text as printed."""
    out = []
    for number, true, printed in rows:
        shown = printed if printed is not None else true
        out.append(f"{number} {shown.upper() if upper else shown}  <{cs(number, true, version):03d}>")
    return "\n".join(out) + "\n"


def test_our_own_checksum_listing_reads_back_to_the_same_program(tmp_path, capsys):
    # build/highiq.checksum.txt is `basic checksum build/highiq.prg`: 57 lines
    code, _, err = run(["read", ROOT / "build/highiq.checksum.txt", "-o", tmp_path / "h.prg"], capsys)
    assert code == 0, err
    assert "57 lines verified, 0 repaired, 0 still bad" in err
    assert (tmp_path / "h.prg").read_bytes() == (ROOT / "build/highiq.prg").read_bytes()


def test_tok_refuses_a_checksummer_listing_and_names_read(tmp_path, capsys):
    code, _, err = run(["tok", ROOT / "build/highiq.checksum.txt", "-o", tmp_path / "x.prg"], capsys)
    assert code == 1 and "basic read" in err and "Checksummer listing" in err
    assert not (tmp_path / "x.prg").exists()


@pytest.mark.parametrize("version", [1, 3])
def test_version_is_decided_by_the_checksums(version):
    rows = [(10, 'print "hello"', None), (20, "goto 10", None), (30, "poke 53280,0: rem border", None)]
    result, = read_listings(listing(rows, version), "t")
    assert result.version == version and result.count("verified") == 3 and result.ok


# printed (OCR'd) text -> the fix that should be made, the checksum being the true line's
REPAIRS = [
    ("P0KE 53280,0", "POKE 53280,0", "repaired"),              # O read as 0 inside a keyword
    ("PRINT A$:G0SUB 100", "PRINT A$:GOSUB 100", "repaired"),
    ("IF Rl=1 THEN 10", "IF R1=1 THEN 10", "repaired"),        # 1 read as l
    ("GET G#", "GET G$", "repaired"),                          # $ read as #
    ("PR I NT 5", "PRINT 5", "repaired"),                      # blanks inside a keyword
]


@pytest.mark.parametrize("printed,true,status", REPAIRS)
def test_ocr_damage_shown_in_the_print_is_repaired(printed, true, status, capsys):
    rows = [(10, "rem test", None), (20, true.lower(), printed), (30, "end", None)]
    result, = read_listings(listing(rows, upper=True).replace(printed.lower().upper(), printed), "t")
    line = result.lines[1]
    assert line.status == status, result.diagnostics
    assert line.body == crunch_text(true.lower())


def test_a_typo_without_visible_damage_is_reported_with_ranked_fixes():
    # S for 5 in a number: "POKE 53280,S" is plausible BASIC (S a variable): asked, not repaired
    text = f"10 poke 53280,s  <{cs(10, 'poke 53280,5'):03d}>\n"
    result, = read_listings(text, "t.txt")
    assert result.lines[0].status == "bad" and not result.ok
    err = result.errors[0]
    assert err.message.startswith("checksum mismatch in line 10") and err.span.line == 1
    assert any("'5' instead of 's'" in n.message for n in err.notes[:3])


def test_a_misread_checksum_is_a_ranked_fix():
    # a 6 printed where the line gives 8 (or the reverse): the line is right, the field misread
    number = next(n for n in range(10, 2000, 10) if "8" in f"{cs(n, 'print 1'):03d}")
    good = f"{cs(number, 'print 1'):03d}"
    printed = good.replace("8", "6", 1)
    result, = read_listings(f"{number} print 1  <{printed}>\n", "t")
    assert result.lines[0].status == "bad"
    assert f"the checksum misread: <{good}> instead of <{printed}>" in result.lines[0].fixes[0]


def test_go_to_and_goto_are_different_lines():
    # the C64 stores 'go to' as GO TO ($CB $A4), not GOTO: the checksum tells which was printed
    assert crunch_text("go to 10") != crunch_text("goto 10")
    result, = read_listings(f"10 GO TO 10  <{cs(10, 'goto 10'):03d}>\n", "t")
    assert result.lines[0].status == "repaired" and result.lines[0].body == crunch_text("goto 10")


def test_letters_for_digits_in_the_checksum_field():
    printed = f"{cs(10, 'print 1'):03d}".replace("0", "O")
    result, = read_listings(f"10 print 1 <{printed}>\n", "t")
    assert result.lines[0].status == "verified"


def test_control_names_as_64er_printed_and_ocr_read_them():
    true = 'print "{clr}{down}{down}hallo{rvon}x"'
    for printed in ('PRINT "{CLR}{2DOWN}HALLO{RVSON}X"', 'PRINT "<CLR,2D0WN>HALLO<RVSON>X"',
                    'PRINT "{CLR, 2D0WNIHALLO{RVSON)X"'):
        result, = read_listings(f"10 {printed}  <{cs(10, true):03d}>\n", "t")
        assert result.lines[0].status == "verified", printed
        assert result.lines[0].body == crunch_text(true)


def test_two_listings_in_one_text_are_read_separately(tmp_path, capsys):
    one = listing([(10, "print 1", None), (20, "end", None)])
    two = listing([(10, "print 2", None), (20, "goto 10", None)])
    src = tmp_path / "page.txt"
    src.write_text("Listing 1. Eins\n" + one + "Text zwischen den Listings.\nListing 2. Zwei\n" + two)
    code, _, err = run(["read", src, "-o", tmp_path / "p.prg"], capsys)
    assert code == 0, err
    assert (tmp_path / "p-1.prg").read_bytes() == tokenize("10 print 1\n20 end\n").prg
    assert (tmp_path / "p-2.prg").read_bytes() == tokenize("10 print 2\n20 goto 10\n").prg


def test_two_columns_lines_split_over_rows_and_captions_between():
    a = ("10", 'print "das ist eine lange zeile, sie geht weiter"', 'PRINT "DAS IST EINE LANGE ZEILE, ', 'SIE GEHT WEITER"')
    rows = [
        f"{a[0]}\t{a[2]}\t\t40 PRINT 4\t<{cs(40, 'print 4'):03d}>",
        f"\t{a[3]}\t<{cs(10, a[1]):03d}>\t50 GOTO 10\t<{cs(50, 'goto 10'):03d}>",
        f"20\tPRINT 2\t<{cs(20, 'print 2'):03d}>\tListing 1. Ein Test",
        f"30\tPRINT 3\t<{cs(30, 'print 3'):03d}>\t",
        "Und hier geht der Artikeltext weiter, ohne Zeilennummer.",
    ]
    result, = read_listings("64'er Seite 12\n" + "\n".join(rows) + "\n", "t")
    assert [r.number for r in result.lines] == [10, 20, 30, 40, 50]
    assert result.ok and result.count("verified") == 5


def test_nothing_written_unless_every_line_verifies(tmp_path, capsys):
    src = tmp_path / "l.txt"
    src.write_text(f"10 print 1  <{cs(10, 'print 1'):03d}>\n20 poke 53280,s  <{cs(20, 'poke 53280,5'):03d}>\n")
    out = tmp_path / "l.prg"
    code, _, err = run(["read", src, "-o", out], capsys)
    assert code == 1 and not out.exists() and "not written" in err
    code, _, err = run(["read", src, "-o", out, "--force", "--fix"], capsys)
    assert code == 1 and out.exists() and (tmp_path / "l.fixed.txt").exists()
    fixed = (tmp_path / "l.fixed.txt").read_text()
    assert fixed.splitlines()[0].startswith("10 print 1") and fixed.rstrip().endswith(">")


def test_fixed_listing_reads_back(tmp_path, capsys):
    true = "poke 53280,0:print x"
    src = tmp_path / "l.txt"
    src.write_text(f"10 P0KE 53280,0:PRINT X  <{cs(10, true):03d}>\n")
    code, _, err = run(["read", src, "-o", tmp_path / "l.prg", "--fix"], capsys)
    assert code == 0, err
    code, _, err = run(["read", tmp_path / "l.fixed.txt", "-o", tmp_path / "m.prg"], capsys)
    assert code == 0 and (tmp_path / "m.prg").read_bytes() == (tmp_path / "l.prg").read_bytes()


def test_no_listing_is_an_error(tmp_path, capsys):
    src = tmp_path / "prose.txt"
    src.write_text("Nur Text, kein Listing.\n")
    code, _, err = run(["read", src], capsys)
    assert code == 1 and "no " in err and "Traceback" not in err


def test_normalize_controls_leaves_code_alone():
    assert normalize_controls('A$=CHR$(13):PRINT "(13)"') == 'A$=CHR$(13):PRINT "(13)"'
    assert normalize_controls('PRINT "C8SPACE,WHITE }X"') == 'PRINT "{8 $20}{wht}X"'


def test_lines_run_together_in_one_row():
    row = f"10 PRINT 1 <{cs(10, 'print 1'):03d}> 20 GOTO 10 <{cs(20, 'goto 10'):03d}> 30 END <{cs(30, 'end'):03d}>"
    result, = read_listings(row + "\n", "t")
    assert [(r.number, r.status) for r in result.lines] == [(10, "verified"), (20, "verified"), (30, "verified")]
    assert result.lines[1].printed == "GOTO 10"


def test_capitals_and_lower_case_print_read_the_same():
    line = 'print "hallo": goto 10'
    lower = f"10 {line} <{cs(10, line):03d}>\n"
    upper, = read_listings(lower.upper(), "t")
    plain, = read_listings(lower, "t")
    assert upper.upper and not plain.upper
    assert upper.prg == plain.prg and upper.ok and plain.ok


def _fix(text: str, *pairs: tuple[int, str]) -> Fix:
    edits = tuple(Edit(k, k + 1, new, 1.0, f"{new} read as {text[k]}") for k, new in pairs)
    return Fix(1.0, apply(text, edits), edits, True)


@pytest.mark.parametrize("lines,learned", [
    # t for $ in three lines (twice in one line counts once), 0 for O in one line only
    (3, {("t", "$")}),
    # two sure repairs teach nothing: both could be chance matches of the 8-bit checksum, and a
    # confusion learned from them would make the next chance match cheaper
    (2, set()),
    (1, set()),
])
def test_a_listing_learns_the_confusions_its_sure_repairs_show(lines, learned):
    repairs = [("PRINT At", _fix("PRINT At", (7, "$"))), ("B=Bt+Ct", _fix("B=Bt+Ct", (3, "$"), (6, "$"))),
               ("IF Xt=Y", _fix("IF Xt=Y", (4, "$")))][:lines] + [("P0KE 1,2", _fix("P0KE 1,2", (1, "O")))]
    assert learn(repairs) == frozenset(learned)


def test_three_misreadings_are_ranked_in_the_deep_search_and_only_offered():
    # 64'er 10/85 p. 55 line 160 as OCR read it: l for 1, ^ and * (twice) for $
    printed, true = "DIM Al^(72),A2*(72),A3*(72)", "DIM A1$(72),A2$(72),A3$(72)"
    value = line_checksum(160, line_body(true, True), ChecksumOptions(3))
    shallow = rank_fixes(160, printed, value, True, ChecksumOptions(3))
    deep = rank_fixes(160, printed, value, True, ChecksumOptions(3), deep=True)
    assert true not in [f.text for f in shallow]
    assert deep[0].text == true and not deep[0].evidence and not confident(deep, True)


def test_what_a_listing_learned_ranks_its_bad_lines_and_repairs_none():
    # a capital listing whose OCR reads '$' as 't' (10/85 p. 73); lines 10 and 20 are sure repairs
    rows = [(5, "REM THE PAGE IS SET IN CAPITALS", None), (10, 'A$="X":B$="Y"', 'At="X":B$="Y"'), (20, 'C$=A$+B$', 'C$=At+B$'),
            (30, 'PRINT A$;B$;C$(1);D$(2)', 'PRINT At;Bt;C*(1);D^(2)')]
    text = "".join(f"{n} {printed or true}  <{cs(n, true.lower()):03d}>\n" for n, true, printed in rows)
    result = read_listings(text)[0]
    assert [r.status for r in result.lines] == ["verified", "repaired", "repaired", "bad"]
    assert result.lines[3].fixed_texts[0] == "PRINT A$;B$;C$(1);D$(2)"  # three misreadings


@pytest.mark.parametrize("number,printed,true,learned", [
    # 10/85 p. 32 line 200: an underlined G read as '<S'
    (200, 'X=1: W$="<SROBEINSTELLUNG" : GOSUB 400', 'X=1: W$="gROBEINSTELLUNG" : GOSUB 400', ()),
    # 10/85 p. 54 line 5: both rules of a REM counted wrong (7 for 6 dashes, 27 for 19)
    (5, "REM-------SCHREIBERLING---------------------------", "REM ------ SCHREIBERLING -------------------", ()),
])
def test_the_deep_search_ranks_first_what_one_or_two_readings_cannot_find(number, printed, true, learned):
    options = ChecksumOptions(3)
    value = line_checksum(number, line_body(true, True), options)
    assert true.replace(" ", "") not in [f.text.replace(" ", "") for f in rank_fixes(number, printed, value, True, options)]
    deep = rank_fixes(number, printed, value, True, options, deep=True, learned=frozenset(learned))
    assert deep[0].text.replace(" ", "") == true.replace(" ", "") and not confident(deep, True)


@pytest.mark.parametrize("printed,status", [
    ("GOTO 310", "verified"),  # two lines run together, the first one as printed
    ("GuTO 310", "repaired"),  # ... or after a sure repair (10/85 p. 131 line 660)
])
def test_two_lines_run_together_are_split_at_the_checksum_that_verifies_the_first(printed, status):
    inside = cs(660, "goto 310")
    text = f"650 REM SPRUNG <{cs(650, 'rem sprung'):03d}>\n660 {printed} <{inside:03d}> 670 1 <138>\n"
    result = read_listings(text)[0]
    line = result.lines[1]
    assert (line.status, line.text, line.checksum) == (status, "GOTO 310", inside)
    # the rest of the row is line 670 ('670 :' read as '670 1'), read as a line too
    assert (result.lines[2].number, result.lines[2].status, result.lines[2].text) == (670, "repaired", ":")
    assert not result.errors
