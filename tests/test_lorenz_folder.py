"""tools/lorenz.py takes from a folder only the suite's programs (each loads at $0801) and names
the other files it left out: a folder such as chips-test's holds a C header beside them."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import lorenz


def test_only_the_programs_loading_at_0801_are_tests(tmp_path):
    for name, data in [("_start", b"\x01\x08\x0b\x08"), ("adca", b"\x01\x08"), ("dump.h", b"// C array\n"),
                       ("loader", b"\x00\xc0\xea"), ("empty", b"")]:
        (tmp_path / name).write_bytes(data)
    assert lorenz.test_names(str(tmp_path)) == [" start", "adca"]
    assert lorenz.other_files(str(tmp_path)) == ["dump.h", "empty", "loader"]


def test_a_name_not_in_the_folder_is_one_error_line(tmp_path, capsys):
    (tmp_path / "adca").write_bytes(b"\x01\x08")
    try:
        lorenz.main(["--suite", str(tmp_path), "--roms", str(tmp_path), "adca", "nosuchtest"])
    except SystemExit as stop:
        assert stop.code == 2
    else:
        raise AssertionError("no error")
    err = capsys.readouterr().err
    assert err.splitlines()[-1].endswith(f": error: not a program of the suite in {tmp_path}: nosuchtest")
