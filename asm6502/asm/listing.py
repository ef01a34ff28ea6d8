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
pseudo-op (5 columns), the operand, and a comment two blanks after it.  Letters
are shown as the C64 screen shows the unshifted ones: upper case.  A page is 60
lines; each starts with a form feed and the header (after a ``.tit`` text).
``.opt m`` leaves the lines of macro calls out, ``.opt n`` takes that back.
"""

from __future__ import annotations

import re

from asm6502.asm.result import Result
from asm6502.opcodes import OPCODES

PAGE_LINES = 60  # the original's default page length (.pag n changes it)
HEADER = "PROFI-ASS 64 V2.0    SEITE {page}"
COMMENT_COLUMN = 43  # (0-based)
_LABEL = re.compile(r"\^?([A-Za-z][A-Za-z0-9.]*)(\s+|$)")
_OPT_M = re.compile(r"\.opt\b(.*)", re.IGNORECASE)


def split_statement(text: str) -> tuple[str, str, str]:
    """(label, mnemonic, operand) of a statement text, as the listing's columns show them."""
    text = text.lstrip("^").lstrip()
    label = ""
    m = _LABEL.match(text)
    if m and m.group(1).upper() not in OPCODES and not text[m.end(1) :].lstrip().startswith(("(", "#", "$")):
        rest = text[m.end() :]
        if rest or True:
            label, text = m.group(1), rest.lstrip()
    if text.startswith("'"):
        return label, text, ""
    if text.startswith("*"):
        body = text[1:].lstrip()
        return label, "*" + body[:1], body[1:].strip()
    if text[:1] in ("=", "_"):
        return label, "\u2190" if text[0] == "_" else "=", text[1:].strip()
    word, _, operand = text.partition(" ")
    return label, word, operand.lstrip()


def render(result: Result, errors: int = 0) -> str:
    out: list[str] = []
    page = 0
    on_page = PAGE_LINES
    title = ""
    show_macro = True

    def emit(line: str) -> None:
        nonlocal page, on_page
        if on_page >= PAGE_LINES:
            page += 1
            on_page = 0
            out.append("\f")
            out.append((title + " " if title else "") + HEADER.format(page=page))
            out.append("")
        out.append(line.upper())
        on_page += 1

    for row in result.listing:
        if row.title is not None:
            title = row.title.upper()
        if row.page_break:
            on_page = PAGE_LINES
        m = _OPT_M.match(row.text.lstrip("^ "))
        if m:
            options = {o.strip().lower() for o in m.group(1).split(";")[0].split(",")}
            if "m" in options:
                show_macro = False
            if "n" in options:
                show_macro = "m" not in options
        if row.macro and not show_macro:
            continue
        number = row.place[1]
        head = ("+" if row.macro else f"{number}:" if number is not None else ":").ljust(7)
        statement, _, comment = row.text.partition(";") if ";" in row.text and '"' not in row.text else (row.text, "", "")
        if not statement.strip():
            emit(f"{head}{'':14}" + (";" + comment if comment or _ else "").rstrip())
            continue
        label, mnemonic, operand = split_statement(statement)
        if row.definition:
            address = "'"
        elif row.value is not None:
            address = f"{row.value:04X}"
        elif row.address is not None:
            address = f"{row.address:04X}"
        else:
            address = ""
        data = " ".join(f"{b:02X}" for b in row.data[:3])
        body = f"{label[:9]:<9}" + (f"{mnemonic:<5}{operand}" if not mnemonic.startswith("'") else mnemonic)
        text = f"{head}{address:<4} {data:<9}{body}"
        if comment:  # a comment starts in column 44, or two blanks after a longer operand
            text = text.rstrip().ljust(max(len(text.rstrip()) + 2, COMMENT_COLUMN)) + ";" + comment
        emit(text)
    if result.segments:
        out.append(f"]{result.load_address:04X}-{result.end_address:04X}")
    out.append("NO ERRORS" if not errors else f"{errors} ERRORS")
    if result.symbol_table is not None:  # '.sym': on a page of its own, the newest symbol first, 4 a line
        on_page = PAGE_LINES
        emit("SYMBOLTABLE:")
        cells = [f"{name.upper()[:9]:<10}{value:04X}   " for name, value in result.symbol_table]
        for i in range(0, len(cells), 4):
            out.append("".join(cells[i : i + 4]))
        out.append(f"{len(cells)} SYMBOLS DEFINED")
        out.append("")
    return "\n".join(out) + "\n"
