"""The C64 BASIC V2 error messages and the exception that carries them.

Message texts and numbers: the error message table at $A19E of the C64 BASIC
ROM (pointer table $A328, error number = index + 1).  The ROM prints them as
CR, "?", the message, "  ERROR" and, when a program runs, " IN <line>"
(error handler $A43A, " IN " via $BDC2), then "READY.".
"""

from __future__ import annotations

from enum import IntEnum


class Err(IntEnum):
    TOO_MANY_FILES = 1
    FILE_OPEN = 2
    FILE_NOT_OPEN = 3
    FILE_NOT_FOUND = 4
    DEVICE_NOT_PRESENT = 5
    NOT_INPUT_FILE = 6
    NOT_OUTPUT_FILE = 7
    MISSING_FILE_NAME = 8
    ILLEGAL_DEVICE_NUMBER = 9
    NEXT_WITHOUT_FOR = 10
    SYNTAX = 11
    RETURN_WITHOUT_GOSUB = 12
    OUT_OF_DATA = 13
    ILLEGAL_QUANTITY = 14
    OVERFLOW = 15
    OUT_OF_MEMORY = 16
    UNDEFD_STATEMENT = 17
    BAD_SUBSCRIPT = 18
    REDIMD_ARRAY = 19
    DIVISION_BY_ZERO = 20
    ILLEGAL_DIRECT = 21
    TYPE_MISMATCH = 22
    STRING_TOO_LONG = 23
    FILE_DATA = 24
    FORMULA_TOO_COMPLEX = 25
    CANT_CONTINUE = 26
    UNDEFD_FUNCTION = 27
    VERIFY = 28
    LOAD = 29


MESSAGES: dict[Err, str] = {
    Err.TOO_MANY_FILES: "TOO MANY FILES",
    Err.FILE_OPEN: "FILE OPEN",
    Err.FILE_NOT_OPEN: "FILE NOT OPEN",
    Err.FILE_NOT_FOUND: "FILE NOT FOUND",
    Err.DEVICE_NOT_PRESENT: "DEVICE NOT PRESENT",
    Err.NOT_INPUT_FILE: "NOT INPUT FILE",
    Err.NOT_OUTPUT_FILE: "NOT OUTPUT FILE",
    Err.MISSING_FILE_NAME: "MISSING FILE NAME",
    Err.ILLEGAL_DEVICE_NUMBER: "ILLEGAL DEVICE NUMBER",
    Err.NEXT_WITHOUT_FOR: "NEXT WITHOUT FOR",
    Err.SYNTAX: "SYNTAX",
    Err.RETURN_WITHOUT_GOSUB: "RETURN WITHOUT GOSUB",
    Err.OUT_OF_DATA: "OUT OF DATA",
    Err.ILLEGAL_QUANTITY: "ILLEGAL QUANTITY",
    Err.OVERFLOW: "OVERFLOW",
    Err.OUT_OF_MEMORY: "OUT OF MEMORY",
    Err.UNDEFD_STATEMENT: "UNDEF'D STATEMENT",
    Err.BAD_SUBSCRIPT: "BAD SUBSCRIPT",
    Err.REDIMD_ARRAY: "REDIM'D ARRAY",
    Err.DIVISION_BY_ZERO: "DIVISION BY ZERO",
    Err.ILLEGAL_DIRECT: "ILLEGAL DIRECT",
    Err.TYPE_MISMATCH: "TYPE MISMATCH",
    Err.STRING_TOO_LONG: "STRING TOO LONG",
    Err.FILE_DATA: "FILE DATA",
    Err.FORMULA_TOO_COMPLEX: "FORMULA TOO COMPLEX",
    Err.CANT_CONTINUE: "CAN'T CONTINUE",
    Err.UNDEFD_FUNCTION: "UNDEF'D FUNCTION",
    Err.VERIFY: "VERIFY",
    Err.LOAD: "LOAD",
}

ERROR_SUFFIX = "  ERROR"  # printed after the message
READY = "READY."
BREAK = "BREAK"


class BasicError(Exception):
    """A BASIC run-time error, as the ROM reports it (``?SYNTAX  ERROR IN 10``).

    ``line`` is the line number the ROM names; None for errors it reports
    without one.  READ errors name the DATA line (the ROM sets $39/$3A from
    the DATA line number at $AB57).
    """

    def __init__(self, code: Err, line: int | None = None):
        super().__init__(code)
        self.code = code
        self.line = line

    def message(self) -> str:
        text = "?" + MESSAGES[self.code] + ERROR_SUFFIX
        if self.line is not None:
            text += f" IN {self.line}"
        return text

    def __str__(self) -> str:
        return self.message()
