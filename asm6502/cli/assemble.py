"""``asm6502 SRC -o OUT``: the assembler front end."""

from __future__ import annotations

import codecs
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

from asm6502 import __version__, filetype, output
from asm6502.asm import Options, assemble, expr
from asm6502.asm.pipeline import PausedGc
from asm6502.asm.symfile import read_symbols
from asm6502.cli.base import (
    DIAGNOSTICS_OPTIONS,
    Opt,
    add_declared,
    cpu_value,
    declared_paths,
    files_for,
    guarded,
    number_value,
    print_diagnostics,
    read_plain,
    take_repeated,
)
from asm6502.cli.commands import SUBCOMMANDS
from asm6502.cpu import CPUS
from asm6502.diagnostics import DiagnosticError, error, in_source_order, warning
from asm6502.fileio import BOM, INPUT, INPUT_FOLDER, OUTPUT, PIECE_BYTES, Files, is_utf16, refuse_binary
from asm6502.numparse import parse_int
from asm6502.patterns import LazyPattern

TYPE_CHECKING = False  # (typing is not imported for it: start-up)
if TYPE_CHECKING:
    import argparse

FORMATS = ("prg", "raw", "hex")
SUFFIX = {"prg": ".prg", "raw": ".bin", "hex": ".hex"}
MAX_DEFINE_LENGTH = 200  # a -D value is a number or a short expression
_EMPTY_NUMBER = LazyPattern(r"\$(?![0-9A-Fa-f])|%(?![01])")  # '$' or '%' with no digit after it


WARNING_CHOICES = ("precedence", "no-precedence", "all")  # -W: the warnings that can be turned off


# the assembler's arguments, in the order --help shows them: its parser is made from them (build_parser),
# and a plain command line is read from them without argparse (cli.base)
OPTIONS = (
    Opt("source", role=INPUT.named("source"), metavar="SRC",
        help="Profi-Ass source (.asm text, or a C64 .prg source)"),
    Opt("-o", "--output", role=OUTPUT, metavar="OUT", help="output file (default: the file '.opt o#' names, else SRC with .prg/.bin/.hex; never SRC itself)"),
    Opt("--format", choices=FORMATS, default="prg",
        help="prg: 2-byte load address + memory image (default); raw: the image only; "
        "hex: Intel HEX (segments kept apart). Gaps between '*=' segments are filled in prg/raw (with a warning)."),
    Opt("-b", "--nostart", dest="format", action="store_const", const="raw",
        help="the bytes without the load address: --format raw (64tass's names)"),
    Opt("--cbm-prg", dest="format", action="store_const", const="prg", help="--format prg (64tass's name)"),
    Opt("--fill", type=number_value(0, 0xFF, "byte"), default=0x00, metavar="BYTE", help="byte for gaps in prg/raw output (default $00)"),
    Opt("-L", "--listing", "--list", role=OUTPUT.named("listing"), metavar="FILE", help="write a listing: line number, address, every byte, source"),
    Opt("--listing-format", choices=("modern", "profi"), default="modern",
        help="modern: every byte (default); profi: the original Profi-Ass 64 listing (110: C000 A2 00 ... NO ERRORS)"),
    Opt("-l", "--labels", "--vice-labels", role=OUTPUT.named("label file"), dest="labels",
        metavar="FILE", help="write a VICE label file (al C:3400 .grloop); load it in VICE's monitor with ll"),
    Opt("--mse", role=OUTPUT.named("MSE listing"), metavar="FILE", help="also write an MSE V1.0 type-in listing of the program"),
    Opt("--mse-name", metavar="NAME", help="program name in the MSE header (default: source file name)"),
    Opt("-D", "--define", action="append", default=[], metavar="NAME=VALUE", help="define a constant before assembly (repeatable)"),
    Opt("--cpu", type=cpu_value, choices=CPUS, default="6502", help="6502: documented opcodes (default); 6502i: also the undocumented NMOS opcodes (6510, m6502: ACME's and 64tass's names for it)"),
    Opt("-I", "--include", role=INPUT_FOLDER.named("include folder"), action="append", default=[],
        metavar="DIR", help="directory searched for '.file' sources and '.lst' symbol files (repeatable)"),
    Opt("--disk", role=INPUT.named("disk image"), metavar="D64", help="a .d64 image whose files .file/.lst names are looked up in (tokenized sources)"),
    Opt("--case", choices=("lower", "upper", "petcat"), default="lower",
        help="lower (or petcat, as in 'asm6502 basic'): a-z are the C64's unshifted letters, A-Z the "
        "shifted ones (default); "
        "upper: a source typed from a listing printed in capitals, every letter unshifted"),
    Opt("--overwrite", action="store_true",
        help="let file names from inside the source (.sst, .opt o#) replace existing files that are "
        "not what this command writes (without it such a file is left alone and the run fails)"),
    Opt("-q", "--quiet", "-w", "--no-warn", dest="quiet", action="store_true", help="do not print warnings"),
    Opt("-W", dest="warnings", action="append", default=[], choices=WARNING_CHOICES, metavar="WARNING",
        help="no-precedence: no warning where an expression read left to right (as Profi-Ass reads it) "
        "differs from the usual operator precedence ('$0400+12*40' is [$0400+12]*40); "
        "precedence, all: those warnings on (the default)"),
    Opt("--labels-all", "--vice-labels-numeric", dest="labels_all", action="store_true",
        help="the label file lists every symbol (without it an '=' constant that no instruction "
        "uses as an address is left out: 'zeile = 10' in 'ldx #zeile' is no address, 'sta screen' "
        "makes one; --vice-labels-numeric is 64tass's name)"),
    Opt("--break", dest="breaks", action="append", default=[], metavar="LABEL",
        help="add 'break $ADDR' for LABEL (or an address) to the label file, which x64sc "
        "-moncommands FILE then runs, and to the debug-info file (repeatable)"),
    Opt("--debug-info", role=OUTPUT.named("debug-info file"), dest="debug_info", metavar="FILE",
        help="write a debug-info file for source-level debugging (KickAssembler's .dbg XML, which "
        "VS64 and C64 Debugger read): each statement's addresses, its file and line, the labels"),
    *DIAGNOSTICS_OPTIONS,
    Opt("-V", "--version", action="version", version=f"asm6502 {__version__}"),
)


def build_parser() -> argparse.ArgumentParser:
    from asm6502.cli.common import Parser, RawDescriptionHelpFormatter  # (lazy: argparse, only for --help and a command line read_plain leaves to it)

    commands = "\n".join(f"  asm6502 {name:<7} {summary}" for name, (_, summary) in SUBCOMMANDS.items())
    parser = Parser(
        prog="asm6502",
        description="Assemble a Profi-Ass 64 (V2.0) source into C64 machine code. "
        "SRC is a text file, or a Profi-Ass source saved on a C64 (a tokenized BASIC .prg).",
        epilog="other commands (each has --help):\n" + commands,
        formatter_class=RawDescriptionHelpFormatter,
    )
    add_declared(parser, OPTIONS)
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
            empty = _EMPTY_NUMBER.search(value)
            if empty:  # (a source's '$' alone is 0, as Profi-Ass reads it; an option's value means a number)
                raise DiagnosticError([error(f"bad -D '{item}': '{empty.group()}' without digits is no number "
                                             "(e.g. -D base=$c000)")]) from None
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


# 64tass's and ACME's options that asm6502 has no option of the same name for: the asm6502 way of each
FOREIGN_OPTIONS = {
    "-a": "64tass's -a (ASCII source, PETSCII output) is what asm6502 always does: .asc writes PETSCII; leave -a out",
    "--ascii": "64tass's --ascii is what asm6502 always does: .asc writes PETSCII; leave it out",
    "-C": "64tass's -C (case-sensitive symbols): Profi-Ass symbols ignore case and keep 8 characters, as the original "
          "did; --case says how the source's letters were typed",
    "--case-sensitive": "Profi-Ass symbols ignore case and keep 8 characters, as the original did",
    "-B": "64tass's -B (long branches): a branch out of range is an error here, as on the original; write a JMP",
    "--long-branch": "a branch out of range is an error here, as on the original; write a JMP",
    "-f": "ACME's -f cbm|plain is --format prg|raw here",
    "--outfile": "ACME's --outfile is -o here",
    "-T": "64tass's -T (tasm compatible) has no asm6502 counterpart: the dialect is Profi-Ass 64's",
    "--labels-root": "not in asm6502: -l FILE writes a VICE label file",
    "--report": "ACME's --report (a listing) is -L FILE here",
    "--symbollist": "ACME's --symbollist is -l FILE (a VICE label file) here",
}


def foreign_option(argv: list[str]) -> str | None:
    """The message for the first 64tass/ACME option in *argv* that asm6502 answers with its own way, or None."""
    for arg in argv:
        if arg == "--":
            break
        name = arg.split("=", 1)[0]
        if name in FOREIGN_OPTIONS:
            return f"{name}: {FOREIGN_OPTIONS[name]}"
    return None


def main(argv: list[str]) -> int:
    foreign = foreign_option(argv)
    if foreign is not None:
        build_parser().error(foreign)
    defines, rest = take_repeated(argv, "-D", "--define")
    values = read_plain(OPTIONS, rest)
    args = build_parser().parse_args(rest) if values is None else SimpleNamespace(**values)
    args.define += defines
    return guarded(lambda: _run(args), args.diagnostics_format, args.caret, prog="asm6502")


def _run(args) -> int:
    paths = declared_paths(OPTIONS, args)
    with PausedGc():  # (the listing's rows and the output text too)
        return _assemble_command(args, files_for(paths, overwrite=args.overwrite, overwrite_option="--overwrite"))


def _assemble_command(args, files: Files) -> int:
    """*files*: the gate, given the command line's files by their roles (every read and write)."""
    source = Path(args.source)
    pieces = source_pieces(source, files)  # (read as assemble reads them into lines: the text is never whole)
    name = str(source)
    options = Options(cpu=args.cpu, defines=parse_defines(args.define), listing=bool(args.listing or args.debug_info),
                      include_dirs=tuple(args.include), disk=args.disk, case="lower" if args.case == "petcat" else args.case,
                      empty_ok=bool(args.listing or args.labels or args.debug_info), precedence=not args.quiet and _precedence_on(args.warnings))  # (-q: not looked for)  # (definitions only: their listing or labels, no object file)  # fmt: skip
    try:
        result = assemble(pieces, name, options, files)
    except DiagnosticError as exc:
        print_diagnostics(in_source_order(exc.diagnostics), more=exc.more, form=args.diagnostics_format, caret=args.caret, prog="asm6502")
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
        print_diagnostics(in_source_order(diags), more=result.more_warnings, form=args.diagnostics_format, caret=args.caret, prog="asm6502")
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
    if args.breaks and not (args.labels or args.debug_info):
        raise DiagnosticError([error("--break needs a label file: -l FILE (x64sc -moncommands FILE runs its 'break' lines) "
                                     "or a debug-info file (--debug-info FILE)")])
    breaks = _break_addresses(result, args.breaks)
    if args.labels:
        files.add(args.labels, output.vice_labels(result, args.labels_all, breaks), "label file")
    if args.debug_info:
        from asm6502.debuginfo import kickass_dbg  # (lazy: start-up, see ARCHITECTURE.md)

        files.add(args.debug_info, kickass_dbg(result, breaks), "debug-info file")
    if args.mse and result.segments:
        from asm6502.typein import mselisting as mse

        files.add(args.mse, mse.write_listing(result.load_address, result.image, name=(args.mse_name or source.stem).upper()), "MSE listing")
    files.commit()
    if not args.quiet:
        others = [str(p) for p in (args.listing, args.labels, args.debug_info, args.mse) if p] + sorted(result.files)
        print(_summary(result, out_path if payload is not None else None, args.output == "-", others), file=sys.stderr)
    return 0


def _summary(result, out_path: Path | None, to_stdout: bool, others: list[str]) -> str:
    """The one line after a successful assembly: what was written, where it loads, how many bytes."""
    also = f" (and {', '.join(others)})" if others else ""
    if out_path is None:
        return f"wrote {', '.join(others)}: definitions only, no object file" if others else "no object file"
    start, end = result.segments[0][0], result.segments[-1][0] + len(result.segments[-1][1])
    where = "standard output" if to_stdout else str(out_path)
    return f"wrote {where}: ${start:04X}-${end - 1:04X}, {end - start:,} bytes{also}"


def _break_addresses(result, names: list[str]) -> list[int]:
    """The addresses of --break's labels (or numbers); an unknown name is an error."""
    symbols = {expr.key_of(name): value for name, value in result.symbols.items()}
    out = []
    for name in names:
        try:
            out.append(expr.evaluate(name, symbols))
        except (expr.ExprError, expr.Unknown):
            raise DiagnosticError([error(f"--break {name}: no such label in the program")]) from None
    return out


def _precedence_on(choices: list[str]) -> bool:
    """Whether -W leaves the precedence warnings on (the last of 'precedence'/'no-precedence'/'all' counts)."""
    on = True
    for choice in choices:
        on = choice != "no-precedence"
    return on


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
