"""A realistic Profi-Ass program for the benchmark, and the same program for Ophis.

Real sources are not plain instruction lists: they start with the BASIC start line and
``.opt``, put several statements on a line with ``:``, carry comments, strings, macros
with parameters and local labels, and build tables with ``_`` variables and
``.if``/``.goto`` loops.  This generator writes such a program (about half of its lines;
the other half is bench/gen_large.py's mix of every addressing mode), and the same
program for Ophis: its macros as Ophis macros (``.macro``/``_1``), the loops unrolled
(Ophis has no ``.goto``), strings as byte values (Profi-Ass writes PETSCII).

    .venv/bin/python bench/gen_realistic.py --out build/bench   # real.asm real.oph
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import gen_large

START = 0x0400
MACROS_OURS = """\
fill .mac n,adr
ldx #n
lp dex
bne .lp
stx adr
.men
mov .mac v,adr
lda #v : sta adr
.men
add16 .mac adr,v
clc : lda adr : adc #<v : sta adr
lda adr+1 : adc #>v : sta adr+1 ; carry into the high byte
.men"""
MACROS_OPHIS = """\
.macro fill
    ldx #_1
_lp: dex
    bne _lp
    stx _2
.macend
.macro mov
    lda #_1
    sta _2
.macend
.macro add16
    clc
    lda _1
    adc #<_2
    sta _1
    lda _1+1
    adc #>_2
    sta _1+1
.macend"""
MACRO_SIZE = {"fill": 7, "mov": 5, "add16": 19}
SIMPLE = [("lda #${:02x}", 2), ("sta ${:04x}", 3), ("inx", 1), ("dey", 1), ("jsr ${:04x}", 3), ("ora #${:02x}", 2),
          ("and #${:02x}", 2), ("lda ${:04x},x", 3), ("sta ${:02x}", 2), ("cmp #${:02x}", 2), ("tax", 1), ("iny", 1)]
WORDS = ["score", "level", "game over", "press fire", "high score", "player", "lives", "ready", "bonus", "time"]


def petscii(text: str) -> list[int]:
    return [ord(c) - 0x20 if "a" <= c <= "z" else ord(c) for c in text]


def realistic(rnd: random.Random, lines: int, budget: int) -> tuple[list[str], list[str], int]:
    """(Profi-Ass lines without numbers, Ophis lines, bytes) of the realistic part: ``lines``
    lines or ``budget`` bytes, whichever comes first."""
    ours = ["sys32768", ".opt p,oo ; listing, object to memory", f"*= ${START:04x}"] + MACROS_OURS.splitlines()
    ophis = [f".org ${START:04x}"] + MACROS_OPHIS.splitlines()
    size = 0
    n = 0
    while len(ours) < lines and size < budget:
        r = rnd.random()
        if r < 0.12:  # a comment line
            ours.append("; " + " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(1, 5))))
            ophis.append(";" + ours[-1][1:])
            continue
        if r < 0.20:  # a constant
            n += 1
            value = rnd.randrange(0x100, 0x10000)
            ours.append(f"c{n} = ${value:04x} ; {rnd.choice(WORDS)}")
            ophis.append(f".alias c{n} ${value:04x}")
            continue
        r = (r - 0.20) / 0.80
        if r < 0.40:  # several statements on a line, sometimes a comment after them
            parts = []
            for _ in range(rnd.randrange(1, 4)):
                fmt, length = rnd.choice(SIMPLE)
                value = rnd.randrange(0x100) if length == 2 and "#" in fmt or fmt.startswith("sta $") and length == 2 else rnd.randrange(0x100, 0x10000)
                text = fmt.format(value) if "{" in fmt else fmt
                parts.append(text)
                size += length
            ours.append(" : ".join(parts) + (" ; " + rnd.choice(WORDS) if rnd.random() < 0.3 else ""))
            ophis += parts
        elif r < 0.60:  # a macro call
            name = rnd.choice(sorted(MACRO_SIZE))
            if name == "fill":
                args = (rnd.randrange(1, 256), rnd.randrange(0x100, 0xFF00))
            elif name == "mov":
                args = (rnd.randrange(0, 256), rnd.randrange(0x100, 0xFF00))
            else:
                args = (rnd.randrange(0x100, 0xFF00), rnd.randrange(0, 0x10000))
            ours.append(f"'{name} " + ",".join(f"${a:x}" for a in args))
            ophis.append(f"`{name} " + ", ".join(f"${a:x}" for a in args))
            size += MACRO_SIZE[name]
        elif r < 0.75:  # a string
            text = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(1, 4)))[:40]
            n += 1
            if rnd.random() < 0.5:
                ours.append(f'txt{n} .asc "{text}"')
                ophis += [f"txt{n}:", ".byte " + ",".join(f"${b:02x}" for b in petscii(text))]
                size += len(text)
            else:
                ours.append(f'txt{n} .asc "{text}" : .byt 0')
                ophis += [f"txt{n}:", ".byte " + ",".join(f"${b:02x}" for b in petscii(text) + [0])]
                size += len(text) + 1
        elif r < 0.85:  # a short delay loop with a label and a backward branch
            n += 1
            count = rnd.randrange(2, 200)
            ours.append(f"wait{n} ldy #{count} : dey : bne wait{n}")
            ophis += [f"wait{n}: ldy #{count}", "dey", f"bne wait{n}"]
            size += 5
        else:  # a table built by an assembly-time loop
            count = rnd.randrange(3, 12)
            step = rnd.randrange(1, 40)
            ours.append(f"ix _ 0 ; table of {count}")
            ours.append(f".byt ix*{step}&255,ix ; the .goto target")
            ours.append("ix _ ix+1")  # (a definition stands at the start of a line)
            ours.append(f".if {count}-ix : .goto @{len(ours) - 2}")
            ophis += [f".byte {(i * step) & 255},{i}" for i in range(count)]
            size += 2 * count
    return ours, ophis, size


def generate(lines: int = 20_000, seed: int = 6502) -> tuple[str, str]:
    """The Profi-Ass source (numbered lines) and the Ophis source of one program."""
    rnd = random.Random(seed)
    rest = lines * 3 // 10  # lines of gen_large's mix (about 1.3 bytes a line)
    ours, ophis, size = realistic(rnd, lines - rest, 0xF000 - START - rest * 3)
    items = gen_large.generate(lines - len(ours), seed)
    # gen_large's part follows at the address where the realistic part ends
    body_ours = gen_large.render_program(items, "asm6502").splitlines()[1:]
    body_ophis = gen_large.render_program(items, "ophis").splitlines()[1:]
    numbered = []
    for i, text in enumerate(ours):
        number = 100 + i
        if "@" in text:  # '.goto @k': the line number of line k
            head, k = text.rsplit("@", 1)
            text = head + str(100 + int(k))
        numbered.append(f"{number} {text}")
    first = 100 + len(ours)
    numbered += [f"{first + i} {line.split(' ', 1)[1]}" for i, line in enumerate(body_ours)]
    return "\n".join(numbered) + "\n", "\n".join(ophis + body_ophis) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="build/bench")
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=6502)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ours, ophis = generate(args.lines, args.seed)
    (out / "real.asm").write_text(ours)
    (out / "real.oph").write_text(ophis)


if __name__ == "__main__":
    main()
