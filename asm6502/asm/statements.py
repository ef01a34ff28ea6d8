"""The statement records: what the decoder (decode.py) makes of each distinct statement text.

An instruction (its mnemonic's shared :class:`Form` and its operand's tree), a definition,
``*=``, data, any other pseudo-op, a macro call, a label alone, the start line, and a statement
the original rejects whatever the values (:class:`Bad`).  Every kind has ``label`` (the label in
front, or None) and ``problem`` (None, or Bad's (message, offset, length), offsets 0-based in the
statement text).  Records are made once per text and only read afterwards.
"""

from __future__ import annotations

from asm6502.opcodes import Mode
from asm6502.tuples import SlotRecord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.asm.expr import Node

Problem = tuple[str, int, int]  # (message, offset, length)


class Form(SlotRecord):
    """What an instruction record takes from its mnemonic, mode and prefix alone: one object for all the
    records of them (Decoder.form; a program's thousands of instructions have about a hundred)."""

    __slots__ = ("form", "code", "zp_code", "fixed", "size", "prefix", "unstable", "mnemonic", "modes", "mode")
    form: str  # fixed | immediate | indirect | branch | address
    code: int  # the opcode; for "address" the absolute one (-1: the mnemonic has none)
    zp_code: int  # "address" only: the zero-page opcode (-1: none)
    fixed: bytes  # "fixed": the whole instruction
    size: int  # for every form but "address" (zero page or absolute: pass 1 decides)
    prefix: str  # "<", ">", "!" or ""
    unstable: bool
    mnemonic: str
    modes: dict  # the mnemonic's modes: Mode -> opcode
    mode: Mode

    def __init__(self, form: str, code: int, zp_code: int, fixed: bytes, size: int, prefix: str, unstable: bool, mnemonic: str, modes: dict, mode: Mode) -> None:
        self.form = form
        self.code = code
        self.zp_code = zp_code
        self.fixed = fixed
        self.size = size
        self.prefix = prefix
        self.unstable = unstable
        self.mnemonic = mnemonic
        self.modes = modes
        self.mode = mode


class Offsets(SlotRecord):
    """Where an instruction's parts are in its statement text: one object for every instruction record of
    them (Decoder.offsets; a program's thousands of records share about a hundred)."""

    __slots__ = ("mnemonic_offset", "operand_offset", "operand_length", "expr_offset")
    mnemonic_offset: int
    operand_offset: int
    operand_length: int
    expr_offset: int

    def __init__(self, mnemonic_offset: int, operand_offset: int, operand_length: int, expr_offset: int) -> None:
        self.mnemonic_offset = mnemonic_offset
        self.operand_offset = operand_offset
        self.operand_length = operand_length
        self.expr_offset = expr_offset


class Insn(SlotRecord):
    """An instruction.  (A slot record of four slots, 64 bytes: a large program has tens of thousands.)  What
    the records of one mnemonic, mode and prefix share is their ``shape`` (a Form), and those of the same
    places in their texts their ``offsets``: a record takes half the memory of one with every field in slots."""

    __slots__ = ("label", "expr", "shape", "offsets")
    label: str | None
    expr: Node | None  # the operand's tree, None for the fixed form
    shape: Form
    offsets: Offsets

    def __init__(self, label: str | None, expr: Node | None, shape: Form, offsets: Offsets) -> None:
        self.label = label
        self.expr = expr
        self.shape = shape
        self.offsets = offsets

    problem = None  # (an instruction is no problem: Bad is)


class Define(SlotRecord):
    """``name = value`` (pass 1 only) or ``name _ value`` (``var``: the C64's left arrow).  (No label in
    front, no problem: both None on the class, not in slots -- most definitions have neither.)"""

    __slots__ = ("name", "var", "expr", "expr_offset")
    name: str
    var: bool
    expr: Node
    expr_offset: int

    def __init__(self, name: str, var: bool, expr: Node, expr_offset: int) -> None:
        self.name = name
        self.var = var
        self.expr = expr
        self.expr_offset = expr_offset

    label = None
    problem = None


class Origin(SlotRecord):
    """``*= value`` (with a label in front, the label gets the old program counter)."""

    __slots__ = ("label", "expr", "expr_offset")
    label: str | None
    expr: Node
    expr_offset: int

    def __init__(self, label: str | None, expr: Node, expr_offset: int) -> None:
        self.label = label
        self.expr = expr
        self.expr_offset = expr_offset

    problem = None


class Data(SlotRecord):
    """``.byt``, ``.wor``, ``.asc``, ``.flp``: ``items`` are (bytes or None, tree or None, prefix, offset, length).
    (Kept as ``parts``, four an item: the bytes or the tree, prefix, offset, length -- a third of the
    memory of a tuple an item.)"""

    __slots__ = ("label", "op", "parts", "size", "op_offset", "op_length")
    label: str | None
    op: str
    parts: tuple
    size: int
    op_offset: int
    op_length: int

    def __init__(self, label: str | None, op: str, parts: tuple, size: int, op_offset: int, op_length: int) -> None:
        self.label = label
        self.op = op
        self.parts = parts
        self.size = size
        self.op_offset = op_offset
        self.op_length = op_length

    problem = None

    @property
    def items(self) -> tuple:
        """(bytes or None, tree or None, prefix, offset, length) an item (for convert; pass 2 reads ``parts``)."""
        it = iter(self.parts)
        return tuple((first, None, prefix, offset, length) if type(first) is bytes else (None, first, prefix, offset, length)
                     for first, prefix, offset, length in zip(it, it, it, it))  # fmt: skip


class Pseudo(SlotRecord):
    """Any other pseudo-op: ``op`` its first three letters, ``args`` the text after it."""

    __slots__ = ("label", "problem", "op", "name", "args", "args_offset", "op_offset", "op_length")
    label: str | None
    problem: None
    op: str
    name: str
    args: str
    args_offset: int
    op_offset: int
    op_length: int

    def __init__(self, label: str | None, problem: None, op: str, name: str, args: str, args_offset: int, op_offset: int, op_length: int) -> None:
        self.label = label
        self.problem = problem
        self.op = op
        self.name = name
        self.args = args
        self.args_offset = args_offset
        self.op_offset = op_offset
        self.op_length = op_length


class Call(SlotRecord):
    """``'name args``: a macro call."""

    __slots__ = ("label", "problem", "name", "args", "name_offset")
    label: str | None
    problem: None
    name: str
    args: tuple
    name_offset: int

    def __init__(self, label: str | None, problem: None, name: str, args: tuple, name_offset: int) -> None:
        self.label = label
        self.problem = problem
        self.name = name
        self.args = args
        self.name_offset = name_offset


class Label(SlotRecord):
    """A label on its own."""

    __slots__ = ("label", "problem")
    label: str
    problem: None

    def __init__(self, label: str, problem: None) -> None:
        self.label = label
        self.problem = problem


class Bad(SlotRecord):
    """A statement the original rejects whatever the values (``problem`` says why)."""

    __slots__ = ("label", "problem")
    label: str | None
    problem: Problem

    def __init__(self, label: str | None, problem: Problem) -> None:
        self.label = label
        self.problem = problem


class Start(SlotRecord):
    """``sys 32768``: the start line (a BASIC statement)."""

    __slots__ = ("label", "problem")
    label: None
    problem: None

    def __init__(self, label: None, problem: None) -> None:
        self.label = label
        self.problem = problem


# a decoded statement: every kind has ``label`` (the label in front, or None) and ``problem``
Record = Insn | Define | Origin | Data | Pseudo | Call | Label | Bad | Start
