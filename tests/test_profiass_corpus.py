"""The real-source corpus (tests/fixtures/profiass/corpus/): where each text came from, and that
the text typed into the oracle is the published one with only the manifest's changes.

The cases themselves run in tests/test_profiass_oracle.py like every fixture (object code and
errors: ``corpus/<name>``, the printed listing: ``listing-format/corpus/<name>``, the tokenized
form: ``tokenized/corpus/<name>``).
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from helpers import FIXTURES, ROOT

CORPUS = FIXTURES / "profiass" / "corpus"
MANIFEST = [json.loads(ln) for ln in (CORPUS / "manifest.jsonl").read_text().splitlines() if ln.strip()]


def _tool():
    spec = importlib.util.spec_from_file_location("profiass_oracle_tool", ROOT / "tools" / "profiass_oracle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_text_has_its_origin():
    names = {p.name.removesuffix(".orig.txt") for p in CORPUS.glob("*.orig.txt")}
    assert names == {entry["name"] for entry in MANIFEST}
    for entry in MANIFEST:
        assert entry["repo"] and entry["path"] and entry["origin"] and entry["why"], entry["name"]
        assert re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry["name"]
        assert all(len(change) == 2 for change in entry["changes"]), entry["name"]


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_typed_text_is_the_published_one_with_the_listed_changes(entry):
    """<name>.src (what the oracle's C64 was given) = the published dump, its header dropped,
    petcat's {names} as {$hh}, and the manifest's changes: nothing else was edited."""
    tool = _tool()
    orig = (CORPUS / f"{entry['name']}.orig.txt").read_text(encoding="utf-8")
    assert (CORPUS / f"{entry['name']}.src").read_text() == tool.corpus_text(orig, entry["changes"])
    assert (CORPUS / f"{entry['name']}.tok.prg").is_file()


def test_corpus_text_drops_headers_and_names_codes():
    tool = _tool()
    text = tool.corpus_text(';x.prg ==0801==\n\n  100 sys9*4096\n  110 .asc "{clr}{2 down}a"\n', [["sys9*4096", "sys32768"]])
    assert text == '100 sys32768\n110 .asc "{$93}{$11}{$11}a"\n'
    with pytest.raises(SystemExit):
        tool.corpus_text("100 nop\n", [["sys", "x"]])


def test_corpus_size():
    assert len(MANIFEST) >= 9
    assert all(Path(CORPUS / f"{e['name']}.json").is_file() for e in MANIFEST)
