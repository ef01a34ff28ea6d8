"""PRINT, INPUT, GET, READ/DATA, WAIT, SYS and LIST: the statements that talk
to the screen, the keyboard, DATA lines and machine code (a mixin of Interpreter).

PRINT follows $AAA0: numbers are FOUT text plus [CURSOR RIGHT] ($AB3B), ","
moves to the next 10-column zone ($AAE8), TAB(/SPC( print cursor-rights.
INPUT ($ABBF) prints "?" and a cursor-right, reads a line, splits it at ","
and ":" like READ ($AC0F), asks "??" for more, prints "?REDO FROM START" for a
bad number and "?EXTRA IGNORED" for leftovers; an empty line keeps the
variables.  READ searches DATA statements from the data pointer ($ACB8).
"""

from __future__ import annotations

from asm6502.basic.tokens import KEYWORD_OF, TOKEN_OF
from asm6502.c64map import ADDRESS
from asm6502.petscii import CRSR_RIGHT

from . import numbers as N
from .errors import BasicError, Err
from .expr import address_value, is_digit
from .flow import RunEnd
from .machine_code import MachineCodeStop
from .variables import STRING

TK = TOKEN_OF
COLON, COMMA, SEMICOLON, QUOTE = 0x3A, 0x2C, 0x3B, 0x22
KEYBOARD_BUFFER, KEY_COUNT = ADDRESS["keyd"], ADDRESS["ndx"]  # $0277.., $C6
EMPTY_GET_LIMIT = 1000  # consecutive empty GETs after the script ended -> stop
CURSOR_RIGHT = CRSR_RIGHT

# the keystrokes ran out while INPUT waits for a line: the program wanted more (basic run exits non-zero); a GET or
# WAIT polling in vain is a program's idle loop, a normal end of scripted input
INPUT_EXHAUSTED = "input script exhausted (INPUT)"


class InputOutputMixin:
    """Needs the Interpreter's text pointer, variables, screen and keyboard."""

    def do_wait(self):
        address = address_value(self.num_expr())
        self.expect(COMMA)
        mask = self.byte_expr()
        xor = 0
        if self.ch() == COMMA:
            self.pos += 1
            xor = self.byte_expr()
        while not ((self.peek(address) ^ xor) & mask):
            if address == KEY_COUNT and self._queue_key():
                continue
            if address == KEY_COUNT:
                raise RunEnd("input", "input script exhausted (WAIT for a key)")
            raise RunEnd("unsupported", f"WAIT {address},{mask},{xor} would wait forever here")

    def _queue_key(self) -> bool:
        key = self.keyboard.get_key()
        if key is None:
            return False
        n = self.mem[KEY_COUNT]
        if n < 10:
            self.mem[KEYBOARD_BUFFER + n] = key
            self.mem[KEY_COUNT] = n + 1
        return True

    def do_sys(self):
        address = address_value(self.num_expr())
        m = self.mem
        sareg = ADDRESS["sareg"]  # A, X, Y, P for SYS: $030C-$030F
        if address == 0xE56C:  # 58732: set cursor from $D6/$D3
            self.screen.set_cursor(m[ADDRESS["tblx"]], m[ADDRESS["pntr"]])
        elif address == ADDRESS["plot"]:  # 65520 PLOT, registers from $030C-$030F
            if m[sareg + 3] & 1:
                m[sareg + 1], m[sareg + 2] = self.screen.row, self.screen.pos
            else:
                self.screen.set_cursor(m[sareg + 1], m[sareg + 2])
        elif address == ADDRESS["chrout"]:  # 65490 CHROUT with A from $030C
            self.screen.out(m[sareg])
        elif address == 0xE544:  # 58692 clear screen
            self.screen.clear()
        elif address == 0xFCE2:  # 64738 reset
            raise RunEnd("end", "SYS 64738 (reset)")
        elif self.sys_handler is not None:
            try:
                self.sys_handler(self, address)
            except MachineCodeStop as stop:
                raise RunEnd(stop.reason, stop.message) from None
        else:
            raise RunEnd("unsupported", f"SYS {address} (machine code) is not supported without the 6502 harness")

    def do_print(self):
        screen = self.screen
        if self.at_end():
            screen.newline()
            return
        while True:
            c = self.ch()
            if c in (0, COLON):
                return
            if c in (TK["TAB("], TK["SPC("]):
                self.pos += 1
                n = self.byte_expr()
                self.expect(0x29)
                count = n - screen.pos if c == TK["TAB("] else n
                for _ in range(max(count, 0)):
                    screen.out(CURSOR_RIGHT)  # $AB3B: on the screen, not a space
                continue
            if c == COMMA:
                self.pos += 1
                for _ in range(10 - screen.pos % 10):
                    screen.out(CURSOR_RIGHT)
                continue
            if c == SEMICOLON:
                self.pos += 1
                continue
            value = self.expr()
            if isinstance(value, bytes):
                screen.write(value)
            else:
                screen.write(N.fout(value).encode("ascii"))
                screen.out(CURSOR_RIGHT)
            if self.at_end():
                screen.newline()
                return

    # -- INPUT, GET, READ -------------------------------------------------------
    def _read_item(self, ref, text: bytes, pos: int, *, data_line: int | None) -> int | None:
        """Assign one item of ``text`` at ``pos`` (INPUT buffer or DATA text).

        Returns the position of the terminator (',' ':' or $00), or None if the
        item is bad (INPUT: ?REDO FROM START; READ: ?SYNTAX ERROR in the DATA line).
        """
        while text[pos] == 0x20:
            pos += 1
        value: bytes | float
        if ref[1][1] == STRING:
            if text[pos] == QUOTE:
                end = text.find(b'"', pos + 1)
                if end < 0:
                    end = len(text) - 1
                    value = text[pos + 1:end]
                    pos = end
                else:
                    value = text[pos + 1:end]
                    pos = end + 1
            else:
                end = pos
                while text[end] not in (0, COLON, COMMA):
                    end += 1
                value = text[pos:end]
                pos = end
            value = bytes(value)
        else:
            try:
                value, pos = N.fin(text, pos)
            except N.BasicOverflow:
                raise BasicError(Err.OVERFLOW) from None  # FIN ($BCF3) errs in the READ line, not the DATA line
        while text[pos] == 0x20:
            pos += 1
        if text[pos] not in (0, COLON, COMMA):
            return None
        self.assign(ref, value)
        return pos

    def do_input(self):
        start = (self.li, self.pos)
        while True:
            if self._input_once():
                return
            self.screen.write(b"?REDO FROM START")
            self.screen.newline()
            self.set_pointer(*start)

    def _prompt_and_read(self, prompt: bytes) -> bytes:
        self.screen.write(prompt)
        self.screen.out(CURSOR_RIGHT)  # "?" then [CURSOR RIGHT] ($ABF9)
        line = self.keyboard.read_line()
        if line is None:
            raise RunEnd("input", INPUT_EXHAUSTED)
        if len(line) > 88:
            raise BasicError(Err.STRING_TOO_LONG)
        sink = self.screen.sink
        if not self.keyboard.echo:
            self.screen.sink = None
        try:
            for c in line:
                self.screen.out(c)
            self.screen.newline()
        finally:
            self.screen.sink = sink
        return bytes(line) + b"\x00"

    def _input_once(self) -> bool:
        if self.ch() == QUOTE:
            prompt = self.operand()
            self.expect(SEMICOLON)
            self.screen.write(prompt)
        buffer = self._prompt_and_read(b"?")
        if buffer[0] == 0:
            self.skip_statement()  # empty line: variables keep their values ($ABEA)
            return True
        pos = -1  # the ROM starts at the "," stored before the buffer ($01FF)
        while True:
            ref = self.var_ref()
            if pos >= 0 and buffer[pos] in (0, COLON):  # CHRGOT sees the end: ask again ($AC31)
                self.screen.write(b"?")
                buffer = self._prompt_and_read(b"?")
                pos = -1
            item_end = self._read_item(ref, buffer, pos + 1, data_line=None)
            if item_end is None:
                return False
            pos = item_end
            if self.ch() != COMMA:
                break
            self.pos += 1
        if buffer[pos] != 0:
            self.screen.write(b"?EXTRA IGNORED")
            self.screen.newline()
        return True

    def do_get(self):
        if self.ch() == 0x23:
            raise RunEnd("unsupported", "GET# is not supported")
        while True:
            ref = self.var_ref()
            key = self._next_key()
            if ref[1][1] == STRING:
                self.assign(ref, b"" if key is None else bytes([key]))
            else:
                # the key goes through FIN like a DATA item ($AC89); a key that
                # is no number is ?SYNTAX ERROR without a line number ($AB53)
                text = bytes([key or 0, 0])
                value, end = N.fin(text, 0)
                if text[end] not in (0, COLON, COMMA):
                    err = BasicError(Err.SYNTAX)
                    err.direct = True
                    raise err
                self.assign(ref, value)
            if self.ch() != COMMA:
                return
            self.pos += 1

    def _next_key(self) -> int | None:
        n = self.mem[KEY_COUNT]
        if n:
            key = self.mem[KEYBOARD_BUFFER]
            self.mem[KEYBOARD_BUFFER:KEYBOARD_BUFFER + 9] = self.mem[KEYBOARD_BUFFER + 1:KEYBOARD_BUFFER + 10]
            self.mem[KEY_COUNT] = n - 1
            return key
        key = self.keyboard.get_key()
        if key is None:
            self.empty_gets += 1
            if self.keyboard.exhausted and self.empty_gets > EMPTY_GET_LIMIT:
                raise RunEnd("input", "input script exhausted (GET)")
        else:
            self.empty_gets = 0
        return key

    def do_read(self):
        while True:
            ref = self.var_ref()
            self._seek_data()
            data_line = self.lines[self.data_li].number
            end = self._read_item(ref, self.data_cur, self.data_pos, data_line=data_line)
            if end is None:
                raise BasicError(Err.SYNTAX, data_line)
            self.data_pos = end
            if self.ch() != COMMA:
                return
            self.pos += 1

    def _seek_data(self) -> None:
        """Point data_pos at the next item, searching DATA statements ($ACB8)."""
        cur, p = self.data_cur, self.data_pos
        if cur[p] == COMMA:
            self.data_pos = p + 1
            return
        li = self.data_li
        while True:
            # skip to the end of this statement (outside quotes)
            quoted = False
            while cur[p] and (quoted or cur[p] != COLON):
                if cur[p] == QUOTE:
                    quoted = not quoted
                p += 1
            if cur[p] == 0:
                li += 1
                if li >= len(self.lines):
                    raise BasicError(Err.OUT_OF_DATA)
                cur, p = self.lines[li].body, 0
            else:
                p += 1
            while cur[p] == 0x20:
                p += 1
            if cur[p] == TK["DATA"]:
                self.data_li, self.data_cur, self.data_pos = li, cur, p + 1
                return

    def do_restore(self):
        self.restore()

    def do_list(self):
        first, last = 0, 63999
        if is_digit(self.ch()):
            first = last = self.linget()
        if self.ch() == TK["-"]:
            self.adv()
            last = self.linget() if is_digit(self.ch()) else 63999
        for line in self.lines:
            if line.number < first:
                continue
            # LIST ($A69C) sends CR (CRDO $AAD7) before it compares the line number with
            # the range's end: a LIST that stops before the program's end leaves one more CR.
            self.screen.newline()
            if line.number > last:
                break
            self.screen.write(f"{line.number} ".encode("ascii"))
            self.screen.write(detokenize_body(line.body[:-1]))
        raise RunEnd("end", "LIST")


def detokenize_body(body: bytes) -> bytes:
    """LIST's expansion ($A717): tokens outside quotes become keywords."""
    out = bytearray()
    quoted = False
    for c in body:
        if c == QUOTE:
            quoted = not quoted
        if not quoted and c in KEYWORD_OF:
            out += KEYWORD_OF[c].encode("ascii")
        else:
            out.append(c)
    return bytes(out)
