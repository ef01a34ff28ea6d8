"""What kind of file the user handed to a command, so a wrong one gets one clear hint.

A .d64 image, a BASIC program (text or tokenized), an MSE listing or other binary
data given to the assembler would otherwise produce one error per line (thousands
for a disk image).  ``sniff`` looks at the bytes once and names the
command that reads such a file.
"""

from __future__ import annotations

from asm6502.basic.tokens import FIRST_TOKEN, KEYWORDS, TOKEN_OF
from asm6502.patterns import LazyPattern
from asm6502.tuples import SlotRecord

# 35 and 40 tracks, each without and with the error-byte block (one byte per sector)
D64_SIZES = (174848, 175531, 196608, 197376)

# statements that begin a BASIC line but never a Profi-Ass one (first word after the line number): BASIC's
# statement keywords ($80-$A2, basic.tokens) but END and SYS (a Profi-Ass label may be called 'end', and
# SYS is the one BASIC line in front of machine code); INPUT# and PRINT# begin with INPUT and PRINT
BASIC_WORDS = frozenset(
    kw.lower() for kw in KEYWORDS[: TOKEN_OF["NEW"] - FIRST_TOKEN + 1] if kw.isalpha() and kw not in ("END", "SYS")
)
MSE_LINE = LazyPattern(r"^\s*[0-9a-fA-F]{4}\s*:\s*(?:[0-9a-zA-Z]{2}\s*){4}")
LINE_START = LazyPattern(r"^\s*\d+\s*([a-zA-Z][a-zA-Z0-9.$%]*)?")
ESCAPE = LazyPattern(r"\{\$[0-9a-f]{2}\}")
MIN_LINES = 2  # fewer lines than this never decide anything
SAMPLE_LINES = 400  # the kind of a file shows in its first lines
SAMPLE_CHARS = 40 * SAMPLE_LINES
_BASIC_STARTS = (*sorted(BASIC_WORDS), "?")
_LONGEST_START = max(map(len, _BASIC_STARTS))
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def starts_as_basic(line: str, pos: int) -> bool:
    """A BASIC-only statement (or '?', PRINT) at *pos*, its letters in any case (ASCII: 'K' is no k): the
    match of (BASIC_WORDS | '?') in an ASCII case-insensitive pattern, without compiling that pattern of 30
    alternatives (2 M instructions, a twentieth of the assembler's start-up beyond Python's own)."""
    return line[pos:pos + _LONGEST_START].translate(_ASCII_LOWER).startswith(_BASIC_STARTS)


class Kind(SlotRecord):
    __slots__ = ("name", "what", "hint")

    def __init__(self, name: str, what: str, hint: str) -> None:
        self.name = name  # "d64", "text", "basic-text", "checksummer", "mse", "basic-prg", "machine-code", "binary"
        self.what = what  # e.g. "a 1541 disk image"
        self.hint = hint  # the command that reads it


def _basic_share(text: str) -> tuple[int, int]:
    """(lines starting with a BASIC-only statement, numbered lines) among the first SAMPLE_LINES lines."""
    basic = numbered = 0
    for line in text[:SAMPLE_CHARS].splitlines()[:SAMPLE_LINES]:
        m = LINE_START.match(line)
        if not m or not line.lstrip()[:1].isdigit():
            continue
        numbered += 1
        if starts_as_basic(line, m.start(1) if m.group(1) else m.end(0)):
            basic += 1
    return basic, numbered


def looks_like_basic(text: str) -> bool:
    """Most numbered lines begin with PRINT, GOTO, IF, ... (no Profi-Ass line does)."""
    basic, numbered = _basic_share(text)
    return numbered >= MIN_LINES and basic * 2 > numbered


def _may_end_in_checksum(line: str) -> bool:
    """The line ends as a Checksummer value does: a closing bracket, or an opening one and three digits (OCR
    loses one of the two); only then is the Checksummer layout's reading asked (an assembler line often ends in digits)."""
    end = line.rstrip()
    last, before = end[-1:], end[:-3].rstrip()[-1:]  # ('' is in every string: a blank line ends in nothing)
    return (last != "" and last in ">)}]»") or (end[-3:].isdigit() and before != "" and before in "<({[«")


def checksummer_marks(text: str) -> tuple[list[int], int]:
    """(the numbers of the lines that end with a Checksummer value ``<NNN>``, as printed or OCR'd
    (``typein.cslisting.layout``), the lines that are neither blank nor a ';' comment)."""
    lines = text.split("\n")
    rows = sum(1 for r in lines if r.strip() and not r.lstrip().startswith(";"))
    ending = [(k, r) for k, r in enumerate(lines, start=1) if _may_end_in_checksum(r)]
    if not ending:  # (the common text: the Checksummer layout, and its patterns, are not loaded)
        return [], rows
    from asm6502.typein.cslisting.layout import CHECKSUM_AT_END

    return [k for k, r in ending if CHECKSUM_AT_END.search(r.rstrip("\r"))], rows


def looks_like_checksummer(text: str) -> bool:
    """Half the lines or more end with a Checksummer value ``<NNN>`` (64'er's BASIC type-in listings)."""
    lines = text[:SAMPLE_CHARS].splitlines()[:SAMPLE_LINES]
    if sum(1 for line in lines if _may_end_in_checksum(line)) < MIN_LINES:  # (the common source: no line ends so)
        return False
    marked, rows = checksummer_marks("\n".join(lines))
    return len(marked) >= MIN_LINES and len(marked) * 2 >= rows


def looks_like_mse(text: str) -> bool:
    """Most non-blank lines look like ``3400 : A9 93 20 ...`` (MSE V1) or ``3400: ufir atw6 ...`` (V2)."""
    lines = [line for line in text[:SAMPLE_CHARS].splitlines()[:SAMPLE_LINES] if line.strip()]
    hits = sum(1 for line in lines if ":" in line and MSE_LINE.match(line))  # (no ':': no need to compile it)
    return hits >= MIN_LINES and hits * 2 > len(lines)


def sniff_binary(data: bytes, name: str) -> Kind | None:
    """A disk image, or bytes that are no text at all (before any detokenizing)."""
    if (len(data) in D64_SIZES or name.lower().endswith(".d64")) and b"\0" in data:  # a text of that size is text
        return Kind("d64", "a 1541 disk image (.d64)",
                    f"run a file from it with asm6502 run --roms DIR --disk {name} --type 'LOAD\"NAME\",8\\rRUN\\r', "
                    f"list it with 'asm6502 d64 list {name}', copy a file out with 'asm6502 d64 read {name} NAME -o FILE'")
    if b"\0" in data[:4096] and not name.lower().endswith(".prg") and data[:2] != b"\x01\x08":
        return Kind("binary", "binary data, not a source text", "give the Profi-Ass source (.asm text or a .prg saved by Profi-Ass)")
    return None


BASIC_TXTTAB = 0x0801  # where the C64 loads and saves BASIC text (TXTTAB, $2B/$2C)
MAX_LINE_NUMBER = 63999  # LINGET ($A96B) refuses larger line numbers


def basic_line_chain(data: bytes) -> tuple[int, bool]:
    """(program lines that chain correctly, whether the chain ends in a link with high byte 0)
    for a .prg: each line is link (the next line's address), line number, text, $00; LINKPRG ($A53C)
    stops at a link whose high byte is 0. A C64 relinks after LOAD, so a link is only asked to point
    past its own line's end and inside the file; machine code breaks this within its first bytes."""
    if len(data) < 4:
        return 0, False
    start = int.from_bytes(data[:2], "little")
    mem = data[2:]
    off = lines = 0
    previous = -1
    while off + 2 <= len(mem):
        link = int.from_bytes(mem[off:off + 2], "little")
        if link >> 8 == 0:
            return lines, True
        number = int.from_bytes(mem[off + 2:off + 4], "little") if off + 4 <= len(mem) else -1
        term = mem.find(b"\x00", off + 4)
        if number < previous or number > MAX_LINE_NUMBER or term < 0 or not start + term < link <= start + len(mem):
            return lines, False
        previous = number
        lines += 1
        off = term + 1
    return lines, False


def named_or_loaded_as_program(data: bytes, name: str) -> bool:
    """Named .prg, or loading at BASIC's start $0801: what a C64 program looks like from outside."""
    return name.lower().endswith(".prg") or data[:2] == b"\x01\x08"


def is_tokenized(data: bytes, name: str) -> bool:
    """A source or program saved on a C64 (tokenized BASIC lines), not a text: named .prg, or loading at
    BASIC's start $0801 with a line's end ($00) in its first 100 bytes (no text has a $00)."""
    return name.lower().endswith(".prg") or (len(data) > 6 and data[:2] == b"\x01\x08" and b"\0" in data[:100])


def is_machine_code(data: bytes) -> bool:
    """A .prg that cannot be a BASIC program (or a Profi-Ass source saved on a C64): no line chains
    at all, or the chain breaks in a program that does not load at BASIC's start $0801."""
    if len(data) <= 4:
        return False  # an empty program is an empty program
    lines, ended = basic_line_chain(data)
    return lines == 0 or (not ended and int.from_bytes(data[:2], "little") != BASIC_TXTTAB)


def sniff_machine_code(data: bytes, name: str, listing: str, instead: str = "a source") -> Kind | None:
    """A .prg that is machine code, not a saved source (or BASIC program): its BASIC line chain is
    broken from the start, or its 'BASIC lines' are mostly {$hh} escapes."""
    escaped = sum(len(m) for m in ESCAPE.findall(listing))
    if is_machine_code(data) or len(listing) >= 64 and escaped * 4 > len(listing):
        return Kind("machine-code", f"a machine-code program (loads at ${int.from_bytes(data[:2], 'little'):04X}), not {instead}",
                    f"run it with 'asm6502 run {name}', print it as a type-in listing with 'asm6502 mse write {name}'")
    return None


def sniff_text(text: str, name: str, *, tokenized: bool) -> Kind | None:
    """A BASIC program, a Checksummer or an MSE listing where an assembler source was expected."""
    if not tokenized and looks_like_checksummer(text):
        return Kind("checksummer", "a Checksummer type-in listing (BASIC lines with <NNN> checksums), not a Profi-Ass source",
                    f"read it back into a program with 'asm6502 basic read {name} -o PROGRAM.prg'")
    if looks_like_basic(text):
        if tokenized:
            return Kind("basic-prg", "a tokenized BASIC program, not a Profi-Ass source",
                        f"list it with 'asm6502 basic list {name}', run it with 'asm6502 basic run {name}'")
        return Kind("basic-text", "a BASIC listing, not a Profi-Ass source",
                    f"tokenize it with 'asm6502 basic tok {name}', run it with 'asm6502 basic run {name}'")
    if not tokenized and looks_like_mse(text):
        return Kind("mse", "an MSE type-in listing (hex bytes with checksums)",
                    f"read it back into a program with 'asm6502 mse read {name} -o PROGRAM.prg'")
    return None


def looks_textual(data: bytes) -> bool:
    """Lines of text (UTF-8, no control codes but tab and line ends): no C64 program looks like this,
    its first bytes are a load address and a line link, which hold control codes or $00."""
    sample = data[:512]
    try:
        text = sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 3:  # only a character cut at the sample's end is forgiven
            return False
        text = sample[: exc.start].decode("utf-8")
    return "\n" in text and all(c in "\t\n\r" or c >= " " for c in text)


def sniff_program(data: bytes, name: str, *, want: str) -> Kind | None:
    """The wrong kind of .prg for a command: *want* is "basic" (basic run/checksum), "any" (basic list:
    any program, only text is refused) or "machine-code" (run)."""
    if looks_textual(data):
        hint = (f"tokenize it with 'asm6502 basic tok {name}'" if want != "machine-code"
                else f"assemble it with 'asm6502 {name}', or tokenize a BASIC listing with 'asm6502 basic tok {name}'")
        return Kind("text", "a text file, not a C64 program (.prg)", hint)
    if want == "machine-code" and len(data) > 6 and data[:2] == b"\x01\x08":
        from asm6502.basic.tokenizer import detokenize

        if looks_like_basic(detokenize(data, filename=name).text):
            return Kind("basic-prg", "a BASIC program", f"run it with 'asm6502 basic run {name}'")
    if want == "basic" and len(data) > 2:
        from asm6502.basic.tokenizer import detokenize

        return sniff_machine_code(data, name, detokenize(data, filename=name).text, "a BASIC program")
    return None


def _load_address(data: bytes) -> int:
    return int.from_bytes(data[:2], "little")


def sniff(data: bytes, name: str) -> Kind:
    """What a file is, from its bytes (and its name's suffix only where bytes cannot tell: a .d64):
    a disk image, a text (a BASIC listing, an MSE listing, or another text such as an assembler
    source), a BASIC program, or a machine-code program (any other bytes: a load address and code).
    A machine-code program with a BASIC start line (``10 SYS 2064``) is machine code."""
    disk = sniff_binary(data, name)
    if disk is not None and disk.name == "d64":
        return disk
    if looks_textual(data):
        text = data[:SAMPLE_CHARS * 4].decode("utf-8", errors="replace")
        kind = sniff_text(text, name, tokenized=False)
        if kind is not None:
            return Kind(kind.name, kind.what.partition(", not")[0], kind.hint)
        return Kind("text", "a text file (an assembler source?)",
                    f"assemble it with 'asm6502 {name}', or tokenize a BASIC listing with 'asm6502 basic tok {name}'")
    if len(data) > 6 and data[:2] == b"\x01\x08":
        from asm6502.basic.tokenizer import detokenize

        if looks_like_basic(detokenize(data, filename=name).text):
            return Kind("basic-prg", "a BASIC program",
                        f"list it with 'asm6502 basic list {name}', run it with 'asm6502 basic run {name}'")
    return Kind("machine-code", f"a machine-code program (loads at ${_load_address(data):04X})",
                f"run it with 'asm6502 run {name}', disassemble it with 'asm6502 disasm {name}'")
