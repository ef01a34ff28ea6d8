"""Every command in README.md and docs/*.md runs as written, in order, from a fresh copy of the repository.

README.md's commands run first, in a fresh copy. Each page of docs/ then runs in a copy of what
README's commands left (so a page may use ``scratch/hello.prg`` and the like, never what another
page made); a new page is picked up by its name alone. The convention, for whoever writes a page:

* A block fenced `` ```sh `` is run. Each command (a line; lines ending in ``\\`` joined) runs with
  bash (``-o pipefail``) from the copy's root, with ``.venv/bin`` first on PATH (as after
  ``. .venv/bin/activate``) and an empty stdin. It must exit 0, unless its comment says ``exit N``.
* A block fenced `` ```sh manual `` (any other word after ``sh``) is shown, not run: it needs a
  terminal, VICE, ROM images, the network or minutes (``make test``, ``make bench``, a game to play).
* A block fenced `` ```sh needs=acme,64tass `` runs where those programs are installed (an
  ``asm6502`` command that runs them itself, ``convert --check``); elsewhere it is left out and named.
* A command whose program is not installed (``64tass`` on a machine without it) is left out and
  named when the test is skipped for it, and so are the block's commands after it (they may read
  what it would have written); a missing ``asm6502`` sub-command or file is a failure.
* A command may read test data from elsewhere (magazine OCR) as ``"$ASM6502_TESTDATA"/COLLECTION/FILE``:
  it runs with the variable set to the first test-data folder (tests/testdata.py) that holds every
  file it names, and is left out and named, as a missing program is, when none does.
* A block fenced `` ```text output `` right after a run block (nothing but blank lines between)
  lists lines that must appear, in this order, in what that block's commands printed (stdout and
  stderr together); a line ``...`` stands for any number of lines.
* Every other block (`` ```text ``, `` ```yaml ``, indented text) is only shown.

The copy holds the files git tracks plus the new ones it does not ignore -- a fresh clone of what
would be committed -- in a temporary folder. Its ``.venv`` holds wrappers that run this Python on
the copy's package, and the stamp that tells ``make`` the package is installed, so that ``make``
only builds (installing is ``make``'s own business, tested by using it). The commands may write
into ``scratch/`` only: ``build/`` must stay byte-identical and nothing else may appear.
A page's place in a message is ``docs/NAME.md:LINE``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import helpers
import pytest
import testdata
from helpers import ROOT

FENCE = re.compile(r"^```(\S*)(.*)$")
EXIT = re.compile(r"#.*\bexit (\d+)")
TIMEOUT = 120  # seconds per command
BUILTINS = {".", "source", "cd", "export", "set", "true", "test", "[", "echo", "printf"}
DATA = re.compile(r'"\$ASM6502_TESTDATA"/(\S+)')
NEEDS = re.compile(r"needs=([\w.+-]+(?:,[\w.+-]+)*)")


def data_root(command: str) -> Path | None:
    """The first test-data folder holding every file COMMAND reads from it (None: no such folder)."""
    wanted = DATA.findall(command)
    return next((root for root in testdata.roots() if all((root / rel).is_file() for rel in wanted)), None)


@dataclass
class Block:
    line: int  # the page's line of the opening fence
    commands: list[tuple[int, str]] = field(default_factory=list)  # (line, command)
    needs: tuple[str, ...] = ()  # programs the block runs besides its commands' own (``needs=``)
    expected: list[str] | None = None  # lines of the `text output` block after it


def run_blocks(text: str, page: str = "README.md") -> list[Block]:
    """The ``sh`` blocks of a page, each with the ``text output`` block that follows it."""
    blocks: list[Block] = []
    lines = text.splitlines()
    i = 0
    last_end = None  # index after the closing fence of the last run block
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, rest = m.group(1), m.group(2).strip()
        start = i
        i += 1
        body = []
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1  # the closing fence
        needs = NEEDS.fullmatch(rest)
        if lang == "sh" and (not rest or needs):
            block = Block(start + 1, needs=tuple(needs.group(1).split(",")) if needs else ())
            pending, first = "", None
            for k, line in enumerate(body):
                if first is None:
                    first = start + 2 + k
                if line.endswith("\\"):
                    pending += line[:-1] + " "
                    continue
                command, pending = (pending + line).strip(), ""
                if command and not command.startswith("#"):
                    block.commands.append((first, command))
                first = None
            blocks.append(block)
            last_end = i
        elif lang == "text" and rest == "output":
            between = lines[last_end:start] if last_end is not None else ["no run block"]
            assert blocks and all(not line.strip() for line in between), \
                f"{page}:{start + 1}: a 'text output' block must follow a run block directly"
            blocks[-1].expected = body
    return blocks


def follows(expected: list[str], output: str) -> str | None:
    """None when the expected lines appear in order in output ('...' = any lines), else the first missing."""
    got = output.splitlines()
    pos = 0
    gap = False
    for want in expected:
        if want.strip() == "...":
            gap = True
            continue
        while pos < len(got) and got[pos].rstrip() != want.rstrip():
            if not gap:
                return want
            pos += 1
        if pos == len(got):
            return want
        pos += 1
        gap = False
    return None


def fresh_copy(dest: Path) -> None:
    """The files a fresh clone would hold (tracked, and new files git does not ignore)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the pages' commands are run from a copy of what git tracks")
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def fake_venv(copy: Path) -> None:
    """.venv/bin/{python,asm6502,activate} running this Python on the copy's package; make's stamp."""
    bin_dir = copy / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(sys.executable)
    (bin_dir / "asm6502").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m asm6502 "$@"\n')
    (bin_dir / "asm6502").chmod(0o755)
    (bin_dir / "activate").write_text(f'PATH="{bin_dir}:$PATH"; export PATH\n')
    (copy / ".venv" / ".installed-stamp").touch()  # newer than pyproject.toml: 'make' only builds


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".venv" not in p.parts and "__pycache__" not in p.parts}


PAGES = ["README.md"] + sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))


def test_the_run_blocks_are_found():
    readme = run_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "make" in [c.split()[0] for b in readme for _, c in b.commands]
    blocks = [b for page in PAGES for b in run_blocks((ROOT / page).read_text(encoding="utf-8"), page)]
    assert sum(len(b.commands) for b in blocks) >= 50
    assert sum(b.expected is not None for b in blocks) >= 5


def test_a_needs_block_runs_with_its_programs_named():
    blocks = run_blocks("```sh needs=acme,64tass\nasm6502 convert x --check\n```\n```sh manual\nx64sc\n```\n")
    assert [(b.needs, [c for _, c in b.commands]) for b in blocks] == [(("acme", "64tass"), ["asm6502 convert x --check"])]


def test_follows_reads_dots_as_any_lines():
    assert follows(["a", "...", "d"], "a\nb\nc\nd\n") is None
    assert follows(["a", "c"], "a\nb\nc\n") == "c"
    assert follows(["b"], "a\nb\n") == "b"  # the first line must match unless '...' comes first
    assert follows(["...", "b"], "a\nb\n") is None


def test_every_page_has_commands_that_run():
    """A page of docs/ without one run block would be checked by nothing."""
    assert len(PAGES) >= 9
    empty = [page for page in PAGES if not any(b.commands for b in run_blocks((ROOT / page).read_text(encoding="utf-8"), page))]
    assert empty == []


@dataclass
class Copy:
    root: Path
    env: dict[str, str]
    before: dict[str, bytes]


def make_copy(dest: Path, source: Path | None = None) -> Copy:
    """A fresh copy of the repository (or of SOURCE, a copy the README's commands ran in) with its .venv."""
    dest.mkdir()
    if source is None:
        fresh_copy(dest)
    else:
        shutil.copytree(source, dest, dirs_exist_ok=True, symlinks=True, ignore=shutil.ignore_patterns(".venv"))
    fake_venv(dest)
    env = dict(os.environ, PATH=f"{dest / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
               PYTHONPATH=str(dest), COLUMNS="100",
               # (byte-code outside the copy, beside it: each command compiles what the last one did not)
               PYTHONDONTWRITEBYTECODE="", PYTHONPYCACHEPREFIX=str(dest.parent / "pycache"),
               ASM6502_ROMS="none")  # (a fresh machine: no ROM images unless a command names them)
    env.pop("VIRTUAL_ENV", None)
    where = subprocess.run([str(dest / ".venv" / "bin" / "python"), "-c", "import asm6502; print(asm6502.__file__)"],
                           env=env, capture_output=True, text=True, cwd=dest).stdout
    assert where.startswith(str(dest)), f"the copy's package is not the one imported: {where}"
    return Copy(dest, env, snapshot(dest))


def run_page(copy: Copy, page: str) -> tuple[list[str], list[str]]:
    """Run PAGE's commands in COPY: (failures, commands left out because a program or test data is missing)."""
    failures, missing_tools = [], []
    env = copy.env
    for block in run_blocks((copy.root / page).read_text(encoding="utf-8"), page):
        printed = ""
        absent = [p for p in block.needs if shutil.which(p, path=env["PATH"]) is None]
        if absent:
            missing_tools.append(f"{page}:{block.line}: {', '.join(absent)} (the block's commands)")
            continue
        left_out = False
        for line, command in block.commands:
            program = command.split()[0]
            if left_out:
                missing_tools.append(f"{page}:{line}: {command.split()[0]} (after a command left out)")
                continue
            if program not in BUILTINS and shutil.which(program, path=env["PATH"]) is None:
                missing_tools.append(f"{page}:{line}: {program}")
                left_out = True
                continue
            run_env = env
            if DATA.search(command):
                root = data_root(command)
                if root is None:
                    missing_tools.append(f"{page}:{line}: test data {', '.join(DATA.findall(command))}")
                    left_out = True
                    continue
                run_env = dict(env, ASM6502_TESTDATA=str(root))
            m = EXIT.search(command)
            want = int(m.group(1)) if m else 0
            proc = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=copy.root, env=run_env,
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)
            printed += proc.stdout + proc.stderr
            if proc.returncode != want:
                failures.append(f"{page}:{line}: exit {proc.returncode}, not {want}: {command}\n"
                                f"{(proc.stdout + proc.stderr)[-1500:]}")
        if block.expected is not None and not left_out:
            missing = follows(block.expected, printed)
            if missing is not None:
                failures.append(f"{page}:{block.line}: the output shown below this block is not what it "
                                f"printed; first line not found: {missing!r}\n{printed[-1500:]}")
    return failures, missing_tools


def only_scratch_written(copy: Copy, before: dict[str, bytes]) -> list[str]:
    after = snapshot(copy.root)
    changed = sorted(name for name in before if not name.startswith("scratch/") and after.get(name) != before[name])
    outside = sorted(name for name in after if name not in before and not name.startswith("scratch/"))
    return [f"the commands changed {changed} and wrote {outside} (only scratch/ is theirs)"] if changed or outside else []


@pytest.fixture(scope="module")
def after_readme(tmp_path_factory):
    """A fresh copy in which README.md's commands ran: (its folder, README's failures, its left-out
    commands).  README's commands run once for the whole run (make test's workers share the copy)."""
    def run_readme(folder: Path) -> None:
        copy = make_copy(folder / "asm6502")
        failures, missing = run_page(copy, "README.md")
        (folder / "readme.json").write_text(json.dumps([failures + only_scratch_written(copy, copy.before), missing]))

    folder = helpers.once_for_the_run(tmp_path_factory, "readme", run_readme)
    failures, missing = json.loads((folder / "readme.json").read_text())
    return folder / "asm6502", failures, missing


@pytest.fixture(scope="module")
def page_folder(tmp_path_factory):
    """Where each page's copy is made, one after the other: always the same path, so that the
    byte-code the first page's commands compiled (beside the copy) serves the later pages too."""
    return tmp_path_factory.mktemp("pages")


@pytest.mark.parametrize("page", PAGES)
def test_every_command_runs_as_written(page, after_readme, page_folder):
    readme_copy, failures, missing = after_readme
    if page != "README.md":
        shutil.rmtree(page_folder / "asm6502", ignore_errors=True)
        copy = make_copy(page_folder / "asm6502", source=readme_copy)
        failures, missing = run_page(copy, page)
        failures += only_scratch_written(copy, copy.before)
    assert not failures, "\n\n".join(failures)
    if missing:
        pytest.skip("not installed, so not run: " + ", ".join(missing))
