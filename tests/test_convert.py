"""``asm6502 convert``: Profi-Ass -> 64tass / ACME, checked by the real assemblers.

The proof is byte equality: 64tass and ACME (independent assemblers, Debian
packages) must assemble every converted source to the .prg asm6502 gives for
the original.  Sources: Superhirn II, the manual's example programs, the
random programs run through the original Profi-Ass (those it assembled without
errors), the probe programs run on the original (tests/fixtures/profiass/*/),
random macro/loop programs (macro_loop_program: structured or not, the same bytes),
random programs from the two generators (tests/profiass_gen.py and the differential generator in tests/test_differential_64tass.py), a realistic
program from bench/gen_real.py (branch bench-real:
``python bench/gen_real.py --routines 60 --seed 64``, committed as
fixtures/convert/real_seed64.asm), every undocumented opcode, and a fixture of
every construct (fixtures/convert/features.asm, whose converted text is also
kept as a golden file).

Default suite: about 600 programs and 600 expressions per target (15 s); the long run:
``CONVERT_PROGRAMS=3000 .venv/bin/python -m pytest -m slow tests/test_convert.py``
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
import testdata
from helpers import real_file

from asm6502.asm import Options
from asm6502.cli import main as cli_main
from asm6502.convert import convert
from asm6502.convert.check import assemble_with, executable
from asm6502.diagnostics import DiagnosticError

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = HERE / "fixtures" / "convert"
MANUAL = testdata.names("profiass-manual", ".src")  # the manual's programs: test data from elsewhere
ORACLE_RANDOM = HERE / "fixtures" / "profiass" / "random" / "programs.jsonl"
TARGETS = ("64tass", "acme")

sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "bench"))


def needs(target: str):
    return pytest.mark.skipif(executable(target) is None, reason=f"{target} is not installed (.ci/run installs it)")


per_target = pytest.mark.parametrize("target", [pytest.param(t, marks=needs(t)) for t in TARGETS])


def round_trip(text: str, name: str, target: str, options: Options = Options(listing=False)) -> None:
    """Convert, assemble with the target, compare with asm6502's bytes."""
    conversion = convert(text, name, target, options)
    done = assemble_with(target, conversion.text)
    assert done.ok, f"{name}: {target} failed\n{done.messages}\n{conversion.text}"
    assert done.prg == conversion.result.prg, f"{name}: {target} gives other bytes\n{conversion.text}"


def assembling(programs):
    """(name, text) of the programs asm6502 assembles to bytes (the others have deliberate errors,
    or only define symbols for a '.sst' table: nothing to compare)."""
    from asm6502.asm import assemble

    for name, text in programs:
        try:
            result = assemble(text, name, Options(listing=False))
        except DiagnosticError:
            continue
        if result.segments:
            yield name, text


# --- whole programs ---------------------------------------------------------------------


@per_target
@pytest.mark.parametrize("source", ["sources/superhirn.asm", "build/superhirn-src.prg"])  # (the .prg: as a C64 saves it)
def test_superhirn_converts_to_the_same_bytes(target, source):
    from asm6502.asm.files import source_text

    path = ROOT / source
    conversion = convert(source_text(path.read_bytes(), str(path)), str(path), target)
    done = assemble_with(target, conversion.text)
    assert done.ok, done.messages
    assert done.prg == (ROOT / "build" / "superhirn.prg").read_bytes()


@per_target
@pytest.mark.parametrize("name", MANUAL, ids=lambda n: n.removesuffix(".src"))
def test_manual_examples(target, name):
    path = real_file("profiass-manual", name)
    round_trip(path.read_text(), str(path), target)


@per_target
@pytest.mark.parametrize(
    "name,options",
    [("features.asm", Options()), ("real_seed64.asm", Options()), ("undocumented.asm", Options(cpu="6502i"))],
)
def test_fixture_programs(target, name, options):
    path = FIXTURES / name
    round_trip(path.read_text(), str(path), target, options)


PROBES = sorted(p for p in (HERE / "fixtures" / "profiass").glob("*/*.src") if p.parent.name not in ("manual", "random"))
# ACME stops at $FFFF ("Produced too much code"); Profi-Ass wraps the program counter to $0000.
PROBES_NOT_FOR = {("org_pc_wrap_ffff", "acme")}


@per_target
def test_profiass_probe_programs(target):
    """The probe programs run on the original (tests/fixtures/profiass/*/): those without errors."""
    programs = [(str(p), p.read_text(errors="replace")) for p in PROBES if (Path(p).stem, target) not in PROBES_NOT_FOR]
    converted = 0
    for name, text in assembling(programs):
        round_trip(text, name, target)
        converted += 1
    assert converted >= 200


def oracle_programs():
    for line in ORACLE_RANDOM.read_text().splitlines():
        case = json.loads(line)
        if case["no_errors"]:
            yield f"seed{case['seed']}", case["source"]


@per_target
@pytest.mark.parametrize("quarter", [0] + [pytest.param(q, marks=pytest.mark.slow) for q in (1, 2, 3)])
def test_oracle_random_programs(target, quarter):
    programs = list(assembling(oracle_programs()))
    assert len(programs) == 365  # all that the original assembled without errors
    for name, text in programs[quarter::4]:
        round_trip(text, name, target)


@per_target
def test_generated_programs(target):
    from profiass_gen import generate

    for name, text in assembling((f"gen{s}", generate(s)) for s in range(60)):
        round_trip(text, name, target)


@per_target
def test_differential_generator_programs(target):
    from test_differential_64tass import ProgramGen

    for seed in range(40):
        round_trip(ProgramGen(seed).program()[0], f"diff{seed}", target)


@pytest.mark.slow
@per_target
def test_many_generated_programs(target):
    from profiass_gen import generate
    from test_differential_64tass import ProgramGen

    count = int(os.environ.get("CONVERT_PROGRAMS", "3000"))
    for name, text in assembling((f"gen{s}", generate(s)) for s in range(10_000, 10_000 + count)):
        round_trip(text, name, target)
    for seed in range(10_000, 10_000 + count):
        round_trip(ProgramGen(seed).program()[0], f"diff{seed}", target)


@pytest.mark.slow
@per_target
def test_realistic_programs(target):
    gen_real = pytest.importorskip("gen_real", reason="bench/gen_real.py is on branch bench-real")
    for seed in range(8):
        round_trip(gen_real.render(gen_real.generate(routines=300, seed=seed), "asm6502"), f"real{seed}", target)


def random_expression(rnd, depth: int = 0) -> str:
    """A Profi-Ass expression over every operator, brackets, unary minus, numbers in every base,
    character constants, symbols and '*'."""
    terms = []
    for _ in range(rnd.randint(1, 4)):
        pick = rnd.random()
        if pick < 0.15 and depth < 2:
            open_, close = rnd.choice(["()", "[]"])
            term = open_ + random_expression(rnd, depth + 1) + close
        elif pick < 0.25:
            term = "-" + rnd.choice(["3", "$10", "k1", "0"])
        elif pick < 0.5:
            term = rnd.choice(["k1", "k2", "big", "zero", "*"])
        elif pick < 0.6:
            term = '"' + rnd.choice("aZ5?") + '"'
        else:
            value = rnd.choice([0, 1, 2, 7, 16, 255, 256, 4096, 65535, rnd.randrange(65536)])
            term = rnd.choice([str(value), f"${value:x}", f"%{value:b}"])
        terms.append(term)
    out = terms[0]
    for term in terms[1:]:
        out += rnd.choice("+-*/!&^<>") + term
    return out


@per_target
@pytest.mark.parametrize("seed", [15] + [pytest.param(s, marks=pytest.mark.slow) for s in range(100, 130)])
def test_expressions_in_one_batch(target, seed):
    """600 random expressions as .wor items of one program: one run of the target checks them all."""
    import random

    from asm6502.asm import expr as ex

    rnd = random.Random(seed)
    values = {"k1": 5, "k2": 300, "big": 0xFFF0, "zero": 0}
    lines = ["10 sys 32768", "20 *= $1000", "30 k1 = 5", "40 k2 = 300", "50 big = $fff0", "60 zero = 0"]
    number = 70
    while len(lines) < 606:
        text = random_expression(rnd)
        try:
            ex.value(ex.parse(text), values, 0x1000 + 2 * (len(lines) - 6), None)
        except ex.ExprError:
            continue  # (division by zero, multiplication overflow: errors in Profi-Ass too)
        lines.append(f"{number} .wor {text}")
        number += 1
    round_trip("\n".join(lines) + "\n", "expressions.asm", target)


# --- what the converted text looks like -------------------------------------------------


@pytest.mark.parametrize("target,suffix", [("64tass", ".s"), ("acme", ".a")])
def test_features_golden(target, suffix):
    path = FIXTURES / "features.asm"
    text = convert(path.read_text(), str(path), target).text
    assert text == (FIXTURES / ("features" + suffix)).read_text()


def statements(source: str, target: str) -> list[str]:
    """The converted statements of a small program (header and comments left out)."""
    from asm6502.convert import TARGETS as SYNTAX

    text = convert("10 sys 32768\n" + source, "t.asm", target).text
    header = {line.format(cpu="6502") for line in SYNTAX[target].header}
    return [line.strip() for line in text.splitlines() if line.strip() and line not in header and not line.lstrip().startswith(";")]


@pytest.mark.parametrize(
    "source,tass,acme",
    [
        # left to right, re-bracketed for the targets' precedence
        ("20 *= $1000 : lda #2+3*4", "lda #(2 + 3) * 4", "lda #(2 + 3) * 4"),
        ("20 *= $1000 : lda #2*3+4", "lda #2 * 3 + 4", "lda #2 * 3 + 4"),
        ("20 *= $1000 : lda #8-[2-1]", "lda #8 - (2 - 1)", "lda #8 - (2 - 1)"),
        # '<' '>' inside an expression are shifts; '!' or; '^' xor
        ("20 *= $1000 : lda #1<3!4", "lda #1 << 3 | 4", "lda #1 << 3 | 4"),
        ("20 *= $1000 : lda #6^3&1", "lda #(6 ^ 3) & 1", "lda #(6 XOR 3) & 1"),
        # 16-bit wrap where the exact value differs
        ("20 *= $1000 : lda #$ffff+2", "lda #($ffff + 2) & $ffff", "lda #($ffff + 2) & $ffff"),
        ("20 *= $1000 : lda #-1", "lda #<((-1) & $ffff)", "lda #<((-1) & $ffff)"),
        # '<' '>' in front of an operand: low and high byte
        ("20 *= $1000 : lda #>$1234+1", "lda #>($1234 + 1)", "lda #>($1234 + 1)"),
        # '!' in front: forced absolute; a forward reference is absolute too
        ("20 *= $1000 : lda !$12", "lda @w $12", "lda+2 $12"),
        ("20 *= $1000 : lda f,x\n30 f = 5", "lda @w f,x", "lda+2 f,x"),
        # leading zeros dropped: ACME takes '$00fd' as 16 bits (absolute, and no '(zp),y'); Profi-Ass as $FD
        ("20 *= $1000 : lda $00fd", "lda $fd", "lda $fd"),
        ("20 *= $1000 : lda ($00fd),y : lda (%00000001,x)", "lda ($fd),y", "lda ($fd),y"),
        ("20 *= $1000\n30 hl = $00fd\n40 lda (hl),y", "hl = $fd", "hl = $fd"),
        # character constants in PETSCII
        ('20 *= $1000 : cmp #"a" : cmp #"A" : cmp #"?"', "cmp #'a'", "cmp #'a'"),
        # '.asc' with characters the targets write differently as numbers
        ('20 *= $1000 : .asc "Ab\\~{$0d}"', '.text "Ab", $5c, $ff, $0d', '!pet "Ab", $5c, $ff, $0d'),
    ],
)
def test_statement_translation(source, tass, acme):
    assert statements(source, "64tass")[1] == tass
    assert statements(source, "acme")[1] == acme


def test_macro_as_the_target_macro():
    source = "20 *= $1000\n30 m .mac p ; count down\n40 l dex\n50 bne .l\n60 .men\n70 'm 3\n80 'm 4\n"
    assert statements(source, "64tass") == ["* = $1000", "m               .macro p  ; count down", "l               dex", "bne l", ".endm", "#m 3", "#m 4"]
    assert statements(source, "acme") == ["* = $1000", "!macro m .p {  ; count down", ".l              dex", "bne .l", "}", "+m 3", "+m 4"]


def test_macro_whose_parameter_is_read_outside_is_expanded_with_local_labels():
    # the parameters are global symbols in Profi-Ass: 'lda #p' reads the last call's argument
    source = "20 *= $1000\n30 m .mac p\n40 l dex\n50 bne .l\n60 .men\n70 'm 3\n80 'm 4\n90 lda #p\n"
    assert statements(source, "64tass") == ["* = $1000", "p := 3", "l__01           dex", "bne l__01", "p := 4", "l__02           dex", "bne l__02", "lda #p"]


def test_goto_loop_as_the_target_loop():
    source = "20 *= $1000\n30 i _ 2\n40 .byt i\n50 i _ i-1\n60 .if i : .goto 40\n"
    assert statements(source, "acme") == ["* = $1000", "!set i = 2", "!do {  ; lines 40-60: .if i : .goto 40 (2 rounds)", "!byte i", "!set i = i - 1", "} while i"]
    assert statements(source, "64tass")[2:] == [
        ".for loop40 := 1, loop40 != 0, loop40 := i  ; lines 40-60: .if i : .goto 40 (2 rounds)", ".byte i", "i := i - 1", ".next"]


MANUAL_P24 = "manual:ex2_p24.src"  # read when the test runs (test data from elsewhere)
TABLE_LOOP = "10 sys 32768\n20 *= $1000\n30 i _ 0\n40 .byt i*3+1\n50 i _ i+1\n60 .if 8-i : .goto 40\n70 rts\n"
CALLS_MACRO = "10 sys 32768\n20 *= $1000\n30 inc2 .mac a\n40 inc a\n50 bne .s\n60 inc a+1\n70 s .men\n80 add .mac a,n\n90 'inc2 a\n100 lda #n\n110 .men\n120 'add $fb,1\n130 'add $fd,2\n140 shr .mac b\n150 'inc2 $10\n160 lda #b\n170 .men\n180 'shr $20\n"
NESTED = "10 sys 32768\n20 *= $1000\n30 j _ 0\n40 i _ 0\n50 .byt i+j\n60 i _ i+1\n70 .if 4-i : .goto 50\n80 j _ j+16\n90 .if 48-j : .goto 40\n"
SHAPES = {  # how the converted text shows (macros, calls, loops, expanded macros, unrolled loops)
    "64tass": (r"^\S+\s+\.macro\b", r"^\s+#\w", r"^\s+\.for\b", "is expanded at each call", "is unrolled"),
    "acme": (r"^\s+!macro\b", r"^\s+\+\w", r"^\s+!do\b", "is expanded at each call", "is unrolled"),
}


@pytest.mark.parametrize(
    "name,source,tass,acme",
    [
        # the manual's macro program (p. 24): two macros, four calls
        ("manual p24", MANUAL_P24, (2, 4, 0, 0, 0), (2, 4, 0, 0, 0)),
        # a table made by a .goto loop: one target loop
        ("table loop", TABLE_LOOP, (0, 0, 1, 0, 0), (0, 0, 1, 0, 0)),
        # 'i-5' is below 0 until the last round: every step wrapped to 16 bits, then one text for all rounds
        ("wrapped condition", "10 sys 32768\n20 *= $1000\n30 i _ 0\n40 .byt i*i\n50 i _ i+1\n60 .if i-5 : .goto 40\n", (0, 0, 1, 0, 0), (0, 0, 1, 0, 0)),
        # a loop in a loop: the inner one is a target loop in each of the 3 outer rounds, the outer one is unrolled
        ("nested loops", NESTED, (0, 0, 3, 0, 1), (0, 0, 3, 0, 1)),
        # '.if' and '.goto' not alone on their line: unrolled
        ("goto after a statement", "10 sys 32768\n20 *= $1000\n30 i _ 3\n40 .byt i\n50 i _ i-1\n60 nop : .if i : .goto 40\n", (0, 0, 0, 0, 1), (0, 0, 0, 0, 1)),
        # an argument that is an expression: 64tass puts the argument's text, bracketed, into the body; ACME its value
        ("expression argument", "10 sys 32768\n20 *= $1000\n30 m .mac a\n40 lda a+1,x\n50 .men\n60 'm $10+2\n70 'm 4\n", (1, 2, 0, 0, 0), (1, 2, 0, 0, 0)),
        # ... where 'lda (2+3),y' would be indirect in 64tass, the body has 'lda \\a + 0,y' (zero page stays zero page)
        ("expression as operand", "10 sys 32768\n20 *= $1000\n30 m .mac a\n40 lda a,y\n45 lda a\n46 jmp a\n50 .men\n60 'm $10+2\n70 'm 4\n", (1, 2, 0, 0, 0), (1, 2, 0, 0, 0)),
        # zero page in one call, absolute in another (a forward reference): expanded
        ("zero page by call", "10 sys 32768\n20 *= $1000\n30 m .mac a\n40 lda a\n50 .men\n60 'm $12\n70 'm fwd\n80 fwd = $34\n", (0, 0, 0, 1, 0), (0, 0, 0, 1, 0)),
        # macros calling macros ('shr' is a mnemonic alias in 64tass: the macro is 'shr_m' there)
        ("macro calls macro", CALLS_MACRO, (3, 5, 0, 0, 0), (3, 5, 0, 0, 0)),
        # ... but when the inner call overwrites a parameter the outer body reads afterwards (parameters are
        # global in Profi-Ass: 'lda #a' reads $10), both are expanded
        ("inner call sets the parameter", CALLS_MACRO.replace("shr .mac b", "shr .mac a").replace("lda #b", "lda #a"), (0, 0, 0, 3, 0), (0, 0, 0, 3, 0)),
        # '-1' is $FFFF: 'lda #<\\a', '(\\a + 1) & $ffff' in the body (the 16-bit wrap where any call needs it)
        ("wrapped by call", "10 sys 32768\n20 *= $1000\n30 m .mac a\n40 lda #a\n45 .wor a+1\n50 .men\n60 'm 5\n70 'm -1\n80 'm $ffff\n", (1, 3, 0, 0, 0), (1, 3, 0, 0, 0)),
        # zero page in one call, absolute in another by value: the same body text serves both
        ("size by value", "10 sys 32768\n20 *= $1000\n30 m .mac a\n40 lda a,x\n50 .men\n60 'm $12\n70 'm $1234\n", (1, 2, 0, 0, 0), (1, 2, 0, 0, 0)),
    ],
)
def test_structure_of_the_converted_text(name, source, tass, acme):
    import re

    if source.startswith("manual:"):
        source = real_file("profiass-manual", source.removeprefix("manual:")).read_text()
    for target, expected in (("64tass", tass), ("acme", acme)):
        text = convert(source, "t.asm", target).text
        macros, calls, loops, expanded, unrolled = SHAPES[target]
        counts = (
            len(re.findall(macros, text, re.M)),
            len(re.findall(calls, text, re.M)),
            len(re.findall(loops, text, re.M)),
            text.count(expanded),
            text.count(unrolled),
        )
        assert counts == expected, f"{name} ({target}):\n{text}"
        if executable(target):
            round_trip(source, "t.asm", target)


def test_variable_read_before_its_assignment_starts_with_the_pass_1_value():
    # pass 2 starts with the values pass 1 ended with (asm6502/asm/encode.py)
    text = convert("10 sys 32768\n20 *= $1000\n30 .byt v\n40 v _ 7\n", "t.asm", "64tass").text
    assert "v := $7" in text.split(".byte v")[0]
    for target in TARGETS:
        if executable(target):
            round_trip("10 sys 32768\n20 *= $1000\n30 .byt v\n40 v _ 7\n", "t.asm", target)


@per_target
def test_defines_from_the_command_line_go_first(target):
    source = "10 sys 32768\n20 *= $1000\n30 .if debug : lda #debug\n40 rts\n"
    options = Options(defines=(("debug", 3),))
    assert "debug = $3  ; (-D on the command line)" in convert(source, "t.asm", target, options).text
    round_trip(source, "t.asm", target, options)


# --- what cannot be translated -----------------------------------------------------------


def test_lst_cannot_be_translated(tmp_path):
    (tmp_path / "syms").write_bytes(b"")
    src = tmp_path / "t.asm"
    src.write_text('10 sys 32768\n20 *= $1000\n30 .lst 8,2,"syms"\n40 rts\n')
    with pytest.raises(DiagnosticError) as info:
        convert(src.read_text(), str(src), "64tass")
    rendered = info.value.diagnostics[0].render()
    assert rendered.startswith(f"{src}:3:4: error: '.lst' (load a symbol table from disk) cannot be translated")


def test_sst_is_a_warning(tmp_path):
    conversion = convert('10 sys 32768\n20 *= $1000\n30 rts\n40 .sst 8,2,"syms,s,w"\n', "t.asm", "acme")
    assert [d.render().splitlines()[0] for d in conversion.diagnostics] == [
        "t.asm:4:4: warning: '.sst' (write the symbol table to a file) has no counterpart in acme: left as a comment (line 40)"
    ]


# --- the command ---------------------------------------------------------------------------


def test_cli_writes_the_converted_source(tmp_path, capsys):
    src = FIXTURES / "features.asm"
    out = tmp_path / "f.s"
    assert cli_main(["convert", str(src), "--to", "64tass", "-o", str(out), "-q"]) == 0
    assert out.read_text() == (FIXTURES / "features.s").read_text()


@pytest.mark.parametrize("target", TARGETS)
def test_cli_says_what_became_macros_and_loops(target, tmp_path, capsys):
    # the realistic program (bench/gen_real.py): its four macros with local labels and its .goto table loops
    assert cli_main(["convert", str(FIXTURES / "real_seed64.asm"), "--to", target, "-o", str(tmp_path / "r.txt")]) == 0
    assert (f"structure: 4 macro(s) as {target} macros, 0 expanded at each call; 4 .goto loop(s) as {target} loops, 0 unrolled"
            in capsys.readouterr().err)  # fmt: skip


@needs("acme")
def test_cli_check_runs_the_target(tmp_path, capsys):
    out = tmp_path / "sh.a"
    assert cli_main(["convert", str(ROOT / "sources" / "superhirn.asm"), "--to", "acme", "-o", str(out), "--check"]) == 0
    assert "checked: acme assembles it to the same 525 bytes as asm6502" in capsys.readouterr().err


def test_cli_bad_source_is_an_error_and_writes_nothing(tmp_path, capsys):
    src = tmp_path / "bad.asm"
    src.write_text("10 sys 32768\n20 lda #1 : xx\n")
    assert cli_main(["convert", str(src), "--to", "acme"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:13: error: ")
    assert "Traceback" not in err
    assert not (tmp_path / "bad.a").exists()


# --- macros and loops at random: whatever becomes a target macro/loop must give the same bytes ---


def macro_loop_program(seed: int) -> str:
    """Macros whose bodies use their parameters in every addressing form, called with numbers,
    zero-page and absolute symbols, forward references, expressions and byte modifiers; macros
    calling macros; '.goto' loops whose conditions go below 0 or shift."""
    import random

    rnd = random.Random(seed)
    lines = ["sys 32768", "*= $1000", "zp = $fb", "abs = $c123"]
    uses = ["lda {p}", "lda {p},x", "sta {p}+1", "lda ({p}),y", "lda #<{p}", "ldx #>{p}", ".byt {p}", ".wor {p}*2", "jmp {p}",
            "ldy {p}-1", "inc {p}", "cmp #{p}&15"]  # fmt: skip
    args = ["$12", "$1234", "zp", "abs", "fwd", "zp+1", "abs-zp", "<abs", ">abs", "-1", "fwd+2", "3*zp"]
    names = []
    for m in range(rnd.randint(1, 3)):
        name, params = f"mac{m}", [f"p{m}{k}" for k in range(rnd.randint(1, 2))]
        lines.append(f"{name} .mac {','.join(params)}")
        lines.append(f"lp{m} nop")
        for _ in range(rnd.randint(1, 4)):
            lines.append(rnd.choice(uses).format(p=rnd.choice(params)))
        if names and rnd.random() < 0.4:
            inner, count = rnd.choice(names)
            lines.append(f"'{inner} " + ",".join(rnd.choice(params + args[:4]) for _ in range(count)))
        lines.append(f"bne .lp{m}")
        lines.append(".men")
        names.append((name, len(params)))
    for _ in range(rnd.randint(2, 6)):
        if rnd.random() < 0.6:
            name, count = rnd.choice(names)
            lines.append(f"'{name} " + ",".join(rnd.choice(args) for _ in range(count)))
        else:
            start, step, cond = rnd.choice([(0, 1, "5-k"), (3, -1, "k"), (0, 1, "k-4"), (1, 1, "8-[1<k]"), (0, 300, "k-1500"), (0, 1, "3-k")])
            lines += [f"k _ {start}", None, f"k _ k+{step}" if step > 0 else f"k _ k-{-step}", f".if {cond} : .goto {{top}}"]
            lines[-3] = rnd.choice([".byt k*3", "lda #k", ".wor k-2", "lda k,x"]) + (f" : '{names[0][0]} " + ",".join(["k"] * names[0][1]) if rnd.random() < 0.3 else "")
    lines += ["rts", "fwd = $34"]
    numbered, number = [], 10
    for text in lines:
        numbered.append(f"{number} {text.format(top=number - 20) if '{top}' in text else text}")
        number += 10
    return "\n".join(numbered) + "\n"


@per_target
@pytest.mark.parametrize("seeds", [range(300)] + [pytest.param(range(300, 3300), marks=pytest.mark.slow)], ids=["300", "3000"])
def test_random_macros_and_loops(target, seeds):
    structured = [0, 0, 0, 0]
    for name, text in assembling((f"ml{s}", macro_loop_program(s)) for s in seeds):  # (193 of the first 300 assemble)
        round_trip(text, name, target)
        shape = convert(text, name, target).structure
        structured = [a + b for a, b in zip(structured, (len(shape.macros), len(shape.expanded), shape.loops, len(shape.unrolled)))]
    assert structured[0] and structured[1] and structured[2]  # (the table has all three kinds)
