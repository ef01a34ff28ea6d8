"""A run keeps its first ``diagnostics.KEPT`` errors and as many warnings, and only counts the rest (a source
of a million bad lines made a million diagnostics, about 470 bytes each -- 4 MB of them took 470 MB).
The counts stay exact: the command still says how many errors there were."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc

import pytest

from asm6502.asm import Options, assemble
from asm6502.diagnostics import KEPT, DiagnosticError, Kept, error, warning


def _errors_of(text: str) -> DiagnosticError:
    with pytest.raises(DiagnosticError) as caught:
        assemble(text, "t.asm", Options(listing=False))
    return caught.value


@pytest.mark.parametrize("bad, count", [
    (" xq\n", 3 * KEPT),  # a statement the original does not know (pass 1)
    ("99999 nop\n", 2 * KEPT),  # a line number above 63999 (the reader)
    (" lda nowhere\n", KEPT + 1),  # an undefined symbol (pass 2)
])  # fmt: skip
def test_the_first_diagnostics_are_kept_the_rest_counted(bad, count):
    exc = _errors_of("10 *= $c000\n" + bad * count)
    assert len(exc.diagnostics) == KEPT
    assert len(exc.errors) + exc.more_errors == count
    assert exc.more == count - KEPT
    first = exc.errors[0]
    assert first.span is not None and first.span.line == 2  # (the first ones found are the ones kept)


def test_warnings_never_take_the_room_of_the_first_error():
    room = Kept(3)
    kept = room.admit([warning(f"w{i}") for i in range(5)] + [error("e1"), error("e2")])
    assert [d.message for d in kept] == ["w0", "w1", "w2", "e1", "e2"]
    assert (room.errors, room.warnings) == (0, 2)
    assert room.admit([error(f"e{i}") for i in range(3, 6)]) == [error("e3")]
    assert (room.errors, room.warnings) == (2, 2)


def test_fewer_than_the_room_are_all_kept():
    exc = _errors_of("10 *= $c000\n" + " xq\n" * (KEPT - 1))
    assert len(exc.errors) == KEPT - 1 and exc.more == 0


def test_warnings_beyond_the_room_are_counted_on_the_result():
    # 'sta ($20),x' assembles as the original reads it, with a warning at every use (assemble._advice)
    result = assemble("10 *= $c000\n" + " sta ($20),x\n" * (KEPT + 5), "t.asm", Options(listing=False))
    assert len(result.diagnostics) == KEPT
    assert result.more_warnings == 5


def test_memory_of_an_error_a_line_stays_bounded():
    """50,000 lines of a bad statement (200 KB): the traced peak per input byte, as tests/test_memory.py
    measures a program (measured 2026-12-02: 13.9 x, 14.1 x at 48,000 lines -- the thousand errors kept are
    a third of it; before the room, every error kept, and the text split whole: 111.1 x, 110.6 x at 200,000 lines)."""
    text = "10 *= $c000\n" + " xq\n" * 50_000
    tracemalloc.start()
    try:
        _errors_of(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / len(text) <= 15.5


def test_the_command_says_how_many_errors_there_were(tmp_path):
    source = tmp_path / "bad.asm"
    source.write_text("10 *= $c000\n" + " xq\n" * (2 * KEPT))
    proc = subprocess.run([sys.executable, "-m", "asm6502", str(source), "-o", str(tmp_path / "bad.prg")],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert f"{2 * KEPT} errors; no output written" in proc.stderr
    assert f"... {2 * KEPT - 50} more diagnostics not shown" in proc.stderr
    assert not (tmp_path / "bad.prg").exists()
