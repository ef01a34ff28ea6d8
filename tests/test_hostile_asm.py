"""Hostile and mistaken assembler sources: a clear, positioned message, never a traceback.

The mistakes new users make and inputs built to break a reader: deep nesting,
a file that includes itself, characters that other tools take for line breaks, a program
longer than the .goto guard, a listing typed from capitals.
"""

from __future__ import annotations

import pytest

from asm6502.asm import Options, assemble
from asm6502.asm.expr import MAX_NESTING
from asm6502.diagnostics import DiagnosticError

HEAD = "100 sys32768\n110 *=$c000\n"


def errors_of(text: str, options: Options = Options()) -> list:
    with pytest.raises(DiagnosticError) as info:
        assemble(text, "t.asm", options)
    return info.value.errors


@pytest.mark.parametrize(
    "operand",
    [
        "(" * 500 + "1" + ")" * 500,
        "[" * 200 + "1" + "]" * 200,
        "-" * 1000 + "1",
        "(-" * 300 + "1" + ")" * 300,
    ],
    ids=["500 brackets", "200 square brackets", "1000 minus signs", "300 bracketed minus signs"],
)
def test_deep_nesting_is_an_error_at_its_place(operand):
    errs = errors_of(HEAD + f"120 lda #{operand}\n")
    assert len(errs) == 1
    assert f"nested more than {MAX_NESTING} deep" in errs[0].message
    assert errs[0].span.line == 3 and errs[0].span.basic_line == 120
    assert errs[0].span.col <= 10 + MAX_NESTING * 2  # at the bracket or sign that went too deep


def test_nesting_up_to_the_limit_is_fine():
    depth = MAX_NESTING
    result = assemble(HEAD + "120 lda #" + "(" * depth + "7" + ")" * depth + "\n", "t.asm")
    assert result.image == bytes([0xA9, 0x07])


@pytest.mark.parametrize("separator", ["\x0c", "\x85", "\x1c", "\u2028", "\x0b"])
def test_only_real_line_breaks_count(separator):
    """A form feed, NEL ($85) and the other characters str.splitlines breaks at belong to their
    line: the error two lines further down is still on line 4 (BASIC line 130)."""
    errs = errors_of(HEAD + f"120 nop ;{separator}x\n130 lda nowhere\n")
    assert [(e.span.line, e.span.basic_line) for e in errs] == [(4, 130)]


def test_an_unprintable_character_is_named_by_its_code():
    errs = errors_of(HEAD + "120 lda #1\x85 x\n")
    assert "U+0085" in errs[0].message


def test_a_file_that_chains_to_itself_stops(tmp_path):
    src = tmp_path / "self.asm"
    src.write_text('100 sys32768\n110 *=$c000\n120 nop\n130 .file 8,"self.asm"\n')
    errs = errors_of(src.read_text().replace("self.asm", str(src.name)), Options(include_dirs=(str(tmp_path),)))
    assert any("the .file chain comes back to 'self.asm' (self.asm -> self.asm)" in e.message for e in errs)


def test_a_chain_cycle_is_found_when_it_closes(tmp_path):
    """A 2 MB source whose last line .files itself: one error at the second visit, not 1000 rounds."""
    import time

    body = "".join(f"{100 + i} nop ; a comment to make the source 2 mb long\n" for i in range(45_000))
    big = tmp_path / "big.asm"
    big.write_text("10 *=$c000\n" + body + '63000 .file 8,"b"\n')
    (tmp_path / "b.asm").write_text('10 nop\n20 .file 8,"big.asm"\n')
    assert big.stat().st_size > 2_000_000
    started = time.perf_counter()
    with pytest.raises(DiagnosticError) as info:
        assemble(big.read_text(), str(big), Options(listing=False))
    messages = [e.message for e in info.value.errors]
    assert any(f"comes back to '{big}' ({big} -> b -> big.asm)" in m for m in messages), messages
    assert time.perf_counter() - started < 15


@pytest.mark.parametrize(
    "source, data",
    [
        ("sta ($20),x", "81 20"),  # the original reads (e),x as (e,x) (oracle: syntax_indirect_x_suffix)
        ("lda ($20),x", "A1 20"),
        ("lda ($20 ),x", "A1 20"),
    ],
)
def test_index_after_the_bracket_is_read_as_the_original_reads_it_and_warned(source, data):
    result = assemble(HEAD + f"120 {source}\n130 {source}\n", "t.asm")
    assert result.image.hex(" ").upper() == f"{data} {data}"
    warnings = [d for d in result.diagnostics if "is read as" in d.message]
    assert [(w.span.basic_line, w.span.col) for w in warnings] == [(120, 9), (130, 9)]


@pytest.mark.parametrize("source", ["lda ($20,x)", "lda ( $20,x)", "lda ($20 ,x)", "sta (tab + 1,x)", "lda ($20),y", "jmp ($1234)"])
def test_the_index_inside_the_bracket_is_not_warned(source):
    """Only '(e),x' is worth the warning: '(e,x)' however written (with blanks) is what it says."""
    result = assemble(HEAD + f"115 tab = $20\n120 {source}\n", "t.asm")
    assert [d.message for d in result.diagnostics if "is read as" in d.message] == []


@pytest.mark.parametrize(
    "line, wanted",
    [
        ("120 rst", "a typo of RTS"),
        ("120 ldq #2", "did you mean LDY or LDX or LDA?"),
        ("120 jsp $ffd2", "did you mean JSR or JMP?"),
        ("120 lad #1", "did you mean LDA"),
    ],
)
def test_a_near_miss_of_a_mnemonic_is_named(line, wanted):
    errs = errors_of(HEAD + line + "\n")
    assert wanted in errs[0].message
    assert errs[0].span.col == 5  # at the word


def test_a_real_lone_label_gets_no_mnemonic_hint():
    errs = errors_of(HEAD + "120 loop\n")
    assert "typo" not in errs[0].message and "[SYNTAX 0]" in errs[0].message


CAPITALS = '100 SYS32768\n110 *=$C000\n120 LDA #"A"\n130 .ASC "HELLO"\n'


def test_a_source_in_capitals_is_noticed():
    result = assemble(CAPITALS, "t.asm")
    assert result.image == bytes([0xA9, 0xC1, 0xC8, 0xC5, 0xCC, 0xCC, 0xCF])  # shifted letters, as typed
    (warning,) = [d for d in result.diagnostics if "--case upper" in d.message]
    assert warning.span.basic_line == 120


def test_case_upper_reads_capitals_as_the_unshifted_letters():
    result = assemble(CAPITALS, "t.asm", Options(case="upper"))
    assert result.image == bytes([0xA9, 0x41]) + b"HELLO"
    assert result.diagnostics == ()


def test_mixed_case_sources_get_no_capitals_warning():
    result = assemble(HEAD + '120 .asc "HELLO world"\n', "t.asm")
    assert not [d for d in result.diagnostics if "--case upper" in d.message]


def test_the_goto_guard_counts_repeats_not_the_program():
    """A program longer than the guard is no endless loop; a .goto loop still stops."""
    options = Options(max_statements=50)
    long = HEAD + "".join(f"{200 + i} nop\n" for i in range(300))
    assert len(assemble(long, "t.asm", options).image) == 300
    loop = HEAD + "120 nop\n130 .goto 120\n"
    errs = errors_of(loop, options)
    assert "endless .goto loop?" in errs[0].message
