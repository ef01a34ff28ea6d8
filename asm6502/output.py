"""Output formats for an assembled program: .prg, raw, Intel HEX, listing, VICE labels."""

from __future__ import annotations

import io
import re

from asm6502.assembler import Result

_VICE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
BYTES_PER_ROW = 3  # an instruction's bytes fit on one row; longer data continues below


def prg_bytes(result: Result, fill: int = 0x00) -> bytes:
    """C64 .prg: load address (little endian), then memory up to the last byte."""
    return result.load_address.to_bytes(2, "little") + result.image_with(fill)


def raw_bytes(result: Result, fill: int = 0x00) -> bytes:
    return result.image_with(fill)


def intel_hex(result: Result) -> str:
    """Intel HEX (via the ``intelhex`` library); gaps between segments stay gaps."""
    from intelhex import IntelHex

    ih = IntelHex()
    for start, data in result.segments:
        ih.puts(start, data)
    out = io.StringIO()
    ih.write_hex_file(out, write_start_addr=False, byte_count=16)
    return out.getvalue().replace("\r\n", "\n")


def vice_labels(result: Result) -> str:
    """VICE monitor label file (``al C:3400 .grloop``), load with ``ll "file"``.

    Every symbol is listed (labels and '=' constants, which in Profi-Ass
    sources are mostly addresses too), sorted by value, then name.
    """
    rows = sorted(result.symbols.items(), key=lambda kv: (kv[1], kv[0]))
    names = vice_names([name for name, _ in sorted(result.symbols.items())])
    return "".join(f"al C:{value:04x} .{names[name]}\n" for name, value in rows)


def vice_names(names: list[str]) -> dict[str, str]:
    """Label names VICE's monitor accepts: letters, digits and '_' (others become '_', as
    cc65's ld65 does), a letter or '_' first; names that meet get a suffix _2, _3, ... ."""
    taken = set(n for n in names if _VICE_NAME.fullmatch(n))
    out: dict[str, str] = {}
    for name in names:  # sorted: the same program always gives the same names
        if _VICE_NAME.fullmatch(name):
            out[name] = name
            continue
        base = re.sub(r"[^A-Za-z0-9_]", "_", name)
        if not base or base[0].isdigit():
            base = "_" + base
        candidate, n = base, 2
        while candidate in taken:
            candidate, n = f"{base}_{n}", n + 1
        taken.add(candidate)
        out[name] = candidate
    return out


def listing_text(result: Result, source_name: str = "") -> str:
    """The assembler listing: BASIC line, address, every byte, source statement."""
    out = []
    if source_name:
        out.append(f"; asm6502 listing of {source_name}")
    out.append(f"{'line':>5}  {'addr':4}  {'bytes':<{BYTES_PER_ROW * 3 - 1}}  source")
    last_line = None
    for row in result.listing:
        where = (row.span.file, row.span.line)
        number = row.span.basic_line
        line_field = f"{number:>5}" if number is not None and where != last_line else " " * 5
        last_line = where
        if row.page_break:
            out.append("\f")
            continue
        if row.title is not None:
            out.append(f"{line_field}  {'':4}  {'':<{BYTES_PER_ROW * 3 - 1}}  {row.text}")
            continue
        if row.value is not None:
            out.append(f"{line_field}  ={row.value:04X}".ljust(5 + 2 + 4 + 2 + BYTES_PER_ROW * 3 - 1) + f"  {row.text}")
            continue
        if row.address is None or not row.data:
            addr = "    " if row.address is None else f"{row.address:04X}"
            out.append(f"{line_field}  {addr}  {'':<{BYTES_PER_ROW * 3 - 1}}  {row.text}".rstrip())
            continue
        for i in range(0, len(row.data), BYTES_PER_ROW):
            chunk = " ".join(f"{b:02X}" for b in row.data[i : i + BYTES_PER_ROW])
            text = row.text if i == 0 else ""
            out.append(f"{line_field if i == 0 else ' ' * 5}  {row.address + i:04X}  {chunk:<{BYTES_PER_ROW * 3 - 1}}  {text}".rstrip())
    return "\n".join(out) + "\n"
