"""The committed build/ is exactly what `make` (asm6502 build) makes from the
committed sources: the CI check.  On failure the message lists
every file that differs, with a short diff or the first differing offset."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from asm6502 import build as builder

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / builder.MANIFEST


def test_committed_artifacts_are_reproduced_byte_for_byte():
    products = builder.build(MANIFEST)
    report = builder.differences(products)
    assert not report, (
        "build/ is not what `make` produces from the sources; run `make` and commit build/:\n" + "\n".join(report)
    )


def test_every_file_in_build_is_declared():
    declared = {a.output for a in builder.load_manifest(MANIFEST)}
    present = {f"build/{p.name}" for p in (ROOT / "build").iterdir() if p.is_file() and not p.name.startswith(".")}
    assert present - declared == set(), "files in build/ that build.yaml does not make (stale?)"


def test_every_input_is_committed():
    """A clean checkout has only tracked files: every source the manifest reads must be tracked."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    artifacts = builder.load_manifest(MANIFEST)
    made = {a.output for a in artifacts}
    sources = sorted({i.path for a in artifacts for i in a.inputs if i.path not in made} | {builder.MANIFEST})
    tracked = subprocess.run([git, "ls-files", "--", *sources], cwd=ROOT, capture_output=True, text=True, check=True)
    missing = set(sources) - set(tracked.stdout.split())
    assert not missing, f"inputs not committed (a fresh clone could not build): {sorted(missing)}"


@pytest.mark.skipif(shutil.which("cbmconvert") is None or shutil.which("cc1541") is None,
                    reason="cbmconvert/cc1541 not installed")
def test_the_disk_holds_the_programs_as_cbmconvert_and_cc1541_read_them(tmp_path):
    products = {p.artifact.output: p.data for p in builder.build(MANIFEST)}
    disk = tmp_path / "asm6502.d64"
    disk.write_bytes(products["build/asm6502.d64"])
    out = tmp_path / "files"
    out.mkdir()
    subprocess.run(["cbmconvert", "-N", "-d", str(disk)], cwd=out, check=True, capture_output=True)
    # cbmconvert names files with PETSCII $41-$5A as a-z
    assert {p.name: p.read_bytes() for p in out.iterdir()} == {
        "superhirn ii.prg": products["build/superhirn.prg"],
        "high iq.prg": products["build/highiq.prg"],
        "superhirn.src.prg": products["build/superhirn-src.prg"],
    }
    listing = subprocess.run(["cc1541", str(disk)], capture_output=True, text=True, check=True).stdout
    for name in ('"superhirn ii"', '"high iq"', '"superhirn.src"'):
        assert name in listing
