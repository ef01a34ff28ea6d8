"""Only the gate (asm6502/fileio.py) touches the file system: no other module of the package opens,
writes, renames, removes or creates a file or folder. A new command that writes a file without
the gate fails here, naming the line.

The scan reads the syntax tree, so a call spelled in a comment or a string does not count and
every spelling of a call does (``open(...)``, ``os.replace``, ``Path.write_text``, ``shutil.copy``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import ROOT

PACKAGE = ROOT / "asm6502"
GATE = PACKAGE / "fileio.py"

# module.function calls that reach the file system
MODULE_CALLS = {
    "os": {"open", "replace", "rename", "renames", "remove", "unlink", "rmdir", "removedirs", "mkdir", "makedirs",
           "dup2", "fdopen", "truncate", "symlink", "link", "chmod", "chown", "mkfifo", "utime", "write"},
    "io": {"open", "FileIO"},
    "shutil": {"copy", "copy2", "copyfile", "copytree", "move", "rmtree", "copymode", "copystat"},
    "tempfile": {"TemporaryDirectory", "TemporaryFile", "NamedTemporaryFile", "mkstemp", "mkdtemp",
                 "SpooledTemporaryFile"},
}
# pathlib methods that read or write a file (names no other object of the package uses)
PATH_METHODS = {"write_text", "write_bytes", "read_text", "read_bytes", "open", "touch", "mkdir", "unlink",
                "rmdir", "symlink_to", "hardlink_to", "chmod", "rename"}


def offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        if isinstance(func, ast.Name) and func.id == "open":
            found.append(f"{where}: open()")
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if owner in MODULE_CALLS and func.attr in MODULE_CALLS[owner]:
                found.append(f"{where}: {owner}.{func.attr}()")
            elif owner not in MODULE_CALLS and func.attr in PATH_METHODS:
                found.append(f"{where}: .{func.attr}()")
    return found


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p != GATE)


def test_the_scan_sees_every_module():
    assert len(modules()) > 50 and (PACKAGE / "cli" / "assemble.py") in modules()


@pytest.mark.parametrize("snippet", [
    "open('x', 'w')", "open(name)", "os.replace(a, b)", "Path(p).write_text(t)", "p.read_bytes()",
    "shutil.copy(a, b)", "tempfile.mkstemp()", "os.open(p, os.O_WRONLY)", "target.parent.mkdir(parents=True)",
])
def test_the_scan_finds_each_spelling(tmp_path, snippet):
    """The scan is no test that cannot fail: each kind of call is found."""
    module = tmp_path / "m.py"
    module.write_text(f"import os, shutil, tempfile\nfrom pathlib import Path\n\n\ndef f(a, b, p, t, name, target):\n    {snippet}\n")
    original = globals()["ROOT"]
    try:
        globals()["ROOT"] = tmp_path
        assert len(offences(module)) == 1
    finally:
        globals()["ROOT"] = original


def test_only_the_gate_touches_the_file_system():
    found = [line for module in modules() for line in offences(module)]
    assert found == [], "file-system calls outside asm6502/fileio.py (use fileio.Files):\n" + "\n".join(found)
