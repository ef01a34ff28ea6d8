import os
import signal
import sys
from functools import cache
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


@pytest.fixture(scope="session")
def real_reading(tmp_path_factory):
    """``reading(page)``: what the Checksummer reader reads on a page of real print (the
    basic_read collection), read once for the whole run -- several modules compare with it, and
    a page takes up to 1.5 s (it ranks fixes for every bad line)."""
    import helpers

    from asm6502.typein.cslisting.read import read_listings

    @cache
    def reading(page: str):
        text = helpers.real_text("basic_read", page)
        return helpers.once_for_the_run_value(tmp_path_factory, f"basic_read-{page}", lambda: read_listings(text, page))

    return reading

# The Ctrl-C tests send SIGINT to commands they start.  A process started with SIGINT ignored (a job
# started with '&' by a shell without job control, as a CI runner or a background loop starts it) passes
# the ignoring on to every child, and Python then leaves SIGINT ignored (as it should: nohup'd programs
# keep ignoring it) -- the command under test would never see the signal.  Handled here, the children
# start with SIGINT at its default, as from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def _no_rom_folder_of_this_machine(monkeypatch):
    """Commands under test find no C64 ROM images by themselves (ASM6502_ROMS, a VICE installation):
    a test of the stubbed runner must not turn into a run on the real ROMs because this machine has
    them. The tests of the whole C64 find the images when their module is imported
    (roms.find_roms) and name them with --roms or in the command's environment."""
    monkeypatch.setenv("ASM6502_ROMS", "none")
