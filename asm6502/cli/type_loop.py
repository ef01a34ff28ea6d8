"""The terminal loop of the typing modes (``basic type``, ``mse type``): prompt, one line, answer.

The session (:mod:`asm6502.typein`) decides; this loop only reads lines, prints answers and
saves the session's file (through the gate, fileio.Files) on ``.save``, ``.quit`` and end of input.

The file may be changed by another program while the session runs (an editor, a second session):
as an editor does, the loop notices it at the next save -- the file is no longer the one it read or
wrote last -- and then neither overwrites nor drops the other writer's lines: the session is saved
beside it, as ``FILE.1`` (the first free number), says so, and goes on saving there.
"""

from __future__ import annotations

from collections.abc import Callable

from asm6502.cli.terminal import session_out, typed_lines
from asm6502.fileio import Files, file_stamp, free_name

QUIT = (".quit", ".q", ".exit")


class SessionFile:
    """The session's file: where it is saved, and what it was when last read or written (its
    ``fileio.file_stamp``) -- to tell whether someone else changed it since."""

    def __init__(self, path: str, files: Files | None = None):
        self.path = path
        self.files = files if files is not None else Files()
        self.stamp = file_stamp(path)

    def load(self) -> str:
        if self.stamp is None:
            return ""
        text = self.files.text(self.path, what="typed listing", binary_check=False)
        self.stamp = file_stamp(self.path)
        return text

    def save(self, text: str, program: tuple[str, bytes] | None = None) -> list[str]:
        """Write the session (and the program); the messages to show."""
        said = []
        if file_stamp(self.path) != self.stamp:
            aside = free_name(self.path)
            said.append(f"{self.path} was changed by another program since this session read it; it was left "
                        f"as it is and the session is saved as {aside} (compare the two and merge them)")
            self.path = aside
        plan = Files()
        plan.add(self.path, text, "typed listing")
        if program is not None:
            plan.add(program[0], program[1], "program")
        plan.commit()
        self.stamp = file_stamp(self.path)
        return said + [f"saved {self.path}"]


def preflight(path: str, program: str | None) -> None:
    """Before any typing: the session's file and the program may be written (a directory that
    does not exist, the same name twice, a write-protected file are errors now, not at the end)."""
    plan = Files()
    plan.add(path, "", "typed listing")
    if program:
        plan.add(program, b"", "program")


def run(session, file: SessionFile, program: Callable[[], tuple[str, bytes] | None], messages: list[str]) -> int:
    """Read typed lines until .quit or end of input; save on the way out."""
    out = session_out()
    for m in messages:
        print(m, file=out)
    print("type .help for help; .quit saves and ends", file=out)
    try:
        import readline  # noqa: F401  (line editing and history where the platform has it)
    except ImportError:
        pass
    for typed in typed_lines(session.prompt, out, "interrupted: .quit saves and ends"):
        cmd = typed.strip().lower()
        if cmd in QUIT:
            break
        if cmd == ".save":
            for line in file.save(session.listing()):
                print(line, file=out)
            session.dirty = False
            continue
        for line in session.feed(typed):
            print(line, file=out)
        out.flush()
    if session.dirty or file.stamp is None:
        for line in file.save(session.listing(), program()):
            print(line, file=out)
    return 0
