#!/usr/bin/env python3
"""Differential check of BASIC V2 numbers against the real ROM (mist64/cbmbasic).

    python3 tools/basic_rom_oracle.py [--n 10000] [--only sin,cos] [--out tests/fixtures/basic_rom]

For every function it draws arguments (fixed seed: small, huge, negative,
near multiples of PI/2, near the overflow limits, the series i/7), writes
programs that set X (and Y) to the exact 5-byte value and PRINT the
function, runs them on the oracle binary (``$CBMBASIC``, see tools/oracles.py) and writes one fixture file per function:

    <argument key> TAB <what the ROM printed: number text or "?... ERROR">

An argument key is the 5-byte MFLPT value in hex ("81490fdaa2"), two of them
for X^Y and the operators, or the number text for FIN (a literal), VAL and
READ (a DATA item).  An error is written as the ROM's message and the line
of the case it came from ("?OVERFLOW  ERROR IN +2": the third line).  X is set by exact
arithmetic: the 32-bit mantissa as an integer literal, multiplied or divided
by powers of two (exact in FMULT/FDIV).  An error ends a program on the ROM,
so the driver records it for the case on that line and goes on with a new
program for the cases after it.  ``run_cases`` is shared with the tests,
which run the same programs through asm6502's interpreter.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oracles import cbmbasic_binary, require_cbmbasic  # noqa: E402

CHUNK = 400  # cases per program
MAX_TEXT = 20_000  # characters of program text per program

# name -> (statement printing the result, number of arguments)
FUNCTIONS = {
    "sin": ("PRINT SIN(X)", 1),
    "cos": ("PRINT COS(X)", 1),
    "tan": ("PRINT TAN(X)", 1),
    "atn": ("PRINT ATN(X)", 1),
    "log": ("PRINT LOG(X)", 1),
    "exp": ("PRINT EXP(X)", 1),
    "sqr": ("PRINT SQR(X)", 1),
    "int": ("PRINT INT(X)", 1),
    "pwr": ("PRINT X^Y", 2),
    "add": ("PRINT X+Y", 2),
    "sub": ("PRINT X-Y", 2),
    "mul": ("PRINT X*Y", 2),
    "div": ("PRINT X/Y", 2),
    "chain": ("PRINT X*Y+X/Y-SIN(X)*Y", 2),
    "cmp": ("PRINT X*Y=X*Y;X*Y<X*Y;X*Y>X*Y;X/Y=X/Y;SIN(X)>=SIN(X);X+Y<=X+Y", 2),
    # function arguments that keep FAC's rounding byte (X/Y, X*Y are not stored)
    "ext": ("PRINT COS(X/Y);EXP(X/Y)\nPRINT LOG(ABS(X/Y));SQR(ABS(X*Y))\n"
            "PRINT ATN(X/Y);TAN(X*Y)\nPRINT SIN(X*Y);INT(X/Y);-X/Y", 2),
    "fin": ("PRINT {}", 0),
    "val": ('PRINT VAL("{}")', 0),
    "read": ("DATA {}\nREAD A:PRINT A", 0),
    # issue 16's own check: every function of I/7 (FAC from FDIV, rounding byte kept)
    "i7": ("PRINT {}", 0),
}


# -- exact values ----------------------------------------------------------------

def value_expr(key: str) -> str:
    """A BASIC expression whose value is exactly the MFLPT value ``key`` (10 hex digits)."""
    data = bytes.fromhex(key)
    if data[0] == 0:
        return "0"
    mant = int.from_bytes(data[1:5], "big")
    sign = "-" if mant & 0x80000000 else ""
    mant |= 0x80000000
    k = data[0] - 128 - 32  # value = mant * 2^k
    # exponent bytes $FF and $01 are not reached by one FMULT/FDIV by a power
    # of two (MULDIV $BAB7 checks the exponent sum before normalising; an
    # FDIV result with exponent byte 0+1 loses its sign): one step by .5 instead
    suffix = "/.5" if data[0] == 0xFF else "*.5" if data[0] == 0x01 else ""
    k += -1 if data[0] == 0xFF else 1 if data[0] == 0x01 else 0
    text = f"{sign}{mant}"
    while k < -32:
        text += "/4294967296"
        k += 32
    if k < 0:
        text += f"/{1 << -k}"
    while k > 32:
        text += "*4294967296"
        k -= 32
    if k > 0:
        text += f"*{1 << k}"
    return text + suffix


def case_lines(name: str, key: str) -> list[str]:
    statement, nargs = FUNCTIONS[name]
    if nargs == 0:  # the key is number text
        return statement.format(key).split("\n")
    keys = key.split()
    lines = [f"X={value_expr(keys[0])}"]
    if nargs == 2:
        lines.append(f"Y={value_expr(keys[1])}")
    return lines + statement.split("\n")


def rows_per_case(name: str) -> int:
    """How many rows one case prints (its PRINT statements); they are joined with " | "."""
    return FUNCTIONS[name][0].count("PRINT")


def run_cases(runner, name: str, keys: list[str], chunk_size: int = CHUNK) -> list[str]:
    """Results for ``keys``: ``runner(source) -> (rows, error_line, error_text)``."""
    results: list[str] = []
    todo = list(keys)
    while todo:
        source, owner = [], {}
        number = 1
        size = 0
        chunk = []
        for index, key in enumerate(todo[:chunk_size]):
            if size > MAX_TEXT:  # the program must fit the C64's 38911 BASIC bytes
                break
            chunk.append(key)
            for offset, line in enumerate(case_lines(name, key)):
                source.append(f"{number} {line}")
                size += len(source[-1])
                owner[number] = index, offset
                number += 1
        rows, error_line, error_text = runner("\n".join(source) + "\n")
        k = rows_per_case(name)
        if error_line is None:
            if len(rows) != k * len(chunk):
                raise RuntimeError(f"{name}: {len(rows)} rows for {len(chunk)} cases")
            results.extend(" | ".join(rows[i:i + k]) for i in range(0, len(rows), k))
            todo = todo[len(chunk):]
            continue
        failed, offset = owner[error_line]
        if not failed * k <= len(rows) < (failed + 1) * k:
            raise RuntimeError(f"{name}: {len(rows)} rows before the error in case {failed}")
        results.extend(" | ".join(rows[i:i + k]) for i in range(0, failed * k, k))
        # the rows the failing case printed, then the error and which line of the case
        results.append(" | ".join(rows[failed * k:] + [f"{error_text} IN +{offset}"]))
        todo = todo[failed + 1:]
    return results


def oracle_runner(source: str):
    """Run ``source`` (upper-case BASIC text) in cbmbasic's script mode."""
    binary = str(cbmbasic_binary())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.bas"
        path.write_text(source, encoding="ascii")
        out = subprocess.run([binary, str(path)], capture_output=True, timeout=120, cwd=tmp).stdout
    text = out.decode("latin-1").replace("\x1b[C", " ")
    rows = [row.rstrip() for row in text.split("\r\n")]
    rows = [row for row in rows if row]
    if rows and "ERROR IN " in rows[-1]:
        message, _, line = rows[-1].rpartition(" IN ")
        return rows[:-1], int(line), message
    return rows, None, None


# -- argument generators ------------------------------------------------------------

def pack(x: float) -> str:
    """MFLPT hex of ``x`` (rounded half away from zero to 32 bits); x must be in range."""
    if x == 0:
        return "0000000000"
    m, k = math.frexp(abs(x))
    n = math.floor(m * 4294967296.0 + 0.5)
    if n == 4294967296:
        n, k = 2147483648, k + 1
    if not -127 <= k <= 127:
        raise ValueError(x)
    n &= 0x7FFFFFFF
    if x < 0:
        n |= 0x80000000
    return f"{k + 128:02x}{n:08x}"


def random_key(rng: random.Random, lo: int, hi: int, negative: float) -> str:
    """Exponent byte in lo..hi, random mantissa, negative with probability ``negative``."""
    mant = rng.getrandbits(31)
    if rng.random() < negative:
        mant |= 0x80000000
    return f"{rng.randint(lo, hi):02x}{mant:08x}"


def nudge(rng: random.Random, key: str) -> str:
    """``key`` moved by a few units in the last place."""
    data = bytearray(bytes.fromhex(key))
    low = int.from_bytes(data[1:5], "big")
    low = (low & 0x80000000) | ((low + rng.randint(-3, 3)) & 0x7FFFFFFF)
    data[1:5] = low.to_bytes(4, "big")
    return data.hex()


def series(n: int) -> list[str]:
    return [pack(i / 7) for i in range(1, n + 1)]


def gen_keys(name: str, n: int, rng: random.Random) -> list[str]:
    keys: list[str] = []
    if name == "fin":
        return [random_literal(rng) for _ in range(n)]
    if name == "i7":  # not random: the same 1,800 cases whatever n is
        calls = [f"{f}({i}/7)" for f in ("SIN", "COS", "TAN", "ATN", "LOG", "EXP", "SQR", "INT")
                 for i in range(1, 201)]
        return calls + [f"({i}/7)^({i}/13)" for i in range(1, 201)]
    if name in ("val", "read"):  # FIN with a sign of its own (SERLEN $14), spaces inside for VAL
        keys = []
        for _ in range(n):
            text = rng.choice(("", "", "-", "+")) + random_literal(rng)
            if name == "val" and rng.random() < 0.2:
                at = rng.randint(0, len(text))
                text = text[:at] + " " + text[at:]
            keys.append(text)
        return keys
    if FUNCTIONS[name][1] == 2:
        return [pair_key(name, rng) for _ in range(n)]
    keys += series(200)
    keys += [pack(-i / 7) for i in range(1, 51)]
    while len(keys) < n:
        kind = rng.random()
        if kind < 0.35:  # moderate: 2^-8 .. 2^8
            keys.append(random_key(rng, 0x78, 0x88, 0.4))
        elif kind < 0.45:  # small
            keys.append(random_key(rng, 0x01, 0x78, 0.4))
        elif kind < 0.55:  # huge
            keys.append(random_key(rng, 0x88, 0xFF, 0.4))
        elif kind < 0.75:  # near multiples of PI/2
            k = rng.randint(-2000, 2000)
            keys.append(nudge(rng, pack(k * math.pi / 2 + (0.0 if k else 1e-9))))
        elif kind < 0.85:  # near the EXP overflow limit and its negative
            x = rng.choice((88.0296919, -88.7228391)) + rng.uniform(-0.5, 0.5)
            keys.append(nudge(rng, pack(x)))
        elif kind < 0.95:  # i/7 and i/3 series further out, both signs
            keys.append(pack(rng.choice((1, -1)) * rng.randint(1, 5000) / rng.choice((3, 7, 9))))
        else:  # whole numbers and halves
            keys.append(pack(rng.randint(-1000, 1000) / 2))
    if name in ("log", "sqr"):  # mostly positive: a negative argument is one error each
        keys = [k if rng.random() < 0.05 or int(k[2], 16) < 8 else flip(k) for k in keys]
    return keys[:n]


def flip(key: str) -> str:
    data = bytearray(bytes.fromhex(key))
    data[1] &= 0x7F
    return data.hex()


def pair_key(name: str, rng: random.Random) -> str:
    if name == "pwr":
        kind = rng.random()
        if kind < 0.4:
            base = random_key(rng, 0x78, 0x88, 0.1)
            expo = random_key(rng, 0x78, 0x86, 0.3)
        elif kind < 0.6:  # negative bases with whole exponents (and some fractional)
            base = random_key(rng, 0x7C, 0x84, 1.0)
            expo = pack(rng.randint(-20, 20)) if rng.random() < 0.8 else random_key(rng, 0x7E, 0x84, 0.3)
        elif kind < 0.8:  # near overflow
            base = pack(rng.choice((2.0, 10.0, math.e, 1.5)))
            expo = nudge(rng, pack(rng.uniform(20, 140) * rng.choice((1, -1))))
        else:  # i/7 bases and exponents
            base = pack(rng.randint(1, 200) / 7)
            expo = pack(rng.randint(-200, 200) / 7)
        return f"{base} {expo}"
    if name == "ext":  # X/Y within +-64: EXP stays in range, LOG(ABS()) never sees 0
        return f"{random_key(rng, 0x78, 0x83, 0.5)} {random_key(rng, 0x7E, 0x83, 0.5)}"
    if name in ("chain", "cmp"):
        return f"{random_key(rng, 0x70, 0x90, 0.5)} {random_key(rng, 0x70, 0x90, 0.5)}"
    lo, hi = (0x40, 0xC0) if rng.random() < 0.5 else (0x78, 0x88)
    a = random_key(rng, lo, hi, 0.5)
    if rng.random() < 0.3:  # close magnitudes: cancellation, rounding carries
        b = nudge(rng, a[:2] + f"{(int(a[2:], 16) ^ (0x80000000 if rng.random() < 0.5 else 0)):08x}")
    else:
        b = random_key(rng, lo, hi, 0.5)
    if name == "mul" and rng.random() < 0.3:  # zero bytes in the multiplier (FAC = Y)
        b = b[:4] + "0000" + b[8:] if rng.random() < 0.5 else b[:6] + "0000"
    if name == "div" and b[:2] == "00":
        b = "81" + b[2:]
    return f"{a} {b}"


def random_literal(rng: random.Random) -> str:
    kind = rng.random()
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 14)))
    point = rng.randint(0, len(digits))
    text = digits[:point] + ("." if rng.random() < 0.7 else "") + digits[point:]
    if kind < 0.5:
        text += f"E{rng.choice(('', '-', '+'))}{rng.randint(0, 45)}"
    elif kind < 0.55:
        text += f"E{rng.choice(('', '-'))}{rng.randint(0, 120)}"
    if text.startswith("E") or text == ".":
        text = "1" + text
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--only", default="")
    parser.add_argument("--out", default="tests/fixtures/basic_rom")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    names = [name.strip().lower() for name in args.only.split(",")] if args.only else list(FUNCTIONS)  # SIN = sin
    unknown = [name for name in names if name not in FUNCTIONS]
    if unknown:
        parser.error(f"--only: unknown {', '.join(unknown)} (known: {', '.join(FUNCTIONS)})")
    require_cbmbasic("tools/basic_rom_oracle.py")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        rng = random.Random(f"{args.seed}-{name}")
        keys = gen_keys(name, args.n, rng)
        results = run_cases(oracle_runner, name, keys)
        lines = [f"{k}\t{r}\n" for k, r in zip(keys, results)]
        (out / f"{name}.txt").write_text("".join(lines), encoding="ascii")
        errors = sum(1 for r in results if "ERROR IN +" in r)
        print(f"{name}: {len(keys)} cases, {errors} errors -> {out / (name + '.txt')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
