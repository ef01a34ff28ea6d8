"""Keystrokes for INPUT and GET: scripted text or a terminal.

Typed text maps to the keys a C64 user types (``asm6502.petscii.typed_code``:
letters of either case are the unshifted letters $41-$5A, ``£``/``\\`` the pound key, ...),
newline to RETURN ($0D).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from asm6502.petscii import CR, typed_code


def ascii_to_petscii(ch: str) -> int:
    """The key for one typed character: newline is RETURN, a character with no C64 key reads as '?'."""
    if ch == "\n":
        return CR
    code = typed_code(ch)
    return 0x3F if code is None else code


class Keyboard:
    """Lines and single keys from ``text`` (a script) and then ``stream``."""

    def __init__(self, text: str = "", stream: TextIO | None = None, *, echo: bool = True,
                 poll_key: Callable[[], str | None] | None = None):
        self.pending = text
        self.stream = stream
        self.poll_key = poll_key  # a terminal's "key pressed right now?" for GET
        self.echo = echo  # the screen should show typed text (False for a real terminal)
        self.exhausted = False

    def _fill(self) -> bool:
        if self.stream is None:
            return False
        chunk = self.stream.readline()
        if not chunk:
            self.stream = None
            return False
        self.pending += chunk
        return True

    def read_line(self) -> bytes | None:
        """One typed line without its RETURN, or None when nothing is left."""
        while "\n" not in self.pending:
            if not self._fill():
                break
        if not self.pending:
            self.exhausted = True
            return None
        line, _, rest = self.pending.partition("\n")
        self.pending = rest
        # the screen editor returns the line up to its last non-blank ($E632)
        return bytes(ascii_to_petscii(c) for c in line.rstrip("\r").rstrip(" "))

    def get_key(self) -> int | None:
        """One key for GET, or None (no key pressed and nothing left to type)."""
        if not self.pending and self.poll_key is not None:
            ch = self.poll_key()
            return None if ch is None else ascii_to_petscii("\n" if ch == "\r" else ch)
        if not self.pending and not self._fill():
            self.exhausted = True
            return None
        ch, self.pending = self.pending[0], self.pending[1:]
        if ch == "\r":
            return self.get_key()
        return ascii_to_petscii(ch)
