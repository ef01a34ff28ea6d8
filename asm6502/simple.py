"""Simple programs in one quick sweep, checked against the full assembler.

Most sources are plain lists of labels, ``name = value`` constants,
instructions with operands made of numbers and symbols, ``*=`` and
``.byt``/``.wor`` lists.  For a source made only of those, and when nothing
in it needs a diagnostic, :func:`assemble_simple` gives exactly the
:class:`~asm6502.assembler.Result` the full assembler gives (without a
listing), several times faster: one regular-expression scan reads every line
into a tuple, and both passes are tight loops over the tuples.  It returns
``None`` as soon as it meets anything else -- any other statement, or anything
the full assembler would report (an error or a warning) -- and
:func:`~asm6502.assembler.assemble` then runs the full assembler, which
reports it properly.  ``tests/test_simple.py`` checks that whenever this
module gives a result, it is the full assembler's.

The rules followed are the full assembler's (see ``assembler.py``): labels
fold case and keep 8 characters, expressions go strictly left to right in 16
bits, an operand not known in pass 1 is sized absolute, the start line
``sys...`` is skipped when it is the first line with code.
"""

from __future__ import annotations

import re

from asm6502.expr import CHAIN_PARTS, MAX, SIMPLE_TEXT, ExprError, apply, number_value, with_prefix
from asm6502.opcodes import BRANCHES, OPCODES, ZERO_PAGE_FORM, Mode
from asm6502.source import LINE_PARTS, MAX_LINE_NUMBER
from asm6502.statements import ABSOLUTE_FORM, SIGNIFICANT, START_LINE

_EXPR = SIMPLE_TEXT  # numbers and symbols joined by operators, no blanks
_WORD = re.compile(r"([A-Za-z][A-Za-z0-9.]*)(?:[ \t]+(.*))?\Z")
_DEFINITION = re.compile(rf"=[ \t]*({_EXPR})\Z")
_ORIGIN = re.compile(rf"\*[ \t]*=[ \t]*({_EXPR})\Z")
_DATA = re.compile(rf"\.(byt|wor)[A-Za-z]*[ \t]+([<>]?{_EXPR}(?:,[<>]?{_EXPR})*)\Z", re.IGNORECASE)
_OPERAND = re.compile(rf"(#?)([<>!]?)({_EXPR})(?:,([xXyY]))?\Z")
_INDIRECT = re.compile(rf"\(([<>!]?)({_EXPR})(?:(,[xX]\))|\)(,[yY])?)\Z")
_OPERANDLESS = frozenset(m for m, modes in OPCODES.items() if set(modes) <= {Mode.IMPLIED, Mode.ACCUMULATOR})


class _NotSimple(Exception):
    """The source leaves the simple subset, or needs a diagnostic: the full assembler takes over."""


# Expressions are tuples: (value,) a number; (key, name) a symbol; (first, ((op, operand), ...)) a chain.
# Statements are records (tuples), one a statement, the kind first:
#   ("origin", None, expr)                  *= expr
#   ("const", name, expr)                   name = expr
#   ("label", name)                         a label on its own
#   ("fixed", label, bytes)                 implied and accumulator instructions
#   ("immediate", label, opcode, prefix, expr)
#   ("branch", label, opcode, expr)
#   ("address", label, opcode, zero-page opcode, prefix, expr)    (an opcode of -1: no such mode)
#   ("indirect", label, opcode, is JMP (ind), prefix, expr)
#   ("data", label, is .wor, ((prefix, expr), ...))


def _expression(text: str) -> tuple:
    """The tuple of an expression already matched by _EXPR."""
    tokens = CHAIN_PARTS.findall(text)
    first = _atom(tokens[0])
    if len(tokens) == 1:
        return first
    return (first, tuple((tokens[i], _atom(tokens[i + 1])) for i in range(1, len(tokens), 2)))


def _atom(token: str) -> tuple:
    value = number_value(token)
    if value is None:
        name = token.lower()
        return (name[:SIGNIFICANT], name)
    if value > MAX:
        raise _NotSimple
    return (value,)


def _instruction(label: str | None, word: str, operand: str | None) -> tuple | None:
    """The record of an instruction (see above); None if ``word`` is no mnemonic."""
    mnemonic = word.upper()
    modes = OPCODES.get(mnemonic)
    if modes is None:
        return None
    if operand is None or (operand in ("a", "A") and Mode.ACCUMULATOR in modes):
        mode = Mode.IMPLIED if Mode.IMPLIED in modes else Mode.ACCUMULATOR
        if mode not in modes:
            raise _NotSimple
        return ("fixed", label, bytes((modes[mode],)))
    if mnemonic in _OPERANDLESS:
        raise _NotSimple
    m = _OPERAND.match(operand)
    if m is not None:
        immediate, prefix, expr, index = m.groups()
        value = _expression(expr)
        if immediate:
            if index or Mode.IMMEDIATE not in modes:
                raise _NotSimple
            return ("immediate", label, modes[Mode.IMMEDIATE], prefix, value)
        if mnemonic in BRANCHES:
            if index or prefix:
                raise _NotSimple
            return ("branch", label, modes[Mode.RELATIVE], value)
        absolute = ABSOLUTE_FORM[index.upper() if index else None]
        code = modes.get(absolute, -1)
        zp_code = modes.get(ZERO_PAGE_FORM[absolute], -1)
        if code < 0 and zp_code < 0:
            raise _NotSimple
        return ("address", label, code, zp_code, prefix, value)
    m = _INDIRECT.match(operand)
    if m is None:
        raise _NotSimple
    prefix, expr, x, y = m.groups()
    mode = Mode.INDEXED_INDIRECT if x else Mode.INDIRECT_INDEXED if y else Mode.INDIRECT
    if mode not in modes or (mode is Mode.INDIRECT and mnemonic != "JMP"):
        raise _NotSimple
    return ("indirect", label, modes[mode], mode is Mode.INDIRECT, prefix, _expression(expr))


def _statement(text: str) -> tuple:
    """One statement's record (see above); _NotSimple for anything else."""
    m = _WORD.match(text)
    if m is None:
        m = _ORIGIN.match(text)
        if m is not None:
            return ("origin", None, _expression(m.group(1)))
        m = _DATA.match(text)
        if m is not None:
            return _data(None, m)
        raise _NotSimple
    word, rest = m.groups()
    insn = _instruction(None, word, rest)
    if insn is not None:
        return insn
    if rest is None:
        return ("label", word)
    if rest[0] == "=":
        m = _DEFINITION.match(rest)
        if m is None:
            raise _NotSimple
        return ("const", word, _expression(m.group(1)))
    if rest[0] == ".":
        m = _DATA.match(rest)
        if m is None:
            raise _NotSimple
        return _data(word, m)
    m2 = _WORD.match(rest)
    if m2 is None:
        raise _NotSimple
    insn = _instruction(word, *m2.groups())
    if insn is None:
        raise _NotSimple
    return insn


def _data(label: str | None, m: re.Match) -> tuple:
    items = []
    for item in m.group(2).split(","):
        prefix = item[0] if item[0] in "<>" else ""
        items.append((prefix, _expression(item[len(prefix) :])))
    return ("data", label, m.group(1).lower() == "wor", tuple(items))


def _read(text: str) -> list[tuple]:
    records = []
    first_code = True
    lines = text.splitlines()
    for _, digits, rest in LINE_PARTS.findall("\n".join(lines)):
        if digits and (len(digits.lstrip("0")) > 5 or int(digits) > MAX_LINE_NUMBER):
            raise _NotSimple
        if ":" in rest or '"' in rest:
            raise _NotSimple
        body = rest.partition(";")[0].strip(" \t")
        if not body:
            continue  # an empty line or a comment
        if START_LINE.match(body):
            if not first_code:
                raise _NotSimple  # the start line must be the first line with code
            first_code = False
            continue  # (it counts as a statement: see assemble_simple)
        first_code = False
        records.append(_statement(body))
    return records


def assemble_simple(text: str, max_statements: int):
    """(chunks, values, kinds, spelling) as the full assembler's passes leave them; None when
    the source is not simple or needs a diagnostic."""
    try:
        records = _read(text)
        if len(records) + 1 > max_statements:  # (+1: a start line, if there was one)
            raise _NotSimple
        return _Passes(records).run()
    except _NotSimple:
        return None


class _Passes:
    """Both passes over the records, as the full assembler runs them (one loop, ``final`` False then True)."""

    def __init__(self, records: list[tuple]):
        self.records = records
        self.spelling: dict[str, str] = {}  # key -> first spelling
        self.kinds: dict[str, str] = {}
        self.previous: dict[str, int] = {}
        self.unknown: set[int] = set()  # records sized absolute for a value not known in pass 1

    def run(self):
        self.run_pass(final=False)
        self.previous = dict(self.values)
        self.run_pass(final=True)
        return self.chunks, self.values, self.kinds, self.spelling

    def value(self, expr: tuple) -> int | None:
        """An expression's value; None in pass 1 for a symbol not known yet."""
        if len(expr) == 1:
            return expr[0]
        first, rest = expr
        if type(first) is str:  # a symbol
            return self.symbol(first, rest)
        value = self.value(first)
        for op, operand in rest:
            right = self.value(operand)
            if value is None or right is None:
                value = None
            elif op == "+":
                value = (value + right) & MAX
            elif op == "-":
                value = (value - right) & MAX
            else:
                try:
                    value = apply(op, value, right, 0)
                except ExprError:
                    raise _NotSimple from None
        return value

    def operand(self, prefix: str, expr: tuple) -> int | None:
        """An operand's value after a < (low byte) or > (high byte) prefix; '!' changes nothing."""
        return with_prefix(self.value(expr), prefix)

    def symbol(self, key: str, name: str) -> int | None:
        if self.spelling.get(key, name) != name:
            raise _NotSimple  # the full assembler warns about the 8-character spelling
        value = self.values.get(key)
        if value is None and self.final:
            value = self.previous.get(key)
            if value is None:
                raise _NotSimple  # undefined
        return value

    def define(self, name: str, value: int | None, kind: str) -> None:
        full = name.lower()
        key = full[:SIGNIFICANT]
        if self.spelling.setdefault(key, full) != full or key in self.defined:
            raise _NotSimple  # another spelling of the same 8 characters (warned about), or a duplicate
        self.defined.add(key)
        self.kinds[key] = kind
        if value is not None:
            if self.final and self.previous.get(key, value) != value:
                raise _NotSimple  # phase error
            self.values[key] = value

    def run_pass(self, final: bool) -> None:
        self.final = final
        self.values: dict[str, int] = {}
        self.defined: set[str] = set()
        self.chunks: list[tuple[int, bytearray, None]] = []
        pc = None
        end = -1  # where the current chunk ends
        unknown = self.unknown
        for serial, record in enumerate(self.records):
            kind = record[0]
            if kind == "origin":
                pc = self.value(record[2])
                if pc is None:
                    raise _NotSimple
                continue
            if kind == "const":
                self.define(record[1], self.value(record[2]), "const")
                continue
            label = record[1]
            if label is not None:
                if pc is None:
                    raise _NotSimple
                self.define(label, pc, "label")
            if kind == "label":
                continue
            if pc is None:
                raise _NotSimple
            if kind == "fixed":
                data = record[2]
            elif kind == "address":
                _, _, code, zp_code, prefix, expr = record
                value = self.operand(prefix, expr)
                if value is None:
                    unknown.add(serial)
                if zp_code >= 0 and prefix != "!" and (code < 0 or (value is not None and value <= 0xFF and serial not in unknown)):
                    if value is not None and value > 0xFF:
                        raise _NotSimple
                    data = bytes((zp_code, value or 0))
                elif code >= 0:
                    value = value or 0
                    data = bytes((code, value & 0xFF, value >> 8))
                else:
                    raise _NotSimple
            elif not final:
                data = _PLACEHOLDER[kind](record)  # pass 1 only needs the size
            elif kind == "immediate":
                value = self.operand(record[3], record[4])
                if value > 0xFF:
                    raise _NotSimple
                data = bytes((record[2], value))
            elif kind == "branch":
                distance = self.value(record[3]) - (pc + 2)
                if not -128 <= distance <= 127:
                    raise _NotSimple
                data = bytes((record[2], distance & 0xFF))
            elif kind == "indirect":
                _, _, code, jmp, prefix, expr = record
                value = self.operand(prefix, expr)
                if jmp:
                    if value & 0xFF == 0xFF:
                        raise _NotSimple  # the full assembler warns about the JMP ($xxFF) page bug
                    data = bytes((code, value & 0xFF, value >> 8))
                elif value > 0xFF:
                    raise _NotSimple
                else:
                    data = bytes((code, value))
            else:  # data
                data = self.data_bytes(record)
            size = len(data)
            if pc + size > 0x10000:
                raise _NotSimple
            if final:
                if pc == end:
                    self.chunks[-1][1].extend(data)
                else:
                    self.chunks.append((pc, bytearray(data), None))
                end = pc + size
            pc = (pc + size) & 0xFFFF

    def data_bytes(self, record: tuple) -> bytes:
        _, _, word, items = record
        out = bytearray()
        for prefix, expr in items:
            value = self.operand(prefix, expr)
            if word:
                out += (value or 0).to_bytes(2, "little")
            elif value is not None and value > 0xFF:
                raise _NotSimple
            else:
                out.append(value or 0)
        return bytes(out)


_PLACEHOLDER = {  # bytes of the right size, for pass 1
    "immediate": lambda record: b"\0\0",
    "branch": lambda record: b"\0\0",
    "indirect": lambda record: b"\0\0\0" if record[3] else b"\0\0",
    "data": lambda record: b"\0" * (len(record[3]) * (2 if record[2] else 1)),
}
