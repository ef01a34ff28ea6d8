"""The listing in the original Profi-Ass 64 V2.0 format (manual pp. 25-28, and its screen output).

::

    PROFI-ASS 64 V2.0    SEITE 1

    110:   C000                   .OPT P,OO
    300:   E56C          SETCRSR  =    $E56C
    350:   C000                   'CURSOR 10,10
    +      C000 A2 0A             LDX  #ZEILE
    150:   '             CURSOR   .MAC ZEILE,SPALTE
    ]C000-C03B
    NO ERRORS

Columns: the BASIC line number and ':' (``+`` for a line of a macro call, padded
to 7), the address (or the value of a definition, ``'`` on a line recorded into
a macro), up to three object bytes, the label (9 columns), the mnemonic or
pseudo-op (5 columns), the operand as typed up to the comment (its blanks too)
padded to 7 columns (a key written in braces, ``{$91}``, is one column), one blank and the comment.  Letters are shown as the C64
screen shows the unshifted ones: upper case.  A page is 60 lines, the header
line and the blank line after it included (58 listing lines); each starts with a
form feed and the header (after a ``.tit`` text).  The statements after ':' on
the start line (``10 sys32768:.opt p,oo``) carry the number of the last line
read (the ``.end`` line), as the original prints them.  ``.opt m`` leaves the
lines of macro calls out, ``.opt n`` takes that back.
"""

from __future__ import annotations

import re

from asm6502.asm.operand_text import keys
from asm6502.asm.pseudo import OPTIONS, PAGE, PSEUDO_OPS, SYMBOLS
from asm6502.asm.reader import LINE_PARTS, START_LINE
from asm6502.asm.result import Result
from asm6502.asm.rows import as_span
from asm6502.opcodes import OPCODES
from asm6502.petscii import parse_brace, petscii_to_char

DEFAULT_ORIGIN = 0xC000  # where the program counter starts (org/org_default_c000)
PAGE_LINES = 60  # the original's default page length (.pag n changes it)
HEADER_LINES = 2  # of a page's lines, the header and the blank line after it (the form feed does not count)
HEADER = "PROFI-ASS 64 V2.0    SEITE {page}"
NAME_FIELD = 14  # label (9 columns) and mnemonic (5): the operand starts in the 15th column
OPERAND_FIELD = 7  # a comment follows the operand padded to 7 columns, and one blank
_LABEL = re.compile(r"\^?([A-Za-z][A-Za-z0-9.]*)(\s+|$)")
_PSEUDO_ARGS = re.compile(r"\.([a-z]{3})([a-z]*)(.*)", re.IGNORECASE)


def listed_as(text: str) -> tuple[str | None, str]:
    """(how the listing shows a row's pseudo-op -- asm6502/asm/pseudo.py: ``listing`` --, its arguments);
    (None, "") for any other statement.  (The listing reads '.opt' written out in full only.)"""
    m = _PSEUDO_ARGS.match(text.lstrip("^ "))
    if m is None:
        return None, ""
    op = PSEUDO_OPS.get(m.group(1).lower())
    if op is None or op.listing == OPTIONS and (m.group(2) or m.group(3)[:1].isalnum() or m.group(3)[:1] == "_"):
        return None, ""
    return op.listing, m.group(3)


def split_statement(text: str) -> tuple[str, str, str]:
    """(label, mnemonic, operand) of a statement text, as the listing's columns show them."""
    text = text.lstrip("^").lstrip()
    label = ""
    m = _LABEL.match(text)
    if m and m.group(1).upper() not in OPCODES and not text[m.end(1) :].lstrip().startswith(("(", "#", "$")):
        label, text = m.group(1), text[m.end() :].lstrip()
    if text.startswith("'"):  # a macro call: its name in the mnemonic column
        name, _, args = text.partition(" ")
        return label, name, args.lstrip()
    if text.startswith("*"):
        body = text[1:].lstrip()
        return label, "*" + body[:1], body[1:].lstrip()
    if text[:1] in ("=", "_"):
        return label, "\u2190" if text[0] == "_" else "=", text[1:].lstrip()
    word, _, operand = text.partition(" ")
    return label, word, operand.lstrip()


def _after_blank_colon(row) -> bool:
    """A statement after ':' and a blank (layout.blank_after_colon: no label there)."""
    span = as_span(row.where)
    before = (span.source or "")[: span.col - 1]
    return before[-1:] in (" ", "\t") and before.rstrip().endswith(":")


def split_comment(text: str) -> tuple[str, str | None]:
    """(statement, comment from its ';' on, or None) of a row's text: the first ';' outside quotes."""
    if ";" not in text:
        return text, None
    quoted = False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            return text[:i], text[i:]
    return text, None


def start_line_place(rows) -> tuple | None:
    """The place (file, line) of the start line, when the first rows are its statements after
    ``sys 32768:`` (the original numbers them with the last line's number)."""
    if not rows:
        return None
    m = LINE_PARTS.match(as_span(rows[0].where).source or "")
    return rows[0].place[0] if m is not None and START_LINE.match(m.group(4)) else None


_BRACES = re.compile(r"(\{[^{}]*\})")


def _printable(code: str) -> str:
    """A key written ``{...}`` that prints as a character (``{$c1}``: the shifted A, ``{$22}``: a quote)
    as the screen shows it; a control code stays ``{...}``."""
    parsed = parse_brace(code[1:-1])
    char = petscii_to_char(parsed[0]) if parsed is not None and parsed[1] == 1 else None
    return code if char is None or char == "~" else _shown(char)


def _shown(text: str) -> str:
    return text.swapcase().replace("^", "\u2191").replace("_", "\u2190")


def screen(text: str) -> str:
    """Text as the C64 screen shows it in the upper-case character set: the unshifted letters
    (lower case in a source file) upper case, the shifted ones lower case; up and left arrows.
    The original prints a key typed in quotes as it is: ``lda #"{$c1}"`` is listed ``LDA  #"a"``,
    ``lda #"{$22}"`` with three quotes (rules/char_shifted, char_quote_code, listing_quote_keys)."""
    if "{" not in text:
        return _shown(text)
    parts = _BRACES.split(text)  # (the odd ones are the codes)
    return "".join(_printable(part) if k % 2 else _shown(part) for k, part in enumerate(parts))


def _numbers(args: str) -> list[int | None]:
    """'64,10' -> [64, 10]; ',10' -> [None, 10] (the arguments of .pag and .sym)."""
    out = []
    for part in args.split(";")[0].split(","):
        part = part.strip()
        out.append(int(part) if part.isdigit() else None)
    return out


def _object_options(row) -> tuple[bool, bool]:
    """(an O option, an N) in the row's '.opt'."""
    listing, args = listed_as(row.text)
    if listing != OPTIONS:
        return False, False
    options = [o.strip().lower() for o in args.split(";")[0].split(",")]
    return any(o[:1] == "o" for o in options), "n" in options


def pass_two(rows) -> tuple[int, int, int]:
    """(where the original's pass 2 starts, the start and the end of the ']XXXX-YYYY' it prints).

    The original keeps a range start: the address of the first byte made after the start of a
    pass or after a '.opt' with an O option -- in pass 1 also after a '.opt n' --, $0000 while none
    was made.  Pass 2 starts at pass 1's range start instead of $C000, so the lines before the
    first '*=' are listed from there, and ']' shows pass 2's range start and its last address
    (opt/opt_twice, opt_n_clears, opt_n_keeps_oo, org/org_no_code, cond/cond_goto_loop;
    rules/range_*)."""

    def range_start(pass_no: int, shift: int) -> int:
        start, pending, before_origin = 0, True, True
        for row in rows:
            if row.definition:
                continue
            o, n = _object_options(row)
            if o or n and pass_no == 1:
                pending = True
            if before_origin and split_statement(split_comment(row.text)[0])[1] == "*=":
                before_origin = False
            if pending and row.data and row.address is not None:
                start, pending = (row.address + (shift if before_origin else 0)) & 0xFFFF, False
        return start

    start = range_start(1, 0)
    shift = start - DEFAULT_ORIGIN
    end, before_origin = start, True
    for row in rows:
        if row.definition or row.value is not None or row.address is None:
            continue
        if before_origin and split_statement(split_comment(row.text)[0])[1] == "*=":
            before_origin = False
        end = (row.address + (shift if before_origin else 0) + len(row.data)) & 0xFFFF
    return start, range_start(2, shift), end


def render(result: Result, errors: int = 0) -> str:
    rows = result.listing
    out: list[str] = []
    page = 0
    page_lines = PAGE_LINES
    on_page = page_lines
    show_macro = True
    # pass 1 has run every .tit and .pag before pass 2 lists anything: their last values are in
    # force from the first page on (listing/listing_tit_late, listing_pag_margin)
    title = next((row.title for row in reversed(rows) if row.title is not None), "")
    margin = 0
    per_line = 4
    for row in rows:
        listing, args = listed_as(row.text)
        if listing == PAGE and args.strip():
            numbers = _numbers(args) + [None]
            margin = numbers[1] if numbers[1] is not None else margin
        elif listing == SYMBOLS and args.strip():
            per_line = _numbers(args)[0] or per_line

    def emit(line: str) -> None:
        nonlocal page, on_page
        if on_page >= page_lines - HEADER_LINES:
            page += 1
            on_page = 0
            out.append(" " * margin + "\f")
            out.append(" " * margin + (screen(title) + "     " if title else "") + HEADER.format(page=page))
            out.append(" " * margin)
        out.append(" " * margin + line)
        on_page += 1

    start, range_start, range_end = pass_two(rows)
    before_origin = True
    printing = True  # '.opt n' stops the listing, a P option starts it again (opt/opt_n_clears)
    start_place = start_line_place(rows)
    for row in rows:
        if row.title is not None:
            title = row.title
        listing, args = listed_as(row.text)
        if listing == OPTIONS:
            options = {o.strip().lower() for o in args.split(";")[0].split(",")}
            if "m" in options:
                show_macro = False
            if "n" in options:
                show_macro = "m" not in options
                printing = False
            if any(o[:1] == "p" for o in options):
                printing = True
        if row.macro and not show_macro or not printing:
            continue
        place, number = row.place
        if start_place is not None and place == start_place and result.last_line is not None:
            number = result.last_line
        head = ("+" if row.macro else f"{number}:" if number is not None else ":").ljust(7)
        statement, comment = split_comment(row.text)
        if not statement.strip():  # a comment, or an empty statement: its address ("'" in a macro's definition)
            if comment and statement and not row.definition and row.address is not None:
                # blanks before the ';' (': ;x', '^  ;x'): the address, the comment in its column
                emit(f"{head}{row.address:04X} {'':<9}{'':<9}{'':<5}{'':<{OPERAND_FIELD}} " + screen(comment).rstrip())
            elif comment:
                emit(f"{head}{chr(39) if row.definition else '':14}" + screen(comment).rstrip())
            elif row.definition or row.address is not None:
                emit(f"{head}" + ("'" if row.definition else f"{row.address:04X}"))
            else:
                emit(f"{head}{'':14}")
            continue
        label, mnemonic, operand = split_statement(statement)
        if label[3:] and label[:3].upper() in OPCODES and _after_blank_colon(row):
            # 'nop: ldaxy 5' is LDA 5: the original lists the whole word as the mnemonic ('LDAXY5')
            label, mnemonic, operand = "", label, f"{mnemonic} {operand}".strip()
        if mnemonic == "*=":
            before_origin = False
        if row.definition:
            address = "'"
        elif row.value is not None:
            address = f"{row.value:04X}"
        elif row.address is not None:
            address = f"{(row.address + start - DEFAULT_ORIGIN) & 0xFFFF if before_origin else row.address:04X}"
        else:
            address = ""
        data = " ".join(f"{b:02X}" for b in row.data[:3])
        if mnemonic.startswith("."):
            mnemonic = mnemonic[:5]  # (the original lists a pseudo-op's name in 5 columns: .BYTES -> .BYTE)
        if mnemonic.startswith("'") and len(mnemonic) >= 5:  # a long macro name: a blank before the arguments
            body = f"{label[:9]:<9}{mnemonic} {operand}"
        elif len(mnemonic) >= 5:
            body = f"{label[:9]:<9}{mnemonic}{operand}"
        else:  # the mnemonic or pseudo-op in 5 columns, the operand right after
            body = f"{label[:9]:<9}{mnemonic}" + (" " if operand else "")
            # the original writes the whole label, then the mnemonic over it from its 10th column, one
            # blank after it when an operand follows, and the operand from the 15th: the label's
            # letters in between stay (rules/label_name_13: ABCDEFGHINOPM; label_name_long_*)
            body = (body + label[len(body) : NAME_FIELD]).ljust(NAME_FIELD) + operand
        if comment is not None:  # the operand as typed, padded to 7 columns, one blank, the comment
            body = body[: len(body) - len(operand)] + operand + " " * max(OPERAND_FIELD - keys(operand), 0) + " " + comment
        emit(f"{head}{address:<4} {data:<9}" + screen(body))
        if row.page_break:  # '.pag' on its own: a new page; '.pag n' sets the page length
            numbers = _numbers(operand)
            if numbers[0] is not None:
                page_lines = numbers[0]
            elif not operand.strip():
                on_page = page_lines
    out.append(" " * margin + f"]{range_start:04X}-{range_end:04X}")
    out.append(" " * margin + ("NO ERRORS" if not errors else f"{errors} ERRORS"))
    if result.symbol_table is not None:  # '.sym': on a page of its own, the newest symbol first, 4 a line
        on_page = page_lines
        emit("SYMBOLTABLE:")
        cells = [f"{screen(name)[:9]:<10}{value:04X}   " for name, value in result.symbol_table]
        for i in range(0, len(cells), per_line):
            out.append(" " * margin + "".join(cells[i : i + per_line]))
        if len(cells) % per_line == 0:
            out.append(" " * margin)  # (a full last line ends with its own return)
        # (one symbol: "1 SYMBOL DEFINED", none: "NO SYMBOLS DEFINED"; rules/listing_colon_statements_sys_sym,
        # sym_one_*, sym_none_*)
        count = f"{len(cells)} SYMBOL{'' if len(cells) == 1 else 'S'}" if cells else "NO SYMBOLS"
        out.append(" " * margin + f"{count} DEFINED")
        out.append("")
    return "\n".join(out) + "\n"
