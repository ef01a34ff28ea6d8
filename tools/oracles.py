"""Where the maintainer scripts find the two oracles, and one plain message when one is missing.

A script that needs an oracle calls ``require_profiass()`` or ``require_cbmbasic()`` first: without
the oracle it stops with exit status 2 and says what is missing and how to set it up, instead of
reporting "DIFFERS" or "0 of 301" as if the oracle had disagreed.

Each oracle is found through environment variables (there are no default places):

* Profi-Ass 64 V2.0 (the original assembler on an emulated C64): ``PROFIASS_ORACLE``, the folder
  of the runner ``profiass.py`` (or the file itself; unset: ``../shared/oracle/profiass`` beside
  the checkout, if there), and ``PROFIASS_HOME``, the folder of its binaries (``profi-ass.prg``
  and the BASIC and KERNAL ROM images; the runner's ``setup.sh`` puts them there).
* BASIC V2 ROM (mist64/cbmbasic, the ROM's code translated to C): ``CBMBASIC``, the binary, and
  ``CBMBASIC_ORACLE``, the folder of its scripts (``runprg.sh``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MISSING_STATUS = 2  # the oracle is not there: no verdict at all (1 is "differs")

# files the Profi-Ass runner needs in PROFIASS_HOME (its README.txt, "Rebuild from scratch")
PROFIASS_FILES = ("profi-ass.prg", "roms/basic.901226-01.bin", "roms/kernal.901227-03.bin")


def profiass_dir() -> Path:
    """The folder of the Profi-Ass runner (profiass.py)."""
    if os.environ.get("PROFIASS_ORACLE"):
        path = Path(os.environ["PROFIASS_ORACLE"])
        return path.parent if path.suffix == ".py" else path
    return ROOT.parent / "shared" / "oracle" / "profiass"


def _from_environment(name: str) -> Path:
    """The path an environment variable names; unset, a name that is no file (so 'missing' names the variable)."""
    return Path(os.environ.get(name) or f"${name}-is-not-set")


def profiass_home() -> Path:
    return _from_environment("PROFIASS_HOME")


def cbmbasic_binary() -> Path:
    return _from_environment("CBMBASIC")


def cbmbasic_dir() -> Path:
    return _from_environment("CBMBASIC_ORACLE")


def missing_profiass() -> list[str]:
    """What is missing of the Profi-Ass oracle (empty: it is set up)."""
    runner = profiass_dir() / "profiass.py"
    home = profiass_home()
    missing = [] if runner.is_file() else [f"the runner {runner} (PROFIASS_ORACLE)"]
    missing += [f"{home / name} (PROFIASS_HOME)" for name in PROFIASS_FILES if not (home / name).is_file()]
    return missing


def missing_cbmbasic() -> list[str]:
    binary = cbmbasic_binary()
    missing = [] if binary.is_file() and os.access(binary, os.X_OK) else [f"the binary {binary} (CBMBASIC)"]
    runprg = cbmbasic_dir() / "runprg.sh"
    return missing + ([] if runprg.is_file() else [f"the script {runprg} (CBMBASIC_ORACLE)"])


def _stop(script: str, oracle: str, missing: list[str], setup: str) -> None:
    print(f"{script}: the {oracle} oracle is not set up, so nothing was checked; missing:", file=sys.stderr)
    for item in missing:
        print(f"  {item}", file=sys.stderr)
    print(f"set it up as {setup} says", file=sys.stderr)
    raise SystemExit(MISSING_STATUS)


def require_profiass(script: str) -> Path:
    """The runner's folder; stops the script (exit 2) when the oracle is missing."""
    missing = missing_profiass()
    if missing:
        _stop(script, "Profi-Ass 64", missing, f"{profiass_dir() / 'README.txt'} ('Rebuild from scratch')")
    return profiass_dir()


def require_cbmbasic(script: str) -> Path:
    """The cbmbasic binary; stops the script (exit 2) when the oracle is missing."""
    missing = missing_cbmbasic()
    if missing:
        _stop(script, "BASIC ROM (cbmbasic)", missing, f"{cbmbasic_dir() / 'README.txt'}")
    return cbmbasic_binary()
