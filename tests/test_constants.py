"""opcodes.Access and diagnostics.Severity are plain classes of a few constants (not Enums: start-up,
bench/startup.py): each constant is one object, through a copy and a pickle too, and a Severity is the
str of its value and shows as the Enum member it stands for would."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from asm6502.diagnostics import Severity
from asm6502.opcodes import Access

CONSTANTS = [(Access, "READ", "read"), (Access, "WRITE", "write"), (Access, "RMW", "read-modify-write"),
             (Access, "OTHER", "other"), (Severity, "ERROR", "error"), (Severity, "WARNING", "warning"),
             (Severity, "NOTE", "note")]


@pytest.mark.parametrize(("kind", "name", "value"), CONSTANTS)
def test_one_object_each(kind, name, value):
    constant = getattr(kind, name)
    assert (constant.name, constant.value, repr(constant)) == (name, value, f"<{kind.__name__}.{name}: {value!r}>")
    for same in (copy.copy(constant), copy.deepcopy(constant), pickle.loads(pickle.dumps(constant)),
                 copy.deepcopy({"k": [constant]})["k"][0]):
        assert same is constant
    assert sum(getattr(kind, other) is constant for _k, other, _v in CONSTANTS if _k is kind) == 1


@pytest.mark.parametrize("name", ["ERROR", "WARNING", "NOTE"])
def test_a_severity_is_the_str_of_its_value(name):
    severity = getattr(Severity, name)
    assert severity == name.lower() and hash(severity) == hash(name.lower()) and isinstance(severity, str)
    assert (str(severity), f"{severity}", json.dumps(severity)) == (f"Severity.{name}", f"Severity.{name}", f'"{name.lower()}"')
    assert type(severity.value) is str


def test_severities_order_as_their_values():
    assert sorted([Severity.WARNING, Severity.NOTE, Severity.ERROR]) == [Severity.ERROR, Severity.NOTE, Severity.WARNING]
