"""Finding the '.goto' loops that can be written as the target's loops.

The shape (manual p. 30, and how table loops are usually written)::

    120 i _ 0
    130 .byt i*3          <- the loop's first line (N)
    140 i _ i+1
    150 .if 8-i : .goto 130

A line holding exactly ``.if cond`` and ``.goto N`` with N a line number at or
above it; the lines N..(the .if line) - 1 hold only instructions, data,
``_`` assignments, macro calls and comments -- no labels, no constants, no other
``.if``/``.goto``/``.mac``/``*=``/``.file``/``.end``.  Pass 1's layout shows the
loop as rounds: the entries from line N down to the ``.if``, followed by the
``.goto`` while the condition holds.  :func:`find_loops` returns those runs of
rounds; the writer decides whether every round comes out as the same text
(then it is a target loop) or not (then it stays unrolled).
"""

from __future__ import annotations

from typing import NamedTuple

from asm6502.asm.lines import Line
from asm6502.asm.statements import Call, Data, Define, Insn, Pseudo


class Loop(NamedTuple):
    rounds: tuple[tuple[int, int], ...]  # per round: (its first layout entry, the index of its '.if' entry)
    end: int  # the entry after the last round's '.if'
    top: Line  # line N
    bottom: Line  # '.if ... : .goto N'


def loop_top(bottom, lines, decode) -> tuple[object, str | None]:
    """(the first line of the loop that ``bottom`` closes, None) when ``bottom`` is '.if c : .goto N'
    closing a loop of the shape; else (None, why not) -- why is None when it is no backward '.goto'."""
    stmts = [s for s in bottom.statements if s.text]
    recs = [decode(s.text) for s in stmts]
    at = next((k for k, rec in enumerate(recs) if type(rec) is Pseudo and rec.op == "got"), None)
    if at is None:
        return None, None
    goto = recs[at]
    if not goto.args.strip().isdigit():
        return None, "its line number is computed"
    number = int(goto.args.strip())
    top = next((line for line in lines if line.number == number), None)
    if top is None or top.index > bottom.index:
        return None, None  # (a forward .goto skips lines: no loop)
    first = recs[0]
    if len(stmts) != 2 or at != 1 or not (type(first) is Pseudo and first.op == "if" and first.label is None and first.args):
        return None, "the .goto is not alone with one .if on its line"
    for line in lines:
        if top.index <= line.index < bottom.index and line.has_code:
            for stmt in line.statements:
                why = _not_plain(decode(stmt.text)) if stmt.text else None
                if why:
                    return None, f"line {line.number} {why}"
    return top, None


def _not_plain(rec) -> str | None:
    """Why a statement cannot be in a target loop's body (None: it can)."""
    kind = type(rec)
    if kind is Insn or kind is Data or kind is Call:
        return f"defines the label '{rec.label}' (a label is defined once)" if rec.label is not None else None
    if kind is Define:
        return None if rec.var else f"defines the constant '{rec.name}'"
    if kind is Pseudo:
        return f"holds '.{rec.name}'" + (" (a loop inside a loop)" if rec.op in ("if", "got") else "")
    return f"holds '{type(rec).__name__.lower()}'"


def find_loops(entries, files: dict, decode) -> tuple[dict[int, Loop], dict[int, str]]:
    """The loops in pass 1's layout ``entries``, by the index of their first entry, and the
    backward '.goto' lines that are no loop of the shape, with the reason (by id of the line).
    ``files``: each file's lines (as in Writer.run)."""
    tops: dict[int, tuple] = {}  # id(bottom line) -> (its top line or None, why not)
    irregular: dict[int, str] = {}
    started: dict[tuple, int] = {}  # (file, index) of a line -> the entry where the pass last came onto that line
    rounds: dict[int, list] = {}  # id(bottom line) -> the rounds of the loop being run
    loops: dict[int, Loop] = {}
    previous = None
    for i, entry in enumerate(entries):
        if entry.local is not None:
            continue
        rec, line, stmt = entry.rec, entry.line, entry.stmt
        if line is not previous:
            started[(line.file, line.index)] = i
            previous = line
        if type(rec) is not Pseudo or rec.op not in ("if", "got"):
            continue
        key = id(line)
        if key not in tops:
            known = files.get(line.file)
            tops[key] = loop_top(line, known, decode) if known else (None, None)
        top, why = tops[key]
        if rec.op == "got":
            if why is not None:
                irregular[key] = why
            continue
        start = started.get((top.file, top.index)) if top is not None else None
        if start is None or stmt is not line.statements[0] or not _inside(entries, start, i, top, line):
            rounds.pop(key, None)
            continue
        run = rounds.setdefault(key, [])
        if run and run[-1][1] + 2 != start:  # (the round before ended with its '.goto' just before this one)
            run.clear()
        run.append((start, i))
        after = entries[i + 1] if i + 1 < len(entries) else None
        if after is not None and after.local is None and after.line is line and type(after.rec) is Pseudo and after.rec.op == "got":
            continue  # the condition held: another round
        if len(run) >= 2:
            loops[run[0][0]] = Loop(tuple(run), i + 1, top, line)
        rounds.pop(key)
    return loops, irregular


def _inside(entries, start: int, end: int, top, bottom) -> bool:
    """Entries start..end-1 are all on the loop's lines (or in macro calls made there)."""
    for entry in entries[start:end]:
        line = entry.line
        if entry.local is None and not (line.file == top.file and top.index <= line.index < bottom.index):
            return False
    return True
