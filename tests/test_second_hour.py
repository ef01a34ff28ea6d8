"""A 64tass, ACME and VICE user's own program after the first hour: Profi-Ass's left-to-right rule made
visible, errors that lead to their cause, their habits answered, and what VICE and editors read."""

from __future__ import annotations

import pytest
from helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

from asm6502.asm import expr as ex
from asm6502.asm.pipeline import assemble
from asm6502.asm.precedence import usual_value, written
from asm6502.asm.result import Options
from asm6502.diagnostics import DiagnosticError

run = run_cli


def diagnostics(source: str, **options) -> tuple:
    try:
        return assemble(source, "t.asm", Options(**options)).diagnostics
    except DiagnosticError as exc:
        return exc.diagnostics


def precedence_warnings(source: str, **options) -> list[str]:
    return [d.message for d in diagnostics(source, **options) if "reads it left to right" in d.message]


# --- left to right, made visible --------------------------------------------------------------

# (statement, the warning's message or None: the two readings give the same value)
PRECEDENCE = [
    ("line = $0400+12*40", "'$0400+12*40' is $A1E0: Profi-Ass reads it left to right, [$0400+12]*40; with the usual "
     "precedence (64tass, ACME, C) it would be $05E0"),
    (" lda 2+3*4", "'2+3*4' is $0014: Profi-Ass reads it left to right, [2+3]*4; with the usual precedence (64tass, "
     "ACME, C) it would be $000E"),
    (" .byt 1<1+2", "'1<1+2' is $0004: Profi-Ass reads it left to right, [1<1]+2; with the usual precedence (64tass, "
     "ACME, C) it would be $0008"),
    (" .byt 1+1<2", None),  # ('+' before '<' in both readings)
    (" lda #4*2+1", None),  # (falling precedence: the same tree)
    (" lda #[2+3]*4", None),  # (bracketed as read)
    (" lda #2+[3*4]", None),
    (" lda 1!2&0", "'1!2&0' is $0000: Profi-Ass reads it left to right, [1!2]&0; with the usual precedence (64tass, "
     "ACME, C) it would be $0001"),
    (" lda #0+2*1", None),  # (another grouping, but the same value: no warning)
    (" lda -[1+2*3]", "'-[1+2*3]' is $FFF7: Profi-Ass reads it left to right, -[[1+2]*3]; with the usual precedence "
     "(64tass, ACME, C) it would be $FFF9"),
    (" lda ($10+2*3),y", "'$10+2*3' is $0036: Profi-Ass reads it left to right, [$10+2]*3; with the usual precedence "
     "(64tass, ACME, C) it would be $0016"),
]


@pytest.mark.parametrize("statement, message", PRECEDENCE)
def test_a_warning_where_left_to_right_and_the_usual_precedence_differ(statement, message):
    found = precedence_warnings(f" *= $c000\n{statement}\n rts\n")
    assert found == ([message] if message else [])


def test_the_warning_names_both_ways_of_writing_it_and_the_option():
    (warn,) = [d for d in diagnostics(" *= $c000\nline = $0400+12*40\n rts\n") if d.notes]
    assert (warn.span.line, warn.span.col, warn.span.length) == (2, 8, 11)
    assert warn.notes[0].message == ("write $0400+[12*40] for $05E0, or [$0400+12]*40 to keep $A1E0 without this "
                                     "warning (-W no-precedence: none of these warnings)")


def test_symbols_take_their_values_where_the_expression_is_used():
    source = " *= $c000\nscreen = $0400\nz _ 0\n lda screen+z*40\nz _ 1\n lda screen+z*40\n rts\n"
    assert precedence_warnings(source) == [
        "'screen+z*40' is $A000: Profi-Ass reads it left to right, [screen+z]*40; with the usual precedence "
        "(64tass, ACME, C) it would be $0400",
        "'screen+z*40' is $A028: Profi-Ass reads it left to right, [screen+z]*40; with the usual precedence "
        "(64tass, ACME, C) it would be $0428"]


def test_a_line_run_many_times_warns_once():
    source = " *= $c000\ni _ 3\nloop .byt 1+i*2\ni _ i-1\n .if i:.goto loop\n rts\n"
    assert len(precedence_warnings(source)) == 1


def test_the_option_silences_it_and_bytes_never_change():
    source = " *= $c000\n lda 2+3*4\n sta $0400+12*40\n rts\n"
    on, off = assemble(source, "t.asm", Options()), assemble(source, "t.asm", Options(precedence=False))
    assert on.segments == off.segments == ((0xC000, bytes.fromhex("a5 14 8d e0 a1 60")),)
    assert len(on.diagnostics) == 2 and off.diagnostics == ()


def test_out_of_range_shows_how_the_value_was_reached():
    errors = [d.message for d in diagnostics(" *= $c000\n lda #$0400+12*40\n .byt 1+1*200\n rts\n") if d.is_error]
    assert errors == [
        "value $A1E0 (= [$0400+12]*40, read left to right) does not fit in a byte (immediate mode: 0-255 or -128..-1) [ILLEGAL QUANTITY]",
        "value $0190 (= [1+1]*200, read left to right) does not fit in a byte (0-255 or -128..-1) [ILLEGAL QUANTITY]",
    ]


@pytest.mark.parametrize("argv, warned", [((), True), (("-W", "no-precedence"), False), (("-Wno-precedence",), False),
                                          (("-Wall",), True), (("-w",), False)])
def test_the_command_line_switch(capsys, tmp_path, argv, warned):
    (tmp_path / "p.asm").write_text(" *= $c000\n lda 2+3*4\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", "-o", tmp_path / "p.prg", *argv)
    assert code == 0 and ("reads it left to right" in err) == warned


_atoms = st.sampled_from(["1", "2", "3", "$10", "a", "b", "7"])
_ops = st.sampled_from(list(ex.OPERATORS))


@st.composite
def _chains(draw, depth=2):
    parts = [draw(_atoms) if depth == 0 or draw(st.booleans()) else f"[{draw(_chains(depth - 1))}]"]
    for _ in range(draw(st.integers(1, 4))):
        parts += [draw(_ops), draw(_atoms) if depth == 0 or draw(st.booleans()) else f"[{draw(_chains(depth - 1))}]"]
    return "".join(parts)


@given(_chains())
def test_both_written_forms_read_the_same_left_to_right_and_with_precedence(text):
    values = {"a": 5, "b": 300}
    tree = ex.parse(text)

    def both(t: str):  # (its value left to right, with the usual precedence) or None (an overflow, a division by 0)
        try:
            return ex.evaluate(t, values), usual_value(ex.parse(t), values, 0, None)
        except ex.ExprError:
            return None

    here, usual = both(written(tree, text)), both(written(tree, text, usual=True))
    try:
        value, other = ex.evaluate(text, values), usual_value(tree, values, 0, None)
    except ex.ExprError:
        return
    if here is not None:
        assert here == (value, value)
    if usual is not None:
        assert usual == (other, other)


# --- errors that lead to the cause ------------------------------------------------------------

LONG = '"' + "x" * 60 + '"'


def test_a_skipped_statement_s_error_comes_before_the_uses_of_its_label(capsys, tmp_path):
    (tmp_path / "p.asm").write_text(f" *= $c000\n lda msg\n ldx msg\nmsg .asc {LONG}\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", "-o", tmp_path / "p.prg")
    heads = [ln.split(": ", 1)[1] for ln in err.splitlines() if ln.startswith(str(tmp_path))]
    assert code == 1 and heads == [
        "error: an operand of 62 characters: the original takes at most 50 [OVERFLOW]",
        "error: undefined symbol 'msg' [UNDEF'D STATEMENT]",
        "note: 'msg' is the label of this statement, skipped for its error (shown above)",
        "error: undefined symbol 'msg' [UNDEF'D STATEMENT]",
        "note: 'msg' is the label of this statement, skipped for its error (shown above)",
    ]
    assert err.endswith("3 errors; no output written\n")  # (the original's errors, all of them)


@pytest.mark.parametrize("line, noted", [
    (" lda #1 ;note: this sets the colour", True),
    (' lda #";": this', False),  # (the ';' in quotes starts no comment)
    (" lda #1 : this", False),
])
def test_a_colon_that_ended_a_comment_is_named(line, noted):
    (first,) = [d for d in diagnostics(f" *= $c000\n{line}\n rts\n") if d.is_error]
    assert [n.message for n in first.notes] == (
        ["a ':' ends a comment in Profi-Ass: the rest of the line is a new statement"] if noted else [])


def test_errors_come_before_warnings_and_are_never_hidden(capsys, tmp_path):
    lines = [f"{n} print \"{'x' * 200}\"" for n in range(320, 0, -1)]  # (each line warns: too long to type, out of order)
    (tmp_path / "big.bas").write_text("\n".join(lines) + "\n")
    code, _, err = run(capsys, "basic", "tok", tmp_path / "big.bas", "-o", tmp_path / "big.prg")
    assert code == 1 and err.splitlines()[0] == "asm6502 basic tok: error: program does not fit below $10000"
    assert "more diagnostics not shown" in err.splitlines()[-1]


# --- 64tass and ACME users at home ----------------------------------------------------------

@pytest.mark.parametrize("option, answer", [
    ("-a", "-a: 64tass's -a (ASCII source, PETSCII output) is what asm6502 always does"),
    ("-C", "-C: 64tass's -C (case-sensitive symbols): Profi-Ass symbols ignore case"),
    ("-B", "-B: 64tass's -B (long branches): a branch out of range is an error here"),
    ("--long-branch", "--long-branch: a branch out of range is an error here"),
    ("-f", "-f: ACME's -f cbm|plain is --format prg|raw here"),
    ("--report=x.txt", "--report: ACME's --report (a listing) is -L FILE here"),
])
def test_64tass_and_acme_options_get_the_asm6502_way(capsys, tmp_path, option, answer):
    (tmp_path / "p.asm").write_text(" *= $c000\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", option)
    assert code == 2 and f"asm6502: error: {answer}" in err and not (tmp_path / "p.prg").exists()


@pytest.mark.parametrize("argv, written, first", [
    (("-b",), "p.bin", b"\x60"),
    (("--nostart",), "p.bin", b"\x60"),
    (("--cbm-prg",), "p.prg", b"\x00\xc0\x60"),
    (("--list={d}/p.lst",), "p.lst", None),  # (64tass's name, a prefix of both --listing and --listing-format)
    (("--cpu", "6510"), "p.prg", b"\x00\xc0\x60"),
    (("--cpu", "m6502"), "p.prg", b"\x00\xc0\x60"),
])
def test_their_options_that_mean_ours_are_taken(capsys, tmp_path, argv, written, first):
    (tmp_path / "p.asm").write_text(" *= $c000\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", *(a.format(d=tmp_path) for a in argv))
    assert code == 0, err
    if first is not None:
        assert (tmp_path / written).read_bytes() == first
    assert (tmp_path / written).exists()


def test_a_cpu_the_c64_has_not_is_named_as_such(capsys, tmp_path):
    (tmp_path / "p.asm").write_text(" *= $c000\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", "--cpu", "65c02")
    assert code == 2 and "65c02: the C64's CPU is an NMOS 6502 (the 6510)" in err


@pytest.mark.parametrize("statement, hint", [
    (' .text "ab"', "'text' is 64tass's or ACME's; in Profi-Ass write .asc \"...\" (a string in PETSCII)"),
    (" !byte 1", "'byte' is 64tass's or ACME's; in Profi-Ass write .byt"),
    (" !word 1", "'word' is 64tass's or ACME's; in Profi-Ass write .wor"),
    (' !text "a"', "'text' is 64tass's or ACME's; in Profi-Ass write .asc"),
    (" .fill 3,0", "'fill' is 64tass's or ACME's; in Profi-Ass write *=*+n"),
    (" .dsb 3", "'dsb' is 64tass's or ACME's; in Profi-Ass write *=*+n"),
])
def test_their_pseudo_ops_are_named_with_ours(statement, hint):
    (first,) = [d for d in diagnostics(f" *= $c000\n{statement}\n rts\n") if d.is_error]
    assert hint in " ".join([first.message, *(n.message for n in first.notes)])


@pytest.mark.parametrize("statement", [" .byte 1", " .word 1"])  # (read by their first three letters, as the original does)
def test_byte_and_word_are_profi_ass_already(statement):
    assert not [d for d in diagnostics(f" *= $c000\n{statement}\n rts\n") if d.is_error]


@pytest.mark.parametrize("use, said", [("lopo", "; did you mean 'loop'?"), ("LOOPS", "; did you mean 'loop'?"),
                                       ("xyzzy", "")])
def test_did_you_mean_for_a_misspelled_label(use, said):
    (first,) = [d for d in diagnostics(f" *= $c000\nloop lda #1\n bne {use}\n rts\n") if d.is_error]
    assert first.message == f"undefined symbol '{use.lower()}'{said} [UNDEF'D STATEMENT]"


@pytest.mark.parametrize("source, statements", [
    ('*= $c000\nmsg .text "hello"\n rts\n', "1 statement"),  # a pseudo-op of theirs
    ("* = $c000\nstart:  lda #1\n rts\n", "2 statements"),  # '* =' with blanks, a label with a colon
])
def test_convert_given_a_64tass_source_says_which_way_it_goes(capsys, tmp_path, source, statements):
    (tmp_path / "x.s").write_text(source)
    code, _, err = run(capsys, "convert", tmp_path / "x.s", "--to", "acme")
    assert code == 1 and err.splitlines()[0].endswith(
        f"looks like a 64tass or ACME source ({statements} written as they write them): convert translates a "
        "Profi-Ass source into 64tass or ACME, not back; assemble this one with 64tass or ACME")


def test_a_summary_after_a_successful_conversion(capsys, tmp_path):
    (tmp_path / "p.asm").write_text(" *= $c000\n lda #1\n rts\n")
    code, _, err = run(capsys, "convert", tmp_path / "p.asm", "--to", "64tass", "-o", tmp_path / "p.s")
    lines = (tmp_path / "p.s").read_text().count("\n")
    assert code == 0 and err.splitlines()[-1] == (f"wrote {tmp_path}/p.s: a 64tass source of {lines} lines, "
                                                  f"assembling to $C000-$C002 (3 bytes) as {tmp_path}/p.asm does")
    code, _, err = run(capsys, "convert", tmp_path / "p.asm", "--to", "64tass", "-o", tmp_path / "q.s", "-q")
    assert code == 0 and err == ""


@pytest.mark.parametrize("argv, summary", [
    ((), "wrote {d}/p.prg: $C000-$C002, 3 bytes\n"),
    (("-L", "{d}/p.lst"), "wrote {d}/p.prg: $C000-$C002, 3 bytes (and {d}/p.lst)\n"),
    (("-q",), ""),
])
def test_a_summary_after_a_successful_assembly(capsys, tmp_path, argv, summary):
    (tmp_path / "p.asm").write_text(" *= $c000\n lda #1\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", *(a.format(d=tmp_path) for a in argv))
    assert code == 0 and err == summary.format(d=tmp_path)


@pytest.mark.parametrize("command", ["asm6502", "tok", "checksum", "read", "type"])
@pytest.mark.parametrize("case", ["lower", "petcat", "upper"])
def test_the_case_words_are_alike_in_every_command(command, case):
    from asm6502.cli import assemble, basic

    parser = assemble.build_parser() if command == "asm6502" else basic.build_parser()
    argv = ["x.asm"] if command == "asm6502" else [command, "x.bas"]
    assert parser.parse_args([*argv, "--case", case]).case == case


def test_basic_run_exits_non_zero_when_input_runs_out_inside_input(capsys, tmp_path):
    (tmp_path / "p.bas").write_text('10 input a$\n20 input b$\n30 print "done"\n')
    (tmp_path / "keys.txt").write_text("hello\n")
    code, _, err = run(capsys, "basic", "run", tmp_path / "p.bas", "--input", tmp_path / "keys.txt")
    assert code == 5 and "input script exhausted (INPUT) in line 20" in err
    (tmp_path / "keys.txt").write_text("hello\nworld\n")
    assert run(capsys, "basic", "run", tmp_path / "p.bas", "--input", tmp_path / "keys.txt")[0] == 0


def test_run_of_a_disk_image_says_how_to_run_a_file_from_it(capsys, tmp_path):
    (tmp_path / "x.d64").write_bytes(bytes(174848))
    code, _, err = run(capsys, "run", tmp_path / "x.d64")
    assert code == 1 and "is a 1541 disk image (.d64), not a C64 program" in err and "run a file from it with asm6502 run --roms DIR --disk" in err


def test_d64_write_to_a_missing_image_names_new(capsys, tmp_path):
    (tmp_path / "x.prg").write_bytes(b"\x00\xc0\x60")
    code, _, err = run(capsys, "d64", "write", tmp_path / "new.d64", tmp_path / "x.prg")
    assert code == 1 and "no such disk image; to make a new one, add --new DISKNAME,ID" in err


# --- at home in VICE and the editors ---------------------------------------------------------

VICE_SOURCE = " *= $c000\nzeile = 10\nscreen = $0400\nptr = $fb\ntable = $c100\nstart ldx #zeile\nloop sta screen,x\n" \
    " lda #<table\n sta (ptr),y\n dex\n bne loop\n rts\n"


@pytest.mark.parametrize("argv, labels", [
    ((), "al C:00fb .ptr\nal C:0400 .screen\nal C:c000 .start\nal C:c002 .loop\nal C:c100 .table\n"),
    (("--labels-all",), "al C:000a .zeile\nal C:00fb .ptr\nal C:0400 .screen\nal C:c000 .start\nal C:c002 .loop\n"
                        "al C:c100 .table\n"),
    (("--break", "loop", "--break", "start+2"), "al C:00fb .ptr\nal C:0400 .screen\nal C:c000 .start\n"
                                                "al C:c002 .loop\nal C:c100 .table\nbreak $c002\nbreak $c002\n"),
])
def test_the_vice_label_file(capsys, tmp_path, argv, labels):
    (tmp_path / "p.asm").write_text(VICE_SOURCE)
    code, _, err = run(capsys, tmp_path / "p.asm", "-l", tmp_path / "p.lbl", *argv)
    assert code == 0, err
    assert (tmp_path / "p.lbl").read_text() == labels


@pytest.mark.parametrize("argv, message", [
    (("-l", "{d}/p.lbl", "--break", "nowhere"), "error: --break nowhere: no such label in the program"),
    (("--break", "loop"), "error: --break needs a label file: -l FILE"),
])
def test_a_break_that_cannot_be_written(capsys, tmp_path, argv, message):
    (tmp_path / "p.asm").write_text(VICE_SOURCE)
    code, _, err = run(capsys, tmp_path / "p.asm", *(a.format(d=tmp_path) for a in argv))
    assert code == 1 and message in err and not (tmp_path / "p.prg").exists()


@pytest.mark.parametrize("argv, shown", [
    ((), ["{f}:2:6: error: undefined symbol 'lopo'; did you mean 'loop'? [UNDEF'D STATEMENT]", "   bne lopo", "       ^~~~"]),
    (("--diagnostics-format", "msvc"), ["{f}(2,6): error: undefined symbol 'lopo'; did you mean 'loop'? [UNDEF'D STATEMENT]",
                                        "   bne lopo", "       ^~~~"]),
    (("--diagnostics-format", "msvc", "--no-caret"), ["{f}(2,6): error: undefined symbol 'lopo'; did you mean 'loop'? "
                                                      "[UNDEF'D STATEMENT]"]),
    (("--no-caret",), ["{f}:2:6: error: undefined symbol 'lopo'; did you mean 'loop'? [UNDEF'D STATEMENT]"]),
])
def test_diagnostics_for_editors(capsys, tmp_path, argv, shown):
    source = tmp_path / "p.asm"
    source.write_text("loop *= $c000\n bne lopo\n rts\n")
    code, _, err = run(capsys, source, *argv)
    assert code == 1 and err.splitlines()[:-1] == [s.format(f=source) for s in shown]


@pytest.fixture(scope="module")
def bash_completion() -> str:
    import shutil

    if shutil.which("bash") is None:
        pytest.skip("no bash here")
    from asm6502.cli.completion import bash_script

    return bash_script()


@pytest.mark.parametrize("line, expected", [
    ("asm6502 basic t", {"tok", "type"}),
    ("asm6502 --form", {"--format"}),
    ("asm6502 --format r", {"raw"}),
    ("asm6502 convert x.asm --to ", {"64tass", "acme"}),
    ("asm6502 basic tok --ca", {"--case"}),
    ("asm6502 d64 w", {"write"}),
    ("asm6502 --cpu 6", {"6502", "6502i"}),
])
def test_bash_completion_from_the_argument_parsers(bash_completion, tmp_path, line, expected):
    import subprocess

    words = line.split() + ([""] if line.endswith(" ") else [])
    probe = f'{bash_completion}\nCOMP_WORDS=({" ".join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}; ' \
        '_asm6502; printf "%s\\n" "${COMPREPLY[@]}"'
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert set(done.stdout.split()) == expected  # (tmp_path is empty: no file names beside them)


def test_zsh_completion_is_the_bash_one_through_bashcompinit(capsys):
    code, out, _ = run(capsys, "completion", "zsh")
    assert code == 0 and "bashcompinit" in out and "complete -o filenames -F _asm6502 asm6502" in out


def test_the_assembler_prints_its_errors_before_its_warnings(capsys, tmp_path):
    (tmp_path / "p.asm").write_text(" *= $c000\nline = $0400+12*40\n lda #$0400+12*40\n rts\n")
    code, _, err = run(capsys, tmp_path / "p.asm", "-o", tmp_path / "p.prg")
    heads = [ln.split(": ")[1] for ln in err.splitlines() if ln.startswith(str(tmp_path))]
    assert code == 1 and heads == ["error", "warning", "warning"]  # (line 3's error before line 2's warning)


@pytest.mark.parametrize("command", [("convert", "--to", "acme"), ("build",)])
def test_convert_and_build_write_msvc_diagnostics_too(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.asm").write_text(" *= $c000\n bne lopo\n rts\n")
    (tmp_path / "build.yaml").write_text("artifacts:\n  out/p.prg:\n    rule: assemble\n    from: p.asm\n")
    argv = [command[0], "p.asm", *command[1:]] if command[0] == "convert" else ["build", "build.yaml"]
    code, _, err = run(capsys, *argv, "--diagnostics-format", "msvc", "--no-caret")
    assert code == 1 and "p.asm(2,6): error: undefined symbol 'lopo' [UNDEF'D STATEMENT]" in err
    assert " bne lopo" not in err  # (no source line under it)
