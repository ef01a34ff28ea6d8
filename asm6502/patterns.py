"""Regular expressions compiled at their first use.

Compiling a pattern costs a tenth of a millisecond or more, and a command compiles every
module-level pattern of the modules it imports at each start.  The patterns most runs never
use (a CR line end, an OPEN before the start line, a '.file', a label file ...) are made
``LazyPattern``s: compiled when first used, then as fast as the compiled pattern's methods.
"""

from __future__ import annotations

import re

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "split", "sub")


class LazyPattern:
    """``re.compile(source, flags)``, done at the first use of a method."""

    __slots__ = ("_source", "_flags") + _METHODS

    def __init__(self, source: str, flags: int = 0):
        self._source, self._flags = source, flags

    def __getattr__(self, name: str):  # (called only while the method slots are empty: the first use)
        if name.startswith("_"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)
