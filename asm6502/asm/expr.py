"""Profi-Ass 64 expressions: parsed once into a tree, compiled into closures.

The original evaluates strictly left to right with no operator precedence
(``2+3*4`` is 20); ``( )`` and ``[ ]`` group.  Values are 16-bit and the
operators wrap modulo 65536 (``$FFFF+2`` is 1, ``1<16`` is 0); multiplication loses the
bits shifted out of its left operand (``300*300`` is $5F90) but reports a carry out of
its additions (:func:`multiply`); that and division by zero are ILLEGAL QUANTITY.  (Observed on the
original Profi-Ass 64 V2.0, tests/fixtures/profiass.)

Operators: ``+ - * / ! & ^ > <`` = add, subtract, multiply, divide, or, and,
xor (the C64's up-arrow), shift right, shift left.
Operands: decimal, ``$hex``, ``%binary``, ``"c"`` (a character's PETSCII code;
``"ab"`` is its first character, ``""`` the quote itself, $22), ``*`` (the
program counter), symbols, ``.name`` (a label local to a macro) and unary minus.

:func:`compile_node` turns a tree into a function ``f(values, pc, local)``:
``values`` maps symbol keys to values, ``local`` is the suffix of the current
macro call (``":01"``).  A symbol missing from ``values`` raises
:class:`Unknown` -- a forward reference in pass 1, an undefined symbol in pass 2.
A plain symbol's compiled expression is its key itself, a str, no function:
:func:`value_of` evaluates either.
"""

from __future__ import annotations

import re
from types import MethodType

from asm6502.petscii import ascii_to_petscii, brace_code
from asm6502.tuples import named_tuple

MAX = 0xFFFF
OPERATORS = "+-*/!&^><"
SYMBOL_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
SYMBOL_CHARS = SYMBOL_START + "0123456789."
SIGNIFICANT = 8  # the original keeps the first 8 characters of a symbol
LOCAL_SIGNIFICANT = 6  # ... and 6 of a macro-local label (manual p. 23)


class ExprError(Exception):
    """A syntax or range error at ``offset`` (0-based, in the parsed text)."""

    def __init__(self, message: str, offset: int, length: int = 1):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = max(1, length)


class Unknown(Exception):
    """A symbol without a value (yet): ``key`` as looked up, ``node`` the Sym."""

    def __init__(self, node: Sym, key: str):
        super().__init__(key)
        self.node = node
        self.key = key


def key_of(name: str) -> str:
    """The symbol-table key of a global symbol: case folded, 8 significant characters."""
    return name.lower()[:SIGNIFICANT]


def local_key(name: str, local: str) -> str:
    """The key of macro-local label ``name`` (without its dot) in the call ``local`` (":01")."""
    return name.lower()[:LOCAL_SIGNIFICANT] + local


@named_tuple
class Num:
    value: int
    offset: int
    length: int

    def constant(self, v, pc, loc):
        """The compiled expression of a number: bound to its node (see :func:`compile_node`)."""
        return self[0]


@named_tuple
class Sym:
    name: str  # lower case, as written (a local reference keeps its leading '.')
    offset: int
    length: int

    def lookup(self, v, pc, loc):
        """The compiled operand of a chain that is a symbol whose name is its key (at most 8 characters): bound
        to its node (a whole expression that is such a symbol is compiled to its key: see compile_node)."""
        try:
            return v[self[0]]
        except KeyError:
            raise Unknown(self, self[0]) from None


@named_tuple
class PC:
    offset: int

    def counter(self, v, pc, loc):
        """The compiled expression of ``*``: bound to its node."""
        return pc


@named_tuple
class Neg:
    operand: Node
    offset: int


@named_tuple
class Chain:
    """``first op1 t1 op2 t2 ...`` evaluated strictly left to right."""

    first: Node
    rest: tuple[tuple[str, int, Node], ...]  # (operator, offset, operand)


Node = Num | Sym | PC | Neg | Chain

TYPE_CHECKING = False  # (typing is not imported at run time)
if TYPE_CHECKING:
    from collections.abc import Callable

    # an expression's closure: (symbol values, program counter, macro call suffix or None) -> its value; or a
    # symbol's key (compile_node: value_of evaluates either)
    Compiled = Callable[[dict, int, str | None], int] | str


def shown_char(ch: str) -> str:
    """A character for a message: 'x', or its code when it would not show (a form feed, $85 ...)."""
    return f"'{ch}'" if ch.isprintable() else f"character U+{ord(ch):04X}"


# Brackets and minus signs nest at most this deep: a line typed on the C64 holds fewer than 80
# keys (the screen editor's limit), so no real source comes near it; deeper is an error, not a
# Python recursion.
MAX_NESTING = 80


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.depth = 0

    def nested(self, start: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ExprError(f"expression nested more than {MAX_NESTING} deep (brackets or minus signs) [SYNTAX 5]", start)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def chain(self) -> Node:
        first = self.term()
        rest = []
        while True:
            ch = self.peek()
            if ch and ch in OPERATORS:
                offset = self.pos
                self.pos += 1
                rest.append((ch, offset, self.term()))
            else:
                break
        return Chain(first, tuple(rest)) if rest else first

    def term(self) -> Node:
        ch = self.peek()
        start = self.pos
        if not ch:
            raise ExprError("expression expected [SYNTAX 5]", start)
        if ch == "-":
            self.pos += 1
            self.nested(start)
            node = Neg(self.term(), start)
            self.depth -= 1
            return node
        if ch in "([":
            self.pos += 1
            self.nested(start)
            inner = self.chain()
            closing = ")" if ch == "(" else "]"
            if self.peek() != closing:
                raise ExprError(f"'{closing}' expected [SYNTAX 4]", self.pos)
            self.pos += 1
            self.depth -= 1
            return inner
        if ch == "*":
            self.pos += 1
            if self.text[self.pos : self.pos + 1].isalnum():
                raise ExprError("an operator is expected after '*' (the program counter) [SYNTAX 5]", self.pos)
            return PC(start)
        if ch == "$":
            return self.number(16, "0123456789abcdefABCDEF", "hex")
        if ch == "%":
            return self.number(2, "01", "binary")
        if ch in "0123456789":
            return self.number(10, "0123456789", "decimal")
        if ch == '"':
            return self.character(start)
        if ch in SYMBOL_START or (ch == "." and self.text[start + 1 : start + 2] in tuple(SYMBOL_START)):
            self.pos += 1
            while self.pos < len(self.text) and self.text[self.pos] in SYMBOL_CHARS:
                self.pos += 1
            return Sym(self.text[start : self.pos].lower(), start, self.pos - start)
        raise ExprError(f"unexpected character {shown_char(ch)} in expression [SYNTAX 5]", start)

    def character(self, start: int) -> Num:
        """``"c"``: the code of the first character after the quote, whatever it is (``""`` is the
        quote, $22, and so is three quotes); the rest up to the next quote is skipped, as the original does
        (``lda #""+1`` = A9 22: rules/char_quote_*).  The first character
        may be a key typed in quote mode, written ``{$93}`` or ``{clr}``: ``lda #"{$93}"`` is
        A9 93 on the original (probe rules/char_clr)."""
        text = self.text
        if start + 1 >= len(text):
            raise ExprError("character expected after '\"' [SYNTAX 5]", start)
        ch = text[start + 1]
        braced = brace_code(text, start + 1) if ch == "{" else None
        first = start + 1 + (braced[1] if braced else 1)
        end = text.find('"', first)  # (also after a quote as the character: '""' is $22 up to the end, '"""+1' $23)
        end = len(text) - 1 if end == -1 else end
        self.pos = end + 1
        if braced:
            return Num(braced[0], start, end - start + 1)
        try:
            code = ascii_to_petscii(ch)[0]
        except ValueError as exc:
            raise ExprError(str(exc), start + 1) from None
        return Num(code, start, end - start + 1)

    def number(self, base: int, digits: str, kind: str) -> Num:
        start = self.pos
        if base != 10:
            self.pos += 1
        first_digit = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in digits:
            self.pos += 1
        if self.pos == first_digit:  # '$' or '%' alone is 0 on the original ('sty $' = 84 00: rules/number_no_digits_*)
            return Num(0, start, self.pos - start)
        if self.pos < len(self.text) and self.text[self.pos] in SYMBOL_CHARS:
            raise ExprError(f"invalid {kind} number (an operator is expected after it) [SYNTAX 3]", start, self.pos - start + 1)
        text = self.text[first_digit : self.pos]
        # hex and binary digits beyond 16 bits wrap silently, as in the original ($12345 is $2345)
        value = decimal(text) if base == 10 else int(text, base) & MAX
        if value > MAX:
            raise ExprError(f"number {self.text[start:self.pos]} does not fit in 16 bits [ILLEGAL QUANTITY]", start, self.pos - start)
        return Num(value, start, self.pos - start)


def decimal(digits: str) -> int:
    """A decimal number; one of more than 6 digits (leading zeros aside) is only "too large":
    MAX + 1 (Python refuses to convert decimal texts of more than 4,300 digits at all)."""
    return int(digits) if len(digits.lstrip("0")) <= 6 else MAX + 1


# one number or symbol, perhaps with a number added or subtracted ('loop', 'table+2', 'ptr-$01'): most
# operands; read without the parser (the parser's tree: tests/test_expr.py)
_SHORT = re.compile(r"(?:\$([0-9A-Fa-f]{1,4}+)|([0-9]{1,5}+)|([A-Za-z][A-Za-z0-9.]*+))(?:([-+])(?:\$([0-9A-Fa-f]{1,4}+)|([0-9]{1,5}+)))?\Z")


# numbers and symbols joined by operators, without blanks ('table+2', 'a*8+b'): read by one regular expression
# (runs that give nothing back: a shorter run would end before a digit or letter, where no operator stands)
_ATOM_TEXT = r"\$[0-9A-Fa-f]{1,4}+(?![0-9A-Fa-f])|%[01]{1,16}+(?![01])|[0-9]{1,5}+(?![0-9])|[A-Za-z][A-Za-z0-9.]*+"
_CHAIN = re.compile(rf"(?:{_ATOM_TEXT})(?:[-+*/!&^<>](?:{_ATOM_TEXT}))+\Z")
_CHAIN_PARTS = re.compile(rf"{_ATOM_TEXT}|[-+*/!&^<>]")
_PAIR = re.compile(rf"({_ATOM_TEXT})([-+*/!&^<>])({_ATOM_TEXT})\Z")


_tuple = tuple.__new__  # (a named tuple's own __new__ is a Python function: slower)


def _atom(token: str, offset: int) -> Num | Sym | None:
    first = token[0]
    if first == "$":
        return _tuple(Num, (int(token[1:], 16), offset, len(token)))
    if first == "%":
        return _tuple(Num, (int(token[1:], 2), offset, len(token)))
    if first <= "9":
        value = int(token)
        return _tuple(Num, (value, offset, len(token))) if value <= MAX else None
    return _tuple(Sym, (token.lower(), offset, len(token)))


def _short(text: str, m) -> Node | None:
    """The tree of a number or symbol, perhaps +/- a number, read by ``_SHORT`` (None: a decimal
    number out of range, left to the parser's message)."""
    hex_digits, decimal_digits, name, op, hex_right, decimal_right = m.groups()
    if op is None:
        length = len(text)
    else:  # (the first atom ends at the operator)
        length = m.start(4)
        value = int(hex_right, 16) if hex_right is not None else int(decimal_right)
        if value > MAX:
            return None
        operand = _tuple(Num, (value, length + 1, len(text) - length - 1))
    first: Node
    if name is not None:
        first = _tuple(Sym, (name.lower(), 0, length))
    else:
        value = int(hex_digits, 16) if hex_digits is not None else int(decimal_digits)
        if value > MAX:
            return None
        first = _tuple(Num, (value, 0, length))
    return first if op is None else _tuple(Chain, (first, ((op, length, operand),)))


def _parse_chain(text: str) -> Node | None:
    """The tree of numbers and symbols joined by operators (no blanks); None for other text."""
    m = _PAIR.match(text)
    if m is not None:  # (the commonest: two atoms, 'table+2')
        left, op, right = m.groups()
        first = _atom(left, 0)
        operand = _atom(right, len(left) + 1)
        if first is None or operand is None:
            return None
        return _tuple(Chain, (first, ((op, len(left), operand),)))
    if _CHAIN.match(text) is None:
        return None
    parts = _CHAIN_PARTS.findall(text)
    first = _atom(parts[0], 0)
    offset = len(parts[0])
    rest = []
    for i in range(1, len(parts), 2):
        operand = _atom(parts[i + 1], offset + 1)
        if operand is None:
            return None
        rest.append((parts[i], offset, operand))
        offset += 1 + len(parts[i + 1])
    return None if first is None else Chain(first, tuple(rest))


def parse(text: str) -> Node:
    """Parse a whole expression; trailing text is an error."""
    if text.isalnum() and text.isascii() and not text[0].isdigit():  # a plain symbol ('loop', 'z220'): the commonest
        return _tuple(Sym, (text if text.islower() else text.lower(), 0, len(text)))  # (no copy of a name in lower case)
    m = _SHORT.match(text)
    if m is not None:
        node = _short(text, m)
        if node is not None:
            return node
    node = _parse_chain(text)
    if node is not None:
        return node
    parser = _Parser(text)
    node = parser.chain()
    ch = parser.peek()
    if ch:
        junk = text[parser.pos :]
        quote = junk.find('"')
        shifted = "A" <= ch <= "Z" or ch == "{" and (code := brace_code(text, parser.pos)) is not None and code[0] >= 0x80
        # what follows a complete expression, as the original reports it (rules/junk_*, fuzz): a quote
        # right away with a character after it ('lda lbl"x"'), after two characters or more ('and #"c ;x "ja"') or opening a
        # string ('.byt "c ,"b": nop'): SYNTAX 3; one character and a quote ending the line
        # ('and #"z;"x"', 'adc #"a :ldy #"A"'), or a character after a blank or a closing quote
        # ('lda 1 2', 'lda #"b"a'): SYNTAX 5, two or more after the blank ('lda x yy') 3
        before = text[parser.pos - 1] if parser.pos else ""
        if quote == 0:  # a quote after the expression: 5 when nothing or a ':' follows it ('lda #"a""',
            # 'lda #"a" "', 'ldx #"a : eor #" "', 'lda #"a" ":nop', 'lda 1 "'), 3 when a character does
            # ('lda lbl"x"', 'lda #"a" "x'; rules/junk_quote_*, fuzz seed 100514)
            digit = "5" if not junk[1:].strip() or junk[1] == ":" else "3"
        elif quote > 0:  # (one shifted character, or one character closing the line with its quote: 5)
            digit = "5" if quote == 1 and (shifted or not junk[2:].strip()) else "3"
        else:  # (one character after a blank: 5; 'lda x yy', 'lda x y z', 'lda 1 22': 3; rules/junk_after_blank_*)
            digit = "5" if before in " \t\"" and ch.isalnum() and len(junk.rstrip()) == 1 else "3"
        if _holds_local(node):  # (outside a macro the original complains of the label first: layout.LOCAL_JUNK)
            raise ExprError(f"unexpected {shown_char(ch)} after an expression with a macro-local label [SYNTAX {digit}]", parser.pos)
        raise ExprError(f"unexpected {shown_char(ch)} after expression [SYNTAX {digit}]", parser.pos)
    return node


def _holds_local(node) -> bool:
    kind = type(node)
    if kind is Sym:
        return node.name[0] == "."
    if kind is Neg:
        return _holds_local(node.operand)
    if kind is Chain:
        return _holds_local(node.first) or any(_holds_local(operand) for _, _, operand in node.rest)
    return False


def apply(op: str, left: int, right: int, offset: int) -> int:
    """One Profi-Ass operator on two 16-bit values (every result wraps to 16 bits)."""
    if op == "+":
        return (left + right) & MAX
    if op == "-":
        return (left - right) & MAX
    if op == "*":
        return multiply(left, right, offset)
    if op == "/":
        if right == 0:
            raise ExprError("division by zero [ILLEGAL QUANTITY]", offset)
        return left // right
    if op == "!":
        return left | right
    if op == "&":
        return left & right
    if op == "^":
        return left ^ right
    if op == ">":
        return left >> right if right < 16 else 0
    if op == "<":
        return (left << right) & MAX if right < 16 else 0
    raise AssertionError(op)


def multiply(left: int, right: int, offset: int = 0) -> int:
    """The original's 16-bit multiplication, shift and add: for each bit of the right operand
    (lowest first) the left operand, shifted, is added.  Bits shifted out of the left operand
    are lost silently (300*300 = $5F90, 256*256 = 0), but a carry out of an addition is
    ILLEGAL QUANTITY (1000*1000, -2*-2).  Worked out from the original's results,
    tests/fixtures/profiass/expr/expr_mul_table and expr_mul_neg_small."""
    result = 0
    while right:
        if right & 1:
            result += left
            if result > MAX:
                raise ExprError("overflow in the multiplication [ILLEGAL QUANTITY]", offset)
        left = (left << 1) & MAX
        right >>= 1
    return result


def with_prefix(value: int, prefix: str) -> int:
    """An operand's value after its prefix: ``<`` low byte, ``>`` high byte; ``!`` (absolute) keeps it."""
    if not prefix or prefix == "!":
        return value
    return value & 0xFF if prefix == "<" else value >> 8


# -- compiling a tree into a closure: f(values, pc, local) -> int -----------------
#
# Every compiled expression keeps its tree or can make it again (``tree_of``): the decoder keeps one object
# per expression text, and no tree beside it.  A whole expression that is a symbol ('loop': the commonest) is
# its key, a str: no node, no function, and the decoder hands out one string
# object a name, the symbol table's key (decode.Decoder.key_strings); 'table+2' is a callable Plus that makes
# its tree when asked (a bound method beside each would take more memory); every other is a bound
# method of its node (a number, '*') or of a small tuple that keeps what the evaluation needs and the tree (a
# closure would take more).  (Calling an object's ``__call__`` -- through a new argument tuple and frame --
# costs more than calling a bound method, so a symbol is no node with ``__call__``.  A key is looked up where
# the passes evaluate, after ``type(fn) is str``: no Sym node and bound method a symbol.)


def compile_node(node: Node):
    """The compiled expression of a tree: ``f(values, pc, local) -> int`` (see the module's docstring), or a
    symbol's key (a str) when the tree is one symbol (``value_of`` evaluates either)."""
    if type(node) is Sym and node.offset == 0 and node.name[0] != "." and len(node.name) <= SIGNIFICANT:
        return node.name
    return _compile(node)


def value_of(fn, v: dict, pc: int, loc: str | None) -> int:
    """The value of a compiled expression (:func:`compile_node`): a key is looked up in ``v``."""
    if type(fn) is str:
        try:
            return v[fn]
        except KeyError:
            raise Unknown(_tuple(Sym, (fn, 0, len(fn))), fn) from None
    return fn(v, pc, loc)


def _compile(node: Node):
    """The function of a tree (an operand of a chain: a symbol is a bound method of its node too)."""
    kind = type(node)
    if kind is Sym:
        if node.name[0] == ".":
            return _tuple(_Local, (node.name[1 : 1 + LOCAL_SIGNIFICANT], node)).value
        key = node.name[:SIGNIFICANT]
        return node.lookup if key == node.name else _tuple(_Lookup, (key, node)).value
    if kind is Num:
        return node.constant
    if kind is PC:
        return node.counter
    if kind is Neg:
        return _tuple(_Negated, (_compile(node.operand), node)).value
    if len(node.rest) == 1:
        op, offset, operand = node.rest[0]
        if op == "+" or op == "-":
            if type(operand) is Num:  # (a constant right operand needs no closure)
                n = operand.value if op == "+" else -operand.value
                first = node.first
                if type(first) is Sym and first.name[0] != ".":  # 'table+2': one call
                    name = first.name
                    length = len(name)
                    if (first.offset == 0 and length <= SIGNIFICANT and first.length == length and offset == length
                            and operand.offset == length + 1):  # fmt: skip
                        # (written without blanks, the commonest: the tree is made again when asked for)
                        return Plus(name, n, 2 * operand.length + (op == "-"))
                    return _tuple(_LookupPlus, (name[:SIGNIFICANT], n, first, node)).value
                return _tuple(PlusConstant, (_compile(first), n, node)).value
            if op == "-":
                return _tuple(_Difference, (_compile(node.first), _compile(operand), node)).value
            return _tuple(_Sum, (_compile(node.first), _compile(operand), node)).value
    steps = tuple((op, offset, _compile(operand)) for op, offset, operand in node.rest)
    return _tuple(_Chain, (_compile(node.first), steps, node)).value


# 'symbol+n' / 'symbol-n' without blanks: compiled by compile_text without making its tree
_SYMBOL_PLUS = re.compile(r"([A-Za-z][A-Za-z0-9.]*+)([-+])(?:\$([0-9A-Fa-f]{1,4}+)|([0-9]{1,5}+))\Z")


def compile_text(text: str, key_strings: dict | None = None):
    """``compile_node(parse(text))`` (raises ExprError); 'symbol+n' without making the tree it would drop (a
    common expression: making each tree would cost time for nothing).  ``key_strings``: one string object a symbol key
    (a key -> itself), which the compiled expression takes its key from (the symbol table's own)."""
    m = _SYMBOL_PLUS.match(text) if "+" in text or "-" in text else None
    if m is not None:
        name, op, hex_digits, decimal_digits = m.groups()
        value = int(hex_digits, 16) if hex_digits is not None else int(decimal_digits)
        if value <= MAX and len(name) <= SIGNIFICANT:  # (else the parser's message, or a long name's _LookupPlus)
            name = name.lower()
            if key_strings is not None:
                name = key_strings.setdefault(name, name)
            return Plus(name, value if op == "+" else -value, 2 * (len(text) - len(name) - 1) + (op == "-"))
    return compile_node(parse(text))


def tree_of(fn) -> Node:
    """The tree a compiled expression was made of (:func:`compile_node`)."""
    kind = type(fn)
    if kind is str:
        return _tuple(Sym, (fn, 0, len(fn)))
    if kind is Plus:
        return fn.tree()
    owner = fn.__self__  # (a bound method)
    kind = type(owner)
    return owner if kind is Num or kind is PC or kind is Sym else owner.tree()


def constant_of(fn) -> int | None:
    """The value of a compiled expression that is a number, else None."""
    return fn.__self__.value if type(fn) is MethodType and type(fn.__self__) is Num else None


class _Lookup(tuple):
    """(key, Sym node): a symbol whose key is not its name (longer than 8 characters)."""

    __slots__ = ()

    def value(self, v, pc, loc):
        try:
            return v[self[0]]
        except KeyError:
            raise Unknown(self[1], self[0]) from None

    def tree(self) -> Node:
        return self[1]


class _LookupPlus(tuple):
    """(key, n, Sym node, tree): ``symbol+n`` / ``symbol-n`` (n negative) written with blanks."""

    __slots__ = ()

    def value(self, v, pc, loc):
        try:
            return (v[self[0]] + self[1]) & MAX
        except KeyError:
            raise Unknown(self[2], self[0]) from None

    def tree(self) -> Node:
        return self[3]


class Plus:
    """``symbol+n`` / ``symbol-n`` (n negative) written without blanks, the symbol's name its key (``table+2``:
    the commonest expression but a symbol): the key, n and ``form`` (2 * the number's
    length, + 1 for '-').  It keeps no tree (a Chain, its tuples, a Sym and a Num would take several times
    its memory); the tree is made when first asked for (convert, an error), then kept (convert tells nodes by identity)."""

    __slots__ = ("key", "n", "form", "made")

    def __init__(self, key: str, n: int, form: int):
        self.key, self.n, self.form = key, n, form
        self.made: Node | None = None

    def __call__(self, v, pc, loc):
        try:
            return (v[self.key] + self.n) & MAX
        except KeyError:
            raise Unknown(self.tree().first, self.key) from None

    def tree(self) -> Node:
        if self.made is None:
            name, n, form = self.key, self.n, self.form
            length = len(name)
            op = "-" if form & 1 else "+"
            operand = _tuple(Num, (-n if form & 1 else n, length + 1, form >> 1))
            self.made = _tuple(Chain, (_tuple(Sym, (name, 0, length)), ((op, length, operand),)))
        return self.made


class _Local(tuple):
    """(stem, Sym node): ``.name``, the label ``name`` of the macro call being run (``:00`` outside any call)."""

    __slots__ = ()

    def value(self, v, pc, loc):
        key = self[0] + (loc or ":00")
        try:
            return v[key]
        except KeyError:
            raise Unknown(self[1], key) from None

    def tree(self) -> Node:
        return self[1]


class PlusConstant(tuple):
    """(compiled first operand, n, tree): ``first + n``."""

    __slots__ = ()

    def value(self, v, pc, loc):
        return (self[0](v, pc, loc) + self[1]) & MAX

    def tree(self) -> Node:
        return self[2]


class _Sum(tuple):
    """(compiled left operand, compiled right operand, tree): ``left + right``."""

    __slots__ = ()

    def value(self, v, pc, loc):
        return (self[0](v, pc, loc) + self[1](v, pc, loc)) & MAX

    def tree(self) -> Node:
        return self[2]


class _Difference(tuple):
    """(compiled left operand, compiled right operand, tree): ``left - right``."""

    __slots__ = ()

    def value(self, v, pc, loc):
        return (self[0](v, pc, loc) - self[1](v, pc, loc)) & MAX

    def tree(self) -> Node:
        return self[2]


class _Negated(tuple):
    """(compiled operand, tree): ``-operand``."""

    __slots__ = ()

    def value(self, v, pc, loc):
        return -self[0](v, pc, loc) & MAX

    def tree(self) -> Node:
        return self[1]


class _Chain(tuple):
    """(compiled first operand, ((operator, offset, compiled operand), ...), tree): strictly left to right."""

    __slots__ = ()

    def value(self, v, pc, loc):
        value = self[0](v, pc, loc)
        for op, offset, f in self[1]:
            value = apply(op, value, f(v, pc, loc), offset)
        return value

    def tree(self) -> Node:
        return self[2]


def evaluate(text: str, values: dict | None = None, pc: int = 0) -> int:
    """The value of an expression text (for -D values and tests); raises ExprError or Unknown."""
    return value_of(compile_node(parse(text)), values or {}, pc, None)


# -- left to right against the usual precedence ----------------------------------------
#
# Profi-Ass has no operator precedence; most other languages (C, 64tass, ACME) bind '*' '/' before '+' '-',
# those before the shifts, then '&', '^', '!' (C's order).  A chain whose operators do not come in an order of
# falling precedence reads differently there: the assembler warns where the two readings give different values.

PRECEDENCE = {"*": 5, "/": 5, "+": 4, "-": 4, "<": 3, ">": 3, "&": 2, "^": 1, "!": 0}


def _mixed_chain(node: Chain) -> bool:
    """Whether the usual precedence groups this chain (itself, not its operands) otherwise than left to right:
    an operator binds tighter than one before it."""
    highest = -1
    lowest = 99
    for op, _, _ in node.rest:
        level = PRECEDENCE[op]
        if level > lowest:
            return True
        highest, lowest = max(highest, level), min(lowest, level)
    return False


def is_mixed(node: Node) -> bool:
    """Whether the tree holds a chain that the usual precedence would group otherwise (``a+b*c``)."""
    kind = type(node)
    if kind is Neg:
        return is_mixed(node.operand)
    if kind is Chain:
        return _mixed_chain(node) or is_mixed(node.first) or any(is_mixed(operand) for _, _, operand in node.rest)
    return False


def usual_value(node: Node, v: dict, pc: int, loc: str | None) -> int:
    """The value of a tree read with the usual precedence (every chain in it); raises as evaluation does."""
    kind = type(node)
    if kind is not Chain:
        if kind is Neg:
            return -usual_value(node.operand, v, pc, loc) & MAX
        return value_of(_compile(node), v, pc, loc)
    values = [usual_value(node.first, v, pc, loc)]
    ops: list[tuple[str, int]] = []
    for op, offset, operand in node.rest:
        while ops and PRECEDENCE[ops[-1][0]] >= PRECEDENCE[op]:
            top, at = ops.pop()
            right = values.pop()
            values.append(apply(top, values.pop(), right, at))
        ops.append((op, offset))
        values.append(usual_value(operand, v, pc, loc))
    while ops:
        top, at = ops.pop()
        right = values.pop()
        values.append(apply(top, values.pop(), right, at))
    return values[0]


def extent(node: Node) -> tuple[int, int]:
    """(start, end) of a tree's own text in its expression (a bracketed operand: without its brackets)."""
    kind = type(node)
    if kind is Num or kind is Sym:
        return node.offset, node.offset + node.length
    if kind is PC:
        return node.offset, node.offset + 1
    if kind is Neg:
        return node.offset, extent(node.operand)[1]
    return extent(node.first)[0], extent(node.rest[-1][2])[1]


def whole_extent(node: Node, text: str) -> tuple[int, int]:
    """(start, end) of a whole expression's text, with the closing brackets of the groups it opens."""
    start, end = extent(node)
    unclosed = sum(text.count(c, start, end) for c in "([") - sum(text.count(c, start, end) for c in ")]")
    while unclosed > 0 and end < len(text):
        unclosed -= text[end] in ")]"
        end += 1
    return start, end


def written(node: Node, text: str, usual: bool = False) -> str:
    """The tree as Profi-Ass text with ``[ ]`` wherever a group needs them: read left to right (as the
    assembler reads it), or, *usual*, grouped as the usual precedence would (``$0400+[12*40]``)."""
    kind = type(node)
    if kind is Neg:
        inner = written(node.operand, text, usual)
        return "-" + (f"[{inner}]" if type(node.operand) is Chain else inner)
    if kind is not Chain:
        start, end = extent(node)
        return text[start:end]

    def operand(n: Node) -> str:
        return f"[{written(n, text, usual)}]" if type(n) is Chain else written(n, text, usual)

    if not usual:  # (the part so far in brackets where an operator after it binds tighter than its last)
        out, last = operand(node.first), 9
        for op, _, right in node.rest:
            level = PRECEDENCE[op]
            out, last = (f"[{out}]" if last < level else out) + op + operand(right), level
        return out
    # the usual grouping: (text, level of its operator, 9 for an operand) on a stack, as usual_value evaluates
    items: list[tuple[str, int]] = [(operand(node.first), 9)]
    ops: list[str] = []

    def reduce() -> None:
        op = ops.pop()
        right, right_level = items.pop()
        left, left_level = items.pop()
        # (read left to right, the left part is done first anyway: only a right operand of operators needs brackets)
        items.append((left + op + (f"[{right}]" if right_level != 9 else right), PRECEDENCE[op]))

    for op, _, right in node.rest:
        while ops and PRECEDENCE[ops[-1]] >= PRECEDENCE[op]:
            reduce()
        ops.append(op)
        items.append((operand(right), 9))
    while ops:
        reduce()
    return items[0][0]
