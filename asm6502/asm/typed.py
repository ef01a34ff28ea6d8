"""A text source as the C64 stored it: what the original Profi-Ass reads is the BASIC line
that typing the text made, not the keys themselves.

BASIC's CRUNCH ($A57C, asm6502/basic/tokenizer.py) throws away every key >= $80 typed outside
quotes (the shifted letters, ``{$c1}``), and a shifted letter that completes a keyword's
abbreviation ends that keyword (``aB`` = ABS).  ``{$22}`` is the quote key, a ``"``.  So ``Abc = 5`` defines BC, ``lda #1 A`` is
``lda #1``, ``nop ;xAy`` has the comment ``;XY`` and ``aBc = 5`` defines ABSC, in the object
code and in the listing alike (rules/junk_shifted_*, labels/labels_shifted_name,
rules/shifted_*).  Inside quotes every key is kept.

A line holding such a key is replaced by its crunched form as the lister prints it (the text a
tokenized source of that line gives); every other line stays as it is.  A key written ``{...}``
outside quotes counts as typed, as the oracle typed it (a tokenized .prg with such a byte, which
no typing makes, would lose it).  Column numbers in diagnostics refer to the crunched line.
"""

from __future__ import annotations

import re

from asm6502.asm.reader import LINE_PARTS
from asm6502.basic.petscii import Piece, parse_brace, parse_text
from asm6502.basic.tokenizer import crunch, list_line
from asm6502.basic.tokens import PI_TOKEN

# a line that may hold a key >= $80: a capital (petcat's shifted letter), a '{...}' code or a
# non-ASCII character (a graphic); a source without any is read as it is (one search)
_MAYBE_SHIFTED = re.compile(r"[A-Z{\u0080-\U0010ffff]")


def as_typed(text: str) -> str:
    """The source with every line as the C64 stored it (see the module's docstring)."""
    if _MAYBE_SHIFTED.search(text) is None:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _MAYBE_SHIFTED.search(line) is not None:
            lines[i] = _typed_line(line)
    return "\n".join(lines)


def _quote_key(m: re.Match) -> str:
    return '"' if parse_brace(m.group(1)) == (0x22, 1) else m.group(0)


def _typed_line(line: str) -> str:
    if "{" in line:  # '{$22}' is the quote key: it opens or closes a string like '"' (rules/listing_quote_keys)
        line = _BRACE.sub(_quote_key, line)
    end = "\r" if line.endswith("\r") else ""
    lead, digits, blanks, body = LINE_PARTS.match(line.removesuffix("\r")).groups()
    pieces, errors = parse_text(body)
    if errors or not _dropped_outside_quotes(pieces):
        return line
    typed = [Piece(p.code, False, p.col, p.width) for p in pieces]
    listed = list_line(crunch(typed).body)[0]
    # (the lister writes a blank first or last as {$20}, which typing would lose; here it is a blank
    # the dropped key stood beside: 'lda #1 A' is 'lda #1 ')
    listed = _EDGE_BLANKS.sub(lambda m: " " * (len(m.group()) // 5), listed)
    return lead + digits + blanks + listed + end


_BRACE = re.compile(r"\{([^{}]*)\}")
_EDGE_BLANKS = re.compile(r"^(?:\{\$20\})+|(?:\{\$20\})+$")


def _dropped_outside_quotes(pieces: list[Piece]) -> bool:
    """Whether a key that CRUNCH drops (or that ends an abbreviation) is typed outside quotes."""
    quoted = False
    for p in pieces:
        if p.code == 0x22:
            quoted = not quoted
        elif not quoted and p.code >= 0x80 and p.code != PI_TOKEN:
            return True
    return False
