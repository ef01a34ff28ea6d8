"""The target assemblers, one description each: what the disassembler writes (asm6502/disasm/syntax/)
and what the converter writes (asm6502/convert/targets.py) read the same facts from here.

64tass: the 64tass reference manual (v1.58) -- ``.byte``/``.word``/``.text``, ``@w`` in front of
an operand forces absolute addressing, ``.cpu "6502i"`` the undocumented opcodes.
ACME: ACME 0.97 docs (QuickRef.txt, AddrModes.txt, Illegals.txt) -- ``!byte``/``!word``/``!pet``,
``+2`` after the mnemonic forces absolute addressing (``+1`` zero page), ``!cpu nmos6502`` the
undocumented opcodes, five of which ACME names differently from 64tass (Illegals.txt).
"""

from __future__ import annotations

from asm6502.cpu import Cpu
from asm6502.opcodes import Mode
from asm6502.tuples import SlotRecord


class Dialect(SlotRecord):
    __slots__ = ("name", "suffix", "byte", "word", "text", "origin", "force_mnemonic", "force_operand", "zero_page_mnemonic", "cpu_directive", "cpu_names", "renames", "command")

    def __init__(self, name: str, suffix: str, byte: str, word: str, text: str, origin: str,
                 force_mnemonic: str, force_operand: str, zero_page_mnemonic: str | None, cpu_directive: str,
                 cpu_names: dict, renames: dict, command: str) -> None:  # fmt: skip
        self.name = name
        self.suffix = suffix  # the usual source file suffix
        self.byte = byte  # the data directives
        self.word = word
        self.text = text  # a string in PETSCII
        self.origin = origin  # the origin statement ({} = the address)
        self.force_mnemonic = force_mnemonic  # after the mnemonic of an instruction that must stay absolute
        self.force_operand = force_operand  # in front of its operand
        self.zero_page_mnemonic = zero_page_mnemonic  # after the mnemonic of an instruction that must be zero page (None: no way)
        self.cpu_directive = cpu_directive  # the CPU statement ({} = a CPU name)
        self.cpu_names = cpu_names  # Cpu -> the target's name for it
        self.renames = renames  # (asm6502's -- 64tass's -- mnemonic, mode or None for every mode) -> the target's, where they differ
        self.command = command  # how to assemble a source ({src}) into a .prg ({out})

    def forced_absolute(self, mnemonic: str, operand: str) -> str:
        return f"{mnemonic}{self.force_mnemonic} {self.force_operand}{operand}"


TASS = Dialect(
    name="64tass",
    suffix=".s",
    byte=".byte",
    word=".word",
    text=".text",
    origin="* = {}",
    force_mnemonic="",
    force_operand="@w ",
    zero_page_mnemonic=None,
    cpu_directive='.cpu "{}"',
    cpu_names={Cpu.NMOS: "6502", Cpu.NMOS_ILLEGAL: "6502i"},
    renames={},
    command="64tass -o {out} {src}",
)

ACME = Dialect(
    name="acme",
    suffix=".a",
    byte="!byte",
    word="!word",
    text="!pet",
    origin="* = {}",
    force_mnemonic="+2",
    force_operand="",
    zero_page_mnemonic="+1",
    cpu_directive="!cpu {}",
    cpu_names={Cpu.NMOS: "6502", Cpu.NMOS_ILLEGAL: "nmos6502"},
    renames={("isb", None): "isc", ("asr", None): "alr", ("lds", None): "las", ("shs", None): "tas", ("lax", Mode.IMMEDIATE): "lxa"},
    command="acme -f cbm -o {out} {src}",
)

DIALECTS: dict[str, Dialect] = {d.name: d for d in (TASS, ACME)}
