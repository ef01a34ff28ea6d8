"""Writing a program in an English format: the listing as the magazine printed it."""

from __future__ import annotations

from asm6502.basic.tokenizer import detokenize
from asm6502.typein.english import bugrepellent, mlx, printed, proofreader


def basic_lines(prg: bytes, filename: str = "<prg>") -> list[tuple[int, bytes]]:
    return [(line.number, line.body) for line in detokenize(prg, filename=filename).lines]


def proofreader_line(version: str, number: int, body: bytes) -> str:
    text = printed.printed(body, "compute")
    line = printed.typed(number, text, "compute")
    assert line is not None  # (printed text always reads back)
    if version == "1983":
        return f"{number} {text} :rem {proofreader.checksum_1983(line)}".replace("  :rem", " :rem")
    return f"{proofreader.letters(proofreader.checksum_1986(number, line))} {number} {text}"


def proofreader_listing(version: str, prg: bytes, name: str = "") -> str:
    """Compute!'s form: ``10 PRINT "HELLO" :rem 123`` (1983) or ``GE 10 PRINT "HELLO"`` (1986)."""
    rows = [name, ""] if name else []
    rows += [proofreader_line(version, n, body) for n, body in basic_lines(prg)]
    return "\n".join(rows) + "\n"


def repellent_listing(version: str, prg: bytes, name: str = "") -> str:
    """Ahoy!'s form: the listing, then the table of the Bug Repellent's line codes."""
    lines = basic_lines(prg)
    rows = [name, ""] if name else []
    rows += [f"{n} {printed.printed(body, 'ahoy')}" for n, body in lines]
    rows += ["", "Bug Repellent line codes", ""]
    table = bugrepellent.table([n for n, _ in lines], bugrepellent.codes(version, lines))
    return "\n".join(rows) + "\n" + table


def mlx_listing(version: str, prg: bytes, name: str = "") -> str:
    return mlx.write(version, prg, name)
