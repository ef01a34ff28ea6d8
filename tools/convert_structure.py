"""How many macros and '.goto' loops of the converter's test programs become the target's macros
and loops, and why the others are expanded / unrolled.

    .venv/bin/python tools/convert_structure.py [--gen-real PATH/gen_real.py]

Test sets as in tests/test_convert.py: the manual's examples, Superhirn II, the fixtures, the
probe programs run on the original (those without errors), the random programs it assembled,
the macro/loop programs of test_random_macros_and_loops, the two generators' programs and (with --gen-real, the
generator on branch bench-real) realistic programs.  Counts are per target: a macro is counted
once per program, a loop once per place it runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from asm6502.asm import Options, assemble  # noqa: E402
from asm6502.convert import convert  # noqa: E402
from asm6502.diagnostics import DiagnosticError  # noqa: E402
import testdata  # noqa: E402


def programs(gen_real: str | None):
    fixtures = ROOT / "tests" / "fixtures"
    if testdata.available("profiass-manual") is None:  # third-party: in the test-data folder only
        for name in testdata.names("profiass-manual", ".src"):
            path = testdata.path("profiass-manual", name)
            yield "manual", str(path), path.read_text(), Options()
    yield "superhirn", "superhirn", (ROOT / "sources" / "superhirn.asm").read_text(), Options()
    for name, options in (("features.asm", Options()), ("real_seed64.asm", Options()), ("undocumented.asm", Options(cpu="6502i"))):
        yield "fixtures", str(fixtures / "convert" / name), (fixtures / "convert" / name).read_text(), options  # (a path: .file)
    for path in sorted(fixtures.glob("profiass/*/*.src")):
        if path.parent.name not in ("manual", "random"):
            yield "probes", str(path), path.read_text(errors="replace"), Options()
    for line in (fixtures / "profiass" / "random" / "programs.jsonl").read_text().splitlines():
        case = json.loads(line)
        if case["no_errors"]:
            yield "oracle random", f"seed{case['seed']}", case["source"], Options()
    from profiass_gen import generate
    from test_convert import macro_loop_program
    from test_differential_64tass import ProgramGen

    for seed in range(300):
        yield "macro_loop", f"ml{seed}", macro_loop_program(seed), Options()

    for seed in range(60):
        yield "profiass_gen", f"gen{seed}", generate(seed), Options()
    for seed in range(40):
        yield "differential", f"diff{seed}", ProgramGen(seed).program()[0], Options()
    if gen_real:
        spec = importlib.util.spec_from_file_location("gen_real", gen_real)
        module = importlib.util.module_from_spec(spec)
        sys.modules["gen_real"] = module  # (its dataclasses look their module up)
        spec.loader.exec_module(module)
        for seed in range(8):
            yield "gen_real", f"real{seed}", module.render(module.generate(routines=300, seed=seed), "asm6502"), Options()


def _kind(why: str) -> str:
    """A reason without its particulars (names, line numbers)."""
    return re.sub(r"'[^']*'", "'...'", re.sub(r"line \d+", "line N", why.split(" (")[0]))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gen-real", metavar="PATH", help="bench/gen_real.py (git show bench-real:bench/gen_real.py)")
    args = parser.parse_args(argv)
    for target in ("64tass", "acme"):
        table: dict[str, Counter] = {}
        reasons: Counter = Counter()
        for group, name, text, options in programs(args.gen_real):
            try:
                assemble(text, name, Options(listing=False, cpu=options.cpu))
                shape = convert(text, name, target, options).structure
            except DiagnosticError:
                continue
            row = table.setdefault(group, Counter())
            row["programs"] += 1
            row["macros"] += len(shape.macros)
            row["expanded"] += len(shape.expanded)
            row["loops"] += shape.loops
            row["unrolled"] += len(shape.unrolled)
            reasons.update("macro expanded: " + _kind(why) for _, why in shape.expanded)
            reasons.update("loop unrolled: " + _kind(why) for why in shape.unrolled)
        print(f"{target}:  {'set':<14} {'programs':>8} {'macros':>7} {'expanded':>8} {'loops':>6} {'unrolled':>8}")
        for group, row in table.items():
            print(f"{'':9}{group:<14} {row['programs']:>8} {row['macros']:>7} {row['expanded']:>8} {row['loops']:>6} {row['unrolled']:>8}")
        for why, count in reasons.most_common():
            print(f"{'':9}{count:>4} x {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
