"""The files a source names: ``.file`` chains (pass 1 goes on with the next file), ``.lst``
(a symbol table read) and ``.sst`` (one written after the assembly)."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from asm6502.asm.lines import Line
from asm6502.asm.pseudo import foreign_hint
from asm6502.asm.reader import file_name, read_source
from asm6502.asm.result import Options
from asm6502.asm.state import NextFile, Pass1State, Stop
from asm6502.asm.symbols import SymbolTable
from asm6502.asm.symfile import read_symbols
from asm6502.asm.typed import as_typed
from asm6502.diagnostics import Diagnostic, Kept, Span, error, note
from asm6502.fileio import MAX_IMAGE_BYTES, Files, _identity, _kind_problem
from asm6502.filetype import is_tokenized
from asm6502.patterns import LazyPattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from asm6502.d64 import DiskImage

MAX_CHAIN = 1000  # .file chains followed in one pass (a file naming itself would go on for ever)
_DEVICE_NAME = LazyPattern(r'\s*(?:(\d+)\s*,\s*)?"')  # '8,"name"' (or '"name"': device 8)

DRIVES = range(8, 12)  # the IEC bus devices a 1541 drive can be set to


class IncludedFiles:
    """``.file``, ``.lst``, ``.sst``: where the chain of ``.file`` began and whether it was closed, the
    tables ``.sst`` writes."""

    def __init__(self, state: Pass1State, symbols: SymbolTable, reader):
        self.state = state
        self.symbols = symbols  # ('.lst' loads a table into them)
        self.reader = reader  # (name, line, raw=False) -> (lines, start line), or the file's bytes; raises OSError
        self.chained: tuple | None = None  # where the first .file was met
        self.chain_closed = False
        self.sst: list[tuple[str, dict[str, int]]] = []  # ('.sst' file name, the symbols at that point)

    def op_file(self, rec, line, stmt, local, depth, lines):
        """``.file dev,"name"``: go on with the next source of the chain (this one ends here)."""
        state = self.state
        where = (line, stmt.col + rec.args_offset, max(1, len(rec.args)))
        m = _DEVICE_NAME.match(rec.args)
        if m is None:
            hint = foreign_hint(rec.name) if rec.name.lower() != "file" else None  # ('.fill': 64tass's, read as '.fil')
            state.err('.file needs a device and a file name: .file 8,"name" [SYNTAX 6]', where, *((note(hint),) if hint else ()))
            return None
        device = int(m.group(1)) if m.group(1) else 8
        name = file_argument(rec.args)
        if not name:
            state.err('.file needs a file name: .file 8,"name" [SYNTAX 6]', where)
            return None
        if device not in DRIVES:
            state.err(f".file {device},...: device {device} is not a disk drive (8-11) [DEVICE NOT PRESENT]", where)
            raise Stop
        if self.chained is None:
            self.chained = (line, stmt.col, len(stmt.text))
        try:
            new_lines, start = self.reader(name, line)
        except OSError as exc:
            state.err(f"cannot read .file '{name}': {exc.strerror or exc} [IEEE]", where)
            raise Stop from None
        raise NextFile(new_lines, start)

    def close_chain(self) -> None:
        """'.end 8,"first"': the chain ends as the manual asks."""
        self.chain_closed = True

    def finish(self) -> None:
        """The end of pass 1: a chain that the last file did not close is warned of."""
        if self.chained is not None and not self.chain_closed:
            self.state.warn("a .file chain ends without '.end 8,\"first file\"': the original would run pass 2 on the last "
                            "file only (the manual asks for the .end); here the whole chain is assembled", self.chained)  # fmt: skip

    def op_sst(self, rec, line, stmt, local, depth, lines):
        name = file_argument(rec.args)
        if not name:
            self.state.err('.sst needs a file name: .sst 8,2,"name,s,w" [SYNTAX 6]', (line, stmt.col + rec.op_offset, rec.op_length))
        elif '"' not in rec.args:
            self.state.err('.sst needs the file name in quotes: .sst 8,2,"name,s,w" [SYNTAX 6]', (line, stmt.col + rec.args_offset, len(rec.args)))
        else:
            self.sst.append((name, dict(self.state.values)))
        return None

    def op_lst(self, rec, line, stmt, local, depth, lines):
        """``.lst dev,sa,"name"``: load a symbol table written by ``.sst`` (values overwrite, no checks)."""
        name = file_argument(rec.args)
        where = (line, stmt.col + rec.args_offset, max(1, len(rec.args)))
        if not name:
            self.state.err('.lst needs a file name: .lst 8,2,"name" [SYNTAX 6]', where)
            return None
        try:
            data = self.reader(name, line, raw=True)
            table = read_symbols(data)
        except (OSError, ValueError) as exc:
            self.state.err(f"cannot read .lst '{name}': {getattr(exc, 'strerror', None) or exc}", where)
            return None
        self.symbols.load(table)
        return None


def file_argument(args: str) -> str | None:
    """The file name of ``dev,"name"`` / ``dev,sa,"name"`` / ``"name"`` / ``name``, without drive and type."""
    m = re.search(r'"([^"]*)"?', args)
    text = m.group(1) if m else args.split(",")[-1].strip()
    return file_name(text).strip() or None


# -- finding and reading them ---------------------------------------------------------

_SUFFIXES = ("", ".asm", ".txt", ".prg", ".src")


def source_text(data: bytes, name: str) -> str:
    """A source file's text; a tokenized C64 source (a BASIC .prg) is listed first."""
    if is_tokenized(data, name):
        from asm6502.basic.tokenizer import detokenize

        return detokenize(data, filename=name).text
    return data.decode("utf-8", errors="replace")


class SourceFiles:
    """Finds the files a source names (``.file``, ``.lst``) as the C64 would: next to the
    source, in the ``-I`` directories, then on the ``--disk`` image. Every file is read through
    the command's gate (``fileio.Files``), which registers it as an input: no output of the same
    run may replace it. A ``.file`` chain that comes back to a file already in it is an error
    when it closes (the original would load the files for ever)."""

    def __init__(self, options: Options, diags: list[Diagnostic], gate=None, kept: Kept | None = None):
        self.options = options
        self.diags = diags
        self.kept = kept if kept is not None else Kept()  # the run's room for diagnostics
        self.disk: DiskImage | None = None
        self.gate = gate if gate is not None else Files()
        self.chain: dict = {}  # identity of every file of the .file chain so far -> its name

    def start(self, filename: str) -> None:
        """The chain begins with the main source."""
        self.chain = {}
        self._enter(filename, filename)

    def _enter(self, path: str, name: str) -> None:
        keys = _identity(path) if os.path.exists(path) else {("name", path)}
        for key in keys:
            if key in self.chain:
                ring = list(dict.fromkeys(self.chain.values())) + [name]
                first = ring.index(self.chain[key]) if self.chain[key] in ring else 0
                raise ChainLoop(errno.ELOOP, f"the .file chain comes back to '{self.chain[key]}' "
                                f"({' -> '.join(ring[first:])}): the original would load these files for ever", name)
        for key in keys:
            self.chain[key] = name

    def read(self, name: str, from_line: Line, raw: bool = False):
        data, path = self.find(name, from_line)
        if raw:
            return data
        self._enter(path, name)
        text = source_text(data, path)
        del data  # (one whole copy of the file at a time: its bytes, its text, then its lines)
        if self.options.case == "lower":
            text = as_typed(text)
        source = read_source(path, text, self.kept)
        self.diags.extend(line_problems(source.problems))
        return source.lines, source.start_index

    def find(self, name: str, from_line: Line) -> tuple[bytes, str]:
        dirs = [Path(from_line.file).parent] + [Path(p) for p in self.options.include_dirs]
        odd = None  # the first name found that is no regular file (a folder, a pipe): said if nothing else is found
        for directory in dirs:
            for suffix in _SUFFIXES:
                for candidate in (name + suffix, name.lower() + suffix):
                    path = directory / candidate
                    if path.is_file():
                        what = "file named by the source"  # (found by a lookup: an input from now on)
                        return self.gate.read(self.gate.found(path, what), what=what, regular=True), os.fspath(path)
                    if odd is None and os.path.lexists(path):
                        odd = os.fspath(path)
        if self.options.disk:
            from asm6502.d64 import DiskImage, petscii_name

            if self.disk is None:
                self.disk = DiskImage(self.gate.read(self.options.disk, MAX_IMAGE_BYTES, "disk image"), self.options.disk)
            entry = self.disk.find(petscii_name(name, patterns=True))
            if entry is not None:
                return self.disk.read_file(entry), f"{self.options.disk}:{name}"
        if odd is not None:
            problem = _kind_problem(odd, regular=True) or "is a link to nothing"
            raise OSError(errno.EISDIR if "directory" in problem else errno.EINVAL, f"'{odd}' {problem}", name)
        raise FileNotFoundError(2, "no such file" + (" (looked next to the source, in -I directories and on --disk)" if self.options.disk or self.options.include_dirs else ""), name)


class ChainLoop(OSError):
    """A ``.file`` chain that names a file already in it."""


def line_problems(problems) -> list[Diagnostic]:
    return [error(message, Span(line.file, line.index, line.number_col, length, line.line_text, None)) for line, message, length in problems]

