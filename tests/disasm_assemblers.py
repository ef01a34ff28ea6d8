"""Reassembling a disassembly with asm6502, 64tass and ACME (no test logic here)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from asm6502.asm import Options, assemble
from asm6502.diagnostics import DiagnosticError

TASS = shutil.which("64tass")
ACME = shutil.which("acme")
SYNTAXES = ["profi", "64tass", "acme"]


def _tool(args: list[str], source: str, suffix: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "t" + suffix), Path(tmp, "t.bin")
        src.write_text(source)
        proc = subprocess.run([*args, "-o", str(out), str(src)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and out.exists(), f"{args[0]} failed:\n{proc.stdout}{proc.stderr}\n{source}"
        return out.read_bytes()


def reassemble(syntax: str, source: str, cpu: str = "6502") -> bytes:
    """The bytes ``source`` assembles to (the memory image, no load address)."""
    if syntax == "profi":
        try:
            return assemble(source, "disasm.asm", Options(cpu=cpu)).image
        except DiagnosticError as exc:
            raise AssertionError("\n".join(d.render() for d in exc.diagnostics) + "\n" + source) from None
    if syntax == "64tass":
        if TASS is None:
            pytest.skip("64tass not installed (.ci/run installs it)")
        return _tool([TASS, "--nostart", "--quiet", "--no-warn"], source, ".s")
    if ACME is None:
        pytest.skip("acme not installed (.ci/run installs it)")
    return _tool([ACME, "-f", "plain"], source, ".a")
