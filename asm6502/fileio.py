"""Atomic output: a failed run never leaves a partial file behind."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike, data: bytes | str) -> None:
    """Write *data* to *path* via a temporary file in the same directory and rename.

    ``-`` writes to standard output; an existing device or pipe is written directly.

    Text is written as UTF-8 with ``\\n`` line ends, so output is byte-identical
    on every platform.
    """
    target = Path(path)
    payload_early = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if os.fspath(path) == "-":
        sys.stdout.buffer.write(payload_early)
        sys.stdout.flush()
        return
    if target.exists() and not target.is_file():
        # a device or pipe (/dev/stdout, a FIFO): cannot be replaced by a rename
        with open(target, "wb") as fh:
            fh.write(payload_early)
        return
    if target.parent != Path(""):
        target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
        # mkstemp creates 0600; give the file the permissions a plain open() would
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
