"""One error format everywhere, generated from the parsers' declarations: every command, given a bad argument
or a bad input, says so as ``file:line:col: error: ...`` (a place in an input) or as ``asm6502 CMD: error: ...``
(the command's own: a missing file, a wrong option), CMD being the (sub-)command as argparse names it
(``asm6502 d64 validate``) -- never a bare ``error:``, never another command's name, never ``CMD: budget:``.

The cases: for every command (tests/test_roles.py's parsers, one good command line each from
tests/test_hostile_matrix.py's BASE), every option with a type or choices given a value no type takes, and
every input it reads (or file it edits) given a missing file, an empty one and random bytes.
"""

from __future__ import annotations

import argparse
import io
import re

import pytest
from test_hostile_matrix import BASE, INPUTS, PARSERS, STDIN, command_line, declared, good_files

from asm6502 import fileio
from asm6502.cli import main
from asm6502.cli.common import ROLE_ATTRIBUTE

PLACE = re.compile(r"^[^\s:][^:]*:\d+(?::\d+)?: (?:error|warning|note): ")
SEVERITY = re.compile(r"\b(error|warning|note): ")
BAD_VALUE = "zz!"  # no number, no choice, no CPU, no name of a byte
# the commands (leaf parsers: 'asm6502 d64 validate', not 'asm6502 d64')
LEAVES = [(prog, parser) for prog, parser in PARSERS
          if not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)]


def _bad_arguments() -> list[tuple[str, str]]:
    out = []
    for prog, parser in LEAVES:
        for action in parser._actions:
            if not action.option_strings or hasattr(action, ROLE_ATTRIBUTE) or action.nargs == 0:
                continue
            if action.choices is None and action.type in (None, str):
                continue
            out.append((prog, action.option_strings[-1]))
    return out


def _bad_inputs() -> list[tuple[str, str, str]]:
    return [(prog, action.option_strings[-1] if action.option_strings else action.dest, kind)
            for prog, _parser, action in declared() if getattr(action, ROLE_ATTRIBUTE).kind in (fileio.READ, fileio.EDIT)
            for kind in ("missing", "empty", "random bytes")]


BAD_ARGUMENTS = _bad_arguments()
BAD_INPUTS = _bad_inputs()


def run(work, argv, monkeypatch, capsys, prog: str = "") -> tuple[int, str]:
    monkeypatch.chdir(work)
    monkeypatch.setenv("ASM6502_ROMS", "none")
    monkeypatch.setattr("sys.stdin", io.StringIO(STDIN.get(prog, "")))
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = exc.code
    return code, capsys.readouterr().err


def misnamed(prog: str, err: str) -> list[str]:
    """The lines of *err* that carry a severity but neither a place nor this command's name in front of it."""
    own = f"{prog}: "
    return [line for line in err.splitlines() if (m := SEVERITY.search(line)) and m.start() > 0
            and not PLACE.match(line) and not line.startswith(own + m.group(0))
            and not line.startswith(" ")]  # (a note under a message, indented)


def unsorted(prog: str, err: str) -> list[str]:
    """Lines of the command that name a kind of message other than a severity ('asm6502 run: budget: ...')."""
    return [line for line in err.splitlines()
            if (m := re.match(re.escape(prog) + r": ([\w-]+): ", line)) and m.group(1) not in ("error", "warning", "note")]


def bare(err: str) -> list[str]:
    """Lines that start with a severity, with no place and no command in front."""
    return [line for line in err.splitlines() if re.match(r"(error|warning): ", line)]


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("template")
    good_files(folder)
    return folder


@pytest.fixture
def work(tmp_path, template):
    import shutil

    shutil.copytree(template, tmp_path / "work", symlinks=True)
    return tmp_path / "work"


def test_the_cases_cover_every_command():
    progs = {prog for prog, _ in LEAVES}
    assert progs <= set(BASE) | {"asm6502 completion"}
    assert {prog for prog, _ in BAD_ARGUMENTS} | {prog for prog, _, _ in BAD_INPUTS} >= progs - {"asm6502 completion"}
    assert len(BAD_ARGUMENTS) >= 30 and len(BAD_INPUTS) >= 40


@pytest.mark.parametrize(("prog", "option"), BAD_ARGUMENTS, ids=[f"{p} {o}" for p, o in BAD_ARGUMENTS])
def test_a_bad_argument_is_the_command_s_error(prog, option, work, monkeypatch, capsys):
    argv = list(BASE.get(prog, ["completion", "bash"]))
    parser = dict(PARSERS)[prog]
    action = next(a for a in parser._actions if option in a.option_strings)
    argv = _with_value(argv, action, BAD_VALUE)
    code, err = run(work, argv, monkeypatch, capsys, prog)
    assert code == 2, err
    assert f"\n{prog}: error: argument {'/'.join(action.option_strings)}" in "\n" + err or \
        f"\n{prog}: error: argument " in "\n" + err, err
    assert misnamed(prog, err) == [] and bare(err) == [] and unsorted(prog, err) == []


@pytest.mark.parametrize(("prog", "option", "kind"), BAD_INPUTS, ids=[f"{p} {o}: {k}" for p, o, k in BAD_INPUTS])
def test_a_bad_input_is_told_with_its_place_or_the_command_s_name(prog, option, kind, work, monkeypatch, capsys):
    parser = dict(PARSERS)[prog]
    action = next(a for _p, q, a in declared() if q is parser
                  and (a.option_strings[-1] if a.option_strings else a.dest) == option)
    argv, at = command_line(prog, parser, action)
    argv[at] = INPUTS[kind](work, argv[at])
    code, err = run(work, argv, monkeypatch, capsys, prog)
    if kind == "missing" and code != 0:  # (an input only read when needed, --disk of a source without .file, is not missed)
        assert f"{prog}: error: {argv[at]}: " in err, err
    assert misnamed(prog, err) == [] and bare(err) == [] and unsorted(prog, err) == [], err


def _with_value(argv: list[str], action: argparse.Action, value: str) -> list[str]:
    for i, word in enumerate(argv):
        if word in action.option_strings and i + 1 < len(argv):
            return argv[: i + 1] + [value] + argv[i + 2 :]
    return [*argv, action.option_strings[-1], value]


@pytest.mark.parametrize(("line", "prog", "ok"), [
    ("x.asm:3:8: error: undefined symbol", "asm6502", True),
    ("asm6502 d64 validate: error: a.d64: no such file", "asm6502 d64 validate", True),
    ("asm6502: error: a.d64: no such file", "asm6502 d64 validate", False),
    ("error: program does not fit", "asm6502 basic tok", False),
    ("asm6502 run: budget: the budget is spent", "asm6502 run", False),  # a stop reason is no severity
    ("asm6502 run: error: budget: the budget is spent", "asm6502 run", True),
    ("asm6502 mse: error: x", "asm6502 mse read", False),
])
def test_the_rule_itself(line, prog, ok):
    assert (misnamed(prog, line) == [] and bare(line) == [] and unsorted(prog, line) == []) is ok


def test_a_run_that_stops_short_says_so_as_an_error(work, monkeypatch, capsys):
    (work / "loop.prg").write_bytes(bytes([0x00, 0xC0, 0xEE, 0x20, 0xD0, 0x4C, 0x00, 0xC0]))  # inc $d020 : jmp $c000
    code, err = run(work, ["run", "loop.prg", "--max-instructions", "100"], monkeypatch, capsys, "asm6502 run")
    assert code == 1 and err.splitlines()[-1].startswith("asm6502 run: error: budget: "), err
    assert unsorted("asm6502 run", err) == [] and misnamed("asm6502 run", err) == []
