"""RND as the C64 BASIC ROM computes it ($E097), bit for bit.

The seed is the 5-byte MFLPT value at $8B-$8F, initialised at power-on from
$E3BA (80 4F C7 52 58, about .811635157).
* RND(x>0): seed * 11879546 (constant $E08D: 98 35 44 7A 00) + 3.927677739E-8
  ($E092: 68 28 B1 46 00), computed in FAC1 with FMULT ($BA28) and FADD
  ($B867); then the four mantissa bytes are reversed ($62<->$65, $63<->$64),
  the old exponent becomes the rounding byte, the exponent is set to $80, the
  result is normalised ($B8D7) and stored rounded as the new seed ($BBD4).
* RND(x<0): the same byte shuffle applied to x itself (re-seeding).
* RND(0): the mantissa comes from CIA 1 timer A and TOD registers ($DC04,
  $DC05, $DC08, $DC09), without the shuffle.

FMULT is emulated with its shift-and-add loop over the five multiplier bytes
(rounding byte first), so bits lost below the 40-bit product match the ROM.
"""

from __future__ import annotations

import math

INITIAL_SEED = bytes([0x80, 0x4F, 0xC7, 0x52, 0x58])  # $E3BA
RND_MULTIPLIER = bytes([0x98, 0x35, 0x44, 0x7A, 0x00])  # $E08D
RND_ADDEND = bytes([0x68, 0x28, 0xB1, 0x46, 0x00])  # $E092


def _unpack_fac(data: bytes) -> tuple[int, int]:
    """(exponent byte, 32-bit mantissa with the hidden bit set) of a positive MFLPT."""
    return data[0], int.from_bytes(data[1:5], "big") | 0x80000000


def _fmult(exp1: int, man1: int, exp2: int, man2: int) -> tuple[int, int]:
    """FAC(exp1, man1, rounding byte 0) * ARG(exp2, man2) -> (exp, 40-bit mantissa)."""
    acc = 0
    multiplier = [0, man1 & 0xFF, (man1 >> 8) & 0xFF, (man1 >> 16) & 0xFF, man1 >> 24]
    for index, byte in enumerate(multiplier):
        if byte == 0 and index < 4:
            acc >>= 8  # MULSHF: shift the product one byte right
            continue
        for bit in range(8):
            carry = 0
            if (byte >> bit) & 1:
                top = (acc >> 8) + man2
                carry = top >> 32
                acc = ((top & 0xFFFFFFFF) << 8) | (acc & 0xFF)
            acc = (carry << 39) | (acc >> 1)
    exp = exp1 + exp2 - 0x80
    return _normalise(exp, acc)


def _normalise(exp: int, acc40: int) -> tuple[int, int]:
    if acc40 == 0:
        return 0, 0
    while not acc40 & (1 << 39):
        acc40 = (acc40 << 1) & ((1 << 40) - 1)
        exp -= 1
    return exp, acc40


def _fadd_small(exp: int, acc40: int, exp2: int, man2: int) -> tuple[int, int]:
    """FAC (40 bits) + a smaller positive ARG, bits below the rounding byte dropped."""
    shift = exp - exp2
    if shift >= 40 or man2 == 0:
        return exp, acc40
    total = acc40 + ((man2 << 8) >> shift)
    if total >> 40:
        total >>= 1
        exp += 1
    return exp, total


def round40(exp: int, acc40: int) -> tuple[int, int]:
    """Round a normalised 40-bit mantissa on bit 7 of its low (rounding) byte: (exponent, 32-bit mantissa).

    As MOVMF ($BBD4) rounds: a carry out of the mantissa renormalises to $80000000 and bumps the exponent.
    """
    mant = acc40 >> 8
    if acc40 & 0x80:
        mant += 1
        if mant >> 32:
            mant = 0x80000000
            exp += 1
    return exp, mant


def _store(exp: int, acc40: int) -> bytes:
    """MOVMF ($BBD4): round with bit 7 of the rounding byte, pack as a positive MFLPT."""
    if exp <= 0 or acc40 == 0:
        return bytes(5)
    exp, mant = round40(exp, acc40)
    return bytes([exp]) + (mant & 0x7FFFFFFF).to_bytes(4, "big")


def _shuffle(exp: int, mant: int) -> bytes:
    """$E0D3..$E0F6: reverse the mantissa bytes, exponent -> rounding byte, exp $80."""
    reversed_mant = int.from_bytes(mant.to_bytes(4, "big")[::-1], "big")
    e, acc = _normalise(0x80, (reversed_mant << 8) | exp)
    return _store(e, acc)


def rnd_next(seed: bytes) -> bytes:
    """RND(x>0): the new seed (which is also the value returned)."""
    e1, m1 = _unpack_fac(seed)
    if e1 == 0:
        e, acc = 0, 0
    else:
        e2, m2 = _unpack_fac(RND_MULTIPLIER)
        e, acc = _fmult(e1, m1, e2, m2)
    ea, ma = _unpack_fac(RND_ADDEND)
    if e == 0:
        e, acc = ea, ma << 8
    else:
        e, acc = _fadd_small(e, acc, ea, ma)
    return _shuffle(e, acc >> 8)


def rnd_reseed(x: float) -> bytes:
    """RND(x<0): the seed made from x."""
    m, k = math.frexp(abs(x))
    mant = int(m * 4294967296.0)
    return _shuffle(k + 128, mant)


def rnd_from_timers(timer_lo: int, timer_hi: int, tod_tenths: int, tod_seconds: int) -> bytes:
    """RND(0): mantissa $62..$65 = $DC04, $DC08, $DC05, $DC09 (no byte shuffle)."""
    mant = (timer_lo << 24) | (tod_tenths << 16) | (timer_hi << 8) | tod_seconds
    e, acc = _normalise(0x80, (mant << 8) | 0)
    return _store(e, acc)
