"""A BASIC line as the English magazines printed it, and what typing it gives.

The listings were printed in capitals (the unshifted letters of the C64's upper-case mode), with
the keys that print no character spelled out: Compute! and Compute!'s Gazette in braces (``{CLR}``,
``{5 SPACES}``, ``{SHIFT-A}``, ``{C= *}``), Ahoy! in brackets from November 1984 (``[CLEAR]``,
``[s A]``, ``[c 7]``, ``[8"[DOWN]"]``) and in braces with two letters before (``{SC}``, ``{CD}``).
:func:`pieces` reads either into PETSCII codes; :func:`typed` is what the screen editor hands
BASIC when the line is typed (the line number's digits, then the characters: what Compute!'s
Proofreader sums); :func:`stored` is the tokenized line (what Ahoy!'s Bug Repellent sums).
:func:`printed` writes a stored line in a magazine's spelling.
"""

from __future__ import annotations

import re

from asm6502 import petscii
from asm6502.basic.case import from_capitals
from asm6502.basic.tokenizer import crunch, list_line

STYLES = ("compute", "ahoy")

def _key_name(code: int, style: str) -> str:
    """The spelled-out key of *code* in *style* (without the brackets)."""
    table = petscii.AHOY_KEY_NAMES if style == "ahoy" else petscii.COMPUTE_KEY_NAMES
    if code in table:
        return table[code]
    if 0xC1 <= code <= 0xDA:
        letter = chr(code - 0x80)
        return f"s {letter}" if style == "ahoy" else f"SHIFT-{letter}"
    name = petscii.CANONICAL_NAME.get(code)
    if name is None:
        return f"${code:02X}"
    if style == "ahoy":
        for digit, colour in petscii.CBM_DIGIT_COLOURS.items():
            if colour == code:
                return f"c {digit}"
        if name.startswith("CBM-"):
            return "c " + ("EP" if name[4:] == "POUND" else name[4:])
        if name.startswith("SHIFT-"):
            return "s " + ("EP" if name[6:] == "POUND" else name[6:])
        return name.upper()
    if name.startswith("CBM-"):
        return "C= " + ("£" if name[4:] == "POUND" else name[4:])
    return name.upper()


def _plain(code: int) -> str | None:
    """The character printed for *code*, when it prints as itself in the listing."""
    if code in (0x5C, 0x5E, 0x5F):
        return petscii.glyph(code)
    if 0x21 <= code <= 0x5D and code != 0x22 or code == 0x20:
        return chr(code)
    return None


def printed(body: bytes, style: str = "compute") -> str:
    """The text of a stored line (after its number) as *style*'s magazine printed it: the text
    LIST shows, in capitals, each key that prints no character spelled out; runs of one key
    counted (``{5 SPACES}``, ``[8"[DOWN]"]``) where a space run is inside quotes."""
    text, _ = list_line(body)
    got, errors = petscii.parse_text(text)
    assert not errors, (text, errors)  # (list_line's text always parses)
    out: list[str] = []
    quote = False
    k = 0
    while k < len(got):
        code = got[k].code
        run = 1
        while k + run < len(got) and got[k + run].code == code:
            run += 1
        if code == 0x22:
            quote = not quote
            out.append('"')
            k += 1
            continue
        plain = _plain(code)
        if plain is not None and not (code == 0x20 and quote and run > 1):
            out.append(plain)
            k += 1
            continue
        name = _key_name(code, style)
        if style == "ahoy":
            inner = '" "' if code == 0x20 else f'"[{name}]"'
            out.append(f"[{run}{inner}]" if run > 1 else f"[{name}]")
        else:
            plural = "SPACES" if code == 0x20 else name
            out.append(f"{{{run} {plural}}}" if run > 1 else f"{{{name}}}")
        k += run
    return "".join(out)


# --------------------------------------------------------------------------- reading
_AHOY_COUNTED = re.compile(r'\[(\d+)\s*"(\[[^\]]*\]|[^"\]]*)"\]')
_AHOY_KEY = re.compile(r"\[([^\[\]]*)\]")
_AHOY_1984 = re.compile(r"\{([A-Za-z][A-Za-z0-9])\}")
_SHIFT_OR_CBM = re.compile(r"^([sScC])\s+(\S+)$")


def _ahoy_key(inner: str) -> str | None:
    """An Ahoy! key (the text between the brackets) as a petcat ``{name}``; None: not a key."""
    m = _SHIFT_OR_CBM.match(inner.strip())
    if m:
        key, char = m.group(1).lower(), m.group(2).upper()
        if char == "EP":
            char = "POUND"
        if key == "c" and char in petscii.CBM_DIGIT_COLOURS:
            return "{$%02x}" % petscii.CBM_DIGIT_COLOURS[char]
        if key == "s" and char.isalpha() and len(char) == 1:
            return "{$%02x}" % (ord(char) + 0x80)
        name = f"{'CBM' if key == 'c' else 'SHIFT'}-{char}"
        code = petscii.NAME_TABLE.get(name.lower())
        return None if code is None else "{$%02x}" % code
    code = petscii.NAME_TABLE.get("".join(inner.split()).replace(".", "").lower())
    if code is None:
        code = petscii.AHOY_1984_NAMES.get(inner.strip().lower())
    return None if code is None else "{$%02x}" % code


def ahoy_to_petcat(text: str) -> str:
    """Ahoy!'s key spellings as petcat ``{$hh}`` codes (the capitals kept for :func:`pieces`)."""
    def counted(m: re.Match[str]) -> str:
        inner = m.group(2)
        one = (_ahoy_key(inner[1:-1]) if inner.startswith("[") else inner) if inner else None
        return m.group(0) if one is None else one * int(m.group(1))

    def key(m: re.Match[str]) -> str:
        got = _ahoy_key(m.group(1))
        return m.group(0) if got is None else got

    def early(m: re.Match[str]) -> str:
        code = petscii.AHOY_1984_NAMES.get(m.group(1).lower())
        return m.group(0) if code is None else "{$%02x}" % code

    text = _AHOY_COUNTED.sub(counted, text)
    text = _AHOY_KEY.sub(key, text)
    text = _AHOY_1984.sub(early, text)
    # the early {s X} / {c X}
    return re.sub(r"\{([sScC]\s+[^\s{}]+)\}", lambda m: _ahoy_key(m.group(1)) or m.group(0), text)


def pieces(text: str, style: str = "compute") -> list[petscii.Piece] | None:
    """The PETSCII codes of a printed line's text (capitals = unshifted letters); None when it
    has a key name nobody printed or a character the C64 has not."""
    if style == "ahoy":
        text = ahoy_to_petcat(text)
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("π", "{pi}")
    got, errors = petscii.parse_text(from_capitals(text))
    return None if errors else got


def typed(number: int, text: str, style: str = "compute") -> bytes | None:
    """The line as the screen editor hands it to BASIC when typed as printed: the line
    number's digits, a space, then the text's codes."""
    got = pieces(text, style)
    return None if got is None else f"{number} ".encode("ascii") + bytes(p.code for p in got)


def stored(text: str, style: str = "compute") -> bytes | None:
    """The bytes the C64 stores for a printed line's text (tokenized as CRUNCH does)."""
    got = pieces(text.strip(" "), style)
    return None if got is None else crunch(got).body
