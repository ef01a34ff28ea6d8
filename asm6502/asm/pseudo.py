"""Every pseudo-op of Profi-Ass 64 V2.0, one entry each (the manual's "Pseudoops").

The original reads a pseudo-op's first three letters only (``.byte`` is ``.byt``,
``.goto`` is ``.got``): :data:`PSEUDO_OPS` is keyed by them.  An entry says what
each stage does with the pseudo-op, by name, so that this table imports nothing
and every stage reads it:

* ``decode``: the :class:`asm6502.asm.decode.Decoder` method that reads the text
  after the name (``pseudo``: kept as a ``Pseudo`` record with the text);
* ``pass1``: the pass-1 handler that runs it, named by the object of :class:`asm6502.asm.layout.Layout`
  it acts on (``conds.op_if``: ``Layout.conds``, the conditionals; a data pseudo-op's is the walk's own,
  ``lay_data``);
* ``encode``: how pass 2 makes a data pseudo-op's bytes (:data:`BYTES`, :data:`WORDS`:
  each item's value; :data:`FIXED`: bytes the decoder made), ``""`` for control ones;
* ``listing``: how both listings show it (one of :data:`LISTINGS`);
* ``convert``: the :class:`asm6502.convert.writer.Writer` method that writes it in a
  target's syntax (``convert_`` + the name).

Adding a pseudo-op is one entry here plus its methods; tests/test_pseudo_registry.py
fails when a method an entry names is missing, or a stage meets one it has no entry for.
"""

from __future__ import annotations

from asm6502.tuples import SlotRecord

DATA = "data"  # makes bytes
CONTROL = "control"  # steers the assembly, the listing or the files

# encode: how pass 2 makes a data pseudo-op's bytes
BYTES = "bytes"  # one byte per item (0-255 or -128..-1)
WORDS = "words"  # two bytes per item, low byte first
FIXED = "fixed"  # the bytes the decoder made (strings, floats)

# listing: how a row of the pseudo-op is listed
LISTED = "listed"  # address and text (data: and the bytes)
TITLE = "title"  # '.tit': the text is the title of the listing's pages (no address)
PAGE = "page"  # '.pag': a new page, or the page length and margin
OPTIONS = "options"  # '.opt': listed; its 'm'/'n' leave the lines of macro calls out or in
SYMBOLS = "symbols"  # '.sym': listed; the symbol table follows the listing (its argument: symbols a line)
DEFINITION = "definition"  # '.mac': the line is listed as a line of a macro definition
HIDDEN = "hidden"  # not listed ('.end', as the original)
LISTINGS = (LISTED, TITLE, PAGE, OPTIONS, SYMBOLS, DEFINITION, HIDDEN)


class PseudoOp(SlotRecord):
    __slots__ = ("name", "kind", "decode", "pass1", "encode", "listing", "convert", "summary")

    def __init__(self, name: str, kind: str, decode: str, pass1: str, encode: str, listing: str,
                 convert: str, summary: str) -> None:  # fmt: skip
        self.name = name  # the first three letters, lower case ('if': two)
        self.kind = kind  # DATA or CONTROL
        self.decode = decode  # Decoder method
        self.pass1 = pass1  # pass-1 handler: 'object.method' of the Layout, or a Layout method
        self.encode = encode  # BYTES, WORDS, FIXED for data; "" for control
        self.listing = listing  # one of LISTINGS
        self.convert = convert  # Writer method
        self.summary = summary  # what it does (manual page)


def _table(*entries: PseudoOp) -> dict[str, PseudoOp]:
    table = {}
    for entry in entries:
        if not 2 <= len(entry.name) <= 3 or entry.name in table:  # (the original tells pseudo-ops apart by three letters)
            raise ValueError(f"pseudo-op '{entry.name}': at most three letters, once")
        table[entry.name] = entry
    return table


PSEUDO_OPS: dict[str, PseudoOp] = _table(
    PseudoOp("byt", DATA, "_data_list", "lay_data", BYTES, LISTED, "convert_data", "bytes (p. 12)"),
    PseudoOp("wor", DATA, "_data_list", "lay_data", WORDS, LISTED, "convert_data", "words, low byte first (p. 12)"),
    PseudoOp("asc", DATA, "_asc", "lay_asc", FIXED, LISTED, "convert_data", "a string in PETSCII"),
    PseudoOp("flp", DATA, "_flp", "lay_data", FIXED, LISTED, "convert_float", "BASIC's 5-byte floats"),
    PseudoOp("opt", CONTROL, "pseudo", "listing_opts.op_opt", "", OPTIONS, "convert_comment", "listing and object output (p. 17)"),
    PseudoOp("end", CONTROL, "pseudo", "conds.op_end", "", HIDDEN, "convert_end", "the end of the source"),
    PseudoOp("if", CONTROL, "pseudo", "conds.op_if", "", LISTED, "convert_comment", "the rest of the line if true (p. 30)"),
    PseudoOp("got", CONTROL, "pseudo", "conds.op_goto", "", LISTED, "convert_goto", "go on at a line (p. 31)"),
    PseudoOp("mac", CONTROL, "pseudo", "macros.op_mac", "", DEFINITION, "convert_macro", "a macro definition (p. 23)"),
    PseudoOp("men", CONTROL, "pseudo", "macros.op_men", "", LISTED, "convert_macro_end", "the end of a macro definition (p. 23)"),
    PseudoOp("fil", CONTROL, "pseudo", "files.op_file", "", LISTED, "convert_file", "go on with the next source file"),
    PseudoOp("tit", CONTROL, "pseudo", "listing_opts.op_listing", "", TITLE, "convert_comment", "the listing's title"),
    PseudoOp("pag", CONTROL, "pseudo", "listing_opts.op_listing", "", PAGE, "convert_comment", "a new listing page, page length"),
    PseudoOp("sym", CONTROL, "pseudo", "listing_opts.op_sym", "", SYMBOLS, "convert_comment", "list the symbol table"),
    PseudoOp("sst", CONTROL, "pseudo", "files.op_sst", "", LISTED, "convert_unsupported", "write the symbol table to a file"),
    PseudoOp("lst", CONTROL, "pseudo", "files.op_lst", "", LISTED, "convert_symbol_load", "load a symbol table from disk"),
    PseudoOp("stm", CONTROL, "pseudo", "listing_opts.op_accept", "", LISTED, "convert_comment", "the symbol table's memory"),
    PseudoOp("gtb", CONTROL, "pseudo", "listing_opts.op_c64", "", LISTED, "convert_untranslatable", "the next source from BASIC memory"),
    PseudoOp("sys", CONTROL, "pseudo", "listing_opts.op_c64", "", LISTED, "convert_untranslatable", "call machine code while assembling"),
)


# Pseudo-ops of 64tass and ACME ('!' in front) that a user of theirs writes by habit: the Profi-Ass way of each,
# named in the error an unknown one gets.  (Profi-Ass reads a pseudo-op by its first three letters: '.byte' and
# '.word' are '.byt' and '.wor' already, '.fill' is '.file'.)
FOREIGN_PSEUDO_OPS = {
    "text": '.asc "..." (a string in PETSCII)',
    "pet": '.asc "..."',
    "null": '.asc "..." then .byt 0',
    "byte": ".byt",
    "by": ".byt",
    "8": ".byt",
    "word": ".wor",
    "wo": ".wor",
    "16": ".wor",
    "addr": ".wor",
    "fill": "*=*+n (n bytes reserved, a gap filled with --fill's byte) or .byt with the bytes",
    "fi": "*=*+n",
    "res": "*=*+n",
    "dsb": "*=*+n",
    "org": "*= address",
    "include": '.file 8,"name" (Profi-Ass goes on with the next file of a chain)',
    "source": '.file 8,"name"',
    "src": '.file 8,"name"',
    "binary": ".byt with the bytes (asm6502 disasm turns a file into them)",
    "bin": ".byt with the bytes",
    "cpu": "the command's --cpu option",
    "to": "the command's -o option",
    "macro": ".mac name,parameters ... .men",
    "endm": ".men",
    "if": ".if expression: the rest of the line",
}


FOREIGN = "is 64tass's or ACME's"  # (in every such hint: convert tells a 64tass or ACME source by it)


def foreign_hint(name: str) -> str | None:
    """The Profi-Ass way of a 64tass/ACME pseudo-op (its name without '.' or '!'), or None."""
    found = FOREIGN_PSEUDO_OPS.get(name.lower())
    return f"'{name.lower()}' {FOREIGN}; in Profi-Ass write {found} (its data pseudo-ops: .byt .wor " \
        ".asc .flp)" if found else None
