"""The CPU variants the toolchain knows (``--cpu``), and each one's instruction set.

One enumeration, used by the assembler, the disassembler and the converter; a
variant's value is its name on the command line (64tass's CPU names), and as a
``StrEnum`` it compares equal to that name.
"""

from __future__ import annotations

from enum import StrEnum

from asm6502.opcodes import OPCODES, Mode
from asm6502.opcodes_undoc import UNDOCUMENTED, UNSTABLE, UNSTABLE_OPCODES


class Cpu(StrEnum):
    NMOS = "6502"  # the 151 documented opcodes (MCS6500 programming manual)
    NMOS_ILLEGAL = "6502i"  # plus the undocumented NMOS opcodes (asm6502/opcodes_undoc.py)


CPUS: tuple[str, ...] = tuple(cpu.value for cpu in Cpu)  # the names, as argparse's choices


def instruction_set(cpu: str) -> dict[str, dict[Mode, int]]:
    """Mnemonic -> modes for a CPU: "6502" (documented) or "6502i" (plus undocumented NMOS opcodes)."""
    if cpu == Cpu.NMOS:
        return OPCODES
    if cpu == Cpu.NMOS_ILLEGAL:
        merged = {m: dict(modes) for m, modes in OPCODES.items()}
        for mnemonic, modes in UNDOCUMENTED.items():
            merged.setdefault(mnemonic, {}).update(modes)
        return merged
    raise ValueError(f"unknown CPU {cpu!r}")


def unstable_mnemonics(cpu: str) -> frozenset[str]:
    """Undocumented instructions whose result depends on the chip (warned about when used)."""
    return UNSTABLE if cpu == Cpu.NMOS_ILLEGAL else frozenset()


def unstable_opcodes(cpu: str) -> frozenset[int]:
    """The opcode bytes of those instructions (and LAX #imm)."""
    return UNSTABLE_OPCODES if cpu == Cpu.NMOS_ILLEGAL else frozenset()
