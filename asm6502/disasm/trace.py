"""Finding the code: tracing the control flow from the entry points.

From each entry the instructions are followed in address order; JSR, JMP and
branch targets are traced too.  A path stops at RTS, RTI, BRK, JAM, JMP, at a
byte that is no opcode, at the end of the program, and where it would overlap
an instruction already found at another start (code that jumps into the
middle of an instruction keeps the first decoding; the target becomes a
``label+1`` expression later).

Code reached only through data is found where the program shows it plainly:

* ``jmp (vec)`` with the vector inside the program: the vector is a ``.wor``
  and its target is code;
* jump tables read with an index register and dispatched at once, either by
  the RTS trick (``lda hi,x : pha : lda lo,x : pha : rts``, the table holds
  target-1) or through a vector (``lda lo,x : sta v : lda hi,x : sta v+1 :
  jmp (v)``), as interleaved ``.wor`` pairs or split low/high byte tables;
* tables of data addresses copied to a pointer (``lda lo,x : sta p : lda hi,x : sta p+1``)
  become ``.wor``/``<``/``>`` entries pointing at their labels;
* ``lda #<text : ldy #>text`` pairs (immediate low/high byte of an address
  inside the program) become ``#<label``/``#>label``.
"""

from __future__ import annotations

from asm6502.disasm.decode import Decoder, Insn, decode
from asm6502.opcodes import Mode
from asm6502.tuples import named_tuple

STOPS = frozenset({"RTS", "RTI", "BRK", "JMP", "JAM"})
LOADS = {"LDA": "A", "LDX": "X", "LDY": "Y"}
STORES = {"STA": "A", "STX": "X", "STY": "Y"}
INDEX = {Mode.ABSOLUTE_X: "X", Mode.ABSOLUTE_Y: "Y"}
WINDOW = 8  # instructions looked at after a table load (the dispatch sequences are 5-6 long)


@named_tuple  # (named tuples, not dataclasses: start-up, see disasm/model.py)
class Word:
    """A 2-byte pointer in data: its value is ``target + adjust`` (adjust -1 for RTS-trick tables)."""

    target: int
    adjust: int = 0
    pointer: bool = True  # False: a plain number (a BASIC line number)


@named_tuple  # (named tuples, not dataclasses: start-up, see disasm/model.py)
class TableByte:
    """One byte of a split table: the low (``<``) or high (``>``) byte of ``target + adjust``."""

    part: str
    target: int
    adjust: int


class Analysis:
    """What the tracing found in a program, filled in by :func:`analyse`."""

    __slots__ = ("origin", "memory", "code", "owner", "words", "table_bytes", "pairs")

    def __init__(self, origin: int, memory: bytes) -> None:
        self.origin = origin
        self.memory = memory
        self.code: dict[int, Insn] = {}  # start address -> instruction
        self.owner: dict[int, int] = {}  # every code byte -> its instruction's start
        self.words: dict[int, Word] = {}  # address of a .wor in data -> what it holds
        self.table_bytes: dict[int, TableByte] = {}
        self.pairs: dict[int, tuple[str, int]] = {}  # insn address -> ('<'|'>', address)

    @property
    def end(self) -> int:
        return self.origin + len(self.memory)

    def inside(self, address: int) -> bool:
        return self.origin <= address < self.end

    def byte(self, address: int) -> int:
        return self.memory[address - self.origin]

    def word_at(self, address: int) -> int:
        return self.byte(address) | self.byte(address + 1) << 8

    def claimed(self, address: int) -> bool:
        """Part of an instruction, a table word or a table byte."""
        return (address in self.owner or address in self.words or address - 1 in self.words
                or address in self.table_bytes)


def analyse(memory: bytes, origin: int, entries: list[int], dec: Decoder) -> Analysis:
    a = Analysis(origin, memory)
    pending = list(entries)
    while pending:
        for entry in pending:
            _trace(a, entry, dec)
        pending = _tables(a, dec)
    _pairs(a)
    return a


def _trace(a: Analysis, entry: int, dec: Decoder) -> None:
    work = [entry]
    while work:
        address = work.pop()
        while a.inside(address) and address not in a.code and not a.claimed(address):
            insn = decode(a.memory, a.origin, address, dec)
            if insn is None or any(a.claimed(b) for b in range(address, insn.end)):
                break
            a.code[address] = insn
            for b in range(address, insn.end):
                a.owner[b] = address
            if insn.mode is Mode.RELATIVE or insn.mnemonic == "JSR" or (insn.mnemonic == "JMP" and insn.mode is Mode.ABSOLUTE):
                assert insn.value is not None
                work.append(insn.value)
            if insn.mnemonic in STOPS:
                break
            address = insn.end


def _referenced(a: Analysis) -> set[int]:
    return {i.value for i in a.code.values() if i.value is not None and i.mode is not Mode.IMMEDIATE}


def _can_be_code(a: Analysis, address: int, dec: Decoder) -> bool:
    if address in a.code:
        return True
    if not a.inside(address) or a.claimed(address):
        return False
    insn = decode(a.memory, a.origin, address, dec)
    return insn is not None and not any(a.claimed(b) for b in range(address, insn.end))


def _sequence(a: Analysis, insn: Insn) -> list[Insn]:
    """The instructions that follow ``insn`` in address order (straight-line code)."""
    out: list[Insn] = []
    address = insn.end
    while len(out) < WINDOW and address in a.code:
        nxt = a.code[address]
        out.append(nxt)
        if nxt.mnemonic in STOPS or nxt.mode is Mode.RELATIVE or nxt.mnemonic == "JSR":
            break
        address = nxt.end
    return out


def _tables(a: Analysis, dec: Decoder) -> list[int]:
    """Claim the vectors and jump tables the code shows; return the new code targets."""
    found: list[int] = []
    refs = _referenced(a)
    for insn in sorted(a.code.values(), key=lambda i: i.address):
        if insn.mnemonic == "JMP" and insn.mode is Mode.INDIRECT:
            vec = insn.value
            assert vec is not None
            if a.inside(vec) and a.inside(vec + 1) and not a.claimed(vec) and not a.claimed(vec + 1):
                target = a.word_at(vec)
                a.words[vec] = Word(target)
                if a.inside(target) and target not in a.code:
                    found.append(target)
            continue
        if insn.mnemonic in LOADS and insn.mode in INDEX:
            found += _jump_table(a, insn, dec, refs)
    return found


def _jump_table(a: Analysis, first: Insn, dec: Decoder, refs: set[int]) -> list[int]:
    """Claim the table ``first`` reads, if the code after it shows one; return new code targets.

    Dispatched at once (RTS trick, or ``jmp (v)``): the entries are code addresses.  Only
    copied to a pointer ``v``/``v+1``: the entries are data addresses (texts, tables).
    """
    seq = _sequence(a, first)
    index = INDEX[first.mode]
    second = next((i for i in seq if i.mnemonic in LOADS and INDEX.get(i.mode) == index
                   and i.value != first.value), None)
    if second is None or first.value is None or second.value is None:
        return []
    after = seq[seq.index(second) + 1:]
    before = seq[:seq.index(second)]
    if first.mnemonic == second.mnemonic == "LDA" and any(i.mnemonic == "PHA" for i in before) and \
            [i.mnemonic for i in after[:2]] == ["PHA", "RTS"]:
        hi, lo, adjust, code = first.value, second.value, -1, True  # pushed first = high byte; RTS adds 1
    else:
        store1 = next((i for i in before if STORES.get(i.mnemonic) == LOADS[first.mnemonic]), None)
        store2 = next((i for i in after if STORES.get(i.mnemonic) == LOADS[second.mnemonic]), None)
        if store1 is None or store2 is None or store1.value is None or store2.value is None:
            return []
        vec = min(store1.value, store2.value)
        if abs(store1.value - store2.value) != 1:
            return []
        lo, hi = (first.value, second.value) if store1.value == vec else (second.value, first.value)
        jump = next((i for i in after if i.mnemonic == "JMP" and i.mode is Mode.INDIRECT), None)
        adjust, code = 0, jump is not None and jump.value == vec
    if not (a.inside(lo) and a.inside(hi)) or a.claimed(lo) or a.claimed(hi):
        return []

    def entry(target: int) -> bool:
        return _can_be_code(a, target, dec) if code else a.inside(target)

    found: list[int] = []
    if hi == lo + 1:  # interleaved: .wor pairs
        address = lo
        while a.inside(address + 1) and not a.claimed(address) and not a.claimed(address + 1) and len(found) < 128:
            if address != lo and (address in refs or address + 1 in refs):
                break
            target = (a.word_at(address) - adjust) & 0xFFFF
            if not entry(target):
                break
            a.words[address] = Word(target, adjust)
            found.append(target)
            address += 2
    elif lo != hi + 1:  # split low-byte and high-byte tables
        i = 0
        while a.inside(lo + i) and a.inside(hi + i) and lo + i != hi and hi + i != lo and i < 256:
            if a.claimed(lo + i) or a.claimed(hi + i) or (i and (lo + i in refs or hi + i in refs)):
                break
            target = ((a.byte(lo + i) | a.byte(hi + i) << 8) - adjust) & 0xFFFF
            if not entry(target):
                break
            a.table_bytes[lo + i] = TableByte("<", target, adjust)
            a.table_bytes[hi + i] = TableByte(">", target, adjust)
            found.append(target)
            i += 1
    return [t for t in found if t not in a.code] if code else []


def _pairs(a: Analysis) -> None:
    """``ld? #lo`` next to ``ld? #hi`` (other register), or ``ld? #lo : st? v : ld? #hi : st? v+1``,
    whose address lies inside the program."""
    for insn in sorted(a.code.values(), key=lambda i: i.address):
        if insn.mnemonic not in LOADS or insn.mode is not Mode.IMMEDIATE or insn.address in a.pairs:
            continue
        seq = _sequence(a, insn)
        reg = LOADS[insn.mnemonic]
        hi_insn = None
        if seq and seq[0].mnemonic in LOADS and seq[0].mode is Mode.IMMEDIATE and LOADS[seq[0].mnemonic] != reg:
            hi_insn = seq[0]
        elif len(seq) >= 3 and STORES.get(seq[0].mnemonic) == reg and seq[1].mnemonic == insn.mnemonic \
                and seq[1].mode is Mode.IMMEDIATE and STORES.get(seq[2].mnemonic) == reg \
                and seq[0].value is not None and seq[2].value == seq[0].value + 1:
            hi_insn = seq[1]
        if hi_insn is None or hi_insn.address in a.pairs:
            continue
        assert insn.value is not None and hi_insn.value is not None
        target = insn.value | hi_insn.value << 8
        if a.inside(target):
            a.pairs[insn.address] = ("<", target)
            a.pairs[hi_insn.address] = (">", target)
