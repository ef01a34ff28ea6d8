"""Typing modes like the originals: each line is checked the moment it is entered.

:mod:`asm6502.typein.basic` is the Checksummer's (numbered BASIC lines with their ``<NNN>``),
:mod:`asm6502.typein.mse` the MSE's (the next address shown, 8 bytes and a checksum taken).
Both are sessions that take one typed line at a time and answer with text; the terminal loop
is in ``asm6502/cli/type_basic.py`` and ``asm6502/cli/type_mse.py``.
"""
