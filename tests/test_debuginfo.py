"""``--debug-info FILE``: KickAssembler's .dbg XML (read by VS64 and C64 Debugger), checked against the listing.

The listing (``--listing``) is the assembler's own account of which line made which bytes; the debug-info file
must say the same: every statement that made bytes, at its address, with as many bytes, on the text line whose
Profi-Ass line number the listing shows -- and nothing else.  Its labels are the VICE label file's.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import ROOT, run_cli

RANGE = re.compile(r"\$([0-9a-f]{4}),\$([0-9a-f]{4}),(\d+),(\d+),(\d+),(\d+),(\d+)$")


def parse_dbg(text: str) -> dict:
    """sources {index: path}, ranges [(first, last, file index, line1, col1, line2, col2)], labels, breakpoints."""
    root = ET.fromstring(text)
    assert root.tag == "C64debugger" and root.get("version") == "1.0"
    sources = {}
    for row in filter(None, map(str.strip, root.find("Sources").text.splitlines())):
        index, path = row.split(",", 1)
        sources[int(index)] = path
    ranges = []
    for segment in root.findall("Segment"):
        assert segment.get("values") == "START,END,FILE_IDX,LINE1,COL1,LINE2,COL2"
        for block in segment.findall("Block"):
            for row in filter(None, map(str.strip, (block.text or "").splitlines())):
                m = RANGE.match(row)
                assert m, row
                ranges.append((int(m[1], 16), int(m[2], 16), *map(int, m.groups()[2:])))
    labels = {}
    for row in filter(None, map(str.strip, (root.find("Labels").text or "").splitlines())):
        segment, address, name = row.split(",")
        assert segment == "Default" and address.startswith("$")
        labels[name] = int(address[1:], 16)
    breaks = [int(row.split(",")[1][1:], 16) for row in filter(None, map(str.strip, (root.find("Breakpoints").text or "").splitlines()))]
    return {"sources": sources, "ranges": ranges, "labels": labels, "breaks": breaks}


def listing_statements(text: str) -> set[tuple[int, int, int]]:
    """(Profi-Ass line number, address, number of bytes) of each statement of the modern listing that made bytes."""
    out: dict[tuple[int, int], int] = {}
    number = None
    last = None
    for row in text.splitlines()[2:]:
        line, address, data, source = row[0:5].strip(), row[7:11].strip(), row[13:21].split(), row[23:]
        if line:
            number = int(line)
        if not data or address.startswith("="):
            last = None if source.strip() else last
            continue
        if source.strip():  # a statement's first row
            last = (number, int(address, 16))
            out[last] = len(data)
        else:  # its bytes go on
            out[last] += len(data)
    return {(n, a, size) for (n, a), size in out.items()}


def assemble(capsys, tmp_path, source: Path, *more: str) -> tuple[dict, str, str]:
    dbg, lst, labels = tmp_path / "p.dbg", tmp_path / "p.lst", tmp_path / "p.labels"
    code, _, err = run_cli(capsys, str(source), "-o", str(tmp_path / "p.prg"), "--debug-info", str(dbg),
                           "--listing", str(lst), "-l", str(labels), *more)
    assert code == 0, err
    return parse_dbg(dbg.read_text()), lst.read_text(), labels.read_text()


def against_listing(info: dict, listing: str) -> None:
    texts = {i: Path(path).read_text(encoding="latin-1").splitlines() for i, path in info["sources"].items()}
    said = set()
    for first, last, index, line1, col1, line2, col2 in info["ranges"]:
        assert line1 == line2 and 1 <= col1 <= col2
        number = int(re.match(r"\s*(\d+)", texts[index][line1 - 1])[1])
        said.add((number, first, last - first + 1))
    assert said == listing_statements(listing)
    covered = sorted((first, last) for first, last, *_ in info["ranges"])
    assert all(a[1] < b[0] for a, b in zip(covered, covered[1:])), "two ranges share an address"


@pytest.mark.parametrize("source", ["sources/superhirn.asm", "examples/hello.asm"])
def test_every_statement_is_where_the_listing_puts_it(capsys, tmp_path, source):
    info, listing, labels = assemble(capsys, tmp_path, ROOT / source)
    assert list(info["sources"].values()) == [str(ROOT / source)]
    against_listing(info, listing)
    program = (tmp_path / "p.prg").read_bytes()
    start = int.from_bytes(program[:2], "little")
    assert sum(last - first + 1 for first, last, *_ in info["ranges"]) == len(program) - 2
    assert min(first for first, *_ in info["ranges"]) == start
    vice = {name: int(address, 16) for address, name in re.findall(r"al C:([0-9a-f]{4}) \.(\S+)", labels)}
    assert info["labels"] == vice and info["breaks"] == []


def test_a_file_chain_names_each_file_and_a_macro_its_lines(capsys, tmp_path):
    (tmp_path / "main.asm").write_text('100 sys32768\n110 *= $c000\n120 m .mac v\n130 lda #v\n140 .men\n'
                                       "150 'm 1\n160 'm 2\n170 .file 8,\"part2\"\n")
    (tmp_path / "part2").write_text("100 ldx #2\n110 rts\n")
    info, listing, _ = assemble(capsys, tmp_path, tmp_path / "main.asm", "--break", "$c004")
    assert sorted(Path(p).name for p in info["sources"].values()) == ["main.asm", "part2"]
    against_listing(info, listing)
    assert [r[:2] for r in info["ranges"]] == [(0xC000, 0xC001), (0xC002, 0xC003), (0xC004, 0xC005), (0xC006, 0xC006)]
    assert info["breaks"] == [0xC004]


def test_the_paths_are_absolute_from_where_it_ran(capsys, tmp_path, monkeypatch):
    (tmp_path / "a.asm").write_text("100 sys32768\n110 *= $c000\n120 start rts\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "a.asm", "-o", "a.prg", "--debug-info", "a.dbg")
    assert code == 0, err
    info = parse_dbg((tmp_path / "a.dbg").read_text())
    assert info["sources"] == {0: os.path.join(str(tmp_path), "a.asm")}
    assert info["labels"] == {"start": 0xC000} and info["ranges"] == [(0xC000, 0xC000, 0, 3, 5, 3, 13)]


def test_a_name_that_xml_would_misread_is_escaped(capsys, tmp_path):
    source = tmp_path / "a&b<c>.asm"
    source.write_text("100 sys32768\n110 *= $c000\n120 rts\n")
    info, _, _ = assemble(capsys, tmp_path, source)
    assert info["sources"] == {0: str(source)}


def test_break_without_a_file_for_it_is_an_error(capsys, tmp_path):
    code, _, err = run_cli(capsys, str(ROOT / "examples/hello.asm"), "-o", str(tmp_path / "p.prg"), "--break", "loop")
    assert code == 1 and "--debug-info FILE" in err and not (tmp_path / "p.prg").exists()
