"""Output formats for an assembled program: .prg, raw, Intel HEX, listing, VICE labels."""

from __future__ import annotations

import io

from asm6502.asm import Result

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
    return "".join(f"al C:{value:04x} .{name}\n" for name, value in rows)


def listing_text(result: Result, source_name: str = "") -> str:
    """The assembler listing: BASIC line, address, every byte, source statement."""
    from asm6502.asm.decode import Data, Insn
    from asm6502.asm.encode import place_and_text, row as make_row

    out = []
    if source_name:
        out.append(f"; asm6502 listing of {source_name}")
    width = BYTES_PER_ROW * 3 - 1
    out.append(f"{'line':>5}  {'addr':4}  {'bytes':<{width}}  source")
    last_line = None
    blank = " " * 5
    empty_bytes = " " * width
    append = out.append
    shown: dict[int, tuple] = {}  # id(statement) -> its place and text (see encode.row)
    for entry, extra in result.listed:
        rec = entry[0]
        if (type(rec) is Insn or type(rec) is Data) and len(extra) <= BYTES_PER_ROW:  # most rows: the row's fields
            line = entry[3]  # are the entry's, without making the row
            stmt = entry[4]
            if stmt.comment or len(line.statements) > 1:
                place = shown.get(id(stmt))
                if place is None:
                    place = shown[id(stmt)] = place_and_text(line, stmt)
                text = place[1].rstrip()  # (a statement's text is not empty: the row's end is the text's end)
            else:
                text = stmt.text
            number = line.number
            line_field = blank if line is last_line or number is None else f"{number:>5}"
            last_line = line
            append(f"{line_field}  {entry[1]:04X}  {extra.hex(' ').upper():<{width}}  {text}")
            continue
        row = make_row(entry, extra, shown)
        where, address, data, text, value, page_break, title = row[:7]
        if type(where) is tuple:  # (SourceLine, col, length)
            line = where[0]
            number = line.number
            line_field = blank if line is last_line or number is None else f"{number:>5}"
            last_line = line
        else:  # a Span
            where, number = row.place
            line_field = f"{number:>5}" if number is not None and where != last_line else blank
            last_line = where
        if page_break:
            append("\f")
        elif title is not None:
            append(f"{line_field}  {'':4}  {empty_bytes}  {text}")
        elif value is not None:
            append(f"{line_field}  ={value:04X}".ljust(5 + 2 + 4 + 2 + width) + f"  {text}")
        elif address is None:
            append(f"{line_field}        {empty_bytes}  {text}".rstrip())
        elif not data:
            append(f"{line_field}  {address:04X}  {empty_bytes}  {text}".rstrip())
        else:
            for i in range(0, len(data), BYTES_PER_ROW):
                chunk = data[i : i + BYTES_PER_ROW].hex(" ").upper()
                append(f"{line_field if i == 0 else blank}  {address + i:04X}  {chunk:<{width}}  {text if i == 0 else ''}".rstrip())
    return "\n".join(out) + "\n"
