"""Random programs with real control flow, for the disassembler's tests (no test logic here).

A program is a row of blocks laid out from its origin: code blocks (plain
instructions, branches to instruction starts in reach, JSRs to other blocks,
ending in RTS, JMP or JAM), data blocks (bytes, PETSCII text), a ``jmp (vec)``
vector and jump tables dispatched with the RTS trick (interleaved ``.wor``
pairs or split low/high tables) or through a vector.  Operands point at
instruction starts, into instructions (self-modifying code), at data, at ROM
registers, or anywhere.  The generator knows which instruction starts are
reachable from the entry, so a test can check the tracer found them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from asm6502.cpu import instruction_set
from asm6502.opcodes import BRANCHES, ZERO_PAGE_FORM, Mode

FLOW = {"JMP", "JSR", "RTS", "RTI", "BRK", "JAM"} | BRANCHES
ROM_ADDRESSES = [0xD020, 0xD021, 0xD418, 0xDC0D, 0xFFD2, 0xFFE4, 0x0314, 0x0400, 0xD800 + 40]


@dataclass
class _Insn:
    mnemonic: str
    mode: Mode
    target: str = ""  # "" = random operand; "branch", "block", "data", "into", "table:N", "vec:N", "force"
    value: int = 0
    address: int = 0
    resolved: int = 0  # the operand as laid out (a branch: its target address)

    @property
    def size(self) -> int:
        return 1 + self.mode.operand_size


@dataclass
class _Block:
    kind: str  # "code", "bytes", "table", "split", "vector"
    insns: list[_Insn] = field(default_factory=list)
    data: bytes = b""
    targets: list[int] = field(default_factory=list)  # block numbers a table or vector points to
    address: int = 0
    dispatch: bool = False  # code that reads a jump table and jumps through it

    @property
    def size(self) -> int:
        if self.kind == "code":
            return sum(i.size for i in self.insns)
        if self.kind == "bytes":
            return len(self.data)
        if self.kind == "table":
            return 2 * len(self.targets) + 2  # + a $ffff end marker (points outside every program)
        if self.kind == "split":
            return 2 * len(self.targets) + 2
        return 2  # vector


class FlowGen:
    def __init__(self, seed: int, cpu: str = "6502", tricks: bool = False):
        self.rnd = random.Random(seed)
        self.table = instruction_set(cpu)
        self.tricks = tricks  # jumps into the middle of instructions
        self.plain = sorted(((m, mode) for m, modes in self.table.items() if m not in FLOW for mode in modes),
                            key=lambda x: (x[0], x[1].label))

    def _plain(self) -> _Insn:
        m, mode = self.rnd.choice(self.plain)
        target = ""
        if mode.operand_size == 2 and mode is not Mode.INDIRECT:
            target = self.rnd.choice(["", "data", "into", "force", "rom", "code"])
            if target == "force" and ZERO_PAGE_FORM.get(mode) not in self.table[m]:
                target = ""
        return _Insn(m, mode, target, self.rnd.randrange(0x10000 if mode.operand_size == 2 else 0x100))

    def _code(self, n_blocks: int) -> _Block:
        rnd = self.rnd
        insns = []
        for _ in range(rnd.randrange(1, 12)):
            r = rnd.random()
            if r < 0.15:
                insns.append(_Insn(rnd.choice(sorted(BRANCHES)), Mode.RELATIVE, "branch"))
            elif r < 0.25:
                insns.append(_Insn("JSR", Mode.ABSOLUTE, "block", rnd.randrange(n_blocks)))
            elif r < 0.3 and self.tricks:
                insns.append(_Insn("JMP", Mode.ABSOLUTE, "into"))
            else:
                insns.append(self._plain())
        end = rnd.random()
        if end < 0.5:
            insns.append(_Insn("RTS", Mode.IMPLIED))
        elif end < 0.9 or "JAM" not in self.table:
            insns.append(_Insn("JMP", Mode.ABSOLUTE, "block", rnd.randrange(n_blocks)))
        else:
            insns.append(_Insn("JAM", Mode.IMPLIED))
        return _Block("code", insns)

    def _dispatch(self, how: str, table_block: int) -> _Block:
        """The code reading jump table ``table_block`` (its entries chosen in program())."""
        if how == "table":  # RTS trick, interleaved: lda tab+1,x : pha : lda tab,x : pha : rts
            ins = [_Insn("LDA", Mode.ABSOLUTE_X, f"table:{table_block}", 1), _Insn("PHA", Mode.IMPLIED),
                   _Insn("LDA", Mode.ABSOLUTE_X, f"table:{table_block}", 0), _Insn("PHA", Mode.IMPLIED),
                   _Insn("RTS", Mode.IMPLIED)]
        elif how == "split":  # RTS trick, split tables: lda hi,x : pha : lda lo,x : pha : rts
            ins = [_Insn("LDA", Mode.ABSOLUTE_Y, f"split-hi:{table_block}"), _Insn("PHA", Mode.IMPLIED),
                   _Insn("LDA", Mode.ABSOLUTE_Y, f"split-lo:{table_block}"), _Insn("PHA", Mode.IMPLIED),
                   _Insn("RTS", Mode.IMPLIED)]
        else:  # jmp (vec)
            ins = [_Insn("JMP", Mode.INDIRECT, f"vec:{table_block}")]
        return _Block("code", [self._plain(), *ins], dispatch=True)

    def program(self, origin: int) -> tuple[bytes, set[int]]:
        """(bytes, reachable instruction starts)."""
        rnd = self.rnd
        n = rnd.randrange(2, 8)
        blocks: list[_Block] = [self._code(n) for _ in range(n)]
        # data and dispatch blocks go after the code blocks that may call them
        for _ in range(rnd.randrange(0, 3)):
            how = rnd.choice(["table", "split", "vector"])
            blocks.append(_Block(how, targets=[rnd.randrange(n) for _ in range(rnd.randrange(1, 5))]))
            blocks.append(self._dispatch(how, len(blocks) - 1))
            blocks[0].insns.insert(0, _Insn("JSR", Mode.ABSOLUTE, "block", len(blocks) - 1))
        for _ in range(rnd.randrange(0, 4)):
            pos = rnd.randrange(1, len(blocks) + 1)
            text = rnd.random() < 0.5
            data = bytes(rnd.choice(b"HELLO WORLD 0123 hello") if text else rnd.randrange(256)
                         for _ in range(rnd.randrange(1, 50)))
            blocks.insert(pos, _Block("bytes", data=data))
            for b in blocks:  # keep block numbers in the references right
                for i in b.insns:
                    if i.target == "block" and i.value >= pos:
                        i.value += 1
                    if ":" in i.target and int(i.target.split(":")[1]) >= pos:
                        kind, num = i.target.split(":")
                        i.target = f"{kind}:{int(num) + 1}"
                b.targets = [t + 1 if t >= pos else t for t in b.targets]
        self._layout(blocks, origin)
        return self._bytes(blocks, origin), self._reachable(blocks)

    def _layout(self, blocks: list[_Block], origin: int) -> None:
        address = origin
        for b in blocks:
            b.address = address
            for i in b.insns:
                i.address = address
                address += i.size
            if b.kind != "code":
                address += b.size

    def _operand(self, i: _Insn, blocks: list[_Block]) -> int:
        rnd = self.rnd
        starts = [x.address for b in blocks for x in b.insns]
        if i.target == "branch":
            near = [a for a in starts if -128 <= a - (i.address + 2) <= 127]
            return (rnd.choice(near) - (i.address + 2)) & 0xFF
        if i.target == "block":
            return blocks[i.value].address
        if i.target == "code":
            return rnd.choice(starts)
        if i.target == "into":
            longer = [x for b in blocks for x in b.insns if x.size > 1]
            x = rnd.choice(longer)
            return x.address + rnd.randrange(1, x.size)
        if i.target == "data":
            data = [b for b in blocks if b.kind == "bytes"]
            if not data:
                return i.value
            d = rnd.choice(data)
            return d.address + rnd.randrange(len(d.data))
        if i.target == "force":
            return i.value & 0xFF
        if i.target == "rom":
            return rnd.choice(ROM_ADDRESSES)
        if ":" in i.target:
            kind, num = i.target.split(":")
            b = blocks[int(num)]
            if kind == "table":
                return b.address + i.value
            if kind == "split-lo":
                return b.address
            if kind == "split-hi":
                return b.address + len(b.targets) + 1
            return b.address  # vec
        return i.value

    def _bytes(self, blocks: list[_Block], origin: int) -> bytes:
        out = bytearray()
        for b in blocks:
            if b.kind == "code":
                for i in b.insns:
                    out.append(self.table[i.mnemonic][i.mode])
                    if i.size > 1:
                        v = self._operand(i, blocks)
                        out += v.to_bytes(i.size - 1, "little")
                        i.resolved = i.address + 2 + (v - 256 if v >= 128 else v) if i.mode is Mode.RELATIVE else v
            elif b.kind == "bytes":
                out += b.data
            elif b.kind == "table":
                for t in b.targets:
                    out += ((blocks[t].address - 1) & 0xFFFF).to_bytes(2, "little")
                out += b"\xff\xff"
            elif b.kind == "split":
                values = [(blocks[t].address - 1) & 0xFFFF for t in b.targets]
                out += bytes(v & 0xFF for v in values) + b"\xff" + bytes(v >> 8 for v in values) + b"\xff"
            else:
                out += blocks[b.targets[0]].address.to_bytes(2, "little")
        assert len(out) == sum(b.size for b in blocks) and origin + len(out) <= 0x10000
        return bytes(out)

    def _reachable(self, blocks: list[_Block]) -> set[int]:
        """Instruction starts reached from the first instruction (the tricks' targets left out)."""
        by_address = {i.address: (i, b) for b in blocks for i in b.insns}
        seen: set[int] = set()
        work = [blocks[0].address]
        while work:
            a = work.pop()
            if a in seen or a not in by_address:
                continue
            seen.add(a)
            i, b = by_address[a]
            nxt = a + i.size
            if i.target == "block":
                work.append(blocks[i.value].address)
            if i.target.startswith("vec:"):
                work.append(blocks[blocks[int(i.target[4:])].targets[0]].address)
            if i.mnemonic == "RTS" and b.dispatch:  # the RTS trick: on to the table's targets
                for x in b.insns:
                    if x.target.startswith(("table:", "split-lo:")):
                        work += [blocks[t].address for t in blocks[int(x.target.split(":")[1])].targets]
            if i.target == "branch":
                work.append(i.resolved)
            if i.mnemonic not in ("RTS", "JMP", "JAM", "RTI", "BRK"):
                work.append(nxt)
        return seen
