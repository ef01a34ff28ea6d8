"""sources/highiq.bas: a well-formed C64 program, and move rules that are right.

The board numbering (holes 13..69, row*9+column, centre 41) is the one the seed
article gives for the original BASIC High IQ.  The rules are checked with a
small Python model that mirrors the program's lines; the model is compared with
the game's geometry (jump over a neighbour in a row or column into a hole) on
every pair of hole numbers, and a perfect game is found under it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from asm6502.basic.tokenizer import detokenize, tokenize

SOURCE = Path(__file__).resolve().parent.parent / "sources" / "highiq.bas"
TEXT = SOURCE.read_text()
RESULT = tokenize(TEXT, filename=str(SOURCE))
PRG = RESULT.prg

# the seed article's numbering of the 33 holes
SEED_HOLES = [13, 14, 15, 22, 23, 24, 29, 30, 31, 32, 33, 34, 35, 38, 39, 40, 41, 42, 43, 44,
              47, 48, 49, 50, 51, 52, 53, 58, 59, 60, 67, 68, 69]


# ------------------------------------------------------------------ program shape
def walk(prg: bytes) -> list[tuple[int, int, int, bytes]]:
    """(address, link, number, body) for each line, following the links from $0801."""
    assert prg[:2] == b"\x01\x08"
    mem, base = prg[2:], 0x0801
    out, address = [], base
    while True:
        off = address - base
        link = int.from_bytes(mem[off : off + 2], "little")
        if link == 0:
            assert off + 2 == len(mem), "bytes after the end marker"
            return out
        end = mem.index(0, off + 4)
        assert link == base + end + 1, f"link at ${address:04X}"
        out.append((address, link, int.from_bytes(mem[off + 2 : off + 4], "little"), mem[off + 4 : end]))
        address = link


LINES = walk(PRG)
NUMBERS = [number for _, _, number, _ in LINES]


def test_tokenizes_without_any_warning():
    # no line over 80 typed characters, nothing the C64 would drop or could not type
    assert RESULT.diagnostics == ()


def test_lists_back_to_exactly_the_source():
    assert detokenize(PRG, filename="highiq.prg").text == TEXT


def test_line_numbers_ascend():
    assert NUMBERS == sorted(set(NUMBERS))


def test_every_jump_target_exists():
    targets = set()
    for _, _, _, body in LINES:
        # GOTO $89, GOSUB $8D, THEN $A7 followed by a line number
        for m in re.finditer(rb"[\x89\x8d\xa7] *([0-9]+)", body):
            targets.add(int(m.group(1)))
    assert targets and targets <= set(NUMBERS)


def petscii(text: str) -> bytes:
    """Unshifted PETSCII, as the strings are typed (shown as capitals on the C64)."""
    return text.encode("ascii")


@pytest.mark.parametrize("prompt", ["MOVE WHICH PIECE", "TO WHERE", "PLAY AGAIN (YES OR NO)"])
def test_prompts_are_input_statements(prompt):
    # INPUT $85, space, "prompt";
    assert b"\x85 \"" + petscii(prompt) + b"\";" in PRG


@pytest.mark.parametrize("message", [
    "H-I-Q", "ILLEGAL MOVE, TRY AGAIN...", "YOU HAD", "PIECES REMAINING.",
    "BRAVO! YOU MADE A PERFECT SCORE!", "SAVE THIS PAPER AS A RECORD OF YOUR ACCOMPLISHMENT!",
    "SO LONG FOR NOW.", "CREATIVE COMPUTING",
])
def test_messages_are_printed(message):
    assert petscii(message) in PRG


def test_rule_lines_the_model_mirrors():
    for snippet in ("40 data 2,-2,18,-18", "b(41)=0", "if f<>int(f) or f<13 or f>69 then 600",
                    "if d<>2 and d<>18 then 600", "if b((f+t)/2)<>1 then 600", "dim b(90)"):
        assert snippet in TEXT


# ------------------------------------------------------------------ the rules, modelled
def new_board() -> dict[int, int]:
    """Lines 210-240: -1 outside the cross, 1 = peg, centre 41 empty."""
    b = {n: -1 for n in range(91)}
    for r in range(1, 8):
        for c in range(2, 9):
            if (2 < r < 6) or (3 < c < 7):
                b[9 * r + c] = 1
    b[41] = 0
    return b


def legal(b: dict[int, int], f: float, t: float) -> bool:
    """Lines 520-575."""
    if f != int(f) or f < 13 or f > 69 or b[int(f)] != 1:
        return False
    if t != int(t) or t < 13 or t > 69 or b[int(t)] != 0:
        return False
    d = abs(t - f)
    if d not in (2, 18):
        return False
    return b[int((f + t) / 2)] == 1


def any_jump(b: dict[int, int]) -> bool:
    """Lines 410-450 (J() = 2,-2,18,-18 from the DATA line)."""
    m = 0
    for n in range(13, 70):
        if b[n] != 1:
            continue
        for j in (2, -2, 18, -18):
            t = n + j
            if t < 13 or t > 69:
                continue
            if b[t] == 0 and b[n + j // 2] == 1:
                m = 1
    return m == 1


def geometric_legal(b: dict[int, int], f: int, t: int) -> bool:
    """The game's rule on (row, column) coordinates, with the seed's numbering."""
    pos = {n: divmod(n, 9) for n in SEED_HOLES}
    if f not in pos or t not in pos or b[f] != 1 or b[t] != 0:
        return False
    (rf, cf), (rt, ct) = pos[f], pos[t]
    if not ((rf == rt and abs(cf - ct) == 2) or (cf == ct and abs(rf - rt) == 2)):
        return False
    middle = 9 * ((rf + rt) // 2) + (cf + ct) // 2
    return b[middle] == 1


def test_board_numbering_is_the_seeds():
    b = new_board()
    assert sorted(n for n, v in b.items() if v >= 0) == SEED_HOLES
    assert sum(v == 1 for v in b.values()) == 32 and b[41] == 0
    assert max(b) <= 90  # DIM B(90)


@pytest.mark.parametrize("seed", range(6))
def test_move_check_is_the_geometric_rule(seed):
    rng = random.Random(seed)
    b = new_board()
    for n in SEED_HOLES:
        b[n] = rng.choice((0, 1))
    for f in range(-5, 100):
        for t in range(-5, 100):
            assert legal(b, f, t) == geometric_legal(b, f, t), (f, t)
    assert any_jump(b) == any(geometric_legal(b, f, t) for f in SEED_HOLES for t in SEED_HOLES)


def test_fractional_input_is_illegal():
    b = new_board()
    assert legal(b, 23, 41) and not legal(b, 23.5, 41) and not legal(b, 23, 41.5)


def solve(b: dict[int, int], moves: list[tuple[int, int]], seen: set) -> bool:
    pegs = frozenset(n for n in SEED_HOLES if b[n] == 1)
    if len(pegs) == 1:
        return True
    if pegs in seen:
        return False
    seen.add(pegs)
    for f in sorted(pegs):
        for t in (f + 2, f - 2, f + 18, f - 18):
            if 13 <= t <= 69 and legal(b, f, t):
                m = (f + t) // 2
                b[f], b[m], b[t] = 0, 0, 1
                moves.append((f, t))
                if solve(b, moves, seen):
                    return True
                moves.pop()
                b[f], b[m], b[t] = 1, 1, 0
    return False


def test_a_perfect_game_exists_under_the_programs_rules():
    b = new_board()
    moves: list[tuple[int, int]] = []
    assert solve(b, moves, set())
    assert len(moves) == 31
    assert sum(b[n] == 1 for n in SEED_HOLES) == 1  # "YOU HAD 1 PIECES REMAINING." -> BRAVO
    assert not any_jump(b)  # line 450 then goes to the game-over part
