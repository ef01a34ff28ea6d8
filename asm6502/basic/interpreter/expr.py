"""Expression evaluation over the tokenized text (FRMEVL $AD9E), as a mixin.

Operator precedence is the ROM's table at $A080: OR $46, AND $50, NOT $5A,
comparisons $64, + - $79, * / $7B, unary minus $7D, ^ $7F.  Operators of
equal precedence group to the left (a stacked operator is applied when its
precedence is >= the next one, $ADF1).  Relational operators combine
(``<=``, ``=<``, ``<>``, ``><``, ``>=``); true is -1, false 0.
"""

from __future__ import annotations

import math

from asm6502.basic.tokens import PI_TOKEN, TOKEN_OF

from . import fpu, rom_math
from . import numbers as N
from .errors import BasicError, Err
from .fac import fadd, fdiv, fmul, fpwr, fsub
from .rnd import rnd_from_timers, rnd_next, rnd_reseed

TK = TOKEN_OF
PLUS, MINUS, TIMES, DIVIDE, POWER = TK["+"], TK["-"], TK["*"], TK["/"], TK["^"]
AND, OR, GREATER, EQUAL, LESS = TK["AND"], TK["OR"], TK[">"], TK["="], TK["<"]
NOT, FN = TK["NOT"], TK["FN"]

BINARY_PRECEDENCE = {PLUS: 0x79, MINUS: 0x79, TIMES: 0x7B, DIVIDE: 0x7B, POWER: 0x7F, AND: 0x50, OR: 0x46}
RELATIONAL_PRECEDENCE = 0x64
UNARY_MINUS_PRECEDENCE = 0x7D
NOT_PRECEDENCE = 0x5A
RELATION_BITS = {GREATER: 1, EQUAL: 2, LESS: 4}

RND_SEED = 0x8B  # $8B-$8F

# 6502 stack bytes one level of nesting takes while FRMEVL ($AD9E) recurses; FRMEVL
# checks the stack with GETSTK ($A3FB) and stops with ?OUT OF MEMORY when it runs low.
# Fitted to the deepest nesting the ROM runs (tests/fixtures/basic_stack_limits.txt,
# measured with the ROM itself by tools/basic_stack_limits.py): in a PRINT at the top
# level, 35 parentheses, 14 unary minus signs, 22 SGN( and 12 subscripts A(A(...
PAREN, UNARY, OPERATOR, FUNCTION = 5, 12, 12, 8  # "(", "-"/NOT, a pending binary operator, SGN( etc.
STRING_FUNCTION, STRING_FUNCTION_ARGUMENT = 6, 8  # LEFT$( RIGHT$( MID$(, and their number arguments
SUBSCRIPT, FN_ARGUMENT, FN_BODY = 14, 9, 16  # A(i), FN A(x): the argument, then the body
STRING_FUNCTIONS = frozenset({TK["LEFT$"], TK["RIGHT$"], TK["MID$"]})


def is_letter(c: int) -> bool:
    return 0x41 <= c <= 0x5A


def is_digit(c: int) -> bool:
    return 0x30 <= c <= 0x39


def int16(x: float) -> int:
    """AYINT ($B1BF): floor, -32768..32767, else ?ILLEGAL QUANTITY."""
    n = math.floor(x)
    if not -32768 <= n <= 32767:
        raise BasicError(Err.ILLEGAL_QUANTITY)
    return n


def byte_value(x: float) -> int:
    """GETBYT/CONINT ($B7A1): 0..255, else ?ILLEGAL QUANTITY."""
    n = math.floor(x)
    if not 0 <= n <= 255:
        raise BasicError(Err.ILLEGAL_QUANTITY)
    return n


def address_value(x: float) -> int:
    """GETADR ($B7F7): 0..65535, else ?ILLEGAL QUANTITY."""
    n = math.floor(x)
    if not 0 <= n <= 65535:
        raise BasicError(Err.ILLEGAL_QUANTITY)
    return n


def compare(a, b) -> int:
    return (a > b) - (a < b)


class ExpressionMixin:
    """Needs: cur, pos, ch(), adv(), expect(), mem, screen, fns, call_fn(), get(), var_ref()."""

    # -- nesting ----------------------------------------------------------
    def nested(self, cost: int, evaluate, *args):
        """Evaluate one nesting level deeper, as FRMEVL's recursion fills the 6502 stack."""
        depth = self.expr_stack + cost
        if depth > self.expr_room():
            raise BasicError(Err.OUT_OF_MEMORY)
        self.expr_stack = depth
        try:
            return evaluate(*args)
        finally:
            self.expr_stack = depth - cost

    # -- entry points -----------------------------------------------------
    def expr(self, precedence: int = 0):
        left = self.operand()
        while True:
            c = self.ch()
            if c in RELATION_BITS:
                if precedence >= RELATIONAL_PRECEDENCE:
                    return left
                mask = 0
                while c in RELATION_BITS:
                    bit = RELATION_BITS[c]
                    if mask & bit:
                        raise BasicError(Err.SYNTAX)
                    mask |= bit
                    c = self.adv()
                right = self.nested(OPERATOR, self.expr, RELATIONAL_PRECEDENCE)
                left = self.relation(mask, left, right)
                continue
            op_prec = BINARY_PRECEDENCE.get(c)
            if op_prec is None or op_prec <= precedence:
                return left
            self.pos += 1
            right = self.nested(OPERATOR, self.expr, op_prec)
            left = self.binary(c, left, right)

    def num_expr(self) -> float:
        value = self.expr()
        if isinstance(value, bytes):
            raise BasicError(Err.TYPE_MISMATCH)
        return value

    def str_expr(self) -> bytes:
        value = self.expr()
        if not isinstance(value, bytes):
            raise BasicError(Err.TYPE_MISMATCH)
        return value

    def byte_expr(self) -> int:
        return byte_value(self.num_expr())

    # -- operators --------------------------------------------------------
    @staticmethod
    def relation(mask: int, a, b) -> float:
        if isinstance(a, bytes) != isinstance(b, bytes):
            raise BasicError(Err.TYPE_MISMATCH)
        c = compare(a, b)
        if not isinstance(a, bytes) and abs(a - b) <= abs(a) * 2.0 ** -30:
            # $B016: the left operand (pushed rounded) is compared with FAC by
            # FCOMP ($BC5B), which counts FAC's rounding byte on the low byte
            c = -fpu.compare(fpu.round_fac(fpu.from_float(a)), fpu.from_float(b))
        result = (c > 0 and mask & 1) or (c == 0 and mask & 2) or (c < 0 and mask & 4)
        return -1.0 if result else 0.0

    @staticmethod
    def binary(op: int, a, b):
        if isinstance(a, bytes) or isinstance(b, bytes):
            if op == PLUS and isinstance(a, bytes) and isinstance(b, bytes):
                if len(a) + len(b) > 255:
                    raise BasicError(Err.STRING_TOO_LONG)
                return a + b
            raise BasicError(Err.TYPE_MISMATCH)
        if op == PLUS:
            return fadd(a, b)
        if op == MINUS:
            return fsub(a, b)
        if op == TIMES:
            return fmul(a, b)
        if op == DIVIDE:
            if b == 0:
                raise BasicError(Err.DIVISION_BY_ZERO)
            return fdiv(a, b)
        if op == POWER:
            try:
                return fpwr(a, b)
            except ValueError:
                raise BasicError(Err.ILLEGAL_QUANTITY) from None
        if op == AND:
            return float(int16(a) & int16(b))
        return float(int16(a) | int16(b))  # OR

    # -- operands ---------------------------------------------------------
    def operand(self):
        c = self.ch()
        if is_digit(c) or c == 0x2E:
            value, self.pos = N.fin(self.cur, self.pos)
            return value
        if c == 0x22:
            end = self.cur.find(b'"', self.pos + 1)
            if end < 0:
                end = len(self.cur) - 1
                text = self.cur[self.pos + 1:end]
                self.pos = end
            else:
                text = self.cur[self.pos + 1:end]
                self.pos = end + 1
            return bytes(text)
        if is_letter(c):
            return self.get(self.var_ref())
        if c == PI_TOKEN:
            self.pos += 1
            return N.PI
        if c == MINUS:
            self.pos += 1
            value = self.nested(UNARY, self.expr, UNARY_MINUS_PRECEDENCE)
            if isinstance(value, bytes):
                raise BasicError(Err.TYPE_MISMATCH)
            return -value
        if c == PLUS:
            self.pos += 1
            return self.operand()
        if c == NOT:
            self.pos += 1
            value = self.nested(UNARY, self.expr, NOT_PRECEDENCE)
            if isinstance(value, bytes):
                raise BasicError(Err.TYPE_MISMATCH)
            return float(~int16(value))
        if c == 0x28:
            self.pos += 1
            value = self.nested(PAREN, self.expr)
            self.expect(0x29)
            return value
        if c == FN:
            self.pos += 1
            return self.call_fn()
        handler = FUNCTIONS.get(c)
        if handler is None:
            raise BasicError(Err.SYNTAX)
        self.pos += 1
        return self.nested(STRING_FUNCTION if c in STRING_FUNCTIONS else FUNCTION, handler, self)

    def paren_num(self) -> float:
        self.expect(0x28)
        value = self.num_expr()
        self.expect(0x29)
        return value

    def paren_str(self) -> bytes:
        self.expect(0x28)
        value = self.str_expr()
        self.expect(0x29)
        return value

    def paren_any(self):
        self.expect(0x28)
        value = self.expr()
        self.expect(0x29)
        return value


# -- functions: token -> handler(interpreter) ---------------------------------

def _sgn(it):
    return float(compare(it.paren_num(), 0.0))


def _int(it):
    return fpu.to_float(fpu.int_fac(fpu.from_float(it.paren_num())))  # INT ($BCCC)


def _abs(it):
    return abs(it.paren_num())


def _usr(it):
    it.paren_any()
    return it.usr()


def _fre(it):
    it.paren_any()
    return it.fre()


def _pos(it):
    it.paren_any()
    return float(it.screen.pos)


def _rom(function, it) -> float:
    """A ROM math routine on FAC: the argument keeps its rounding byte, so does the result."""
    try:
        return fpu.to_float(function(fpu.from_float(it.paren_num())))
    except ValueError:
        raise BasicError(Err.ILLEGAL_QUANTITY) from None
    except ZeroDivisionError:
        raise BasicError(Err.DIVISION_BY_ZERO) from None


def _sqr(it):
    return _rom(rom_math.sqr, it)


def _rnd(it):
    x = it.paren_num()
    if x < 0:
        seed = rnd_reseed(x)
    elif x == 0:
        seed = rnd_from_timers(*it.timer_bytes())
    else:
        seed = rnd_next(bytes(it.mem[RND_SEED:RND_SEED + 5]))
    it.mem[RND_SEED:RND_SEED + 5] = seed
    return N.unpack(seed)


def _log(it):
    return _rom(rom_math.log, it)


def _exp(it):
    return _rom(rom_math.exp, it)


def _cos(it):
    return _rom(rom_math.cos, it)


def _sin(it):
    return _rom(rom_math.sin, it)


def _tan(it):
    return _rom(rom_math.tan, it)


def _atn(it):
    return _rom(rom_math.atn, it)


def _peek(it):
    return float(it.peek(address_value(it.paren_num())))


def _len(it):
    return float(len(it.paren_str()))


def _str(it):
    return N.fout(it.paren_num()).encode("ascii")


def _val(it):
    text = it.paren_str()
    value, _ = N.fin(text + b"\x00", 0)
    return value


def _asc(it):
    text = it.paren_str()
    if not text:
        raise BasicError(Err.ILLEGAL_QUANTITY)
    return float(text[0])


def _chr(it):
    return bytes([byte_value(it.paren_num())])


def _string_and_count(it) -> tuple[bytes, int]:
    """The ``(string, count)`` arguments of LEFT$ and RIGHT$."""
    it.expect(0x28)
    text = it.str_expr()
    it.expect(0x2C)
    n = it.nested(STRING_FUNCTION_ARGUMENT, it.byte_expr)
    it.expect(0x29)
    return text, n


def _left(it):
    text, n = _string_and_count(it)
    return text[:n]


def _right(it):
    # RIGHT$ ($B72C): start = LEN - count; a count past the string borrows, and LEFT$'s
    # whole-string branch ($B706) takes the string as it is
    text, n = _string_and_count(it)
    return text[len(text) - n:] if n < len(text) else text


def _mid(it):
    it.expect(0x28)
    text = it.str_expr()
    it.expect(0x2C)
    start = it.nested(STRING_FUNCTION_ARGUMENT, it.byte_expr)
    length = 255
    if it.ch() == 0x2C:
        it.pos += 1
        length = it.nested(STRING_FUNCTION_ARGUMENT, it.byte_expr)
    it.expect(0x29)
    if start == 0:
        raise BasicError(Err.ILLEGAL_QUANTITY)
    return text[start - 1:start - 1 + length]


FUNCTIONS = {
    TK["SGN"]: _sgn, TK["INT"]: _int, TK["ABS"]: _abs, TK["USR"]: _usr, TK["FRE"]: _fre,
    TK["POS"]: _pos, TK["SQR"]: _sqr, TK["RND"]: _rnd, TK["LOG"]: _log, TK["EXP"]: _exp,
    TK["COS"]: _cos, TK["SIN"]: _sin, TK["TAN"]: _tan, TK["ATN"]: _atn, TK["PEEK"]: _peek,
    TK["LEN"]: _len, TK["STR$"]: _str, TK["VAL"]: _val, TK["ASC"]: _asc, TK["CHR$"]: _chr,
    TK["LEFT$"]: _left, TK["RIGHT$"]: _right, TK["MID$"]: _mid,
}

__all__ = ["ExpressionMixin", "int16", "byte_value", "address_value", "is_letter", "is_digit"]
