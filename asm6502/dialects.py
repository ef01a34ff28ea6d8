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
from asm6502.tuples import named_tuple


@named_tuple
class Dialect:
    name: str
    suffix: str  # the usual source file suffix
    byte: str  # the data directives
    word: str
    text: str  # a string in PETSCII
    origin: str  # the origin statement ({} = the address)
    force_mnemonic: str  # after the mnemonic of an instruction that must stay absolute
    force_operand: str  # in front of its operand
    zero_page_mnemonic: str | None  # after the mnemonic of an instruction that must be zero page (None: no way)
    cpu_directive: str  # the CPU statement ({} = a CPU name)
    cpu_names: dict  # Cpu -> the target's name for it
    renames: dict  # (asm6502's -- 64tass's -- mnemonic, mode or None for every mode) -> the target's, where they differ
    command: str  # how to assemble a source ({src}) into a .prg ({out})

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
