"""Differential tests: our assembler against 64tass (and ACME), byte for byte.

64tass and ACME are independent assemblers (Debian packages, installed by
``.ci/run``); their output is the oracle.  Every test writes the same program
in our Profi-Ass dialect and in the other tool's syntax and compares the raw
bytes (``64tass --nostart``, ``acme -f plain``).

Differences allowed, and only where a documented Profi-Ass rule applies:

* **left-to-right evaluation** -- ``2+3*4`` is 20 for us; the 64tass/ACME text
  gets explicit brackets in left-to-right order;
* **forward references are sized absolute** -- 64tass would pick zero page for
  a forward reference whose final value is < 256, so its text gets ``@w``
  (ACME sizes them absolute itself, like Profi-Ass);
* **8-character labels** -- longer names are cut to 8 characters (with a
  warning); the 64tass text uses the cut names.

The long random-program run: ``DIFF_PROGRAMS=5000 .venv/bin/python -m pytest -m slow tests/test_differential_64tass.py``
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import sys

from asm6502.asm import expr as ex
from asm6502.asm import Options, assemble
from asm6502.diagnostics import DiagnosticError
from asm6502.cpu import instruction_set
from asm6502.opcodes import BRANCHES, DECODE, OPCODES, ZERO_PAGE_FORM, Mode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from gen_large import attach_labels  # noqa: E402  (lone labels as Profi-Ass wants them)
from asm6502.opcodes_undoc import ALIASES, UNDOCUMENTED, UNSTABLE, UNSTABLE_OPCODES

TASS = shutil.which("64tass")
ACME = shutil.which("acme")
needs_64tass = pytest.mark.skipif(TASS is None, reason="64tass not installed (.ci/run installs it)")
needs_acme = pytest.mark.skipif(ACME is None, reason="acme not installed (.ci/run installs it)")

ORG = 0x1000

# --- running the tools ----------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    ok: bool
    data: bytes
    messages: str


def run_64tass(source: str, cpu: str = "6502") -> Run:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "t.s"), Path(tmp, "t.bin")
        src.write_text(source)
        args = [TASS, "--nostart", "--quiet", "--no-warn", "-o", str(out), str(src)]
        if cpu == "6502i":
            args.insert(1, "-i")  # 64tass: NMOS 6502 with the illegal opcodes
        proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
        ok = proc.returncode == 0 and out.exists()
        return Run(ok, out.read_bytes() if ok else b"", proc.stdout + proc.stderr)


def run_acme(source: str) -> Run:
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "t.a"), Path(tmp, "t.bin")
        src.write_text(source)
        proc = subprocess.run([ACME, "-f", "plain", "-o", str(out), str(src)], capture_output=True, text=True, timeout=60)
        ok = proc.returncode == 0 and out.exists()
        return Run(ok, out.read_bytes() if ok else b"", proc.stdout + proc.stderr)


def ours(source: str, cpu: str = "6502"):
    return assemble(source, "t.asm", Options(cpu=cpu))


# --- one program per opcode, written three times ----------------------------------------
#
# An operand is (ours, 64tass, acme-operand, acme-suffix): the same value in each syntax.
# The program around it:
#
#     *= $1000
#     back nop          ; a label defined before use ($1000)
#     zback = $42       ; a zero-page equate defined before use
#     ...instructions...
#     fwd nop           ; a label defined after use
#     zfwd = $34        ; a zero-page equate defined after use

HEAD = ["*= $1000", "back nop", "zback = $42"]
TAIL = ["fwd nop", "zfwd = $34"]


def same(text: str) -> tuple[str, str, str, str]:
    return (text, text, text, "")


ZP_OPERANDS = [same("$00"), same("$ff"), same("zback"), same("zback+$10")]
IMMEDIATE_OPERANDS = [same("$00"), same("$ff"), same("<$ffff"), same(">$100"), same("<fwd"), same(">back"), same("zfwd")]
ABS_OPERANDS = [
    same("$100"),
    same("$ffff"),
    same("back"),
    same("fwd"),
    same("fwd-1"),
    ("!$00", "@w $00", "$00", "+2"),  # '!' forces absolute addressing
    ("!zback", "@w zback", "zback", "+2"),
    # forward reference to a zero-page value: Profi-Ass (and ACME) size it absolute
    ("zfwd", "@w zfwd", "zfwd", ""),
]
INDIRECT_OPERANDS = [same("$0000"), same("$fffe"), same("back"), same("fwd")]


def operands_for(mnemonic: str, mode: Mode, table: dict) -> list[tuple[str, str, str, str]]:
    modes = table[mnemonic]
    if mode in (Mode.IMPLIED, Mode.ACCUMULATOR):
        return [same("")]
    if mode is Mode.IMMEDIATE:
        return IMMEDIATE_OPERANDS
    if mode in (Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y, Mode.INDEXED_INDIRECT, Mode.INDIRECT_INDEXED):
        return ZP_OPERANDS
    if mode is Mode.INDIRECT:
        return INDIRECT_OPERANDS
    out = list(ABS_OPERANDS)
    if ZERO_PAGE_FORM[mode] not in modes:
        # no zero-page twin (jmp/jsr, lda abs,y, ...): small values are assembled absolute too
        out += [same("$00"), same("$ff"), same("zback")]
    return out


def render(mnemonic: str, mode: Mode, op: tuple[str, str, str, str]) -> tuple[str, str, str]:
    m = mnemonic.lower()
    fmt = {
        Mode.IMPLIED: "", Mode.ACCUMULATOR: "", Mode.IMMEDIATE: "#{}", Mode.ZERO_PAGE: "{}", Mode.ABSOLUTE: "{}",
        Mode.ZERO_PAGE_X: "{},x", Mode.ABSOLUTE_X: "{},x", Mode.ZERO_PAGE_Y: "{},y", Mode.ABSOLUTE_Y: "{},y",
        Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y",
    }[mode]
    if mode is Mode.ACCUMULATOR:
        return f" {m} a", f" {m} a", f" {m}"
    ours_op, tass_op, acme_op, acme_suffix = op
    return (f" {m} {fmt.format(ours_op)}".rstrip(), f" {m} {fmt.format(tass_op)}".rstrip(), f" {m}{acme_suffix} {fmt.format(acme_op)}".rstrip())


def opcode_program(mnemonic: str, mode: Mode, table: dict) -> tuple[str, str, str, int]:
    lines = [render(mnemonic, mode, op) for op in operands_for(mnemonic, mode, table)]
    ours_src = "\n".join(HEAD + [l[0] for l in lines] + TAIL) + "\n"
    tass_src = "\n".join(HEAD + [l[1] for l in lines] + TAIL) + "\n"
    acme_src = "\n".join(HEAD + [l[2] for l in lines] + TAIL) + "\n"
    return ours_src, tass_src, acme_src, len(lines)


def instruction_rows(result):
    """Listing rows of the instructions between 'back nop' and 'fwd nop'."""
    rows = [r for r in result.listing if r.data and r.address is not None]
    return rows[1:-1]


DOCUMENTED = sorted((code, mnemonic, mode) for code, (mnemonic, mode) in DECODE.items())
ALL_UNDOCUMENTED = sorted((code, m, mode) for m, modes in UNDOCUMENTED.items() for mode, code in modes.items())


def test_tables_have_151_and_70_opcodes():
    assert len(DOCUMENTED) == 151
    assert len(ALL_UNDOCUMENTED) == 70
    # the undocumented opcodes use byte values the documented set leaves free
    assert not {code for code, _, _ in ALL_UNDOCUMENTED} & set(DECODE)


# branches have their own tests (test_branch_*): their operand is a target, not a value
NON_BRANCH = [(c, m, mode) for c, m, mode in DOCUMENTED if mode is not Mode.RELATIVE]


@needs_64tass
@pytest.mark.parametrize("code,mnemonic,mode", NON_BRANCH, ids=[f"{c:02X}-{m}-{mode.label}" for c, m, mode in NON_BRANCH])
def test_documented_opcode_matches_64tass(code, mnemonic, mode):
    ours_src, tass_src, _, count = opcode_program(mnemonic, mode, OPCODES)
    result = ours(ours_src)
    rows = instruction_rows(result)
    assert [r.data[0] for r in rows] == [code] * count, "operand did not select this addressing mode"
    tass = run_64tass(tass_src)
    assert tass.ok, tass.messages
    assert result.image == tass.data


@needs_acme
@pytest.mark.parametrize("code,mnemonic,mode", NON_BRANCH, ids=[f"{c:02X}-{m}-{mode.label}" for c, m, mode in NON_BRANCH])
def test_documented_opcode_matches_acme(code, mnemonic, mode):
    ours_src, _, acme_src, _ = opcode_program(mnemonic, mode, OPCODES)
    acme = run_acme(acme_src)
    assert acme.ok, acme.messages
    assert ours(ours_src).image == acme.data


@needs_64tass
@pytest.mark.parametrize("code,mnemonic,mode", ALL_UNDOCUMENTED, ids=[f"{c:02X}-{m}-{mode.label}" for c, m, mode in ALL_UNDOCUMENTED])
def test_undocumented_opcode_matches_64tass_i(code, mnemonic, mode):
    table = instruction_set("6502i")
    ours_src, tass_src, _, count = opcode_program(mnemonic, mode, table)
    result = ours(ours_src, cpu="6502i")
    assert [r.data[0] for r in instruction_rows(result)] == [code] * count
    tass = run_64tass(tass_src, cpu="6502i")
    assert tass.ok, tass.messages
    assert result.image == tass.data
    unstable_warnings = [d for d in result.diagnostics if "unstable" in d.message]
    if code in UNSTABLE_OPCODES:
        assert len(unstable_warnings) == count and all(d.span and d.span.line > 3 for d in unstable_warnings)
    else:
        assert unstable_warnings == []


@pytest.mark.parametrize("mnemonic", sorted(set(UNDOCUMENTED) - {"NOP"}))  # NOP is documented; its operand forms are checked below
def test_undocumented_mnemonics_need_cpu_6502i(mnemonic):
    modes = UNDOCUMENTED[mnemonic]
    mode = next(iter(modes))
    src, _, _, _ = opcode_program(mnemonic, mode, UNDOCUMENTED)
    # (a lone word is no label either: the original wants a statement after a label, SYNTAX 0)
    with pytest.raises(DiagnosticError) as info:
        ours(src, cpu="6502")
    assert all(d.span is not None for d in info.value.errors)
    assert f"{mnemonic} is an undocumented NMOS opcode: assemble with --cpu 6502i to use it" in info.value.errors[0].message


@needs_64tass
@pytest.mark.parametrize("alias,name", sorted(ALIASES.items()))
def test_64tass_aliases_are_refused_with_the_name_to_use(alias, name):
    table = UNDOCUMENTED[name]
    mode = Mode.IMMEDIATE if alias == "LXA" else next(iter(table))  # 64tass's LXA is LAX #imm only
    src = "*= $1000\n" + render(alias, mode, ZP_OPERANDS[0] if mode.operand_size == 1 else same("$1234"))[0] + "\n"
    # 64tass itself accepts the alias and gives the same opcode as our name
    assert run_64tass(src, cpu="6502i").data[0] == table[mode]
    with pytest.raises(DiagnosticError) as info:
        ours(src, cpu="6502i")
    assert info.value.errors[0].render() == (
        f"t.asm:2:2: error: '{alias.lower()}' is another name for {name}: asm6502 uses 64tass's names for the undocumented opcodes\n"
        f"  {src.splitlines()[1]}\n"
        f"   ^~~"
    )


def test_nop_with_operand_needs_cpu_6502i():
    with pytest.raises(DiagnosticError) as info:
        ours("*= $1000\n nop $12\n")
    assert "NOP takes no operand" in info.value.errors[0].message


def test_unstable_set_is_the_no_more_secrets_list():
    # "No More Secrets" (NMOS 6510 unintended opcodes): ANE and LAX #imm are "highly unstable",
    # SHA/SHX/SHY/SHS (TAS) "unstable" (the AND with the address high byte + 1).
    assert UNSTABLE == {"ANE", "SHA", "SHS", "SHX", "SHY"}
    assert UNSTABLE_OPCODES == {0x8B, 0xAB, 0x93, 0x9F, 0x9B, 0x9E, 0x9C}


# --- branches: +127 / -128 and one beyond ------------------------------------------------

BRANCH_OFFSETS = [  # (ours/64tass/acme operand, expected offset byte)
    ("*+129", 0x7F),  # +127
    ("*-126", 0x80),  # -128
    ("*+2", 0x00),
    ("*", 0xFE),
    ("back", None),
    ("fwd", None),
]


@needs_64tass
@needs_acme
@pytest.mark.parametrize("mnemonic", sorted(BRANCHES))
@pytest.mark.parametrize("target,offset", BRANCH_OFFSETS, ids=[t for t, _ in BRANCH_OFFSETS])
def test_branch_matches_64tass_and_acme(mnemonic, target, offset):
    src = "\n".join(HEAD + [f" {mnemonic.lower()} {target}"] + TAIL) + "\n"
    result = ours(src)
    row = instruction_rows(result)[0]
    assert row.data[0] == OPCODES[mnemonic][Mode.RELATIVE]
    if offset is not None:
        assert row.data[1] == offset
    tass, acme = run_64tass(src), run_acme(src)
    assert tass.ok and acme.ok, tass.messages + acme.messages
    assert result.image == tass.data == acme.data


@needs_64tass
@pytest.mark.parametrize("mnemonic", sorted(BRANCHES))
@pytest.mark.parametrize("target,how_far", [("*+130", "+128 bytes away, 1 byte too far"), ("*-127", "-129 bytes away, 1 byte too far")])
def test_branch_one_beyond_is_an_error(mnemonic, target, how_far):
    src = "\n".join(HEAD + [f" {mnemonic.lower()} {target}"] + TAIL) + "\n"
    with pytest.raises(DiagnosticError) as info:
        ours(src)
    (err,) = info.value.errors
    assert "branch out of range" in err.message and how_far in err.message
    assert (err.span.line, err.span.col) == (4, 2 + len(mnemonic) + 1)
    assert not run_64tass(src).ok  # 64tass refuses it too


# --- the documented dialect differences, shown to be real ----------------------------------


@needs_64tass
def test_forward_zero_page_reference_is_the_documented_difference():
    """Profi-Ass sizes a forward reference absolute; 64tass would pick zero page."""
    src = "*= $1000\n lda zfwd\nzfwd = $34\n"
    assert ours(src).image == bytes([0xAD, 0x34, 0x00])
    assert run_64tass(src).data == bytes([0xA5, 0x34])
    assert run_64tass(src.replace("lda zfwd", "lda @w zfwd")).data == ours(src).image


@needs_64tass
def test_left_to_right_evaluation_is_the_documented_difference():
    src = "*= $1000\n lda #2+3*4\n"
    assert ours(src).image == bytes([0xA9, 20])
    assert run_64tass(src).data == bytes([0xA9, 14])
    assert run_64tass("*= $1000\n lda #(2+3)*4\n").data == ours(src).image


@needs_64tass
def test_eight_character_labels_are_the_documented_difference():
    src = "*= $1000\nlonglabel1 = $1234\n lda longlabel2\n"
    result = ours(src)  # 'longlabel2' is 'longlabel1' to Profi-Ass: both are 'longlabe'
    assert result.image == bytes([0xAD, 0x34, 0x12])
    assert not run_64tass(src).ok  # 64tass: longlabel2 is undefined
    assert run_64tass("*= $1000\nlongl = $1234\n lda longl\n").data == result.image


def test_jmp_indirect_page_bug_warns_and_matches_64tass():
    src = "*= $1000\n jmp ($10ff)\n"
    result = ours(src)
    assert result.image == bytes([0x6C, 0xFF, 0x10])
    (w,) = [d for d in result.diagnostics if "JMP" in d.message]
    assert (w.span.line, w.span.col) == (2, 6)  # the operand "($10ff)"
    if TASS:
        assert run_64tass(src).data == result.image


# --- random programs ----------------------------------------------------------------------
#
# A seeded generator writes programs in our dialect: equates built from expressions using
# every operator, labels, instructions in every mode with expression operands, branches
# relative to '*', .byt/.wor data.  The 64tass text is derived from the same parts, with the
# dialect rules applied (explicit brackets in left-to-right order, '@w' on forward references).

OPS = {"+": "+", "-": "-", "*": "*", "/": "/", "!": "|", "&": "&", "^": "^", ">": ">>", "<": "<<"}


class ProgramGen:
    def __init__(self, seed: int):
        self.rnd = random.Random(seed)
        self.known: dict[str, int] = {}  # equates defined so far
        self.counter = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"[:8]

    def number(self, value: int) -> str:
        style = self.rnd.randrange(4)
        if style == 0:
            return str(value)
        if style == 1 and value <= 0xFF:
            return f"%{value:b}"
        return f"${value:x}" if style == 2 else f"${value:04x}" if value > 0xFF else f"${value:02x}"

    def term(self, max_value: int = 0xFFFF) -> tuple[str, str, int]:
        """(ours, 64tass, value) of a number or a known equate."""
        names = [n for n, v in self.known.items() if v <= max_value]
        if names and self.rnd.random() < 0.4:
            n = self.rnd.choice(names)
            return n, n, self.known[n]
        v = self.rnd.randrange(0, max_value + 1) if self.rnd.random() < 0.5 else self.rnd.choice([0, 1, 2, 3, 7, 8, 15, 16, 0xFF, 0x100, 0xFFFF])
        v = min(v, max_value)
        t = self.number(v)
        return t, t, v

    def expression(self, max_value: int) -> tuple[str, str, int]:
        """A left-to-right chain whose every intermediate value stays in 0..$FFFF."""
        for _ in range(100):
            ours_t, tass_t, value = self.term()
            ok = True
            for _ in range(self.rnd.randrange(0, 4)):
                op = self.rnd.choice(list(OPS))
                r_ours, r_tass, r = self.term(0xFF if op in "*/<>" else 0xFFFF)
                if op == "+":
                    new = value + r
                elif op == "-":
                    new = value - r
                elif op == "*":
                    new = value * r
                elif op == "/":
                    if r == 0:
                        ok = False
                        break
                    new = value // r
                elif op == "!":
                    new = value | r
                elif op == "&":
                    new = value & r
                elif op == "^":
                    new = value ^ r
                elif op == ">":
                    new = value >> r if r < 16 else 0
                    if r >= 16:
                        ok = False
                        break
                else:
                    if r >= 16:
                        ok = False
                        break
                    new = value << r
                if not 0 <= new <= 0xFFFF:
                    ok = False
                    break
                if self.rnd.random() < 0.15:  # Profi-Ass also groups with [ ] and ( )
                    ours_t = f"[{ours_t}]"
                ours_t += op + r_ours
                tass_t = f"({tass_t}){OPS[op]}{r_tass}"
                value = new
            if ok and value <= max_value:
                return ours_t, tass_t, value
        v = self.rnd.randrange(max_value + 1)
        return self.number(v), self.number(v), v

    def program(self, statements: int = 40) -> tuple[str, str]:
        rnd = self.rnd
        ours_lines = ["*= $2000"]
        tass_lines = ["*= $2000"]
        pending: list[tuple[str, int]] = []  # forward equates to define at the end
        labels = [self.name("l") for _ in range(4)]  # referenced anywhere, defined as the program goes on
        to_define = list(labels)
        table = OPCODES
        line_no = 100
        for _ in range(statements):
            kind = rnd.random()
            if kind < 0.15:
                name = self.name("e")
                o, t, v = self.expression(0xFFFF)
                ours_lines.append(f"{name} = {o}")
                tass_lines.append(f"{name} = {t}")
                self.known[name] = v
                continue
            if kind < 0.22:
                count = rnd.randrange(1, 6)
                word = rnd.random() < 0.4
                items = [self.expression(0xFFFF if word else 0xFF) for _ in range(count)]
                ours_lines.append((" .wor " if word else " .byt ") + ",".join(i[0] for i in items))
                tass_lines.append((" .word " if word else " .byte ") + ",".join(f"0+{i[1]}" for i in items))
                continue
            if kind < 0.28:
                mnemonic = rnd.choice(sorted(BRANCHES)).lower()
                k = rnd.randrange(-126, 130)
                op = f"*{k:+d}"
                ours_lines.append(f" {mnemonic} {op}")
                tass_lines.append(f" {mnemonic} {op}")
                continue
            if kind < 0.34 and to_define:
                name = to_define.pop(0)
                ours_lines.append(name)
                tass_lines.append(name)
                continue
            mnemonic = rnd.choice(sorted(m for m in table if m not in BRANCHES))
            mode = rnd.choice(list(table[mnemonic]))
            m = mnemonic.lower()
            if mode in (Mode.IMPLIED, Mode.ACCUMULATOR):
                text = f" {m} a" if mode is Mode.ACCUMULATOR and rnd.random() < 0.5 else f" {m}"
                ours_lines.append(text)
                tass_lines.append(text)
                continue
            zp_sized = mode in (Mode.ZERO_PAGE, Mode.ZERO_PAGE_X, Mode.ZERO_PAGE_Y, Mode.INDEXED_INDIRECT, Mode.INDIRECT_INDEXED, Mode.IMMEDIATE)
            if not zp_sized and labels and rnd.random() < 0.15:
                # a label: backward or forward, always >= $2000 so absolute for both
                name = rnd.choice(labels)
                o, t = name, name
            elif not zp_sized and rnd.random() < 0.2:
                # a forward reference: sized absolute by Profi-Ass; '@w' tells 64tass the same
                name = self.name("f")
                value = rnd.randrange(0x10000) if rnd.random() < 0.5 else rnd.randrange(0x100)
                if mode is Mode.INDIRECT and value & 0xFF == 0xFF:
                    value -= 1
                pending.append((name, value))
                o, t = name, (name if mode is Mode.INDIRECT else f"@w {name}")
            else:
                o, t, value = self.expression(0xFF if zp_sized else 0xFFFF)
                if not zp_sized and value <= 0xFF and ZERO_PAGE_FORM.get(mode) in table[mnemonic]:
                    mode = ZERO_PAGE_FORM[mode]  # both assemblers pick zero page for a known small value
                if mode is Mode.INDIRECT and value & 0xFF == 0xFF:
                    o, t = "$1000", "$1000"
                t = f"0+{t}"
            fmt = {
                Mode.IMMEDIATE: "#{}", Mode.ZERO_PAGE: "{}", Mode.ABSOLUTE: "{}",
                Mode.ZERO_PAGE_X: "{},x", Mode.ABSOLUTE_X: "{},x", Mode.ZERO_PAGE_Y: "{},y", Mode.ABSOLUTE_Y: "{},y",
                Mode.INDIRECT: "({})", Mode.INDEXED_INDIRECT: "({},x)", Mode.INDIRECT_INDEXED: "({}),y",
            }[mode]
            if mode is Mode.INDIRECT:
                tass_op = fmt.format(t.removeprefix("0+"))
            else:
                tass_op = fmt.format(t)
            ours_lines.append(f" {m} {fmt.format(o)}")
            tass_lines.append(f" {m} {tass_op}")
        for name in to_define:
            ours_lines.append(name)
            tass_lines.append(name)
        for name, value in pending:
            ours_lines.append(f"{name} = ${value:04x}")
            tass_lines.append(f"{name} = ${value:04x}")
        # number every line like a Profi-Ass source
        numbered = [f"{line_no + 10 * i} {text.strip()}" for i, text in enumerate(attach_labels(ours_lines))]
        return "\n".join(numbered) + "\n", "\n".join(tass_lines) + "\n"


def check_random_program(seed: int) -> None:
    ours_src, tass_src = ProgramGen(seed).program()
    tass = run_64tass(tass_src)
    assert tass.ok, f"seed {seed}: 64tass failed\n{tass.messages}\n{tass_src}"
    try:
        result = ours(ours_src)
    except DiagnosticError as exc:
        raise AssertionError(f"seed {seed}:\n" + "\n".join(d.render() for d in exc.diagnostics) + "\n" + ours_src) from None
    assert result.image == tass.data, f"seed {seed}\n{ours_src}\n{tass_src}"


DEFAULT_PROGRAMS = 200


@needs_64tass
@pytest.mark.parametrize("block", range(4))
def test_random_programs_match_64tass(block):
    per_block = DEFAULT_PROGRAMS // 4
    for seed in range(block * per_block, (block + 1) * per_block):
        check_random_program(seed)


@needs_64tass
@pytest.mark.slow
def test_random_programs_match_64tass_long():
    count = int(os.environ.get("DIFF_PROGRAMS", "5000"))
    for seed in range(10_000, 10_000 + count):
        check_random_program(seed)


def test_generator_uses_left_to_right_rule():
    """The generator's expressions really are evaluated left to right by us."""
    gen = ProgramGen(1)
    for _ in range(200):
        o, _, v = gen.expression(0xFFFF)
        assert ex.evaluate(o, {ex.key_of(n): value for n, value in gen.known.items()}) == v


# --- the machine runs what the assembler writes for every undocumented opcode -------------


def test_every_undocumented_opcode_runs_and_the_jams_stop():
    """Each undocumented instruction as ``--cpu 6502i`` writes it runs on the C64 machine
    (no ROM images: the stub ROMs) and the program returns; a JAM stops the CPU at it."""
    harness = pytest.importorskip("asm6502.emu.harness")
    for code, mnemonic, mode in ALL_UNDOCUMENTED:
        operand = {0: "", 1: " $12"}.get(mode.operand_size, " $1234")
        text = {Mode.IMMEDIATE: " #$12", Mode.INDEXED_INDIRECT: " ($12,x)", Mode.INDIRECT_INDEXED: " ($12),y",
                Mode.ZERO_PAGE_X: " $12,x", Mode.ZERO_PAGE_Y: " $12,y", Mode.ABSOLUTE_X: " $1234,x",
                Mode.ABSOLUTE_Y: " $1234,y"}.get(mode, operand)
        # (LDX #$FD / TXS: the stack pointer as SYS left it, after TAS and LAS have set it)
        result = ours(f"*= $1000\n lda #1\n {mnemonic.lower()}{text}\n ldx #$fd\n txs\n rts\n", cpu="6502i")
        assert result.image[2] == code
        machine = harness.Machine()
        machine.load(0x1000, result.image)
        run = machine.run(0x1000, max_instructions=100)
        if mnemonic == "JAM":
            assert run.reason is harness.StopReason.JAM, (mnemonic, mode, run)
            assert run.pc == 0x1002 and f"${code:02X}" in run.message
        else:
            assert run.reason is harness.StopReason.RETURNED, (mnemonic, mode, run)


# --- the benchmark programs (bench/gen_large.py, bench/gen_real.py), small: every dialect, same bytes


def _bench_program(program: str, seed: int) -> dict[str, str]:
    """The benchmark program ``program`` in a small instance: dialect -> source text."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import gen_large
    import gen_real

    if program == "large":
        items = gen_large.generate(3000, seed)
        return {d: gen_large.render_program(items, d) for d in gen_large.DIALECTS}
    prog = gen_real.generate(routines=40, seed=seed)
    return {d: gen_real.render(prog, d) for d in gen_real.DIALECTS}


@needs_64tass
@needs_acme
@pytest.mark.parametrize("program, seed", [("large", 1), ("large", 2), ("real", 1), ("real", 2)])
def test_bench_program_is_identical_in_every_dialect(program, seed, tmp_path):
    import sys

    texts = _bench_program(program, seed)
    result = ours(texts["asm6502"])
    assert len(result.image) > 500
    assert run_64tass(texts["64tass"]).data == result.image
    assert run_acme(texts["acme"]).data == result.image
    ophis = shutil.which("ophis", path=str(Path(sys.executable).parent))
    if ophis:  # optional (pip install ophis-asm), see bench/README.md
        (tmp_path / "p.oph").write_text(texts["ophis"])
        subprocess.run([ophis, "-q", "-o", str(tmp_path / "o.bin"), str(tmp_path / "p.oph")], check=True, capture_output=True)
        assert (tmp_path / "o.bin").read_bytes() == result.image


# --- completeness: 64tass -i accepts a mnemonic in a mode exactly when our table has it ----------

FORCED = {  # one operand per mode, with 64tass's explicit width so it cannot substitute another mode
    Mode.IMPLIED: "", Mode.IMMEDIATE: " #$12", Mode.ZERO_PAGE: " @b $12", Mode.ZERO_PAGE_X: " @b $12,x",
    Mode.ZERO_PAGE_Y: " @b $12,y", Mode.ABSOLUTE: " @w $1234", Mode.ABSOLUTE_X: " @w $1234,x",
    Mode.ABSOLUTE_Y: " @w $1234,y", Mode.INDIRECT: " ($1234)", Mode.INDEXED_INDIRECT: " ($12,x)",
    Mode.INDIRECT_INDEXED: " ($12),y",
}


@needs_64tass
@pytest.mark.parametrize("mnemonic", sorted(UNDOCUMENTED))
def test_undocumented_modes_are_exactly_those_of_64tass(mnemonic):
    table = instruction_set("6502i")[mnemonic]
    for mode, operand in FORCED.items():
        tass = run_64tass(f"*= $1000\n {mnemonic.lower()}{operand}\n", cpu="6502i")
        if mode in table:
            assert tass.ok and tass.data[0] == table[mode], (mnemonic, mode, tass.messages)
        else:
            assert not tass.ok, f"64tass has {mnemonic} {mode.label} = ${tass.data[0]:02X}, our table does not"
