"""The C64 BASIC V2 keyword table, in ROM order.

Source: the keyword list at $A09E in the C64 BASIC ROM (each keyword's last
character has bit 7 set); tokens are assigned in table order from $80 (END)
to $CB (GO).  CRUNCH ($A579) scans this list front to back at every position
and takes the first keyword that matches, which is why the order matters.
Pi (the PETSCII character $FF) is its own "token": it is stored as $FF.
"""

from __future__ import annotations

KEYWORDS: tuple[str, ...] = (
    # $80
    "END", "FOR", "NEXT", "DATA", "INPUT#", "INPUT", "DIM", "READ",
    # $88
    "LET", "GOTO", "RUN", "IF", "RESTORE", "GOSUB", "RETURN", "REM",
    # $90
    "STOP", "ON", "WAIT", "LOAD", "SAVE", "VERIFY", "DEF", "POKE",
    # $98
    "PRINT#", "PRINT", "CONT", "LIST", "CLR", "CMD", "SYS", "OPEN",
    # $A0
    "CLOSE", "GET", "NEW", "TAB(", "TO", "FN", "SPC(", "THEN",
    # $A8
    "NOT", "STEP", "+", "-", "*", "/", "^", "AND",
    # $B0
    "OR", ">", "=", "<", "SGN", "INT", "ABS", "USR",
    # $B8
    "FRE", "POS", "SQR", "RND", "LOG", "EXP", "COS", "SIN",
    # $C0
    "TAN", "ATN", "PEEK", "LEN", "STR$", "VAL", "ASC", "CHR$",
    # $C8
    "LEFT$", "RIGHT$", "MID$", "GO",
)

FIRST_TOKEN = 0x80
PI_TOKEN = 0xFF

TOKEN_OF: dict[str, int] = {kw: FIRST_TOKEN + i for i, kw in enumerate(KEYWORDS)}
KEYWORD_OF: dict[int, str] = {FIRST_TOKEN + i: kw for i, kw in enumerate(KEYWORDS)}

assert len(KEYWORDS) == 76 and TOKEN_OF["GO"] == 0xCB and TOKEN_OF["REM"] == 0x8F
