"""PETSCII in listing text: petcat conventions plus tok64 and 64'er spellings.

Text convention (VICE petcat, "lowercase" listings):

* lowercase ASCII ``a-z``  -> unshifted letters ``$41-$5A`` (shown as capitals in
  the C64's power-on upper-case/graphics mode),
* uppercase ASCII ``A-Z``  -> shifted letters ``$C1-$DA``,
* ``\\`` -> pound ``$5C``, ``^`` -> up-arrow ``$5E``, ``_`` -> left-arrow ``$5F``,
  ``~`` -> pi ``$FF``; ``$20-$40``, ``[`` and ``]`` are themselves,
* anything else in braces: ``{clr}`` (petcat), ``{clear}`` (tok64), ``{CLR}`` /
  ``{RVSON}`` (64'er), ``{$93}``, ``{147}``; repeats ``{5 down}``, ``{down*5}``,
  ``{2SPACE}``.  Names are matched case-insensitively, ignoring blanks and dots
  (``{rvs on}`` = ``{RVSON}``, ``{LIG.RED}`` = ``{lig red}``).

Sources: VICE petcat's ctrl1/ctrl2/cbmkeys name tables; TOK64 1.4 (Cris
Berneburg, 1996) "special" names and ``{ddd*n}`` repeats; 64'er 5/85 and 11/85
(Checksummer instructions: ``{DOWN}``, ``{CLEAR}``, ``{CTRL-A}``, ``{2SPACE}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# --- byte -> canonical name (what ``list`` prints), petcat spelling -------------

# $00-$1F, petcat ctrl1 (unnamed entries are written {CTRL-x} like newer petcat)
_CTRL1 = {
    0x03: "stop", 0x05: "wht", 0x08: "dish", 0x09: "ensh", 0x0E: "swlc",
    0x11: "down", 0x12: "rvon", 0x13: "home", 0x14: "del", 0x1B: "esc",
    0x1C: "red", 0x1D: "rght", 0x1E: "grn", 0x1F: "blu",
}
# $80-$9F, petcat ctrl2
_CTRL2 = {
    0x81: "orng", 0x85: "f1", 0x86: "f3", 0x87: "f5", 0x88: "f7", 0x89: "f2",
    0x8A: "f4", 0x8B: "f6", 0x8C: "f8", 0x8D: "sret", 0x8E: "swuc", 0x90: "blk",
    0x91: "up", 0x92: "rvof", 0x93: "clr", 0x94: "inst", 0x95: "brn", 0x96: "lred",
    0x97: "gry1", 0x98: "gry2", 0x99: "lgrn", 0x9A: "lblu", 0x9B: "gry3",
    0x9C: "pur", 0x9D: "left", 0x9E: "yel", 0x9F: "cyn",
}
# $A0-$BF, petcat cbmkeys (Commodore-key graphics)
_CBMKEYS = (
    "SHIFT-SPACE", "CBM-K", "CBM-I", "CBM-T", "CBM-@", "CBM-G", "CBM-+", "CBM-M",
    "CBM-POUND", "SHIFT-POUND", "CBM-N", "CBM-Q", "CBM-D", "CBM-Z", "CBM-S", "CBM-P",
    "CBM-A", "CBM-E", "CBM-R", "CBM-W", "CBM-H", "CBM-J", "CBM-L", "CBM-Y",
    "CBM-U", "CBM-O", "SHIFT-@", "CBM-F", "CBM-C", "CBM-X", "CBM-V", "CBM-B",
)
# shifted graphics in $C0-$DF that are not letters
_SHIFTED_GRAPHICS = {
    0xC0: "SHIFT-*", 0xDB: "SHIFT-+", 0xDC: "CBM--", 0xDD: "SHIFT--",
    0xDF: "CBM-*",
}  # $DE is not named: the screen editor reads that cell back as pi, $FF ($E67C)


def _canonical_names() -> dict[int, str]:
    names: dict[int, str] = {}
    for code in range(0x01, 0x1B):
        names[code] = f"CTRL-{chr(0x40 + code)}"
    names.update(_CTRL1)
    names.update(_CTRL2)
    for i, name in enumerate(_CBMKEYS):
        names[0xA0 + i] = name
    names.update(_SHIFTED_GRAPHICS)
    return names


CANONICAL_NAME: dict[int, str] = _canonical_names()

# --- extra spellings accepted on input (tok64, 64'er, 64tass/petsym) -------------
_ALIASES: dict[str, int] = {
    # tok64 1.4 "special" table
    "clear": 0x93, "right": 0x1D, "reverse on": 0x12, "reverse off": 0x92,
    "black": 0x90, "white": 0x05, "cyan": 0x9F, "purple": 0x9C, "green": 0x1E,
    "blue": 0x1F, "yellow": 0x9E, "orange": 0x81, "brown": 0x95, "pink": 0x96,
    "dark gray": 0x97, "gray": 0x98, "light green": 0x99, "light blue": 0x9A,
    "light gray": 0x9B, "space": 0x20, "pi": 0xFF,
    # 64'er magazine spellings
    "rvson": 0x12, "rvsoff": 0x92, "rvs on": 0x12, "rvs off": 0x92,
    "rvoff": 0x92,  # 64'er 10/85 prints {RVSON} ... {RVOFF} (pp. 32, 70-73; issue 24b's real print)
    "lig.red": 0x96, "lig.green": 0x99, "lig.blue": 0x9A, "light red": 0x96,
    "grey1": 0x97, "grey2": 0x98, "grey3": 0x9B, "grey": 0x98,
    "gray1": 0x97, "gray2": 0x98, "gray3": 0x9B, "dark grey": 0x97, "light grey": 0x9B,
    "insert": 0x94, "delete": 0x14, "return": 0x0D, "cr": 0x0D, "shift return": 0x8D,
    "lt red": 0x96, "lt green": 0x99, "lt blue": 0x9A,
    "lower case": 0x0E, "upper case": 0x8E, "run": 0x83, "pound": 0x5C,
    "up arrow": 0x5E, "left arrow": 0x5F, "shift-up arrow": 0xDE, "cbm-up arrow": 0xDE,
    "shift-^": 0xDE, "cbm-pound": 0xA8, "shift-pound": 0xA9, "shift-space": 0xA0,
}


def _norm(name: str) -> str:
    return re.sub(r"[\s.]", "", name).lower()


def _build_name_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for code in range(0x01, 0x1B):  # {CTRL-A}..{CTRL-Z}, also where petcat has a name
        table[f"ctrl-{chr(0x60 + code)}"] = code
    for code, name in CANONICAL_NAME.items():
        table[_norm(name)] = code
    for name, code in _ALIASES.items():
        table[_norm(name)] = code
    for letter in "abcdefghijklmnopqrstuvwxyz":
        table[f"control-{letter}"] = ord(letter) - 0x60  # 64tass spelling
        table[f"shift-{letter}"] = ord(letter) - 0x61 + 0xC1
    return table


NAME_TABLE: dict[str, int] = _build_name_table()

# --- plain characters ------------------------------------------------------------
PI = 0xFF


def char_to_petscii(ch: str) -> int | None:
    """PETSCII code of one literal listing character, or None if it has none."""
    o = ord(ch)
    if 0x20 <= o <= 0x40 or ch in "[]":
        return o
    if "a" <= ch <= "z":
        return o - 0x20  # unshifted letter $41-$5A
    if "A" <= ch <= "Z":
        return o + 0x80  # shifted letter $C1-$DA
    return {"\\": 0x5C, "£": 0x5C, "^": 0x5E, "↑": 0x5E, "_": 0x5F, "←": 0x5F,
            "~": PI, "π": PI}.get(ch)


def petscii_to_char(code: int) -> str | None:
    """The listing character for a PETSCII code, or None if it needs ``{...}``."""
    if 0x20 <= code <= 0x40 or code in (0x5B, 0x5D):
        return chr(code)
    if 0x41 <= code <= 0x5A:
        return chr(code + 0x20)
    if 0xC1 <= code <= 0xDA:
        return chr(code - 0x80)
    return {0x5C: "\\", 0x5E: "^", 0x5F: "_", PI: "~"}.get(code)


def escape(code: int, *, named: bool = True) -> str:
    """``{name}`` (petcat spelling) if the code has one and *named*, else ``{$hh}``."""
    if named and code in CANONICAL_NAME:
        return "{" + CANONICAL_NAME[code] + "}"
    return "{$%02x}" % code


# --- parsing ---------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """One PETSCII byte of a source line.

    *escaped* is True when it was written as ``{...}``: it cannot be typed outside
    quotes, and the tokenizer stores it as it is (no keyword matching).
    *col* and *width* locate the source text it came from (1-based column).
    """

    code: int
    escaped: bool
    col: int
    width: int


@dataclass(frozen=True)
class TextError:
    col: int
    width: int
    message: str


_COUNT_FIRST = re.compile(r"^(\d+)(?:\s+|(?=[^\d\s]))(\S.*)$")  # {5 down}, {2SPACE}, not {255}
_COUNT_LAST = re.compile(r"^(.*?\S)\s*\*\s*(\d+)$")  # {down*5}, {001*5}


def _atom(text: str) -> int | None:
    t = text.strip()
    if re.fullmatch(r"\$[0-9a-fA-F]{1,2}", t):
        return int(t[1:], 16)
    if re.fullmatch(r"\d{1,3}", t):
        value = int(t)
        return value if value <= 255 else None
    return NAME_TABLE.get(_norm(t))


def parse_brace(inner: str) -> tuple[int, int] | None:
    """``(code, count)`` for the text between braces, or None if unknown."""
    code = _atom(inner)
    if code is not None:
        return code, 1
    for pattern, count_group, atom_group in ((_COUNT_FIRST, 1, 2), (_COUNT_LAST, 2, 1)):
        m = pattern.match(inner.strip())
        if m:
            code = _atom(m.group(atom_group))
            count = int(m.group(count_group))
            if code is not None and 1 <= count <= 255:
                return code, count
    return None


def parse_text(text: str, first_col: int = 1) -> tuple[list[Piece], list[TextError]]:
    """Turn listing text into PETSCII pieces; collect every error (never raises)."""
    pieces: list[Piece] = []
    errors: list[TextError] = []
    i = 0
    while i < len(text):
        ch = text[i]
        col = first_col + i
        if ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                errors.append(TextError(col, len(text) - i, "'{' without a closing '}'"))
                break
            inner = text[i + 1 : end]
            width = end - i + 1
            parsed = parse_brace(inner)
            if parsed is None:
                errors.append(TextError(col, width, f"unknown control-code name {{{inner}}}"))
            else:
                code, count = parsed
                pieces.extend(Piece(code, True, col, width) for _ in range(count))
            i = end + 1
            continue
        code = char_to_petscii(ch)
        if code is None:
            what = "a tab" if ch == "\t" else repr(ch)
            errors.append(TextError(col, 1, f"{what} has no PETSCII equivalent (write {{$hh}})"))
        else:
            pieces.append(Piece(code, False, col, 1))
        i += 1
    return pieces, errors
