"""The original Profi-Ass 64 V2.0 assembles the Superhirn II disassembly to the same bytes.

The fixtures are what the oracle (the real assembler on an emulated C64, found through
``$PROFIASS_ORACLE`` and ``$PROFIASS_HOME``: tools/oracles.py) read and printed: ``tools/disasm_profiass_check.py --fixtures`` writes them.
Without the oracle the test checks that today's disassembly is still the source it was
given; with the oracle it runs the real assembler again.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT, oracle_home

from asm6502.disasm import disassemble

PRG = (ROOT / "build" / "superhirn.prg").read_bytes()
DIR = FIXTURES / "disasm"
ORACLE = Path(os.environ.get("PROFIASS_ORACLE", ROOT.parent / "shared" / "oracle" / "profiass" / "profiass.py"))


def test_fixture_is_todays_disassembly():
    assert disassemble(0x3400, PRG[2:], title="superhirn.prg") == (DIR / "superhirn.profi.asm").read_text()


def test_original_profi_ass_assembled_it_to_the_same_bytes():
    screen = (DIR / "superhirn.profiass-screen.txt").read_text()
    assert "]3400-360B" in screen and "NO ERRORS" in screen
    assert (DIR / "superhirn.profiass-object.prg").read_bytes() == PRG


@pytest.mark.skipif(not (ORACLE.is_file() and (oracle_home() / "profi-ass.prg").is_file()),
                    reason="Profi-Ass oracle not set up (PROFIASS_ORACLE, PROFIASS_HOME: tools/oracles.py)")
def test_original_profi_ass_live(tmp_path):
    import subprocess
    import sys

    src, obj = tmp_path / "src.txt", tmp_path / "obj.prg"
    src.write_text(disassemble(0x3400, PRG[2:], title="superhirn.prg"))
    subprocess.run([sys.executable, str(ORACLE), str(src), "--obj", str(obj)], capture_output=True, timeout=300,
                   check=True)
    assert obj.read_bytes() == PRG
