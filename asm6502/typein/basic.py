"""Typing a Checksummer listing: a numbered line with its ``<NNN>`` is checked at once.

Like the Checksummer on the C64 (64'er 8/85), the checksum of each line is computed as it
is entered; unlike it, a line whose printed checksum (typed after the line) does not match
is refused at once, with the most likely fix.  Typing a line number again replaces that line
(going back to any line); ``.back`` takes the last line back.  The session's file is a
Checksummer listing (``basic checksum`` format), so a partly typed file resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asm6502.basic.tokenizer import MAX_LINE_NUMBER
from asm6502.typein.cslisting.checksum import ChecksumOptions, format_listing, line_checksum
from asm6502.typein.cslisting.layout import CHECKSUM_AT_END, NUMBERED, read_checksum, read_number
from asm6502.typein.cslisting.rank import rank_fixes
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body, petcat_text
from asm6502.typein.cslisting.verdict import describe

MAX_TYPED = 1000  # characters of one typed line: 80 on the C64's screen, each perhaps a {name} of several

HELP = ("type a line as printed, with its checksum: 10 print \"hallo\" <123>; "
        "a line without <NNN> is stored and its checksum shown to compare; "
        ".back takes the last line back, .list shows the lines, .save saves, .quit saves and ends")


@dataclass
class BasicSession:
    version: int = 3
    upper: bool = False
    lines: dict[int, str] = field(default_factory=dict)  # number -> text (petcat)
    typed: dict[int, None] = field(default_factory=dict)  # the numbers in the order typed, for .back (a dict:
    # finding and moving a number is one step, so typing n lines costs n steps, not n squared)
    last: int | None = None  # the highest line number (the prompt shows it)
    dirty: bool = False
    # lines of the resumed file that do not verify: kept as they are (text, printed checksum)
    # until typed again, so saving never loses them
    pending: dict[int, tuple[str, int | None]] = field(default_factory=dict)

    @classmethod
    def resume(cls, text: str, version: int = 3) -> tuple[BasicSession, list[str]]:
        """A session from a partly typed file; messages for lines that do not verify.

        Raises ValueError if the file has text but no Checksummer line (not a typed listing)."""
        session = cls(version=version)
        messages: list[str] = []
        if not text.strip():
            return session, messages
        results = read_listings(text, "<file>", version=version)
        if not any(r.lines for r in results):
            raise ValueError("not a Checksummer listing (no line with <NNN>); give a new file to type into")
        for result in results:
            for r in result.lines:
                if r.status in ("bad", "unchecked"):
                    session.pending[r.number] = (r.printed, r.checksum)
                    messages.append(f"line {r.number} in the file does not verify; type it again")
                    continue
                session.lines[r.number] = petcat_text(r.text, result.upper)
                session._typed(r.number)
        return session, messages

    def options(self) -> ChecksumOptions:
        return ChecksumOptions(self.version)

    def prompt(self) -> str:
        last = self.last
        return f"[{len(self.lines)} lines{f', last {last}' if last is not None else ''}] > "

    def _typed(self, number: int) -> None:
        self.typed.pop(number, None)
        self.typed[number] = None
        if self.last is None or number > self.last:
            self.last = number

    def feed(self, typed: str) -> list[str]:
        """One typed line -> the answer (lines of text)."""
        t = typed.rstrip("\r\n")
        cmd = t.strip().lower()
        if not cmd:
            return [HELP]
        if cmd in (".back", "-"):
            if not self.typed:
                return ["nothing to take back"]
            number = next(reversed(self.typed))
            del self.typed[number]
            text = self.lines.pop(number)
            if number == self.last:
                self.last = max(self.lines) if self.lines else None
            self.dirty = True
            return [f"line {number} taken back: {number} {text} <{self._checksum(number, text):03d}>"]
        if cmd == ".list":
            rows = {n: f"{n} {t} <{self._checksum(n, t):03d}>" for n, t in self.lines.items()}
            rows.update({n: f"{n} {t} <{'???' if c is None else f'{c:03d}'}> (does not verify)"
                         for n, (t, c) in self.pending.items()})
            return [rows[n] for n in sorted(rows)] or ["(no lines)"]
        if cmd in (".help", "?"):
            return [HELP]
        if len(t) > MAX_TYPED:  # (before any reading: the search for a fix grows with the square of the line)
            return [f"refused: {len(t):,} characters in one line; a C64 line takes 80 on its screen "
                    f"(at most {MAX_TYPED:,} typed here, with petcat's {{names}} and the <NNN>)"]
        end = CHECKSUM_AT_END.search(t)
        printed = read_checksum(end).value if end else None
        body_text = t[: end.start()] if end else t
        m = NUMBERED.match(body_text)
        if not m:
            return ["refused: a line starts with its number (10 print ...)"]
        number = read_number(m.group("n"))
        text = m.group("rest").rstrip()
        if number > MAX_LINE_NUMBER:
            return [f"refused: line number {number} is out of range 0-{MAX_LINE_NUMBER}"]
        body = line_body(text, self.upper)
        if body is None:
            return [f"refused: line {number} has an unknown control-code name or character"]
        computed = line_checksum(number, body, self.options())
        if printed is not None and computed != printed:
            fixes = rank_fixes(number, text, printed, self.upper, self.options(), limit=3)
            answer = [f"refused: line {number} gives <{computed:03d}>, the print says <{printed:03d}>"]
            answer += [f"  most likely: {describe(text, f, printed)}" for f in fixes[:1]]
            return answer
        replaced = number in self.lines or number in self.pending
        self.pending.pop(number, None)
        self.lines[number] = petcat_text(text, self.upper)
        self._typed(number)
        self.dirty = True
        what = "replaced" if replaced else "ok"
        if printed is None:
            return [f"{what}: line {number} <{computed:03d}> -- compare with the print"]
        return [f"{what}: line {number} <{computed:03d}>"]

    def _checksum(self, number: int, text: str) -> int:
        body = line_body(text, False)
        return 0 if body is None else line_checksum(number, body, self.options())

    def listing(self) -> str:
        rows: dict[int, tuple[str, int | None]] = {n: (f"{n} {t}", self._checksum(n, t)) for n, t in self.lines.items()}
        rows.update({n: (f"{n} {t}", c) for n, (t, c) in self.pending.items()})  # (None: '<???>', unchecked)
        return format_listing([rows[n] for n in sorted(rows)]) if rows else ""
