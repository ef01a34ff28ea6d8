"""FAC1/ARG of the C64 BASIC ROM: the arithmetic primitives, step by step.

A FAC value is a tuple ``(exp, neg, m40)``: the exponent byte ($61; 0 means
zero), the sign (bit 7 of FACSGN $66) and the 32-bit mantissa $62-$65 with
the rounding byte FACOV ($70) below it, as one 40-bit integer (normalised: bit
39 set).  Operands from memory or ARG ($69-$6E) have no rounding byte: their
``m40`` has a zero low byte.  Every primitive returns a new FAC tuple; only
the ROM routines that round (ROUND $BC1B, used by MOVMF $BBD4 and MOVAF
$BC0C) drop the rounding byte.  A Python float holds a FAC value exactly (40
bits < 53), so the interpreter passes FAC values around as floats.
"""

from __future__ import annotations

import math


class BasicOverflow(ArithmeticError):
    """The result does not fit MFLPT: the ROM's ?OVERFLOW ERROR (OVERFLOW $B97E)."""


Fac = tuple  # (exp, neg, m40)

ZERO: Fac = (0, 0, 0)
_TOP = 1 << 39
_MASK40 = (1 << 40) - 1


def mflpt(data: bytes) -> Fac:
    """CONUPK/MOVFM ($BA8C/$BBA2): unpack 5 MFLPT bytes (sign in bit 7 of byte 1)."""
    if data[0] == 0:
        return ZERO
    return data[0], data[1] >> 7, (int.from_bytes(data[1:5], "big") | 0x80000000) << 8


def from_float(x: float) -> Fac:
    """The FAC holding ``x`` (a value with at most 40 mantissa bits)."""
    if x == 0.0:
        return ZERO
    m, k = math.frexp(x)
    if m < 0:
        return k + 128, 1, int(-m * 1099511627776.0)
    return k + 128, 0, int(m * 1099511627776.0)


def to_float(f: Fac) -> float:
    exp, neg, m40 = f
    if exp == 0:
        return 0.0
    value = math.ldexp(m40, exp - 168)
    return -value if neg else value


def pack(f: Fac) -> bytes:
    """The 5 MFLPT bytes of a rounded FAC (MOVMF $BBD4 after ROUND)."""
    exp, neg, m40 = f
    if exp == 0:
        return bytes(5)
    m32 = (m40 >> 8) & 0x7FFFFFFF
    return bytes([exp]) + (m32 | (neg << 31)).to_bytes(4, "big")


def round_fac(f: Fac) -> Fac:
    """ROUND ($BC1B): add 1 to the mantissa when bit 7 of FACOV is set; FACOV dropped."""
    exp, neg, m40 = f
    if exp == 0 or not m40 & 0xFF:
        return f
    m32 = m40 >> 8
    if m40 & 0x80:
        m32 += 1
        if m32 >> 32:  # carry out ($BC23 -> $B938): shift right, exponent + 1
            exp += 1
            if exp > 255:
                raise BasicOverflow()
            m32 = 0x80000000
    return exp, neg, m32 << 8


def negate(f: Fac) -> Fac:
    """NEGOP ($BFB4): flip the sign unless the value is zero."""
    return f if f[0] == 0 else (f[0], f[1] ^ 1, f[2])


def _normalise(exp: int, neg: int, acc: int) -> Fac:
    """NORMAL ($B8D7): shift left byte-wise (at most 3 bytes) then bit-wise ($B91D); too small -> 0 ($B8F7).

    After three byte moves the top byte must be non-zero, else the value is
    zero: so fewer than 9 significant bits give zero.
    """
    bits = acc.bit_length()
    if bits <= 8:
        return ZERO
    shift = 40 - bits
    if shift >= exp:
        return ZERO
    return exp - shift, neg, acc << shift


def add(f: Fac, arg: Fac) -> Fac:
    """FADDT ($B86A): FAC + ARG; the smaller operand is shifted right through FACOV."""
    if f[0] == 0:
        return arg[0], arg[1], arg[2] & ~0xFF  # MOVFA ($BBFC)
    if arg[0] == 0:
        return f
    fe, fn, fm = f
    ae, an, am = arg
    am &= ~0xFF
    if ae > fe:  # FAC is the smaller one ($B882): it shifts, with its rounding byte
        exp, neg, big, small, shift = ae, an, am, fm, ae - fe
    else:
        exp, neg, big, small, shift = fe, fn, fm, am, fe - ae
    small >>= shift
    if fn == an:
        acc = big + small
        if acc >> 40:  # carry ($B936): shift right, exponent + 1
            exp += 1
            if exp > 255:
                raise BasicOverflow()
            acc >>= 1
        return exp, neg, acc
    acc = big - small
    if acc < 0:  # only with equal exponents: complement ($B947)
        acc = -acc
        neg ^= 1
    return _normalise(exp, neg, acc)


def sub(f: Fac, arg: Fac) -> Fac:
    """FSUBT ($B853): ARG - FAC."""
    return add(negate_raw(f), arg)


def negate_raw(f: Fac) -> Fac:
    """Flip FACSGN (FSUBT does it even for a zero FAC)."""
    return f[0], f[1] ^ 1, f[2]


def add_exponents(a: int, b: int) -> int | None:
    """MULDIV ($BAB7): exponent of a product; None means the result is zero."""
    if a == 0:
        return None
    total = a + b
    if total >= 256:
        if total - 256 >= 128:
            raise BasicOverflow()
        return total - 128
    if total < 128 or total == 128:
        return None
    return total - 128


def mul(f: Fac, arg: Fac) -> Fac:
    """FMULTT ($BA2B): FAC * ARG, FAC's bytes (rounding byte first) drive the loop."""
    fe, fn, fm = f
    if fe == 0:
        return ZERO
    exp = add_exponents(arg[0], fe)
    if exp is None:
        return ZERO
    m = arg[2]
    b0, b1, b2 = fm & 0xFF, (fm >> 8) & 0xFF, (fm >> 16) & 0xFF
    # Each multiplier bit adds ARG to RESULT ($26-$29) and shifts RESULT:FACOV
    # right, carry in; over a whole byte that is (acc + ARG*byte) >> 8 exactly.
    # MLTPLY ($BA59) skips a zero byte with SHIFTR ($B983) entered at its byte
    # move; when the carry is clear there (the byte before was zero, too) the
    # bit loop shifts the four RESULT bytes once more, not the byte moved into
    # FACOV.  That matters only once RESULT is non-zero.
    b3 = (fm >> 24) & 0xFF
    quirk = (not b2 and not b1 and b0) or (not b3 and not b2 and (b0 or b1))
    if not quirk:
        acc = (m * fm) >> 40
    else:
        acc = 0
        carry = 0
        for byte in (b0, b1, b2, b3):
            if byte == 0:
                low = (acc >> 8) & 0xFF
                acc >>= 8
                if not carry:
                    acc = ((acc >> 9) << 8) | low
                carry = 0
            else:
                acc = (acc + m * byte) >> 8
                carry = 1
        acc = (acc + m * (fm >> 32)) >> 8
    return _normalise(exp, fn ^ arg[1], acc)


def div(f: Fac, arg: Fac) -> Fac:
    """FDIVT ($BB12): ARG / FAC; FAC is rounded first, 34 quotient bits."""
    if f[0] == 0:
        raise ZeroDivisionError()
    fe, fn, fm = round_fac(f)
    ae, an, am = arg
    if ae == 0:
        return ZERO
    # $BB1A: exponent byte 0 - FAC, MULDIV, then +1
    total = ae + ((256 - fe) & 0xFF)
    if total >= 256:
        if total - 256 >= 128:
            raise BasicOverflow()
        exp = total - 128
    elif total < 128:
        return ZERO
    elif total == 128:  # exponent 0: MULDIV clears the sign and returns ($BACC)
        exp, fn, an = 0, 0, 0
    else:
        exp = total - 128
    exp += 1
    if exp > 255:
        raise BasicOverflow()
    q = ((am >> 8) << 33) // (fm >> 8)  # 34 bits, as the shift-subtract loop at $BB2B
    return _normalise(exp, fn ^ an, q << 6)


def mul10(f: Fac) -> Fac:
    """MUL10 ($BAE2): round into ARG, FAC = ARG*4 + ARG, exponent + 1."""
    arg = round_fac(f)
    exp = arg[0]
    if exp == 0:
        return arg
    if exp + 2 > 255:
        raise BasicOverflow()
    r = add((exp + 2, arg[1], arg[2]), arg)
    if r[0] + 1 > 255:
        raise BasicOverflow()
    return r[0] + 1, r[1], r[2]


TEN: Fac = (0x84, 0, 0xA0 << 32)  # $BAF9: 84 20 00 00 00


def div10(f: Fac) -> Fac:
    """DIV10 ($BAFE): round into ARG, FAC = ARG / 10 (the sign flag cleared: positive)."""
    arg = round_fac(f)
    r = div(TEN, (arg[0], 0, arg[2]))
    return r


def small_int(n: int) -> Fac:
    """FLOAT ($BC3C): a signed byte as a FAC value."""
    if n == 0:
        return ZERO
    return from_float(float(n))


def int_fac(f: Fac) -> Fac:
    """INT ($BCCC): floor; exponents >= $A0 are already whole (FAC returned as is)."""
    if f[0] >= 0xA0 or f[0] == 0:
        return f
    return from_float(float(math.floor(to_float(f))))


def qint_low_byte(f: Fac) -> int:
    """CHARAC ($07) after INT: the low byte of the two's complement integer."""
    return math.floor(to_float(f)) & 0xFF


def compare(mem: Fac, f: Fac) -> int:
    """FCOMP ($BC5B): 1, 0 or -1 as FAC is >, = or < the packed value ``mem``.

    The low mantissa byte is compared as mem - FAC - (FACOV >= $80), so the
    rounding byte counts as ROUND would count it (and $FF+1 wraps to equal).
    """
    me, mn, mm = mem
    fe, fn, fm = f
    if me == 0:
        return 0 if fe == 0 else (-1 if fn else 1)
    if mn != fn:
        return -1 if fn else 1  # SIGN of FAC
    hi_m, hi_f = (me, mm >> 16), (fe, fm >> 16)
    if hi_m == hi_f:
        low = (mm >> 8) & 0xFF
        borrow = 1 if (fm & 0xFF) >= 0x80 else 0
        d = low - ((fm >> 8) & 0xFF) - borrow
        if d & 0xFF == 0:
            return 0
        fac_bigger = d < 0
    else:
        fac_bigger = hi_m < hi_f
    if fn:
        fac_bigger = not fac_bigger
    return 1 if fac_bigger else -1
