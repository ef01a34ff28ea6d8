"""The pseudo-op registry (asm6502/asm/pseudo.py): every entry names a behaviour for every stage,
every name it gives exists, and each stage reads the registry rather than a list of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asm6502.asm import Options, assemble
from asm6502.asm.decode import Decoder
from asm6502.asm.layout import Layout
from asm6502.asm.pseudo import BYTES, CONTROL, DATA, FIXED, LISTINGS, PSEUDO_OPS, WORDS, PseudoOp
from asm6502.asm.statements import Data, Pseudo
from asm6502.convert.writer import Writer
from asm6502.output import listing_text

PACKAGE = Path(__file__).resolve().parent.parent / "asm6502"
OPS = sorted(PSEUDO_OPS)


@pytest.mark.parametrize("name", OPS)
def test_every_field_is_given(name):
    op = PSEUDO_OPS[name]
    assert op.name == name
    for field in PseudoOp.__slots__:
        if field == "encode" and op.kind == CONTROL:
            assert op.encode == "", f".{name}: a control pseudo-op makes no bytes"
            continue
        assert getattr(op, field), f".{name} has no '{field}'"
    assert op.kind in (DATA, CONTROL)
    assert op.listing in LISTINGS
    if op.kind == DATA:
        assert op.encode in (BYTES, WORDS, FIXED)


@pytest.mark.parametrize("name", OPS)
def test_every_named_method_exists(name):
    op = PSEUDO_OPS[name]
    if op.kind == DATA:
        assert callable(getattr(Decoder, op.decode, None)), f".{name}: Decoder.{op.decode} is missing"
    else:
        assert op.decode == "pseudo"
    try:  # (a handler of the object it names: 'conds.op_if' is Layout.conds.op_if)
        handler = Layout(Options(), None, {}).handler(op.pass1)
    except AttributeError:
        handler = None
    assert callable(handler), f".{name}: Layout's {op.pass1} is missing"
    assert callable(getattr(Writer, op.convert, None)), f".{name}: Writer.{op.convert} is missing"


@pytest.mark.parametrize("name", OPS)
def test_the_decoder_reads_what_the_registry_says(name):
    """A data pseudo-op becomes a Data record, a control one a Pseudo record (its first three letters)."""
    op = PSEUDO_OPS[name]
    args = {"asc": '"ab"', "flp": "1.5"}.get(name, "1")
    rec = Decoder("6502").decode(f".{name}xyz {args}" if len(name) == 3 else f".{name} {args}")
    assert type(rec) is (Data if op.kind == DATA else Pseudo)
    assert rec.op == name


def test_no_stage_lists_pseudo_ops_of_its_own():
    """The three-letter names appear as strings in the registry only (a few stages ask about one
    pseudo-op by name -- '.got' / '.if' for loops, '.end' for unrun lines -- and are listed here)."""
    allowed = {
        ("asm6502/convert/structure.py", "got"), ("asm6502/convert/structure.py", "if"),
        ("asm6502/convert/writer.py", "end"), ("asm6502/convert/writer.py", "men"),
        ("asm6502/asm/layout.py", "mac"),
    }  # fmt: skip
    names = "|".join(OPS)
    pattern = re.compile(rf"""(?:==|!=)\s*["']({names})["']|\bin\s*[({{]\s*["']({names})["']""")
    found = set()
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        if rel == "asm6502/asm/pseudo.py" or not rel.startswith(("asm6502/asm/", "asm6502/convert/", "asm6502/output.py")):
            continue
        for line in path.read_text().splitlines():
            for m in pattern.finditer(line):
                found.add((rel, m.group(1) or m.group(2)))
    assert ("asm6502/convert/structure.py", "got") in found  # (the scan finds what it looks for)
    assert found <= allowed, sorted(found - allowed)


SOURCE = """\
10 sys 32768
20 .opt p
30 .tit "title"
40 *= $c000
50 .byt 1,2
60 .word $1234
70 .asc "ab"
80 .flp 1
90 .pag
100 .sym
110 .stm 1
120 mac1 .mac a
130 .byt a
140 .men
150 'mac1 5
160 .if 1 : .byt 3
170 .end
"""


def test_every_listing_kind_is_shown():
    """Both renderers take every row a source with every listed pseudo-op gives."""
    result = assemble(SOURCE, "t.asm", Options())
    text = listing_text(result)
    assert "\f" in text  # .pag
    assert ".end" not in text  # (hidden, as the original)
    rows = result.listing
    assert any(row.title == "title" for row in rows)
    assert any(row.page_break for row in rows)
    assert any(row.definition for row in rows)
    assert any(row.text == ".men" and row.macro for row in rows)
