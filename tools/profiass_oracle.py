#!/usr/bin/env python3
"""Run Profi-Ass sources through the ORIGINAL Profi-Ass 64 V2.0 and write test fixtures.

The original runs on an emulated C64 (the runner in ``$PROFIASS_ORACLE``, README.txt there;
binaries in ``$PROFIASS_HOME``: tools/oracles.py).  This script only drives it and
records what it printed; the tests (``tests/test_profiass_oracle.py``) read the fixtures and
need no oracle.  Maintainer use:

    python3 tools/profiass_oracle.py probes        # tests/fixtures/profiass/<group>/ from the probe table
    python3 tools/profiass_oracle.py manual        # $ASM6502_TESTDATA/profiass-manual/ (see below)
    python3 tools/profiass_oracle.py random [N]    # tests/fixtures/profiass/random/programs.jsonl (420)
    python3 tools/profiass_oracle.py fuzz [N]      # tests/fixtures/profiass/fuzz/programs.jsonl (1000)
    python3 tools/profiass_oracle.py corpus [NAME] # $ASM6502_TESTDATA/profiass-corpus/ from the real sources
                                                   # (<name>.orig.txt there + tests/manifests/profiass-corpus/manifest.jsonl)
    python3 tools/profiass_oracle.py all
    python3 tools/profiass_oracle.py show SRC [--case upper]   # one source, record + screen to stdout
    python3 tools/profiass_oracle.py check [N]     # re-run N fixtures, compare (exit 1 on a difference)
    python3 tools/profiass_oracle.py known-failing # run the tests on today's assembler, write
                                                   # tests/fixtures/profiass/known_failing.txt

The real programs (the manual's examples, the corpus) are third-party material: their fixtures go
to the maintainer's test-data folder ``$ASM6502_TESTDATA/<collection>/`` (never into the
repository), and the digests of what was written to ``tests/manifests/<collection>/SHA256SUMS``
(tests/testdata.py); a new corpus source is its ``<name>.orig.txt`` put there and a line of
``manifest.jsonl``.  Name the new files when handing them on, so that the shared test data is
brought up to date from the manifest.

Fixture format (per case, in ``tests/fixtures/profiass/<group>/`` or the test-data collection):
  <name>.src          the exact text typed (``--header none``): the ``sys32768`` and ``.opt``
                      lines are in it; lower-case letters = unshifted keys (``--case lower``)
  <name>.json         the record below
  <name>.screen.txt   the screen text of the RUN, verbatim (upper-case character set)
  <name>.disk/<file>  text sources put on the virtual drive 8 (for ``.file``/``.end``/``.lst``);
                      the C64 name is the file name upper-cased; <file>.prg beside a text source
                      is that source tokenized by the real BASIC ROM (what the drive held)
Record keys:
  case            "lower" | "upper" (how the text was typed, see the oracle README)
  disk            {C64 name: fixture-relative path of the text source} or {}
  range           ["C000", "C006"] = the last "]C000-C006" printed (end exclusive), or null
  object_hex      memory range start..end after the run (no load address), when the run wrote
                  it (.opt oo), bytes it did not write (gaps) as 00 (see run()); else null (also when the range is reversed/wrapped or overlaps
                  $0000-$07FF or $8000-$9FFF, which the C64 and the assembler use themselves)
  files_written   names of files the run wrote to drive 8 (e.g. the .opt o1 object)
  files_hex       {name: bytes as hex} for those files (a .prg file starts with its load address)
  no_errors       "NO ERRORS" printed and no pass-1 errors
  pass1_errors / pass2_errors    the counts printed ("N ERRORS IN PASS 1", "N ERRORS"/"NO ERRORS";
                  pass2_errors null when the run never got to the count, e.g. a fatal error)
  errors          [{"line": 120, "message": "SYNTAX", "detail": "1", "pass": 1, "fatal": false,
                  "text": the offending line as printed}]; "line" is the BASIC line number of the
                  offending line, null when the original printed it as a macro line ("+ ...");
                  "detail" is the syntax digit/letter printed before "****", else null;
                  "fatal": the message came after a row of "!" (the run stopped there)
  basic_error     a BASIC error that stopped the run ("?OVERFLOW  ERROR IN 120"), or null
  end             "idle" (back at READY) or "budget+stop:..." (the run hung; RUN/STOP held)
  printer         {device: text} what went to a printer (.opt p4 with "open4,4"), PETSCII shown as
                  the screen text is
  listing         every screen line from the start of pass 2 (after the "2" line) up to the
                  final "READY." (excluded), verbatim: page headers ("{$0c}", "PROFI-ASS 64 V2.0
                  SEITE n", blank line), listing lines, error messages, "]XXXX-YYYY", the error
                  count and a .SYM table.  Screen lines only (.opt p# printer output is not in it)
  oracle_warnings the oracle's warnings (e.g. a line of 80+ keys that the editor drops)
Random programs (``random/programs.jsonl``): one JSON object per line, {"seed", "source", and
the record above without "listing"}; regenerated from ``tests/profiass_gen.py``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "profiass"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests"))
import testdata  # noqa: E402
from oracles import profiass_dir, require_profiass  # noqa: E402

REAL = {"corpus": "profiass-corpus", "manual": "profiass-manual"}  # group -> test-data collection

ORACLE_DIR = profiass_dir()
RANDOM_COUNT = 420  # random programs committed (seeds 0..419)
BUDGET = 8_000_000  # 6502 instructions: a probe takes < 2 M; a hang stops after ~0.1 s

# memory the C64 and Profi-Ass change while assembling (zero page, stack, KERNAL/BASIC work areas,
# screen; the assembler at $8000-$9FFF): a range ]XXXX-YYYY over these (e.g. "]0000-C000" after an
# error) is not object code, so object_hex stays null
BUSY = ((0x0000, 0x0800), (0x8000, 0xA000))
# RAM that nothing holds before the assembly run: from the end of the BASIC program (None) to the
# assembler at $8000, and the RAM under BASIC's ROM, at $C000 and under the KERNAL ($D000-$DFFF,
# the I/O area, is left alone)
FREE_RAM = ((None, 0x8000), (0xA000, 0xD000), (0xE000, 0x10000))
ERROR_RE = re.compile(r"^(!*)(?:([0-9A-Z]) )?\*\*\*\*(.+?)\s*$")
LINE_RE = re.compile(r"^(\d+):")
PASS1_RE = re.compile(r"^\d+ ERRORS? IN PASS 1$")
BASIC_ERROR_RE = re.compile(r"^\?.*ERROR(?: IN \d+)?\s*$")


def _oracle():
    sys.dont_write_bytecode = True
    sys.path.insert(0, str(ORACLE_DIR))
    import profiass  # the oracle runner (not part of this project)

    return profiass


def source_lines(text: str) -> list[str]:
    """The lines the oracle types (its read_source: blank lines are skipped)."""
    return [ln for ln in text.splitlines() if ln.strip()]


def _undouble(line: str) -> str | None:
    """"****UUNNDDEEFF" -> "****UNDEF": a line whose every character came twice (the listing went
    to the screen on two channels, e.g. after ".opt p ; comment"), else None."""
    if len(line) >= 8 and len(line) % 2 == 0 and line[0::2] == line[1::2]:
        return line[0::2]
    return None


def parse_screen(screen: str) -> dict:
    """Errors, listing and BASIC error from the screen text of a run."""
    lines = screen.split("\n")
    errors = []
    listing: list[str] | None = None
    basic_error = None
    pass_no = 1
    doubling = False  # the listing went out twice: every character doubled (".opt p ; x")
    i = 0
    while i < len(lines):
        ln = lines[i].rstrip("\r")
        bare = ln.strip()  # .pag ,n indents every line, the "2" too
        if doubling and bare == "22":
            bare = "2"
        elif doubling and _undouble(bare):
            bare = _undouble(bare)
        if pass_no == 1 and (bare == "2" or PASS1_RE.match(bare)):
            if bare == "2":
                pass_no = 2
                listing = []
            i += 1
            continue
        if bare == "READY.":
            break
        if listing is not None:
            listing.append(ln)
        doubled = _undouble(ln)
        doubling = doubling or bool(doubled)
        m = ERROR_RE.match((doubled or ln).lstrip())
        if m:
            k = i + 1
            while doubled and k < len(lines) and not lines[k].strip():
                k += 1  # doubled output (screen + a second listing channel): CR CR
            text = lines[k].strip() if k < len(lines) else ""
            text = _undouble(text) or text if doubled else text
            if not (LINE_RE.match(text) or text.startswith("+")):
                text = None  # no offending line printed (e.g. C: a macro definition not closed)
            lm = LINE_RE.match(text or "")
            errors.append(
                {
                    "line": int(lm.group(1)) if lm else None,
                    "message": m.group(3),
                    "detail": m.group(2),
                    "pass": pass_no,
                    "fatal": bool(m.group(1)),
                    "text": text,
                }
            )
        elif BASIC_ERROR_RE.match(bare):
            basic_error = bare
        i += 1
    return {"errors": errors, "listing": listing or [], "basic_error": basic_error}


def run(text: str, case: str = "lower", disk: dict[str, str] | None = None, budget: int = BUDGET) -> tuple[dict, str]:
    """Assemble `text` with the original; returns (record, screen text).

    The source runs twice: once with the free RAM (FREE_RAM) filled with $00, once with $FF.
    A byte of the ]XXXX-YYYY range that differs between the two runs was not written by the
    assembler (a '*= *+n' gap, or a byte '.opt n' did not store): it is recorded as 00, the gap
    fill.  Without the fill those bytes would be what the loader of Profi-Ass left in RAM
    ($0A00-$29FF holds its image).  Both runs must print the same screen."""
    pa = _oracle()
    machines = []

    class Recording(pa.ProfiAss):
        fill = 0

        def run_program(self, *a, **k):
            m = self.c64.mem
            vartab = m[0x2D] | m[0x2E] << 8  # end of the BASIC program (KERNAL/BASIC pointer)
            for lo, hi in FREE_RAM:
                lo = vartab if lo is None else lo
                m.poke(lo, bytes([self.fill]) * (hi - lo))
            self.before = m.ram(0, 0x10000)
            machines.append(self)
            return super().run_program(*a, **k)

    disk_bytes = {}
    for name, src in (disk or {}).items():
        # a text source is tokenized as the C64 would have saved it; bytes go on the disk as they are
        data = src if isinstance(src, bytes) else pa.tokenize(source_lines(src), case)
        disk_bytes[name.upper().encode("latin-1")] = data
    runs = []
    for fill in (0x00, 0xFF):
        Recording.fill = fill
        original = pa.ProfiAss
        pa.ProfiAss = Recording
        try:
            res = pa.assemble(lines=source_lines(text), case=case, disk=dict(disk_bytes), budget=budget)
        finally:
            pa.ProfiAss = original
        rng = res["range"]
        machine = machines[-1]
        # read now: the oracle's C core keeps one machine per process, the next run replaces it
        span = (rng[0], rng[1] - rng[0]) if rng and rng[1] > rng[0] else (0, 0)
        runs.append((res, machine.before[span[0] : span[0] + span[1]], machine.c64.mem.ram(*span)))
    (res, before0, a0), (res1, before1, a1) = runs
    screen = res["screen_text"]
    if res1["screen_text"] != screen or res1["files"] != res["files"] or res1["range"] != res["range"]:
        raise RuntimeError("the original printed differently on $00- and $FF-filled free RAM")
    rng = res["range"]
    obj = None
    if rng and rng[1] > rng[0] and not any(rng[0] < hi and lo < rng[1] for lo, hi in BUSY):
        if a0 != before0 or a1 != before1:
            obj = bytes(x if x == y else 0 for x, y in zip(a0, a1)).hex().upper()
    parsed = parse_screen(screen)
    record = {
        "case": case,
        "disk": {},
        "range": ["%04X" % rng[0], "%04X" % rng[1]] if rng else None,
        "object_hex": obj,
        "no_errors": res["no_errors"],
        "pass1_errors": res["pass1_errors"],
        "pass2_errors": res["pass2_errors"],
        "errors": parsed["errors"],
        "basic_error": parsed["basic_error"],
        "end": res["end"],
        "files_written": sorted(res["files"]),
        "files_hex": {k: bytes(v).hex().upper() for k, v in sorted(res["files"].items())},
        "printer": {str(dev): pa.petscii_to_text(bytes(data)) for dev, data in sorted(res["printer"].items())},
        "listing": parsed["listing"],
        "oracle_warnings": res["warnings"],
    }
    return record, screen


def write_case(directory: Path, name: str, text: str, case: str = "lower", disk: dict[str, str] | None = None,
               budget: int = BUDGET) -> dict:
    directory.mkdir(parents=True, exist_ok=True)
    record, screen = run(text, case, disk, budget)
    (directory / f"{name}.src").write_text(text)
    disk_map = {}
    for c64name, src in sorted((disk or {}).items()):
        rel = f"{name}.disk/{c64name.lower()}"
        (directory / rel).parent.mkdir(exist_ok=True)
        if isinstance(src, bytes):
            (directory / rel).write_bytes(src)
        else:
            (directory / rel).write_text(src)
            # the same source as the C64 saved it (tokenized by the real BASIC ROM), for a .d64
            (directory / f"{rel}.prg").write_bytes(_oracle().tokenize(source_lines(src), case))
        disk_map[c64name.upper()] = rel
    record["disk"] = disk_map
    (directory / f"{name}.json").write_text(json.dumps(record, indent=1) + "\n")
    (directory / f"{name}.screen.txt").write_text(screen)
    return record


def cmd_probes(only: str | None = None) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from profiass_probes import PROBES

    seen = set()
    for p in PROBES:
        key = (p["group"], p["name"])
        if key in seen:
            raise SystemExit(f"duplicate probe {key}")
        seen.add(key)
        if only and only not in (p["group"], p["name"]):
            continue
        disk = dict(p.get("disk") or {})
        for c64name, (group, name, written) in (p.get("disk_from") or {}).items():
            # a file that an earlier probe wrote (e.g. a .sst symbol table), as raw bytes
            earlier = json.loads((FIXTURES / group / f"{name}.json").read_text())
            disk[c64name] = bytes.fromhex(earlier["files_hex"][written])
        rec = write_case(FIXTURES / p["group"], p["name"], p["text"], p.get("case", "lower"), disk)
        print(f"{p['group']}/{p['name']}: {summary(rec)}")


def real_out(collection: str) -> Path:
    """The maintainer's test-data folder of a collection, where the real programs' fixtures go."""
    import os

    if not os.environ.get(testdata.ENV):
        raise SystemExit(f"set {testdata.ENV} to a test-data folder outside the checkout: "
                         f"the {collection} fixtures are third-party material, never committed")
    out = Path(os.environ[testdata.ENV]) / collection
    out.mkdir(parents=True, exist_ok=True)
    return out


def record_digests(collection: str, folder: Path) -> None:
    """tests/manifests/<collection>/SHA256SUMS: the manifest's digests, with those of every file
    now in FOLDER (what this run wrote, and the sources it read there)."""
    sums = dict(testdata.manifest(collection))
    sums.update({p.name: testdata.sha256(p) for p in folder.iterdir() if p.is_file()})
    target = testdata.MANIFESTS / collection / "SHA256SUMS"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(f"{digest}  {name}\n" for name, digest in sorted(sums.items())))


def cmd_manual() -> None:
    mdir = ORACLE_DIR / "manual"
    out = real_out(REAL["manual"])
    for src in sorted(mdir.glob("*.txt")):
        text = "".join(ln + "\n" for ln in source_lines(src.read_text()))
        rec = write_case(out, src.stem, text, "upper")
        # the program as the C64 saved it (tokenized by the real BASIC ROM): tokenized/manual/<name>
        (out / f"{src.stem}.tok.prg").write_bytes(_oracle().tokenize(source_lines(text), "upper"))
        (out / f"{src.stem}.manual.lst").write_text((mdir / "expected" / f"{src.stem}.lst").read_text())
        print(f"manual/{src.stem}: {summary(rec)}")
    record_digests(REAL["manual"], out)


FUZZ_COUNT = 1000  # structural fuzz programs committed (seeds 0..999)


def _record_generated(group: str, module: str, count: int, every: int) -> None:
    """<group>/programs.jsonl: the original's record (without its listing) for the programs that
    tests/<module>.py generates from seeds 0..count-1."""
    sys.path.insert(0, str(ROOT / "tests"))
    generate = __import__(module).generate

    out = FIXTURES / group
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for seed in range(count):
        text = generate(seed)
        rec, _ = run(text)
        del rec["listing"]
        rows.append(json.dumps({"seed": seed, "source": text, **rec}, separators=(",", ":")))
        if seed % every == 0:
            print(f"{group} {seed}: {summary(rec)}", flush=True)
    (out / "programs.jsonl").write_text("\n".join(rows) + "\n")


def cmd_fuzz(count: int) -> None:
    """fuzz/programs.jsonl: the structural fuzzer's programs (tests/profiass_fuzz_gen.py)."""
    _record_generated("fuzz", "profiass_fuzz_gen", count, 100)


def cmd_random(count: int) -> None:
    """random/programs.jsonl: the random programs of tests/profiass_gen.py."""
    _record_generated("random", "profiass_gen", count, 50)


CORPUS_BUDGET = 400_000_000  # a real program listed to the screen scrolls for 10-100 M instructions
HEADER_RE = re.compile(r"^;")  # a dump's own header (";name.prg ==0801==", ";Eingetippt von ...")
BRACE_RE = re.compile(r"\{([^}$][^}]*)\}")


def corpus_manifest() -> list[dict]:
    """tests/manifests/profiass-corpus/manifest.jsonl: one real source a line, {"name", "repo", "path",
    "commit", "origin", "changes": [[old, new], ...], "why"}; the text is <name>.orig.txt of the
    test-data collection, as published."""
    path = testdata.MANIFESTS / REAL["corpus"] / "manifest.jsonl"
    return [json.loads(ln) for ln in path.read_text().splitlines() if ln.strip()]


def corpus_text(orig: str, changes: list[list[str]]) -> str:
    """The text typed into the oracle's C64 from a published source dump: the dump's header lines
    and blank lines dropped, the blanks before each line number dropped (petcat right-aligns the
    numbers), petcat's {names} as {$hh} codes (the keys the oracle types), then the manifest's
    changes (each must apply at least once)."""
    sys.path.insert(0, str(ROOT))
    from asm6502.petscii import parse_brace

    def code(m: re.Match) -> str:
        parsed = parse_brace(m.group(1))
        if parsed is None:
            raise SystemExit(f"unknown petcat name {{{m.group(1)}}}")
        return ("{$%02x}" % parsed[0]) * parsed[1]

    lines = [BRACE_RE.sub(code, ln.lstrip(" ")) for ln in orig.splitlines() if ln.strip() and not HEADER_RE.match(ln)]
    text = "".join(ln + "\n" for ln in lines)
    for old, new in changes:
        if old not in text:
            raise SystemExit(f"change {old!r} -> {new!r} does not apply")
        text = text.replace(old, new)
    return text


def cmd_corpus(only: str | None = None) -> None:
    """corpus/<name>.src, .json, .screen.txt from the original, and <name>.tok.prg: the same source
    as the C64 saved it (tokenized by the real BASIC ROM while typing)."""
    out = real_out(REAL["corpus"])

    def source(name: str) -> str:  # a new source lies in the maintainer's folder, a known one anywhere
        new = out / name
        return new.read_text(encoding="utf-8") if new.is_file() else testdata.read_text(REAL["corpus"], name)

    for entry in corpus_manifest():
        name = entry["name"]
        if only and only != name:
            continue
        text = corpus_text(source(f"{name}.orig.txt"), entry["changes"])
        disk = {k: source(v) for k, v in entry.get("disk", {}).items()}
        rec = write_case(out, name, text, entry.get("case", "lower"), disk, CORPUS_BUDGET)
        (out / f"{name}.tok.prg").write_bytes(_oracle().tokenize(source_lines(text), entry.get("case", "lower")))
        print(f"corpus/{name}: {summary(rec)}", flush=True)
    record_digests(REAL["corpus"], out)


def summary(rec: dict) -> str:
    errs = ", ".join(f"{e['line']}:{(e['detail'] + ' ') if e['detail'] else ''}{e['message']}" for e in rec["errors"])
    return f"{rec['range']} {'NO ERRORS' if rec['no_errors'] else 'errors'} [{errs}] {rec['end']}"


def fixture_cases() -> list[tuple[Path, dict]]:
    """Every case's record: the committed groups, and the real programs' where their test data is found."""
    paths = sorted(FIXTURES.glob("*/*.json"))
    for collection in REAL.values():
        if testdata.available(collection) is None:
            paths += [testdata.path(collection, n) for n in testdata.names(collection, ".json")]
    return [(p, json.loads(p.read_text())) for p in paths]


def _disk_file(path: Path) -> str | bytes:
    data = path.read_bytes()
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        return data
    return text if text.endswith("\n") and "\0" not in text else data


def cmd_check(count: int) -> int:
    """Re-run `count` fixtures (spread over all groups) and compare with what is committed."""
    cases = fixture_cases()
    step = max(1, len(cases) // max(1, count))
    bad = 0
    for path, rec in cases[::step][:count]:
        text = (path.parent / (path.stem + ".src")).read_text()
        disk = {k: _disk_file(path.parent / v) for k, v in rec["disk"].items()}
        new, screen = run(text, rec["case"], disk, CORPUS_BUDGET if path.parent.name == REAL["corpus"] else BUDGET)
        new["disk"] = rec["disk"]
        same = new == rec and screen == (path.parent / (path.stem + ".screen.txt")).read_text()
        bad += not same
        print(f"{path.parent.name}/{path.name}: {'same' if same else 'DIFFERENT'}")
    return 1 if bad else 0


def cmd_known_failing() -> int:
    """Run tests/test_profiass_oracle.py with an empty known-failing list; the cases that fail
    today become the list (the tests mark them xfail(strict=True)).  Prints the agreement figures."""
    import subprocess

    target = FIXTURES / "known_failing.txt"
    target.write_text("")
    python = ROOT / ".venv" / "bin" / "python"
    tests = ("test_as_the_original", "test_manual_listing", "test_default_output_name_from_open", "test_listing_as_the_original",
             "test_files_from_a_disk_image", "test_tokenized_as_the_original")
    proc = subprocess.run(
        [str(python if python.exists() else sys.executable), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA",
         "-m", "slow or not slow"]  # (the committed fuzz programs past the first 250 are slow)
        + [f"tests/test_profiass_oracle.py::{t}" for t in tests],
        cwd=ROOT, capture_output=True, text=True,
    )
    outcome = re.findall(r"^(PASSED|FAILED) tests/test_profiass_oracle.py::test_\w+\[(.+?)\]", proc.stdout, re.M)
    failed = sorted({case for result, case in outcome if result == "FAILED"})
    header = ("# cases of tests/test_profiass_oracle.py that today's assembler does not handle as the\n"
              "# original (xfail strict); written by: python3 tools/profiass_oracle.py known-failing\n")
    target.write_text(header + "".join(f"{name}\n" for name in failed))
    groups: dict[str, list[int]] = {}
    for result, case in outcome:
        counts = groups.setdefault(case.split("/")[0], [0, 0])
        counts[0] += 1
        counts[1] += result == "PASSED"
    print(proc.stdout.strip().splitlines()[-1])
    for group, (n, ok) in sorted(groups.items()):
        print(f"{group:15} {ok:4} of {n:4} as the original")
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd = argv[0]
    if cmd in ("probes", "manual", "random", "all", "show", "check"):  # these run the original
        require_profiass(f"tools/profiass_oracle.py {cmd}")
    if cmd == "probes":
        cmd_probes(argv[1] if len(argv) > 1 else None)
    elif cmd == "manual":
        cmd_manual()
    elif cmd == "corpus":
        cmd_corpus(argv[1] if len(argv) > 1 else None)
    elif cmd == "fuzz":
        cmd_fuzz(int(argv[1]) if len(argv) > 1 else FUZZ_COUNT)
    elif cmd == "random":
        cmd_random(int(argv[1]) if len(argv) > 1 else RANDOM_COUNT)
    elif cmd == "all":
        cmd_probes()
        cmd_manual()
        cmd_random(RANDOM_COUNT)
    elif cmd == "show":
        case = "upper" if "--case" in argv and argv[argv.index("--case") + 1] == "upper" else "lower"
        rec, screen = run(Path(argv[1]).read_text(), case)
        print(screen)
        print(json.dumps(rec, indent=1))
    elif cmd == "known-failing":
        return cmd_known_failing()
    elif cmd == "check":
        return cmd_check(int(argv[1]) if len(argv) > 1 else 5)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
