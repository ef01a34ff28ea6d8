"""Round trips text -> prg -> text and prg -> text -> prg, and listing of odd files."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import detokenize, tokenize
from asm6502.basic.tokens import KEYWORDS


def build_prg(lines: list[tuple[int, bytes]], start: int = 0x0801) -> bytes:
    """A program image laid out by hand: link, number, bytes, $00 ... $0000."""
    out = bytearray()
    address = start
    for number, body in lines:
        link = address + 4 + len(body) + 1
        out += link.to_bytes(2, "little") + number.to_bytes(2, "little") + body + b"\x00"
        address = link
    return start.to_bytes(2, "little") + bytes(out) + b"\x00\x00"


bodies = st.binary(min_size=1, max_size=120).map(lambda b: bytes(x or 1 for x in b))
programs = st.lists(st.tuples(st.integers(0, 63999), bodies), min_size=1, max_size=6).map(
    lambda rows: sorted({n: b for n, b in rows}.items())
)


@settings(max_examples=300, deadline=None)
@given(programs)
def test_any_program_lists_to_text_that_tokenizes_back(lines):
    prg = build_prg(lines)
    listing = detokenize(prg)
    assert tokenize(listing.text).prg == prg


# source text built from the things listings are made of
atoms = st.sampled_from(
    [kw.lower() for kw in KEYWORDS]
    + list("abcdefghijklmnopqrstuvwxyzAZ0123456789 :;,.()+-*/=<>$%#!&'?@[]^_\\~")
    + ['"', "{clr}", "{CLR}", "{2SPACE}", "{rvs on}", "{$a0}", "{147}", "{down*3}", "{CBM-A}"]
)
# (a digit right after the line number, even after spaces, would continue the number, as on a C64:
# LINGET reads digits through CHRGET, which skips spaces)
line_texts = st.lists(atoms, min_size=1, max_size=25).map("".join).filter(lambda t: not t.lstrip(" ")[:1].isdigit())
sources = st.lists(st.tuples(st.integers(0, 63999), line_texts), min_size=1, max_size=5).map(
    lambda rows: "".join(f"{n} {t}\n" for n, t in rows)
)


@settings(max_examples=300, deadline=None)
@given(sources)
def test_listing_is_a_fixed_point(text):
    first = tokenize(text)
    listing = detokenize(first.prg).text
    again = tokenize(listing)
    assert again.prg == first.prg
    assert detokenize(again.prg).text == listing


CANONICAL = (
    '10 print "{clr}{rvon}hello{rvof}";: poke 53280,0\n'
    "20 input \"move which piece\"; f\n"
    "30 if f<>int(f) or f<13 then print \"no\": goto 20\n"
    "40 data 1,2,three,\"a:b\": rem ok: not a statement\n"
    "50 a$=left$(\"Shifted\",3)+chr$(13): x=~*2^3\n"
    "60 print tab(5); spc(2); \"{CBM-A}{SHIFT-SPACE}{$de}\"\n"
    "63999 end\n"
)


def test_canonical_text_round_trips_exactly():
    assert detokenize(tokenize(CANONICAL).prg).text == CANONICAL


# ----------------------------------------------------------------- odd .prg files
def test_broken_link_is_warned_and_listed_by_position():
    prg = bytearray(build_prg([(10, b"\x99"), (20, b"\x80")]))
    prg[3] ^= 0x40  # first link's high byte: $4807 points nowhere
    result = detokenize(bytes(prg), filename="x.prg")
    assert result.text == "10 print\n20 end\n"
    assert any("link $4807 should be $0807" in d.message for d in result.diagnostics)


def test_machine_code_after_the_program_is_reported_not_listed():
    prg = build_prg([(10, b"\x9e\x32\x30\x36\x31")]) + bytes([0xA9, 0x00, 0x60])
    result = detokenize(prg)
    assert result.text == "10 sys2061\n"
    assert result.trailing == bytes([0xA9, 0x00, 0x60])
    assert any("3 bytes after the program end ($080D-$080F)" in d.message for d in result.diagnostics)


def test_truncated_file_and_missing_end_marker():
    prg = build_prg([(10, b"\x99\x22\x41\x22")])[:-3]  # cut the $00 and the end marker
    result = detokenize(prg)
    assert result.text == '10 print"a"\n'
    assert any("no $00 terminator" in d.message for d in result.diagnostics)


def test_garbage_never_crashes():
    for data in (b"\x01\x08", b"\x01\x08\xff", b"\x01\x08\xff\xff\xff\xff\xff", bytes(range(256)) * 3):
        result = detokenize(data)
        assert isinstance(result.text, str)
    assert detokenize(b"\x01\x08\x00\x00").text == ""


def test_unlistable_bytes_use_hex_escapes():
    # token $CC..$FE do not exist; lowercase-ascii bytes $61-$7A are not typeable
    prg = build_prg([(1, bytes([0xCC, 0x61, 0x22, 0x7E, 0x22]))])
    result = detokenize(prg)
    assert result.text == '1 {$cc}{$61}"{$7e}"\n'
    assert tokenize(result.text).prg == prg


def test_non_canonical_bytes_are_escaped_and_warned():
    # "to" stored as letters (not the TO token) would become a token when typed
    prg = build_prg([(5, b"\x54\x4f")])
    result = detokenize(prg)
    assert result.text == "5 {$54}{$4f}\n"
    assert any("listed with {$hh} escapes" in d.message for d in result.diagnostics)
    assert tokenize(result.text).prg == prg


def test_line_numbers_a_c64_cannot_type_are_warned():
    result = detokenize(build_prg([(65000, b"\x80")]))
    assert result.text == "65000 end\n"
    assert any("cannot be typed" in d.message for d in result.diagnostics)


def test_other_load_address_is_noted():
    result = detokenize(build_prg([(10, b"\x80")], start=0x1C01))
    assert result.text == "10 end\n"
    assert any("loads at $1C01" in d.message for d in result.diagnostics)
