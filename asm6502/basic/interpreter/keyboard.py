"""Keystrokes for INPUT and GET: scripted text or a terminal.

Typed ASCII maps to what a C64 user types in the default character set:
letters (either case) to unshifted PETSCII $41-$5A, ``\\`` to pound, ``^`` to
up-arrow, ``_`` to left-arrow, newline to RETURN ($0D).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO


def ascii_to_petscii(ch: str) -> int:
    o = ord(ch)
    if ch == "\n":
        return 0x0D
    if "a" <= ch <= "z":
        return o - 0x20
    if ch == "\\":
        return 0x5C
    if ch == "^":
        return 0x5E
    if ch == "_":
        return 0x5F
    if ch == "~":
        return 0xFF
    return o if o < 0x100 else 0x3F


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
