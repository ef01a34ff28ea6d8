"""tools/materials.py: a collection's files rebuilt from its manifest and a git directory of the
source repository, on a tiny repository made for the test."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import materials  # noqa: E402

TEXT = "Überschrift\n10 PRINT \"HALLO\"\n20 GOTO 10\nListing 1\n"  # (a non-ASCII first character: chars count characters, not bytes)
CRLF = "a\r\nb\r\nc\r\n"


def git(*args: str, cwd: Path) -> str:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd), "PATH": "/usr/bin:/bin"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """(git directory, commit) of a repository holding TEXT and CRLF."""
    work = tmp_path_factory.mktemp("repo")
    git("init", "-q", cwd=work)
    (work / "issues").mkdir()
    (work / "issues" / "page.md").write_bytes(TEXT.encode())
    (work / "crlf.md").write_bytes(CRLF.encode())
    git("add", ".", cwd=work)
    git("commit", "-q", "-m", "pages", cwd=work)
    return work / ".git", git("rev-parse", "HEAD", cwd=work)


def entry(commit: str, file: str, path: str, data: bytes, chars=None, **more) -> dict:
    blob = subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True).stdout.decode().strip()
    return {"kind": "file", "file": file, "repo": "o/n", "commit": commit, "path": path, "chars": chars,
            "sha256": hashlib.sha256(data).hexdigest(), "git_blob": blob, **more}


def run(tmp_path, rows: list, *names: str, capsys) -> tuple[int, dict[str, str], str]:
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return run_on(manifest, *names, capsys=capsys)


def run_on(manifest: Path, *args: str, capsys) -> tuple[int, dict[str, str], str]:
    code = materials.main([str(manifest), *args])
    out, err = capsys.readouterr()
    return code, {line.split()[1].rstrip(":"): line.split()[0] for line in out.splitlines()[:-1]}, err


SLICE = (12, 40)  # '10 PRINT "HALLO"\n20 GOTO 10\n' (characters; Ü is two bytes)


def test_whole_file_slice_and_crlf_slice_are_written_and_checked(repo, tmp_path, capsys):
    git_dir, commit = repo
    rows = [entry(commit, "whole.txt", "issues/page.md", TEXT.encode()),
            entry(commit, "slice.txt", "issues/page.md", TEXT[slice(*SLICE)].encode(), list(SLICE)),
            entry(commit, "crlf.txt", "crlf.md", b"b\nc\n", [3, 9], upstream_line_ends="CRLF"),
            {"kind": "listing", "ocr": "slice.txt"}]
    out = tmp_path / "out"
    code, status, err = run(tmp_path, rows, str(git_dir), str(out), capsys=capsys)
    assert (code, status, err) == (0, {"whole.txt": "ok", "slice.txt": "ok", "crlf.txt": "ok"}, "")
    assert (out / "slice.txt").read_text(encoding="utf-8") == '10 PRINT "HALLO"\n20 GOTO 10\n'
    assert (out / "crlf.txt").read_bytes() == b"b\nc\n"
    assert sorted(p.name for p in out.iterdir()) == ["crlf.txt", "slice.txt", "whole.txt"]  # (no temporary file left)
    code, status, _ = run_on(tmp_path / "manifest.jsonl", str(git_dir), str(out), capsys=capsys)  # again: the same bytes are there
    assert (code, set(status.values())) == (0, {"ok"})


# (what the entry gets wrong, its status)
FAILURES = [
    ({"sha256": "0" * 64}, "mismatch"),  # the manifest's digest is of other bytes
    ({"git_blob": "0" * 40}, "mismatch"),
    ({"chars": [13, 41]}, "mismatch"),  # a slice one character off
    ({"path": "issues/gone.md"}, "missing"),  # no such file at the commit
    ({"commit": "1" * 40}, "missing"),  # no such commit in the git directory
    ({"chars": [0, 1000]}, "missing"),  # past the file's end
]


@pytest.mark.parametrize("wrong, want", FAILURES, ids=[f"{next(iter(w))}={next(iter(w.values()))}" for w, _ in FAILURES])
def test_a_failing_file_is_reported_and_leaves_nothing(repo, tmp_path, capsys, wrong, want):
    git_dir, commit = repo
    bad = entry(commit, "bad.txt", "issues/page.md", TEXT[slice(*SLICE)].encode(), list(SLICE)) | wrong
    good = entry(commit, "good.txt", "issues/page.md", TEXT.encode())
    out = tmp_path / "out"
    code, status, _ = run(tmp_path, [bad, good], str(git_dir), str(out), capsys=capsys)
    assert (code, status) == (1, {"bad.txt": want, "good.txt": "ok"})
    assert sorted(p.name for p in out.iterdir()) == ["good.txt"]


def test_a_differing_file_already_there_is_not_replaced(repo, tmp_path, capsys):
    git_dir, commit = repo
    out = tmp_path / "out"
    out.mkdir()
    (out / "whole.txt").write_bytes(b"someone's own copy\n")
    code, status, _ = run(tmp_path, [entry(commit, "whole.txt", "issues/page.md", TEXT.encode())], str(git_dir), str(out), capsys=capsys)
    assert (code, status) == (1, {"whole.txt": "differs"})
    assert (out / "whole.txt").read_bytes() == b"someone's own copy\n"


def test_only_the_files_named_are_rebuilt(repo, tmp_path, capsys):
    git_dir, commit = repo
    rows = [entry(commit, "one.txt", "issues/page.md", TEXT.encode()), entry(commit, "two.txt", "crlf.md", CRLF.encode())]
    code, status, _ = run(tmp_path, rows, str(git_dir), str(tmp_path / "out"), "two.txt", capsys=capsys)
    assert (code, status) == (0, {"two.txt": "ok"})


def test_characters_counted_with_lf_line_ends_slice_a_crlf_file_as_its_look_up_reads_it(repo, tmp_path, capsys):
    git_dir, commit = repo
    # crlf.md is 'a\r\nb\r\nc\r\n'; with LF line ends 'a\nb\nc\n', whose characters 2 to 6 are 'b\nc\n'
    rows = [entry(commit, "lf.txt", "crlf.md", b"b\nc\n", [2, 6], chars_in="LF")]
    code, status, _ = run(tmp_path, rows, str(git_dir), str(tmp_path / "out"), capsys=capsys)
    assert (code, status) == (0, {"lf.txt": "ok"})
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "a.json").write_text(json.dumps({"commit": commit, "path": "crlf.md", "offset": 0, "text": "a\nb\nc\n"}))
    code, status, _ = run(tmp_path, rows, "--answers", str(answers), str(tmp_path / "out2"), capsys=capsys)
    assert (code, status) == (0, {"lf.txt": "ok"})


def test_saved_look_up_answers_serve_in_place_of_a_clone(repo, tmp_path, capsys):
    _, commit = repo
    answers = tmp_path / "answers"
    answers.mkdir()
    for offset in (0, 20, 40):  # overlapping answers
        (answers / f"{offset}.json").write_text(json.dumps({"commit": commit, "path": "issues/page.md", "offset": offset,
                                                            "text": TEXT[offset:offset + 25], "total_chars": len(TEXT)}))
    rows = [entry(commit, "whole.txt", "issues/page.md", TEXT.encode()),
            entry(commit, "slice.txt", "issues/page.md", TEXT[slice(*SLICE)].encode(), list(SLICE)),
            entry(commit, "crlf.txt", "crlf.md", b"b\nc\n", [3, 9], upstream_line_ends="CRLF"),
            entry(commit, "crlf-whole.txt", "crlf.md", CRLF.replace("\r\n", "\n").encode(), upstream_line_ends="CRLF"),
            entry(commit, "crlf-other.txt", "crlf.md", b"b\nd\n", [3, 9], upstream_line_ends="CRLF")]
    # a CRLF file's answer counts LF characters: its offset says nothing of the manifest's, and the
    # slice is found by its sha256 among the stretches of the right CRLF length
    (answers / "crlf.json").write_text(json.dumps({"commit": commit, "path": "crlf.md", "offset": 100,
                                                   "text": CRLF.replace("\r\n", "\n")}))
    code, status, _ = run(tmp_path, rows, "--answers", str(answers), str(tmp_path / "out"), capsys=capsys)
    assert (code, status) == (1, {"whole.txt": "ok", "slice.txt": "ok", "crlf.txt": "ok",
                                  "crlf-whole.txt": "missing", "crlf-other.txt": "missing"})
    assert (tmp_path / "out" / "crlf.txt").read_bytes() == b"b\nc\n"


# (a manifest line, the error it gets)
BAD_LINES = [
    ('{"kind": "file", "file": "a.txt"', "not JSON: Expecting ',' delimiter at column 33"),
    ('["file"]', "not a JSON object"),
    ('{"file": "a.txt"}', "no 'kind'"),
    ('{"kind": "file", "file": "a.txt", "repo": "o/n", "commit": "abc", "path": "p", "sha256": "' + "0" * 64 + '"}',
     "'commit' must be 40 lower-case hex digits, not 'abc'"),
    ('{"kind": "file", "file": "../a.txt", "repo": "o/n", "commit": "' + "0" * 40 + '", "path": "p", "sha256": "' + "0" * 64 + '"}',
     "'file' must be a plain file name, not '../a.txt'"),
    ('{"kind": "file", "file": "a.txt", "repo": "o/n", "commit": "' + "0" * 40 + '", "path": "p", "sha256": "' + "0" * 64 + '", "chars": [5, 2]}',
     "'chars' must be null or [start, end] with 0 <= start <= end, not [5, 2]"),
    ('{"kind": "file", "file": "a.txt", "repo": "o/n", "commit": "' + "0" * 40 + '", "path": "p"}', "'sha256' must be a string"),
    ('{"kind": "file", "file": "a.txt", "repo": "o/n", "commit": "' + "0" * 40 + '", "path": "p", "sha256": "' + "0" * 64 + '", "chars_in": "CR"}',
     "'chars_in' must be upstream or LF, not 'CR'"),
]


@pytest.mark.parametrize("line, error", BAD_LINES)
def test_a_bad_manifest_line_is_named_with_its_line_and_nothing_is_written(repo, tmp_path, capsys, line, error):
    git_dir, commit = repo
    good = entry(commit, "good.txt", "issues/page.md", TEXT.encode())
    out = tmp_path / "out"
    code, status, err = run(tmp_path, [good, "", line], str(git_dir), str(out), capsys=capsys)
    assert (code, status, err) == (2, {}, f"{tmp_path / 'manifest.jsonl'}:3: error: {error}\n")
    assert not out.exists()


def test_a_file_named_twice_is_a_bad_line(repo, tmp_path, capsys):
    git_dir, commit = repo
    good = entry(commit, "good.txt", "issues/page.md", TEXT.encode())
    code, _, err = run(tmp_path, [good, good], str(git_dir), str(tmp_path / "out"), capsys=capsys)
    assert (code, err) == (2, f"{tmp_path / 'manifest.jsonl'}:2: error: file 'good.txt' is named already on line 1\n")


def test_the_blob_id_is_the_one_git_gives():
    data = TEXT.encode()
    assert materials.git_blob_id(data) == subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True).stdout.decode().strip()


def test_the_projects_manifests_read():
    # every collection manifest of files in the repository is one the tool reads
    for manifest in sorted((ROOT / "tests" / "manifests").glob("*/manifest.jsonl")):
        if manifest.parent.name in ("basic_read_fresh", "basic_read_spring86", "scan_pages"):
            assert materials.read_manifest(manifest), manifest
