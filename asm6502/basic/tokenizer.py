"""C64 BASIC V2 tokenizer and lister that reproduce what the real machine stores.

``tokenize(text)`` behaves like typing each line on a C64: the screen editor
hands the line to BASIC's main loop ($A480), the line number is read by LINGET
($A96B), the rest is crunched by CRUNCH ($A579 -> $A57C), and the line is
inserted in line-number order (a repeated number replaces the line, a bare
number deletes it).  ``detokenize(prg)`` lists a program the way petcat does,
and guarantees that tokenizing its text gives the same bytes back.

ROM facts this module depends on (C64 BASIC ROM 901226-01, KERNAL 901227-03;
addresses from the Marko Maekelae / mist64 disassembly):

* CRUNCH $A57C-$A612, in this order for every byte outside quotes and REM:
  a byte >= $80 other than $FF (pi) is *skipped, not stored* ($A585-$A58C); a
  space is stored ($A58E); a quote copies everything up to the closing quote
  or the line end ($A594 -> $A5EE); in DATA mode (flag $0F bit 6) the byte is
  stored as it is ($A598); ``?`` becomes $99 PRINT ($A59C); ``0-9 : ;``
  ($30-$3B) are stored ($A5A4-$A5AA); anything else starts a keyword search.
* The keyword search walks the table at $A09E front to back, comparing input
  minus table byte: 0 = go on, $80 = keyword ends here (the table's last letter
  has bit 7 set, or the *input* letter is shifted: that is how ``pO`` = POKE
  works), anything else = try the next keyword.  The first keyword that
  matches wins; the token is $80 + number of keywords tried ($A5B0-$A604).
  Keywords are therefore found inside names (``scORe`` -> sc OR e).
* After storing: ``:`` ends DATA mode, $83 DATA starts it, $8F REM copies the
  rest of the line unchanged ($A5D3-$A5F3).
* Shifted letters outside quotes, REM and keyword abbreviations are thrown
  away by $A585: typing ``10 A=1`` with a shifted A stores ``=1``.  Control
  codes cannot reach CRUNCH outside quotes at all: the KERNAL screen reader
  ($E63C-$E652) turns reverse-video cells into control codes only in quote
  mode, and it reads the pi cell back as $FF ($E67C-$E680).
* LINGET skips spaces between digits and after the number (CHRGET $0073) and
  gives ?SYNTAX ERROR once the value reaches 6400 before another digit
  ($A97B), so line numbers are 0-63999.
* The screen editor drops trailing spaces of the logical line (80 cells).
* A program line in memory: link (2 bytes, little-endian address of the next
  line), line number (2), the bytes, $00; $0000 ends the program.  LOAD relinks
  ($A533): it only looks at each link's high byte to find the end.
* LIST ($A6C9-$A742) prints a byte >= $80 outside quotes as a keyword, also
  after REM; petcat (and this lister) print REM text literally instead.
"""

from __future__ import annotations

import re

from asm6502 import petscii
from asm6502.basic.tokens import KEYWORD_OF, KEYWORDS, PI_TOKEN
from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, warning
from asm6502.petscii import Piece
from asm6502.tuples import named_tuple

BASIC_START = 0x0801
MAX_LINE_NUMBER = 63999
SCREEN_LINE = 80  # one logical screen line: 2 x 40 columns
MAX_TYPED = 5000  # longer lines are an error, not a warning (a line of megabytes would take minutes to tokenize)
LIST_LIMIT = 252  # LIST indexes a line with Y from 4 and stops when Y wraps to 0 ($A700)
BASIC_END = 0xA000  # BASIC RAM ends below the BASIC ROM

TOKEN_DATA = 0x83
TOKEN_REM = 0x8F
TOKEN_PRINT = 0x99
QUOTE = 0x22
COLON = 0x3A
SPACE = 0x20


def _keyword_table() -> bytes:
    """The ROM's keyword list at $A09E: last letter of each word has bit 7 set, $00 ends it."""
    out = bytearray()
    for kw in KEYWORDS:
        raw = kw.encode("ascii")
        out += raw[:-1] + bytes([raw[-1] | 0x80])
    return bytes(out + b"\x00")


KEYWORD_TABLE = _keyword_table()
FIRST_CODES = frozenset(kw.encode("ascii")[0] for kw in KEYWORDS)


# --------------------------------------------------------------------------- results
@named_tuple
class ProgramLine:
    """One stored line: its address (of the link field), number and bytes (no $00)."""

    number: int
    body: bytes
    address: int
    link: int
    source_line: int | None = None  # line in the text file (tokenize)
    text: str | None = None  # listing text (detokenize)


@named_tuple
class TokenizeResult:
    prg: bytes  # 2-byte load address + program + $0000
    lines: tuple[ProgramLine, ...]
    diagnostics: tuple[Diagnostic, ...]
    start: int = BASIC_START

    @property
    def image(self) -> bytes:
        return self.prg[2:]


@named_tuple
class DetokenizeResult:
    text: str  # the listing, one line per program line, each ending in "\n"
    lines: tuple[ProgramLine, ...]
    diagnostics: tuple[Diagnostic, ...]
    start: int = BASIC_START
    end: int = BASIC_START  # address after the $0000 end marker (or of the data's end)
    trailing: bytes = b""  # bytes after the end marker (machine code?)


# --------------------------------------------------------------------------- CRUNCH
def _match_keyword(buf: list[Piece], start: int, codes: list[int | None] | None = None) -> tuple[int, int] | None:
    """The ROM keyword search ($A5AC-$A604) at buf[start]: (token, bytes used) or None.

    Escaped pieces never match (they cannot be typed, so they stop a keyword).  *codes* is
    the buffer as codes, None for an escaped piece, and the $00 terminator at its end
    (crunch passes it once per line: the walk reads it often).
    """
    if codes is None:
        codes = _codes(buf)
    first = codes[start]
    if first not in FIRST_CODES:
        # the walk below can only match where the first byte equals a keyword's first letter
        # (a shifted first letter never gets here: $A585 skips bytes >= $80); a shortcut, same result
        return None
    last = len(codes) - 1  # the terminator: read again past the end, as at() did
    # A shortcut, same result: the walk passes every keyword whose first letter differs after
    # one compare, counting it; so only the keywords starting with this byte are walked, each
    # with its table count.  A match running on past a keyword's last byte (the buffer holds
    # that shifted byte itself) is left to the walk below, which reproduces the ROM's count.
    for count, y in _KEYWORDS_BY_FIRST.get(first, ()):
        x = start
        while True:
            a = codes[x if x < last else last]
            table = KEYWORD_TABLE[y]
            if a is None:
                break
            diff = (a - table) & 0xFF
            if diff == 0 and table < 0x80:
                x += 1
                y += 1
                continue
            if diff == 0x80:
                return (0x80 | count) & 0xFF, x + 1 - start
            if diff == 0:
                return _rom_walk(codes, start, last)
            break
    return None


def _rom_walk(codes: list[int | None], start: int, last: int) -> tuple[int, int] | None:
    """$A5AC-$A604 byte by byte, the whole table from its start."""
    y = 0
    count = 0
    while True:
        x = start
        while True:
            a = codes[x if x < last else last]
            table = KEYWORD_TABLE[y]
            if a is None or (table == 0 and a == 0):
                diff = None  # never matches (the ROM would read past its table)
            else:
                diff = (a - table) & 0xFF
            if diff == 0:
                x += 1
                y += 1
                continue
            break
        if diff == 0x80:
            return (0x80 | count) & 0xFF, x + 1 - start
        if table == 0:
            return None
        count += 1
        y += 1
        while KEYWORD_TABLE[y - 1] < 0x80:  # skip to the next keyword ($A5F9)
            y += 1
        if KEYWORD_TABLE[y] == 0:
            return None


def _keywords_by_first() -> dict[int, list[tuple[int, int]]]:
    """For each first byte, the keywords starting with it: (table count, table offset)."""
    out: dict[int, list[tuple[int, int]]] = {}
    y = count = 0
    while KEYWORD_TABLE[y] != 0:
        out.setdefault(KEYWORD_TABLE[y] & 0x7F, []).append((count, y))  # (a one-byte keyword: + - * / ^ > = <)
        while KEYWORD_TABLE[y] < 0x80:
            y += 1
        y += 1
        count += 1
    return out


_KEYWORDS_BY_FIRST = _keywords_by_first()


def _codes(buf: list[Piece]) -> list[int | None]:
    """The buffer as _match_keyword reads it: codes, None where escaped, then the $00 end."""
    return [None if p.escaped else p.code for p in buf] + [0]


@named_tuple
class CrunchResult:
    body: bytes
    dropped: tuple[Piece, ...]  # shifted/graphic bytes the ROM skipped


def crunch(buf: list[Piece]) -> CrunchResult:
    """Tokenize one line's text (after the line number) exactly as CRUNCH does."""
    out = bytearray()
    dropped: list[Piece] = []
    data_mode = False
    i = 0
    n = len(buf)
    codes = _codes(buf)

    def copy_to(stop: int | None, i: int) -> int:
        """Copy raw until *stop* (copied too) or the line end ($A5E5-$A5F3)."""
        while i < n:
            code = buf[i].code
            out.append(code)
            i += 1
            if stop is not None and code == stop:
                break
        return i

    while i < n:
        piece = buf[i]
        c = piece.code
        if piece.escaped:
            stored, i = c, i + 1  # written as {..}: stored as is, no keyword search
            if c == QUOTE:
                out.append(c)
                i = copy_to(QUOTE, i)
                continue
        elif c >= 0x80 and c != PI_TOKEN:
            dropped.append(piece)  # $A585: bytes >= $80 are skipped
            i += 1
            continue
        elif c in (PI_TOKEN, SPACE):
            stored, i = c, i + 1
        elif c == QUOTE:
            out.append(c)
            i = copy_to(QUOTE, i + 1)
            continue
        elif data_mode:
            stored, i = c, i + 1
        elif c == 0x3F:  # '?'
            stored, i = TOKEN_PRINT, i + 1
        elif 0x30 <= c < 0x3C:
            stored, i = c, i + 1
        else:
            match = _match_keyword(buf, i, codes)
            if match is None:
                stored, i = c, i + 1
            else:
                stored, used = match
                i += used
        out.append(stored)
        if stored == COLON:
            data_mode = False
        elif stored == TOKEN_DATA:
            data_mode = True
        elif stored == TOKEN_REM:
            i = copy_to(None, i)
    return CrunchResult(bytes(out), tuple(dropped))


def crunch_text(text: str) -> bytes:
    """Crunch a line's text (no line number); raises ValueError on bad text."""
    pieces, errors = petscii.parse_text(text)
    if errors:
        raise ValueError(errors[0].message)
    return crunch(pieces).body


# --------------------------------------------------------------------------- tokenize
_LINE_NUMBER = re.compile(r"[ ]*([0-9][0-9 ]*)")


@named_tuple
class _Entry:
    number: int
    body: bytes
    source_line: int


def _tokenize_line(
    raw: str, lineno: int, filename: str, diags: list[Diagnostic]
) -> tuple[int, bytes] | None:
    span = Span(filename, lineno, 1, max(1, len(raw)), raw)
    m = _LINE_NUMBER.match(raw)
    if not m or not m.group(1).strip():
        first = len(raw) - len(raw.lstrip(" "))
        diags.append(error("missing line number (a C64 would run this line at once)", span.at(first + 1)))
        return None
    digits_text = m.group(1).rstrip(" ")
    digits = digits_text.replace(" ", "")
    num_col = m.start(1) + 1
    if " " in digits_text:
        diags.append(warning(
            f"the C64 reads '{digits_text}' as line number {digits.lstrip('0') or '0'} (spaces between digits are skipped)",
            span.at(num_col, len(digits_text))))
    # LINGET ($A97B): ?SYNTAX ERROR once the value is >= 6400 before another digit
    value = 0
    for ch in digits:
        if value >= 6400:
            value = None
            break
        value = value * 10 + int(ch)
    if value is None:
        diags.append(error(f"line number {digits} is out of range 0-{MAX_LINE_NUMBER}",
                           span.at(num_col, len(digits_text))))
        return None
    body_start = m.end()
    body_text = raw[body_start:]
    stripped = body_text.rstrip(" ")
    if len(stripped) != len(body_text) and stripped:
        diags.append(warning(
            "trailing spaces are dropped by the C64 screen editor (write {space} to keep them)",
            span.at(body_start + len(stripped) + 1, len(body_text) - len(stripped))))
    body_text = stripped
    pieces, text_errors = petscii.parse_text(body_text, body_start + 1)
    for e in text_errors:
        diags.append(error(e.message, span.at(e.col, e.width)))
    if text_errors:
        return None
    for p in pieces:
        if p.code == 0:
            diags.append(error("$00 ends a BASIC line; it cannot be inside one", span.at(p.col, p.width)))
            return None
    # escapes the screen editor cannot produce outside quote mode ($E63C-$E652)
    quote = False
    for p in pieces:
        if p.code == QUOTE:
            quote = not quote
        elif p.escaped and not quote and not _typeable_outside_quotes(p.code):
            diags.append(warning(
                f"{petscii.escape(p.code)} cannot be typed outside quotes on a C64 (stored as ${p.code:02X})",
                span.at(p.col, p.width)))
    # screen cells as typed: the number (and blanks) as written, then one cell per byte
    typed = body_start - (len(raw) - len(raw.lstrip(" "))) + len(pieces)
    if typed > MAX_TYPED:  # no C64 line: CRUNCH works in the 89-byte input buffer ($0200-$0258)
        diags.append(error(
            f"line {value} is {typed:,} characters as typed; a C64 screen line holds {SCREEN_LINE} "
            f"(the line is not tokenized)", span.at(1, len(raw))))
        return None
    if typed > SCREEN_LINE:
        diags.append(warning(
            f"line {value} is {typed} characters as typed; a C64 screen line holds {SCREEN_LINE}",
            span.at(1, len(raw))))
    result = crunch(pieces)
    for p in result.dropped:
        diags.append(warning(
            f"the C64 does not store {_describe(p.code)} outside quotes and REM (CRUNCH $A585 skips it)",
            span.at(p.col, p.width)))
    if len(result.body) > LIST_LIMIT:
        diags.append(warning(
            f"line {value} is {len(result.body)} bytes; LIST on a C64 stops after {LIST_LIMIT}",
            span.at(1, len(raw))))
    return value, result.body


def _typeable_outside_quotes(code: int) -> bool:
    return 0x20 <= code <= 0x5F or 0xA0 <= code <= 0xDF or code == PI_TOKEN


def _describe(code: int) -> str:
    ch = petscii.petscii_to_char(code)
    if ch is not None and ch.isupper():
        return f"the shifted letter {ch!r}"
    return petscii.escape(code)


PETCAT_HEADER = re.compile(r"^\s*;.*==([0-9a-fA-F]{4})==\s*$")  # petcat's ";name.prg ==0801==" first line


def tokenize(text: str, *, filename: str = "<input>", start: int = BASIC_START) -> TokenizeResult:
    """Tokenize a petcat-style listing into a .prg as a C64 would store it when typed.

    Raises DiagnosticError if any line has an error; warnings are in the result.
    """
    if not 0 <= start <= 0xFFFF:
        raise DiagnosticError([error(f"start address ${start:X} is not a 16-bit address")])
    diags: list[Diagnostic] = []
    program: dict[int, _Entry] = {}
    last_number = -1
    if text.startswith("\ufeff"):  # a UTF-8 byte-order mark from some editors
        text = text[1:]
    for lineno, raw in enumerate(text.split("\n"), start=1):
        raw = raw.rstrip("\r")
        if raw.strip() == "":
            continue
        header = PETCAT_HEADER.match(raw)  # no BASIC line looks like it: a line starts with its number
        if header:  # petcat prints ";name.prg ==0801==" above a listing (and listings get joined)
            address = int(header.group(1), 16)
            if address != start:
                diags.append(warning(f"the petcat header says the program loads at ${address:04X}; it is tokenized "
                                     f"for ${start:04X} (--start {address:04X} follows the header)",
                                     Span(filename, lineno, 1, len(raw), raw)))
            continue
        if raw.lstrip().startswith(";"):
            # a comment line in petcat text (a disk text's erratum notes under the header): no BASIC
            # line starts with ';' -- a typed line starts with its number
            continue
        parsed = _tokenize_line(raw, lineno, filename, diags)
        if parsed is None:
            continue
        number, body = parsed
        span = Span(filename, lineno, 1, max(1, len(raw)), raw)
        if not body:
            diags.append(warning(f"typing a bare line number deletes line {number} on a C64", span))
            program.pop(number, None)
            continue
        if number in program:
            diags.append(warning(
                f"line {number} again: the C64 replaces line {number} "
                f"(first at {filename}:{program[number].source_line})", span))
        elif number < last_number:
            diags.append(warning(f"line {number} comes after line {last_number}; the C64 sorts it in", span))
        last_number = max(last_number, number)
        program[number] = _Entry(number, body, lineno)
    if any(d.is_error for d in diags):
        raise DiagnosticError(diags)
    try:
        prg, lines = link_program([(n, program[n].body, program[n].source_line) for n in sorted(program)], start)
    except ValueError as exc:
        raise DiagnosticError(diags + [error(str(exc))]) from None
    if start == BASIC_START and start + len(prg) - 2 > BASIC_END:
        diags.append(warning(
            f"program ends at ${start + len(prg) - 2:04X}, beyond BASIC RAM ($0801-$9FFF)"))
    return TokenizeResult(prg, tuple(lines), tuple(diags), start)


def link_program(entries: list[tuple[int, bytes, int | None]], start: int = BASIC_START) -> tuple[bytes, list[ProgramLine]]:
    """The .prg of (number, body, source line) entries in the order given, as LOAD relinks them.

    Raises ValueError if the program does not fit below $10000.
    """
    lines: list[ProgramLine] = []
    image = bytearray()
    address = start
    for number, body, source_line in entries:
        link = address + 4 + len(body) + 1
        if link > 0xFFFF:
            raise ValueError("program does not fit below $10000")
        lines.append(ProgramLine(number, body, address, link, source_line))
        image += link.to_bytes(2, "little") + number.to_bytes(2, "little") + body + b"\x00"
        address = link
    image += b"\x00\x00"
    return start.to_bytes(2, "little") + bytes(image), lines


# --------------------------------------------------------------------------- listing
def _render(body: bytes, level: int) -> str:
    """Listing text for a line body.

    level 0: petcat style; 1: also every non-token byte outside quotes/REM as
    {$hh}; 2: every byte outside quotes/REM as {$hh}.
    """
    out: list[str] = []
    mode = "normal"  # normal | quote | rem | data
    last = len(body) - 1
    for i, c in enumerate(body):
        if mode in ("quote", "rem"):
            if c == QUOTE and mode == "quote":
                out.append('"')
                mode = "normal"
                continue
            ch = petscii.petscii_to_char(c)
            if ch is None or (ch == " " and i == last):
                out.append(petscii.escape(c))
            else:
                out.append(ch)
            continue
        # normal or DATA mode
        if c == QUOTE and level < 2:
            out.append('"')
            mode = "quote"
            continue
        is_token = c in KEYWORD_OF or c == PI_TOKEN
        if level == 2 or (level == 1 and not is_token):
            out.append(petscii.escape(c, named=False))
        elif c in KEYWORD_OF and mode == "normal":
            out.append(KEYWORD_OF[c].lower())
        elif c == PI_TOKEN:
            out.append("~")
        else:
            ch = petscii.petscii_to_char(c)
            # a blank first or last, or a digit first, would not survive typing
            # (LINGET/CHRGET eat them after the number; the editor drops trailing blanks)
            edge = ch is not None and ((ch == " " and (i == 0 or i == last)) or (i == 0 and ch.isdigit()))
            if ch is None or edge or (mode == "data" and c in KEYWORD_OF):
                out.append(petscii.escape(c, named=False))
            else:
                out.append(ch)
        # the same checks CRUNCH makes after storing a byte ($A5D3-$A5E1)
        if c == QUOTE:
            mode = "quote"
        elif c == COLON:
            mode = "normal"
        elif c == TOKEN_DATA:
            mode = "data"
        elif c == TOKEN_REM:
            mode = "rem"
    return "".join(out)


def list_line(body: bytes) -> tuple[str, bool]:
    """(text, exact): the most readable text that tokenizes back to *body*."""
    for level in (0, 1, 2):
        text = _render(body, level)
        try:
            if crunch_text(text) == body:
                return text, level == 0
        except ValueError:
            continue
    return _render(body, 2), False


def detokenize(prg: bytes, *, filename: str = "<prg>") -> DetokenizeResult:
    """List a .prg (load address + BASIC program); warn about anything odd, never crash."""
    diags: list[Diagnostic] = []
    if len(prg) < 2:
        raise DiagnosticError([error(f"{filename}: not a .prg file ({len(prg)} bytes, no load address)")])
    start = int.from_bytes(prg[:2], "little")
    mem = prg[2:]
    if start != BASIC_START:
        diags.append(warning(f"{filename}: loads at ${start:04X}, not at the C64's BASIC start $0801"))
    lines: list[ProgramLine] = []
    text_lines: list[str] = []
    off = 0
    end = start + len(mem)
    previous = -1
    while True:
        if off + 2 > len(mem):
            diags.append(warning(f"{filename}: the program has no $0000 end marker (file ends at ${start + len(mem):04X})"))
            break
        link = int.from_bytes(mem[off : off + 2], "little")
        if link >> 8 == 0:  # LINKPRG ($A53C) ends at a link whose high byte is 0
            if link:
                diags.append(warning(f"{filename}: end marker at ${start + off:04X} is ${link:04X}, not $0000"))
            end = start + off + 2
            break
        if off + 4 > len(mem):
            diags.append(warning(f"{filename}: the file ends inside a line header at ${start + off:04X}"))
            break
        number = int.from_bytes(mem[off + 2 : off + 4], "little")
        term = mem.find(b"\x00", off + 4)
        truncated = term < 0
        body = bytes(mem[off + 4 :] if truncated else mem[off + 4 : term])
        address = start + off
        next_address = start + (len(mem) if truncated else term + 1)
        where = f"{filename}: line {number} at ${address:04X}"
        if truncated:
            diags.append(warning(f"{where} has no $00 terminator (the file ends)"))
        elif link != next_address:
            diags.append(warning(f"{where}: link ${link:04X} should be ${next_address:04X} (a C64 relinks after LOAD)"))
        if number > MAX_LINE_NUMBER:
            diags.append(warning(f"{where}: line number {number} cannot be typed (0-{MAX_LINE_NUMBER})"))
        if number <= previous:
            diags.append(warning(f"{where} does not follow line {previous} in order"))
        previous = max(previous, number)
        text, exact = list_line(body)
        if not body:
            diags.append(warning(f"{where} is empty; typing '{number}' on a C64 would delete it"))
        elif not exact:
            diags.append(warning(f"{where} is not what the C64 makes of its text; listed with {{$hh}} escapes"))
        if len(body) > LIST_LIMIT:
            diags.append(warning(f"{where} is {len(body)} bytes; LIST on a C64 stops after {LIST_LIMIT}"))
        line_text = f"{number} {text}" if body else str(number)
        text_lines.append(line_text)
        lines.append(ProgramLine(number, body, address, link, text=line_text))
        if truncated:
            end = start + len(mem)
            break
        off = term + 1
    trailing = bytes(mem[end - start :])
    if trailing:
        diags.append(warning(
            f"{filename}: {len(trailing)} bytes after the program end (${end:04X}-${end + len(trailing) - 1:04X}) "
            "are not BASIC (machine code or data?) and are not listed"))
    text = "".join(t + "\n" for t in text_lines)
    return DetokenizeResult(text, tuple(lines), tuple(diags), start, end, trailing)
