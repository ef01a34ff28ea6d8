"""Named tuples declared as a class of annotated fields, without importing ``typing``; and slot
records, declared the same way, for the records the assembler makes and reads most.

``typing.NamedTuple`` does the same, but importing ``typing`` and turning every
field's annotation into a ForwardRef costs the assembler command milliseconds of
its start-up, and the command's records are named tuples.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # (typing is not imported at run time: see above)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, TypeVar, dataclass_transform

    _T = TypeVar("_T")

    @dataclass_transform()
    def named_tuple(cls: type[_T]) -> type[_T]:
        """(For the type checker: a class with a constructor of its fields, as a dataclass.)"""

    def slot_record(cls: type[_T]) -> type[_T]:
        """(For the type checker: the class as declared, with SlotRecord's ``make``.)"""


class SlotRecord:
    """The base of every slot record (for the type checker: ``make`` and ``_fields``)."""

    __slots__ = ()
    if TYPE_CHECKING:
        make: ClassVar[Callable[..., Any]]
        _fields: ClassVar[tuple[str, ...]]


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


def slot_record(cls: type) -> type:  # type: ignore[no-redef]
    """A class of ``cls``'s annotated fields kept in slots, made positionally by ``cls.make(...)``.

    For the records made and read most (source lines, statements, decoded statements): reading a
    slot costs a third of reading a named tuple's field, and ``make`` (the type's call and a
    store per field, written out once here) a little less than ``tuple.__new__`` for a named tuple.
    As named tuples, records compare and hash by their fields' values; ``_fields`` names the fields in
    order, and the repr shows them."""
    body = dict(cls.__dict__)
    names = tuple(body.get("__annotations__", {}))
    if any(name in body for name in names):
        raise TypeError(f"{cls.__name__}: a slot record's fields have no defaults")
    for key in ("__dict__", "__weakref__", "__annotations__"):
        body.pop(key, None)
    body["__slots__"] = names
    body["_fields"] = names
    body["__repr__"] = _record_repr
    body["__eq__"] = _record_eq
    body["__hash__"] = _record_hash
    made = type(cls.__name__, (SlotRecord,), body)
    made.__qualname__ = cls.__qualname__
    # (the generated function: one store per field, no loop; 'cls()' -- the type's own call, no
    # __init__ -- costs fewer instructions than 'object.__new__(cls)', whose wrapper builds an
    # argument tuple for every record)
    source = f"def make({', '.join(names)}):\n    record = cls()\n" + "".join(f"    record.{n} = {n}\n" for n in names) + "    return record\n"
    scope = {"cls": made}
    exec(source, scope)
    made.make = staticmethod(scope["make"])  # type: ignore[attr-defined,arg-type]
    return made


def _record_repr(record) -> str:
    return f"{type(record).__name__}({', '.join(f'{name}={getattr(record, name)!r}' for name in record._fields)})"


def _values(record) -> tuple:
    return tuple(getattr(record, name) for name in record._fields)


def _record_eq(record, other):
    if type(other) is not type(record):
        return NotImplemented
    return record is other or _values(record) == _values(other)


def _record_hash(record) -> int:
    return hash(_values(record))
