"""A familiar reading taken without asking (asm6502.typein.cslisting.verdict.familiar): every change
where the print shows damage, every name it touches one the listing's other lines taken use, no
rival near it, and few such readings tried -- the program's own names the second witness."""

from __future__ import annotations

import pytest

from asm6502.typein.cslisting.checksum import ChecksumOptions, line_checksum
from asm6502.typein.cslisting.edits import Edit, Fix, apply
from asm6502.typein.cslisting.read import read_listings
from asm6502.typein.cslisting.text import line_body
from asm6502.typein.cslisting.verdict import CHANCE_LIMIT, familiar
from asm6502.typein.cslisting.vocabulary import Lexicon, crunched, made_names


def _fix(text: str, changes: list[tuple[str, str, str]], cost: float = 1.0) -> Fix:
    edits = []
    for at, new, why in changes:
        k = text.index(at)
        edits.append(Edit(k, k + len(at), new, cost / len(changes), why))
    return Fix(cost, apply(text, tuple(edits)), tuple(edits), False)


LINE = "FOR 1=0 TO 3sA^=A^"  # meant: FOR I=0 TO 3:A$=A$
BEST = [("1", "I", "I read as 1"), ("s", ":", ": read as s"), ("A^=A^", "A$=A$", "$ read as ^")]
USES = [(10, "FOR I=1 TO 9:A$=A$+B$:NEXT")]
# a rival that verifies too: '1' read as 'l' (a new name L) instead of I
RIVAL = [("1", "L", "L read as 1"), ("s", ":", ": read as s"), ("A^=A^", "A$=A$", "$ read as ^")]

# (the other lines taken, the rival's cost after the best's 1.0 (None: no rival), the chance of a
# match among the familiar readings tried, the names that make the reading familiar or None)
FAMILIAR = [
    (USES, None, 0.0, ("I", "A$")),
    ([(10, "FOR J=1 TO 9:B$=B$+C$:NEXT")], None, 0.0, None),  # the listing uses neither name
    ([(10, "FOR I=1 TO 9:NEXT")], None, 0.0, ("I", "A$")),  # A$ the line's own, made twice
    ([(50, "FOR I=1 TO 9:A$=A$+B$:NEXT")], None, 0.0, None),  # only the line itself prints I
    (USES, 1.5, 0.0, None),  # a rival within twice the margin: asked
    (USES, 2.5, 0.0, ("I", "A$")),  # the rival far behind
    (USES, None, CHANCE_LIMIT, ("I", "A$")),
    (USES, None, 2 * CHANCE_LIMIT, None),  # so many familiar readings tried that one verifies by chance
]

# one printed glyph read two ways in a line ('l' as 1 and as I): no familiar reading
MIXED = "FOR N=l3 TO 9:P=P+l"


def test_one_glyph_read_two_ways_is_no_familiar_reading():
    edits = (Edit(6, 7, "1", 0.5, "1 read as l"), Edit(18, 19, "I", 0.5, "I read as l"))
    fix = Fix(1.0, apply(MIXED, edits), edits, False)
    lexicon = Lexicon.of([(10, "FOR N=1 TO 9:P=P+I:NEXT")])
    assert made_names(MIXED, fix.edits, lexicon, 50) == ("I",)  # familiar but for the mixed reading
    assert familiar([fix], True, MIXED, lexicon, 50, lambda cost: 0.0) is None


@pytest.mark.parametrize("uses,rival,chance,names", FAMILIAR)
def test_a_familiar_reading(uses, rival, chance, names):
    fixes = [_fix(LINE, BEST)] + ([] if rival is None else [_fix(LINE, RIVAL, rival)])
    assert familiar(fixes, True, LINE, Lexicon.of(uses), 50, lambda cost: chance) == names


# (line as printed, its changes, the names they make; None: one is no name of the listing's)
MADE = [
    ("FOR 1=0 TO 3sA^=A^", BEST, ("I", "A$")),
    ("X=Klt", [("t", "$", "$ read as t")], None),  # K$ is not printed elsewhere
    ('PRINT"Kl"', [("l", "1", "1 read as l")], ()),  # inside quotes: no name
    ("POK E 1,2", [("POK E", "POKE", "blanks inside a keyword")], ("POKE",)),
    # a name the reading makes at two places of the line, each misread: the line's own twice
    ("X=Kl$+LEN(Klt)", [("Kl$", "K1$", "1 read as l"), ("Klt", "K1$", "1 read as l")], ("K1$",)),
    ("X=Kl$+LEN(B$)", [("Kl$", "K1$", "1 read as l")], None),  # once only
]


@pytest.mark.parametrize("text,changes,made", MADE)
def test_the_names_a_reading_makes(text, changes, made):
    lexicon = Lexicon.of([(10, "FOR I=1 TO 9:A$=A$+B$:NEXT:POKE 53280,I")])
    assert made_names(text, _fix(text, changes).edits, lexicon, 50) == made


def _printed(number: int, meant: str, shown: str | None = None) -> str:
    body = line_body(meant, True)
    assert body is not None
    return f"{number} {meant if shown is None else shown} <{line_checksum(number, body, ChecksumOptions(3)):03d}>"


KNOWN = ["FOR I=1 TO 9:PRINT I:NEXT", 'K1$="X":B$=K1$+"Y"', "POKE 53280,I"]
UNKNOWN = ["FOR J=1 TO 9:PRINT J:NEXT", 'Z$="X":B$=Z$+"Y"', "POKE 53280,J"]

# (the line meant, as printed, the other lines, status): three misreadings each where the print
# shows damage; a rival reading verifies too ('K7t'), offered after the right one
READ = [
    ("FOR I=0 TO 3:PRINT I:POKE 781,I", "FOR 1=0 TO 3:PRINT l:P0KE 781,I", KNOWN, "repaired"),
    # (I read at two places of its own: the line's own name twice, the other lines need not use it)
    ("FOR I=0 TO 3:PRINT I:POKE 781,I", "FOR 1=0 TO 3:PRINT l:P0KE 781,I", UNKNOWN, "repaired"),
    ("FOR I=1 TO 3:K1$=Z$+B$:NEXT", "FOR 1=1 TO 3sK1t=Z$+B$:NEXT", KNOWN, "repaired"),
    ("FOR I=1 TO 3:K1$=Z$+B$:NEXT", "FOR 1=1 TO 3sK1t=Z$+B$:NEXT", UNKNOWN, "bad"),
]


@pytest.mark.parametrize("meant,shown,others,status", READ)
def test_the_listings_names_take_a_reading(meant, shown, others, status):
    rows = [_printed(10 * (k + 1), t) for k, t in enumerate(others)] + [_printed(100, meant, shown), _printed(110, "END")]
    result, = read_listings("\n".join(rows) + "\n", "t")
    line = next(r for r in result.lines if r.number == 100)
    assert line.status == status
    if status == "repaired":
        assert line.text == meant and "the listing's other lines use" in line.repair
    else:
        assert line.fixed_texts[0] == meant and len(line.fixed_texts) >= 2


@pytest.mark.parametrize("run,pieces", [
    ("READF$", ["READ", "F$"]),  # CRUNCH reads a keyword inside letters
    ("FORI", ["FOR", "I"]),
    ("TOTAL", ["TO", "TAL"]),
    ("STOP", ["STOP"]),  # the table's first keyword spelled at a place
    ("GOSUB60000", ["GOSUB"]),  # a number is no name
    ("K1$", ["K1$"]),
])
def test_names_cut_as_crunch_cuts_them(run, pieces):
    assert crunched(run) == pieces


# (a line left bad, as printed: the names it lends the lexicon)
@pytest.mark.parametrize("printed,learned", [
    ("PRINT L$T$(I)", {"PRINT", "L$", "T$", "I"}),
    ("PRINT Nt;Kl$", {"PRINT"}),  # a small letter in a capital listing: damage shown, no name learned
    ("FOR 1=0 TO 3", {"FOR", "TO"}),
])
def test_a_bad_lines_names_where_the_print_shows_no_damage(printed, learned):
    assert set(Lexicon.of([], [(10, printed)], True).lines) == learned
