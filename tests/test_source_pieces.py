"""The assembler command reads its source a piece at a time (cli.assemble.source_pieces, fileio.read_pieces):
the pieces end where lines end, join to the text the whole file decodes to, and assemble to what the whole
text assembles to -- whatever the piece size, a line break, a character's bytes or a start line across pieces."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from asm6502.asm import assemble
from asm6502.cli.assemble import source_pieces
from asm6502.diagnostics import DiagnosticError
from asm6502.fileio import BOM, read_pieces

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import gen_real

TEXTS = [
    b"10 lda #1\n20 sta 2\n",
    b"10 lda #1\r\n20 sta 2\r\n30 rts",  # CR LF, the last line without its break
    b"10 lda #1\r20 sta 2\r",  # CR alone
    b"\n\n10 nop\n\n",
    BOM + b"10 .asc \"\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80\"\n20 rts\n",  # a BOM; characters of 2, 3 and 4 bytes
    b"10 .asc \"\xff\xfe\"\n",  # no UTF-8: replaced as one decoding replaces it
    b"",
]


@pytest.mark.parametrize("data", TEXTS)
@pytest.mark.parametrize("piece", [1, 2, 3, 5, 8, 64])
def test_the_pieces_join_to_the_text_and_end_where_lines_end(tmp_path, data, piece):
    (tmp_path / "s.asm").write_bytes(data)
    pieces = list(source_pieces(tmp_path / "s.asm", piece=piece))
    assert "".join(pieces) == data.removeprefix(BOM).decode("utf-8", errors="replace")
    assert all(p.endswith("\n") for p in pieces[:-1])


def _outcome(text):
    try:
        result = assemble(text, "t.asm")
    except DiagnosticError as exc:
        return None, [str(d) for d in exc.diagnostics]
    return result.segments, [str(d) for d in result.diagnostics]


@pytest.mark.parametrize(
    "text",
    [
        gen_real.render(gen_real.generate(), "asm6502"),  # (the real-shaped bench program, 0.5 MB)
        "1 ;NOTE\n" * 20_000 + "100 SYS32768\n110 *= $C000\n120 LDA #\"A\"\n130 RTS\n",  # no lower case: capitals in quotes warned
        "1 ;NOTE\n" * 20_000 + "100 SYS32768\n110 *= $C000\n120 LDA #\"A\"\n130 rts\n",  # a lower-case letter in the last piece
    ],
    ids=["real", "capitals", "capitals-then-lower"],
)
def test_a_source_read_in_pieces_assembles_as_the_whole_text(tmp_path, text):
    (tmp_path / "t.asm").write_text(text)
    assert len(list(source_pieces(tmp_path / "t.asm", piece=1 << 14))) > 3
    assert _outcome(source_pieces(tmp_path / "t.asm", piece=1 << 14)) == _outcome(text)


@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 16, 17])
def test_a_file_is_read_in_pieces_of_its_bytes(tmp_path, size):
    data = bytes(range(size))
    (tmp_path / "f").write_bytes(data)
    pieces = list(read_pieces(tmp_path / "f", piece=8))
    assert b"".join(pieces) == data and all(0 < len(p) <= 8 for p in pieces)


def test_a_file_larger_than_the_limit_is_refused_before_its_first_piece(tmp_path):
    (tmp_path / "f").write_bytes(b"x" * 100)
    with pytest.raises(DiagnosticError, match="larger than 99 bytes"):
        next(read_pieces(tmp_path / "f", limit=99, piece=8))
