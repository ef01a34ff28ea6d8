"""From the analysis to statements: labels named by role, operands as expressions, data lines."""

from __future__ import annotations

from collections.abc import Callable

from asm6502 import c64map as names
from asm6502.disasm.basic_stub import BasicStub
from asm6502.disasm.decode import Decoder, Insn
from asm6502.disasm.model import TEXT_BYTES, Byte, Comment, Data, Equate, Instruction, Listing, Ref, Symbol
from asm6502.disasm.model import Word as WordItem
from asm6502.disasm.trace import Analysis
from asm6502.opcodes import Mode
from asm6502.tuples import named_tuple

TEXT_MIN = 4  # a run of at least this many text bytes is written as text
TEXT_CHUNK = 40  # characters per text line (Profi-Ass overflows past ~48 in one .asc)
BYTES_PER_LINE = 8
WORDS_PER_LINE = 4

# reference kinds -> label prefix, strongest first
ROLE_ORDER = ("start", "sub", "loop", "l", "vec", "tab", "txt", "dat", "mod")
ZERO_PAGE_MODES = frozenset({Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y, Mode.INDEXED_INDIRECT,
                             Mode.INDIRECT_INDEXED})
INDEXED_MODES = frozenset({Mode.ABSOLUTE_X, Mode.ABSOLUTE_Y, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y})


@named_tuple  # (named tuples, not dataclasses: start-up, see disasm/model.py)
class _Ref:
    target: int
    role: str


def _unit_start(a: Analysis, address: int) -> int:
    """The start of the instruction or table word that holds ``address``."""
    if address in a.owner:
        return a.owner[address]
    if address - 1 in a.words and address not in a.words:
        return address - 1
    return address


def _text_run(a: Analysis, address: int, end: int, limit: int = TEXT_CHUNK) -> int:
    """How many text bytes start at ``address`` (before ``end``; counting stops at ``limit``)."""
    n = 0
    while n < limit and address + n < end and a.byte(address + n) in TEXT_BYTES:
        n += 1
    return n


def _references(a: Analysis, entries: list[int]) -> list[_Ref]:
    refs = [_Ref(e, "start" if n == 0 else "sub") for n, e in enumerate(entries)]
    for insn in a.code.values():
        if insn.value is None or insn.mode is Mode.IMMEDIATE:
            continue
        if insn.mnemonic == "JSR":
            role = "sub"
        elif insn.mode is Mode.RELATIVE or insn.mnemonic == "JMP" and insn.mode is Mode.ABSOLUTE:
            role = "loop" if insn.value <= insn.address else "l"
        elif insn.mode is Mode.INDIRECT:
            role = "vec"
        elif insn.mode in INDEXED_MODES:
            role = "tab"
        else:
            role = "dat"
        refs.append(_Ref(insn.value, role))
    for word in a.words.values():
        if word.pointer:
            refs.append(_Ref(word.target, "sub" if word.adjust or word.target in a.code else "dat"))
    for tb in a.table_bytes.values():
        refs.append(_Ref(tb.target, "sub" if tb.adjust or tb.target in a.code else "dat"))
    for _, target in a.pairs.values():
        refs.append(_Ref(target, "dat"))
    return [r for r in refs if a.inside(r.target)]


def _labels(a: Analysis, refs: list[_Ref]) -> dict[int, Symbol]:
    roles: dict[int, set[str]] = {}
    for r in refs:
        base = _unit_start(a, r.target)
        if base == r.target or r.role in ("sub", "loop", "l"):
            role = r.role  # a jump into an instruction names it as a jump target (written label+1)
        else:
            role = "mod" if base in a.code else "dat"
        if role in ("tab", "dat") and base not in a.code and _text_run(a, base, a.end, TEXT_MIN) >= TEXT_MIN:
            role = "txt"
        if role in ("dat", "tab") and base in a.code:
            role = "mod"  # code read or written as data: self-modifying code
        roles.setdefault(base, set()).add(role)
    out = {}
    for base, rs in roles.items():
        role = next(r for r in ROLE_ORDER if r in rs)
        if role == "start":
            out[base] = Symbol("start", "start")
        else:
            out[base] = Symbol(f"{role}_{base:04x}", f"{role}{base:04x}")
    return out


class _Builder:
    def __init__(self, a: Analysis, dec: Decoder, labels: dict[int, Symbol]):
        self.a, self.dec, self.labels = a, dec, labels
        self.rom_used: dict[int, names.RomName] = {}

    def ref(self, value: int, digits: int = 4) -> Ref:
        if self.a.inside(value):
            base = _unit_start(self.a, value)
            return Ref(value, self.labels[base], value - base)
        hit = names.lookup(value)
        if hit is not None:
            row, offset = hit
            self.rom_used[row.address] = row
            return Ref(value, Symbol(row.name, row.short), offset)
        return Ref(value, digits=digits)

    def instruction(self, insn: Insn) -> Instruction:
        label = self.labels.get(insn.address)
        operand: Ref | Byte | None = None
        if insn.mode is Mode.IMMEDIATE:
            assert insn.value is not None
            pair = self.a.pairs.get(insn.address)
            operand = Byte(insn.value, pair[0], self.ref(pair[1])) if pair else Byte(insn.value)
        elif insn.value is not None:
            operand = self.ref(insn.value, 2 if insn.mode in ZERO_PAGE_MODES else 4)
        return Instruction(insn.address, label, insn.mnemonic.lower(), insn.mode, operand, self.dec.needs_force(insn))

    def word(self, address: int) -> WordItem:
        w = self.a.words[address]
        value = self.a.word_at(address)
        if w.pointer and self.a.inside(w.target):
            return WordItem(value, self.ref(w.target), w.adjust)
        if w.pointer and w.adjust == 0:
            return WordItem(value, self.ref(value))
        return WordItem(value, decimal=not w.pointer)

    def table_byte(self, address: int) -> Byte:
        tb = self.a.table_bytes[address]
        return Byte(self.a.byte(address), tb.part, self.ref(tb.target), tb.adjust)

    def body(self) -> list[Instruction | Data | Comment]:
        a = self.a
        out: list[Instruction | Data | Comment] = []
        address = a.origin
        while address < a.end:
            label = self.labels.get(address)
            if label is not None and label.short.startswith(("start", "sub")) and out:
                out.append(Comment(""))
            if address in a.code:
                out.append(self.instruction(a.code[address]))
                address = a.code[address].end
            elif address in a.words:
                address = self.run(out, address, 2, WORDS_PER_LINE, lambda x: x in a.words, self.word, "words")
            elif address in a.table_bytes:
                address = self.run(out, address, 1, BYTES_PER_LINE, lambda x: x in a.table_bytes, self.table_byte,
                                   "bytes")
            else:
                end = address + 1
                while end < a.end and not (end in a.code or end in a.words or end in a.table_bytes
                                           or end in self.labels):
                    end += 1
                self.plain(out, address, end)
                address = end
        return out

    def run(self, out: list, address: int, step: int, per_line: int, member: Callable[[int], bool],
            item: Callable[[int], object], kind: str) -> int:
        """One line of table words or table bytes from ``address``; returns the address after it."""
        items: list[object] = []
        start = address
        while address < self.a.end and member(address) and len(items) < per_line:
            if items and address in self.labels:
                break
            items.append(item(address))
            address += step
        out.append(Data(start, self.labels.get(start), kind, tuple(items)))
        return address

    def plain(self, out, address: int, end: int) -> None:
        a = self.a
        label = self.labels.get(address)
        while address < end:
            n = _text_run(a, address, end, TEXT_CHUNK + TEXT_MIN)
            if n > TEXT_CHUNK:  # a full line, but leave at least TEXT_MIN characters for the next one
                n = min(TEXT_CHUNK, n - TEXT_MIN)
            if n >= TEXT_MIN:
                out.append(Data(address, label, "text", tuple(a.memory[address - a.origin:address - a.origin + n])))
            else:  # bytes up to the line's width, or to where text starts
                n = 1
                while address + n < end and n < BYTES_PER_LINE and _text_run(a, address + n, end, TEXT_MIN) < TEXT_MIN:
                    n += 1
                out.append(Data(address, label, "bytes", tuple(Byte(a.byte(address + i)) for i in range(n))))
            label = None
            address += n


def build(a: Analysis, dec: Decoder, entries: list[int], title: str, cpu: str, stub: BasicStub | None) -> Listing:
    refs = _references(a, entries)
    labels = _labels(a, refs)
    b = _Builder(a, dec, labels)
    body: list[Instruction | Data | Comment] = []
    if stub is not None:
        body.append(Comment(f"basic line {stub.line_number} sys{stub.sys_address}"))
    body += b.body()
    equates = [Equate(Symbol(row.name, row.short), row.address) for row in b.rom_used.values()]
    # labels in zero page are defined before use: every assembler then picks the zero-page forms
    equates += [Equate(sym, address) for address, sym in labels.items() if address < 0x100]
    equates.sort(key=lambda e: (e.value, e.symbol.name))
    zero_page = {address for address in labels if address < 0x100}
    body = [_unlabel(s) if isinstance(s, (Instruction, Data)) and s.address in zero_page else s for s in body]
    return Listing(title, a.origin, a.end, cpu, tuple(entries), tuple(equates), tuple(body))


def _unlabel(s: Instruction | Data) -> Instruction | Data:
    return s._replace(label=None)  # type: ignore[union-attr]  # (a named tuple)
