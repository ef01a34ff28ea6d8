"""The C64 models the machine (asm6502.emu.c64) can be, as one table: which chips the board has, and the
facts of them a program can see that differ from model to model.

* ``c64``, the first C64 (the default): the 6510 CPU, the VIC-II 6569, two 6526 CIAs.
  ANE's and LXA's constant is $EE, with the bus free or not: the value Wolfgang Lorenz's
  test suite 2.15 was recorded with (lxab.asm, aneb.asm; trap1-trap17 run ANE #$1B with
  A = $C6, X = $B1 and want $00, so bits 0 and 4 of the constant are clear).
* ``c64c``, the C64C: the 8500 CPU, the VIC-II 8565, two 6526A CIAs (the interrupt output in
  the cycle of the ICR bit).  ANE's constant is $EF with the bus free and $EE when the read
  of its operand waits for the VIC; LXA's is $EE either way: as VICE's x64sc has them
  (6510dtvcore.c, ANE_MAGIC, ANE_RDY_MAGIC, LXA_MAGIC, LXA_RDY_MAGIC), the machine VICE's
  testbench runs as a C64C (testbench/x64sc-hooks.sh, ``-model c64c``) and whose results
  VICE testprogs CPU/ane (ane, ane-none, ane-border, checked on a C64C) were made to match:
  they want bits 0, 1 and 6 of the constant set with the bus free.

The constant is a property of the chip in the box, not of the board's era alone (the
programs' readme: "the test will also fail on some real C64s"); the table gives each model
the value of the machine its reference programs were checked on.  ``Model.with_chips``
makes a model with another VIC-II or CIA, as VICE's ``-VICIImodel`` and ``-ciamodel`` do
(the testbench's vicii-old, cia-old and cia-new).  (The table is outside asm6502.emu, whose
package loads the machine: the command line declares ``--model`` from it, and ``basic run``
loads the machine only for ``--rom``.)  The SID (6581 / 8580) is not listed:
the machine plays no sound.
"""

from __future__ import annotations

#: the CIA chips: the 6526 of the first C64s and the 6526A (8521) of later boards, whose
#: interrupt output comes one cycle earlier (asm6502/emu/c64/cia.py)
CIA_MODELS = ("6526", "6526a")
FIELDS = ("name", "title", "cpu", "vic", "cia", "ane", "ane_rdy", "lxa", "lxa_rdy")


class Model:
    """One C64 model (a plain class, not a dataclass: every command's parser is declared from
    this module, and dataclasses is start-up time the small commands do without)."""

    __slots__ = FIELDS
    name: str
    title: str
    cpu: str
    vic: str
    cia: str
    ane: int
    ane_rdy: int
    lxa: int
    lxa_rdy: int

    def __init__(self, name: str, title: str, *, cpu: str, vic: str, cia: str,
                 ane: int, ane_rdy: int, lxa: int, lxa_rdy: int):
        if cia not in CIA_MODELS:
            raise ValueError(f"CIA model {cia!r}: {' or '.join(CIA_MODELS)}")
        values = {
            "name": name,  # as --model spells it
            "title": title,
            "cpu": cpu,  # the CPU chip (to a program both are NMOS 6510s, but for the constants below)
            "vic": vic,  # the VIC-II: vicdraw.MODELS (the VIC checks it)
            "cia": cia,  # CIA_MODELS
            "ane": ane,  # ANE #imm: A = (A OR ane) AND X AND imm, the bus free
            "ane_rdy": ane_rdy,  # ... when the read of the operand waits for the VIC (RDY low)
            "lxa": lxa,  # LXA #imm: A = X = (A OR lxa) AND imm, the bus free
            "lxa_rdy": lxa_rdy,  # ... when the read of the operand waits
        }
        for field, value in values.items():
            object.__setattr__(self, field, value)

    def __setattr__(self, field: str, value: object) -> None:
        raise AttributeError(f"a C64 model is a constant: {field} cannot be set (with_chips makes another)")

    def __reduce__(self) -> tuple:  # (a pickle, for the worker processes of a sweep, makes it anew)
        return _made, self._values()

    def _values(self) -> tuple:
        return tuple(getattr(self, f) for f in FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        chips = "" if self in MODELS else f", VIC-II {self.vic}, CIA {self.cia}"
        return f"Model({self.name}{chips})"

    def with_chips(self, vic: str | None = None, cia: str | None = None) -> Model:
        """This model with another VIC-II or CIA (None: its own)."""
        return Model(self.name, self.title, cpu=self.cpu, vic=vic or self.vic, cia=cia or self.cia,
                     ane=self.ane, ane_rdy=self.ane_rdy, lxa=self.lxa, lxa_rdy=self.lxa_rdy)

    @property
    def new_cia(self) -> bool:
        return self.cia == "6526a"


def _made(name: str, title: str, cpu: str, vic: str, cia: str, ane: int, ane_rdy: int, lxa: int, lxa_rdy: int) -> Model:
    return Model(name, title, cpu=cpu, vic=vic, cia=cia, ane=ane, ane_rdy=ane_rdy, lxa=lxa, lxa_rdy=lxa_rdy)


#: every model, the default first
MODELS: tuple[Model, ...] = (
    Model("c64", "C64 (the first boards)", cpu="6510", vic="6569", cia="6526",
          ane=0xEE, ane_rdy=0xEE, lxa=0xEE, lxa_rdy=0xEE),
    Model("c64c", "C64C", cpu="8500", vic="8565", cia="6526a",
          ane=0xEF, ane_rdy=0xEE, lxa=0xEE, lxa_rdy=0xEE),
)
NAMES: tuple[str, ...] = tuple(m.name for m in MODELS)
DEFAULT: Model = MODELS[0]


def model(name: str) -> Model:
    """The model called *name*; a ValueError naming the choices for another name."""
    for m in MODELS:
        if m.name == name:
            return m
    raise ValueError(f"C64 model {name!r}: {' or '.join(NAMES)}")
