"""The Profi-Ass 64 V2.0 assembler: one pipeline, as the original assembles.

reader.py (the BASIC program's lines) -> decode.py (each distinct statement
text once into a record) -> layout.py (pass 1: run, size, define; one
entries.Entry per executed statement) -> encode.py (pass 2: bytes from the
laid-out records) -> Result.  pseudo.py is the pseudo-op registry every stage
reads; rows.py and listing.py show the listing.
"""

from asm6502.asm.assemble import assemble, assemble_file
from asm6502.asm.result import ListingRow, Options, Result

__all__ = ["ListingRow", "Options", "Result", "assemble", "assemble_file"]
