"""Symbol-table files written by ``.sst`` and read by ``.lst``.

The original writes its internal symbol table to a disk file; this project
writes the same information -- every symbol with its 16-bit value, in the
order of definition -- as a sequential file of PETSCII text lines
``NAME=$HHHH`` (carriage return after each, as a C64 SEQ file), which
``.lst`` reads back.
"""

from __future__ import annotations

import re

_LINE = re.compile(r"([A-Za-z][A-Za-z0-9.:]*)=\$([0-9A-Fa-f]{1,4})\Z")


def write_symbols(table: list[tuple[str, int]]) -> bytes:
    return "".join(f"{name.upper()}=${value:04X}\r" for name, value in table).encode("ascii")


def read_symbols(data: bytes) -> list[tuple[str, int]]:
    out = []
    for number, raw in enumerate(data.decode("latin-1").replace("\n", "\r").split("\r"), 1):
        text = raw.strip()
        if not text:
            continue
        m = _LINE.match(text)
        if m is None:
            raise ValueError(f"line {number} is not NAME=$HHHH: {text[:30]!r}")
        out.append((m.group(1).lower(), int(m.group(2), 16)))
    return out
