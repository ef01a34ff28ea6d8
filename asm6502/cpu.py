"""The CPU variants the toolchain knows (``--cpu``), and each one's instruction set.

One enumeration, used by the assembler, the disassembler and the converter; a
variant's value is its name on the command line (64tass's CPU names), and as a
``StrEnum`` it compares equal to that name.
"""

from __future__ import annotations

from enum import StrEnum

from asm6502.opcodes import ACCESS, OPCODES, PAGE_CROSSING_MODES, Access, Mode, cycles
from asm6502.opcodes_undoc import ACCESS as UNDOCUMENTED_ACCESS
from asm6502.opcodes_undoc import ALTERNATES, UNDOCUMENTED, UNSTABLE, UNSTABLE_OPCODES

TYPE_CHECKING = False


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


class Opcode:
    """One of the 256 opcodes of the NMOS 6510 as the emulator runs it."""

    __slots__ = ("access", "code", "cycles", "documented", "mnemonic", "mode", "page_penalty", "size")

    def __init__(self, code: int, mnemonic: str, mode: Mode, documented: bool):
        self.code = code
        self.mnemonic = mnemonic
        self.mode = mode
        self.documented = documented
        own = ACCESS.get(mnemonic, Access.OTHER)
        self.access = own if documented else UNDOCUMENTED_ACCESS.get(mnemonic, own)  # SBC $EB: SBC's
        self.size = 1 + mode.operand_size
        self.cycles = cycles(self.access, mnemonic, mode)
        self.page_penalty = self.access is Access.READ and mode in PAGE_CROSSING_MODES

    def __repr__(self) -> str:
        return f"Opcode(${self.code:02X} {self.mnemonic} {self.mode.label}, {self.cycles} cycles)"


def every_opcode() -> tuple[Opcode, ...]:
    """Opcode byte -> its facts: the documented and the undocumented opcodes of ``--cpu 6502i``, plus the
    other encodings the assembler never emits (``opcodes_undoc.ALTERNATES``)."""
    found = {code: Opcode(code, m, mode, True) for m, modes in OPCODES.items() for mode, code in modes.items()}
    for m, modes in UNDOCUMENTED.items():
        for mode, code in modes.items():
            found[code] = Opcode(code, m, mode, False)
    for code, (m, mode) in ALTERNATES.items():
        found[code] = Opcode(code, m, mode, False)
    assert sorted(found) == list(range(256))
    return tuple(found[code] for code in range(256))


if TYPE_CHECKING:
    EVERY_OPCODE: tuple[Opcode, ...]  # every_opcode()


def __getattr__(name: str) -> tuple[Opcode, ...]:
    # EVERY_OPCODE is made where it is imported (the emulator): the assembler reads only the tables of
    # opcodes.py, and making the 256 records would be a large share of its start-up (bench/README.md)
    if name == "EVERY_OPCODE":
        return every_opcode()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
