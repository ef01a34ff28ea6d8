"""Symbol-table files as the original's ``.sst`` writes them and ``.lst`` reads them.

Format (worked out from files the original wrote, tests/fixtures/profiass_core/sst_names.*
and tests/fixtures/profiass/listing/listing_sst): one record per symbol, in the order
of definition, no header or end mark::

    name[1:] reversed (PETSCII)   code = (first letter - 'A') * 8 + (length - 1)   value (high, low)

e.g. ``ab = $1234`` is ``42 01 12 34`` and ``z = 5`` is ``C8 00 05``.  The code byte
says how many name characters precede it, so a file is read from its end.
"""

from __future__ import annotations

from asm6502.petscii import ascii_to_petscii, petscii_to_ascii


def write_symbols(table: list[tuple[str, int]]) -> bytes:
    out = bytearray()
    for name, value in table:
        name = name.lower()[:8]
        if not ("a" <= name[:1] <= "z") or ":" in name:
            continue  # (macro-local labels are not written)
        out += ascii_to_petscii(name[1:][::-1])
        out.append((ord(name[0]) - ord("a")) * 8 + len(name) - 1)
        out += (value & 0xFFFF).to_bytes(2, "big")
    return bytes(out)


def read_symbols(data: bytes) -> list[tuple[str, int]]:
    """The (name, value) records of a file written by ``.sst``, in the file's order."""
    out = []
    end = len(data)
    while end > 0:
        if end < 3:
            raise ValueError(f"not a Profi-Ass symbol table: {end} byte(s) left over at the start")
        value = int.from_bytes(data[end - 2 : end], "big")
        code = data[end - 3]
        length = (code & 7) + 1
        first = code >> 3
        start = end - 3 - (length - 1)
        if first > 25 or start < 0:
            raise ValueError(f"not a Profi-Ass symbol table: bad record before offset {end}")
        rest = petscii_to_ascii(data[start : end - 3][::-1])
        out.append((chr(ord("a") + first) + rest, value))
        end = start
    return out[::-1]
