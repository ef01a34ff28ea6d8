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


def ascii_to_petscii(text: str) -> bytes:
    out = bytearray()
    for ch in text:
        code = ord(ch)
        if "a" <= ch <= "z":
            out.append(code - 0x20)  # $61-$7A -> $41-$5A
        elif "A" <= ch <= "Z":
            out.append(code + 0x80)  # $41-$5A -> $C1-$DA
        elif ch == "~":
            out.append(0xFF)
        elif 0x20 <= code <= 0x5F:
            out.append(code)
        else:
            raise ValueError(f"character {ch!r} has no PETSCII equivalent")
    return bytes(out)


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
