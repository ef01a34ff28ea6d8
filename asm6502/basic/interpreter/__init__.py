"""A headless C64 BASIC V2 interpreter for tokenized programs (.prg bytes).

    from asm6502.basic.interpreter import run_prg, RunOptions
    result = run_prg(prg_bytes, input_text="13\\n29\\n", options=RunOptions(seed=0))
    result.transcript  # what the C64 screen showed, scrolled-off rows included

Modules: numbers (MFLPT rounding, FOUT/FIN), fpu (FAC1/ARG with the
rounding byte: FADD, FMULT, FDIV, MUL10, ROUND, INT, FCOMP), fac (the
operators), rom_math (SQR, LOG, EXP, ^, SIN, COS, TAN, ATN with the ROM's
series), rnd (the ROM's RND bit for bit), screen (40x25 editor model),
keyboard, variables, errors, program (.prg lines), expr (FRMEVL), interp
(statements) and machine_code (SYS in the py65 harness).

Covered: every BASIC V2 statement and function except device I/O (LOAD, SAVE,
VERIFY, OPEN, CMD, PRINT#, INPUT#, GET# stop the run as unsupported; CLOSE is
ignored), with the ROM's messages and formats.  Approximations: the jiffy
clock TI advances one tick per 20 statements; the 6502-stack depth limit for
FOR/GOSUB is estimated; variables do not live in RAM; ROM areas read as RAM;
USR stops the run unless its vector still points at ?ILLEGAL QUANTITY.
"""

from __future__ import annotations

from .interp import Interpreter, RunOptions, RunResult
from .keyboard import Keyboard
from .machine_code import harness_sys
from .program import Program, parse_prg

__all__ = ["Interpreter", "Keyboard", "Program", "RunOptions", "RunResult", "parse_prg", "run_prg"]


def run_prg(prg: bytes, *, input_text: str = "", stream=None, echo: bool = True, poll_key=None,
            sink=None, options: RunOptions = RunOptions(), filename: str = "<prg>",
            sys_handler=harness_sys) -> RunResult:
    """Load ``prg`` (load address + image) and RUN it; return how it ended.

    ``sys_handler(interp, address)`` runs SYS targets (default: the py65
    harness); None makes SYS of machine code stop the run as unsupported.
    """
    program = parse_prg(prg, filename=filename)
    keyboard = Keyboard(input_text, stream, echo=echo, poll_key=poll_key)
    interp = Interpreter(program, prg[2:], keyboard=keyboard, sink=sink, options=options,
                         sys_handler=sys_handler)
    return interp.run()
