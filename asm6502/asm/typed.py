"""A text source as the C64 stored it: the original Profi-Ass reads the BASIC line that typing
the text made, not the keys themselves.

BASIC's CRUNCH ($A57C, asm6502/basic/tokenizer.py) throws away every key >= $80 typed outside
quotes: a shifted letter (a capital in petcat's convention) or a code written ``{$c1}``.  So
``lda #1 A`` is ``lda #1`` and ``lda #"b"A`` is ``lda #"b"``, in the object code and in the
listing alike (rules/junk_shifted_*).
Inside quotes every key is kept, and ``{$22}`` is the quote key itself, a ``"``
(rules/listing_quote_keys).

A shifted letter inside a word -- a mnemonic, a label, hex digits: ``LDA``, ``Abc``, ``$FF`` --
is kept and read as the letter (README: deviations; the original drops it there too, which turns
``$FF`` into ``$``, 0), and so is every key of a comment (the original lists ``nop ;xAy`` with
``;XY``: rules/shifted_comment, a deviation of the listing): only a key outside quotes and comments
that is no part of a word (after a blank or a quote, with no letter or digit after it) is dropped.
"""

from __future__ import annotations

import re

from asm6502.basic.tokens import PI_TOKEN
from asm6502.patterns import LazyPattern
from asm6502.petscii import parse_brace, parse_text

# a line that may hold a key >= $80: a capital (petcat's shifted letter), a '{...}' code or a
# non-ASCII character (a graphic); a source without any is read as it is (one search)
_MAYBE_SHIFTED = LazyPattern(r"[A-Z{]|[^\x00-\x7f]")  # (not one class up to U+10FFFF: that is slow to compile)
_BRACE = LazyPattern(r"\{([^{}]*)\}")
QUOTE, COLON, SEMICOLON, BLANK = 0x22, 0x3A, 0x3B, 0x20


def as_typed(text: str) -> str:
    """The source with every line as the C64 stored it (see the module's docstring)."""
    if text.isascii() and "{" not in text and not _has_capitals(text):  # (the common source: these
        # tests are far cheaper than the search below)
        return text
    if _MAYBE_SHIFTED.search(text) is None:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _MAYBE_SHIFTED.search(line) is not None:
            lines[i] = _typed_line(line)
    return "\n".join(lines)


_BLOCK = 1 << 16  # characters compared at a time: no lower-case copy of the whole text (it would stay resident)


def _has_capitals(text: str) -> bool:
    """An ASCII capital in *text* (ASCII itself), a block at a time."""
    for pos in range(0, len(text), _BLOCK):
        block = text[pos : pos + _BLOCK]
        if block.lower() != block:
            return True
    return False


def _quote_key(m: re.Match) -> str:
    return '"' if parse_brace(m.group(1)) == (0x22, 1) else m.group(0)


def _word_key(code: int) -> bool:
    """A key that can be part of a word: a letter (either case), a digit."""
    return 0x30 <= code <= 0x39 or 0x41 <= code <= 0x5A or 0xC1 <= code <= 0xDA


def _typed_line(line: str) -> str:
    if "{" in line:
        line = _BRACE.sub(_quote_key, line)
    pieces, errors = parse_text(line)
    if errors:  # (a tab, an unknown {name}: left to the assembler's own message)
        return line
    dropped = []
    quoted = comment = False
    before = BLANK  # the last key kept
    for k, p in enumerate(pieces):
        code = p.code
        if code == QUOTE:
            quoted = not quoted
        elif quoted:
            pass
        elif code == SEMICOLON:
            comment = True
        elif code == COLON:
            comment = False
        elif code >= 0x80 and code != PI_TOKEN:
            after = pieces[k + 1].code if k + 1 < len(pieces) else BLANK
            if not comment and before in (BLANK, QUOTE) and not _word_key(after):
                dropped.append(p)
                continue
        before = code
    if not dropped:
        return line
    out, pos = [], 0
    for p in dropped:
        if p.col - 1 < pos:  # (one '{2 $c1}' makes two keys)
            continue
        out.append(line[pos : p.col - 1])
        pos = p.col - 1 + p.width
    out.append(line[pos:])
    return "".join(out)
