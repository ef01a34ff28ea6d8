"""The review session: the lines still bad after the automatic repairs, one decision each.

``basic read --review`` and ``mse read --review`` hand the lines that stand in the way to a
:class:`ReviewSession`, likeliest first (the line whose best fix costs least comes first; a line
with no fix, to be typed from the print, last).  For each line it shows the OCR line and the
ranked fixes with their differences marked (``^`` under every character a fix changes), and takes
one key: ``1``-``9`` accepts that fix, ``t`` retypes the line (checked as typed, as ``basic type``
and ``mse type`` check it), ``s`` skips it, ``b`` takes the last decision back, ``q`` ends.  A line
whose first fix is of a kind other open lines' first fixes share (a graphics character solved in
quotes, O read as 0: :attr:`Item.kind`) names them, and ``a`` takes the first fix of all of them as
one decision -- ``a -KEY,KEY`` leaves out the lines the page shows otherwise (each decided later).

The session knows nothing of a format: each line is a :class:`Item` and the format's side
(:mod:`asm6502.typein.cslisting.review`, :mod:`asm6502.typein.mselisting.review`) checks a text
(:data:`Check`).  Every decision is a :class:`Decision`, and the decisions are a small text file
(:func:`state_text`, :func:`parse_state`): saved after every decision, read back to resume, each
decision checked again by its checksum when it is read back.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

MAX_KEYS = 9  # fixes offered a key each: 1-9
MAX_TYPED = 1000  # characters of one retyped line (as basic type)
STATE_HEAD = "# asm6502 review: one decision a line (line, fix / typed / skip, the text taken)"

HELP = ("keys: 1-9 take that fix, t retype the line (checked as typed), s skip it, b take the last decision "
        "back, q end (the decisions are saved; the same command resumes); a takes the first fix of every open "
        "line of its kind, a -KEY,KEY all but those lines")


@dataclass(frozen=True)
class Fix:
    """One reading offered for a line: *shown* the line as it would be taken (for the eye),
    *text* what a decision keeps (the format's own form), *why* what it changes."""

    shown: str
    text: str
    why: str


@dataclass(frozen=True)
class Item:
    """A line that stands in the way: *key* names it in the state file (``1/510``,
    ``1/$C000``), *where* in the input, *problem* what is wrong, *shown* the line as read."""

    key: str
    where: str
    problem: str
    shown: str
    fixes: tuple[Fix, ...]
    likelihood: float = 0.0  # the best fix's cost (lower: likelier); no fix: infinity
    kind: str = ""  # the kind of change the first fix makes ("": none to share with other lines)


@dataclass(frozen=True)
class Decision:
    key: str
    kind: str  # "fix", "typed" or "skip"
    text: str = ""


# (item, text) -> (the text to keep, or None when refused; the answer to show)
Check = Callable[[Item, str], tuple[str | None, str]]
# (item, a typed line) -> (the text to keep, or None when refused; the answer to show)
Retype = Callable[[Item, str], tuple[str | None, list[str]]]


def mark_differences(old: str, new: str) -> str:
    """A line under *new* with ``^`` under every character that is not in *old* (and under the
    place where *old* had characters *new* lost)."""
    marks = [" "] * (len(new) + 1)
    for op, _, _, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op in ("replace", "insert"):
            for j in range(j1, j2):
                marks[j] = "^"
        elif op == "delete":
            marks[min(j1, len(new))] = "^"
    return "".join(marks).rstrip()


def order(items: Sequence[Item]) -> list[Item]:
    """Likeliest first: the cheapest best fix first; lines without a fix last; then as read."""
    return [it for _, it in sorted(enumerate(items), key=lambda p: (not p[1].fixes, p[1].likelihood, p[0]))]


def state_text(decisions: Sequence[Decision]) -> str:
    rows = [STATE_HEAD] + [f"{d.key}\t{d.kind}\t{d.text}" for d in decisions]
    return "\n".join(rows) + "\n"


def parse_state(text: str) -> list[Decision]:
    """The decisions of a state file (ValueError naming the first line that is none)."""
    out = []
    for k, row in enumerate(text.split("\n"), start=1):
        if not row.strip() or row.startswith("#"):
            continue
        parts = row.split("\t", 2)
        if len(parts) < 2 or parts[1] not in ("fix", "typed", "skip"):
            raise ValueError(f"line {k} is not a decision (LINE<tab>fix|typed|skip<tab>TEXT): {row[:60]!r}")
        out.append(Decision(parts[0], parts[1], parts[2] if len(parts) > 2 else ""))
    return out


@dataclass
class ReviewSession:
    """The walk over the items; ``feed`` takes one typed line (a key, or a retyped line)."""

    items: list[Item]
    check: Check  # a saved decision's text read back: kept or refused
    retype: Retype
    decisions: dict[str, Decision] = field(default_factory=dict)  # key -> the decision taken (fix/typed)
    skipped: dict[str, None] = field(default_factory=dict)
    taken: list[str] = field(default_factory=list)  # keys in the order decided (for b)
    before: dict[str, None] = field(default_factory=dict)  # lines skipped in an earlier session
    typing: bool = False  # the next line is the retyped line
    done: bool = False
    batches: list[int] = field(default_factory=list)  # lines each decision of this session took (for b)

    @classmethod
    def start(cls, items: Sequence[Item], check: Check, retype: Retype,
              saved: Sequence[Decision] = ()) -> tuple[ReviewSession, list[str]]:
        """A session over *items* (ordered likeliest first), resuming *saved* decisions: each is
        checked again; one for a line no longer in the way, or that no longer verifies, is dropped
        (and said)."""
        session = cls(order(items), check, retype)
        by_key = {it.key: it for it in session.items}
        said = []
        for d in saved:
            item = by_key.get(d.key)
            if item is None:
                said.append(f"saved decision for line {d.key} dropped: the line is not in the way")
                continue
            if d.kind == "skip":  # (offered again, after the lines never skipped)
                session.before[d.key] = None
                continue
            kept, answer = check(item, d.text)
            if kept is None:
                said.append(f"saved decision for line {d.key} dropped: {answer}")
                continue
            session.decisions[d.key] = Decision(d.key, d.kind, kept)
            session.before.pop(d.key, None)
            session.taken.append(d.key)
        if saved:
            said.append(f"resumed: {len(session.decisions)} decision(s) taken before, "
                        f"{len(session.undecided())} line(s) to review")
        return session, said

    def undecided(self) -> list[Item]:
        """The lines without a decision: first those never skipped, then the ones skipped before."""
        left = [it for it in self.items if it.key not in self.decisions]
        return [it for it in left if it.key not in self.before] + [it for it in left if it.key in self.before]

    def current(self) -> Item | None:
        """The line to decide now: the first open one not skipped in this session."""
        return next((it for it in self.undecided() if it.key not in self.skipped), None)

    def show(self) -> list[str]:
        """The current line, its fixes with their differences marked, the keys."""
        item = self.current()
        if item is None:
            return []
        number = len(self.items) - len(self.undecided()) + len(self.skipped) + 1
        rows = [f"[{number}/{len(self.items)}] line {item.key} ({item.where}): {item.problem}",
                f"   read: {item.shown}"]
        group = self.group(item)
        if len(group) > 1:
            rows.append(f"   fix 1 is of a kind {len(group) - 1} other open line(s) share ({item.kind}): "
                        f"{', '.join(it.key for it in group if it is not item)}; a takes the first fix of all")
        for k, fix in enumerate(item.fixes[:MAX_KEYS], start=1):
            rows.append(f"  {k:>3}) {fix.shown}")
            marks = mark_differences(item.shown, fix.shown)
            if marks:
                rows.append("       " + marks)
            rows.append(f"       ({fix.why})")
        if not item.fixes:
            rows.append("   no fix found: t retypes the line from the print")
        return rows

    def prompt(self) -> str:
        if self.typing:
            item = self.current()
            return f"retype line {item.key if item else ''}: "
        item = self.current()
        shown = min(len(item.fixes), MAX_KEYS) if item is not None else 0
        keys = ("1 " if shown == 1 else f"1-{shown} " if shown else "") + \
            ("a " if item is not None and len(self.group(item)) > 1 else "") + "t s b q"
        return f"[{keys}] > "

    def feed(self, typed: str) -> list[str]:
        """One line typed: the answer (and the next line shown)."""
        item = self.current()
        if item is None:
            self.done = True
            return []
        if self.typing:
            self.typing = False
            if len(typed) > MAX_TYPED:
                return [f"refused: {len(typed):,} characters in one line (at most {MAX_TYPED:,})"] + self.show()
            kept, answer = self.retype(item, typed.rstrip("\r\n"))
            if kept is None:
                return answer + ["(t retypes it again, s skips it)"]
            return answer + self._decide(Decision(item.key, "typed", kept))
        key = typed.strip().lower()
        if key.isdigit():
            k = int(key)
            if not 1 <= k <= min(len(item.fixes), MAX_KEYS):
                return [f"no fix {key} for line {item.key}" + (f" (1-{len(item.fixes[:MAX_KEYS])})" if item.fixes
                                                              else "; t retypes it")]
            fix = item.fixes[k - 1]
            kept, why = self.check(item, fix.text)
            if kept is None:  # (a fix offered verifies; this guards what a decision may keep)
                return [f"refused: {why}"]
            return [f"line {item.key}: fix {k} taken"] + self._decide(Decision(item.key, "fix", kept))
        if key == "a" or key.startswith("a "):
            return self._take_group(item, key[1:])
        if key == "t":
            self.typing = True
            return []
        if key == "s":
            self.skipped[item.key] = None
            return [f"line {item.key} skipped"] + self._next()
        if key == "b":
            if not self.taken:
                return ["nothing to take back"]
            backs = [self.taken.pop() for _ in range(min(len(self.taken), self.batches.pop() if self.batches else 1))]
            for back in backs:
                self.decisions.pop(back, None)
                self.skipped.pop(back, None)
            return [f"decision for line{'s' if len(backs) > 1 else ''} {', '.join(reversed(backs))} taken back"] + \
                self.show()
        if key == "q":
            self.done = True
            return []
        return [HELP]

    def group(self, item: Item) -> list[Item]:
        """The open lines whose first fix is of *item*'s kind (*item* among them; none without a kind)."""
        if not item.kind or not item.fixes:
            return []
        return [it for it in self.undecided() if it.kind == item.kind and it.fixes]

    def _take_group(self, item: Item, rest: str) -> list[str]:
        """``a [-KEY,KEY]``: the first fix of every open line of *item*'s kind, but the lines named."""
        rest = rest.strip()
        if rest and not rest.startswith("-"):
            return ["a takes the first fix of every open line of its kind; a -KEY,KEY leaves those lines out"]
        left_out = {k.strip() for k in rest[1:].split(",") if k.strip()}
        group = self.group(item)
        unknown = left_out - {it.key for it in group}
        if len(group) < 2:
            return [f"no other open line's first fix is of the kind of line {item.key}'s"]
        if unknown:
            return [f"not a line of this kind: {', '.join(sorted(unknown))}"]
        taken, said = [], []
        for it in group:
            if it.key in left_out:
                continue
            kept, why = self.check(it, it.fixes[0].text)
            if kept is None:  # (a fix offered verifies; this guards what a decision may keep)
                said.append(f"line {it.key} refused: {why}")
                continue
            taken.append(Decision(it.key, "fix", kept))
        if not taken:
            return said or ["no line taken"]
        for d in taken:
            self.decisions[d.key] = d
            self.skipped.pop(d.key, None)
            self.before.pop(d.key, None)
            self.taken.append(d.key)
        self.batches.append(len(taken))
        return said + [f"fix 1 taken for {len(taken)} line(s): {', '.join(d.key for d in taken)}"] + self._next()

    def _decide(self, decision: Decision) -> list[str]:
        self.decisions[decision.key] = decision
        self.skipped.pop(decision.key, None)
        self.before.pop(decision.key, None)
        self.taken.append(decision.key)
        self.batches.append(1)
        return self._next()

    def _next(self) -> list[str]:
        if self.current() is None:
            self.done = True
            return []
        return self.show()

    def saved(self) -> list[Decision]:
        """What the state file holds: the decisions in the order taken, then the skipped lines."""
        skipped = {**self.before, **self.skipped}
        return [self.decisions[k] for k in self.taken if k in self.decisions] + \
            [Decision(k, "skip") for k in skipped if k not in self.decisions]

    def summary(self) -> str:
        fixes = sum(d.kind == "fix" for d in self.decisions.values())
        typed = len(self.decisions) - fixes
        left = len(self.items) - len(self.decisions)
        return (f"{len(self.decisions)} decision(s): {fixes} fix(es) taken, {typed} line(s) retyped; "
                f"{left} line(s) still in the way")


__all__ = ["Check", "Decision", "Fix", "Item", "Retype", "ReviewSession", "mark_differences", "order",
           "parse_state", "state_text"]
