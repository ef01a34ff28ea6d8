"""Small helpers shared by the tests (no test logic here)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# the read-only reference material lies beside the checkout (../shared); ASM6502_SHARED overrides
SEEDS = Path(os.environ.get("ASM6502_SHARED") or ROOT.parent / "shared") / "seeds"


COMMITTED_SEEDS = FIXTURES / "seeds"  # copies of the seeds the tests read, so they run in any checkout


def seed_path(name: str) -> Path:
    """A seed document: the shared reference material beside the checkout, else the committed copy
    (tests/test_seed_copies.py checks that the copies equal the originals)."""
    for folder in (SEEDS, COMMITTED_SEEDS):
        if (folder / name).is_file():
            return folder / name
    pytest.skip(f"seed {name} not found in {SEEDS} or {COMMITTED_SEEDS}")


def seed_text(name: str) -> str:
    return seed_path(name).read_text(encoding="utf-8")


def printed_superhirn() -> tuple[int, bytes]:
    """(start, bytes) of the article's MSE listing, transcribed in fixtures/superhirn_listing1.txt.

    Each row is ``ADDR : 8 data bytes, then the checksum byte`` (the last row is shorter).
    """
    rows = (FIXTURES / "superhirn_listing1.txt").read_text().splitlines()[2:]
    data = bytearray()
    start = None
    for row in rows:
        addr, _, rest = row.partition(" : ")
        if start is None:
            start = int(addr, 16)
        assert int(addr, 16) == start + len(data)
        data += bytes(int(h, 16) for h in rest.split()[:-1])
    return start, bytes(data)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """An asm6502 command in-process: (exit code, stdout, stderr). An uncaught exception (a
    traceback) fails the calling test by itself; argparse's SystemExit gives its code."""
    from asm6502.cli import main

    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def c64_test_machine(cia_model: str = "6526"):
    """The C64 machine booted on the test KERNAL (tests/fixtures/c64/testkernal.asm, a
    Profi-Ass source assembled by asm6502), a stand-in BASIC and character ROM."""
    from asm6502.asm import assemble
    from asm6502.emu.c64.machine import C64, RomImages

    kernal = assemble((FIXTURES / "c64" / "testkernal.asm").read_text(), "testkernal.asm").image
    basic = bytes([0x94]) + bytes(0x1FFF)
    chargen = bytes((i * 7 + 3) & 0xFF for i in range(0x1000))
    machine = C64(RomImages(basic, bytes(kernal), chargen), cia_model=cia_model)
    stop = machine.run(2_000_000)
    assert stop.reason == "idle", stop
    return machine
