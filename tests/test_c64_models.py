"""The C64 models (asm6502/c64models.py) as the machine runs them: every declared model
times every fact that differs from model to model, each measured by a small program
assembled by asm6502 on a machine of that model (the test KERNAL, no ROM images).

The facts: ANE's and LXA's constants with the bus free and with the read of the operand
held by the VIC (a bad line's window beginning at that read); the VIC-II's light pen X of
a latch in cycle 14 (VICE testprogs VICII/lp-trigger: test2 reads 2 on a 6569, test2new 1
on an 8565); the CIA's interrupt one cycle later on a 6526 than on a 6526A (Lorenz's suite
and VICE testprogs interrupts/cia-int, as tests/test_c64_cia.py has them).  Besides the
matrix: the table's constants against the sources it names, and the command line's
``--model``."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import c64_test_machine, run_cli
from test_c64_cia import _run_timed
from test_c64_dma import machine_at
from test_c64_machine import make_test_roms

from asm6502 import c64models
from asm6502.asm import assemble
from asm6502.asm.result import Options
from asm6502.c64models import MODELS, NAMES

ROOT = Path(__file__).resolve().parents[1]
# the light pen's X of a latch in cycle 14 (from 1) of a line, by VIC-II: VICE testprogs
# VICII/lp-trigger, test2 measured on a 6569, test2new on an 8565
LIGHT_PEN_X = {"6569": 0x02, "8565": 0x01}
# cycles from the ICR bit to the interrupt output: 6526 one, 6526A none (cia.py's sources)
CIA_DELAY = {"6526": 1, "6526a": 0}


@pytest.fixture(scope="module")
def roms():
    return make_test_roms()


def _unstable(roms, model, opcode: str, waits: bool) -> tuple[int, int]:
    """A and X after ``lda #0 / ldx #$ff / OPCODE #$ff`` (A = constant), the read of the
    operand held by line $33's bad line (its window from cycle 11) or the bus free (the
    window one cycle later: at the next opcode fetch)."""
    source = f"*= $c000\n lda #$00\n ldx #$ff\n {opcode} #$ff\n sta $1000\n stx $1001\n jmp *\n"
    before = 1 if waits else 2
    m, _base = machine_at(roms, source, 0x33, 11 - before - 4, d011=0x1B, model=model)
    m.run(200, stop_when_idle=False)
    return m.memory[0x1000], m.memory[0x1001]


def ane_free(roms, model):
    return _unstable(roms, model, "ane", False)[0], model.ane


def ane_waits(roms, model):
    return _unstable(roms, model, "ane", True)[0], model.ane_rdy


def lxa_free(roms, model):
    return _unstable(roms, model, "lax", False), (model.lxa, model.lxa)  # (LAX #imm: LXA)


def lxa_waits(roms, model):
    return _unstable(roms, model, "lax", True), (model.lxa_rdy, model.lxa_rdy)


def light_pen(roms, model):
    """PB4 of CIA 1 (the light pen line) pulled low by a write in cycle 12 (from 0) of line
    100: the VIC latches the beam's X in cycle 13 (14 from 1)."""
    source = "*= $c000\n lda #$00\n sta $dc01\n lda $d013\n sta $1000\n jmp *\n"
    m, _base = machine_at(roms, source, 100, 12 - 5, model=model)  # (LDA #: 2 cycles, STA's write in its 4th)
    m.store(0xDC01, 0x10)  # PB4 high, then an output: no edge yet
    m.store(0xDC03, 0x10)
    m.run(200, stop_when_idle=False)
    return m.memory[0x1000], LIGHT_PEN_X[model.vic]


def cia_interrupt(roms, model):
    """The NOP after which timer A's interrupt (latch 2) is taken, as test_c64_cia counts it:
    the line active in cycle w + 5 + latch + delay, NOP k (from 0) starting in w + 3 + 2k (the
    latch where the two delays fall into different NOPs)."""
    machine = c64_test_machine(model=model)
    latch = 2
    k = next(k for k in range(10) if 3 + 2 * k >= 5 + latch + CIA_DELAY[model.cia])
    return _run_timed(machine, 0xDC00, 0xFFFE, latch), k + 1


FACTS = [ane_free, ane_waits, lxa_free, lxa_waits, light_pen, cia_interrupt]


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("model", MODELS, ids=NAMES)
def test_every_model_has_its_facts_on_the_machine(roms, model, fact):
    measured, declared = fact(roms, model)
    assert measured == declared


def test_the_models_differ_in_every_fact_but_lxa():
    """Each fact of the matrix but LXA's tells the two models apart (else the matrix would
    not see a model's fact wired to the other's)."""
    old, new = c64models.model("c64"), c64models.model("c64c")
    assert (old.ane, old.vic, old.cia) != (new.ane, new.vic, new.cia)
    assert old.ane != new.ane and LIGHT_PEN_X[old.vic] != LIGHT_PEN_X[new.vic]
    assert CIA_DELAY[old.cia] != CIA_DELAY[new.cia]


# --- the table against its sources ---------------------------------------------------------
def test_the_old_model_gives_lorenz_his_recorded_ane():
    """Lorenz's trap1-trap17 run ANE #$1B with A = $C6, X = $B1 (bus free) and compare with
    $00, recorded on his C64; lxab and aneb want the constant $EE."""
    old = c64models.model("c64")
    assert (0xC6 | old.ane) & 0xB1 & 0x1B == 0
    assert (old.ane, old.ane_rdy, old.lxa, old.lxa_rdy) == (0xEE, 0xEE, 0xEE, 0xEE)


def test_the_c64c_is_x64sc():
    """VICE's x64sc, 6510dtvcore.c: ANE_MAGIC $EF, ANE_RDY_MAGIC $EE, LXA_MAGIC and
    LXA_RDY_MAGIC $EE; testprogs CPU/ane want bits 0, 1 and 6 set with the bus free."""
    new = c64models.model("c64c")
    assert (new.ane, new.ane_rdy, new.lxa, new.lxa_rdy) == (0xEF, 0xEE, 0xEE, 0xEE)
    assert new.ane & 0x43 == 0x43
    assert (new.cpu, new.vic, new.cia) == ("8500", "8565", "6526a")


def test_another_chip_keeps_the_rest_of_the_model():
    new = c64models.model("c64c")
    mixed = new.with_chips(vic="6569", cia="6526")
    assert (mixed.vic, mixed.cia, mixed.ane, mixed.ane_rdy, mixed.cpu) == ("6569", "6526", new.ane, new.ane_rdy, "8500")
    assert new.with_chips() == new and mixed != new
    with pytest.raises(AttributeError, match="constant"):
        new.ane = 0  # type: ignore[misc]


@pytest.mark.parametrize("name, why", [("c65", "C64 model 'c65': c64 or c64c")])
def test_an_unknown_model_is_refused_naming_the_models(name, why):
    with pytest.raises(ValueError, match=why):
        c64models.model(name)
    with pytest.raises(ValueError, match="CIA model '6581': 6526 or 6526a"):
        c64models.model("c64").with_chips(cia="6581")


# --- the command line ----------------------------------------------------------------------
# ANE #$FF with A = 0, X = $FF (A = the constant), printed in hex through CHROUT
ANE_PROGRAM = """*= $c000
         lda #$00
         ldx #$ff
         ane #$ff
         pha
         lsr
         lsr
         lsr
         lsr
         jsr digit
         pla
         and #$0f
digit    cmp #$0a
         bcc num
         adc #$06
num      adc #$30
         jmp $ffd2
"""


@pytest.mark.parametrize("argv", [["run", "--model", "c65", "x.prg"], ["basic", "run", "--model", "c65", "x.prg"],
                                  ["verify", "superhirn", "--model", "c65", "x.prg"]], ids=lambda a: a[0])
def test_model_choices_are_listed_when_one_is_wrong(capsys, argv):
    code, _out, err = run_cli(capsys, *argv)
    assert code == 2 and "invalid choice: 'c65' (choose from 'c64', 'c64c')" in err


@pytest.mark.parametrize("model", MODELS, ids=NAMES)
def test_run_model_is_the_machine_the_program_runs_on(capsys, tmp_path, model):
    """``asm6502 run --model NAME`` (on the stub ROMs): the program prints the model's ANE
    constant (the bus free there: the stubs' screen is off)."""
    prg = tmp_path / "ane.prg"
    prg.write_bytes(assemble(ANE_PROGRAM, "ane.asm", Options(cpu="6502i")).prg)
    (tmp_path / "keys.txt").write_text("")
    code, out, err = run_cli(capsys, "run", "--no-roms", "--model", model.name, prg, "--input", tmp_path / "keys.txt")
    assert (code, out.strip()) == (0, f"{model.ane:02X}"), err


@pytest.mark.parametrize("argv, needs", [
    (["basic", "run", "--model", "c64c", "examples/HELLO.BAS"], "--rom"),
    (["verify", "superhirn", "--no-roms", "--model", "c64c", "build/superhirn.prg"], "--roms DIR"),
], ids=lambda a: a[0] if isinstance(a, list) else "")
def test_a_model_without_a_c64_to_run_on_is_an_error(capsys, argv, needs):
    code, _out, err = run_cli(capsys, *[str(ROOT / a) if "/" in a else a for a in argv])
    assert code != 0 and "--model c64c" in err and needs in err, err
