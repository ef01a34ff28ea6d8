"""Reading a printed Checksummer listing back into a program, every line checked.

``read_listings(text)`` finds the listing lines (:mod:`asm6502.typein.cslisting.layout`), takes each
line's ``<NNN>`` off, tokenizes the line as the C64 stores it and compares its Checksummer
value with the printed one.  The Checksummer version is decided by the checksums (V1/V2 sum
the bytes, V3 rotates them; whichever reproduces more printed values).  As ``mse read`` does,
each line ends "verified" (as printed), "repaired" (the print shows damage and one reading is
clearly the most likely: the repair is named) or "bad" (ranked fixes, most likely first).
The bad lines are ranked a second time, with the confusions this listing's sure repairs
show and a deeper search; that ranking repairs only with a second witness -- the words the
listing prints in other lines confirm every change (:mod:`.vocabulary`), or so few readings were
tried at the fix's cost that a chance match among them is unlikely -- and names fixes otherwise.
Several listings in one text (line numbers starting again) are read separately.  A line whose
number OCR lost (rows run together, a row without its number) is given the one number its place
leaves on the listing's grid that its checksum verifies as printed, else named with its place
(``Lost``: the review has it typed whole).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from asm6502.basic.case import BRACES
from asm6502.basic.tokenizer import BASIC_START, MAX_LINE_NUMBER, link_program
from asm6502.diagnostics import Diagnostic, Span, error, note, warning
from asm6502.typein.cslisting import spares
from asm6502.typein.cslisting.blanks import Words, settle
from asm6502.typein.cslisting.checksum import ChecksumOptions, format_listing, line_checksum
from asm6502.typein.cslisting.edits import Edit, Fix, apply, confusions, learn
from asm6502.typein.cslisting.habits import Habit, habits, repaired_habits
from asm6502.typein.cslisting.layout import (
    CHECKSUM_INSIDE,
    NUMBERED,
    DamagedField,
    Piece,
    Record,
    damaged_checksum,
    find_records,
    number_readings,
    read_checksum,
)
from asm6502.typein.cslisting.normal import compose, normal_edits
from asm6502.typein.cslisting.numbers import restore
from asm6502.typein.cslisting.rank import MAX_LINE_TEXTS, Tried, keyword_join, rank_fixes
from asm6502.typein.cslisting.recut import recut
from asm6502.typein.cslisting.text import checksum_of, line_body, normalize_controls, petcat_text, without_print_blanks
from asm6502.typein.cslisting.verdict import (
    AUTO_MARGIN,
    confident,
    confirmed,
    damage_left,
    describe,
    familiar,
    familiar_reading,
    habitual,
    kind_of,
    shows_damage,
    sole_reading,
)
from asm6502.typein.cslisting.vocabulary import Lexicon, Vocabulary
from asm6502.typein.cslisting.wide import WIDE_STEPS, WIDE_TEXTS

MAX_FIXES_SHOWN = 3
# The search is bounded: a line's rankings read at most rank.MAX_LINE_TEXTS texts, a listing's
# LISTING_TEXTS (a real page reads 38,000 at most); the second ranking holds HELD_TEXTS of the
# first one's texts at most (beyond, it reads them again, within the line's budget).
LISTING_TEXTS = 100_000
HELD_TEXTS = 50_000
# a checksum field at a line's end whose digits OCR lost: brackets around one to four marks
_UNREADABLE_FIELD = re.compile(r"\s(<[^<>{}\d\s]{1,4}>)\s*$")
UPPER_SHARE = 0.8  # letters that are capitals, above which the listing is read as all-capitals


@dataclass(frozen=True)
class LineReport:
    """One listing line: *status* verified / repaired / bad / unchecked (its checksum field
    unreadable) / accepted (a fix the user confirmed, :mod:`asm6502.typein.cslisting.accept`); *text* as
    taken (printed style); *error*: the diagnostic that reports it bad or unchecked."""

    number: int
    line: int  # line in the input text
    status: str
    printed: str  # the text as read
    text: str  # the text taken (repaired or as printed)
    checksum: int | None  # printed
    computed: int | None  # of *text*
    body: bytes | None
    repair: str = ""
    fixes: tuple[str, ...] = ()  # descriptions, most likely first
    fixed_texts: tuple[str, ...] = ()
    error: Diagnostic | None = field(default=None, compare=False)
    fix_costs: tuple[float, ...] = ()  # each fix's cost (the review walks the likeliest lines first)
    fix_checksums: tuple[int | None, ...] = ()  # a fix's checksum where it is "the checksum misread", else None
    fix_kinds: tuple[str, ...] = ()  # the kind of change of each fix (verdict.kind_of)


@dataclass(frozen=True)
class Lost:
    """A line the text holds whose number OCR garbled past reading: it comes *after* a line,
    before the *following* one (None: the listing's last), and reads *text*."""

    after: int
    following: int | None
    text: str
    line: int  # line in the input text
    error: Diagnostic = field(compare=False)
    nth: int = 1  # the first, second, ... line lost after *after*
    checksum: int | None = None  # printed after it


@dataclass(frozen=True)
class ReadResult:
    version: int
    upper: bool
    lines: tuple[LineReport, ...]
    diagnostics: tuple[Diagnostic, ...] = field(default=())
    start: int = BASIC_START
    lost: tuple[Lost, ...] = ()  # lines not read: their numbers unreadable (typed in the review)
    habits: tuple[Habit, ...] = ()  # the misreadings its lines show again and again (habits.py)

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.lines)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def ok(self) -> bool:
        return bool(self.lines) and not self.errors

    @property
    def prg(self) -> bytes:
        """The program of the lines read (a bad line as printed; one without bytes left out)."""
        bodies = {r.number: (r.body, r.line) for r in self.lines if r.body is not None}
        prg, _ = link_program([(n, *bodies[n]) for n in sorted(bodies)], self.start)
        return prg

    def corrected_listing(self) -> str:
        """The listing as it should have been printed, as petcat text: each line's text taken
        (repairs applied; control codes as petcat names; capitals read as they were), its
        checksum.  A line still bad keeps its printed checksum and an unchecked one ``<???>``:
        read back (``basic read``, or ``basic type`` resuming the file) they stand in the way
        again, until typed or confirmed."""
        options = ChecksumOptions(self.version)
        rows: list[tuple[str, int | None]] = []
        for r in self.lines:
            text = petcat_text(r.text, self.upper)
            value = r.checksum if r.status in ("bad", "unchecked") else \
                line_checksum(r.number, r.body, options) if r.body is not None else r.checksum
            rows.append((f"{r.number} {text}", value))
        return format_listing(rows)


NEWLINE = re.compile("\n")


class _Source:
    """The text a listing was read from, for the source line under a message: the text and where
    each of its rows starts (8 bytes a row, not a string a row)."""

    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.text = text
        self.starts = array("q", [0])
        self.starts.extend(m.end() for m in NEWLINE.finditer(text))

    def row(self, line: int) -> str | None:
        if not 0 < line <= len(self.starts):
            return None
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return self.text[start:end]

    def span(self, line: int, col: int, length: int = 1) -> Span:
        row = self.row(line)
        source = row.rstrip("\r") if row is not None else None
        if source is not None and (len(source) > 120 or "\t" in source):
            source = None  # an OCR row of two columns is too long to echo under every message
        return Span(self.filename, line, col, length, source)


def _upper(records: list[Record]) -> bool:
    letters = [c for r in records for part in BRACES.split(r.text)[0::2] for c in part if c.isascii() and c.isalpha()]
    if len(letters) < 4:
        return False
    return sum(c.isupper() for c in letters) >= UPPER_SHARE * len(letters)


def _checksum_inside(number: int, text: str, upper: bool,
                     options: ChecksumOptions) -> tuple[str, int, str, str] | None:
    """(text before, its checksum, the rest, the repair made) when *text* holds a checksum that
    verifies the text before it, as printed or after a sure repair: two lines run together, the
    second one's number unreadable (10/85 p. 131: '660 GuTO 310 <112> 670 1 <138>')."""
    for m in CHECKSUM_INSIDE.finditer(text):
        head = text[: m.start()].rstrip()
        value = read_checksum(m).value
        if head and checksum_of(number, head, upper, options) == value:
            return head, value, text[m.end() :].strip(), ""
    # (repaired, only the text before the first field: a text with a field in it is lines, no line)
    m = CHECKSUM_INSIDE.search(text)
    if m is not None:
        head = text[: m.start()].rstrip()
        value = read_checksum(m).value
        fixes = rank_fixes(number, head, value, upper, options) if head and value <= 255 else []
        if confident(fixes, upper):
            return fixes[0].text, value, text[m.end() :].strip(), describe(head, fixes[0], value)
    return None


def _inside_verifies(number: int, text: str, upper: bool, options: ChecksumOptions) -> bool:
    """*text* holds a checksum field that the text before it gives as printed."""
    return any((head := text[: m.start()].rstrip()) and checksum_of(number, head, upper, options) == read_checksum(m).value
               for m in CHECKSUM_INSIDE.finditer(text))


MISREAD_STEP = 100  # the rise past one line whose number breaks it, of a listing that goes on


def _split_listings(records: list[Record]) -> list[list[Record]]:
    """Line numbers start again: a new listing.  A single misread number below does not: one above
    the listing's first line, or one whose next line rises on from the line before it by a step
    ('60505 ... 60310 ... 60515': 60510 printed with a 3 for its 5, 11/85 p. 95)."""
    out: list[list[Record]] = []
    for k, rec in enumerate(records):
        after = records[k + 1].number if k + 1 < len(records) else None
        misread = out and after is not None and out[-1][-1].number < after <= out[-1][-1].number + MISREAD_STEP
        if out and rec.number < out[-1][-1].number and rec.number <= out[-1][0].number and not misread:
            out.append([rec])
        elif out:
            out[-1].append(rec)
        else:
            out.append([rec])
    return out


def _decide_version(records: list[Record], upper: bool) -> int:
    scores = {}
    for version in (3, 1):
        options = ChecksumOptions(version)
        scores[version] = sum(
            r.checksum is not None and not r.lost and checksum_of(r.number, r.text, upper, options) == r.checksum for r in records)
    return 1 if scores[1] > scores[3] else 3


def read_listings(text: str, filename: str = "<input>", *, version: int | None = None,
                  case: str | None = None) -> list[ReadResult]:
    """Every Checksummer listing in *text*, each read and checked.  Never raises for bad input."""
    text = text.removeprefix("\ufeff")
    src = _Source(text, filename)
    layout = find_records(text)
    # (line numbers OCR broke, restored before a number below the first parts the listing in two)
    upper = _upper(layout.records) if case is None else case == "upper"
    options = ChecksumOptions(version or _decide_version(layout.records, upper))
    restored, renumbered = restore(spares.weigh(layout.records, upper, options), upper, options)
    why_renumbered = {(r.line, r.col): why for r, why in renumbered}
    groups = _split_listings(restored)
    if not groups:
        return [ReadResult(version or 3, False, (), (error("no Checksummer listing lines found (a line number, "
                                                          "the line, <NNN>)", Span(filename, 1, 1)),))]
    results = []
    for records in groups:
        # (a field OCR damaged past reading is a checksum too: '-^38>', '<j Q9 >')
        with_checksum = [i for i, r in enumerate(records) if r.checksum is not None or damaged_checksum(r.text)
                         or _unreadable_field(r.text) is not None]
        if not with_checksum:
            continue
        # lines without a checksum before the first and after the last are article text -- unless
        # they share a text row with a line that has one (lines run together, its checksum unread)
        lo, hi = with_checksum[0], with_checksum[-1]
        while lo > 0 and records[lo - 1].line == records[lo].line:
            lo -= 1
        while hi + 1 < len(records) and records[hi + 1].line == records[hi].line:
            hi += 1
        records = records[lo : hi + 1]
        upper = _upper(records) if case is None else case == "upper"
        v = version or _decide_version(records, upper)
        results.append(_check(records, src, v, upper, why_renumbered))
    if not results:
        return [ReadResult(version or 3, False, (), (error("no line with a Checksummer value <NNN> found",
                                                          Span(filename, 1, 1)),))]
    return results


def _check(records: list[Record], src: _Source, version: int, upper: bool,
           restored: dict[tuple[int, int], str] | None = None) -> ReadResult:
    options = ChecksumOptions(version)
    diags: list[Diagnostic] = []
    for rec in records:
        why = (restored or {}).get((rec.line, rec.col))
        if why is not None:
            diags.append(warning(f"{why}; its place between its neighbours and its checksum say so",
                                 src.span(rec.line, rec.col, len(rec.number_text))))
    reports: list[LineReport | None] = []
    repairs: list[tuple[int, str, Fix]] = []  # (number, printed, the fix taken): what this page's OCR does
    later: list[tuple[int, Record, str, bytes | None, int | None, Span, Tried]] = []
    # (lines run together, their checksums read row by row: the stretch cut again at its line numbers)
    records, stretches = recut(list(records), upper, options)
    for first, last_number in stretches:
        rec = next(r for r in records if r.number == first)
        diags.append(warning(f"lines {first}-{last_number} ran together in the text, their checksums in rows of their own: "
                             f"read again, cut at each line number, each checksum the next line's",
                             src.span(rec.line, rec.col)))
    lost: list[Lost] = []  # lines whose number OCR garbled past reading
    spent = held = 0  # texts the rankings read; texts held for the second ranking
    seen: dict[int, int] = {}
    last = -1
    unplaced = 0  # lines since the last numbered one whose number could not be placed
    grid = _grid([r.number for r in records if not r.lost])
    ahead = 0  # the index of the next line after this one whose number was read (lines inserted move it)
    for at, rec in enumerate(records):
        where = src.span(rec.line, rec.col, len(rec.number_text))
        printed = without_print_blanks(rec.text.strip(" "))
        if ahead <= at:
            ahead = next((k for k in range(at + 1, len(records)) if not records[k].lost), len(records))
        following = records[ahead].number if ahead < len(records) else None
        if rec.lost:
            inside = next(CHECKSUM_INSIDE.finditer(printed), None)
            if inside is not None and printed[: inside.start()].strip() and printed[inside.end() :].strip():
                # several lines run together, each number lost: this one ends at the first checksum
                records.insert(at + 1, replace(rec, pieces=[Piece(printed[inside.end() :].strip(), rec.line,
                                                                  rec.col)]))
                ahead += 1
                cs = read_checksum(inside)
                rec = replace(rec, checksum=cs.value, checksum_text=cs.text)
                records[at] = rec
                printed = printed[: inside.start()].rstrip()
            placed = _place(rec.checksum, printed, last, following, grid, unplaced, ahead - at - 1, upper, options)
            if placed is None:
                unplaced += 1
                lost_diag = error(f"a line whose number OCR lost{_between(last, following)} reads {printed!r}; "
                                  f"no number fits its place and its checksum: it is not read", where)
                diags.append(lost_diag)
                lost.append(Lost(last, following, printed, rec.line, lost_diag, unplaced, rec.checksum))
                continue
            number, why = placed
            diags.append(warning(f"line {number}: its number OCR lost; {why}", where))
            rec = replace(rec, number=number, number_text="", lost=False)
        unplaced = 0
        renumbered = _renumber(rec, printed, last, following, seen, upper, options)
        if renumbered is not None:
            diags.append(warning(f"line {renumbered} read as {rec.number_text}: its place between line {last} and "
                                 f"the next one and its checksum say so", where))
            rec = replace(rec, number=renumbered)
        if rec.number > MAX_LINE_NUMBER:
            diags.append(error(f"line number {rec.number} is out of range 0-{MAX_LINE_NUMBER}", where))
        if rec.number in seen:
            diags.append(error(f"line {rec.number} twice (first in text line {seen[rec.number]})", where))
        elif rec.number < last:
            diags.append(warning(f"line {rec.number} comes after line {last} (a misread line number?)", where))
        seen.setdefault(rec.number, rec.line)
        last = max(last, rec.number)
        body = line_body(printed, upper)
        field = damaged_checksum(printed) if rec.checksum is None else None
        if field is not None and _damaged_field(rec, printed, field, where, upper, options, diags, reports):
            continue
        if rec.checksum is None:
            unread = _unreadable_field(printed)
            if unread is not None:
                # '<m>' (10/85 p. 132 line 540): a field, its digits past reading
                head = printed[: unread.start()].rstrip()
                diag = error(f"line {rec.number}: checksum field {unread.group(1)!r} unreadable; the line is "
                             f"unchecked (--accept {rec.number} takes it as printed)", where,
                             *([] if where.source else [note(f"line {rec.number} reads: {rec.number} {printed}")]))
                diags.append(diag)
                reports.append(LineReport(rec.number, rec.line, "unchecked", printed, head, None, None,
                                          line_body(head, upper), error=diag))
                continue
            diag = error(f"line {rec.number}: no checksum <NNN> found; the line is unchecked", where)
            diags.append(diag)
            reports.append(LineReport(rec.number, rec.line, "unchecked", printed, printed, None, None, body,
                                      error=diag))
            continue
        cs_where = src.span(rec.checksum_line, rec.checksum_col, len(rec.checksum_text))
        if rec.checksum > 255:
            diags.append(error(f"line {rec.number}: checksum {rec.checksum_text} is not a byte value 0-255",
                               cs_where))
        computed = None if body is None else line_checksum(rec.number, body, options)
        # (a REM that verifies with a checksum field inside it, "REM X <010> PRINT" <132>, is two
        # lines, the second one's number lost, when the field verifies the text before it too)
        if computed == rec.checksum and not _inside_verifies(rec.number, printed, upper, options):
            joined = keyword_join(printed, rec.number, rec.checksum, upper, options)
            if joined is not None:  # "PRIN T" and "PRINT" both verify: the blank is OCR damage
                fix, repair = joined
                diags.append(warning(f"repaired line {rec.number}: {repair} (the line verifies either way)",
                                     cs_where, *([] if cs_where.source else [note(f"line {rec.number} reads: "
                                                                                    f"{rec.number} {printed}")])))
                reports.append(LineReport(rec.number, rec.line, "repaired", printed, fix.text, rec.checksum,
                                          rec.checksum, line_body(fix.text, upper), repair))
                continue
            shown = shows_damage(printed, upper)
            if shown is not None:
                # the line verifies as printed, but the print shows damage: one misread line in 256
                # gives its checksum by chance, and the line as it was printed gives it too
                tried = Tried(budget=min(MAX_LINE_TEXTS, max(0, LISTING_TEXTS - spent)))
                fixes = [f for f in rank_fixes(rec.number, printed, rec.checksum, upper, options, tried=tried)
                         if f.checksum is None]
                spent += tried.read
                fixes = sorted([*fixes, Fix(AS_PRINTED_COST, printed, (), False, rec.checksum)],
                               key=lambda f: (f.cost, f.text))
                sure = not tried.skipped and confident(fixes, upper)
                _conclude(rec, printed, body, computed, cs_where, fixes, upper, options, diags, reports, sure=sure,
                          why="; the line verifies as printed too, but shows damage" if sure else "",
                          problem=f"line {rec.number} verifies as printed, but shows damage ({shown})")
                continue
            reports.append(LineReport(rec.number, rec.line, "verified", printed, printed, rec.checksum, computed, body))
            continue
        opener = _opener_misread(rec, printed, upper, options)
        if opener is not None:  # "160 REM * * z 209 >": the field's '<' read as a letter
            head, repair = opener
            diags.append(warning(f"repaired line {rec.number}: {repair}", cs_where,
                                 *([] if cs_where.source else [note(f"line {rec.number} reads: {rec.number} {printed}")])))
            reports.append(LineReport(rec.number, rec.line, "repaired", printed, head, rec.checksum, rec.checksum,
                                      line_body(head, upper), repair))
            continue
        split = _checksum_inside(rec.number, printed, upper, options)
        if split is not None:  # "560 REM X <109> 57cTc2T^ <107>": the next line's number unread
            head, value, rest, repair = split
            m = NUMBERED.match(rest)
            if m is not None and rec.number < int(m.group("n")) and int(m.group("n")) not in seen and (
                    following is None or int(m.group("n")) < following):
                # "660 GuTO 310 <112> 670 1 <138>" (10/85 p. 131): the next line is read, not lost;
                # its number fits between its neighbours
                records.insert(at + 1, replace(rec, number=int(m.group("n")), number_text=m.group("n"),
                                               pieces=[Piece(m.group("rest"), rec.line, rec.col)]))
                ahead = at + 1
            else:  # the rest is a line whose number OCR lost: placed, if it can be, when its turn comes
                records.insert(at + 1, replace(rec, number_text="", pieces=[Piece(rest, rec.line, rec.col)],
                                               lost=True))
                ahead += 1
            if repair:
                diags.append(warning(f"repaired line {rec.number}: {repair}", cs_where,
                                     *([] if cs_where.source else [note(f"line {rec.number} reads: {rec.number} {printed}")])))
            reports.append(LineReport(rec.number, rec.line, "repaired" if repair else "verified", printed, head, value,
                                      value, line_body(head, upper), repair))
            continue
        tried = Tried(budget=min(MAX_LINE_TEXTS, max(0, LISTING_TEXTS - spent)))
        fixes = rank_fixes(rec.number, printed, rec.checksum, upper, options, tried=tried)
        spent += tried.read
        if tried.skipped or not confident(fixes, upper):  # (a search cut short repairs nothing unasked)
            held += len(tried.bodies)
            if held > HELD_TEXTS:  # the texts of the lines ranked again are held only up to a bound
                tried = tried.released()
            later.append((len(reports), rec, printed, body, computed, cs_where, tried))
            reports.append(None)  # ranked again with what the listing's sure repairs teach
            continue
        repairs.append((rec.number, printed, fixes[0]))
        _conclude(rec, printed, body, computed, cs_where, fixes, upper, options, diags, reports)
    learned = learn((printed, fix) for _, printed, fix in repairs)
    # (the misreadings the lines still bad show again and again, and the sure repairs: this page's OCR habits)
    own = habits([(rec.number, printed, rec.checksum) for _, rec, printed, *_ in later], upper, options,
                 caches=[(tried.statements, tried.chunks, tried.names) for *_, tried in later])
    own += tuple(h for h in repaired_habits((n, printed, confusions(printed, fix)) for n, printed, fix in repairs)
                 if (h.printed, h.meant) not in {(o.printed, o.meant) for o in own})
    habit_pairs = frozenset((h.printed, h.meant) for h in own)
    # (the lines as printed, and the repaired ones as repaired)
    vocabulary = Vocabulary.of([(r.number, r.text.strip(" ")) for r in records]
                               + [(r.number, r.text) for r in reports if r is not None and r.status == "repaired"])
    unsure: list[tuple[int, Record, str, bytes | None, int | None, Span, Tried, list[Fix]]] = []
    for at, rec, printed, body, computed, cs_where, tried in later:
        tried.budget = min(MAX_LINE_TEXTS, tried.read + max(0, LISTING_TEXTS - spent))
        before = tried.read
        fixes = rank_fixes(rec.number, printed, rec.checksum, upper, options, learned=learned, deep=True,
                           tried=tried, habits=habit_pairs)
        spent += tried.read - before
        # ranked with the learned confusions and three misreadings, taken without asking only
        # with a second witness: a cheaper confusion makes chance matches cheaper too (10/85 p. 73
        # showed them) -- the listing's own words confirm the reading, or so few readings were
        # tried at its cost that a chance match is unlikely
        stopped = tried.skipped or tried.wide_left  # (a search cut short takes nothing unasked)
        words = None if stopped else confirmed(fixes, upper, printed, vocabulary, rec.number)
        sole = not stopped and words is None and sole_reading(
            fixes, upper, tried.takeable_chance(fixes[0].cost + 2 * AUTO_MARGIN, printed, upper) if fixes else 0.0)
        usual = not stopped and words is None and not sole and habitual(
            fixes, upper, tried.habit_chance(fixes[0].cost) if fixes else 0.0)
        if not (words or sole or usual):
            unsure.append((at, rec, printed, body, computed, cs_where, tried, fixes))
            continue
        why = ("; the listing prints " + ", ".join(f"'{w.upper()}'" for w in words) + " in other lines") if words else \
            "; no other reading comes near it" if sole else "; " + _habit_witnesses(fixes[0], own)
        _conclude(rec, printed, body, computed, cs_where, fixes, upper, options, diags, reports, at, why=why)
    # the lines left: a familiar reading is taken, the names and keywords of the lines taken (verified
    # as printed, or repaired without asking, in either ranking) and those the lines left print
    # without damage the second witness
    lexicon = Lexicon.of([(r.number, r.text) for r in reports if r is not None and r.status in ("verified", "repaired")],
                         [(rec.number, printed) for _, rec, printed, *_ in unsure], upper)
    for at, rec, printed, body, computed, cs_where, tried, fixes in unsure:
        stopped = tried.skipped or tried.wide_left  # (a search cut short takes nothing unasked)
        known = None if stopped else familiar(fixes, upper, printed, lexicon, rec.number,
                                              _familiar_chance(tried, printed, upper, lexicon, rec.number))
        why = ("; every name it makes the listing's other lines use (" + ", ".join(f"'{n}'" for n in known)
               + ") and no other such reading comes near it") if known else ""
        if not known:  # the near-certain misreadings read at once, the rest ranked anew (normal.py)
            joint = Tried(budget=min(MAX_LINE_TEXTS, max(0, LISTING_TEXTS - spent)))
            read_jointly = _joint(rec, printed, upper, options, learned, habit_pairs, vocabulary, joint)
            spent += joint.read
            if read_jointly is not None and read_jointly[1]:
                _conclude(rec, printed, body, computed, cs_where, read_jointly[0], upper, options, diags, reports, at,
                          why=read_jointly[1])
                continue
            if read_jointly is not None:  # (offered beside the line's own fixes, the cheaper of a text kept)
                fixes = _merged(fixes, read_jointly[0])
        _conclude(rec, printed, body, computed, cs_where, fixes, upper, options, diags, reports, at,
                  sure=bool(known), skipped=tried.skipped, why=why, wide_left=tried.wide_left)
    _settle_blanks(reports, records, upper, options, diags, src)
    diags.sort(key=lambda d: (d.span.line, d.span.col) if d.span else (0, 0))
    return ReadResult(version, upper, tuple(r for r in reports if r is not None), tuple(diags), lost=tuple(lost),
                      habits=own)


def _settle_blanks(reports: list[LineReport | None], records: list[Record], upper: bool, options: ChecksumOptions,
                   diags: list[Diagnostic], src: _Source) -> None:
    """The blanks inside quotes of the lines taken (verified or repaired) joined or parted where
    the listing's own words say so (blanks.py: the checksum cannot see them); the line's
    checksum checked again (a count of blanks the checksum sees would stop it)."""
    words = Words.of([(r.number, r.text.strip(" ")) for r in records if not r.lost]
                     + [(r.number, r.text) for r in reports if r is not None and r.status == "repaired"])
    for k, r in enumerate(reports):
        if r is not None and r.status == "bad" and r.fixed_texts:  # the fixes offered, settled alike
            reports[k] = _settled_fixes(r, words, upper, options)
        if r is None or r.status not in ("verified", "repaired") or '"' not in r.text:
            continue
        text, why = settle(r.text, r.number, words)
        if not why:
            continue
        body = line_body(text, upper)
        if body is None or r.checksum is None or line_checksum(r.number, body, options) != r.checksum:
            continue
        repair = "; ".join(why)
        reports[k] = replace(r, status="repaired", text=text, body=body, computed=r.checksum,
                             repair=f"{r.repair}; {repair}" if r.repair else repair)
        diags.append(warning(f"repaired line {r.number}: {repair} (the checksum skips blanks)",
                             src.span(r.line, 1), *([] if src.span(r.line, 1).source else
                                                   [note(f"line {r.number} reads: {r.number} {r.printed}")])))


def _settled_fixes(r: LineReport, words: Words, upper: bool, options: ChecksumOptions) -> LineReport:
    """A bad line's fixes with their blanks inside quotes settled (:func:`_settle_blanks`), each
    where its checksum stays the one it verifies with."""
    texts, fixes = list(r.fixed_texts), list(r.fixes)
    for j, fixed in enumerate(r.fixed_texts):
        text, why = settle(fixed, r.number, words)
        value = r.fix_checksums[j] if j < len(r.fix_checksums) and r.fix_checksums[j] is not None else r.checksum
        body = line_body(text, upper) if why else None
        if body is None or value is None or line_checksum(r.number, body, options) != value:
            continue
        texts[j] = text
        if j < len(fixes):
            fixes[j] = f"{fixes[j]}; " + "; ".join(why)
    return replace(r, fixed_texts=tuple(texts), fixes=tuple(fixes))


def _joint(rec: Record, printed: str, upper: bool, options: ChecksumOptions, learned: frozenset[tuple[str, str]],
           habit_pairs: frozenset[tuple[str, str]], vocabulary: Vocabulary,
           tried: Tried) -> tuple[list[Fix], str] | None:
    """A line still bad read with its near-certain misreadings read at once (:mod:`.normal`) and
    what they leave ranked as the second ranking ranks (deep, the listing's confusions and
    habits): (the fixes, as edits of the line as printed; why the best is taken, "" when it is
    not).  Taken as a line still bad is, only with a second witness (:func:`.verdict.confirmed`,
    :func:`.verdict.sole_reading`, :func:`.verdict.habitual`) on the line as read jointly; one that
    verifies so with nothing left to change, when it shows no damage and no reading of it ranked
    comes within twice the margin.  None: no near-certain misreading, or nothing found."""
    assert rec.checksum is not None
    first = normal_edits(printed, upper, habit_pairs)
    if not first:
        return None
    text = apply(printed, first)
    fixes = rank_fixes(rec.number, text, rec.checksum, upper, options, learned=learned, deep=True, tried=tried,
                       habits=habit_pairs)
    cost = sum(e.cost for e in first)
    verifies = checksum_of(rec.number, text, upper, options) == rec.checksum
    if verifies:  # (the line as read jointly, first: the reading the ranking's fixes are rivals of)
        fixes = [Fix(0.0, text, (), True), *(f for f in fixes if f.checksum is None)]
    found = [Fix(cost + f.cost, f.text, compose(printed, first, f.edits), f.evidence, f.checksum)
             if f.checksum is None else f for f in fixes]
    if not fixes or fixes[0].checksum is not None:
        return (found, "") if found else None
    named = ", ".join(dict.fromkeys(e.why for e in first))
    stopped = tried.skipped or tried.wide_left
    if verifies:
        sure = not stopped and shows_damage(text, upper) is None and not damage_left(text, upper) \
            and all(f.cost >= 2 * AUTO_MARGIN for f in fixes[1:])
        return found, (f"; read with its near-certain misreadings at once ({named}), it verifies" if sure else "")
    words = None if stopped else confirmed(fixes, upper, text, vocabulary, rec.number)
    sole = not stopped and words is None and sole_reading(
        fixes, upper, tried.takeable_chance(fixes[0].cost + 2 * AUTO_MARGIN, text, upper))
    usual = not stopped and words is None and not sole and habitual(fixes, upper, tried.habit_chance(fixes[0].cost))
    if not (words or sole or usual):
        return found, ""
    witness = ("the listing prints " + ", ".join(f"'{w.upper()}'" for w in words) + " in other lines") if words \
        else "no other reading comes near it" if sole else "a habit of the listing's"
    return found, f"; read with its near-certain misreadings at once ({named}), then {witness}"


def _merged(fixes: list[Fix], more: list[Fix]) -> list[Fix]:
    """Two rankings' fixes of one line, cheapest first, each text once (its cheaper fix)."""
    best: dict[tuple[str, int | None], Fix] = {}
    for f in [*fixes, *more]:
        key = (f.text, f.checksum)
        if key not in best or f.cost < best[key].cost:
            best[key] = f
    return sorted(best.values(), key=lambda f: (f.cost, f.text))


def _familiar_chance(tried: Tried, printed: str, upper: bool, lexicon: Lexicon, number: int) -> Callable[[float], float]:
    """The chance of a cost that the familiar readings of line *number* tried give a chance match
    (:meth:`.rank.Tried.familiar_chance`): each reading tested as :func:`.verdict.familiar` tests the
    best, familiar (:func:`.verdict.familiar_reading`) and leaving no damage."""
    def familiar_one(edits: tuple[Edit, ...], shown: frozenset[int], quoted: list[bool]) -> bool:
        # (a reading that leaves damage is never taken, and is no rival: its chance match changes nothing)
        return familiar_reading(printed, edits, lexicon, number, shown, quoted) is not None \
            and not damage_left(apply(printed, edits), upper)

    return lambda cost: tried.familiar_chance(cost, printed, upper, familiar_one)


def _habit_witnesses(fix: Fix, own: tuple[Habit, ...]) -> str:
    """The lines that show the habits a fix is made of, for a person."""
    used = {e.why.split(" read as ")[0] for e in fix.edits}
    parts = [f"{len(h.lines)} lines of the listing verify with '{h.printed}' read for '{h.meant}'"
             for h in own if h.meant in used]
    return "; ".join(parts)


AS_PRINTED_COST = 2.0  # the line as printed, where it verifies but shows damage: offered after the cheap fixes


def _unreadable_field(text: str) -> re.Match | None:
    """'<m>' at the end of a line's text: a checksum field whose digits OCR lost (no control name)."""
    m = _UNREADABLE_FIELD.search(text)
    return m if m is not None and m.start() and normalize_controls(m.group(1)) == m.group(1) else None


def _between(last: int, following: int | None) -> str:
    """Where a line whose number OCR lost stands: between its neighbours (to type it from the print)."""
    return f" (between line {last} and line {following})" if following is not None else f" (after line {last})"


GRID_SHARE = 0.8  # numbers that are multiples of 10, above which a listing is numbered in tens
MAX_PLACES = 4  # numbers a lost line's place leaves it, above which its checksum is no witness


def _grid(numbers: list[int]) -> int:
    """The step a listing numbers its lines in: 10 where nearly every number is a multiple of 10
    (as 64'er's listings were), else 1."""
    return 10 if numbers and sum(n % 10 == 0 for n in numbers) >= GRID_SHARE * len(numbers) else 1


def _place(checksum: int | None, printed: str, last: int, following: int | None, grid: int, before: int,
           after: int, upper: bool, options: ChecksumOptions) -> tuple[int, str] | None:
    """The number of a line whose number OCR lost (rows run together, a row without its number),
    and why: the numbers its place leaves -- after the last line read, before the next one, on the
    listing's grid of numbers, a number left for each of the *before* and *after* lines lost
    around it -- of which exactly one gives the printed *checksum* with the line as printed.  A
    line that must be repaired first keeps no number: the number a repair verifies with could be
    a chance match, and a lost line the layout did not find would shift the places.  None: no
    number is sure."""
    if checksum is None or following is None:
        return None
    step = grid if last % grid == 0 and following % grid == 0 else 1
    # (every number read so far is at most *last*: the free numbers are the grid's between)
    free = (following - 1) // step - last // step
    if free - before - after > MAX_PLACES:
        return None
    places = [last + step * k for k in range(1 + before, free - after + 1)]
    if not 1 <= len(places) <= MAX_PLACES or (len(places) > 1 and damage_left(printed, upper)):
        return None  # (a line that shows damage can verify with one of several numbers by chance)
    fits = [n for n in places if checksum_of(n, printed, upper, options) == checksum]
    if len(fits) != 1:
        return None
    if len(places) == 1:
        return fits[0], f"{fits[0]}, the only number its place leaves, gives its checksum <{checksum:03d}>"
    return fits[0], (f"of the numbers its place leaves ({', '.join(map(str, places))}) only {fits[0]} gives "
                     f"its checksum <{checksum:03d}>")


def _renumber(rec: Record, printed: str, last: int, following: int | None, seen: dict[int, int], upper: bool,
              options: ChecksumOptions) -> int | None:
    """A line number out of order that OCR misread: one digit read as another puts it between
    its neighbours and its line verifies with it ('540 NEXT A <052> 350 : <018> 560 ...' on
    64'er 10/85 p. 131 is line 550)."""
    if rec.checksum is None or (rec.number > last and rec.number not in seen
                                and (following is None or rec.number < following)):
        return None
    for number in number_readings(rec.number_text):
        if number > last and number not in seen and (following is None or number < following) and \
                checksum_of(number, printed, upper, options) == rec.checksum:
            return number
    return None


def _opener_misread(rec: Record, printed: str, upper: bool, options: ChecksumOptions) -> tuple[str, str] | None:
    """A checksum read without its opening bracket, a short mark before it that is the bracket
    misread ('REM * * z 209 >', 'REM <; 218 >'; 64'er 10/85 p. 132): the line without the mark
    verifies."""
    assert rec.checksum is not None
    if not rec.checksum_text or rec.checksum_text[0] in "<({[\u00ab":
        return None
    m = re.search(r"\s(\S{1,2})$", printed)
    if m is None:
        return None
    head = printed[: m.start()].rstrip()
    if not head or checksum_of(rec.number, head, upper, options) != rec.checksum:
        return None
    return head, f"'{m.group(1)}' before the checksum is its '<' misread"


def _damaged_field(rec: Record, printed: str, field: DamagedField, where: Span, upper: bool,
                   options: ChecksumOptions, diags: list[Diagnostic], reports: list[LineReport | None]) -> bool:
    """A line whose checksum field OCR damaged past reading (``-^38>``, ``<j Q9 >``): checked
    against every value the field can be.  The line as printed giving one of them is taken
    (with one digit unreadable only where the line shows no damage: one in 26 would match by
    chance); up to three values, the fixes for each are ranked together and the best taken
    when it is sure.  False: not read (the line stays without a checksum)."""
    context = [] if where.source else [note(f"line {rec.number} reads: {rec.number} {printed}")]
    computed = checksum_of(rec.number, field.head, upper, options)
    text, value, repair = None, None, ""
    if computed in field.values and (len(field.values) <= 3 or not damage_left(field.head, upper)):
        text, value = field.head, computed
        repair = f"the checksum field '{field.text}' read as <{computed:03d}> (the line as printed gives it)"
    elif len(field.values) <= 3:
        ranked = sorted(((f, v) for v in field.values
                         for f in rank_fixes(rec.number, field.head, v, upper, options) if f.checksum is None),
                        key=lambda fv: (fv[0].cost, fv[0].text))
        if confident([f for f, _ in ranked], upper):
            best, value = ranked[0]
            text = best.text
            repair = (describe(field.head, best, value) +
                      f"; the checksum field '{field.text}' read as <{value:03d}>")
    if text is None or value is None:
        return False
    diags.append(warning(f"repaired line {rec.number}: {repair}", where, *context))
    reports.append(LineReport(rec.number, rec.line, "repaired", printed, text, value, value,
                              line_body(text, upper), repair))
    return True


def _conclude(rec: Record, printed: str, body: bytes | None, computed: int | None, cs_where: Span,
              fixes: list[Fix], upper: bool, options: ChecksumOptions, diags: list[Diagnostic],
              reports: list[LineReport | None], at: int | None = None, sure: bool = True, skipped: int = 0,
              why: str = "", problem: str = "", wide_left: int = 0) -> None:
    """A line that does not verify as printed: repaired (its best fix is sure) or bad (its fixes named)."""
    assert rec.checksum is not None

    def put(report: LineReport) -> None:
        if at is None:
            reports.append(report)
        else:
            reports[at] = report

    context = [] if cs_where.source else [note(f"line {rec.number} reads: {rec.number} {printed}")]
    if sure and (why or confident(fixes, upper)) and fixes[0].checksum is None:
        best = fixes[0]
        repair = describe(printed, best, rec.checksum) + why
        joined = keyword_join(best.text, rec.number, rec.checksum, upper, options)
        if joined is not None:  # "TH EN" left by a fix elsewhere: whole either way, taken whole
            best, repair = joined[0], repair + "; " + joined[1]
        new_body = line_body(best.text, upper)
        diags.append(warning(f"repaired line {rec.number}: {repair}", cs_where, *context))
        put(LineReport(rec.number, rec.line, "repaired", printed, best.text, rec.checksum,
                       rec.checksum, new_body, repair))
        return
    described = tuple(describe(printed, f, rec.checksum) for f in fixes)
    notes = context + [note("possible fix: " + d) for d in described[:MAX_FIXES_SHOWN]]
    if len(fixes) > MAX_FIXES_SHOWN:
        notes.append(note(f"{len(fixes) - MAX_FIXES_SHOWN} less likely changes also match"))
    if skipped:
        notes.append(note(f"not searched further: {skipped} candidates (a line's search reads {MAX_LINE_TEXTS} "
                          f"texts at most, a listing's {LISTING_TEXTS})"))
    if wide_left:
        notes.append(note(f"the widest search (several misreadings at once) stopped at its bounds ({WIDE_TEXTS} "
                          f"texts, {WIDE_STEPS} combinations looked at): {wide_left} combinations left"))
    if problem:
        what = problem
    elif body is None:
        what = f"line {rec.number}: unreadable control-code name or character; the line cannot be tokenized"
    else:
        what = (f"checksum mismatch in line {rec.number} (computed {computed:03d}, printed "
                f"{rec.checksum_text})")
    diag = error(what, cs_where, *notes)
    diags.append(diag)
    put(LineReport(rec.number, rec.line, "bad", printed, printed, rec.checksum, computed, body, "",
                   described, tuple(f.text for f in fixes), diag, tuple(f.cost for f in fixes),
                   tuple(f.checksum for f in fixes), tuple(kind_of(f) for f in fixes)))


__all__ = ["LineReport", "Lost", "ReadResult", "read_listings"]


