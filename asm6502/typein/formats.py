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
checking program to type it in with); a new format gives them, or keeps the defaults:

- ``program`` (a class attribute): the kind of .prg the format prints, as ``filetype.sniff``
  names it (``"machine-code"``, ``"basic-prg"``); ``""`` (the default): any;
- ``checker``: the checking program as the magazine named it, with the magazine
  (``"MSE V1.0 (64'er)"``); the default is the format's registry name.

The modules of each family stay the authority; these objects only route to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from asm6502.basic.tokenizer import link_program
from asm6502.diagnostics import Diagnostic
from asm6502.typein.cslisting import read as cs_read
from asm6502.typein.cslisting.checksum import ChecksumOptions, checksum_listing, line_checksum
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

    @property
    def whole(self) -> bool:
        """Every line verified or repaired, nothing in the way of the program."""
        return bool(self.prg) and self.bad == 0 and not any(d.is_error for d in self.diagnostics)


@dataclass(frozen=True)
class TypeinFormat:
    name: str  # as the registry and the report name it: "mse-1.0", "checksummer-3"
    family: str  # "mse" or "checksummer"
    version: str  # as the family's command takes it: "1.0", "3"
    shape: str
    program: ClassVar[str] = ""  # the kind of .prg it prints (filetype.sniff's name); "": any

    @property
    def checker(self) -> str:
        """The checking program to type the listing in with, as the magazine named it."""
        return self.name

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

    program: ClassVar[str] = "machine-code"

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
        image = bytearray()
        for address, data in sorted(lines):
            at = address - start
            if at < 0:
                continue
            if at > len(image):
                image += bytes([MSE_FILL]) * (at - len(image))
            image[at : at + len(data)] = data
        return start.to_bytes(2, "little") + bytes(image)


@dataclass(frozen=True)
class ChecksummerListing(TypeinFormat):
    """A Checksummer version: numbered BASIC lines, each with its ``<NNN>``."""

    program: ClassVar[str] = "basic-prg"

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
)}  # fmt: skip
