"""The seeds committed under fixtures/seeds are byte for byte the shared reference material."""

from __future__ import annotations

import pytest

from helpers import COMMITTED_SEEDS, SEEDS

COPIES = sorted(p.name for p in COMMITTED_SEEDS.glob("*.txt"))


@pytest.mark.parametrize("name", COPIES)
def test_committed_seed_is_the_original(name):
    original = SEEDS / name
    if not original.is_file():
        pytest.skip(f"the shared seeds are not beside this checkout ({SEEDS})")
    assert (COMMITTED_SEEDS / name).read_bytes() == original.read_bytes()
