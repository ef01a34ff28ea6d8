"""Typing modes: ``basic type`` and ``mse type`` check each line as it is entered.

The sessions are tested directly; the terminal loops in a pseudo-terminal (pty), as a user
types: prompt, line, answer.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from asm6502.basic.tokenizer import crunch_text, tokenize
from asm6502.typein.basic import BasicSession
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.mse import MseSession
from asm6502.typein.mselisting import checksum_v1, format_line, read_listing

ROOT = Path(__file__).parent.parent


def cs(number: int, text: str) -> int:
    return line_checksum(number, crunch_text(text), ChecksumOptions(3))


# --------------------------------------------------------------------------- sessions
def test_basic_session_takes_refuses_replaces_and_goes_back():
    s = BasicSession()
    assert s.feed(f'10 print "hallo" <{cs(10, chr(34).join(["print ", "hallo", ""])):03d}>')[0].startswith("ok")
    answer = s.feed(f"20 p0ke 53280,0 <{cs(20, 'poke 53280,0'):03d}>")
    assert answer[0].startswith("refused: line 20") and "'poke' instead of 'p0ke'" in answer[1]
    assert 20 not in s.lines
    assert s.feed(f"20 poke 53280,0 <{cs(20, 'poke 53280,0'):03d}>")[0].startswith("ok")
    assert s.feed("20 poke 53281,0")[0].startswith("replaced: line 20")
    assert s.feed(".back")[0].startswith("line 20 taken back")
    assert sorted(s.lines) == [10]


def test_basic_session_resumes_from_its_file():
    s = BasicSession()
    s.feed("10 print 1")
    s.feed("20 goto 10")
    again, messages = BasicSession.resume(s.listing())
    assert again.lines == s.lines and messages == []


def test_mse_session_shows_the_next_address_and_refuses_a_wrong_line():
    s = MseSession(0xC000, 0xC010, "TEST")
    data = bytes(range(8))
    line = format_line(0xC000, data).split(":")[1]
    assert s.prompt() == "C000 : "
    assert s.feed(line) == ["ok"]
    assert s.prompt() == "C008 : "
    bad = format_line(0xC008, bytes([0xA9, 0x8D] + [0] * 6)).split(":")[1].replace("8D", "BD")
    answer = s.feed(bad)
    assert answer[0].startswith("refused: the line for $C008") and "byte at $C009: 8D instead of BD" in answer[1]
    assert s.feed(".back")[0].startswith("taken back: C000 :")
    assert s.prompt() == "C000 : "


def test_mse_session_resumes_from_its_file():
    s = MseSession(0x3400, None, "X")
    for k in range(3):
        data = bytes([k] * 8)
        s.feed(" ".join(f"{b:02x}" for b in data) + f" {checksum_v1(0x3400 + 8 * k, data):02x}")
    again, messages = MseSession.resume(s.listing(), None, None, "")
    assert again.next_address == 0x3418 and again.rows == s.rows and messages == []


# --------------------------------------------------------------------------- in a terminal
class Terminal:
    """A command in a pseudo-terminal: type a line, read until a text appears."""

    def __init__(self, argv: list[str], cwd: Path):
        self.master, slave = pty.openpty()
        env = dict(os.environ, TERM="dumb", PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "asm6502", *argv], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=cwd, env=env, close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} not shown; the terminal shows:\n{self.seen}")
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096).decode("utf-8", "replace")
                except OSError:
                    break
                self.seen += chunk.replace("\r\n", "\n")
        at = self.seen.index(text) + len(text)
        shown, self.seen = self.seen[:at], self.seen[at:]
        return shown

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=10)
        os.close(self.master)
        return code


def test_basic_type_in_a_terminal(tmp_path):
    term = Terminal(["basic", "type", "prog.txt", "-o", "prog.prg"], tmp_path)
    term.expect("[0 lines] > ")
    term.type(f"10 print 1 <{(cs(10, 'print 1') + 1) % 256:03d}>")
    assert "refused: line 10" in term.expect("[0 lines] > ")
    term.type(f"10 print 1 <{cs(10, 'print 1'):03d}>")
    assert "ok: line 10" in term.expect("[1 lines, last 10] > ")
    term.type(".quit")
    term.expect("saved prog.txt")
    assert term.close() == 0
    # resumed: the line typed before is there, the next one is added
    term = Terminal(["basic", "type", "prog.txt", "-o", "prog.prg"], tmp_path)
    term.expect("[1 lines, last 10] > ")
    term.type(f"20 goto 10 <{cs(20, 'goto 10'):03d}>")
    term.expect("[2 lines, last 20] > ")
    term.type(".quit")
    term.expect("saved prog.txt")
    assert term.close() == 0
    assert (tmp_path / "prog.prg").read_bytes() == tokenize("10 print 1\n20 goto 10\n").prg


def test_mse_type_in_a_terminal(tmp_path):
    data = [bytes([0xA9, 0x93, 0x20, 0xD2, 0xFF, 0xA9, 0x01, 0x8D]), bytes([0x60, 0xEA])]
    term = Terminal(["mse", "type", "m.txt", "--start", "0x3400", "--end", "0x340A", "--name", "T"], tmp_path)
    term.expect("3400 : ")
    row = format_line(0x3400, data[0]).split(":")[1]
    term.type(row.replace("D2", "02"))  # a typo: refused at once, with the fix
    shown = term.expect("3400 : ")
    assert "refused" in shown and "D2 instead of 02" in shown
    term.type(row)
    term.expect("3408 : ")
    term.type(format_line(0x3408, data[1]).split(":")[1])
    assert "complete" in term.expect("3410 : ")
    term.type(".quit")
    term.expect("saved m.txt")
    assert term.close() == 0
    result = read_listing((tmp_path / "m.txt").read_text(), "m.txt")
    assert result.ok and result.data == b"".join(data) and (result.start, result.end) == (0x3400, 0x340A)


@pytest.mark.parametrize("argv", [["mse", "type", "new.txt"]])
def test_a_new_mse_file_needs_a_start_address(tmp_path, argv):
    proc = subprocess.run([sys.executable, "-m", "asm6502", *argv], check=False, cwd=tmp_path, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=subprocess.DEVNULL, timeout=20)
    assert proc.returncode == 1 and "--start" in proc.stderr and "Traceback" not in proc.stderr


def test_basic_resume_keeps_a_line_that_does_not_verify():
    text = f"10 print 1 <{cs(10, 'print 1'):03d}>\n20 goto 10 <{(cs(20, 'goto 10') + 1) % 256:03d}>\n"
    s, messages = BasicSession.resume(text)
    assert messages == ["line 20 in the file does not verify; type it again"] and sorted(s.lines) == [10]
    assert "20 goto 10" in s.listing()  # saving keeps it as it was
    s.feed(f"20 goto 10 <{cs(20, 'goto 10'):03d}>")
    assert not s.pending and sorted(s.lines) == [10, 20]


@pytest.mark.parametrize("kind", ["basic", "mse"])
def test_a_file_that_is_no_listing_is_not_typed_over(tmp_path, kind):
    path = tmp_path / "notes.txt"
    path.write_text("Meine Notizen, kein Listing.\n")
    argv = [kind, "type", "notes.txt"] + (["--start", "0x3400"] if kind == "mse" else [])
    proc = subprocess.run([sys.executable, "-m", "asm6502", *argv], check=False, cwd=tmp_path, capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=subprocess.DEVNULL, timeout=20)
    assert proc.returncode == 1 and "not a" in proc.stderr
    assert path.read_text() == "Meine Notizen, kein Listing.\n"


def test_mse_resume_refuses_a_bad_line_with_lines_after_it():
    s = MseSession(0x3400, None, "X")
    for k in range(3):
        data = bytes([k] * 8)
        s.feed(" ".join(f"{b:02x}" for b in data) + f" {checksum_v1(0x3400 + 8 * k, data):02x}")
    broken = s.listing().replace("3408 : 01 01", "3408 : 01 02")
    with pytest.raises(ValueError, match=r"\$3408 does not verify"):
        MseSession.resume(broken, None, None, "")


def test_mse_line_may_be_typed_with_its_address():
    s = MseSession(0xC000, None, "")
    line = format_line(0xC000, bytes(range(8)))
    assert s.feed(line) == ["ok"] and s.prompt() == "C008 : "
    assert s.feed(format_line(0xC010, bytes(8)))[0].startswith("refused")  # another line's address: no


@pytest.mark.parametrize("output", ["prog.txt", "nodir/prog.prg"])
def test_a_program_output_that_cannot_be_written_is_refused_before_typing(tmp_path, output):
    proc = subprocess.run([sys.executable, "-m", "asm6502", "basic", "type", "prog.txt", "-o", output], check=False,
                          cwd=tmp_path, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          stdin=subprocess.DEVNULL, timeout=20)
    assert proc.returncode == 1 and "error" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "prog.txt").exists()
