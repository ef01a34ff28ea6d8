"""Synthetic OCR damage for MSE V1.0 listings: test and benchmark material.

Each damage class is one kind of misreading found in OCR'd 64'er pages; a
:class:`Damaged` listing remembers, per line, which classes hit it and how many payload
characters were changed, so a test can say what the reader must recover.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

# What OCR made of the ':' after the address in printed listings.
SEPARATOR_MISREADS = ("s", "5", "3", "8", "a", "S", "0", "*", "\u2588")
# Misreadings of one printed character, both ways: hex digit -> what OCR saw.
# Upper-case listings (as asm6502 writes them) and lower-case ones (as many 64'er pages print).
CONFUSIONS_UPPER = {
    "0": "ODo", "D": "0O", "1": "lI", "8": "B", "B": "8", "5": "S", "9": "g", "2": "Z", "6": "G",
}
CONFUSIONS_LOWER = {
    "0": "OoD", "d": "a0", "a": "d", "1": "lI", "8": "B", "b": "6", "6": "Gb", "5": "Ss",
    "9": "g", "2": "Zz", "f": "t",
}
STRAY_MARKS = ("{b}-", ", {b}", "{h}.{l}", "{b}'", "{b}.")
CLASSES = ("separator", "address", "punctuation", "unreadable", "confusion", "confusion2", "run-together")
_LINE = re.compile(r"^([0-9A-Fa-f]{4}) : ((?:[0-9A-Fa-f]{2} )*[0-9A-Fa-f]{2})$")


@dataclass
class LineTruth:
    address: int
    data: bytes  # the line's data bytes as printed (the checksum verifies them)
    changed: int = 0  # payload/checksum characters misread (not counting separator, spacing, specks)
    classes: list[str] = field(default_factory=list)


@dataclass
class Damaged:
    text: str
    lines: list[LineTruth]

    def truth(self, address: int) -> LineTruth:
        return next(t for t in self.lines if t.address == address)


def _confusable(digits: str, lower: bool) -> list[int]:
    table = CONFUSIONS_LOWER if lower else CONFUSIONS_UPPER
    return [k for k, c in enumerate(digits) if c in table]


def damage_listing(listing: str, rng: random.Random, *, classes: dict[str, float], lower: bool = False) -> Damaged:
    """Damage each line of a V1.0 listing: every class hits a line with its probability.

    *classes* maps class names (:data:`CLASSES`) to per-line probabilities; "run-together"
    is the probability that a line is joined to the one before it.
    """
    table = CONFUSIONS_LOWER if lower else CONFUSIONS_UPPER
    out_lines: list[str] = []
    truths: list[LineTruth] = []
    for row in listing.splitlines():
        m = _LINE.match(row)
        if not m:
            out_lines.append(row)  # header, rule
            continue
        addr, body = m.group(1), m.group(2)
        values = bytes.fromhex(body.replace(" ", ""))
        truth = LineTruth(int(addr, 16), values[:-1])
        if lower:
            addr, body = addr.lower(), body.lower()
        digits = list(body.replace(" ", ""))

        def hit(name: str) -> bool:
            if rng.random() < classes.get(name, 0.0):
                truth.classes.append(name)  # noqa: B023 (hit runs within this round of the loop)
                return True
            return False

        n_conf = 2 if hit("confusion2") else (1 if hit("confusion") else 0)
        spots = _confusable("".join(digits), lower)
        changed = set(rng.sample(spots, min(n_conf, len(spots))))
        for k in changed:
            digits[k] = rng.choice(table[digits[k]])
        if hit("unreadable"):
            k = rng.randrange(len(digits))
            digits[k] = "?"
            changed.add(k)
        truth.changed = len(changed)
        groups = ["".join(digits[k : k + 2]) for k in range(0, len(digits), 2)]
        if hit("punctuation"):
            g = rng.randrange(len(groups))
            mark = rng.choice(STRAY_MARKS)
            groups[g] = mark.format(b=groups[g], h=groups[g][0], l=groups[g][1])
        if hit("address"):
            addr = _letters_in_address(addr, rng)
        sep = rng.choice(SEPARATOR_MISREADS) if hit("separator") else ":"
        line = f"{addr} {sep} " + " ".join(groups)
        if out_lines and _LINE_LIKE.match(out_lines[-1]) and hit("run-together"):
            out_lines[-1] += " " + line
        else:
            out_lines.append(line)
        truths.append(truth)
    return Damaged("\n".join(out_lines) + "\n", truths)


_LINE_LIKE = re.compile(r"^\S{4} \S ")


def _letters_in_address(addr: str, rng: random.Random) -> str:
    """'1a11' -> 'lall', '0b11' -> 'Obll': digits 1 and 0 printed as letters."""
    swaps = {"1": "lI", "0": "O", "5": "S"}
    chars = list(addr)
    spots = [k for k, c in enumerate(chars) if c in swaps]
    for k in spots if len(spots) <= 2 else rng.sample(spots, 2):
        chars[k] = rng.choice(swaps[chars[k]])
    return "".join(chars)


# Assumed per-line rates for a page of mixed damage.  The pages read give no counts beyond "the
# separator misread in most lines of one listing"; these put every class into a page.
REALISTIC = {
    "separator": 0.3, "address": 0.05, "punctuation": 0.04, "unreadable": 0.02,
    "confusion": 0.08, "confusion2": 0.02, "run-together": 0.1,
}
