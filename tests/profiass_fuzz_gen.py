"""Structural fuzz programs for the differential test against the original Profi-Ass 64 V2.0.

``generate(seed)`` (a pure function of the seed) writes a short Profi-Ass source that varies
what real people vary when they type a source, not what an expression evaluator computes
(that is ``tests/profiass_gen.py``'s job):

* blanks before and after ``:`` ``;`` ``=`` ``,`` (none, one, several);
* labels and ``name =value`` definitions in every statement position: first on the line, after
  ``:`` with and without a blank, on the SYS line, before a comment, alone;
* quotes holding ``{$hh}`` control and graphics codes (typed in quote mode, as a C64 user
  types them: never outside quotes, where the editor would execute them), ``:`` and ``;``, in
  ``lda #"x"``, ``.byt``, ``.asc`` and comments, also unclosed;
* upper and lower case inside strings and comments (upper-case letters are the C64's shifted
  characters), ``^`` indentation, long lines up to the 79 keys the C64's editor takes,
  statements on the SYS line.

Most programs hold no error; many hold a construction whose meaning the original decides
(``a=5``, ``: lbl lda``, ``LDA``...), which is the point: the original's answer is recorded by
``tools/profiass_oracle.py fuzz N`` into ``tests/fixtures/profiass/fuzz/programs.jsonl`` and
compared by ``tests/test_profiass_oracle.py`` (``fuzz/seedNNNNN``); ``tests/test_profiass_fuzz.py``
runs fresh seeds against the live oracle (slow).

Kept out on purpose (the original's answer is known and listed elsewhere): shifted letters in
mnemonics and names (SYNTAX 1 on the C64, accepted here: a deviation docs/assembler.md lists), zero-page symbols
referenced before their definition (the silent phase error, a deviation), code beyond 120 bytes
(branches stay in range), lines of 80 keys or more (the editor drops them).
"""

from __future__ import annotations

import random
import re

NAME_LETTERS = "bcfhjkqwxyz"  # no vowels: no mnemonic, no BASIC keyword by accident
KEYWORD_NAMES = ("ifx", "stop1", "tox", "fnb", "andy", "nextq", "print2", "getz")  # BASIC keywords inside names
IMPLIED = ("nop", "clc", "sec", "inx", "iny", "dex", "dey", "tax", "txa", "pha", "pla", "cld")
IMMEDIATE = ("lda", "ldx", "ldy", "cmp", "adc", "and", "ora", "eor")
MEMORY = ("lda", "sta", "ldx", "stx", "ldy", "sty", "inc", "dec", "bit", "cmp")
INDEXED_X = ("lda", "sta", "ldy", "inc", "cmp", "adc")
BRANCHES = ("bne", "beq", "bcc", "bcs", "bpl", "bmi")
# keys typed inside quotes (quote mode stores them): colours, cursor keys, CLR/HOME, RVS, graphics.
# Not RETURN/SHIFT-RETURN ($0D/$8D: they end the line), '"' ($22: it ends the quote), DEL/INST
# ($14/$94: they edit), nor codes the screen editor stores as another code (pi $FF is read back as $DE)
CODES = (0x93, 0x11, 0x91, 0x1D, 0x9D, 0x12, 0x92, 0x13, 0x05, 0x1C, 0x9E, 0xB2, 0xA0, 0xC1, 0xDB, 0x5C, 0xDD, 0x0E, 0x8E, 0x81)
KEYS_MAX = 79  # keys per line the C64 screen editor takes (80 or more: the line is dropped)
CODE_RE = re.compile(r"\{\$[0-9a-f]{2}\}")


def keys(line: str) -> int:
    """Keys typed for a line: a ``{$hh}`` is one key."""
    return len(CODE_RE.sub("#", line))


def quote_mode_codes(line: str) -> str:
    """The line with every ``{$hh}`` that would be typed outside quote mode made an ``x``: each
    '"' typed toggles the editor's quote mode, and a control key outside it acts (CLR clears
    the screen and the line being typed with it)."""
    out = []
    quoted = False
    for piece in re.findall(r"\{\$[0-9a-f]{2}\}|.", line):
        if piece == '"':
            quoted = not quoted
        elif len(piece) > 1 and not quoted:
            piece = "x"
        out.append(piece)
    return "".join(out)


class FuzzGen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.lines: list[str] = []
        self.number = 100
        self.names: set[str] = set()
        self.zp: list[str] = []  # names = values below $100, defined (usable from now on)
        self.wide: list[str] = []  # names = values of $100 and more
        self.labels: list[str] = []  # code labels defined so far
        self.forward: list[str] = []  # code labels promised later (absolute references only)
        self.size = 0  # bytes of code so far (rough: branches must stay in range)

    # ---- pieces
    def blank(self, rare: float = 0.05) -> str:
        """Blanks where the original may refuse them (after ',': SYNTAX 2): now and then."""
        return self.r.choice((" ", "  ")) if self.r.random() < rare else ""

    def before_comma(self) -> str:
        return self.r.choice(("", "", "", " ", "  "))

    def name(self) -> str:
        while True:
            if self.r.random() < 0.08:
                n = self.r.choice(KEYWORD_NAMES)
            else:
                n = "".join(self.r.choice(NAME_LETTERS) for _ in range(self.r.randint(3, 7)))
                if self.r.random() < 0.3:
                    n += str(self.r.randint(0, 9))
            if n[:8] not in {x[:8] for x in self.names}:
                self.names.add(n)
                return n

    def number_text(self, value: int) -> str:
        pick = self.r.random()
        if pick < 0.4:
            return str(value)
        if pick < 0.85:
            return f"${value:02x}"
        return "%" + format(value, "b")

    def char_constant(self) -> str:
        """A one-character constant: a letter, a digit, ':' ';' ' ', or a {$hh} code."""
        pick = self.r.random()
        if pick < 0.45:
            inner = "{$%02x}" % self.r.choice(CODES)
        elif pick < 0.75:
            inner = self.r.choice("abcxyz09")
        else:
            inner = self.r.choice((":", ";", " ", ",", "A", "Z"))
        close = '"' if self.r.random() < 0.9 else ""
        return f'"{inner}{close}'

    def text_string(self, quote_end: bool = True) -> str:
        parts = []
        for _ in range(self.r.randint(1, 6)):
            pick = self.r.random()
            if pick < 0.35:
                parts.append("{$%02x}" % self.r.choice(CODES))
            elif pick < 0.55:
                parts.append(self.r.choice((":", ";", " : ", "; x", ",")))
            elif pick < 0.65:
                parts.append(self.r.choice(("AB", "Hallo", "X")))
            else:
                parts.append(self.r.choice(("abc", "hallo", "x y", "12", "ende")))
        return '"' + "".join(parts) + ('"' if quote_end else "")

    def comment(self) -> str:
        pick = self.r.random()
        body = self.r.choice(("zaehler", "wert holen", "ENDE", 'sag "ja"', "a;b", "x,y", '"{$93}"', "ok."))
        if pick < 0.5:
            return ";" + body
        return self.r.choice((" ;", "  ; ", " ; ", ";  ")) + body

    def value_operand(self) -> tuple[str, int]:
        """An operand that is a number or a defined name; the value's size (1 or 2 bytes)."""
        pick = self.r.random()
        if pick < 0.3 and self.zp:
            return self.r.choice(self.zp), 1
        if pick < 0.45 and self.wide:
            return self.r.choice(self.wide), 2
        if pick < 0.55 and self.labels:
            return self.r.choice(self.labels), 2
        if pick < 0.62:
            n = self.name()
            self.forward.append(n)
            return n, 2
        if self.r.random() < 0.5:
            v = self.r.randint(0, 255)
            return self.number_text(v), 1
        v = self.r.randint(0x100, 0xFFFF)
        return self.number_text(v), 2

    # ---- statements (text, bytes of code)
    def instruction(self) -> tuple[str, int]:
        pick = self.r.random()
        if pick < 0.15:
            return self.r.choice(IMPLIED), 1
        if pick < 0.4:
            value = self.char_constant() if self.r.random() < 0.45 else (self.zp and self.r.random() < 0.3 and self.r.choice(self.zp)) or self.number_text(self.r.randint(0, 255))
            return f"{self.r.choice(IMMEDIATE)} #{value}", 2
        if pick < 0.65:
            operand, size = self.value_operand()
            return f"{self.r.choice(MEMORY)} {operand}", 1 + size
        if pick < 0.8:
            operand, size = self.value_operand()
            return f"{self.r.choice(INDEXED_X)} {operand}{self.before_comma()},{self.blank()}x", 1 + size
        if pick < 0.9 and self.labels and self.size < 100:
            return f"{self.r.choice(BRANCHES)} {self.r.choice(self.labels)}", 2
        if pick < 0.95:
            target = self.r.choice(self.labels) if self.labels and self.r.random() < 0.6 else self.name()
            if target not in self.labels:
                self.forward.append(target)
            return f"{self.r.choice(('jmp', 'jsr'))} {target}", 3
        return f"asl{self.r.choice(('', ' a'))}", 1

    def data(self) -> tuple[str, int]:
        pick = self.r.random()
        if pick < 0.4:
            string = self.text_string(quote_end=self.r.random() < 0.92)
            return f".asc {string}", len(CODE_RE.sub("#", string)) - 2
        if pick < 0.75:
            items = []
            for _ in range(self.r.randint(1, 4)):
                items.append(self.char_constant() if self.r.random() < 0.3 else self.number_text(self.r.randint(0, 255)))
            sep = self.before_comma() + "," + self.blank()
            return ".byt " + sep.join(items), len(items)
        items = [self.value_operand()[0] for _ in range(self.r.randint(1, 3))]
        return ".wor " + (self.before_comma() + "," + self.blank()).join(items), 2 * len(items)

    def definition(self) -> str:
        n = self.name()
        if self.r.random() < 0.55:
            v = self.r.randint(0, 255)
            self.zp.append(n)
        else:
            v = self.r.randint(0x100, 0xFFFF)
            self.wide.append(n)
        eq = self.r.choice((" =", " =", " = ", " =  ", "  =", " =", " = ")) if self.r.random() > 0.06 else self.r.choice(("=", "= "))
        return f"{n}{eq}{self.number_text(v)}"

    def statement(self, position: int) -> tuple[str, bool]:
        """One statement, and whether it starts with a name (a label or a definition);
        ``position`` > 0: it follows a ':' on the line."""
        pick = self.r.random()
        if pick < 0.12:
            return self.definition(), True
        if pick < 0.22:
            text, size = self.data()
        else:
            text, size = self.instruction()
        self.size += size
        if self.r.random() < 0.28:  # a label in front
            if self.forward and self.r.random() < 0.5:
                label = self.forward.pop(self.r.randrange(len(self.forward)))
            else:
                label = self.name()
            self.labels.append(label)
            if self.r.random() < 0.08 and position == 0:
                return f"^{label} {text}", True
            return f"{label}{self.r.choice((' ', ' ', '  ', '    '))}{text}", True
        if self.r.random() < 0.06 and position == 0:
            return "^" + " " * self.r.randint(0, 4) + text, False
        return text, False

    def line(self) -> str:
        count = self.r.choice((1, 1, 1, 2, 2, 3))
        parts = [self.statement(i) for i in range(count)]
        text = parts[0][0]
        for part, named in parts[1:]:
            # a blank after ':' before a name: the original's SYNTAX 1 (now and then)
            join = self.r.choice((": ", " : ", ":  ")) if self.r.random() < (0.08 if named else 0.5) else self.r.choice((":", " :"))
            text += join + part
        if self.r.random() < 0.3:
            text += self.comment()
        return text

    def emit(self, text: str) -> None:
        line = quote_mode_codes(f"{self.number} {text}")
        if keys(line) > KEYS_MAX:  # cut to 79 keys, never inside a {$hh}
            cut = []
            for piece in re.findall(r"\{\$[0-9a-f]{2}\}|.", line):
                if len(cut) == KEYS_MAX:
                    break
                cut.append(piece)
            line = "".join(cut).rstrip()
        self.lines.append(line)
        self.number += self.r.choice((10, 10, 10, 5, 1))

    def program(self) -> str:
        r = self.r
        sys_line = r.choice(("sys32768", "sys 32768", "sys32768", "sys 8*4096"))
        opt = r.choice((".opt oo", ".opt oo", ".opt oo", ".opt p,oo", ".opt  oo"))
        origin = r.choice(("*=$c000", "*= $c000", "*=  $c000", "*=$c100", "*= 49152"))
        if r.random() < 0.25:  # statements on the SYS line
            joins = [r.choice((":", ": ", " : ", " :")) for _ in range(2)]
            self.emit(f"{sys_line}{joins[0]}{opt}{joins[1]}{origin}")
        else:
            self.emit(sys_line)
            self.emit(opt)
            self.emit(origin)
        for _ in range(r.randint(2, 5)):  # definitions first: zero-page names are then known
            self.emit(self.definition() + (self.comment() if r.random() < 0.2 else ""))
        for _ in range(r.randint(4, 14)):
            if self.size > 110:
                break
            if r.random() < 0.06:
                self.emit(self.comment().lstrip())
                continue
            if r.random() < 0.05:  # a long line of statements
                parts = [self.instruction()[0] for _ in range(8)]
                self.size += 16
                self.emit(":".join(parts))
                continue
            self.emit(self.line())
        for label in self.forward:  # every promised label gets defined
            if label not in self.labels:
                self.labels.append(label)
                self.emit(f"{label}{r.choice((' ', '  '))}rts")
        self.emit("rts")
        return "".join(line + "\n" for line in self.lines)


def generate(seed: int) -> str:
    """The source for ``seed`` (same seed, same text)."""
    return FuzzGen(seed).program()


if __name__ == "__main__":
    import sys

    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0), end="")
