"""SYS into machine code: run it on the C64 machine with the project's stub ROMs
(asm6502.emu.harness).

The machine's RAM gets a copy of the interpreter's 64 KB ($0002-$FFFF: the 6510's
port at $00/$01 keeps the ROMs and I/O in view, as BASIC leaves it) and the
register bytes $030C-$030F (SYS loads A/X/Y/P from there and stores them back
after the final RTS, like the ROM's SYS at $E12A); afterwards the interpreter
gets the RAM back.  CHROUT output is collected and printed on
the interpreter's screen after the routine returns, so direct writes to screen
memory and CHROUT output are not interleaved exactly.  CHRIN reads lines from
the interpreter's keyboard.  A routine that ends any other way (BRK, a ROM
routine without a stub, an endless loop) stops the program with a note.
"""

from __future__ import annotations

MAX_INSTRUCTIONS = 50_000_000


class MachineCodeStop(Exception):
    """The routine did not return; ``reason`` is "input" or "unsupported"."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


def harness_sys(interp, address: int) -> None:
    from asm6502.emu.harness import Machine, StopReason

    output: list[int] = []
    machine = Machine(on_output=output.append)
    machine.load(2, bytes(interp.mem[2:]))
    result = machine.run(address, max_instructions=MAX_INSTRUCTIONS)
    while result.reason is StopReason.INPUT_NEEDED:
        line = interp.keyboard.read_line()
        if line is None:
            raise MachineCodeStop("input", "input script exhausted (machine code CHRIN)")
        machine.feed(bytes(line) + b"\r")
        result = machine.resume(MAX_INSTRUCTIONS)
    interp.mem[2:] = machine.ram()[2:]
    interp.screen.write(bytes(output))
    if not result.ok:
        raise MachineCodeStop("unsupported", f"SYS {address}: {result.message}")
