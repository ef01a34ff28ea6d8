"""Profi-Ass 64 V2.0 source: line-numbered, as typed into the C64 (see sources/superhirn.asm).

Rules kept (manual pp. 8-13; findings in the Profi-Ass oracle's README.txt, tools/oracles.py):
labels of letters and digits, at most 8 characters; no indentation (BASIC
drops leading blanks); each line shorter than 80 keys (the screen editor
drops longer ones); ``!`` forces absolute addressing; ``<``/``>`` in front
apply to the whole expression; ``.asc`` text in petcat's case convention,
at most 40 characters a line; comments without ``:`` (a colon ends one).
"""

from __future__ import annotations

from asm6502.cpu import Cpu
from asm6502.disasm.model import Listing, Symbol
from asm6502.disasm.syntax.common import Spelling, source_lines

FIRST_LINE = 100
STEP = 10
LAST_LINE = 63999  # the highest BASIC line number
MAX_LINE_KEYS = 79  # the screen editor takes at most 80 keys; 80 or more is dropped


class SourceTooLong(ValueError):
    pass


def _spell(symbol: Symbol) -> str:
    return symbol.short


def _group(text: str) -> str:
    return text  # '<sym+1' is the low byte of sym+1 in Profi-Ass


def _line(label: str | None, text: str) -> str:
    return text if label is None else f"{label} {text}"  # no indentation: BASIC drops leading blanks


COMMENT_WIDTH = MAX_LINE_KEYS - 6  # room for a 5-digit line number and its blank


def _comment(text: str) -> str:
    return ("; " + text.replace(":", " "))[:COMMENT_WIDTH].rstrip()


def _fits_in_memory(listing: Listing, source_chars: int) -> bool:
    """Can '.opt oo' put the object code at its address on the C64 without hitting the source?

    The source is a BASIC program from $0801; Profi-Ass keeps its symbols above it and runs at
    $8000-$9FFF (manual p. 18: 'OO' cannot be used where the source lies).  $C000-$CFFF
    is free.  The estimate is generous: one byte per character and 16 per label, plus 2 KB.
    """
    start, end = listing.origin, listing.end
    symbols = sum(1 for s in listing.body if getattr(s, "label", None)) + len(listing.equates)
    above_source = 0x0801 + source_chars + 16 * symbols + 0x800
    return start >= 0xC000 and end <= 0xD000 or above_source <= start and end <= 0x8000


def _head(listing: Listing, body: list[str]) -> list[str]:
    head = ["sys32768", ".opt oo", ";", _comment(f"{listing.title} - disassembled by asm6502 disasm"),
            _comment(listing.traced_from)]
    if listing.cpu == Cpu.NMOS_ILLEGAL:
        head.append(_comment(f"undocumented opcodes - assemble with asm6502 --cpu {Cpu.NMOS_ILLEGAL}"))
    if not _fits_in_memory(listing, sum(len(line) + 6 for line in body)):
        name = "".join(c for c in listing.title.rsplit(".", 1)[0].lower() if c.isalnum() or c in " .-")[:16]
        head += [_comment(f".opt oo would assemble over this source or the system at ${listing.origin:04x} -"),
                 _comment(f'to send the code to disk, put a line  open1,8,1,"{name or "object"}"'),
                 _comment("before sys32768 and change .opt oo to .opt o1 (manual p. 18)")]
    return head + [";"]


PROFI = Spelling(byte=".byt", word=".wor", text=".asc", separator=",", origin="*= {}", head=_head,
                 spell=_spell, group=_group, accumulator="a", force_operand="!", line=_line, comment=_comment)


def statements(listing: Listing) -> list[str]:
    """The source lines without their numbers."""
    return source_lines(listing, PROFI)


def render(listing: Listing) -> str:
    lines = statements(listing)
    step = STEP
    if FIRST_LINE + step * (len(lines) - 1) > LAST_LINE:
        step = (LAST_LINE - FIRST_LINE) // max(1, len(lines) - 1)
        if step < 1:
            raise SourceTooLong(f"{len(lines)} lines do not fit into one Profi-Ass source (line numbers "
                                f"{FIRST_LINE}-{LAST_LINE}); disassemble a part with --entry and split it")
    out = []
    for n, text in enumerate(lines):
        line = f"{FIRST_LINE + n * step} {text}"
        assert len(line) <= MAX_LINE_KEYS, line
        out.append(line)
    return "\n".join(out) + "\n"
