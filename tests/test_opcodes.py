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
