"""Random Profi-Ass programs for the differential test against the original assembler.

``generate(seed)`` is a pure function of the seed (its own ``random.Random``): a numbered
Profi-Ass source (``100 sys32768`` / ``110 .opt oo`` / ...) with zero-page and absolute
equates, expressions over every operator (evaluated left to right by the original, with
brackets and unary minus), code labels referenced backwards and forwards, branches (rarely
out of range), ``.byt``/``.wor``/``.asc`` data, strings, macros with parameters and local
labels, ``_`` counters driving ``.if``/``.goto`` loops, ``:`` multi-statement lines and
comments.  Most programs are valid; about one in eight carries one deliberate error.

The original's output for seeds 0..N-1 is committed in
``tests/fixtures/profiass/random/programs.jsonl`` (``tools/profiass_oracle.py random``);
changing this generator means regenerating that file.

The generator keeps to what the original assembles the same way in both passes: zero-page
symbols are defined before any use (a forward reference to one is the original's silent
phase error, a listed deviation), forward code labels appear only where the operand size
does not depend on their value, and lines stay below the 80 keys the C64 editor accepts.
"""

from __future__ import annotations

import random

MASK = 0xFFFF
IMMEDIATE = ("lda", "ldx", "ldy", "adc", "sbc", "and", "ora", "eor", "cmp", "cpx", "cpy")
MEMORY = ("lda", "ldx", "ldy", "sta", "stx", "sty", "adc", "sbc", "and", "ora", "eor", "cmp", "cpx", "cpy", "bit", "inc", "dec", "asl", "lsr", "rol", "ror")
INDEX_X = ("lda", "ldy", "sta", "adc", "sbc", "and", "ora", "eor", "cmp", "inc", "dec", "asl", "lsr", "rol", "ror")
ABS_Y = ("lda", "sta", "adc", "sbc", "and", "ora", "eor", "cmp", "ldx")
INDIRECT = ("lda", "sta", "adc", "sbc", "and", "ora", "eor", "cmp")
IMPLIED = ("nop", "clc", "sec", "tax", "tay", "txa", "tya", "inx", "iny", "dex", "dey", "pha", "pla", "cld", "cli", "sei", "clv")
ACCUMULATOR = ("asl", "lsr", "rol", "ror")
BRANCHES = ("bne", "beq", "bcc", "bcs", "bpl", "bmi", "bvc", "bvs")
OPERATORS = "+-*/!&^<>"
NAME_LETTERS = "bcfhjkqwxyz"  # no vowels: keeps BASIC keywords and mnemonics out of the names
ORIGINS = ("$c000", "$c000", "$c000", "$c100", "$c3a0", "$1000", "$2f00", None)


def evaluate(op: str, left: int, right: int) -> int | None:
    """One operator as the original computes it (16 bits, wrap-around); None = error."""
    if op == "+":
        return (left + right) & MASK
    if op == "-":
        return (left - right) & MASK
    if op == "*":
        return (left * right) & MASK
    if op == "/":
        return None if right == 0 else left // right
    if op == "!":
        return left | right
    if op == "&":
        return left & right
    if op == "^":
        return left ^ right
    if op == "<":
        return (left << right) & MASK if right < 16 else 0
    return left >> right if right < 16 else 0


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.lines: list[str] = []
        self.number = 120
        self.symbols: dict[str, int] = {}  # known values (equates; labels are not tracked)
        self.zp: list[str] = []
        self.absolute: list[str] = []
        self.labels: list[str] = []  # defined code labels (backward references)
        self.pending: list[str] = []  # labels referenced before their definition
        self.soon: list[str] = []  # forward branch targets: defined within the next lines
        self.names: set[str] = set()
        self.macros: list[tuple[str, int]] = []
        self.called: set[str] = set()
        self.error_left = 1 if self.r.random() < 0.13 else 0

    # ---- names and lines
    def name(self, prefix: str = "") -> str:
        while True:
            n = prefix + "".join(self.r.choice(NAME_LETTERS) for _ in range(self.r.randint(4 - len(prefix), 6 - len(prefix))))
            n += str(self.r.randint(0, 9)) if self.r.random() < 0.5 else ""
            if n not in self.names:
                self.names.add(n)
                return n

    def emit(self, text: str) -> int:
        number = self.number
        line = f"{number} {text}"
        if len(line) >= 79:
            line = line[:78].rstrip()
        self.lines.append(line)
        self.number += self.r.choice((1, 2, 5, 10, 10, 10))
        return number

    def comment(self) -> str:
        if self.r.random() < 0.15:
            return " ; " + self.r.choice(("zaehler", "wert", "hole byte", "ende"))
        return ""

    # ---- expressions
    def literal(self, value: int) -> str:
        style = self.r.random()
        if style < 0.4:
            return str(value)
        if style < 0.8:
            return f"${value:x}" if self.r.random() < 0.5 else f"${value:02x}"
        return "%" + format(value, "b")

    def operand(self, small: bool) -> tuple[str, int]:
        pick = self.r.random()
        if pick < 0.35 and self.symbols:
            n = self.r.choice(sorted(self.symbols))
            return n, self.symbols[n]
        if pick < 0.45:
            ch = self.r.choice("abcdefghijklmnopqrstuvwxyz0123456789")
            return f'"{ch}"', ord(ch.upper()) if ch.isalpha() else ord(ch)
        value = self.r.randint(0, 15 if small else self.r.choice((255, 4095, 65535)))
        return self.literal(value), value

    def expr(self, depth: int = 0, terms: int | None = None) -> tuple[str, int | None]:
        """A left-to-right expression and its value as the original computes it (None: error)."""
        if terms is None:
            terms = self.r.choice((1, 1, 1, 2, 2, 3, 4))
        text, value = self.term(depth)
        for _ in range(terms - 1):
            op = self.r.choice(OPERATORS)
            if op in "<>":
                rtext, rvalue = self.literal(k := self.r.randint(0, 7)), k
            elif op == "/":
                rtext, rvalue = self.literal(k := self.r.randint(1, 9)), k
            elif op == "*":
                # the original reports some products above $FFFF (65432*82) and wraps others
                # (300*300): mostly keep products in 16 bits, now and then not
                k = self.r.randint(0, 300)
                if value is not None and value * k > MASK and self.r.random() < 0.9:
                    k = MASK // max(value, 1) if value else k
                rtext, rvalue = self.literal(k), k
            else:
                rtext, rvalue = self.term(depth)
            text += op + rtext
            value = None if value is None or rvalue is None else evaluate(op, value, rvalue)
        return text, value

    def term(self, depth: int) -> tuple[str, int | None]:
        pick = self.r.random()
        if pick < 0.12 and depth < 2:
            inner, value = self.expr(depth + 1, self.r.choice((2, 3)))
            open_, close = ("(", ")") if self.r.random() < 0.8 else ("[", "]")
            text = open_ + inner + close
        else:
            text, value = self.operand(small=pick < 0.5)
        if self.r.random() < 0.08 and value is not None:
            return "-" + text, (-value) & MASK
        return text, value

    def byte_expr(self) -> str:
        """An expression the original takes as one byte (0..255 or $FF80..$FFFF)."""
        text, value = self.expr()
        if value is None or 256 <= value < 0xFF80:
            if self.error_left and self.r.random() < 0.3:
                self.error_left = 0
                return text  # ILLEGAL QUANTITY (or the value fits after all)
            return self.r.choice("<>") + text
        return text

    def zp_expr(self) -> str:
        n = self.r.choice(self.zp)
        if self.r.random() < 0.06:
            return "!" + n  # forces absolute addressing
        if self.r.random() < 0.4:
            return f"{n}+{self.r.randint(0, 3)}"
        return n

    def abs_expr(self) -> str:
        pick = self.r.random()
        if pick < 0.4 and self.absolute:
            n = self.r.choice(self.absolute)
            return n if self.r.random() < 0.6 else f"{n}{self.r.choice('+-')}{self.r.randint(0, 40)}"
        if pick < 0.7 and self.labels:
            return self.r.choice(self.labels)
        if pick < 0.85:
            return self.forward_label()
        if pick < 0.9:
            return f"*+{self.r.randint(3, 9)}"  # the program counter (origins are all >= $1000)
        return f"${self.r.randint(0x0200, 0xFFF0):04x}"

    def known_abs(self) -> str:
        return self.r.choice(self.absolute + self.labels) if self.absolute or self.labels else "$c000"

    def forward_label(self) -> str:
        if self.pending and self.r.random() < 0.5:
            return self.r.choice(self.pending)
        n = self.name()
        self.pending.append(n)
        return n

    # ---- statements
    def instruction(self) -> str:
        kind = self.r.random()
        if kind < 0.2:
            return f"{self.r.choice(IMMEDIATE)} #{self.byte_expr()}"
        if kind < 0.35:
            return f"{self.r.choice(MEMORY)} {self.zp_expr()}"
        if kind < 0.5:
            return f"{self.r.choice(MEMORY)} {self.abs_expr()}"
        if kind < 0.58:
            return f"{self.r.choice(INDEX_X)} {self.r.choice((self.zp_expr, self.abs_expr))()},x"
        if kind < 0.63:
            n = self.r.choice(self.absolute) if self.absolute else "$1234"
            return f"{self.r.choice(ABS_Y)} {n},y"
        if kind < 0.7:
            mnemonic = self.r.choice(INDIRECT)
            return f"{mnemonic} ({self.zp_expr()}),y" if self.r.random() < 0.6 else f"{mnemonic} ({self.zp_expr()},x)"
        if kind < 0.8:
            return self.r.choice(IMPLIED)
        if kind < 0.85:
            return self.r.choice(ACCUMULATOR)
        if kind < 0.93:
            return f"{self.r.choice(('jmp', 'jsr'))} {self.abs_expr()}"
        return f"jmp ({self.abs_expr()})"

    def branch(self) -> str:
        if self.labels and self.r.random() < 0.5:
            target = self.r.choice(self.labels[-3:])
        else:
            target = self.name()
            self.soon.append(target)
        return f"{self.r.choice(BRANCHES)} {target}"

    def data(self) -> str:
        kind = self.r.random()
        if kind < 0.4:
            return ".byt " + ",".join(self.byte_expr() for _ in range(self.r.randint(1, 4)))
        if kind < 0.7:
            items = []
            for _ in range(self.r.randint(1, 3)):
                items.append(self.r.choice((self.abs_expr, lambda: self.expr()[0]))())
            return ".wor " + ",".join(items)
        if kind < 0.75:
            return f'.byt "{self.r.choice("abcdefgxyz")}",{self.byte_expr()}'
        text = "".join(self.r.choice("abcdefghijklmnopqrstuvwxyz 0123456789.,!-ABCXYZ:;") for _ in range(self.r.randint(0, 16)))
        return f'.asc "{text}"'

    def label_here(self) -> str:
        if self.soon:
            n = self.soon.pop(0)
        elif self.pending and self.r.random() < 0.6:
            n = self.pending.pop(self.r.randrange(len(self.pending)))
        else:
            n = self.name()
        self.labels.append(n)
        return n

    def simple(self) -> str:
        pick = self.r.random()
        if pick < 0.6:
            return self.instruction()
        if pick < 0.75:
            return self.branch()
        return self.data()

    def short(self, make, limit: int = 34) -> str:
        """A statement of at most `limit` characters: the original's line buffer overflows
        (OVERFLOW) on long statements, so long candidates are drawn again."""
        for _ in range(20):
            text = make()
            if len(text) <= limit:
                return text
        return "nop"

    def statement_line(self) -> None:
        if self.soon and self.r.random() < 0.6:
            self.emit(f"{self.label_here()} {self.short(self.instruction)}")
            return
        pick = self.r.random()
        if pick < 0.15:
            parts = [self.short(self.instruction, 16) if self.r.random() < 0.7 else self.r.choice(IMPLIED) for _ in range(self.r.randint(2, 3))]
            label = self.label_here() + " " if self.r.random() < 0.3 else ""
            self.emit(label + " : ".join(parts) + self.comment())
        elif pick < 0.22 and self.macros:
            name, params = self.r.choice(self.macros)
            # arguments are evaluated at the call, in pass 1 too: no forward labels in them
            args = ",".join(self.short(self.r.choice((self.zp_expr, self.known_abs, lambda: self.expr()[0])), 12) for _ in range(params))
            self.emit(f"'{name} {args}".rstrip())
            self.called.add(name)
        elif pick < 0.27:
            self.loop()
        elif pick < 0.3:
            self.emit(f"*= *+{self.r.randint(0, 5)}")
        elif pick < 0.33:
            self.emit(f"; {self.r.choice(('kommentar', 'teil 2', 'x = 1'))}")
        elif pick < 0.36:
            cond = self.short(lambda: self.expr()[0], 12)
            self.emit(f".if {cond} : {self.short(self.simple, 24)}")
        elif pick < 0.4:
            # up-arrow indentation: blanks may follow the arrow, a label must follow it directly
            if self.r.random() < 0.5:
                self.emit("^" + " " * self.r.randint(1, 6) + self.short(self.simple))
            else:
                self.emit("^" + self.label_here() + " " + self.short(self.simple))
        else:
            label = self.label_here() + " " if self.r.random() < 0.3 else ""
            self.emit(label + self.short(self.simple) + self.comment())

    def loop(self) -> None:
        counter = self.name("k")
        count = self.r.randint(1, 4)
        self.emit(f"{counter} _ {count}")
        top = self.emit(self.r.choice((f".byt {counter}", f"lda #{counter}*2", "nop", f".wor {counter}<8")))
        self.emit(f"{counter} _ {counter}-1")
        self.emit(f".if {counter} : .goto {top}")

    def macro(self) -> None:
        name = self.name("m")
        params = [self.name("p") for _ in range(self.r.randint(0, 2))]
        local = self.name("q")[:6]
        self.emit(f"{name} .mac {','.join(params)}".rstrip())
        body = []
        for p in params:
            body.append(self.r.choice((f"lda #<{p}", f"ldx #>{p}", f"lda {p}", f"sta {p}+1")))
        body.append(self.r.choice(IMPLIED))
        where = self.r.random()
        if where < 0.5:
            body.insert(0, f"{local} dex")
            body.append(f"bne .{local}")
            for b in body:
                self.emit(b)
            self.emit(".men" if self.r.random() < 0.7 else ".mend")
        else:
            body.insert(0, f"beq .{local}")
            for b in body:
                self.emit(b)
            self.emit(f"{local} .men")
        self.macros.append((name, len(params)))

    def deliberate_error(self) -> None:
        self.error_left = 0
        kind = self.r.randrange(7)
        text = (
            "lda undefd1",
            "lda #256",
            ".byt 300",
            f"{self.r.choice(self.zp)} = 7",
            "xyz #1",
            "lda #1/0",
            "bne " + (self.labels[0] if self.labels else "$0000"),
        )[kind]
        self.emit(text)

    def program(self) -> str:
        self.lines = ["100 sys32768", "110 .opt oo"]
        origin = self.r.choice(ORIGINS)
        if origin:
            self.lines.append(f"115 *= {origin}")
        for _ in range(self.r.randint(1, 4)):
            n = self.name()
            value = self.r.randint(2, 0xF0)
            self.emit(f"{n} = {self.literal(value)}")
            self.symbols[n] = value
            self.zp.append(n)
        for _ in range(self.r.randint(0, 3)):
            n = self.name()
            value = self.r.randint(0x0200, 0xFFF0)
            self.emit(f"{n} = {self.literal(value)}")
            self.symbols[n] = value
            self.absolute.append(n)
        for _ in range(self.r.choice((0, 0, 1, 1, 2))):
            self.macro()
        for _ in range(self.r.randint(4, 22)):
            self.statement_line()
            if self.error_left and self.r.random() < 0.1:
                self.deliberate_error()
        for name, params in self.macros:
            # a macro never called leaves its parameters undefined: the original then reports
            # UNDEF'D STATEMENT on the definition's lines in pass 2 (probe macro_defined_not_called)
            if name not in self.called and params:
                self.emit(f"'{name} " + ",".join(self.zp_expr() for _ in range(params)))
        if self.r.random() < 0.05:
            self.emit("*= *+140")  # puts the last backward branches out of range
            self.emit(self.branch())
        while self.soon:
            self.emit(f"{self.soon.pop(0)} {self.r.choice(IMPLIED)}")
        while self.pending:
            self.emit(f"{self.pending.pop(0)} {self.r.choice(IMPLIED)}")
        self.emit("rts")
        return "\n".join(self.lines) + "\n"


def generate(seed: int) -> str:
    """The Profi-Ass source for `seed` (same seed, same text)."""
    return Gen(seed).program()


if __name__ == "__main__":
    import sys

    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0), end="")
