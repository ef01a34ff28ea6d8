"""Profi-Ass expressions rewritten for a target assembler, computing the same value.

Profi-Ass evaluates a chain strictly left to right and every operator wraps to
16 bits (asm6502/asm/expr.py).  The targets have C-like precedence and
integers wider than 16 bits.  So the rewrite

* brackets the left-hand side of an operator when the target would bind the
  operator tighter than the chain so far (``2+3*4`` -> ``(2+3)*4``), and a
  bracketed or negated right-hand side when it would bind looser or equal;
* wraps a step in ``& $ffff`` where its exact value differs from the 16-bit
  one (``$ffff+2``, ``0-1``, ``-x``, ``1<8`` of a large value); a shift by 16
  or more is written as its value, 0.  Which steps need it is decided
  with the values the statement has in this assembly (the converter writes
  the program as it ran, so every statement is written with its own values);
  after each step the value is back in 0..$FFFF, so ``/`` and ``>>`` see the
  same operands as in Profi-Ass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from asm6502.asm import expr as ex
from asm6502.convert.targets import ATOM, CHAR_SAFE, UNARY, Target

WRAP_PRECEDENCE = 3  # '&'


class Text(NamedTuple):
    text: str
    precedence: int
    value: int  # the Profi-Ass value (0..$FFFF)


@dataclass
class Scope:
    """What an expression is written in: the target, the symbol values at this statement,
    the program counter, the macro call (``local``) and the symbol namer."""

    target: Target
    values: dict
    pc: int
    local: str | None
    name_of: Callable[[str], str]  # symbol key -> the name written
    used: Callable[[str], None]  # told every symbol key referenced
    wrap: frozenset = frozenset()  # steps wrapped to 16 bits whatever their values (a loop's rounds written as one text)
    needed: set | None = None  # collects the steps that needed the wrap here (see Writer.loop)


def number(token: str, value: int) -> str:
    """A number as written in the source where the targets read it the same way."""
    first = token[:1]
    if first == '"':
        ch = token[1:2]
        return f"'{ch}'" if ch in CHAR_SAFE else f"${value:02x}"
    if first in "$%" and token[1:] and int(token[1:], 16 if first == "$" else 2) == value:  # ('$' alone is 0 in Profi-Ass)
        # a byte value keeps at most a byte's digits: ACME takes '$00fd' as a 16-bit value
        # (absolute, and out of range in '(zp),y'); Profi-Ass takes it as $FD (zero page)
        return token if value > 0xFF else first + token[1:][-(2 if first == "$" else 8) :]
    if first.isdigit() and int(token) == value:
        return token
    return f"${value:x}"


def bracket(t: Text) -> str:
    return t.text if t.precedence == ATOM else f"({t.text})"


def rewrite(node: ex.Node, text: str, base: int, scope: Scope) -> Text:
    """``node`` was parsed from ``text[base:]`` (its offsets count from ``base``)."""
    kind = type(node)
    if kind is ex.Number:
        token = text[base + node.offset : base + node.offset + node.length]
        return Text(number(token, node.value), ATOM, node.value)
    if kind is ex.Symbol or kind is ex.Local:
        key = ex.symbol_key(node, scope.local)
        scope.used(key)
        return Text(scope.name_of(key), ATOM, scope.values[key])
    if kind is ex.Counter:
        return Text("*", ATOM, scope.pc)
    if kind is ex.Negate:
        inner = rewrite(node.operand, text, base, scope)
        shown = f"-{inner.text}" if inner.precedence == ATOM else f"-({inner.text})"  # ('--' is an anonymous label in 64tass)
        value = -inner.value & ex.MAX
        if inner.value == 0 and id(node) not in scope.wrap:  # (bracketed: 64tass reads '#-...' as a signed byte)
            return Text(f"({shown})", ATOM, 0)
        if scope.needed is not None:
            scope.needed.add(id(node))
        return Text(f"({shown}) & $ffff", WRAP_PRECEDENCE, value)
    left = rewrite(node.first, text, base, scope)
    for step, (op, offset, operand) in enumerate(node.rest):
        right = rewrite(operand, text, base, scope)
        precedence, token = scope.target.operator(op)
        left_text = left.text if left.precedence >= precedence else f"({left.text})"
        right_text = right.text if right.precedence > precedence else f"({right.text})"
        value = ex.apply(op, left.value, right.value, offset)
        if op in "<>" and right.value >= 16:  # all bits shifted out: 0 (ACME's 64-bit shifts go wrong from 64 on)
            left = Text("0", ATOM, 0)
            continue
        joined = f"{left_text} {token.strip()} {right_text}"  # (blanks: '**' is a power in 64tass)
        if exact(op, left.value, right.value) != value and scope.needed is not None:
            scope.needed.add((id(node), step))
        if exact(op, left.value, right.value) != value or (id(node), step) in scope.wrap:
            left = Text(f"({joined}) & $ffff", WRAP_PRECEDENCE, value)
        else:
            left = Text(joined, precedence, value)
    return left


def exact(op: str, left: int, right: int) -> int:
    """The operator as the targets compute it on integers (no 16-bit wrap)."""
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return left // right
    if op == "<":
        return left << right  # (right < 16: see rewrite)
    return ex.apply(op, left, right, 0)  # | & ^ >> never leave 0..$FFFF


def low_byte(t: Text) -> Text:
    """``<expr``: the low byte (both targets)."""
    return Text(f"<{bracket(t)}", UNARY, t.value & 0xFF)


def high_byte(t: Text) -> Text:
    return Text(f">{bracket(t)}", UNARY, t.value >> 8)
