"""Run a tokenized C64 BASIC V2 program headless (statements: NEWSTT $A7AE).

The interpreter walks the tokenized bytes like the ROM's text pointer
(TXTPTR $7A/$7B with CHRGET skipping spaces), so keyword tokens, DATA text,
spaces inside numbers ("1 0" is 10) and names ("A B" is AB) behave as on a C64.
Output goes to a Screen model (screen memory at $0400 is visible to PEEK);
INPUT/GET read a Keyboard (a script or a terminal).

What it does not do: disk/tape/printer I/O (LOAD, SAVE, VERIFY, OPEN, CMD,
PRINT#, INPUT#, GET# stop the run with a note), garbage-collection timing,
variables in RAM (PEEK of the variable area shows nothing), the ROM under
$A000/$E000 (PEEK there gives the RAM below, normally 0).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from asm6502 import c64map
from asm6502.basic.tokens import KEYWORD_OF, TOKEN_OF

from . import numbers as N
from .errors import BREAK, READY, BasicError, Err
from .expr import FN_ARGUMENT, FN_BODY, SUBSCRIPT, ExpressionMixin, address_value, int16, is_digit, is_letter
from .fac import fadd
from .flow import RunEnd, StopRun
from .inout import InputOutputMixin
from .keyboard import Keyboard
from .program import Program
from .rnd import INITIAL_SEED
from .screen import Screen
from .variables import DEFAULT_BOUND, FLOAT, INTEGER, STRING, Array, Key, default_value

TK = TOKEN_OF
COLON, COMMA, QUOTE = 0x3A, 0x2C, 0x22
JIFFIES_PER_DAY = 24 * 60 * 60 * 60
STATEMENTS_PER_JIFFY = 20  # the virtual clock: a C64 runs roughly 1000 statements/s
STACK_START = 0xF6  # approximate CPU stack pointer while statements run
STACK_LIMIT = 0x3E  # GETSTK $A3FB: keep $3E bytes + 2*A free
# Bytes per entry on the 6502 stack: FOR pushes 18 ($A753, after dropping its own return
# address); GOSUB's 5 bytes ($A883) stay on top of the 2-byte return into NEWSTT.  The
# floors below which GOSUB and FRMEVL stop with ?OUT OF MEMORY are fitted to the ROM's
# limits (tests/fixtures/basic_stack_limits.txt, measured with the ROM): 10 nested FOR
# loops, 23 nested GOSUBs, 35 parentheses in a PRINT.
FOR_FRAME, GOSUB_FRAME = 18, 7
GOSUB_FLOOR = 0x58  # fitted: 23 GOSUB frames leave less than this, 22 do not
EXPR_FLOOR = STACK_LIMIT + 2 + 3  # FRMEVL's GETSTK (A=1) and 3 bytes of the statement's calls (fitted)
ELEMENT_BYTES = {FLOAT: 5, INTEGER: 2, STRING: 3}  # $B26B: element sizes (string: descriptor)


@dataclass(frozen=True)
class RunOptions:
    seed: int | None = None  # jiffy clock (TI) at RUN; None: from the host clock
    max_statements: int | None = None


@dataclass
class RunResult:
    reason: str  # "end", "stop", "interrupt" (Ctrl-C), "error", "input", "limit", "unsupported"
    message: str  # what ended the run, as the C64 printed it (or a note)
    line: int | None
    statements: int
    transcript: str
    screen_text: str


@dataclass
class ForFrame:
    key: Key
    step: float
    limit: float
    li: int
    pos: int


@dataclass
class GosubFrame:
    li: int
    pos: int


@dataclass
class FnDef:
    li: int
    pos: int  # start of the body expression
    param: Key


class Interpreter(InputOutputMixin, ExpressionMixin):
    def __init__(self, program: Program, image: bytes, *, keyboard: Keyboard | None = None,
                 sink=None, options: RunOptions = RunOptions(), sys_handler=None):
        self.program = program
        self.lines = program.lines
        self.line_index = {line.number: i for i, line in enumerate(self.lines)}
        self.mem = bytearray(0x10000)
        self.mem[program.load_address:program.load_address + len(image)] = image
        self._init_zero_page()
        self.screen = Screen(self.mem, sink)
        self.keyboard = keyboard or Keyboard()
        self.options = options
        self.sys_handler = sys_handler
        seed = options.seed if options.seed is not None else int(time.time() * 60)
        self.clock_base = seed % JIFFIES_PER_DAY
        self.count = 0
        self.empty_gets = 0
        self.clear_state()
        self.li = -1
        self.cur = b"\x00"
        self.pos = 0

    # -- machine state ------------------------------------------------------
    def _init_zero_page(self) -> None:
        m = self.mem
        start, end = self.program.load_address, self.program.end_address
        m[0x2B], m[0x2C] = start & 0xFF, start >> 8  # TXTTAB
        for ptr in (0x2D, 0x2F, 0x31):  # VARTAB, ARYTAB, STREND
            m[ptr], m[ptr + 1] = end & 0xFF, end >> 8
        m[0x33], m[0x34] = 0x00, 0xA0  # FRETOP
        m[0x37], m[0x38] = 0x00, 0xA0  # MEMSIZ
        m[0x0288] = 0x04  # screen memory page
        m[0x0311], m[0x0312] = 0x48, 0xB2  # USR vector -> ?ILLEGAL QUANTITY ($B248)
        at, vectors = c64map.RAM_VECTORS  # (machine code called with SYS takes its interrupts through them)
        m[at : at + len(vectors)] = vectors
        m[0x8B:0x90] = INITIAL_SEED
        m[0xC5] = m[0xCB] = 64  # no key pressed

    def clear_state(self) -> None:
        """CLR ($A65E): variables, arrays, functions, the loop stack, RESTORE."""
        self.vars: dict[Key, object] = {}
        self.arrays: dict[Key, Array] = {}
        self.fns: dict[str, FnDef] = {}
        self.stack: list[ForFrame | GosubFrame] = []
        self.expr_stack = 0  # stack bytes of the expression being evaluated (ExpressionMixin.nested)
        self.restore()

    def restore(self) -> None:
        self.data_li = -1
        self.data_pos = 0
        self.data_cur = b"\x00"

    @property
    def jiffies(self) -> int:
        return (self.clock_base + self.count // STATEMENTS_PER_JIFFY) % JIFFIES_PER_DAY

    def timer_bytes(self) -> tuple[int, int, int, int]:
        """CIA 1 timer A lo/hi and TOD tenths/seconds (BCD) for RND(0)."""
        j = self.jiffies
        cycles = (self.count * 1000 + j * 16421) & 0xFFFF
        seconds = (j // 60) % 60
        return cycles & 0xFF, cycles >> 8, (j % 60) // 6, ((seconds // 10) << 4) | (seconds % 10)

    def peek(self, address: int) -> int:
        if address in (0xA0, 0xA1, 0xA2):  # TIME: jiffy clock, big-endian
            return (self.jiffies >> (8 * (0xA2 - address))) & 0xFF
        if address == 0xD012:  # raster line
            return (self.count * 7) & 0xFF
        if address in (0xDC04, 0xDC05):
            return self.timer_bytes()[address - 0xDC04]
        return self.mem[address]

    @property
    def line_number(self) -> int | None:
        return self.lines[self.li].number if 0 <= self.li < len(self.lines) else None

    # -- text pointer -------------------------------------------------------
    def ch(self) -> int:
        """CHRGOT: the current byte, skipping spaces."""
        cur, p = self.cur, self.pos
        while cur[p] == 0x20:
            p += 1
        self.pos = p
        return cur[p]

    def adv(self) -> int:
        """CHRGET: advance, then CHRGOT."""
        self.pos += 1
        return self.ch()

    def expect(self, byte: int) -> None:
        if self.ch() != byte:
            raise BasicError(Err.SYNTAX)
        self.pos += 1

    def at_end(self) -> bool:
        return self.ch() in (0, COLON)

    def skip_statement(self) -> None:
        """DATA/RETURN skip ($A906): to the next ':' or end of line, outside quotes."""
        cur, p, quoted = self.cur, self.pos, False
        while cur[p]:
            if cur[p] == QUOTE:
                quoted = not quoted
            elif cur[p] == COLON and not quoted:
                break
            p += 1
        self.pos = p

    def skip_line(self) -> None:
        self.pos = len(self.cur) - 1

    def set_pointer(self, li: int, pos: int) -> None:
        self.li = li
        self.cur = self.lines[li].body if li >= 0 else b"\x00"
        self.pos = pos

    def jump(self, index: int) -> None:
        """Point at the end of the line before ``index`` so NEWSTT starts it next."""
        self.set_pointer(index - 1, 0)
        self.skip_line()

    def linget(self) -> int:
        """LINGET ($A96B): a line number 0..63999 (no digits gives 0)."""
        n = 0
        c = self.ch()
        while is_digit(c):
            n = n * 10 + c - 0x30
            if n > 63999:
                raise BasicError(Err.SYNTAX)
            c = self.adv()
        return n

    def goto_line(self, number: int) -> None:
        index = self.line_index.get(number)
        if index is None:
            raise BasicError(Err.UNDEFD_STATEMENT)
        self.jump(index)

    # -- variables ----------------------------------------------------------
    def name(self) -> Key:
        """PTRGET's name scan: a letter, letters/digits (2 kept), then $ or %."""
        c = self.ch()
        if not is_letter(c):
            raise BasicError(Err.SYNTAX)
        text = chr(c)
        c = self.adv()
        while is_letter(c) or is_digit(c):
            if len(text) < 2:
                text += chr(c)
            c = self.adv()
        kind = FLOAT
        if c == 0x24:
            kind = STRING
            self.pos += 1
        elif c == 0x25:
            kind = INTEGER
            self.pos += 1
        return text, kind

    def var_ref(self):
        key = self.name()
        if self.ch() == 0x28:
            self.pos += 1
            return ("a", key, self.subscripts())
        return ("v", key)

    def subscripts(self) -> list[int]:
        """Read ``i, j, ...)`` after an array name's ``(``: non-negative 16-bit integers."""
        indices = []
        while True:
            n = int16(self.nested(SUBSCRIPT, self.num_expr))
            if n < 0:
                raise BasicError(Err.ILLEGAL_QUANTITY)
            indices.append(n)
            c = self.ch()
            self.pos += 1
            if c == 0x29:
                return indices
            if c != COMMA:
                raise BasicError(Err.SYNTAX)

    def _array(self, key: Key, dims: int) -> Array:
        arr = self.arrays.get(key)
        if arr is None:
            arr = self._new_array(key, (DEFAULT_BOUND,) * dims)
        return arr

    def _new_array(self, key: Key, bounds: tuple[int, ...]) -> Array:
        """Create an array if it fits below the strings ($B261; ?OUT OF MEMORY)."""
        size = ELEMENT_BYTES[key[1]]
        for bound in bounds:
            size *= bound + 1
        if 5 + 2 * len(bounds) + size > self.fre_bytes():
            raise BasicError(Err.OUT_OF_MEMORY)
        arr = Array.create(key[1], bounds)
        self.arrays[key] = arr
        return arr

    def get(self, ref):
        key = ref[1]
        if ref[0] == "a":
            arr = self._array(key, len(ref[2]))
            value = arr.data[arr.offset(ref[2])]
        elif key == ("TI", FLOAT):
            return float(self.jiffies)
        elif key == ("TI", STRING):
            j = self.jiffies // 60
            return f"{j // 3600:02d}{j // 60 % 60:02d}{j % 60:02d}".encode("ascii")
        elif key == ("ST", FLOAT):
            return 0.0
        else:
            value = self.vars.get(key)
            if value is None:
                value = default_value(key[1])
        return float(value) if isinstance(value, int) else value

    def assign(self, ref, value) -> None:
        key = ref[1]
        kind = key[1]
        if kind == STRING:
            if not isinstance(value, bytes):
                raise BasicError(Err.TYPE_MISMATCH)
        else:
            if isinstance(value, bytes):
                raise BasicError(Err.TYPE_MISMATCH)
            value = int16(value) if kind == INTEGER else N.to_mflpt(value)
        if ref[0] == "a":
            arr = self._array(key, len(ref[2]))
            arr.data[arr.offset(ref[2])] = value
            return
        if key == ("TI", STRING):
            if len(value) != 6 or not all(is_digit(c) for c in value):
                raise BasicError(Err.ILLEGAL_QUANTITY)
            h, m, s = int(value[0:2]), int(value[2:4]), int(value[4:6])
            target = ((h * 60 + m) * 60 + s) * 60
            self.clock_base = (target - self.count // STATEMENTS_PER_JIFFY) % JIFFIES_PER_DAY
            return
        if key in (("TI", FLOAT), ("ST", FLOAT)):
            raise BasicError(Err.SYNTAX)
        self.vars[key] = value

    # -- user functions -------------------------------------------------------
    def fn_name(self) -> str:
        """GETFNM ($B3E1): PTRGET with SUBFLG set, so ``%`` is ?SYNTAX; then CHKNUM, so ``$``
        is ?TYPE MISMATCH."""
        key = self.name()
        if key[1] == INTEGER:
            raise BasicError(Err.SYNTAX)
        if key[1] == STRING:
            raise BasicError(Err.TYPE_MISMATCH)
        return key[0]

    def call_fn(self):
        name = self.fn_name()
        arg = self.nested(FN_ARGUMENT, self.paren_num)
        fn = self.fns.get(name)
        if fn is None:
            raise BasicError(Err.UNDEFD_FUNCTION)
        saved_value = self.vars.get(fn.param)
        saved = (self.cur, self.pos)
        self.vars[fn.param] = N.to_mflpt(arg)
        # only the text pointer moves: errors still name the calling line ($39/$3A)
        self.cur, self.pos = self.lines[fn.li].body, fn.pos
        try:
            value = self.nested(FN_BODY, self.num_expr)
            if not self.at_end():
                raise BasicError(Err.SYNTAX)
        finally:
            self.cur, self.pos = saved
            if saved_value is None:
                self.vars.pop(fn.param, None)
            else:
                self.vars[fn.param] = saved_value
        return value

    def usr(self) -> float:
        vector = self.mem[0x0311] | (self.mem[0x0312] << 8)
        if vector == 0xB248:
            raise BasicError(Err.ILLEGAL_QUANTITY)
        raise RunEnd("unsupported", f"USR to ${vector:04X} (machine code) is not supported")

    def fre_bytes(self) -> int:
        """Free bytes between the arrays and the strings (an estimate: 7 bytes per
        variable, array headers and elements, string lengths)."""
        used = 7 * len(self.vars)
        used += sum(5 + 2 * len(a.bounds) + len(a.data) * ELEMENT_BYTES[a.kind] for a in self.arrays.values())
        used += sum(len(v) for v in self.vars.values() if isinstance(v, bytes))
        return 0xA000 - self.program.end_address - used

    def fre(self) -> float:
        free = self.fre_bytes()
        return float(free - 0x10000 if free > 0x7FFF else free)  # FRE is signed ($B391)

    # -- loop stack -----------------------------------------------------------
    def _stack_bytes(self) -> int:
        return sum(FOR_FRAME if isinstance(f, ForFrame) else GOSUB_FRAME for f in self.stack)

    def expr_room(self) -> int:
        """Stack bytes an expression may take before FRMEVL reports ?OUT OF MEMORY."""
        return STACK_START - self._stack_bytes() - EXPR_FLOOR

    def _check_stack(self, reserve: int) -> None:
        """GETSTK ($A3FB): ?OUT OF MEMORY when the 6502 stack would run low."""
        if STACK_START - self._stack_bytes() < STACK_LIMIT + 2 * reserve:
            raise BasicError(Err.OUT_OF_MEMORY)

    def _find_for(self, key: Key | None) -> int | None:
        """FNDFOR ($A38A): the FOR entry for ``key`` above the newest GOSUB."""
        for i in range(len(self.stack) - 1, -1, -1):
            frame = self.stack[i]
            if isinstance(frame, GosubFrame):
                return None
            if key is None or frame.key == key:
                return i
        return None

    # -- running --------------------------------------------------------------
    def run(self) -> RunResult:
        reason, message, line = "end", "", None
        try:
            self._newstt()
        except RunEnd as end:
            reason, message = end.reason, end.message
            line = self.line_number
        except (StopRun, KeyboardInterrupt) as stopped:  # STOP, or Ctrl-C as the RUN/STOP key
            # (the screen shows BREAK as the C64's does; the command's exit status tells Ctrl-C apart: 130)
            reason, line = "stop" if isinstance(stopped, StopRun) else "interrupt", self.line_number
            self.screen.newline()
            message = f"{BREAK} IN {line}"
            self.screen.write(message.encode("ascii"))
        except BasicError as exc:
            reason = "error"
            if exc.line is None and not getattr(exc, "direct", False):
                exc.line = self.line_number
            line = exc.line
            message = exc.message()
            self.screen.newline()
            self.screen.write(message.encode("ascii"))
        if reason in ("end", "stop", "interrupt", "error"):
            self.screen.newline()
            self.screen.write(READY.encode("ascii"))
            self.screen.newline()
        return RunResult(reason, message, line, self.count, self.screen.transcript(), self.screen.screen_text())

    def _newstt(self) -> None:
        if not self.lines:
            return
        self.jump(0)
        limit = self.options.max_statements
        while True:
            c = self.ch()
            if c == 0:
                if self.li + 1 >= len(self.lines):
                    return
                self.set_pointer(self.li + 1, 0)
                continue
            if c == COLON:
                self.pos += 1
                continue
            if limit is not None and self.count >= limit:
                raise RunEnd("limit", f"stopped after {limit} statements")
            self.count += 1
            try:
                self.statement()
            except N.BasicOverflow:
                raise BasicError(Err.OVERFLOW) from None
            except OverflowError:
                raise BasicError(Err.OVERFLOW) from None
            if not self.at_end():
                raise BasicError(Err.SYNTAX)

    def statement(self) -> None:
        c = self.ch()
        handler = STATEMENTS.get(c)
        if handler is not None:
            self.pos += 1
            handler(self)
        elif c == TK["GO"]:
            self.adv()
            self.expect(TK["TO"])
            self.goto_line(self.linget())
        elif is_letter(c):
            self.do_let()
        else:
            raise BasicError(Err.SYNTAX)

    # -- statements -------------------------------------------------------------
    # END ($A831) and STOP ($A82F) return at once unless the statement ends there
    # (BNE $A870): ``STOP=3`` then meets '=' in NEWSTT, ?SYNTAX.
    def do_end(self):
        if self.at_end():
            raise RunEnd("end")

    def do_stop(self):
        if self.at_end():
            raise StopRun()

    def do_rem(self):
        self.skip_line()

    def do_data(self):
        self.skip_statement()

    def do_let(self):
        ref = self.var_ref()
        # PTRGET ($B11D-$B136) refuses to create the plain variables TI and ST (TI$ is the
        # clock, LET sets it); arrays ST( and TI( and TI%/ST$ are ordinary names.
        if ref[0] == "v" and ref[1] in (("TI", FLOAT), ("ST", FLOAT)):
            raise BasicError(Err.SYNTAX)
        self.expect(TK["="])
        self.assign(ref, self.expr())

    def do_goto(self):
        self.goto_line(self.linget())

    def do_gosub(self):
        if STACK_START - self._stack_bytes() < GOSUB_FLOOR:  # GETSTK ($A3FB) in GOSUB
            raise BasicError(Err.OUT_OF_MEMORY)
        number = self.linget()
        self.stack.append(GosubFrame(self.li, self.pos))
        self.goto_line(number)

    def do_return(self):
        while self.stack and isinstance(self.stack[-1], ForFrame):
            self.stack.pop()
        if not self.stack:
            raise BasicError(Err.RETURN_WITHOUT_GOSUB)
        frame = self.stack.pop()
        self.set_pointer(frame.li, frame.pos)
        self.skip_statement()

    def do_if(self):
        value = self.expr()
        c = self.ch()
        if c != TK["GOTO"]:
            self.expect(TK["THEN"])
        true = len(value) > 0 if isinstance(value, bytes) else value != 0
        if not true:
            self.skip_line()
            return
        if c == TK["THEN"] and is_digit(self.ch()):
            self.goto_line(self.linget())
        elif not self.at_end():
            self.statement()

    def do_on(self):
        n = self.byte_expr()
        token = self.ch()
        if token not in (TK["GOTO"], TK["GOSUB"]):
            raise BasicError(Err.SYNTAX)
        while True:
            self.pos += 1  # the GOTO/GOSUB token, then each ","
            n -= 1
            if n == 0:
                (self.do_goto if token == TK["GOTO"] else self.do_gosub)()
                return
            self.linget()
            if self.ch() != COMMA:
                return

    def do_for(self):
        ref = self.var_ref()
        if ref[0] != "v" or ref[1][1] != FLOAT:
            raise BasicError(Err.SYNTAX)
        key = ref[1]
        self.expect(TK["="])
        self.assign(ref, self.num_expr())
        found = self._find_for(key)
        if found is not None:
            del self.stack[found:]
        self.expect(TK["TO"])
        limit = N.to_mflpt(self.num_expr())
        step = 1.0
        if self.ch() == TK["STEP"]:
            self.pos += 1
            step = N.to_mflpt(self.num_expr())
        self._check_stack(9)
        self.stack.append(ForFrame(key, step, limit, self.li, self.pos))

    def do_next(self):
        while True:
            key = None
            if not self.at_end():
                ref = self.var_ref()
                key = ref[1]
            index = self._find_for(key)
            if index is None:
                raise BasicError(Err.NEXT_WITHOUT_FOR)
            del self.stack[index + 1:]
            frame = self.stack[index]
            value = N.to_mflpt(fadd(frame.step, self.get(("v", frame.key))))  # $AD4F: STEP + variable, stored rounded
            self.vars[frame.key] = value
            if (value > frame.limit) - (value < frame.limit) != (frame.step > 0) - (frame.step < 0):
                self.set_pointer(frame.li, frame.pos)
                return
            self.stack.pop()
            if self.ch() != COMMA:
                return
            self.pos += 1

    def do_dim(self):
        while True:
            key = self.name()
            if self.ch() == 0x28:
                self.pos += 1
                bounds = self.subscripts()
                if key in self.arrays:
                    raise BasicError(Err.REDIMD_ARRAY)
                self._new_array(key, tuple(bounds))
            if self.ch() != COMMA:
                return
            self.pos += 1

    def do_def(self):
        self.expect(TK["FN"])
        name = self.fn_name()
        self.expect(0x28)
        param = self.name()  # PTRGET with SUBFLG set, then CHKNUM ($B3B3)
        if param[1] == INTEGER:
            raise BasicError(Err.SYNTAX)
        if param[1] == STRING:
            raise BasicError(Err.TYPE_MISMATCH)
        self.expect(0x29)
        self.expect(TK["="])
        self.fns[name] = FnDef(self.li, self.pos, param)
        self.skip_statement()

    def do_poke(self):
        address = address_value(self.num_expr())
        self.expect(COMMA)
        self.mem[address] = self.byte_expr()

    def do_clr(self):
        self.clear_state()

    def do_run(self):
        self.clear_state()
        if is_digit(self.ch()):
            self.goto_line(self.linget())
        else:
            self.jump(0)

    def do_new(self):
        raise RunEnd("end", "NEW")

    def do_cont(self):
        raise BasicError(Err.CANT_CONTINUE)

    def do_close(self):
        self.byte_expr()

    def do_unsupported(self):
        token = self.cur[self.pos - 1]
        raise RunEnd("unsupported", f"{KEYWORD_OF[token]} (device I/O) is not supported")


STATEMENTS = {
    TK["END"]: Interpreter.do_end, TK["FOR"]: Interpreter.do_for, TK["NEXT"]: Interpreter.do_next,
    TK["DATA"]: Interpreter.do_data, TK["INPUT#"]: Interpreter.do_unsupported,
    TK["INPUT"]: Interpreter.do_input, TK["DIM"]: Interpreter.do_dim, TK["READ"]: Interpreter.do_read,
    TK["LET"]: Interpreter.do_let, TK["GOTO"]: Interpreter.do_goto, TK["RUN"]: Interpreter.do_run,
    TK["IF"]: Interpreter.do_if, TK["RESTORE"]: Interpreter.do_restore, TK["GOSUB"]: Interpreter.do_gosub,
    TK["RETURN"]: Interpreter.do_return, TK["REM"]: Interpreter.do_rem, TK["STOP"]: Interpreter.do_stop,
    TK["ON"]: Interpreter.do_on, TK["WAIT"]: Interpreter.do_wait, TK["LOAD"]: Interpreter.do_unsupported,
    TK["SAVE"]: Interpreter.do_unsupported, TK["VERIFY"]: Interpreter.do_unsupported,
    TK["DEF"]: Interpreter.do_def, TK["POKE"]: Interpreter.do_poke,
    TK["PRINT#"]: Interpreter.do_unsupported, TK["PRINT"]: Interpreter.do_print,
    TK["CONT"]: Interpreter.do_cont, TK["LIST"]: Interpreter.do_list, TK["CLR"]: Interpreter.do_clr,
    TK["CMD"]: Interpreter.do_unsupported, TK["SYS"]: Interpreter.do_sys,
    TK["OPEN"]: Interpreter.do_unsupported, TK["CLOSE"]: Interpreter.do_close,
    TK["GET"]: Interpreter.do_get, TK["NEW"]: Interpreter.do_new,
}
