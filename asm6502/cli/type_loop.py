"""The terminal loop of the typing modes (``basic type``, ``mse type``): prompt, one line, answer.

The session (:mod:`asm6502.typein`) decides; this loop only reads lines, prints answers and
saves the session's file (through the gate, fileio.Files) on ``.save``, ``.quit`` and end of input.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from asm6502.fileio import Files, read_text

QUIT = (".quit", ".q", ".exit")


def load(path: str) -> str:
    return read_text(path, what="typed listing") if Path(path).exists() else ""


def preflight(path: str, program: str | None) -> None:
    """Before any typing: the session's file and the program may be written (a directory that
    does not exist, the same name twice, a write-protected file are errors now, not at the end)."""
    plan = Files()
    plan.add(path, "", "typed listing")
    if program:
        plan.add(program, b"", "program")


def save(path: str, text: str, program: tuple[str, bytes] | None = None) -> None:
    plan = Files()
    plan.add(path, text, "typed listing")
    if program is not None:
        plan.add(program[0], program[1], "program")
    plan.commit()


def run(session, path: str, program: Callable[[], tuple[str, bytes] | None], messages: list[str]) -> int:
    """Read typed lines until .quit or end of input; save on the way out."""
    out = sys.stdout
    for m in messages:
        print(m, file=out)
    print("type .help for help; .quit saves and ends", file=out)
    try:
        import readline  # noqa: F401  (line editing and history where the platform has it)
    except ImportError:
        pass
    while True:
        try:
            typed = input(session.prompt())
        except EOFError:
            print(file=out)
            break
        except KeyboardInterrupt:
            print("\n(interrupted: .quit saves and ends)", file=out)
            continue
        cmd = typed.strip().lower()
        if cmd in QUIT:
            break
        if cmd == ".save":
            save(path, session.listing())
            session.dirty = False
            print(f"saved {path}", file=out)
            continue
        for line in session.feed(typed):
            print(line, file=out)
        out.flush()
    if session.dirty or not Path(path).exists():
        save(path, session.listing(), program())
        print(f"saved {path}", file=out)
    return 0
