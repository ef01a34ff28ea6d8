"""Small helpers shared by the tests (no test logic here)."""

from __future__ import annotations

import fcntl
import os
import pickle
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import testdata

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# the read-only reference material lies beside the checkout (../shared); ASM6502_SHARED overrides
SEEDS = testdata.shared_root() / "seeds"
SUPERHIRN_SEED = "004_99e3b47411151697.txt"  # the 64'er article "Superhirn II"


def once_for_the_run(tmp_path_factory: pytest.TempPathFactory, name: str, fill: Callable[[Path], None]) -> Path:
    """A folder that *fill* fills once for the whole run: the first of make test's workers to ask
    fills it while the others wait on its lock; every later caller, on any worker, gets it filled.
    (Each worker's temporary folder is one of the run's; a run without workers has its own.)"""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / f"once-{name}"
    with open(base / f"once-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".filled").exists():
            shutil.rmtree(folder, ignore_errors=True)  # (what a fill that failed left)
            folder.mkdir()
            fill(folder)
            (folder / ".filled").touch()
    return folder


def once_for_the_run_value(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[], Any]) -> Any:
    """``make()``, computed once for the whole run (once_for_the_run) and handed to every caller."""
    folder = once_for_the_run(tmp_path_factory, name,
                              lambda into: (into / "value.pickle").write_bytes(pickle.dumps(make())))
    return pickle.loads((folder / "value.pickle").read_bytes())


def seed_path(name: str) -> Path:
    """A seed document of the shared reference material (never copied into the repository)."""
    if not (SEEDS / name).is_file():
        pytest.skip(f"seed {name} not found in {SEEDS} (the shared reference material beside the checkout)",
                    allow_module_level=True)
    return SEEDS / name


def seed_text(name: str) -> str:
    return seed_path(name).read_text(encoding="utf-8")


def real_file(collection: str, name: str) -> Path:
    """A file of a test-data collection (tests/testdata.py), its sha256 checked against the
    manifest; skips the test (or the module, at import) when the collection is not there."""
    try:
        return testdata.path(collection, name)
    except testdata.Missing as exc:
        pytest.skip(str(exc), allow_module_level=True)
    except testdata.Differs as exc:
        pytest.fail(str(exc), pytrace=False)


def real_text(collection: str, name: str) -> str:
    return real_file(collection, name).read_text(encoding="utf-8")


def superhirn_ocr() -> str:
    """The article's MSE listing as the seed's OCR ran it together: one line, from its header on."""
    text = seed_text(SUPERHIRN_SEED)
    start = text.index("PROGRAMM : ")
    return text[start:text.index("\n", start) + 1]


def superhirn_listing() -> str:
    """The article's MSE listing cut back into the header, the rule and one row per address, as
    the magazine printed it."""
    header = re.match(r"(PROGRAMM : .*? [0-9A-F]{4} [0-9A-F]{4}) (-+) (.*)", superhirn_ocr())
    assert header is not None, "no MSE header in the seed"
    parts = re.split(r"([0-9A-F]{4}) : ", header.group(3))[1:]
    rows = [f"{parts[i]} : {parts[i + 1].strip()}" for i in range(0, len(parts), 2)]
    return "\n".join([header.group(1), header.group(2), *rows]) + "\n"


def printed_superhirn() -> tuple[int, bytes]:
    """(start, bytes) of the article's MSE listing (superhirn_listing).

    Each row is ``ADDR : 8 data bytes, then the checksum byte`` (the last row is shorter).
    """
    rows = superhirn_listing().splitlines()[2:]
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


def oracle_home() -> Path:
    """The Profi-Ass oracle's binaries (``$PROFIASS_HOME``, tools/oracles.py); unset, a path that is no folder."""
    return Path(os.environ.get("PROFIASS_HOME") or "PROFIASS_HOME-is-not-set")


def c64_test_machine(cia_model: str | None = None, model=None):
    """The C64 machine of *model* (``c64models``; default the old one), with the CIAs
    *cia_model* (default the model's), booted on the test KERNAL (tests/fixtures/c64/
    testkernal.asm, a Profi-Ass source assembled by asm6502), a stand-in BASIC and character ROM."""
    from asm6502 import c64models as models
    from asm6502.asm import assemble
    from asm6502.emu.c64.machine import C64, RomImages

    kernal = assemble((FIXTURES / "c64" / "testkernal.asm").read_text(), "testkernal.asm").image
    basic = bytes([0x94]) + bytes(0x1FFF)
    chargen = bytes((i * 7 + 3) & 0xFF for i in range(0x1000))
    machine = C64(RomImages(basic, bytes(kernal), chargen), model=(model or models.DEFAULT).with_chips(cia=cia_model))
    stop = machine.run(2_000_000)
    assert stop.reason == "idle", stop
    return machine
