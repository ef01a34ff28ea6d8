"""Left to right against the usual precedence: where a Profi-Ass expression would read otherwise elsewhere.

Profi-Ass has no operator precedence (expr.py); most other languages (C, 64tass, ACME) bind ``*`` ``/``
before ``+`` ``-``, those before the shifts, then ``&``, ``^``, ``!`` (C's order).  A chain whose operators
do not come in an order of falling precedence reads differently there: the decoder notes such trees
(:func:`is_mixed`), and the assembler warns where the two readings give different values
(:func:`usual_value`), with each reading written out in ``[ ]`` (:func:`written`).
"""

from __future__ import annotations

from asm6502.asm.expr import MAX, Chain, Counter, Local, Negate, Node, Number, Symbol, apply, value, walk

PRECEDENCE = {"*": 5, "/": 5, "+": 4, "-": 4, "<": 3, ">": 3, "&": 2, "^": 1, "!": 0}


def _mixed_chain(node: Chain) -> bool:
    """Whether the usual precedence groups this chain (itself, not its operands) otherwise than left to right:
    an operator binds tighter than one before it."""
    lowest = 99
    for op, _, _ in node.rest:
        level = PRECEDENCE[op]
        if level > lowest:
            return True
        lowest = min(lowest, level)
    return False


def is_mixed(node: Node) -> bool:
    """Whether the tree holds a chain that the usual precedence would group otherwise (``a+b*c``)."""
    return any(type(n) is Chain and _mixed_chain(n) for n in walk(node))  # type: ignore[arg-type]


def usual_value(node: Node, v: dict, pc: int, loc: str | None) -> int:
    """The value of a tree read with the usual precedence (every chain in it); raises as evaluation does."""
    kind = type(node)
    if kind is not Chain:
        if kind is Negate:
            return -usual_value(node.operand, v, pc, loc) & MAX
        return value(node, v, pc, loc)
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
    if kind is Number or kind is Symbol or kind is Local:
        return node.offset, node.offset + node.length
    if kind is Counter:
        return node.offset, node.offset + 1
    if kind is Negate:
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
    if kind is Negate:
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
