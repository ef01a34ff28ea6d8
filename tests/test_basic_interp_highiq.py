"""High IQ (sources/highiq.bas) played through the BASIC interpreter.

The moves come from a small search over the 33-hole board written here, not
from the program: a depth-first search with a memo of dead positions finds a
31-move solution, an iterative-deepening search finds a short game that ends
with no jump left.  Every board the program prints is parsed back and compared
with the search's own board after each move.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from asm6502.basic.interpreter import RunOptions, run_prg
from asm6502.basic.tokenizer import tokenize

SOURCE = Path(__file__).resolve().parents[1] / "sources" / "highiq.bas"

# hole numbers 9*row+column, rows 1..7, columns 2..8, the plus-shaped board
HOLES = frozenset(9 * r + c for r in range(1, 8) for c in range(2, 9) if 3 <= r <= 5 or 4 <= c <= 6)
START = HOLES - {41}
JUMPS = (2, -2, 18, -18)


def legal_moves(pegs: frozenset[int]):
    for f in sorted(pegs):
        for d in JUMPS:
            over, to = f + d // 2, f + d
            if to in HOLES and over in pegs and to not in pegs:
                yield f, to


def apply(pegs: frozenset[int], move: tuple[int, int]) -> frozenset[int]:
    f, t = move
    return (pegs - {f, (f + t) // 2}) | {t}


def perfect_game() -> list[tuple[int, int]]:
    dead: set[frozenset[int]] = set()

    def dfs(pegs, path):
        if len(pegs) == 1:
            return path
        if pegs in dead:
            return None
        for move in legal_moves(pegs):
            found = dfs(apply(pegs, move), path + [move])
            if found:
                return found
        dead.add(pegs)
        return None

    return dfs(START, [])


def short_dead_end() -> list[tuple[int, int]]:
    def search(pegs, depth, path):
        moves = list(legal_moves(pegs))
        if not moves:
            return path
        if depth == 0:
            return None
        for move in moves:
            found = search(apply(pegs, move), depth - 1, path + [move])
            if found:
                return found
        return None

    for depth in range(1, 10):
        found = search(START, depth, [])
        if found:
            return found
    raise AssertionError("no dead end within 9 moves")


@lru_cache(maxsize=1)
def highiq_prg() -> bytes:
    result = tokenize(SOURCE.read_text(encoding="utf-8"), filename=str(SOURCE))
    return result.prg


def play(keys: str):
    return run_prg(highiq_prg(), input_text=keys, options=RunOptions(seed=0, max_statements=2_000_000))


def keys_for(moves) -> str:
    return "".join(f"{f}\n{t}\n" for f, t in moves)


def printed_boards(transcript: str) -> list[frozenset[int]]:
    """Every 7-row board of "!" (peg) and "O" (hole) the program printed."""
    rows = transcript.split("\n")
    boards = []
    i = 0
    while i + 7 <= len(rows):
        block = rows[i:i + 7]
        if all(r.strip() and set(r) <= set(" !O") for r in block):
            pegs = set()
            holes = set()
            for r, text in enumerate(block, start=1):
                for c in range(2, 9):
                    col = 13 + 2 * (c - 2)
                    ch = text[col] if col < len(text) else " "
                    if ch in "!O":
                        holes.add(9 * r + c)
                    if ch == "!":
                        pegs.add(9 * r + c)
            assert holes == HOLES, f"board at row {i} has the wrong shape"
            boards.append(frozenset(pegs))
            i += 7
        else:
            i += 1
    return boards


def expected_boards(moves) -> list[frozenset[int]]:
    boards = [START]
    for move in moves:
        boards.append(apply(boards[-1], move))
    return boards


def test_search_finds_a_perfect_game():
    moves = perfect_game()
    assert len(moves) == 31
    assert len(expected_boards(moves)[-1]) == 1


def test_title_board_and_first_prompt():
    result = play("")
    text = result.transcript
    assert result.reason == "input"  # waiting for the first move when the script ends
    assert "H-I-Q" in text and "HERE IS THE BOARD:" in text
    assert "13 14 15" in text and "67 68 69" in text
    assert printed_boards(text) == [START]
    assert text.endswith("MOVE WHICH PIECE?\n")


@pytest.mark.parametrize("keys", [
    "13\n29\n",   # 29 holds a peg: not an empty hole
    "41\n",       # no peg in the centre
    "12\n",       # not a hole at all
    "23\n5\n",    # off the board
    "39\n41.5\n",  # not a whole number
])
def test_illegal_moves_are_refused(keys):
    result = play(keys)
    lines = result.transcript.split("\n")
    assert "ILLEGAL MOVE, TRY AGAIN..." in lines
    assert lines[lines.index("ILLEGAL MOVE, TRY AGAIN...") + 1] == "MOVE WHICH PIECE?"
    assert printed_boards(result.transcript) == [START]  # the board is unchanged


def test_perfect_game_then_quit():
    moves = perfect_game()
    result = play(keys_for(moves) + "no\n")
    text = result.transcript
    assert result.reason == "end", result.message
    assert printed_boards(text) == expected_boards(moves)
    tail = text[text.rindex("THE GAME IS OVER."):].split("\n")
    assert tail[:4] == [
        "THE GAME IS OVER.",
        "YOU HAD 1 PIECES REMAINING.",
        "    BRAVO! YOU MADE A PERFECT SCORE!",
        "    SAVE THIS PAPER AS A RECORD OF YOUR",
    ]
    assert "PLAY AGAIN (YES OR NO)? NO" in tail
    assert tail[-4:] == ["SO LONG FOR NOW.", "", "READY.", ""]


def test_dead_end_then_play_again_yes_then_no():
    dead_end = short_dead_end()
    left = len(expected_boards(dead_end)[-1])
    moves = perfect_game()
    result = play(keys_for(dead_end) + "yes\n" + keys_for(moves) + "n\n")
    text = result.transcript
    assert result.reason == "end", result.message
    assert printed_boards(text) == expected_boards(dead_end) + expected_boards(moves)
    assert f"YOU HAD {left} PIECES REMAINING." in text
    assert text.count("THE GAME IS OVER.") == 2
    assert text.count("BRAVO! YOU MADE A PERFECT SCORE!") == 1
    assert text.count("PLAY AGAIN (YES OR NO)?") == 2
    assert text.count("SO LONG FOR NOW.") == 1
