"""Test data from elsewhere: the repository keeps manifests, never the material (tests/testdata.py).

- every collection's files, where the test-data folder has them, are the ones their manifest names;
- no file of the repository is one of the manifests' third-party files (nor a seed document);
- the folders are searched in their order, a missing file skips with where it was looked for, a
  changed one is named with both digests.
"""

from __future__ import annotations

import hashlib
import subprocess

import pytest
import testdata
from helpers import ROOT, SEEDS


def repository_files() -> list[str]:
    """What a fresh clone would hold: the tracked files and the new ones git does not ignore."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=False)
    if listed.returncode != 0:
        pytest.skip("not a git checkout: the repository's files are those git tracks")
    return [n for n in listed.stdout.decode().split("\0") if n and (ROOT / n).is_file()]


def third_party_digests() -> dict[str, str]:
    """sha256 -> 'collection/name' of every file the manifests name, and of the seed documents."""
    digests = {digest: f"{c}/{name}" for c in testdata.collections() for name, digest in testdata.manifest(c).items()}
    for line in (testdata.MANIFESTS / "seeds.sha256").read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        digests[digest] = f"seeds/{name}"
    return digests


def test_the_manifests_are_there():
    assert {"basic_read", "profiass-corpus", "profiass-manual"} <= set(testdata.collections())
    for collection in testdata.collections():
        sums = testdata.manifest(collection)
        assert sums, collection
        assert all(len(d) == 64 and set(d) <= set("0123456789abcdef") for d in sums.values()), collection


@pytest.mark.parametrize("collection", testdata.collections())
def test_the_test_data_is_what_the_manifest_names(collection):
    reason = testdata.available(collection)
    if reason:
        pytest.skip(reason)
    differ = []
    for name in testdata.manifest(collection):
        try:
            testdata.path(collection, name)
        except testdata.Differs as exc:
            differ.append(str(exc))
    assert not differ, "\n".join(differ)


# the seed article's own program, which the project builds, is in the corpus too (the original's
# output for it is measured with the other real sources): sources/superhirn.asm is its text, and
# build/superhirn-src.prg, asm6502's tokenized form of it, is byte for byte what the C64 saved
PROJECT_KEEPS = {"sources/superhirn.asm": "profiass-corpus/superhirn.src",
                 "build/superhirn-src.prg": "profiass-corpus/superhirn.tok.prg"}


def test_no_third_party_file_in_the_repository():
    known = third_party_digests()
    found = []
    for name in repository_files():
        digest = hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
        if digest in known and PROJECT_KEEPS.get(name) != known[digest]:
            found.append(f"{name} is {known[digest]} (test data from elsewhere: keep it outside the repository)")
    assert not found, "\n".join(found)


def test_the_seed_digests_are_the_seeds():
    if not SEEDS.is_dir():
        pytest.skip(f"the shared seeds are not beside this checkout ({SEEDS})")
    listed = dict(reversed(line.split(maxsplit=1)) for line in (testdata.MANIFESTS / "seeds.sha256").read_text().splitlines())
    assert listed == {p.name: testdata.sha256(p) for p in sorted(SEEDS.iterdir()) if p.is_file()}


# ---- the lookup, on folders of its own

@pytest.fixture
def world(tmp_path, monkeypatch):
    """A manifest of two files, a maintainer's folder and a shared one."""
    manifests = tmp_path / "manifests"
    (manifests / "pages").mkdir(parents=True)
    a, b = b"page one\n", b"page two\n"
    (manifests / "pages" / "SHA256SUMS").write_text(
        f"{hashlib.sha256(a).hexdigest()}  a.txt\n{hashlib.sha256(b).hexdigest()}  b.txt\n")
    own, shared = tmp_path / "own", tmp_path / "shared"
    (own / "pages").mkdir(parents=True)
    (shared / "testdata" / "pages").mkdir(parents=True)
    monkeypatch.setattr(testdata, "MANIFESTS", manifests)
    monkeypatch.setenv(testdata.ENV, str(own))
    monkeypatch.setenv(testdata.SHARED_ENV, str(shared))
    testdata.manifest.cache_clear()
    testdata._checked.cache_clear()
    yield own / "pages", shared / "testdata" / "pages", a, b
    testdata.manifest.cache_clear()
    testdata._checked.cache_clear()


def test_the_own_folder_comes_first_then_the_shared_one(world):
    own, shared, a, b = world
    (shared / "a.txt").write_bytes(a)
    (shared / "b.txt").write_bytes(b)
    (own / "b.txt").write_bytes(b)
    assert testdata.path("pages", "a.txt") == shared / "a.txt"
    assert testdata.path("pages", "b.txt") == own / "b.txt"
    assert testdata.available("pages") is None
    assert testdata.names("pages") == ["a.txt", "b.txt"]


def test_a_missing_file_says_where_it_was_looked_for(world):
    own, shared, a, _ = world
    (shared / "a.txt").write_bytes(a)
    with pytest.raises(testdata.Missing) as exc:
        testdata.path("pages", "b.txt")
    assert "'pages'" in str(exc.value) and str(own) in str(exc.value) and str(shared) in str(exc.value)
    assert testdata.available("pages") == str(exc.value)


def test_a_changed_file_is_named_with_both_digests(world):
    own, _, a, _ = world
    (own / "a.txt").write_bytes(a + b"one more line\n")
    with pytest.raises(testdata.Differs) as exc:
        testdata.read_text("pages", "a.txt")
    assert str(own / "a.txt") in str(exc.value) and hashlib.sha256(a).hexdigest() in str(exc.value)


def test_a_name_the_manifest_does_not_know_is_refused(world):
    with pytest.raises(KeyError):
        testdata.path("pages", "c.txt")
