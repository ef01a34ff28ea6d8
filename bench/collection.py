"""A collection of real print read from a folder outside the checkout (``--collection DIR``).

The folder holds the third-party files (OCR excerpts of magazine pages, the programs from the
magazine's disk); the repository holds only ``tests/manifests/<folder name>/manifest.jsonl``: one
JSON object a line, ``"kind": "file"`` (the file's name, where it came from -- repository, commit,
path, characters -- its sha256 and git blob id) or ``"kind": "listing"`` (an OCR file, which of its
readings, the disk file that is its truth and, where the page prints only part of the program, the
disk lines it prints: ``lines`` a range, ``not_printed`` the disk lines inside it the page leaves
out, each a number or a range [first, last]).  Every file is read only after its digest was checked.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = ROOT / "tests" / "manifests"


@dataclass(frozen=True)
class Listing:
    ocr: str
    index: int  # which reading of the OCR file (read_listings' order)
    disk: str
    lines: tuple[int, int] | None  # the disk lines this print holds; None: all of them
    what: str
    not_printed: tuple[tuple[int, int], ...] = ()  # ranges of disk lines inside *lines* the print leaves out


@dataclass(frozen=True)
class Collection:
    folder: Path
    files: dict[str, dict]  # name -> its manifest entry
    listings: tuple[Listing, ...]

    @property
    def needed(self) -> set[str]:
        """The files the listings read."""
        return {name for x in self.listings for name in (x.ocr, x.disk)}

    def read(self, name: str) -> str:
        """The file's text, after its sha256 was checked against the manifest."""
        entry = self.files[name]
        data = (self.folder / name).read_bytes()
        got = hashlib.sha256(data).hexdigest()
        if got != entry["sha256"]:
            raise SystemExit(f"{self.folder / name}: sha256 {got} differs from the manifest's {entry['sha256']}")
        return data.decode("utf-8")

    def disk_text(self, listing: Listing) -> str:
        """The disk file of *listing*, only the program lines its print holds (petcat rows
        'NUMBER text'; the other rows kept)."""
        text = self.read(listing.disk)
        if listing.lines is None and not listing.not_printed:
            return text
        lo, hi = listing.lines or (0, 63999)
        rows = []
        for row in text.split("\n"):
            head = row.strip().split(" ", 1)[0]
            if head.isdigit() and (not lo <= int(head) <= hi or any(a <= int(head) <= b for a, b in listing.not_printed)):
                continue
            rows.append(row)
        return "\n".join(rows)


def missing(folder: Path, names: list[str] | None = None) -> str | None:
    """Why *folder* cannot be read as a collection (for a skip), or None: the files *names* (by
    default the files the listings read: an OCR stretch no listing reads, such as a whole page
    for the scan, is needed only where it is read) must be there."""
    manifest = MANIFESTS / folder.name / "manifest.jsonl"
    if not manifest.is_file():
        return f"no manifest {manifest.relative_to(ROOT)} for the collection folder {folder}"
    if not folder.is_dir():
        return f"collection folder {folder} not found"
    entries = _entries(manifest)
    if names is None:
        names = sorted({e[k] for e in entries if e["kind"] == "listing" for k in ("ocr", "disk")})
    absent = [name for name in names if not (folder / name).is_file()]
    return f"{folder}: {len(absent)} files of the manifest absent ({absent[0]}, ...)" if absent else None


def from_environment(variable: str, name: str) -> tuple[Collection | None, str | None]:
    """(the collection *name* in the folder the environment *variable* names, None), or (None, why
    it cannot be read: the variable unset, the folder misnamed, files absent) for a skip."""
    folder = os.environ.get(variable)
    if not folder:
        return None, f"{variable} is not set (the folder of the {name} files: tests/manifests/{name}/manifest.jsonl)"
    if Path(folder).name != name:
        return None, f"{variable}={folder}: the folder must be named {name} (its manifest's name)"
    why = missing(Path(folder))
    return (None, why) if why else (load(folder), None)


def load(folder: str | Path) -> Collection:
    """The collection in *folder*, described by tests/manifests/<its name>/manifest.jsonl."""
    folder = Path(folder)
    why = missing(folder)
    if why:
        raise SystemExit(why)
    entries = _entries(MANIFESTS / folder.name / "manifest.jsonl")
    files = {e["file"]: e for e in entries if e["kind"] == "file"}
    listings = tuple(Listing(e["ocr"], e["index"], e["disk"], tuple(e["lines"]) if e["lines"] else None, e["what"],
                             tuple((n, n) if isinstance(n, int) else (n[0], n[1]) for n in e.get("not_printed", ())))
                     for e in entries if e["kind"] == "listing")
    return Collection(folder, files, listings)


def _entries(manifest: Path) -> list[dict]:
    return [json.loads(row) for row in manifest.read_text(encoding="utf-8").splitlines() if row.strip()]
