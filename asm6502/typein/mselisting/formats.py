"""The MSE line formats as objects: one per version, each saying what differs between them.

:class:`V1Format` (MSE V1.0, 8 bytes a line in hex and a hex checksum) and :class:`V2Format`
(V2.0 and V2.1, 15 bytes a line in the letter code and a 2-letter checksum; V2.0's checksum
depends on the start address).  :data:`FORMATS` lists the versions, once: writing, reading
and checking ask the format, and adding a version is one entry here (plus its checksum in
codec.py when it is a new one).
"""

from __future__ import annotations

from collections.abc import Callable

from asm6502.diagnostics import error, note, warning
from asm6502.typein.confusion import ORDINARY_COST, SECOND_CHANGE_COST, TRANSPOSE_COST, char_cost
from asm6502.typein.mselisting.codec import (
    _ALPHA_VALUE,
    _HEX,
    ALPHA_LOOKALIKES,
    ALPHABET,
    MAX_FIXES_SHOWN,
    V1_RULE,
    V2_CHECKSUM_GAP,
    WILDCARD,
    checksum_v1,
    checksum_v2,
    decode_v2_checksum,
    decode_v2_data,
    encode_v2_checksum,
    encode_v2_data,
    read_hex,
)

TYPE_CHECKING = False  # (writing a listing needs none of the reading modules: start-up, tests/test_imports.py)
if TYPE_CHECKING:
    from asm6502.typein.mselisting.ocr import Budget
    from asm6502.typein.mselisting.parsing import Header, LineRecord, SourceText

Consider = Callable[[str, float, str], None]  # (a changed line's characters, its cost, why) -> None


def reason(pairs: list[tuple[str, str]]) -> str:
    """Why a change is likely: the OCR confusions among the (printed, meant) pairs."""
    names = [f"{m} read as {p}" for p, m in pairs if char_cost(p, m) < ORDINARY_COST]
    return f" ({', '.join(names)}: common OCR confusion)" if names else ""


class MseFormat:
    """What one MSE version prints, and how a line of it is read and checked."""

    version: str
    bytes_per_line: int
    payload_chars: int  # characters after the address: the data and the checksum
    alphabet: str  # the characters the data and the checksum are written with
    shape: str  # a line's payload in words (for messages)
    start_in_checksum = False  # the checksum depends on the listing's start address
    short_lines = False  # a line may hold fewer bytes (only the last one)
    unknown_end_warning = False  # without a header, say that the last line is kept whole

    # -- writing

    def format_line(self, address: int, data: bytes, start: int | None = None) -> str:
        raise NotImplementedError

    def rule(self, rows: list[str]) -> str:
        """The dashed rule under the header."""
        raise NotImplementedError

    def pads_last_line(self, last_line: str) -> bool:
        """Whether the last line is filled up to a whole line (``last_line``: "short" or "full")."""
        raise NotImplementedError

    # -- reading

    def norm_char(self, c: str) -> str | None:
        """A payload character as read (look-alikes taken as what they look like), None if none."""
        raise NotImplementedError

    def find_records(self, text: str, begin: int, src: SourceText, header: Header | None) -> tuple[list[LineRecord], list]:
        raise NotImplementedError

    def decode(self, digits: str) -> tuple[int, bytes, int | None]:
        """(address, data, printed checksum value) of a line's characters."""
        raise NotImplementedError

    def checksum(self, address: int, data: bytes, start: int) -> int:
        raise NotImplementedError

    def show_checksum(self, value: int) -> str:
        raise NotImplementedError

    def verifies(self, digits: str, start: int) -> bool:
        if WILDCARD in digits:
            return False
        address, data, printed = self.decode(digits)
        return printed is not None and self.checksum(address, data, start) == printed

    def shaped(self, rec: LineRecord) -> bool:
        """A line shaped like this format's (for a listing whose checksums cannot decide)."""
        return rec.complete

    def last_line_shapes(self, end: int, final: int) -> set[int]:
        """Lengths (in characters) a short last line at ``final`` may have, the header ending at ``end``."""
        return set()

    def no_checksum(self, rec: LineRecord) -> bool:
        """A line with its bytes but nothing after them (checksum column lost)."""
        return False

    def printed_checksum(self, rec: LineRecord) -> str:
        return rec.printed[-2:]

    # -- checking

    def check_line(self, rec: LineRecord, address: int, data: bytes, case, diags: list, src: SourceText,
                   addr_note: list, budget: Budget | None = None) -> tuple[bytes, str, str, tuple[bytes, ...]] | None:
        """(data, status, repair, fixes) of a line checked this format's own way; None: the common way.
        *budget*: the listing's search budget (:class:`ocr.Budget`)."""
        return None

    def describe_change(self, rec: LineRecord, new: str, at: int) -> str:
        """What changes in the data from character ``at`` on, in listing terms."""
        raise NotImplementedError

    def more_fixes(self, rec: LineRecord, start: int, consider: Consider) -> None:
        """Changes beyond single characters that may make ``rec`` verify."""


class V1Format(MseFormat):
    """MSE V1.0 (64'er 2/85-6/90): ``3400 : A9 93 20 D2 FF A9 01 8D 42``."""

    version = "1.0"
    bytes_per_line = 8
    payload_chars = 18  # 8 bytes and the checksum in hex
    alphabet = _HEX
    shape = "8 data bytes and a checksum"
    short_lines = True

    def format_line(self, address: int, data: bytes, start: int | None = None) -> str:
        body = " ".join(f"{b:02X}" for b in data)
        return f"{address:04X} : {body} {checksum_v1(address, data):02X}"

    def rule(self, rows: list[str]) -> str:
        return V1_RULE

    def pads_last_line(self, last_line: str) -> bool:
        return last_line == "full"

    def norm_char(self, c: str) -> str | None:
        r = read_hex(c)
        return r[0] if r else None

    def find_records(self, text, begin, src, header):
        from asm6502.typein.mselisting.parsing import records_by_structure

        return records_by_structure(text, begin, src, header)

    def decode(self, digits: str) -> tuple[int, bytes, int | None]:
        return int(digits[:4], 16), bytes.fromhex(digits[4:-2]), int(digits[-2:], 16)

    def checksum(self, address: int, data: bytes, start: int) -> int:
        return checksum_v1(address, data)

    def show_checksum(self, value: int) -> str:
        return f"{value:02X}"

    def shaped(self, rec: LineRecord) -> bool:  # 8 two-digit bytes, checksum column or not
        return rec.complete or (len(rec.cells) >= 16 and len(rec.cells) % 2 == 0)

    def last_line_shapes(self, end: int, final: int) -> set[int]:
        return {4 + 2 * (end - final + 1)}

    def no_checksum(self, rec: LineRecord) -> bool:
        return not rec.complete and len(rec.cells) == 16

    def printed_checksum(self, rec: LineRecord) -> str:
        return rec.digits[-2:]

    def check_line(self, rec, address, data, case, diags, src, addr_note, budget=None):
        """Verify a line; repair it when one reading is clearly the most likely (asm6502.typein.mselisting.ocr)."""
        from asm6502.typein.mselisting import ocr

        payload = rec.digits[4:]
        if ocr.verifies(address, payload):
            return data, "verified", "", ()
        cells = rec.cells
        before = budget.skipped if budget is not None else 0
        fixes = ocr.rank_fixes(address, cells, case, budget=budget)
        stopped = (budget.skipped - before) if budget is not None else 0
        swaps = ocr.transpositions(address, cells, TRANSPOSE_COST)
        ranked = sorted(fixes + [c for c in swaps if c.digits not in {f.digits for f in fixes}],
                        key=lambda c: (c.cost, c.digits))

        def text_of(c: ocr.Candidate) -> str:
            return ocr.describe(address, cells, c, swapped=c in swaps)

        cs_at = rec.offsets[-2]
        if ocr.confident(ranked) and not stopped:  # (a search cut short repairs nothing unasked)
            best = ranked[0]
            repair = text_of(best)
            diags.append(warning(f"repaired line ${address:04X}: {repair}", src.span(cs_at, 2), *addr_note))
            return bytes.fromhex(best.digits[:-2]), "repaired", repair, ()
        shown = ranked[:MAX_FIXES_SHOWN]
        if all(len(c.changes) > 1 for c in shown):
            # a typed listing's typo is one arbitrary character: show the likeliest single change too
            shown += [c for c in ranked[MAX_FIXES_SHOWN:] if len(c.changes) == 1][:1]
        notes = addr_note + [note("possible fix: " + text_of(f)) for f in shown]
        if len(ranked) > len(shown):
            notes.append(note(f"{len(ranked) - len(shown)} less likely changes also match"))
        if stopped:
            notes.append(note(f"not searched further: {stopped} candidates (a listing's repairs try "
                              f"{ocr.LISTING_READINGS} readings at most)"))
        if WILDCARD in payload:
            what = f"unreadable character in the line for ${address:04X}"
            what += "" if ranked else " (no reading verifies)"
        else:
            computed = checksum_v1(address, data)
            what = f"checksum mismatch at ${address:04X} (computed {computed:02X}, printed {payload[-2:]})"
        diags.append(error(what, src.span(cs_at, 2), *notes))
        return data, "bad", "", tuple(bytes.fromhex(f.digits[:-2]) for f in ranked)

    def describe_change(self, rec: LineRecord, new: str, at: int) -> str:
        k = (at - 4) // 2
        lo = 4 + 2 * k
        return f"byte at ${rec.address + k:04X}: {new[lo:lo + 2]} instead of {rec.printed[lo:lo + 2]}"

    def more_fixes(self, rec: LineRecord, start: int, consider: Consider) -> None:
        digits, printed = rec.digits, rec.printed
        for lo in range(4, len(digits), 2):  # whole-byte changes, incl. the checksum byte
            for value in range(256):
                pair = f"{value:02X}"
                hi_d, lo_d = pair[0], pair[1]
                if hi_d == digits[lo] or lo_d == digits[lo + 1]:
                    continue  # single-digit changes were tried above
                new = digits[:lo] + hi_d + lo_d + digits[lo + 2 :]
                if (hi_d, lo_d) == (digits[lo + 1], digits[lo]):
                    consider(new, TRANSPOSE_COST, " (digits swapped)")
                else:
                    pairs = [(printed[lo], hi_d), (printed[lo + 1], lo_d)]
                    consider(new, SECOND_CHANGE_COST + sum(char_cost(p, m) for p, m in pairs), reason(pairs))


class V2Format(MseFormat):
    """MSE V2.0 (7/90-4/91) and V2.1 (5/91-5/94): ``0801: apdl fa35 fhxc llw6 7777 75e7  bu``."""

    bytes_per_line = 15
    payload_chars = 26  # 24 characters of data and a 2-character checksum
    alphabet = ALPHABET
    shape = "6 groups of 4 characters and a 2-character checksum"
    unknown_end_warning = True

    def __init__(self, version: str, start_in_checksum: bool):
        self.version = version
        self.start_in_checksum = start_in_checksum

    def format_line(self, address: int, data: bytes, start: int | None = None) -> str:
        chars = encode_v2_data(data)
        groups = " ".join(chars[i : i + 4] for i in range(0, 24, 4))
        v = checksum_v2(address, data, start=address if start is None else start, version=self.version)
        return f"{address:04x}: {groups}{V2_CHECKSUM_GAP}{encode_v2_checksum(v)}"

    def rule(self, rows: list[str]) -> str:
        return "-" * max(len(V1_RULE), *(len(r) for r in rows))

    def pads_last_line(self, last_line: str) -> bool:
        return True  # (V2.x lines are always whole: see the package docstring)

    def norm_char(self, c: str) -> str | None:
        lc = c.lower()
        if lc in _ALPHA_VALUE:
            return lc
        return ALPHA_LOOKALIKES.get(c)

    def find_records(self, text, begin, src, header):
        from asm6502.typein.mselisting.parsing import records_by_candidates

        return records_by_candidates(text, begin, src, self)

    def decode(self, digits: str) -> tuple[int, bytes, int | None]:
        return int(digits[:4], 16), decode_v2_data(digits[4:28]), decode_v2_checksum(digits[28:30])

    def checksum(self, address: int, data: bytes, start: int) -> int:
        return checksum_v2(address, data, start=start, version=self.version)

    def show_checksum(self, value: int) -> str:
        return encode_v2_checksum(value)

    def describe_change(self, rec: LineRecord, new: str, at: int) -> str:
        group = (at - 4) // 4
        lo = 4 + 4 * group
        return f"group {group + 1} '{new[lo:lo + 4]}' instead of '{rec.printed[lo:lo + 4]}'"

    def more_fixes(self, rec: LineRecord, start: int, consider: Consider) -> None:
        digits, printed = rec.digits, rec.printed
        n = len(digits)
        for i in range(4, n - 1):
            if digits[i] != digits[i + 1] and i != n - 3:
                new = digits[:i] + digits[i + 1] + digits[i] + digits[i + 2 :]
                consider(new, TRANSPOSE_COST, " (characters swapped)")
        address, data, _ = self.decode(digits)
        want = encode_v2_checksum(self.checksum(address, data, start))
        pairs = [(printed[n - 2], want[0]), (printed[n - 1], want[1])]
        extra = SECOND_CHANGE_COST if all(p != m for p, m in pairs) else 0.0
        consider(digits[: n - 2] + want, extra + sum(char_cost(p, m) for p, m in pairs), reason(pairs))


# every MSE version, oldest first (a reading that cannot decide takes the older format)
FORMATS: dict[str, MseFormat] = {f.version: f for f in (V1Format(), V2Format("2.0", start_in_checksum=True), V2Format("2.1", start_in_checksum=False))}
VERSIONS: tuple[str, ...] = tuple(FORMATS)
BYTES_PER_LINE: dict[str, int] = {version: f.bytes_per_line for version, f in FORMATS.items()}
DEFAULT_VERSION = VERSIONS[0]  # what writing takes unless told: V1.0, the format of most listings (64'er 2/85-6/90)
