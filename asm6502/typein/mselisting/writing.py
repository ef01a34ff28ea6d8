"""Writing MSE listings: a header, the dashed rule, one line per row (the format's)."""

from __future__ import annotations

from asm6502.diagnostics import DiagnosticError, error
from asm6502.typein.mselisting.codec import MSE_FILL
from asm6502.typein.mselisting.formats import DEFAULT_VERSION, FORMATS, VERSIONS, MseFormat

LAST_LINE_LAYOUTS = ("short", "full")


def check_version(version: str) -> MseFormat:
    """The format of an MSE version (a DiagnosticError for any other)."""
    fmt = FORMATS.get(version)
    if fmt is None:
        raise DiagnosticError([error(f"unknown MSE version {version!r} (use {', '.join(VERSIONS[:-1])} or {VERSIONS[-1]})")])
    return fmt


def format_line(address: int, data: bytes, *, version: str = DEFAULT_VERSION, start: int | None = None) -> str:
    """One listing line as printed: V1.0 ``3400 : A9 .. 42``, V2.x ``0801: apdl ..  bu``."""
    return FORMATS[version].format_line(address, data, start)


def write_listing(
    load_address: int,
    data: bytes,
    *,
    name: str = "",
    version: str = DEFAULT_VERSION,
    end: int | None = None,
    fill: int = MSE_FILL,
    last_line: str = "short",
) -> str:
    """An MSE listing for *data* loaded at *load_address*: header, rule, one line per row.

    *end* is the exclusive end address for the header (default: just after *data*); bytes
    between the data and *end* are *fill*.  V2.x pads its last 15-byte line with *fill*.
    V1.0 *last_line*: "short" prints only the bytes below *end* (Superhirn II, 64'er);
    "full" prints all 8, *fill* past *end*, the checksum over all 8 (six of the 11 printed
    listings read, e.g. end $03A2, last line ``039C : 8d 15 d0 4c 31 ea 00 00 dc``).
    """
    fmt = check_version(version)
    if last_line not in LAST_LINE_LAYOUTS:
        raise DiagnosticError([error(f"unknown last-line layout {last_line!r} (use short or full)")])
    problems = []
    if not 0 <= load_address <= 0xFFFF:
        problems.append(error(f"load address ${load_address:X} is outside $0000-$FFFF"))
    if not 0 <= fill <= 0xFF:
        problems.append(error(f"fill value {fill} is not a byte (0-255)"))
    data_end = load_address + len(data)
    if end is None:
        end = data_end
    if end < data_end:
        problems.append(error(f"end address ${end:04X} is before the end of the data (${data_end:04X})"))
    if end > 0x10000:
        problems.append(error(f"end address ${end:X} is beyond $FFFF+1"))
    if end <= load_address and end >= data_end:
        problems.append(error("nothing to list: the program is empty"))
    if problems:
        raise DiagnosticError(problems)
    image = bytes(data) + bytes([fill]) * (end - data_end)
    per_line = fmt.bytes_per_line
    # An end of $10000 prints as 0000: the header holds 16-bit addresses.
    header = " ".join(p for p in ("PROGRAMM :", name.strip(), f"{load_address:04X}", f"{end & 0xFFFF:04X}") if p)
    lines = [header]
    rows = []
    for offset in range(0, len(image), per_line):
        chunk = image[offset : offset + per_line]
        if fmt.pads_last_line(last_line):
            chunk = chunk + bytes([fill]) * (per_line - len(chunk))
        rows.append(fmt.format_line(load_address + offset, chunk, load_address))
    lines.append(fmt.rule(rows))
    lines += rows
    return "\n".join(lines) + "\n"
