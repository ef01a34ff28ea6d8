"""BASIC V2 variables and arrays.

Names keep two significant characters ($45/$46 hold two bytes); the type
comes from the suffix: none = float (5 bytes), ``%`` = integer
(-32768..32767), ``$`` = string (up to 255 bytes).  Arrays spring into
existence on first use with every dimension 0..10 ($B286 LDX #$0B);
DIM of an existing array is ?REDIM'D ARRAY, a subscript past the bound or a
wrong number of subscripts is ?BAD SUBSCRIPT.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import BasicError, Err

FLOAT, INTEGER, STRING = "", "%", "$"
DEFAULT_BOUND = 10

Key = tuple[str, str]  # (two-character name, type suffix)


def default_value(kind: str):
    return b"" if kind == STRING else 0.0 if kind == FLOAT else 0


@dataclass
class Array:
    kind: str
    bounds: tuple[int, ...]  # highest index of each dimension
    data: list = field(default_factory=list)

    @classmethod
    def create(cls, kind: str, bounds: tuple[int, ...]) -> Array:
        size = 1
        for b in bounds:
            size *= b + 1
        return cls(kind, bounds, [default_value(kind)] * size)

    def offset(self, indices: list[int]) -> int:
        if len(indices) != len(self.bounds):
            raise BasicError(Err.BAD_SUBSCRIPT)
        offset = 0
        # the ROM stores the first subscript fastest-varying ($B2EA..)
        for index, bound in zip(reversed(indices), reversed(self.bounds)):
            if index > bound:
                raise BasicError(Err.BAD_SUBSCRIPT)
            offset = offset * (bound + 1) + index
        return offset
