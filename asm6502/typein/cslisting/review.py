"""The Checksummer side of the review session (``basic read --review``).

The lines that stand in the way after :func:`asm6502.typein.cslisting.read.read_listings` (and any
``--accept``) become :class:`asm6502.typein.review.Item` s: the OCR line with its printed checksum,
its ranked fixes.  A decision keeps a line's text with the checksum it verifies against
(``TEXT <NNN>``): a fix offered, or the line retyped as printed (the listing's own style: a listing
in capitals is typed in capitals), checked as ``basic type`` checks it.  :func:`apply` makes the
decided lines "accepted" in the results, each one verified again by its checksum.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from asm6502.diagnostics import warning
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import quote_flags
from asm6502.typein.cslisting.layout import CHECKSUM_AT_END, NUMBERED, read_checksum, read_number
from asm6502.typein.cslisting.rank import Tried, rank_fixes
from asm6502.typein.cslisting.read import LineReport, Lost, ReadResult
from asm6502.typein.cslisting.text import line_body
from asm6502.typein.cslisting.verdict import describe
from asm6502.typein.review import Decision, Fix, Item

IN_THE_WAY = ("bad", "unchecked")


def key_of(listing: int, number: int, several: bool) -> str:
    return f"{listing}/{number}" if several else str(number)


def _field(value: int | None) -> str:
    return "<???>" if value is None else f"<{value:03d}>"


def lost_key(listing: int, lost: Lost, several: bool) -> str:
    key = f"after {lost.after}" + (f" ({lost.nth})" if lost.nth > 1 else "")
    return f"{listing}/{key}" if several else key


def _between(lost: Lost) -> str:
    return f"after line {lost.after}" + (f", before line {lost.following}" if lost.following is not None else "")


def items(results: Sequence[ReadResult]) -> list[Item]:
    """Every line standing in the way, in every listing read: the lines still bad or unchecked,
    and the lines whose number OCR garbled (typed whole: number, text, checksum)."""
    out = []
    several = len(results) > 1
    for k, result in enumerate(results, start=1):
        for lost in result.lost:
            offered = lost_fixes(result, lost)
            out.append(Item(lost_key(k, lost, several), f"text line {lost.line}",
                            f"a line {_between(lost)} whose number OCR could not read: take a number its place "
                            "leaves, or type it whole, with its number and <NNN>", lost.text,
                            tuple(fix for _, fix in offered), offered[0][0] if offered else math.inf))
        for r in result.lines:
            if r.status not in IN_THE_WAY:
                continue
            fixes = []
            for j, text in enumerate(r.fixed_texts):
                value = r.fix_checksums[j] if j < len(r.fix_checksums) and r.fix_checksums[j] is not None \
                    else r.checksum
                fixes.append(Fix(f"{r.number} {text} {_field(value)}", f"{text} {_field(value)}", r.fixes[j]))
            problem = r.error.message if r.error is not None else r.status
            out.append(Item(key_of(k, r.number, several), f"text line {r.line}", problem,
                            f"{r.number} {r.printed} {_field(r.checksum)}", tuple(fixes),
                            r.fix_costs[0] if r.fix_costs else math.inf, r.fix_kinds[0] if r.fix_kinds else ""))
    return out


MAX_LOST_NUMBERS = 12  # numbers a lost line's place leaves that are offered, nearest to the line before first
LOST_RANKED = 6  # of them, the ones whose fixes of the text are ranked too
LOST_TEXTS = 300  # texts read to rank one number's fixes
LOST_PLACE_COST = 0.1  # each free number further from the line before


def lost_fixes(result: ReadResult, lost: Lost) -> list[tuple[float, Fix]]:
    """A lost line's readings, likeliest first (cost, fix): each number its place leaves (after
    the line before, before the next one, on the listing's grid of tens where it has one) with the
    text as printed where that gives the printed checksum, else the text's best fixes for it.  The
    checksum cannot tell the numbers apart where several fit: the person with the page decides."""
    if lost.checksum is None or lost.checksum > 255:
        return []
    used = {r.number for r in result.lines}
    numbers = sorted(used)
    step = 10 if numbers and sum(n % 10 == 0 for n in numbers) >= 0.8 * len(numbers) else 1
    end = lost.following if lost.following is not None else lost.after + 100 * step
    first = lost.after + step - lost.after % step if step > 1 else lost.after + 1
    free = [n for n in range(first, end, step) if n not in used][:MAX_LOST_NUMBERS]
    options = ChecksumOptions(result.version)
    out: list[tuple[float, Fix]] = []
    field = f"<{lost.checksum:03d}>"
    for place, n in enumerate(free):
        body = line_body(lost.text, result.upper)
        where = LOST_PLACE_COST * place
        if body is not None and line_checksum(n, body, options) == lost.checksum:
            out.append((where, Fix(f"{n} {lost.text} {field}", f"{n} {lost.text} {field}",
                                   f"line {n}: as printed, its checksum fits")))
        elif place < LOST_RANKED:
            for fix in rank_fixes(n, lost.text, lost.checksum, result.upper, options, limit=2,
                                  tried=Tried(budget=LOST_TEXTS)):
                if fix.checksum is None:
                    out.append((fix.cost + where, Fix(f"{n} {fix.text} {field}", f"{n} {fix.text} {field}",
                                                      f"line {n}: {describe(lost.text, fix, lost.checksum)}")))
    return sorted(out, key=lambda cf: cf[0])


class Checker:
    """Checks a line's text for the review (a decision read back, a fix, a retyped line)."""

    def __init__(self, results: Sequence[ReadResult]):
        self.results = list(results)
        several = len(results) > 1
        self.lines: dict[str, tuple[ReadResult, LineReport]] = {
            key_of(k, r.number, several): (result, r)
            for k, result in enumerate(results, start=1) for r in result.lines if r.status in IN_THE_WAY}
        self.lost: dict[str, tuple[ReadResult, Lost]] = {
            lost_key(k, lost, several): (result, lost) for k, result in enumerate(results, start=1) for lost in result.lost}

    def check_lost(self, key: str, text: str) -> tuple[tuple[int, str, int] | None, str]:
        """A lost line typed whole: (its number, text, checksum) when it fits where it stands and verifies."""
        result, lost = self.lost[key]
        t = text.strip()
        end = CHECKSUM_AT_END.search(t)
        m = NUMBERED.match(t[: end.start()] if end else t)
        if m is None or not m.group("n").isdigit():
            return None, f"type the line {_between(lost)} whole: its number, the line and its <NNN>"
        number = int(m.group("n"))
        if not (lost.after < number and (lost.following is None or number < lost.following)) or \
                any(r.number == number for r in result.lines):
            return None, f"line {number} does not stand {_between(lost)}"
        if end is None:
            return None, f"line {number}: type the <NNN> the page shows after it"
        value = read_checksum(end).value
        body = line_body(m.group("rest").strip(), result.upper)
        if body is None:
            return None, f"line {number} has an unknown control-code name or character"
        computed = line_checksum(number, body, ChecksumOptions(result.version))
        if computed != value:
            return None, f"line {number} gives <{computed:03d}>, the checksum is <{value:03d}>"
        return (number, m.group("rest").strip(), value), f"ok: line {number} <{value:03d}>"

    def check(self, item: Item, text: str) -> tuple[str | None, str]:
        """*text* (``TEXT`` or ``TEXT <NNN>``) kept when it verifies: the text with its checksum."""
        if item.key in self.lost:
            taken, answer = self.check_lost(item.key, text)
            return (None, answer) if taken is None else (f"{taken[0]} {taken[1]} <{taken[2]:03d}>", answer)
        result, r = self.lines[item.key]
        end = CHECKSUM_AT_END.search(text)
        value = read_checksum(end).value if end else r.checksum
        body_text = (text[: end.start()] if end else text).strip()
        if value is None:
            return None, (f"line {r.number} has no readable checksum in the print: type it with the <NNN> "
                          "the page shows")
        body = line_body(body_text, result.upper)
        if body is None:
            return None, f"line {r.number} has an unknown control-code name or character"
        computed = line_checksum(r.number, body, ChecksumOptions(result.version))
        if computed != value:
            literal = _brackets_as_characters(body_text)
            body = line_body(literal, result.upper) if literal != body_text else None
            if body is not None and line_checksum(r.number, body, ChecksumOptions(result.version)) == value:
                return (f"{literal} <{value:03d}>",
                        f"ok: line {r.number} <{value:03d}> (its '<...>' in quotes are the characters, not a key's name)")
            return None, f"line {r.number} gives <{computed:03d}>, the checksum is <{value:03d}>"
        return f"{body_text} <{value:03d}>", f"ok: line {r.number} <{value:03d}>"

    def retype(self, item: Item, typed: str) -> tuple[str | None, list[str]]:
        """A line typed as printed (its number and ``<NNN>`` optional), checked at once."""
        if item.key in self.lost:
            kept, answer = self.check(item, typed)
            return (kept, [answer]) if kept is not None else (None, [f"refused: {answer}"])
        result, r = self.lines[item.key]
        t = typed.strip()
        end = CHECKSUM_AT_END.search(t)
        head = t[: end.start()] if end else t
        m = NUMBERED.match(head)
        if m is not None and m.group("n").isdigit():
            if read_number(m.group("n")) != r.number:
                return None, [f"refused: this is line {r.number}, not line {m.group('n')}"]
            head = m.group("rest")
        text = head.strip() + (" " + end.group(0).strip() if end else "")
        kept, answer = self.check(item, text)
        if kept is not None:
            return kept, [answer]
        said = [f"refused: {answer}"]
        value = read_checksum(end).value if end else r.checksum
        if value is not None and value <= 255 and line_body(head.strip(), result.upper) is not None:
            fixes = rank_fixes(r.number, head.strip(), value, result.upper, ChecksumOptions(result.version), limit=3)
            said += [f"  most likely: {describe(head.strip(), f, value)}" for f in fixes[:1]]
        return None, said


def _brackets_as_characters(text: str) -> str:
    """*text* with each '<' and '>' inside quotes written as the character itself ({$3c}, {$3e}):
    a line that prints '<RETURN>' as text ('PRINT"<RETURN> DRUECKEN"', 64'er 4/86) is typed so,
    and only its checksum tells it from the key's control code."""
    quoted = quote_flags(text)
    return "".join({"<": "{$3c}", ">": "{$3e}"}.get(c, c) if quoted[k] else c for k, c in enumerate(text))


def apply(results: Sequence[ReadResult], decisions: Mapping[str, Decision]) -> list[ReadResult]:
    """*results* with the decided lines taken ("accepted"), each verified by its checksum again;
    a decision that does not verify is not taken."""
    checker = Checker(results)
    several = len(results) > 1
    out = []
    for k, result in enumerate(results, start=1):
        lines = list(result.lines)
        diags = list(result.diagnostics)
        for i, r in enumerate(lines):
            key = key_of(k, r.number, several)
            decision = decisions.get(key)
            if decision is None or r.status not in IN_THE_WAY:
                continue
            item = Item(key, "", "", "", ())
            kept, _ = checker.check(item, decision.text)
            if kept is None:
                continue
            end = CHECKSUM_AT_END.search(kept)
            assert end is not None
            text, value = kept[: end.start()].strip(), read_checksum(end).value
            body = line_body(text, result.upper)
            what = "retyped" if decision.kind == "typed" else "a fix taken"
            span = r.error.span if r.error is not None else None
            if r.error is not None and r.error in diags:
                diags.remove(r.error)
            diags.append(warning(f"line {r.number} as decided in the review ({what}): {r.number} {text} "
                                 f"<{value:03d}>", span))
            lines[i] = replace(r, status="accepted", text=text, body=body, computed=value, checksum=value,
                               repair=f"{what} in the review", error=None)
        still_lost = []
        for lost in result.lost:
            key = lost_key(k, lost, several)
            decision = decisions.get(key)
            taken = checker.check_lost(key, decision.text)[0] if decision is not None else None
            if taken is None:
                still_lost.append(lost)
                continue
            number, text, value = taken
            if lost.error in diags:
                diags.remove(lost.error)
            diags.append(warning(f"line {number} as decided in the review (typed whole): {number} {text} "
                                 f"<{value:03d}>", lost.error.span))
            at = next((i + 1 for i in range(len(lines) - 1, -1, -1) if lines[i].number == lost.after), len(lines))
            lines.insert(at, LineReport(number, lost.line, "accepted", lost.text, text, value, value,
                                        line_body(text, result.upper), "typed whole in the review"))
        diags.sort(key=lambda d: (d.span.line, d.span.col) if d.span else (0, 0))
        out.append(replace(result, lines=tuple(lines), diagnostics=tuple(diags), lost=tuple(still_lost)))
    return out


__all__ = ["Checker", "apply", "items", "key_of"]
