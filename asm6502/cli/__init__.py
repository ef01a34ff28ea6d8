"""Command-line entry point: ``asm6502 SRC -o OUT`` or ``asm6502 COMMAND ...``.

The first argument selects a sub-command; anything else is the assembler.
Each sub-command lives in its own module here, exposing ``main(argv) -> int``.
Only this package prints and chooses exit codes; the library returns values.
"""

from __future__ import annotations

import importlib
import os
import sys

from asm6502 import __version__
from asm6502.cli.commands import SUBCOMMANDS

__all__ = ["SUBCOMMANDS", "main"]


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args in (["--version"], ["-V"]):  # (the assembler's parser knows it too; this answers before anything is imported)
        print(f"asm6502 {__version__}")
        return 0
    try:
        from asm6502.cli.base import reader_gone, standard_streams  # (lazy: start-up, see ARCHITECTURE.md)
    except KeyboardInterrupt:  # Ctrl-C while the command's first modules are imported
        print("asm6502: interrupted; nothing written", file=sys.stderr)
        return 130
    if argv is None:  # the process: closed standard streams (<&-, >&-, 2>&-) are made safe first
        standard_streams()
    try:
        return _dispatch(args, process_ends=argv is None)
    except KeyboardInterrupt:  # Ctrl-C while a module is still being imported
        print("asm6502: interrupted; nothing written", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of standard output has gone (| head): quiet, as cat is
        return reader_gone()


def _dispatch(args: list[str], process_ends: bool = False) -> int:
    if args and args[0] in SUBCOMMANDS:
        module_name = SUBCOMMANDS[args[0]][0]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # pragma: no cover - only while a command is being developed
            if exc.name != module_name:
                raise
            print(f"asm6502: error: command '{args[0]}' is not available in this build", file=sys.stderr)
            return 2
        return module.main(args[1:])
    if args and _misspelled_command(args[0]):
        import difflib

        close = difflib.get_close_matches(args[0].lower(), list(SUBCOMMANDS), n=1, cutoff=0.6)
        print(f"asm6502: error: unknown command '{args[0]}'; did you mean '{close[0]}'?\n"
              f"(commands: {', '.join(SUBCOMMANDS)}; anything else is a source file to assemble)", file=sys.stderr)
        return 2
    from asm6502.asm.pipeline import PausedGc
    from asm6502.cli import assemble  # (lazy: start-up, see ARCHITECTURE.md -- a sub-command does not need the assembler's parser)

    with PausedGc(to_the_end=process_ends):  # (a process that ends here never collects the assembly's objects)
        rc = assemble.main(args)
    if process_ends:  # the process ends here: skip freeing the assembly's hundreds of thousands of
        for stream in (sys.stdout, sys.stderr):  # objects one by one at interpreter exit (a large share
            try:  # of a large program's run time); every output file is written and closed already
                if stream is not None:
                    stream.flush()
            except OSError:
                pass
        os._exit(rc)
    return rc


def _misspelled_command(word: str) -> bool:
    """A bare word that is no file but close to a command name: 'biuld' -> 'build'."""
    if not word or word.startswith("-") or "/" in word or "." in word or os.path.exists(word):
        return False
    import difflib

    return bool(difflib.get_close_matches(word.lower(), list(SUBCOMMANDS), n=1, cutoff=0.6))
