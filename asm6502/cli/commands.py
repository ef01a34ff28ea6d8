"""The sub-commands of ``asm6502``: one entry each (the module has ``main(argv) -> int``)."""

from __future__ import annotations

# command name -> (module, one-line summary shown in ``asm6502 --help``)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "build": ("asm6502.cli.build", "build every artifact declared in build.yaml"),
    "mse": ("asm6502.cli.mse", "write or read MSE type-in hex listings"),
    "typein": ("asm6502.cli.typein", "find and read every type-in listing of a magazine page or issue (OCR text)"),
    "publish": ("asm6502.cli.publish", "lay a program out for print as a type-in listing (SVG, HTML, PDF); --check reads it back"),
    "basic": ("asm6502.cli.basic", "tokenize, list, checksum and run C64 BASIC V2 programs"),
    "run": ("asm6502.cli.run", "run a machine-code .prg in the py65 emulator with C64 ROM stubs"),
    "verify": ("asm6502.cli.verify", "verify a program in the emulator (e.g. 'verify superhirn')"),
    "d64": ("asm6502.cli.d64", "list, read and write 1541 .d64 disk images"),
    "disasm": ("asm6502.cli.disasm", "disassemble a .prg into Profi-Ass, 64tass or ACME source that reassembles"),
    "convert": ("asm6502.cli.convert", "translate a Profi-Ass source to 64tass or ACME syntax"),
    "completion": ("asm6502.cli.completion", "print a bash or zsh completion script"),
}
