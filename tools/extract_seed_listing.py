#!/usr/bin/env python3
"""Re-create tests/fixtures/superhirn_listing1.txt from the seed article.

The seed's OCR runs the printed MSE listing together on one line
(``PROGRAMM : SUPERHIRN II 3400 360C ---... 3400 : A9 93 ... 42 3408 : ...``);
this script cuts it back into the header, the rule and one row per address,
as the magazine printed it.  Maintainer use only:

    python3 tools/extract_seed_listing.py [SEED] > tests/fixtures/superhirn_listing1.txt
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DEFAULT_SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "004_99e3b47411151697.txt"


def extract(text: str) -> str:
    start = text.index("PROGRAMM : ")
    segment = text[start : text.index("\n", start)]
    header = re.match(r"(PROGRAMM : .*? [0-9A-F]{4} [0-9A-F]{4}) (-+) (.*)", segment)
    if header is None:
        raise SystemExit("no MSE header found in the seed")
    parts = re.split(r"([0-9A-F]{4}) : ", header.group(3))[1:]
    rows = [f"{parts[i]} : {parts[i + 1].strip()}" for i in range(0, len(parts), 2)]
    return "\n".join([header.group(1), header.group(2), *rows]) + "\n"


if __name__ == "__main__":
    seed = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SEED
    sys.stdout.write(extract(seed.read_text(encoding="utf-8")))
