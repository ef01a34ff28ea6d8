"""``asm6502 build``: manifest errors with their YAML line, dependency order,
all-or-nothing writes, ``--check`` difference summaries."""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import pytest

from asm6502 import build as builder
from asm6502.cli import main
from asm6502.diagnostics import DiagnosticError

CBMCONVERT = shutil.which("cbmconvert")

# a tiny Profi-Ass program: border colour, then back to BASIC
PROGRAM = "10 *= $c000\n20 lda #1\n30 sta $d020\n40 rts\n"
PROGRAM_BYTES = bytes.fromhex("00c0" "a901" "8d20d0" "60")  # 6502 opcodes A9, 8D, 60 (MOS datasheet)

MANIFEST = """\
artifacts:
  out/disk.d64:
    rule: d64
    disk: TEST,01
    files:
      - {name: BORDER, from: out/border.prg}
      - {name: BORDER SRC, from: border.asm, type: seq}
  out/border.prg:
    rule: assemble
    from: border.asm
  out/border.labels:
    rule: vice-labels
    from: border.asm
"""


def project(tmp_path, manifest: str = MANIFEST, source: str = PROGRAM):
    (tmp_path / "border.asm").write_text(source)
    path = tmp_path / "build.yaml"
    path.write_text(textwrap.dedent(manifest))
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["build", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_builds_dependencies_first_whatever_the_order(capsys, tmp_path):
    manifest = project(tmp_path)
    code, out, _ = run(capsys, manifest)
    assert code == 0
    assert (tmp_path / "out/border.prg").read_bytes() == PROGRAM_BYTES
    assert out.splitlines()[0].startswith("wrote  out/disk.d64")  # reported in manifest order
    from asm6502.d64 import DiskImage

    image = DiskImage((tmp_path / "out/disk.d64").read_bytes())
    assert [(e.display_name, e.type_name) for e in image.directory()] == [("BORDER", "PRG"), ("BORDER SRC", "SEQ")]
    assert image.read_file(image.find(b"BORDER")) == PROGRAM_BYTES


@pytest.mark.skipif(CBMCONVERT is None, reason="cbmconvert not installed")
def test_disk_artifact_read_by_cbmconvert(capsys, tmp_path):
    manifest = project(tmp_path)
    assert run(capsys, manifest)[0] == 0
    out = tmp_path / "x"
    out.mkdir()
    subprocess.run([CBMCONVERT, "-N", "-d", str(tmp_path / "out/disk.d64")], cwd=out, check=True, capture_output=True)
    assert (out / "border.prg").read_bytes() == PROGRAM_BYTES
    assert (out / "border src.seq").read_bytes() == PROGRAM.encode()


def test_second_build_rewrites_nothing_and_check_passes(capsys, tmp_path):
    manifest = project(tmp_path)
    run(capsys, manifest)
    stamp = (tmp_path / "out/disk.d64").stat().st_mtime_ns
    code, out, _ = run(capsys, manifest)
    assert code == 0 and all(line.startswith("unchanged") for line in out.splitlines())
    assert (tmp_path / "out/disk.d64").stat().st_mtime_ns == stamp
    code, out, _ = run(capsys, manifest, "--check")
    assert code == 0 and "all 3 artifacts are reproduced byte for byte" in out


def test_check_summarises_every_difference(capsys, tmp_path):
    manifest = project(tmp_path)
    run(capsys, manifest)
    labels = tmp_path / "out/border.labels"
    labels.write_text(labels.read_text() + "al C:1234 .stale\n")
    disk = tmp_path / "out/disk.d64"
    data = bytearray(disk.read_bytes())
    data[0x100] ^= 0xFF
    disk.write_bytes(bytes(data))
    (tmp_path / "out/border.prg").unlink()
    code, out, err = run(capsys, manifest, "--check")
    assert code == 1
    assert "out/disk.d64: differs (on disk 174848 bytes, built 174848 bytes; 1 bytes differ, the first at offset $100)" in out
    assert "out/border.labels: differs (1 changed lines)" in out
    assert "-al C:1234 .stale" in out
    assert "out/border.prg: missing (the build makes 8 bytes)" in out
    assert "3 differences between the files on disk and a fresh build" in err
    assert not (tmp_path / "out/border.prg").exists()  # --check writes nothing


def test_check_reports_stale_files(capsys, tmp_path):
    manifest = project(tmp_path)
    run(capsys, manifest)
    (tmp_path / "out/old.prg").write_bytes(b"\x01\x08")
    code, out, _ = run(capsys, manifest, "--check")
    assert code == 1 and "out/old.prg: not made by" in out


def test_nothing_is_written_when_one_artifact_fails(capsys, tmp_path):
    manifest = project(tmp_path, source="10 *= $c000\n20 jmp nowhere\n")
    code, _, err = run(capsys, manifest)
    assert code == 1
    assert "border.asm:2:" in err and "undefined symbol 'nowhere'" in err
    assert "while building 'out/" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("version, expected", [("1", "<144>"), ("3", "<063>")])
def test_basic_rules(capsys, tmp_path, version, expected):
    """``1 REM`` stored at $0801: link $0807, line 1, REM token $8F, $00, end $0000
    (C64 BASIC V2).  Its Checksummer 64 values are printed in 64'er: <144>
    (V1/V2, 5/85) and <63> (V3, Sonderheft 4/85)."""
    (tmp_path / "rem.bas").write_text("1 rem\n")
    manifest = project(
        tmp_path,
        f"""\
        artifacts:
          out/rem.txt: {{rule: checksummer, from: out/rem.prg, version: {version}}}
          out/rem.prg: {{rule: tokenize, from: rem.bas}}
          out/rem-from-text.txt: {{rule: checksummer, from: rem.bas, version: {version}}}
        """,
    )
    assert run(capsys, manifest)[0] == 0
    assert (tmp_path / "out/rem.prg").read_bytes() == bytes.fromhex("0108" "0708" "0100" "8f" "00" "0000")
    listing = (tmp_path / "out/rem.txt").read_text()
    assert listing.rstrip().endswith(expected) and listing.lower().startswith("1 rem")
    assert (tmp_path / "out/rem-from-text.txt").read_text() == listing


def test_same_inputs_same_bytes(tmp_path):
    manifest = project(tmp_path)
    first = [(p.artifact.output, p.data) for p in builder.build(manifest)]
    second = [(p.artifact.output, p.data) for p in builder.build(manifest)]
    assert first == second


# Each bad manifest and the first diagnostic it must give: file:line:col and message.
BAD_MANIFESTS = [
    (
        "unknown key",
        """\
        artifacts:
          out/a.prg:
            rule: assemble
            form: border.asm
        """,
        "build.yaml:4:5: error: unknown key 'form' in 'out/a.prg' (rule assemble) (allowed: rule, from, fill); did you mean 'from'?",
    ),
    (
        "unknown top-level key",
        """\
        artefacts: {}
        """,
        "build.yaml:1:1: error: unknown key 'artefacts' in the manifest (allowed: artifacts); did you mean 'artifacts'?",
    ),
    (
        "missing source",
        """\
        artifacts:
          out/a.prg:
            rule: assemble
            from: sources/gone.asm
        """,
        "build.yaml:4:11: error: missing source 'sources/gone.asm': no such file, and no artifact in the manifest makes it",
    ),
    (
        "cycle",
        """\
        artifacts:
          out/a.txt:
            rule: mse
            name: A
            from: out/b.prg
          out/b.prg:
            rule: tokenize
            from: out/a.txt
        """,
        "build.yaml:5:11: error: dependency cycle: out/a.txt -> out/b.prg -> out/a.txt",
    ),
    (
        "artifact made from itself",
        """\
        artifacts:
          out/a.prg:
            rule: tokenize
            from: out/a.prg
        """,
        "build.yaml:4:11: error: dependency cycle: out/a.prg -> out/a.prg",
    ),
    (
        "unknown rule",
        """\
        artifacts:
          out/a.prg:
            rule: asemble
            from: border.asm
        """,
        "build.yaml:3:11: error: unknown rule 'asemble' (rules: assemble, listing, vice-labels, intel-hex, mse, tokenize, checksummer, d64); did you mean 'assemble'?",
    ),
    (
        "duplicate artifact",
        """\
        artifacts:
          out/a.prg: {rule: assemble, from: border.asm}
          out/a.prg: {rule: assemble, from: border.asm}
        """,
        "build.yaml:3:3: error: 'out/a.prg' appears twice in artifacts",
    ),
    (
        "missing from",
        """\
        artifacts:
          out/a.prg:
            rule: assemble
        """,
        "build.yaml:2:3: error: 'out/a.prg' (rule assemble) needs 'from'",
    ),
    (
        "bad number",
        """\
        artifacts:
          out/a.txt: {rule: mse, from: border.asm, name: X, fill: 0x1FF}
        """,
        "build.yaml:2:59: error: fill 0x1FF is out of range (0 to $FF)",
    ),
    (
        "bad disk",
        """\
        artifacts:
          out/d.d64:
            rule: d64
            disk: NO ID
            files: [{name: A, from: border.asm}]
        """,
        "build.yaml:4:11: error: disk 'NO ID': write \"DISKNAME,ID\", e.g. \"ASM6502,64\"",
    ),
    (
        "two files of one name",
        """\
        artifacts:
          out/d.d64:
            rule: d64
            disk: D,01
            files:
              - {name: a, from: border.asm}
              - {name: A, from: border.asm}
        """,
        "build.yaml:7:16: error: two files named 'A' on the disk",
    ),
    (
        "bad choice",
        """\
        artifacts:
          out/a.txt: {rule: checksummer, from: border.asm, version: 4}
        """,
        "build.yaml:2:61: error: version must be one of 1, 2, 3, not '4'",
    ),
    (
        "not YAML",
        """\
        artifacts:
          out/a.prg: [rule: assemble
        """,
        "build.yaml:3:1: error: not valid YAML: expected ',' or ']', but got '<stream end>'",
    ),
]


@pytest.mark.parametrize("what, manifest, expected", BAD_MANIFESTS, ids=[b[0] for b in BAD_MANIFESTS])
def test_bad_manifests(capsys, tmp_path, monkeypatch, what, manifest, expected):
    project(tmp_path, manifest)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "build.yaml")
    assert code == 1
    assert err.splitlines()[0] == expected
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_all_problems_are_reported_at_once(tmp_path):
    manifest = project(
        tmp_path,
        """\
        artifacts:
          out/a.prg: {rule: assemble, from: gone1.asm}
          out/b.prg: {rule: assemble, from: gone2.asm, colour: 2}
        """,
    )
    with pytest.raises(DiagnosticError) as info:
        builder.load_manifest(manifest)
    messages = [d.message for d in info.value.errors]
    assert len(messages) == 3
    assert any("gone1.asm" in m for m in messages) and any("gone2.asm" in m for m in messages)
    assert any("unknown key 'colour'" in m for m in messages)


def test_help_lists_the_rules(capsys):
    with pytest.raises(SystemExit):
        main(["build", "--help"])
    out = capsys.readouterr().out
    for rule in builder.RULES:
        assert rule in out


def test_tokenize_rule_skips_the_petcat_header(capsys, tmp_path):
    (tmp_path / "p.bas").write_text(";p.prg ==0801==\n1 rem\n")
    manifest = project(tmp_path, "artifacts:\n  out/p.prg: {rule: tokenize, from: p.bas}\n")
    assert run(capsys, manifest)[0] == 0
    assert (tmp_path / "out/p.prg").read_bytes() == bytes.fromhex("0108" "0708" "0100" "8f" "00" "0000")
