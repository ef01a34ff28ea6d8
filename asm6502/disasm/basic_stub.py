"""A BASIC start line such as ``10 SYS 2064`` in front of machine code.

A tokenized BASIC line (C64 BASIC V2, as stored from $0801): 2-byte link to
the next line, 2-byte line number, the tokens, a 0 byte.  SYS is token $9E
(C64 Programmer's Reference Guide, appendix: BASIC tokens); the ROM's SYS
reads the address with FRMNUM, so blanks and a '(' may come before the digits.
"""

from __future__ import annotations

from typing import NamedTuple

SYS_TOKEN = 0x9E


class BasicStub(NamedTuple):
    line_number: int
    sys_address: int
    end: int  # address of the line's terminating 0 byte


def find_stub(memory: bytes, origin: int) -> BasicStub | None:
    """The first BASIC line, if it is ``SYS address`` (nothing but blanks around)."""
    if len(memory) < 7:
        return None
    link = memory[0] | memory[1] << 8
    number = memory[2] | memory[3] << 8
    try:
        zero = memory.index(0, 4)
    except ValueError:
        return None
    body = memory[4:zero].lstrip(b" ")
    if not body.startswith(bytes([SYS_TOKEN])):
        return None
    digits = body[1:].lstrip(b" (").rstrip(b" )")
    if not digits or not digits.isdigit() or len(digits) > 5:
        return None
    if link != 0 and link <= origin + zero:
        return None  # a link must point past this line
    return BasicStub(number, int(digits), origin + zero)
