"""Atomic output: a failed run never leaves a partial file behind."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write *data* to *path* via a temporary file in the same directory and rename.

    ``-`` writes to standard output; an existing device or pipe is written directly.

    Text is written as UTF-8 with ``\\n`` line ends, so output is byte-identical
    on every platform.
    """
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if os.fspath(path) == "-":
        sys.stdout.buffer.write(payload)
        sys.stdout.flush()
        return
    if target.exists() and not target.is_file():
        # a device or pipe (/dev/stdout, a FIFO): cannot be replaced by a rename
        with open(target, "wb") as fh:
            fh.write(payload)
        return
    if target.parent != Path(""):
        target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _new_file(target.parent, target.name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        # the file is made 0600; give the file the permissions a plain open() would
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
