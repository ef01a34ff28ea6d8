"""Fixes a user confirms: ``basic read --accept``.

``basic read`` repairs a line without asking only where the print shows the damage and one
reading is clearly ahead; every other line that does not verify is named with its ranked fixes.
The user, with the printed page at hand, decides: ``--accept 510`` takes line 510's first fix,
``--accept 350=2`` its second, ``--accept 2/540`` line 540 of the text's second listing,
``--accept all`` the first fix of every line that has one.  A line whose checksum field is
unreadable (``<m>``) is unchecked; naming it takes it as printed (``all`` does not: no checksum
says anything for it).  This is a stage after reading: the reports and diagnostics of
:func:`asm6502.typein.cslisting.read.read_listings` go in, the same with the confirmed lines taken
("accepted") come out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from asm6502.diagnostics import Diagnostic, error, warning
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.read import LineReport, ReadResult
from asm6502.typein.cslisting.text import line_body

STANDS_IN_THE_WAY = ("bad", "unchecked")


@dataclass(frozen=True)
class Choice:
    """Take fix *rank* (1 = the first offered) of line *number*, in listing *listing* (1-based;
    None: the listing that has the line standing in the way)."""

    number: int
    rank: int = 1
    listing: int | None = None

    def __str__(self) -> str:
        return f"{'' if self.listing is None else f'{self.listing}/'}{self.number}" + \
            ("" if self.rank == 1 else f"={self.rank}")


_CHOICE = re.compile(r"^(?:(?P<listing>\d+)/)?(?P<number>\d+)(?:=(?P<rank>\d+))?$")


def parse_choice(text: str) -> Choice | None:
    """``510``, ``350=2``, ``2/540``, ``2/350=3`` -> a Choice; ``all`` -> None.  ValueError
    with the accepted forms for anything else."""
    text = text.strip()
    if text.lower() == "all":
        return None
    m = _CHOICE.match(text)
    if m is None or (m.group("rank") is not None and int(m.group("rank")) < 1) or \
            (m.group("listing") is not None and int(m.group("listing")) < 1):
        raise ValueError(f"--accept {text!r}: give LINE, LINE=RANK, LISTING/LINE[=RANK] or all "
                         "(e.g. 510, 350=2, 2/540)")
    return Choice(int(m.group("number")), int(m.group("rank") or 1),
                  None if m.group("listing") is None else int(m.group("listing")))


def accept(results: Sequence[ReadResult], choices: Sequence[Choice], take_all: bool = False) -> list[ReadResult]:
    """*results* with the confirmed fixes taken: each chosen line (or, *take_all*, each bad line
    with a fix) becomes "accepted", its error replaced by a warning naming what was taken.  A
    choice that cannot be taken is an error of its own (a rank past the fixes offered, a line
    no listing has, an unqualified line standing in the way in two listings)."""
    out = [list(r.diagnostics) for r in results]
    lines = [list(r.lines) for r in results]
    for choice in choices:
        where = [i for i, r in enumerate(results) if choice.listing in (None, i + 1)
                 and any(x.number == choice.number for x in r.lines)]
        in_way = [i for i in where if any(x.number == choice.number and x.status in STANDS_IN_THE_WAY
                                          for x in results[i].lines)]
        target = 0 if not results else (where[0] if where else min(len(results), choice.listing or 1) - 1)
        if not where:
            out[target].append(error(f"--accept {choice}: no line {choice.number} in "
                                     f"{'the listing' if choice.listing is None else f'listing {choice.listing}'}"))
            continue
        if choice.listing is None and len(in_way) > 1:
            named = " and ".join(str(i + 1) for i in in_way)
            out[in_way[0]].append(error(f"--accept {choice}: line {choice.number} stands in the way in listings "
                                        f"{named}; name one (--accept {in_way[0] + 1}/{choice})"))
            continue
        if not in_way:
            status = next(x.status for x in results[where[0]].lines if x.number == choice.number)
            out[where[0]].append(warning(f"--accept {choice}: line {choice.number} is {status}; nothing to take"))
            continue
        i = in_way[0]
        k = next(j for j, x in enumerate(lines[i]) if x.number == choice.number and x.status in STANDS_IN_THE_WAY)
        _take(results[i], lines[i], k, choice.rank, out[i], str(choice))
    if take_all:
        for i, result in enumerate(results):
            for k, x in enumerate(lines[i]):
                if x.status == "bad" and x.fixed_texts:
                    _take(result, lines[i], k, 1, out[i], "all")
    return [replace(r, lines=tuple(lines[i]), diagnostics=tuple(sorted(out[i], key=_place)))
            for i, r in enumerate(results)]


def _place(d: Diagnostic) -> tuple[int, int]:
    return (d.span.line, d.span.col) if d.span else (0, 0)


def _take(result: ReadResult, lines: list[LineReport], k: int, rank: int, diags: list[Diagnostic], asked: str) -> None:
    """Line *k* of *lines* taken as fix *rank* (an unchecked line: as printed)."""
    r = lines[k]
    span = r.error.span if r.error is not None else None
    notes = r.error.notes[:1] if r.error is not None and r.error.notes and \
        r.error.notes[0].message.startswith(f"line {r.number} reads:") else ()
    if r.status == "unchecked":
        if rank != 1:
            diags.append(error(f"--accept {asked}: line {r.number} is unchecked, it has no fixes; "
                               f"--accept {r.number} takes it as printed", span))
            return
        what, text = "taken unchecked, as printed", r.text
    elif rank > len(r.fixed_texts):
        offered = f"only {len(r.fixed_texts)} fix{'es' if len(r.fixed_texts) != 1 else ''}" if r.fixed_texts \
            else "no fix"
        diags.append(error(f"--accept {asked}: line {r.number} has {offered} offered", span))
        return
    else:
        text = r.fixed_texts[rank - 1]
        what = f"fix {rank} taken: {r.fixes[rank - 1]}"
    body = line_body(text, result.upper)
    computed = None if body is None else line_checksum(r.number, body, ChecksumOptions(result.version))
    if r.error is not None and r.error in diags:
        diags.remove(r.error)
    diags.append(warning(f"line {r.number} as confirmed (--accept {asked}): {what}", span, *notes))
    lines[k] = replace(r, status="accepted", text=text, body=body, computed=computed,
                       checksum=r.checksum if r.checksum is not None else computed, repair=what, error=None)


__all__ = ["Choice", "accept", "parse_choice"]
