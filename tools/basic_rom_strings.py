#!/usr/bin/env python3
"""BASIC V2's string functions at their edges, and small random programs, on the real ROM.

Writes two fixture files from runs of the cbmbasic oracle (the ROM's own 6502 code, see
the README.txt in ``$CBMBASIC_ORACLE``, tools/oracles.py); tests/test_basic_interp_strings.py runs the same
programs through asm6502's interpreter and compares the screens.  Maintainer use only, needs
the cbmbasic oracle (``$CBMBASIC``, ``$CBMBASIC_ORACLE``):

    .venv/bin/python tools/basic_rom_strings.py [--random N] [--seed S]

tests/fixtures/basic_rom/strings.json   the table programs (TABLES below): LEFT$ RIGHT$ MID$
                                        with every count/start 0..256 and past the string,
                                        CHR$ 0..256, ASC, VAL, STR$, LEN; [{"source", "rom"}]
tests/fixtures/basic_rom/random_strings.json   N generated programs (random_program(seed)),
                                        errors included; [{"seed", "source", "rom"}]
tests/fixtures/basic_rom/random_limits.json    N programs of statements at their limits
                                        (random_statements(seed)), errors included

Output lines stay under 40 characters (the oracle has no 40-column screen; the interpreter
wraps as the C64 does), so the strings printed are short and the long ones are shown by LEN
and ASC of their ends.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from asm6502.basic.tokenizer import tokenize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oracles import cbmbasic_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUNPRG = cbmbasic_dir() / "runprg.sh"
OUT = ROOT / "tests" / "fixtures" / "basic_rom"
RANDOM_COUNT = 300

# a 255-character string: its pieces are shown by length and the codes of the first/last byte
LONG = '10 a$="":for i=1 to 255:a$=a$+chr$(48+i-int(i/10)*10):next\n'
SHOW = 'print n;len(b$);asc(b$+chr$(0));asc(right$(chr$(0)+b$,1))'

TABLES = [
    # every count 0..256 (256 is ?ILLEGAL QUANTITY, the last line printed)
    '10 for n=0 to 256:print n;"["left$("hello",n)"]":next',
    '10 for n=0 to 256:print n;"["right$("hello",n)"]":next',
    '10 for n=0 to 256:print n;"["mid$("hello",n)"]":next',
    '10 for n=0 to 256:print n;"["left$("",n)"]":next',
    '10 for n=0 to 256:print n;"["right$("",n)"]":next',
    '10 for n=1 to 256:print n;"["mid$("",n)"]":next',
    '10 for n=0 to 256:print n;"["mid$("hello",2,n)"]":next',
    '10 for n=0 to 256:print n;"["mid$("hello",6,n)"]":next',
    '10 for n=0 to 256:print n;"["right$("1e3",n)"]":next',
    LONG + f'20 for n=0 to 256:b$=left$(a$,n):{SHOW}:next',
    LONG + f'20 for n=0 to 256:b$=right$(a$,n):{SHOW}:next',
    LONG + f'20 for n=1 to 256:b$=mid$(a$,n):{SHOW}:next',
    LONG + f'20 for n=0 to 256:b$=mid$(a$,200,n):{SHOW}:next',
    LONG + f'20 for n=0 to 256:b$=mid$(a$,n+1,n):{SHOW}:next',
    # fractional and negative arguments (INT towards minus infinity, then 0..255)
    '10 for n=-1 to 6 step .5:print n;"["left$("hello",n)"]":next',
    '10 for n=-1 to 6 step .5:print n;"["right$("hello",n)"]":next',
    '10 for n=-1 to 7 step .5:print n;"["mid$("hello",n,2)"]":next',
    '10 print mid$("hello",0)',
    '10 print mid$("hello",1,-1)',
    '10 print left$("hello",1e10)',
    # CHR$ / ASC over every code, CHR$(256) an error
    '10 for n=0 to 256:print n;asc(chr$(n)):next',
    '10 print asc("")',
    '10 print asc("abc");asc(chr$(0)+"x");len(chr$(0))',
    '10 print chr$(-1)',
    '10 print chr$(65.9);chr$(48.1)',
    # LEN, STR$, VAL
    '10 for n=0 to 255 step 15:print n;len(left$("abcdefghijklmnopqrstuvwxyz",n)):next',
    '10 for n=-2 to 2 step .25:print "["str$(n)"]";len(str$(n)):next',
    '10 print "["str$(1e9)"]["str$(1e10)"]["str$(-.001)"]["str$(1/3)"]"',
    '10 print str$(123456789);str$(-1e-10);str$(2^31)',
    '10 print val("");val("1e3");val(" 12 3");val("-");val(".");val("1.5e")',
    '10 print val("$10");val("12abc");val("+5");val("--5");val("1e-39");val("e5")',
    '10 print val("1e38");val(" - 4");val("0.0000001");val(".5.5")',
    '10 print val("1e39")',
    '10 print val(str$(1/3))-1/3;val("9999999999")',
    # string length limits: 255 is fine, 256 is ?STRING TOO LONG
    LONG + '20 print len(a$):b$=a$+"":print len(b$):b$=a$+"x"',
    '10 a$="ab":b$=a$+a$+a$:print len(b$);left$(b$+b$,3)',
]


def run(source: str) -> str:
    """What the ROM printed running ``source`` (CR -> LF, cursor-right -> blank)."""
    with tempfile.TemporaryDirectory() as tmp:
        prg = Path(tmp) / "p.prg"
        prg.write_bytes(tokenize(source + "\n").prg)
        proc = subprocess.run([str(RUNPRG), str(prg)], stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        return proc.stdout.decode("latin-1")


WORDS = ['""', '"a"', '"hello"', '"1e3"', '" 12"', '"-7.5"', '"abc:def"', '"x y"', '"3e"', '".5"', '"$1f"']
COUNTS = ["0", "1", "2", "4", "5", "6", "9", "255", "256", "-1", "1.9", ".5", "n", "n+1", "len(s$)", "len(s$)+1"]


def _string(rng: random.Random, depth: int = 0) -> str:
    """A string expression with at most a few nested functions (results short, printable)."""
    pick = rng.randrange(8 if depth < 2 else 3)
    if pick == 0:
        return rng.choice(WORDS)
    if pick == 1:
        return "s$"
    if pick == 2:
        return "t$"
    if pick == 3:
        return f"left$({_string(rng, depth + 1)},{rng.choice(COUNTS)})"
    if pick == 4:
        return f"right$({_string(rng, depth + 1)},{rng.choice(COUNTS)})"
    if pick == 5:
        if rng.random() < 0.5:
            return f"mid$({_string(rng, depth + 1)},{rng.choice(COUNTS)})"
        return f"mid$({_string(rng, depth + 1)},{rng.choice(COUNTS)},{rng.choice(COUNTS)})"
    if pick == 6:
        return f"str$({_number(rng, depth + 1)})"
    return f"chr$({rng.choice(['65', '48', '90', '32', '49+n', '256', '-1', 'asc(s$)'])})"


def _number(rng: random.Random, depth: int = 0) -> str:
    pick = rng.randrange(6 if depth < 2 else 2)
    if pick == 0:
        return rng.choice(["0", "1", "-2", "3.5", "1e3", "1e-3", "123456789", "n"])
    if pick == 1:
        return "n"
    if pick == 2:
        return f"len({_string(rng, depth + 1)})"
    if pick == 3:
        return f"asc({_string(rng, depth + 1)})"
    if pick == 4:
        return f"val({_string(rng, depth + 1)})"
    return f"{_number(rng, depth + 1)}+{_number(rng, depth + 1)}"


def random_program(seed: int) -> str:
    """A small program of string statements at their limits; errors included (they end it)."""
    rng = random.Random(seed)
    lines = [f"10 n={rng.choice(['0', '1', '3', '5', '254', '255'])}:s$={rng.choice(WORDS)}:t$={_string(rng)}"]
    number = 20
    for _ in range(rng.randint(2, 6)):
        kind = rng.randrange(5)
        if kind == 0:
            stmt = f'print "["{_string(rng)}"]"'
        elif kind == 1:
            stmt = f"print {_number(rng)}"
        elif kind == 2:
            stmt = f"s$={_string(rng)}:print len(s$)"
        elif kind == 3:
            stmt = f'if {_string(rng)}={_string(rng)} then print "eq"'
        else:
            stmt = f"for i=1 to {rng.choice(['3', '8', '9'])}:t$=t$+t$:next:print len(t$)"
        lines.append(f"{number} {stmt}")
        number += 10
    return "\n".join(lines)


LIMIT_STATEMENTS = (
    "on n goto 910,920,930",
    "on n gosub 950,950",
    "on n-1 goto 910",
    "for i=1 to n step {step}:k=k+1:next:print k;i",
    "for i=n to 1 step -1:next i:print i",
    "dim a{d}({size}):a{d}({index})=7:print a{d}({index})",
    "poke 828,{byte}:print peek(828)",
    "print int({num});abs({num});sgn({num})",
    "read x:print x",
    "return",
    "next",
    "print {num}/n",
    "a%={num}:print a%",
    "print len(str$({num}));val(str$({num}))={num}",
    "print chr$(n+48);asc(chr$(n))",
    "gosub 950:print k",
    "print n and {byte};n or {byte};not n",
    "if n then print \"t\":goto {line}",
    "print {num}^2;sqr(abs({num}))",
    "x$=\"\":for i=1 to n:x$=x$+\"ab\":next:print len(x$)",
)


def random_statements(seed: int) -> str:
    """A small program of statements at their limits (ON with 0 or past its list, FOR with odd
    steps, array bounds 10/11, POKE 256, INT/ABS/SGN of big and negative values, READ past the
    DATA, RETURN/NEXT without GOSUB/FOR, integer overflow): errors included, they end the run."""
    rng = random.Random(seed)
    n = rng.choice(["0", "1", "2", "3", "4", "255", "256", "-1", "1.5", "32767", "32768"])
    lines = [f"10 n={n}:k=0"]
    number = 20
    for _ in range(rng.randint(2, 5)):
        template = rng.choice(LIMIT_STATEMENTS)
        stmt = template.format(
            step=rng.choice(["1", "0.5", "2", "-1", "0.25", "3"]),
            d=rng.choice(["", "%", "$"]).replace("$", ""),
            size=rng.choice(["10", "0", "5"]),
            index=rng.choice(["0", "10", "11", "n", "-1"]),
            byte=rng.choice(["0", "255", "256", "-1", "n"]),
            num=rng.choice(["0", "-1", "1e9", "-32768", "32767.9", "-32769", "1.5e38", "n", "-2.5"]),
            line=rng.choice(["9999", "910"]),
        )
        lines.append(f"{number} {stmt}")
        number += 10
    lines += ["900 end", "910 print \"a\":end", "920 print \"b\":end", "930 print \"c\":end",
              "950 k=k+1:return", "990 data 1,x,,\"q\""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=RANDOM_COUNT)
    args = ap.parse_args()
    tables = [{"source": src.rstrip("\n"), "rom": run(src.rstrip("\n"))} for src in TABLES]
    (OUT / "strings.json").write_text(json.dumps(tables, indent=1) + "\n")
    rows = []
    for seed in range(args.random):
        src = random_program(seed)
        rows.append({"seed": seed, "source": src, "rom": run(src)})
    (OUT / "random_strings.json").write_text(json.dumps(rows, indent=1) + "\n")
    limits = []
    for seed in range(args.random):
        src = random_statements(seed)
        limits.append({"seed": seed, "source": src, "rom": run(src)})
    (OUT / "random_limits.json").write_text(json.dumps(limits, indent=1) + "\n")
    print(f"wrote strings.json ({len(tables)} programs), random_strings.json and random_limits.json "
          f"({len(rows)} programs each)")


if __name__ == "__main__":
    main()
