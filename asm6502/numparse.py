"""One reader for the numbers users type in options and manifests.

``13312`` (decimal), ``$3400`` or ``0x3400`` (hex, as C64 people and C programmers
write it), ``%1010`` or ``0b1010`` (binary).  ``_`` may group digits (``0xC0_00``).
Every command-line option and every number in build.yaml goes through
``parse_int``, so they all accept the same spellings.
"""

from __future__ import annotations

SPELLINGS = "13312, $3400, 0x3400 or %1010"

# prefix -> base; longest prefixes first
PREFIXES: tuple[tuple[str, int], ...] = (
    ("0x", 16), ("0X", 16), ("$", 16),
    ("0b", 2), ("0B", 2), ("%", 2),
)
DIGITS = {2: "01", 10: "0123456789", 16: "0123456789abcdefABCDEF"}
MAX_DIGITS = 40  # far beyond any 6502 value: bounds the work on hostile input


def parse_int(text: str) -> int:
    """The integer *text* spells; ValueError (with the accepted spellings) otherwise."""
    t = text.strip().replace("_", "")
    sign = 1
    if t[:1] in ("+", "-"):
        sign = -1 if t[0] == "-" else 1
        t = t[1:]
    base = 10
    for prefix, prefix_base in PREFIXES:
        if t.startswith(prefix):
            t, base = t[len(prefix):], prefix_base
            break
    if not t or len(t) > MAX_DIGITS or any(c not in DIGITS[base] for c in t):
        raise ValueError(f"not a number: {text!r} (use {SPELLINGS})")
    return sign * int(t, base)


def check_range(value: int, low: int, high: int, what: str, text: str, *, hex_bounds: bool = True) -> int:
    """*value* if ``low <= value <= high``, else ValueError naming the range."""
    if not low <= value <= high:
        shown = (format_bound(low), format_bound(high)) if hex_bounds else (f"{low:,}", f"{high:,}")
        raise ValueError(f"{what} {text!r} is out of range ({shown[0]} to {shown[1]})")
    return value


def format_bound(value: int) -> str:
    return f"${value:X}" if value > 9 else str(value)
