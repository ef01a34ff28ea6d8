"""The C64 text screen as the KERNAL screen editor drives it (CHROUT $E716).

40x25 characters in screen memory at $0400 (VIC bank 0 default, page in
$0288), colour RAM at $D800 with the cursor colour at $0286 (646).  Two
physical rows can be linked into one 80-column logical line, like the
editor's line link table at $D9: printing past column 39 of an unlinked row
links the next row (inserting a blank row, $E965); PRINT's "," and TAB/POS see
the logical column ($D3, 0..79).  The cursor row is mirrored at $D6 (214) and
the logical column at $D3 (211) so programs can PEEK them.

The screen also keeps a transcript (rows that scrolled off the top or were
cleared, followed by the visible rows) and feeds a plain-text sink: printed
characters, "\\n" when the cursor moves to a new row, "\\f" when the screen
is cleared; no cursor addressing.
"""

from __future__ import annotations

from collections.abc import Callable

from asm6502.c64map import ADDRESS
from asm6502.petscii import (
    CLR,
    COLOR_CODES,
    CR,
    CRSR_DOWN,
    CRSR_LEFT,
    CRSR_RIGHT,
    CRSR_UP,
    DEL,
    HOME,
    INST,
    LOWER_CASE,
    QUOTE,
    RVS_OFF,
    RVS_ON,
    SHIFT_CR,
    UPPER_CASE,
    petscii_to_screen,
)
from asm6502.petscii import screen_code_char as screen_char

SCREEN = ADDRESS["scrram"]
COLOR_RAM = ADDRESS["colram"]
COLUMNS = 40
ROWS = 25
CURSOR_COLOR = ADDRESS["color"]  # 646
PNTR = ADDRESS["pntr"]  # 211: cursor column in the logical line
TBLX = ADDRESS["tblx"]  # 214: cursor row
VIC_MEMORY_SETUP = ADDRESS["vmcsb"]  # 53272: bit 1 selects the lower case character set


class Screen:
    """Cursor, links and output of the 40x25 text screen in ``memory``."""

    def __init__(self, memory: bytearray, sink: Callable[[str], None] | None = None):
        self.mem = memory
        self.sink = sink
        self.row = 0
        self.col = 0  # physical column 0..39
        self.linked = [False] * ROWS  # row continues the logical line above
        self.reverse = False
        self.quote = False
        self.lowercase = False
        self.history: list[str] = []
        self._sink_col = 0
        self.mem[CURSOR_COLOR] = 14  # light blue: the power-on text colour
        self.clear(record=False)

    # -- memory helpers ---------------------------------------------------
    def _addr(self, row: int, col: int) -> int:
        return SCREEN + row * COLUMNS + col

    @property
    def charset_lower(self) -> bool:
        """Lower/upper case set: chosen by $0E/$8E or by bit 1 of VIC $D018 (53272)."""
        return self.lowercase or bool(self.mem[VIC_MEMORY_SETUP] & 0x02)

    def row_text(self, row: int) -> str:
        base = self._addr(row, 0)
        lower = self.charset_lower
        return "".join(screen_char(b, lower) for b in self.mem[base:base + COLUMNS]).rstrip()

    def _sync(self) -> None:
        self.mem[TBLX] = self.row
        self.mem[PNTR] = self.pos

    def _emit(self, text: str) -> None:
        if self.sink is not None:
            self.sink(text)
        self._sink_col = 0 if text.endswith(("\n", "\f")) else self._sink_col + len(text)

    @property
    def pos(self) -> int:
        """Logical column, as POS() and PLOT ($FFF0) report it."""
        return self.col + (COLUMNS if self.linked[self.row] else 0)

    # -- rows -------------------------------------------------------------
    def _blank_row(self, row: int) -> None:
        base = self._addr(row, 0)
        self.mem[base:base + COLUMNS] = b"\x20" * COLUMNS
        cbase = COLOR_RAM + row * COLUMNS
        self.mem[cbase:cbase + COLUMNS] = bytes([self.mem[CURSOR_COLOR] & 0x0F]) * COLUMNS

    def _scroll_up(self) -> None:
        self.history.append(self.row_text(0))
        size = (ROWS - 1) * COLUMNS
        self.mem[SCREEN:SCREEN + size] = self.mem[SCREEN + COLUMNS:SCREEN + COLUMNS + size]
        self.mem[COLOR_RAM:COLOR_RAM + size] = self.mem[COLOR_RAM + COLUMNS:COLOR_RAM + COLUMNS + size]
        self._blank_row(ROWS - 1)
        self.linked = self.linked[1:] + [False]
        self.linked[0] = False

    def _insert_row_below(self, row: int) -> None:
        """Open a blank row at ``row``, pushing the rows below down ($E965)."""
        for r in range(ROWS - 1, row, -1):
            dst, src = self._addr(r, 0), self._addr(r - 1, 0)
            self.mem[dst:dst + COLUMNS] = self.mem[src:src + COLUMNS]
            self.linked[r] = self.linked[r - 1]
        self._blank_row(row)

    def _next_row(self) -> None:
        self.row += 1
        if self.row >= ROWS:
            self._scroll_up()
            self.row = ROWS - 1

    def clear(self, record: bool = True) -> None:
        if record and any(self.row_text(r) for r in range(ROWS)):
            rows = [self.row_text(r) for r in range(ROWS)]
            while rows and not rows[-1]:
                rows.pop()
            self.history.extend(rows)
        for r in range(ROWS):
            self._blank_row(r)
        self.linked = [False] * ROWS
        self.row = self.col = 0
        if record:
            self._emit("\f")  # a form feed tells the sink the screen was cleared
        self._sync()

    def transcript(self) -> str:
        """Everything shown so far: scrolled-off rows, then the screen."""
        rows = self.history + [self.row_text(r) for r in range(ROWS)]
        while rows and not rows[-1]:
            rows.pop()
        return "\n".join(rows) + ("\n" if rows else "")

    def screen_text(self) -> str:
        """The 25 visible rows, right-trimmed."""
        return "\n".join(self.row_text(r) for r in range(ROWS))

    # -- output -----------------------------------------------------------
    def write(self, data: bytes) -> None:
        for c in data:
            self.out(c)

    def newline(self) -> None:
        while self.row + 1 < ROWS and self.linked[self.row + 1]:
            self.row += 1
        self._next_row()
        self.col = 0
        self.reverse = False
        self.quote = False
        self._emit("\n")
        self._sync()

    def _advance(self, link: bool) -> None:
        """Move one column right; at the end of a row go on as the editor does."""
        self.col += 1
        if self.col < COLUMNS:
            return
        self.col = 0
        continuation = self.row + 1 < ROWS and self.linked[self.row + 1]
        if continuation:
            self.row += 1
        elif link and not self.linked[self.row]:
            if self.row == ROWS - 1:
                self._scroll_up()
                self.row -= 1
            else:
                self._insert_row_below(self.row + 1)
            self.row += 1
            self.linked[self.row] = True
        else:
            self._next_row()
            self.linked[self.row] = False
        self._emit("\n")

    def put_code(self, code: int) -> None:
        addr = self._addr(self.row, self.col)
        self.mem[addr] = code
        self.mem[COLOR_RAM + addr - SCREEN] = self.mem[CURSOR_COLOR] & 0x0F
        self._emit(screen_char(code, self.charset_lower))
        self._advance(link=True)

    def out(self, c: int) -> None:
        """Output one PETSCII byte, like CHROUT to the screen."""
        if c in (CR, SHIFT_CR):
            self.newline()
            return
        control = c < 0x20 or 0x80 <= c < 0xA0
        if control and self.quote and c != DEL:
            self.put_code(petscii_to_screen(c))
        elif control:
            self._control(c)
        else:
            if c == QUOTE:
                self.quote = not self.quote
            self.put_code(petscii_to_screen(c) | (0x80 if self.reverse else 0))
        self._sync()

    def _control(self, c: int) -> None:
        if c == CRSR_RIGHT:
            self._emit(screen_char(self.mem[self._addr(self.row, self.col)], self.charset_lower))
            self._advance(link=False)
        elif c == CRSR_LEFT:
            if self.col > 0:
                self.col -= 1
            elif self.row > 0:
                self.row -= 1
                self.col = COLUMNS - 1
        elif c == CRSR_DOWN:
            self._next_row()
            self._emit("\n" + " " * self.col)
        elif c == CRSR_UP:
            if self.row > 0:
                self.row -= 1
        elif c == HOME:
            self.row = self.col = 0
        elif c == CLR:
            self.clear()
        elif c == RVS_ON:
            self.reverse = True
        elif c == RVS_OFF:
            self.reverse = False
        elif c == LOWER_CASE:
            self.lowercase = True
        elif c == UPPER_CASE:
            self.lowercase = False
        elif c == DEL:
            if self.col > 0:
                self.col -= 1
                start = self._addr(self.row, self.col)
                end = self._addr(self.row, COLUMNS - 1)
                self.mem[start:end] = self.mem[start + 1:end + 1]
                self.mem[end] = 0x20
        elif c == INST:
            start = self._addr(self.row, self.col)
            end = self._addr(self.row, COLUMNS - 1)
            self.mem[start + 1:end + 1] = self.mem[start:end]
            self.mem[start] = 0x20
        elif c in COLOR_CODES:
            self.mem[CURSOR_COLOR] = COLOR_CODES[c]
        # other codes ($07 bell on later machines, $08/$09 shift lock...) do nothing

    def set_cursor(self, row: int, col: int) -> None:
        """PLOT ($E50A) with carry clear: row 0..24, logical column."""
        self.row = max(0, min(ROWS - 1, row))
        self.col = col % COLUMNS
        if col >= COLUMNS and self.row + 1 < ROWS:
            self.row += 1
        self._sync()
