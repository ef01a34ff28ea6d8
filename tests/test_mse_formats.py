"""The MSE versions as format objects (asm6502/typein/mselisting/formats.py), listed once and read by every job."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asm6502.build import _CHOICES
from asm6502.typein import mselisting as mse
from asm6502.typein.mselisting.formats import FORMATS, MseFormat

PACKAGE = Path(__file__).resolve().parent.parent / "asm6502"
PROGRAM = bytes(range(40))


def test_the_versions_are_the_formats():
    assert mse.VERSIONS == tuple(FORMATS) == ("1.0", "2.0", "2.1")
    assert _CHOICES[("mse", "version")]() == mse.VERSIONS
    assert all(isinstance(f, MseFormat) and f.version == v for v, f in FORMATS.items())
    assert mse.BYTES_PER_LINE == {v: f.bytes_per_line for v, f in FORMATS.items()}


@pytest.mark.parametrize("version", sorted(FORMATS))
def test_every_format_reads_what_it_writes(version):
    text = mse.write_listing(0xC000, PROGRAM, name="T", version=version)
    result = mse.read_listing(text, "t.txt")
    assert result.ok and result.version == version and result.data == PROGRAM
    assert result.count("verified") == result.lines


def test_version_names_are_written_once():
    """The version strings stand in formats.py only (and in codec.checksum_v2, whose V2.0 and V2.1
    sums differ); every other module asks the formats."""
    pattern = re.compile(r"""["'](1\.0|2\.0|2\.1)["']""")
    found = set()
    for path in (PACKAGE / "mse").glob("*.py"):
        if pattern.search(path.read_text()):
            found.add(path.name)
    assert found <= {"formats.py", "codec.py"}, found
    assert not pattern.search((PACKAGE / "build.py").read_text())
