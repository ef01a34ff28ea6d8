"""PETSCII: every character table and named convention of the C64's character codes, in one place.

* **Listing text** (VICE petcat's "lowercase" listings, also the assembler's ``.asc`` strings and the
  disassembler's text): lowercase ASCII ``a-z`` -> unshifted letters ``$41-$5A`` (shown as capitals in
  the power-on upper case/graphics set), uppercase ``A-Z`` -> shifted letters ``$C1-$DA``,
  ``\\`` (or ``£``) -> pound ``$5C``, ``^`` (``↑``) -> up arrow ``$5E``, ``_`` (``←``) -> left arrow
  ``$5F``, ``~`` (``π``) -> pi ``$FF``; ``$20-$40``, ``[`` and ``]`` are themselves
  (``char_to_petscii``, ``petscii_to_char``, ``ascii_to_petscii``, ``petscii_to_ascii``).
* **Names in braces**: ``{clr}`` (petcat), ``{clear}`` (tok64), ``{CLR}`` / ``{RVSON}`` (64'er),
  ``{$93}``, ``{147}``; repeats ``{5 down}``, ``{down*5}``, ``{2SPACE}``.  Names are matched
  case-insensitively, ignoring blanks and dots (``{rvs on}`` = ``{RVSON}``, ``{LIG.RED}`` =
  ``{lig red}``) (``CANONICAL_NAME``, ``NAME_TABLE``, ``parse_brace``, ``parse_text``, ``escape``).
* **The screen in the power-on upper case/graphics set** as a terminal shows it (``glyph``,
  ``petscii_to_text``; file names on a disk, ``display_name``).
* **Typing**: the C64 key a character of a PC's text stands for (``typed_code``); the code each
  key of the matrix gives without and with SHIFT (``KEY_CODES``, ``SHIFTED_KEY_CODES``).
* **Screen codes**: PETSCII -> screen code (``petscii_to_screen``), screen code -> Unicode in
  both character sets (``UPPER_SET``, ``LOWER_SET``, ``screen_code_char``).
* **Control codes** the screen editor obeys and the colour codes (``CLR``, ``COLOR_CODES``, ...).

Sources: C64 Programmer's Reference Guide (1982), appendix C (PETSCII codes), appendix E (screen
codes) and appendix "Keyboard matrix"; the KERNAL's key decode tables at $EB81/$EBC2 and its screen
editor (CHROUT $E716); VICE petcat's ctrl1/ctrl2/cbmkeys name tables; TOK64 1.4 (Cris Berneburg,
1996) "special" names and ``{ddd*n}`` repeats; 64'er 5/85 and 11/85 (Checksummer instructions:
``{DOWN}``, ``{CLEAR}``, ``{CTRL-A}``, ``{2SPACE}``).
"""

from __future__ import annotations

import re
from functools import cache

from asm6502.patterns import LazyPattern

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
    "rvoff": 0x92,  # 64'er 10/85 prints {RVSON} ... {RVOFF} (pp. 32, 70-73)
    "lig.red": 0x96, "lig.green": 0x99, "lig.blue": 0x9A, "light red": 0x96,
    "grey1": 0x97, "grey2": 0x98, "grey3": 0x9B, "grey": 0x98,
    "gray1": 0x97, "gray2": 0x98, "gray3": 0x9B, "dark grey": 0x97, "light grey": 0x9B,
    "insert": 0x94, "delete": 0x14, "return": 0x0D, "cr": 0x0D, "shift return": 0x8D,
    "lt red": 0x96, "lt green": 0x99, "lt blue": 0x9A,
    "lower case": 0x0E, "upper case": 0x8E, "run": 0x83, "pound": 0x5C,
    "up arrow": 0x5E, "left arrow": 0x5F, "shift-up arrow": 0xDE, "cbm-up arrow": 0xDE,
    "shift-^": 0xDE, "cbm-pound": 0xA8, "shift-pound": 0xA9, "shift-space": 0xA0,
    # Compute! and Compute!'s Gazette spellings ("How to type in programs"): {RVS} ... {OFF},
    # {5 SPACES}; the Commodore-key and shifted graphics as {C= X} and {SHIFT X} (below)
    "rvs": 0x12, "off": 0x92, "spaces": 0x20, "spc": 0x20,
    # (Ahoy!'s [CLEAR], [RVSON], [RVSOFF], [LT. RED] are above)
}


def _graphic_spellings() -> dict[str, int]:
    """``{C= X}`` / ``{C=X}`` for petcat's ``CBM-X`` and ``{SHIFT X}`` for ``SHIFT-X``: Compute!'s
    names for the graphics keys (a blank or none between the key and the character)."""
    out: dict[str, int] = {}
    for code, name in CANONICAL_NAME.items():
        for key, spelled in (("CBM-", "c="), ("SHIFT-", "shift")):
            if name.startswith(key):
                rest = name[len(key):].lower()
                out[spelled + rest] = code
                out[spelled + ("£" if rest == "pound" else rest)] = code
    for letter in "abcdefghijklmnopqrstuvwxyz":
        out[f"shift{letter}"] = ord(letter) - 0x61 + 0xC1
    return out


def _norm(name: str) -> str:
    """A name without blanks and dots, in lower case (``{rvs on}`` = ``{RVSON}``, ``{LIG.RED}`` = ``{lig red}``)."""
    return "".join(name.split()).replace(".", "").lower()


@cache  # (made at the first name read, not at every command's start: most runs read none)
def name_table() -> dict[str, int]:
    """Every brace name ``{...}`` -> its code: petcat's, the magazines' aliases, the graphics keys' spellings,
    64tass's ``control-x``/``shift-x``, each as ``_norm`` leaves it."""
    table: dict[str, int] = {}
    for code in range(0x01, 0x1B):  # {CTRL-A}..{CTRL-Z}, also where petcat has a name
        table[f"ctrl-{chr(0x60 + code)}"] = code
    for code, name in CANONICAL_NAME.items():
        table[_norm(name)] = code
    for name, code in _ALIASES.items():
        table[_norm(name)] = code
    for name, code in _graphic_spellings().items():
        table.setdefault(_norm(name), code)
    for letter in "abcdefghijklmnopqrstuvwxyz":
        table[f"control-{letter}"] = ord(letter) - 0x60  # 64tass spelling
        table[f"shift-{letter}"] = ord(letter) - 0x61 + 0xC1
    return table


TYPE_CHECKING = False
if TYPE_CHECKING:
    NAME_TABLE: dict[str, int]  # name_table()


def __getattr__(name: str) -> dict[str, int]:
    if name == "NAME_TABLE":
        return name_table()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
class Piece:
    """One PETSCII byte of a source line.

    *escaped* is True when it was written as ``{...}``: it cannot be typed outside
    quotes, and the tokenizer stores it as it is (no keyword matching).
    *col* and *width* locate the source text it came from (1-based column).
    (A plain class: a named tuple's class is made by ``exec`` at import, which every
    assembler command would pay for.)
    """

    __slots__ = ("code", "escaped", "col", "width")

    def __init__(self, code: int, escaped: bool, col: int, width: int):
        self.code, self.escaped, self.col, self.width = code, escaped, col, width

    def _key(self) -> tuple:
        return self.code, self.escaped, self.col, self.width

    def __eq__(self, other: object) -> bool:
        return type(other) is Piece and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Piece(code=%r, escaped=%r, col=%r, width=%r)" % self._key()


class TextError:
    """A character of a line that has no PETSCII code, or a ``{...}`` not understood: where, and why."""

    __slots__ = ("col", "width", "message")

    def __init__(self, col: int, width: int, message: str):
        self.col, self.width, self.message = col, width, message

    def __eq__(self, other: object) -> bool:
        return type(other) is TextError and (self.col, self.width, self.message) == (other.col, other.width, other.message)

    def __hash__(self) -> int:
        return hash((self.col, self.width, self.message))

    def __repr__(self) -> str:
        return f"TextError(col={self.col!r}, width={self.width!r}, message={self.message!r})"


_COUNT_FIRST = LazyPattern(r"^(\d+)(?:\s+|(?=[^\d\s]))(\S.*)$")  # {5 down}, {2SPACE}, not {255}
_COUNT_LAST = LazyPattern(r"^(.*?\S)\s*\*\s*(\d+)$")  # {down*5}, {001*5}


def _atom(text: str) -> int | None:
    t = text.strip()
    if re.fullmatch(r"\$[0-9a-fA-F]{1,2}", t):
        return int(t[1:], 16)
    if re.fullmatch(r"\d{1,3}", t):
        value = int(t)
        return value if value <= 255 else None
    return name_table().get(_norm(t))


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


# --- strings of listing text (the assembler's .asc and "c", the disassembler's text) ---------------
def _translation() -> dict[int, str | None]:
    """Every ASCII character -> the character whose code is its PETSCII code, or None (deleted)
    when it has none: ``str.translate`` converts a whole string at once."""
    table: dict[int, str | None] = {}
    for o in range(128):
        code = char_to_petscii(chr(o))
        table[o] = None if code is None else chr(code)
    return table


_TO_PETSCII = _translation()


def ascii_to_petscii(text: str) -> bytes:
    """Listing text -> PETSCII bytes; ValueError names the first character that has no code."""
    if text.isascii():
        converted = text.translate(_TO_PETSCII)
        if len(converted) == len(text):  # (no character was deleted)
            return converted.encode("latin-1")
    codes = [char_to_petscii(ch) for ch in text]
    if None in codes:
        bad = text[codes.index(None)]
        raise ValueError(f"character {bad!r} has no PETSCII equivalent")
    return bytes(codes)  # type: ignore[arg-type]


def petscii_to_ascii(data: bytes) -> str:
    """PETSCII bytes -> listing text; a byte without a character is written ``{$hh}``."""
    return "".join(petscii_to_char(b) or "{$%02x}" % b for b in data)


def brace_code(text: str, pos: int) -> tuple[int, int] | None:
    """A key written in braces at ``text[pos]``: ``{$93}`` or petcat's name for it (``{clr}``,
    ``{CBM-R}``, as a tokenized source is listed); returns (PETSCII code, length of the braces
    and their contents), or None when ``text[pos]`` starts no such code (or a repeat of one)."""
    if not text.startswith("{", pos):
        return None
    end = text.find("}", pos + 1)
    if end < 0:
        return None
    parsed = parse_brace(text[pos + 1 : end])
    if parsed is None or parsed[1] != 1:
        return None
    return parsed[0], end + 1 - pos


# --- control codes the screen editor obeys (CHROUT $E716; PRG appendix C) ---------------------------
CR, SHIFT_CR = 0x0D, 0x8D
CRSR_DOWN, CRSR_UP, CRSR_RIGHT, CRSR_LEFT = 0x11, 0x91, 0x1D, 0x9D
HOME, CLR = 0x13, 0x93
RVS_ON, RVS_OFF = 0x12, 0x92
DEL, INST = 0x14, 0x94
LOWER_CASE, UPPER_CASE = 0x0E, 0x8E
QUOTE = 0x22
SHIFTED_SPACE = 0xA0  # also pads names in a disk's directory and header

# colour control codes -> colour numbers (C64 User's Guide, appendix; the KERNAL's table at $E8DA)
COLOR_CODES: dict[int, int] = {
    0x90: 0, 0x05: 1, 0x1C: 2, 0x9F: 3, 0x9C: 4, 0x1E: 5, 0x1F: 6, 0x9E: 7,
    0x81: 8, 0x95: 9, 0x96: 10, 0x97: 11, 0x98: 12, 0x99: 13, 0x9A: 14, 0x9B: 15,
}


def is_control(code: int) -> bool:
    """$00-$1F and $80-$9F: codes the screen editor obeys rather than shows (outside quote mode)."""
    return code < 0x20 or 0x80 <= code < 0xA0


# --- the power-on upper case/graphics set as a terminal shows it -----------------------------------
# $20-$5B and $5D look like their ASCII characters; these are the others a terminal can show
_GLYPHS = {0x5C: "£", 0x5E: "↑", 0x5F: "←", 0xFF: "π", 0xDE: "π"}  # $DE and $FF: both screen code $5E


def glyph(code: int) -> str | None:
    """The character a PETSCII code shows as in the upper case/graphics set, if a terminal has it
    (letters $41-$5A are capitals; graphics characters have none here)."""
    if 0x20 <= code <= 0x5D and code != 0x5C:
        return chr(code)
    return _GLYPHS.get(code)


# ANSI terminal equivalents of the screen-editor controls; colours are dropped.
_ANSI: dict[int, str] = {
    CLR: "\x1b[2J\x1b[H", HOME: "\x1b[H", CRSR_DOWN: "\x1b[B", CRSR_UP: "\x1b[A",
    CRSR_RIGHT: "\x1b[C", CRSR_LEFT: "\x1b[D", RVS_ON: "\x1b[7m", RVS_OFF: "\x1b[27m", DEL: "\b \b",
}


def petscii_to_text(data: bytes | bytearray, ansi: bool = False) -> str:
    """PETSCII output for a terminal: CR ($0D, $8D) ends a line, letters $41-$5A are capitals
    (the upper case/graphics set); a control code is an ANSI cursor move (*ansi*) or its petcat
    name in braces (``{clr}``); a graphics character is ``{$xx}``."""
    parts = []
    for b in data:
        if b in (CR, SHIFT_CR):
            parts.append("\n")
            continue
        shown = glyph(b)
        if shown is not None:
            parts.append(shown)
        elif ansi and is_control(b):
            parts.append(_ANSI.get(b, ""))
        elif is_control(b) and b in CANONICAL_NAME:
            parts.append("{" + CANONICAL_NAME[b] + "}")
        else:
            parts.append(f"{{${b:02x}}}")
    return "".join(parts)


# --- typing: the key a PC's character stands for ------------------------------------------------------
_TYPED = {"£": 0x5C, "\\": 0x5C, "↑": 0x5E, "^": 0x5E, "←": 0x5F, "_": 0x5F, "~": PI, "π": PI}


def typed_code(ch: str) -> int | None:
    """The PETSCII code a C64 user types for a printable character of a PC's text, or None (no key):
    letters of either case are the unshifted letter keys $41-$5A (capitals on the power-on screen),
    digits and punctuation their keys, ``£``/``\\\\``, ``↑``/``^``, ``←``/``_`` the keys ASCII lacks,
    ``π``/``~`` pi as the screen editor reads it back ($FF, $E67C)."""
    if "a" <= ch <= "z":
        return ord(ch) - 0x20
    if ch in _TYPED:
        return _TYPED[ch]
    o = ord(ch)
    return o if 0x20 <= o <= 0x5D else None


# PETSCII of each key of the matrix (key names as emu.c64.keyboard.KEYS spells them) without and
# with SHIFT, where it is not the key's own character (the KERNAL's tables at $EB81 and $EBC2;
# tests compare them with the real ROM).  Letter keys give $41-$5A, shifted $C1-$DA.
KEY_CODES: dict[str, int] = {
    "DEL": DEL, "RETURN": CR, "CRSR RIGHT": CRSR_RIGHT, "F7": 0x88, "F1": 0x85, "F3": 0x86, "F5": 0x87,
    "CRSR DOWN": CRSR_DOWN, "£": 0x5C, "HOME": HOME, "↑": 0x5E, "←": 0x5F, "SPACE": 0x20, "RUN/STOP": 0x03,
}
SHIFTED_KEY_CODES: dict[str, int] = {
    "DEL": INST, "RETURN": SHIFT_CR, "CRSR RIGHT": CRSR_LEFT, "F7": 0x8C, "F1": 0x89, "F3": 0x8A, "F5": 0x8B,
    "CRSR DOWN": CRSR_UP, "HOME": CLR, "SPACE": SHIFTED_SPACE, "+": 0xDB, "-": 0xDD, "@": 0xBA, "*": 0xC0,
    "£": 0xA9, "↑": 0xDE, "=": 0x3D, ":": 0x5B, ";": 0x5D, ",": 0x3C, ".": 0x3E, "/": 0x3F,
    "1": 0x21, "2": 0x22, "3": 0x23, "4": 0x24, "5": 0x25, "6": 0x26, "7": 0x27, "8": 0x28, "9": 0x29,
    "0": 0x30, "RUN/STOP": 0x83,
}


# the caps of keys whose matrix name (KEY_CODES) is not what is printed on them
KEY_CAPS = {"HOME": "CLR/HOME", "DEL": "INST/DEL", "CRSR DOWN": "CRSR UP/DOWN", "CRSR RIGHT": "CRSR LEFT/RIGHT"}


def key_stroke(code: int) -> str | None:
    """How a typist gives control code *code* inside quotes, as a listing's key to its codes says it
    (``SHIFT+CLR/HOME`` for {clr}): a key, SHIFT and a key, CTRL or C= and a digit (the colours
    CTRL+1-8 and C=+1-8 in COLOR_CODES' order, RVS ON CTRL+9, RVS OFF CTRL+0); None: no key gives it."""
    if code in COLOR_CODES:
        n = COLOR_CODES[code]
        return f"CTRL+{n + 1}" if n < 8 else f"C=+{n - 7}"
    if code in (RVS_ON, RVS_OFF):
        return "CTRL+9" if code == RVS_ON else "CTRL+0"
    if not is_control(code):
        return None
    for table, shift in ((KEY_CODES, ""), (SHIFTED_KEY_CODES, "SHIFT+")):
        for key, value in table.items():
            if value == code:
                return shift + KEY_CAPS.get(key, key)
    return None

# --- file names on a disk ----------------------------------------------------------------------------
def display_name(name: bytes) -> str:
    """PETSCII name bytes as a C64 in upper case/graphics mode shows them; a byte that cannot be
    typed back is ``{$XX}`` ($DE shows as pi but LOAD"π" types $FF; $A0 pads names and shows as a blank)."""
    out = []
    for b in name:
        shown = glyph(b) if b != 0xDE else None
        if shown is not None:
            out.append(shown)
        elif b == SHIFTED_SPACE:
            out.append(" ")
        else:
            out.append(f"{{${b:02X}}}")
    return "".join(out)


# --- screen codes ------------------------------------------------------------------------------------
def petscii_to_screen(c: int) -> int:
    """Screen code of a printable PETSCII character (PRG appendices C and E; controls only reach
    the screen in quote mode, shown reversed)."""
    if c < 0x20:
        return c | 0x80
    if c < 0x40:
        return c
    if c < 0x60:
        return c - 0x40
    if c < 0x80:
        return c - 0x20
    if c < 0xA0:
        return (c - 0x40) | 0x80
    if c < 0xC0:
        return c - 0x40
    if c < 0xFF:
        return c - 0x80
    return 0x5E  # pi


# Screen codes 64-127 of the upper case / graphics character set, as Unicode: box drawing, block and
# geometric shapes and the "Symbols for Legacy Computing" block (U+1FB00-U+1FBFF, added in Unicode 13
# for these machines) where a character exists there.
_GRAPHICS = (
    "\u2500\u2660\U0001FB72\U0001FB78\U0001FB77\U0001FB76\U0001FB7A\U0001FB71"  # 64-71
    "\U0001FB74\u256E\u2570\u256F\U0001FB7C\u2572\u2571\U0001FB7D"  # 72-79
    "\U0001FB7E\u25CF\U0001FB7B\u2665\U0001FB70\u256D\u2573\u25CB"  # 80-87
    "\u2663\U0001FB75\u2666\u253C\U0001FB8C\u2502\u03C0\u25E5"  # 88-95
    "\u00A0\u258C\u2584\u2594\u2581\u258F\u2592\u2595"  # 96-103
    "\U0001FB8F\u25E4\U0001FB87\u251C\u2597\u2514\u2510\u2582"  # 104-111
    "\u250C\u2534\u252C\u2524\u258E\u258D\U0001FB88\U0001FB82"  # 112-119
    "\U0001FB83\u2583\U0001FB7F\u2596\u259D\u2518\u2598\u259A"  # 120-127
)
_LOW = "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\u00A3]\u2191\u2190" + "".join(chr(c) for c in range(32, 64))
UPPER_SET: tuple[str, ...] = tuple(_LOW + _GRAPHICS)


def _lower_set() -> tuple[str, ...]:
    """The lower/upper case set: letters at 1-26 (lower case) and 65-90 (capitals); four graphics differ."""
    chars = list(UPPER_SET)
    for i in range(1, 27):
        chars[i] = chr(ord("a") + i - 1)
        chars[64 + i] = chr(ord("A") + i - 1)
    chars[94] = "\U0001FB96"  # inverse checker board
    chars[95] = "\U0001FB98"  # upper left to lower right fill
    chars[105] = "\U0001FB99"  # upper right to lower left fill
    chars[122] = "\u2713"  # check mark
    return tuple(chars)


LOWER_SET: tuple[str, ...] = _lower_set()
REVERSED_SPACE = "\u2588"


def screen_code_char(code: int, lower: bool = False) -> str:
    """Unicode for a screen code (reversed characters, 128-255, as the character itself; the reversed
    space, a full block)."""
    if code == 0xA0:
        return REVERSED_SPACE
    return (LOWER_SET if lower else UPPER_SET)[code & 0x7F]


# --- Ahoy! magazine's key names (read only in Ahoy! listings: two of them mean other keys elsewhere) ---
# Through the October 1984 issue Ahoy! printed two-letter codes in braces ({SC} clear screen,
# {CD} cursor down, ...); from November 1984 on, words in brackets ([CLEAR], [DOWN], [RVSON]; those
# are in the names above), [s X] / [c X] for a key with SHIFT / the Commodore key and [N"X"] for N
# of X (Ahoy! 11/84 ff., "Reading Ahoy! listings" key chart).
AHOY_1984_NAMES: dict[str, int] = {
    "sc": 0x93, "hm": 0x13, "cu": 0x91, "cd": 0x11, "cl": 0x9D, "cr": 0x1D, "ss": 0xA0, "in": 0x94,
    "rv": 0x12, "ro": 0x92, "bk": 0x90, "wh": 0x05, "rd": 0x1C, "cy": 0x9F, "pu": 0x9C, "gn": 0x1E,
    "bl": 0x1F, "yl": 0x9E, "or": 0x81, "br": 0x95, "lr": 0x96, "g1": 0x97, "g2": 0x98, "lg": 0x99,
    "lb": 0x9A, "g3": 0x9B, "ep": 0x5C,
}
# the Commodore key with a digit key gives the second eight colours (the C64's keyboard)
CBM_DIGIT_COLOURS: dict[str, int] = {
    "1": 0x81, "2": 0x95, "3": 0x96, "4": 0x97, "5": 0x98, "6": 0x99, "7": 0x9A, "8": 0x9B,
}

# the keys the English magazines spelled out when printing a listing (the rest: petcat's names).
# Compute! and Compute!'s Gazette ("How to type in programs": {CLR}, {RVS}, {OFF}, ...):
COMPUTE_KEY_NAMES: dict[int, str] = {
    0x93: "CLR", 0x13: "HOME", 0x91: "UP", 0x11: "DOWN", 0x9D: "LEFT", 0x1D: "RIGHT",
    0x12: "RVS", 0x92: "OFF", 0x90: "BLK", 0x05: "WHT", 0x1C: "RED", 0x9F: "CYN", 0x9C: "PUR",
    0x1E: "GRN", 0x1F: "BLU", 0x9E: "YEL", 0x20: "SPACE", 0xFF: "PI",
}
# Ahoy! from 11/84 ([CLEAR], [RVSON], ...; [SS] a shifted space)
AHOY_KEY_NAMES: dict[int, str] = {
    0x93: "CLEAR", 0x13: "HOME", 0x91: "UP", 0x11: "DOWN", 0x9D: "LEFT", 0x1D: "RIGHT",
    0x94: "INSERT", 0x12: "RVSON", 0x92: "RVSOFF", 0x90: "BLACK", 0x05: "WHITE", 0x1C: "RED",
    0x9F: "CYAN", 0x9C: "PURPLE", 0x1E: "GREEN", 0x1F: "BLUE", 0x9E: "YELLOW", 0x81: "ORANGE",
    0x95: "BROWN", 0x96: "LT. RED", 0x97: "GRAY1", 0x98: "GRAY2", 0x99: "LT. GREEN",
    0x9A: "LT. BLUE", 0x9B: "GRAY3", 0xA0: "SS",
}
