"""Small helpers shared by the tests (no test logic here)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = ROOT.parent / "shared" / "seeds"


def printed_superhirn() -> tuple[int, bytes]:
    """(start, bytes) of the article's MSE listing, transcribed in fixtures/superhirn_listing1.txt.

    Each row is ``ADDR : 8 data bytes, then the checksum byte`` (the last row is shorter).
    """
    rows = (FIXTURES / "superhirn_listing1.txt").read_text().splitlines()[2:]
    data = bytearray()
    start = None
    for row in rows:
        addr, _, rest = row.partition(" : ")
        if start is None:
            start = int(addr, 16)
        assert int(addr, 16) == start + len(data)
        data += bytes(int(h, 16) for h in rest.split()[:-1])
    return start, bytes(data)
