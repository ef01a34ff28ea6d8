"""Typing an MSE V1.0 listing like the MSE: the next address is shown, one line is taken.

The typist enters the 8 data bytes and the checksum of the line for the address shown
(``a9 00 8d 20 d0 ...  4c``, blanks optional); a line whose checksum does not match is
refused at once with the most likely fix (a single hex digit changed, OCR/typing confusions
first, as :func:`asm6502.typein.mselisting.char_cost` ranks them).  ``.back`` goes back one line.  The
session's file is an MSE listing (``mse write`` format), so a partly typed file resumes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from asm6502.typein.mselisting import char_cost, checksum_v1, format_line, read_listing, write_listing

HEX = "0123456789ABCDEF"
HELP = ("type the 8 bytes and the checksum of the line shown (a9 00 8d 20 d0 a9 01 8d 42); "
        ".back goes back one line, .list shows the lines, .save saves, .quit saves and ends")


@dataclass
class MseSession:
    start: int
    end: int | None = None  # exclusive; None: open-ended
    name: str = ""
    rows: list[bytes] = field(default_factory=list)  # 8 bytes each (the last may be short)
    dirty: bool = False

    @classmethod
    def resume(cls, text: str, start: int | None, end: int | None, name: str) -> tuple[MseSession, list[str]]:
        if not text.strip():
            if start is None:
                raise ValueError("a new MSE listing needs --start")
            return cls(start, end, name), []
        result = read_listing(text, "<file>", version="1.0")
        if not result.report:
            raise ValueError("not an MSE V1.0 listing; give a new file to type into")
        session = cls(result.start if start is None else start, end if end is not None else result.end,
                      name or (result.name or ""))
        for r in result.report:
            if r.status == "bad" or r.address != session.next_address:
                break
            session.rows.append(bytes(r.data))
        if len(session.rows) < len(result.report):
            # typing on would drop the lines after the first bad one when saving: refuse instead
            follow = len(result.report) - len(session.rows) - 1
            raise ValueError(f"the line for ${session.next_address:04X} does not verify and {follow} line(s) "
                             "follow it; correct it first ('asm6502 mse read FILE' names the fix)")
        return session, []

    @property
    def next_address(self) -> int:
        return self.start + 8 * len(self.rows)

    @property
    def done(self) -> bool:
        return self.end is not None and self.next_address >= self.end

    def prompt(self) -> str:
        return f"{self.next_address:04X} : "

    def feed(self, typed: str) -> list[str]:
        cmd = typed.strip().lower()
        if not cmd:
            return [HELP]
        if cmd in (".back", "-"):
            if not self.rows:
                return ["nothing to take back"]
            row = self.rows.pop()
            self.dirty = True
            return ["taken back: " + format_line(self.next_address, row)]
        if cmd == ".list":
            return [format_line(self.start + 8 * k, row) for k, row in enumerate(self.rows)] or ["(no lines)"]
        if cmd in (".help", "?"):
            return [HELP]
        if self.done:
            return [f"the listing is complete (end ${self.end:04X}); .quit saves"]
        digits = re.sub(r"[\s:]", "", typed).upper()
        if any(c not in HEX for c in digits):
            return ["refused: only hex digits (and blanks) in a line"]
        want = 8 if self.end is None else min(8, self.end - self.next_address)
        if len(digits) == 2 * want + 6 and digits[:4] == f"{self.next_address:04X}":
            digits = digits[4:]  # the line typed with its address, as printed
        if len(digits) != 2 * want + 2:
            return [f"refused: {want} bytes and the checksum are {2 * want + 2} hex digits, not {len(digits)}"]
        data, printed = bytes.fromhex(digits[:-2]), int(digits[-2:], 16)
        address = self.next_address
        computed = checksum_v1(address, data)
        if computed != printed:
            answer = [f"refused: the line for ${address:04X} gives {computed:02X}, the checksum typed is {printed:02X}"]
            fix = best_fix(address, digits)
            if fix:
                answer.append("  most likely: " + fix)
            return answer
        self.rows.append(data)
        self.dirty = True
        return ["ok" + (f"; the listing is complete (end ${self.end:04X})" if self.done else "")]

    def listing(self) -> str:
        data = b"".join(self.rows)
        if not data:
            return ""
        return write_listing(self.start, data, name=self.name, end=max(self.start + len(data), self.end or 0)
                             if self.done else None)

    @property
    def prg(self) -> bytes:
        return self.start.to_bytes(2, "little") + b"".join(self.rows)


def best_fix(address: int, digits: str) -> str | None:
    """The most likely single hex digit change that makes the line verify."""
    best = None
    for k, old in enumerate(digits):
        for new in HEX:
            if new == old:
                continue
            cand = digits[:k] + new + digits[k + 1 :]
            if checksum_v1(address, bytes.fromhex(cand[:-2])) == int(cand[-2:], 16):
                cost = char_cost(old, new)
                if best is None or cost < best[0]:
                    best = (cost, k, old, new, cand)
    if best is None:
        return None
    _, k, old, new, cand = best
    byte = k // 2
    if k >= len(digits) - 2:
        return f"checksum {cand[-2:]} instead of {digits[-2:]}"
    return f"byte at ${address + byte:04X}: {cand[2 * byte:2 * byte + 2]} instead of {digits[2 * byte:2 * byte + 2]}"
