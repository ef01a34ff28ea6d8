"""The real-source corpus (the test-data collection profiass-corpus): where each text came from,
and that the text typed into the oracle is the published one with only the manifest's changes.

The origins and changes are the project's own manifest (tests/manifests/profiass-corpus/); the
texts and the original's output for them are test data from elsewhere (tests/testdata.py). The
cases themselves run in tests/test_profiass_oracle.py like every fixture (object code and errors:
``corpus/<name>``, the printed listing: ``listing-format/corpus/<name>``, the tokenized form:
``tokenized/corpus/<name>``).
"""

from __future__ import annotations

import importlib.util
import json
import re

import pytest
import testdata
from helpers import ROOT, real_text

COLLECTION = "profiass-corpus"
MANIFEST = [json.loads(ln) for ln in (testdata.MANIFESTS / COLLECTION / "manifest.jsonl").read_text().splitlines() if ln.strip()]
# what the tests read of each real source: the published text, the text typed into the oracle,
# the original's record and screen, and the source as the C64 saved it
PARTS = (".orig.txt", ".src", ".json", ".screen.txt", ".tok.prg")


def _tool():
    spec = importlib.util.spec_from_file_location("profiass_oracle_tool", ROOT / "tools" / "profiass_oracle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_text_has_its_origin_and_its_digests():
    assert {f"{entry['name']}{part}" for entry in MANIFEST for part in PARTS} == set(testdata.manifest(COLLECTION))
    for entry in MANIFEST:
        assert entry["repo"] and entry["path"] and entry["origin"] and entry["why"], entry["name"]
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry["name"]
        assert all(len(change) == 2 for change in entry["changes"]), entry["name"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_typed_text_is_the_published_one_with_the_listed_changes(entry):
    """<name>.src (what the oracle's C64 was given) = the published dump, its header dropped,
    petcat's {names} as {$hh}, and the manifest's changes: nothing else was edited."""
    tool = _tool()
    orig = real_text(COLLECTION, f"{entry['name']}.orig.txt")
    assert real_text(COLLECTION, f"{entry['name']}.src") == tool.corpus_text(orig, entry["changes"])


def test_corpus_text_drops_headers_and_names_codes():
    tool = _tool()
    text = tool.corpus_text(';x.prg ==0801==\n\n  100 sys9*4096\n  110 .asc "{clr}{2 down}a"\n', [["sys9*4096", "sys32768"]])
    assert text == '100 sys32768\n110 .asc "{$93}{$11}{$11}a"\n'
    with pytest.raises(SystemExit):
        tool.corpus_text("100 nop\n", [["sys", "x"]])


def test_corpus_size():
    assert len(MANIFEST) >= 9
