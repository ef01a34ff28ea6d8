"""``build.yaml``: every artifact in ``build/`` and the rule that makes it.

The manifest maps each output file to a rule and its inputs::

    artifacts:
      build/superhirn.prg:
        rule: assemble
        from: sources/superhirn.asm
      build/asm6502.d64:
        rule: d64
        disk: ASM6502,64
        files:
          - {name: SUPERHIRN II, from: build/superhirn.prg}

Paths are relative to the manifest's directory.  An input that is another
artifact's output is built first (in memory), so the order in the file does
not matter; a cycle is an error.  Everything is built in memory before a
single file is written, and the same inputs always give the same bytes.

The manifest is read with pyyaml's composer so every key and value keeps its
line and column: problems are reported as ``build.yaml:12:5: error: ...``.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from asm6502.diagnostics import Diagnostic, DiagnosticError, Span, error, note
from asm6502.fileio import Files, decode_utf8, inside, read_input
from asm6502.numparse import SPELLINGS, parse_int

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST = "build.yaml"
MAX_COMPARED = 1 << 20  # bytes of a file on disk read to compare it with a fresh build


# --- located YAML values -----------------------------------------------------


@dataclass(frozen=True)
class Value:
    """A YAML node with the place it was written."""

    node: yaml.Node
    span: Span

    @property
    def text(self) -> str:
        return self.node.value if isinstance(self.node, yaml.ScalarNode) else ""


YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # the line breaks YAML 1.1 counts (a form feed is none)


def yaml_lines(text: str) -> list[str]:
    """The manifest's lines as pyyaml numbers them in its marks."""
    return YAML_BREAK.split(text)


class _Source:
    """The manifest text, for spans with the offending line under them."""

    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.lines = yaml_lines(text)

    def span(self, mark, length: int = 1) -> Span:
        line = self.lines[mark.line] if 0 <= mark.line < len(self.lines) else None
        return Span(self.filename, mark.line + 1, mark.column + 1, max(1, length), line)

    def value(self, node: yaml.Node) -> Value:
        start, end = node.start_mark, node.end_mark
        length = end.column - start.column if end.line == start.line else 1
        return Value(node, self.span(start, length))


def _mapping(src: _Source, node: yaml.Node, what: str, diags: list[Diagnostic]) -> list[tuple[Value, Value]] | None:
    """A mapping's (key, value) pairs, keys as plain strings; None if not a mapping."""
    if not isinstance(node, yaml.MappingNode):
        diags.append(error(f"{what} must be a mapping (key: value lines)", src.value(node).span))
        return None
    pairs = []
    seen: dict[str, Value] = {}
    for key_node, value_node in node.value:
        key = src.value(key_node)
        if not isinstance(key_node, yaml.ScalarNode):
            diags.append(error(f"keys in {what} must be plain names", key.span))
            continue
        if key.text in seen:
            diags.append(error(f"'{key.text}' appears twice in {what}", key.span, note("first here", seen[key.text].span)))
            continue
        seen[key.text] = key
        pairs.append((key, src.value(value_node)))
    return pairs


def _unknown_key(key: Value, allowed: list[str], where: str) -> Diagnostic:
    close = difflib.get_close_matches(key.text, allowed, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return error(f"unknown key '{key.text}' in {where} (allowed: {', '.join(allowed)}){hint}", key.span)


def _scalar(value: Value, what: str, diags: list[Diagnostic]) -> str | None:
    if not isinstance(value.node, yaml.ScalarNode):
        diags.append(error(f"'{what}' must be a single value, not a list or mapping", value.span))
        return None
    if value.text == "" and value.node.tag.endswith(":null"):
        diags.append(error(f"'{what}' has no value", value.span))
        return None
    return value.text


def _number(value: Value, what: str, diags: list[Diagnostic], limit: int = 0xFFFF) -> int | None:
    """``0x360C``, ``$360C``, ``13836`` or ``%1010`` (numparse)."""
    text = _scalar(value, what, diags)
    if text is None:
        return None
    try:
        number = parse_int(text)  # the spellings every option takes
    except ValueError:
        diags.append(error(f"{what} must be a number like {SPELLINGS}, not '{text}'", value.span))
        return None
    if not 0 <= number <= limit:
        diags.append(error(f"{what} {text} is out of range (0 to ${limit:X})", value.span))
        return None
    return number


# --- artifacts and rules -----------------------------------------------------


@dataclass(frozen=True)
class Input:
    path: str  # normalised, relative to the manifest directory
    span: Span


@dataclass(frozen=True)
class Artifact:
    output: str  # normalised, relative to the manifest directory
    rule: str
    span: Span  # the output's key in the manifest
    inputs: tuple[Input, ...]
    options: tuple[tuple[str, object], ...] = ()  # rule options, already checked

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)


@dataclass(frozen=True)
class Product:
    """One built artifact: where it goes and its exact bytes."""

    artifact: Artifact
    path: Path
    data: bytes
    diagnostics: tuple[Diagnostic, ...] = field(default=())


class _Job:
    """State of one build: products so far and shared intermediate results."""

    def __init__(self, root: Path, files=None):
        self.root = root
        self.files = files if files is not None else Files()  # the gate: every input registered as it is read
        self.products: dict[str, bytes] = {}
        self.assembled: dict[str, object] = {}
        self.diagnostics: list[Diagnostic] = []

    def read(self, inp: Input) -> bytes:
        if inp.path in self.products:
            return self.products[inp.path]
        path = self.files.found(self.root / inp.path, "source")  # named by the manifest: found by lookup
        return self.files.read(path, what="source")

    def text(self, inp: Input) -> str:
        return decode_utf8(self.read(inp), inp.path)

    def assembly(self, inp: Input):
        """Assemble once per source, however many artifacts use it."""
        if inp.path not in self.assembled:
            from asm6502.asm import assemble

            result = assemble(self.text(inp), filename=inp.path, files=self.files)
            self.diagnostics.extend(result.diagnostics)
            self.assembled[inp.path] = result
        return self.assembled[inp.path]


def _run_assemble(job: _Job, a: Artifact) -> bytes:
    from asm6502 import output

    return output.prg_bytes(job.assembly(a.inputs[0]), a.option("fill", 0x00))


def _run_listing(job: _Job, a: Artifact) -> str:
    from asm6502 import output

    return output.listing_text(job.assembly(a.inputs[0]), Path(a.inputs[0].path).name)


def _run_labels(job: _Job, a: Artifact) -> str:
    from asm6502 import output

    return output.vice_labels(job.assembly(a.inputs[0]))


def _run_hex(job: _Job, a: Artifact) -> str:
    from asm6502 import output

    return output.intel_hex(job.assembly(a.inputs[0]))


def _prg_parts(job: _Job, a: Artifact) -> tuple[int, bytes]:
    prg = job.read(a.inputs[0])
    if len(prg) < 3:
        raise DiagnosticError([error(f"'{a.inputs[0].path}' is not a .prg (load address and at least one byte)", a.inputs[0].span)])
    return int.from_bytes(prg[:2], "little"), prg[2:]


def _run_mse(job: _Job, a: Artifact) -> str:
    from asm6502.typein import mselisting as mse

    load, data = _prg_parts(job, a)
    kwargs: dict[str, Any] = {k: v for k, v in a.options if k in ("name", "version", "end", "fill")}
    return mse.write_listing(load, data, **kwargs)


def _run_tokenize(job: _Job, a: Artifact) -> bytes:
    from asm6502.basic.tokenizer import tokenize

    result = tokenize(job.text(a.inputs[0]), filename=a.inputs[0].path)
    job.diagnostics.extend(result.diagnostics)
    return result.prg


def _run_checksummer(job: _Job, a: Artifact) -> str:
    from asm6502.basic.tokenizer import detokenize, tokenize
    from asm6502.typein.cslisting.checksum import ChecksumOptions, format_listing, line_checksum

    inp = a.inputs[0]
    if Path(inp.path).suffix.lower() in TEXT_SUFFIXES:
        tokenized = tokenize(job.text(inp), filename=inp.path)
        job.diagnostics.extend(tokenized.diagnostics)
        prg = tokenized.prg
    else:
        prg = job.read(inp)
    listing = detokenize(prg, filename=inp.path)
    job.diagnostics.extend(listing.diagnostics)
    options = ChecksumOptions(version=int(a.option("version", "3")))
    return format_listing((line.text, line_checksum(line.number, line.body, options)) for line in listing.lines)


def _run_d64(job: _Job, a: Artifact) -> bytes:
    from asm6502.d64 import DiskImage, FileType

    disk_name, disk_id = a.option("disk")
    image = DiskImage.format(disk_name, disk_id, origin=a.output)
    for (name, file_type), inp in zip(a.option("files"), a.inputs):
        image.add_file(name, job.read(inp), FileType[file_type])
    return image.to_bytes()


@dataclass(frozen=True)
class Rule:
    summary: str
    run: Callable[[_Job, Artifact], bytes | str]
    options: tuple[str, ...] = ()  # keys besides rule/from
    required: tuple[str, ...] = ()
    takes_from: bool = True  # one input named by 'from'


RULES: dict[str, Rule] = {
    "assemble": Rule("assemble a Profi-Ass source into a C64 .prg", _run_assemble, ("fill",)),
    "listing": Rule("the assembler listing of a source", _run_listing),
    "vice-labels": Rule("VICE monitor labels of a source (load with ll)", _run_labels),
    "intel-hex": Rule("Intel HEX of an assembled source", _run_hex),
    "mse": Rule("MSE type-in hex listing of a .prg", _run_mse, ("name", "version", "end", "fill"), ("name",)),
    "tokenize": Rule("tokenize a BASIC (or Profi-Ass) text into a C64 .prg", _run_tokenize),
    "checksummer": Rule("64'er Checksummer type-in listing of a BASIC .prg or text", _run_checksummer, ("version",)),
    "d64": Rule("a 1541 disk image holding files", _run_d64, ("disk", "files"), ("disk", "files"), takes_from=False),
}

_INT_OPTIONS = {"fill": 0xFF, "end": 0x10000}


def _mse_versions() -> tuple[str, ...]:
    from asm6502.typein.mselisting import VERSIONS  # (lazy: start-up, tests/test_imports.py)

    return VERSIONS


_CHOICES: dict[tuple[str, str], Callable[[], tuple[str, ...]]] = {
    ("checksummer", "version"): lambda: ("1", "2", "3"),  # Checksummer 64 V1, V2, V3
    ("mse", "version"): _mse_versions,  # asm6502.typein.mselisting.formats: MSE V1.0, V2.0 and V2.1
}
TEXT_SUFFIXES = (".bas", ".txt")  # read as listing text, anything else as a .prg
_FILE_KEYS = ("name", "from", "type")


def _norm(path: str) -> str:
    return os.path.normpath(path).replace(os.sep, "/")


def _parse_d64_options(src: _Source, opts: dict[str, Value], diags: list[Diagnostic]) -> tuple[list, list[Input]]:
    from asm6502.d64 import FileType, parse_disk_spec, petscii_name

    parsed: list = []
    inputs: list[Input] = []
    if "disk" in opts:
        text = _scalar(opts["disk"], "disk", diags)
        if text is not None:
            try:
                parsed.append(("disk", parse_disk_spec(text)))
            except ValueError as exc:
                diags.append(error(str(exc), opts["disk"].span))
    if "files" in opts:
        node = opts["files"].node
        if not isinstance(node, yaml.SequenceNode) or not node.value:
            diags.append(error("files must be a list of {name: ..., from: ...}", opts["files"].span))
            return parsed, inputs
        files = []
        names: dict[bytes, Value] = {}
        for item in node.value:
            pairs = _mapping(src, item, "a files entry", diags)
            if pairs is None:
                continue
            entry = {k.text: v for k, v in pairs}
            for k, _ in pairs:
                if k.text not in _FILE_KEYS:
                    diags.append(_unknown_key(k, list(_FILE_KEYS), "a files entry"))
            if "name" not in entry or "from" not in entry:
                diags.append(error("a files entry needs 'name' and 'from'", src.value(item).span))
                continue
            name_text = _scalar(entry["name"], "name", diags)
            from_text = _scalar(entry["from"], "from", diags)
            type_text = _scalar(entry["type"], "type", diags) if "type" in entry else "prg"
            if name_text is None or from_text is None or type_text is None:
                continue
            try:
                name = petscii_name(name_text)
            except ValueError as exc:
                diags.append(error(str(exc), entry["name"].span))
                continue
            if name in names:
                diags.append(error(f"two files named '{name_text}' on the disk", entry["name"].span, note("first here", names[name].span)))
                continue
            names[name] = entry["name"]
            if type_text.upper() not in ("PRG", "SEQ", "USR"):
                diags.append(error(f"type must be prg, seq or usr, not '{type_text}'", entry["type"].span))
                continue
            files.append((name, FileType[type_text.upper()].name))
            inputs.append(Input(_norm(from_text), entry["from"].span))
        parsed.append(("files", tuple(files)))
    return parsed, inputs


def _parse_artifact(src: _Source, key: Value, body: Value, diags: list[Diagnostic]) -> Artifact | None:
    where = f"'{key.text}'"
    pairs = _mapping(src, body.node, where, diags)
    if pairs is None:
        return None
    opts = {k.text: v for k, v in pairs}
    if "rule" not in opts:
        diags.append(error(f"{where} has no 'rule' (one of: {', '.join(RULES)})", key.span))
        return None
    rule_name = _scalar(opts["rule"], "rule", diags)
    if rule_name is None:
        return None
    rule = RULES.get(rule_name)
    if rule is None:
        close = difflib.get_close_matches(rule_name, list(RULES), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        diags.append(error(f"unknown rule '{rule_name}' (rules: {', '.join(RULES)}){hint}", opts["rule"].span))
        return None
    allowed = ["rule"] + (["from"] if rule.takes_from else []) + list(rule.options)
    for k, _ in pairs:
        if k.text not in allowed:
            diags.append(_unknown_key(k, allowed, f"{where} (rule {rule_name})"))
    for needed in (("from",) if rule.takes_from else ()) + rule.required:
        if needed not in opts:
            diags.append(error(f"{where} (rule {rule_name}) needs '{needed}'", key.span))
    inputs: list[Input] = []
    options: list[tuple[str, object]] = []
    if rule.takes_from and "from" in opts:
        text = _scalar(opts["from"], "from", diags)
        if text is not None:
            inputs.append(Input(_norm(text), opts["from"].span))
    if rule_name == "d64":
        parsed, file_inputs = _parse_d64_options(src, opts, diags)
        options += parsed
        inputs += file_inputs
    else:
        for name in rule.options:
            if name not in opts:
                continue
            if name in _INT_OPTIONS:
                options.append((name, _number(opts[name], name, diags, _INT_OPTIONS[name])))
            else:
                text = _scalar(opts[name], name, diags)
                choices = _CHOICES[(rule_name, name)]() if (rule_name, name) in _CHOICES else None
                if text is not None and choices and text not in choices:
                    diags.append(error(f"{name} must be one of {', '.join(choices)}, not '{text}'", opts[name].span))
                options.append((name, text))
    # with errors the artifact still joins the graph, so its inputs get checked too
    return Artifact(_norm(key.text), rule_name, key.span, tuple(inputs), tuple(options))


def load_manifest(path: str | os.PathLike, files=None) -> list[Artifact]:
    """Read and check a manifest; raise DiagnosticError with every problem found."""
    filename = os.fspath(path)
    text = (files if files is not None else Files()).text(path, what="manifest")
    src = _Source(text, filename)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise DiagnosticError([error("not valid YAML: nested too deeply", Span(filename, 1))]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = f"not valid YAML: {exc.problem or exc.context}"
        raise DiagnosticError([error(message, src.span(mark) if mark else Span(filename, 1))]) from None
    except yaml.reader.ReaderError as exc:  # a control character or bad encoding: no Mark, only an offset
        before = yaml_lines(text[: exc.position])
        line, col = len(before), len(before[-1]) + 1
        lines = yaml_lines(text)
        source = lines[line - 1] if lines[line - 1 : line] else ""
        message = f"not valid YAML: character {exc.character!r} is not allowed" if isinstance(exc.character, str) else f"not valid YAML: character #x{exc.character:04x} is not allowed"
        raise DiagnosticError([error(message, Span(filename, line, col, 1, source))]) from None
    except yaml.YAMLError as exc:
        raise DiagnosticError([error(f"not valid YAML: {exc}", Span(filename, 1))]) from None
    diags: list[Diagnostic] = []
    if root is None:
        raise DiagnosticError([error("the manifest is empty; it needs an 'artifacts:' mapping", Span(filename, 1))])
    top = _mapping(src, root, "the manifest", diags) or []
    artifacts_value = None
    for key, value in top:
        if key.text == "artifacts":
            artifacts_value = value
        else:
            diags.append(_unknown_key(key, ["artifacts"], "the manifest"))
    if artifacts_value is None:
        if not diags:
            diags.append(error("the manifest has no 'artifacts:' mapping", Span(filename, 1, 1, 1, src.lines[0] if src.lines else None)))
        raise DiagnosticError(diags)
    artifacts: list[Artifact] = []
    first: dict[str, Artifact] = {}
    for key, body in _mapping(src, artifacts_value.node, "artifacts", diags) or []:
        artifact = _parse_artifact(src, key, body, diags)
        if artifact is None:
            continue
        twin = first.setdefault(artifact.output, artifact)  # ('a.prg' and './a.prg' are one file)
        if twin is not artifact:
            diags.append(error(f"two rules write one file: '{key.text}' is '{twin.output}', which line "
                               f"{twin.span.line} already makes; give each artifact its own name", key.span))
            continue
        artifacts.append(artifact)
    root_dir = Path(filename).parent
    _check_graph(artifacts, root_dir, diags)
    if any(d.is_error for d in diags):
        raise DiagnosticError(diags)
    return artifacts


def _check_graph(artifacts: list[Artifact], root_dir: Path, diags: list[Diagnostic]) -> None:
    """Outputs outside the manifest's folder, missing sources and dependency cycles."""
    by_output = {a.output: a for a in artifacts}
    for a in artifacts:
        if os.path.isabs(a.output) or a.output == ".." or a.output.startswith("../"):
            diags.append(error(f"output '{a.output}' is outside the manifest's folder; "
                               "artifacts are written only inside it (use a relative path like build/x.prg)", a.span))
        elif a.output == ".":
            diags.append(error("an output must name a file, not the manifest's folder", a.span))
    for a in artifacts:
        for inp in a.inputs:
            if inp.path not in by_output and not (root_dir / inp.path).is_file():
                diags.append(error(f"missing source '{inp.path}': no such file, and no artifact in the manifest makes it", inp.span))
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[tuple[Artifact, Input | None]] = []

    def visit(a: Artifact) -> None:
        state[a.output] = 1
        for inp in a.inputs:
            dep = by_output.get(inp.path)
            if dep is None:
                continue
            path.append((a, inp))
            if state.get(dep.output) == 1:
                start = next(i for i, (x, _) in enumerate(path) if x.output == dep.output)
                ring = [x.output for x, _ in path[start:]] + [dep.output]
                diags.append(error(f"dependency cycle: {' -> '.join(ring)}", path[start][1].span))
            elif dep.output not in state:
                visit(dep)
            path.pop()
        state[a.output] = 2

    for a in artifacts:
        if a.output not in state:
            visit(a)


def _order(artifacts: list[Artifact]) -> list[Artifact]:
    """Dependencies first, otherwise manifest order (the graph has no cycles)."""
    by_output = {a.output: a for a in artifacts}
    done: set[str] = set()
    out: list[Artifact] = []

    def visit(a: Artifact) -> None:
        if a.output in done:
            return
        done.add(a.output)
        for inp in a.inputs:
            if inp.path in by_output:
                visit(by_output[inp.path])
        out.append(a)

    for a in artifacts:
        visit(a)
    return out


def build(manifest: str | os.PathLike = MANIFEST, files=None) -> list[Product]:
    """Build every artifact in memory (dependencies first); nothing is written.
    *files*: the command's gate (``fileio.Files``); ``write`` then takes the same one."""
    artifacts = load_manifest(manifest, files)
    root = Path(manifest).parent
    job = _Job(root, files)
    products: list[Product] = []
    for a in _order(artifacts):
        rule = RULES[a.rule]
        job.diagnostics = []
        try:
            made = rule.run(job, a)
        except DiagnosticError as exc:
            # a rule's complaint about an option (e.g. an MSE end address before the data's end)
            # has no place of its own: point it at the artifact's entry in the manifest
            located = [d if d.span is not None else d.replace(span=a.span) for d in exc.diagnostics]
            raise DiagnosticError(located + [note(f"while building '{a.output}' (rule {a.rule})", a.span)],
                                  exc.more_errors, exc.more_warnings) from None  # (those the assembly only counted)
        except ModuleNotFoundError as exc:
            raise DiagnosticError([error(f"rule '{a.rule}' needs {exc.name}, which this installation does not have", a.span)]) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise DiagnosticError([error(f"rule '{a.rule}' could not read its input: {exc}", a.span)]) from None
        data = made.encode("utf-8") if isinstance(made, str) else bytes(made)
        job.products[a.output] = data
        products.append(Product(a, root / a.output, data, tuple(job.diagnostics)))
    order = {a.output: i for i, a in enumerate(artifacts)}
    return sorted(products, key=lambda p: order[p.artifact.output])


def write(products: list[Product], manifest: str | os.PathLike = MANIFEST, files=None) -> list[tuple[Product, bool]]:
    """Write products whose file differs, all together (fileio.OutputPlan); return (product, changed) pairs.

    No output may be the manifest or a source the build reads (nor a link to one);
    missing directories inside the manifest's folder are created.
    """
    plan = files if files is not None else Files()
    plan.add_input(manifest, "manifest")
    made = {p.artifact.output for p in products}
    for p in products:
        for inp in p.artifact.inputs:
            if inp.path not in made:
                plan.add_input(Path(manifest).parent / inp.path, "source")
    root = Path(manifest).parent
    for p in products:
        probe = p.path if os.path.lexists(p.path) else _existing(p.path.parent)
        if probe is not None and not inside(root, probe):
            raise DiagnosticError([error(f"output '{p.artifact.output}' leads out of the manifest's folder through a "
                                         "symbolic link; artifacts are written only inside it", p.artifact.span)])
        plan.add(p.path, p.data, "artifact", span=p.artifact.span, keep_same=True, make_parent=True)
    written = dict(plan.commit())
    return [(p, written[os.fspath(p.path)]) for p in products]


def _existing(path: Path) -> Path | None:
    """The nearest folder of *path* that exists (an artifact's folder may be made by the build)."""
    for folder in (path, *path.parents):
        if folder.exists():
            return folder
    return None


def differences(products: list[Product], max_lines: int = 12) -> list[str]:
    """How files on disk differ from a fresh build: one summary per file
    (a short unified diff for text, sizes and first differing offset for binaries)."""
    report = []
    for p in products:
        name = p.artifact.output
        if not p.path.is_file():
            report.append(f"{name}: missing (the build makes {len(p.data)} bytes)")
            continue

        old = read_input(p.path, max(len(p.data), MAX_COMPARED), "artifact")
        if old == p.data:
            continue
        try:
            old_text, new_text = old.decode("utf-8"), p.data.decode("utf-8")
        except UnicodeDecodeError:
            old_text = new_text = None
        if old_text is not None and new_text is not None and "\0" not in old_text + new_text:
            diff = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(), f"{name} (on disk)", f"{name} (built)", lineterm="", n=1))
            changed = sum(1 for line in diff[2:] if line[:1] in "+-")
            shown = diff[:max_lines] + ([f"... ({len(diff) - max_lines} more diff lines)"] if len(diff) > max_lines else [])
            report.append(f"{name}: differs ({changed} changed lines)\n" + "\n".join("    " + line for line in shown))
        else:
            first = next((i for i, (x, y) in enumerate(zip(old, p.data)) if x != y), min(len(old), len(p.data)))
            count = sum(1 for x, y in zip(old, p.data) if x != y) + abs(len(old) - len(p.data))
            report.append(
                f"{name}: differs (on disk {len(old)} bytes, built {len(p.data)} bytes; "
                f"{count} bytes differ, the first at offset ${first:X})"
            )
    return report


def undeclared(products: list[Product], manifest: str | os.PathLike = MANIFEST) -> list[Path]:
    """Files in the output directories that no artifact makes (stale leftovers).

    A folder that holds the manifest or a source is no output folder (a one-folder project keeps
    everything together): only folders that hold nothing but artifacts are looked at."""
    made = {p.path.resolve() for p in products}
    sources = {Path(manifest).resolve().parent} | {
        (Path(manifest).parent / inp.path).resolve().parent
        for p in products for inp in p.artifact.inputs if inp.path not in {q.artifact.output for q in products}}
    folders = {p.path.parent for p in products if p.path.parent.resolve() not in sources}
    return sorted(
        f for d in folders if d.is_dir() for f in d.iterdir()
        if f.is_file() and not f.name.startswith(".") and f.resolve() not in made
    )
