"""Named tuples declared as a class of annotated fields, without importing ``typing``; and the
base of the slot records the assembler makes and reads most.

``typing.NamedTuple`` does the same, but importing ``typing`` and turning every
field's annotation into a ForwardRef costs the assembler command milliseconds of
its start-up, and the command's records are named tuples.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # (typing is not imported at run time: see above)
if TYPE_CHECKING:
    from typing import TypeVar, dataclass_transform

    _T = TypeVar("_T")

    @dataclass_transform()
    def named_tuple(cls: type[_T]) -> type[_T]:
        """(For the type checker: a class with a constructor of its fields, as a dataclass.)"""


class SlotRecord:
    """The base of the records the assembler makes and reads most (source lines, statements, decoded
    statements, layout entries): each is a class of ``__slots__`` with an ``__init__`` that stores
    its fields in order (reading a slot costs a third of reading a named tuple's field).  As named
    tuples, records compare and hash by their fields' values, and the repr shows them."""

    __slots__ = ()

    def __repr__(self) -> str:
        names: tuple[str, ...] = type(self).__slots__
        return f"{type(self).__name__}({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"

    def _values(self) -> tuple:
        names: tuple[str, ...] = type(self).__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self is other or self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())


def named_tuple(cls: type) -> type:  # type: ignore[no-redef]
    """The named tuple of ``cls``'s annotated fields (a field with a value has that default;
    as in a NamedTuple, the defaults come last); its methods, properties and docstring stay."""
    body = dict(cls.__dict__)
    names = tuple(body.get("__annotations__", {}))
    defaults = tuple(body[name] for name in names if name in body)
    made = namedtuple(cls.__name__, names, defaults=defaults, module=cls.__module__)  # type: ignore[misc]
    for key, value in body.items():
        if key not in names and key not in ("__dict__", "__weakref__", "__module__", "__slots__"):
            setattr(made, key, value)
    made.__qualname__ = cls.__qualname__
    return made
