"""Helpers shared by the sub-command front ends: their argparse parsers, and (from cli.base, which
needs no argparse) printing and error handling."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from asm6502 import c64models as models
from asm6502 import filetype
from asm6502.cli.base import (
    DIAGNOSTICS_OPTIONS,
    MAX_SHOWN,
    ROLE_ATTRIBUTE,
    add_declared,
    argparse_type,
    cpu_value,
    files_for,
    guarded,
    number_value,
    print_diagnostics,
    reader_gone,
    standard_streams,
    take_repeated,
)
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import MAX_IMAGE_BYTES, MAX_PRG_BYTES, Files, Role

__all__ = ["MAX_SHOWN", "PROGRAM_KINDS", "ROLE_ATTRIBUTE", "HelpFormatter", "Parser", "RawDescriptionHelpFormatter",
           "add_diagnostics_options", "add_path_argument", "address_arg", "argparse_type", "byte_arg", "command_name",
           "count_arg", "cpu_arg", "gate", "guarded", "int_arg", "number_arg", "path_arguments", "print_diagnostics",
           "read_program", "reader_gone", "standard_streams", "take_repeated"]  # (with cli.base's, for every command)

# --- the parsers: argparse's, without importing shutil ----------------------------------------

def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size gives it: COLUMNS, else the terminal's, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Width:
    """A help formatter given the terminal's width: argparse's own asks shutil for it, and argparse
    makes a formatter at every add_argument, so every command would import shutil (with bz2, lzma:
    7 M instructions of a small command's start-up, bench/README.md)."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        super().__init__(prog, indent_increment, max_help_position,  # type: ignore[call-arg]
                         _columns() - 2 if width is None else width)


class HelpFormatter(_Width, argparse.HelpFormatter):
    pass


class RawDescriptionHelpFormatter(_Width, argparse.RawDescriptionHelpFormatter):
    pass


_OWN_FORMATTERS: dict[type, type] = {argparse.HelpFormatter: HelpFormatter,
                                     argparse.RawDescriptionHelpFormatter: RawDescriptionHelpFormatter}


class Parser(argparse.ArgumentParser):
    """The parser of every command: argparse's, with the formatters above (its sub-commands' parsers
    are Parsers too: add_subparsers makes them of the parser's class)."""

    def __init__(self, **kwargs) -> None:
        chosen = kwargs.get("formatter_class", argparse.HelpFormatter)
        kwargs["formatter_class"] = _OWN_FORMATTERS.get(chosen, chosen)
        super().__init__(**kwargs)


def number_arg(low: int | None = None, high: int | None = None, what: str = "number", *,
               hex_bounds: bool = True) -> Callable[[str], int]:
    """An argparse ``type``: one number spelling for every option (13312, $3400, 0x3400, %1010), range-checked."""
    return argparse_type(number_value(low, high, what, hex_bounds=hex_bounds))  # type: ignore[return-value]


int_arg = number_arg()  # any integer
byte_arg = number_arg(0, 0xFF, "byte")
address_arg = number_arg(0, 0xFFFF, "address")
count_arg = number_arg(1, 1 << 48, "count", hex_bounds=False)


# --- arguments that name a file or a folder: each says its role where it is declared -------------

def add_model_arguments(parser, cia: bool = False) -> None:
    """``--model`` (and with *cia* ``--cia``): which C64 the machine is (asm6502.c64models);
    ``machine_model(args)`` gives it."""
    default = models.DEFAULT
    listed = "; ".join(f"{m.name}: {m.title}, CPU {m.cpu}, VIC-II {m.vic}, CIA {m.cia}" for m in models.MODELS)
    parser.add_argument("--model", choices=models.NAMES, default=default.name,
                        help=f"the C64 model (default {default.name}; {listed}): its chips and the constants of "
                        "the unstable opcodes ANE and LXA (docs/c64.md)")
    if cia:
        parser.add_argument("--cia", choices=models.CIA_MODELS,
                            help="the CIA chips instead of the model's: 6526 (the first C64s) or 6526a (later "
                            "boards: the interrupt one cycle earlier)")


def machine_model(args: argparse.Namespace):
    """The ``c64models.Model`` that ``add_model_arguments``' options name."""
    return models.model(args.model).with_chips(cia=getattr(args, "cia", None))


def add_path_argument(parser, *flags: str, role: Role, what: str | None = None, **kwargs) -> argparse.Action:
    """``parser.add_argument(*flags, **kwargs)`` for an argument naming a file or a folder, with its
    role (fileio.INPUT, OUTPUT, ROM_FOLDER ...; *what* names it in messages): ``gate`` hands every
    such argument's value to the command's ``fileio.Files`` before the command does anything
    (tests/test_roles.py fails for an argument that names a file without a role)."""
    action = parser.add_argument(*flags, **kwargs)
    setattr(action, ROLE_ATTRIBUTE, role if what is None else role.named(what))
    return action


def path_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[tuple[Role, str]]:
    """The (role, value) of every argument with a role that the command line gave, in the chosen
    sub-command's parser too (a list option gives one pair per value)."""
    found: list[tuple[Role, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None) if action.dest != argparse.SUPPRESS else None
            if chosen in action.choices:
                found += path_arguments(action.choices[chosen], args)
            continue
        role = getattr(action, ROLE_ATTRIBUTE, None)
        value = getattr(args, action.dest, None)
        if role is None or value is None:
            continue
        found += [(role, str(v)) for v in (value if isinstance(value, list) else [value])]
    return found


def gate(parser: argparse.ArgumentParser, args: argparse.Namespace, **options) -> Files:
    """The command's ``fileio.Files``, given the role of every file and folder its command line
    names (inputs registered, outputs checked) -- call it inside ``guarded``."""
    return files_for(path_arguments(parser, args), **options)


cpu_arg = argparse_type(cpu_value)  # --cpu: a CPU as 64tass or ACME name it


def add_diagnostics_options(parser: argparse.ArgumentParser) -> None:
    """--diagnostics-format and --no-caret: diagnostics as an editor's problem matcher reads them."""
    add_declared(parser, DIAGNOSTICS_OPTIONS)


def command_name(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """The command as its messages name it: the prog of the (sub-)parser that took the command line
    ('asm6502 d64 validate'), which argparse puts in front of its own errors too."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if chosen in action.choices:
                return command_name(action.choices[chosen], args)
    return parser.prog


PROGRAM_KINDS = ("machine-code", "basic-prg")


def read_program(files: Files, path: str, what: str = "C64 program", *, texts: bool = False):
    """A C64 program's bytes and its kind (``filetype.sniff``); any other file (a text, a listing, a disk
    image) is refused by what it is, naming the command that reads it.  *texts*: a text is handed on (the
    caller's own check names the command for it)."""
    raw = files.read(path, MAX_IMAGE_BYTES, what)  # (a disk image too, to be named as one)
    kind = filetype.sniff(raw, path)
    if kind.name not in PROGRAM_KINDS and not (texts and kind.name != "d64"):
        raise DiagnosticError([error(f"{path} is {kind.what}, not a C64 program (.prg); {kind.hint}")])
    if len(raw) > MAX_PRG_BYTES:
        raise DiagnosticError([error(f"{path}: {what} larger than {MAX_PRG_BYTES:,} bytes; is it the right file?")])
    return raw, kind
