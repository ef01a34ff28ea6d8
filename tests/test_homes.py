"""Each fact about the C64 and Profi-Ass has one home in the package; a second table of the same facts
fails here.

HOMES lists the homes.  Each check reads every module of the package (its syntax tree, not its
text) and fails on a literal table of that fact outside its home: a dict or a list of rows that
pairs KERNAL entry addresses with names, PETSCII codes with characters or control-code names,
screen codes with Unicode glyphs, a list of BASIC keywords or of Profi-Ass pseudo-ops, a second
``gc.disable`` or ``.prg`` test.  A new module that needs such a fact imports it from the home.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from asm6502 import c64map, petscii
from asm6502.asm.pseudo import PSEUDO_OPS
from asm6502.basic.tokens import KEYWORDS
from asm6502.opcodes import OPCODES
from asm6502.opcodes_undoc import UNDOCUMENTED

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "asm6502"

# fact -> the module that holds it (paths relative to the package)
HOMES = {
    "the instruction set: opcode bytes by mnemonic and mode, sizes, cycles (asm6502.cpu: the CPU variants)": "opcodes.py",
    "KERNAL entry points, I/O registers, system variables": "c64map.py",
    "PETSCII <-> text, petcat names, screen codes, keys, file names": "petscii.py",
    "BASIC V2 keywords": "basic/tokens.py",
    "what kind a file is (sniff, the .prg test, the text test)": "filetype.py",
    "pausing the cyclic garbage collector": "asm/pipeline.py",
    "Profi-Ass's pseudo-ops and what each stage does with each": "asm/pseudo.py",
}

KERNAL_ENTRIES = frozenset(row.address for row in c64map.KERNAL)
MAPPED = frozenset(row.address for row in c64map.ALL + c64map.VARIABLES)
# codes whose meaning the screen editor defines (cursor, colour, reverse, case): a table keyed by
# several of them is a table of PETSCII control codes
CONTROL_CODES = frozenset(petscii.COLOR_CODES) | {
    petscii.CLR, petscii.HOME, petscii.RVS_ON, petscii.RVS_OFF, petscii.CRSR_DOWN, petscii.CRSR_UP,
    petscii.CRSR_LEFT, petscii.CRSR_RIGHT, petscii.DEL, petscii.INST, petscii.LOWER_CASE, petscii.UPPER_CASE,
}
PETSCII_GLYPHS = frozenset("£↑←π")
# characters only a screen-code table holds: box drawing, blocks, card suits, legacy computing
# (not the blocks U+2580-U+25FF alone: OCR reads a printed character as one of those)
_GRAPHIC = re.compile("[\u2500-\u257f\u2660-\u2667\U0001fb00-\U0001fbff]")
MNEMONICS = frozenset(OPCODES) | frozenset(UNDOCUMENTED)
BASIC_WORDS = frozenset(kw.lower() for kw in KEYWORDS if kw.isalpha() and len(kw) > 2)
# a pseudo-op's name alone counts where it is no BASIC keyword ('end', 'if', 'asc', 'sys' are both)
PSEUDO_NAMES = frozenset(PSEUDO_OPS) - frozenset(kw.lower() for kw in KEYWORDS)


@cache
def _modules(package: Path = PACKAGE) -> dict[str, ast.Module]:
    return {path.relative_to(package).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(package.rglob("*.py"))}


def _constant(node):
    return node.value if isinstance(node, ast.Constant) else None


def _pairs(nodes: list[ast.AST]):
    """(line, key, value) of every literal table: a dict's items, and a list/tuple of rows' first two cells."""
    for node in nodes:
        if isinstance(node, ast.Dict):
            rows = [(k, v) for k, v in zip(node.keys, node.values, strict=True) if k is not None]
            yield node.lineno, [(_constant(k), _constant(v)) for k, v in rows]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
                isinstance(e, ast.Tuple) and len(e.elts) == 2 for e in node.elts):
            yield node.lineno, [(_constant(e.elts[0]), _constant(e.elts[1])) for e in node.elts]  # type: ignore[attr-defined]


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def kernal_tables(nodes: list[ast.AST]) -> list[int]:
    """Lines of tables pairing two or more KERNAL entries or mapped addresses with names, and of
    constants named as the map names an address, holding that address (``CHROUT = 0xFFD2``)."""
    found = [node.lineno for node in nodes if isinstance(node, ast.Assign) and len(node.targets) == 1
             and isinstance(node.targets[0], ast.Name) and _is_int(_constant(node.value))
             and c64map.ADDRESS.get(node.targets[0].id.lower()) == _constant(node.value)]
    for line, pairs in _pairs(nodes):
        named = [k for k, v in pairs if _is_int(k) and isinstance(v, str) and k in MAPPED]
        if len([k for k, _ in pairs if _is_int(k) and k in CONTROL_CODES]) >= 3:
            continue  # keyed by PETSCII control codes: a PETSCII table (whose codes $90, $99 ... are addresses too)
        if len([k for k in named if k in KERNAL_ENTRIES]) >= 2 or len(named) >= 4:
            found.append(line)
    return found


def _mnemonic(node) -> bool:
    """A mnemonic, or a row that starts with one (``("LDA", ...)``)."""
    if isinstance(node, ast.Tuple) and node.elts:
        node = node.elts[0]
    value = _constant(node)
    return isinstance(value, str) and value.upper() in MNEMONICS


def opcode_tables(nodes: list[ast.AST]) -> list[int]:
    """Lines of instruction-set tables: addressing modes with opcode bytes or sizes (``{M.IMMEDIATE: 0xA9}``),
    mnemonics with such tables, opcode bytes with mnemonics (``{0xA9: ("LDA", ...)}``)."""
    found = []
    for node in nodes:
        if not isinstance(node, ast.Dict):
            continue
        rows = [(k, v) for k, v in zip(node.keys, node.values, strict=True) if k is not None]
        modes = [k for k, v in rows if isinstance(k, ast.Attribute) and isinstance(k.value, ast.Name)
                 and k.value.id in ("M", "Mode") and _is_int(_constant(v))]
        by_mnemonic = [k for k, v in rows if _mnemonic(k) and isinstance(v, ast.Dict)]
        by_byte = [k for k, v in rows if _is_int(_constant(k)) and 0 <= _constant(k) <= 0xFF and _mnemonic(v)]
        if len(modes) >= 2 or len(by_mnemonic) >= 3 or len(by_byte) >= 3:
            found.append(node.lineno)
    return found


def petscii_tables(nodes: list[ast.AST]) -> list[int]:
    """Lines of tables of PETSCII facts: control codes with names or values, glyphs with codes,
    and string constants of screen-code glyphs."""
    found = []
    for line, pairs in _pairs(nodes):
        controls = [k for k, _ in pairs if _is_int(k) and k in CONTROL_CODES]
        glyphs = [k for k, v in pairs if (k in PETSCII_GLYPHS and _is_int(v)) or (_is_int(k) and v in PETSCII_GLYPHS)]
        if len(controls) >= 3 or len(glyphs) >= 2:
            found.append(line)
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(_GRAPHIC.findall(node.value)) >= 3:
            found.append(node.lineno)
    return found


def keyword_lists(nodes: list[ast.AST]) -> list[int]:
    """Lines of literal collections of five or more BASIC keywords."""
    found = []
    for node in nodes:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            words = {str(_constant(e)).lower() for e in node.elts if isinstance(_constant(e), str)}
            if len(words & BASIC_WORDS) >= 5:
                found.append(node.lineno)
    return found


def pseudo_op_lists(nodes: list[ast.AST]) -> list[int]:
    """Lines of literal collections naming four or more Profi-Ass pseudo-ops ('.byt', or 'byt' where that is no
    BASIC keyword): a tuple, list, set, a dict's keys, or a call's arguments (rows made by calls: ``PseudoOp("byt", ...)``)."""
    found = []
    for node in nodes:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.Call):
            items = [a.args[0] if isinstance(a, ast.Call) and a.args else a for a in node.args]
        else:
            continue
        names = set()
        for item in items:
            value = _constant(item)
            if isinstance(value, str):
                if value in PSEUDO_NAMES:
                    names.add(value)
                elif value[:1] == "." and value[1:] in PSEUDO_OPS:
                    names.add(value[1:])
        if len(names) >= 4:
            found.append(node.lineno)
    return found


def gc_switches(nodes: list[ast.AST]) -> list[int]:
    """Lines calling ``gc.disable()``."""
    return [node.lineno for node in nodes if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "disable"
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "gc"]


def prg_tests(nodes: list[ast.AST]) -> list[int]:
    """Lines of a test that tells a C64 program from a text by its name and its load address $0801,
    or of a function of its own deciding whether bytes are text."""
    found = []
    for node in nodes:
        if isinstance(node, ast.BoolOp):
            constants = {_constant(n) for n in ast.walk(node)}
            if ".prg" in constants and b"\x01\x08" in constants:
                found.append(node.lineno)
        elif isinstance(node, ast.FunctionDef) and "textual" in node.name:
            found.append(node.lineno)
    return found


CHECKS = {
    "opcodes.py": opcode_tables,
    "c64map.py": kernal_tables,
    "petscii.py": petscii_tables,
    "basic/tokens.py": keyword_lists,
    "asm/pipeline.py": gc_switches,
    "filetype.py": prg_tests,
    "asm/pseudo.py": pseudo_op_lists,
}


# (home, module) -> why the module may hold its own list of the home's facts
CHOICES = {
    ("opcodes.py", "opcodes_undoc.py"): "the undocumented NMOS opcodes: the instruction set's other half, beside the documented one",
    ("basic/tokens.py", "typein/cslisting/damage.py"): "KEYWORDS_TO_SPLIT: the keywords synthetic OCR damage splits, a choice among them",
    ("petscii.py", "emu/c64/implied.py"): "IMPLIED: opcode -> instruction; opcodes such as $90 (BCC) and $9A (TXS) are "
                                           "control codes' values too, no PETSCII facts",
    ("petscii.py", "emu/c64/flat.py"): "the flat instructions: opcode -> instruction; opcodes such as $91 (STA (zp),Y) "
                                       "and $9D (STA abs,X) are control codes' values too, no PETSCII facts",
}


def second_homes(modules: dict[str, ast.Module]) -> dict[str, list[str]]:
    """home -> 'module:line' of every table of its facts outside it."""
    nodes = {name: list(ast.walk(tree)) for name, tree in modules.items()}
    return {home: [f"{name}:{line}" for name in modules
                   if name != home and (home, name) not in CHOICES for line in check(nodes[name])]
            for home, check in CHECKS.items()}


@cache
def _second_homes() -> dict[str, list[str]]:
    return second_homes(_modules())


def test_every_home_is_listed_and_exists():
    assert sorted(HOMES.values()) == sorted(CHECKS)
    for home in HOMES.values():
        assert (PACKAGE / home).is_file(), home


@pytest.mark.parametrize("home", sorted(CHECKS))
def test_no_second_table_of_a_home_s_facts(home):
    assert _second_homes()[home] == [], f"a second table of the facts of {home}: import them from it"


@pytest.mark.parametrize("home", sorted(CHECKS))
def test_each_home_holds_its_facts(home):
    """(The checks find the tables where they live: a check that finds nothing anywhere proves nothing.)"""
    tree = ast.parse((PACKAGE / home).read_text(encoding="utf-8"))
    assert CHECKS[home](list(ast.walk(tree))), f"the check for {home} finds no table in {home} itself"


@pytest.mark.parametrize(("home", "text"), [
    ("opcodes.py", "LDA = {M.IMMEDIATE: 0xA9, M.ZERO_PAGE: 0xA5}"),
    ("opcodes.py", "TABLE = {0xA9: ('LDA', 'imm'), 0xA5: ('LDA', 'zp'), 0xEA: ('NOP', 'imp')}"),
    ("opcodes.py", "SIZES = {Mode.IMPLIED: 1, Mode.ABSOLUTE: 3}"),
    ("c64map.py", "NAMES = {0xFFD2: 'CHROUT', 0xFFE4: 'GETIN'}"),
    ("c64map.py", "ROWS = ((0xFFCF, 'chrin'), (0xFFD2, 'chrout'))"),
    ("c64map.py", "CHROUT = 0xFFD2"),
    ("petscii.py", "NAMES = {0x93: 'clr', 0x12: 'rvon', 0x92: 'rvof'}"),
    ("petscii.py", "KEYS = {'£': 0x5C, '↑': 0x5E}"),
    ("petscii.py", "GLYPHS = '\u2500\u2660\u2502\u2500'"),
    ("basic/tokens.py", "WORDS = frozenset(['print', 'goto', 'gosub', 'poke', 'data'])"),
    ("asm/pipeline.py", "import gc\ngc.disable()"),
    ("filetype.py", "x = name.endswith('.prg') or data[:2] == b'\\x01\\x08'"),
    ("filetype.py", "def _looks_textual(data): return True"),
    ("asm/pseudo.py", "LISTED = ('.byt', '.wor', '.asc', '.flp')"),
    ("asm/pseudo.py", "PASS1 = {'opt': 1, 'mac': 2, 'men': 3, 'got': 4}"),
    ("asm/pseudo.py", "OPS = table(Op('byt', 1), Op('wor', 2), Op('tit', 3), Op('pag', 4))"),
])
def test_a_second_table_is_found(home, text):
    assert CHECKS[home](list(ast.walk(ast.parse(text)))), text


# --- comments: what is true now, no history, no machine paths -----------------------------------
ISSUE = re.compile(r"\bissues? #?\d+", re.IGNORECASE)
MACHINE_PATH = re.compile(r"(?<![\w.])/(?:work|tmp)/")


def _files(*tops: str):
    for top in tops:
        path = ROOT / top
        yield from ([path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in (".py", ".md", ".txt")))


def test_no_issue_numbers_in_the_package_the_tests_and_the_user_pages():
    """A comment, a test's name and the pages users read (README.md, docs/) say what is true now; the issue
    that asked for it is in git's history, development figures in bench/README.md."""
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in _files("asm6502", "tests", "README.md", "docs", "examples")
            if p.name != "test_homes.py"
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1) if ISSUE.search(line)]
    assert hits == [], "history belongs in git, not in the code"


def test_no_machine_paths():
    """Tools find their oracles through environment variables (tools/oracles.py), never a path of one machine."""
    hits = [f"{p.relative_to(ROOT)}:{n}" for p in _files("asm6502", "docs", "README.md", "ARCHITECTURE.md", "tools", "tests", "bench")
            if p.name != "test_homes.py"
            for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1) if MACHINE_PATH.search(line)]
    assert hits == []


@pytest.mark.parametrize(("text", "hit"), [
    ("see issue 24b", True), ("(Issue 13)", True), ("issue #3", True), ("later issues print <63>", False),
])
def test_issue_pattern(text, hit):
    assert bool(ISSUE.search(text)) is hit


@pytest.mark.parametrize(("text", "hit"), [
    ("/work/shared/oracle", True), ("default /tmp/profiass", True), ("`/tmp/x`", True),
    ("tests/tmp/x", False), ("$PROFIASS_HOME", False),
])
def test_machine_path_pattern(text, hit):
    assert bool(MACHINE_PATH.search(text)) is hit
