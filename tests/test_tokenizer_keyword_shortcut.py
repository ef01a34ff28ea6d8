"""CRUNCH's keyword search: the per-first-letter shortcut gives what the ROM's walk gives."""

from __future__ import annotations

import random

from asm6502.basic import tokenizer as T

CODES = ([ord(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ$(#+-*/^>=<"] + [c | 0x80 for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
         + [None, 0x20, 0x30, 0xAB, 0xD4])


def test_the_shortcut_is_the_rom_walk():
    rng = random.Random(24)
    matched = 0
    for _ in range(30000):
        codes = [rng.choice(CODES) for _ in range(rng.randint(0, 6))]
        keyword = list(rng.choice(T.KEYWORDS).encode())[: rng.randint(1, 7)]
        if rng.random() < 0.3:
            keyword[-1] |= 0x80  # an abbreviation (pR) or the keyword's own shifted last byte (run-on)
        codes = keyword + codes + [0]
        got = T._match_keyword([], 0, codes)
        want = T._rom_walk(codes, 0, len(codes) - 1) if codes[0] in T.FIRST_CODES else None
        assert got == want, codes
        matched += got is not None
    assert matched > 10000  # (the buffers do reach keywords)
