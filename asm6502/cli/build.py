"""``asm6502 build [build.yaml]``: make every artifact the manifest declares."""

from __future__ import annotations

import argparse
import sys

from asm6502 import build as builder
from asm6502.cli.common import Parser, add_diagnostics_options, add_path_argument, command_name, gate, guarded, print_diagnostics
from asm6502.fileio import INPUT, Files


def build_parser() -> argparse.ArgumentParser:
    rules = "\n".join(f"  {name:<12} {rule.summary}" for name, rule in builder.RULES.items())
    parser = Parser(
        prog="asm6502 build",
        description="Build every artifact declared in a build.yaml manifest (what 'make' runs). "
        "Everything is built in memory first; files are written only when all succeeded, "
        "and only files whose bytes changed are rewritten.",
        epilog="rules:\n" + rules,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_path_argument(parser, "manifest", role=INPUT, what="manifest", metavar="MANIFEST", nargs="?", default=builder.MANIFEST,
                        help="the manifest (default: build.yaml in the current directory)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; compare a fresh build with the files on disk and "
                        "exit 1 with a summary of every difference (CI uses this)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print only warnings and errors")
    add_diagnostics_options(parser)
    return parser


def _run(args, files: Files) -> int:
    """*files*: the gate: every input registered as it is read, every output checked against them."""
    products = builder.build(args.manifest, files)
    for p in products:
        print_diagnostics(p.diagnostics, form=args.diagnostics_format, caret=args.caret, prog="asm6502 build")
    if args.check:
        report = builder.differences(products)
        report += [f"{path}: not made by {args.manifest} (stale? delete it or declare it)" for path in builder.undeclared(products, args.manifest)]
        for line in report:
            print(line)
        if report:
            print(f"{len(report)} differences between the files on disk and a fresh build", file=sys.stderr)
            return 1
        if not args.quiet:
            print(f"all {len(products)} artifacts are reproduced byte for byte")
        return 0
    for p, changed in builder.write(products, args.manifest, files):
        if not args.quiet:
            print(f"{'wrote' if changed else 'unchanged'}  {p.artifact.output}  ({len(p.data)} bytes, {p.artifact.rule})")
    return 0


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return guarded(lambda: _run(args, gate(parser, args)), args.diagnostics_format, args.caret, prog=command_name(parser, args))
