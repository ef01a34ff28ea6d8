"""The type-in format registry (asm6502.typein.formats): complete, and every format reads back
what it writes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asm6502.basic.tokenizer import tokenize
from asm6502.typein.cslisting.checksum import VERSIONS as CHECKSUMMER_VERSIONS
from asm6502.typein.formats import FORMATS, TypeinFormat
from asm6502.typein.mselisting import VERSIONS as MSE_VERSIONS

JOBS = ("checksum", "write", "read", "build")


def test_every_version_of_each_family_is_in_the_registry():
    assert sorted(f.version for f in FORMATS.values() if f.family == "mse") == sorted(MSE_VERSIONS)
    assert sorted(f.version for f in FORMATS.values() if f.family == "checksummer") == sorted(
        str(v) for v in CHECKSUMMER_VERSIONS)


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("job", JOBS)
def test_every_format_does_every_job(name, job):
    fmt = FORMATS[name]
    assert getattr(type(fmt), job) is not getattr(TypeinFormat, job), f"{name} has no {job}"
    assert fmt.shape and fmt.name == name


# a BASIC program as a person types it: numbered lines of a few statement kinds
_WORDS = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!", min_size=0, max_size=20)
_STATEMENTS = st.one_of(
    _WORDS.map(lambda s: f'print "{s.lower()}"'),
    st.tuples(st.sampled_from("abxyz"), st.integers(0, 65535)).map(lambda t: f"{t[0]}={t[1]}"),
    st.tuples(st.integers(0, 65535), st.integers(0, 255)).map(lambda t: f"poke {t[0]},{t[1]}"),
    st.integers(0, 63999).map(lambda n: f"goto {n}"),
    st.just("for i=1 to 10:next i"),
    _WORDS.map(lambda s: f"rem {s.lower()}"),
)
_BASIC = st.dictionaries(st.integers(0, 63999), st.lists(_STATEMENTS, min_size=1, max_size=3).map(":".join),
                         min_size=1, max_size=12)
_MACHINE_CODE = st.tuples(st.integers(0x0400, 0xC000), st.binary(min_size=1, max_size=200))


def _basic_prg(lines: dict[int, str]) -> bytes:
    return tokenize("".join(f"{n} {text}\n" for n, text in sorted(lines.items()))).prg


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if f.family == "mse"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(program=_MACHINE_CODE)
def test_mse_program_written_then_read_is_the_same(name, program):
    start, data = program
    fmt = FORMATS[name]
    prg = start.to_bytes(2, "little") + data
    (reading,) = fmt.read(fmt.write(prg, "TEST"), "t.txt")
    assert reading.prg == prg and reading.whole
    assert reading.verified > 0 and reading.repaired == reading.bad == 0


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if f.family == "checksummer"])
@settings(max_examples=25, deadline=None)
@given(lines=_BASIC)
def test_checksummer_program_written_then_read_is_the_same(name, lines):
    fmt = FORMATS[name]
    prg = _basic_prg(lines)
    (reading,) = fmt.read(fmt.write(prg), "t.txt")
    assert reading.prg == prg and reading.whole
    assert reading.verified == len(lines) and reading.repaired == reading.bad == 0


@pytest.mark.parametrize("name", FORMATS)
def test_the_checksum_is_the_one_written_and_build_makes_the_program(name):
    """Each written line's printed checksum is the format's checksum of its bytes, and build()
    of the lines read back is the program."""
    fmt = FORMATS[name]
    if fmt.family == "mse":
        from asm6502.typein.mselisting import read_listing
        prg = bytes([0x00, 0x34]) + bytes(range(40))
        result = read_listing(fmt.write(prg), "t.txt", version=fmt.version)
        assert [r.status for r in result.report] == ["verified"] * len(result.report)
        assert fmt.build([(r.address, r.data) for r in result.report], 0x3400)[: len(prg)] == prg
        first = result.report[0]
        written = fmt.write(prg).splitlines()[2]
        assert written == _mse_line(fmt, first.address, first.data, 0x3400)
    elif fmt.family in ("mlx", "proofreader", "bugrepellent"):  # the per-line report names each checksum
        _english_checksums(fmt)
    else:
        from asm6502.typein.cslisting.read import read_listings
        prg = _basic_prg({10: 'print "hallo"', 20: "goto 10"})
        (result,) = read_listings(fmt.write(prg), "t.txt", version=int(fmt.version))
        for r in result.lines:
            assert r.checksum == fmt.checksum(r.number, r.body)
        assert fmt.build([(r.number, r.body) for r in result.lines], 0x0801) == prg


def _english_checksums(fmt):
    from asm6502.typein.english.read import proofreader_rules, repellent_rules
    if fmt.kind == "machine-code":
        prg, start, show = bytes([0x00, 0x34]) + bytes(range(40)), 0x3400, str
    else:
        prg, start = _basic_prg({10: 'print "hallo"', 20: "goto 10"}), 0x0801
        show = (proofreader_rules if fmt.family == "proofreader" else repellent_rules)(fmt.version).show
    (reading,) = fmt.read(fmt.write(prg), "t.txt")
    assert [r.status for r in reading.lines] == ["verified"] * len(reading.lines)
    for r in reading.lines:
        assert show(fmt.checksum(r.key, r.data)) == r.computed
    assert fmt.build([(r.key, r.data) for r in reading.lines], start)[: len(prg)] == prg


def _mse_line(fmt, address, data, start):
    """The line as the MSE prints it, its checksum field checked against the format's checksum."""
    from asm6502.typein.mselisting import FORMATS as MSE
    from asm6502.typein.mselisting import decode_v2_checksum
    line = MSE[fmt.version].format_line(address, data, start)
    field = line.split()[-1]
    printed = int(field, 16) if fmt.version == "1.0" else decode_v2_checksum(field)
    assert printed == fmt.checksum(address, data, start)
    return line
