"""The two target assemblers' syntax, as data: 64tass and ACME.

Operator precedence (both, C-like, tighter first): unary minus; ``* /``;
``+ -``; ``<< >>``; ``&``; xor; ``|`` (64tass reference manual, "Operators";
ACME docs/QuickRef.txt, "Operator priorities").  Profi-Ass has none: its
chains run left to right (asm6502/asm/expr.py), so the converter brackets
where the target's precedence would group differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.dialects import ACME as ACME_DIALECT
from asm6502.dialects import TASS as TASS_DIALECT
from asm6502.dialects import Dialect

# Profi-Ass operator -> (precedence in the targets, 64tass token, ACME token)
OPERATORS: dict[str, tuple[int, str, str]] = {
    "*": (6, "*", "*"),
    "/": (6, "/", "/"),
    "+": (5, "+", "+"),
    "-": (5, "-", "-"),
    "<": (4, "<<", "<<"),
    ">": (4, ">>", ">>"),
    "&": (3, "&", "&"),
    "^": (2, "^", " XOR "),  # ACME's '^' is the power operator
    "!": (1, "|", "|"),
}
ATOM = 9  # a number, a symbol, '*' or a bracketed expression
UNARY = 8  # '-x'

# characters written inside string literals: both targets give them the PETSCII codes that
# asm6502 gives them (lower case $41-$5A, upper case $C1-$DA, the rest as ASCII); any other
# character is written as its number
STRING_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 !#$%&'()*+,-./<=>?@[]")
# character constants ('a') are written as characters only for letters and digits
CHAR_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


@dataclass(frozen=True)
class Target:
    dialect: Dialect  # directives, origin, forced addressing, CPU names, renamed mnemonics (asm6502/dialects.py)
    text_setup: tuple[str, ...]  # lines after the CPU statement: how strings and characters are read
    const: str
    var: str
    operator_column: int  # index into OPERATORS' token columns
    reserved: frozenset[str]  # Profi-Ass names the target cannot take as symbols (renamed with a '_' suffix)
    # macros (see writer.py: Writer.macro_call): the head ({n} name, {p} parameters), a parameter as
    # the body reads it, a macro-local label, the end, a call ({a} arguments)
    macro_head: str
    param: str
    local: str
    macro_end: str
    macro_call: str
    macro_reserved: frozenset[str]  # names a macro cannot have besides the mnemonics (renamed with '_m')
    # a '.goto' loop as a do-while ({v} a counter the target needs, {c} the condition after the body)
    loop_head: str
    loop_tail: str

    @property
    def name(self) -> str:
        return self.dialect.name

    @property
    def suffix(self) -> str:
        return self.dialect.suffix

    @property
    def header(self) -> tuple[str, ...]:
        """The lines after the title comment ({cpu} is replaced)."""
        return ("        " + self.dialect.cpu_directive.format("{cpu}"),) + self.text_setup

    @property
    def cpu(self) -> dict:
        """asm6502 --cpu -> the target's CPU name."""
        return self.dialect.cpu_names

    @property
    def org(self) -> str:
        return self.dialect.origin.replace("{}", "{e}")

    @property
    def byte(self) -> str:
        return self.dialect.byte

    @property
    def word(self) -> str:
        return self.dialect.word

    @property
    def text(self) -> str:
        return self.dialect.text

    @property
    def force_absolute(self) -> str:
        """'{m} @w {o}': an instruction that must stay absolute."""
        return self.dialect.forced_absolute("{m}", "{o}")

    @property
    def force_zero_page(self) -> str | None:
        """For zero page with an operand that reads a variable ('!set' values keep ACME at 16 bits)."""
        zero_page = self.dialect.zero_page_mnemonic
        return None if zero_page is None else "{m}" + zero_page + " {o}"

    @property
    def mnemonics(self) -> dict:
        """asm6502's (64tass's) name and mode -> the target's, where they differ."""
        return self.dialect.renames

    @property
    def command(self) -> str:
        """How to assemble the converted source into a .prg."""
        return self.dialect.command.format(out="OUT.prg", src="SRC")

    def operator(self, op: str) -> tuple[int, str]:
        precedence, tass, acme = OPERATORS[op]
        return precedence, tass if self.operator_column == 1 else acme


TASS = Target(
    dialect=TASS_DIALECT,
    text_setup=(
        '        .enc "petscii"          ; Profi-Ass strings: lower case = unshifted $41-$5A',
        '        .cdef " @", $20',
        '        .cdef "AZ", $c1',
        '        .cdef "[_", $5b',
        '        .cdef "az", $41',
        '        .cdef "~~", $ff',
    ),
    const="{n} = {e}",
    var="{n} := {e}",
    operator_column=1,
    reserved=frozenset(),
    # 64tass reference manual, "Macros": '\\name' is the argument's text; a macro's labels are local to
    # each call; ".for init, condition, step": the condition is checked before each round
    macro_head="{n} .macro {p}",
    param="\\{p}",
    local="{l}",
    macro_end=".endm",
    macro_call="#{n} {a}",
    # 64tass 1.58 takes its mnemonic aliases as instructions where a macro name stands (tried one by one)
    macro_reserved=frozenset({"shl", "shr", "bge", "blt", "gcc", "gcs", "geq", "gne", "gmi", "gpl", "gvc", "gvs", "glt", "gge", "isc", "dcm", "ins", "sha", "shx", "shy", "las", "lax", "slo", "sre", "rra"}),
    loop_head=".for {v} := 1, {v} != 0, {v} := {c}",
    loop_tail=".next",
)

ACME = Target(
    dialect=ACME_DIALECT,
    text_setup=("        !ct pet                 ; character constants in PETSCII",),
    const="{n} = {e}",
    var="!set {n} = {e}",
    operator_column=2,
    reserved=frozenset({"not", "and", "or", "xor", "div", "mod", "asl", "lsl", "lsr", "asr"}),
    # ACME docs/QuickRef.txt: '!macro name .p1, .p2 { }' (call by value; '.name' symbols are local
    # to each call), '!do { } while CONDITION' (checked after each round)
    macro_head="!macro {n} {p} {{",
    param=".{p}",
    local=".{l}",
    macro_end="}}",
    macro_call="+{n} {a}",
    macro_reserved=frozenset(),  # (ACME's macro names are a name space of their own)
    loop_head="!do {{",
    loop_tail="}} while {c}",
)

TARGETS: dict[str, Target] = {"64tass": TASS, "acme": ACME}
