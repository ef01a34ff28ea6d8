"""The gate: every file a command reads or writes goes through one ``Files`` object.

A command makes one ``Files`` (``OutputPlan`` is the same class under its old name) and hands it
down to everything that touches the file system:

- ``declare`` gives it, before the command does anything, every file and folder the command line
  names, by its ``Role`` (declared next to the option: ``cli.common.add_path_argument``): an input
  is registered, an output checked, and every input found later is checked against the outputs;
- a command's gate is strict (``cli.common.gate``): it reads only a file with a role -- one the command
  line declared, one inside a declared input folder (ROM folder, disk folder), or one ``found`` by a
  lookup (a ``.file`` member, a manifest's input), which is an input from that moment; any other read
  is a programming error (``UndeclaredFile``), so nothing can be read that has no role;
- ``read``/``text`` read an input with a size limit (a C64 file is never larger than 64 KB, a
  source never larger than a few MB, so ``/dev/zero`` or a wrong, huge file is a clear error instead
  of gigabytes of memory) and register it as an input at the moment it is read -- the main source,
  every ``.file``/``.lst`` member, a ``--disk`` image, every ``build`` input;
- ``add`` plans an output, ``add_confined`` an output whose name comes from inside a source
  (``.sst``, ``.opt o#``): one flat file name inside the output folder, no path, no link leading
  out, and no replacing a file this command does not write unless the user said so;
- ``commit`` writes every planned output at the very end, when everything succeeded.

The output rule:

- an output may not be any input of the command -- registered before or after it was planned --
  or another output: the same path, a symbolic link to it or a hard link of it (compared by device
  and inode, after resolving links);
- an output's directory must exist (nothing creates directories behind the user's back; a typo in
  ``-o`` is an error); ``name/`` names a directory, never the file ``name``;
- a write-protected file is refused, as ``cp`` refuses it; a replaced file keeps its mode and, where
  the user may give them, its owner and group; a file with other hard links is updated in place, as
  ``cp`` does (every name of it sees the new bytes);
- an output that is a symbolic link is written through it (the link stays);
- every output is first written to a temporary file in its own directory (a short name, so that a
  name of 255 bytes stays writable); only when all of them
  are written are they renamed over the targets (os.replace is atomic on one file system), so a
  full disk or a failed write leaves the old files as they were and no temporary file behind; an
  error names the user's file, never the temporary one.

No other module opens a file for writing (tests/test_gate_scan.py scans the package for it).
"""

from __future__ import annotations

import errno
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.tuples import SlotRecord

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

STDIO = "-"
MAX_SOURCE_BYTES = 32 * 1024 * 1024  # text inputs: sources, listings, manifests
MAX_PRG_BYTES = 2 + 0x10000  # a C64 file: 2-byte load address + at most 64 KB
MAX_IMAGE_BYTES = 1 << 20  # disk images (a 40-track .d64 with error bytes is 197,376 bytes)
BOM = b"\xef\xbb\xbf"


# --- inputs -------------------------------------------------------------------


def _kind_problem(name: str, regular: bool) -> str | None:
    """Why *name* cannot be read as a file: "is a directory", "is not a regular file", or None.

    A pipe or a device (``<(cmd)``, ``/dev/stdin``) is read when the user names it (``regular``
    False); a name found by looking it up (``.file``, ``.lst``) must be a regular file."""
    try:
        mode = os.stat(name).st_mode
    except OSError:
        return None  # open() reports it with the system's words
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if regular and not stat.S_ISREG(mode):
        return "is not a regular file (a pipe, device or socket)"
    return None


def _opened(name: str, limit: int, what: str, regular: bool) -> tuple[BinaryIO, bool]:
    """A binary reader of *name* (``-`` = standard input) and whether it is to be closed after."""
    if name == STDIO:
        stdin = sys.stdin
        if stdin is None:  # started with standard input closed (<&-)
            raise OSError(errno.EBADF, "standard input is closed", "<stdin>")
        binary = getattr(stdin, "buffer", None)  # a StringIO stand-in has none
        return (binary, False) if binary is not None else (io.BytesIO(stdin.read(limit + 1).encode("utf-8")), True)
    problem = _kind_problem(name, regular)
    if problem is not None:
        raise DiagnosticError([error(f"{what} '{name}' {problem}")])
    return open(name, "rb"), True


def _too_large(name: str, limit: int, what: str) -> DiagnosticError:
    return DiagnosticError([error(f"{name}: {what} larger than {limit:,} bytes; is it the right file?")])


def read_input(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input", *,
               regular: bool = False) -> bytes:
    """The bytes of *path* (``-`` = standard input), at most *limit* of them.

    Only ``Files.read`` should call this: it registers the file as an input too."""
    name = os.fspath(path)
    fh, owned = _opened(name, limit, what, regular)
    try:
        data = fh.read(limit + 1)
    finally:
        if owned:
            fh.close()
    if len(data) > limit:
        raise _too_large(name, limit, what)
    return data


PIECE_BYTES = 1 << 16  # what read_pieces reads at a time


def read_pieces(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input", *,
                piece: int = PIECE_BYTES) -> Iterator[bytes]:
    """The bytes of a regular file a piece at a time, at most *limit* in all (a larger file is refused
    before its first piece): a large input is never whole in memory.  Standard input (``-``), a pipe or
    a device is one piece, as ``read_input`` reads it.

    Only ``Files.read_start`` should call this: it registers the file as an input too."""
    name = os.fspath(path)
    fh, owned = _opened(name, limit, what, False)
    try:
        if not owned or name == STDIO or not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            data = fh.read(limit + 1)
            if len(data) > limit:
                raise _too_large(name, limit, what)
            yield data
            return
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise _too_large(name, limit, what)
        total = 0
        while True:  # (no read of a whole piece at the end only to find none: its buffer, taken and given back,
            # moves glibc's mmap threshold past the reader's tables, which then stay resident)
            want = min(piece, size + 1 - total) if total <= size else piece
            data = fh.read(want)
            total += len(data)
            if total > limit:  # (a file that grows while it is read)
                raise _too_large(name, limit, what)
            if data:
                yield data
            if len(data) < want:
                return
    finally:
        if owned:
            fh.close()


def decode_utf8(data: bytes, filename: str) -> str:
    """*data* as UTF-8 (a BOM is dropped); an error names the line and column of the first bad byte."""
    body = data[3:] if data.startswith(BOM) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = body.rfind(b"\n", 0, start) + 1
        line_end = body.find(b"\n", start)
        shown = body[line_start:line_end if line_end >= 0 else len(body)].decode("utf-8", errors="replace")
        column = len(body[line_start:start].decode("utf-8", errors="replace")) + 1
        line = body.count(b"\n", 0, start) + 1
        raise DiagnosticError([error(f"not UTF-8 text (byte ${body[start]:02X}); save the file as UTF-8",
                                     Span(filename, line, column, 1, shown))]) from None


def is_utf16(data: bytes) -> bool:
    """UTF-16 text (a byte-order mark, or a zero byte beside most ASCII letters)."""
    sample = data[:4096]
    if sample[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    if len(sample) < 4:
        return False
    for zeros, chars in ((sample[1::2], sample[0::2]), (sample[0::2], sample[1::2])):
        printable = sum(1 for b in chars if b in (9, 10, 13) or 32 <= b < 127)
        if zeros.count(0) * 4 >= len(zeros) * 3 and printable * 10 >= len(chars) * 9:
            return True
    return False


def refuse_binary(data: bytes, filename: str, what: str = "text", *, programs_ok: bool = False) -> None:
    """One clear error for a file that is no text at all (UTF-16, a program, a disk image, zero
    bytes) instead of hundreds of errors echoing its bytes -- the assembler's test, for every reader.
    *programs_ok*: a C64 program is read too (the assembler reads sources saved on a C64)."""
    from asm6502 import filetype

    sample = data[:4096]
    if is_utf16(sample):
        raise DiagnosticError([error(f"the file is UTF-16 text, not UTF-8; save it as UTF-8 "
                                     f"(e.g. iconv -f UTF-16 -t UTF-8 {filename})", Span(filename, 1, 0))])
    kind = filetype.sniff_binary(data, filename)
    if kind is not None and kind.name == "d64":
        raise DiagnosticError([error(f"the file is {kind.what}, not {what}; {kind.hint}", Span(filename, 1, 0))])
    looks_prg = filetype.named_or_loaded_as_program(sample, filename)
    if b"\0" in sample and not (programs_ok and looks_prg):
        hint = (f"a C64 program: list a BASIC one with 'asm6502 basic list {filename}', "
                f"print machine code as a type-in listing with 'asm6502 mse write {filename}'") if looks_prg \
            else "binary data (a program, an image, an archive?)"
        raise DiagnosticError([error(f"the file is {hint}, not {what}", Span(filename, 1, 0))])


def read_text(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input") -> str:
    """A UTF-8 text file (``-`` = standard input), size-limited."""
    name = os.fspath(path)
    return decode_utf8(read_input(path, limit, what), "<stdin>" if name == STDIO else name)


def file_stamp(path: str | os.PathLike) -> tuple[int, int, int, int] | None:
    """What tells that a file was changed or replaced since it was last looked at (device, inode,
    size, modification time in ns); None when there is no file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns


def free_name(path: str | os.PathLike) -> str:
    """``PATH.1``, ``PATH.2`` ...: the first that names no file (where a session is saved aside)."""
    name = os.fspath(path)
    n = 1
    while os.path.lexists(f"{name}.{n}"):
        n += 1
    return f"{name}.{n}"


# --- the gate -----------------------------------------------------------------


def _identity(path: str | os.PathLike) -> set:
    """What makes two names the same file: the resolved path, and device + inode when it exists."""
    keys: set = {("path", os.path.realpath(path))}
    try:
        st = os.stat(path)
    except OSError:
        return keys
    keys.add(("inode", st.st_dev, st.st_ino))
    return keys


def _is_special(path: str | os.PathLike) -> bool:
    """A device or pipe (``/dev/null``, ``/dev/stdout``, a FIFO): written in place, never renamed over."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def inside(folder: str | os.PathLike, path: str | os.PathLike) -> bool:
    """*path*, links resolved, lies in *folder* (links resolved) or below it."""
    root = os.path.realpath(folder)
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


class _Planned(SlotRecord):
    __slots__ = ("path", "data", "what", "keep_same", "make_parent", "span")

    def __init__(self, path: str, data: bytes | bytearray, what: str, keep_same: bool, make_parent: bool,
                 span: object) -> None:  # fmt: skip
        self.path = path
        self.data = data
        self.what = what
        self.keep_same = keep_same  # leave the file alone when it already holds these bytes
        self.make_parent = make_parent  # create missing directories (build.yaml outputs inside the manifest's folder)
        self.span = span  # where the output was asked for (a manifest entry, a '.sst' line), or None


class _Input(SlotRecord):
    __slots__ = ("path", "what", "keys")

    def __init__(self, path: str, what: str, keys: frozenset) -> None:
        self.path = path
        self.what = what
        self.keys = keys


# --- roles: what a command-line argument naming a file or folder is -----------------------------


class UndeclaredFile(RuntimeError):
    """A strict gate was asked to read a file that has no role: a programming error."""


READ, WRITE, EDIT, FOLDER, ROMS, DISK, OUTDIR = "read", "write", "edit", "folder", "roms", "disk", "outdir"


class Role(SlotRecord):
    """What a file or folder named on the command line is to the command (``Files.declare``):

    - ``read``: an input (registered at once: no output may be it);
    - ``write``: an output (checked at once, and every input found later -- a ``.file`` member, a
      ROM image, a disk folder's file -- is checked against it the moment it is found);
    - ``edit``: a file the command reads and writes back (a typing session's listing, a disk image
      files are added to): an output that may be itself;
    - ``folder``: a folder files are looked up in (each is an input when found);
    - ``roms``: a folder of ROM images (each image is an input when found);
    - ``disk``: a disk image (an input) or a folder of files (each an input when listed);
    - ``outdir``: a folder outputs are written into (made if missing; each file in it is an
      output, checked when it is added).

    *what* names it in messages ("C64 program", "screenshot")."""

    __slots__ = ("what", "kind")

    def __init__(self, what: str, kind: str) -> None:
        self.what = what
        self.kind = kind

    def named(self, what: str) -> Role:
        return Role(what, self.kind)


INPUT = Role("input", READ)
OUTPUT = Role("output", WRITE)
EDITED = Role("file being edited", EDIT)
INPUT_FOLDER = Role("folder", FOLDER)
ROM_FOLDER = Role("ROM folder", ROMS)
DISK_IMAGE_OR_FOLDER = Role("disk image or folder", DISK)
SCREENSHOT = Role("screenshot", WRITE)
REPORT = Role("report", WRITE)
OUTPUT_FOLDER = Role("output folder", OUTDIR)


class Files:
    """Every file of one command: inputs registered as they are read, outputs checked when
    planned and written together by ``commit``.

    *overwrite_option*: the command-line option that lets names from inside a source replace a
    file this command does not write (``add_confined``); *overwrite*: whether the user gave it.
    """

    def __init__(self, *, overwrite: bool = False, overwrite_option: str = "--overwrite",
                 strict: bool = False) -> None:
        self._inputs: list[_Input] = []
        self._outputs: list[tuple[_Planned, frozenset]] = []
        self._declared: list[tuple[str, str, frozenset]] = []  # outputs named on the command line
        self._readable: set = set()  # identities of the files this command may read (strict)
        self._folders: list[str] = []  # folders with a role: their files may be read (strict)
        self.overwrite = overwrite
        self.overwrite_option = overwrite_option
        self.strict = strict

    # -- the command line's files, by role

    def declare(self, role: Role, path: str | os.PathLike) -> None:
        """A file or folder named on the command line, with its role (see ``Role``), before the
        command does anything: an input is registered, an output checked (and every input found
        later is checked against it)."""
        name = os.fspath(path)
        if name == STDIO:
            return
        if role.kind in (READ, EDIT, DISK):
            self._readable |= _identity(name)
        if role.kind in (FOLDER, ROMS, DISK):
            self._folders.append(name)
        if role.kind == READ or (role.kind == DISK and not os.path.isdir(name)):
            self.add_input(name, role.what)
        elif role.kind in (WRITE, EDIT):
            keys = self.check(name, role.what)
            if role.kind == WRITE and keys:
                self._declared.append((name, role.what, keys))
        elif role.kind == OUTDIR and os.path.lexists(name) and not os.path.isdir(name):
            raise DiagnosticError([error(f"{role.what} '{name}' is not a folder; give a folder's name "
                                         "(made if missing)")])

    def fresh(self) -> Files:
        """A gate for one more set of outputs (each listing of a page is committed on its own),
        knowing every input read and every output declared so far."""
        other = Files(overwrite=self.overwrite, overwrite_option=self.overwrite_option, strict=self.strict)
        other._inputs = list(self._inputs)
        other._declared = list(self._declared)
        other._readable = set(self._readable)
        other._folders = list(self._folders)
        return other

    def found(self, path: str | os.PathLike, what: str = "input") -> str:
        """A file found by lookup rather than named on the command line (a ``.file`` member next to
        its source, a manifest's input, a ROM image found in the ROM folder): an input from this
        moment on, so it may be read and no output may be it.  Returns its name."""
        name = os.fspath(path)
        self._readable |= _identity(name)
        self.add_input(name, what)
        return name

    def _may_read(self, path: str | os.PathLike) -> None:
        """In a strict gate (every command's: ``cli.common.gate``), only a file with a role may be
        read: one the command line declared, one inside a declared input folder, or one ``found``.
        Anything else is a mistake in the program, never the user's: it stops with the file named."""
        name = os.fspath(path)
        if not self.strict or name == STDIO or _identity(name) & self._readable:
            return
        if any(inside(folder, name) for folder in self._folders):
            return
        raise UndeclaredFile(f"'{name}' was about to be read without a role (declare its argument "
                             "with cli.common.add_path_argument, or register a looked-up file with Files.found)")

    # -- inputs

    def read(self, path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input", *,
             regular: bool = False) -> bytes:
        """The bytes of an input (``-`` = standard input), registered as an input of this command."""
        self._may_read(path)
        data = read_input(path, limit, what, regular=regular)
        self.add_input(path, what)
        return data

    def read_start(self, path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input", *,
                   piece: int = PIECE_BYTES) -> tuple[bytes, Iterator[bytes]]:
        """An input's first piece of bytes (``-`` = standard input) and an iterator over the rest
        (``read_pieces``), registered as an input of this command once its first piece is read."""
        self._may_read(path)
        pieces = read_pieces(path, limit, what, piece=piece)
        first = next(pieces, b"")
        self.add_input(path, what)
        return first, pieces

    def text(self, path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input", *,
                  binary_check: bool = True) -> str:
        """A UTF-8 text input; a binary or UTF-16 file is one clear error (``refuse_binary``)."""
        name = os.fspath(path)
        shown = "<stdin>" if name == STDIO else name
        data = self.read(path, limit, what)
        if binary_check:
            refuse_binary(data, shown, what)
        return decode_utf8(data, shown)

    def add_input(self, path: str | os.PathLike, what: str = "input") -> None:
        """Register *path* as an input: no output of this command may be it (checked now and at commit)."""
        name = os.fspath(path)
        if name == STDIO or _is_special(name):
            return
        inp = _Input(name, what, frozenset(_identity(name)))
        self._inputs.append(inp)
        for planned, keys in self._outputs:
            if keys & inp.keys:
                raise DiagnosticError([self._overlap(planned.path, planned.what, inp, planned.span)])
        for out, out_what, keys in self._declared:
            if keys & inp.keys:
                raise DiagnosticError([self._overlap(out, out_what, inp, None)])

    @property
    def inputs(self) -> list[str]:
        return [i.path for i in self._inputs]

    # -- outputs

    def add(self, path: str | os.PathLike, data: bytes | bytearray | str, what: str = "output", *,
            span: Span | None = None, keep_same: bool = False, make_parent: bool = False) -> None:
        """Plan writing *data* to *path*; DiagnosticError when the path may not be written."""
        name = os.fspath(path)
        payload = data.encode("utf-8") if isinstance(data, str) else data if isinstance(data, bytearray) else bytes(data)
        # (a bytearray is kept as it is, not copied: the caller hands it over -- output.encoded's listing)
        planned = _Planned(name, payload, what, keep_same, make_parent, span)
        if name == STDIO:
            if any(p.path == STDIO for p, _ in self._outputs):
                raise DiagnosticError([error(f"{what} '-' (standard output) is already used by another output", span)])
            self._outputs.append((planned, frozenset()))
            return
        if _is_special(name):
            self._outputs.append((planned, frozenset()))
            return
        unchanged = keep_same and _same_bytes(Path(os.path.realpath(name)), payload)  # (left alone: may be write-protected)
        self._outputs.append((planned, self.check(name, what, span=span, make_parent=make_parent,
                                                  _protected_ok=unchanged)))

    def add_confined(self, folder: str | os.PathLike, name: str, data: bytes | str, what: str, *,
                     span: Span | None = None, replaceable: Callable[[bytes], bool] | None = None) -> str:
        """Plan an output whose *name* comes from inside a source: one flat file name in *folder*
        (the C64 had one flat disk) -- no absolute path, no ``..``, no link leading out of the
        folder -- and no replacing an existing file unless ``replaceable(its bytes)`` says it is one
        this command writes (a symbol table for ``.sst``) or the user gave the overwrite option.
        Returns the path planned."""
        if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
            raise DiagnosticError([error(f"{what} '{name}': a name from the source is one file name in the output "
                                         "folder (no folders, no '..'; the C64 had one flat disk)", span)])
        target = os.path.join(os.fspath(folder), name)
        if os.path.islink(target) and not inside(folder, target):
            raise DiagnosticError([error(f"{what} '{target}' is a link leading out of the output folder "
                                         f"'{os.fspath(folder) or '.'}'; a source writes only inside it", span)])
        if os.path.lexists(target) and not self.overwrite:
            try:
                old = read_input(target, MAX_SOURCE_BYTES, what, regular=True)
            except (OSError, DiagnosticError):
                old = None
            if old is None or replaceable is None or not replaceable(old):
                raise DiagnosticError([error(f"{what} '{target}' would replace a file this command did not write; "
                                             f"rename it, or add {self.overwrite_option} to replace it", span)])
        self.add(target, data, what, span=span)
        return target

    def check(self, path: str | os.PathLike, what: str = "output", *, span: Span | None = None,
              make_parent: bool = False, _protected_ok: bool = False) -> frozenset:
        """Raise DiagnosticError if *path* may not be written (see the module rule); its identity keys otherwise.

        ``add`` checks too; calling this first reports a bad output before any work is done.
        """
        name = os.fspath(path)
        if name == STDIO or _is_special(name):
            return frozenset()
        if name.endswith(("/", os.sep)) or (os.altsep and name.endswith(os.altsep)):
            raise DiagnosticError([error(f"{what} '{name}' ends with '/', which names a directory; "
                                         "give a file name (without the '/')", span)])
        target = Path(name)
        length = len(os.fsencode(target.name))
        if length > _name_max(target.parent):
            raise DiagnosticError([error(f"{what} '{name}': the file name is {length:,} bytes, more than the "
                                         f"{_name_max(target.parent)} a file name may have here; give a shorter one", span)])
        if target.is_dir():
            raise DiagnosticError([error(f"{what} '{name}' is a directory; give a file name", span)])
        real = Path(os.path.realpath(name)) if os.path.islink(name) else target
        parent = real.parent
        if not parent.is_dir() and not (make_parent and not parent.exists()):
            raise DiagnosticError([error(f"{what} '{name}': directory '{parent}' does not exist "
                                         "(create it first; nothing creates directories for you)", span)])
        if parent.is_dir() and not os.access(parent, os.W_OK | os.X_OK):
            raise DiagnosticError([error(f"{what} '{name}': the folder '{parent}' cannot be written by this user "
                                         "(no file can be made in it); choose another folder", span)])
        if real.exists() and not _protected_ok and _write_protected(real):
            raise DiagnosticError([error(f"{what} '{name}' is write-protected; it was left alone "
                                         "(make it writable first, as cp would need)", span)])
        keys = frozenset(_identity(target))
        for inp in self._inputs:
            if keys & inp.keys:
                raise DiagnosticError([self._overlap(name, what, inp, span)])
        for other, other_keys in self._outputs:
            if keys & other_keys:
                raise DiagnosticError([error(f"{what} '{name}' and {other.what} '{other.path}' are the same file; "
                                             "give each output its own name", span)])
        return keys

    @staticmethod
    def _overlap(name: str, what: str, inp: _Input, span):
        how = "is" if os.path.realpath(name) == os.path.realpath(inp.path) else "is the same file as"
        return error(f"{what} '{name}' {how} the {inp.what} '{inp.path}'; "
                     "writing it would destroy the input: choose another output name", span)

    @property
    def paths(self) -> list[str]:
        return [p.path for p, _ in self._outputs]

    def commit(self) -> list[tuple[str, bool]]:
        """Write every planned output; return (path, written) pairs (False: already held these bytes).

        Every output is checked again against every input (a ``.file`` member is read after the
        outputs were planned), by the name it is written under, resolved once here: the check and
        the write see the same file even when a link is put in its place meanwhile. All temporary
        files are written before the first rename; any failure removes them and re-raises, leaving
        every target as it was.

        A target with other hard links is updated in place, as ``cp`` does (every name of it sees
        the new bytes), after every temporary file was written; a failure puts its old bytes back.
        A replaced file keeps its mode and, where this user may give it, its owner and group.
        """
        targets: list[Path] = []
        for planned, keys in self._outputs:
            target = _resolved(planned.path)
            targets.append(target)
            if planned.path == STDIO or _is_special(planned.path):
                continue
            now = keys | frozenset(_identity(target))
            for inp in self._inputs:
                if now & (inp.keys | frozenset(_identity(inp.path))):
                    raise DiagnosticError([self._overlap(planned.path, planned.what, inp, planned.span)])
        temps: list[tuple[str, str]] = []
        in_place: list[tuple[_Planned, Path, os.stat_result]] = []
        report: list[tuple[str, bool]] = []
        special: list[_Planned] = []
        default_mode = 0o666 & ~_umask()
        try:
            for (planned, _keys), target in zip(self._outputs, targets, strict=True):
                if planned.path == STDIO or _is_special(planned.path):
                    special.append(planned)
                    report.append((planned.path, True))
                    continue
                if planned.keep_same and target.is_file() and _same_bytes(target, planned.data):
                    report.append((planned.path, False))
                    continue
                try:
                    if planned.make_parent:
                        target.parent.mkdir(parents=True, exist_ok=True)
                    try:
                        old: os.stat_result | None = os.stat(target)
                    except OSError:
                        old = None  # a new file: what a plain open() would give
                    fd, tmp = _new_file(target.parent, target.name)
                    temps.append((tmp, os.fspath(target)))
                    with os.fdopen(fd, "wb") as fh:
                        fh.write(planned.data)
                    if old is not None:
                        _keep_owner(tmp, old)
                    os.chmod(tmp, stat.S_IMODE(old.st_mode) if old is not None else default_mode)  # (made 0600)
                except OSError as exc:
                    raise _named(exc, planned.path) from None
                if old is not None and stat.S_ISREG(old.st_mode) and old.st_nlink > 1:
                    in_place.append((planned, target, old))  # (its temporary file proved the room for it)
                report.append((planned.path, True))
            for planned in special:
                if planned.path == STDIO:
                    write_stdout(planned.data)
                else:
                    try:
                        with open(planned.path, "wb") as fh:
                            fh.write(planned.data)
                    except OSError as exc:
                        raise _named(exc, planned.path) from None
            # the writes go together: a Ctrl-C waits until they are done (POSIX), so it never
            # leaves some outputs new and others old
            try:  # (signal's C core: the same functions, without the enums signal.py makes of its
                import _signal as signal  # constants at import, 4.8 M instructions: bench/README.md)
            except ImportError:  # pragma: no cover - an interpreter without it
                import signal

            block = getattr(signal, "pthread_sigmask", None)
            held = block(signal.SIG_BLOCK, {signal.SIGINT}) if block is not None else None
            try:
                _write_in_place(in_place)
                done = {os.fspath(target) for _p, target, _st in in_place}
                while temps:
                    tmp, target_name = temps[0]
                    if target_name not in done:
                        try:
                            os.replace(tmp, target_name)
                        except OSError as exc:
                            raise _named(exc, target_name) from None
                    else:
                        os.unlink(tmp)
                    temps.pop(0)
            finally:
                if block is not None:
                    block(signal.SIG_SETMASK, held)
        except BaseException:
            # the temporary files made so far; a Ctrl-C can fall between making one and noting it,
            # so every file with this process's temporary name in an output's folder goes too
            import glob

            leftovers = {tmp for tmp, _target in temps}
            for target in {t.parent for t in targets}:
                leftovers.update(glob.glob(os.path.join(glob.escape(os.fspath(target)), _temp_prefix() + "*.tmp")))
            for tmp in leftovers:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            raise
        return report


def _resolved(path: str) -> Path:
    """The name an output is written under: through a symbolic link, the file it names (the link
    stays a link)."""
    return Path(os.path.realpath(path)) if path != STDIO and os.path.islink(path) else Path(path)


def _keep_owner(tmp: str, old: os.stat_result) -> None:
    """The replaced file's owner and group on its replacement, where this user may give them
    (root may; anyone may keep a group they are in); else the new file is this user's, as cp's is."""
    st = os.stat(tmp)
    if (st.st_uid, st.st_gid) == (old.st_uid, old.st_gid):
        return
    for uid, gid in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
        try:
            os.chown(tmp, uid, gid)
            return
        except OSError:
            continue


def _write_in_place(targets: list[tuple[_Planned, Path, os.stat_result]]) -> None:
    """Write each hard-linked target in place, after checking that the file opened is the one
    checked (device and inode: no link put in its place); on a failure every one written so far
    gets its old bytes back."""
    written: list[tuple[str, bytes]] = []
    try:
        for planned, target, old in targets:
            try:
                previous = read_input(target, max(old.st_size, 1) + 1, planned.what)
                fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
                try:
                    st = os.fstat(fd)
                    if (st.st_dev, st.st_ino) != (old.st_dev, old.st_ino):
                        raise OSError(errno.EBUSY, "the file was replaced while this command ran; it was left alone")
                    written.append((os.fspath(target), previous))
                    _write_all(fd, planned.data)
                    os.ftruncate(fd, len(planned.data))
                finally:
                    os.close(fd)
            except OSError as exc:
                raise _named(exc, planned.path) from None
    except BaseException:
        for name, previous in written:
            try:
                fd = os.open(name, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
                try:
                    _write_all(fd, previous)
                    os.ftruncate(fd, len(previous))
                finally:
                    os.close(fd)
            except OSError:
                pass
        raise


def _write_all(fd: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


OutputPlan = Files  # the name the commands used first


def _name_max(folder: Path) -> int:
    """The longest file name (bytes) the folder's file system takes (NAME_MAX; 255 where it cannot be asked)."""
    try:
        return os.pathconf(folder if folder.is_dir() else ".", "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        return 255


def _write_protected(path: Path) -> bool:
    """No write permission for this user, or no write bit at all (refused even for root, as a
    careful ``cp -i`` and ``rm`` would ask first)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and (not (mode & 0o222) or not os.access(path, os.W_OK))


def _named(exc: OSError, path: str) -> OSError:
    """The same error naming the user's file instead of the temporary one."""
    return type(exc)(exc.errno, exc.strerror or str(exc), path)


def write_stdout(data: bytes | bytearray | str) -> None:
    """Bytes or text to standard output (an OSError when it is closed or the reader has gone)."""
    try:
        _write_stdout(data)
    except OSError as exc:
        raise _named(exc, exc.filename if exc.filename is not None else "<stdout>") from None


def _write_stdout(data: bytes | bytearray | str) -> None:
    out = sys.stdout
    if out is None:  # started with standard output closed (>&-)
        raise OSError(errno.EBADF, "standard output is closed", "<stdout>")
    if isinstance(data, str):
        out.write(data)
        out.flush()
        return
    out.flush()
    binary = getattr(out, "buffer", None)
    if binary is None:  # a StringIO stand-in
        out.write(data.decode("latin-1"))
        return
    binary.write(data)
    binary.flush()


def hold_standard_descriptors() -> None:
    """Descriptors 0-2 that the process was started without (<&-, >&-) are taken by /dev/null,
    so that no file opened later gets one of them (a write meant for the screen would land in it)."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            taken = os.open(os.devnull, os.O_RDWR)
            if taken != fd:  # (a lower descriptor was closed too and took it; the loop goes in order)
                os.dup2(taken, fd)
                os.close(taken)


def silence_stdout() -> None:
    """Standard output's reader has gone: what is still buffered for it goes to /dev/null."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, AttributeError, ValueError):
        pass


def scratch_folder():
    """A new empty folder of this run only, removed with everything in it at the end of the
    ``with`` block (``convert --check`` hands the converted source to the target assembler there)."""
    import tempfile

    return tempfile.TemporaryDirectory(prefix="asm6502-")


def _same_bytes(path: Path, data: bytes | bytearray) -> bool:
    try:
        if path.stat().st_size != len(data):
            return False
        return read_input(path, len(data), "output") == data
    except (OSError, DiagnosticError):
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write one file by the output rule (temporary file + rename; ``-`` is standard output).

    Commands with several outputs or with inputs to protect use ``Files`` directly.
    """
    plan = Files()
    plan.add(path, data)
    plan.commit()


def _temp_prefix() -> str:
    return f".asm6502.{os.getpid()}."


def _new_file(directory: Path, name: str) -> tuple[int, str]:
    """A new, empty file ``.asm6502.PID.N.tmp`` in ``directory``, open for writing (what
    tempfile.mkstemp does; importing tempfile costs the command milliseconds of its start-up).
    The name is short whatever *name* is: a target name of 255 bytes (NAME_MAX) stays writable.
    A folder where no file can be made is named in the error (not the file)."""
    for n in range(1000):
        path = os.path.join(directory, f"{_temp_prefix()}{n}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), path
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise type(exc)(exc.errno, f"no file can be made in the folder '{directory}' "
                                f"({exc.strerror or exc}); the folder is the problem, not the file", path) from None
            raise
    raise FileExistsError(f"no free temporary name for {name} in {directory}")
