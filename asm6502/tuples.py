"""Named tuples declared as a class of annotated fields, without importing ``typing``.

``typing.NamedTuple`` does the same, but importing ``typing`` and turning every
field's annotation into a ForwardRef costs the assembler command milliseconds of
its start-up, and the command's records are named tuples.
"""

from __future__ import annotations

from collections import namedtuple


def named_tuple(cls: type) -> type:
    """The named tuple of ``cls``'s annotated fields (a field with a value has that default;
    as in a NamedTuple, the defaults come last); its methods, properties and docstring stay."""
    body = dict(cls.__dict__)
    names = tuple(body.get("__annotations__", {}))
    defaults = tuple(body[name] for name in names if name in body)
    made = namedtuple(cls.__name__, names, defaults=defaults, module=cls.__module__)
    for key, value in body.items():
        if key not in names and key not in ("__dict__", "__weakref__", "__module__", "__slots__"):
            setattr(made, key, value)
    made.__qualname__ = cls.__qualname__
    return made
