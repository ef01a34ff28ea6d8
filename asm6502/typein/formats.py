"""Every type-in listing format once: its line shape, its checksum, its writer, its reader, its builder.

A format is a small object, as :mod:`asm6502.dialects` describes a target assembler: the MSE
versions (machine code, :mod:`.mselisting`) and the Checksummer versions (BASIC, :mod:`.cslisting`)
all answer the same five questions, so a command (or a whole magazine issue read at once) can take
a listing without knowing its family:

- ``shape``: a line as printed, for people (``3400 : A9 93 20 D2 FF A9 01 8D 42``);
- ``checksum(key, data, start)``: the value printed after a line (*key*: its address or line number;
  *data*: its bytes as stored; *start*: the program's load address, which MSE V2.0 sums);
- ``write(prg, name)``: the listing of a program (.prg: load address, then the bytes);
- ``read(text, filename)``: the listings in a text read with this format, each a :class:`Reading`;
- ``build(lines, start)``: the .prg of (key, data) lines read.

Two more answers, for ``publish`` (a page laid out for print names the kind of program and the
checking program to type it in with):

- ``program``: the kind of .prg the format prints, as ``filetype.sniff`` names it
  (``"machine-code"``, ``"basic-prg"``), derived from ``kind``;
- ``checker``: the checking program as the magazine named it, with the magazine
  (``"MSE V1.0 (64'er)"``; ``CHECKERS`` for the English ones).

Every format also has a ``kind`` (``"basic"`` or ``"machine-code"``: what its listings hold) and
reads into :class:`Reading` objects whose ``lines`` are the per-line report (for the English
formats: :class:`asm6502.typein.english.read.LineReport`, each line's row, key, status, bytes and
checksums).  So a command (``typein write|read|type``, a publisher laying listings out) needs only
``name``, ``kind``, ``write(prg)`` -> listing text, ``read(text)`` -> programs with their reports.

The English formats (:mod:`.english`): Compute!'s Automatic Proofreader (``proofreader-1983``,
``proofreader-1986``) and Ahoy!'s Bug Repellent (``bugrepellent-1``/``-2``/``-3``) for BASIC,
Compute!'s MLX (``mlx-1``: six decimal bytes, ``mlx-2``: MLX II, eight hex bytes) for machine code.

The modules of each family stay the authority; these objects only route to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from asm6502.basic.tokenizer import link_program
from asm6502.diagnostics import Diagnostic
from asm6502.typein.cslisting import read as cs_read
from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing, line_checksum
from asm6502.typein.english import bugrepellent as english_repellent
from asm6502.typein.english import mlx as english_mlx
from asm6502.typein.english import printed as english_printed
from asm6502.typein.english import proofreader as english_proofreader
from asm6502.typein.english import read as english_read
from asm6502.typein.english import write as english_write
from asm6502.typein.mselisting import MSE_FILL, checksum_v1, checksum_v2, read_listings, write_listing


@dataclass(frozen=True)
class Reading:
    """One listing read: its program (.prg; empty when nothing was read), the counts of its lines
    by how they were read, and the diagnostics."""

    format: str
    prg: bytes
    verified: int
    repaired: int
    bad: int
    first_line: int  # line in the text where the listing starts (1-based; 0: no line read)
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    unchecked: int = 0  # lines read with no checksum to check them (a listing printed without any)
    lines: tuple = field(default=())  # the per-line report, where the family gives one

    @property
    def whole(self) -> bool:
        """Every line verified or repaired, nothing in the way of the program."""
        return bool(self.prg) and self.bad == 0 and not any(d.is_error for d in self.diagnostics)


# the checking programs as the magazines named them (a page's header says which to type it in with)
CHECKERS = {
    "proofreader-1983": "Automatic Proofreader (COMPUTE!, 1983)",
    "proofreader-1986": "New Automatic Proofreader (COMPUTE!, March 1986)",
    "bugrepellent-1": "Bug Repellent (Ahoy!)",
    "bugrepellent-2": "Bug Repellent (Ahoy!, second version)",
    "bugrepellent-3": "Bug Repellent (Ahoy!, third version)",
    "mlx-1": "MLX (COMPUTE!'s Gazette)",
    "mlx-2": "MLX II (COMPUTE!'s Gazette, 1985)",
}


@dataclass(frozen=True)
class TypeinFormat:
    name: str  # as the registry and the report name it: "mse-1.0", "checksummer-3"
    family: str  # "mse" or "checksummer"
    version: str  # as the family's command takes it: "1.0", "3"
    shape: str

    @property
    def checker(self) -> str:
        """The checking program to type the listing in with, as the magazine named it."""
        return CHECKERS.get(self.name, self.name)

    @property
    def kind(self) -> str:
        """What its listings hold: ``"basic"`` or ``"machine-code"``."""
        return "machine-code" if self.family in ("mse", "mlx") else "basic"

    @property
    def program(self) -> str:
        """The kind of .prg it prints, as ``filetype.sniff`` names it (from ``kind``)."""
        return "basic-prg" if self.kind == "basic" else "machine-code"

    def checksum(self, key: int, data: bytes, start: int = 0) -> int:
        raise NotImplementedError

    def write(self, prg: bytes, name: str = "") -> str:
        raise NotImplementedError

    def read(self, text: str, filename: str = "<input>") -> list[Reading]:
        raise NotImplementedError

    def build(self, lines: Sequence[tuple[int, bytes]], start: int) -> bytes:
        raise NotImplementedError


@dataclass(frozen=True)
class MseListing(TypeinFormat):
    """An MSE version: lines of an address, data bytes and a checksum."""


    @property
    def checker(self) -> str:
        return f"MSE V{self.version} (64'er)"

    def checksum(self, key: int, data: bytes, start: int = 0) -> int:
        if self.version == "1.0":
            return checksum_v1(key, data)
        return checksum_v2(key, data, start=start, version=self.version)

    def write(self, prg: bytes, name: str = "") -> str:
        return write_listing(int.from_bytes(prg[:2], "little"), prg[2:], name=name, version=self.version)

    def read(self, text: str, filename: str = "<input>") -> list[Reading]:
        return [Reading(self.name, r.prg if r.lines else b"", r.count("verified"), r.count("repaired"),
                        r.count("bad"), min((x.line for x in r.report), default=0), r.diagnostics)
                for r in read_listings(text, filename, version=self.version)]

    def build(self, lines: Sequence[tuple[int, bytes]], start: int) -> bytes:
        """The bytes from *start* on, each line at its address; a gap holds the MSE's fill ($AA)."""
        return _machine_code(lines, start, MSE_FILL)


@dataclass(frozen=True)
class ChecksummerListing(TypeinFormat):
    """A Checksummer version: numbered BASIC lines, each with its ``<NNN>``."""


    @property
    def checker(self) -> str:
        return f"Checksummer 64 V{self.version} (64'er)"

    def _options(self) -> ChecksumOptions:
        return ChecksumOptions(int(self.version))

    def checksum(self, key: int, data: bytes, start: int = 0) -> int:
        return line_checksum(key, data, self._options())

    def write(self, prg: bytes, name: str = "") -> str:
        text, _ = checksum_listing(prg, filename=name or "<prg>", options=self._options())
        return text

    def read(self, text: str, filename: str = "<input>") -> list[Reading]:
        return [Reading(self.name, r.prg if r.lines else b"", r.count("verified"), r.count("repaired"),
                        r.count("bad") + r.count("unchecked"), min((x.line for x in r.lines), default=0), r.diagnostics)
                for r in cs_read.read_listings(text, filename, version=int(self.version))]

    def build(self, lines: Sequence[tuple[int, bytes]], start: int) -> bytes:
        """The .prg of the lines, linked as LOAD links them (in line-number order)."""
        prg, _ = link_program([(n, body, None) for n, body in sorted(lines)], start)
        return prg


@dataclass(frozen=True)
class EnglishBasicListing(TypeinFormat):
    """Compute!'s Automatic Proofreader or Ahoy!'s Bug Repellent: BASIC lines and their checksums.
    *checksum* is that of the line as the magazine prints it (the proofreader sums the typed
    text, the Bug Repellent the stored line)."""

    def checksum(self, key: int, data: bytes, start: int = 0) -> int:
        if self.family == "proofreader":
            line = english_printed.typed(key, english_printed.printed(data, "compute"))
            assert line is not None
            if self.version == "1983":
                return english_proofreader.checksum_1983(line)
            return english_proofreader.checksum_1986(key, line)
        return english_repellent.checksum(self.version, key, data)

    def write(self, prg: bytes, name: str = "") -> str:
        if self.family == "proofreader":
            return english_write.proofreader_listing(self.version, prg, name)
        return english_write.repellent_listing(self.version, prg, name)

    def read(self, text: str, filename: str = "<input>") -> list[Reading]:
        reader = english_read.read_proofreader if self.family == "proofreader" else english_read.read_repellent
        return [_english_reading(self.name, listing) for listing in reader(text, self.version, filename)]

    def build(self, lines: Sequence[tuple[int, bytes]], start: int) -> bytes:
        prg, _ = link_program([(n, body, None) for n, body in sorted(lines)], start)
        return prg


@dataclass(frozen=True)
class MlxListing(TypeinFormat):
    """Compute!'s MLX: an address, six (MLX) or eight (MLX II) bytes and a checksum a line."""

    def checksum(self, key: int, data: bytes, start: int = 0) -> int:
        return english_mlx.checksum(self.version, key, data)

    def write(self, prg: bytes, name: str = "") -> str:
        return english_write.mlx_listing(self.version, prg, name)

    def read(self, text: str, filename: str = "<input>") -> list[Reading]:
        return [_english_reading(self.name, listing) for listing in english_read.read_mlx(text, self.version, filename)]

    def build(self, lines: Sequence[tuple[int, bytes]], start: int) -> bytes:
        """The bytes from *start* on, each line at its address; a gap holds zeros."""
        return _machine_code(lines, start, 0)


def _machine_code(lines: Sequence[tuple[int, bytes]], start: int, fill: int) -> bytes:
    """The .prg of (address, bytes) lines from *start* on; a line before it is left out, a gap
    between lines holds *fill*."""
    image = bytearray()
    for address, data in sorted(lines):
        at = address - start
        if at < 0:
            continue
        if at > len(image):
            image += bytes([fill]) * (at - len(image))
        image[at : at + len(data)] = data
    return start.to_bytes(2, "little") + bytes(image)


def _english_reading(name: str, listing: english_read.Listing) -> Reading:
    return Reading(name, listing.prg if listing.lines else b"", listing.count("verified"), listing.count("repaired"),
                   listing.count("bad") + listing.count("unchecked"), min((r.row for r in listing.lines), default=0),
                   listing.diagnostics, lines=listing.lines)


_MSE_V1 = "3400 : A9 93 20 D2 FF A9 01 8D 42"
_MSE_V2 = "0801: apdl fa35 fhxc llw6 7777 75e7  bu"
_CS = '10 PRINT "HALLO"                  <123>'
FORMATS: dict[str, TypeinFormat] = {f.name: f for f in (
    MseListing("mse-1.0", "mse", "1.0", _MSE_V1),
    MseListing("mse-2.0", "mse", "2.0", _MSE_V2),
    MseListing("mse-2.1", "mse", "2.1", _MSE_V2),
    ChecksummerListing("checksummer-1", "checksummer", "1", _CS),
    ChecksummerListing("checksummer-2", "checksummer", "2", _CS),
    ChecksummerListing("checksummer-3", "checksummer", "3", _CS),
    EnglishBasicListing("proofreader-1983", "proofreader", "1983", '10 PRINT "HELLO" :rem 123'),
    EnglishBasicListing("proofreader-1986", "proofreader", "1986", 'GE 10 PRINT "HELLO"'),
    EnglishBasicListing("bugrepellent-1", "bugrepellent", "1", '10 PRINT"HELLO"  ... table: 10 IA'),
    EnglishBasicListing("bugrepellent-2", "bugrepellent", "2", '10 PRINT"HELLO"  ... table: 10 EO'),
    EnglishBasicListing("bugrepellent-3", "bugrepellent", "3", '10 PRINT"HELLO"  ... table: 10 GC'),
    MlxListing("mlx-1", "mlx", "1", "49152 :169,000,141,032,208,141,033"),
    MlxListing("mlx-2", "mlx", "2", "C000:A9 37 85 FC A9 D7 85 FE 5B"),
)}  # fmt: skip
