"""The two target assemblers' syntax, as data: 64tass and ACME.

Operator precedence (both, C-like, tighter first): unary minus; ``* /``;
``+ -``; ``<< >>``; ``&``; xor; ``|`` (64tass reference manual, "Operators";
ACME docs/QuickRef.txt, "Operator priorities").  Profi-Ass has none: its
chains run left to right (asm6502/asm/expr.py), so the converter brackets
where the target's precedence would group differently.
"""

from __future__ import annotations

from dataclasses import dataclass

from asm6502.opcodes import Mode

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
    name: str
    suffix: str  # usual source file suffix
    header: tuple[str, ...]  # lines after the title comment ({cpu} is replaced)
    cpu: dict[str, str]  # asm6502 --cpu -> the target's CPU name
    org: str  # '* = {e}'
    const: str
    var: str
    byte: str
    word: str
    text: str
    force_absolute: str  # '{m} @w {o}' -- an instruction that must stay absolute
    force_zero_page: str | None  # for zero page with an operand that reads a variable ('!set' values keep ACME at 16 bits)
    mnemonics: dict[tuple[str, Mode | None], str]  # asm6502's (64tass's) name and mode -> the target's, where they differ
    operator_column: int  # index into OPERATORS' token columns
    reserved: frozenset[str]  # Profi-Ass names the target cannot take as symbols (renamed with a '_' suffix)
    command: str  # how to assemble the converted source into a .prg
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

    def operator(self, op: str) -> tuple[int, str]:
        entry = OPERATORS[op]
        return entry[0], entry[self.operator_column]


TASS = Target(
    name="64tass",
    suffix=".s",
    header=(
        '        .cpu "{cpu}"',
        '        .enc "petscii"          ; Profi-Ass strings: lower case = unshifted $41-$5A',
        '        .cdef " @", $20',
        '        .cdef "AZ", $c1',
        '        .cdef "[_", $5b',
        '        .cdef "az", $41',
        '        .cdef "~~", $ff',
    ),
    cpu={"6502": "6502", "6502i": "6502i"},
    org="* = {e}",
    const="{n} = {e}",
    var="{n} := {e}",
    byte=".byte",
    word=".word",
    text=".text",
    force_absolute="{m} @w {o}",
    force_zero_page=None,
    mnemonics={},
    operator_column=1,
    reserved=frozenset(),
    command="64tass -o OUT.prg SRC",
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
    name="acme",
    suffix=".a",
    header=("        !cpu {cpu}", "        !ct pet                 ; character constants in PETSCII"),
    cpu={"6502": "6502", "6502i": "nmos6502"},
    org="* = {e}",
    const="{n} = {e}",
    var="!set {n} = {e}",
    byte="!byte",
    word="!word",
    text="!pet",
    force_absolute="{m}+2 {o}",
    force_zero_page="{m}+1 {o}",
    # ACME 0.97 docs/Illegals.txt names five undocumented opcodes differently
    mnemonics={("isb", None): "isc", ("asr", None): "alr", ("lds", None): "las", ("shs", None): "tas", ("lax", Mode.IMMEDIATE): "lxa"},
    operator_column=2,
    reserved=frozenset({"not", "and", "or", "xor", "div", "mod", "asl", "lsl", "lsr", "asr"}),
    command="acme -f cbm -o OUT.prg SRC",
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
