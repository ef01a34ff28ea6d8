"""Start-up cost of small commands: instructions (valgrind's callgrind, total Ir) of one run, in
two trees of the package, with a table of the ratio.

Instructions, not seconds, so that the load of a shared machine does not enter. Each command runs as
the console script runs it (``from asm6502.cli import main``), with ``PYTHONPATH=TREE`` in front of
the virtual environment, ``PYTHONHASHSEED=0`` and its byte-code written first: each command runs once
without valgrind, with ``PYTHONDONTWRITEBYTECODE`` unset and a ``PYTHONPYCACHEPREFIX`` of its tree,
then under callgrind with the same settings (a module compiled at start-up would be counted too, two
to three times the figures). The inputs are this checkout's examples, the same for both trees; the
commands' outputs go to a temporary folder.

    .venv/bin/python bench/startup.py --before d2fdab9                 # every command, the table
    .venv/bin/python bench/startup.py --before ../old-tree --command disasm --command version
    .venv/bin/python bench/startup.py                                   # this checkout alone

``--before`` and ``--after`` are a tree's folder or a git revision of this checkout (archived into a
temporary folder); ``--after`` is this checkout as it is by default.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# name: the command's words after 'asm6502' (OUT: a file in the temporary folder; PRG: hello.asm
# assembled by this checkout)
COMMANDS = {
    "version": ["--version"],
    "assemble": [str(EXAMPLES / "hello.asm"), "-o", "OUT"],
    "basic tok": ["basic", "tok", str(EXAMPLES / "HELLO.BAS"), "-o", "OUT"],
    "mse write": ["mse", "write", "PRG", "--name", "HELLO", "-o", "OUT"],
    "disasm": ["disasm", "PRG"],
}
ENTRY = "import sys\nfrom asm6502.cli import main\nsys.exit(main())\n"


def instructions(python: str, tree: Path, argv: list[str], work: Path, pycache: Path) -> int:
    """Total instructions of one run of ``python ENTRY argv`` (or ``python -c pass`` for argv None)."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0", PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    entry = work / "entry.py"
    entry.write_text(ENTRY)
    command = [python, str(entry), *argv] if argv is not None else [python, "-c", "pass"]
    subprocess.run(command, cwd=work, env=env, capture_output=True)  # writes the byte-code
    out = work / "callgrind.out"
    proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command],
                          cwd=work, env=env, capture_output=True, text=True)
    found = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.MULTILINE)
    if found is None:
        raise SystemExit(f"startup.py: no total in callgrind's output for {command}:\n{proc.stderr}")
    out.unlink()
    return int(found.group(1))


def tree_of(spec: str | None, scratch: Path, name: str) -> Path:
    """A folder as given, a git revision archived into scratch/name, or this checkout (None)."""
    if spec is None:
        return ROOT
    if Path(spec).is_dir():
        return Path(spec).resolve()
    folder = scratch / name
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", spec], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the old tree: a folder or a git revision (default: none, this checkout alone)")
    parser.add_argument("--after", help="the new tree: a folder or a git revision (default: this checkout)")
    parser.add_argument("--command", action="append", choices=list(COMMANDS), help="a command to measure (repeatable; default: all)")
    parser.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"), help="the interpreter (default: .venv's)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("startup.py: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="asm6502-startup-") as tmp:
        scratch = Path(tmp)
        trees = {"after": tree_of(args.after, scratch, "after")}
        if args.before:
            trees = {"before": tree_of(args.before, scratch, "before"), **trees}
        work = scratch / "work"
        work.mkdir()
        prg = work / "hello.prg"
        subprocess.run([args.python, "-m", "asm6502", str(EXAMPLES / "hello.asm"), "-o", str(prg), "-q"],
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
        base = instructions(args.python, ROOT, None, work, scratch / "pycache-pass")
        print(f"python -c pass: {base / 1e6:.1f} M")
        print("| command | " + " | ".join(trees) + (" | after / before |" if len(trees) == 2 else ""))
        print("|---" * (len(trees) + 1 + (len(trees) == 2)) + "|")
        for name in args.command or COMMANDS:
            counts = []
            for label, tree in trees.items():
                words = [str(work / "out.bin") if w == "OUT" else str(prg) if w == "PRG" else w for w in COMMANDS[name]]
                counts.append(instructions(args.python, tree, words, work, scratch / f"pycache-{label}"))
            ratio = f" | {100 * counts[-1] / counts[0]:.1f} %" if len(counts) == 2 else ""
            print(f"| `{name}` | " + " | ".join(f"{c / 1e6:.1f} M" for c in counts) + ratio + " |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
