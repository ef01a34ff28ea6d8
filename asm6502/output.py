"""Output formats for an assembled program: .prg, raw, Intel HEX, listing, VICE labels."""

from __future__ import annotations

import io
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import islice

from asm6502.asm import Result
from asm6502.asm.entries import FORWARD, OTHER_STMT, MacroEnd, MacroLine, statement_of
from asm6502.asm.lines import NO_NUMBER, TAILED, Lines
from asm6502.asm.pseudo import PAGE, PSEUDO_OPS, TITLE
from asm6502.asm.rows import with_comment
from asm6502.asm.statements import Bad, Data, Define, Insn, Pseudo
from asm6502.patterns import LazyPattern

_VICE_NAME = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*")
BYTES_PER_ROW = 3  # an instruction's bytes fit on one row; longer data continues below


def prg_bytes(result: Result, fill: int = 0x00) -> bytes:
    """C64 .prg: load address (little endian), then memory up to the last byte."""
    return result.load_address.to_bytes(2, "little") + result.image_with(fill)


def raw_bytes(result: Result, fill: int = 0x00) -> bytes:
    return result.image_with(fill)


def intel_hex(result: Result) -> str:
    """Intel HEX (via the ``intelhex`` library); gaps between segments stay gaps."""
    from intelhex import IntelHex  # (lazy: start-up -- see ARCHITECTURE.md, "Imports")

    ih = IntelHex()
    for start, data in result.segments:
        ih.puts(start, data)
    out = io.StringIO()
    ih.write_hex_file(out, write_start_addr=False, byte_count=16)
    return out.getvalue().replace("\r\n", "\n")


def vice_labels(result: Result, constants: bool = False, breaks: list[int] | tuple = ()) -> str:
    """VICE monitor label file (``al C:3400 .grloop``), load with ``ll "file"``.

    The symbols that name addresses are listed (Result.addresses: labels, and '=' constants an instruction uses as
    an address; 'zeile = 10' used as 'ldx #zeile' is no address: 64tass leaves numbers out unless asked,
    --vice-labels-numeric); with *constants* every symbol.  Sorted by value, then name; then a ``break $ADDR`` line for each of *breaks*, which ``x64sc -moncommands FILE`` runs as
    the monitor commands they are (KickAssembler writes its breakpoints so).
    """
    symbols = result.symbols if constants else result.addresses
    rows = sorted(symbols.items(), key=lambda kv: (kv[1], kv[0]))
    names = vice_names([name for name, _ in sorted(symbols.items())])
    return "".join(f"al C:{value:04x} .{names[name]}\n" for name, value in rows) + "".join(f"break ${a:04x}\n" for a in breaks)


def vice_names(names: list[str]) -> dict[str, str]:
    """Label names VICE's monitor accepts: letters, digits and '_' (others become '_', as
    cc65's ld65 does), a letter or '_' first; names that meet get a suffix _2, _3, ... ."""
    taken = {n for n in names if _VICE_NAME.fullmatch(n)}
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


LISTING_BLOCK = 4096  # rows joined at a time
HEXES_KEPT = 4096  # the listing text's table of the digits of bytes met before: emptied at a block's start above this size


def listing_text(result: Result, source_name: str = "") -> str:
    """The assembler listing: BASIC line, address, every byte, source statement."""
    return "".join(listing_blocks(result, source_name))


def encoded(blocks: Iterable[str]) -> bytearray:
    """The UTF-8 bytes of a text made a block at a time, without the whole text as a string beside
    them (a large listing's peak memory, bench/README.md "Peak memory")."""
    out = bytearray()
    for block in blocks:
        out += block.encode("utf-8")
    return out


def _with_tail(tail: str, text: str) -> str:
    """The listed text of a line of one statement ``text`` with a tail in the columns (a comment or trailing
    blanks: lines.Lines): as with_comment joins a statement and its comment, without the line's object (a
    source has thousands of lines with a comment)."""
    comment = tail.strip()
    if not comment:
        return text
    return text + " " + comment if text else comment


def listing_blocks(result: Result, source_name: str = "") -> Iterator[str]:
    """The listing's text a block of rows at a time, each row ended by a newline.

    Made straight from the layout entries' columns, their bytes and the '=' values (Result.listed_columns), without
    making the ListingRows: each kind of entry is shown with the fields ``asm6502.asm.rows.row`` gives it."""
    out = []
    if source_name:
        out.append(f"; asm6502 listing of {source_name}")
    width = BYTES_PER_ROW * 3 - 1
    out.append(f"{'line':>5}  {'addr':4}  {'bytes':<{width}}  source")
    blank = " " * 5
    no_bytes = " " * width
    hex2 = [f"{i:02X}" for i in range(256)]  # (an address's digits as two table entries: a third of the cost of '%04X')
    high = ["  " + digits for digits in hex2]  # (the high byte's with the blanks before the address: fewer pieces a row)
    value_high = ["  =" + digits for digits in hex2]  # (the same for the value of a '=' row)
    append = out.append
    hexes: dict = {}  # an instruction's or a short data entry's bytes -> "  " + their hex digits, padded, + "  " (most recur;
    # emptied when a block starts with more than HEXES_KEPT: kept whole, a large program's distinct ones raise the
    # listing's peak memory for next to no time saved)
    hexes_get = hexes.get
    value_column = 5 + 2 + 4 + 2 + width  # (a '=' row: the value in the address column, padded to the text)
    value_pad = " " * (value_column - 12) + "  "  # (after a 5-character line field and a 4-digit value; then the text's blanks)
    entries, memory, defined = result.listed_columns
    rows = zip(entries.recs, entries.pcs, entries.refs, entries.stmts, entries.sizes)
    others = iter(entries.other.values())  # (the statements of OTHER_STMT entries, in the entries' order)
    main = entries.sources[0] if entries.sources else Lines("")  # the first file: its lines' refs are their positions
    main_texts, main_numbers, main_cols, main_end = main.texts, main.numbers, main.cols, len(main.texts)
    texts, numbers, cols, lo, hi = main_texts, main_numbers, main_cols, 0, 0  # another Lines (a macro's body, a .file): lo <= ref < hi
    other = main  # (that Lines)
    tailed = TAILED
    main_tail_at, main_k = main.tail_at, 0  # (the tails of the main file's lines with one; the next one's position there: a
    # bisection of the array would make an int at each step, for every line)
    item = plain = None  # the row's line's item in its Lines' texts, and that item if it is a text (a line of one
    # statement without a comment)
    no_number, other_stmt, kind_of, str_, forward = NO_NUMBER, OTHER_STMT, type, str, FORWARD  # (locals: read at every row)
    last = -1  # the ref of the row before
    line_field = blank
    # a block of rows at a time: no string per row of the whole listing at once (they would take more memory than the
    # listing's text)
    while True:
        shown = len(out)
        if len(hexes) > HEXES_KEPT:
            hexes.clear()
        for rec, pc, ref, k, size in islice(rows, LISTING_BLOCK):
            if ref != last:  # (a line's number is shown on its first row only)
                last = ref
                if ref < main_end:
                    item = main_texts[ref]
                    number = main_numbers[ref]
                    if kind_of(item) is not str_:
                        plain = None
                    elif main_cols[ref] < tailed:
                        plain = item
                    else:  # (its tail: the next one in the main file's order, most rows; else looked up)
                        if main_k >= len(main_tail_at) or main_tail_at[main_k] != ref:
                            main_k = bisect_left(main_tail_at, ref)
                        plain = _with_tail(main.tails[main_k], item)
                        main_k += 1
                else:
                    if not lo <= ref < hi:
                        other = entries.source(ref)
                        lo, texts, numbers, cols = other.base, other.texts, other.numbers, other.cols
                        hi = lo + len(texts)
                    item = texts[ref - lo]
                    number = numbers[ref - lo]
                    if kind_of(item) is not str_:
                        plain = None
                    elif cols[ref - lo] < tailed:
                        plain = item
                    else:
                        plain = _with_tail(other.tails[bisect_left(other.tail_at, ref - lo)], item)
                line_field = blank if number == no_number else str(number).rjust(5)
            elif line_field is not blank:
                line_field = blank
            if k == 0 and plain is not None:  # a line of one statement without a comment (its text, in the columns)
                text = plain
            else:
                if plain is None and k < other_stmt:  # a line kept as its object (SourceLine; a PlainLine's statements are itself)
                    line = item
                    stmt = item.statements[k]
                else:
                    line = entries.line(ref) if plain is not None else item
                    stmt = statement_of(k, line, next(others) if k == other_stmt else None)
                if stmt is None:
                    text = ""
                elif stmt.comment:  # (a Statement's or a CommentedLine's: the line's own one statement)
                    text = with_comment(stmt)
                else:
                    text = stmt.text
            kind = kind_of(rec)
            if kind is Insn or kind is Data:  # the address and the bytes: the object's at [pc, pc + size) (rows.address_space)
                extra = memory[pc : pc + size] if size != forward or kind is Data else memory[pc : pc + 3]
                digits = hexes_get(extra)
                if digits is not None:  # most rows: bytes met before (the text is not empty and ends without blanks)
                    append(f"{line_field}{high[pc >> 8]}{hex2[pc & 0xFF]}{digits}{text}")
                    continue
                if len(extra) <= BYTES_PER_ROW:
                    digits = hexes[extra] = f"  {extra.hex(' ').upper().ljust(width)}  "
                    append(f"{line_field}{high[pc >> 8]}{hex2[pc & 0xFF]}{digits}{text}")
                else:  # longer data continues below: a row's digits are a slice of the whole entry's
                    every = extra.hex(" ").upper()  # (byte k at 3k, 3k+1; a row of bytes i..i+2 at 3i up to 3i+8)
                    append(f"{line_field}  {hex2[pc >> 8]}{hex2[pc & 0xFF]}  {every[:width]}  {text}".rstrip())
                    for i in range(BYTES_PER_ROW, len(extra), BYTES_PER_ROW):  # (the digits end the row: no blanks)
                        at = pc + i
                        address = f"{hex2[at >> 8]}{hex2[at & 0xFF]}" if at <= 0xFFFF else f"{at:04X}"
                        append(f"{blank}  {address}  {every[3 * i : 3 * i + width]}")
            elif kind is Define and (value := next(defined)) is not None:  # the value defined
                if value <= 0xFFFF:
                    append(f"{line_field}{value_high[value >> 8]}{hex2[value & 0xFF]}{value_pad}{text}")
                else:
                    append(f"{line_field}  ={value:04X}".ljust(5 + 2 + 4 + 2 + width) + f"  {text}")
            elif rec is None or kind is Define or kind is Bad or kind is MacroLine:  # no address
                append(f"{line_field}        {no_bytes}  {text}".rstrip())
            elif kind is MacroEnd:  # the end of a macro call: .men as the definition spells it
                append(f"{line_field}  {hex2[pc >> 8]}{hex2[pc & 0xFF]}  {no_bytes}  {rec.spelling}".rstrip())
            elif kind is Pseudo and (listed := PSEUDO_OPS[rec.op].listing) in (PAGE, TITLE):
                append("\f" if listed == PAGE else f"{line_field}  {'':4}  {no_bytes}  {text}")
            else:  # the address only: other pseudo-ops, '*=', macro calls
                append(f"{line_field}  {hex2[pc >> 8]}{hex2[pc & 0xFF]}  {no_bytes}  {text}".rstrip())
        if len(out) == shown:
            break
        append("")  # (every row ends with a newline)
        yield "\n".join(out)
        out.clear()
    if out:
        append("")
        yield "\n".join(out)
