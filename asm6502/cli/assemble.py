"""``asm6502 SRC -o OUT``: the assembler front end."""

from __future__ import annotations

import argparse
import codecs
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from asm6502 import __version__, filetype, output
from asm6502.asm import Options, assemble, expr
from asm6502.asm.assemble import PausedGc
from asm6502.asm.symfile import read_symbols
from asm6502.cli.commands import SUBCOMMANDS
from asm6502.cli.common import byte_arg, guarded, print_diagnostics
from asm6502.cpu import CPUS
from asm6502.diagnostics import DiagnosticError, error, warning
from asm6502.fileio import BOM, PIECE_BYTES, Files, is_utf16, refuse_binary
from asm6502.numparse import parse_int

FORMATS = ("prg", "raw", "hex")
SUFFIX = {"prg": ".prg", "raw": ".bin", "hex": ".hex"}
MAX_SHOWN = 50  # diagnostics printed before the rest is summarised
MAX_DEFINE_LENGTH = 200  # a -D value is a number or a short expression


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter given the terminal's width (COLUMNS, else the terminal's, else 80) as
    shutil.get_terminal_size gives it, so that argparse does not import shutil: the assembler
    command makes one of these at every start and the import costs milliseconds."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


def build_parser() -> argparse.ArgumentParser:
    commands = "\n".join(f"  asm6502 {name:<7} {summary}" for name, (_, summary) in SUBCOMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="asm6502",
        description="Assemble a Profi-Ass 64 (V2.0) source into C64 machine code. "
        "SRC is a text file, or a Profi-Ass source saved on a C64 (a tokenized BASIC .prg).",
        epilog="other commands (each has --help):\n" + commands,
        formatter_class=_Formatter,
    )
    parser.add_argument("source", metavar="SRC", help="Profi-Ass source (.asm text, or a C64 .prg source)")
    parser.add_argument("-o", "--output", metavar="OUT", help="output file (default: the file '.opt o#' names, else SRC with .prg/.bin/.hex; never SRC itself)")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="prg",
        help="prg: 2-byte load address + memory image (default); raw: the image only; "
        "hex: Intel HEX (segments kept apart). Gaps between '*=' segments are filled in prg/raw (with a warning).",
    )
    parser.add_argument("--fill", type=byte_arg, default=0x00, metavar="BYTE", help="byte for gaps in prg/raw output (default $00)")
    parser.add_argument("-L", "--listing", metavar="FILE", help="write a listing: line number, address, every byte, source")
    parser.add_argument(
        "--listing-format", choices=("modern", "profi"), default="modern",
        help="modern: every byte (default); profi: the original Profi-Ass 64 listing (110: C000 A2 00 ... NO ERRORS)",
    )
    parser.add_argument("-l", "--labels", "--vice-labels", dest="labels", metavar="FILE",
                        help="write a VICE label file (al C:3400 .grloop); load it in VICE's monitor with ll")
    parser.add_argument("--mse", metavar="FILE", help="also write an MSE V1.0 type-in listing of the program")
    parser.add_argument("--mse-name", metavar="NAME", help="program name in the MSE header (default: source file name)")
    parser.add_argument(
        "-D", "--define", action="append", default=[], metavar="NAME=VALUE", help="define a constant before assembly (repeatable)"
    )
    parser.add_argument(
        "--cpu", choices=CPUS, default="6502", help="6502: documented opcodes (default); 6502i: also the undocumented NMOS opcodes"
    )
    parser.add_argument("-I", "--include", action="append", default=[], metavar="DIR",
                        help="directory searched for '.file' sources and '.lst' symbol files (repeatable)")
    parser.add_argument("--disk", metavar="D64", help="a .d64 image whose files .file/.lst names are looked up in (tokenized sources)")
    parser.add_argument("--case", choices=("lower", "upper", "petcat"), default="lower",
                        help="lower (or petcat, as in 'asm6502 basic'): a-z are the C64's unshifted letters, A-Z the "
                        "shifted ones (default); "
                        "upper: a source typed from a listing printed in capitals, every letter unshifted")
    parser.add_argument("--overwrite", action="store_true",
                        help="let file names from inside the source (.sst, .opt o#) replace existing files that are "
                        "not what this command writes (without it such a file is left alone and the run fails)")
    parser.add_argument("-q", "--quiet", "-w", "--no-warn", dest="quiet", action="store_true", help="do not print warnings")
    parser.add_argument("-V", "--version", action="version", version=f"asm6502 {__version__}")
    return parser


def parse_defines(items: list[str]) -> tuple[tuple[str, int], ...]:

    out = []
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name or name[0] not in expr.SYMBOL_START or any(c not in expr.SYMBOL_CHARS for c in name):
            raise DiagnosticError([error(f"bad -D '{item}': use NAME=VALUE, e.g. -D debug=1 or -D base=$c000")])
        if len(value) > MAX_DEFINE_LENGTH:
            raise DiagnosticError([error(f"bad -D '{name}=...': the value is longer than {MAX_DEFINE_LENGTH} characters")])
        try:
            number = parse_int(value)  # 13312, $3400, 0x3400, %1010: the spelling of every option
            if not -0xFFFF <= number <= 0xFFFF:
                raise DiagnosticError([error(f"bad -D '{item}': number {value.strip()} does not fit in 16 bits")])
            number &= 0xFFFF  # -1 is $FFFF, as Profi-Ass's 16-bit arithmetic gives it
        except ValueError:
            try:
                number = expr.evaluate(value.strip())  # or a Profi-Ass expression
            except expr.ExprError as exc:
                raise DiagnosticError([error(f"bad -D '{item}': {exc.message}")]) from None
            except expr.Unknown as exc:
                raise DiagnosticError([error(f"bad -D '{item}': undefined symbol '{exc.node.name}'")]) from None
            except RecursionError:
                raise DiagnosticError([error(f"bad -D '{name}=...': the expression is nested too deeply")]) from None
        out.append((name, number))
    return tuple(out)


def read_source_text(path: Path, files=None) -> tuple[str, str]:
    """The source text, whole (``source_pieces`` joined); see there."""
    return "".join(source_pieces(path, files)), str(path)


def source_pieces(path: Path, files=None, piece: int = PIECE_BYTES) -> Iterator[str]:
    """The source text in pieces that end where a line ends, read from the file a piece at a time as
    they are taken: neither the file's bytes nor its text are ever whole in memory (the assembler reads
    them into lines).  A tokenized C64 Profi-Ass source (.prg) is detokenized first (whole: 64 KB at most).
    The first piece is read now: a file that is no source is refused before any work is done.
    *files*: the command's gate (``fileio.Files``) that registers the source as an input; *piece*: the bytes
    read at a time."""
    data, rest = (files if files is not None else Files()).read_start(path, what="source", piece=piece)
    while len(data) < _HEAD and (more := next(rest, b"")):
        data += more
    if is_utf16(data):
        refuse_binary(data, str(path), "a source text")
    if filetype.named_or_loaded_as_program(data, str(path)) or path.suffix.lower() == ".d64":
        data = b"".join([data, *rest])  # (a program or a disk image: its kind is told from the whole of it)
    _refuse(filetype.sniff_binary(data, str(path)), path)  # (a file larger than a piece is no disk image)
    if filetype.is_tokenized(data, str(path)):
        from asm6502.basic.tokenizer import detokenize

        result = detokenize(data, filename=str(path))
        _refuse(filetype.sniff_machine_code(data, str(path), result.text), path)
        _refuse(filetype.sniff_text(result.text, str(path), tokenized=True), path)
        return iter((result.text,))
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    text = decoder.decode(data.removeprefix(BOM))  # a BOM some editors write is no text
    _refuse(filetype.sniff_text(text, str(path), tokenized=False), path)  # (its first 16,000 characters)
    return _line_pieces(text, rest, decoder)


_HEAD = 1 << 16  # bytes of a source read before any is taken: what its kind is told from (is_utf16 and sniff_binary:
# 4,096 bytes, sniff_text: 16,000 characters, of at most 4 bytes each)


def _line_pieces(text: str, rest: Iterator[bytes], decoder) -> Iterator[str]:
    """*text*, then the text of the pieces of bytes *rest*, in pieces that end where a line ends (the last
    with the text's end): each can be read on its own (typed.as_typed, reader.read_lines)."""
    for data in rest:
        text += decoder.decode(data)
        del data
        end = text.rfind("\n") + 1
        if end:
            piece, text = text[:end], text[end:]  # (only the piece, which the reader holds, and the rest: one piece
            yield piece  # at a time, besides the bytes read next, however large the file)
    yield text + decoder.decode(b"", final=True)


def _refuse(kind, path: Path) -> None:
    """One clear error naming the right command instead of one error per line."""
    if kind is not None:
        raise DiagnosticError([error(f"{path} is {kind.what}; {kind.hint}")])


def in_source_order(diagnostics) -> list:
    """Diagnostics by file (in the order the files first appear), line and column, as a compiler prints
    them; the two passes find them in another order (a pass-1 error on line 110 before pass 2's on 90)."""
    files: dict[str, int] = {}
    for d in diagnostics:
        if d.span is not None:
            files.setdefault(d.span.file, len(files))

    def key(d):
        span = d.span
        return (files[span.file], span.line, span.col or 0) if span is not None else (len(files), 0, 0)

    return sorted(diagnostics, key=key)


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: _run(args))


def _run(args) -> int:

    with PausedGc():  # (the listing's rows and the output text too)
        return _assemble_command(args)


def _assemble_command(args) -> int:

    source = Path(args.source)
    files = Files(overwrite=args.overwrite, overwrite_option="--overwrite")  # the gate: every read and write
    pieces = source_pieces(source, files)  # (read as assemble reads them into lines: the text is never whole)
    name = str(source)
    if args.disk:
        files.add_input(args.disk, "disk image")
    wanted = [(args.output, "output"), (args.listing, "listing"), (args.labels, "label file"), (args.mse, "MSE listing")]
    for path, what in wanted:
        if path:
            files.check(path, what)  # a bad output is reported before any work is done
    options = Options(cpu=args.cpu, defines=parse_defines(args.define), listing=bool(args.listing),
                      include_dirs=tuple(args.include), disk=args.disk, case="lower" if args.case == "petcat" else args.case,
                      empty_ok=bool(args.listing or args.labels))  # (definitions only: their listing or labels, no object file)  # fmt: skip
    try:
        result = assemble(pieces, name, options, files)
    except DiagnosticError as exc:
        shown = in_source_order(exc.diagnostics)[:MAX_SHOWN]
        print_diagnostics(shown)
        if len(exc.diagnostics) + exc.more > MAX_SHOWN:
            print(f"... {len(exc.diagnostics) + exc.more - MAX_SHOWN} more diagnostics not shown", file=sys.stderr)
        n = len(exc.errors) + exc.more_errors
        print(f"{n} error{'s' if n != 1 else ''}; no output written", file=sys.stderr)
        return 1
    diags = list(result.diagnostics)
    if args.format in ("prg", "raw"):
        for start, length in result.gaps():
            diags.append(
                warning(f"{name}: gap of {length} bytes at ${start:04X}-${start + length - 1:04X} filled with "
                        f"${args.fill:02X} in the {args.format} output")  # (a gap has no line of its own)
            )
    if not args.quiet:
        print_diagnostics(in_source_order(diags), more=result.more_warnings)
    if not result.segments:  # (definitions only: the listing, symbol tables and labels, no object file)
        payload: bytes | str | None = None
    elif args.format == "prg":
        payload = output.prg_bytes(result, args.fill)
    elif args.format == "raw":
        payload = output.raw_bytes(result, args.fill)
    else:
        payload = output.intel_hex(result)
    if payload is None:
        out_path = Path(args.output) if args.output else source
    elif args.output:
        out_path = Path(args.output)
        files.add(out_path, payload, "output")
    elif result.object_name:  # '.opt o#' names the file OPENed before the start line: a name from inside the source
        object_name = result.object_name.lower().replace("/", "_") + SUFFIX[args.format]
        out_path = Path(files.add_confined(source.parent, object_name, payload, "output named by '.opt o#'",
                                           replaceable=_same_kind(args.format, payload)))
    else:
        out_path = source.with_suffix(SUFFIX[args.format])
        if out_path.resolve() == source.resolve():
            raise DiagnosticError([error(f"the default output name '{out_path}' is the source itself; "
                                         "name the output with -o (e.g. -o program.prg)")])
        files.add(out_path, payload, "output")
    if args.listing:
        if args.listing_format == "profi":
            from asm6502.asm.listing import render

            files.add(args.listing, render(result), "listing")
        else:
            files.add(args.listing, output.encoded(output.listing_blocks(result, source.name)), "listing")
    folder = source.parent if args.output == "-" else out_path.parent
    for file_name, data in result.files.items():  # '.sst' symbol tables: names from inside the source, next to the output
        files.add_confined(folder, file_name.lower(), data, "symbol table named by '.sst'", replaceable=_is_symbol_table)
    if args.labels:
        files.add(args.labels, output.vice_labels(result), "label file")
    if args.mse and result.segments:
        from asm6502.typein import mselisting as mse

        files.add(args.mse, mse.write_listing(result.load_address, result.image, name=(args.mse_name or source.stem).upper()), "MSE listing")
    files.commit()
    return 0


def _is_symbol_table(old: bytes) -> bool:
    """An existing file a '.sst' may replace: a symbol table (what an earlier run wrote)."""
    try:
        read_symbols(old)
    except ValueError:
        return False
    return True


def _same_kind(fmt: str, payload: bytes | str):
    """An existing file an '.opt o#' output may replace: what an earlier run of this program
    wrote (a .prg with the same load address, an Intel HEX text); a raw image only with --overwrite."""
    if fmt == "prg":
        head = bytes(payload[:2]) if isinstance(payload, bytes) else b""  # (a .prg payload is bytes)
        return lambda old: len(old) >= 2 and old[:2] == head
    if fmt == "hex":
        return lambda old: old[:1] == b":"
    return None
