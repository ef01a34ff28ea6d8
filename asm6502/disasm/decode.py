"""Decoding one instruction from a program's bytes.

An opcode decodes only if the assembler this output is meant for emits
exactly that byte for the mnemonic and mode: the table is the inverse of
:func:`asm6502.opcodes.instruction_set`.  Opcodes outside it (the
undocumented ones without ``--cpu 6502i``; the duplicate encodings such as
$1A NOP or $EB SBC even with it) stay data, so the output always
reassembles to the same bytes.
"""

from __future__ import annotations

from asm6502.cpu import instruction_set
from asm6502.opcodes import ZERO_PAGE_FORM, Mode
from asm6502.tuples import named_tuple


@named_tuple  # (named tuples, not dataclasses: start-up, see disasm/model.py)
class Insn:
    address: int
    opcode: int
    mnemonic: str  # upper case, as in the opcode tables
    mode: Mode
    value: int | None  # operand: byte or word; for a branch the target address
    size: int

    @property
    def end(self) -> int:
        return self.address + self.size


@named_tuple  # (named tuples, not dataclasses: start-up, see disasm/model.py)
class Decoder:
    table: dict[int, tuple[str, Mode]]  # opcode -> (mnemonic, mode)
    modes: dict[str, dict[Mode, int]]  # mnemonic -> mode -> opcode

    def needs_force(self, insn: Insn) -> bool:
        """True for an absolute-mode instruction whose operand < $100 has a zero-page twin:
        the source must force the absolute form (``!`` / ``@w`` / ``+2``)."""
        twin = ZERO_PAGE_FORM.get(insn.mode)
        return twin is not None and insn.value is not None and insn.value < 0x100 and twin in self.modes[insn.mnemonic]


def decoder(cpu: str) -> Decoder:
    modes = instruction_set(cpu)
    table = {code: (mnemonic, mode) for mnemonic, by_mode in modes.items() for mode, code in by_mode.items()}
    return Decoder(table, modes)


def decode(memory: bytes, origin: int, address: int, dec: Decoder) -> Insn | None:
    """The instruction at ``address``, or None when the byte is no opcode of this CPU, the
    operand runs past the end, or a branch target leaves the 64K address space."""
    offset = address - origin
    if not 0 <= offset < len(memory):
        return None
    opcode = memory[offset]
    entry = dec.table.get(opcode)
    if entry is None:
        return None
    mnemonic, mode = entry
    size = 1 + mode.operand_size
    if offset + size > len(memory):
        return None
    if size == 1:
        value = None
    elif size == 2:
        value = memory[offset + 1]
    else:
        value = memory[offset + 1] | memory[offset + 2] << 8
    if mode is Mode.RELATIVE:
        assert value is not None
        value = address + 2 + (value - 256 if value >= 128 else value)
        if not 0 <= value <= 0xFFFF:
            return None
    return Insn(address, opcode, mnemonic, mode, value, size)
