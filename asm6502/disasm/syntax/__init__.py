"""One formatter per target assembler: ``render(listing) -> str``."""

from __future__ import annotations

from collections.abc import Callable

from asm6502.disasm.model import Listing
from asm6502.disasm.syntax import acme, profi, tass

RENDERERS: dict[str, Callable[[Listing], str]] = {
    "profi": profi.render,
    "64tass": tass.render,
    "acme": acme.render,
}
