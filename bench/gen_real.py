"""Generate a large program shaped like a real Profi-Ass source, in four dialects.

``gen_large.py`` writes one instruction a line and nothing else.  Real sources
(the Superhirn II listing, the manual's examples, 64'er type-ins) look different,
and this generator copies their shape:

* the Profi-Ass start lines ``sys32768`` and ``.opt oo``;
* KERNAL and zero-page equates at the top;
* macros with parameters and macro-local labels (``.mac`` ... ``.men``, called
  as ``'name args``; a local label is defined as ``lbl`` and used as ``.lbl``);
* routines: ``jsr`` to other routines before and after them, short loops,
  several statements on one line joined by ``:``, comments after statements
  and on lines of their own, character constants (``cmp #"q"``);
* messages in ``.asc`` strings, ``.byt`` and ``.wor`` tables, tables computed
  by ``_`` variables with ``.if``/``.goto`` loops, and conditional assembly
  (``.if debug : jsr trace``).

The same program is written for asm6502 (Profi-Ass, line-numbered), 64tass,
ACME and Ophis; ``bench_assemblers.py`` checks that all four give the same
bytes.  Where a dialect lacks a construct it gets the nearest equivalent: the
``.goto`` loops become ``.for`` (64tass) and ``!for`` (ACME) and are unrolled
for Ophis, which has no loops; Ophis gets the conditional statements already
decided (it has ``.if`` only for defined symbols).  Letters in strings are
lower case in the Profi-Ass source (unshifted PETSCII, $41-$5A) and upper case
(ASCII, the same bytes) for the others.

Usage: ``python bench/gen_real.py [--routines N] [--seed S] [--out DIR]``
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

START = 0x0801 + 12  # after a BASIC start line, as a C64 program would be
LIMIT = 0xF000  # keep well below the end of memory
DIALECTS = ("asm6502", "64tass", "acme", "ophis")
SUFFIX = {"asm6502": ".asm", "64tass": ".s", "acme": ".a", "ophis": ".oph"}

# KERNAL jump table entries and VIC-II registers (C64 Programmer's Reference Guide)
KERNAL = {"chrout": 0xFFD2, "getin": 0xFFE4, "plot": 0xFFF0, "strout": 0xAB1E, "border": 0xD020, "backgr": 0xD021}
ZERO_PAGE = {"ptr": 0xFB, "ptr2": 0xFD, "tmp": 0x02, "cnt": 0x22, "col": 0x23, "row": 0x24}
ABSOLUTE_VARS = {"screen": 0x0400, "colram": 0xD800}


# --- the program, dialect-neutral ---------------------------------------------------


@dataclass
class Program:
    """Lines as (kind, payload) tuples, rendered per dialect by ``render``."""

    items: list = field(default_factory=list)

    def add(self, kind: str, *payload) -> None:
        self.items.append((kind, payload))


# macro name -> (parameters, body lines, size in bytes); a body line is
# (label or "", statement template).  {p} is a parameter, {l:name} a local label reference.
MACROS = {
    "puts": (("text",), [("", "lda #<{text}"), ("", "ldy #>{text}"), ("", "jsr strout")], 7),
    "incw": (("adr",), [("", "inc {adr}"), ("", "bne {l:skip}"), ("", "inc {adr}+1"), ("skip", None)], 6),
    "fill": (("adr", "val", "num"), [("", "lda #{val}"), ("", "ldx #{num}"), ("lp", "dex"), ("", "sta {adr},x"),
                                      ("", "bne {l:lp}")], 10),
    "movw": (("src", "dst"), [("", "lda {src}"), ("", "sta {dst}"), ("", "lda {src}+1"), ("", "sta {dst}+1")], 8),
}

# instruction templates: (text, size); {z} zero-page variable, {a} absolute variable,
# {r} a routine, {t} a table, {k} a KERNAL entry, {i} an immediate byte, {c} a character
TEMPLATES = [
    ("lda #{i}", 2), ("lda {z}", 2), ("lda {a}", 3), ("lda {t},x", 3), ("lda ({z}),y", 2),
    ("sta {z}", 2), ("sta {a}", 3), ("sta {a},x", 3), ("sta ({z}),y", 2), ("ldx #{i}", 2),
    ("ldy #{i}", 2), ("ldx {z}", 2), ("stx {z}", 2), ("sty {a}", 3), ("inx", 1), ("iny", 1),
    ("dex", 1), ("dey", 1), ("clc", 1), ("sec", 1), ("adc #{i}", 2), ("sbc #{i}", 2),
    ("adc {z}", 2), ("cmp #{c}", 2), ("cpx #{i}", 2), ("cpy #{i}", 2), ("and #{i}", 2),
    ("ora #{i}", 2), ("eor #{i}", 2), ("asl", 1), ("lsr", 1), ("rol {z}", 2), ("inc {z}", 2),
    ("dec {a}", 3), ("jsr {r}", 3), ("jsr {k}", 3), ("bit {a}", 3), ("tax", 1), ("tay", 1),
    ("txa", 1), ("tya", 1), ("pha", 1), ("pla", 1), ("lda {t}+{n},y", 3),
]
BRANCHES = ("bne", "beq", "bcc", "bcs", "bpl", "bmi")
WORDS = ("score", "level", "press", "space", "game", "over", "player", "ready", "lives", "bonus", "time", "high")


def generate(routines: int = 1500, seed: int = 64, start: int = START) -> Program:
    rnd = random.Random(seed)
    prog = Program()
    pc = start
    names = [f"rt{i}" for i in range(routines)]
    tables: list[str] = ["tab0"]

    prog.add("comment", "equates - kernal, zero page, screen")
    for table in (KERNAL, ZERO_PAGE, ABSOLUTE_VARS):
        for name, value in table.items():
            prog.add("equ", name, value)
    prog.add("equ", "debug", 0)
    prog.add("equ", "sound", 1)
    prog.add("comment", "macros")
    for name in MACROS:
        prog.add("macro", name)
    prog.add("org", start)
    prog.add("label", "tab0")
    prog.add("byt", tuple(rnd.randrange(256) for _ in range(8)))
    prog.add("byt", tuple(rnd.randrange(256) for _ in range(8)))
    pc += 16

    def operand_fields(r: str) -> dict:
        return {
            "z": rnd.choice(list(ZERO_PAGE)), "a": rnd.choice(list(ABSOLUTE_VARS) + tables[-4:]),
            "r": rnd.choice(names), "t": rnd.choice(tables[-6:]), "k": rnd.choice(list(KERNAL)[:4]),
            "i": f"${rnd.randrange(256):02x}", "c": f'"{rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789")}"',
            "n": str(rnd.randrange(1, 8)),
        }

    for ri, name in enumerate(names):
        if pc > LIMIT - 400:
            break
        prog.add("blank")
        prog.add("comment", f"routine {ri}, {rnd.choice(WORDS)} {rnd.choice(WORDS)}")
        prog.add("label", name)
        loop_label, loop_pc = f"{name}l", pc
        prog.add("label", loop_label)
        skip = 0
        for _ in range(rnd.randrange(8, 30)):
            r = rnd.random()
            if r < 0.08:
                macro = rnd.choice(list(MACROS))
                args = {
                    "puts": lambda: (f"{name}m",),
                    "incw": lambda: (rnd.choice(["ptr", "ptr2"]),),
                    "fill": lambda: (rnd.choice(["screen", "colram"]), f"${rnd.randrange(256):02x}", str(rnd.randrange(1, 40))),
                    "movw": lambda: (rnd.choice(["ptr", "ptr2"]), rnd.choice(["ptr", "ptr2"])),
                }[macro]()
                prog.add("call", macro, args)
                pc += MACROS[macro][2]
            elif r < 0.16:
                # several short statements on one line
                parts = [rnd.choice(["ldx #0", "ldy #0", "lda #0", "clc", "sec", "inx", "iny", "tax"]) for _ in range(rnd.randrange(2, 4))]
                prog.add("multi", tuple(parts))
                pc += sum(1 if len(p) == 3 else 2 for p in parts)
            elif r < 0.22 and pc - loop_pc < 100:
                prog.add("ins", f"{rnd.choice(BRANCHES)} {loop_label}", rnd.random() < 0.3 and "loop")
                pc += 2
            elif r < 0.28:
                skip += 1
                target = f"{name}s{skip}"
                prog.add("ins", f"{rnd.choice(BRANCHES)} {target}", "")
                prog.add("ins", "inc cnt", "")
                prog.add("label", target)
                pc += 4
            elif r < 0.31:
                prog.add("if", "debug", 0, "jsr chrout")
                prog.add("if", "sound", 1, "inc border")
                pc += 3
            elif r < 0.36:
                prog.add("comment", rnd.choice(WORDS) + " " + rnd.choice(WORDS))
            else:
                text, size = rnd.choice(TEMPLATES)
                comment = rnd.choice(WORDS) if rnd.random() < 0.25 else ""
                prog.add("ins", text.format(**operand_fields(name)), comment)
                pc += size
        prog.add("ins", "rts", "")
        pc += 1
        words = " ".join(rnd.choice(WORDS) for _ in range(rnd.randrange(1, 4)))
        prog.add("label", f"{name}m")
        prog.add("asc", words)
        prog.add("byt", (0,))
        pc += len(words) + 1
        if ri % 7 == 3:
            t = f"tab{len(tables)}"
            tables.append(t)
            prog.add("label", t)
            k = rnd.randrange(8)
            if rnd.random() < 0.5:
                values = tuple(rnd.randrange(256) for _ in range(k + 1))
                prog.add("byt", values)
                pc += len(values)
            else:
                count, mul, add = rnd.randrange(8, 24), rnd.randrange(1, 13), rnd.randrange(256)
                prog.add("loop", count, mul, add)
                pc += count
        if ri % 11 == 5:
            prog.add("label", f"{name}w")
            words = tuple(rnd.choice(names) for _ in range(rnd.randrange(2, 6)))
            prog.add("wor", words)
            pc += 2 * len(words)
    # routines that were never written are still called: point them at the last one
    written = {p[0] for kind, p in prog.items if kind == "label"}
    for n in names:
        if n not in written:
            prog.add("equ_expr", n, "tab0")
    return prog


# --- rendering --------------------------------------------------------------------


def _macro_lines(name: str, dialect: str) -> list[str]:
    params, body, _ = MACROS[name]
    out = []
    if dialect == "asm6502":
        out.append(f"{name} .mac {','.join(params)}")
    elif dialect == "64tass":
        out.append(f"{name} .macro {', '.join(params)}")
    elif dialect == "acme":
        out.append(f"!macro {name} {', '.join('.' + p for p in params)} {{")
    else:
        out.append(f".macro {name}")
    pending_label = ""
    for i, (label, stmt) in enumerate(body):
        if stmt is None:  # a label on the closing line
            pending_label = label
            continue
        subs = {}
        for j, p in enumerate(params):
            subs[p] = {"asm6502": p, "64tass": "\\" + p, "acme": "." + p, "ophis": f"_{j + 1}"}[dialect]
        text = stmt
        for local in {l for l, _ in body if l}:
            text = text.replace("{l:%s}" % local, {"asm6502": "." + local, "64tass": local, "acme": ".l" + local, "ophis": "_" + local}[dialect])
        text = text.format(**subs)
        lab = {"asm6502": label, "64tass": label, "acme": ".l" + label if label else "", "ophis": "_" + label + ":" if label else ""}[dialect]
        out.append(f"{lab} {text}" if lab else f" {text}")
    end = {"asm6502": ".men", "64tass": ".endm", "acme": "}", "ophis": ".macend"}[dialect]
    if pending_label:
        lab = {"asm6502": pending_label, "64tass": pending_label, "acme": ".l" + pending_label, "ophis": "_" + pending_label + ":"}[dialect]
        if dialect == "asm6502":
            out.append(f"{lab} {end}")
        else:
            out += [lab, end]
    else:
        out.append(end)
    return out


def _is_bare_label(text: str) -> bool:
    return re.fullmatch(r"[a-z][a-z0-9]*", text) is not None


def _char_constant(text: str, dialect: str) -> str:
    """``#"q"`` as each dialect writes the same byte ($51: unshifted PETSCII = ASCII upper case)."""
    match = re.search(r'#"(.)"', text)
    if not match or dialect == "asm6502":
        return text
    char = match.group(1).upper()
    spelled = f"${ord(char):02x}" if dialect == "ophis" else f'"{char}"'
    return text[: match.start(1) - 1] + spelled + text[match.end(1) + 1 :]


def render(prog: Program, dialect: str) -> str:
    """The program's text in one dialect (asm6502: numbered BASIC lines)."""
    profi = dialect == "asm6502"
    lines: list[str] = []
    for kind, p in prog.items:
        if kind == "comment":
            lines.append("; " + p[0])
        elif kind == "blank":
            lines.append(";" if profi else "")
        elif kind == "equ":
            value = f"${p[1]:02x}" if p[1] < 0x100 else f"${p[1]:04x}"
            lines.append(f".alias {p[0]} {value}" if dialect == "ophis" else f"{p[0]} = {value}")
        elif kind == "equ_expr":
            lines.append(f".alias {p[0]} {p[1]}" if dialect == "ophis" else f"{p[0]} = {p[1]}")
        elif kind == "macro":
            lines += _macro_lines(p[0], dialect)
        elif kind == "org":
            lines.append(f".org ${p[0]:04x}" if dialect == "ophis" else f"*= ${p[0]:04x}")
        elif kind == "label":
            lines.append(p[0] + (":" if dialect == "ophis" else ""))
        elif kind == "ins":
            text = _char_constant(p[0], dialect)
            comment = f" ; {p[1]}" if p[1] else ""
            lines.append(f" {text}{comment}")
        elif kind == "multi":
            if profi:
                lines.append(" " + ":".join(p[0]))
            else:
                lines += [" " + s for s in p[0]]
        elif kind == "call":
            name, args = p
            lines.append({"asm6502": f" '{name} {','.join(args)}", "64tass": f" #{name} {', '.join(args)}",
                          "acme": f" +{name} {', '.join(args)}", "ophis": f" `{name} {', '.join(args)}"}[dialect])
        elif kind == "if":
            flag, value, stmt = p
            if profi:
                lines.append(f" .if {flag} : {stmt}")
            elif dialect == "64tass":
                lines += [f" .if {flag}", f" {stmt}", " .fi"]
            elif dialect == "acme":
                lines.append(f" !if {flag} {{ {stmt} }}")
            elif value:
                lines.append(f" {stmt}")
        elif kind == "asc":
            lines.append({"asm6502": f' .asc "{p[0]}"', "64tass": f' .text "{p[0].upper()}"', "acme": f' !text "{p[0].upper()}"',
                          "ophis": f' .byte "{p[0].upper()}"'}[dialect])
        elif kind in ("byt", "wor"):
            op = {"asm6502": (".byt", ".wor"), "64tass": (".byte", ".word"), "acme": ("!byte", "!word"), "ophis": (".byte", ".word")}
            values = ",".join(str(v) for v in p[0])
            lines.append(f" {op[dialect][kind == 'wor']} {values}")
        elif kind == "loop":
            count, mul, add = p
            if profi:
                # {BACK} becomes the line number of the .byt line, two lines up
                lines += ["i _ 0", f" .byt i*{mul}+{add}&255", "i _ i+1", f" .if {count}-i : .goto {{BACK}}"]
            elif dialect == "64tass":
                lines += [f" .for i = 0, i < {count}, i += 1", f" .byte (i*{mul}+{add})&255", " .next"]
            elif dialect == "acme":
                lines.append(f" !for i, 0, {count - 1} {{ !byte (i*{mul}+{add})&255 }}")
            else:
                lines.append(" .byte " + ",".join(str((i * mul + add) & 255) for i in range(count)))
        else:  # pragma: no cover - generator and renderer out of step
            raise AssertionError(kind)
    if not profi:
        return "\n".join(lines) + "\n"
    # Profi-Ass wants a statement after a label on the same line (a label alone is
    # its SYNTAX 0): join a label with the statement below it, or write "label =*"
    joined: list[str] = []
    for text in lines:
        if joined and _is_bare_label(joined[-1]) and text.startswith(" ") and not text.lstrip().startswith((".if", "'")):
            joined[-1] += text
        else:
            joined.append(text)
    lines = ["sys32768", ".opt oo"] + [t + " =*" if _is_bare_label(t) else t for t in joined]
    numbered = []
    for i, text in enumerate(lines):
        number = 100 + i  # step 1: a long program still stays below line 63999
        if "{BACK}" in text:
            text = text.replace("{BACK}", str(number - 2))
        numbered.append(f"{number} {text.strip()}")
    return "\n".join(numbered) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--routines", type=int, default=1500, help="routines (default 1500, stops when memory is full)")
    parser.add_argument("--seed", type=int, default=64, help="random seed (default 64)")
    parser.add_argument("--start", type=lambda t: int(t, 0), default=START, help="origin (default $080D)")
    parser.add_argument("--out", default="build/bench", help="output directory (default build/bench)")
    args = parser.parse_args(argv)
    prog = generate(args.routines, args.seed, args.start)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for dialect in DIALECTS:
        path = out / f"real{SUFFIX[dialect]}"
        path.write_text(render(prog, dialect))
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
