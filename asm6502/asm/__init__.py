"""The Profi-Ass 64 V2.0 assembler: a list of passes over plain records, as the original assembles.

Read top-down, the package is its passes (pipeline.py runs them in this order):

1. reading -- reader.py: the source, a BASIC program, into lines (columns of lines.py's ``Lines``; typed.py
   first gives the text as the C64 stored it); files.py finds and reads the files a source names.
2. decoding -- decode.py: each distinct statement text once into a record of statements.py,
   its expressions by expr.py (precedence.py: how they read with the usual precedence), its
   operands' addressing forms, commas, strings and key counts by operand_text.py;
   pseudo.py is the pseudo-op registry every stage reads.
3. pass 1 -- layout.py: run, size, define; one entry per executed statement (entries.py).  Its
   concerns are modules of their own, each an object the walk holds, all on the pass's one
   state (state.py): symbols.py (``Layout.symbols``), macros.py (``.macros``), conditionals.py
   (``.conds``: ``.if``, ``.goto``, ``.end``), files.py (``.files``: ``.file``, ``.lst``, ``.sst``),
   options.py (``.listing_opts``: ``.opt``, ``.sym``, ``.stm``, ``.tit``, ``.pag``).  It hands on a
   ``program.Program`` value: the entries, the symbols, the macros, the sources, the diagnostics.
4. pass 2 -- encode.py: the Program's entries into bytes; pipeline.py's checks after it
   (symbol memory, the object buffer, precedence and spelling warnings) -> ``result.Result``.
5. the listing -- rows.py (a row per entry), listing.py (the original's page layout), and
   asm6502.output (the default listing text); symfile.py reads and writes ``.sst``/``.lst``.

``asm6502.convert`` reads the Program of :func:`assemble_program`, never pass 1's own state.
"""

from asm6502.asm.pipeline import assemble, assemble_file, assemble_program
from asm6502.asm.result import ListingRow, Options, Result

__all__ = ["ListingRow", "Options", "Result", "assemble", "assemble_file", "assemble_program"]
