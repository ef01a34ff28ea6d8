"""Typing an English-format listing like its checker: each line checked the moment it is entered.

BASIC (:class:`BasicTyping`): a line is typed as printed, with its checksum where the magazine put
it (``10 PRINT "HELLO" :rem 123``; ``GE 10 PRINT "HELLO"``; for the Bug Repellent the code from
the table in front, ``EO 10 PRINT"HELLO"``); a line whose checksum does not match is refused at
once with the likeliest fix; a line typed without one is stored and its checksum shown to compare,
as the Proofreader and Bug Repellent 3 showed it.  Machine code (:class:`MlxTyping`): like MLX,
the next address is shown and the line's bytes and checksum are taken (the address may be typed
too).  Typing a line number or address again replaces that line; ``.back`` takes the last line
back.  The session's file is the listing in the format itself, so a partly typed file resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from asm6502.basic.tokenizer import link_program
from asm6502.typein.english import mlx, printed
from asm6502.typein.english import read as english_read
from asm6502.typein.english import write as english_write

HELP_BASIC = ("type a line as printed with its checksum ({shape}); a line without one is stored and its "
              "checksum shown to compare; .back takes the last line back, .list shows the lines, .save saves, "
              ".quit saves and ends")
HELP_MLX = ("type the line's bytes and checksum as printed ({shape}; the address may be left out); "
            ".back goes back one line, .list shows the lines, .save saves, .quit saves and ends")
MAX_TYPED = 1000


@dataclass
class BasicTyping:
    family: str  # "proofreader" or "bugrepellent"
    version: str
    shape: str
    lines: dict[int, str] = field(default_factory=dict)  # number -> text as printed
    typed: list[int] = field(default_factory=list)
    dirty: bool = False

    @property
    def rules(self) -> english_read.BasicRules:
        if self.family == "proofreader":
            return english_read.proofreader_rules(self.version)
        return english_read.repellent_rules(self.version)

    def resume(self, text: str) -> list[str]:
        if not text.strip():
            return []
        reader = english_read.read_proofreader if self.family == "proofreader" else english_read.read_repellent
        listings = reader(text, self.version, "<file>")
        if not listings:
            raise ValueError(f"not a {self.family} listing (no line with its checksum); give a new file to type into")
        said = []
        for r in listings[0].lines:
            if r.status in ("verified", "repaired"):
                self.lines[r.key] = r.text
                self.typed.append(r.key)
            else:
                said.append(f"line {r.key} in the file does not verify; type it again")
        return said

    def prompt(self) -> str:
        return f"[{len(self.lines)} lines{f', last {max(self.lines)}' if self.lines else ''}] > "

    def _split(self, typed: str) -> tuple[str | None, str, str | None]:
        """(number as typed, text, checksum field or None)."""
        t = typed.strip()
        if self.family == "proofreader" and self.version == "1983":
            found = english_read.proofreader.find_1983(t)
            if found:
                return found[0].number, found[0].text, found[0].field
        else:
            found = english_read.proofreader.find_1986(t)
            if found and english_read.field_readings(found[0].field, self.rules.alphabet, self.rules.value):
                return found[0].number, found[0].text, found[0].field
        token, rest = english_read.numbered(t)
        return token, rest, None

    def feed(self, typed: str) -> list[str]:
        t = typed.rstrip("\r\n")
        cmd = t.strip().lower()
        if not cmd or cmd in (".help", "?"):
            return [HELP_BASIC.format(shape=self.shape)]
        if cmd in (".back", "-"):
            if not self.typed:
                return ["nothing to take back"]
            number = self.typed.pop()
            text = self.lines.pop(number)
            self.dirty = True
            return [f"line {number} taken back: {number} {text}"]
        if cmd == ".list":
            return [self._row(n) for n in sorted(self.lines)] or ["(no lines)"]
        if len(t) > MAX_TYPED:
            return [f"refused: {len(t):,} characters in one line (at most {MAX_TYPED:,})"]
        token, text, field_text = self._split(t)
        if token is None:
            return ["refused: a line starts with its number (10 PRINT ...)"]
        got_number = english_read.line_number(token)
        if got_number is None or got_number[1]:
            return [f"refused: {token!r} is no line number"]
        number = got_number[0]
        state = False
        value = self.rules.checksum(number, text.rstrip(), state)
        if value is None:
            return [f"refused: line {number} has a key name or character nobody printed"]
        shown = self.rules.show(value[0])
        if field_text is not None and self.rules.value(field_text.upper()) != value[0]:
            report, _ = english_read.read_basic_line(self.rules, 0, token, text, english_read.same(field_text), state)
            answer = [f"refused: line {number} gives {shown}, the print says {field_text}"]
            if report.status == "repaired":
                answer.append(f"  most likely: {report.note}: {number} {report.text}")
            return answer
        replaced = number in self.lines
        self.lines[number] = text.rstrip()
        if number in self.typed:
            self.typed.remove(number)
        self.typed.append(number)
        self.dirty = True
        what = "replaced" if replaced else "ok"
        return [f"{what}: line {number} {shown}" + ("" if field_text is not None else " -- compare with the print")]

    def _row(self, number: int) -> str:
        return self.listing_of({number: self.lines[number]}).strip().split("\n")[-1]

    def prg(self) -> bytes:
        entries: list[tuple[int, bytes, int | None]] = []
        for n in sorted(self.lines):
            body = printed.stored(self.lines[n], self.rules.style)
            entries.append((n, body or b"", None))
        return link_program(entries)[0]

    def listing_of(self, lines: dict[int, str]) -> str:
        entries: list[tuple[int, bytes, int | None]] = [
            (n, printed.stored(t, self.rules.style) or b"", None) for n, t in sorted(lines.items())]
        prg = link_program(entries)[0]
        if self.family == "proofreader":
            return english_write.proofreader_listing(self.version, prg)
        return english_write.repellent_listing(self.version, prg)

    def listing(self) -> str:
        return self.listing_of(self.lines) if self.lines else ""


@dataclass
class MlxTyping:
    version: str
    shape: str
    start: int | None = None
    end: int | None = None
    name: str = ""
    rows: dict[int, bytes] = field(default_factory=dict)  # address -> the line's bytes
    typed: list[int] = field(default_factory=list)
    dirty: bool = False

    @property
    def per_line(self) -> int:
        return mlx.PER_LINE[self.version]

    def resume(self, text: str) -> list[str]:
        if not text.strip():
            if self.start is None:
                raise ValueError("a new listing needs --start (the starting address MLX asks for)")
            return []
        start, end = mlx.header(text, self.version)
        self.start = start if start is not None else self.start
        self.end = end if end is not None else self.end
        listings = english_read.read_mlx(text, self.version, "<file>")
        if not listings:
            raise ValueError("not an MLX listing; give a new file to type into")
        said = []
        for r in listings[0].lines:
            if r.status in ("verified", "repaired"):
                self.rows[r.key] = r.data
                self.typed.append(r.key)
            else:
                said.append(f"the line at {mlx.format_address(self.version, r.key)} in the file does not verify; type it again")
        if self.start is None and self.rows:
            self.start = min(self.rows)
        return said

    def next_address(self) -> int:
        assert self.start is not None
        address = self.start
        while address in self.rows:
            address += self.per_line
        return address

    def prompt(self) -> str:
        return f"{mlx.format_address(self.version, self.next_address())}{' ' if self.version == '1' else ''}:"

    def feed(self, typed: str) -> list[str]:
        t = typed.rstrip("\r\n")
        cmd = t.strip().lower()
        if not cmd or cmd in (".help", "?"):
            return [HELP_MLX.format(shape=self.shape)]
        if cmd in (".back", "-"):
            if not self.typed:
                return ["nothing to take back"]
            address = self.typed.pop()
            del self.rows[address]
            self.dirty = True
            return [f"line {mlx.format_address(self.version, address)} taken back"]
        if cmd == ".list":
            return [mlx.format_line(self.version, a, self.rows[a]) for a in sorted(self.rows)] or ["(no lines)"]
        if len(t) > MAX_TYPED:
            return [f"refused: {len(t):,} characters in one line"]
        address = self.next_address()
        line = t if ":" in t else f"{mlx.format_address(self.version, address)}:{t}"
        found = mlx.find_lines(line, self.version)
        if not found:
            n = self.per_line
            return [f"refused: a line is {n} bytes and the checksum ({self.shape})"]
        f = found[0]
        typed_address = english_read.address_value(f.address.upper(), self.version)
        if typed_address is None:
            return [f"refused: {f.address!r} is no address"]
        report = english_read.mlx_line(self.version, f, [typed_address], [], typed_address)
        if report.status != "verified":
            answer = [f"refused: the bytes give checksum {report.computed}, the line says {f.fields[-1]}"
                      if report.status == "bad" else f"refused: {f.fields[-1]} is not the checksum of these bytes"]
            if report.status == "repaired":
                answer.append(f"  most likely: {report.note}: {mlx.format_line(self.version, report.key, report.data)}")
            return answer
        replaced = typed_address in self.rows
        self.rows[typed_address] = report.data
        if typed_address in self.typed:
            self.typed.remove(typed_address)
        self.typed.append(typed_address)
        self.dirty = True
        done = self.end is not None and self.next_address() > self.end
        return [f"{'replaced' if replaced else 'ok'}: {mlx.format_address(self.version, typed_address)}"
                + (" -- the last line: the program is complete" if done else "")]

    @property
    def prg(self) -> bytes:
        assert self.start is not None
        image = bytearray()
        for address in sorted(self.rows):
            at = address - self.start
            if at < 0:
                continue
            if at > len(image):
                image += bytes(at - len(image))
            image[at : at + len(self.rows[address])] = self.rows[address]
        if self.end is not None:
            image = image[: self.end - self.start + 1]
        return self.start.to_bytes(2, "little") + bytes(image)

    def listing(self) -> str:
        if not self.rows:
            return ""
        text = mlx.write(self.version, self.prg, self.name)
        if self.end is not None:  # the header names the end the user gave, not the bytes typed so far
            text = text.replace(f"Ending address: {mlx.format_address(self.version, self.start + len(self.prg) - 3)}",
                                f"Ending address: {mlx.format_address(self.version, self.end)}", 1)
        return text
