"""A source's lines as the assembler keeps them: the line and statement records, and ``Lines``, a file's
(or a macro body's) lines as columns, each line's object made on demand (reader.py reads a source into them).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from asm6502.tuples import SlotRecord


class Statement(SlotRecord):
    __slots__ = ("text", "col", "comment")

    text: str  # without the comment, trailing blanks removed
    col: int  # 1-based column of text[0] in the source line
    comment: str  # ';...' that followed, if any ("" if none)

    def __init__(self, text: str, col: int, comment: str) -> None:
        self.text = text
        self.col = col
        self.comment = comment


class SourceLine(SlotRecord):
    __slots__ = ("file", "index", "number", "number_col", "line_text", "statements", "has_code")

    file: str
    index: int  # 1-based physical line in the file
    number: int | None  # the BASIC line number
    number_col: int
    line_text: str  # the raw line
    statements: tuple[Statement, ...]
    has_code: bool  # False for empty and comment-only lines

    def __init__(self, file: str, index: int, number: int | None, number_col: int, line_text: str, statements: tuple[Statement, ...], has_code: bool) -> None:
        self.file = file
        self.index = index
        self.number = number
        self.number_col = number_col
        self.line_text = line_text
        self.statements = statements
        self.has_code = has_code


class PlainLine(SlotRecord):
    """The commonest line, '100 lda #1' (its number's ASCII digits, one blank, one statement without
    a comment, a ':', a '"' or trailing blanks): one object is the line and its one statement, with the
    fields of both (``text`` and ``col`` are the statement's, ``line_text`` the line's).  It keeps no
    copy of the raw line: its number, padded with zeros to the digits typed (the statement's column
    less 2), and its statement make it again.  (A SourceLine, a Statement and their tuple would take
    several times its memory, on the commonest kind of line.)"""

    __slots__ = ("file", "index", "number", "text", "col")
    file: str
    index: int
    number: int
    text: str  # the statement's text
    col: int  # 1-based column of text[0]

    def __init__(self, file: str, index: int, number: int, text: str, col: int) -> None:
        self.file = file
        self.index = index
        self.number = number
        self.text = text
        self.col = col
    number_col = 1
    comment = ""
    has_code = True

    @property
    def statements(self) -> tuple[PlainLine]:
        """(Made at each reading: the passes' hot loops ask ``type(line) is PlainLine`` first.)"""
        return (self,)

    @property
    def line_text(self) -> str:
        return str(self.number).rjust(self.col - 2, "0") + " " + self.text


class SimpleLine(SlotRecord):
    """Any other line of one statement without a comment, a ':' or a '"' (a line without a number,
    blanks around the number, trailing blanks): as a PlainLine, one object is the line and its
    statement, but it keeps the raw line (a line read before shares its string: 1 M lines of ' nop'
    take 104 bytes a line less than a SourceLine, a Statement and their tuple)."""

    __slots__ = ("file", "index", "number", "number_col", "line_text", "text", "col")
    file: str
    index: int
    number: int | None
    number_col: int
    line_text: str  # the raw line
    text: str  # the statement's text
    col: int  # 1-based column of text[0]

    def __init__(self, file: str, index: int, number: int | None, number_col: int, line_text: str, text: str, col: int) -> None:
        self.file = file
        self.index = index
        self.number = number
        self.number_col = number_col
        self.line_text = line_text
        self.text = text
        self.col = col
    comment = ""
    has_code = True

    @property
    def statements(self) -> tuple[SimpleLine]:
        """(Made at each reading: the passes' hot loops ask the line's type first.)"""
        return (self,)


class CommentedLine(SlotRecord):
    """A line of one statement (perhaps empty) with a comment or trailing blanks, without a ':' or a
    '"' (``100 sta x ; time``, ``100 ; routine 0``): as a PlainLine, one object is the line and its
    statement, made on demand from the columns of :class:`Lines` (its text, its column and its tail:
    the blanks and the comment after the text)."""

    __slots__ = ("file", "index", "number", "number_col", "line_text", "text", "col", "comment")
    file: str
    index: int
    number: int | None
    number_col: int
    line_text: str  # the raw line
    text: str  # the statement's text ("" for a line of only a comment)
    col: int  # 1-based column of text[0]
    comment: str  # ';...' that followed, stripped ("" if none: only trailing blanks)

    def __init__(self, file: str, index: int, number: int | None, number_col: int, line_text: str, text: str, col: int, comment: str) -> None:
        self.file = file
        self.index = index
        self.number = number
        self.number_col = number_col
        self.line_text = line_text
        self.text = text
        self.col = col
        self.comment = comment

    @property
    def has_code(self) -> bool:
        return self.text != ""

    @property
    def statements(self) -> tuple[CommentedLine]:
        """(Made at each reading, as PlainLine's.)"""
        return (self,)


Line = SourceLine | PlainLine | SimpleLine | CommentedLine  # a source line: what layout entries, spans and listing rows point at
Stmt = Statement | PlainLine | SimpleLine | CommentedLine  # a statement of a line


NO_NUMBER = 0x3FFFFFFF  # (a line without a number, in Lines.numbers; below 2**30: one digit of a Python int, compared fast)
MAX_COL = 0x7F  # (the largest column Lines.cols holds: a line whose statement starts further right is kept as its object)
TAILED = 0x80  # (in Lines.cols, above the column: the line has a tail in Lines.tails)


class Lines:
    """The lines of a file (or a macro's body) as columns: no Python object per line.

    A line of one statement with code and without a comment (``100 lda #1``: most lines) is its
    statement's text in ``texts`` (one string per distinct text, shared), its number in ``numbers``
    and its statement's column in ``cols``; an unnumbered or otherwise irregular one (SimpleLine) also
    its raw line in ``raws`` (a line read before shares its string).  Any other line -- many statements,
    a comment, no code -- is its SourceLine object in ``texts`` (every empty line the same one).  A
    line's index is its position + 1 (a macro body's lines: ``indexes``).  ``lines[i]`` makes the
    line object (PlainLine, SimpleLine) on demand: for errors, listings, convert and the control
    statements; the passes read the columns.  (A PlainLine and its index and number would take many times
    the columns' bytes a line.)

    A line of one statement with a comment or trailing blanks, or of only a comment (CommentedLine),
    is so too, with TAILED in ``cols`` and its tail -- what follows the text: blanks and ';...' -- in
    ``tails`` (a sparse column: ``tail_at`` holds the positions of the lines that have one; equal tails
    share a string).  (A SourceLine, its Statement, their tuple, raw line, comment and ints would take many
    times that, and a source has thousands of lines with a comment.)"""

    __slots__ = ("file", "texts", "numbers", "cols", "raws", "tails", "tail_at", "indexes", "base")

    def __init__(self, file: str, indexes: array | None = None):
        self.file = file
        self.texts: list = []  # a one-statement line's text (str), else the line's object
        self.numbers = array("I")  # NO_NUMBER: none (unsigned: an array of "i" or "H" converts each item through PyArg_Parse, 3 times the cost)
        self.cols = bytearray()  # the one statement's column (0 for a line kept as its object)
        self.raws: list = []  # a SimpleLine's raw line at its position (None or beyond the end: a PlainLine's)
        self.tails: list[str] = []  # a CommentedLine's tail (the raw line's rest after its text; its comment when raws has the line)
        self.tail_at = array("I")  # their lines' positions, ascending
        self.indexes = indexes  # a macro body's lines' indexes in their file (None: position + 1)
        self.base = -1  # where its lines start among every line pass 1 ran (Entries.register)

    def __len__(self) -> int:
        return len(self.texts)

    def __iter__(self):
        return map(self.line, range(len(self.texts)))

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.line(k) for k in range(*i.indices(len(self.texts)))]
        return self.line(i if i >= 0 else i + len(self.texts))

    def line(self, i: int) -> Line:
        """The line at position ``i``: its object, or one made now."""
        text = self.texts[i]
        if type(text) is not str:
            return text
        index = i + 1 if self.indexes is None else self.indexes[i]
        raws = self.raws
        raw = raws[i] if i < len(raws) else None
        col = self.cols[i]
        if col & TAILED:
            col &= MAX_COL
            tail = self.tails[bisect_left(self.tail_at, i)]
            number = self.numbers[i]
            if raw is None:  # (a line '100 text tail': its number padded to the digits typed, as PlainLine's)
                return CommentedLine(self.file, index, number, 1, str(number).rjust(col - 2, "0") + " " + text + tail, text, col, tail.strip())
            return CommentedLine(self.file, index, None if number == NO_NUMBER else number, len(raw) - len(raw.lstrip(" \t")) + 1, raw, text,
                                      col, tail.strip())
        if raw is None:
            return PlainLine(self.file, index, self.numbers[i], text, col)
        number = self.numbers[i]
        return SimpleLine(self.file, index, None if number == NO_NUMBER else number, len(raw) - len(raw.lstrip(" \t")) + 1, raw, text, col)

    def number(self, i: int) -> int | None:
        number = self.numbers[i]
        return None if number == NO_NUMBER else number

    def add(self, line: Line) -> None:
        """Append a line (by its columns when it has a form they hold)."""
        if isinstance(line, (PlainLine, SimpleLine, CommentedLine)) and line.col <= MAX_COL and line.file == self.file:
            col = line.col
            if type(line) is not PlainLine:
                raws = self.raws
                if len(raws) < len(self.texts):
                    raws += [None] * (len(self.texts) - len(raws))
                raws.append(line.line_text)
                if type(line) is CommentedLine:  # (its raw line kept: the tail needs only to strip to the comment)
                    self.tail_at.append(len(self.texts))
                    self.tails.append(line.comment)
                    col |= TAILED
            self.texts.append(line.text)
            self.numbers.append(NO_NUMBER if line.number is None else line.number)
            self.cols.append(col)
        else:
            self.texts.append(line)
            self.numbers.append(NO_NUMBER if line.number is None else line.number)
            self.cols.append(0)
        if self.indexes is not None:
            self.indexes.append(line.index)

    def copy(self, lines: Lines, i: int) -> None:
        """Append line ``i`` of ``lines`` (a macro body records its file's lines)."""
        self.add(lines.line(i))
