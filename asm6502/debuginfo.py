"""The debug-info file for source-level debugging: KickAssembler's ``.dbg`` XML, read from an assembly's Result.

Of the two forms that VS64 (the VS Code extension) reads besides ACME's report -- KickAssembler's ``.dbg``
(``-debugdump``) and cc65's ``.dbg`` (``ld65 --dbgfile``) -- this is the one C64 Debugger (RetroDebugger)
reads too: its README, section "KickAss debug symbols" (slajerek/RetroDebugger,
docs/README-C64-65XE-NES-Debugger.txt), documents the format; VS64 reads it in
src/debugger/debug_info_kick.js (rolandshacks/vs64).  cc65's form describes ld65's segments, scopes and
object modules, which a Profi-Ass program does not have.

The format, as documented there::

    <C64debugger version="1.0">
      <Sources values="INDEX,FILE">            one line per source file: its index, its path
      <Segment name="Default" values="START,END,FILE_IDX,LINE1,COL1,LINE2,COL2">
        <Block name="...">                     one line per statement that made bytes: $first,$last
                                               (inclusive), the file's index, where its text starts and ends
      <Labels values="SEGMENT,ADDRESS,NAME">   one line per label: segment, $address, name
      <Breakpoints values="SEGMENT,ADDRESS,ARGUMENT">   always there, one line per breakpoint

Lines and columns are 1-based, of the text file (not the Profi-Ass line numbers), as editors count them;
the files are named by their absolute paths, as KickAssembler names them, so that the debugger finds them
from its own working folder.  One block per ``*=`` segment of the program.
"""

from __future__ import annotations

import os

from asm6502.asm.result import Result

SEGMENT = "Default"  # (KickAssembler's name for the segment of a program without .segment directives)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def source_path(name: str) -> str:
    """The path the debugger opens: absolute, from the folder the assembler ran in."""
    return os.path.abspath(name)


def line_ranges(result: Result) -> list[tuple[int, int, str, int, int, int]]:
    """(first address, last address, file, line, first column, last column) per listed statement that made bytes,
    in address order (the Result must be assembled with Options.listing)."""
    out = []
    for row in result.listing:
        if row.address is None or not row.data:
            continue
        span = row.span
        out.append((row.address, row.address + len(row.data) - 1, span.file, span.line, span.col,
                    span.col + max(span.length, 1) - 1))
    out.sort(key=lambda r: (r[0], r[1]))
    return out


def kickass_dbg(result: Result, breaks: list[int] | tuple = ()) -> str:
    """The ``.dbg`` text of an assembly: sources, each statement's address range, the labels, *breaks*."""
    ranges = line_ranges(result)
    files: dict[str, int] = {}
    for r in ranges:
        files.setdefault(r[2], len(files))
    out = ['<C64debugger version="1.0">', '  <Sources values="INDEX,FILE">']
    out += [f"    {index},{_escape(source_path(name))}" for name, index in files.items()]
    out += ["  </Sources>", f'  <Segment name="{SEGMENT}" values="START,END,FILE_IDX,LINE1,COL1,LINE2,COL2">']
    for start, data in result.segments:
        end = start + len(data) - 1
        out.append(f'    <Block name="${start:04X}-${end:04X}">')
        out += [f"      ${first:04x},${last:04x},{files[name]},{line},{col1},{line},{col2}"
                for first, last, name, line, col1, col2 in ranges if start <= first <= end]
        out.append("    </Block>")
    out += ["  </Segment>", '  <Labels values="SEGMENT,ADDRESS,NAME">']
    out += [f"    {SEGMENT},${value:04x},{_escape(name)}"
            for name, value in sorted(result.addresses.items(), key=lambda kv: (kv[1], kv[0]))]
    out += ["  </Labels>", '  <Breakpoints values="SEGMENT,ADDRESS,ARGUMENT">']
    out += [f"    {SEGMENT},${address:04x}," for address in breaks]
    out += ["  </Breakpoints>", "</C64debugger>"]
    return "\n".join(out) + "\n"
