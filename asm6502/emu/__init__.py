"""Run C64 machine code in the py65 6502 emulator with KERNAL/BASIC-ROM stubs.

``harness`` is the reusable machine (load a .prg, ``run`` from an address,
stubs for CHROUT/CHRIN/GETIN/STROUT); ``superhirn`` plays and verifies the
Superhirn II codebreaker from 64'er magazine against every secret code.
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
