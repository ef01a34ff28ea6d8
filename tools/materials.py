#!/usr/bin/env python3
"""Rebuild a collection's third-party files from its manifest and the source repository.

The repository keeps only tests/manifests/<collection>/manifest.jsonl; every ``"kind": "file"``
line names where one file comes from: ``repo``, ``commit``, ``path``, ``chars`` (null: the whole
file; ``[start, end]``: those characters of the file's UTF-8 text, Python slice bounds), its
``sha256`` and, where given, ``git_blob`` (what ``git hash-object`` gives for the file's bytes).
``"upstream_line_ends": "CRLF"`` says the source file ends its lines with CR LF: ``chars`` count
both characters, and the file written has LF line ends.  ``"chars_in": "LF"`` says ``chars`` count
the characters of the file's text with LF line ends, as a file look-up gives it, whatever the
source's line ends (an excerpt cut from such a look-up, where no clone was had to count them).  Lines of any other kind are not files
and are left alone.

usage:
  python tools/materials.py MANIFEST GIT_DIR OUT_DIR [NAME ...]
  python tools/materials.py --answers MANIFEST ANSWERS_DIR OUT_DIR [NAME ...]

GIT_DIR is a git directory holding the manifest's commits (a clone, or what the fetch tool brings:
a folder under the mirror directory); each file is ``git cat-file blob COMMIT:PATH``, then its slice.
Where no clone can be had, ``--answers`` reads the text from saved answers of a file look-up
instead: ANSWERS_DIR holds JSON files ``{"path", "commit", "offset", "text"[, "total_chars"]}``, the text as stored
from *offset* on (a whole file needs answers from 0 to its total_chars; such text has LF line ends,
so a CRLF file's slice is found in them by its sha256, and a whole CRLF file is missing).
NAMEs rebuild only those files of the manifest.

Every file is checked before it is written: its sha256 and git blob id against the manifest's.
Written atomically (a temporary file in OUT_DIR, then linked to its name): a file that fails
leaves nothing, and a file already in OUT_DIR is never replaced (the same bytes: ok; others:
reported, left as they are).  One line a file:

  ok        NAME                      written, or already there with the same bytes
  mismatch  NAME: sha256 ..., the manifest's ...
  missing   NAME: COMMIT:PATH is not in GIT_DIR
  differs   NAME: OUT_DIR/NAME is there with other bytes (not replaced)

Exit status 0 when every file is ok, 1 when any is not, 2 for a manifest that cannot be read (each
bad line named ``MANIFEST:LINE: error: ...``; nothing is written then) or a bad command line.
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

HEX40 = re.compile(r"[0-9a-f]{40}")
HEX64 = re.compile(r"[0-9a-f]{64}")
LINE_ENDS = ("LF", "CRLF")


@dataclass(frozen=True)
class Entry:
    line: int  # its line in the manifest
    file: str
    repo: str
    commit: str
    path: str
    chars: tuple[int, int] | None
    sha256: str
    git_blob: str | None
    crlf: bool  # the source's lines end with CR LF (chars count both; the file gets LF)
    lf_chars: bool = False  # chars count the characters of the text with LF line ends (a look-up's)


class ManifestError(Exception):
    """Lines of a manifest that are not entries; each message is 'MANIFEST:LINE: error: ...'."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__("\n".join(messages))
        self.messages = messages


def read_manifest(manifest: Path) -> list[Entry]:
    """The file entries of *manifest* in its order (ManifestError naming every bad line)."""
    try:
        rows = manifest.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ManifestError([f"{manifest}: error: cannot be read: {e}"]) from None
    entries: list[Entry] = []
    errors: list[str] = []
    seen: dict[str, int] = {}
    for n, row in enumerate(rows, 1):
        if not row.strip():
            continue
        try:
            entry = _entry(n, row)
        except ValueError as e:
            errors.append(f"{manifest}:{n}: error: {e}")
            continue
        if entry is None:
            continue
        if entry.file in seen:
            errors.append(f"{manifest}:{n}: error: file {entry.file!r} is named already on line {seen[entry.file]}")
            continue
        seen[entry.file] = n
        entries.append(entry)
    if errors:
        raise ManifestError(errors)
    return entries


def _entry(n: int, row: str) -> Entry | None:
    """The entry of one manifest line, None for a line that is not a file (ValueError: why not)."""
    try:
        obj = json.loads(row)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON: {e.msg} at column {e.colno}") from None
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    if "kind" not in obj:
        raise ValueError("no 'kind'")
    if obj["kind"] != "file":
        return None
    for key in ("file", "repo", "commit", "path", "sha256"):
        if not isinstance(obj.get(key), str):
            raise ValueError(f"'{key}' must be a string")
    name = obj["file"]
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        raise ValueError(f"'file' must be a plain file name, not {name!r}")
    if not HEX40.fullmatch(obj["commit"]):
        raise ValueError(f"'commit' must be 40 lower-case hex digits, not {obj['commit']!r}")
    if not HEX64.fullmatch(obj["sha256"]):
        raise ValueError(f"'sha256' must be 64 lower-case hex digits, not {obj['sha256']!r}")
    blob = obj.get("git_blob")
    if blob is not None and not (isinstance(blob, str) and HEX40.fullmatch(blob)):
        raise ValueError(f"'git_blob' must be 40 lower-case hex digits, not {blob!r}")
    chars = obj.get("chars")
    if chars is not None:
        if not (isinstance(chars, list) and len(chars) == 2 and all(type(c) is int for c in chars) and 0 <= chars[0] <= chars[1]):
            raise ValueError(f"'chars' must be null or [start, end] with 0 <= start <= end, not {chars!r}")
        chars = (chars[0], chars[1])
    ends = obj.get("upstream_line_ends", "LF")
    if ends not in LINE_ENDS:
        raise ValueError(f"'upstream_line_ends' must be one of {', '.join(LINE_ENDS)}, not {ends!r}")
    counted = obj.get("chars_in", "upstream")
    if counted not in ("upstream", "LF"):
        raise ValueError(f"'chars_in' must be upstream or LF, not {counted!r}")
    if counted == "LF" and ends == "CRLF":
        raise ValueError("'chars_in' LF counts LF characters: 'upstream_line_ends' says nothing then")
    return Entry(n, name, obj["repo"], obj["commit"], obj["path"], chars, obj["sha256"], blob, ends == "CRLF",
                 counted == "LF")


def git_blob_id(data: bytes) -> str:
    """What ``git hash-object`` gives for *data* (SHA-1 of 'blob LENGTH NUL' and the bytes)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class Source(Protocol):
    def content(self, entry: Entry) -> bytes | str:
        """The entry's bytes, or why they cannot be had (a str)."""
        ...


@dataclass(frozen=True)
class GitSource:
    git_dir: Path

    def content(self, entry: Entry) -> bytes | str:
        done = subprocess.run(["git", "--git-dir", str(self.git_dir), "cat-file", "blob", f"{entry.commit}:{entry.path}"],
                              capture_output=True)
        if done.returncode != 0:
            return f"{entry.commit}:{entry.path} is not in {self.git_dir}"
        if entry.chars is None:
            return done.stdout
        try:
            text = done.stdout.decode("utf-8")
        except UnicodeDecodeError as e:
            return f"{entry.commit}:{entry.path} is not UTF-8 text ({e.reason} at byte {e.start}), so it has no characters to slice"
        if entry.lf_chars:
            text = text.replace("\r\n", "\n")
        start, end = entry.chars
        if end > len(text):
            return f"{entry.commit}:{entry.path} has {len(text)} characters, not the {end} that 'chars' needs"
        piece = text[start:end]
        return (piece.replace("\r\n", "\n") if entry.crlf else piece).encode("utf-8")


@dataclass(frozen=True)
class Answer:
    offset: int
    text: str
    total: int | None  # the file's characters, where the answer says


@dataclass(frozen=True)
class AnswerSource:
    """Saved answers of a file look-up: pieces of a file's text (LF line ends) from an offset on."""

    answers: dict[tuple[str, str], tuple[Answer, ...]]  # (commit, path) -> its answers

    @classmethod
    def read(cls, folder: Path) -> AnswerSource:
        found: dict[tuple[str, str], list[Answer]] = {}
        for p in sorted(folder.glob("*.json")):
            try:
                obj = json.loads(p.read_text(encoding="utf-8"))
                key = (obj["commit"], obj["path"])
                answer = Answer(int(obj["offset"]), obj["text"], obj.get("total_chars"))
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise ManifestError([f"{p}: error: not a saved answer ({e})"]) from None
            found.setdefault(key, []).append(answer)
        return cls({k: tuple(sorted(v, key=lambda a: a.offset)) for k, v in found.items()})

    def text(self, commit: str, path: str, start: int, end: int) -> str | None:
        """Characters *start* to *end* of the file, None where the answers leave a gap."""
        got: list[str] = []
        at = start
        for a in self.answers.get((commit, path), ()):
            if a.offset <= at < a.offset + len(a.text):
                piece = a.text[at - a.offset:end - a.offset]
                got.append(piece)
                at += len(piece)
            if at >= end:
                return "".join(got)
        return "".join(got) if at >= end else None

    def find_crlf_slice(self, entry: Entry) -> bytes | None:
        """The stretch of the answers that is *entry*'s slice of a CRLF file, found by its sha256.

        The answers' offsets count LF characters, the manifest's CRLF ones, and how many line ends
        lie before an answer is not known: a stretch is a candidate where its length counted with
        CR LF line ends is the slice's, and it is the slice where its sha256 is the manifest's.
        """
        assert entry.chars is not None
        want = entry.chars[1] - entry.chars[0]
        for a in self.answers.get((entry.commit, entry.path), ()):
            crlf_at = [0]  # crlf_at[i]: characters before a.text[i], counting CR LF line ends
            for ch in a.text:
                crlf_at.append(crlf_at[-1] + (2 if ch == "\n" else 1))
            for p in range(len(a.text)):
                q = bisect.bisect_left(crlf_at, crlf_at[p] + want, lo=p)
                if q > len(a.text) or crlf_at[q] != crlf_at[p] + want:
                    continue
                data = a.text[p:q].encode("utf-8")
                if hashlib.sha256(data).hexdigest() == entry.sha256:
                    return data
        return None

    def content(self, entry: Entry) -> bytes | str:
        where = f"{entry.commit}:{entry.path}"
        if entry.crlf:
            if entry.chars is None:
                return f"{where}: the answers' text has LF line ends, the manifest counts CRLF characters"
            found = self.find_crlf_slice(entry)
            if found is None:
                return f"{where}: no stretch of the answers is characters {entry.chars[0]} to {entry.chars[1]} (found by its sha256)"
            return found
        if entry.chars is None:
            totals = {a.total for a in self.answers.get((entry.commit, entry.path), ()) if a.total is not None}
            if len(totals) != 1:
                return f"{where}: no answer says how long the file is"
            span = (0, totals.pop())
        else:
            span = entry.chars
        text = self.text(entry.commit, entry.path, *span)
        if text is None:
            return f"{where}: the answers do not hold characters {span[0]} to {span[1]}"
        return text.encode("utf-8")


def place(out: Path, entry: Entry, data: bytes) -> tuple[str, str]:
    """Write *data* as OUT/FILE after its checks: (status, what to say of it)."""
    sha = hashlib.sha256(data).hexdigest()
    if sha != entry.sha256:
        return "mismatch", f"sha256 {sha}, the manifest's {entry.sha256} ({len(data)} bytes)"
    if entry.git_blob is not None and git_blob_id(data) != entry.git_blob:
        return "mismatch", f"git blob {git_blob_id(data)}, the manifest's {entry.git_blob}"
    target = out / entry.file
    if target.exists():
        if target.read_bytes() == data:
            return "ok", "already there, the same bytes"
        return "differs", f"{target} is there with other bytes (not replaced)"
    fd, temp = tempfile.mkstemp(dir=out, prefix=f".{entry.file}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.link(temp, target)  # (fails where the name exists: nothing is replaced)
    except FileExistsError:
        return "differs", f"{target} appeared while it was written (not replaced)"
    finally:
        os.unlink(temp)
    return "ok", f"written, {len(data)} bytes"


def rebuild(entries: list[Entry], source: Source, out: Path) -> list[tuple[Entry, str, str]]:
    """Every entry's (entry, status, what to say): ok, mismatch, missing or differs."""
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for entry in entries:
        data = source.content(entry)
        if isinstance(data, str):
            done.append((entry, "missing", data))
        else:
            done.append((entry, *place(out, entry, data)))
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("manifest", type=Path)
    parser.add_argument("source", type=Path, help="GIT_DIR: a git directory holding the manifest's commits (ANSWERS_DIR with --answers)")
    parser.add_argument("out", type=Path, help="the folder to write the files into")
    parser.add_argument("names", nargs="*", help="only these files of the manifest")
    parser.add_argument("--answers", action="store_true", help="SOURCE is a folder of saved file look-up answers")
    args = parser.parse_args(argv)
    try:
        entries = read_manifest(args.manifest)
        source: Source = AnswerSource.read(args.source) if args.answers else GitSource(args.source)
    except ManifestError as e:
        for message in e.messages:
            print(message, file=sys.stderr)
        return 2
    unknown = sorted(set(args.names) - {e.file for e in entries})
    if unknown:
        print(f"{args.manifest}: error: no file {', '.join(unknown)} in the manifest", file=sys.stderr)
        return 2
    if not args.answers and not args.source.is_dir():
        print(f"{args.source}: error: not a folder (the git directory of {', '.join(sorted({e.repo for e in entries}))})", file=sys.stderr)
        return 2
    chosen = [e for e in entries if not args.names or e.file in args.names]
    done = rebuild(chosen, source, args.out)
    for entry, status, said in done:
        print(f"{status:<9} {entry.file}: {said}")
    counts = {s: sum(1 for _, t, _ in done if t == s) for s in ("ok", "mismatch", "missing", "differs")}
    print(", ".join(f"{n} {s}" for s, n in counts.items()))
    return 0 if counts["ok"] == len(done) else 1


if __name__ == "__main__":
    sys.exit(main())
