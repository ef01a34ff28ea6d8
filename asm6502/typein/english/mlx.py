"""Compute!'s MLX ("Machine Language Editor"): machine code as numbered lines of bytes and a checksum.

**MLX** (Compute! 12/83, Compute!'s Gazette 12/83 on, until 1985): a line is the address in
decimal, then six bytes and the checksum in decimal, ``49152 :169,000,141,032,208,141,033``; the
checksum is the address's low byte plus the six bytes, modulo 256 (the program's line 500:
``CKSUM=AD-INT(AD/256)*256:FOR I=1 TO 6:CKSUM=(CKSUM+A(I))AND 255:NEXT``).  A sum: it cannot see
two bytes swapped.

**MLX II** ("The New MLX", Compute! 12/85 and Compute!'s Gazette 1/86 on, by Ottis R. Cowper): the
address in hex, eight bytes in hex, the checksum byte: ``C000:A9 37 85 FC A9 D7 85 FE 5B``.  From
the program's lines 370-390 (Gazette 6/90 reprint): start with the address's low byte plus twice
its high byte, less 255 when the high byte is above 127; for each byte double the value (less
255 when it was above 127) and add the byte; whenever the value passes 255, take 255 off.  Checked
on 5,158 lines of eleven programs Compute! and Gazette printed (tests/test_typein_english.py).

A listing says where the program starts and ends ("Starting address", "Ending address": what MLX
asks before the lines are typed); the last line is filled up to its full length with zeros
(MLX takes whole lines; it saves only up to the ending address).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asm6502.typein.confusion import char_cost

VERSIONS = ("1", "2")
PER_LINE = {"1": 6, "2": 8}
FILL = 0x00


def checksum(version: str, address: int, data: bytes) -> int:
    if version == "1":
        return ((address & 0xFF) + sum(data)) & 0xFF
    if version == "2":
        high = address >> 8
        value = address - 254 * high - (255 if high > 127 else 0)
        if value > 255:
            value -= 255
        for b in data:
            value = value * 2 - (255 if value > 127 else 0) + b
            if value > 255:
                value -= 255
        return value
    raise ValueError(f"MLX version must be 1 or 2, not {version}")


def format_line(version: str, address: int, data: bytes) -> str:
    value = checksum(version, address, data)
    if version == "1":
        return f"{address} :" + ",".join(f"{b:03d}" for b in (*data, value))
    return f"{address:04X}:" + " ".join(f"{b:02X}" for b in (*data, value))


def format_address(version: str, address: int) -> str:
    return str(address) if version == "1" else f"{address:04X}"


def write(version: str, prg: bytes, name: str = "") -> str:
    """The listing of a program: a header naming it, where it starts and ends, then the lines."""
    start = int.from_bytes(prg[:2], "little")
    data = prg[2:]
    n = PER_LINE[version]
    end = start + len(data) - 1
    rows = []
    if name:
        rows.append(name)
    rows += [f"Starting address: {format_address(version, start)}",
             f"Ending address: {format_address(version, end)}", ""]
    for at in range(0, len(data), n):
        chunk = data[at : at + n]
        rows.append(format_line(version, start + at, chunk + bytes([FILL]) * (n - len(chunk))))
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- reading
DIGITS = {"1": "0123456789", "2": "0123456789ABCDEF"}
_ADDRESS_HEADER = re.compile(r"(start|end)ing\s+address\s*[:;.]?\s*\$?([0-9A-Fa-f]{1,5})", re.IGNORECASE)
_LINE = {
    "1": re.compile(r"^\s*(?P<address>[0-9A-Za-z]{3,5})\s*[:;.]\s*(?P<rest>[0-9A-Za-z ,.;]+?)\s*$"),
    "2": re.compile(r"^\s*(?P<address>[0-9A-Za-z]{4})\s*[:;.]\s*(?P<rest>[0-9A-Za-z ]+?)\s*$"),
}


@dataclass(frozen=True)
class PrintedLine:
    row: int
    address: str
    fields: tuple[str, ...]  # the bytes and the checksum as printed (OCR may have damaged them)


def header(text: str, version: str) -> tuple[int | None, int | None]:
    """The listing's starting and ending address, where it names them."""
    found: dict[str, int] = {}
    for m in _ADDRESS_HEADER.finditer(text):
        try:
            value = int(m.group(2), 10 if version == "1" else 16)
        except ValueError:
            continue
        if value <= 0xFFFF:
            found.setdefault(m.group(1).lower(), value)
    return found.get("start"), found.get("end")


def address_readings(field: str, version: str) -> list[tuple[float, int]]:
    """The addresses a printed address may have been: the print (its damaged characters read as
    digits), then with one digit misread for a look-alike."""
    digits = DIGITS[version]
    base = 10 if version == "1" else 16
    mapped = ""
    cost = 0.0
    for c in field.upper():
        if c in digits:
            mapped += c
            continue
        near = sorted((char_cost(c, d), d) for d in digits if char_cost(c, d) <= 2.5)
        if not near:
            return []
        cost += near[0][0]
        mapped += near[0][1]
    out = [(cost, int(mapped, base))]
    for k, c in enumerate(mapped):
        for d in digits:
            if d != c and char_cost(c, d) <= 2.0:
                out.append((cost + char_cost(c, d), int(mapped[:k] + d + mapped[k + 1 :], base)))
    return sorted((c, a) for c, a in set(out) if a <= 0xFFFF)


def find_lines(text: str, version: str) -> list[PrintedLine]:
    n = PER_LINE[version] + 1
    out = []
    for row, line in enumerate(text.split("\n"), start=1):
        m = _LINE[version].match(line)
        if not m:
            continue
        rest = m.group("rest")
        if version == "1":
            fields = tuple(f for f in re.split(r"[,.;\s]+", rest) if f)
        else:
            parts = rest.split()
            joined = "".join(parts)
            fields = tuple(parts) if all(len(p) == 2 for p in parts) else tuple(joined[k : k + 2] for k in range(0, len(joined), 2))
        if len(fields) != n or any(len(f) > 3 for f in fields) or version == "1" and sum(c.isdigit() for c in m.group("address")) < 2:
            continue
        out.append(PrintedLine(row, m.group("address"), fields))
    return out


def readings(field: str, version: str, limit: float = 2.5) -> list[tuple[float, int]]:
    """The values a printed byte field may have been, likeliest first: each character that is
    not a digit of the version replaced by the digits it looks like (cost ≤ *limit*)."""
    digits = DIGITS[version]
    options: list[list[tuple[float, str]]] = []
    for c in field.upper():
        if c in digits:
            options.append([(0.0, c)])
        else:
            near = sorted((char_cost(c, d), d) for d in digits if char_cost(c, d) <= limit)
            if not near:
                return []
            options.append(near)
    out: list[tuple[float, str]] = [(0.0, "")]
    for opts in options:
        out = [(cost + c, text + d) for cost, text in out for c, d in opts]
    base = 10 if version == "1" else 16
    values = sorted((cost, int(text, base)) for cost, text in out if text)
    got = [(cost, v) for cost, v in values if v <= 255]
    if not got and all(c in digits for c in field.upper()):
        return slips(field, version, limit)  # '769': a byte with a digit misread
    return got


def slips(field: str, version: str, limit: float = 2.0) -> list[tuple[float, int]]:
    """The values a field of valid digits may have been with one digit misread for another
    (the look-alikes of the misreading model, cost ≤ *limit*)."""
    digits = DIGITS[version]
    base = 10 if version == "1" else 16
    out = []
    up = field.upper()
    for k, c in enumerate(up):
        for d in digits:
            if d != c and char_cost(c, d) <= limit:
                value = int(up[:k] + d + up[k + 1 :], base)
                if value <= 255:
                    out.append((char_cost(c, d), value))
    return sorted(set(out))
