"""Device 8 as VICE's virtual device does it: the KERNAL's serial-bus
routines (LISTEN, TALK, SECOND, TKSA, CIOUT, ACPTR, UNLSN, UNTLK) are trapped
and answered by a small 1541 DOS working on a .d64 image or a folder.  The
KERNAL's own LOAD, SAVE, OPEN, CHKIN, CHKOUT, GET#, PRINT# and CLOSE run
unchanged above them, so their messages (SEARCHING FOR, LOADING, ?FILE NOT
FOUND ERROR) are the ROM's.

Bus protocol (1541 user's guide; Mapping the C64, $ED09-$EE13): after LISTEN,
a secondary address $Fx opens channel x with the name sent next, $Ex closes
it, $6x sends data to it; after TALK, $6x reads channel x.  The status ST
($90) gets $40 with the last byte (EOI), $02 on a read with nothing to send
(the KERNAL's LOAD turns it into FILE NOT FOUND), $80 when no device answers.
Writes (SAVE, OPEN ...,W) change the in-memory copy only.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from asm6502 import d64
from asm6502.fileio import MAX_PRG_BYTES, Files

ST_TIMEOUT_READ = 0x02
ST_EOI = 0x40
ST_DEVICE_NOT_PRESENT = 0x80
COMMAND_CHANNEL = 15

_TYPES = {"P": "PRG", "S": "SEQ", "U": "USR", "R": "REL"}


class DiskFile:
    """A file of device 8's disk. A folder's file is read when it is first loaded (*load*; its
    *size* in the directory until then): a folder of thousands of files costs its listing only."""

    def __init__(self, name: bytes, type_name: str, data: bytes = b"", *, size: int | None = None,
                 load: Callable[[], bytes] | None = None):
        self.name = name  # PETSCII
        self.type_name = type_name  # PRG, SEQ, USR
        self._data = data
        self._size = len(data) if size is None else size
        self._load = load

    @property
    def data(self) -> bytes:
        if self._load is not None:
            self._data, self._load = self._load(), None
            self._size = len(self._data)
        return self._data

    @property
    def blocks(self) -> int:
        return max(1, (self._size + 253) // 254)


@dataclass
class Channel:
    data: bytearray = field(default_factory=bytearray)
    pos: int = 0
    writing: bool = False
    name: bytes = b""
    type_name: str = "PRG"


class Disk:
    """The files of a .d64 image or of a folder (``NAME.prg`` -> ``NAME``, PRG)."""

    def __init__(self, title: bytes, disk_id: bytes, files: list[DiskFile], blocks_free: int):
        self.title = title
        self.disk_id = disk_id
        self.files = files
        self.blocks_free = blocks_free

    @classmethod
    def load(cls, path: str, files: Files | None = None) -> Disk:
        """Device 8's disk: a .d64 image or a folder, read through the command's gate *files*.

        A folder is a disk as an SD2IEC shows one: its files first (``NAME.prg``, ``.seq``,
        ``.usr`` -> ``NAME`` of that type; any other file under its whole name, as a PRG), then
        the files of the .d64 images in it, image by image in name order -- a name already on the
        disk hides a later file of that name.  So a test program next to the .d64 holding its data
        finds both.  A folder's files are its inputs the moment they are listed (no output may
        replace one) and each is read when the C64 first loads it; writes stay in memory."""
        gate = files or Files()
        p = Path(path)
        if not p.is_dir():
            image = _image(p, gate)
            head = image.header()
            return cls(head.name, head.disk_id, _image_files(image), image.blocks_free())
        found: list[DiskFile] = []
        images: list[Path] = []
        for child in sorted(p.iterdir()):
            if not child.is_file():
                continue
            stem, ext = os.path.splitext(child.name)
            if ext.lower() == ".d64":
                images.append(child)
                continue
            type_name = ext[1:].upper() if ext.lower() in (".prg", ".seq", ".usr") else "PRG"
            name = (stem if ext.lower() in (".prg", ".seq", ".usr") else child.name).upper()
            try:
                petscii = d64.petscii_name(name[:16])
            except (ValueError, d64.DiagnosticError):
                continue
            gate.add_input(child, "disk file")
            found.append(DiskFile(petscii, type_name, size=child.stat().st_size,
                                  load=partial(gate.read, child, MAX_PRG_BYTES, "disk file")))
        for child in images:
            names = {f.name for f in found}
            found += [f for f in _image_files(_image(child, gate)) if f.name not in names]
        title = d64.petscii_name(p.name.upper()[:16] or "DISK")
        return cls(title, b"00", found, 664 - sum(f.blocks for f in found))

    def find(self, pattern: bytes) -> DiskFile | None:
        for f in self.files:
            if d64.name_matches(pattern, f.name):
                return f
        return None

    def directory_program(self, pattern: bytes = b"*") -> bytes:
        """LOAD"$",8: the directory as the 1541 sends it, a BASIC program at $0401."""
        lines: list[tuple[int, bytes]] = []
        head = b'\x12"' + self.title.ljust(16, b" ") + b'" ' + self.disk_id + b" 2A"
        lines.append((0, head))
        for f in self.files:
            if not d64.name_matches(pattern, f.name):
                continue
            pad = b" " * max(1, 4 - len(str(f.blocks)))
            quoted = (b'"' + f.name + b'"').ljust(18, b" ")
            lines.append((f.blocks, pad + quoted + b" " + f.type_name.encode()))
        lines.append((max(0, self.blocks_free), b"BLOCKS FREE.".ljust(25, b" ")))
        out = bytearray(b"\x01\x04")
        for number, text in lines:
            out += b"\x01\x01" + number.to_bytes(2, "little") + text + b"\x00"
        out += b"\x00\x00"
        return bytes(out)

    def save(self, name: bytes, type_name: str, data: bytes) -> bool:
        replace = name.startswith(b"@")
        if replace:
            name = name.split(b":", 1)[-1]
        existing = next((f for f in self.files if f.name == name), None)
        if existing is not None and not replace:
            return False
        if existing is not None:
            self.files.remove(existing)
        self.files.append(DiskFile(name, type_name, bytes(data)))
        self.blocks_free -= max(1, (len(data) + 253) // 254)
        return True


def _image(path: Path, gate: Files) -> d64.DiskImage:
    return d64.DiskImage(gate.read(path, d64.IMAGE_SIZE_WITH_ERRORS, "disk image"), str(path))


def _image_files(image: d64.DiskImage) -> list[DiskFile]:
    return [DiskFile(e.name, e.type_name, image.read_file(e)) for e in image.directory()]


class Drive:
    """The DOS of device ``number``; ``disk`` None = no drive on the bus."""

    def __init__(self, disk: Disk | None, number: int = 8):
        self.disk = disk
        self.number = number
        self.channels: dict[int, Channel] = {}
        self.status = b"73,CBM DOS V2.6 1541,00,00\r"
        self.listening = False
        self.talking = False
        self.secondary = 0  # $Fx / $Ex / $6x as received
        self.name_buffer = bytearray()
        self.log: list[str] = []

    def present(self, device: int) -> bool:
        return self.disk is not None and device == self.number

    # -- bus commands ----------------------------------------------------------
    def listen(self, device: int) -> int:
        self.listening = self.present(device)
        self.secondary = 0
        return 0 if self.listening else ST_DEVICE_NOT_PRESENT

    def talk(self, device: int) -> int:
        self.talking = self.present(device)
        return 0 if self.talking else ST_DEVICE_NOT_PRESENT

    def second(self, sa: int) -> int:
        if not self.listening:
            return ST_DEVICE_NOT_PRESENT
        self.secondary = sa
        if sa & 0xF0 == 0xF0:
            self.name_buffer = bytearray()
        elif sa & 0xF0 == 0xE0:
            self._close(sa & 0x0F)
        return 0

    def tksa(self, sa: int) -> int:
        if not self.talking:
            return ST_DEVICE_NOT_PRESENT
        self.secondary = sa
        return 0

    def ciout(self, byte: int) -> int:
        if not self.listening:
            return ST_DEVICE_NOT_PRESENT
        if self.secondary & 0xF0 == 0xF0:
            self.name_buffer.append(byte)
        elif self.secondary & 0xF0 == 0x60:
            ch = self.secondary & 0x0F
            if ch == COMMAND_CHANNEL:
                self.name_buffer.append(byte)
            elif ch in self.channels and self.channels[ch].writing:
                self.channels[ch].data.append(byte)
        return 0

    def unlisten(self) -> int:
        if self.listening:
            ch = self.secondary & 0x0F
            if self.secondary & 0xF0 == 0xF0:
                self._open(ch, bytes(self.name_buffer))
            elif self.secondary & 0xF0 == 0x60 and ch == COMMAND_CHANNEL and self.name_buffer:
                self._command(bytes(self.name_buffer))
                self.name_buffer = bytearray()
        self.listening = False
        return 0

    def untalk(self) -> int:
        self.talking = False
        return 0

    def acptr(self) -> tuple[int, int]:
        """The next byte of the talking channel and the status bits."""
        if not self.talking:
            return 0, ST_DEVICE_NOT_PRESENT
        ch = self.secondary & 0x0F
        channel: Channel | None
        if ch == COMMAND_CHANNEL:
            channel = self.channels.setdefault(COMMAND_CHANNEL, Channel())
            if channel.pos >= len(channel.data):
                channel.data, channel.pos = bytearray(self.status), 0
                self.status = b"00, OK,00,00\r"
        else:
            channel = self.channels.get(ch)
            if channel is None or channel.writing or channel.pos >= len(channel.data):
                return 0x0D, ST_TIMEOUT_READ
        byte = channel.data[channel.pos]
        channel.pos += 1
        last = channel.pos >= len(channel.data)
        if last and ch == COMMAND_CHANNEL:
            channel.data, channel.pos = bytearray(), 0
        return byte, ST_EOI if last else 0

    # -- DOS --------------------------------------------------------------------
    def _open(self, ch: int, raw: bytes) -> None:
        if ch == COMMAND_CHANNEL:
            if raw:
                self._command(raw)
            return
        assert self.disk is not None
        name, _, rest = raw.partition(b",")
        options = [o[:1].decode("latin-1").upper() for o in rest.split(b",") if o] if rest else []
        if b":" in name and not name.startswith(b"$"):
            name = name.split(b":", 1)[1] if not name.startswith(b"@") else b"@" + name.split(b":", 1)[1]
        writing = ch == 1 or "W" in options
        type_name = next((_TYPES[o] for o in options if o in _TYPES), "PRG" if ch in (0, 1) else "SEQ")
        self.log.append(f"open {ch} {raw!r}")
        if name.startswith(b"$") and ch == 0:
            pattern = _directory_pattern(raw.partition(b",")[0])
            self.channels[ch] = Channel(bytearray(self.disk.directory_program(pattern)))
            self.status = b"00, OK,00,00\r"
            return
        if writing:
            self.channels[ch] = Channel(writing=True, name=name, type_name=type_name)
            self.status = b"00, OK,00,00\r"
            return
        found = self.disk.find(name)
        if found is None:
            self.channels.pop(ch, None)
            self.status = b"62,FILE NOT FOUND,00,00\r"
            return
        self.channels[ch] = Channel(bytearray(found.data), name=found.name, type_name=found.type_name)
        self.status = b"00, OK,00,00\r"

    def _close(self, ch: int) -> None:
        channel = self.channels.pop(ch, None)
        if (channel is not None and channel.writing and self.disk is not None
                and not self.disk.save(channel.name, channel.type_name, bytes(channel.data))):
            self.status = b"63,FILE EXISTS,00,00\r"

    def _command(self, raw: bytes) -> None:
        text = raw.rstrip(b"\r")
        self.log.append(f"command {text!r}")
        if text[:1] in (b"I", b"V") or text == b"":
            self.status = b"00, OK,00,00\r"
        elif text.startswith((b"UJ", b"U:")):
            self.status = b"73,CBM DOS V2.6 1541,00,00\r"
        elif text.startswith(b"S") and self.disk is not None:
            pattern = text.split(b":", 1)[-1]
            gone = [f for f in self.disk.files if d64.name_matches(pattern, f.name)]
            for f in gone:
                self.disk.files.remove(f)
            self.status = b"01, FILES SCRATCHED,%02d,00\r" % len(gone)
        else:
            self.status = b"31,SYNTAX ERROR,00,00\r"


def _directory_pattern(name: bytes) -> bytes:
    """The files a directory request lists (1541 user's guide, "LOAD"$",8"):
    ``$`` all, ``$0`` all of drive 0 (the digit is the drive number, not a
    name), ``$:PAT`` or ``$0:PAT`` those matching PAT (``*`` and ``?``)."""
    rest = name[1:]
    if rest[:1] in (b"0", b"1"):
        rest = rest[1:]
    if rest.startswith(b":"):
        rest = rest[1:]
    return rest or b"*"
