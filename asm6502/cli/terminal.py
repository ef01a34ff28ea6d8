"""A line-at-a-time session on the terminal (the typing modes, the review): where it prints,
and the lines the user types.

Standard input may be a terminal or a key stream (a file, a pipe); end of input ends the
session, Ctrl-C says how to end it and goes on (a typed line is never lost to it).
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable, Iterator
from typing import TextIO


def session_out() -> TextIO:
    """Standard output, where a session shows its lines; started with it closed (``>&-``) the
    session could show nothing: an error before any key is read."""
    out = sys.stdout
    if out is None:
        raise OSError(errno.EBADF, "standard output is closed", "<stdout>")
    return out


def typed_lines(prompt: Callable[[], str], out: TextIO, on_interrupt: str, echo: bool = False) -> Iterator[str]:
    """Each line typed after ``prompt()``, until end of input (then a new line ends the prompt's);
    Ctrl-C prints *on_interrupt* and asks again.  *echo*: the line is printed after the prompt,
    as a terminal shows it (for keys from a file or a pipe)."""
    while True:
        try:
            typed = input(prompt())
        except EOFError:
            print(file=out)
            return
        except KeyboardInterrupt:
            print(f"\n({on_interrupt})", file=out)
            continue
        if echo:
            print(typed, file=out)
        yield typed
