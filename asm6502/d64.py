"""Commodore 1541 disk images (.d64): directory, read, add files, format.

A .d64 file is the 683 sectors of a 1541 disk, 256 bytes each, track by track
(tracks 1-35, sectors from 0).  Facts used here (1541 User's Guide, appendix
"1541 BAM format" / "directory file format"; Peter Schepers, D64.TXT and
DISK.TXT):

* sectors per track: 21 (tracks 1-17), 19 (18-24), 18 (25-30), 17 (31-35);
* track 18 sector 0 holds the BAM (block availability map, one bit per sector,
  1 = free) and the disk header (name, ID, DOS type "2A");
* the directory is a sector chain starting at 18/1, 8 entries of 32 bytes per
  sector, at most 144 entries (18 sectors);
* every file is a chain: bytes 0-1 of a sector point to the next track/sector;
  in the last sector byte 0 is 0 and byte 1 is the index of the last used byte;
* the 1541 DOS lays files out with a sector interleave of 10 (3 on the
  directory track) and grows them away from track 18.

Images are built deterministically: the same files added in the same order
give the same bytes.  Unused sectors and unused tail bytes are $00.

Why not a library: the PyPI packages ``d64`` (GPL-2.0) and ``d64py``
(AGPL-3.0, cannot write files) have licences incompatible with this MIT
project, so this is a small module of our own, checked in the tests against
the independent tools cc1541 and cbmconvert.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from asm6502.diagnostics import DiagnosticError, error
from asm6502.petscii import SHIFTED_SPACE, display_name, typed_code

# --- geometry (1541 User's Guide, "1541 block distribution by track") ---------

TRACKS = 35
SECTOR_SIZE = 256
# sectors on track t are SECTORS_PER_TRACK[t - 1]
SECTORS_PER_TRACK: tuple[int, ...] = (21,) * 17 + (19,) * 7 + (18,) * 6 + (17,) * 5
TOTAL_SECTORS = sum(SECTORS_PER_TRACK)  # 683
IMAGE_SIZE = TOTAL_SECTORS * SECTOR_SIZE  # 174848
IMAGE_SIZE_WITH_ERRORS = IMAGE_SIZE + TOTAL_SECTORS  # 175531: one error byte per sector appended
TRACK_OFFSET: tuple[int, ...] = tuple(sum(SECTORS_PER_TRACK[:t]) for t in range(TRACKS))

DIR_TRACK = 18
BAM_SECTOR = 0
FIRST_DIR_SECTOR = 1
FILE_INTERLEAVE = 10  # 1541 DOS default for file blocks
DIR_INTERLEAVE = 3  # 1541 DOS, directory blocks on track 18
DATA_BYTES = SECTOR_SIZE - 2  # 254 bytes of data after the track/sector link
ENTRY_SIZE = 32
ENTRIES_PER_SECTOR = SECTOR_SIZE // ENTRY_SIZE
MAX_NAME = 16


# --- BAM / header sector 18/0 (1541 User's Guide, "1541 BAM format") ----------

BAM_ENTRIES = 0x04  # 4 bytes per track: free count, then 3 bitmap bytes
HEADER_NAME = 0x90  # 16 bytes, padded with $A0
HEADER_ID = 0xA2  # 2 bytes disk ID
HEADER_DOS_TYPE = 0xA5  # "2A"
DOS_VERSION = 0x41  # "A" at byte 2: 1541/4040 format
DOS_TYPE = b"2A"

# --- directory entry (offsets inside the 32 bytes) ---------------------------

ENTRY_TYPE = 0x02
ENTRY_TS = 0x03
ENTRY_NAME = 0x05
ENTRY_SIDE = 0x15  # REL files: the first side sector's track and sector
ENTRY_BLOCKS = 0x1E

TYPE_CLOSED = 0x80  # bit 7: file properly closed (shown "*" when clear)
TYPE_LOCKED = 0x40  # bit 6: locked (shown "<")


class FileType(IntEnum):
    DEL = 0
    SEQ = 1
    PRG = 2
    USR = 3
    REL = 4


# --- PETSCII file names ------------------------------------------------------
#
# A C64 starts in upper case/graphics mode: unshifted letters $41-$5A show as
# capitals.  So both "superhirn ii" and "SUPERHIRN II" name the file typed on
# a C64 as LOAD"SUPERHIRN II",8 (``petscii.typed_code``; shown back by
# ``petscii.display_name``).  Any other byte is written {$XX}.

# characters the DOS command parser gives a meaning: wildcards and separators
_RESERVED_IN_NAMES = set(',:=*?"')


def petscii_name(text: str, *, what: str = "file name", patterns: bool = False) -> bytes:
    """Turn a name as typed on a PC into the PETSCII a C64 user would type.

    ``{$XX}`` gives any byte.  Raises ValueError with the reason.  With
    *patterns*, the DOS wildcards ``*`` and ``?`` are allowed.
    """
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if text.startswith("{$", i):
            end = text.find("}", i)
            digits = text[i + 2 : end] if end > 0 else ""
            value = int(digits, 16) if len(digits) == 2 and all(c in "0123456789abcdefABCDEF" for c in digits) else -1
            if not 0 <= value <= 0xFF:
                raise ValueError(f"bad escape in {what} {text!r}: use {{$XX}} with two hex digits")
            out.append(value)
            i = end + 1
            continue
        code = typed_code(ch)
        if ch in _RESERVED_IN_NAMES and not (patterns and ch in "*?"):
            raise ValueError(f"{what} {text!r} contains {ch!r}, which the 1541 DOS treats as a separator or wildcard")
        if code is not None:
            out.append(code)
        else:
            raise ValueError(f"{what} {text!r} contains {ch!r}, which has no PETSCII code (write {{$XX}} for a byte)")
        i += 1
    if not out:
        raise ValueError(f"{what} is empty")
    if len(out) > MAX_NAME:
        raise ValueError(f"{what} {text!r} is {len(out)} characters long; the 1541 allows at most {MAX_NAME}")
    if SHIFTED_SPACE in out:
        raise ValueError(f"{what} {text!r} contains $A0, which pads names in the directory")
    return bytes(out)


def name_matches(pattern: bytes, name: bytes) -> bool:
    """1541 DOS name matching: ``?`` matches one character, ``*`` the rest."""
    for i, p in enumerate(pattern):
        if p == ord("*"):
            return True
        if i >= len(name) or (p != ord("?") and p != name[i]):
            return False
    return len(pattern) == len(name)


# --- image ------------------------------------------------------------------


@dataclass(frozen=True)
class DirEntry:
    """One directory entry as the DOS stores it."""

    name: bytes  # PETSCII, without the $A0 padding
    type_byte: int
    track: int
    sector: int
    blocks: int
    slot: tuple[int, int, int]  # directory track, sector, entry index

    @property
    def file_type(self) -> int:
        return self.type_byte & 0x0F

    @property
    def closed(self) -> bool:
        return bool(self.type_byte & TYPE_CLOSED)

    @property
    def locked(self) -> bool:
        return bool(self.type_byte & TYPE_LOCKED)

    @property
    def type_name(self) -> str:
        try:
            return FileType(self.file_type).name
        except ValueError:
            return "???"

    @property
    def display_name(self) -> str:
        return display_name(self.name)


@dataclass(frozen=True)
class DiskHeader:
    name: bytes  # without padding
    disk_id: bytes  # 2 bytes
    dos_type: bytes  # 2 bytes, "2A" on a 1541 disk
    shown: bytes  # the 5 bytes a directory shows after the name: ID, $A0, DOS type


@dataclass(frozen=True)
class Validation:
    """What ``DiskImage.validate`` changed."""

    freed: tuple[tuple[int, int], ...]  # blocks the BAM showed in use that no chain uses (lost blocks), now free
    taken: tuple[tuple[int, int], ...]  # blocks a chain uses that the BAM showed free, now in use
    removed: tuple[DirEntry, ...]  # unclosed files, taken out of the directory
    recounted: tuple[int, ...]  # tracks whose free count disagreed with their bits, now counted from them

    @property
    def changed(self) -> bool:
        return bool(self.freed or self.taken or self.removed or self.recounted)


def _fail(origin: str, message: str) -> DiagnosticError:
    # Binary images have no lines; the image name leads the message instead.
    return DiagnosticError([error(f"{origin}: {message}")])


class DiskImage:
    """A 35-track 1541 image held in memory.  Change it, then ``to_bytes()``."""

    def __init__(self, data: bytes | bytearray, origin: str = "<d64>"):
        self.origin = origin
        if len(data) not in (IMAGE_SIZE, IMAGE_SIZE_WITH_ERRORS):
            raise _fail(
                origin,
                f"not a 35-track .d64 image: {len(data)} bytes "
                f"(expected {IMAGE_SIZE}, or {IMAGE_SIZE_WITH_ERRORS} with error bytes)",
            )
        self._data = bytearray(data)
        bam = self._sector(DIR_TRACK, BAM_SECTOR)
        if bam[0] != DIR_TRACK:
            raise _fail(origin, f"BAM sector 18/0 does not point to the directory track (byte 0 is {bam[0]})")

    # -- construction --

    @classmethod
    def format(cls, disk_name: bytes, disk_id: bytes, origin: str = "<d64>") -> DiskImage:
        """A freshly formatted disk, like the 1541 command NEW"NAME,ID"."""
        if not 1 <= len(disk_name) <= MAX_NAME:
            raise _fail(origin, f"disk name must be 1 to {MAX_NAME} characters")
        if len(disk_id) != 2:
            raise _fail(origin, "disk ID must be 2 characters")
        image = cls.__new__(cls)
        image.origin = origin
        image._data = bytearray(IMAGE_SIZE)
        bam = bytearray(SECTOR_SIZE)
        bam[0:4] = bytes([DIR_TRACK, FIRST_DIR_SECTOR, DOS_VERSION, 0x00])
        for track in range(1, TRACKS + 1):
            count = SECTORS_PER_TRACK[track - 1]
            bits = (1 << count) - 1
            at = BAM_ENTRIES + 4 * (track - 1)
            bam[at] = count
            bam[at + 1 : at + 4] = bits.to_bytes(3, "little")
        bam[HEADER_NAME : HEADER_NAME + MAX_NAME] = disk_name.ljust(MAX_NAME, bytes([SHIFTED_SPACE]))
        bam[0xA0:0xA2] = bytes([SHIFTED_SPACE]) * 2
        bam[HEADER_ID : HEADER_ID + 2] = disk_id
        bam[0xA4] = SHIFTED_SPACE
        bam[HEADER_DOS_TYPE : HEADER_DOS_TYPE + 2] = DOS_TYPE
        bam[0xA7:0xAB] = bytes([SHIFTED_SPACE]) * 4
        image._put(DIR_TRACK, BAM_SECTOR, bam)
        image._allocate(DIR_TRACK, BAM_SECTOR)
        image._allocate(DIR_TRACK, FIRST_DIR_SECTOR)
        image._put(DIR_TRACK, FIRST_DIR_SECTOR, bytes([0x00, 0xFF]) + bytes(SECTOR_SIZE - 2))
        return image

    def to_bytes(self) -> bytes:
        return bytes(self._data)

    # -- sectors --

    def _check_ts(self, track: int, sector: int, what: str) -> None:
        if not (1 <= track <= TRACKS and 0 <= sector < SECTORS_PER_TRACK[track - 1]):
            raise _fail(self.origin, f"{what} points to track {track} sector {sector}, which a 1541 disk does not have")

    def _offset(self, track: int, sector: int) -> int:
        return (TRACK_OFFSET[track - 1] + sector) * SECTOR_SIZE

    def _sector(self, track: int, sector: int) -> bytes:
        at = self._offset(track, sector)
        return bytes(self._data[at : at + SECTOR_SIZE])

    def _put(self, track: int, sector: int, data: bytes | bytearray) -> None:
        at = self._offset(track, sector)
        self._data[at : at + SECTOR_SIZE] = data

    def _chain(self, track: int, sector: int, what: str) -> list[tuple[int, int, bytes]]:
        """Follow a sector chain; each element is (track, sector, contents)."""
        seen: set[tuple[int, int]] = set()
        out = []
        while True:
            self._check_ts(track, sector, what)
            if (track, sector) in seen:
                raise _fail(self.origin, f"{what} loops back to track {track} sector {sector}")
            seen.add((track, sector))
            contents = self._sector(track, sector)
            out.append((track, sector, contents))
            if contents[0] == 0:
                return out
            track, sector = contents[0], contents[1]

    # -- BAM --

    def _bam_at(self, track: int) -> int:
        return self._offset(DIR_TRACK, BAM_SECTOR) + BAM_ENTRIES + 4 * (track - 1)

    def is_free(self, track: int, sector: int) -> bool:
        at = self._bam_at(track) + 1 + sector // 8
        return bool(self._data[at] & (1 << (sector % 8)))

    def _track_has_free(self, track: int) -> bool:
        return any(self.is_free(track, s) for s in range(SECTORS_PER_TRACK[track - 1]))

    def _allocate(self, track: int, sector: int) -> None:
        at = self._bam_at(track)
        bit = 1 << (sector % 8)
        if self._data[at + 1 + sector // 8] & bit:
            self._data[at + 1 + sector // 8] &= ~bit & 0xFF
            self._data[at] = max(0, self._data[at] - 1)

    def _free(self, track: int, sector: int) -> None:
        at = self._bam_at(track)
        bit = 1 << (sector % 8)
        if not self._data[at + 1 + sector // 8] & bit:
            self._data[at + 1 + sector // 8] |= bit
            self._data[at] = min(0xFF, self._data[at] + 1)

    def bam_mismatches(self) -> list[tuple[int, int, int]]:
        """Tracks whose free count disagrees with their bitmap: (track, count, free bits)."""
        out = []
        for track in range(1, TRACKS + 1):
            bits = sum(self.is_free(track, s) for s in range(SECTORS_PER_TRACK[track - 1]))
            count = self._data[self._bam_at(track)]
            if bits != count:
                out.append((track, count, bits))
        return out

    def blocks_free(self) -> int:
        """What the directory's last line shows: free counts of all tracks but 18."""
        return sum(self._data[self._bam_at(t)] for t in range(1, TRACKS + 1) if t != DIR_TRACK)

    # -- 1541 DOS block allocation (DISK.TXT, "Disk File Layout") --

    def _first_block(self) -> tuple[int, int] | None:
        """First block of a new file: the free track nearest to track 18,
        below before above (17, 19, 16, 20, ...), its first free sector."""
        for distance in range(1, TRACKS):
            for track in (DIR_TRACK - distance, DIR_TRACK + distance):
                if 1 <= track <= TRACKS and self._track_has_free(track):
                    return track, next(s for s in range(SECTORS_PER_TRACK[track - 1]) if self.is_free(track, s))
        return None

    def _next_block(self, track: int, sector: int, interleave: int) -> tuple[int, int] | None:
        """The block after (track, sector).

        Tracks are tried in three passes: from this track away from track 18,
        then the other half from track 18 outwards, then this half again from
        track 18.  On the first pass the sector advances by the interleave
        (wrapping, and one sector back after passing sector 0); after a jump
        to the other half the search starts at sector 0.  The first free
        sector from there is taken.  The directory never leaves track 18.
        """
        if track == DIR_TRACK:
            order = [(DIR_TRACK, False)]
        else:
            out = -1 if track < DIR_TRACK else 1  # away from the directory
            last = 1 if out < 0 else TRACKS
            other_last = TRACKS if out < 0 else 1
            order = [(t, False) for t in range(track, last + out, out)]
            order += [(t, True) for t in range(DIR_TRACK - out, other_last - out, -out)]
            order += [(t, True) for t in range(DIR_TRACK + out, last + out, out)]
        for t, restart in order:
            if not self._track_has_free(t):
                continue
            count = SECTORS_PER_TRACK[t - 1]
            s = 0
            if not restart:
                s = sector + interleave
                while s >= count:
                    s -= count
                    if s > 0:
                        s -= 1  # the DOS steps one sector back after wrapping
            while not self.is_free(t, s):
                s = (s + 1) % count
            return t, s
        return None

    # -- header and directory --

    def header(self) -> DiskHeader:
        bam = self._sector(DIR_TRACK, BAM_SECTOR)
        name = bam[HEADER_NAME : HEADER_NAME + MAX_NAME].rstrip(bytes([SHIFTED_SPACE]))
        return DiskHeader(
            name,
            bam[HEADER_ID : HEADER_ID + 2],
            bam[HEADER_DOS_TYPE : HEADER_DOS_TYPE + 2],
            bam[HEADER_ID : HEADER_DOS_TYPE + 2],
        )

    def _dir_sectors(self) -> list[tuple[int, int, bytes]]:
        return self._chain(DIR_TRACK, FIRST_DIR_SECTOR, "the directory chain")

    def directory(self, include_deleted: bool = False) -> list[DirEntry]:
        """Entries in directory order; scratched/empty slots (type $00) skipped."""
        entries = []
        for track, sector, contents in self._dir_sectors():
            for index in range(ENTRIES_PER_SECTOR):
                raw = contents[index * ENTRY_SIZE : (index + 1) * ENTRY_SIZE]
                if raw[ENTRY_TYPE] == 0 and not include_deleted:
                    continue
                name = raw[ENTRY_NAME : ENTRY_NAME + MAX_NAME].rstrip(bytes([SHIFTED_SPACE]))
                entries.append(
                    DirEntry(
                        name=name,
                        type_byte=raw[ENTRY_TYPE],
                        track=raw[ENTRY_TS],
                        sector=raw[ENTRY_TS + 1],
                        blocks=int.from_bytes(raw[ENTRY_BLOCKS : ENTRY_BLOCKS + 2], "little"),
                        slot=(track, sector, index),
                    )
                )
        return entries

    def find(self, pattern: bytes) -> DirEntry | None:
        """The first file whose name matches (DOS wildcards ``*``, ``?``)."""
        for entry in self.directory():
            if name_matches(pattern, entry.name):
                return entry
        return None

    def read_file(self, entry: DirEntry) -> bytes:
        """The file's bytes (for a PRG, starting with its load address)."""
        what = f'file "{entry.display_name}"'
        out = bytearray()
        for _track, _sector, contents in self._chain(entry.track, entry.sector, what):
            if contents[0] == 0:
                last = contents[1]
                if last < 1:
                    raise _fail(self.origin, f"{what}: last block has byte count {last}")
                out += contents[2 : last + 1]
            else:
                out += contents[2:]
        return bytes(out)

    # -- writing --

    def _free_slot(self) -> tuple[int, int, int]:
        """The first directory slot with type $00; a new directory block if
        all are used (interleave 3 on track 18)."""
        sectors = self._dir_sectors()
        for track, sector, contents in sectors:
            for index in range(ENTRIES_PER_SECTOR):
                if contents[index * ENTRY_SIZE + ENTRY_TYPE] == 0:
                    return track, sector, index
        last_track, last_sector, last = sectors[-1]
        new = self._next_block(last_track, last_sector, DIR_INTERLEAVE)
        if new is None:
            raise _fail(self.origin, "directory full (144 files)")
        self._allocate(*new)
        self._put(last_track, last_sector, bytes(new) + last[2:])
        self._put(*new, bytes([0x00, 0xFF]) + bytes(SECTOR_SIZE - 2))
        return new[0], new[1], 0

    def delete(self, entry: DirEntry) -> None:
        """Scratch a file: free its blocks, mark the slot $00 (DOS S: command)."""
        if entry.closed:
            for track, sector, _ in self._chain(entry.track, entry.sector, f'file "{entry.display_name}"'):
                self._free(track, sector)
        track, sector, index = entry.slot
        contents = bytearray(self._sector(track, sector))
        contents[index * ENTRY_SIZE + ENTRY_TYPE] = 0
        self._put(track, sector, bytes(contents))

    def validate(self) -> Validation:
        """Rebuild the BAM from the chains, as the DOS command V (validate) does: every block free, then the BAM
        sector and the directory chain taken, then each closed file's chain and its side-sector chain (at entry
        bytes $15-$16: the drive follows it for every closed file, not only REL ones); an unclosed file ("splat",
        shown ``*``) is removed from the directory, its blocks left free.  A chain that leaves the disk is
        66, ILLEGAL TRACK OR SECTOR, a block two chains claim (or a chain that loops) 65, NO BLOCK: then the
        image is left as it was (VICE's vdrive_command_validate, src/vdrive/vdrive-command.c, keeps the old BAM
        so)."""
        claimed: dict[tuple[int, int], str] = {}

        def take(track: int, sector: int, what: str) -> None:
            while track:
                if not (1 <= track <= TRACKS and 0 <= sector < SECTORS_PER_TRACK[track - 1]):
                    raise _fail(self.origin, f"{what} points to track {track} sector {sector}, which a 1541 disk does not "
                                             "have (66, ILLEGAL TRACK OR SECTOR); nothing was changed")
                if (track, sector) in claimed:
                    raise _fail(self.origin, f"{what} uses track {track} sector {sector}, which {claimed[(track, sector)]} "
                                             "uses already (65, NO BLOCK); nothing was changed")
                claimed[(track, sector)] = what
                contents = self._sector(track, sector)
                track, sector = contents[0], contents[1]

        take(DIR_TRACK, BAM_SECTOR, "the directory chain")
        removed = []
        for entry in self.directory():
            what = f'file "{entry.display_name}"'
            if entry.closed:
                take(entry.track, entry.sector, what)
                track, sector, index = entry.slot
                raw = self._sector(track, sector)[index * ENTRY_SIZE : (index + 1) * ENTRY_SIZE]
                take(raw[ENTRY_SIDE], raw[ENTRY_SIDE + 1], f"{what}'s side sectors")
            else:
                removed.append(entry)
        before = [(t, s) for t in range(1, TRACKS + 1) for s in range(SECTORS_PER_TRACK[t - 1]) if not self.is_free(t, s)]
        miscounted = tuple(track for track, _count, _bits in self.bam_mismatches())
        for entry in removed:
            track, sector, index = entry.slot
            contents = bytearray(self._sector(track, sector))
            contents[index * ENTRY_SIZE + ENTRY_TYPE] = 0
            self._put(track, sector, bytes(contents))
        for track in range(1, TRACKS + 1):
            count = SECTORS_PER_TRACK[track - 1]
            at = self._bam_at(track)
            self._data[at] = count
            self._data[at + 1 : at + 4] = ((1 << count) - 1).to_bytes(3, "little")
        for block in claimed:
            self._allocate(*block)
        used = set(before)
        return Validation(
            freed=tuple(sorted(used - claimed.keys())),
            taken=tuple(sorted(claimed.keys() - used)),
            removed=tuple(removed),
            recounted=miscounted,
        )

    def rename_file(self, entry: DirEntry, name: bytes) -> None:
        """Give a file another name, padded with shifted spaces (DOS R:NEW=OLD); no other file
        may have it (63, FILE EXISTS)."""
        if len(name) > MAX_NAME:
            raise _fail(self.origin, f'file name "{display_name(name)}" is longer than {MAX_NAME} characters')
        if any(other.name == name for other in self.directory()):
            raise _fail(self.origin, f'a file "{display_name(name)}" is on the disk already (63, FILE EXISTS)')
        track, sector, index = entry.slot
        contents = bytearray(self._sector(track, sector))
        at = index * ENTRY_SIZE + ENTRY_NAME
        contents[at:at + MAX_NAME] = name + bytes([SHIFTED_SPACE]) * (MAX_NAME - len(name))
        self._put(track, sector, bytes(contents))

    def add_file(self, name: bytes, data: bytes, file_type: FileType = FileType.PRG, replace: bool = False) -> DirEntry:
        """Write a file as the 1541 DOS would lay it out; return its entry."""
        display = display_name(name)
        if not 1 <= len(name) <= MAX_NAME:
            raise _fail(self.origin, f'file name "{display}" must be 1 to {MAX_NAME} characters')
        if not data:
            raise _fail(self.origin, f'file "{display}" is empty; a 1541 file holds at least one byte')
        bad = self.bam_mismatches()
        if bad:
            shown = "; ".join(f"track {t} counts {c} free blocks, its bitmap {b}" for t, c, b in bad[:3])
            more = f" (and {len(bad) - 3} more tracks)" if len(bad) > 3 else ""
            raise _fail(self.origin, f"the BAM is inconsistent: {shown}{more}; writing to it would damage "
                        "files (validate the disk first, as the 1541's VALIDATE command does)")
        existing = next((e for e in self.directory() if e.name == name), None)
        if existing is not None:
            if not replace:
                raise _fail(self.origin, f'file "{display}" exists already (use --replace to overwrite it)')
            self.delete(existing)
        blocks = -(-len(data) // DATA_BYTES)
        if blocks > self.blocks_free():
            raise _fail(self.origin, f'disk full: file "{display}" needs {blocks} blocks, {self.blocks_free()} free')
        slot = self._free_slot()
        chain: list[tuple[int, int]] = []
        for _ in range(blocks):
            ts = self._first_block() if not chain else self._next_block(*chain[-1], FILE_INTERLEAVE)
            assert ts is not None  # blocks_free() was checked above
            self._allocate(*ts)
            chain.append(ts)
        for i, (track, sector) in enumerate(chain):
            piece = data[i * DATA_BYTES : (i + 1) * DATA_BYTES]
            link = bytes(chain[i + 1]) if i + 1 < len(chain) else bytes([0, len(piece) + 1])
            self._put(track, sector, (link + piece).ljust(SECTOR_SIZE, b"\x00"))
        track, sector, index = slot
        contents = bytearray(self._sector(track, sector))
        raw = bytearray(ENTRY_SIZE)
        raw[0:2] = contents[index * ENTRY_SIZE : index * ENTRY_SIZE + 2]  # entry 0 holds the sector link
        raw[ENTRY_TYPE] = TYPE_CLOSED | int(file_type)
        raw[ENTRY_TS : ENTRY_TS + 2] = bytes(chain[0])
        raw[ENTRY_NAME : ENTRY_NAME + MAX_NAME] = name.ljust(MAX_NAME, bytes([SHIFTED_SPACE]))
        raw[ENTRY_BLOCKS : ENTRY_BLOCKS + 2] = blocks.to_bytes(2, "little")
        contents[index * ENTRY_SIZE : (index + 1) * ENTRY_SIZE] = raw
        self._put(track, sector, bytes(contents))
        return DirEntry(name, raw[ENTRY_TYPE], chain[0][0], chain[0][1], blocks, slot)

    # -- the directory as LOAD"$",8 : LIST shows it --

    def listing(self) -> list[str]:
        """Directory lines as a C64 LISTs them (1541 DOS directory format):
        ``0 "NAME            " ID 2A``, one line per file, ``N BLOCKS FREE.``"""
        head = self.header()
        lines = [f'0 "{display_name(head.name).ljust(MAX_NAME)}" {display_name(head.shown)}']
        for entry in self.directory():
            # LIST prints the line number and a space; the DOS pads the line so
            # that the quote is in column 6 (3/2/1 spaces for 1/2/3 digits).
            pad = " " * max(1, 4 - len(str(entry.blocks)))
            name = f'"{entry.display_name}"'
            splat = " " if entry.closed else "*"
            lock = "<" if entry.locked else ""
            lines.append(f"{entry.blocks} {pad}{name.ljust(MAX_NAME + 2)}{splat}{entry.type_name}{lock}")
        lines.append(f"{self.blocks_free()} BLOCKS FREE.")
        return lines


def parse_disk_spec(text: str) -> tuple[bytes, bytes]:
    """``"NAME,ID"`` (as in the 1541 command NEW"NAME,ID") -> PETSCII name and ID."""
    name, sep, disk_id = text.rpartition(",")
    if not sep:
        raise ValueError(f'disk {text!r}: write "DISKNAME,ID", e.g. "ASM6502,64"')
    name_bytes = petscii_name(name, what="disk name")
    id_bytes = petscii_name(disk_id, what="disk ID")
    if len(id_bytes) != 2:
        raise ValueError(f"disk ID {disk_id!r} must be 2 characters")
    return name_bytes, id_bytes
