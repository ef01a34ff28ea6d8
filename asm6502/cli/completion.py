"""``asm6502 completion bash|zsh``: a shell completion script, made from the commands' own argument parsers.

The script is a table of every command's options, sub-commands and option choices, read from argparse (so it
never lags behind an option); files complete where an argument is a file.  zsh runs the bash function through
its ``bashcompinit`` (part of zsh): no third-party package, no code at completion time but the shell's own.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from asm6502.cli.commands import SUBCOMMANDS
from asm6502.cli.common import Parser, guarded

SHELLS = ("bash", "zsh")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="asm6502 completion",
        description="Print a shell completion script for asm6502. bash: "
        "'source <(asm6502 completion bash)' (or save it in ~/.local/share/bash-completion/completions/asm6502); "
        "zsh: 'source <(asm6502 completion zsh)' in ~/.zshrc.",
    )
    parser.add_argument("shell", choices=SHELLS, help="the shell")
    return parser


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """'' (the assembler), each sub-command's name and 'command/sub' -> its parser."""
    from asm6502.cli import assemble

    out = {"": assemble.build_parser()}
    for name, (module_name, _) in SUBCOMMANDS.items():
        module = importlib.import_module(module_name)
        make = getattr(module, "build_parser", None) or module._parser
        out[name] = make()
    for name, parser in list(out.items()):
        for sub_name, sub in _subparsers(parser).items():
            out[f"{name}/{sub_name}" if name else sub_name] = sub
    return out


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {name: sub for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name, sub in action.choices.items()}


def _words(items) -> str:
    return " ".join(sorted(set(items)))


def bash_script() -> str:
    parsers = command_parsers()
    subs = {path: _subparsers(p) for path, p in parsers.items()}
    subs[""] = dict.fromkeys(SUBCOMMANDS)  # (the assembler's parser has none: the first word picks one)
    steps = [f"/{name}" if "/" not in path else f"{path.rsplit('/', 1)[0]}/{name}"
             for path in parsers if path for name in [path.rsplit("/", 1)[-1]]]
    lines = [
        "# asm6502 completion for bash (made by 'asm6502 completion bash' from the commands' argument parsers)",
        "_asm6502() {",
        '    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path="" i words="" opts="" subs=""',
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        case "$path/${COMP_WORDS[i]}" in',
        f"            {'|'.join(sorted(steps))}) path=\"${{path:+$path/}}${{COMP_WORDS[i]}}\" ;;",
        "        esac",
        "    done",
        '    case "$path|$prev" in',
    ]
    for path, parser in parsers.items():
        for action in parser._actions:
            if action.choices and action.option_strings and not isinstance(action, argparse._SubParsersAction):
                for option in action.option_strings:
                    lines.append(f'        "{path}|{option}") words="{_words(map(str, action.choices))}" ;;')
    lines += [
        "    esac",
        '    if [[ -n $words ]]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi',
        '    case "$path" in',
    ]
    for path, parser in parsers.items():
        options = [s for action in parser._actions for s in action.option_strings]
        lines.append(f'        "{path}") opts="{_words(options)}"; subs="{_words(subs.get(path, {}))}" ;;')
    lines += [
        "    esac",
        '    if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur"))',
        '    else COMPREPLY=($(compgen -W "$subs" -- "$cur") $(compgen -f -- "$cur")); fi',
        "}",
        "complete -o filenames -F _asm6502 asm6502",
    ]
    return "\n".join(lines) + "\n"


def zsh_script() -> str:
    return ("# asm6502 completion for zsh: the bash completion through zsh's bashcompinit\n"
            "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + bash_script())


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)

    def run() -> int:
        sys.stdout.write(bash_script() if args.shell == "bash" else zsh_script())
        return 0

    return guarded(run, prog="asm6502 completion")
