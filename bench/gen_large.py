"""Generate one large 6502 program in four assembler dialects.

The same program (default 50,000 lines) is written for

* ``asm6502``  -- Profi-Ass 64 dialect, with BASIC line numbers (``big.asm``)
* ``64tass``   -- (``big.s``)
* ``ACME``     -- (``big.a``)
* ``Ophis``    -- (``big.oph``)

It holds equates (zero-page ones defined before use, absolute ones with
forward references), labels, every addressing mode of every documented
mnemonic, branches forward and backward, and ``.byt`` / ``.wor`` data.
All four assemblers must produce the same bytes (``bench_assemblers.py``
checks that).  To make that possible the program stays inside what the
four dialects share:

* a symbol used before its definition always has a value >= $100, because
  asm6502 (like Profi-Ass and ACME) sizes a forward reference absolute while
  64tass and Ophis would pick zero page for a small value;
* ``<`` / ``>`` are applied to a bare symbol only (Ophis binds them tighter
  than ``+``; Profi-Ass applies them to the whole operand);
* an equate that mixes ``+`` and ``*`` is written without brackets for
  asm6502 (strictly left to right, the Profi-Ass rule) and with explicit
  brackets for the others (operator precedence).

Usage: ``python bench/gen_large.py [--lines N] [--seed S] [--out DIR]``
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass
from pathlib import Path

from asm6502.opcodes import BRANCHES, OPCODES, Mode

START = 0x0400  # above the C64's zero page, stack and system area
LIMIT = 0xFF00  # stop emitting bytes well before the end of memory
DIALECTS = ("asm6502", "64tass", "acme", "ophis")
SUFFIX = {"asm6502": ".asm", "64tass": ".s", "acme": ".a", "ophis": ".oph"}

# --- a tiny expression tree, rendered per dialect ----------------------------


@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Sym:
    name: str


@dataclass(frozen=True)
class Lo:
    sym: Sym


@dataclass(frozen=True)
class Hi:
    sym: Sym


@dataclass(frozen=True)
class Chain:
    """``first op t op t ...`` -- left to right; rendered with brackets where precedence differs."""

    first: object
    rest: tuple[tuple[str, object], ...]


def render(e, dialect: str) -> str:
    if isinstance(e, Num):
        return f"${e.value:02x}" if e.value < 0x100 else f"${e.value:04x}"
    if isinstance(e, Sym):
        return e.name
    if isinstance(e, Lo):
        return "<" + e.sym.name
    if isinstance(e, Hi):
        return ">" + e.sym.name
    assert isinstance(e, Chain)
    text = render(e.first, dialect)
    open_, close = ("[", "]") if dialect == "ophis" else ("(", ")")
    for i, (op, term) in enumerate(e.rest):
        if dialect != "asm6502" and op in "*/" and i > 0:
            text = f"{open_}{text}{close}"  # left to right made explicit for precedence-based dialects
        text += op + render(term, dialect)
    return text


def value_of(e, symbols: dict[str, int]) -> int:
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Sym):
        return symbols[e.name]
    if isinstance(e, Lo):
        return symbols[e.sym.name] & 0xFF
    if isinstance(e, Hi):
        return symbols[e.sym.name] >> 8
    v = value_of(e.first, symbols)
    for op, term in e.rest:
        t = value_of(term, symbols)
        v = {"+": v + t, "-": v - t, "*": v * t}[op]
    return v


# --- the program, as dialect-neutral items -------------------------------------


@dataclass(frozen=True)
class Equate:
    name: str
    expr: object


@dataclass(frozen=True)
class Label:
    name: str


@dataclass(frozen=True)
class Comment:
    text: str


@dataclass(frozen=True)
class Instr:
    mnemonic: str
    mode: Mode
    expr: object = None


@dataclass(frozen=True)
class Data:
    word: bool
    items: tuple


def render_item(item, dialect: str) -> str:
    if isinstance(item, Equate):
        if dialect == "ophis":
            return f".alias {item.name} {render(item.expr, dialect)}"
        return f"{item.name} = {render(item.expr, dialect)}"
    if isinstance(item, Label):
        return item.name + (":" if dialect == "ophis" else "")
    if isinstance(item, Comment):
        return "; " + item.text
    if isinstance(item, Data):
        op = {"asm6502": (".byt", ".wor"), "64tass": (".byte", ".word"), "acme": ("!byte", "!word"), "ophis": (".byte", ".word")}
        return f" {op[dialect][item.word]} " + ",".join(render(x, dialect) for x in item.items)
    assert isinstance(item, Instr)
    m = item.mnemonic.lower()
    if item.mode in (Mode.IMPLIED,):
        return f" {m}"
    if item.mode is Mode.ACCUMULATOR:
        return f" {m} a" if dialect in ("asm6502", "64tass") else f" {m}"
    x = render(item.expr, dialect)
    return " " + m + " " + {
        Mode.IMMEDIATE: "#{}",
        Mode.ZERO_PAGE: "{}",
        Mode.ABSOLUTE: "{}",
        Mode.RELATIVE: "{}",
        Mode.ZERO_PAGE_X: "{},x",
        Mode.ABSOLUTE_X: "{},x",
        Mode.ZERO_PAGE_Y: "{},y",
        Mode.ABSOLUTE_Y: "{},y",
        Mode.INDIRECT: "({})",
        Mode.INDEXED_INDIRECT: "({},x)",
        Mode.INDIRECT_INDEXED: "({}),y",
    }[item.mode].format(x)


def attach_labels(lines: list[str]) -> list[str]:
    """Profi-Ass wants a statement after a label on its line (a lone label is its SYNTAX 0):
    a label goes in front of the instruction or data line that follows it, or gets '*= *'."""
    out: list[str] = []
    for text in lines:
        if out and _LONE_LABEL.fullmatch(out[-1]) and text.startswith(" "):
            out[-1] += text
        else:
            out.append(text)
    return [t + " *= *" if _LONE_LABEL.fullmatch(t) else t for t in out]


_LONE_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9.]*")


def render_program(items: list, dialect: str, first_line: int = 10) -> str:
    out = []
    if dialect == "ophis":
        out.append(f".org ${START:04x}")
    else:
        out.append(f"*= ${START:04x}")
    out += [render_item(it, dialect) for it in items]
    if dialect == "asm6502":
        out = attach_labels(out)
        # Profi-Ass sources are BASIC programs: every line has a line number
        out = [f"{first_line + i} {text.strip()}" for i, text in enumerate(out)]
    return "\n".join(out) + "\n"


# --- generation -----------------------------------------------------------------

NON_BRANCH = sorted(m for m in OPCODES if m not in BRANCHES)


def generate(lines: int = 50_000, seed: int = 6502) -> list:
    """Dialect-neutral items; ``lines`` counts the rendered lines including the ``*=`` line."""
    rnd = random.Random(seed)
    items: list = []
    symbols: dict[str, int] = {}
    zp_names: list[str] = []
    abs_names: list[str] = []  # defined, value >= $100 (usable anywhere)
    pending: list[tuple[str, object]] = []  # forward equates: used already, defined later
    labels: list[str] = []  # defined labels (>= START)
    pc = START
    n = 0

    def sym_fresh(prefix: str) -> str:
        nonlocal n
        n += 1
        return f"{prefix}{n}"

    # a few zero-page and absolute equates up front, so every mode has operands from the start
    for _ in range(16):
        name = sym_fresh("z")
        value = rnd.randrange(0x02, 0x100)
        items.append(Equate(name, Num(value)))
        symbols[name] = value
        zp_names.append(name)
    for _ in range(16):
        name = sym_fresh("a")
        value = rnd.randrange(0x0100, 0x10000)
        if value & 0xFF == 0xFF:
            value -= 1
        items.append(Equate(name, Num(value)))
        symbols[name] = value
        abs_names.append(name)

    def operand(mode: Mode):
        """An expression suitable for ``mode`` (value and sizing known)."""
        if mode is Mode.IMMEDIATE:
            k = rnd.randrange(4)
            if k == 0 and labels:
                return Lo(Sym(rnd.choice(labels)))
            if k == 1 and labels:
                return Hi(Sym(rnd.choice(labels)))
            if k == 2:
                return Sym(rnd.choice(zp_names))
            return Num(rnd.randrange(0x100))
        if mode in (Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y, Mode.INDEXED_INDIRECT, Mode.INDIRECT_INDEXED):
            name = rnd.choice(zp_names)
            if rnd.random() < 0.3 and symbols[name] < 0xF0:
                return Chain(Sym(name), (("+", Num(rnd.randrange(1, 0x0F))),))
            return Sym(name)
        # absolute-width
        k = rnd.randrange(4)
        if k == 0 and labels:
            return Sym(rnd.choice(labels))
        if k == 1 and labels:
            return Chain(Sym(rnd.choice(labels)), ((rnd.choice("+-"), Num(rnd.randrange(1, 64))),))
        if k == 2:
            # a forward reference: an equate defined later, value >= $100
            name = sym_fresh("f")
            target = rnd.choice([a for a in abs_names[-32:] if symbols[a] < 0xFFF0] or ["a17"])
            if rnd.random() < 0.5:
                expr = Chain(Sym(target), (("+", Num(rnd.randrange(1, 8))),))
            else:  # mixes + and *: left to right in Profi-Ass, bracketed for the others
                expr = Chain(Num(rnd.randrange(0x10, 0x40)), (("+", Num(rnd.randrange(1, 8))), ("*", Num(0x100))))
            pending.append((name, expr))
            return Sym(name)
        return Sym(rnd.choice(abs_names))

    target_bytes = LIMIT - START
    while True:
        rendered = 1 + len(items)
        remaining = lines - rendered
        if remaining <= 0:
            break
        budget_left = LIMIT - pc
        # keep the byte density so that the program fits in memory
        dense = budget_left > 48 and budget_left / target_bytes >= remaining / lines * 0.8
        r = rnd.random()
        if pending and (r < 0.12 or remaining <= len(pending)):
            name, expr = pending.pop(0)
            items.append(Equate(name, expr))
            symbols[name] = value_of(expr, symbols)
            continue
        if r < 0.20 or not dense:
            kind = rnd.randrange(3)
            if kind == 0:
                name = sym_fresh("z")
                value = rnd.randrange(0x02, 0x100)
                items.append(Equate(name, Num(value)))
                symbols[name] = value
                zp_names.append(name)
            elif kind == 1:
                name = sym_fresh("a")
                base = rnd.choice(abs_names)
                expr = Chain(Sym(base), (("-", Num(rnd.randrange(1, 16))),)) if symbols[base] > 0x110 else Sym(base)
                items.append(Equate(name, expr))
                symbols[name] = value_of(expr, symbols)
                abs_names.append(name)
            else:
                items.append(Comment(f"block {len(items)}"))
            continue
        if r < 0.30:
            name = sym_fresh("l")
            items.append(Label(name))
            symbols[name] = pc
            labels.append(name)
            continue
        if r < 0.36:
            word = rnd.random() < 0.3
            count = rnd.randrange(1, 9)
            data = tuple(operand(Mode.ABSOLUTE) if word else operand(Mode.IMMEDIATE) for _ in range(count))
            items.append(Data(word, data))
            pc += count * (2 if word else 1)
            continue
        if r < 0.42 and labels:
            # a branch: backward to a recent label, or forward over a short skip
            mnemonic = rnd.choice(sorted(BRANCHES))
            back = [l for l in labels[-8:] if pc + 2 - symbols[l] <= 128]
            if back and rnd.random() < 0.5:
                items.append(Instr(mnemonic, Mode.RELATIVE, Sym(rnd.choice(back))))
                pc += 2
            else:
                name = sym_fresh("l")
                items.append(Instr(mnemonic, Mode.RELATIVE, Sym(name)))
                items.append(Instr("NOP", Mode.IMPLIED))
                items.append(Label(name))
                pc += 3
                symbols[name] = pc
                labels.append(name)
            continue
        mnemonic = rnd.choice(NON_BRANCH)
        mode = rnd.choice(list(OPCODES[mnemonic]))
        expr = None if mode in (Mode.IMPLIED, Mode.ACCUMULATOR) else operand(mode)
        if mode is Mode.INDIRECT:  # avoid the JMP ($xxFF) page-bug warning
            expr = Sym(rnd.choice([a for a in abs_names[-32:] if symbols[a] & 0xFF != 0xFF] or ["a17"]))
        items.append(Instr(mnemonic, mode, expr))
        pc += 1 + mode.operand_size
    return items


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=50_000, help="lines per program (default 50000)")
    parser.add_argument("--seed", type=int, default=6502, help="random seed (default 6502)")
    parser.add_argument("--out", default="build/bench", help="output directory (default build/bench)")
    args = parser.parse_args(argv)
    items = generate(args.lines, args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for dialect in DIALECTS:
        path = out / f"big{SUFFIX[dialect]}"
        path.write_text(render_program(items, dialect))
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
