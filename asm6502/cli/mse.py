"""``asm6502 mse``: write a .prg as an MSE type-in listing, or read a listing back into a .prg."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from asm6502.cli.common import Parser, add_path_argument, byte_arg, command_name, gate, guarded, number_arg, print_diagnostics, read_program
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import INPUT, OUTPUT, Files, refuse_binary, write_stdout
from asm6502.typein import mselisting as mse

DESCRIPTION = """\
Write or read MSE ("MaschinenSpracheEditor") hex listings as printed in 64'er magazine.

  asm6502 mse write build/superhirn.prg --name "SUPERHIRN II" --end 0x360C --fill 0xFF
  asm6502 mse read examples/typo.mse.txt              # one mistyped byte: the error names the fix
  asm6502 mse read ocr-page.txt -o superhirn.prg --fix     # also superhirn.fixed.txt, the corrected listing
  asm6502 mse type typed.txt --start 0x3400 --end 0x360C   # type it in like the MSE, line by line
"""


_byte_arg = byte_arg
_address_arg = number_arg(0, 0x10000, "end address")  # exclusive: $10000 = up to $FFFF


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="asm6502 mse", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{write,read,type}")

    w = sub.add_parser("write", help="print a .prg as an MSE listing", description="Print a .prg as an MSE listing "
                       "(header, dashed rule, one line per row) in the layout 64'er printed.")
    add_path_argument(w, "prg", role=INPUT, what="C64 program", metavar="PRG", help="C64 program file (2-byte load address, then the bytes)")
    add_path_argument(w, "-o", "--output", role=OUTPUT, what="listing", metavar="TXT", help="write the listing here (default: standard output)")
    w.add_argument("--name", metavar="NAME", help="program name for the 'PROGRAMM :' header "
                   "(default: the PRG file name in capitals)")
    w.add_argument("--version", choices=mse.VERSIONS, default="1.0",
                   help="MSE version: 1.0 (hex, 8 bytes a line, 64'er 2/85-6/90), 2.0 (7/90-4/91) or "
                   "2.1 (5/91-5/94) (letter code, 15 bytes a line); default 1.0")
    w.add_argument("--end", type=_address_arg, metavar="ADDR",
                   help="end address for the header, exclusive (first address after the program); "
                   "bytes up to it are filled with --fill. Default: just after the program")
    w.add_argument("--fill", type=_byte_arg, default=mse.MSE_FILL, metavar="BYTE",
                   help="fill byte up to --end and for the rest of a V2 last line (default $AA, the MSE's own)")
    w.add_argument("--last-line", choices=mse.LAST_LINE_LAYOUTS, default="short",
                   help="V1.0 last line: 'short' shows only the bytes below the end address (Superhirn II); "
                   "'full' shows all 8, --fill past the end, checksum over all 8 (both were printed)")

    r = sub.add_parser("read", help="read an MSE listing (typed or OCR'd) back into a .prg",
                       description="Read an MSE listing back into a .prg, verifying every line's checksum. "
                       "Accepts upper/lower case, extra or missing spaces, lines run together by OCR, "
                       "prose around the listing, header or not, several listings on a page, OCR damage "
                       "(misread ':' after the address, letters for digits, specks, unreadable '?'). A line "
                       "whose damage shows in the print and has one clearly most likely reading is repaired "
                       "(and the repair named); other bad lines are reported with the most likely "
                       "corrections. Nothing is written unless every line verifies (or --force).")
    add_path_argument(r, "txt", role=INPUT, what="listing", metavar="TXT", help="listing text file ('-' = standard input)")
    add_path_argument(r, "-o", "--output", role=OUTPUT, what="program", metavar="PRG", help="write the program here (without -o: only verify)")
    r.add_argument("--force", action="store_true", help="write the PRG even when lines fail to verify "
                   "(missing lines are filled with $AA); the exit status is still 1")
    r.add_argument("--version", choices=("auto",) + mse.VERSIONS, default="auto",
                   help="MSE version of the listing (default: auto, decided by which checksums match)")
    r.add_argument("--all-fixes", action="store_true", help="list all the readings found for a bad line "
                   "(single and double changes that verify), not only the likeliest few")
    r.add_argument("--fix", action="store_true", help="with -o: also write the corrected listing (repairs "
                   "applied, as it should have been printed) next to the PRG, as NAME.fixed.txt")
    r.add_argument("--review", action="store_true", help="with -o: walk the lines still bad in the terminal, "
                   "likeliest first: a key takes a reading (1-9), retypes the line (t: its bytes and checksum, "
                   "checked as typed), skips it (s), takes the last decision back (b) or ends (q); the decisions "
                   "are saved in PRG's NAME.review.txt after each one and the same command resumes them")
    from asm6502.cli.type_mse import register_type

    register_type(sub)
    return parser


def _read_prg(path: str, files: Files | None = None) -> tuple[int, bytes]:
    raw, _ = read_program(files if files is not None else Files(), path)
    if len(raw) < 3:
        raise DiagnosticError([error(f"{path}: too short for a .prg (a 2-byte load address and at least one byte)")])
    return int.from_bytes(raw[:2], "little"), raw[2:]


def _read_text(path: str, files: Files | None = None) -> str:
    raw = (files if files is not None else Files()).read(path, what="listing")
    refuse_binary(raw, "<stdin>" if path == "-" else path, "an MSE listing text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # old OCR output; the listing itself is ASCII


def _write(args: argparse.Namespace, files: Files) -> int:
    load, data = _read_prg(args.prg, files)
    name = args.name if args.name is not None else Path(args.prg).stem.upper()
    text = mse.write_listing(load, data, name=name, version=args.version, end=args.end, fill=args.fill,
                             last_line=args.last_line)
    if args.output:
        _write_output(args.output, text, args.prg, "listing", files)
        print(f"wrote {args.output}: the MSE V{args.version} listing of {args.prg}, ${load:04X}-${load + len(data) - 1:04X} "
              f"({len(data):,} bytes)", file=sys.stderr)  # (as the assembler says what it wrote)
    else:
        write_stdout(text)
    return 0


def _write_output(path: str, data: bytes | str, source: str, what: str, gate: Files | None = None) -> None:
    _write_outputs([(path, data, what)], source, gate)


def _write_outputs(files: list[tuple[str, bytes | str, str]], source: str, gate: Files | None = None) -> None:
    """The one output rule (the gate, fileio.Files): never over an input, all or nothing."""
    plan = gate if gate is not None else Files()
    plan.add_input(source, "input")
    for path, data, what in files:
        plan.add(path, data, what)
    plan.commit()


def _read(args: argparse.Namespace, gate: Files) -> int:
    if args.fix and not args.output:
        raise DiagnosticError([error("--fix needs -o PRG (the corrected listing is written next to it)")])
    text = _read_text(args.txt, gate)
    name = "<stdin>" if args.txt == "-" else args.txt
    results = mse.read_listings(text, name, version=None if args.version == "auto" else args.version)
    decisions = None
    if args.review:
        results, decisions = _review(results, text, args.output, gate)
    status = 0
    for k, result in enumerate(results, start=1):
        # several listings on one page: X.prg -> X-1.prg, X-2.prg, ...
        output = args.output
        if output and len(results) > 1:
            output = str(Path(output).with_name(f"{Path(output).stem}-{k}{Path(output).suffix}"))
        label = name if len(results) == 1 else f"{name} (listing {k} of {len(results)})"
        if decisions is not None:
            _report_decisions(label, decisions, f"{k}/" if len(results) > 1 else "", result.count("bad"))
        status |= _report_listing(args, result, label, output, gate)
    return status


def _review(results, text: str, output: str | None, gate: Files):
    """The review session over the lines still bad (cli/review.py): the results with the lines
    decided taken, and the decisions."""
    from asm6502.cli import review
    from asm6502.typein.mselisting import review as msereview

    review.need_output(output)
    assert output is not None
    decisions = review.run(msereview.items(results, text), msereview.Checker(results), review.state_path(output),
                           gate)
    return msereview.apply(results, decisions), decisions


def _report_decisions(label: str, decisions, prefix: str, left: int) -> None:
    from asm6502.cli import review

    fixes, typed = review.count(decisions, prefix)
    print(f"{label}: {fixes + typed} decision(s) in the review ({fixes} fix(es) taken, {typed} line(s) retyped), "
          f"{left} line(s) still in the way", file=sys.stderr)


def _report_listing(args: argparse.Namespace, result: mse.ReadResult, name: str, output: str | None,
                    gate: Files | None = None) -> int:
    print_diagnostics(result.diagnostics, prog="asm6502 mse read")
    hidden = any("less likely" in n.message for d in result.diagnostics for n in d.notes)
    if args.all_fixes:
        _print_all_fixes(result, name)
    elif hidden:
        print("asm6502 mse read: note: 'asm6502 mse read --all-fixes' lists all the readings found", file=sys.stderr)
    n_err = len(result.errors)
    if result.data:
        summary = (f"{name}: MSE V{result.version}, {result.lines} lines, ${result.start:04X}-${result.end - 1:04X} "
                   f"({len(result.data)} bytes)")
        repaired = result.count("repaired")
        verdict = (", all checksums match" + (f" ({repaired} after a repair)" if repaired else "")) if result.ok \
            else f", {n_err} error(s)"
        print(summary + verdict, file=sys.stderr)
        print(f"{name}: {result.count('verified')} lines verified, {result.count('repaired')} repaired, "
              f"{result.count('bad')} still bad", file=sys.stderr)
    if output:
        if result.ok or (args.force and result.data):
            files: list[tuple[str, bytes | str, str]] = [(output, result.prg, "program")]
            if args.fix:
                files.append((str(Path(output).with_suffix(".fixed.txt")), mse.corrected_listing(result), "corrected listing"))
            _write_outputs(files, args.txt, _fresh(gate))
            if args.fix:
                print(f"asm6502 mse read: wrote the corrected listing to {files[1][0]}", file=sys.stderr)
            if not result.ok:
                print(f"asm6502 mse read: wrote {output} despite {n_err} error(s) (--force)", file=sys.stderr)
        else:
            print(f"asm6502 mse read: {output} not written ({n_err} error(s); --force writes it anyway)",
                  file=sys.stderr)
    return 0 if result.ok else 1


def _print_all_fixes(result: mse.ReadResult, name: str) -> None:
    """Every reading of each bad line that verifies, likeliest first, as the bytes it changes."""
    for report in result.report:
        if report.status != "bad" or not report.fixes:
            continue
        print(f"{name}:{report.line}: {len(report.fixes)} readings of line ${report.address:04X} found that verify:", file=sys.stderr)
        for k, fix in enumerate(report.fixes, start=1):
            changes = [f"${report.address + i:04X}: {new:02X} instead of {old:02X}"
                       for i, (old, new) in enumerate(zip(report.data, fix, strict=False)) if old != new]
            print(f"  {k:>3}. {', '.join(changes) or 'the bytes as printed (the checksum is misprinted)'}", file=sys.stderr)


def _fresh(gate: Files | None) -> Files:
    """A gate for one more listing's outputs, knowing every input read so far (each listing of a
    page is committed on its own)."""
    return gate.fresh() if gate is not None else Files()


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "type":
        from asm6502.cli.type_mse import run_type

        return guarded(lambda: run_type(args, gate(parser, args)), prog=command_name(parser, args))
    return guarded(lambda: (_write if args.command == "write" else _read)(args, gate(parser, args)), prog=command_name(parser, args))
