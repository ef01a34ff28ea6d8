"""The review session (``basic read --review``, ``mse read --review``): the lines still bad,
likeliest first, one key each; resumable from the state file next to the output.

The session is driven as a user drives it, by a key stream on standard input."""

from __future__ import annotations

import io

import pytest

from asm6502.basic.tokenizer import crunch_text, tokenize
from asm6502.cli import basic, mse
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.review import Decision, Fix, Item, ReviewSession, mark_differences, order, parse_state, state_text


def cs(number: int, text: str) -> int:
    return line_checksum(number, crunch_text(text), ChecksumOptions(3))


# line 20: 'S' for 5 in a number is plausible BASIC (a variable), so it is asked, not repaired;
# line 30: its checksum field unreadable (retyped with the <NNN> the page shows)
TRUE = {10: "print 1", 20: "poke 53280,5", 30: "print 2"}
PRINTED = f"10 print 1  <{cs(10, TRUE[10]):03d}>\n20 poke 53280,s  <{cs(20, TRUE[20]):03d}>\n30 print 2  <m>\n"
WHOLE = tokenize("".join(f"{n} {t}\n" for n, t in sorted(TRUE.items())), filename="t").prg


def session(argv, keys: list[str], capsys, monkeypatch, main=basic.main):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("old,new,marks", [
    ("poke 53280,s", "poke 53280,5", "           ^"),
    ("print 1", "print 1", ""),
    ('a$="-"', 'a$="-----"', "     ^^^^"),
    ("goto 100", "goto 10", "       ^"),
])
def test_differences_are_marked_under_the_fix(old, new, marks):
    assert mark_differences(old, new) == marks


def test_the_likeliest_line_comes_first_and_lines_without_a_fix_last():
    fix = Fix("", "", "")
    items = [Item("a", "", "", "", ()), Item("b", "", "", "", (fix,), 3.0), Item("c", "", "", "", (fix,), 1.0)]
    assert [it.key for it in order(items)] == ["c", "b", "a"]


def test_the_state_file_reads_back_what_it_holds():
    decisions = [Decision("1/20", "fix", 'poke 53280,5 <123>'), Decision("30", "typed", "print 2 <045>"),
                 Decision("$C008", "skip")]
    assert parse_state(state_text(decisions)) == decisions
    with pytest.raises(ValueError, match="line 2 is not a decision"):
        parse_state("# head\n20 take it\n")


def test_a_fix_and_a_retyped_line_make_the_program(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    # 20 has fixes (shown first), 30 none: retyped as printed, with the checksum the page shows
    code, shown, err = session(["read", src, "-o", out, "--review"],
                               ["1", "t", f"30 print 2 <{cs(30, TRUE[30]):03d}>"], capsys, monkeypatch)
    assert code == 0 and out.read_bytes() == WHOLE
    assert shown.index("line 20") < shown.index("line 30")
    assert "   read: 20 poke 53280,s <" in shown and "                     ^" in shown
    assert "2 decision(s) in the review (1 fix(es) taken, 1 line(s) retyped), 0 line(s) still in the way" in err
    state = (tmp_path / "l.review.txt").read_text()
    assert "20\tfix\tpoke 53280,5 <" in state and "30\ttyped\tprint 2 <" in state


def test_a_retyped_line_is_checked_as_typed(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, shown, err = session(["read", src, "-o", out, "--review"],
                               ["t", "20 poke 53280,6", "t", "40 poke 53280,5", "t", "poke 53280,5", "t", "30 print 2"],
                               capsys, monkeypatch)
    assert f"refused: line 20 gives <{cs(20, 'poke 53280,6'):03d}>, the checksum is <{cs(20, TRUE[20]):03d}>" in shown
    assert "refused: this is line 20, not line 40" in shown
    assert "ok: line 20" in shown  # (typed without its number)
    assert "line 30 has no readable checksum in the print: type it with the <NNN>" in shown
    assert code == 1 and not out.exists()  # 30 still in the way at the end of the input
    assert "1 decision(s) in the review (0 fix(es) taken, 1 line(s) retyped), 1 line(s) still in the way" in err


def test_a_review_resumes_from_its_state_file(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    code, _, _ = session(["read", src, "-o", out, "--review"], ["1", "q"], capsys, monkeypatch)
    assert code == 1 and not out.exists()
    code, shown, _ = session(["read", src, "-o", out, "--review"], ["t", f"print 2 <{cs(30, TRUE[30]):03d}>"],
                             capsys, monkeypatch)
    assert "resumed: 1 decision(s) taken before, 1 line(s) to review" in shown
    assert code == 0 and out.read_bytes() == WHOLE


def test_a_skipped_line_is_offered_again_when_resumed_and_b_takes_a_decision_back(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    session(["read", src, "-o", out, "--review"], ["s", "q"], capsys, monkeypatch)
    assert "20\tskip\t" in (tmp_path / "l.review.txt").read_text()
    code, shown, _ = session(["read", src, "-o", out, "--review"],
                             ["t", f"30 print 2 <{cs(30, TRUE[30]):03d}>", "b", "q"], capsys, monkeypatch)
    # 30 (never skipped) comes before 20 (skipped before); 30's decision taken back
    assert shown.index("line 30") < shown.index("line 20")
    assert "decision for line 30 taken back" in shown and code == 1
    assert "30\ttyped" not in (tmp_path / "l.review.txt").read_text()


def test_a_saved_decision_that_no_longer_verifies_is_dropped(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    (tmp_path / "l.review.txt").write_text("20\ttyped\tpoke 53280,7\n")
    code, shown, _ = session(["read", src, "-o", out, "--review"], ["q"], capsys, monkeypatch)
    assert "saved decision for line 20 dropped: line 20 gives <" in shown and code == 1


@pytest.mark.parametrize("argv,message", [
    (["read", "l.txt", "--review"], "--review needs -o PRG"),
    (["read", "l.txt", "--review", "-o", "-"], "give -o a file, not '-'"),
])
def test_review_needs_an_output(tmp_path, capsys, monkeypatch, argv, message):
    (tmp_path / "l.txt").write_text(PRINTED)
    monkeypatch.chdir(tmp_path)
    code, _, err = session(argv, [], capsys, monkeypatch)
    assert code != 0 and message in err


def test_a_state_file_that_holds_no_decisions_is_an_error(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(PRINTED)
    (tmp_path / "l.review.txt").write_text("hello\n")
    code, _, err = session(["read", src, "-o", out, "--review"], [], capsys, monkeypatch)
    assert code != 0 and "l.review.txt: line 1 is not a decision" in err and "Traceback" not in err


# line 20 run into line 10's row, its number garbled ('#O'): read as no line, typed whole in the review
LOST = (f"10 print 1 <{cs(10, 'print 1'):03d}> #O print 2 <{cs(20, 'print 2'):03d}>\n"
        f"30 print 3 <{cs(30, 'print 3'):03d}>\n40 print 4 <{cs(40, 'print 4'):03d}>\n")


def test_a_line_whose_number_ocr_garbled_is_typed_whole(tmp_path, capsys, monkeypatch):
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(LOST)
    code, shown, err = session(["read", src, "-o", out, "--review"],
                               ["t", "20 print 2", "t", f"50 print 2 <{cs(50, 'print 2'):03d}>", "t",
                                f"20 print 2 <{cs(20, 'print 2'):03d}>"], capsys, monkeypatch)
    assert "line after 10 (text line 1): a line after line 10, before line 30 whose number OCR could not read" in shown
    assert "refused: line 20: type the <NNN> the page shows after it" in shown
    assert "refused: line 50 does not stand after line 10, before line 30" in shown
    assert code == 0, err
    assert out.read_bytes() == tokenize("10 print 1\n20 print 2\n30 print 3\n40 print 4\n", filename="t").prg


MSE_TYPO = """\
PROGRAMM : HELLO C000 C01D
-----------------------------------
C000 : A2 00 BD 0E C0 F0 06 20 BF
C008 : D2 FF E8 D0 F5 60 4B 45 3C
C010 : 4C 4C 4F 2C 20 57 4F 52 7A
C018 : 4C 44 21 0D 00 0E
"""


@pytest.mark.parametrize("keys", [["1"], ["t", "C008 : D2 FF E8 D0 F5 60 4B 45 00", "t", "d2ffe8d0f560484 53c"]])
def test_an_mse_line_is_taken_or_retyped(tmp_path, capsys, monkeypatch, keys):
    src, out = tmp_path / "m.txt", tmp_path / "m.prg"
    src.write_text(MSE_TYPO)
    code, shown, err = session(["read", src, "-o", out, "--review"], keys, capsys, monkeypatch, main=mse.main)
    assert code == 0, err
    data = out.read_bytes()[2:]
    assert data[0x0E] == 0x48 and data[8:14] == bytes.fromhex("D2FFE8D0F560")
    assert "   read: C008 : D2 FF E8 D0 F5 60 4B 45 3C" in shown
    if len(keys) > 1:
        assert "refused: the checksum of the line for $C008 does not match its bytes" in shown
    assert "1 decision(s) in the review" in err


def test_the_session_alone_walks_its_items():
    items = [Item("10", "text line 1", "bad", "10 x", (Fix("10 y", "y", "y for x"),), 1.0)]
    s, said = ReviewSession.start(items, lambda it, t: (t, "ok"), lambda it, t: (None, ["refused"]))
    assert said == [] and s.prompt() == "[1 t s b q] > "
    assert s.feed("7") == ["no fix 7 for line 10 (1-1)"]
    assert s.feed("?")[0].startswith("keys:")
    assert s.feed("1") == ["line 10: fix 1 taken"] and s.done and s.saved() == [Decision("10", "fix", "y")]


# measured (bench/review_decisions.py): per listing (lines still bad before the review, fixes taken,
# lines retyped, lines taken that differ from the disk, whole after the review); the walk takes the
# disk's line among the fixes, else types it
REAL = [
    # (two 'shifted letter' first fixes taken as one decision: a)
    ("8510-p32-floppy-adjust.ocr.txt", 0, "8510-floppy-adjust.disk.txt", (23, 6, 16, 0, True)),
    # (line 570's number OCR garbled: typed whole, the listing is the disk's)
    ("8510-p131-alarmanlage-codeschloss.ocr.txt", 1, "8510-codeschloss.disk.txt", (4, 2, 2, 0, True)),
    # tuning material added later (held out once)
    ("8510-p73-hypra-text.ocr.txt", 0, "8510-hypra-text.disk.txt", (32, 8, 24, 0, True)),
    # Listing 4's DATA lines, each a graphics character in quotes: the 22 whose first fix is the disk's
    # line taken as one decision (a, leaving the others out), and so the 3 of them whose quote OCR
    # read as an apostrophe (normal.py: one kind of fix of their own); a blank OCR set beside the
    # character inside the quotes is settled as the table's other lines print theirs (blanks.py)
    ("8510-p74-zloader-aender.ocr.txt", 0, "8510-zloader-aender.disk.txt", (32, 5, 3, 0, True)),
    ("8509-p73-blinker.ocr.txt", 0, "8509-blinker-demo.disk.txt", (7, 0, 7, 0, True)),
    ("8509-p73-blinker.ocr.txt", 1, "8509-blinker.disk.txt", (0, 0, 0, 0, True)),
]


@pytest.mark.parametrize("ocr,listing,disk,want", REAL)
def test_decisions_per_listing_on_real_print(ocr, listing, disk, want, real_reading):
    import sys

    from helpers import ROOT

    sys.path.insert(0, str(ROOT / "bench"))
    from review_decisions import measure

    got = measure(ocr, listing, disk, real_reading(ocr))
    assert (got["bad"], got["fixes"], got["typed"], got["wrong"], got["whole"]) == want


@pytest.mark.parametrize("listing,output,message", [
    ("l.txt", "nodir/l.prg", "directory 'nodir' does not exist"),
    ("l.review.txt", "l.prg", "review state 'l.review.txt' is the listing 'l.review.txt'"),
])
def test_a_state_file_that_cannot_be_written_is_refused_before_any_key(tmp_path, capsys, monkeypatch, listing,
                                                                       output, message):
    (tmp_path / listing).write_text(PRINTED)
    monkeypatch.chdir(tmp_path)
    code, shown, err = session(["read", listing, "-o", output, "--review"], ["1"], capsys, monkeypatch)
    assert code != 0 and message in err and "[1/" not in shown
    assert (tmp_path / listing).read_text() == PRINTED


def test_an_mse_v2_line_is_retyped_in_its_letter_code(tmp_path, capsys, monkeypatch):
    from asm6502.typein.mselisting import write_listing

    data = bytes(range(0x20, 0x3D))  # two lines of 15 bytes (the last one short)
    text = write_listing(0xC000, data, name="T", version="2.1")
    good = next(row for row in text.splitlines() if row.startswith("c000:"))
    damaged = good[:8] + ("a" if good[8] != "a" else "b") + good[9:]  # one letter of the first group
    src, out = tmp_path / "m.txt", tmp_path / "m.prg"
    src.write_text(text.replace(good, damaged))
    code, shown, err = session(["read", src, "-o", out, "--review"], ["t", damaged, "t", good], capsys, monkeypatch,
                               main=mse.main)
    assert "refused: the checksum of the line for $C000 does not match its bytes" in shown
    assert code == 0, err
    assert out.read_bytes() == bytes([0x00, 0xC0]) + data
    assert f"   read: {damaged}" in shown and "    1) c000:" in shown  # its readings offered too


def _capitals(number: int, text: str) -> str:
    from asm6502.typein.cslisting.text import line_body

    body = line_body(text, True)
    assert body is not None
    return f"{number} {text}  <{line_checksum(number, body):03d}>"


@pytest.mark.parametrize("printed, following", [
    # misread: no free number gives the checksum as printed; the fixes for 20 and 30 are ranked
    ("A=5:G0TO 10", 40),
    # as printed it fits 20, but its place leaves 20-70: too many for the checksum to witness one
    ("A=5:GOTO 10", 80),
])
def test_a_lost_line_is_offered_the_numbers_its_place_leaves(printed, following):
    from asm6502.typein.cslisting import review as csreview
    from asm6502.typein.cslisting.read import read_listings

    value = _capitals(20, "A=5:GOTO 10").rsplit("<", 1)[1]
    text = f"{_capitals(10, 'PRINT 1')}\n{printed}  <{value}\n{_capitals(following, 'END')}\n"
    results = read_listings(text, "t")
    assert [r.number for r in results[0].lines] == [10, following] and results[0].lost
    item = next(it for it in csreview.items(results) if it.key.startswith("after"))
    assert item.fixes and item.fixes[0].text == f"20 A=5:GOTO 10 <{value}"
    checker = csreview.Checker(results)
    review, _ = ReviewSession.start([item], checker.check, checker.retype)
    review.feed("1")  # one key, the line not typed
    after, = csreview.apply(results, review.decisions)
    assert [(r.number, r.status) for r in after.lines] == [(10, "verified"), (20, "accepted"), (following, "verified")]
    assert not after.lost


def _kinds_session(kinds: dict[str, str]) -> ReviewSession:
    items = [Item(key, f"line {key}", "bad", f"{key} X", (Fix(f"{key} Y", f"Y{key}", "fix"), Fix(f"{key} Z", f"Z{key}", "other")),
                  float(k), kind) for k, (key, kind) in enumerate(kinds.items())]
    s, _ = ReviewSession.start(items, lambda item, text: (text, "ok"), lambda item, text: (text, []))
    return s


# (the kinds of the lines' first fixes, keys typed) -> the decisions, the user's decisions, the line left open
@pytest.mark.parametrize("kinds,keys,taken,left", [
    # one key takes the first fix of every open line of the current line's kind
    ({"10": "glyph", "20": "glyph", "30": "O read as 0", "40": "glyph"}, ["a"], {"10", "20", "40"}, "30"),
    # ... but the lines named after '-'
    ({"10": "glyph", "20": "glyph", "30": "O read as 0", "40": "glyph"}, ["a -40"], {"10", "20"}, "30"),
    # b takes the whole group back
    ({"10": "glyph", "20": "glyph", "30": "other", "40": "glyph"}, ["a", "b"], set(), "10"),
    # a line whose kind no other line shares, or without a kind, has no group: refused, nothing taken
    ({"10": "glyph", "20": "O read as 0"}, ["a"], set(), "10"),
    ({"10": "", "20": ""}, ["a"], set(), "10"),
    # a key of no line of the kind is refused
    ({"10": "glyph", "20": "glyph", "30": "other"}, ["a -30"], set(), "10"),
])
def test_the_first_fixes_of_a_kind_of_lines_are_one_decision(kinds, keys, taken, left):
    s = _kinds_session(kinds)
    for key in keys:
        s.feed(key)
    assert set(s.decisions) == taken
    assert all(s.decisions[k].text == f"Y{k}" for k in taken)
    assert s.current() is not None and s.current().key == left


def test_a_group_is_named_under_its_line():
    s = _kinds_session({"10": "glyph", "20": "glyph", "30": "glyph"})
    shown = s.show()
    assert any("2 other open line(s) share (glyph): 20, 30" in row for row in shown)
    assert "a " in s.prompt()


@pytest.mark.parametrize("meant,printed,kind", [
    # a graphics character in quotes solved from the checksum: one kind whatever the glyph and the line
    ('8504 DATA"{CBM-I}",102,0,102', '8504 DATA"T",102,0,102', "underlined (graphics character) read as"),
    ('8520 DATA"{CBM-N}",0,28,150', '8520 DATA"W",0,28,150', "underlined (graphics character) read as"),
    # one misreading of a letter for a digit: its reason is the kind
    ("10 POKE 53280,0", "10 P0KE 53280,0", "O read as 0"),
    ("20 GOSUB 100", "20 G0SUB 100", "O read as 0"),
])
def test_the_kind_of_a_fix_leaves_out_the_lines_own_characters(meant, printed, kind):
    from asm6502.typein.cslisting.rank import rank_fixes
    from asm6502.typein.cslisting.text import checksum_of
    from asm6502.typein.cslisting.verdict import kind_of

    number, text = int(meant.split()[0]), meant.split(" ", 1)[1]
    value = checksum_of(number, text, True, ChecksumOptions(3))
    fixes = rank_fixes(number, printed.split(" ", 1)[1], value, True, ChecksumOptions(3))
    best = next(f for f in fixes if f.text.replace(" ", "") == text.replace(" ", ""))
    assert kind_of(best) == kind


def test_a_line_printing_a_keys_name_as_text_is_taken_as_typed(tmp_path, capsys, monkeypatch):
    # 'print"<return> druecken"': the print's '<return>' are the characters, which the notation reads
    # as the key's control code; the checksum tells which one the line holds
    literal = 'print"{$3c}return{$3e} druecken"'
    true = {10: "print 1", 20: literal}
    src, out = tmp_path / "l.txt", tmp_path / "l.prg"
    src.write_text(f"10 print 1  <{cs(10, 'print 1'):03d}>\n20 print\"<return> druecken!!\"  <{cs(20, literal):03d}>\n")
    code, shown, err = session(["read", src, "-o", out, "--review"], ["t", '20 print"<return> druecken"'], capsys, monkeypatch)
    assert "ok: line 20" in shown
    assert code == 0 and out.read_bytes() == tokenize("".join(f"{n} {t}\n" for n, t in true.items()), filename="t").prg
