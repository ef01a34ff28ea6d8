"""Profi-Ass 64 expressions: parsed once into a tree of plain nodes, read by one evaluator.

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

The tree: :class:`Number`, :class:`Symbol`, :class:`Local` (``.name``), :class:`Counter` (``*``),
:class:`Negate`, :class:`Chain` (operands joined by operators, read left to right: a bracketed group is
an operand) and, for a macro argument written ``<e`` or ``>e``, :class:`LowByte` / :class:`HighByte`.
Offsets count from the start of the expression's text.  :func:`value` computes a tree's value
``(values, pc, local)``: ``values`` maps symbol keys to values, ``local`` is the suffix of the current
macro call (``":01"``).  A symbol missing from ``values`` raises :class:`Unknown` -- a forward reference in
pass 1, an undefined symbol in pass 2.  The encoder, the listing, ``convert`` and the left-to-right
warning all read these trees.
"""

from __future__ import annotations

from asm6502.petscii import ascii_to_petscii, brace_code
from asm6502.tuples import SlotRecord

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
    """A symbol without a value (yet): ``key`` as looked up, ``node`` the Symbol or Local."""

    def __init__(self, node: Symbol | Local, key: str):
        super().__init__(key)
        self.node = node
        self.key = key


def key_of(name: str) -> str:
    """The symbol-table key of a global symbol: case folded, 8 significant characters."""
    return name.lower()[:SIGNIFICANT]


def local_key(name: str, local: str) -> str:
    """The key of macro-local label ``name`` (without its dot) in the call ``local`` (":01")."""
    return name.lower()[:LOCAL_SIGNIFICANT] + local


# -- the tree ----------------------------------------------------------------------


class Number(SlotRecord):
    """A number or character constant as written (``length`` characters at ``offset``)."""

    __slots__ = ("value", "offset", "length")

    def __init__(self, value: int, offset: int, length: int) -> None:
        self.value = value
        self.offset = offset
        self.length = length


class Symbol(SlotRecord):
    """A symbol: ``name`` in lower case as written, ``key`` its symbol-table key (the first 8 characters)."""

    __slots__ = ("name", "key", "offset", "length")

    def __init__(self, name: str, key: str, offset: int, length: int) -> None:
        self.name = name
        self.key = key
        self.offset = offset
        self.length = length


class Local(SlotRecord):
    """``.name``, the label ``name`` of the macro call being run (``:00`` outside any call): ``name`` keeps its
    dot, ``stem`` is the key's part before the call's suffix (6 characters count)."""

    __slots__ = ("name", "stem", "offset", "length")

    def __init__(self, name: str, stem: str, offset: int, length: int) -> None:
        self.name = name
        self.stem = stem
        self.offset = offset
        self.length = length


class Counter(SlotRecord):
    """``*``, the program counter."""

    __slots__ = ("offset",)

    def __init__(self, offset: int) -> None:
        self.offset = offset


class Negate(SlotRecord):
    """``-operand`` (the minus at ``offset``)."""

    __slots__ = ("operand", "offset")

    def __init__(self, operand: Node, offset: int) -> None:
        self.operand = operand
        self.offset = offset


class Chain(SlotRecord):
    """``first op1 t1 op2 t2 ...`` read strictly left to right: ``rest`` holds (operator, its offset, operand)."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Node, rest: tuple[tuple[str, int, Node], ...]) -> None:
        self.first = first
        self.rest = rest


class LowByte(SlotRecord):
    """``<e`` as a macro argument: the low byte of ``operand``'s value."""

    __slots__ = ("operand",)

    def __init__(self, operand: Node) -> None:
        self.operand = operand


class HighByte(SlotRecord):
    """``>e`` as a macro argument: the high byte of ``operand``'s value."""

    __slots__ = ("operand",)

    def __init__(self, operand: Node) -> None:
        self.operand = operand


Node = Number | Symbol | Local | Counter | Negate | Chain | LowByte | HighByte


def value(node: Node, values: dict, pc: int, local: str | None) -> int:
    """The value of a tree, its chains read left to right; raises Unknown for a symbol without a value and
    ExprError for a value out of range (division by zero, a multiplication's carry)."""
    kind = type(node)
    if kind is Symbol:
        try:
            return values[node.key]  # type: ignore[union-attr]
        except KeyError:
            raise Unknown(node, node.key) from None  # type: ignore[arg-type, union-attr]
    if kind is Number:
        return node.value  # type: ignore[union-attr]
    if kind is Chain:
        result = value(node.first, values, pc, local)  # type: ignore[union-attr]
        for op, offset, operand in node.rest:  # type: ignore[union-attr]
            result = apply(op, result, value(operand, values, pc, local), offset)
        return result
    if kind is Counter:
        return pc
    if kind is Local:
        key = node.stem + (local or ":00")  # type: ignore[union-attr]
        try:
            return values[key]
        except KeyError:
            raise Unknown(node, key) from None  # type: ignore[arg-type]
    if kind is Negate:
        return -value(node.operand, values, pc, local) & MAX  # type: ignore[union-attr]
    if kind is LowByte:
        return value(node.operand, values, pc, local) & 0xFF  # type: ignore[union-attr]
    if kind is HighByte:
        return value(node.operand, values, pc, local) >> 8  # type: ignore[union-attr]
    raise TypeError(f"no expression: {node!r}")


def evaluate(text: str, values: dict | None = None, pc: int = 0) -> int:
    """The value of an expression text (for -D values and tests); raises ExprError or Unknown."""
    return value(parse(text), values or {}, pc, None)


def walk(node: Node):
    """Every node of a tree, the tree first."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        kind = type(node)
        if kind is Chain:
            stack.extend(operand for _, _, operand in reversed(node.rest))  # type: ignore[union-attr]
            stack.append(node.first)  # type: ignore[union-attr]
        elif kind is Negate or kind is LowByte or kind is HighByte:
            stack.append(node.operand)  # type: ignore[union-attr]


def symbol_key(node: Symbol | Local, local: str | None) -> str:
    """The key a symbol or macro-local label is looked up by in the macro call ``local``."""
    return node.key if type(node) is Symbol else node.stem + (local or ":00")  # type: ignore[union-attr]


def shown_char(ch: str) -> str:
    """A character for a message: 'x', or its code when it would not show (a form feed, $85 ...)."""
    return f"'{ch}'" if ch.isprintable() else f"character U+{ord(ch):04X}"


# -- the parser --------------------------------------------------------------------

# Brackets and minus signs nest at most this deep: a line typed on the C64 holds fewer than 80
# keys (the screen editor's limit), so no real source comes near it; deeper is an error, not a
# Python recursion.
MAX_NESTING = 80

_BLANKS = " \t"
_DECIMAL = "0123456789"
_HEX = "0123456789abcdefABCDEF"


def _symbol(name: str, start: int, shared: dict | None) -> Symbol | Local:
    """The node of a name read at ``start`` (lower case; a local keeps its dot).  ``shared``: a name -> its one
    Symbol at offset 0, which a symbol at the start of an expression is (and whose key every other Symbol of the
    name takes: the symbol table's own string)."""
    if name[0] == ".":
        return Local(name, name[1 : 1 + LOCAL_SIGNIFICANT], start, len(name))
    if shared is None:
        return Symbol(name, name[:SIGNIFICANT], start, len(name))
    node = shared.get(name)
    if node is None:
        node = shared[name] = Symbol(name, name[:SIGNIFICANT], 0, len(name))
    return node if start == 0 else Symbol(node.name, node.key, start, node.length)


class _Parser:
    __slots__ = ("text", "pos", "depth", "shared")

    def __init__(self, text: str, shared: dict | None):
        self.text = text
        self.pos = 0
        self.depth = 0
        self.shared = shared

    def nested(self, start: int) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise ExprError(f"expression nested more than {MAX_NESTING} deep (brackets or minus signs) [SYNTAX 5]", start)

    def peek(self) -> str:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _BLANKS:
            pos += 1
        self.pos = pos
        return text[pos] if pos < len(text) else ""

    def chain(self) -> Node:
        text = self.text
        first = self.term()
        rest = []
        pos = self.pos
        while True:
            while pos < len(text) and text[pos] in _BLANKS:
                pos += 1
            if pos == len(text) or text[pos] not in OPERATORS:
                break
            self.pos = pos + 1
            rest.append((text[pos], pos, self.term()))
            pos = self.pos
        self.pos = pos
        return Chain(first, tuple(rest)) if rest else first

    def term(self) -> Node:
        ch = self.peek()
        text = self.text
        start = self.pos
        if not ch:
            raise ExprError("expression expected [SYNTAX 5]", start)
        if ch in SYMBOL_START or (ch == "." and text[start + 1 : start + 2] in tuple(SYMBOL_START)):
            after = text[start + 1 :]
            pos = len(text) - len(after.lstrip(SYMBOL_CHARS))  # (the name's characters)
            self.pos = pos
            return _symbol(text[start:pos].lower(), start, self.shared)
        if ch in _DECIMAL:
            return self.number(10, _DECIMAL, "decimal")
        if ch == "$":
            return self.number(16, _HEX, "hex")
        if ch == "%":
            return self.number(2, "01", "binary")
        if ch == "-":
            self.pos += 1
            self.nested(start)
            node = Negate(self.term(), start)
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
            if text[self.pos : self.pos + 1].isalnum():
                raise ExprError("an operator is expected after '*' (the program counter) [SYNTAX 5]", self.pos)
            return Counter(start)
        if ch == '"':
            return self.character(start)
        raise ExprError(f"unexpected character {shown_char(ch)} in expression [SYNTAX 5]", start)

    def character(self, start: int) -> Number:
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
            return Number(braced[0], start, end - start + 1)
        try:
            code = ascii_to_petscii(ch)[0]
        except ValueError as exc:
            raise ExprError(str(exc), start + 1) from None
        return Number(code, start, end - start + 1)

    def number(self, base: int, digits: str, kind: str) -> Number:
        text = self.text
        start = self.pos
        first_digit = start if base == 10 else start + 1
        pos = len(text) - len(text[first_digit:].lstrip(digits))  # (the digits)
        self.pos = pos
        if pos == first_digit:  # '$' or '%' alone is 0 on the original ('sty $' = 84 00: rules/number_no_digits_*)
            return Number(0, start, pos - start)
        if pos < len(text) and text[pos] in SYMBOL_CHARS:
            raise ExprError(f"invalid {kind} number (an operator is expected after it) [SYNTAX 3]", start, pos - start + 1)
        written = text[first_digit:pos]
        # hex and binary digits beyond 16 bits wrap silently, as in the original ($12345 is $2345)
        value = decimal(written) if base == 10 else int(written, base) & MAX
        if value > MAX:
            raise ExprError(f"number {text[start:pos]} does not fit in 16 bits [ILLEGAL QUANTITY]", start, pos - start)
        return Number(value, start, pos - start)


def decimal(digits: str) -> int:
    """A decimal number; one of more than 6 digits (leading zeros aside) is only "too large":
    MAX + 1 (Python refuses to convert decimal texts of more than 4,300 digits at all)."""
    return int(digits) if len(digits.lstrip("0")) <= 6 else MAX + 1


def parse(text: str, shared: dict | None = None) -> Node:
    """Parse a whole expression; trailing text is an error.  ``shared`` (a name -> its Symbol at offset 0): the
    Symbols that trees share (see _symbol)."""
    if text.isalnum() and text.isascii() and text[0].isalpha():  # (a name alone, the commonest: read as the parser would)
        return _symbol(text.lower(), 0, shared)
    parser = _Parser(text, shared)
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
            digit = "5" if before in ' \t"' and ch.isalnum() and len(junk.rstrip()) == 1 else "3"
        if any(type(n) is Local for n in walk(node)):  # (outside a macro the original complains of the label first: layout.LOCAL_JUNK)
            raise ExprError(f"unexpected {shown_char(ch)} after an expression with a macro-local label [SYNTAX {digit}]", parser.pos)
        raise ExprError(f"unexpected {shown_char(ch)} after expression [SYNTAX {digit}]", parser.pos)
    return node


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
