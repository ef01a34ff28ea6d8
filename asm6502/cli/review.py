"""The terminal loop of the review session (``basic read --review``, ``mse read --review``).

The session (:mod:`asm6502.typein.review`) decides; this loop shows its lines, reads one line of
input at a time (a key and Enter, or a retyped line; a key stream on standard input works as
well as a terminal) and saves the decisions after every one of them, through the gate
(fileio.Files), in the state file next to the output: ``PROGRAM.review.txt``.  The same command
resumes from it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from asm6502.cli.terminal import session_out, typed_lines
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import Files
from asm6502.typein.review import HELP, Decision, Item, ReviewSession, parse_state, state_text


def state_path(output: str) -> str:
    """The state file of a review writing *output*: next to it, ``NAME.review.txt``."""
    return str(Path(output).with_suffix(".review.txt"))


def need_output(output: str | None) -> None:
    if not output:
        raise DiagnosticError([error("--review needs -o PRG (the decisions are saved next to it, to resume)")])
    if output == "-":
        raise DiagnosticError([error("--review shows the session on standard output: give -o a file, not '-'")])


def _load(path: str) -> list[Decision]:
    if not Path(path).exists():
        return []
    text = Files().text(path, what="review state")  # (its own gate: the command writes this file too)
    try:
        return parse_state(text)
    except ValueError as exc:
        raise DiagnosticError([error(f"{path}: {exc}; give another -o, or remove the file to start "
                                     "the review again")]) from None


def run(items: Sequence[Item], checker, path: str, files: Files) -> dict[str, Decision]:
    """Walk *items* with the user; the decisions taken (saved in *path* after each one)."""
    out = session_out()
    files.fresh().add(path, "", "review state")  # (before any key: the state file can be written, is no input)
    saved = _load(path)
    session, said = ReviewSession.start(items, checker.check, checker.retype, saved)
    for line in said:
        print(line, file=out)
    if not session.items:
        print("review: no line stands in the way", file=out)
        return {}
    print(f"review: {len(session.items)} line(s) still bad after the automatic repairs, {len(session.undecided())} to "
          f"decide, likeliest first; {HELP}", file=out)
    for line in session.show():
        print(line, file=out)
    last = session.saved()
    echo = not sys.stdin.isatty()  # keys from a file or a pipe: shown after the prompt, as a terminal shows them
    typed_all = typed_lines(session.prompt, out, "interrupted: q ends; the decisions are saved", echo)
    while session.current() is not None and not session.done:
        typed = next(typed_all, None)
        if typed is None:
            break
        for line in session.feed(typed):
            print(line, file=out)
        now = session.saved()
        if now != last:  # every decision saved at once
            plan = files.fresh()
            plan.add(path, state_text(now), "review state")
            plan.commit()
            last = now
        out.flush()
    print(f"review: {session.summary()}; decisions saved in {path}" if Path(path).exists()
          else f"review: {session.summary()}", file=out)
    return dict(session.decisions)


def count(decisions: dict[str, Decision], prefix: str = "") -> tuple[int, int]:
    """(fixes taken, lines retyped) among the decisions whose key starts with *prefix*."""
    mine = [d for k, d in decisions.items() if k.startswith(prefix)]
    fixes = sum(d.kind == "fix" for d in mine)
    return fixes, len(mine) - fixes


__all__ = ["count", "need_output", "run", "state_path"]
