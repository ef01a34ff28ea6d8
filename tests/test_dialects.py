"""One description per target assembler (asm6502/dialects.py), read by the disassembler and the converter."""

from __future__ import annotations

import pytest

from asm6502.convert.targets import TARGETS
from asm6502.cpu import CPUS, Cpu, instruction_set
from asm6502.dialects import DIALECTS
from asm6502.disasm.syntax.acme import ACME as ACME_SPELLING
from asm6502.disasm.syntax.tass import TASS as TASS_SPELLING

SPELLINGS = {"64tass": TASS_SPELLING, "acme": ACME_SPELLING}


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_the_disassembler_and_the_converter_write_the_same_dialect(name):
    dialect, spelling, target = DIALECTS[name], SPELLINGS[name], TARGETS[name]
    assert target.dialect is dialect
    assert (spelling.byte, spelling.word, spelling.text) == (target.byte, target.word, target.text) == (dialect.byte, dialect.word, dialect.text)
    assert spelling.origin.format("$c000") == target.org.format(e="$c000")
    assert spelling.renames == target.mnemonics == dialect.renames
    forced = f"lda{spelling.force_mnemonic} {spelling.force_operand}$12"
    assert forced == target.force_absolute.format(m="lda", o="$12") == dialect.forced_absolute("lda", "$12")


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_every_cpu_has_a_name_in_every_dialect(name):
    assert set(DIALECTS[name].cpu_names) == set(Cpu)


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_renamed_mnemonics_are_undocumented_opcodes(name):
    for mnemonic, mode in DIALECTS[name].renames:
        modes = instruction_set(Cpu.NMOS_ILLEGAL)[mnemonic.upper()]
        assert mode is None or mode in modes


def test_cpu_names_are_the_command_line_names():
    assert CPUS == ("6502", "6502i")
    assert Cpu("6502i") is Cpu.NMOS_ILLEGAL and Cpu.NMOS_ILLEGAL == "6502i"
