"""A BASIC start line such as ``10 SYS 2064`` in front of machine code.

A tokenized BASIC line (C64 BASIC V2, as stored from $0801): 2-byte link to
the next line, 2-byte line number, the tokens, a 0 byte.  SYS is token $9E
(C64 Programmer's Reference Guide, appendix: BASIC tokens); the ROM's SYS
reads the address with FRMNUM, so blanks and a '(' may come before the digits.
"""

from __future__ import annotations

from asm6502.tuples import named_tuple

SYS_TOKEN = 0x9E


@named_tuple  # (not typing.NamedTuple: importing typing costs the disasm command 12 M instructions)
class BasicStub:
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


REM_TOKEN = 0x8F
QUOTE = 0x22


def find_sys(memory: bytes, origin: int = 0x0801) -> tuple[int, int] | None:
    """(line number, address) of the first ``SYS address`` with a constant address in a BASIC
    program's lines (outside strings, before any REM), or None.  Lines: a 2-byte link (high byte
    0 ends the program, LINKPRG $A53C), a 2-byte line number, the tokens, a 0 byte; a link that
    does not point past its own line ends the search (machine code, not BASIC lines)."""
    off = 0
    while off + 4 <= len(memory) and memory[off + 1] != 0:
        number = memory[off + 2] | memory[off + 3] << 8
        end = memory.find(0, off + 4)
        if end < 0 or (memory[off] | memory[off + 1] << 8) <= origin + end:
            return None
        body = memory[off + 4 : end]
        quoted = False
        for i, b in enumerate(body):
            if b == QUOTE:
                quoted = not quoted
            elif quoted:
                continue
            elif b == REM_TOKEN:
                break
            elif b == SYS_TOKEN:
                digits = body[i + 1 :].lstrip(b" (")
                count = len(digits) - len(digits.lstrip(b"0123456789"))
                if 0 < count <= 5 and int(digits[:count]) <= 0xFFFF:
                    return number, int(digits[:count])
        off = end + 1
    return None
