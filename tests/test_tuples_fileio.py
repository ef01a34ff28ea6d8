"""asm6502/tuples.py (named tuples without typing, the slot records' value semantics) and fileio.write_atomic's own temporary file."""

from __future__ import annotations

import os
import stat

import pytest

from asm6502.fileio import write_atomic
from asm6502.tuples import SlotRecord, named_tuple


@named_tuple
class Point:
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, dx: int) -> Point:
        return self._replace(x=self.x + dx)


@pytest.mark.parametrize(
    "args, kwargs, fields",
    [
        ((1,), {}, (1, 0, None)),
        ((1, 2), {}, (1, 2, None)),
        ((1, 2, "a"), {}, (1, 2, "a")),
        ((), {"x": 3, "label": "b"}, (3, 0, "b")),
    ],
)
def test_named_tuple_fields_and_defaults(args, kwargs, fields):
    p = Point(*args, **kwargs)
    assert tuple(p) == fields and (p.x, p.y, p.label) == fields
    assert Point._fields == ("x", "y", "label")


def test_named_tuple_keeps_methods_docstring_and_name():
    p = Point(-2, 3)
    assert p.norm1 == 5 and p.moved(5) == Point(3, 3)
    assert Point.__doc__ == "A point." and Point.__qualname__ == "Point" and Point.__module__ == __name__
    assert repr(p) == "Point(x=-2, y=3, label=None)"
    with pytest.raises(AttributeError):
        p.z = 1  # (no instance dict: as small as a tuple)


class Cell(SlotRecord):
    """A cell."""

    __slots__ = ("row", "text")

    def __init__(self, row: int, text: str) -> None:
        self.row = row
        self.text = text

    def shown(self) -> str:
        return f"{self.row}:{self.text}"


def test_slot_record_fields_methods_and_value_semantics():
    c = Cell(2, "x")
    assert (c.row, c.text, c.shown()) == (2, "x", "2:x")
    assert repr(c) == "Cell(row=2, text='x')"
    assert c == Cell(2, "x") and c != Cell(3, "x") and hash(c) == hash(Cell(2, "x"))
    assert (c == (2, "x")) is False  # (not a tuple)
    with pytest.raises(AttributeError):
        c.other = 1  # (slots only)


@pytest.mark.parametrize("data", [b"\x00\x01\xff", "text\n\u00e4\n"])
def test_write_atomic_writes_and_leaves_no_temporary_file(tmp_path, data):
    target = tmp_path / "sub" / "out.bin"
    target.parent.mkdir()  # (the output rule creates no folders)
    write_atomic(target, data)
    assert target.read_bytes() == (data.encode("utf-8") if isinstance(data, str) else data)
    assert sorted(p.name for p in target.parent.iterdir()) == ["out.bin"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # as a plain open() would make it


def test_write_atomic_a_taken_temporary_name_is_skipped(tmp_path):
    (tmp_path / f".asm6502.{os.getpid()}.0.tmp").write_bytes(b"someone else's")
    write_atomic(tmp_path / "out.bin", b"ours")
    assert (tmp_path / "out.bin").read_bytes() == b"ours"
    assert (tmp_path / f".asm6502.{os.getpid()}.0.tmp").read_bytes() == b"someone else's"
