"""The C128's BASIC 7.0 keywords, for reading printed C128 listings.

BASIC 7.0 keeps V2's tokens $80-$CB and adds tokens $CC-$FD, and two prefixes for further
keywords stored in two bytes: $CE before functions, $FE before statements (Commodore 128
Programmer's Reference Guide, appendix on BASIC tokens; the same tables as VICE's petcat
``-w70``).  A C128 BASIC program is stored from $1C01.

:func:`crunch_text` stores a printed line's text as BASIC 7.0 does for the keywords it prints:
at each place outside quotes, REM and DATA the longest keyword of V2 and 7.0 that starts there
(the text of a listing is what LIST printed, so each keyword printed is one token; the C128
ROM's own search order is not modelled).  It reads only what a printed listing holds: letters,
digits, signs; no control codes.
"""

from __future__ import annotations

from asm6502.basic.tokens import KEYWORDS as V2_KEYWORDS

START = 0x1C01  # where the C128 keeps a BASIC program (bank 0)

_SINGLE = (  # $CC-$FD, $CE and $FE being the prefixes
    "RGR", "RCLR", None, "JOY", "RDOT", "DEC", "HEX$", "ERR$", "INSTR", "ELSE", "RESUME", "TRAP", "TRON",
    "TROFF", "SOUND", "VOL", "AUTO", "PUDEF", "GRAPHIC", "PAINT", "CHAR", "BOX", "CIRCLE", "GSHAPE",
    "SSHAPE", "DRAW", "LOCATE", "COLOR", "SCNCLR", "SCALE", "HELP", "DO", "LOOP", "EXIT", "DIRECTORY",
    "DSAVE", "DLOAD", "HEADER", "SCRATCH", "COLLECT", "COPY", "RENAME", "BACKUP", "DELETE", "RENUMBER",
    "KEY", "MONITOR", "USING", "UNTIL", "WHILE",
)
# the second bytes from $02 on (a prefix's byte $20 and $22 would be a blank and a quote: no keyword has them)
_CE = ("POT", "BUMP", "PEN", "RSPPOS", "RSPRITE", "RSPCOLOR", "XOR", "RWINDOW", "POINTER")
_FE = ("BANK", "FILTER", "PLAY", "TEMPO", "MOVSPR", "SPRITE", "SPRCOLOR", "RREG", "ENVELOPE", "SLEEP", "CATALOG",
       "DOPEN", "APPEND", "DCLOSE", "BSAVE", "BLOAD", "RECORD", "CONCAT", "DVERIFY", "DCLEAR", "SPRSAV",
       "COLLISION", "BEGIN", "BEND", "WINDOW", "BOOT", "WIDTH", "SPRDEF", "QUIT", "STASH", None, "FETCH", None,
       "SWAP", "OFF", "FAST", "SLOW")

TOKENS: dict[str, bytes] = {
    **{kw: bytes([0x80 + i]) for i, kw in enumerate(V2_KEYWORDS)},
    **{kw: bytes([0xCC + i]) for i, kw in enumerate(_SINGLE) if kw is not None},
    **{kw: bytes([0xCE, 0x02 + i]) for i, kw in enumerate(_CE)},
    **{kw: bytes([0xFE, 0x02 + i]) for i, kw in enumerate(_FE) if kw is not None},
}
V7_ONLY = frozenset(kw for kw in TOKENS if kw not in V2_KEYWORDS)
# the tokens a statement starts with: V2's END .. NEW and GO, 7.0's ELSE .. MONITOR and the $FE ones
STATEMENT_STARTS = frozenset(range(0x80, 0xA3)) | {0xCB} | frozenset(range(0xD5, 0xFB)) | {0xFE}
_LONGEST = max(len(kw) for kw in TOKENS)
_REM, _DATA = 0x8F, 0x83


def crunch_text(text: str) -> bytes:
    """The bytes BASIC 7.0 stores for a line's text (small letters are the keywords' letters,
    as a C128 in its upper-case/graphics set types them); ValueError on a character a listing
    cannot hold."""
    out = bytearray()
    k, data = 0, False
    while k < len(text):
        c = text[k]
        if ord(c) > 0x7E:
            raise ValueError(f"no BASIC 7.0 text: {c!r}")
        if c == '"':
            end = text.find('"', k + 1)
            end = len(text) if end < 0 else end + 1
            out += text[k:end].upper().encode("ascii")
            k = end
            continue
        if data and c != ":":
            out += c.upper().encode("ascii")
            k += 1
            continue
        data = False
        word = _keyword_at(text, k)
        if word is None:
            out += ("\x99" if c == "?" else c.upper()).encode("latin-1")
            k += 1
            continue
        token = TOKENS[word]
        out += token
        k += len(word)
        if token[0] == _REM:
            out += text[k:].upper().encode("ascii")
            break
        data = token[0] == _DATA
    return bytes(out)


def _keyword_at(text: str, k: int) -> str | None:
    here = text[k:k + _LONGEST].upper()
    for n in range(min(_LONGEST, len(here)), 0, -1):
        if here[:n] in TOKENS:
            return here[:n]
    return None


__all__ = ["START", "STATEMENT_STARTS", "TOKENS", "V7_ONLY", "crunch_text"]
