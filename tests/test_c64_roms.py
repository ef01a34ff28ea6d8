"""Cross-checks on the real C64 ROMs (BASIC 901226-01, KERNAL 901227-03,
character ROM 901225-01).  They are found the way ``asm6502 run`` finds them
(``ASM6502_ROMS``, VICE's directories), else in the Profi-Ass oracle's
``$PROFIASS_HOME/roms``; without them every test here is skipped with the reason.

* the keyboard matrix table equals the KERNAL's own decode tables;
* the directory LOAD"$",8 lists equals the .d64 listing asm6502 computes;
* Superhirn II loaded from build/asm6502.d64 is the assembled program, and
  plays the same games (CHROUT transcripts byte for byte) as the stubbed runner;
* the BASIC test programs give the same screen as ``basic run``'s interpreter;
* High IQ typed with LOAD/RUN shows the same screens as ``basic run``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, oracle_home

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize
from asm6502.d64 import DiskImage
from asm6502.diagnostics import DiagnosticError
from asm6502.emu import superhirn as sh
from asm6502.emu.c64 import keyboard, roms, screen, session
from asm6502.emu.c64.drive import Disk
from asm6502.emu.harness import text_to_keys
from asm6502.petscii import REVERSED_SPACE

D64 = ROOT / "build" / "asm6502.d64"
SUPERHIRN = ROOT / "build" / "superhirn.prg"


def _find() -> tuple[roms.RomSet | None, str]:
    try:
        lookup = roms.find_roms()
    except DiagnosticError as exc:
        return None, str(exc)
    if lookup.roms is not None:
        return lookup.roms, ""
    home = oracle_home()  # the oracle's place (tools/oracles.py)
    if (home / "roms").is_dir():
        try:
            return roms.load_dir(home / "roms"), ""
        except DiagnosticError as exc:
            return None, str(exc)
    return None, f"no C64 ROM images: {lookup.reason}, PROFIASS_HOME/roms not there either"


ROMS, WHY = _find()
pytestmark = pytest.mark.skipif(ROMS is None, reason=WHY)


@pytest.fixture(scope="module")
def booted():
    """A booted C64 with build/asm6502.d64 as device 8, and its state right after READY."""
    machine = session.boot(session.images(ROMS), disk=Disk.load(str(D64)))
    return machine, machine.save_state()


def fresh(booted):
    machine, state = booted
    machine.load_state(state)
    return machine


def test_boot_to_ready(booted):
    machine = fresh(booted)
    assert machine.cpu.cycles < 2_500_000
    assert screen.screen_lines(machine)[1:6] == [
        "    **** COMMODORE 64 BASIC V2 ****", "", " 64K RAM SYSTEM  38911 BASIC BYTES FREE", "", "READY."]


def test_keyboard_table_equals_the_kernal_decode_tables():
    kernal = ROMS.kernal
    unshifted = kernal[0xEB81 - 0xE000 : 0xEB81 - 0xE000 + 64]
    shifted = kernal[0xEBC2 - 0xE000 : 0xEBC2 - 0xE000 + 64]
    for code, (index, shift) in keyboard.PETSCII_KEYS.items():
        assert (shifted if shift else unshifted)[index] == code, (hex(code), index, shift)
    letters = {name: i for name, i in keyboard.KEY_INDEX.items() if len(name) == 1 and name.isalnum()}
    for name, index in letters.items():
        assert unshifted[index] == ord(name)


def test_directory_listing_equals_the_d64(booted):
    machine = fresh(booted)
    machine.type_text(b'LOAD"$",8\rLIST\r')
    assert machine.run(20_000_000).reason == "idle"
    lines = screen.screen_lines(machine)
    start = lines.index("LIST") + 2  # LIST prints a CR before each line
    listing = DiskImage(D64.read_bytes()).listing()
    shown = [line.replace(REVERSED_SPACE, " ").rstrip() for line in lines[start : start + len(listing)]]
    assert shown == [line.rstrip() for line in listing]


def test_load_from_the_d64_gives_the_assembled_program(booted):
    machine = fresh(booted)
    machine.type_text(b'LOAD"SUPERHIRN II",8,1\r')
    assert machine.run(20_000_000).reason == "idle"
    prg = SUPERHIRN.read_bytes()
    start = prg[0] | prg[1] << 8
    assert bytes(machine.memory[start : start + len(prg) - 2]) == prg[2:]
    text = screen.screen_text(machine)
    assert "SEARCHING FOR SUPERHIRN II" in text and "LOADING" in text


@pytest.mark.parametrize("secret", ["1111", "5564", "6543"])
def test_superhirn_games_equal_the_stubbed_run(booted, secret):
    machine = fresh(booted)
    prg = SUPERHIRN.read_bytes()
    machine.inject_prg(prg)
    code = sh.parse_code(secret)
    real = sh.play_c64(machine, sh.truthful(code))
    stubbed = sh.play_machine(prg, sh.truthful(code))
    assert real.outcome == "OK" == stubbed.outcome
    assert real.output == stubbed.output


@pytest.mark.parametrize("scenario", sh.SCENARIOS, ids=[s.name for s in sh.SCENARIOS])
def test_superhirn_article_scenarios_equal_the_stubbed_run(booted, scenario):
    machine = fresh(booted)
    prg = SUPERHIRN.read_bytes()
    machine.inject_prg(prg)
    real = sh.play_c64(machine, lines=scenario.lines)
    stubbed = sh.play_script(prg, scenario.lines)
    assert real.outcome == scenario.outcome == stubbed.outcome
    assert real.output == stubbed.output


RUNS = json.loads((FIXTURES / "basic_rom" / "runs.json").read_text())
PROGRAMS = [c["source"] for c in RUNS] + [
    '10 for i=1 to 3:print i;:next\n20 print "a","b";tab(25)"c"',
    "10 print rnd(1),rnd(1)\n20 print int(rnd(1)*100)",
    '10 a$="commodore":print mid$(a$,3,4);len(a$);asc(a$)\n20 print left$(a$,2)+right$(a$,3)',
    "10 gosub 100:print \"back\":end\n100 print \"sub\":return",
    "10 read a,b$:print a;b$\n20 data 7,hello",
    "10 print 1/3,2^0.5,-7/9\n20 print sin(1),exp(3),log(2)",
    "10 x=1e38*10",
]


def machine_screen_after_run(machine) -> str:
    lines = screen.screen_lines(machine)
    rows = lines[lines.index("RUN") + 1 :]
    return "\n".join(r.rstrip(REVERSED_SPACE).rstrip() for r in rows).rstrip("\n") + "\n"


@pytest.mark.parametrize("source", PROGRAMS)
def test_basic_on_the_rom_equals_the_interpreter(booted, source):
    machine = fresh(booted)
    prg = tokenize(source + "\n").prg
    session.start_program(machine, prg)
    assert machine.run(50_000_000).reason == "idle"
    interpreted = run_prg(prg, input_text="", options=RunOptions(seed=0))
    assert machine_screen_after_run(machine) == "\n".join(
        r.rstrip() for r in interpreted.transcript.split("\n")).rstrip("\n") + "\n"


def _highiq(booted, keys: str):
    sys.path.insert(0, str(Path(__file__).parent))
    from test_basic_interp_highiq import play

    machine = fresh(booted)
    machine.type_text(b'LOAD"HIGH IQ",8\rRUN\r')
    machine.type_text(text_to_keys(keys))
    assert machine.run(2_000_000_000).reason == "idle"
    shown = [r.rstrip(REVERSED_SPACE).rstrip() for r in screen.screen_lines(machine)]
    expected = [r.rstrip() for r in play(keys).screen_text.rstrip("\n").split("\n")]
    return shown[: len(expected)], expected


def test_highiq_first_screen_equals_basic_run(booted):
    shown, expected = _highiq(booted, "")
    assert shown == expected


@pytest.mark.slow
def test_highiq_moves_equal_basic_run(booted):
    from test_basic_interp_highiq import keys_for, perfect_game

    shown, expected = _highiq(booted, keys_for(perfect_game()[:6]))
    assert shown == expected


def test_cli_run_screenshot_and_exit_code(tmp_path):
    out = tmp_path / "s.png"
    env = dict(os.environ, ASM6502_ROMS=ROMS.origin)
    proc = subprocess.run([sys.executable, "-m", "asm6502", "run", str(SUPERHIRN), "--type", r"1\r1\r",
                           "--until-text", "2211", "--screenshot", str(out)],
                          check=False, capture_output=True, text=True, env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "1234" in proc.stdout and "2211" in proc.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_typing_on_the_keyboard_matrix_reaches_the_real_kernal(booted):
    machine = fresh(booted)
    machine.type_text(b'PRINT "A!";1+1\r', mode="matrix")
    assert machine.run(20_000_000).reason == "idle"
    assert 'A! 2' in screen.screen_lines(machine)


def test_save_and_load_through_the_kernal(booted):
    machine = fresh(booted)
    machine.type_text(b'10 PRINT "SAVED"\rSAVE"T",8\rNEW\rLOAD"T",8\rRUN\r')
    assert machine.run(50_000_000).reason == "idle"
    lines = screen.screen_lines(machine)
    assert "SAVED" in lines and "?FILE NOT FOUND  ERROR" not in lines
    assert D64.read_bytes() == DiskImage(D64.read_bytes()).to_bytes()  # the image file is untouched


def test_jiffy_clock_runs_ti(booted):
    machine = fresh(booted)
    machine.type_text(b"T=TI:FOR I=1 TO 300:NEXT:PRINT TI-T\r")
    assert machine.run(50_000_000).reason == "idle"
    lines = screen.screen_lines(machine)
    jiffies = int(lines[lines.index("T=TI:FOR I=1 TO 300:NEXT:PRINT TI-T") + 1])
    assert 10 < jiffies < 100  # about half a second of C64 time


def test_file_not_found(booted):
    machine = fresh(booted)
    machine.type_text(b'LOAD"NOPE",8\r')
    assert machine.run(20_000_000).reason == "idle"
    assert "?FILE NOT FOUND  ERROR" in screen.screen_lines(machine)


@pytest.mark.slow
def test_interactive_terminal_session():
    """``asm6502 run`` in a terminal (a pseudo-terminal here): keys typed go to the C64
    at its own speed, the screen is redrawn, Ctrl-D ends the session."""
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: the command
        os.environ["ASM6502_ROMS"] = ROMS.origin
        os.execv(sys.executable, [sys.executable, "-m", "asm6502", "run"])
    out = bytearray()

    def pump(seconds):
        end = time.time() + seconds
        while time.time() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    out.extend(os.read(fd, 65536))
                except OSError:
                    return

    pump(4)
    os.write(fd, b"print 6*7\r")
    pump(3)
    os.write(fd, b"\x04")
    pump(2)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    assert b"PRINT 6*7" in out and b" 42" in out


def test_a_program_polling_get_in_vain_is_idle(booted):
    machine = fresh(booted)
    machine.type_text(b'10 GET A$:IF A$="" THEN 10\r20 PRINT "GOT ";A$:GOTO 10\rRUN\rXY')
    stop = machine.run(50_000_000)
    assert stop.reason == "idle" and "GETIN" in stop.message
    assert ["GOT X", "GOT Y"] == [line for line in screen.screen_lines(machine) if line.startswith("GOT")]
    stop = machine.run(200_000, stop_when_polling=False)
    assert stop.reason == "cycles"


def test_a_basic_directory_reader_with_get_from_dollar_0(booted):
    """OPEN1,8,0,"$0" and GET#: the names of the disk, never 'waiting for a key' (GET# reads the file)."""
    machine = fresh(booted)
    machine.type_text(b'10 OPEN1,8,0,"$0":GET#1,A$,A$:N=0\r'
                      b'20 GET#1,A$,A$:IF ST THEN 60\r'
                      b'30 GET#1,A$,A$:Q=0\r'
                      b'40 GET#1,A$:IF A$="" THEN N=N+1:GOTO 20\r'
                      b'50 GOTO 40\r'
                      b'60 CLOSE1:PRINT "LINES";N\rRUN\r')
    stop = machine.run(100_000_000)
    assert stop.reason == "idle" and "GETIN" not in stop.message, stop
    entries = DiskImage(D64.read_bytes()).directory()
    assert f"LINES {len(entries) + 2}" in screen.screen_lines(machine)  # the header, the files, BLOCKS FREE.
