"""Robustness: every reader gets random and mutated input.

Allowed outcomes for each example: a result, or a ``DiagnosticError`` whose
errors carry a position (a ``Span`` for text inputs; for binary inputs --
.prg, .d64 -- the file name leads the message).  Anything else fails: another
exception (a traceback for the user), a hang (each example runs under a
time limit), or a partial output file from the command line.

Readers: assembler source (``asm6502.asm``), MSE listings
(``asm6502.typein.mselisting``), BASIC text (``asm6502.basic.tokenizer.tokenize``), .prg as
BASIC (``detokenize``) and as a Profi-Ass source (detokenize + assemble),
``.d64`` images (``asm6502.d64``), ``build.yaml`` (``asm6502.build``).

Profiles: the default run uses FUZZ_SHORT examples per reader (about 20 s for
all); the long run is one command::

    FUZZ_EXAMPLES=100000 .venv/bin/python -m pytest -m slow tests/test_fuzz.py

(FUZZ_EXAMPLES examples *per reader*; ``make test-slow`` runs it with the default 100,000.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from asm6502.asm import Options, assemble
from asm6502.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parent.parent
SUPERHIRN = (ROOT / "sources" / "superhirn.asm").read_text(encoding="utf-8")
MSE_LISTING = (ROOT / "build" / "superhirn.mse.txt").read_text(encoding="utf-8")  # asm6502's own MSE listing of Superhirn II

FUZZ_SHORT = int(os.environ.get("FUZZ_SHORT", "250"))
FUZZ_LONG = int(os.environ.get("FUZZ_EXAMPLES", "100000"))
TIME_LIMIT = 10  # seconds per example: anything slower counts as a hang
PROGRESS_FROM = 5_000  # examples: runs longer than this report their progress ...
PROGRESS_EVERY = 30  # ... every this many seconds

# An endless '.goto' loop is stopped by Options.max_statements; the default (a million
# statements in pass 1) takes tens of seconds, so the fuzzer uses a smaller guard and
# test_endless_goto_loop_is_stopped checks the default separately.
# (with and without a listing: the listing rows are made only when asked for)
FUZZ_OPTIONS = (
    Options(max_statements=20_000),
    Options(cpu="6502i", max_statements=20_000),
    Options(max_statements=20_000, listing=False),
)


def profile(n: int):
    return settings(
        max_examples=n,
        deadline=None,
        derandomize=n == FUZZ_SHORT,  # the default profile is the same on every run
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        database=None,
    )


@contextmanager
def time_limit(seconds: int):
    def expire(signum, frame):
        raise TimeoutError(f"example took more than {seconds} s (a hang?)")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


class Progress:
    """Examples run so far; a long run (more than PROGRESS_FROM examples) says on the terminal every
    PROGRESS_EVERY seconds how far it is, so that 20 minutes of fuzzing are not 20 minutes of silence."""

    def __init__(self, reader: str, wanted: int):
        self.reader, self.wanted, self.count = reader, wanted, 0
        self.start = self.last = time.monotonic()
        self.loud = wanted > PROGRESS_FROM

    def tick(self) -> None:
        self.count += 1
        now = time.monotonic()
        if self.loud and now - self.last >= PROGRESS_EVERY:
            self.last = now
            done = min(self.count, self.wanted)
            left = (now - self.start) / done * (self.wanted - done)
            # sys.__stderr__: pytest captures sys.stderr while a test runs
            left_text = f"{left / 60:.0f} min" if left >= 90 else f"{left:.0f} s"
            print(f"\n  fuzz {self.reader}: {done:,} of {self.wanted:,} examples, {(now - self.start) / 60:.1f} min, "
                  f"about {left_text} left", file=sys.__stderr__, flush=True)


def report(reader: str, examples: int, wanted: int) -> None:
    """Print the count (shown with -s, or in the long run's log) and check hypothesis really ran them."""
    print(f"fuzz {reader}: {examples} examples")
    assert examples >= min(wanted, 100), f"only {examples} examples for {reader}"


def check_text_errors(exc: DiagnosticError, what: str) -> None:
    assert exc.errors, f"{what}: DiagnosticError without an error"
    for d in exc.errors:
        assert d.span is not None, f"{what}: error without a position: {d.message}"
        d.render()  # renders without raising


def check_binary_errors(exc: DiagnosticError, name: str) -> None:
    assert exc.errors
    for d in exc.errors:
        assert d.span is not None or d.message.startswith(name), f"error names neither a position nor the file: {d.message}"
        d.render()


# --- input strategies: random text and mutations of real inputs ---------------------------

ASM_WORDS = [
    "lda", "sta", "ldx", "jmp", "jsr", "bne", "beq", "rts", "asl", "nop", "lax", "sha", "jam", "rol a",
    "*=", "*", "=", "_", ".byt", ".wor", ".asc", ".opt", ".end", ".if", ".goto", ".mac", ".men", ".file",
    ".tit", ".pag", ".sys", "'m", "sys32768", "#", "<", ">", "!", "(", ")", "[", "]", ",x", ",y", "),y",
    "$", "%", '"', ";", ":", "$ff", "$100", "$ffff", "65535", "65536", "0", "lbl", "lbl2", "verylonglabel",
    "+", "-", "/", "&", "^", " ", "  ", "\t", "\n", "10 ", "63999 ", "64000 ", "\x00", "\u00e4", "\r",
]


def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply (position, delete-count, insert) edits at positions scaled to the text."""
    for pos, delete, insert in edits:
        p = pos % (len(text) + 1)
        text = text[:p] + insert + text[p + delete :]
    return text


def mutations(samples, words: list[str], max_delete: int, max_text: int, max_edits: int = 6):
    """A sample text with up to ``max_edits`` edits: delete a few characters, insert a word or random text."""
    edit = st.tuples(st.integers(0, 1 << 20), st.integers(0, max_delete), st.one_of(st.sampled_from(words), st.text(max_size=max_text)))
    return st.tuples(samples, st.lists(edit, max_size=max_edits)).map(lambda t: mutate(*t))


def excerpt(source: str, max_lines: int = 40):
    lines = source.splitlines(keepends=True)
    return st.integers(0, len(lines) - 1).flatmap(
        lambda start: st.integers(1, max_lines).map(lambda n: "".join(lines[start : start + n]))
    )


asm_random = st.lists(st.sampled_from(ASM_WORDS), max_size=60).map("".join)
asm_lines = st.lists(
    st.tuples(st.integers(0, 70000), st.lists(st.sampled_from(ASM_WORDS), max_size=8)).map(lambda t: f"{t[0]} {' '.join(t[1])}"),
    max_size=30,
).map(lambda ls: "10 *=$1000\n" + "\n".join(ls) + "\n")
asm_mutated = mutations(st.one_of(excerpt(SUPERHIRN), st.just(SUPERHIRN)), ASM_WORDS, 8, 4)
# macros: a definition with parameters, a body of random statements, calls with random arguments
asm_macros = st.tuples(
    st.lists(st.sampled_from(ASM_WORDS + ["p", "q", "p+q", "lbl"]), max_size=12).map(" ".join),
    st.lists(st.lists(st.sampled_from(ASM_WORDS + ["p", "1", "$12"]), max_size=4).map(" ".join), max_size=4),
).map(lambda t: "10 *=$1000\n20 .mac m p,q\n30 " + t[0] + "\n40 .men\n" + "".join(f"{50 + i} 'm {a}\n" for i, a in enumerate(t[1])))
asm_inputs = st.one_of(asm_random, asm_lines, asm_mutated, asm_macros, st.text(max_size=300))


def run_assembler(text: str, options: Options) -> None:
    with time_limit(TIME_LIMIT):
        try:
            result = assemble(text, "fuzz.asm", options)
        except DiagnosticError as exc:
            check_text_errors(exc, "assembler")
            return
    assert result.segments
    result.prg  # the outputs can be built from any result
    for d in result.diagnostics:
        assert d.span is not None, d.message


def fuzz_assembler(n):
    seen = Progress("assembler", n)

    @profile(n)
    @given(text=asm_inputs, which=st.integers(0, len(FUZZ_OPTIONS) - 1))
    @example(text="\u00b2", which=0)  # found by this fuzzer: a non-ASCII digit where a line number goes
    @example(text="10 *=$1000\n20 .mac m p\n30 lda #p:\u00e4\n40 .men\n50 'm 1\n", which=0)  # found: macro + non-ASCII letter
    @example(text=".MAC M<,N\rN\r.MEN\r'M,", which=0)  # found: a statement that is only an empty macro argument
    def body(text, which):
        seen.tick()
        run_assembler(text, FUZZ_OPTIONS[which])

    body()
    report("assembler", seen.count, n)


def test_fuzz_assembler():
    fuzz_assembler(FUZZ_SHORT * 3)


@pytest.mark.slow
def test_fuzz_assembler_long():
    fuzz_assembler(FUZZ_LONG)


@pytest.mark.slow  # about 30 s: two passes of a million statements each
def test_endless_goto_loop_is_stopped():
    with time_limit(120):
        with pytest.raises(DiagnosticError) as info:
            assemble("10 *=$1000\n20 .goto 20\n", "loop.asm")
    (err,) = info.value.errors
    assert "endless .goto loop" in err.message and err.span.line == 2


# --- MSE listings -------------------------------------------------------------------------

MSE_WORDS = ["PROGRAMM", " : ", ":", "-", "SUPERHIRN II", "3400", "360C", "A9", "FF", "0", "O", "l", "1", "\n", " ", "  ",
             "apdl", "fa35", "bu", "7", "z", "\t", "G", "$"]
mse_random = st.lists(st.sampled_from(MSE_WORDS), max_size=80).map("".join)
mse_mutated = mutations(st.one_of(excerpt(MSE_LISTING, 70), st.just(MSE_LISTING)), MSE_WORDS, 6, 3)


def fuzz_mse(n):
    mse = pytest.importorskip("asm6502.typein.mselisting")

    seen = Progress("mse", n)

    @profile(n)
    @given(text=st.one_of(mse_random, mse_mutated, st.text(max_size=200)), version=st.sampled_from([None, "1.0", "2.0", "2.1"]))
    def body(text, version):
        seen.tick()
        with time_limit(TIME_LIMIT):
            try:
                result = mse.read_listing(text, "fuzz.txt", version=version)
            except DiagnosticError as exc:
                check_text_errors(exc, "mse")
                return
        for d in result.diagnostics:
            assert d.span is not None or not d.is_error, d.message

    body()
    report("mse", seen.count, n)


def test_fuzz_mse():
    fuzz_mse(FUZZ_SHORT)


@pytest.mark.slow
def test_fuzz_mse_long():
    fuzz_mse(FUZZ_LONG)


# --- BASIC text and .prg ------------------------------------------------------------------

BASIC_SAMPLE = textwrap.dedent(
    """\
    10 print "{clr}hallo";:rem gruss
    20 for i=1 to 10:a$=a$+chr$(64+i):next
    30 if a$<>"" then goto 20
    40 data 1,2,"x",4:read a:poke 53280,a
    50 sys 13312:end
    """
)
BASIC_WORDS = ["print", "goto", "rem", "data", "if", "then", "for", "next", '"', ":", "?", "{clr}", "{", "}", "{5 down}",
               "{$93}", "{300}", "a$", "1", "63999", "64000", "99999999", " ", "\n", "~", "\\", "π", "\u00e4", "\x00"]
basic_random = st.lists(st.sampled_from(BASIC_WORDS), max_size=60).map("".join)
basic_mutated = mutations(st.just(BASIC_SAMPLE), BASIC_WORDS, 6, 3)


def fuzz_basic_text(n):
    tok = pytest.importorskip("asm6502.basic.tokenizer")

    seen = Progress("basic text", n)

    @profile(n)
    @given(text=st.one_of(basic_random, basic_mutated, st.text(max_size=200)))
    def body(text):
        seen.tick()
        with time_limit(TIME_LIMIT):
            try:
                result = tok.tokenize(text, filename="fuzz.bas")
            except DiagnosticError as exc:
                check_text_errors(exc, "basic text")
                return
            tok.detokenize(result.prg)  # what we tokenized lists again

    body()
    report("basic text", seen.count, n)


def test_fuzz_basic_text():
    fuzz_basic_text(FUZZ_SHORT)


@pytest.mark.slow
def test_fuzz_basic_text_long():
    fuzz_basic_text(FUZZ_LONG)


def byte_mutations(seed: bytes):
    flips = st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), max_size=8)
    cuts = st.integers(0, len(seed))

    def apply(args):
        changes, cut, extra = args
        data = bytearray(seed)
        for pos, value in changes:
            data[pos % len(data)] = value
        return bytes(data[:cut]) + extra if cut < len(seed) // 2 else bytes(data) + extra

    return st.tuples(flips, cuts, st.binary(max_size=8)).map(apply)


def prg_inputs():
    tok = pytest.importorskip("asm6502.basic.tokenizer")
    basic_prg = tok.tokenize(BASIC_SAMPLE, filename="sample.bas").prg
    profi_prg = tok.tokenize("\n".join(SUPERHIRN.splitlines()[:40]) + "\n", filename="superhirn.asm").prg
    return tok, st.one_of(st.binary(max_size=300), byte_mutations(basic_prg), byte_mutations(profi_prg))


def fuzz_prg(n):
    tok, inputs = prg_inputs()
    seen = Progress("prg", n)

    @profile(n)
    @given(data=inputs, which=st.integers(0, len(FUZZ_OPTIONS) - 1))
    def body(data, which):
        seen.tick()
        with time_limit(TIME_LIMIT):
            try:
                listing = tok.detokenize(data, filename="fuzz.prg")
            except DiagnosticError as exc:
                check_binary_errors(exc, "fuzz.prg")
                return
            # ... and the same bytes as a Profi-Ass source saved on the C64
            run_assembler(listing.text, FUZZ_OPTIONS[which])

    body()
    report("prg", seen.count, n)


def test_fuzz_prg():
    fuzz_prg(FUZZ_SHORT)


@pytest.mark.slow
def test_fuzz_prg_long():
    fuzz_prg(FUZZ_LONG)


# --- .d64 disk images -----------------------------------------------------------------------


def d64_seed() -> bytes:
    d64 = pytest.importorskip("asm6502.d64")
    disk = d64.DiskImage.format(b"FUZZ", b"64")
    disk.add_file(b"ONE", bytes(range(256)) * 3)
    disk.add_file(b"TWO", b"\x01\x08" + bytes(300))
    return disk.to_bytes()


def fuzz_d64(n):
    d64 = pytest.importorskip("asm6502.d64")
    seed = d64_seed()
    # the directory (track 18) and the first file's blocks are where the interesting bytes are
    hot = st.integers(0, 1 << 20).map(lambda p: (17 * 21 * 256 + p % (19 * 256)) if p & 1 else p % len(seed))
    flips = st.lists(st.tuples(hot, st.integers(0, 255)), min_size=1, max_size=12)

    def flip(changes):
        data = bytearray(seed)
        for pos, value in changes:
            data[pos % len(data)] = value
        return bytes(data)

    inputs = st.one_of(flips.map(flip), st.binary(max_size=64), st.just(seed[: len(seed) - 1]), st.just(bytes(len(seed))))

    seen = Progress("d64", n)

    @profile(n)
    @given(data=inputs)
    def body(data):
        seen.tick()
        with time_limit(TIME_LIMIT):
            try:
                disk = d64.DiskImage(data, "fuzz.d64")
                disk.header()
                disk.listing()
                for entry in disk.directory(include_deleted=True):
                    try:
                        disk.read_file(entry)
                    except DiagnosticError as exc:
                        check_binary_errors(exc, "fuzz.d64")
                disk.blocks_free()
            except DiagnosticError as exc:
                check_binary_errors(exc, "fuzz.d64")

    body()
    report("d64", seen.count, n)


def test_fuzz_d64():
    fuzz_d64(FUZZ_SHORT)


@pytest.mark.slow
def test_fuzz_d64_long():
    fuzz_d64(FUZZ_LONG)


# --- build.yaml -----------------------------------------------------------------------------

MANIFEST = textwrap.dedent(
    """\
    artifacts:
      out/p.prg:
        rule: assemble
        from: p.asm
      out/p.mse.txt:
        rule: mse
        from: out/p.prg
        name: P
        version: "1.0"
        end: 0x1003
        fill: 0xFF
      out/b.prg:
        rule: tokenize
        from: b.bas
      out/disk.d64:
        rule: d64
        disk: FUZZ,64
        files:
          - {name: P, from: out/p.prg}
          - {name: B, from: out/b.prg}
    """
)
YAML_WORDS = ["artifacts:", "rule:", "from:", "files:", "- ", "{", "}", "[", "]", ":", "\n", "  ", "    ", "assemble", "d64",
              "mse", "tokenize", "out/p.prg", "p.asm", "0x", "0xFFFFF", "-1", "&a", "*a", "!!python/object", "'", '"', "#", "\t"]


def fuzz_build(n):
    build = pytest.importorskip("asm6502.build")
    inputs = st.one_of(
        mutations(st.just(MANIFEST), YAML_WORDS, 6, 3, max_edits=5),
        st.lists(st.sampled_from(YAML_WORDS), max_size=40).map("".join),
    )

    seen = Progress("build.yaml", n)

    @profile(n)
    @given(text=inputs)
    @example(text="\x1f" + MANIFEST)  # found by this fuzzer: a control character (yaml ReaderError)
    @example(text=MANIFEST.replace('version: "1.0"', 'version: "9.9"'))  # found: the error had no position (only its note)
    @example(text=MANIFEST.replace("end: 0x1003", "end: 1003"))  # found: a rule error (end before the data) had no position
    def body(text):
        seen.tick()
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "p.asm").write_text("10 *=$1000\n20 lda #1\n30 rts\n")
            Path(tmp, "b.bas").write_text('10 print "hi"\n')
            manifest = Path(tmp, "build.yaml")
            manifest.write_text(text, encoding="utf-8")
            with time_limit(TIME_LIMIT):
                try:
                    build.load_manifest(manifest)
                    build.build(manifest)
                except DiagnosticError as exc:
                    check_text_errors(exc, "build.yaml")
            assert not Path(tmp, "out").exists()  # build() works in memory; nothing is written

    body()
    report("build.yaml", seen.count, n)


def test_fuzz_build_yaml():
    fuzz_build(FUZZ_SHORT // 2)


@pytest.mark.slow
def test_fuzz_build_yaml_long():
    fuzz_build(FUZZ_LONG)


# --- the command line: a failing run leaves no output file -----------------------------------

BROKEN_SOURCES = [
    "10 *=$1000\n20 lda undefined\n",
    "10 *=$1000\n20 bne *+200\n",
    "10 *=$1000\n20 lda #$100\n",
    "10 *=$1000\n20 lda #1\n30 *=$0800\n40 .opt o1\n50 nop\n",  # backwards with an object file: REVERSAL
    "10 *=$fffe\n20 jmp $1000\n",  # runs past $FFFF
    "10 *=$1000\n20 .byt 1,,2\n",
    "\x00\xff garbage",
]


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "asm6502", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("source", BROKEN_SOURCES)
def test_failing_assembly_writes_no_file(tmp_path, source):
    (tmp_path / "bad.asm").write_text(source, encoding="latin-1")
    proc = run_cli("bad.asm", "-o", "out.prg", "--listing", "out.lst", "--labels", "out.lbl", "--mse", "out.mse", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "error:" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.asm"]  # no output, no temp file


def test_failing_assembly_keeps_the_previous_output(tmp_path):
    (tmp_path / "ok.asm").write_text("10 *=$1000\n20 rts\n")
    assert run_cli("ok.asm", "-o", "out.prg", cwd=tmp_path).returncode == 0
    before = (tmp_path / "out.prg").read_bytes()
    (tmp_path / "ok.asm").write_text("10 *=$1000\n20 rts x\n")
    assert run_cli("ok.asm", "-o", "out.prg", cwd=tmp_path).returncode == 1
    assert (tmp_path / "out.prg").read_bytes() == before == b"\x00\x10\x60"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.asm", "out.prg"]


@profile(min(FUZZ_SHORT, 10))
@given(text=st.one_of(asm_random, asm_lines, asm_mutated))
def test_fuzz_cli_no_traceback_and_no_partial_file(text):
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "f.asm").write_text(text, encoding="utf-8", errors="replace")
        proc = run_cli("f.asm", "-o", "f.prg", cwd=Path(tmp))
        assert proc.returncode in (0, 1), proc.stderr
        assert "Traceback" not in proc.stderr
        files = sorted(p.name for p in Path(tmp).iterdir())
        assert files == (["f.asm", "f.prg"] if proc.returncode == 0 else ["f.asm"])
