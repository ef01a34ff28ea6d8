"""C64 BASIC V2 numbers: 5-byte MFLPT values and the ROM's text conversions.

The C64 keeps every number in the 5-byte MFLPT format: an exponent byte
(value = 0.1mmm...m (binary) * 2^(exp-128), exp 0 meaning zero) and a 32-bit
mantissa whose top bit holds the sign.  A variable holds such a value; an
expression result is FAC1 with its rounding byte FACOV ($70) still below the
mantissa (40 bits; a Python float holds it exactly).  ``to_mflpt`` rounds it
as ROUND ($BC1B) does when FAC1 is stored: add 1 to the mantissa when bit 7
of the rounding byte is set, i.e. round half away from zero.

The arithmetic itself is in ``fpu.py`` (FAC/ARG primitives), ``fac.py`` (the
operators) and ``rom_math.py`` (the functions); ``add``/``mul``/``div`` here
compute in doubles and round once (tests and tools use them).

Text conversion:
* ``fout`` follows FOUT ($BDDD) on FAC: scale |x| into 99,999,999.9 < x <=
  999,999,999.25 (constants at $BDB3/$BDB8) with MUL10/DIV10 (values below 1
  are first multiplied by 1E9, constant $BDBD), add 0.5 ($B849), truncate
  to a 9-digit integer, then place the decimal point: fixed
  notation when the decimal exponent is -2..8 (".01" up to "999999999"),
  otherwise "d.dddddddE+nn"; trailing zeros and a bare "." are removed.  The
  sign position holds " " or "-".
* ``fin`` follows FIN ($BCF3): digits accumulate as FAC*10+digit, the decimal
  point and "E" exponent then scale by repeated *10 or /10 (MUL10 $BAE2,
  DIV10 $BAFE); the result keeps FAC's rounding byte.
"""

from __future__ import annotations

import math

from . import fpu
from .fpu import BasicOverflow

MANTISSA_BITS = 32
MAX_BINARY_EXP = 127  # MFLPT exponent byte $FF
MIN_BINARY_EXP = -127  # MFLPT exponent byte $01

# $BDB3 / $BDB8 / $BDBD (C64 BASIC ROM): FOUT's scaling limits
FOUT_LOWER = 99999999.90625
FOUT_UPPER = 999999999.25
FOUT_1E9 = 1e9

# $AEA8: PI as stored in ROM (82 49 0F DA A1)
PI = 0.0




def to_mflpt(x: float) -> float:
    """Round ``x`` to a 32-bit mantissa (half away from zero), like ROUND $BC1B."""
    if x == 0.0:
        return 0.0
    if math.isnan(x) or math.isinf(x):
        raise BasicOverflow()
    m, k = math.frexp(abs(x))  # m in [0.5, 1)
    scaled = m * 4294967296.0  # exact: shifts the double's mantissa
    n = int(scaled)
    if scaled - n >= 0.5:
        n += 1
    if n == 4294967296:
        n = 2147483648
        k += 1
    if k > MAX_BINARY_EXP:
        raise BasicOverflow()
    if k < MIN_BINARY_EXP:
        return 0.0  # the ROM underflows to zero silently
    return math.copysign(math.ldexp(n, k - MANTISSA_BITS), x)


def pack(x: float) -> bytes:
    """The 5 MFLPT bytes of ``x`` (as stored in a variable or by MOVMF $BBD4)."""
    x = to_mflpt(x)
    if x == 0.0:
        return bytes(5)
    m, k = math.frexp(abs(x))
    n = int(m * 4294967296.0)
    if x > 0:
        n &= 0x7FFFFFFF  # the always-set top bit holds the sign
    return bytes([k + 128]) + n.to_bytes(4, "big")


def unpack(data: bytes) -> float:
    """The value of 5 MFLPT bytes."""
    if data[0] == 0:
        return 0.0
    n = int.from_bytes(data[1:5], "big")
    negative = bool(n & 0x80000000)
    n |= 0x80000000
    value = math.ldexp(n, data[0] - 128 - MANTISSA_BITS)
    return -value if negative else value


PI = unpack(bytes([0x82, 0x49, 0x0F, 0xDA, 0xA1]))


def add(a: float, b: float) -> float:
    return to_mflpt(a + b)


def mul(a: float, b: float) -> float:
    return to_mflpt(a * b)


def div(a: float, b: float) -> float:
    return to_mflpt(a / b)


# $BDB3 / $BDB8 / $BDBD: 99999999.9, 999999999.25 and 1E9 as MFLPT bytes
_FOUT_LOW = fpu.mflpt(bytes.fromhex("9B3EBC1FFD"))
_FOUT_HIGH = fpu.mflpt(bytes.fromhex("9E6E6B27FD"))
_FOUT_BILLION = fpu.mflpt(bytes.fromhex("9E6E6B2800"))


def fout(x: float) -> str:
    """FOUT ($BDDD): the text PRINT and STR$ show for FAC ``x`` (sign or space first).

    ``x`` may carry FAC's rounding byte (a 40-bit mantissa): the ROM formats
    FAC as it is.  Values below 1 are multiplied by 1E9 first; then DIV10 or
    MUL10 until 99999999.9 < FAC <= 999999999.25 (FCOMP, which counts the
    rounding byte), add .5 unless FAC equals the upper bound, and QINT
    truncates to the nine digits.
    """
    if x.is_integer() and 1.0 <= abs(x) < 1e9:
        # MUL10 of a whole number below 1E9 is exact and FADDH/QINT give it
        # back: FOUT prints the integer's digits (fast path, same text)
        return ("-" if x < 0 else " ") + str(int(abs(x)))
    return fout_fac(fpu.from_float(x))


def fout_fac(f: fpu.Fac) -> str:
    """FOUT ($BDDD) on a FAC value, step by step."""
    sign = "-" if f[1] else " "
    if f[0] == 0:
        return sign + "0"
    f = (f[0], 0, f[2])  # FACSGN now holds the sign character (bit 7 clear)
    count = 0  # INDX ($5D): decimal exponent of the scaled value
    if f[0] <= 0x80:
        f = fpu.mul(f, _FOUT_BILLION)
        count = -9
    while True:
        c = fpu.compare(_FOUT_HIGH, f)
        if c == 0:
            break
        if c > 0:
            f = fpu.div10(f)
            count += 1
            continue
        c = fpu.compare(_FOUT_LOW, f)
        if c > 0:
            f = fpu.add(f, _HALF)  # FADDH ($B849)
            break
        f = fpu.mul10(f)
        count -= 1
    digits = str(math.floor(fpu.to_float((f[0], 0, f[2] & ~0xFF))))  # QINT ($BC9B)
    assert len(digits) == 9, digits
    exponent = count + 8  # decimal exponent of the first digit
    if -2 <= exponent <= 8:  # $BE68..: fixed notation
        point = exponent + 1  # digits before the decimal point (-1..9)
        if point <= 0:
            text = "." + "0" * (-point) + digits
        else:
            text = digits[:point] + "." + digits[point:]
        shown_exp = 0
    else:
        text = digits[0] + "." + digits[1:]
        shown_exp = exponent
    text = text.rstrip("0")
    if text.endswith("."):
        text = text[:-1]
    if shown_exp:
        esign = "-" if shown_exp < 0 else "+"
        text += f"E{esign}{abs(shown_exp):02d}"
    return sign + text


_HALF = fpu.mflpt(bytes.fromhex("8000000000"))  # $BF11

# characters FIN accepts as signs: ASCII and the crunched operator tokens
_MINUS = (0x2D, 0xAB)
_PLUS = (0x2B, 0xAA)


def accumulate(digits: list[int]) -> fpu.Fac:
    """FIN's digit loop ($BD6A..): FAC = MUL10(FAC), then ADDACC ($BD7E) the digit."""
    f = fpu.ZERO
    for d in digits:
        f = fpu.add(fpu.small_int(d), fpu.round_fac(fpu.mul10(f)))
    return f


def fin(data: bytes, pos: int = 0, *, skip_spaces: bool = True) -> tuple[float, int]:
    """FIN ($BCF3): parse a number at ``data[pos]``; return (FAC value, end position) (see fin_fac)."""
    f, negative, end = fin_fac(data, pos, skip_spaces=skip_spaces)
    value = fpu.to_float(f)
    return (-value if negative and value else value), end


# DIV10 ($BAFE) loads 10 into FAC and divides ARG by it; when the quotient underflows, or ARG is
# already 0, MULDIV's ZEROFC clears only the exponent and the sign: the mantissa of 10 stays
_ZERO_AFTER_DIV10: fpu.Fac = (0, 0, fpu.TEN[2])


def mflpt_after_fin(data: bytes, pos: int = 0) -> tuple[bytes, int]:
    """(the 5 bytes MOVMF $BBD4 stores of FIN's result, end position), as ``.flp`` of the original
    Profi-Ass stores them: a number that came to 0 through a DIV10 (``1e-39``, ``0.0``, ``-.0``) keeps
    the mantissa of 10 beside its zero exponent, 00 20 00 00 00 (MOVMF writes FACHO AND $7F; the
    sign is 0); a plain ``0`` is 00 00 00 00 00 (flp/flp_tiny, rules/flp_zero_*)."""
    f, negative, end = fin_fac(data, pos)
    if f[0] == 0:
        return bytes([0]) + ((f[2] >> 8) & 0x7FFFFFFF).to_bytes(4, "big"), end
    value = fpu.to_float(f)
    return pack(-value if negative else value), end


def fin_fac(data: bytes, pos: int = 0, *, skip_spaces: bool = True) -> tuple[fpu.Fac, bool, int]:
    """FIN ($BCF3): parse a number at ``data[pos]``; return (FAC, negative, end position).

    Like CHRGET, spaces are skipped everywhere when ``skip_spaces``.  Parsing
    stops at the first byte that cannot continue the number; an empty number
    is 0.  Each digit: MUL10, then ADDACC ($BD7E: FAC rounded into ARG plus
    the digit).  The exponent (at most two digits: a third is ?OVERFLOW ERROR,
    or 100 after "E-", $BDB8) minus the count of decimals is a signed byte;
    that many MUL10 or DIV10 follow.  The result keeps its rounding byte.
    """

    def at(i: int) -> int:
        while skip_spaces and i < len(data) and data[i] == 0x20:
            i += 1
        return i

    def sign(i: int) -> tuple[bool, int]:
        """An optional sign (the character or its token) at ``i``: (negative, position after it)."""
        if i < len(data) and data[i] in _MINUS:
            return True, at(i + 1)
        if i < len(data) and data[i] in _PLUS:
            return False, at(i + 1)
        return False, i

    negative, i = sign(at(pos))
    digits: list[int] = []
    decimals = 0  # INDX ($5D)
    seen_point = False
    exp10 = 0  # EXPON ($5E)
    eneg = False
    while i < len(data):
        c = data[i]
        if 0x30 <= c <= 0x39:
            if seen_point:
                decimals = (decimals + 1) & 0xFF
            digits.append(c - 0x30)
            i = at(i + 1)
        elif c == 0x2E and not seen_point:
            seen_point = True
            i = at(i + 1)
        elif c == 0x45:  # "E"
            eneg, i = sign(at(i + 1))
            while i < len(data) and 0x30 <= data[i] <= 0x39:
                if exp10 < 10:
                    exp10 = exp10 * 10 + data[i] - 0x30
                elif eneg:
                    exp10 = 100
                else:
                    raise BasicOverflow()
                i = at(i + 1)
            break
        else:
            break
    whole = 0
    for d in digits:
        whole = whole * 10 + d
    if whole < 1 << 32:  # every MUL10 and ADDACC step is exact: FAC = the whole number
        f = fpu.from_float(float(whole))
    else:
        f = accumulate(digits)
    scale = ((-exp10 if eneg else exp10) - decimals) & 0xFF
    if scale < 0x80:
        for _ in range(scale):
            f = fpu.mul10(f)
    else:
        for _ in range(0x100 - scale):
            f = fpu.div10(f)
            if f[0] == 0:
                f = _ZERO_AFTER_DIV10
    return f, negative, i


def to_int16(x: float) -> int:
    """AYINT ($B1BF) / QINT: floor, range -32768..32767, else ValueError."""
    n = math.floor(x)
    if not -32768 <= n <= 32767:
        raise ValueError("illegal quantity")
    return n
