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
_CE = {0x02: "POT", 0x03: "BUMP", 0x04: "PEN", 0x05: "RSPPOS", 0x06: "RSPRITE", 0x07: "RSPCOLOR",
       0x08: "XOR", 0x09: "RWINDOW", 0x0A: "POINTER"}
_FE = {0x02: "BANK", 0x03: "FILTER", 0x04: "PLAY", 0x05: "TEMPO", 0x06: "MOVSPR", 0x07: "SPRITE",
       0x08: "SPRCOLOR", 0x09: "RREG", 0x0A: "ENVELOPE", 0x0B: "SLEEP", 0x0C: "CATALOG", 0x0D: "DOPEN",
       0x0E: "APPEND", 0x0F: "DCLOSE", 0x10: "BSAVE", 0x11: "BLOAD", 0x12: "RECORD", 0x13: "CONCAT",
       0x14: "DVERIFY", 0x15: "DCLEAR", 0x16: "SPRSAV", 0x17: "COLLISION", 0x18: "BEGIN", 0x19: "BEND",
       0x1A: "WINDOW", 0x1B: "BOOT", 0x1C: "WIDTH", 0x1D: "SPRDEF", 0x1E: "QUIT", 0x1F: "STASH",
       0x21: "FETCH", 0x23: "SWAP", 0x24: "OFF", 0x25: "FAST", 0x26: "SLOW"}

TOKENS: dict[str, bytes] = {
    **{kw: bytes([0x80 + i]) for i, kw in enumerate(V2_KEYWORDS)},
    **{kw: bytes([0xCC + i]) for i, kw in enumerate(_SINGLE) if kw is not None},
    **{kw: bytes([0xCE, b]) for b, kw in _CE.items()},
    **{kw: bytes([0xFE, b]) for b, kw in _FE.items()},
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
