"""The literal opcode table, checked against py65's own 6502 decoder table."""

import pytest
from py65.devices.mpu6502 import MPU

from asm6502.opcodes import DECODE, OPCODES, Mode

# py65's short mode names (py65/devices/mpu6502.py, the ``disassemble`` table)
PY65_MODE = {
    "imp": Mode.IMPLIED,
    "acc": Mode.ACCUMULATOR,
    "imm": Mode.IMMEDIATE,
    "zpg": Mode.ZERO_PAGE,
    "zpx": Mode.ZERO_PAGE_X,
    "zpy": Mode.ZERO_PAGE_Y,
    "abs": Mode.ABSOLUTE,
    "abx": Mode.ABSOLUTE_X,
    "aby": Mode.ABSOLUTE_Y,
    "ind": Mode.INDIRECT,
    "inx": Mode.INDEXED_INDIRECT,
    "iny": Mode.INDIRECT_INDEXED,
    "rel": Mode.RELATIVE,
}


def py65_table() -> dict[int, tuple[str, Mode]]:
    return {code: (name, PY65_MODE[mode]) for code, (name, mode) in enumerate(MPU().disassemble) if name != "???"}


def test_counts():
    assert len(OPCODES) == 56
    assert sum(len(m) for m in OPCODES.values()) == 151


def test_same_opcodes_as_py65():
    assert DECODE == py65_table()


@pytest.mark.parametrize("code", sorted(py65_table()))
def test_each_opcode_matches_py65(code):
    name, mode = py65_table()[code]
    assert OPCODES[name][mode] == code


def test_opcode_facts_have_one_home():
    """Which byte is which instruction, and how many cycles it takes, are written down in
    asm6502/opcodes.py and opcodes_undoc.py alone; the assembler, disassembler and the C64's
    6510 read them from there (asm6502.cpu), never from a table of their own or py65's."""
    import re
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "asm6502"
    homes = {"opcodes.py", "opcodes_undoc.py"}
    pattern = re.compile(r"(?:\bM(?:ode)?\.[A-Z_]+\s*:\s*0x[0-9A-Fa-f]{2}\b)"  # mode -> opcode byte
                         r"|(?:\b0x[0-9A-Fa-f]{2}\s*:\s*\(\s*\"[A-Z]{3}\")"  # opcode byte -> mnemonic
                         r"|(?:\bcycletime\b|\bextracycles\b)")  # py65's cycle tables
    found = sorted(str(p.relative_to(package)) for p in package.rglob("*.py")
                   if p.name not in homes and pattern.search(p.read_text(encoding="utf-8")))
    assert found == []
