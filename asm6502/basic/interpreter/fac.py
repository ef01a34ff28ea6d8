"""The operators + - * / ^ on interpreter values, through the FAC model (``fpu``).

An interpreter number is a float holding a FAC value: a variable's value
(32-bit mantissa) or an expression result that still carries FAC's rounding
byte (40-bit mantissa).  For ``a op b`` the ROM pushes the left operand
rounded ($AE33: ROUND $BC1B, then the bytes go on the stack) and pops it into
ARG; the right operand is FAC as the last routine left it.  So ``a`` is
rounded here and ``b`` is not.
"""

from __future__ import annotations

from . import fpu, rom_math


def _arg(a: float) -> fpu.Fac:
    return fpu.round_fac(fpu.from_float(a))


def fadd(a: float, b: float) -> float:
    """a + b: FADDT ($B86A)."""
    return fpu.to_float(fpu.add(fpu.from_float(b), _arg(a)))


def fsub(a: float, b: float) -> float:
    """a - b: FSUBT ($B853) negates FAC and adds."""
    return fpu.to_float(fpu.sub(fpu.from_float(b), _arg(a)))


def fmul(a: float, b: float) -> float:
    """a * b: FMULTT ($BA2B), b (FAC) drives the multiplier loop."""
    return fpu.to_float(fpu.mul(fpu.from_float(b), _arg(a)))


def fdiv(a: float, b: float) -> float:
    """a / b: FDIVT ($BB12); ZeroDivisionError for b = 0."""
    return fpu.to_float(fpu.div(fpu.from_float(b), _arg(a)))


def fpwr(a: float, b: float) -> float:
    """a ^ b: FPWRT ($BF7B); ValueError for a negative a and a fractional b."""
    return fpu.to_float(rom_math.power(_arg(a), fpu.from_float(b)))
