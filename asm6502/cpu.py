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

# Other assemblers' names for these CPUs: ACME's '6510' is the 6502 with its undocumented opcodes (the C64's CPU,
# as ACME's manual describes it); 64tass's command line says '--m6502' for that, '--m65xx' for the documented set.
CPU_ALIASES = {"6510": "6502i", "nmos6502": "6502i", "m6502": "6502i", "6502x": "6502i", "m65xx": "6502", "mos6502": "6502"}
# CPUs of the 65xx family that the C64 has not: named as such, not as unknown words
OTHER_CPUS = ("65c02", "r65c02", "w65c02", "65ce02", "65816", "65dtv02", "c64dtv2", "4502", "4510", "m65", "65el02")


def cpu_named(text: str) -> str:
    """The name in CPUS of a CPU as a user names it (``6510``, ``m6502``, ``6502i``); raises ValueError."""
    name = text.lower().lstrip("-")
    name = CPU_ALIASES.get(name, name)
    if name in CPUS:
        return name
    if name in OTHER_CPUS:
        raise ValueError(f"{text}: the C64's CPU is an NMOS 6502 (the 6510); choose 6502 (documented opcodes) or 6502i "
                         "(with the undocumented ones; ACME calls it 6510)")
    raise ValueError(f"{text}: unknown CPU (choose 6502 or 6502i; 6510 is 6502i, as in ACME)")


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
