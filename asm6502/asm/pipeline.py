"""The passes in order, and the public entry points: :func:`assemble`, :func:`assemble_file`,
:func:`assemble_program`.

Reading (reader.py) -> pass 1, which runs and lays out the program and hands on its
``Program`` (layout.py, program.py) -> pass 2, which encodes the Program's entries (encode.py)
-> the checks that need both passes -> ``Result``.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator
from itertools import count

from asm6502.asm import expr as ex
from asm6502.asm.encode import Encoder
from asm6502.asm.entries import FORWARD, MacroCall
from asm6502.asm.files import SourceFiles, line_problems, source_text
from asm6502.asm.layout import Layout
from asm6502.asm.precedence import usual_value, whole_extent, written
from asm6502.asm.program import Program
from asm6502.asm.reader import read_source
from asm6502.asm.result import Options, Result
from asm6502.asm.rows import as_span
from asm6502.asm.statements import Data, Define, Insn, Origin
from asm6502.asm.symfile import write_symbols
from asm6502.asm.typed import as_typed
from asm6502.cpu import CPUS
from asm6502.diagnostics import Diagnostic, DiagnosticError, Kept, Span, error, note, warning
from asm6502.fileio import Files
from asm6502.patterns import LazyPattern


class PausedGc:
    """The one place the cyclic garbage collector is switched off: an assembly allocates many small,
    acyclic objects (lines, records, rows, output text) that CPython's collector would scan again and
    again, and a collection after it would traverse them all once more.  Paused for the ``with`` block
    and restored after it; with *to_the_end* (a process that ends after the block) it stays off."""

    def __init__(self, to_the_end: bool = False):
        self.to_the_end = to_the_end
        self.collecting = False

    def __enter__(self) -> PausedGc:
        self.collecting = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc) -> None:
        if self.collecting and not self.to_the_end:
            gc.enable()


def assemble(text: str | Iterable[str], filename: str = "<input>", options: Options = Options(), files=None) -> Result:
    """Assemble Profi-Ass source text.  Raises DiagnosticError when there are errors.

    *text*: the source's text, or its pieces, each ending where a line ends (the command reads the file
    so, a piece at a time: its text is never whole in memory).  It is let go once read into lines.
    *files*: the command's gate (``fileio.Files``) that every file the source names is read
    through; a fresh one when not given."""
    held = [text]  # (handed on in a list that gives it up: this frame keeps no reference to the text through the passes)
    del text
    return _assembled(held, filename, options, files, False)[1]


def assemble_program(text: str | Iterable[str], filename: str, options: Options = Options(), files=None) -> tuple[Program, Result]:
    """As :func:`assemble`, with pass 1's :class:`~asm6502.asm.program.Program` (its decoder's tables kept:
    what ``convert`` reads)."""
    held = [text]
    del text
    return _assembled(held, filename, options, files, True)


def _assembled(held: list, filename: str, options: Options, files, keep: bool) -> tuple[Program, Result]:
    if options.cpu not in CPUS:
        raise DiagnosticError([error(f"unknown CPU '{options.cpu}' (use {' or '.join(CPUS)})")])
    if options.case not in ("lower", "upper"):
        raise DiagnosticError([error(f"unknown case '{options.case}' (use lower or upper)")])
    with PausedGc():
        kept = Kept()  # the run's room for diagnostics: beyond it they are only counted (diagnostics.Kept)
        source, diags = _read(held.pop(), filename, options, kept)
        # (nothing after the reading needs the text: a caller that handed it over has it freed before pass 1;
        # otherwise it would be kept through both passes, at the command's peak memory)
        return _assemble(source, diags, filename, options, files, kept, keep)


def _read(text: str | Iterable[str], filename: str, options: Options, kept: Kept):
    """The main source's lines, and the diagnostics of its reading: all that is taken from its text."""
    seen = _Seen()
    source = read_source(filename, _typed_pieces((text,) if isinstance(text, str) else text, options.case, seen), kept)
    return source, line_problems(source.problems) + kept.admit(_capitals(source, seen))


class _Seen:
    """What the text showed as it was read: a lower-case letter, the first capitals in quotes (``_capitals``)."""

    lower = False
    quoted: str | None = None

    def see(self, text: str) -> None:
        if self.lower:
            return
        if _LOWER.search(text) is not None:
            self.lower = True
        elif self.quoted is None:
            m = _CAPITALS_IN_QUOTES.search(text)
            self.quoted = m.group() if m is not None else None


def _typed_pieces(pieces: Iterable[str], case: str, seen: _Seen) -> Iterator[str]:
    """The pieces as the C64 stored their lines (each piece ends where a line ends)."""
    for text in pieces:
        if case == "upper":  # typed from capitals: every letter is the unshifted one
            text = text.lower()
        text = as_typed(text)  # the lines as the C64 stored them: shifted keys outside quotes dropped (typed.py)
        seen.see(text)
        yield text


def _assemble(source, diags: list[Diagnostic], filename: str, options: Options, gate, kept: Kept, keep: bool) -> tuple[Program, Result]:
    files = SourceFiles(options, diags, gate, kept)
    files.start(filename)
    program = Layout(options, files.read, source.opens, kept).run(source.lines, source.start_index)
    if options.listing and not keep:  # (pass 2 then keeps every entry's bytes: they take the memory of the decoder's tables of
        # texts, which only pass 1 reads -- a lower peak; without a listing the peak is pass 1's own, and freeing
        # them early would only cost time)
        program.decoder.forget()
    encoder = Encoder(program)
    encoder.run()
    if program.symbol_memory is not None:
        encoder.diags += kept.admit(_symbol_overflow(program))
    if program.object_buffer and not encoder.fatal:
        encoder.diags += kept.admit(_buffer_overflow(program, source.lines))
    if options.precedence and program.decoder.mixed:
        encoder.diags += _precedence_warnings(program, kept)
    all_diags = list(dict.fromkeys(diags + program.diagnostics + encoder.diags + kept.admit(_spelling_warnings(program)) + _advice(program, kept)))
    segments, overlaps = _segments(encoder.chunks)
    all_diags += kept.admit(overlaps)
    if any(d.is_error for d in all_diags) or kept.errors:
        raise DiagnosticError(all_diags, kept.errors, kept.warnings)
    if not segments:
        first = source.lines[0].line_text if source.lines else ""
        where = Span(filename, 1, 1, 1, first, None)
        if not (options.empty_ok or program.sst):  # ('.sst' tables are output enough: the original writes them)
            raise DiagnosticError(all_diags + [error("the program produces no bytes", where)], 0, kept.warnings)
        all_diags.append(warning("the program produces no bytes: no object file is written", where))
    program.forget_places()  # (no message names a place after this)
    spelled = program.spelling
    sst_files = {name: write_symbols([(spelled.get(k, k), v) for k, v in table.items()]) for name, table in program.sst}
    return program, Result(
        tuple(segments), (program.values, spelled, program.symbols), tuple(all_diags), (program.entries, encoder.defined),
        object_name=_opened(program, program.object_lfn), listing_name=_opened(program, program.listing_lfn),
        files=sst_files,
        symbol_table=_symbol_table(program, encoder) if program.symbol_listing else None,
        macro_calls=tuple((m.name, m.calls) for m in program.macro_order), last_line=program.last_line,
        more_warnings=kept.warnings,
    )  # fmt: skip


# '.opt o' keeps the object in a buffer in the C64's BASIC RAM: the program text, the symbol table
# and the buffer share these bytes (measured on the original: rules/opt_o_buffer_room_*, errors/errors_out_of_memory)
BUFFER_ROOM = 0x78FF


def _symbol_bytes(key: str) -> int:
    """The bytes of a symbol in the original's table, as measured: its name (8 characters
    significant) and its value (rules/opt_o_buffer_room_*; names of 2, 3, 6 and 10 characters)."""
    return min(len(key.split(":")[0]), 8) + 2


def _symbol_overflow(program: Program) -> list[Diagnostic]:
    """SYM TABLE OVERFLOW at the first symbol after '.stm' that the table, growing down from
    $8000, has no room for (fatal on the original: errors/errors_sym_table_overflow, rules/stm_*)."""
    lowest, after = program.symbol_memory
    used = 0
    for k, key in enumerate(program.order):
        used += _symbol_bytes(key)
        if k >= after and used > 0x8000 - lowest:
            where = program.place_of(key)
            return [error(f"no room for '{program.spelling.get(key, key)}' in the symbol table above ${lowest:04X} "
                          f"({used} bytes from $8000 down) [SYM TABLE OVERFLOW]", as_span(where) if where else None)]
    return []


def _buffer_overflow(program: Program, lines) -> list[Diagnostic]:
    """OUT OF MEMORY where '.opt o''s buffer outgrows the room the program's text and its symbols
    leave (fatal on the original).  *lines*: the main source's lines, as read."""
    from asm6502.basic.tokenizer import tokenize

    try:  # (the program as the C64 holds it, tokenized: its text made again from its lines on this rare path,
        # not kept through both passes)
        text_size = len(tokenize("\n".join([line.line_text for line in lines])).prg) - 2
    except DiagnosticError:
        return []
    room = BUFFER_ROOM - text_size - sum(_symbol_bytes(key) for key in program.order)
    start = None
    for entry in program.entries:
        size = 3 if entry.size == FORWARD else entry.size
        if not size or type(entry.rec) not in (Insn, Data):
            continue
        start = entry.pc if start is None else start
        if entry.pc + size - start > room:
            return [error(f"the '.opt o' buffer is full: {entry.pc + size - start} bytes of code from ${start:04X}, room for "
                          f"{max(room, 0)} beside the program and its symbols [OUT OF MEMORY]", as_span(_place(entry)))]
    return []


def _place(entry) -> tuple:
    stmt = entry.stmt
    return (entry.line, stmt.col, len(stmt.text)) if stmt is not None else (entry.line, 1, 1)


def _symbol_table(program: Program, encoder: Encoder) -> tuple[tuple[str, int], ...]:
    """'.sym': every symbol, the newest first, with its value at the end of pass 2; a macro-local
    label as NAME:NN (NN: the call; 00: its offset in the macro's definition)."""
    values = encoder.values
    defined = program.definition_labels  # (the labels of the macros' definitions, 'name:00')
    return tuple((program.spelling.get(k, k), values[k] if k in values else defined[k]) for k in reversed(program.order)
                 if k in values or k in defined)


def _opened(program: Program, lfn: int | None) -> str | None:
    opened = program.opens.get(lfn) if lfn is not None else None
    return opened.name if opened is not None else None


_CAPITALS_IN_QUOTES = LazyPattern(r'"[^"\n]*[A-Z]')


def _capitals(source, seen: _Seen) -> list[Diagnostic]:
    """One warning when a source without any lower-case letter has capitals in quotes: typed from
    a listing printed in capitals, its strings would become the C64's shifted letters."""
    if seen.lower or seen.quoted is None:
        return []
    quoted = seen.quoted
    line = next((ln for ln in source.lines if ln.line_text and quoted in ln.line_text), None)
    where = Span(source.lines[0].file, line.index, line.line_text.index(quoted) + 1, len(quoted) + 1, line.line_text, line.number) \
        if line is not None else None
    return [warning("the source has no lower-case letters: capitals in strings and character constants are the C64's "
                    "shifted letters ($C1-$DA) here (petcat's convention); if it was typed from a listing printed in "
                    "capitals, assemble with --case upper", where)]


_LOWER = LazyPattern(r"[a-z]")


def _advice(program: Program, kept: Kept) -> list[Diagnostic]:
    """A warning at every use of a statement that the decoder assembled as the original would but
    advises against (``sta ($20),x``, which the original reads as ``sta ($20,x)``), while the run has room."""
    advised = program.decoder.advised
    if not advised:
        return []
    out = []
    for entry in program.entries:
        found = advised.get(id(entry.rec))
        if found is not None and kept.has_room(False):
            _record, message, offset, length = found
            line, stmt = entry.line, entry.stmt
            out.append(warning(message, Span(line.file, line.index, stmt.col + offset, length, line.line_text, line.number)))
    return out


def _expressions(rec) -> list[tuple]:
    """(tree, its offset in the statement) of every expression of a pass-2 record."""
    if isinstance(rec, Insn):
        return [(rec.expr, rec.offsets.expr_offset)] if rec.expr is not None else []
    if isinstance(rec, (Define, Origin)):
        return [(rec.expr, rec.expr_offset)]
    if isinstance(rec, Data):
        it = iter(rec.parts)
        return [(item, offset) for item, _prefix, offset, _length in zip(it, it, it, it) if type(item) is not bytes]
    return []


def _precedence_warnings(program: Program, kept: Kept) -> list[Diagnostic]:
    """A warning at every use of an expression whose value read left to right differs from its value with the
    usual precedence (decode.Decoder.mixed), with both values and how to write either with '[ ]' (at its first use
    that differs).  The symbols'
    values are those of pass 2 at that point: its '_' variables and macro parameters are assigned again here
    as pass 2 assigns them (encode.Encoder.run)."""
    mixed = program.decoder.mixed
    values = dict(program.values)
    out = []
    seen: set[tuple] = set()
    entries = program.entries
    for at, rec, pc, local in zip(count(), entries.recs, entries.pcs, entries.locals):
        pairs: list[tuple] = []
        if isinstance(rec, Define) and rec.var:
            pairs = [(ex.key_of(rec.name), rec.expr)]
        elif isinstance(rec, MacroCall):
            pairs = list(zip(rec.macro.params, rec.args))
        if pairs:
            for key, node in pairs:
                try:
                    values[key] = ex.value(node, values, pc, local)
                except (ex.Unknown, ex.ExprError):
                    pass
        for tree, offset in _expressions(rec):
            if id(tree) not in mixed:
                continue
            try:
                value, usual = ex.value(tree, values, pc, local), usual_value(tree, values, pc, local)
            except (ex.Unknown, ex.ExprError):  # (pass 2 reports an error of its own; an overflow in the other reading: no value)
                continue
            if value == usual:
                continue
            line, stmt = entries.place(at)
            place = (line.file, line.index, stmt.col + offset)
            if place in seen or not kept.has_room(False):  # (one warning a place: a line in a loop or a macro shows its first value)
                continue
            seen.add(place)
            text = stmt.text[offset:]
            start, end = whole_extent(tree, text)
            ltr, other = written(tree, text), written(tree, text, usual=True)
            out.append(warning(
                f"'{text[start:end]}' is ${value:04X}: Profi-Ass reads it left to right, {ltr}; with the usual "
                f"precedence (64tass, ACME, C) it would be ${usual:04X}",
                Span(line.file, line.index, stmt.col + offset + start, end - start, line.line_text, line.number),
                note(f"write {other} for ${usual:04X}, or {ltr} to keep ${value:04X} without this warning "
                     "(-W no-precedence: none of these warnings)"),
            ))
    return out


def _spelling_warnings(program: Program) -> list[Diagnostic]:
    """A reference spelled differently from its symbol beyond the 8 significant characters."""
    out = []
    for name in sorted(program.decoder.long_names()):
        if name[0] == ".":
            continue
        key = name[:8]
        spelled = program.spelling_of(key)
        if spelled is None or spelled == name:
            continue
        for entry in program.entries:
            stmt = entry.stmt
            if stmt is not None and name in stmt.text.lower():
                line = entry.line
                col = stmt.col + stmt.text.lower().index(name)
                out.append(
                    warning(
                        f"'{name}' refers to '{spelled}': Profi-Ass keeps only the first 8 characters ('{key}')",
                        Span(line.file, line.index, col, len(name), line.line_text, line.number),
                    )
                )
                break
    return out


def assemble_file(path: str | os.PathLike, options: Options = Options(), files=None) -> Result:
    gate = files if files is not None else Files()
    # (the text handed over as it is made: neither its bytes nor the text stay here through the passes)
    return assemble(source_text(gate.read(path, what="source"), os.fspath(path)), os.fspath(path), options, gate)


def _segments(chunks) -> tuple[list[tuple[int, bytes]], list[Diagnostic]]:
    """Chunks sorted by address and joined; overlapping output is the original's REVERSAL."""
    diags = []
    ordered = sorted(chunks, key=lambda c: c[0])
    merged: list[list] = []
    for start, data, where in ordered:
        if merged:
            prev_start, prev_data, prev_where = merged[-1]
            prev_end = prev_start + len(prev_data)
            if start < prev_end:
                diags.append(
                    error(
                        f"code at ${start:04X}-${start + len(data) - 1:04X} overwrites earlier output at "
                        f"${prev_start:04X}-${prev_end - 1:04X} [REVERSAL]",
                        as_span(where),
                        note("the earlier output starts here", as_span(prev_where)),
                    )
                )
                continue
            if start == prev_end:
                prev_data.extend(data)
                continue
        merged.append([start, bytearray(data), where])
    return [(s, bytes(d)) for s, d, _ in merged], diags
