"""How a run ends early: END/NEW/LIST, the input script running out, limits."""

from __future__ import annotations


class RunEnd(Exception):
    """The program stops; ``reason`` is "end", "input", "limit" or "unsupported"."""

    def __init__(self, reason: str, message: str = ""):
        super().__init__(message)
        self.reason = reason
        self.message = message


class StopRun(Exception):
    """STOP (or the RUN/STOP key): the ROM prints BREAK IN <line>."""
