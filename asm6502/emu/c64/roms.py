"""Finding and checking the C64's ROM images (BASIC, KERNAL, character ROM).

ROM images are never shipped: the user has them (every VICE installation
does).  They are looked for, in this order,

1. the directory given with ``--roms DIR``;
2. the directory in the environment variable ``ASM6502_ROMS``
   (``ASM6502_ROMS=none`` turns the search off: the stubbed runner is used);
3. the places VICE keeps them (its ``C64`` data directory, system-wide and per user).

In a directory each image is recognised by its content (size and CRC-32), so
any of the usual file names works (VICE's ``kernal-901227-03.bin``, older
``kernal``, ``kernal.901227-03.bin`` ...).  The accepted images are the
ones of a PAL C64 with a 1982 BASIC V2 and the third KERNAL revision; the
CRC-32 values are those of the ROM dumps VICE ships (part numbers from the
chips' labels).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import Files

ENV_VAR = "ASM6502_ROMS"


@dataclass(frozen=True)
class RomKind:
    key: str  # "basic", "kernal", "chargen"
    part: str  # chip part number
    size: int
    crc32: int
    names: tuple[str, ...]  # usual file names (VICE 3.x first)


ROM_KINDS = (
    RomKind("basic", "901226-01", 8192, 0xF833D117, ("basic-901226-01.bin", "basic.901226-01.bin", "basic")),
    RomKind("kernal", "901227-03", 8192, 0xDBE3E7C7, ("kernal-901227-03.bin", "kernal.901227-03.bin", "kernal")),
    RomKind("chargen", "901225-01", 4096, 0xEC4272EE,
            ("chargen-901225-01.bin", "chargen.901225-01.bin", "chargen")),
)
_BY_CRC = {(k.size, k.crc32): k for k in ROM_KINDS}


def vice_dirs() -> list[Path]:
    """The C64 ROM directories of VICE installations (Linux packages, source builds, macOS, Windows)."""
    home = Path.home()
    dirs = [
        home / ".local/share/vice/C64",
        home / ".vice/C64",
        Path("/usr/share/vice/C64"),
        Path("/usr/lib/vice/C64"),
        Path("/usr/local/share/vice/C64"),
        Path("/usr/local/lib/vice/C64"),
        Path("/opt/homebrew/share/vice/C64"),
        Path("/Applications/vice-x86-64-gtk3/VICE.app/Contents/Resources/share/vice/C64"),
    ]
    appdata = os.environ.get("APPDATA")
    if appdata:
        dirs.append(Path(appdata) / "vice/C64")
    return dirs


@dataclass(frozen=True)
class RomSet:
    basic: bytes
    kernal: bytes
    chargen: bytes
    origin: str  # the directory they came from

    def describe(self) -> str:
        return f"real C64 ROMs from {self.origin}"


class RomLookup:
    """Where the ROMs were looked for and what was found (for the messages)."""

    def __init__(self, roms: RomSet | None, searched: list[str], reason: str):
        self.roms = roms
        self.searched = searched
        self.reason = reason

    def note(self) -> str:
        if self.roms is not None:
            return f"using the {self.roms.describe()}"
        return (f"no C64 ROM images found ({self.reason}); running with the KERNAL/BASIC stubs. "
                f"Give them with --roms DIR or {ENV_VAR}=DIR")


ROM_SIZES = frozenset(k.size for k in ROM_KINDS)


def _named_kind(name: str) -> RomKind | None:
    """The ROM a file's name says it is (``kernal-901227-03.bin``, ``kernal``, ``kernal.bin``)."""
    lower = name.lower()
    return next((k for k in ROM_KINDS if lower in k.names or lower.startswith(k.key)), None)


def _candidates(directory: Path) -> list[tuple[Path, int, RomKind | None]]:
    """The folder's regular files that may be ROM images -- of a ROM's size, or named as one (to be
    told what is wrong with it) -- with their sizes: those named as a ROM first. Only names and
    sizes are looked at here, so a folder of thousands of other files costs one listing."""
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return []
    found = []
    for entry in entries:
        try:
            if not entry.is_file():
                continue
            size = entry.stat().st_size
        except OSError:
            continue
        kind = _named_kind(entry.name)
        if size in ROM_SIZES or kind is not None:
            found.append((Path(entry.path), size, kind))
    return sorted(found, key=lambda c: c[2] is None)


def load_dir(directory: str | os.PathLike, files: Files | None = None) -> RomSet:
    """The three ROM images in *directory*; a clear error for a missing or wrong image.

    *files*: the command's gate: every image read is registered as an input the moment it is
    read (no output of the command may replace it)."""
    d = Path(directory)
    if not d.is_dir():
        raise DiagnosticError([error(f"{d}: ROM directory not found")])
    gate = files if files is not None else Files()
    found: dict[str, bytes] = {}
    wrong: dict[str, str] = {}
    for path, size, named in _candidates(d):
        if len(found) == len(ROM_KINDS):
            break
        if size not in ROM_SIZES:
            if named is not None:
                wrong.setdefault(named.key, f"{path} has {size:,} bytes; the {named.key} ROM {named.part} has "
                                 f"{named.size:,}")
            continue
        if named is not None and named.key in found:
            continue
        # (found by a lookup -- in --roms, $ASM6502_ROMS or a VICE folder -- an input from now on)
        data = gate.read(gate.found(path, "ROM image"), max(ROM_SIZES), "ROM image", regular=True)
        kind = _BY_CRC.get((len(data), zlib.crc32(data)))
        if kind is not None:
            found.setdefault(kind.key, data)
            continue
        if named is not None:
            wrong.setdefault(named.key, f"{path} is not the {named.key} ROM {named.part} "
                             f"(CRC-32 {zlib.crc32(data):08X}, expected {named.crc32:08X})")
    missing = [k for k in ROM_KINDS if k.key not in found]
    if missing:
        reasons = []
        for k in missing:
            reasons.append(wrong.get(k.key) or f"no {k.key} ROM {k.part} ({k.size:,} bytes, e.g. {k.names[0]})")
        raise DiagnosticError([error(f"{d}: " + "; ".join(reasons))])
    return RomSet(found["basic"], found["kernal"], found["chargen"], str(d))


def find_roms(explicit: str | None = None, env: Mapping[str, str] | None = None,
              places: list[Path] | None = None, files: Files | None = None) -> RomLookup:
    """Look for the ROMs: *explicit* (``--roms``; errors are raised), then the
    environment variable, then VICE's directories (a directory without a full
    set is passed over). *files*: the command's gate (every image read is its input)."""
    if explicit is not None:
        roms = load_dir(explicit, files)
        return RomLookup(roms, [explicit], "given")
    value = (os.environ if env is None else env).get(ENV_VAR)
    if value is not None:
        if value.strip().lower() in ("", "none", "off"):
            return RomLookup(None, [], f"{ENV_VAR}={value}")
        return RomLookup(load_dir(value, files), [value], f"{ENV_VAR}")
    searched = []
    for d in vice_dirs() if places is None else places:
        searched.append(str(d))
        if d.is_dir():
            try:
                return RomLookup(load_dir(d, files), searched, "VICE directory")
            except DiagnosticError:
                continue
    return RomLookup(None, searched, f"{ENV_VAR} is not set and no VICE C64 directory holds them")
