"""Our assembler against the ORIGINAL Profi-Ass 64 V2.0: every committed oracle fixture.

The fixtures (``tests/fixtures/profiass/``) are what the original printed and assembled on an
emulated C64 (``tools/profiass_oracle.py`` wrote them; their format is in its docstring):
probes (one rule each), the manual's example programs and random programs from
``tests/profiass_gen.py``.  Each case runs through ``asm6502.cli.main`` as a user would:

* the original said NO ERRORS -> exit 0, and the .prg is the original's object: its range start
  as load address + the bytes it left in memory (.opt oo), or the file it wrote (.opt o1);
* the original reported errors -> non-zero exit, no output file, and for every error the
  original printed, an error diagnostic on the same BASIC line naming the original's message
  in brackets: ``[UNDEF'D STATEMENT]``, ``[SYNTAX 1]`` (the digit/letter printed before
  ``****`` follows the message), ...  Warnings do not matter.

``DEVIATIONS``: where the project deliberately differs from the original.  ``KNOWN_FAILING``:
the cases today's assembler does not yet handle as the original (xfail, strict: a case that
starts to pass must be taken out of the set).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import testdata
from helpers import oracle_home, real_file

from asm6502.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "profiass"
DIAG_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|note): (?P<msg>.*)$")
BASIC_LINE_RE = re.compile(r"^\s*(\d[\d ]*)")

# Deliberate differences: case -> (why, what the project does instead).
#   "ok": no error; the bytes differ from the original's (not compared)
#   "warn": no error, and a warning says that the original's output differs (bytes not compared)
#   "error": the project stops with an error where the original assembled
DEVIATIONS: dict[str, tuple[str, str]] = {
    "labels/labels_zp_forward_phase": (
        "the original sizes a forward reference to a symbol later defined below $100 as absolute in "
        "pass 1 and emits zero page in pass 2 (silent phase error, later labels keep their pass-1 "
        "values); the project emits correct absolute code and warns",
        "warn",
    ),
    "labels/labels_zp_forward_data": (
        "same silent phase error as labels_zp_forward_phase (the .wor after it holds a pass-1 "
        "address); the project emits correct code and warns",
        "warn",
    ),
    "listing/listing_sys_rts": (
        ".sys calls machine code on the C64 during assembly; off the C64 this is a clear error",
        "error",
    ),
    "opt/opt_p_equals_rts": (
        ".opt p=expr calls a routine on the C64 for every listing character; off the C64 it cannot "
        "run",
        "error",
    ),
    "file/file_chain_two": (
        "a .file chain without '.end 8,\"first\"' at its end: the original's pass 2 runs only on the last "
        "file loaded (the manual asks for the .end); the project assembles the whole chain in both passes",
        "ok",
    ),
    "file/file_goto_in_part": (
        "the same chain without '.end 8,\"first\"': the original's pass 2 reads the wrong program text",
        "ok",
    ),
    "file/file_end_plain": (
        "lines after .end are BASIC that the C64 runs after assembly (here a ?SYNTAX ERROR of BASIC); "
        "the project ignores them",
        "ok",
    ),
    "basic/basic_sys_colon_rem": (
        "a REM after the SYS on the start line is the original's SYNTAX 1, which it prints with the next "
        "line's number (120); the project reports it on the SYS line (100)",
        "error",
    ),
    "syntax/syntax_bad_mode": (
        "the original computes opcodes from the mode and silently writes 9E 34 12 (SHX, undocumented) for 'stx $1234,x', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "syntax/syntax_bad_mode_imm_sta": (
        "the original computes opcodes from the mode and silently writes 89 01 (an undocumented NOP) for 'sta #1', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "syntax/syntax_imm_indexed": (
        "the original computes opcodes from the mode and silently writes A9 01 (the index ignored) for 'lda #1,x', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "syntax/syntax_indexed_y_indirect_x_swapped": (
        "the original computes opcodes from the mode and silently writes B1 01, i.e. lda (1),y for 'lda (1,y)', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "syntax/syntax_ldx_abs_x": (
        "the original computes opcodes from the mode and silently writes B6 01, i.e. ldx 1,y for 'ldx 1,x', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "syntax/syntax_indirect_y_bad": (
        "the original computes opcodes from the mode and silently writes B1 34 (the high byte dropped) for 'lda ($1234),y', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "org/org_pc_wrap_ffff": (
        "code past $FFFF: the original's program counter wraps round to $0000 and goes on writing there; "
        "the project reports it (a memory image from the load address cannot wrap)",
        "error",
    ),
    "rules/mode_sta_imm_ff": (
        "the original computes opcodes from the mode and silently writes 89 FF (an undocumented NOP) for 'sta #$ff', a mode "
        "the mnemonic does not have; the project reports the error",
        "error",
    ),
    "rules/opt_twice_oo_oo": (
        "a second '.opt oo' restarts the original's object range at the current address (the bytes before it are not "
        "in the range); the project's output starts at the first byte written (docs/assembler.md: deviations)",
        "ok",
    ),
    "rules/opt_twice_p_then_oo": (
        "the object range starts at the last '.opt' with an O option in the original, at the first byte here",
        "ok",
    ),
    "rules/opt_twice_after_org": (
        "the object range starts at the last '.opt' with an O option in the original, at the first byte here",
        "ok",
    ),
    "rules/colon_label_on_sys_line": (
        "'100 sys32768:lbl nop' then '110 .opt p,oo': the original's object range starts at the .opt, after the NOP; "
        "the project's output at the NOP (the label itself is taken by both)",
        "ok",
    ),
    "rules/sys_colon_nop": (
        "'100 sys32768:nop' then '110 .opt p,oo': the original's range starts after the NOP (at the .opt), "
        "the project's output at the NOP",
        "ok",
    ),
    "opt/opt_twice": (
        "a second '.opt p,oo' restarts the original's object range at the current address (]C002-C004, the first LDA "
        "left out); the project's output starts at the first byte written (docs/assembler.md: deviations)",
        "ok",
    ),
    "opt/opt_n_keeps_oo": (
        "'.opt n,oo' restarts the original's object range like any '.opt' with an O option; the project's output starts "
        "at the first byte written",
        "ok",
    ),
    "opt/opt_n_clears": (
        "after '.opt n' the original stores nothing, but its range runs on to the last address (C000-C006, the unwritten "
        "bytes included); the project's output ends at the last byte written",
        "ok",
    ),
    "rules/range_opt_twice_org": (
        "the object range starts at the last '.opt' with an O option in the original, at the first byte here",
        "ok",
    ),
    "rules/range_opt_n_oo_p": (
        "the object range starts at the last '.opt' with an O option in the original, at the first byte here",
        "ok",
    ),
    "rules/range_opt_n_then_p_oo": (
        "the object range starts at the last '.opt' with an O option in the original, at the first byte here",
        "ok",
    ),
    "syntax/syntax_lowercase_shifted_opcode": (
        "'LDA #1' typed with shifted letters: the C64 drops them (BASIC's CRUNCH) and the original reports the rest; "
        "the project reads a capital in a word as the letter (docs/assembler.md: deviations)",
        "ok",
    ),
    "rules/shifted_label_first": (
        "'Abc nop' / 'jmp bc': the C64 drops the shifted A, so the original's label is BC; the project reads Abc as ABC "
        "(a capital in a word is the letter, README: deviations) and reports BC undefined",
        "error",
    ),
    "rules/shifted_then_junk": (
        "'lda #1 Ab': the original sees 'b' after the operand (SYNTAX 5), the project reads the word 'Ab' (SYNTAX 3); "
        "both report an error",
        "error",
    ),
    "macro/macro_calls_macro": (
        "a macro calling another macro: the original loops for ever printing SYNTAX B (a defect); the project expands "
        "the nested call",
        "ok",
    ),
    "macro/macro_defined_not_called": (
        "the original runs a macro's definition through and reports UNDEF'D STATEMENT for a parameter there; the project "
        "evaluates a macro body only when it is called (docs/assembler.md: deviations)",
        "ok",
    ),
    "macro/macro_with_loop": (
        "'_', '.if' and '.goto' in a macro's definition run (with errors) while the original defines it; the project "
        "runs a body only when it is called, and gives the same bytes (docs/assembler.md: deviations)",
        "ok",
    ),
    "macro/macro_error_f_param_count": (
        "the project reports the call's SYNTAX F; the original also an UNDEF'D STATEMENT in the definition it runs "
        "through (docs/assembler.md: deviations)",
        "error",
    ),
    "macro/macro_error_f_too_many": (
        "the project reports the call's SYNTAX F; the original also an UNDEF'D STATEMENT in the definition it runs "
        "through (docs/assembler.md: deviations)",
        "error",
    ),
    "errors/errors_overflow_long_expression": (
        "an operand of more than 50 keys is the original's OVERFLOW (its buffer); the project assembles the expression "
        "and warns (docs/assembler.md: deviations)",
        "warn",
    ),
    "random/seed0401": (
        "a call whose argument is ILLEGAL QUANTITY: the original then runs the definition with the parameters "
        "undefined and reports UNDEF'D STATEMENT there too; the project reports the call's error (docs/assembler.md: deviations)",
        "error",
    ),
    **{case: (
        "a program without a single byte: the original assembles it (nothing to save); the project writes its "
        "listing or '.sst' symbol table when asked for one, and otherwise reports that there is no byte",
        "error",
    ) for case in ("org/org_no_code", "rules/sym_one_symbol", "rules/range_no_code_org_end", "rules/sym_none_no_code",
                                      "syntax/syntax_mac_param_digit")},
    "opt/opt_o_equals_rts": (
        ".opt o=expr hands the object to a routine on the C64; off the C64 it cannot run",
        "error",
    ),
}

# Deliberate differences in the printed listing alone (the object code is compared as usual): case -> why.
LISTING_DEVIATIONS: dict[str, str] = {
    "labels/labels_shifted_name": "'Abc = 5': the C64 drops the shifted A (the original lists BC); the project reads "
                                  "a capital in a word as the letter and lists ABC (docs/assembler.md: deviations)",
    "rules/shifted_comment": "'nop ;xAy': the C64 drops the shifted A (the original lists ;XY); the project keeps a "
                             "comment as written (;XaY), also for the other listing and 'convert'",
    "rules/shifted_abbreviation_label": "'aBc = 5': on the C64 'aB' is the abbreviation of ABS (the original lists ABSC); "
                                        "the project reads a capital in a word as the letter and lists ABC",
}

# The cases that do not
# yet give the original's result.  Regenerate: ASM6502_ORACLE_LIST_FAILING=1 pytest this file.
KNOWN_FAILING_FILE = FIXTURES / "known_failing.txt"
KNOWN_FAILING: frozenset[str] = frozenset(
    ln.strip() for ln in KNOWN_FAILING_FILE.read_text().splitlines() if ln.strip() and not ln.startswith("#")
) if KNOWN_FAILING_FILE.is_file() else frozenset()


# the groups of real programs: what the original did with them is test data from elsewhere
# (tests/testdata.py), read from a test-data collection, never committed
REAL_GROUPS = {"corpus": "profiass-corpus", "manual": "profiass-manual"}
MISSING = {group: reason for group, collection in REAL_GROUPS.items() if (reason := testdata.available(collection))}


def case_file(name: str, suffix: str) -> Path:
    """A file of case NAME (``group/stem``): committed for the project's own groups, from the
    test-data collection (its digest checked) for the real ones."""
    group, stem = name.split("/")
    if group in REAL_GROUPS:
        return real_file(REAL_GROUPS[group], stem + suffix)
    return FIXTURES / group / (stem + suffix)


def has_case_file(name: str, suffix: str) -> bool:
    group, stem = name.split("/")
    if group in REAL_GROUPS:
        return stem + suffix in testdata.manifest(REAL_GROUPS[group])
    return (FIXTURES / group / (stem + suffix)).is_file()


def _fixture_cases() -> list[tuple[str, dict, str, dict[str, Path | bytes]]]:
    cases = []
    for path in sorted(FIXTURES.glob("*/*.json")):
        record = json.loads(path.read_text())
        source = (path.parent / f"{path.stem}.src").read_text()
        disk = {name: path.parent / rel for name, rel in record["disk"].items()}
        cases.append((f"{path.parent.name}/{path.stem}", record, source, disk))
    for group, collection in REAL_GROUPS.items():
        if group in MISSING:
            continue
        for stem in (n.removesuffix(".json") for n in testdata.names(collection, ".json")):
            record = json.loads(testdata.read_text(collection, f"{stem}.json"))
            source = testdata.read_text(collection, f"{stem}.src")
            disk = {name: testdata.path(collection, rel) for name, rel in record["disk"].items()}
            cases.append((f"{group}/{stem}", record, source, disk))
    for group in ("random", "fuzz"):  # generated programs: tests/profiass_gen.py, tests/profiass_fuzz_gen.py
        programs = FIXTURES / group / "programs.jsonl"
        if programs.is_file():
            for line in programs.read_text().splitlines():
                row = json.loads(line)
                cases.append((f"{group}/seed{row['seed']:04d}", row, row["source"], {}))
    return cases


CASES = _fixture_cases()


FUZZ_DEFAULT = 150  # fuzz/seed0000..0149 run by default; the other committed fuzz programs with -m slow


def _params():
    for group, reason in MISSING.items():
        yield pytest.param(group, None, None, {}, id=f"{group}/*", marks=pytest.mark.skip(reason=reason))
    for name, record, source, disk in CASES:
        marks = [pytest.mark.xfail(strict=True, reason="not yet as the original")] if name in KNOWN_FAILING else []
        if name.startswith("fuzz/") and record["seed"] >= FUZZ_DEFAULT:
            marks.append(pytest.mark.slow)
        yield pytest.param(name, record, source, disk, id=name, marks=marks)


def our_text(source: str, case: str) -> str:
    """The source as our assembler reads it: lower-case letters = unshifted keys.  A listing typed
    in upper-case mode (the manual's) has only unshifted letters: the same text in lower case."""
    return source.lower() if case == "upper" else source


def basic_line_number(text_line: str) -> int | None:
    """The line number BASIC reads at the start of a typed line (blanks between digits are skipped)."""
    m = BASIC_LINE_RE.match(text_line)
    return int(m.group(1).replace(" ", "")) if m else None


def diagnostics(stderr: str, default_dir: Path) -> list[dict]:
    """Every ``file:line:col: severity: message`` header, with the BASIC line number it points at."""
    out = []
    for ln in stderr.splitlines():
        m = DIAG_RE.match(ln)
        if not m:
            continue
        path = Path(m.group("file"))
        if not path.is_absolute():
            path = default_dir / path
        basic = None
        if path.is_file():
            lines = path.read_text(errors="replace").splitlines()
            k = int(m.group("line"))
            if 1 <= k <= len(lines):
                basic = basic_line_number(lines[k - 1])
        also = re.search(r"\(line (\d+)\)", m.group("msg"))
        out.append({"severity": m.group("sev"), "message": m.group("msg"), "basic": basic,
                    "line_in_message": int(also.group(1)) if also else None})
    return out


def original_failed(record: dict) -> bool:
    return (not record["no_errors"]) or bool(record["errors"]) or bool(record.get("basic_error")) or record["end"] != "idle"


def object_files(record: dict, source: str) -> dict[str, str]:
    """The files the original wrote that hold the object: every one but the '.sst' symbol tables
    the source names (``.sst 8,2,"syms,s,w"`` writes SYMS)."""
    tables = {m.upper() for m in re.findall(r'\.sst\s*8\s*,\s*2\s*,\s*"([^",]*)', source, re.IGNORECASE)}
    return {k: v for k, v in record["files_hex"].items() if k not in tables}


def expected_prg(record: dict, source: str) -> bytes | None:
    if record["object_hex"] is not None:
        start = int(record["range"][0], 16)
        return bytes([start & 0xFF, start >> 8]) + bytes.fromhex(record["object_hex"])
    files = object_files(record, source)
    if len(files) == 1:
        return bytes.fromhex(next(iter(files.values())))
    return None


def _statement(text: str | None) -> str:
    return re.sub(r"^\d+:", "", text or "")


def wanted_errors(errors: list[dict]) -> list[dict]:
    """The original's errors to look for.  An error printed in both passes counts once, at its
    pass-1 line: in pass 2 the original prints a wrong line number for a statement on the SYS
    line (the last line's number, probe basic_sys_colon_rem)."""
    first = {(message_tag(e), _statement(e["text"])) for e in errors if e["pass"] == 1}
    return [e for e in errors if e["pass"] == 1 or (message_tag(e), _statement(e["text"])) not in first]


def message_tag(error: dict) -> str:
    return f"[{error['message']} {error['detail']}]" if error["detail"] else f"[{error['message']}]"


def disk_image(disk: dict[str, Path]) -> bytes:
    """A .d64 holding the drive's files as the C64 had them: the sources tokenized by the real
    BASIC ROM (``<file>.prg`` beside each text source in the fixture), other files (a .sst table)
    as SEQ files."""
    from asm6502.d64 import DiskImage, FileType

    image = DiskImage.format(b"ORACLE", b"64")
    for c64name, host in sorted(disk.items()):
        prg = host.with_name(host.name + ".prg")
        if prg.is_file():
            image.add_file(c64name.encode("ascii"), prg.read_bytes(), FileType.PRG)
        else:
            image.add_file(c64name.encode("ascii"), host.read_bytes(), FileType.SEQ)
    return image.to_bytes()


def assemble_case(tmp_path: Path, name: str, record: dict, source: str, disk: dict, capsys, via_d64: bool = False,
                  tokenized: bytes | None = None) -> tuple[int, str, Path]:
    src = tmp_path / (name.split("/")[-1] + ".src")
    if tokenized is not None:  # the source as the C64 saved it (a BASIC .prg)
        src = src.with_suffix(".prg")
        src.write_bytes(tokenized)
    else:
        src.write_text(our_text(source, record["case"]))
    if via_d64:
        image = tmp_path / "drive8.d64"
        image.write_bytes(disk_image(disk))
        out = tmp_path / "out.prg"
        capsys.readouterr()
        try:
            rc = main([str(src), "-o", str(out), "--disk", str(image)])
        except SystemExit as exc:  # an option this build does not know
            rc = exc.code
        return rc, capsys.readouterr().err, out
    for c64name, host in disk.items():
        # the files of the virtual drive, next to the source under their C64 names in lower case
        target = tmp_path / c64name.lower()
        data = host.read_bytes()
        if record["case"] == "upper":
            data = data.lower()
        target.write_bytes(data)
    out = tmp_path / "out.prg"
    capsys.readouterr()
    rc = main([str(src), "-o", str(out)])
    return rc, capsys.readouterr().err, out


def check_case(tmp_path: Path, name: str, record: dict, source: str, disk: dict, capsys, via_d64: bool = False,
               tokenized: bytes | None = None) -> None:
    rc, err, out = assemble_case(tmp_path, name, record, source, disk, capsys, via_d64, tokenized)
    deviation = DEVIATIONS.get(name)
    if deviation is not None:
        if deviation[1] == "error":
            assert rc != 0, f"expected an error ({deviation[0]})\n{err}"
            assert not out.exists()
        else:
            assert rc == 0, err
            if deviation[1] == "warn":
                assert any(d["severity"] == "warning" for d in diagnostics(err, tmp_path)), f"expected a warning ({deviation[0]})\n{err}"
        return
    if not original_failed(record):
        assert rc == 0, f"the original assembled this without errors\n{err}"
        want = expected_prg(record, source)
        if want is not None:
            got = out.read_bytes()
            assert got.hex(" ") == want.hex(" ")
        return
    assert rc != 0, "the original reported errors; we exited 0"
    assert not out.exists(), "an output file was left after errors"
    diags = [d for d in diagnostics(err, tmp_path) if d["severity"] == "error"]
    wanted = sorted({(e["line"], message_tag(e)) for e in wanted_errors(record["errors"])}, key=str)
    missing = []
    for line, tag in wanted:
        ok = any(tag in d["message"] and (line is None or line in (d["basic"], d["line_in_message"])) for d in diags)
        if not ok:
            missing.append(f"line {line}: {tag}")
    assert not missing, "the original's errors not reported:\n" + "\n".join(missing) + "\n--- stderr:\n" + err


@pytest.mark.parametrize(("name", "record", "source", "disk"), list(_params()))
def test_as_the_original(tmp_path, capsys, name, record, source, disk):
    check_case(tmp_path, name, record, source, disk, capsys)


ON_DISK = [(name, record, source, disk) for name, record, source, disk in CASES if disk]


def _d64_params():
    for name, record, source, disk in ON_DISK:
        marks = [pytest.mark.xfail(strict=True, reason="no .d64 lookup yet")] if f"d64/{name}" in KNOWN_FAILING else []
        yield pytest.param(name, record, source, disk, id=f"d64/{name}", marks=marks)


@pytest.mark.parametrize(("name", "record", "source", "disk"), list(_d64_params()))
def test_files_from_a_disk_image(tmp_path, capsys, name, record, source, disk):
    """The .file/.end/.lst cases again, with the drive's files in a .d64 given with --disk (the
    sources tokenized, as users kept them) instead of text files beside the source."""
    check_case(tmp_path, name, record, source, disk, capsys, via_d64=True)


TOKENIZED = [(name, record, source, disk) for name, record, source, disk in CASES if has_case_file(name, ".tok.prg")]


def _tokenized_params():
    for name, record, source, disk in TOKENIZED:
        marks = [pytest.mark.xfail(strict=True, reason="tokenized form not yet as the original")] if f"tokenized/{name}" in KNOWN_FAILING else []
        yield pytest.param(name, record, source, disk, id=f"tokenized/{name}", marks=marks)


@pytest.mark.parametrize(("name", "record", "source", "disk"), list(_tokenized_params()))
def test_tokenized_as_the_original(tmp_path, capsys, name, record, source, disk):
    """The real sources again, as the C64 saved them: ``<name>.tok.prg`` is the text typed into the
    oracle's C64 and tokenized there by the real BASIC ROM (control codes inside quotes are bytes,
    keywords tokens); the assembler reads the .prg and must give the original's result."""
    prg = case_file(name, ".tok.prg").read_bytes()
    check_case(tmp_path, name, record, source, disk, capsys, tokenized=prg)


def _norm(line: str) -> str:
    return " ".join(line.replace("{$0c}", "").split()).upper()


MANUAL = [n.removesuffix(".json") for n in testdata.names(REAL_GROUPS["manual"], ".json")]


def manual_listing_lines(name: str) -> list[str]:
    """The lines of the manual's printed listing (manual/<name>.manual.lst) that the original
    printed too: the program wins where the two disagree (ex4_p27: the manual shows a MACROTABLE
    that Profi-Ass 64 V2.0 does not print)."""
    printed = case_file(f"manual/{name}", ".manual.lst").read_text().splitlines()
    record = json.loads(case_file(f"manual/{name}", ".json").read_text())
    screen = {_norm(ln) for ln in record["listing"]}
    return [ln for ln in printed if ln.strip() and not ln.startswith("#") and _norm(ln) in screen]


def _listing_params():
    for name in MANUAL:
        marks = [pytest.mark.xfail(strict=True, reason="no original-format listing yet")] if f"manual-listing/{name}" in KNOWN_FAILING else []
        yield pytest.param(name, id=f"manual-listing/{name}", marks=marks)


@pytest.mark.parametrize("name", list(_listing_params()))
def test_manual_listing(tmp_path, capsys, name):
    """The listing in the original's format (``--listing-format profi``) holds, in order, every
    line of the manual's printed listing that the original printed (whitespace runs collapsed,
    letters compared in upper case: the C64 prints the unshifted letters as capitals)."""
    want = manual_listing_lines(name)
    src = tmp_path / f"{name}.src"
    src.write_text(our_text(case_file(f"manual/{name}", ".src").read_text(), "upper"))
    listing = tmp_path / f"{name}.lst"
    try:
        rc = main([str(src), "-o", str(tmp_path / "out.prg"), "--listing", str(listing), "--listing-format", "profi"])
    except SystemExit as exc:  # an option this build does not know
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 0, err
    got = [_norm(ln) for ln in listing.read_text().splitlines()]
    i = 0
    missing = []
    for line in want:
        j = i
        while j < len(got) and got[j] != _norm(line):
            j += 1
        if j < len(got):
            i = j + 1
        else:
            missing.append(line)
    assert not missing, "manual listing lines not found in order:\n" + "\n".join(missing)


def test_manual_listing_lines_come_from_the_manual():
    counts = {name: len(manual_listing_lines(name)) for name in MANUAL}
    # every transcribed line was printed by the original but ex4_p27's three MACROTABLE lines and
    # ex1_p20's "2" (the pass-2 mark, printed before the listing; the fixtures' listing starts after it)
    assert counts == {"ex1_p20": 17, "ex2_p24": 58, "ex3_p26": 38, "ex4_p27": 44, "ex5_p32": 54}


OBJECT_FILES = [(name, record, source) for name, record, source, disk in CASES
                if not name.startswith("random/") and not original_failed(record)
                and record["object_hex"] is None and len(object_files(record, source)) == 1]


def _default_name_params():
    for name, record, source in OBJECT_FILES:
        marks = [pytest.mark.xfail(strict=True, reason="no default name from OPEN yet")] if f"default-name/{name}" in KNOWN_FAILING else []
        yield pytest.param(name, record, source, id=f"default-name/{name}", marks=marks)


@pytest.mark.parametrize(("name", "record", "source"), list(_default_name_params()))
def test_default_output_name_from_open(tmp_path, capsys, name, record, source):
    """Without -o, '.opt o#' writes the object where the C64 wrote it: the file OPENed as # before
    the start line, under the name the drive stored (lower case) + .prg, beside the source."""
    (c64name, data), = record["files_hex"].items()
    src = tmp_path / "source" / (name.split("/")[-1] + ".src")
    src.parent.mkdir()
    src.write_text(our_text(source, record["case"]))
    rc = main([str(src)])
    err = capsys.readouterr().err
    assert rc == 0, err
    out = src.parent / (c64name.lower().replace("/", "_") + ".prg")  # ('bass/irq': a '/' is no host directory)
    assert out.is_file(), f"no {out.name}; files: {sorted(p.name for p in src.parent.iterdir())}"
    assert out.read_bytes().hex(" ") == bytes.fromhex(data).hex(" ")


LISTED = [(name, record, source) for name, record, source, disk in CASES
          if not name.startswith(("random/", "fuzz/")) and not disk and not original_failed(record)
          and (DEVIATIONS.get(name, ("", "ok"))[1] == "ok" or "without a single byte" in DEVIATIONS[name][0])
          # (an "ok" deviation is in the object only, and a program without bytes is listed: their listings are compared)
          and name not in LISTING_DEVIATIONS
          and any(re.match(r"^\d+:", ln) for ln in record["listing"])]


# how the oracle's screen text names the control codes the original printed inside quotes
# (c64emu.CONTROL_NAMES); every other code it writes {$hh}
ORACLE_CODE_NAMES = {"clr": 0x93, "home": 0x13, "down": 0x11, "up": 0x91, "right": 0x1D, "left": 0x9D, "rvs on": 0x12,
                     "rvs off": 0x92, "lower": 0x0E, "upper": 0x8E, "white": 0x05, "del": 0x14, "inst": 0x94}
BRACES = re.compile(r"\{([^{}]+)\}")


def _code(m: re.Match) -> str:
    """A key in braces as one spelling, {$hh}: the oracle's names, petcat's names (a listing of a
    tokenized source, shown upper case like the rest of the screen) and {$hh} in either case."""
    from asm6502.petscii import parse_brace

    inner = m.group(1)
    code = ORACLE_CODE_NAMES.get(inner)
    if code is None:
        parsed = parse_brace(inner) or parse_brace(inner.swapcase())
        if parsed is None or parsed[1] != 1:
            return m.group(0)
        code = parsed[0]
    return "{$%02x}" % code


def listing_lines(text_lines: list[str]) -> list[str]:
    """Listing lines compared: the form feed before a page header ({$0c} on the screen, \\f in a
    file) becomes an empty line; trailing blanks are dropped; a code printed inside quotes is
    compared as {$hh}, however it is named."""
    return [BRACES.sub(_code, ln.replace("{$0c}", "").replace("\f", "")).rstrip() for ln in text_lines]


def _listing_format_params():
    for name, record, source in LISTED:
        marks = [pytest.mark.xfail(strict=True, reason="listing not yet as the original's")] if f"listing-format/{name}" in KNOWN_FAILING else []
        yield pytest.param(name, record, source, id=f"listing-format/{name}", marks=marks)


@pytest.mark.parametrize(("name", "record", "source"), list(_listing_format_params()))
def test_listing_as_the_original(tmp_path, capsys, name, record, source):
    """``--listing-format profi`` writes what the original printed in pass 2 (cases without
    errors whose listing the original printed with .opt p): the page headers, every listing line
    with its columns, ``]XXXX-YYYY``, ``NO ERRORS`` and a .sym table."""
    src = tmp_path / (name.split("/")[-1] + ".src")
    src.write_text(our_text(source, record["case"]))
    listing = tmp_path / "out.lst"
    try:
        rc = main([str(src), "-o", str(tmp_path / "out.prg"), "--listing", str(listing), "--listing-format", "profi"])
    except SystemExit as exc:  # an option this build does not know
        rc = exc.code
    err = capsys.readouterr().err
    assert rc == 0, err
    want = listing_lines(record["listing"])
    # the file's last newline ends its last line; not splitlines(): it splits at \f
    got = listing_lines(listing.read_text().removesuffix("\n").split("\n"))
    assert got == want


def test_fixture_set_is_complete():
    """The counts the issue asks for are there: probes, manual programs, random programs."""
    groups = {}
    for name, *_ in CASES:
        groups.setdefault(name.split("/")[0], 0)
        groups[name.split("/")[0]] += 1
    for group, collection in REAL_GROUPS.items():  # the real programs: as many as their manifests name
        assert groups.get(group, 0) == (0 if group in MISSING else len(testdata.names(collection, ".json")))
    assert len(testdata.names(REAL_GROUPS["manual"], ".json")) == 5
    assert len(testdata.names(REAL_GROUPS["corpus"], ".json")) >= 11
    assert groups.get("random", 0) >= 400
    assert groups.get("fuzz", 0) >= 1000
    assert sum(n for g, n in groups.items() if g not in ("manual", "random", "fuzz", "corpus")) >= 150


def test_tables_name_existing_cases():
    names = {name for name, *_ in CASES}
    assert set(DEVIATIONS) <= names
    assert set(LISTING_DEVIATIONS) <= names
    extra = ({f"manual-listing/{name}" for name in MANUAL} | {f"default-name/{name}" for name, *_ in OBJECT_FILES}
             | {f"listing-format/{name}" for name, *_ in LISTED} | {f"d64/{name}" for name, *_ in ON_DISK}
             | {f"tokenized/{name}" for name, *_ in TOKENIZED})
    assert KNOWN_FAILING <= names | extra
    assert len(OBJECT_FILES) >= 4


def test_message_tag_format():
    assert message_tag({"message": "SYNTAX", "detail": "1"}) == "[SYNTAX 1]"
    assert message_tag({"message": "UNDEF'D STATEMENT", "detail": None}) == "[UNDEF'D STATEMENT]"


@pytest.mark.parametrize(("text", "number"), [("100 lda #1", 100), ("100 1abc =5", 1001), ("  20 nop", 20), ("; x", None)])
def test_basic_line_number(text, number):
    assert basic_line_number(text) == number


ORACLE_HOME = oracle_home()
REPRODUCE = ([c for c in CASES if c[0].split("/")[0] not in ("random", "fuzz")][::60][:4]
             + [c for c in CASES if c[0].startswith("random/")][:1] + [c for c in CASES if c[0].startswith("fuzz/")][:1])


@pytest.mark.skipif(not ORACLE_HOME.is_dir(), reason="the Profi-Ass oracle ($PROFIASS_HOME) is not set up here")
@pytest.mark.parametrize(("name", "record", "source", "disk"), REPRODUCE, ids=[c[0] for c in REPRODUCE])
def test_oracle_reproduces_fixture(name, record, source, disk):
    """Re-running the original gives the committed fixture again (the fixtures are deterministic)."""
    import importlib.util
    import sys

    tool = Path(__file__).resolve().parents[1] / "tools" / "profiass_oracle.py"
    if not Path(tool).is_file() or shutil.which("gcc") is None:
        pytest.skip("tools/profiass_oracle.py or gcc missing")
    spec = importlib.util.spec_from_file_location("profiass_oracle", tool)
    oracle = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(oracle)
    if not oracle.ORACLE_DIR.is_dir():
        pytest.skip("oracle scripts not found")
    disk_data = {c64: oracle._disk_file(path) for c64, path in disk.items()}
    saved = list(sys.path), sys.dont_write_bytecode
    try:
        new, screen = oracle.run(source, record["case"], disk_data, oracle.CORPUS_BUDGET if name.startswith("corpus/") else oracle.BUDGET)
    finally:
        sys.path[:], sys.dont_write_bytecode = saved
    new["disk"] = record["disk"]
    if name.startswith(("random/", "fuzz/")):
        del new["listing"]
        new = {"seed": record["seed"], "source": source, **new}
    else:
        assert screen == case_file(name, ".screen.txt").read_text()
    assert new == record


def test_wanted_errors_counts_an_error_of_both_passes_once():
    sys_line = [
        {"line": 100, "message": "SYNTAX", "detail": "1", "pass": 1, "text": "100:   C000   REM  AUFRUF"},
        {"line": 120, "message": "SYNTAX", "detail": "1", "pass": 2, "text": "120:   C000   REM  AUFRUF"},
        {"line": 130, "message": "UNDEF'D STATEMENT", "detail": None, "pass": 2, "text": "130:   C002 00 00 00   LDA  AB"},
    ]
    assert [(e["line"], e["pass"]) for e in wanted_errors(sys_line)] == [(100, 1), (130, 2)]
