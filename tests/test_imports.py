"""The package's import graph: no circles, and no import inside a function except the lazy ones
listed here, each with the start-up time it saves (or the reason it cannot be at the top).

Measured with ``python -X importtime`` (best of 3, after ``asm6502.cli``, ``asm6502.diagnostics``
and ``asm6502.fileio`` are loaded, 2 shared cores, 2026-12-01): asm6502.asm 22 ms, tqdm 30 ms,
asm6502.basic.tokenizer 14 ms, asm6502.basic.interpreter 13 ms, asm6502.d64 13 ms, asm6502.typein.mselisting
12 ms, asm6502.emu.harness 11.5 ms, asm6502.typein.cslisting.checksum 10 ms, asm6502.cli.assemble 2.7 ms,
intelhex 2.2 ms, asm6502.asm.listing 1.5 ms, threading 1.4 ms, difflib 0.7 ms.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "asm6502"

# (importing module, imported module) -> why the import waits until the function runs
LAZY = {
    ("asm6502.asm.pipeline", "asm6502.basic.tokenizer"): "14 ms; only for the .opt o buffer's room (the program's tokenized size)",
    ("asm6502.asm.files", "asm6502.basic.tokenizer"): "14 ms; only for a tokenized (.prg) source",
    ("asm6502.asm.files", "asm6502.d64"): "13 ms; only with --disk",
    ("asm6502.asm.decode", "difflib"): "0.7 ms; only to name the mnemonic a typo was meant to be",
    ("asm6502.asm.decode", "asm6502.basic.interpreter.numbers"): "13 ms; only for .flp",
    ("asm6502.output", "intelhex"): "2.2 ms; only for --format hex",
    ("asm6502.filetype", "asm6502.basic.tokenizer"): "14 ms; only when a file looks like a BASIC program",
    ("asm6502.filetype", "asm6502.typein.cslisting.layout"): "5.4 ms; only when lines end as Checksummer values do",
    ("asm6502.fileio", "signal"): "only while outputs are renamed into place, on an interpreter without _signal",
    ("asm6502.fileio", "glob"): "only to clean up after a failed write",
    ("asm6502.emu.superhirn", "threading"): "1.4 ms; only for a run with a time limit",
    ("asm6502.typein.cslisting.checksum", "asm6502.basic.tokenizer"): "14 ms; the checksum of one line needs no tokenizer",
    ("asm6502.basic.interpreter.machine_code", "asm6502.emu.harness"): "11.5 ms (py65); only when BASIC calls machine code",
    ("asm6502.cli", "difflib"): "0.7 ms; only for a misspelled command",
    ("asm6502.cli", "asm6502.cli.base"): "with the gate (fileio, diagnostics); --version answers without them (callgrind: "
                                         "92 M instructions in all, python -c pass 87 M)",
    ("asm6502.cli.assemble", "asm6502.cli.common"): "argparse: 15 M instructions (callgrind) with the parser made and gettext's "
                                                    "look-ups; only for --help and a command line read_plain leaves to argparse",
    ("asm6502.cli.base", "argparse"): "only while argparse reads a value (loaded by then)",
    ("asm6502.fileio", "_signal"): "only while outputs are renamed into place (signal.py's enums: 3 M instructions more)",
    ("asm6502.cli", "asm6502.cli.assemble"): "2.7 ms; a sub-command does not need the assembler's parser",
    ("asm6502.cli", "asm6502.asm.pipeline"): "asm6502.asm, 22 ms; a sub-command does not need the assembler",
    ("asm6502.cli.assemble", "asm6502.basic.tokenizer"): "14 ms; only for a tokenized (.prg) source",
    ("asm6502.cli.assemble", "asm6502.debuginfo"): "0.3 ms; only with --debug-info",
    ("asm6502.cli.assemble", "asm6502.asm.listing"): "1.5 ms; only for --listing-format profi",
    ("asm6502.cli.assemble", "asm6502.typein.mselisting"): "12 ms; only with --mse",
    ("asm6502.cli.basic", "asm6502.basic.tokenizer"): "14 ms; 'basic run' of a .prg does not tokenize",
    ("asm6502.cli.basic", "asm6502.typein.cslisting.checksum"): "10 ms; only for 'basic checksum'",
    ("asm6502.cli.basic_common", "asm6502.basic.case"): "with the tokenizer: 'basic run' of a .prg does not tokenize",
    ("asm6502.cli.basic_common", "asm6502.basic.tokenizer"): "14 ms; 'basic run' of a .prg does not tokenize",
    ("asm6502.cli.basic_run", "asm6502.basic.interpreter"): "13 ms; 'basic tok/list/checksum' do not run BASIC",
    ("asm6502.cli.basic_run", "os"): "with termios: the terminal's keys, POSIX only",
    ("asm6502.cli.basic_run", "select"): "with termios: the terminal's keys, POSIX only",
    ("asm6502.cli.basic_run", "termios"): "POSIX only (no such module on Windows)",
    ("asm6502.cli.basic_run", "tty"): "POSIX only (no such module on Windows)",
    ("asm6502.cli.verify", "tqdm"): "30 ms; only for the progress bar of a long run",
    ("asm6502.cli.typein", "tqdm"): "30 ms; only for the progress bar of a scan, on a terminal",
    ("asm6502.build", "asm6502.asm"): "asm6502.asm, 22 ms; a build loads the modules of its rules only",
    ("asm6502.build", "asm6502.output"): "with asm6502.asm (22 ms); a build loads the modules of its rules only",
    ("asm6502.build", "asm6502.typein.mselisting"): "12 ms; a build loads the modules of its rules only",
    ("asm6502.build", "asm6502.basic.tokenizer"): "14 ms; a build loads the modules of its rules only",
    ("asm6502.build", "asm6502.typein.cslisting.checksum"): "10 ms; a build loads the modules of its rules only",
    ("asm6502.build", "asm6502.d64"): "13 ms; a build loads the modules of its rules only",
    ("asm6502.cli.basic", "asm6502.typein.cslisting.read"): "33 ms; only for 'basic read'",
    ("asm6502.cli.basic", "asm6502.typein.cslisting.accept"): "loads typein.cslisting.read (33 ms), the stage after it; only for 'basic read'",
    ("asm6502.cli.publish", "asm6502.emu.c64.roms"): "with emu.c64.session (32 ms): only for 'publish --roms'",
    ("asm6502.cli.publish", "asm6502.emu.c64.screen"): "14 ms; only for 'publish --screenshot'",
    ("asm6502.cli.publish", "asm6502.emu.c64.session"): "32 ms (the whole C64); only for 'publish --screenshot'",
    ("asm6502.cli.publish", "asm6502.d64"): "13 ms; only for 'publish --d64'",
    ("asm6502.cli.publish", "asm6502.emu.harness"): "11.5 ms (py65); only for 'publish --screenshot' on the stub ROMs",
    ("asm6502.cli.publish", "asm6502.disasm.basic_stub"): "with the disassembler (25 M instructions, callgrind); only for "
                                                         "'publish --screenshot' on the stub ROMs (a BASIC start line's SYS)",
    ("asm6502.cli.run", "asm6502.disasm.basic_stub"): "with the disassembler (25 M instructions, callgrind); only for "
                                                     "'run' on the stub ROMs without --sys (a BASIC start line's SYS)",
    ("asm6502.cli.basic_run", "asm6502.emu.c64.roms"): "with emu.c64.session (32 ms): only for 'basic run --rom'",
    ("asm6502.cli.basic_run", "asm6502.emu.c64.screen"): "14 ms; only for 'basic run --rom'",
    ("asm6502.cli.basic_run", "asm6502.emu.c64.session"): "32 ms (the whole C64); only for 'basic run --rom'",
    ("asm6502.cli.basic_run", "asm6502.emu.harness"): "11.5 ms (py65); only for 'basic run --rom'",
    ("asm6502.cli.convert", "asm6502.convert.check"): "6.2 ms; only with --check",
    ("asm6502.cli.mse", "asm6502.cli.type_mse"): "2.4 ms; only for 'mse type'",
    ("asm6502.cli.typein", "asm6502.d64"): "13 ms; only with 'typein scan --d64'",
    ("asm6502.typein.plain", "asm6502.asm.pipeline"): "asm6502.asm, 22 ms; only for a Profi-Ass listing found",
    ("asm6502.cli.basic", "asm6502.cli.review"): "the review's terminal loop; only for 'basic read --review'",
    ("asm6502.cli.basic", "asm6502.typein.cslisting.review"): "loads typein.cslisting.read (33 ms); only for 'basic read --review'",
    ("asm6502.cli.mse", "asm6502.cli.review"): "the review's terminal loop; only for 'mse read --review'",
    ("asm6502.cli.mse", "asm6502.typein.mselisting.review"): "the review's MSE side; only for 'mse read --review'",
    ("asm6502.cli.run", "asm6502.cli.run_c64"): "1.5 ms; only when the ROM images are found",
    ("asm6502.cli.run_c64", "select"): "with termios: the terminal's keys, POSIX only",
    ("asm6502.cli.run_c64", "termios"): "POSIX only (no such module on Windows)",
    ("asm6502.cli.run_c64", "tty"): "POSIX only (no such module on Windows)",
    ("asm6502.cli.type_basic", "asm6502.basic.tokenizer"): "14 ms; only while a listing is typed ('basic tok' does not import this module's body)",
    ("asm6502.cli.type_basic", "asm6502.cli.type_loop"): "4.1 ms; only while a listing is typed",
    ("asm6502.cli.type_basic", "asm6502.typein.basic"): "35 ms; only while a listing is typed",
    ("asm6502.cli.type_loop", "readline"): "importing it changes how the terminal reads lines: only in a typing session",
    ("asm6502.cli.type_mse", "asm6502.cli.type_loop"): "4.1 ms; only while a listing is typed",
    ("asm6502.cli.type_mse", "asm6502.typein.mse"): "14 ms; only while a listing is typed",
    ("asm6502.cli.verify", "asm6502.emu.c64.roms"): "with emu.c64.session (32 ms): only when the ROM images are found",
    ("asm6502.cli.verify", "asm6502.emu.c64.session"): "32 ms; only when the ROM images are found",
    ("asm6502.emu.superhirn", "asm6502.emu.c64.session"): "32 ms; only on the whole C64 (ROM images found)",
    ("asm6502.fileio", "asm6502.filetype"): "1.7 ms; fileio serves every command, only some tell file kinds apart",
    ("asm6502.fileio", "tempfile"): "3.3 ms; only for a temporary file",
    ("asm6502.asm.encode", "difflib"): "0.7 ms; only to name the symbol a typo was meant to be",
    ("asm6502.cli.completion", "asm6502.cli.assemble"): "2.7 ms; the script is made from every command's parser, imported when it is made",
    ("asm6502.cli.base", "asm6502.cpu"): "8 ms (the opcode tables); only for a --cpu given",
    ("asm6502.cli.basic_run", "asm6502.basic.interpreter.inout"): "with asm6502.basic.interpreter (13 ms), loaded by the run by then",
    ("asm6502.typein.mselisting", "asm6502.typein.mselisting.checking"): "16.6 M instructions (callgrind) with the parser and the OCR "
                                                                       "repairs; only for reading a listing ('mse write' needs none)",
    ("asm6502.typein.mselisting.formats", "asm6502.typein.mselisting.parsing"): "14 M instructions (callgrind, its regular expressions and "
                                                                              "the OCR module); only for reading a listing",
    ("asm6502.typein.mselisting.formats", "asm6502.typein.mselisting.ocr"): "3.3 M instructions (callgrind); only for checking a V1.0 line read",
}


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules) -> list[tuple[str, bool]]:
    """(imported module, inside a function) for every import statement of a module (not those
    under ``if TYPE_CHECKING:``).  ``from package import name`` counts as importing the submodule
    when ``name`` is one, else the package."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []

    def visit(node, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    found.append((sub if sub in modules else base, in_function))
            visit(child, inside)

    visit(tree, False)
    return found


def _graph():
    modules = _modules()
    edges: dict[str, set[str]] = {name: set() for name in modules}
    inner = set()
    for name, path in modules.items():
        for target, in_function in _imports(name, path, modules):
            if target in modules and target != name:
                edges[name].add(target)
            if in_function:
                inner.add((name, target))
    return edges, inner


def _cycle(edges) -> list[str] | None:
    """One import circle, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def walk(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_no_import_circles():
    edges, _ = _graph()
    cycle = _cycle(edges)
    assert cycle is None, " -> ".join(cycle)


def test_the_circle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_imports_inside_functions_are_the_listed_lazy_ones():
    _, inner = _graph()
    unlisted = sorted(inner - set(LAZY))
    assert not unlisted, f"imports inside functions not in LAZY (move them to the top, or measure and list them): {unlisted}"
    stale = sorted(set(LAZY) - inner)
    assert not stale, f"LAZY lists imports that are no longer inside a function: {stale}"


def test_the_version_is_told_without_the_assembler():
    """``asm6502 --version`` prints a constant: none of the assembler's modules is imported for it."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "asm6502", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("asm6502 ")
    imported = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert not {m for m in imported if m.startswith(("asm6502.asm", "asm6502.cli.assemble"))}, sorted(imported)
    assert imported & {"asm6502.cli.common", "argparse", "asm6502.fileio"} == set(), sorted(imported)  # a constant needs none of them


def _imported_by(argv: list[str], cwd) -> set[str]:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "asm6502", *argv], capture_output=True, text=True,
                          cwd=cwd, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    return {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}


# a small command and what it does not need: the emulator (its table of the 256 opcodes: 4 M instructions,
# callgrind), the type-in engine (for 'mse write': the reading side), dataclasses (with inspect: 42 M
# instructions, and each dataclass about 3 M more), typing (12 M), shutil (argparse's help formatter asks it
# for the width); the assembler reads a plain command line without argparse (with gettext and locale, and the
# parser made: 15 M) and renames its outputs without signal.py (3 M)
SMALL_COMMANDS = {
    "assemble": (["examples/hello.asm", "-o", "OUT", "-q"],
                 ("asm6502.emu", "asm6502.typein", "asm6502.basic.tokenizer", "dataclasses", "shutil", "typing",
                  "argparse", "gettext", "locale", "asm6502.cli.common", "signal", "asm6502.asm.listing",
                  "asm6502.debuginfo", "intelhex", "difflib")),
    "basic tok": (["basic", "tok", "examples/HELLO.BAS", "-o", "OUT", "-q"],
                  ("asm6502.emu", "asm6502.typein", "asm6502.asm", "dataclasses", "shutil")),
    "mse write": (["mse", "write", "build/superhirn.prg", "-o", "OUT"],
                  ("asm6502.emu", "asm6502.typein.cslisting", "asm6502.asm", "dataclasses", "shutil",
                   "asm6502.typein.mselisting.checking", "asm6502.typein.mselisting.parsing", "asm6502.typein.mselisting.ocr")),
    "disasm": (["disasm", "build/superhirn.prg", "-o", "OUT"],
               ("asm6502.emu", "asm6502.typein", "asm6502.asm", "dataclasses", "inspect", "typing", "shutil")),
}


@pytest.mark.parametrize("name", SMALL_COMMANDS)
def test_a_small_command_imports_only_what_it_needs(name, tmp_path):
    argv, absent = SMALL_COMMANDS[name]
    imported = _imported_by([str(tmp_path / "out.prg") if a == "OUT" else a for a in argv], PACKAGE.parent)
    assert "asm6502.cli.base" in imported  # (the listing of imports is read: this one is always there)
    assert sorted(m for m in imported if m.startswith(absent)) == []
