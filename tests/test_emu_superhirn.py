"""Superhirn II's machine code played in py65.

Expected guesses, answers and texts come from the 64'er article (seed 004):
the worked example "Beispiel" (secret 3436) and the ERROR cases in
"Hinweise"; the empty-line and letter cases from the KERNAL's CHRIN behaviour.  The
program bytes come from the assembler (sources/superhirn.asm), cross-checked
against the article's MSE listing (cut from the seed article: helpers.superhirn_listing).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from helpers import superhirn_listing
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asm6502.cli import run as run_cli
from asm6502.cli import verify as verify_cli
from asm6502.emu import superhirn as sh
from asm6502.petscii import petscii_to_text

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "sources" / "superhirn.asm"
MSE_LINE = re.compile(r"^([0-9A-F]{4}) : ((?:[0-9A-F]{2} )*[0-9A-F]{2})$")


def listing_prg() -> bytes:
    """The MSE listing's bytes: each line is an address, 8 data bytes (fewer on
    the last line) and a checksum byte, which is dropped."""
    data = bytearray()
    start = None
    for line in superhirn_listing().splitlines():
        m = MSE_LINE.match(line.strip())
        if not m:
            continue
        address = int(m.group(1), 16)
        start = address if start is None else start
        assert address == start + len(data), line
        data += bytes.fromhex(m.group(2))[:-1]
    return bytes([start & 0xFF, start >> 8]) + bytes(data)


def assembled_prg() -> bytes | None:
    try:
        from asm6502.asm import assemble
    except ImportError:  # the assembler is not there yet: use the listing
        return None
    return assemble(SOURCE.read_text(encoding="utf-8"), filename=str(SOURCE)).prg


@pytest.fixture(scope="module")
def prg() -> bytes:
    return assembled_prg() or listing_prg()


def test_listing_and_assembled_source_are_the_same_program():
    listed = listing_prg()
    assert listed[:2] == b"\x00\x34" and len(listed) == 2 + 524  # $3400-$360B
    assembled = assembled_prg()
    if assembled is None:
        pytest.skip("asm6502.asm not available yet")
    # The MSE range ends at $360C: its last byte $FF at $360B lies after the
    # program's last instruction (JMP $3400 at $3608).
    assert assembled == listed[:-1]
    assert listed[-1] == 0xFF


# --- the article's worked example and ERROR cases --------------------------------------
@pytest.mark.parametrize("scenario", sh.SCENARIOS, ids=lambda s: s.name)
def test_article_scenarios(prg, scenario):
    game = sh.play_script(prg, scenario.lines)
    assert [sh.code_text(g) for g in game.guesses] == list(scenario.guesses)
    assert game.outcome == scenario.outcome


def test_worked_example_screen(prg):
    # the article's table, top to bottom: guess, answer lines, ..., "OK"
    game = sh.play_script(prg, sh.SCENARIOS[0].lines)
    screen = petscii_to_text(game.screen)
    assert screen == "{clr}" + "".join(
        f"{g}\n{a}\n" for g, a in [
            ("1234", "1\n1"), ("2211", "0\n0"), ("4333", "1\n2"), ("3344", "1\n2"), ("3435", "3\n0"),
        ]
    ) + "3436\n4\nOK\n"


def test_codebreaker_gives_the_articles_answers():
    # "1 <RETURN> für die richtige 3, 1 <RETURN> für die 4 an falscher Position" ...
    respond = sh.truthful(sh.parse_code("3436"))
    answers = [respond(sh.parse_code(g)) for g in ("1234", "2211", "4333", "3344", "3435", "3436")]
    assert answers == [[b"1", b"1"], [b"0", b"0"], [b"1", b"2"], [b"1", b"2"], [b"3", b"0"], [b"4"]]


def test_model_plays_the_worked_example():
    game = sh.model_play(sh.truthful(sh.parse_code("3436")))
    assert [sh.code_text(g) for g in game.guesses] == ["1234", "2211", "4333", "3344", "3435", "3436"]
    assert game.outcome == "OK"


def test_the_article_says_two_two_after_the_third_guess_is_not_an_error(prg):
    # "Geben Sie ... nach dem 3. Versuch ... »2« und »2« [ein], kann [das] nicht
    # mit einem »ERROR« beantwortet werden": the program prints a 4th guess.
    game = sh.play_script(prg, ("1", "1", "0", "0", "2", "2"))
    assert game.outcome == "WAITING" and len(game.guesses) == 4


@pytest.mark.parametrize("text", ["1", "123456"])
def test_only_the_first_character_of_an_answer_counts(prg, text):
    # "es macht also keinen Unterschied, ob man als Antwort »1« oder »123456« eingibt"
    game = sh.play_script(prg, (text, "1"))
    assert sh.code_text(game.guesses[1]) == "2211"  # as after 1/1 in the worked example


# --- the machine code against the model ----------------------------------------------------
SAMPLE = sh.program_order()[::23]  # 57 secrets spread over the enumeration order


@pytest.mark.parametrize("secret", SAMPLE, ids=sh.code_text)
def test_sample_games_match_the_model(prg, secret):
    record = sh.check_game(prg, secret)
    assert record.problems == ()
    assert record.outcome == "OK" and record.guesses[-1] == sh.code_text(secret)


def test_a_restored_machine_plays_as_a_new_one(prg):
    """The sweep plays every game on one machine restored to its state after loading: each
    game is the game a new machine plays, instruction for instruction."""
    ready = sh.ready_machine(prg)
    for code in ("6465", "3436", "6465"):
        secret = sh.parse_code(code)
        new = sh.play_machine(prg, sh.truthful(secret))
        again = sh.play_machine(prg, sh.truthful(secret), ready=ready)
        assert (again.output, again.instructions, again.screen) == (new.output, new.instructions, new.screen)


answer_line = st.sampled_from(["0", "1", "2", "3", "4", "5", "", "A", "9", "12"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(answer_line, answer_line), min_size=1, max_size=8))
def test_any_answers_match_the_model(prg, answers):
    """Arbitrary (also contradictory) answers: the program and the model agree
    on every guess, the outcome and every byte printed."""
    rounds = iter(answers + [("4", "")] * 20)

    def respond(_guess):
        blacks, whites = next(rounds)
        return [blacks.encode()] if blacks == "4" else [blacks.encode(), whites.encode()]

    game = sh.play_machine(prg, respond)
    rounds = iter(answers + [("4", "")] * 20)
    model = sh.model_play(respond)
    assert game.guesses == model.guesses
    assert game.outcome == model.outcome
    assert game.output == model.expected_output()


def test_small_sweep_report(prg):
    secrets = [sh.parse_code(s) for s in ("3436", "1111", "6666", "1234")]
    report = sh.sweep(prg, secrets, jobs=1)
    assert report.all_passed
    assert sum(report.distribution.values()) == 4
    assert report.distribution.get(1) == 1  # 1234 is the first guess
    data = report.to_json()
    assert data["secrets"] == 4 and data["scenarios"][0]["passed"]


@pytest.mark.slow
def test_full_sweep_every_secret(prg):
    report = sh.sweep(prg, jobs=2)
    assert len(report.games) == 6**4
    assert {g.secret for g in report.games} == {sh.code_text(c) for c in sh.program_order()}
    assert report.failures == ()
    assert report.all_passed
    assert report.claim_holds == (report.max_guesses <= 6)


# --- command line --------------------------------------------------------------------------
@pytest.fixture()
def prg_file(prg, tmp_path):
    path = tmp_path / "superhirn.prg"
    path.write_bytes(prg)
    return path


def test_cli_run_scripted(prg_file, tmp_path, capsys):
    answers = tmp_path / "answers.txt"
    answers.write_text("1\n1\n0\n0\n1\n2\n1\n2\n3\n0\n4\n", encoding="utf-8")
    assert run_cli.main([str(prg_file), "--input", str(answers), "--sys", "$3400"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1234\n1\n1\n2211\n") and out.endswith("3436\n4\nOK\n")


def test_cli_run_from_a_pipe(prg_file, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("6\n0\n"))
    assert run_cli.main([str(prg_file)]) == 0
    assert capsys.readouterr().out == "1234\n6\n0\nERROR\n"  # CLR clears nothing in a file


def test_cli_run_input_ends_early(prg_file, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert run_cli.main([str(prg_file)]) == 1
    err = capsys.readouterr().err
    assert "input ended" in err and "$FFCF" in err and "Traceback" not in err


def test_cli_run_bad_files(tmp_path, capsys):
    assert run_cli.main([str(tmp_path / "missing.prg")]) == 1
    (tmp_path / "short.prg").write_bytes(b"\x00")
    assert run_cli.main([str(tmp_path / "short.prg")]) == 1
    err = capsys.readouterr().err
    assert "missing.prg" in err and "short.prg:1: error:" in err and "Traceback" not in err


def test_cli_verify_json(prg_file, tmp_path, capsys):
    out = tmp_path / "report.json"
    code = verify_cli.main(["superhirn", str(prg_file), "--secrets", "3436,1111", "--jobs", "1",
                            "--json", "--no-progress", "-o", str(out)])
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["secrets"] == 2 and data["all_passed"] and data["failures"] == []


def test_cli_verify_rejects_bad_secret(prg_file, capsys):
    with pytest.raises(SystemExit) as exc:
        verify_cli.main(["superhirn", str(prg_file), "--secrets", "3437"])
    assert exc.value.code == 2
    assert "3437" in capsys.readouterr().err


def _read_until(fd: int, marker: bytes, timeout: float = 20.0) -> bytes:
    import os
    import select
    import time

    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            data += chunk
    return data


@pytest.mark.skipif(not hasattr(__import__("os"), "openpty"), reason="needs a pseudo-terminal")
def test_cli_run_interactive_in_a_terminal(prg_file):
    import os
    import subprocess
    import sys

    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "asm6502", "run", str(prg_file)],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE, cwd=ROOT)
    os.close(slave)
    try:
        # answer only once the guess line is complete: the terminal echoes typed keys at
        # once, so keys sent before the program's own CR would appear in front of it
        first = _read_until(master, b"1234\r\n")
        assert first.startswith(b"\x1b[2J\x1b[H1234")  # $93 clears the terminal
        os.write(master, b"4\n")  # "4 <RETURN> - die Kombination ist gefunden"
        rest = _read_until(master, b"OK\r\n")
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    # the terminal echoes "4" and the newline; the program's own CR is not doubled
    assert (first + rest).replace(b"\r\n", b"\n") == b"\x1b[2J\x1b[H1234\n4\nOK\n"


class _Slices:
    """What a machine printed, one slice of the run at a time (Machine.take_screen)."""

    def __init__(self, *chunks: bytes):
        self.chunks = list(chunks)

    def take_screen(self, transcript: bool = False) -> bytes:
        return self.chunks.pop(0) if self.chunks else b""


@pytest.mark.parametrize("chunks, text", [
    ((b"\x93HI\r",), "HI\n"),                       # at the start of the output: dropped
    ((b"AB\x93CD\r\x93E",), "AB\nCD\nE"),           # after text: ends the line; at a line start: dropped
    ((b"AB", b"\x93CD"), "AB\nCD"),                  # the line was written in an earlier slice
    ((b"AB\r", b"\x93", b"CD"), "AB\nCD"),          # a CLR alone in a slice, after a line end
])
def test_scripted_clr_ends_a_line_or_is_dropped_at_a_line_start(chunks, text):
    import io

    from asm6502.cli.run import _Stream

    out = io.StringIO()
    stream = _Stream(out, _Slices(*chunks))
    for _ in chunks:
        stream.flush()
    assert out.getvalue() == text
