"""FADD and FMULT on MFLPT values the way FAC1 computes them.

Operands are MFLPT values (floats with a 32-bit mantissa).  The ROM works
on a 32-bit mantissa plus an 8-bit rounding byte (FACOV, $70):
* FADD ($B86A): the smaller operand is shifted right into the rounding byte,
  bits below it are lost; the magnitudes are added or subtracted, the result
  normalised and rounded on bit 7 of the rounding byte when stored ($BC1B).
* FMULT ($BA2B): shift-and-add over the multiplier's bytes (the rounding byte
  first), the product kept in 40 bits -- low partial-product bits and their
  carries are lost -- then normalised and rounded.  The multiplier is FAC1,
  i.e. the right operand of ``*``.
Division (FDIV $BB12) produces 32 quotient bits and two more; rounding on the
first extra bit equals rounding the exact quotient, so ``numbers.div`` is used.
"""

from __future__ import annotations

import math

from .numbers import BasicOverflow
from .rnd import _fmult, round40

_TOP40 = 1 << 39


def _split(x: float) -> tuple[int, int, int]:
    """(sign, exponent byte, 32-bit mantissa) of a non-zero MFLPT value."""
    m, k = math.frexp(abs(x))
    return (1 if x < 0 else 0), k + 128, int(m * 4294967296.0)


def _join(sign: int, exp: int, acc40: int) -> float:
    """Round a normalised 40-bit mantissa on bit 7 of its low byte and build the value."""
    exp, mant = round40(exp, acc40)
    if exp > 255:
        raise BasicOverflow()
    if exp < 1:
        return 0.0
    value = math.ldexp(mant, exp - 128 - 32)
    return -value if sign else value


def fadd(a: float, b: float) -> float:
    if a == 0.0:
        return b
    if b == 0.0:
        return a
    sa, ea, ma = _split(a)
    sb, eb, mb = _split(b)
    if (eb, mb) > (ea, ma):
        sa, ea, ma, sb, eb, mb = sb, eb, mb, sa, ea, ma
    shift = ea - eb
    big = ma << 8
    small = (mb << 8) >> shift if shift < 40 else 0
    exp = ea
    if sa == sb:
        acc = big + small
        if acc >> 40:
            acc >>= 1
            exp += 1
    else:
        acc = big - small
        if acc == 0:
            return 0.0
        while not acc & _TOP40:
            acc <<= 1
            exp -= 1
    return _join(sa, exp, acc)


def fmul(a: float, b: float) -> float:
    """a * b with b as FAC1 (the multiplier) and a as ARG."""
    if a == 0.0 or b == 0.0:
        return 0.0
    sa, ea, ma = _split(a)
    sb, eb, mb = _split(b)
    exp, acc = _fmult(eb, mb, ea, ma)
    return _join(sa ^ sb, exp, acc)
