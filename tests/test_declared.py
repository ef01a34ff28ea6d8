"""The assembler's options are declared once (cli.assemble.OPTIONS); a plain command line is read from
the declarations without argparse (cli.base.read_plain), anything else by the argparse parser made
from them.  Where the plain reader takes a command line, argparse takes it too, to the same values and the
same files by the same roles: for every declared option in every spelling (the cases are made from the
declarations), and for command lines drawn at random from their words."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asm6502.cli.assemble import OPTIONS, build_parser
from asm6502.cli.base import declared_paths, read_plain
from asm6502.cli.common import path_arguments

# values an option's type reads: each option with a type has some here (a new one fails the test below until it has)
TYPED_VALUES = {"fill": ["$ea", "0", "255", "%1010", "0x10"], "cpu": ["6502", "6502i", "6510", "m6502", "nmos6502"]}
SOURCE = "prog.asm"


def _argparse(argv: list[str]) -> dict | None:
    """argparse's values for *argv*, or None where it refuses it (its message and exit status: argparse's)."""
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        try:
            return vars(build_parser().parse_args(argv))
        except SystemExit:
            return None


def _values_of(opt) -> list[str]:
    if opt.type is not None:
        return TYPED_VALUES[opt.dest]
    return list(opt.choices) if opt.choices is not None else ["out.prg", "-", "name with blanks", "x=y"]


def _plain_cases() -> list[tuple[str, list[str]]]:
    """Command lines of one declared option each, in every spelling: each flag, a value apart and (long
    flags) after '=', each choice or typed value, given twice (the last counts; a list keeps both)."""
    cases = []
    for opt in OPTIONS:
        if opt.positional or opt.action == "version":
            continue
        for flag in opt.flags:
            if opt.action in ("store", "append"):
                values = _values_of(opt)
                for value in values:
                    cases.append((opt.dest, [SOURCE, flag, value]))
                    cases.append((opt.dest, [flag, value, SOURCE]))
                    if flag.startswith("--") and value != "-":
                        cases.append((opt.dest, [SOURCE, f"{flag}={value}"]))
                cases.append((opt.dest, [SOURCE, flag, values[0], flag, values[-1]]))
            else:
                cases.append((opt.dest, [SOURCE, flag]))
                cases.append((opt.dest, [flag, SOURCE, flag]))
    return cases


PLAIN = _plain_cases()


def test_every_option_is_covered():
    dests = {dest for dest, _ in PLAIN}
    assert dests == {opt.dest for opt in OPTIONS if not opt.positional and opt.action != "version"}
    assert len(PLAIN) > 100


@pytest.mark.parametrize(("dest", "argv"), PLAIN, ids=[" ".join(a) for _, a in PLAIN])
def test_a_plain_command_line_is_read_as_argparse_reads_it(dest, argv):
    plain = read_plain(OPTIONS, argv)
    assert plain is not None, "the plain reader left it to argparse"
    assert plain == _argparse(argv)
    ns = build_parser().parse_args(argv)
    assert declared_paths(OPTIONS, ns) == path_arguments(build_parser(), ns)  # the same files by the same roles


def _left_to_argparse() -> list[list[str]]:
    """Command lines the plain reader hands on: argparse answers them (help, version, its messages)."""
    cases = [[], [SOURCE, "x.asm"], ["--help"], [SOURCE, "-h"], ["-V"], ["--version"], [SOURCE, "--"], ["--", SOURCE],
             [SOURCE, "-qb"], [SOURCE, "--bogus"], ["-1"], [SOURCE, "-q=1"]]
    for opt in OPTIONS:
        if opt.positional or opt.action == "version":
            continue
        for flag in opt.flags:
            if flag.startswith("--") and len(flag) > 4:
                cases.append([SOURCE, flag[:-1]] + (["x"] if opt.action in ("store", "append") else []))  # abbreviated
            if opt.action in ("store", "append"):
                cases += [[SOURCE, flag], [SOURCE, flag, "-q"], [SOURCE, flag, "--"]]
                if flag.startswith("--"):
                    cases.append([SOURCE, f"{flag}="])
                if opt.choices is not None or opt.type is not None:
                    cases.append([SOURCE, flag, "no such value"])
            else:
                cases.append([SOURCE, f"{flag}=1"] if flag.startswith("--") else [SOURCE, flag + "x"])
    return cases


@pytest.mark.parametrize("argv", _left_to_argparse(), ids=" ".join)
def test_anything_else_is_left_to_argparse(argv):
    assert read_plain(OPTIONS, argv) is None


WORDS = sorted({flag for opt in OPTIONS for flag in opt.flags if not opt.positional}
               | {f"{flag}={v}" for opt in OPTIONS if opt.action in ("store", "append")
                  for flag in opt.flags if flag.startswith("--") for v in _values_of(opt)[:2]}
               | {v for opt in OPTIONS if opt.action in ("store", "append") for v in _values_of(opt)}
               | {SOURCE, "b.asm", "-", "", "--", "-qb", "--form", "--format=", "-ofile", "-1", "zz"})


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=8))
def test_random_command_lines_are_read_as_argparse_reads_them_or_left_to_it(argv):
    plain = read_plain(OPTIONS, argv)
    if plain is not None:
        assert plain == _argparse(argv)
