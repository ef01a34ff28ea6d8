"""Text <-> PETSCII for assembler strings (``.asc``, ``"c"`` constants).

Convention (the same as VICE's petcat for unshifted/lower-case mode text
files): lower-case ASCII letters are the C64's unshifted letters $41-$5A
(what you get when typing without SHIFT), upper-case ASCII letters are the
shifted letters $C1-$DA; digits, space and punctuation keep their codes.
``~`` is pi ($FF), ``_`` is the left arrow ($5F), ``\\`` the pound sign ($5C),
``^`` the up arrow ($5E).  Source: C64 Programmer's Reference Guide,
appendix C (PETSCII codes).
"""

from __future__ import annotations


def _petscii_code(ch: str) -> int | None:
    """The PETSCII code of one character (None: it has none)."""
    code = ord(ch)
    if "a" <= ch <= "z":
        return code - 0x20  # $61-$7A -> $41-$5A
    if "A" <= ch <= "Z":
        return code + 0x80  # $41-$5A -> $C1-$DA
    if ch == "~":
        return 0xFF
    if 0x20 <= code <= 0x5F:
        return code
    return None


# every ASCII character -> the character whose code is its PETSCII code, or None (deleted) when it has
# none: str.translate converts a whole string at once (the table is made from the rule above)
_TO_PETSCII = {code: None if _petscii_code(chr(code)) is None else chr(_petscii_code(chr(code))) for code in range(128)}


def ascii_to_petscii(text: str) -> bytes:
    converted = text.translate(_TO_PETSCII)
    if len(converted) != len(text) or not text.isascii():  # (a character was deleted, or one left as it was)
        bad = next(ch for ch in text if _petscii_code(ch) is None)
        raise ValueError(f"character {bad!r} has no PETSCII equivalent")
    return converted.encode("latin-1")


def brace_code(text: str, pos: int) -> tuple[int, int] | None:
    """A key written in braces at ``text[pos]``: ``{$93}`` or petcat's name for it (``{clr}``,
    ``{CBM-R}``, as a tokenized source is listed); returns (PETSCII code, length of the braces
    and their contents), or None when ``text[pos]`` starts no such code."""
    if not text.startswith("{", pos):
        return None
    end = text.find("}", pos + 1)
    if end < 0:
        return None
    from asm6502.basic.petscii import parse_brace  # (the one table of petcat's names)

    parsed = parse_brace(text[pos + 1 : end])
    if parsed is None or parsed[1] != 1:
        return None
    return parsed[0], end + 1 - pos


def petscii_to_ascii(data: bytes) -> str:
    out = []
    for b in data:
        if 0x41 <= b <= 0x5A:
            out.append(chr(b + 0x20))
        elif 0xC1 <= b <= 0xDA:
            out.append(chr(b - 0x80))
        elif b == 0xFF:
            out.append("~")
        elif 0x20 <= b <= 0x5F:
            out.append(chr(b))
        else:
            out.append(f"{{${b:02x}}}")
    return "".join(out)
