"""Reading an operand's text as the original does: its items at commas outside quotes and brackets, a
string's PETSCII bytes (keys written in braces too), the keys it takes to type, the 50-key operand limit
(OVERFLOW) and where the original goes on after it, the indirect forms ``(e,x)``, ``(e),y``, ``(e)``, and
an instruction's addressing form (``addressing_form``).  (decode.py reads statements with these; the
listing counts keys with ``keys``.)"""

from __future__ import annotations

import re

from asm6502.opcodes import BRANCHES, ZERO_PAGE_FORM, Mode
from asm6502.patterns import LazyPattern
from asm6502.petscii import ascii_to_petscii, brace_code

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.asm.statements import Problem

OPERAND_LIMIT = 50  # an operand of more keys is the original's OVERFLOW (rules/operand_length_*)
INDEX = LazyPattern(r",\s*([xXyY])\s*$")
_BRACED = LazyPattern(r"\{[^{}]*\}")  # a key written in braces: {$93}, {clr} (petscii.brace_code reads it)
_QUOTED = LazyPattern(r'"[^"]*"?')
_BAD_COMMA = LazyPattern(r",(?![xy])")  # (a shifted X is no index: ": abc 1,X" is SYNTAX 2)
_BAD_INDEX = LazyPattern(r",\s*[A-Za-z]\s*$")
ABSOLUTE_FORM = {None: Mode.ABSOLUTE, "X": Mode.ABSOLUTE_X, "Y": Mode.ABSOLUTE_Y}


class OperandProblem(Exception):
    """An instruction's operand that no mode of its mnemonic takes: (message, offset, length)."""

    def __init__(self, message: str, offset: int | None = -1, length: int = 1):
        # offset -1: the whole operand; None: the mnemonic
        super().__init__(message)
        self.message, self.offset, self.length = message, offset, length


def keys(text: str) -> int:
    """The keys typed for ``text``: a key written in braces (``{$93}``, ``{clr}``) is one."""
    if "{" not in text:
        return len(text)
    return len(text) - sum(m.end() - m.start() - 1 for m in _BRACED.finditer(text) if brace_code(text, m.start()))


def texty(operand: str) -> bool:
    """A string of two characters or more, or a quote left open (it runs to the end of the
    line): what makes a real operand long (an expression of single-character constants is not)."""
    parts = operand.split('"')  # (the odd parts are quoted)
    return len(parts) % 2 == 0 or any(keys(part) >= 2 for part in parts[1::2])


def overflow_resume(text: str, operand_offset: int) -> int | None:
    """Where the original goes on after an OVERFLOW: its operand buffer holds 50 keys; it skips
    from there to the next ':' -- a quote left open makes ':' part of the operand -- and reads the
    statements after it (``eor #"`` + 48 characters + ``:inx:lda x``: INX, LDA; + 47: LDA only;
    rules/overflow_resume_*, fuzz seeds 144, 695, 813).  The index in ``text`` after that ':', or None."""
    count = 0
    j = operand_offset
    n = len(text)
    while j < n and count < OPERAND_LIMIT:
        if text[j] == "{":
            m = _BRACED.match(text, j)
            if m is not None and brace_code(text, j):
                j = m.end()
                count += 1
                continue
        j += 1
        count += 1
    colon = text.find(":", j)
    return None if colon < 0 else colon + 1


def overflow(operand: str, offset: int) -> Problem:
    """An operand longer than the original's buffer: it reports OVERFLOW and assembles nothing
    (``lda #"`` + 47 characters + ``"``, 51 keys; an unclosed quote runs to the end of the line).
    The project holds to it where a string or an open quote makes the operand long; a long
    expression is assembled with a warning (a deviation, README; rules/operand_length_*)."""
    lead = len(operand) - len(operand.lstrip())
    stripped = operand.strip()
    return (f"an operand of {keys(stripped)} characters: the original takes at most {OPERAND_LIMIT} [OVERFLOW]", offset + lead, len(stripped))


def petscii(body: str, offset: int) -> tuple[bytes, tuple[Problem, ...]]:
    """A string's PETSCII bytes, or b"" and an error for each character that has no code.
    ``{$hh}`` is the character with code hh (a key typed on the C64 in quote mode, as petcat
    writes it); petcat's names (``{clr}``, ``{CBM-R}``: a tokenized source as it is listed) too."""
    if "{" in body:
        out = bytearray()
        pos = 0
        for m in _BRACED.finditer(body):
            code = brace_code(body, m.start())
            if code is None:
                continue
            data, problems = petscii(body[pos : m.start()], offset + pos)
            if problems:
                return b"", problems
            out += data
            out.append(code[0])
            pos = m.end()
        data, problems = petscii(body[pos:], offset + pos)
        return (bytes(out + data), ()) if not problems else (b"", problems)
    try:
        return ascii_to_petscii(body), ()
    except ValueError:
        missing = []
        for i, ch in enumerate(body):
            try:
                ascii_to_petscii(ch)
            except ValueError:
                missing.append((f"character {ch!r} has no PETSCII code", offset + i, 1))
        return b"", tuple(missing)


def split_commas(text: str, offset: int) -> list[tuple[str, int]]:
    """Split at commas outside quotes and brackets; returns (item, offset of the item)."""
    if '"' not in text and "(" not in text and "[" not in text:
        items = []
        start = offset
        if " " not in text and text.isprintable():  # (no white space to strip: '$52,<l35,>l35')
            for raw in text.split(","):
                items.append((raw, start))
                start += len(raw) + 1
            return items
        for raw in text.split(","):
            lead = len(raw) - len(raw.lstrip())
            items.append((raw.strip(), start + lead))
            start += len(raw) + 1
        return items
    items = []
    depth = 0
    in_quote = False
    start = 0
    for i, ch in enumerate(text + ","):
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and ch in "([":
            depth += 1
        elif not in_quote and ch in ")]":
            depth -= 1
        elif ch == "," and not in_quote and depth <= 0 or i == len(text):
            raw = text[start:i]
            lead = len(raw) - len(raw.lstrip())
            items.append((raw.strip(), offset + start + lead))
            start = i + 1
    return items


def indirect_form(operand: str) -> tuple[Mode, str, int] | None:
    """Recognise ``(e,x)``, ``(e),y`` and ``(e)``; None for any other operand."""
    depth = 0
    in_quote = False
    close = -1
    for i, ch in enumerate(operand):
        if ch == '"':
            in_quote = not in_quote
        elif in_quote:
            continue
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                close = i
                break
    if close == -1:
        return None
    inner = operand[1:close]
    after = operand[close + 1 :].strip()
    if after == "":
        mx = INDEX.search(inner)
        if mx and mx.group(1).upper() == "X":
            return Mode.INDEXED_INDIRECT, inner[: mx.start()], 1
        return Mode.INDIRECT, inner, 1
    if re.fullmatch(r",\s*[yY]", after):
        return Mode.INDIRECT_INDEXED, inner, 1
    if re.fullmatch(r",\s*[xX]", after):  # '(e),x': the original reads it as (e,x) (oracle: syntax_indirect_x_suffix)
        return Mode.INDEXED_INDIRECT, inner, 1
    return None


def comma_not_index(text: str) -> bool:
    """A ',' outside quotes that is not followed by an index register."""
    return _BAD_COMMA.search(_QUOTED.sub("", text)) is not None


def addressing_form(mnemonic: str, modes: dict[Mode, int], operand: str, lead: int, operandless: bool):
    """(form, mode, opcode, zero-page opcode, expression text, its offset, advice) of an instruction's operand
    (stripped; ``lead``: the blanks before it) with the mnemonic's modes: form "fixed", "immediate", "indirect",
    "branch" or "address"; advice None or (a warning, offset, length) for an operand the original reads otherwise
    than it looks.  Raises OperandProblem."""
    if not operand or (operand.lower() == "a" and Mode.ACCUMULATOR in modes):
        for mode in (Mode.IMPLIED, Mode.ACCUMULATOR):
            if mode in modes:
                return "fixed", mode, modes[mode], -1, "", 0, None
        raise OperandProblem(f"{mnemonic} needs an operand [UNDEF'D STATEMENT]", None, len(mnemonic))
    if operandless:
        raise OperandProblem(f"{mnemonic} takes no operand [SYNTAX 9]")
    if operand[0] == "#":
        if Mode.IMMEDIATE not in modes:
            raise _no_mode(mnemonic, modes, "immediate")
        return "immediate", Mode.IMMEDIATE, modes[Mode.IMMEDIATE], -1, operand[1:], lead + 1, None
    if operand[0] == "(":
        indirect = indirect_form(operand)
        if indirect is not None and (mnemonic == "JMP" or indirect[0] != Mode.INDIRECT):
            mode, inner, inner_offset = indirect
            if mode not in modes:
                raise _no_mode(mnemonic, modes, mode.label)
            if mode is Mode.INDEXED_INDIRECT and not operand.endswith(")"):  # '(e),x', not '(e,x)'
                advice = (
                    f"'{operand}' is read as '({inner.strip()},x)', as the original Profi-Ass reads it "
                    f"(the index inside the brackets); write '({inner.strip()},x)'",
                    lead,
                    len(operand),
                )
                return "indirect", mode, modes[mode], -1, inner, lead + inner_offset, advice
            return "indirect", mode, modes[mode], -1, inner, lead + inner_offset, None
    index = None
    body = operand
    mi = INDEX.search(operand) if "," in operand else None
    if mi:
        if mi.start(1) > mi.start() + 1:  # 'lda $1234, x': the original wants the index right after ','
            raise OperandProblem("no blank between ',' and the index register: ',x' [SYNTAX 2]", lead + mi.start(), mi.end() - mi.start())
        index = mi.group(1).upper()
        body = operand[: mi.start()].rstrip()
    elif (_BAD_INDEX.search(operand) or operand.endswith(",")) and '"' not in operand:  # ('lda $1234,': rules/index_missing_*)
        raise OperandProblem("an index is ',x' or ',y' [SYNTAX 2]")
    elif "," in operand and comma_not_index(operand):
        # a ',' outside quotes not followed by the index: SYNTAX 2 before anything else the operand
        # holds ('lda 1 2,3', 'and .byt "0", 1', 'lda .x,1', 'and "0",1': rules/comma_not_index_*)
        raise OperandProblem("an index is ',x' or ',y' [SYNTAX 2]")
    if mnemonic in BRANCHES and Mode.RELATIVE in modes:
        if index:
            raise _no_mode(mnemonic, modes, "indexed")
        return "branch", Mode.RELATIVE, modes[Mode.RELATIVE], -1, body, lead, None
    absolute = ABSOLUTE_FORM[index]
    zero_page = ZERO_PAGE_FORM[absolute]
    if absolute not in modes and zero_page not in modes:
        raise _no_mode(mnemonic, modes, absolute.label)
    return "address", absolute, modes.get(absolute, -1), modes.get(zero_page, -1), body, lead, None


def _no_mode(mnemonic: str, modes: dict, what: str) -> OperandProblem:
    return OperandProblem(f"{mnemonic} has no {what} mode (it has: {', '.join(m.label for m in modes)}) [SYNTAX 9]")
