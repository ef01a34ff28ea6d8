"""Where the tests find material from elsewhere, and the check that it is the material the
manifests name.

Third-party material (magazine OCR, programs from magazine disks, real sources, the manual's
example programs and the original assembler's output for them) is never committed. It lies in a
test-data folder outside the checkout, one sub-folder per collection:

1. ``$ASM6502_TESTDATA`` (a maintainer's own folder, for new material not yet shared), then
2. ``testdata/`` of the shared reference material beside the checkout (``../shared``;
   ``$ASM6502_SHARED`` names another place).

A file is taken from the first of these that holds it. What the repository keeps is each
collection's manifest under ``tests/manifests/<collection>/``: where every file came from, and
``SHA256SUMS`` (the ``sha256sum`` format) with the digest of every file the tests read. A file is
read only after its digest was checked; a file that differs is named with both digests.

This module needs no pytest: tools/ and bench/ import it too. ``tests/helpers.py`` turns
``Missing`` into a skip that says where it looked.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = ROOT / "tests" / "manifests"
ENV = "ASM6502_TESTDATA"
SHARED_ENV = "ASM6502_SHARED"


class Missing(Exception):
    """The collection's files are in none of the test-data folders."""


class Differs(Exception):
    """A file in a test-data folder is not the one its manifest names."""


def shared_root() -> Path:
    """The read-only reference material beside the checkout."""
    return Path(os.environ.get(SHARED_ENV) or ROOT.parent / "shared")


def roots() -> list[Path]:
    """The test-data folders, in the order they are searched."""
    found = [Path(os.environ[ENV])] if os.environ.get(ENV) else []
    return found + [shared_root() / "testdata"]


def collections() -> list[str]:
    """Every collection the project has a manifest for."""
    return sorted(p.parent.name for p in MANIFESTS.glob("*/SHA256SUMS"))


@cache
def manifest(collection: str) -> dict[str, str]:
    """File name -> sha256 of one collection (its SHA256SUMS)."""
    sums = MANIFESTS / collection / "SHA256SUMS"
    out: dict[str, str] = {}
    for line in sums.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            out[name.lstrip("*")] = digest
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def where(collection: str, name: str) -> Path:
    """The file NAME of COLLECTION in the first test-data folder that has it (not yet checked)."""
    if name not in manifest(collection):
        raise KeyError(f"{name} is not in tests/manifests/{collection}/SHA256SUMS")
    for root in roots():
        path = root / collection / name
        if path.is_file():
            return path
    looked = " or ".join(str(root / collection) for root in roots())
    raise Missing(f"test data '{collection}' not found in {looked} "
                  f"(set {ENV}, or put the shared reference material beside the checkout)")


@cache
def _checked(path: Path, want: str) -> Path:
    got = sha256(path)
    if got != want:
        raise Differs(f"{path}: sha256 {got} differs from the manifest's {want}: not the file the tests were written for")
    return path


def path(collection: str, name: str) -> Path:
    """The file, its digest checked against the manifest (Missing, Differs)."""
    return _checked(where(collection, name), manifest(collection)[name])


def read_text(collection: str, name: str) -> str:
    return path(collection, name).read_text(encoding="utf-8")


def read_bytes(collection: str, name: str) -> bytes:
    return path(collection, name).read_bytes()


def names(collection: str, suffix: str = "") -> list[str]:
    """The manifest's file names of a collection that end with SUFFIX, sorted."""
    return sorted(n for n in manifest(collection) if n.endswith(suffix))


def available(collection: str) -> str | None:
    """None when every file of the collection is found, else the reason (for a skip)."""
    try:
        for name in manifest(collection):
            where(collection, name)
    except Missing as exc:
        return str(exc)
    return None
