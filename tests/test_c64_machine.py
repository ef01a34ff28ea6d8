"""The C64 machine without the real ROMs: a test KERNAL, written as a
Profi-Ass source (tests/fixtures/c64/testkernal.asm) and assembled by
asm6502, boots on it and exercises banking, the CIA and raster interrupts,
the keyboard matrix and buffer, CHROUT, the disk traps and the screen."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

from asm6502.asm import assemble
from asm6502.diagnostics import DiagnosticError
from asm6502.emu.c64 import keyboard, screen, session
from asm6502.emu.c64.cia import CIA
from asm6502.emu.c64.drive import Disk
from asm6502.emu.c64.machine import C64, RomImages
from asm6502.emu.c64.vic import CYCLES_PER_FRAME, VIC

FIXTURES = Path(__file__).parent / "fixtures" / "c64"
BASIC_FIRST = 0x94  # the first byte of the stand-in BASIC ROM
CIA_PERIOD = 0x4025 + 1  # the test KERNAL's timer A latch + 1


def make_test_roms() -> RomImages:
    kernal = assemble((FIXTURES / "testkernal.asm").read_text(), "testkernal.asm").image
    assert len(kernal) == 0x2000
    basic = bytes([BASIC_FIRST]) + bytes(0x1FFF)
    chargen = bytes((i * 7 + 3) & 0xFF for i in range(0x1000))
    return RomImages(basic, bytes(kernal), chargen)


@pytest.fixture(scope="module")
def test_roms() -> RomImages:
    return make_test_roms()


def booted(roms: RomImages, **kw) -> C64:
    machine = C64(roms, **kw)
    stop = machine.run(2_000_000)
    assert stop.reason == "idle", stop
    return machine


def test_boot_prints_ready_through_chrout(test_roms):
    m = booted(test_roms)
    assert bytes(m.transcript) == b"READY.\r"
    assert screen.screen_lines(m)[0] == "READY."


@pytest.mark.parametrize("addr, expected, what", [
    (0x0350, BASIC_FIRST, "BASIC ROM in: the ROM is read, the write went to the RAM below"),
    (0x0351, 0x55, "BASIC ROM out ($01=$36): the RAM written before"),
    (0x0352, 3, "CHAREN=0 ($01=$33): character ROM byte 0 at $D000"),
    (0x0353, 10, "character ROM byte 1 at $D001"),
    (0x0354, 0x37, "the port $01 reads back what was written (bits 0-5 outputs)"),
])
def test_banking(test_roms, addr, expected, what):
    m = booted(test_roms)
    assert m.memory[addr] == expected, what


def test_ram_under_rom_seen_by_ram(test_roms):
    m = booted(test_roms)
    assert m.memory[0xA000] == BASIC_FIRST and m.ram(0xA000) == 0x55


def test_cia_timer_irq_drives_the_jiffy_clock_and_raster_irq_counts_frames(test_roms):
    m = booted(test_roms)
    start = m.cpu.cycles
    j0 = m.memory[0xA1] << 8 | m.memory[0xA2]
    r0 = m.memory[0x0341] << 8 | m.memory[0x0340]
    m.run(50 * CYCLES_PER_FRAME, stop_when_idle=False)
    elapsed = m.cpu.cycles - start
    jiffies = (m.memory[0xA1] << 8 | m.memory[0xA2]) - j0
    rasters = (m.memory[0x0341] << 8 | m.memory[0x0340]) - r0
    assert abs(jiffies - elapsed / CIA_PERIOD) <= 1
    assert abs(rasters - elapsed / CYCLES_PER_FRAME) <= 1


def test_keyboard_buffer_fast_path(test_roms):
    m = booted(test_roms)
    m.type_text(b"HELLO\r")
    assert m.run(2_000_000).reason == "idle"
    assert bytes(m.transcript) == b"READY.\rHELLO\r"
    assert screen.screen_lines(m)[:2] == ["READY.", "HELLO"]


def test_keyboard_matrix_scanned_by_the_interrupt(test_roms):
    m = booted(test_roms)
    m.type_text(b"A!Q", mode="matrix")
    assert m.run(5_000_000).reason == "idle"
    log = [m.memory[0x0361 + i] for i in range(m.memory[0x0360])]
    index = keyboard.KEY_INDEX
    assert log == [index["A"], index["1"] | 0x80, index["Q"]]


def test_disk_traps_load_from_a_folder(test_roms, tmp_path):
    data = bytes(range(3, 103))
    (tmp_path / "testdata.prg").write_bytes(data)
    m = booted(test_roms, disk=Disk.load(str(tmp_path)))
    assert m.memory[0x03A2] == 0  # the drive answered
    assert m.memory[0x03A0] == len(data)
    assert bytes(m.memory[0xC000 : 0xC000 + len(data)]) == data
    assert m.memory[0x03A3] & 0x40  # EOI with the last byte
    assert "open 0 b'T*'" in m.drive.log


def test_no_drive_is_device_not_present(test_roms):
    m = booted(test_roms)
    assert m.memory[0x03A2] == 0x80


def test_stop_conditions_and_exit_codes(test_roms):
    m = booted(test_roms)
    m.type_text(b"AB\r")
    stop = m.run(5_000_000, until_text="AB")
    assert stop.reason == "text" and session.exit_code(stop, session.RunSpec(until_text="AB")) == 0
    stop = m.run(1000, stop_when_idle=False)
    assert stop.reason == "cycles" and session.exit_code(stop, session.RunSpec()) == session.EXIT_CYCLES
    stop = m.run(1_000_000, until_pc=0xE5CD)
    assert stop.reason == "pc" and m.cpu.pc == 0xE5CD
    stop = m.run(1_000_000, until_text="NEVER")
    assert stop.reason == "idle" and session.exit_code(stop, session.RunSpec(until_text="NEVER")) == 4


def test_screenshot_png(test_roms):
    m = booted(test_roms)
    set_vic(m, 0x16, 0x08)  # 40 columns (the test KERNAL leaves $D016 at 0: 38)
    m.run(CYCLES_PER_FRAME * 2, stop_when_idle=False)
    data = screen.screenshot(m)
    assert data == screen.screenshot(m)  # deterministic
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (screen.WIDTH, screen.HEIGHT)
    idat = data.index(b"IDAT")
    length = struct.unpack(">I", data[idat - 4 : idat])[0]
    raw = zlib.decompress(data[idat + 4 : idat + 4 + length])
    rows = [raw[y * (width + 1) + 1 : (y + 1) * (width + 1)] for y in range(height)]
    assert rows[0][0] == 14  # border: light blue
    # 'R' (screen code 18) in white on blue, character data from the character ROM
    glyph = [(18 * 8 + line) * 7 + 3 & 0xFF for line in range(8)]
    for line in range(8):
        got = rows[screen.TOP + line][screen.LEFT : screen.LEFT + 8]
        assert got == bytes(1 if glyph[line] & (0x80 >> i) else 6 for i in range(8))


@pytest.mark.parametrize("code, lower, char", [
    (0x01, False, "A"), (0x01, True, "a"), (0x41, True, "A"), (0x00, False, "@"),
    (0x20, False, " "), (0x31, False, "1"), (0x1C, False, "£"), (0x1E, False, "↑"),
    (0x51, False, "●"), (0x53, False, "♥"), (0x5E, False, "π"), (0x66, False, "▒"),
    (0x40, False, "─"), (0x5B, False, "┼"), (0x7A, True, "✓"), (0xA0, False, "█"), (0x81, False, "A"),
])
def test_screen_codes_to_unicode(code, lower, char):
    assert screen.screen_code_char(code, lower) == char


# --- the chips on their own -------------------------------------------------------
@pytest.mark.parametrize("cycle, line", [(0, 311), (1, 0), (62, 0), (63, 1), (63 * 311, 311), (CYCLES_PER_FRAME, 311),
                                         (CYCLES_PER_FRAME + 1, 0), (CYCLES_PER_FRAME + 63 * 256, 256)])
def test_raster_counter(cycle, line):
    vic = VIC()
    assert vic.read(0x12, cycle) == line & 0xFF
    assert vic.read(0x11, cycle) >> 7 == line >> 8


def test_raster_compare_sets_the_latch_every_frame():
    vic = VIC()
    vic.write(0x12, 100, 0)
    assert vic.next_event() == 100 * 63
    vic.update(100 * 63)
    assert vic.flags & 1 and not vic.irq
    vic.write(0x1A, 1, 100 * 63)
    assert vic.irq
    vic.write(0x19, 1, 100 * 63 + 1)
    assert not vic.irq and vic.next_event() == 100 * 63 + CYCLES_PER_FRAME


def test_cia_timer_counts_and_underflows():
    cia = CIA("t")
    cia.write(4, 99, 0)
    cia.write(5, 0, 0)  # latch 99: period 100
    cia.write(14, 0x11, 10)  # written in cycle 10: loaded in 11, counting from 13
    assert cia.read(4, 12) == 99 and cia.read(4, 14) == 98 and cia.read(4, 60) == 52
    cia.write(13, 0x81, 20)
    assert cia.next_event() == 113  # 99 -> 0 in cycle 111, the ICR bit in 112, the interrupt in 113
    cia.advance(113)
    assert cia.irq and cia.irq_at == 113 and cia.read(13, 113) == 0x81 and not cia.irq
    assert cia.read(4, 112) == 99 and cia.read(4, 113) == 99 and cia.read(4, 362) == 50  # period 100
    cia.write(14, 0x19, 400)  # one-shot
    cia.advance(1000)
    assert cia.read(14, 1000) == 0x08 and cia.read(13, 1000) & 1  # stopped, timer A's ICR bit


def test_keyboard_rows_and_columns():
    a = keyboard.KEY_INDEX["A"]  # column 1, row 2
    assert keyboard.rows_for(frozenset({a}), 0xFD) == 0xFB
    assert keyboard.rows_for(frozenset({a}), 0xFE) == 0xFF
    assert keyboard.columns_for(frozenset({a}), 0xFB) == 0xFD


def test_directory_program_lists_like_the_1541(tmp_path):
    (tmp_path / "hello.prg").write_bytes(b"\x01\x08" + bytes(300))
    disk = Disk.load(str(tmp_path))
    prog = disk.directory_program()
    assert prog[:2] == b"\x01\x04"
    assert b'"HELLO"' in prog and b"PRG" in prog and b"BLOCKS FREE." in prog


def test_a_folder_disk_lists_its_files_then_those_of_its_d64_images(tmp_path):
    from asm6502 import d64

    (tmp_path / "test.prg").write_bytes(b"\x01\x08FOLDER")
    for image_name, files in (("b.d64", [b"DATA", b"TEST"]), ("a.d64", [b"MORE", b"DATA"])):
        image = d64.DiskImage.format(b"IMG", b"01")
        for name in files:
            image.add_file(name, b"\x00\xc0" + image_name.encode() + name)
        (tmp_path / image_name).write_bytes(image.to_bytes())
    disk = Disk.load(str(tmp_path))
    assert [f.name for f in disk.files] == [b"TEST", b"MORE", b"DATA"]  # a.d64 before b.d64
    assert disk.find(b"TEST").data == b"\x01\x08FOLDER"  # the folder's file hides the image's
    assert disk.find(b"DATA").data == b"\x00\xc0a.d64DATA"  # the first image's
    (tmp_path / "broken.d64").write_bytes(bytes(1000))
    with pytest.raises(DiagnosticError, match=r"broken\.d64"):
        Disk.load(str(tmp_path))


# --- the picture in the other display modes --------------------------------------------
def set_vic(m, reg, value):
    """A VIC register written now (the picture shows it once the raster has drawn a frame)."""
    m.vic.write(reg, value, m.cpu.cycles)


def booted_40(roms):
    """Booted, 40 columns (the test KERNAL leaves $D016 at 0: 38 columns)."""
    m = booted(roms)
    set_vic(m, 0x16, 0x08)
    return m


def _pixels(m):
    m.run(CYCLES_PER_FRAME * 2, stop_when_idle=False)
    return screen.render(m)


def test_display_off_is_border_only(test_roms):
    m = booted_40(test_roms)
    set_vic(m, 0x11, m.vic.regs[0x11] & ~0x10)
    assert all(set(row) == {14} for row in _pixels(m))


def test_hires_bitmap(test_roms):
    m = booted_40(test_roms)
    set_vic(m, 0x11, m.vic.regs[0x11] | 0x20)  # BMM
    set_vic(m, 0x18, 0x18)  # screen $0400, bitmap $2000
    m.poke_ram(0x2000, bytes([0b10000001]))
    m.poke_ram(0x0400, bytes([0x25]))  # pixel colour 2 (set bits), 5 (clear bits)
    row = _pixels(m)[screen.TOP][screen.LEFT : screen.LEFT + 8]
    assert row == bytes([2, 5, 5, 5, 5, 5, 5, 2])


def test_multicolour_bitmap(test_roms):
    m = booted_40(test_roms)
    set_vic(m, 0x11, m.vic.regs[0x11] | 0x20)
    set_vic(m, 0x16, m.vic.regs[0x16] | 0x10)  # MCM
    set_vic(m, 0x18, 0x18)
    m.poke_ram(0x2000, bytes([0b00011011]))  # pairs 00 01 10 11
    m.poke_ram(0x0400, bytes([0x37]))
    m.color[0] = 9
    row = _pixels(m)[screen.TOP][screen.LEFT : screen.LEFT + 8]
    assert row == bytes([6, 6, 3, 3, 7, 7, 9, 9])  # background, screen high, screen low, colour RAM


def test_multicolour_text_uses_colour_ram_bit_3(test_roms):
    m = booted_40(test_roms)
    set_vic(m, 0x16, m.vic.regs[0x16] | 0x10)
    set_vic(m, 0x22, 2)
    set_vic(m, 0x23, 4)
    m.poke_ram(0x0400, bytes([0]))  # screen code 0: character ROM bytes 3, 10, ...
    m.color[0] = 8 | 5
    row = _pixels(m)[screen.TOP][screen.LEFT : screen.LEFT + 8]
    data = test_roms.chargen[0]  # %00000011
    assert data == 3 and row == bytes([6, 6, 6, 6, 6, 6, 5, 5])


def test_extended_background_colour(test_roms):
    m = booted_40(test_roms)
    set_vic(m, 0x11, m.vic.regs[0x11] | 0x40)  # ECM
    set_vic(m, 0x24, 11)
    m.poke_ram(0x0400, bytes([0xC0]))  # code $C0: background register 3, character 0
    m.color[0] = 1
    row = _pixels(m)[screen.TOP][screen.LEFT : screen.LEFT + 8]
    assert row == bytes([11, 11, 11, 11, 11, 11, 1, 1])


# --- the drive at the bus level: SAVE, a sequential file, the command channel -------------
def _send(drive, sa, data=b""):
    drive.listen(8)
    drive.second(sa)
    for b in data:
        drive.ciout(b)
    drive.unlisten()


def _read(drive, sa):
    drive.talk(8)
    drive.tksa(sa)
    out = bytearray()
    while True:
        byte, status = drive.acptr()
        if status & 0x02:
            return bytes(out), status
        out.append(byte)
        if status & 0x40:
            return bytes(out), status


def test_drive_save_then_load(tmp_path):
    from asm6502.emu.c64.drive import Drive

    drive = Drive(Disk.load(str(tmp_path)))
    _send(drive, 0xF1, b"PROG")
    _send(drive, 0x61, b"\x01\x08ABC")
    _send(drive, 0xE1)
    _send(drive, 0xF0, b"PROG")
    assert _read(drive, 0x60) == (b"\x01\x08ABC", 0x40)
    _send(drive, 0xF0, b"MISSING")
    assert _read(drive, 0x60)[1] == 0x02
    assert _read(drive, 0x6F)[0] == b"62,FILE NOT FOUND,00,00\r"
    assert not list(tmp_path.iterdir())  # the folder itself is never written


def test_drive_sequential_file_and_scratch(tmp_path):
    from asm6502.emu.c64.drive import Drive

    drive = Drive(Disk.load(str(tmp_path)))
    _send(drive, 0xF2, b"DATA,S,W")
    _send(drive, 0x62, b"HELLO\r")
    _send(drive, 0xE2)
    _send(drive, 0xF2, b"DATA,S,R")
    assert _read(drive, 0x62) == (b"HELLO\r", 0x40)
    assert drive.disk.files[0].type_name == "SEQ"
    _send(drive, 0xFF, b"S:DATA")
    assert _read(drive, 0x6F)[0] == b"01, FILES SCRATCHED,01,00\r"
    assert not drive.disk.files


def test_no_drive_answers_device_not_present():
    from asm6502.emu.c64.drive import Drive

    drive = Drive(None)
    assert drive.listen(8) == 0x80 and drive.talk(9) == 0x80


# the name after '$' (1541 user's guide, LOAD"$",8 and OPEN1,8,0,"$"): a drive digit, then a pattern
@pytest.mark.parametrize("name, listed", [
    (b"$", ["HELLO", "HELP", "OTHER"]),
    (b"$0", ["HELLO", "HELP", "OTHER"]),
    (b"$0:HE*", ["HELLO", "HELP"]),
    (b"$:H?LP", ["HELP"]),
    (b"$0:O*", ["OTHER"]),
    (b"$0:NONE", []),
])
def test_directory_names_drive_number_and_wildcards(tmp_path, name, listed):
    from asm6502.emu.c64.drive import Drive

    for stem in ("hello", "help", "other"):
        (tmp_path / f"{stem}.prg").write_bytes(b"\x01\x08" + stem.encode())
    drive = Drive(Disk.load(str(tmp_path)))
    _send(drive, 0xF0, name)
    listing, status = _read(drive, 0x60)
    names = [part.decode() for part in listing.split(b'"')[3::2]]  # the header's title is the first quoted text
    assert names == listed and status == 0x40
    assert _read(drive, 0x6F)[0] == b"00, OK,00,00\r"


@pytest.mark.parametrize("name, status", [
    (b"0:HELLO", b"00, OK,00,00\r"), (b"HE*", b"00, OK,00,00\r"), (b"H?LLO", b"00, OK,00,00\r"),
    (b"0:NOPE", b"62,FILE NOT FOUND,00,00\r"), (b"NOPE*", b"62,FILE NOT FOUND,00,00\r"),
])
def test_open_by_name_and_the_error_channel(tmp_path, name, status):
    from asm6502.emu.c64.drive import Drive

    (tmp_path / "hello.prg").write_bytes(b"\x01\x08HI")
    drive = Drive(Disk.load(str(tmp_path)))
    assert _read(drive, 0x6F)[0] == b"73,CBM DOS V2.6 1541,00,00\r"  # after power-on
    _send(drive, 0xF2, name)
    data, _ = _read(drive, 0x62)
    assert _read(drive, 0x6F)[0] == status
    assert data == (b"\x01\x08HI" if status.startswith(b"00") else b"")


@pytest.mark.parametrize("written, line, fires", [(100, 100, True), (101, 100, False), (99, 100, False)])
def test_raster_compare_written_with_the_line_being_drawn_fires_at_once(written, line, fires):
    vic = VIC()
    vic.write(0x12, 200, 0)
    at = line * 63 + 20
    vic.write(0x12, written, at)
    vic.update(at + 1)
    assert bool(vic.flags & 1) == fires


# a BASIC program's end pointers as LOAD leaves them: one past the last byte, $0000 after $FFFF
# (LOAD's end address in $AE/$AF is a 16-bit counter that wraps)
@pytest.mark.parametrize("length, end", [
    (1, 0x0802),
    (0x1000, 0x1801),
    (0x10000 - 0x0801, 0x0000),
])
def test_a_basic_program_s_end_pointers_as_load_sets_them(test_roms, length, end):
    m = booted(test_roms)
    m.memory[0x2B:0x2D] = [0x01, 0x08]  # TXTTAB: BASIC starts at $0801 (as the real cold start sets it)
    for ptr in (0x2D, 0x2F, 0x31):
        m.memory[ptr:ptr + 2] = [0xAA, 0x55]  # (a value the load must replace)
    start, got = m.inject_prg(bytes([0x01, 0x08]) + bytes(length))
    assert (start, got & 0xFFFF) == (0x0801, end)
    for ptr in (0x2D, 0x2F, 0x31):  # VARTAB, ARYTAB, STREND
        assert m.memory[ptr] | m.memory[ptr + 1] << 8 == end


def test_a_program_past_ffff_is_refused(test_roms):
    m = booted(test_roms)
    with pytest.raises(DiagnosticError, match=r"runs past \$FFFF"):
        m.inject_prg(bytes([0x01, 0x08]) + bytes(0x10000 - 0x0801 + 1))
