"""Run C64 machine code on the emulated C64 (``c64``).

``harness`` runs it without the user's ROM images: the machine on the project's stub ROMs
(load a .prg, ``run`` from an address like SYS, CHROUT/CHRIN/GETIN/STROUT in Python);
``superhirn`` plays and verifies the Superhirn II codebreaker from 64'er magazine against
every secret code.
"""

from asm6502.emu.harness import (
    Machine,
    MachineOptions,
    RunResult,
    StopReason,
    text_to_keys,
)
from asm6502.petscii import petscii_to_text

__all__ = [
    "Machine",
    "MachineOptions",
    "RunResult",
    "StopReason",
    "petscii_to_text",
    "text_to_keys",
]
