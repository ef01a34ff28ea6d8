"""``asm6502 d64 list|read|write|delete|rename|validate``: 1541 disk images from the command line."""

from __future__ import annotations

import argparse
from pathlib import Path

from asm6502.cli.common import Parser, add_path_argument, command_name, gate, guarded
from asm6502.d64 import DiskImage, FileType, name_matches, parse_disk_spec, petscii_name
from asm6502.diagnostics import DiagnosticError, error
from asm6502.fileio import EDITED, INPUT, MAX_IMAGE_BYTES, MAX_SOURCE_BYTES, OUTPUT, Files, write_stdout
from asm6502.petscii import display_name

NAME_HELP = (
    "names are PETSCII as typed on a C64 in its start-up upper case mode: "
    "'superhirn ii' and 'SUPERHIRN II' are the same name; {$XX} gives any byte"
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="asm6502 d64",
        description="List, read, write, delete (scratch) and rename files of Commodore 1541 disk images (.d64, 35 tracks), and validate them.",
        epilog=NAME_HELP,
    )
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = sub.add_parser("list", help="show the directory as LOAD\"$\",8 and LIST show it")
    add_path_argument(p, "image", role=INPUT, what="disk image", metavar="IMG", help="the .d64 image")

    p = sub.add_parser("read", help="copy one file out of the image", epilog=NAME_HELP)
    add_path_argument(p, "image", role=INPUT, what="disk image", metavar="IMG", help="the .d64 image")
    p.add_argument("name", metavar="NAME", help="file name on the disk; the DOS wildcards * and ? work")
    add_path_argument(p, "-o", "--output", role=OUTPUT, metavar="FILE", required=True,
                   help="where to write the file (a PRG keeps its 2-byte load address)")

    p = sub.add_parser("write", help="add files to an image (or to a new one with --new)", epilog=NAME_HELP)
    add_path_argument(p, "image", role=EDITED, what="disk image", metavar="IMG", help="the .d64 image to change or create")
    add_path_argument(p, "files", role=INPUT, what="file to add", metavar="FILE", nargs="*", help="files to add, stored byte for byte (a .prg with its load address)")
    p.add_argument("--name", metavar="N", action="append", default=[],
                   help="disk name for the next FILE (repeat once per FILE); default: the file name without extension")
    p.add_argument("--type", choices=["prg", "seq", "usr"], default="prg", help="file type for all FILEs (default prg)")
    p.add_argument("--new", metavar="DISKNAME,ID",
                   help='start from a freshly formatted disk, like NEW"DISKNAME,ID" (replaces IMG if it is a .d64 image)')
    p.add_argument("--force", action="store_true", help="with --new: replace IMG even when it is not a .d64 image")
    p.add_argument("--replace", action="store_true", help="overwrite files of the same name instead of failing")

    p = sub.add_parser("delete", help="scratch files from an image (DOS S:NAME; wildcards * and ?)", epilog=NAME_HELP)
    add_path_argument(p, "image", role=EDITED, what="disk image", metavar="IMG", help="the .d64 image to change")
    p.add_argument("names", metavar="NAME", nargs="+", help="file names or patterns; every matching file is scratched")

    p = sub.add_parser("rename", help="rename a file on an image (DOS R:NEW=OLD)", epilog=NAME_HELP)
    add_path_argument(p, "image", role=EDITED, what="disk image", metavar="IMG", help="the .d64 image to change")
    p.add_argument("old", metavar="OLD", help="the file's name now")
    p.add_argument("new", metavar="NEW", help="its new name (no other file may have it)")

    p = sub.add_parser("validate", help="rebuild the BAM from the files' chains (DOS V, c1541's validate): lost blocks "
                       "freed, unclosed files removed; says what it changed")
    add_path_argument(p, "image", role=EDITED, what="disk image", metavar="IMG", help="the .d64 image to validate")
    return parser


def _edit(args, plan: Files, change) -> int:
    """Load the image, let *change* change it and say what it did, write it back whole or not at all."""
    image = _load(args.image)  # (read to be changed: the image is this command's output)
    said = change(image)
    plan.add(args.image, image.to_bytes(), "disk image")
    plan.commit()
    for line in said:
        print(f"{args.image}: {line}")
    print(f"{args.image}: {image.blocks_free()} blocks free")
    return 0


def _delete(args, plan: Files) -> int:
    def change(image: DiskImage) -> list[str]:
        said = []
        for text in args.names:
            try:
                pattern = petscii_name(text, what="file name", patterns=True)
            except ValueError as exc:
                raise DiagnosticError([error(str(exc))]) from None
            matching = [e for e in image.directory() if name_matches(pattern, e.name)]
            if not matching:
                raise DiagnosticError([error(f'{args.image}: no file "{text}" on the disk (62, FILE NOT FOUND); nothing was changed')])
            for entry in matching:
                image.delete(entry)
                said.append(f'scratched "{entry.display_name}" {entry.type_name}, {entry.blocks} blocks')
        return said

    return _edit(args, plan, change)


def _rename(args, plan: Files) -> int:
    def change(image: DiskImage) -> list[str]:
        entry = image.find(_name_of(args.old, "file name"))
        if entry is None:
            raise DiagnosticError([error(f'{args.image}: no file "{args.old}" on the disk (62, FILE NOT FOUND)')])
        new = _name_of(args.new, "new name")
        image.rename_file(entry, new)
        return [f'renamed "{entry.display_name}" to "{display_name(new)}"']

    return _edit(args, plan, change)


def _validate(args, plan: Files) -> int:
    image = _load(args.image)  # (read to be changed: the image is this command's output)
    before = image.blocks_free()
    done = image.validate()
    if not done.changed:
        print(f"{args.image}: the BAM agrees with the files' chains; nothing to change")
        print(f"{args.image}: {image.blocks_free()} blocks free")
        return 0
    plan.add(args.image, image.to_bytes(), "disk image")
    plan.commit()
    for entry in done.removed:
        print(f'{args.image}: removed the unclosed file "{entry.display_name}" {entry.type_name} (its blocks are free)')
    for what, blocks in (("freed", done.freed), ("marked in use", done.taken)):
        if blocks:
            shown = ", ".join(f"{t}/{s}" for t, s in blocks[:12]) + (", ..." if len(blocks) > 12 else "")
            print(f"{args.image}: {what} {len(blocks)} block{'s' if len(blocks) != 1 else ''} (track/sector {shown})")
    if done.recounted:
        print(f"{args.image}: recounted the free blocks of track{'s' if len(done.recounted) != 1 else ''} "
              f"{', '.join(map(str, done.recounted))}")
    print(f"{args.image}: {image.blocks_free()} blocks free (were {before})")
    return 0


def _name_of(text: str, what: str) -> bytes:
    try:
        return petscii_name(text, what=what)
    except ValueError as exc:
        raise DiagnosticError([error(str(exc))]) from None


def _load(path: str, files: Files | None = None) -> DiskImage:
    return DiskImage((files if files is not None else Files()).read(path, MAX_IMAGE_BYTES, "disk image"), origin=path)


def _list(args, files: Files) -> int:
    write_stdout("".join(line + "\n" for line in _load(args.image, files).listing()))
    return 0


def _read(args, plan: Files) -> int:
    image = _load(args.image, plan)
    try:
        pattern = petscii_name(args.name, what="file name", patterns=True)
    except ValueError as exc:
        raise DiagnosticError([error(str(exc))]) from None
    entry = image.find(pattern)
    if entry is None:
        raise DiagnosticError([error(f'{args.image}: no file "{args.name}" on the disk (62, FILE NOT FOUND)')])
    plan.add(args.output, image.read_file(entry), "output")
    plan.commit()
    print(f'{args.output}: "{entry.display_name}" {entry.type_name}, {entry.blocks} blocks')
    return 0


def _write(args, plan: Files) -> int:
    """*plan*: the gate; the image is the output (edited), the files added to it are inputs."""
    if len(args.name) > len(args.files):
        raise DiagnosticError([error(f"{len(args.name)} --name options for {len(args.files)} files")])
    if args.new is not None:
        try:
            disk_name, disk_id = parse_disk_spec(args.new)
        except ValueError as exc:
            raise DiagnosticError([error(f"--new: {exc}")]) from None
        if Path(args.image).exists() and not args.force:
            try:
                _load(args.image)  # (only looked at: the image is this command's output)
            except (DiagnosticError, OSError):
                raise DiagnosticError([error(f"{args.image} exists and is not a .d64 image; --new would replace it "
                                             "(add --force to replace it anyway)")]) from None
        image = DiskImage.format(disk_name, disk_id, origin=args.image)
    elif not args.files:
        raise DiagnosticError([error("nothing to do: give FILEs to add, or --new to format a disk")])
    elif not Path(args.image).exists():  # (a new image is made with --new: named, not a bare "No such file")
        raise DiagnosticError([error(f"{args.image}: no such disk image; to make a new one, add --new DISKNAME,ID "
                                     f"(e.g. asm6502 d64 write {args.image} --new \"MY DISK,01\" {' '.join(args.files)})")])
    else:
        image = _load(args.image)  # (read to be changed: the image is this command's output)
    file_type = FileType[args.type.upper()]
    added = []
    for file in args.files:
        plan.add_input(file, "file to add")
    plan.check(args.image, "disk image")
    given: dict[bytes, str] = {}
    for i, file in enumerate(args.files):
        text = args.name[i] if i < len(args.name) else Path(file).stem
        name = _name_of(text, "file name")
        if name in given:  # (with --replace the second would silently replace the first)
            raise DiagnosticError([error(f"'{file}' and '{given[name]}' both get the disk name \"{text}\"; "
                                         "give one of them another with --name")])
        given[name] = file
        entry = image.add_file(name, plan.read(file, MAX_SOURCE_BYTES, "file to add"), file_type,
                               replace=args.replace)
        added.append(entry)
    plan.add(args.image, image.to_bytes(), "disk image")
    plan.commit()  # all or nothing: written only when every file fitted
    for entry in added:
        print(f'{args.image}: added "{entry.display_name}" {entry.type_name}, {entry.blocks} blocks')
    print(f"{args.image}: {image.blocks_free()} blocks free")
    return 0


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    action = {"list": _list, "read": _read, "write": _write, "delete": _delete, "rename": _rename,
              "validate": _validate}[args.action]
    return guarded(lambda: action(args, gate(parser, args)), prog=command_name(parser, args))
