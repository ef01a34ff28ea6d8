"""Assembling a converted source with the real target assembler (``convert --check``, the tests).

64tass and ACME both write a C64 .prg (load address, then the bytes from the
lowest to the highest address, gaps filled with zeros), the same file asm6502
writes; the check compares the two files byte for byte.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple

from asm6502.fileio import MAX_PRG_BYTES, Files, scratch_folder, write_atomic

COMMANDS = {
    "64tass": lambda exe, src, out: [exe, "--quiet", "--no-warn", "-o", out, src],
    "acme": lambda exe, src, out: [exe, "-f", "cbm", "-o", out, src],
}


class Assembled(NamedTuple):
    ok: bool
    prg: bytes
    messages: str


def executable(target: str) -> str | None:
    """The target assembler's path, or None when it is not installed."""
    return shutil.which(target)


def assemble_with(target: str, text: str, timeout: float = 60) -> Assembled:
    """Run the target assembler on ``text``; raises FileNotFoundError when it is not installed."""
    exe = executable(target)
    if exe is None:
        raise FileNotFoundError(2, f"{target} is not installed", target)
    with scratch_folder() as tmp:
        src, out = Path(tmp, "converted.s"), Path(tmp, "converted.prg")
        write_atomic(src, text)  # (the gate: a scratch folder of this run only)
        proc = subprocess.run(COMMANDS[target](exe, str(src), str(out)), capture_output=True, text=True, timeout=timeout, cwd=tmp)
        ok = proc.returncode == 0 and out.exists()
        return Assembled(ok, Files().read(out, MAX_PRG_BYTES, "assembled program") if ok else b"", (proc.stdout + proc.stderr).replace(tmp + "/", ""))
