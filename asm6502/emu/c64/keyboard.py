"""The C64 keyboard matrix and typing into it.

The 64 keys sit on an 8x8 matrix: CIA 1 port A ($DC00) drives the columns
(a 0 bit selects one), port B ($DC01) reads the rows (a pressed key in a
selected column pulls its row to 0).  Key index = 8 * column + row, the order
of the KERNAL's decode tables at $EB81 (Mapping the C64, $EB81; C64
Programmer's Reference Guide, "Keyboard matrix").  RESTORE is not on the
matrix (it is wired to the NMI).
"""

from __future__ import annotations

from collections import deque

from asm6502.petscii import KEY_CODES, SHIFTED_KEY_CODES

# KEYS[column][row]: key names, column = port A bit, row = port B bit
KEYS: tuple[tuple[str, ...], ...] = (
    ("DEL", "RETURN", "CRSR RIGHT", "F7", "F1", "F3", "F5", "CRSR DOWN"),
    ("3", "W", "A", "4", "Z", "S", "E", "LEFT SHIFT"),
    ("5", "R", "D", "6", "C", "F", "T", "X"),
    ("7", "Y", "G", "8", "B", "H", "U", "V"),
    ("9", "I", "J", "0", "M", "K", "O", "N"),
    ("+", "P", "L", "-", ".", ":", "@", ","),
    ("£", "*", ";", "HOME", "RIGHT SHIFT", "=", "↑", "/"),
    ("1", "←", "CTRL", "2", "SPACE", "C=", "Q", "RUN/STOP"),
)
KEY_INDEX: dict[str, int] = {name: 8 * col + row for col, keys in enumerate(KEYS) for row, name in enumerate(keys)}
LEFT_SHIFT = KEY_INDEX["LEFT SHIFT"]

def _petscii_keys() -> dict[int, tuple[int, bool]]:
    """PETSCII code -> (key index, with SHIFT), unshifted keys preferred."""
    table: dict[int, tuple[int, bool]] = {}
    for name, index in KEY_INDEX.items():
        if name in SHIFTED_KEY_CODES:
            table.setdefault(SHIFTED_KEY_CODES[name], (index, True))
        elif len(name) == 1 and "A" <= name <= "Z":
            table.setdefault(ord(name) + 0x80, (index, True))  # shifted letter: $C1-$DA
    for name, index in KEY_INDEX.items():
        if name in KEY_CODES:
            table[KEY_CODES[name]] = (index, False)
        elif len(name) == 1:
            table[ord(name)] = (index, False)
    return table


PETSCII_KEYS = _petscii_keys()


def rows_for(pressed: frozenset[int], columns: int) -> int:
    """Port B as read with port A = *columns*: rows of pressed keys in selected columns are 0."""
    rows = 0xFF
    for index in pressed:
        if not columns & (1 << (index >> 3)):
            rows &= ~(1 << (index & 7))
    return rows & 0xFF


def columns_for(pressed: frozenset[int], rows: int) -> int:
    """Port A as read with port B driving *rows* (the matrix read the other way round)."""
    cols = 0xFF
    for index in pressed:
        if not rows & (1 << (index & 7)):
            cols &= ~(1 << (index >> 3))
    return cols & 0xFF


class Typist:
    """Presses and releases keys on the matrix, one key at a time, each held
    for ``hold`` frames and released for ``gap`` frames (the KERNAL scans the
    keyboard once per 1/60 s interrupt and needs to see the key down, then up)."""

    def __init__(self, hold: int = 3, gap: int = 2):
        self.queue: deque[int] = deque()
        self.pressed: frozenset[int] = frozenset()
        self.hold = hold
        self.gap = gap
        self._timer = 0

    def type(self, petscii: bytes) -> None:
        for b in petscii:
            if b not in PETSCII_KEYS:
                raise ValueError(f"PETSCII ${b:02X} has no key on the C64 keyboard")
            self.queue.append(b)

    @property
    def busy(self) -> bool:
        return bool(self.queue) or bool(self.pressed) or self._timer > 0

    def frame(self) -> None:
        """One video frame passed."""
        if self._timer > 0:
            self._timer -= 1
            return
        if self.pressed:
            self.pressed = frozenset()
            self._timer = self.gap - 1
            return
        if self.queue:
            index, shift = PETSCII_KEYS[self.queue.popleft()]
            self.pressed = frozenset((index, LEFT_SHIFT)) if shift else frozenset((index,))
            self._timer = self.hold - 1
