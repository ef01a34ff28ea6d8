"""Profi-Ass 64 expressions.

Profi-Ass evaluates strictly left to right with no operator precedence
(``2+3*4`` is 20); ``( )`` and ``[ ]`` group.  Values are 16-bit: ``+``/``-``
and unary minus wrap modulo 65536, while overflow in ``*`` and ``<`` (shift
left) and division by zero are errors.  (Profi-Ass 64 V2.0 manual, Data Becker
1984, as summarised in issue 2.)

Operators: ``+ - * / ! & ^ > <`` = add, subtract, multiply, divide, or, and,
xor (the C64's up-arrow), shift right, shift left.
Operands: decimal, ``$hex``, ``%binary``, ``"c"`` (a character's PETSCII
code), ``*`` (the program counter) and symbols.

Parsing builds a tiny tree once; :func:`evaluate` runs it in each pass.
A symbol whose value is not known yet (a forward reference in pass 1)
makes the result ``None``; the caller decides whether that is an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from asm6502.petscii_text import ascii_to_petscii

MAX = 0xFFFF
OPERATORS = "+-*/!&^><"
SYMBOL_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
SYMBOL_CHARS = SYMBOL_START + "0123456789."


class ExprError(Exception):
    """A syntax or range error at ``offset`` (0-based, in the parsed text)."""

    def __init__(self, message: str, offset: int, length: int = 1):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = max(1, length)


# The tree's nodes are named tuples: a large program has tens of thousands of them.


class Num(NamedTuple):
    value: int
    offset: int
    length: int


class Sym(NamedTuple):
    name: str  # lower case
    offset: int
    length: int


class PC(NamedTuple):
    offset: int


class Neg(NamedTuple):
    operand: "Node"
    offset: int


class Chain(NamedTuple):
    """``first op1 t1 op2 t2 ...`` evaluated strictly left to right."""

    first: "Node"
    rest: tuple[tuple[str, int, "Node"], ...]  # (operator, offset, operand)


Node = Num | Sym | PC | Neg | Chain


def _closing(ch: str) -> str:
    return ")" if ch == "(" else "]"


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

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
            raise ExprError("expression expected", start)
        if ch == "-":
            self.pos += 1
            return Neg(self.term(), start)
        if ch in "([":
            self.pos += 1
            inner = self.chain()
            if self.peek() != _closing(ch):
                raise ExprError(f"'{_closing(ch)}' expected", self.pos)
            self.pos += 1
            return inner
        if ch == "*":
            self.pos += 1
            return PC(start)
        if ch == "$":
            return self.number(16, "0123456789abcdefABCDEF", "hex")
        if ch == "%":
            return self.number(2, "01", "binary")
        if ch in "0123456789":
            return self.number(10, "0123456789", "decimal")
        if ch == '"':
            end = self.text.find('"', start + 1)
            if end == -1:
                raise ExprError("unterminated character constant", start, len(self.text) - start)
            body = self.text[start + 1 : end]
            if len(body) != 1:
                raise ExprError("a character constant holds exactly one character", start, end - start + 1)
            self.pos = end + 1
            try:
                code = ascii_to_petscii(body)[0]
            except ValueError as exc:
                raise ExprError(str(exc), start + 1) from None
            return Num(code, start, end - start + 1)
        if ch in SYMBOL_START:
            while self.pos < len(self.text) and self.text[self.pos] in SYMBOL_CHARS:
                self.pos += 1
            return Sym(self.text[start : self.pos].lower(), start, self.pos - start)
        raise ExprError(f"unexpected character '{ch}' in expression", start)

    def number(self, base: int, digits: str, kind: str) -> Num:
        start = self.pos
        if base != 10:
            self.pos += 1
        first_digit = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in digits:
            self.pos += 1
        if self.pos == first_digit:
            raise ExprError(f"{kind} digits expected", start)
        if self.pos < len(self.text) and self.text[self.pos] in SYMBOL_CHARS:
            raise ExprError(f"invalid {kind} number", start, self.pos - start + 1)
        digits = self.text[first_digit : self.pos]
        value = decimal(digits) if base == 10 else int(digits, base)
        if value > MAX:
            raise ExprError(f"number {self.text[start:self.pos]} does not fit in 16 bits", start, self.pos - start)
        return Num(value, start, self.pos - start)


# Most expressions are one number or symbol, or numbers and symbols joined by
# operators without blanks ('loop', '$d020', 'table+2', 'a*8+b'): those are read
# with regular expressions; the rest (blanks, brackets, unary minus, '*',
# character constants, errors) by the parser.  Both give the same tree:
# tests/test_expr.py checks that.
ATOM_TEXT = r"\$[0-9A-Fa-f]+|%[01]+|[0-9]+|[A-Za-z][A-Za-z0-9.]*"  # a number or a symbol
_ONE_ATOM = re.compile(r"(?:\$([0-9A-Fa-f]+)|([0-9]+)|([A-Za-z][A-Za-z0-9.]*))\Z")
SIMPLE_TEXT = rf"(?:{ATOM_TEXT})(?:[-+*/!&^<>](?:{ATOM_TEXT}))*"  # what _parse_simple reads (for other patterns)
CHAIN_PARTS = re.compile(rf"{ATOM_TEXT}|[-+*/!&^<>]")  # the atoms and operators of SIMPLE_TEXT
_CHAIN = re.compile(rf"(?:{ATOM_TEXT})(?:[-+*/!&^<>](?:{ATOM_TEXT}))+\Z")


def number_value(token: str) -> int | None:
    """The value of a number token ($hex, %binary, decimal); None for a symbol."""
    first = token[0]
    if first == "$":
        return int(token[1:], 16)
    if first == "%":
        return int(token[1:], 2)
    if first <= "9":
        return decimal(token)
    return None


def decimal(digits: str) -> int:
    """A decimal number; one of more than 6 digits (leading zeros aside) is only "too large":
    MAX + 1 (Python refuses to convert decimal texts of more than 4,300 digits at all)."""
    return int(digits) if len(digits.lstrip("0")) <= 6 else MAX + 1


def _atom(token: str, offset: int) -> Num | Sym | None:
    """A number or symbol token; None for a number too large (the parser reports it)."""
    value = number_value(token)
    if value is None:
        return Sym(token.lower(), offset, len(token))
    return Num(value, offset, len(token)) if value <= MAX else None


def _parse_simple(text: str) -> Node | None:
    """The tree of a number, a symbol, or numbers and symbols joined by operators; None for other text."""
    m = _ONE_ATOM.match(text)
    if m is not None:
        hex_digits, decimal_digits, name = m.groups()
        if name is not None:
            return Sym(name.lower(), 0, len(text))
        value = int(hex_digits, 16) if hex_digits is not None else decimal(decimal_digits)
        return Num(value, 0, len(text)) if value <= MAX else None
    if _CHAIN.match(text) is None:
        return None
    parts = CHAIN_PARTS.findall(text)  # atom, operator, atom, ...: no blanks, so offsets add up
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
    node = _parse_simple(text)
    if node is not None:
        return node
    parser = _Parser(text)
    node = parser.chain()
    if parser.peek():
        raise ExprError(f"unexpected '{parser.peek()}' after expression", parser.pos)
    return node


def parse_prefix(text: str, pos: int = 0) -> tuple[Node, int]:
    """Parse an expression starting at ``pos`` and stop at the first character that cannot continue it.

    Returns the tree and the offset just after it (used for ``expr,x`` operands and comma lists).
    """
    parser = _Parser(text)
    parser.pos = pos
    node = parser.chain()
    parser.skip()
    return node, parser.pos


Lookup = Callable[[str, int, int], int | None]


def apply(op: str, left: int, right: int, offset: int) -> int:
    """One Profi-Ass operator on two 16-bit values."""
    if op == "+":
        return (left + right) & MAX
    if op == "-":
        return (left - right) & MAX
    if op == "*":
        result = left * right
        if result > MAX:
            raise ExprError(f"overflow: {left} * {right} = {result} does not fit in 16 bits", offset)
        return result
    if op == "/":
        if right == 0:
            raise ExprError("division by zero", offset)
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
        result = left << right if right < 17 else (0 if left == 0 else MAX + 1)
        if result > MAX:
            raise ExprError(f"overflow: {left} shifted left by {right} does not fit in 16 bits", offset)
        return result
    raise AssertionError(op)


def with_prefix(value: int | None, prefix: str) -> int | None:
    """An operand's value after its prefix: ``<`` low byte, ``>`` high byte; ``!`` (absolute) keeps it."""
    if value is None or not prefix:
        return value
    return value & 0xFF if prefix == "<" else value >> 8 if prefix == ">" else value


def evaluate(node: Node, lookup: Lookup, pc: int) -> int | None:
    """Value of ``node``; ``None`` when a symbol is not known yet.

    ``lookup(name, offset, length)`` returns the symbol's value or ``None``
    and may raise :class:`ExprError` itself (e.g. undefined in the final pass).
    """
    kind = type(node)
    if kind is Sym:
        return lookup(node.name, node.offset, node.length)
    if kind is Num:
        return node.value
    if kind is Chain:
        value = evaluate(node.first, lookup, pc)
        for op, offset, operand in node.rest:
            right = evaluate(operand, lookup, pc)
            value = None if value is None or right is None else apply(op, value, right, offset)
        return value
    if kind is PC:
        return pc
    inner = evaluate(node.operand, lookup, pc)  # Neg
    return None if inner is None else (-inner) & MAX


def symbols_in(node: Node) -> list[Sym]:
    if isinstance(node, Sym):
        return [node]
    if isinstance(node, Neg):
        return symbols_in(node.operand)
    if isinstance(node, Chain):
        out = symbols_in(node.first)
        for _, _, operand in node.rest:
            out += symbols_in(operand)
        return out
    return []
