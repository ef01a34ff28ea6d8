"""SQR, LOG, EXP, ^, SIN, COS, TAN and ATN as the C64 BASIC ROM computes them.

Each function takes and returns FAC values (``fpu.Fac``) and follows the ROM
routine step for step: which operand is rounded (stored with MOVMF $BBD4 or
moved with MOVAF $BC0C), which keeps its rounding byte, and in which order
the polynomial series run.  Errors: ``BasicOverflow`` (?OVERFLOW ERROR),
``ValueError`` (?ILLEGAL QUANTITY ERROR), ``ZeroDivisionError``.
"""

from __future__ import annotations

from . import fpu
from .fpu import Fac


def _c(hexbytes: str) -> Fac:
    return fpu.mflpt(bytes.fromhex(hexbytes))


# -- ROM constants (5-byte MFLPT) ------------------------------------------------
ONE = _c("8100000000")            # $B9BC FONE
HALF = _c("8000000000")           # $BF11 FHALF
SQR_HALF = _c("803504F334")       # $B9D6 SQR(.5)
SQR_TWO = _c("813504F334")        # $B9DB SQR(2)
NEG_HALF = _c("8080000000")       # $B9E0 -.5
LN2 = _c("80317217F8")            # $B9E5 LOG(2)
LOG2_E = _c("8138AA3B29")         # $BFBF 1/LOG(2)
PI_HALF = _c("81490FDAA2")        # $E2E0 PI/2
TWO_PI = _c("83490FDAA2")         # $E2E5 2*PI
QUARTER = _c("7F00000000")        # $E2EA .25

# series: coefficients highest power first, as the tables the POLY routines read
LOG_SERIES = tuple(map(_c, (      # $B9C1 (count byte 3, four coefficients)
    "7F5E56CB79", "80139B0B64", "8076389316", "8238AA3B20")))
EXP_SERIES = tuple(map(_c, (      # $BFC4 (count byte 7, eight coefficients)
    "7134583E56", "74167EB31B", "772FEEE385", "7A1D841C2A",
    "7C6359580A", "7E75FDE7C6", "8031721810", "8100000000")))
SIN_SERIES = tuple(map(_c, (      # $E2EF (count byte 5, six coefficients)
    "84E61A2D1B", "862807FBF8", "8799688901", "872335DFE1",
    "86A55DE728", "83490FDAA2")))
ATN_SERIES = tuple(map(_c, (      # $E33E (count byte 11, twelve coefficients)
    "76B383BDD3", "791EF4A6F5", "7B83FCB010", "7C0C1F67CA",
    "7CDE53CBC1", "7D1464704C", "7DB7EA517A", "7D6330887E",
    "7E9244993A", "7E4CCC91C7", "7FAAAAAA13", "8100000000")))


def poly(x: Fac, series: tuple[Fac, ...]) -> Fac:
    """POLY ($E059): Horner over x (stored rounded in TEMP2 $5C): c0*x+c1, *x+c2, ..."""
    t = fpu.round_fac(x)
    f = fpu.mul(t, series[0])
    for coefficient in series[1:-1]:
        f = fpu.add(f, coefficient)
        f = fpu.mul(f, t)
    return fpu.add(f, series[-1])


def poly_odd(x: Fac, series: tuple[Fac, ...]) -> Fac:
    """POLYX ($E043): x * P(x^2), x stored rounded in TEMP1 ($57)."""
    t = fpu.round_fac(x)
    return fpu.mul(poly(fpu.mul(t, t), series), t)


# -- LOG, EXP, ^, SQR ------------------------------------------------------------

def log(x: Fac) -> Fac:
    """LOG ($B9EA): log2 of the mantissa by series, plus the exponent, times LOG(2)."""
    exp, neg, m40 = x
    if exp == 0 or neg:
        raise ValueError("illegal quantity")
    power = exp - 0x80  # SBC #$7F with the carry clear after SIGN ($BC2B)
    f = (0x80, 0, m40)
    f = fpu.add(f, SQR_HALF)
    f = fpu.div(f, SQR_TWO)           # SQR(2) / FAC
    f = fpu.sub(f, ONE)               # 1 - FAC
    f = poly_odd(f, LOG_SERIES)
    f = fpu.add(f, NEG_HALF)
    f = fpu.add(fpu.small_int(power), fpu.round_fac(f))  # ADDACC ($BD7E)
    return fpu.mul(f, LN2)


def exp(x: Fac) -> Fac:
    """EXP ($BFED): x/LOG(2) split into integer and fraction; 2^fraction by series."""
    f = fpu.mul(x, LOG2_E)
    e, n, m40 = f
    if e == 0:  # INT(0) = 0, CHARAC 0: 2^0 * POLY(0)
        return _exp_tail(fpu.ZERO, 0x80)
    ov = (m40 & 0xFF) + 0x50  # $BFF6: ADC #$50 on the rounding byte
    m32 = m40 >> 8
    if ov > 0xFF:  # round up the mantissa
        m32 += 1
        if m32 >> 32:
            e += 1
            if e > 255:
                raise fpu.BasicOverflow()
            m32 = 0x80000000
    arg = (e, n, m32 << 8)             # MOVAF without rounding ($BC0F)
    if e >= 0x88:
        return _out_of_range(n)
    whole = fpu.int_fac(arg)
    charac = fpu.qint_low_byte(arg)
    scale = (charac + 0x81) & 0xFF
    if scale == 0:
        return _out_of_range(whole[1])
    # $E01C..: FAC <-> ARG swap, FAC gets ARG's mantissa and the adjusted byte
    frac = fpu.negate(fpu.sub((e, n, (m32 << 8) | (ov & 0xFF)), whole))
    return _exp_tail(frac, (scale - 1) & 0xFF)


def _out_of_range(neg: int) -> Fac:
    """OUTOFRNG ($BAD4): positive -> ?OVERFLOW ERROR, negative -> 0."""
    if not neg:
        raise fpu.BasicOverflow()
    return fpu.ZERO


def _exp_tail(frac: Fac, scale: int) -> Fac:
    """$E033..: 2^fraction by series, then MULDIV ($BAB9) adds ``scale`` ($80 + whole) to the exponent."""
    f = poly(frac, EXP_SERIES)
    e = fpu.add_exponents(scale, f[0])
    if e is None:
        return fpu.ZERO
    return e, 0, f[2]


def power(base: Fac, x: Fac) -> Fac:
    """FPWRT ($BF7B): ARG ^ FAC = EXP(LOG(ARG) * FAC); ARG < 0 needs a whole FAC."""
    if x[0] == 0:
        return exp(x)
    if base[0] == 0:
        return fpu.ZERO
    t = fpu.round_fac(x)  # TEMP3 ($4E)
    odd = 0
    b = base
    if base[1]:
        whole = fpu.int_fac(t)
        if fpu.compare(t, whole) != 0:
            raise ValueError("illegal quantity")  # LOG of a negative value
        odd = fpu.qint_low_byte(t) & 1
        b = (base[0], 0, base[2])
    f = exp(fpu.mul(log(b), t))
    return fpu.negate(f) if odd else f


def sqr(x: Fac) -> Fac:
    """SQR ($BF71): x ^ .5 through FPWRT."""
    return power(fpu.round_fac(x), HALF)


# -- SIN, COS, TAN, ATN ------------------------------------------------------------

def _sin(x: Fac, tan_sign: int) -> tuple[Fac, Fac, int]:
    """SIN ($E26B) -> (result, TEMP1 (the folded angle), TANSGN $12)."""
    arg = fpu.round_fac(x)
    f = fpu.div(TWO_PI, arg)          # x / (2*PI), sign of x
    u = fpu.round_fac(f)
    f = fpu.sub(fpu.int_fac(u), u)    # u - INT(u)
    f = fpu.sub(f, QUARTER)           # .25 - FAC
    negative = f[1]
    if negative:
        f = fpu.add(f, HALF)
        if f[1]:
            return _sin_tail(f, negative, tan_sign)
        tan_sign ^= 0xFF
    return _sin_tail(fpu.negate(f), negative, tan_sign)


def _sin_tail(f: Fac, negative: int, tan_sign: int) -> tuple[Fac, Fac, int]:
    f = fpu.add(f, QUARTER)           # $E2A0
    if negative:
        f = fpu.negate(f)
    folded = fpu.round_fac(f)
    return poly_odd(f, SIN_SERIES), folded, tan_sign


def sin(x: Fac) -> Fac:
    return _sin(x, 0)[0]


def cos(x: Fac) -> Fac:
    """COS ($E264): SIN(x + PI/2)."""
    return sin(fpu.add(x, PI_HALF))


def tan(x: Fac) -> Fac:
    """TAN ($E2B4): SIN, then the folded angle made positive goes through the fold again."""
    s, folded, tan_sign = _sin(x, 0)
    s = fpu.round_fac(s)              # TEMP3 ($4E)
    f = (folded[0], 0, folded[2])
    f = fpu.negate(f)                 # $E29D
    c, _, _ = _sin_tail(f, tan_sign & 0x80, 0)
    return fpu.div(c, s)


def atn(x: Fac) -> Fac:
    """ATN ($E30E): |x| > 1 uses PI/2 - ATN(1/x)."""
    negative = x[1]
    f = fpu.negate(x) if negative else x
    big = f[0] >= 0x81
    if big:
        f = fpu.div(f, ONE)
    f = poly_odd(f, ATN_SERIES)
    if big:
        f = fpu.sub(f, PI_HALF)
    return fpu.negate(f) if negative else f
