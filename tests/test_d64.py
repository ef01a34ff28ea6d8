"""1541 disk images: our writer read back by cc1541 and cbmconvert, our reader
fed by cc1541, and the 1541 format facts (1541 User's Guide; DISK.TXT)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.d64 import (
    IMAGE_SIZE,
    DiskImage,
    FileType,
    display_name,
    name_matches,
    parse_disk_spec,
    petscii_name,
)
from asm6502.diagnostics import DiagnosticError

CC1541 = shutil.which("cc1541")
CBMCONVERT = shutil.which("cbmconvert")
needs_cc1541 = pytest.mark.skipif(CC1541 is None, reason="cc1541 not installed (apt install cc1541)")
needs_cbmconvert = pytest.mark.skipif(CBMCONVERT is None, reason="cbmconvert not installed (apt install cbmconvert)")


def blank(name: str = "test disk", disk_id: str = "ab") -> DiskImage:
    return DiskImage.format(petscii_name(name), petscii_name(disk_id))


def payload(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def cc1541_listing(path: Path) -> list[str]:
    """cc1541's directory of an image, ANSI reverse codes removed.  Runs on a
    copy: cc1541 rewrites the image it is given."""
    copy = path.with_name(path.name + ".cc1541.d64")
    shutil.copyfile(path, copy)
    out = subprocess.run([CC1541, str(copy)], capture_output=True, text=True, check=True).stdout
    lines = [re.sub(r"\x1b\[\d*m", "", line).rstrip() for line in out.splitlines()]
    return [line for line in lines if line and not line.startswith("Adding")]


def cbmconvert_extract(image: Path, into: Path) -> dict[str, bytes]:
    """Files cbmconvert extracts (it names them with PETSCII $41-$5A as a-z)."""
    into.mkdir()
    subprocess.run([CBMCONVERT, "-N", "-d", str(image.resolve())], cwd=into, capture_output=True, check=True)
    return {p.name: p.read_bytes() for p in sorted(into.iterdir())}


def ours_as_cc1541(lines: list[str]) -> list[str]:
    """cc1541 shows PETSCII $41-$5A as lower-case ASCII and the type in lower case."""
    return [line.lower() for line in lines]


# --- format facts ------------------------------------------------------------


def test_fresh_disk_matches_1541_users_guide():
    image = blank("asm6502", "64")
    data = image.to_bytes()
    assert len(data) == IMAGE_SIZE == 174848  # 683 sectors of 256 bytes
    bam = data[0x16500 : 0x16500 + 256]  # track 18 sector 0: 17 tracks * 21 sectors in
    assert bam[0:4] == bytes([18, 1, 0x41, 0])  # first directory block 18/1, "A" format
    assert bam[0xA5:0xA7] == b"2A"  # DOS version and format type
    assert image.blocks_free() == 664  # "664 BLOCKS FREE." on a new 1541 disk
    assert image.listing() == ['0 "ASM6502         " 64 2A', "664 BLOCKS FREE."]


# DISK.TXT (Schepers/Forster), "Disk File Layout": a new file starts on the
# free track nearest 18 (17 first) at sector 0; each next block is 10 sectors
# on, wrapping, and one sector back after passing sector 0 (30-21=9 -> 8).
FIRST_FILE_CHAIN = [(17, 0), (17, 10), (17, 20), (17, 8), (17, 18), (17, 6)]


def test_first_file_is_laid_out_like_the_1541_dos():
    image = blank()
    entry = image.add_file(b"F", payload(6 * 254, 1))
    chain = [(t, s) for t, s, _ in image._chain(entry.track, entry.sector, "f")]
    assert chain == FIRST_FILE_CHAIN


# Directory blocks on track 18 with interleave 3: 1, 4, 7, 10, 13, 16, then
# past the end 19-19=0 (BAM, used) -> 2, ...; 144 entries in 18 blocks.
DIRECTORY_CHAIN = [1, 4, 7, 10, 13, 16, 2, 5, 8, 11, 14, 17, 3, 6, 9, 12, 15, 18]


def test_directory_grows_with_interleave_3_up_to_144_files():
    image = blank()
    for i in range(144):
        image.add_file(f"f{i}".encode(), b"\x01")
    assert [s for t, s, _ in image._dir_sectors()] == DIRECTORY_CHAIN
    assert len(image.directory()) == 144
    with pytest.raises(DiagnosticError, match="directory full"):
        image.add_file(b"ONE MORE", b"\x01")


@needs_cbmconvert
def test_a_file_filling_the_whole_disk(tmp_path):
    image = blank()
    data = payload(664 * 254, 2)
    image.add_file(b"ALL", data)
    assert image.blocks_free() == 0
    with pytest.raises(DiagnosticError, match="disk full"):
        image.add_file(b"MORE", b"\x01")
    path = tmp_path / "full.d64"
    path.write_bytes(image.to_bytes())
    assert cbmconvert_extract(path, tmp_path / "out") == {"all.prg": data}


# --- our images read by cc1541 and cbmconvert ----------------------------------

FILES = [  # name, size in bytes (block edges: 254 data bytes per block)
    ("superhirn ii", 525),
    ("high iq", 1),
    ("x", 253),
    ("exactly one", 254),
    ("one more byte", 255),
    ("two blocks", 508),
    ("big one 16chars", 20000),
]


@needs_cc1541
@needs_cbmconvert
def test_independent_tools_read_what_we_write(tmp_path):
    image = blank("asm6502", "64")
    contents = {}
    for i, (name, size) in enumerate(FILES):
        contents[name] = payload(size, i)
        image.add_file(petscii_name(name), contents[name])
    path = tmp_path / "ours.d64"
    path.write_bytes(image.to_bytes())
    assert cc1541_listing(path) == ours_as_cc1541(image.listing())
    extracted = cbmconvert_extract(path, tmp_path / "out")
    assert extracted == {f"{name}.prg": data for name, data in contents.items()}


@needs_cc1541
def test_cc1541_rewrites_our_image_unchanged(tmp_path):
    """cc1541 recomputes nothing it disagrees with: BAM, chains and
    directory of our image survive its read-modify-write untouched."""
    image = blank()
    for i, (name, size) in enumerate(FILES):
        image.add_file(petscii_name(name), payload(size, i))
    path = tmp_path / "ours.d64"
    path.write_bytes(image.to_bytes())
    subprocess.run([CC1541, "-q", str(path)], check=True, capture_output=True)
    assert path.read_bytes() == image.to_bytes()


# --- images written by cc1541 read by us ---------------------------------------


@needs_cc1541
def test_we_read_what_cc1541_writes(tmp_path):
    args = [CC1541, "-q", "-n", "cc disk", "-i", "xy 2a"]  # lower case: PETSCII $41-$5A
    contents = {}
    for i, (name, size) in enumerate(FILES):
        local = tmp_path / f"f{i}.bin"
        contents[name] = payload(size, 100 + i)
        local.write_bytes(contents[name])
        # cc1541 maps ASCII upper case to shifted PETSCII: give the codes as #xx
        args += ["-f", "".join(f"#{b:02x}" for b in petscii_name(name)), "-w", str(local)]
    path = tmp_path / "cc.d64"
    subprocess.run(args + [str(path)], check=True, capture_output=True)
    image = DiskImage(path.read_bytes(), str(path))
    assert {e.display_name.lower(): image.read_file(e) for e in image.directory()} == contents
    assert ours_as_cc1541(image.listing()) == cc1541_listing(path)


# --- names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, petscii",
    [
        ("SUPERHIRN II", b"SUPERHIRN II"),
        ("superhirn ii", b"SUPERHIRN II"),  # unshifted letters: capitals on a C64
        ("high-iq.v2", b"HIGH-IQ.V2"),
        ("£↑←", b"\x5c\x5e\x5f"),
        ("\\^_", b"\x5c\x5e\x5f"),
        ("{$c1}{$12}x", b"\xc1\x12X"),
        ("a" * 16, b"A" * 16),
    ],
)
def test_petscii_names(typed, petscii):
    assert petscii_name(typed) == petscii


@pytest.mark.parametrize(
    "typed, reason",
    [
        ("", "empty"),
        ("a" * 17, "at most 16"),
        ("a,b", "separator"),
        ("a:b", "separator"),
        ("a*", "wildcard"),
        ('say "hi"', "separator"),
        ("naïve", "no PETSCII"),
        ("{$a0}", "pads names"),
        ("{$g1}", "bad escape"),
    ],
)
def test_bad_names(typed, reason):
    with pytest.raises(ValueError, match=reason):
        petscii_name(typed)


@pytest.mark.parametrize(
    "pattern, name, matches",
    [
        (b"SUPERHIRN II", b"SUPERHIRN II", True),
        (b"SUPER*", b"SUPERHIRN II", True),
        (b"*", b"ANY", True),
        (b"HIGH?IQ", b"HIGH IQ", True),
        (b"HIGH", b"HIGH IQ", False),
        (b"HIGH IQ2", b"HIGH IQ", False),
    ],
)
def test_dos_wildcards(pattern, name, matches):
    assert name_matches(pattern, name) is matches


def test_display_name_round_trip():
    for b in range(256):
        if b not in (0xA0,) and chr(b) not in ',:=*?"' and not 0x61 <= b <= 0x7A:
            name = bytes([b])
            assert petscii_name(display_name(name)) == name


def test_disk_spec():
    assert parse_disk_spec("asm6502,64") == (b"ASM6502", b"64")
    with pytest.raises(ValueError, match="2 characters"):
        parse_disk_spec("asm6502,6")


# --- writing ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=3000), min_size=1, max_size=12))
def test_round_trip_and_determinism(files):
    def make() -> DiskImage:
        image = blank()
        for i, data in enumerate(files):
            image.add_file(f"file {i}".encode().upper(), data)
        return image

    image = make()
    assert [image.read_file(e) for e in image.directory()] == files
    used = sum(-(-len(d) // 254) for d in files)
    assert image.blocks_free() == 664 - used
    assert [e.blocks for e in image.directory()] == [-(-len(d) // 254) for d in files]
    assert make().to_bytes() == image.to_bytes()


def test_replace_and_delete_free_blocks():
    image = blank()
    image.add_file(b"A", payload(1000, 1))
    with pytest.raises(DiagnosticError, match="exists already"):
        image.add_file(b"A", b"\x01")
    image.add_file(b"A", b"\x01\x02", replace=True)
    assert image.blocks_free() == 663
    assert image.read_file(image.find(b"A")) == b"\x01\x02"


def test_empty_file_is_refused():
    with pytest.raises(DiagnosticError, match="empty"):
        blank().add_file(b"E", b"")


def test_types_and_flags_in_the_listing():
    image = blank()
    image.add_file(b"S", b"x", FileType.SEQ)
    image.add_file(b"U", b"x", FileType.USR)
    assert image.listing()[1:3] == ['1    "S"                SEQ', '1    "U"                USR']


# --- damaged images ----------------------------------------------------------------


def test_wrong_size_is_refused():
    with pytest.raises(DiagnosticError, match="not a 35-track .d64"):
        DiskImage(b"\x00" * 1000, "x.d64")


def test_chain_loop_is_reported():
    image = blank()
    entry = image.add_file(b"LOOP", payload(600, 3))
    first = image._sector(entry.track, entry.sector)
    second = (first[0], first[1])
    damaged = bytearray(image._sector(*second))
    damaged[0:2] = bytes([entry.track, entry.sector])  # second block points back to the first
    image._put(*second, bytes(damaged))
    with pytest.raises(DiagnosticError, match="loops back"):
        image.read_file(image.find(b"LOOP"))


def test_bad_track_is_reported():
    image = blank()
    entry = image.add_file(b"BAD", payload(600, 4))
    damaged = bytearray(image._sector(entry.track, entry.sector))
    damaged[0:2] = bytes([36, 0])
    image._put(entry.track, entry.sector, bytes(damaged))
    with pytest.raises(DiagnosticError, match="track 36 sector 0"):
        image.read_file(image.find(b"BAD"))


def test_image_with_error_bytes_keeps_them():
    """175531-byte images carry one error code per sector after the data (D64.TXT)."""
    image = blank()
    errors = bytes([1]) * 683
    with_errors = DiskImage(image.to_bytes() + errors, "e.d64")
    with_errors.add_file(b"X", b"\x01\x08\x00")
    assert with_errors.to_bytes()[-683:] == errors
    assert with_errors.read_file(with_errors.find(b"X")) == b"\x01\x08\x00"
