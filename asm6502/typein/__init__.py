"""Type-in listings: finding their lines in text and OCR, the misreading model, repairs ranked by
checksum, writing them, and typing them like the originals.

:mod:`.formats` lists every format once (MSE V1.0/V2.0/V2.1, Checksummer V1/V2/V3), each an object
with its line shape, its checksum, its writer, its reader and its program builder.  Per family:
:mod:`.mselisting` (MSE machine-code listings) and :mod:`.cslisting` (Checksummer BASIC listings);
:mod:`.confusion` is the misreading cost both share.  The English magazines' formats (Compute!'s
Automatic Proofreader and MLX, Ahoy!'s Bug Repellent) are :mod:`.english`, read and typed by the
same rules (:mod:`.english.read`, :mod:`.english.session`).  Typing sessions: :mod:`asm6502.typein.basic`
is the Checksummer's (numbered BASIC lines with their ``<NNN>``), :mod:`asm6502.typein.mse` the
MSE's (the next address shown, 8 bytes and a checksum taken); each takes one typed line at a time
and answers with text; the terminal loop is in ``asm6502/cli/type_basic.py`` and ``asm6502/cli/type_mse.py``.
"""
