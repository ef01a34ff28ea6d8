"""The misreading model every type-in format shares: how likely one character was printed (or
read by OCR, or typed in a hurry) for another.  Each format's reader adds its own moves on top
(an MSE line's separators and look-alike digits, a BASIC line's keywords and control-code names);
the cost of a character read for another is this one.  Lower cost = likelier.
"""

from __future__ import annotations

# Likely confusions (printed, meant) with a cost; anything else costs ORDINARY_COST.
# Lower cost = ranked first.  The first five, at cost 1.0, are the likeliest.
CONFUSIONS: tuple[tuple[str, str, float], ...] = (
    ("8", "B", 1.0), ("0", "D", 1.0), ("5", "S", 1.0), ("1", "I", 1.0),
    ("0", "O", 1.0), ("D", "O", 1.5), ("1", "L", 1.5), ("I", "L", 1.5), ("I", "J", 1.5),
    ("1", "7", 2.0), ("6", "G", 2.0), ("2", "Z", 2.0), ("0", "Q", 2.0), ("3", "8", 2.0),
    ("6", "8", 2.0), ("E", "F", 2.0), ("B", "D", 2.0), ("C", "G", 2.0), ("C", "O", 2.0),
    ("M", "N", 2.0), ("H", "N", 2.0), ("U", "V", 2.0), ("V", "W", 2.0), ("G", "Q", 2.0), ("7", "T", 2.0),
    ("0", "8", 2.5), ("9", "8", 2.5), ("C", "E", 2.5), ("B", "E", 2.5), ("4", "A", 2.5),
    ("5", "6", 2.5), ("C", "0", 2.5), ("9", "G", 2.5), ("V", "Y", 2.5), ("A", "O", 2.5),
    ("E", "O", 2.5), ("B", "H", 2.5), ("R", "N", 2.5), ("F", "T", 2.5), ("5", "3", 2.5),
    ("6", "B", 1.5), ("A", "D", 1.5),  # lower-case print: b/6, a/d
)
ORDINARY_COST = 3.0
TRANSPOSE_COST = 3.0
SECOND_CHANGE_COST = 2.0  # two independent slips in one byte are rarer than one
SUSPECT_FACTOR = 0.5  # a letter OCR put where a digit belongs is itself evidence of a misreading


def _confusion_table() -> dict[tuple[str, str], float]:
    table: dict[tuple[str, str], float] = {}
    for a, b, cost in CONFUSIONS:
        table[(a, b)] = table[(b, a)] = cost
    return table


_CONFUSION_COST = _confusion_table()


def char_cost(printed: str, meant: str) -> float:
    """How unlikely it is that *meant* was printed/read as *printed* (case-insensitive)."""
    p, m = printed.upper(), meant.upper()
    if p == m:
        return 0.0
    return _CONFUSION_COST.get((p, m), ORDINARY_COST)
