import os
import sys
from pathlib import Path

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
