"""What BASIC V2's grammar says of a stored line: the statement shapes the ROM would stop at
with ?SYNTAX ERROR (:func:`syntax_error`), and the look-alike letters in a DATA list of numbers
(:func:`misread_data_items`).

A printed program was typed in and ran: its lines are BASIC.  A reading of a line that is no
BASIC is one OCR made, whatever its checksum says -- an 8-bit checksum lets one misreading in
256 through, and several misreadings of one line can cancel.  The checks are the plain ones,
each a shape the ROM's interpreter refuses in every case (so a program's own lines never fail
them): ``GO`` without ``TO``, ``IF`` without ``THEN`` or ``GOTO``, ``FOR`` without ``=`` and
``TO``, ``ON`` without ``GOTO`` or ``GOSUB``, ``POKE`` and ``WAIT`` without their comma,
``GOTO``/``GOSUB`` with anything but a line number, an assignment whose variable is not followed
by ``=``, brackets that do not pair, a statement that starts with what no statement starts with,
a ``#`` anywhere but after ``PRINT``, ``INPUT`` or ``GET``.
"""

from __future__ import annotations

import re

from asm6502.basic.tokens import TOKEN_OF

_QUOTE, _COLON, _SPACE = 0x22, 0x3A, 0x20
_REM = TOKEN_OF["REM"]
_DATA = TOKEN_OF["DATA"]
_THEN = TOKEN_OF["THEN"]
_GOTO = TOKEN_OF["GOTO"]
_GOSUB = TOKEN_OF["GOSUB"]
_TO = TOKEN_OF["TO"]
_EQUAL = TOKEN_OF["="]
_GO = TOKEN_OF["GO"]
_IF = TOKEN_OF["IF"]
_FOR = TOKEN_OF["FOR"]
_ON = TOKEN_OF["ON"]
_POKE = TOKEN_OF["POKE"]
_WAIT = TOKEN_OF["WAIT"]
_LET = TOKEN_OF["LET"]
_OPENING = frozenset((0x28, TOKEN_OF["TAB("], TOKEN_OF["SPC("]))
_STATEMENTS = frozenset(range(TOKEN_OF["END"], TOKEN_OF["NEW"] + 1)) | {_GO}


def _statements(body: bytes) -> list[bytes]:
    """The statements of a stored line: split at ':' outside quotes, up to a REM (its text is no
    BASIC); ``IF ... THEN`` ends one statement, what follows is the next."""
    out: list[bytes] = []
    start, quote, k = 0, False, 0
    while k < len(body):
        b = body[k]
        if b == _QUOTE:
            quote = not quote
        elif not quote:
            if b == _REM:
                out.append(body[start : k + 1])  # (a REM ends the line's BASIC)
                return out
            if b == _COLON:
                out.append(body[start:k])
                start = k + 1
            elif b == _THEN:
                out.append(body[start : k + 1])
                start = k + 1
            elif b == _DATA and not body[start:k].strip(b" "):
                end = body.find(b":", k)
                while end >= 0 and body[k:end].count(b'"') % 2:
                    end = body.find(b":", end + 1)
                out.append(body[start : len(body) if end < 0 else end])
                if end < 0:
                    return out
                start = k = end + 1
                continue
        k += 1
    out.append(body[start:])
    return out


def _outside_quotes(statement: bytes) -> bytes:
    """The statement with what stands inside quotes left out (the quotes kept)."""
    out, quote = bytearray(), False
    for b in statement:
        if b == _QUOTE:
            quote = not quote
            out.append(b)
        elif not quote:
            out.append(b)
    return bytes(out)


def _brackets_pair(code: bytes) -> bool:
    depth = 0
    for b in code:
        if b in _OPENING:
            depth += 1
        elif b == 0x29:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _letter(b: int) -> bool:
    return 0x41 <= b <= 0x5A


def _assignment(code: bytes) -> bool:
    """``name[$|%][(...)] = ...``: a variable, then '='."""
    k = 0
    if k >= len(code) or not _letter(code[k]):
        return False
    while k < len(code) and (_letter(code[k]) or 0x30 <= code[k] <= 0x39 or code[k] == _SPACE):
        k += 1
    if k < len(code) and code[k] in b"$%":
        k += 1
    while k < len(code) and code[k] == _SPACE:
        k += 1
    if k < len(code) and code[k] == 0x28:
        depth = 0
        while k < len(code):
            depth += code[k] == 0x28
            depth -= code[k] == 0x29
            k += 1
            if depth == 0:
                break
    while k < len(code) and code[k] == _SPACE:
        k += 1
    return k < len(code) and code[k] == _EQUAL


_LINE_NUMBERS = re.compile(rb"[ 0-9]*")


def _statement_error(statement: bytes, after_then: bool) -> str | None:
    code = _outside_quotes(statement).strip(b" ")
    if not code:
        return None
    first = code[0]
    if first in (_REM, _DATA):
        return None
    if after_then and 0x30 <= first <= 0x39:
        return None if _LINE_NUMBERS.fullmatch(code) else "a line number after THEN with more after it"
    if not _brackets_pair(code):
        return "brackets that do not pair"
    if _hash_astray(code):
        return "'#' where only PRINT#, INPUT# and GET# have it"
    if first == _LET:
        code = code[1:].lstrip(b" ")
        first = code[0] if code else _LET
    if _letter(first):
        return None if _assignment(code) else "a variable without '=' after it"
    if first not in _STATEMENTS:
        return "no statement starts so"
    rest = code[1:]
    if first == _GO:
        rest = rest.lstrip(b" ")
        if not rest.startswith(bytes([_TO])):
            return "GO without TO"
        first, rest = _GOTO, rest[1:]
    if first in (_GOTO, _GOSUB) and not _LINE_NUMBERS.fullmatch(rest):
        return "GOTO or GOSUB with more than a line number"
    if first == _IF and not rest.endswith(bytes([_THEN])) and _GOTO not in rest:
        return "IF without THEN or GOTO"
    if first == _FOR and (_EQUAL not in rest or _TO not in rest):
        return "FOR without '=' and TO"
    if first == _ON and _GOTO not in rest and _GOSUB not in rest:
        return "ON without GOTO or GOSUB"
    if first in (_POKE, _WAIT) and not _comma_at_top(rest):
        return "POKE or WAIT without its comma"
    return None


_HASH = 0x23
_FILE_STATEMENTS = frozenset((TOKEN_OF["PRINT"], TOKEN_OF["INPUT"], TOKEN_OF["GET"]))


def _hash_astray(code: bytes) -> bool:
    """A '#' outside quotes that does not follow PRINT, INPUT or GET (blanks between): BASIC V2
    knows '#' only there (PRINT#, INPUT#, GET#; the ROM's statement table and its expression
    evaluator have no '#'), so ``GET S#`` and ``ASC(S#)`` are '$' misread."""
    for k, b in enumerate(code):
        if b == _HASH:
            before = code[:k].rstrip(b" ")
            if not before or before[-1] not in _FILE_STATEMENTS:
                return True
    return False


def _comma_at_top(code: bytes) -> bool:
    depth = 0
    for b in code:
        if b in _OPENING:
            depth += 1
        elif b == 0x29:
            depth -= 1
        elif b == 0x2C and depth == 0:
            return True
    return False


def syntax_error(body: bytes) -> str | None:
    """Why the stored line *body* is no BASIC the ROM runs (a shape it refuses), or None."""
    after_then = False
    for statement in _statements(body):
        why = _statement_error(statement, after_then)
        if why is not None:
            return why
        after_then = statement.endswith(bytes([_THEN]))
    return None


# a misread digit in a number: what OCR reads for 1, 0, 5, 2, 6 (hex digits A-F are DATA's own)
LOOK_ALIKES = "IlL|!OoQSsZG"
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:E[-+]?\d+)?")
NUMBERS_SHARE = 0.75  # items that are numbers (or read so but for a look-alike): a DATA list of numbers
MIN_NUMBERS = 2


def misread_data_items(text: str) -> list[tuple[int, int]]:
    """Where a DATA statement of *text* (a printed line) that lists numbers has an item that is a
    number but for a look-alike letter ('I', 'l', 'O', 'S', ...: ``DATA 0,I,255,l3I,-l``): (start,
    end) of each such item.  A DATA list printed by a program's author is numbers throughout or
    holds words; a letter where the digit 1 reads the same is OCR's."""
    out: list[tuple[int, int]] = []
    for m in re.finditer(r"DATA", text, re.IGNORECASE):
        start = m.end()
        items: list[tuple[int, int]] = []
        k = start
        quote = False
        for j in range(start, len(text) + 1):
            c = text[j] if j < len(text) else ":"
            if c == '"':
                quote = not quote
            elif not quote and c in ",:":
                items.append((k, j))
                k = j + 1
                if c == ":":
                    break
        words = [text[a:b].strip(" ") for a, b in items]
        numbers = sum(bool(_NUMBER.fullmatch(w)) for w in words)
        misread = [(a, b) for (a, b), w in zip(items, words) if w and not _NUMBER.fullmatch(w) and '"' not in w
                   and _NUMBER.fullmatch("".join("1" if c in LOOK_ALIKES else c for c in w))]
        # (numbers and numbers with a look-alike letter make the list; two numbers at least, as printed)
        if len(words) >= 3 and numbers >= MIN_NUMBERS and numbers + len(misread) >= NUMBERS_SHARE * len(words):
            out += misread
    return out


# a DATA item of one character in quotes (or one control or graphics name, '{CBM-T}'), one of its
# quotes printed as an apostrophe: '"T\',' or '\'T",' (the item ends at a comma, a ':' or the line's end)
_APOSTROPHE_ITEM = re.compile(r"""(?<=[,A])( *)(?:"(?:\{[^{}"]*\}|[^"',:])('|\u2019)|('|\u2018|\u2019)(?:\{[^{}"]*\}|[^"',:])")(?= *(?:,|:|$))""")


def misread_data_quotes(text: str) -> list[int]:
    """Where a DATA statement of *text* (a printed line) prints a quote of a one-character string
    item as an apostrophe (``DATA"T',999``, ``DATA'T",102``): the apostrophe's place.  BASIC
    would read the rest of the line as one string (a quote opened and never closed) or the
    apostrophe as the item's first character; a DATA list of such items is the quote OCR misread
    (9/85 p. 70's lines 8526, 8544)."""
    out: list[int] = []
    upper = text.upper()
    for m in re.finditer("DATA", upper):
        if text[: m.start()].count('"') % 2:
            continue  # (inside quotes: no statement)
        for item in _APOSTROPHE_ITEM.finditer(text, m.end() - 1):
            if upper[m.end() - 1 : item.start()].count('"') % 2 or ":" in text[m.end() : item.start()]:
                break  # (the items of this statement only, each outside quotes)
            out.append(item.start(2) if item.group(2) else item.start(3))
    return out


__all__ = ["misread_data_items", "misread_data_quotes", "syntax_error"]
