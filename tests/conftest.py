import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

# Property tests must not fail because the 2-core machine is busy: no per-example
# deadline.  In CI the examples are derived from the test names (derandomize), so a
# run is repeatable; locally hypothesis explores new examples each time.
settings.register_profile(
    "asm6502",
    deadline=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("asm6502")


@pytest.fixture(autouse=True)
def _no_rom_folder_of_this_machine(monkeypatch):
    """Commands under test find no C64 ROM images by themselves (ASM6502_ROMS, a VICE installation):
    a test of the stubbed runner must not turn into a run on the real ROMs because this machine has
    them. The tests of the whole C64 find the images when their module is imported
    (roms.find_roms) and name them with --roms or in the command's environment."""
    monkeypatch.setenv("ASM6502_ROMS", "none")
