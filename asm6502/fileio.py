"""Reading inputs with a size limit, and the one output rule.

Inputs: ``read_input`` reads at most a limit (a C64 file is never larger than
64 KB, a source never larger than a few MB), so ``/dev/zero`` or a wrong,
huge file is a clear error instead of gigabytes of memory.

Outputs: a command collects everything it writes in an ``OutputPlan`` and
writes it with ``commit`` at the very end, when everything succeeded:

- an output may not be any input of the command or another output -- the same
  path, a symbolic link to it or a hard link of it (compared by device and
  inode, after resolving links);
- an output's directory must exist (nothing creates directories behind the
  user's back; a typo in ``-o`` is an error);
- an output that is a symbolic link is written through it (the link stays);
- every output is first written to a temporary file in its own directory; only
  when all of them are written are they renamed over the targets (os.replace
  is atomic on one file system), so a full disk or a failed write leaves the
  old files as they were and no temporary file behind.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

from asm6502.diagnostics import DiagnosticError, Span, error
from asm6502.tuples import named_tuple

STDIO = "-"
MAX_SOURCE_BYTES = 32 * 1024 * 1024  # text inputs: sources, listings, manifests
MAX_PRG_BYTES = 2 + 0x10000  # a C64 file: 2-byte load address + at most 64 KB
MAX_IMAGE_BYTES = 1 << 20
BOM = b"\xef\xbb\xbf"  # disk images (a 40-track .d64 with error bytes is 197,376 bytes)


# --- inputs -------------------------------------------------------------------


def read_input(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input") -> bytes:
    """The bytes of *path* (``-`` = standard input), at most *limit* of them."""
    name = os.fspath(path)
    if name == STDIO:
        binary = getattr(sys.stdin, "buffer", None)  # a StringIO stand-in has none
        data = binary.read(limit + 1) if binary is not None else sys.stdin.read(limit + 1).encode("utf-8")
    else:
        with open(name, "rb") as fh:
            data = fh.read(limit + 1)
    if len(data) > limit:
        raise DiagnosticError([error(f"{name}: {what} larger than {limit:,} bytes; is it the right file?")])
    return data


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


def read_text(path: str | os.PathLike, limit: int = MAX_SOURCE_BYTES, what: str = "input") -> str:
    """A UTF-8 text file (``-`` = standard input), size-limited."""
    name = os.fspath(path)
    return decode_utf8(read_input(path, limit, what), "<stdin>" if name == STDIO else name)


# --- outputs ------------------------------------------------------------------


def _identity(path: Path) -> set:
    """What makes two names the same file: the resolved path, and device + inode when it exists."""
    keys: set = {("path", os.path.realpath(path))}
    try:
        st = os.stat(path)
    except OSError:
        return keys
    keys.add(("inode", st.st_dev, st.st_ino))
    return keys


def _is_special(path: Path) -> bool:
    """A device or pipe (``/dev/null``, ``/dev/stdout``, a FIFO): written in place, never renamed over."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


@named_tuple
class _Planned:
    path: str
    data: bytes
    what: str
    keep_same: bool  # leave the file alone when it already holds these bytes
    make_parent: bool  # create missing directories (build.yaml outputs inside the manifest's folder)


@named_tuple
class _Input:
    path: str
    what: str
    keys: frozenset


class OutputPlan:
    """The outputs of one command, checked when added and written together by ``commit``."""

    def __init__(self) -> None:
        self._inputs: list[_Input] = []
        self._outputs: list[tuple[_Planned, frozenset]] = []

    def add_input(self, path: str | os.PathLike, what: str = "input") -> None:
        name = os.fspath(path)
        if name == STDIO or _is_special(Path(name)):
            return
        self._inputs.append(_Input(name, what, frozenset(_identity(Path(name)))))

    def add(self, path: str | os.PathLike, data: bytes | str, what: str = "output", *,
            span: Span | None = None, keep_same: bool = False, make_parent: bool = False) -> None:
        """Plan writing *data* to *path*; DiagnosticError when the path may not be written."""
        name = os.fspath(path)
        payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        planned = _Planned(name, payload, what, keep_same, make_parent)
        if name == STDIO:
            if any(p.path == STDIO for p, _ in self._outputs):
                raise DiagnosticError([error(f"{what} '-' (standard output) is already used by another output", span)])
            self._outputs.append((planned, frozenset()))
            return
        target = Path(name)
        if _is_special(target):
            self._outputs.append((planned, frozenset()))
            return
        self._outputs.append((planned, self.check(name, what, span=span, make_parent=make_parent)))

    def check(self, path: str | os.PathLike, what: str = "output", *, span: Span | None = None,
              make_parent: bool = False) -> frozenset:
        """Raise DiagnosticError if *path* may not be written (see the module rule); its identity keys otherwise.

        ``add`` checks too; calling this first reports a bad output before any work is done.
        """
        name = os.fspath(path)
        target = Path(name)
        if name == STDIO or _is_special(target):
            return frozenset()
        if target.is_dir():
            raise DiagnosticError([error(f"{what} '{name}' is a directory; give a file name", span)])
        parent = Path(os.path.realpath(name)).parent if os.path.islink(name) else target.parent
        if not parent.is_dir() and not (make_parent and not parent.exists()):
            raise DiagnosticError([error(f"{what} '{name}': directory '{parent}' does not exist "
                                         "(create it first; nothing creates directories for you)", span)])
        keys = frozenset(_identity(target))
        for inp in self._inputs:
            if keys & inp.keys:
                how = "is" if os.path.realpath(name) == os.path.realpath(inp.path) else "is the same file as"
                raise DiagnosticError([error(f"{what} '{name}' {how} the {inp.what} '{inp.path}'; "
                                             "writing it would destroy the input: choose another output name", span)])
        for other, other_keys in self._outputs:
            if keys & other_keys:
                raise DiagnosticError([error(f"{what} '{name}' and {other.what} '{other.path}' are the same file; "
                                             "give each output its own name", span)])
        return keys

    @property
    def paths(self) -> list[str]:
        return [p.path for p, _ in self._outputs]

    def commit(self) -> list[tuple[str, bool]]:
        """Write every planned output; return (path, written) pairs (False: already held these bytes).

        All temporary files are written before the first rename; any failure
        removes them and re-raises, leaving every target as it was.
        """
        temps: list[tuple[str, str]] = []
        report: list[tuple[str, bool]] = []
        special: list[_Planned] = []
        mode = 0o666 & ~_umask()
        try:
            for planned, _keys in self._outputs:
                if planned.path == STDIO or _is_special(Path(planned.path)):
                    special.append(planned)
                    report.append((planned.path, True))
                    continue
                # through a symbolic link to the file it names: the link stays a link
                target = Path(os.path.realpath(planned.path)) if os.path.islink(planned.path) else Path(planned.path)
                if planned.keep_same and target.is_file() and _same_bytes(target, planned.data):
                    report.append((planned.path, False))
                    continue
                if planned.make_parent:
                    target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = _new_file(target.parent, target.name)
                temps.append((tmp, os.fspath(target)))
                with os.fdopen(fd, "wb") as fh:
                    fh.write(planned.data)
                os.chmod(tmp, mode)  # the file is made 0600; give what a plain open() would
                report.append((planned.path, True))
            for planned in special:
                if planned.path == STDIO:
                    sys.stdout.flush()
                    sys.stdout.buffer.write(planned.data)
                    sys.stdout.buffer.flush()
                else:
                    with open(planned.path, "wb") as fh:
                        fh.write(planned.data)
            # the renames go together: a Ctrl-C waits until they are done (POSIX), so it never
            # leaves some outputs new and others old
            import signal

            block = getattr(signal, "pthread_sigmask", None)
            held = block(signal.SIG_BLOCK, {signal.SIGINT}) if block is not None else None
            try:
                while temps:
                    tmp, target = temps[0]
                    os.replace(tmp, target)
                    temps.pop(0)
            finally:
                if block is not None:
                    block(signal.SIG_SETMASK, held)
        except BaseException:
            # the temporary files made so far; a Ctrl-C can fall between making one and noting it,
            # so every file with this process's temporary name for a planned output goes too
            import glob

            leftovers = {tmp for tmp, _target in temps}
            for planned, _keys in self._outputs:
                target = Path(os.path.realpath(planned.path)) if os.path.islink(planned.path) else Path(planned.path)
                pattern = glob.escape(os.path.join(target.parent, f".{target.name}.{os.getpid()}.")) + "*.tmp"
                leftovers.update(glob.glob(pattern))
            for tmp in leftovers:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
            raise
        return report


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        if path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write one file by the output rule (temporary file + rename; ``-`` is standard output).

    Commands with several outputs or with inputs to protect use ``OutputPlan`` directly.
    """
    plan = OutputPlan()
    plan.add(path, data)
    plan.commit()


def _new_file(directory: Path, name: str) -> tuple[int, str]:
    """A new, empty file ``.NAME.PID.N.tmp`` in ``directory``, open for writing (what
    tempfile.mkstemp does; importing tempfile costs the command milliseconds of its start-up)."""
    for n in range(1000):
        path = os.path.join(directory, f".{name}.{os.getpid()}.{n}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name for {name} in {directory}")
