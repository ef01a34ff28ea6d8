"""What a statement's text says, worked out once per distinct text.

The assembler runs every statement in both passes, and a macro body once per
call.  Most statements are instructions, ``name = value`` definitions, lone
labels and ``.byt``/``.wor`` lists, and what their text says -- mnemonic,
addressing form, opcodes, size, the expression trees, errors that do not
depend on any value -- is the same every time.  A :class:`Decoder` turns such
a text into a small immutable record once; the passes only evaluate the
expressions in it.  Every other statement (``*=``, the other pseudo-ops, macro
calls, the start line) decodes to ``None`` and is handled by the assembler
statement by statement.

All offsets in the records are 0-based and relative to the statement's first
character; the assembler adds the statement's column.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from asm6502 import expr as ex
from asm6502.opcodes import BRANCHES, ZERO_PAGE_FORM, Mode, instruction_set, unstable_mnemonics
from asm6502.petscii_text import ascii_to_petscii

SIGNIFICANT = 8  # Profi-Ass keeps the first 8 characters of a label

IDENT = re.compile(r"[A-Za-z][A-Za-z0-9.]*")
START_LINE = re.compile(r"sys(?![a-z.])", re.IGNORECASE)  # Profi-Ass's start line: 100 sys32768 / sys 9*4096
_INDEX = re.compile(r",\s*([xXyY])\s*$")
_PSEUDO = re.compile(r"\.([A-Za-z#]+)")
ABSOLUTE_FORM = {None: Mode.ABSOLUTE, "X": Mode.ABSOLUTE_X, "Y": Mode.ABSOLUTE_Y}  # by index register
_UNKNOWN = object()
_OPERAND_SIZE = {mode: mode.operand_size for mode in Mode}
# blanks, '#', a < > ! prefix, an expression of numbers and symbols, ',x' or ',y' (see Decoder._quick_operand)
_QUICK_OPERAND = re.compile(rf"([ \t]+)(#?)([<>!]?)({ex.SIMPLE_TEXT})(?:,([xXyY]))?\Z")

Problem = tuple[str, int, int]  # (message, offset, length)


class Instruction(NamedTuple):
    """An instruction statement, with or without a label in front.

    ``problem`` is an error that does not depend on any value (e.g. a mode the
    mnemonic lacks); it is reported whenever the statement is assembled.
    """

    mnemonic: str
    modes: dict
    mnemonic_offset: int
    label: str | None  # 'loop lda #1' defines 'loop'
    operand_offset: int
    operand_length: int
    form: str = "fixed"  # fixed | immediate | indirect | branch | address
    mode: Mode = Mode.IMPLIED  # the mode, or for "address" the absolute mode of the index form
    code: int = -1  # the opcode; for "address" the absolute one (-1: the mnemonic has none)
    zp_code: int = -1  # "address" only: the zero-page opcode (-1: none)
    fixed: bytes = b""  # "fixed": the whole instruction
    size: int = 0  # in bytes, for every form but "address" (zero page or absolute)
    prefix: str = ""  # "<", ">", "!" or ""
    node: ex.Node | None = None
    expr_offset: int = 0
    problem: Problem | None = None
    unstable: bool = False  # an unstable undocumented opcode (warned about)


class Definition(NamedTuple):
    """``name = value`` (a constant) or ``name _ value`` (a variable: the C64's left arrow)."""

    name: str
    kind: str  # "const" or "var"
    node: ex.Node | None
    expr_offset: int
    problem: Problem | None = None


class DataItem(NamedTuple):
    """One item of a .byt/.wor list."""

    fixed: bytes  # a string's bytes, or the zeros standing in for an item with an error
    problems: tuple[Problem, ...] = ()  # errors whatever the values
    node: ex.Node | None = None  # a value to evaluate (None: the item is ``fixed``)
    prefix: str = ""  # "<" or ">" before the value
    expr_offset: int = 0
    offset: int = 0  # the whole item
    length: int = 1


class DataList(NamedTuple):
    """``[label] .byt items`` or ``[label] .wor items``."""

    label: str | None
    word: bool  # .wor: 2 bytes an item, low byte first
    items: tuple[DataItem, ...]
    size: int  # in bytes, known from the text alone
    op_offset: int  # the '.byt' / '.wor'
    op_length: int


class _Operand(NamedTuple):
    """The part of an :class:`Instruction` that depends on mnemonic and operand text only
    (offsets relative to the operand text's start; problem offset None: at the mnemonic)."""

    form: str = "fixed"
    mode: Mode = Mode.IMPLIED
    code: int = -1
    zp_code: int = -1
    fixed: bytes = b""
    size: int = 0
    prefix: str = ""
    node: ex.Node | None = None
    expr_offset: int = 0
    problem: tuple[str, int | None, int] | None = None
    unstable: bool = False
    operand_offset: int = 0
    operand_length: int = 1


class _OperandProblem(Exception):
    def __init__(self, message: str, offset: int | None = -1, length: int = 1):
        # offset -1: the whole operand; None: the mnemonic
        super().__init__(message)
        self.message, self.offset, self.length = message, offset, length


class Decoder:
    """Decodes statement texts for one CPU, remembering every text it has seen."""

    def __init__(self, cpu: str):
        self.opcodes = instruction_set(cpu)
        self.unstable = unstable_mnemonics(cpu)
        self.unstable_codes = _unstable_opcodes(cpu)  # per opcode: LAX #imm ($AB) only
        operandless = {Mode.IMPLIED, Mode.ACCUMULATOR}
        self.operandless = frozenset(m for m, modes in self.opcodes.items() if set(modes) <= operandless)
        self.statements: dict[str, Instruction | Definition | DataList | str | None] = {}
        self.operands: dict[tuple[str, str], _Operand] = {}  # (mnemonic, operand text) -> decoded operand
        self.expressions: dict[str, ex.Node | tuple[str, int, int]] = {}  # expression text -> tree (or its error)

    def parse(self, text: str) -> ex.Node:
        """:func:`ex.parse`, remembering every text (the same operands recur all over a program)."""
        node = self.expressions.get(text)
        if node is None:
            try:
                node = ex.parse(text)
            except ex.ExprError as exc:
                node = (exc.message, exc.offset, exc.length)  # (kept as data: an exception is raised afresh)
            self.expressions[text] = node
        if type(node) is tuple:
            raise ex.ExprError(*node)
        return node

    def statement(self, text: str) -> Instruction | Definition | DataList | str | None:
        """An Instruction, Definition, DataList, a lone label (its name) or None (anything else)."""
        decoded = self.statements.get(text, _UNKNOWN)
        if decoded is _UNKNOWN:
            decoded = self.statements[text] = self._decode(text)
        return decoded

    def _decode(self, text: str):
        first = text[:1]
        if first == ".":
            return self._data_list(None, text, 0)
        if not first.isalpha() or (text[:3].lower() == "sys" and START_LINE.match(text)):
            return None
        m = IDENT.match(text)
        if m is None:
            return None
        word = m.group()
        end = m.end()
        rest = text[end:]
        if word.upper() in self.opcodes:
            if not rest or not rest[0].isalnum():
                return self._instruction(None, word, rest, end)
            return None
        if not rest:
            return word
        after = rest.lstrip()
        if not after:
            return None
        after_offset = end + len(rest) - len(after)
        first = after[0]
        if first == "=" or first == "_":
            return self._definition(word, "const" if first == "=" else "var", after[1:], after_offset + 1)
        if first == ".":
            if after[1:4].lower() == "mac":  # 'name .mac params' defines a macro
                return None
            return self._data_list(word, after, after_offset)
        m2 = IDENT.match(after)
        if m2 is None or m2.group().upper() not in self.opcodes:
            return None
        if len(after) != m2.end() and after[m2.end()].isalnum():
            return None
        return self._instruction(word, m2.group(), after[m2.end() :], after_offset + m2.end())

    def _instruction(self, label: str | None, word: str, operand_text: str, end: int) -> Instruction:
        """``word`` is the mnemonic as typed; ``operand_text`` follows it at offset ``end``."""
        mnemonic = word.upper()
        key = (mnemonic, operand_text)
        operand = self.operands.get(key)
        if operand is None:
            operand = self.operands[key] = self._operand(mnemonic, operand_text)
        problem = operand.problem
        if problem is not None:
            message, offset, length = problem
            problem = (message, end - len(word) if offset is None else end + offset, length)
        return Instruction(
            mnemonic, self.opcodes[mnemonic], end - len(word), label, end + operand.operand_offset, operand.operand_length,
            operand.form, operand.mode, operand.code, operand.zp_code, operand.fixed, operand.size, operand.prefix,
            operand.node, end + operand.expr_offset, problem, operand.unstable,
        )  # fmt: skip

    def _quick_operand(self, mnemonic: str, operand_text: str) -> _Operand | None:
        """The commonest operands -- ``expr``, ``#expr``, ``expr,x``, ``expr,y`` with an expression
        of numbers and symbols -- read by one regular expression; None for anything else (or
        anything with a problem), which :meth:`_operand` then reads."""
        m = _QUICK_OPERAND.match(operand_text)
        if m is None or mnemonic in self.operandless:
            return None
        blanks, immediate, prefix, expr_text, index = m.groups()
        modes = self.opcodes[mnemonic]
        if immediate:
            if index or Mode.IMMEDIATE not in modes:
                return None
            form, mode, code, zp_code = "immediate", Mode.IMMEDIATE, modes[Mode.IMMEDIATE], -1
        elif mnemonic in BRANCHES and Mode.RELATIVE in modes:
            if index:
                return None
            form, mode, code, zp_code = "branch", Mode.RELATIVE, modes[Mode.RELATIVE], -1
        else:
            if not index and not prefix and expr_text in ("a", "A") and Mode.ACCUMULATOR in modes:
                return None  # 'rol a'
            mode = ABSOLUTE_FORM[index.upper() if index else None]
            form, code, zp_code = "address", modes.get(mode, -1), modes.get(ZERO_PAGE_FORM[mode], -1)
            if code < 0 and zp_code < 0:
                return None
        try:
            node = self.parse(expr_text)
        except ex.ExprError:
            return None
        unstable = mnemonic in self.unstable or code in self.unstable_codes or zp_code in self.unstable_codes
        lead = len(blanks)
        return _Operand(
            form, mode, code, zp_code, b"", 1 + _OPERAND_SIZE[mode], prefix, node, m.start(4), None, unstable, lead, len(operand_text) - lead
        )

    def _operand(self, mnemonic: str, operand_text: str) -> _Operand:
        quick = self._quick_operand(mnemonic, operand_text)
        if quick is not None:
            return quick
        operand = operand_text.strip()
        lead = len(operand_text) - len(operand_text.lstrip())
        length = max(1, len(operand))
        try:
            form, mode, code, zp_code, expr_text, offset = self._form(mnemonic, operand, lead)
            unstable = mnemonic in self.unstable or code in self.unstable_codes or zp_code in self.unstable_codes
            if form == "fixed":
                return _Operand(form, mode, code, fixed=bytes((code,)), size=1, unstable=unstable, operand_offset=lead, operand_length=length)
            prefix, node, expr_offset = self._operand_expression(expr_text, offset)
        except _OperandProblem as p:
            where = (lead, length) if p.offset == -1 else (p.offset, p.length)
            return _Operand(problem=(p.message, *where), operand_offset=lead, operand_length=length)
        size = 1 + _OPERAND_SIZE[mode]
        return _Operand(form, mode, code, zp_code, b"", size, prefix, node, expr_offset, None, unstable, lead, length)

    def _form(self, mnemonic: str, operand: str, lead: int) -> tuple[str, Mode, int, int, str, int]:
        """(form, mode, opcode, zero-page opcode, expression text, its offset) of an operand."""
        modes = self.opcodes[mnemonic]
        if not operand or (operand.lower() == "a" and Mode.ACCUMULATOR in modes):
            for mode in (Mode.IMPLIED, Mode.ACCUMULATOR):
                if mode in modes:
                    return "fixed", mode, modes[mode], -1, "", 0
            raise _OperandProblem(f"{mnemonic} needs an operand", None, len(mnemonic))
        if mnemonic in self.operandless:  # (6502i: NOP also has operand modes)
            raise _OperandProblem(f"{mnemonic} takes no operand")
        if operand[0] == "#":
            if Mode.IMMEDIATE not in modes:
                raise _no_mode(mnemonic, modes, "immediate")
            return "immediate", Mode.IMMEDIATE, modes[Mode.IMMEDIATE], -1, operand[1:], lead + 1
        if operand[0] == "(":
            indirect = _indirect_form(operand)
            if indirect is not None and (mnemonic == "JMP" or indirect[0] != Mode.INDIRECT):
                mode, inner, inner_offset = indirect
                if mode not in modes:
                    raise _no_mode(mnemonic, modes, mode.label)
                return "indirect", mode, modes[mode], -1, inner, lead + inner_offset
        index = None
        body = operand
        mi = _INDEX.search(operand) if "," in operand else None
        if mi:
            index = mi.group(1).upper()
            body = operand[: mi.start()].rstrip()
        if mnemonic in BRANCHES and Mode.RELATIVE in modes:
            if index:
                raise _no_mode(mnemonic, modes, "indexed")
            return "branch", Mode.RELATIVE, modes[Mode.RELATIVE], -1, body, lead
        absolute = ABSOLUTE_FORM[index]
        zero_page = ZERO_PAGE_FORM[absolute]
        if absolute not in modes and zero_page not in modes:
            raise _no_mode(mnemonic, modes, absolute.label)
        return "address", absolute, modes.get(absolute, -1), modes.get(zero_page, -1), body, lead

    def _data_list(self, label: str | None, text: str, offset: int) -> DataList | None:
        """``text`` (at ``offset`` in its statement) as a .byt/.wor list; None for any other pseudo-op."""
        m = _PSEUDO.match(text)
        if m is None or m.group(1)[:3].lower() not in ("byt", "wor"):
            return None
        word = m.group(1)[:3].lower() == "wor"
        args = text[m.end() :]
        args_offset = offset + m.end() + len(args) - len(args.lstrip())
        items = []
        zeros = b"\0\0" if word else b"\0"
        for item, item_offset in split_commas(args.strip(), args_offset) if args.strip() else ():
            if not item:
                items.append(DataItem(b"", (("value expected between commas", item_offset, 1),)))
            elif item.startswith('"') and not word and item.endswith('"') and len(item) >= 2 and len(item) != 3:
                items.append(DataItem(*petscii(item[1:-1], item_offset + 1)))  # a string ('"a"' is a value)
            else:
                prefix = item[0] if item[0] in "<>" else ""
                body = item[len(prefix) :]
                expr_offset = item_offset + len(prefix) + len(body) - len(body.lstrip())
                try:
                    node = self.parse(body.lstrip())
                except ex.ExprError as exc:
                    items.append(DataItem(zeros, ((exc.message, expr_offset + exc.offset, exc.length),)))
                    continue
                items.append(DataItem(zeros, (), node, prefix, expr_offset, item_offset, len(item)))
        size = sum(len(item.fixed) for item in items)
        return DataList(label, word, tuple(items), size, offset, m.end())

    def _operand_expression(self, text: str, offset: int) -> tuple[str, ex.Node, int]:
        """(prefix, tree, offset of the expression) for ``text`` at ``offset``: an optional < > ! then an expression."""
        stripped = text.lstrip()
        offset += len(text) - len(stripped)
        if not stripped:
            raise _OperandProblem("expression expected", offset, 1)
        prefix = stripped[0] if stripped[0] in "<>!" else ""
        body = stripped[1:] if prefix else stripped
        offset += len(prefix) + len(body) - len(body.lstrip())
        body = body.lstrip()
        if not body:
            raise _OperandProblem("expression expected", offset, 1)
        try:
            return prefix, self.parse(body), offset
        except ex.ExprError as exc:
            raise _OperandProblem(exc.message, offset + exc.offset, exc.length) from None

    def _definition(self, name: str, kind: str, expr_text: str, offset: int) -> Definition:
        """``name =`` or ``name _`` followed by ``expr_text`` at ``offset``."""
        stripped = expr_text.lstrip()
        offset += len(expr_text) - len(stripped)
        if not stripped:
            return Definition(name, kind, None, offset, ("expression expected", offset, 1))
        try:
            return Definition(name, kind, self.parse(stripped), offset)
        except ex.ExprError as exc:
            return Definition(name, kind, None, offset, (exc.message, offset + exc.offset, exc.length))


def _no_mode(mnemonic: str, modes: dict, what: str) -> _OperandProblem:
    return _OperandProblem(f"{mnemonic} has no {what} mode (it has: {', '.join(m.label for m in modes)})")


def petscii(body: str, offset: int) -> tuple[bytes, tuple[Problem, ...]]:
    """A string's PETSCII bytes, or b"" and an error for each character that has no code."""
    try:
        return ascii_to_petscii(body), ()
    except ValueError:
        problems = []
        for i, ch in enumerate(body):
            try:
                ascii_to_petscii(ch)
            except ValueError:
                problems.append((f"character {ch!r} has no PETSCII code", offset + i, 1))
        return b"", tuple(problems)


def split_commas(text: str, offset: int) -> list[tuple[str, int]]:
    """Split at commas outside quotes and brackets; returns (item, offset of the item)."""
    if '"' not in text and "(" not in text and "[" not in text:  # the common case: every comma splits
        items = []
        start = 0
        for raw in text.split(","):
            lead = len(raw) - len(raw.lstrip())
            items.append((raw.strip(), offset + start + lead))
            start += len(raw) + 1
        return items
    items = []
    depth = 0
    in_quote = False
    start = 0
    for i, ch in enumerate(text + ","):
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and ch in "([":
            depth += 1
        elif not in_quote and ch in ")]":
            depth -= 1
        elif ch == "," and not in_quote and depth <= 0 or i == len(text):
            raw = text[start:i]
            lead = len(raw) - len(raw.lstrip())
            items.append((raw.strip(), offset + start + lead))
            start = i + 1
    return items


def _indirect_form(operand: str) -> tuple[Mode, str, int] | None:
    """Recognise ``(e,x)``, ``(e),y`` and ``(e)``; None for any other operand."""
    if not operand.startswith("("):
        return None
    depth = 0
    in_quote = False
    close = -1
    for i, ch in enumerate(operand):
        if ch == '"':
            in_quote = not in_quote
        elif in_quote:
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                close = i
                break
    if close == -1:
        return None
    inner = operand[1:close]
    after = operand[close + 1 :].strip()
    if after == "":
        mx = _INDEX.search(inner)
        if mx and mx.group(1).upper() == "X":
            return Mode.INDEXED_INDIRECT, inner[: mx.start()], 1
        return Mode.INDIRECT, inner, 1
    if re.fullmatch(r",\s*[yY]", after):
        return Mode.INDIRECT_INDEXED, inner, 1
    return None


def _unstable_opcodes(cpu: str) -> frozenset[int]:
    if cpu != "6502i":
        return frozenset()
    from asm6502.opcodes_undoc import UNSTABLE_OPCODES

    return UNSTABLE_OPCODES
