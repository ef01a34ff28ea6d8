"""A printed BASIC line as the C64 stores it: the text of a listing line as typed or OCR'd
goes through three readings before it is tokenized (:func:`line_body`):

1. control-code names as 64'er printed them and OCR read them: ``{CLR}``, ``<CLR,DOWN>``,
   ``{HOME, 2D0WNI`` (the closing brace read as ``I``, O as 0), ``C8SPACE,WHITE }`` (the
   opening brace read as ``C``) become petcat names (:func:`normalize_controls`);
2. typographic quotes become ``"``;
3. an all-capital listing is read with capitals as the unshifted letters (``case.from_capitals``).
"""

from __future__ import annotations

import re

from asm6502 import petscii
from asm6502.basic.case import from_capitals
from asm6502.basic.tokenizer import crunch
from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum

# --------------------------------------------------------------------------- reading a line
_OPENERS = "<{[(C"
_CLOSERS = ">})]I?"
_STRONG_CLOSERS = ">})]"
_MARKS = re.compile('["' + re.escape(_OPENERS) + "]")
_OPENS = re.compile(r'["<{\[]')
QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"'})


def _ocr_name(item: str) -> str:
    """A control name as OCR read it: count digits kept, O read as 0 in the name."""
    m = re.match(r"^\s*(\d*)\s*(.*?)\s*$", item, re.DOTALL)
    assert m is not None  # every string matches
    count, name = m.group(1), m.group(2)
    return count + name.replace("0", "O").replace(" ", "")


def _name_codes(inner: str, numeric_ok: bool) -> list[int] | None:
    codes: list[int] = []
    for item in inner.split(","):
        if not item.strip():
            return None
        if not numeric_ok and re.fullmatch(r"\s*\$?[0-9a-fA-F]*\s*", item):
            return None  # "(13)" is CHR$(13)'s argument, not a control code
        got = petscii.parse_brace(item) or petscii.parse_brace(_ocr_name(item))
        if got is None:
            return None
        codes += [got[0]] * got[1]
    return codes


def _spelled(codes: list[int]) -> str:
    out, k = [], 0
    while k < len(codes):
        n = 1
        while k + n < len(codes) and codes[k + n] == codes[k]:
            n += 1
        name = petscii.escape(codes[k])[1:-1]
        out.append("{" + (f"{n} {name}" if n > 1 else name) + "}")
        k += n
    return "".join(out)


Names = dict[tuple[str, bool], "list[int] | None"]  # a line's control names already read


def control_spans(text: str, names: Names | None = None) -> list[tuple[int, int, list[int]]]:
    """Where *text* (quotes already plain) spells control codes: (start, end, codes).  *names*:
    the names read before (the readings of one line repeat them)."""
    names = {} if names is None else names
    spans: list[tuple[int, int, list[int]]] = []
    if _OPENS.search(text) is None:  # no quote and no bracket that opens a name outside quotes
        return spans
    i = 0
    quote = False
    n = len(text)
    for m in _MARKS.finditer(text):  # (only quotes and openers are looked at: a span found skips on)
        if m.start() < i:
            continue
        i = m.start()
        c = text[i]
        if c == '"':
            quote = not quote
        if c in _OPENERS and (quote or c in "<{["):
            found = None
            for j in range(i + 1, min(n, i + 40)):
                d = text[j]
                if d == '"' or (d in "<{" and j > i + 1):
                    break
                if d not in _CLOSERS:
                    continue
                key = (text[i + 1 : j], c == "{")
                if key not in names:
                    names[key] = _name_codes(*key)
                codes = names[key]
                if codes:
                    found = (i, j + 1, codes)
                    break
                if d in _STRONG_CLOSERS:
                    break
            if found:
                spans.append(found)
                i = found[1]
    return spans


def plain_quotes(text: str) -> str:
    return text.replace("''", '"').translate(QUOTES)


def without_print_blanks(text: str) -> str:
    """*text* without the blanks inside quotes that stand beside a control code's braces.  The
    64'er listing printer folds a blank beside a control code into its braces (``<SPACE,RVSON>``,
    ``<RVOFF,SPACE>``, ``<LEFT,2SPACE>``; 10/85 p. 32), so a blank outside the braces there is
    the typesetting's or OCR's, never typed ('NICHT <RVOFF,SPACE >' is NICHT{rvof} and a blank) --
    but for blanks between two codes, where the print had something OCR lost.
    The checksum skips blanks: it cannot tell, the print's convention does."""
    plain = plain_quotes(text)
    if len(plain) != len(text):  # (offsets differ: '' read for a quote)
        return text
    spans = control_spans(plain)
    if not spans:
        return text
    quoted, quote = [], False
    for c in plain:
        if c == '"':
            quote = not quote
        quoted.append(quote and c != '"')
    drop: set[int] = set()
    for i, j, _ in spans:
        k = i - 1
        while k >= 0 and plain[k] == " " and quoted[k]:
            drop.add(k)
            k -= 1
        k = j
        while k < len(plain) and plain[k] == " " and quoted[k]:
            drop.add(k)
            k += 1
    for (_, j, _), (i, _, _) in zip(spans, spans[1:]):
        if not plain[j:i].strip(" "):  # blanks between two codes: the place of something OCR lost
            drop -= set(range(j, i))  # (10/85 p. 132 line 350: '<5RIGHT> <CYAN>', a rule of dashes)
    return "".join(c for k, c in enumerate(text) if k not in drop)


def normalize_controls(text: str, names: Names | None = None) -> str:
    """Control-code names in any of the bracket spellings OCR gives, as petcat ``{name}``s."""
    text = plain_quotes(text)
    out, last = [], 0
    for i, j, codes in control_spans(text, names):
        out.append(text[last:i] + _spelled(codes))
        last = j
    return "".join(out) + text[last:]


def petcat_text(text: str, upper: bool, names: Names | None = None) -> str:
    """A printed line's text (after its number) as petcat text."""
    text = normalize_controls(text, names)
    return from_capitals(text) if upper else text


def line_body(text: str, upper: bool) -> bytes | None:
    """The bytes the C64 stores for a printed line's text; None if it has unknown names."""
    return statement_bodies(text, upper, {})


def unblanked(body: bytes) -> bytes:
    """A stored line's bytes without the blanks outside quotes: 64'er printed a blank after
    keywords that the disk's program lacks (the Checksummer skips blanks, so both verify); two
    lines alike so are the same line to a reader comparing with the disk."""
    out, quote = bytearray(), False
    for b in body:
        if b == 0x22:
            quote = not quote
        if b == 0x20 and not quote:
            continue
        out.append(b)
    return bytes(out)


_CUTTING = re.compile(r'[":Rr]')


def _statements(plain: str) -> list[str]:
    """*plain* (quotes plain) cut at each ':' outside quotes, up to a REM: CRUNCH ($A579) leaves
    quotes and DATA at a ':' outside quotes, so each statement is tokenized as if it began the
    line.  One piece when a '{$..}' could be a quote or colon written as a code."""
    if "{$" in plain:
        return [plain]
    out, last, quote = [], 0, False
    upper = plain.upper()
    for m in _CUTTING.finditer(plain):  # (only the marks that cut or end the cutting are looked at)
        c, k = m.group(), m.start()
        if c == '"':
            quote = not quote
        elif not quote:
            if c == ":":
                out.append(plain[last:k])
                last = k + 1
            elif upper.startswith("REM", k):
                break  # (any case: a REM ends the cutting, whichever letters it is)
    out.append(plain[last:])
    return out


_CHUNK = re.compile(r"(\{[^{}]*\}|[{}]|[^{},]+,?|,)")


def _pieces(petcat: str, chunks: dict[str, list[petscii.Piece] | None]) -> list[petscii.Piece] | None:
    """``petscii.parse_text`` of *petcat* (None on an error), read in chunks -- each control
    name, and the text between them cut after each ',': the text is read one character or one
    ``{...}`` at a time, so the chunks' pieces make the whole's (their columns aside, which
    tokenizing does not use), and a reading of a line that changes one place reads one chunk."""
    out: list[petscii.Piece] = []
    for chunk in _CHUNK.findall(petcat):
        if chunk not in chunks:
            if len(chunk) > 1 and chunk[0] != "{":  # plain text: read a character at a time, each
                # character once a line (most chunks of a line's readings differ in one place)
                whole: list[petscii.Piece] | None = []
                for c in chunk:
                    if c not in chunks:
                        one, errors = petscii.parse_text(c)
                        chunks[c] = None if errors else one
                    got = chunks[c]
                    if got is None or whole is None:
                        whole = None
                        break
                    whole += got
                chunks[chunk] = whole
            else:
                pieces, errors = petscii.parse_text(chunk)
                chunks[chunk] = None if errors else pieces
        got = chunks[chunk]
        if got is None:
            return None
        out += got
    return out


def statement_bodies(text: str, upper: bool, cache: dict[str, bytes | None],
                     chunks: dict[str, list[petscii.Piece] | None] | None = None,
                     names: Names | None = None) -> bytes | None:
    """:func:`line_body`, each statement tokenized once per line read (*cache*: statement text ->
    bytes): the readings of a line differ in one or two places, so most of its statements
    repeat (tokenizing them again and again would be a large share of ``basic read``'s time)."""
    chunks = {} if chunks is None else chunks
    parts = _statements(plain_quotes(text))
    parts[0] = parts[0].lstrip(" ")
    parts[-1] = parts[-1].rstrip(" ")
    out = []
    for part in parts:
        if part not in cache:
            pieces = _pieces(petcat_text(part, upper, names), chunks)
            cache[part] = None if pieces is None else crunch(pieces).body
        body = cache[part]
        if body is None:
            return None
        out.append(body)
    return b":".join(out)


def checksum_of(number: int, text: str, upper: bool, options: ChecksumOptions) -> int | None:
    body = line_body(text, upper)
    return None if body is None else line_checksum(number, body, options)
