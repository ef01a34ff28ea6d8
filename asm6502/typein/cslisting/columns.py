"""A listing's checksums printed as a column of their own, set back beside its lines.

Some pages print a listing's checksums as a column of their own that OCR reads after the
lines (64'er 12/85 p. 83: lines 10-470 of Seeschlacht, then 40 rows '<060>' ...; 12/85 p. 106:
Frogger).  Both readers of Checksummer listings (``basic read`` through :func:`.layout.find_records`
and ``typein scan``) read the text with such columns set back: this module is the one place
the rule lives.
"""

from __future__ import annotations

import re

from asm6502.typein.cslisting.checksum import ChecksumOptions
from asm6502.typein.cslisting.text import checksum_of

CHECKSUM_ROW = re.compile(r"^\s*<\s*(\d{3})\s*>\s*$")
# a row of a checksum column that OCR joined with the next ones ('<058> < 000 > <231>', 2/86 p. 75)
CHECKSUMS_ROW = re.compile(r"^\s*(?:<\s*\d{3}\s*>\s*){2,}$")
_ONE_CHECKSUM = re.compile(r"<\s*(\d{3})\s*>")
LINE_START = re.compile(r"^\s*(\d{1,5})\s+\S")
_CHECKSUM_FIELD = re.compile(r"<\s*\d{3}\s*>")
# MIN_COLUMN rows that are each one checksum and nothing else, anywhere in the text
_ANY_COLUMN = re.compile(r"^(?:[ \t]*<[ \t]*\d{3}[ \t]*>[ \t]*\r?\n){3}", re.MULTILINE)
MIN_COLUMN = 3  # rows of a checksum column: fewer are no column
NUMBER_ROW = re.compile(r"^\s*(\d{1,5})\s*$")
_ENDS_IN_CHECKSUM = re.compile(r"<\s*(\d{3})\s*>\s*$")
_ANY_NUMBERS = re.compile(r"^(?:[ \t]*\d{1,5}[ \t]*\r?\n){3}", re.MULTILINE)
MAX_EXTRA = 2  # bodies beyond the numbers (a line above going on, the next block's first): no more
MAX_UNPAIRED = 3  # lines of a checksum column's stretch left without one (checksums OCR lost, a line going on)
TEXT_ROWS = 3  # rows that begin with no number (article text): the lines above them are no column's


def set_columns_back(text: str) -> str:
    """*text* with each column of bare checksums set back beside its lines.

    Where a run of at least MIN_COLUMN rows of one checksum each follows rows of numbered lines
    without checksums, and those rows hold as many lines (numbers that rise, a line broken over
    rows has one) as the run has checksums, the k-th checksum is put at the end of the k-th
    line's last row and the run's rows are left empty (every row keeps its number).  Anything
    else stays as it is; text with no such run is returned as it is, not split into rows.
    A column of line numbers printed before their bodies is set back too (:func:`_numbers_back`)."""
    if _ANY_NUMBERS.search(text + "\n"):
        text = _numbers_back(text)
    if not _ANY_COLUMN.search(text + "\n"):
        return text
    rows = text.split("\n")
    out = list(rows)
    n = 0
    while n < len(rows):
        if not CHECKSUM_ROW.match(rows[n]):
            n += 1
            continue
        end = n
        while end < len(rows) and CHECKSUM_ROW.match(rows[end]):
            end += 1
        joined = end
        while joined < len(rows) and (CHECKSUM_ROW.match(rows[joined]) or CHECKSUMS_ROW.match(rows[joined])):
            joined += 1
        if joined > end:  # (rows of several checksums in the run: each checksum one line's, set by checksums)
            starts = _line_starts(rows, n)
            checks = [m.group(0) for r in range(n, joined) for m in _ONE_CHECKSUM.finditer(rows[r])]
            pairs = _aligned(rows, starts, checks, n)
            if pairs is not None:
                for start, check in pairs:
                    last = next((starts[k + 1] for k, s in enumerate(starts) if s == start and k + 1 < len(starts)), n) - 1
                    while last > start and not rows[last].strip():
                        last -= 1
                    out[last] = rows[last].rstrip() + "\t" + check
                for r in range(n, joined):
                    out[r] = ""
                n = joined
                continue
        run = list(range(n, end))
        starts = _line_starts(rows, n) if len(run) >= MIN_COLUMN else []
        if len(starts) == len(run) or len(starts) > len(run) >= MIN_COLUMN and not listing_row(rows[starts[-len(run)] - 1]):
            starts = starts[len(starts) - len(run):]
            for k, start in enumerate(starts):
                last = (starts[k + 1] if k + 1 < len(starts) else n) - 1
                while last > start and not rows[last].strip():
                    last -= 1
                out[last] = rows[last].rstrip() + "\t" + rows[run[k]].strip()
            for r in run:
                out[r] = ""
        n = end
    return "\n".join(out)


def _aligned(rows: list[str], starts: list[int], checks: list[str], below: int) -> list[tuple[int, str]] | None:
    """The checksums of a column paired with the lines above it in order, up to MAX_UNPAIRED lines
    left without one (OCR lost a checksum, or a line goes on past the column): of the pairing under
    which the most lines give their checksum, in one checksum variant, the pairs that verify and
    fit no other line or checksum within reach (a line that verifies with none gets none: where a
    checksum was lost cannot be told there); None where two variants pair otherwise as well or
    fewer than a quarter of the checksums (MIN_COLUMN at least) are paired so -- a pair verifies
    by chance one time in 256."""
    extra = len(starts) - len(checks)
    if not 0 <= extra <= MAX_UNPAIRED or len(checks) < MIN_COLUMN:
        return None
    texts = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else below
        m = LINE_START.match(rows[start])
        assert m is not None
        body = " ".join(rows[r].strip() for r in range(start, stop) if rows[r].strip())
        texts.append((int(m.group(1)), body[len(m.group(1)):].strip().replace("\t", " ")))
    values = [int(_ONE_CHECKSUM.match(c).group(1)) for c in checks]  # type: ignore[union-attr]
    found: dict[tuple[tuple[int, int], ...], int] = {}  # each variant's best pairing -> its verified lines
    for version in (1, 2, 3):
        for upper in (True, False):
            options = ChecksumOptions(version)
            fit = {(i, j): int(checksum_of(texts[i][0], texts[i][1], upper, options) == values[j])
                   for j in range(len(checks)) for i in range(j, j + extra + 1)}
            # score[i][j]: the most verified pairs of lines i.. with checksums j.. (-1: no pairing;
            # lines may be left over, at most *extra* in all)
            score = [[0] * (len(checks) + 1) for _ in range(len(starts) + 1)]
            for i in range(len(starts) - 1, -1, -1):
                for j in range(len(checks) - 1, -1, -1):
                    if not j <= i <= j + extra:
                        score[i][j] = -1
                        continue
                    take = fit[(i, j)] + score[i + 1][j + 1] if score[i + 1][j + 1] >= 0 else -1
                    skip = score[i + 1][j] if i + 1 <= j + extra else -1
                    score[i][j] = max(take, skip)
            if score[0][0] < 0:
                continue
            pairs, i, j = [], 0, 0
            while j < len(checks):
                take = fit[(i, j)] + score[i + 1][j + 1] if score[i + 1][j + 1] >= 0 else -1
                if take == score[i][j]:
                    pairs.append((i, j))
                    i, j = i + 1, j + 1
                else:
                    i += 1
            # (only the pairs that verify, each line and checksum fitting no other in reach: where
            # the pairing of lines that verify with none is not sure, they get none)
            sure = tuple((i, j) for i, j in pairs if fit[(i, j)]
                         and sum(fit.get((i, k), 0) for k in range(i - extra, i + 1)) == 1
                         and sum(fit.get((k, j), 0) for k in range(j, j + extra + 1)) == 1)
            found[sure] = max(found.get(sure, 0), len(sure))
    if not found:
        return None
    top = max(found.values())
    best = [p for p, v in found.items() if v == top]
    if len(best) != 1 or top < max(MIN_COLUMN, len(checks) // 4):
        return None
    return [(starts[i], checks[j]) for i, j in best[0]]


def listing_row(row: str) -> bool:
    """Whether *row* begins with a line number and the line's text."""
    return bool(LINE_START.match(row))


def _line_starts(rows: list[str], below: int) -> list[int]:
    """The rows (0-based) where the lines above row *below* start: in the rows up to an empty row,
    a row with a checksum or TEXT_ROWS rows that begin with no number (article text), the rows
    whose leading numbers form the longest rising sequence ending in the last numbered row (a row
    of a line broken over rows may begin with digits too)."""
    top, prose = below, 0
    while top > 0 and rows[top - 1].strip() and not _CHECKSUM_FIELD.search(rows[top - 1]):
        prose = 0 if listing_row(rows[top - 1]) else prose + 1
        if prose >= TEXT_ROWS:
            top += prose - 1
            break
        top -= 1
    candidates = [(r, int(m.group(1))) for r in range(top, below) if (m := LINE_START.match(rows[r]))]
    if not candidates:
        return []
    return [candidates[k][0] for k in rising_chain([number for _, number in candidates])]


def rising_chain(numbers: list[int]) -> list[int]:
    """The indexes of the longest strictly rising sequence of *numbers* that ends in the last one;
    of equally long ones, each step back takes the earliest number that makes it that long.
    O(n log n): a Fenwick tree over the numbers' ranks keeps, per prefix of ranks, the best
    (length, -index) of a sequence ending there."""
    ranks = {v: r for r, v in enumerate(sorted(set(numbers)), start=1)}
    tree = [(0, 0)] * (len(ranks) + 1)
    before = [-1] * len(numbers)
    for k, number in enumerate(numbers):
        best, r = (0, 1), ranks[number] - 1  # the best sequence ending below this number's rank
        while r:
            best = max(best, tree[r])
            r &= r - 1
        before[k] = -best[1] if best[0] else -1
        entry, r = (best[0] + 1, -k), ranks[number]
        while r < len(tree):
            tree[r] = max(tree[r], entry)
            r += r & -r
    chain, k = [], len(numbers) - 1
    while k >= 0:
        chain.append(k)
        k = before[k]
    return chain[::-1]


def _numbers_back(text: str) -> str:
    """*text* with each column of line numbers printed before their bodies set back in front of them.

    64'er 2/86 p. 75 prints lines 136-184 of the MPS-801 routine as 49 rows of numbers, then the
    bodies, each ending in its checksum (one broken over two rows).  Where a run of at least
    MIN_COLUMN rows of one rising number each is followed by rows without numbers that end in
    checksums, the bodies are counted (a body ends in the row with its checksum); as many bodies
    as numbers, or up to MAX_EXTRA more (the first may go on with a line above, the last may be
    another's), are paired with the numbers at the offset under which the checksums verify the
    most lines -- the checksum sums the line number, so a body under another's number does not
    verify.  The pairing is made only when that offset is the only best one and verifies at least
    half the lines; else the text stays as it is."""
    rows = text.split("\n")
    out = list(rows)
    n = 0
    while n < len(rows):
        end = n
        while end < len(rows) and (m := NUMBER_ROW.match(rows[end])) and (
                end == n or int(m.group(1)) > int(NUMBER_ROW.match(rows[end - 1]).group(1))):  # type: ignore[union-attr]
            end += 1
        if end - n < MIN_COLUMN:
            n = max(end, n + 1)
            continue
        numbers = [int(NUMBER_ROW.match(rows[r]).group(1)) for r in range(n, end)]  # type: ignore[union-attr]
        bodies = _bodies(rows, end)
        best = _best_offset(numbers, bodies, rows)
        if best is not None:
            for k, number in enumerate(numbers):
                first = bodies[best + k][0]
                out[first] = f"{number} {rows[first].lstrip()}"
            for r in range(n, end):
                out[r] = ""
        n = end
    return "\n".join(out)


def _bodies(rows: list[str], below: int) -> list[list[int]]:
    """The bodies in the rows from *below* on (past empty rows): each the rows up to one that ends
    in a checksum; they end at an empty row, a numbered line or a row after which no checksum comes."""
    r = below
    while r < len(rows) and not rows[r].strip():
        r += 1
    bodies: list[list[int]] = []
    body: list[int] = []
    while r < len(rows) and rows[r].strip() and not listing_row(rows[r]) and not NUMBER_ROW.match(rows[r]):
        body.append(r)
        if _ENDS_IN_CHECKSUM.search(rows[r]):
            bodies.append(body)
            body = []
        elif len(body) > 2:
            break  # three rows without a checksum: no line's body
        r += 1
    return bodies


def _best_offset(numbers: list[int], bodies: list[list[int]], rows: list[str]) -> int | None:
    """The offset of the bodies that pairs them with *numbers* best by their checksums (see
    :func:`_numbers_back`), None when no offset is sure."""
    extra = len(bodies) - len(numbers)
    if not 0 <= extra <= MAX_EXTRA:
        return None
    texts = []
    for body in bodies:
        joined = "".join(rows[r].strip() for r in body)
        m = _ENDS_IN_CHECKSUM.search(joined)
        assert m is not None
        texts.append((joined[: m.start()].replace("\t", " ").rstrip(), int(m.group(1))))
    scores = []
    for offset in range(extra + 1):
        pairs = list(zip(numbers, texts[offset:]))
        scores.append(max(sum(checksum_of(number, head, upper, ChecksumOptions(version)) == value
                              for number, (head, value) in pairs)
                          for version in (1, 2, 3) for upper in (True, False)))
    top = max(scores)
    if scores.count(top) != 1 or 2 * top < len(numbers):
        return None
    return scores.index(top)
