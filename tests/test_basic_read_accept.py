"""``basic read --accept``: the fixes a user confirms, and the lines a checksum cannot check."""

from __future__ import annotations

import pytest

from asm6502.basic.tokenizer import crunch_text, tokenize
from asm6502.cli import basic
from asm6502.typein.basic import BasicSession
from asm6502.typein.cslisting.accept import Choice, accept, parse_choice
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.read import read_listings


def cs(number: int, text: str) -> int:
    return line_checksum(number, crunch_text(text), ChecksumOptions(3))


def run(argv, capsys):
    code = basic.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# line 20: 'S' for 5 in a number is plausible BASIC (a variable), so it is asked, not repaired;
# line 30: its checksum field unreadable
TRUE = {10: "print 1", 20: "poke 53280,5", 30: "print 2"}
PRINTED = f"10 print 1  <{cs(10, TRUE[10]):03d}>\n20 poke 53280,s  <{cs(20, TRUE[20]):03d}>\n30 print 2  <m>\n"


def program(lines: dict[int, str]) -> bytes:
    return tokenize("".join(f"{n} {t}\n" for n, t in sorted(lines.items())), filename="t").prg


@pytest.mark.parametrize("text,choice", [
    ("510", Choice(510)), ("350=2", Choice(350, 2)), ("2/540", Choice(540, 1, 2)), ("2/350=3", Choice(350, 3, 2)),
    ("all", None), (" ALL ", None),
])
def test_choices_are_read(text, choice):
    assert parse_choice(text) == choice


@pytest.mark.parametrize("text", ["x", "350=0", "0/350", "350=", "-1", "350,2"])
def test_a_choice_that_is_none_is_an_error(text):
    with pytest.raises(ValueError, match="LINE, LINE=RANK"):
        parse_choice(text)


def test_an_unreadable_checksum_field_leaves_the_line_unchecked():
    result, = read_listings(PRINTED, "t")
    line = {r.number: r for r in result.lines}[30]
    assert (line.status, line.text, line.checksum) == ("unchecked", "print 2", None)
    assert any("checksum field '<m>' unreadable; the line is unchecked" in d.message for d in result.errors)


def test_confirmed_fixes_make_the_program(tmp_path, capsys):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, _, err = run(["read", src, "-o", out], capsys)
    assert code == 1 and not out.exists() and "1 still bad, 1 unchecked" in err
    code, _, err = run(["read", src, "-o", out, "--accept", "20", "--accept", "30"], capsys)
    assert code == 0, err
    assert "line 20 as confirmed (--accept 20): fix 1 taken: '5' instead of 's'" in err
    assert "line 30 as confirmed (--accept 30): taken unchecked, as printed" in err
    assert "1 line verified, 0 repaired, 2 as you confirmed, 0 still bad" in err
    assert out.read_bytes() == program(TRUE)


def test_all_takes_every_first_fix_but_no_unchecked_line(tmp_path, capsys):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, _, err = run(["read", src, "-o", out, "--accept", "all"], capsys)
    assert code == 1 and not out.exists() and "1 as you confirmed, 0 still bad, 1 unchecked" in err


@pytest.mark.parametrize("choice,message", [
    ("20=99", "--accept 20=99: line 20 has only"),
    ("30=2", "--accept 30=2: line 30 is unchecked, it has no fixes"),
    ("40", "--accept 40: no line 40 in the listing"),
    ("x", "--accept 'x': give LINE"),
])
def test_a_choice_that_cannot_be_taken_is_an_error(tmp_path, capsys, choice, message):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, _, err = run(["read", src, "-o", out, "--accept", choice, "--force"], capsys)
    assert code != 0 and message in err and "Traceback" not in err


def test_a_verified_line_needs_no_confirming(tmp_path, capsys):
    src = tmp_path / "l.txt"
    src.write_text(PRINTED)
    code, _, err = run(["read", src, "--accept", "10", "--accept", "20", "--accept", "30"], capsys)
    assert code == 0 and "--accept 10: line 10 is verified; nothing to take" in err


def test_in_two_listings_a_line_standing_in_the_way_in_both_is_named_with_its_listing():
    text = PRINTED + PRINTED  # line numbers start again: a second listing
    results = read_listings(text, "t")
    assert len(results) == 2
    got = accept(results, [Choice(20)])
    assert any("line 20 stands in the way in listings 1 and 2; name one (--accept 1/20)" in d.message
               for d in got[0].errors)
    got = accept(results, [Choice(20, 1, 2)])
    assert [r.count("accepted") for r in got] == [0, 1]


def test_the_corrected_listing_keeps_what_still_stands_in_the_way_and_typing_resumes_it(tmp_path, capsys):
    # basic read --fix --force writes every line; a line still bad keeps its printed checksum and
    # an unchecked one '<???>', so reading it back or typing into it names them again
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, _, _ = run(["read", src, "-o", out, "--fix", "--force"], capsys)
    fixed = (tmp_path / "l.fixed.txt").read_text()
    assert code == 1 and f"<{cs(20, TRUE[20]):03d}>" in fixed.splitlines()[1] and fixed.splitlines()[2].endswith("<???>")
    result, = read_listings(fixed, "l.fixed.txt")
    assert [r.status for r in result.lines] == ["verified", "bad", "unchecked"]
    session, messages = BasicSession.resume(fixed)
    assert messages == ["line 20 in the file does not verify; type it again",
                        "line 30 in the file does not verify; type it again"]
    assert session.feed(f"20 poke 53280,5 <{cs(20, TRUE[20]):03d}>")[0].startswith("replaced: line 20")
    assert session.feed(f"30 print 2 <{cs(30, TRUE[30]):03d}>")[0].startswith("replaced: line 30")
    result, = read_listings(session.listing(), "typed")
    assert result.ok and result.prg == program(TRUE)
