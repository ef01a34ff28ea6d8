"""Checksummer type-in listings (64'er BASIC listings with ``<NNN>`` after each line): read and write.

Modules, by job: :mod:`.checksum` (the Checksummer V1/V2/V3 line checksum, a listing written with
them), :mod:`.layout` (where a text's listing lines are: columns, broken and joined rows, page
furniture), :mod:`.text` (a line's text as the C64 stores it: control-code names, quotes, capitals),
:mod:`.edits` (a line's misreadings as edits with a cost), :mod:`.glyph` (a graphics character or
shifted letter solved from the checksum), :mod:`.rank` (repairs ranked by checksum),
:mod:`.verdict` (which repair may be taken unasked; a fix described), :mod:`.vocabulary` (the words
and names a listing prints, confirming a repair), :mod:`.read` (a listing read:
per-line reports, the program), :mod:`.accept` (the fixes a person confirmed), :mod:`.damage`
(synthetic OCR damage for tests and bench/basic_ocr_roundtrip.py).
"""
