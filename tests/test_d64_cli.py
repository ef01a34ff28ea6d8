"""``asm6502 d64 list|read|write`` end to end; images checked with cc1541/cbmconvert."""

from __future__ import annotations

import random
import re
import shutil
import subprocess

import pytest

from asm6502.cli import main

CC1541 = shutil.which("cc1541")
needs_cc1541 = pytest.mark.skipif(CC1541 is None, reason="cc1541 not installed (apt install cc1541)")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["d64", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    rng = random.Random(7)
    made = {}
    for name, size in [("superhirn.prg", 525), ("highiq.prg", 3000)]:
        path = tmp_path / name
        path.write_bytes(rng.randbytes(size))
        made[name] = path
    return made


@needs_cc1541
def test_write_then_list_as_cc1541_sees_it(capsys, tmp_path, files):
    img = tmp_path / "disk.d64"
    code, out, _ = run(capsys, "write", img, files["superhirn.prg"], files["highiq.prg"],
                       "--name", "SUPERHIRN II", "--name", "high iq", "--new", "asm6502,64")
    assert code == 0
    assert 'added "SUPERHIRN II" PRG, 3 blocks' in out
    code, out, _ = run(capsys, "list", img)
    assert code == 0
    listing = out.splitlines()
    assert listing == [
        '0 "ASM6502         " 64 2A',
        '3    "SUPERHIRN II"     PRG',
        '12   "HIGH IQ"          PRG',
        "649 BLOCKS FREE.",
    ]
    copy = tmp_path / "copy.d64"
    shutil.copyfile(img, copy)
    theirs = subprocess.run([CC1541, str(copy)], capture_output=True, text=True, check=True).stdout
    theirs = [re.sub(r"\x1b\[\d*m", "", line).rstrip() for line in theirs.splitlines()]
    assert [line.lower() for line in listing] == [line for line in theirs if line and not line.startswith("Adding")]


def test_read_back_with_wildcards(capsys, tmp_path, files):
    img = tmp_path / "disk.d64"
    assert run(capsys, "write", img, files["highiq.prg"], "--name", "HIGH IQ", "--new", "x,01")[0] == 0
    out_file = tmp_path / "out.prg"
    code, out, _ = run(capsys, "read", img, "high*", "-o", out_file)
    assert code == 0 and out_file.read_bytes() == files["highiq.prg"].read_bytes()
    assert 'HIGH IQ" PRG, 12 blocks' in out


def test_adding_to_an_existing_image_and_default_names(capsys, tmp_path, files):
    img = tmp_path / "disk.d64"
    assert run(capsys, "write", img, "--new", "empty,00")[0] == 0
    assert run(capsys, "write", img, files["superhirn.prg"])[0] == 0
    code, out, _ = run(capsys, "list", img)
    assert '"SUPERHIRN"' in out and "661 BLOCKS FREE." in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["list", "{tmp}/missing.d64"], "missing.d64: No such file or directory"),
        (["list", "{tmp}/superhirn.prg"], "not a 35-track .d64 image"),
        (["read", "{img}", "nothing", "-o", "{tmp}/x"], 'no file "nothing" on the disk'),
        (["write", "{img}", "{tmp}/superhirn.prg", "--name", "a,b"], "separator or wildcard"),
        (["write", "{img}", "{tmp}/superhirn.prg", "--name", "HIGH IQ"], "exists already"),
        (["write", "{img}", "{tmp}/superhirn.prg", "--name", "x", "--name", "y"], "2 --name options for 1 files"),
        (["write", "{img}"], "nothing to do"),
        (["write", "{tmp}/new.d64", "--new", "nocomma"], '"DISKNAME,ID"'),
        (["write", "{tmp}/new.d64", "--new", "name,1"], "2 characters"),
    ],
)
def test_errors_are_messages_not_tracebacks(capsys, tmp_path, files, argv, message):
    img = tmp_path / "disk.d64"
    assert run(capsys, "write", img, files["highiq.prg"], "--name", "HIGH IQ", "--new", "x,01")[0] == 0
    before = img.read_bytes()
    code, _, err = run(capsys, *(a.format(tmp=tmp_path, img=img) for a in argv))
    assert code == 1
    assert message in err and "Traceback" not in err
    assert img.read_bytes() == before  # nothing half-written
    assert not (tmp_path / "new.d64").exists()


def test_disk_full_leaves_the_image_untouched(capsys, tmp_path):
    img = tmp_path / "disk.d64"
    big = tmp_path / "big.prg"
    big.write_bytes(bytes(400 * 254))
    assert run(capsys, "write", img, big, "--name", "ONE", "--new", "x,01")[0] == 0
    before = img.read_bytes()
    code, _, err = run(capsys, "write", img, big, "--name", "TWO")
    assert code == 1 and "disk full" in err and "needs 400 blocks, 264 free" in err
    assert img.read_bytes() == before


@pytest.mark.parametrize("action", ["list", "read", "write", "delete", "rename"])
def test_help(capsys, action):
    with pytest.raises(SystemExit) as exit_info:
        main(["d64", action, "--help"])
    assert exit_info.value.code == 0
    assert f"asm6502 d64 {action}" in capsys.readouterr().out


def _disk(capsys, tmp_path, files):
    img = tmp_path / "d.d64"
    assert run(capsys, "write", img, files["superhirn.prg"], files["highiq.prg"], "--new", "games,01")[0] == 0
    return img


def test_delete_frees_the_blocks_as_before_the_file_was_added(capsys, tmp_path, files):
    from asm6502.d64 import DiskImage

    img = tmp_path / "one.d64"
    assert run(capsys, "write", img, files["superhirn.prg"], "--new", "games,01")[0] == 0
    alone = DiskImage(img.read_bytes())
    assert run(capsys, "write", img, files["highiq.prg"])[0] == 0
    code, out, _ = run(capsys, "delete", img, "high*")
    image = DiskImage(img.read_bytes())
    assert code == 0 and 'scratched "HIGHIQ" PRG, 12 blocks' in out
    assert [e.display_name for e in image.directory()] == ["SUPERHIRN"]
    assert image.blocks_free() == alone.blocks_free() and image.bam_mismatches() == []
    assert run(capsys, "read", img, "superhirn", "-o", tmp_path / "back.prg")[0] == 0
    assert (tmp_path / "back.prg").read_bytes() == files["superhirn.prg"].read_bytes()


@needs_cc1541
def test_a_deleted_file_is_gone_as_cc1541_sees_it(capsys, tmp_path, files):
    img = _disk(capsys, tmp_path, files)
    assert run(capsys, "delete", img, "superhirn")[0] == 0
    listing = subprocess.run([CC1541, img], capture_output=True, text=True).stdout.lower()
    assert "highiq" in listing and "superhirn" not in listing


def test_rename_keeps_the_bytes(capsys, tmp_path, files):
    from asm6502.d64 import DiskImage

    img = _disk(capsys, tmp_path, files)
    code, out, _ = run(capsys, "rename", img, "highiq", "peg solitaire")
    assert code == 0 and 'renamed "HIGHIQ" to "PEG SOLITAIRE"' in out
    assert [e.display_name for e in DiskImage(img.read_bytes()).directory()] == ["SUPERHIRN", "PEG SOLITAIRE"]
    assert run(capsys, "read", img, "peg solitaire", "-o", tmp_path / "back.prg")[0] == 0
    assert (tmp_path / "back.prg").read_bytes() == files["highiq.prg"].read_bytes()


@pytest.mark.parametrize(("argv", "message"), [
    (("delete", "nothing*"), '62, FILE NOT FOUND'),
    (("delete", "highiq", "nothing"), '62, FILE NOT FOUND'),  # all or nothing: highiq stays
    (("rename", "nothing", "x"), '62, FILE NOT FOUND'),
    (("rename", "highiq", "superhirn"), '63, FILE EXISTS'),
    (("rename", "highiq", "a name of seventeen"), 'the 1541 allows at most 16'),
])
def test_a_refused_change_leaves_the_image_as_it_was(capsys, tmp_path, files, argv, message):
    img = _disk(capsys, tmp_path, files)
    before = img.read_bytes()
    code, _, err = run(capsys, argv[0], img, *argv[1:])
    assert code == 1 and message in err and "Traceback" not in err
    assert img.read_bytes() == before


# --- validate (DOS V, c1541's validate): the BAM rebuilt from the chains --------------------------------

def _bam_bit(image_bytes: bytearray, track: int, sector: int, free: bool) -> None:
    """Set one BAM bit and its track's count the way a wrong tool might leave them."""
    from asm6502.d64 import BAM_ENTRIES, TRACK_OFFSET

    at = TRACK_OFFSET[17] * 256 + BAM_ENTRIES + 4 * (track - 1)
    byte, bit = at + 1 + sector // 8, 1 << (sector % 8)
    if bool(image_bytes[byte] & bit) != free:
        image_bytes[byte] ^= bit
        image_bytes[at] += 1 if free else -1


def _entry_byte(image_bytes: bytearray, index: int, offset: int) -> int:
    """Where directory entry *index* (in the first directory sector 18/1) keeps its byte *offset*."""
    from asm6502.d64 import TRACK_OFFSET

    return (TRACK_OFFSET[17] + 1) * 256 + index * 32 + offset


def test_validate_of_a_sound_disk_changes_nothing(capsys, tmp_path, files):
    img = _disk(capsys, tmp_path, files)
    before = img.read_bytes()
    code, out, _ = run(capsys, "validate", img)
    assert code == 0 and "nothing to change" in out and img.read_bytes() == before


@pytest.mark.parametrize("lost", [[(1, 0)], [(1, 0), (35, 16), (20, 5)], [(t, 3) for t in range(1, 36) if t != 18]])
def test_validate_frees_lost_blocks_and_gives_back_the_image(capsys, tmp_path, files, lost):
    from asm6502.d64 import DiskImage

    img = _disk(capsys, tmp_path, files)
    sound = img.read_bytes()
    lost = [block for block in lost if DiskImage(sound).is_free(*block)]  # (the blocks no file uses)
    broken = bytearray(sound)
    for track, sector in lost:
        _bam_bit(broken, track, sector, free=False)
    img.write_bytes(bytes(broken))
    code, out, _ = run(capsys, "validate", img)
    assert code == 0 and img.read_bytes() == sound
    assert f"freed {len(lost)} block" in out and f"{lost[0][0]}/{lost[0][1]}" in out


def test_validate_takes_back_a_block_a_file_uses(capsys, tmp_path, files):
    from asm6502.d64 import DiskImage

    img = _disk(capsys, tmp_path, files)
    sound = img.read_bytes()
    entry = DiskImage(sound).directory()[1]
    broken = bytearray(sound)
    _bam_bit(broken, entry.track, entry.sector, free=True)
    img.write_bytes(bytes(broken))
    code, out, _ = run(capsys, "validate", img)
    assert code == 0 and img.read_bytes() == sound and f"marked in use 1 block (track/sector {entry.track}/{entry.sector})" in out


def test_validate_recounts_a_track_whose_count_is_wrong(capsys, tmp_path, files):
    from asm6502.d64 import BAM_ENTRIES, TRACK_OFFSET

    img = _disk(capsys, tmp_path, files)
    sound = img.read_bytes()
    broken = bytearray(sound)
    broken[TRACK_OFFSET[17] * 256 + BAM_ENTRIES + 4 * 4] -= 3  # track 5's count, its bits as they were
    img.write_bytes(bytes(broken))
    code, out, _ = run(capsys, "validate", img)
    assert code == 0 and img.read_bytes() == sound and "recounted the free blocks of track 5" in out


def test_validate_removes_an_unclosed_file_and_frees_its_blocks(capsys, tmp_path, files):
    from asm6502.d64 import DiskImage

    img = tmp_path / "one.d64"
    assert run(capsys, "write", img, files["superhirn.prg"], "--new", "games,01")[0] == 0
    alone = DiskImage(img.read_bytes())
    assert run(capsys, "write", img, files["highiq.prg"])[0] == 0
    broken = bytearray(img.read_bytes())
    broken[_entry_byte(broken, 1, 2)] &= 0x7F  # a file never closed: the '*' of a crashed SAVE
    img.write_bytes(bytes(broken))
    code, out, _ = run(capsys, "validate", img)
    image = DiskImage(img.read_bytes())
    assert code == 0 and 'removed the unclosed file "HIGHIQ" PRG' in out and "freed 12 blocks" in out
    assert [e.display_name for e in image.directory()] == ["SUPERHIRN"]
    assert image.blocks_free() == alone.blocks_free() and image.bam_mismatches() == []


@pytest.mark.parametrize(("damage", "message"), [
    ((1, 3, 18), "which the directory chain uses already (65, NO BLOCK)"),  # cross-linked
    ((1, 3, 36), "points to track 36 sector"),  # off the disk
    ((1, 0x15, 40), "side sectors points to track 40"),  # a side-sector link off the disk
])
def test_validate_refuses_a_broken_chain_and_leaves_the_image(capsys, tmp_path, files, damage, message):
    img = _disk(capsys, tmp_path, files)
    broken = bytearray(img.read_bytes())
    _bam_bit(broken, 1, 0, free=False)  # a lost block too: it stays lost, as everything else
    index, offset, value = damage
    broken[_entry_byte(broken, index, offset)] = value
    img.write_bytes(bytes(broken))
    code, _, err = run(capsys, "validate", img)
    assert code == 1 and message in err and "nothing was changed" in err and "Traceback" not in err
    assert img.read_bytes() == bytes(broken)


def test_the_committed_disk_validates_unchanged(capsys, tmp_path):
    from helpers import ROOT

    img = tmp_path / "a.d64"
    img.write_bytes((ROOT / "build" / "asm6502.d64").read_bytes())
    code, out, _ = run(capsys, "validate", img)
    assert code == 0 and "nothing to change" in out
