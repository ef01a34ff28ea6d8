"""The assembler, read like a listing: source statement -> bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py65.devices.mpu6502 import MPU
from py65.disassembler import Disassembler

from asm6502.asm import Options, assemble
from asm6502.diagnostics import DiagnosticError
from asm6502.opcodes import DECODE, Mode


def code(source: str, origin: int = 0x1000, **kw) -> str:
    """Assemble ``source`` (statements separated by newlines) at ``origin``; bytes as hex text."""
    text = f"*= ${origin:04x}\n" + source
    result = assemble(text, "t.asm", Options(**kw))
    return " ".join(f"{b:02X}" for b in result.image)


def errors(source: str, origin: int = 0x1000) -> list[str]:
    with pytest.raises(DiagnosticError) as info:
        assemble(f"*= ${origin:04x}\n" + source, "t.asm")
    return [d.message for d in info.value.errors]


# Expected bytes: MCS6500 programming manual, appendix B (opcode per mode).
LISTING = [
    ("lda #$12", "A9 12"),
    ("lda $12", "A5 12"),
    ("lda $12,x", "B5 12"),
    ("lda $1234", "AD 34 12"),
    ("lda $1234,x", "BD 34 12"),
    ("lda $1234,y", "B9 34 12"),
    ("lda $12,y", "B9 12 00"),  # LDA has no zero page,Y: absolute,Y
    ("lda ($80,x)", "A1 80"),
    ("lda ($80),y", "B1 80"),
    ("LDA ($80),Y", "B1 80"),
    ("lda ( $80 ) , y", "B1 80"),
    ("ldx $12,y", "B6 12"),
    ("ldx $1234,y", "BE 34 12"),
    ("stx $12,y", "96 12"),
    ("sty $12,x", "94 12"),
    ("sta $0012", "85 12"),  # a known small value is zero page, however it is written
    ("sta !$12", "8D 12 00"),  # '!' forces absolute
    ("sta !$12,x", "9D 12 00"),
    ("jmp $1234", "4C 34 12"),
    ("jmp ($1234)", "6C 34 12"),
    ("jsr $ffd2", "20 D2 FF"),
    ("asl", "0A"),
    ("asl a", "0A"),
    ("ASL A", "0A"),
    ("rol a", "2A"),
    ("lsr $12", "46 12"),
    ("ror $1234,x", "7E 34 12"),
    ("bit $12", "24 12"),
    ("bit $1234", "2C 34 12"),
    ("cpx #0", "E0 00"),
    ("cpy $12", "C4 12"),
    ("inc $d020", "EE 20 D0"),
    ("dec $12,x", "D6 12"),
    ("brk", "00"),
    ("nop", "EA"),
    ("rti", "40"),
    ("txs", "9A"),
    ("bne *", "D0 FE"),
    ("beq *+2", "F0 00"),
    ("bcc *+129", "90 7F"),
    ("bcs *-126", "B0 80"),
    ("lda #<$1234", "A9 34"),
    ("lda #>$1234", "A9 12"),
    ("lda #\"a\"", "A9 41"),  # unshifted letter: PETSCII $41
    ("lda #\"A\"", "A9 C1"),  # shifted letter: PETSCII $C1
    ("lda #2+3*4", "A9 14"),  # left to right: (2+3)*4 = 20
    ("lda #2+[3*4]", "A9 0E"),
    ("lda #%1010", "A9 0A"),
    ("lda #-1&255", "A9 FF"),
    (".byt 1,$ff,%11,\"ab\"", "01 FF 03 41"),  # a string in .byt is its first character (data/data_byt_string_long)
    (".byte 0", "00"),
    (".wor $1234,*", "34 12 00 10"),
    (".word 1", "01 00"),
    (".asc \"Hi 1\"", "C8 49 20 31"),
    ("lda #1 : sta 2", "A9 01 85 02"),
    ("lda #1 ; comment : sta 2", "A9 01 85 02"),  # Profi-Ass: ':' ends a comment
    ("lda #1 ; \"a:b\" sta 2", "A9 01"),  # ... but not inside quotes
    # the original wraps every operator at 16 bits (tests/fixtures/profiass_core/expr.txt)
    ("lda 300*300", "AD 90 5F"),
    ("lda 1<16", "A5 00"),
    (".wor $ffff+2,-1,-(2)", "01 00 FF FF FE FF"),
    (".wor 256*256,-1*2,2*-1,255*257", "00 00 FE FF FE FF FF FF"),  # (expr/expr_mul_table, expr_mul_neg_small)
    ("lda #-10", "A9 F6"),  # one-byte values: 0-255 and $FF80-$FFFF
    ("lda $12345", "AD 45 23"),  # hex digits beyond 16 bits wrap (fixture expr/expr_hex_5digits)
    (".if undefined : brk\nnop", "EA"),  # a symbol never defined counts as 0 in .if (cond/cond_if_undefined)
    (".byt -1,-128", "FF 80"),
    ("lda #\"ab\"", "A9 41"),  # a character constant is its first character
    ("lda #\"\"", "A9 22"),  # ... and "" the quote itself
    ("x = 1\nx _ 2\n.wor x", "02 00"),  # '_' redefines even an '=' constant
    ("z _ 3\n.wor z\nz _ 4\n.wor z", "03 00 04 00"),
    ("100 sys32768\n110 nop", "EA"),
]


@pytest.mark.parametrize("source, expected", LISTING)
def test_listing(source, expected):
    if source.startswith("100 sys"):
        assert " ".join(f"{b:02X}" for b in assemble(source.replace("110 nop", "105 *= $1000\n110 nop"), "t.asm").image) == expected
    else:
        assert code(source) == expected


# One canonical spelling for every addressing mode; the operand value decides zp/abs.
SYNTAX = {
    Mode.IMPLIED: ("", b""),
    Mode.ACCUMULATOR: ("a", b""),
    Mode.IMMEDIATE: ("#$44", b"\x44"),
    Mode.ZERO_PAGE: ("$44", b"\x44"),
    Mode.ZERO_PAGE_X: ("$44,x", b"\x44"),
    Mode.ZERO_PAGE_Y: ("$44,y", b"\x44"),
    Mode.ABSOLUTE: ("$4400", b"\x00\x44"),
    Mode.ABSOLUTE_X: ("$4400,x", b"\x00\x44"),
    Mode.ABSOLUTE_Y: ("$4400,y", b"\x00\x44"),
    Mode.INDIRECT: ("($4400)", b"\x00\x44"),
    Mode.INDEXED_INDIRECT: ("($44,x)", b"\x44"),
    Mode.INDIRECT_INDEXED: ("($44),y", b"\x44"),
    Mode.RELATIVE: ("*+$46", b"\x44"),
}


def py65_decode() -> dict[int, tuple[str, str]]:
    return {c: (n, m) for c, (n, m) in enumerate(MPU().disassemble) if n != "???"}


@pytest.mark.parametrize("opcode", sorted(DECODE), ids=lambda c: f"{c:02X}")
def test_every_opcode(opcode):
    """Each of the 151 opcodes, assembled from its canonical syntax; py65 decodes it back."""
    mnemonic, mode = DECODE[opcode]
    operand, operand_bytes = SYNTAX[mode]
    out = assemble(f"*= $1000\n{mnemonic.lower()} {operand}", "t.asm").image
    assert out == bytes([opcode]) + operand_bytes
    assert py65_decode()[out[0]][0] == mnemonic


MNEMONIC_ERRORS = [
    ("sta #1", "STA has no immediate mode"),
    ("jmp ($12),y", "JMP has no (zero page),Y mode"),
    ("stx $1234,y", "value $1234 does not fit zero page,Y, and STX has no absolute,Y mode"),
    ("lda #$100", "value $0100 does not fit in a byte (immediate mode"),
    ("lda #$ff7f", "value $FF7F does not fit in a byte (immediate mode"),
    ("lda ($100),y", "value $0100 is not a zero-page address ((zero page),Y needs $00-$FF)"),
    ("rts 1", "RTS takes no operand"),
    ("lda", "LDA needs an operand"),
    ("bne *+130", "branch out of range: target $1082 is +128 bytes away, 1 byte too far (a branch reaches -128..+127)"),
    ("bne *-127", "branch out of range: target $0F81 is -129 bytes away, 1 byte too far (a branch reaches -128..+127)"),
    ("lda #1/0", "division by zero"),
    ("lda 70000", "number 70000 does not fit in 16 bits"),
    ("abcdefghijk = 7", "'abcdefghijk' is longer than 10 characters"),  # (labels/labels_len_12; 10 are accepted)
    (".wor 1000*1000", "overflow in the multiplication [ILLEGAL QUANTITY]"),
    (".wor -2*-2", "overflow in the multiplication [ILLEGAL QUANTITY]"),
    ("lda nowhere", "undefined symbol 'nowhere'"),
    ("lda #(1", "')' expected"),
    ("foo bar", "unknown mnemonic 'bar' (after label 'foo'"),
    ("x lad #1", "unknown mnemonic 'lad' (after label 'x'; did you mean LDA or PLA or LDY?)"),
    ("loop: jmp loop", "a label needs a statement after it on its line: 'loop' alone [SYNTAX 0]"),
    (".zzz", "unknown pseudo-op '.zzz'"),
    (".gtb", "'.gtb' needs a running C64"),
    (".sys 1", "'.sys' needs a running C64"),
    ("* = $1000", "'*=' expected (no blank between '*' and '=') [SYNTAX 1]"),
    ("z _ 3\nz = 4", "duplicate symbol 'z' [REDEFINITION]"),
    (".byt -129", "value $FF7F does not fit in a byte"),
    (".byt 256", "value $0100 does not fit in a byte"),
    (".asc 12", '.asc expects one string in double quotes: .asc "text"'),
    ("l1 nop\nl1 nop", "duplicate symbol 'l1'"),
    ("x = 1\nx = 2", "duplicate symbol 'x'"),
    ("sys 32768\nnop\nsys 32768", "'sys' is the start line"),
    (".goto 999", ".goto 999: there is no line 999"),
]


@pytest.mark.parametrize("source, message", MNEMONIC_ERRORS)
def test_error_messages(source, message):
    assert any(m.startswith(message) for m in errors(source)), errors(source)


def test_branch_limits_exactly():
    assert code("bne *+129") == "D0 7F"
    assert code("bne *-126") == "D0 80"


def test_forward_reference_is_absolute_backward_is_zero_page():
    src = "lda early\nlda late\nearly = $12\nlate = $34"
    # 'early' is defined after its use: assembled absolute (Profi-Ass rule), same for 'late'
    assert code(src) == "AD 12 00 AD 34 00"
    assert code("early = $12\nlda early") == "A5 12"


def test_redefinable_variable_and_goto_loop():
    src = "10 *= $2000\n20 i _ 0\n30 .byt i*2\n40 i _ i+1\n50 .if 5-i : .goto 30\n60 rts"
    assert assemble(src, "t.asm").image == bytes([0, 2, 4, 6, 8, 0x60])


@pytest.mark.parametrize("numbers", [
    ("10", "20", "30", "40", "50", "60"),  # ascending: looked up by bisection
    ("10", "", "30", "", "50", "60"),  # lines without a number between (an empty line too)
    ("10", "20", "30", "30", "50", "60"),  # the first line of a number counts
    ("10", "70", "30", "5", "50", "60"),  # out of order: looked up in a dict
    ("10", "20", "30", "40", "30", "60"),  # out of order, the first line of a number counts
    ("", "", "0", "40", "50", "60"),  # lines without a number before line 0
])
def test_goto_finds_the_first_line_of_its_number(numbers):
    target = numbers[2]
    body = ("*= $2000", "i _ 0", ".byt i*2", "i _ i+1", f".if 5-i : .goto {target}", "rts")
    src = "\n".join(f"{n} {s}" if n else f" {s}" for n, s in zip(numbers, body)) + "\n\n"
    # (a second line numbered 30 after the first: '.goto 30' to it would skip '.byt' and give 00 60; a line
    # without a number before line 0: '.goto 0' to it would run 'i _ 0' again, for ever)
    assert assemble(src, "t.asm").image == bytes([0, 2, 4, 6, 8, 0x60])


def test_endless_goto_is_stopped():
    src = "10 *= $2000\n20 nop\n30 .goto 20"
    with pytest.raises(DiagnosticError) as info:
        assemble(src, "t.asm", Options(max_statements=5000))
    assert "endless .goto loop?" in info.value.errors[0].message


def test_endless_goto_stops_after_every_statement_of_the_source_and_the_limit():
    """The budget: every statement of the source once (5 lines, 8 statements), then max_statements more
    (the statements after a line's first are counted only when the budget of one a line runs out)."""
    src = "10 *= $2000\n20 nop:nop:nop ; x\n25 lda #1\n30 .goto 20\n40 .byt 1:.byt 2\n"
    with pytest.raises(DiagnosticError) as info:
        assemble(src, "t.asm", Options(max_statements=5000))
    assert info.value.errors[0].message.startswith("assembly stopped after 5008 statements (5000 more than the source holds)")


def test_if_false_skips_rest_of_line():
    assert code(".if 0 : nop : nop\n.if 1 : brk") == "00"


def test_macro_with_parameters_and_local_labels():
    src = (
        ".mac delay n\n"
        "ldx #n\n"
        "loop dex\n"
        "bne .loop\n"
        ".men\n"
        "'delay 3\n"
        "'delay 1+2*2\n"
    )
    # the label 'loop' is local to each expansion (referenced as '.loop'); the argument is a value: (1+2)*2 = 6
    assert code(src) == "A2 03 CA D0 FD A2 06 CA D0 FD"


def test_star_equals_reserves_space_and_gaps():
    result = assemble("*= $1000\nnop\nbuf *= *+3\nrts", "t.asm")
    assert result.segments == ((0x1000, b"\xea"), (0x1004, b"\x60"))
    assert result.symbols["buf"] == 0x1001
    assert result.image == b"\xea\x00\x00\x00\x60"
    assert result.gaps() == [(0x1001, 3)]


def test_overlapping_output_is_an_error():
    assert "code at $1000-$1000 overwrites earlier output at $1000-$1001 [REVERSAL]" in errors("nop\nnop\n*= $1000\nbrk")


def test_eight_significant_characters():
    result = assemble("*= $1000\nverylongla nop\njmp verylongXYZ", "t.asm")
    assert result.image == bytes([0xEA, 0x4C, 0x00, 0x10])
    assert any("only the first 8 characters" in d.message for d in result.diagnostics)


def test_jmp_indirect_page_bug_warning():
    result = assemble("*= $1000\njmp ($10ff)", "t.asm")
    assert [d.severity.value for d in result.diagnostics] == ["warning"]
    assert "does not carry into the high byte" in result.diagnostics[0].message


def test_if_needs_its_value_in_pass_1():
    msgs = errors(".if later : nop\nlater = 1\nend rts")
    assert msgs == ["'later' is defined further down: .if needs its value in pass 1 [UNDEF'D STATEMENT]"]


@pytest.mark.parametrize(
    "operand",
    ["fwd/0", "#fwd/0", "(fwd/0),y", "#<undefined", "undefined,x", "fwd+1/0"],
)
def test_a_bad_operand_keeps_its_bytes_so_no_phase_errors_follow(operand):
    """The instruction still takes the bytes pass 1 gave it: only the operand's own error is reported."""
    msgs = errors(f"lda {operand}\nx nop\njmp x\nfwd = 1")
    assert len(msgs) == 1 and "phase error" not in msgs[0], msgs


def test_errors_are_collected():
    assert len(errors("lda #$100\nsta #1\njmp nowhere")) == 3


def test_defines():
    assert assemble("*= $1000\nlda #debug", "t.asm", Options(defines=(("debug", 7),))).image == b"\xa9\x07"


def test_assemble_twice_is_identical():
    src = "*= $1000\nl1 lda #1\nbne l1\n.mac m\nnop\n.men\n'm"
    first = assemble(src, "t.asm")
    second = assemble(src, "t.asm")
    assert first == second


# --- the rendered diagnostic, whole -----------------------------------------------

def test_rendered_diagnostic():
    src = "10 *= $c000\n20 lda #1\n30 sta (ptr),y ; store\n"
    with pytest.raises(DiagnosticError) as info:
        assemble(src, "prog.asm")
    assert info.value.errors[0].render() == (
        "prog.asm:3:9: error: undefined symbol 'ptr' [UNDEF'D STATEMENT] (line 30)\n"
        "  30 sta (ptr),y ; store\n"
        "          ^~~"
    )


def test_rendered_duplicate_with_note():
    with pytest.raises(DiagnosticError) as info:
        assemble("10 *= $c000\n20 loop nop\n30 loop rts\n", "p.asm")
    assert info.value.errors[0].render() == (
        "p.asm:3:4: error: duplicate symbol 'loop' [REDEFINITION] (line 30)\n"
        "  30 loop rts\n"
        "     ^~~~\n"
        "p.asm:2:4: note: first defined here (line 20)\n"
        "  20 loop nop\n"
        "     ^~~~"
    )


# --- expressions: a reference left-to-right model ----------------------------------

def reference(first: int, rest: list[tuple[str, int]]) -> int | None:
    """Left to right, every operator wrapping at 16 bits; None where Profi-Ass reports an error (x/0)."""
    value = first
    for op, n in rest:
        if op == "+":
            value = (value + n) % 65536
        elif op == "-":
            value = (value - n) % 65536
        elif op == "*":  # shift and add (see expr.multiply): a carry out of an addition is an error
            result, left, right = 0, value, n
            while right:
                if right & 1:
                    result += left
                    if result > 65535:
                        return None
                left = (left << 1) % 65536
                right >>= 1
            value = result
        elif op == "/":
            if n == 0:
                return None
            value = value // n
        elif op == "!":
            value |= n
        elif op == "&":
            value &= n
        elif op == "^":
            value ^= n
        elif op == ">":
            value >>= n
        elif op == "<":
            value = (value << n) % 65536
    return value


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 65535),
    st.lists(st.tuples(st.sampled_from("+-*/!&^><"), st.integers(0, 70000)), max_size=6),
    st.sampled_from(["decimal", "hex", "binary"]),
)
def test_expressions_match_left_to_right_model(first, rest, radix):
    def lit(n: int) -> str:
        return {"decimal": str(n), "hex": f"${n:x}", "binary": f"%{n:b}"}[radix]

    rest = [(op, n if op not in "<>" else n % 20) for op, n in rest]
    text = lit(first) + "".join(op + lit(n) for op, n in rest)
    if radix == "decimal":
        expected = None if any(n > 65535 for _, n in rest) else reference(first, rest)
    else:  # hex and binary digits beyond 16 bits wrap (fixtures expr/expr_hex_5digits, expr/expr_binary_17)
        expected = reference(first, [(op, n & 0xFFFF) for op, n in rest])
    src = f"*= $1000\nx = {text}\n.wor x"
    if expected is None:
        with pytest.raises(DiagnosticError):
            assemble(src, "t.asm")
    else:
        assert assemble(src, "t.asm").image == expected.to_bytes(2, "little")


# --- round trip: py65 disassembles random code, we assemble it back -----------------

def to_profi_ass(text: str) -> str:
    """py65 syntax -> ours: a 4-digit operand below $100 means the absolute form ('!')."""
    mnemonic, _, operand = text.partition(" ")
    for opener in ("$", "($"):
        if operand.startswith(opener):
            digits = operand[len(opener):len(opener) + 4]
            if len(digits) == 4 and all(c in "0123456789abcdefABCDEF" for c in digits) and int(digits, 16) < 0x100 and mnemonic != "JMP":
                operand = "!" + operand
    return f"{mnemonic} {operand}".strip()


instruction = st.sampled_from(sorted(DECODE)).flatmap(
    lambda op: st.tuples(st.just(op), st.binary(min_size=DECODE[op][1].operand_size, max_size=DECODE[op][1].operand_size))
)


@settings(max_examples=200, deadline=None)
@given(st.lists(instruction, min_size=1, max_size=30))
def test_disassemble_then_assemble_gives_the_same_bytes(instructions):
    blob = b"".join(bytes([op]) + operand for op, operand in instructions)
    mpu = MPU()
    mpu.memory[0x2000 : 0x2000 + len(blob)] = list(blob)
    dis = Disassembler(mpu)
    pc = 0x2000
    lines = []
    while pc < 0x2000 + len(blob):
        length, text = dis.instruction_at(pc)
        lines.append(to_profi_ass(text))
        pc += length
    assert assemble("*= $2000\n" + "\n".join(lines), "t.asm").image == blob


def test_file_chains_to_the_next_source(tmp_path):
    (tmp_path / "part2.asm").write_text("200 second rts\n")
    main = tmp_path / "part1.asm"
    main.write_text('100 *= $c000\n110 jsr second\n120 .file "part2.asm"\n130 brk ; never assembled\n')
    from asm6502.asm import assemble_file

    result = assemble_file(main)
    assert result.image == bytes([0x20, 0x03, 0xC0, 0x60])


def test_file_missing_is_an_error(tmp_path):
    main = tmp_path / "m.asm"
    main.write_text('10 *= $c000\n20 .file "gone.asm"\n')
    from asm6502.asm import assemble_file

    with pytest.raises(DiagnosticError) as info:
        assemble_file(main)
    assert info.value.errors[0].message == "cannot read .file 'gone.asm': no such file [IEEE]"


# Listing rows with bytes or a value: (address, bytes, value).  Pass 2 keeps no bytes for the listing: a row's
# bytes are the object's at its address, as many as pass 1 laid out (a forward reference's absolute size code is
# 4, as is a 4-byte .byt's size); a '_' row's value is the one at that point of pass 2 (a '=' constant's is its last).
LISTED_BYTES = [
    ("10 *= $c000\n20 lda fwd\n30 .byt 1,2,3,4\n40 .wor $1234,fwd\n50 x = 5\n60 y _ x+1\n70 fwd nop\n"
     "80 *= $c100\n90 jmp $c000:ldx #0:.byt 9\n",
     [(0xC000, "ad0bc0", None), (0xC003, "01020304", None), (0xC007, "34120bc0", None), (None, "", 5), (None, "", 6),
      (0xC00B, "ea", None), (0xC100, "4c00c0", None), (0xC103, "a200", None), (0xC105, "09", None)]),
    ("10 *= $fffc\n20 lda $12\n30 .wor 7\n", [(0xFFFC, "a512", None), (0xFFFE, "0700", None)]),  # (up to $FFFF)
    ("10 *= $1000\n20 .byt 1,2,3,4,5,6,7\n30 *= $0ff0\n40 rts\n", [(0x1000, "01020304050607", None), (0x0FF0, "60", None)]),
    ("10 *= $1000\n20 x = 1\n30 x _ 2\n40 .wor x\n50 x _ 3\n", [(None, "", 3), (None, "", 2), (0x1000, "0200", None), (None, "", 3)]),
]


@pytest.mark.parametrize("source, rows", LISTED_BYTES)
def test_listing_rows_show_each_entry_bytes_and_value(source, rows):
    result = assemble(source, "t.asm", Options(listing=True))
    assert [(row.address, row.data.hex(), row.value) for row in result.listing if row.data or row.value is not None] == rows
    assert not assemble(source, "t.asm", Options(listing=False)).listing  # (no listing: no rows)


def test_title_and_page_in_listing():
    from asm6502.output import listing_text

    text = listing_text(assemble('10 *= $c000\n20 .tit "demo"\n30 .pag\n40 nop', "t.asm"))
    assert '.tit "demo"' in text and "\f" in text and "C000  EA" in text


def test_errors_in_a_goto_loop_are_reported_once():
    src = "10 i _ 0\n30 lda #$100\n40 i _ i+1\n50 .if 5-i : .goto 30"
    assert errors(src) == ["value $0100 does not fit in a byte (immediate mode: 0-255 or -128..-1) [ILLEGAL QUANTITY]"]


def test_label_starting_with_sys_is_a_label():
    result = assemble("10 sys32768\n20 *= $c000\n30 system lda #1\n40 sys.2 rts", "t.asm")
    assert result.image == b"\xa9\x01\x60" and result.labels["system"] == 0xC000


# Python refuses to convert decimal texts of more than 4,300 digits: such a number is an error, not a crash
@pytest.mark.parametrize("listing", [True, False])
@pytest.mark.parametrize(
    "source, message",
    [
        ("*= $1000\n lda #" + "1" * 5000, "does not fit in 16 bits"),
        ("*= $1000\n lda " + "1" * 5000 + ",x", "does not fit in 16 bits"),
        ("*= $1000\n .byt 1," + "9" * 5000, "does not fit in 16 bits"),
        ("*= $1000\nx = 1+" + "9" * 5000, "does not fit in 16 bits"),
        ("1" * 5000 + " *= $1000\n nop", "line number 111111111111... is larger than 63999"),
    ],
)
def test_numbers_of_thousands_of_digits_are_errors(source, message, listing):
    with pytest.raises(DiagnosticError) as info:
        assemble(source, "t.asm", Options(listing=listing))
    assert message in info.value.errors[0].message
