"""The disassembler's output, listing by listing: labels by role, ROM names, forced absolute
addressing, jumps into instructions, jump tables, BASIC start lines, text, the Profi-Ass rules.

Every listing here is also reassembled (asm6502, 64tass, ACME) to the bytes it came from.
"""

from __future__ import annotations

import re

import pytest
from disasm_assemblers import SYNTAXES, reassemble
from helpers import ROOT

from asm6502.asm import assemble
from asm6502 import c64map as names
from asm6502.disasm import SourceTooLong, disassemble, listing
from asm6502.disasm.model import Data, Instruction
from asm6502.opcodes import OPCODES
from asm6502.opcodes_undoc import UNDOCUMENTED


def body(text: str) -> str:
    """The source after the header comments (from the first equate or origin line)."""
    lines = text.splitlines()
    first = next(n for n, line in enumerate(lines) if re.search(r"(^| )[a-z0-9_.]+ = \$|\* ?= ?\$|\.enc", line))
    return "\n".join(lines[first:]) + "\n"


def check(origin: int, data: bytes, syntax: str, expected: str, **kw) -> None:
    text = disassemble(origin, data, syntax=syntax, **kw)
    assert body(text) == expected
    assert reassemble(syntax, text, kw.get("cpu", "6502")) == data


SELF_MODIFYING = """\
*= $1000
 lda #0
 sta mod+1     ; self-modifying - the operand of the next instruction
mod lda #5
 .byt $2c      ; bit $xxxx hides the next instruction
skip lda #1
 jsr $ffd2
 sta $d020
 sta $0401
 lda $0315
 lda !$12      ; absolute addressing of a zero-page address
 ldx !$34,y
 beq skip
 jmp mod+1
 rts
"""


def test_self_modifying_code_64tass():
    check(0x1000, assemble(SELF_MODIFYING).image, "64tass", """\
irq_vector = $0314
screen_ram = $0400
vic_border = $d020
chrout = $ffd2
                * = $1000
start           lda #$00
                sta loop_1005+1
loop_1005       lda #$05
loop_1007       bit $01a9
                jsr chrout
                sta vic_border
                sta screen_ram+1
                lda irq_vector+1
                lda @w $0012
                ldx @w $0034,y
                beq loop_1007+1
                jmp loop_1005+1
                .byte $60
""")


def test_self_modifying_code_profi():
    check(0x1000, assemble(SELF_MODIFYING).image, "profi", """\
190 cinv = $0314
200 scrram = $0400
210 extcol = $d020
220 chrout = $ffd2
230 *= $1000
240 start lda #$00
250 sta loop1005+1
260 loop1005 lda #$05
270 loop1007 bit $01a9
280 jsr chrout
290 sta extcol
300 sta scrram+1
310 lda cinv+1
320 lda !$0012
330 ldx !$0034,y
340 beq loop1007+1
350 jmp loop1005+1
360 .byt $60
""")


def test_self_modifying_code_acme():
    text = disassemble(0x1000, assemble(SELF_MODIFYING).image, syntax="acme")
    assert "                lda+2 $0012\n                ldx+2 $0034,y\n" in text
    assert reassemble("acme", text) == assemble(SELF_MODIFYING).image


JUMP_TABLES = """\
*= $c000
 ldx #2
 lda tab+1,x   ; the RTS trick - push target-1, high byte first
 pha
 lda tab,x
 pha
 rts
tab .wor one-1,two-1
one inc $d020
 rts
two lda #<vec
 sta $fb
 lda #>vec
 sta $fc
 jmp (vec)
vec .wor one
"""


def test_jump_tables_and_vectors():
    check(0xC000, assemble(JUMP_TABLES).image, "64tass", """\
vic_border = $d020
                * = $c000
start           ldx #$02
                lda tab_c00b+1,x
                pha
                lda tab_c00b,x
                pha
                rts
tab_c00b        .word sub_c00f-1, sub_c013-1

sub_c00f        inc vic_border
                rts

sub_c013        lda #<vec_c01e
                sta $fb
                lda #>vec_c01e
                sta $fc
                jmp (vec_c01e)
vec_c01e        .word sub_c00f
""")


SPLIT_TABLE = """\
*= $2000
 ldy #1
 lda hi,y
 pha
 lda lo,y
 pha
 rts
lo .byt <one-1,<two-1
hi .byt >one-1,>two-1
one rts
two rts
"""


def test_split_jump_table_profi():
    check(0x2000, assemble(SPLIT_TABLE).image, "profi", """\
160 *= $2000
170 start ldy #$01
180 lda tab200d,y
190 pha
200 lda tab200b,y
210 pha
220 rts
230 tab200b .byt <sub200f-1,<sub2010-1
240 tab200d .byt >sub200f-1,>sub2010-1
250 ;
260 sub200f rts
270 ;
280 sub2010 rts
""")


def basic_program() -> bytes:
    """10 SYS2061, then: print the 5 letters of 'Hello' (PETSCII, shifted H) and change the border."""
    stub = bytes([0x0B, 0x08, 0x0A, 0x00, 0x9E]) + b"2061" + bytes(3)
    code = bytes([0xA9, 0x05, 0x8D, 0x20, 0xD0, 0xA2, 0x00, 0xBD, 0x20, 0x08, 0x20, 0xD2, 0xFF, 0xE8, 0xE0,
                  0x05, 0xD0, 0xF5, 0x60])
    return stub + code + bytes([0xC8, 0x45, 0x4C, 0x4C, 0x4F])


def test_basic_start_line_gives_the_entry():
    check(0x0801, basic_program(), "profi", """\
190 extcol = $d020
200 chrout = $ffd2
210 *= $0801
220 ; basic line 10 sys2061
230 .wor dat080b,10
240 .byt $9e
250 .asc "2061"
260 .byt $00
270 dat080b .byt $00,$00
280 ;
290 start lda #$05
300 sta extcol
310 ldx #$00
320 loop0814 lda txt0820,x
330 jsr chrout
340 inx
350 cpx #$05
360 bne loop0814
370 rts
380 txt0820 .asc "Hello"
""")


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_basic_program_reassembles(syntax):
    assert reassemble(syntax, disassemble(0x0801, basic_program(), syntax=syntax)) == basic_program()


def test_program_in_zero_page_defines_its_labels_first():
    """Labels below $100 are equates before the code: every assembler then picks zero page."""
    data = bytes([0xA5, 0x15, 0x4C, 0x10, 0x00, 0xEA])  # $10: lda $15 / jmp $0010 / $15: data
    check(0x0010, data, "64tass", """\
start = $10
dat_0015 = $15
                * = $0010
                lda dat_0015
                jmp start
                .byte $ea
""")


def test_undocumented_opcodes_need_cpu_6502i():
    data = bytes([0xA7, 0x12, 0xEB, 0x01, 0xCF, 0x34, 0x12, 0x60])  # lax $12 / sbc #1 (the $EB twin) / dcp $1234
    assert body(disassemble(0x1000, data, syntax="64tass")) == """\
                * = $1000
start           .byte $a7, $12, $eb, $01, $cf, $34, $12, $60
"""
    assert body(disassemble(0x1000, data, syntax="64tass", cpu="6502i")) == """\
                * = $1000
start           lax $12
                .byte $eb, $01, $cf, $34, $12, $60
"""
    for syntax in SYNTAXES:
        assert reassemble(syntax, disassemble(0x1000, data, syntax=syntax, cpu="6502i"), "6502i") == data


@pytest.mark.parametrize("name,acme", [("isb", "isc"), ("asr", "alr"), ("lds", "las"), ("shs", "tas")])
def test_acme_names_for_undocumented_opcodes(name, acme):
    mode, code = next(iter(UNDOCUMENTED[name.upper()].items()))
    data = bytes([code] + [0x34, 0x12][: mode.operand_size]) + b"\x60"
    text = disassemble(0x1000, data, syntax="acme", cpu="6502i")
    assert f"start           {acme} " in text
    assert reassemble("acme", text, "6502i") == data


def test_text_in_petcat_case():
    data = bytes([0xC8, 0x45, 0x4C, 0x4C, 0x4F, 0x2C, 0x20, 0xD7, 0x4F, 0x52, 0x4C, 0x44, 0x0D, 0x00])
    assert body(disassemble(0x4000, data, syntax="profi", entries=[])) == """\
160 *= $4000
170 .asc "Hello, World"
180 .byt $0d,$00
"""
    assert '                .text "Hello, World"\n' in disassemble(0x4000, data, syntax="64tass", entries=[])
    assert '                !pet "Hello, World"\n' in disassemble(0x4000, data, syntax="acme", entries=[])


def test_profi_lines_are_short_numbered_and_text_is_cut_at_40():
    data = b"A" * 100 + bytes(range(256))
    text = disassemble(0x4000, data, entries=[])
    numbers = [int(line.split(" ", 1)[0]) for line in text.splitlines()]
    assert numbers == list(range(100, 100 + 10 * len(numbers), 10))
    assert max(len(line) for line in text.splitlines()) < 80
    assert [len(m) for m in re.findall(r'\.asc "([^"]*)"', text)][:3] == [40, 40, 20]


def test_profi_line_step_shrinks_and_too_long_is_an_error():
    many = disassemble(0x0100, bytes([0xEA]) * 7000)  # 7000 NOPs: steps of 10 would pass 63999
    numbers = [int(line.split(" ", 1)[0]) for line in many.splitlines()]
    assert numbers[-1] <= 63999 and numbers[1] - numbers[0] == 9
    with pytest.raises(SourceTooLong, match="do not fit into one Profi-Ass source"):
        disassemble(0x0100, bytes([0xEA]) * 64000)


def test_labels_are_named_by_role():
    src = """*= $3000
 jsr sub
back lda tab,x
 sta var
 bne back
 beq fwd
fwd rts
sub rts
tab .byt 1,2,3
var .byt 0
"""
    found = {s.label.name for s in listing(0x3000, assemble(src).image).body if getattr(s, "label", None)}
    assert found == {"start", "sub_300e", "loop_3003", "l_300d", "tab_300f", "dat_3012"}


# --- the ROM/I/O name table ---------------------------------------------------------------------

PROFI_LABEL = re.compile(r"[a-z][a-z0-9.]{0,7}")
MNEMONICS = {m.lower() for m in OPCODES} | {m.lower() for m in UNDOCUMENTED}


def test_name_table_is_valid_everywhere():
    assert len({n.address for n in names.ALL}) == len(names.ALL)
    assert len({n.name for n in names.ALL}) == len(names.ALL)
    assert len({n.short for n in names.ALL}) == len(names.ALL)
    for n in names.ALL:
        assert PROFI_LABEL.fullmatch(n.short) and n.short not in MNEMONICS, n
        assert re.fullmatch(r"[a-z][a-z0-9_]*", n.name) and n.name not in MNEMONICS, n
    assert len(names.KERNAL) == 39 and names.lookup(0xFFD2)[0].name == "chrout"
    assert names.lookup(0xD020)[0].name == "vic_border" and names.lookup(0xD020)[0].short == "extcol"
    assert names.lookup(0x0428) == (names.lookup(0x0400)[0], 40)


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_every_name_assembles(syntax):
    """Each table name used once: no clash with a reserved word of any of the three assemblers."""
    code = bytearray()
    for n in names.ALL:
        code += bytes([0xAD, n.address & 0xFF, n.address >> 8]) if n.address > 0xFF else bytes([0xA5, n.address])
    text = disassemble(0xC000, bytes(code) + b"\x60", syntax=syntax)
    for n in names.ALL:
        assert (n.short if syntax == "profi" else n.name) + " = $" in text
    assert reassemble(syntax, text) == bytes(code) + b"\x60"


def test_instructions_and_data_cover_every_byte_once():
    data = assemble(JUMP_TABLES).image
    statements = [s for s in listing(0xC000, data).body if isinstance(s, (Instruction, Data))]
    addresses = [s.address for s in statements]
    assert addresses == sorted(addresses) and addresses[0] == 0xC000


PAGE_CROSSING_PAIR = """\
*= $c0f9
 lda #<mid+1   ; mid+1 = $c100 - the low byte of the sum, not the sum of the low byte
 ldy #>mid+1
 nop
 nop
mid lda $1234
 rts
"""

PAGE_CROSSING_TABLE = """\
*= $c0f0
 ldx #0
 lda hi,x
 pha
 lda lo,x
 pha
 rts
lo .byt <page-1,<other-1
hi .byt >page-1,>other-1
other rts
page rts        ; at $c100, so page-1 = $c0ff
"""


@pytest.mark.parametrize("syntax", SYNTAXES)
def test_byte_prefixes_apply_to_the_whole_expression(syntax):
    pair, table = assemble(PAGE_CROSSING_PAIR).image, assemble(PAGE_CROSSING_TABLE).image
    pair_text, table_text = disassemble(0xC0F9, pair, syntax=syntax), disassemble(0xC0F0, table, syntax=syntax)
    profi = syntax == "profi"
    assert ("#<modc0ff+1" if profi else "#<(mod_c0ff+1)") in pair_text
    assert ("<subc100-1,<subc0ff-1" if profi else "<(sub_c100-1), <(sub_c0ff-1)") in table_text
    assert (">subc100-1" if profi else ">(sub_c100-1)") in table_text
    assert reassemble(syntax, pair_text) == pair
    assert reassemble(syntax, table_text) == table


POINTER_TABLE = """\
*= $c000
 ldx #2
 lda msgs,x
 sta $fb
 lda msgs+1,x
 sta $fc
 ldy #0
 lda ($fb),y
 rts
msgs .wor m1,m2
m1 .asc "hello": .byt 0
m2 .asc "world": .byt 0
"""


def test_table_of_text_pointers():
    check(0xC000, assemble(POINTER_TABLE).image, "64tass", """\
                .enc "petcat"
                .cdef " @", $20, "az", $41, "[_", $5b, "AZ", $c1
                * = $c000
start           ldx #$02
                lda tab_c011,x
                sta $fb
                lda tab_c011+1,x
                sta $fc
                ldy #$00
                lda ($fb),y
                rts
tab_c011        .word txt_c015, txt_c01b
txt_c015        .text "hello"
                .byte $00
txt_c01b        .text "world"
                .byte $00
""")


def test_profi_header_warns_where_opt_oo_would_overwrite_the_source():
    """'.opt oo' writes the code to its address on the C64; at $0801 that is where the source is."""
    at_basic = disassemble(0x0801, basic_program(), title="hello.prg")
    assert '; to send the code to disk, put a line  open1,8,1,"hello"\n' in at_basic
    assert "open1,8,1" not in disassemble(0xC000, basic_program())
    assert "open1,8,1" not in disassemble(0x3400, (ROOT / "build" / "superhirn.prg").read_bytes()[2:])


def test_long_or_odd_file_names_stay_inside_comment_lines():
    text = disassemble(0x0801, basic_program(), title="x" * 100 + "\n:é.prg")
    assert max(len(line) for line in text.splitlines()) < 80
    assert "\n:" not in text and "é" not in text
    assert reassemble("profi", text) == basic_program()
