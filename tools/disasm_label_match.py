#!/usr/bin/env python3
"""How many of the article's labels does the disassembly of Superhirn II find?

    .venv/bin/python tools/disasm_label_match.py [--entry ADDR ...]

Assembles sources/superhirn.asm (the article's source), disassembles its bytes, and counts
the article's labels inside the program ($3400-$360B) that land on an address where the
disassembly has a label too; lists the ones it misses and says why (no instruction refers
to them, or they lie in code that is not traced).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from asm6502.asm import assemble  # noqa: E402
from asm6502.disasm import listing  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entry", action="append", type=lambda t: int(t.replace("$", "0x"), 0), metavar="ADDR")
    args = ap.parse_args()
    result = assemble((ROOT / "sources" / "superhirn.asm").read_text(), "superhirn.asm")
    origin, data = result.load_address, result.image
    article = {v: n for n, v in result.labels.items() if origin <= v < origin + len(data)}
    body = listing(origin, data, entries=args.entry).body
    mine = {s.address: s.label.name for s in body if getattr(s, "label", None)}
    code = {s.address for s in body if hasattr(s, "mnemonic")}
    referenced = {s.operand.value for s in body if getattr(s, "operand", None) is not None}
    hits = sorted(a for a in article if a in mine)
    print(f"{len(hits)} of {len(article)} article labels inside ${origin:04X}-${origin + len(data) - 1:04X} "
          f"land on a disassembly label ({len(mine)} disassembly labels)")
    for a in sorted(article):
        if a not in mine:
            why = ("referenced" if a in referenced else "no instruction refers to it" if a in code
                   else "in bytes not traced as code")
            print(f"  missed ${a:04X} {article[a]:<9} ({why})")
    for a in sorted(mine):
        if a not in article:
            print(f"  extra  ${a:04X} {mine[a]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
