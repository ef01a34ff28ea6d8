"""Verify Superhirn II (64'er magazine) by playing its machine code against every code.

Superhirn II is Mastermind the other way round: the player thinks of a code of
four digits 1-6, the C64 guesses, the player answers each guess with two lines
(digits in the right place, then right digits in the wrong place); "4" ends
the game with "OK", contradictory answers end it with "ERROR".  The article
claims the program finds every code "in maximal sechs Versuchen".

Three parts, each independent of the others:

* an automatic codebreaker that answers the running program truthfully for a
  secret code (it only reads the guesses the program prints);
* ``model_play``: a Python model of the article's algorithm, written from the
  article's text -- the first code, in the program's own enumeration order
  (position 1 counts fastest, "1111" to "6666"), that is consistent with all
  answers so far; the first search starts at "1111", each later one after the
  previous guess;
* ``sweep``: every one of the 6^4 = 1296 secrets played in the emulator,
  each game checked guess by guess and byte by byte against the model.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from asm6502 import c64models, petscii
from asm6502.diagnostics import DiagnosticError, error
from asm6502.emu.harness import Machine, MachineOptions, StopReason
from asm6502.petscii import petscii_to_text

SYS_ADDRESS = 0x3400  # "starten Sie es mit SYS 13312"
FIRST_GUESS = (1, 2, 3, 4)  # "beginnt ... wie üblich mit seiner Startkombination 1234"
DIGITS = range(1, 7)
POSITIONS = 4
CLAIMED_MAX_GUESSES = 6  # "in maximal sechs Versuchen"
GAME_BUDGET = 1_000_000  # instructions per game; a whole game needs about 150,000
C64_GAME_BUDGET = 20_000_000  # clock cycles per game on the whole C64; a game needs about 1.1 M

CLEAR = petscii.CLR
CR = petscii.CR
OK_TEXT = bytes([0x0D, 0x4F, 0x4B, 0x0D])  # BASIC ROM $A364 without its $00
ERROR_TEXT = b"ERROR"  # BASIC ROM $A36B (the program skips the two spaces at $A369)

Code = tuple[int, ...]
Responder = Callable[[Code], Sequence[bytes]]  # guess -> typed answer lines

_GUESS = re.compile(rb"(?<![0-9])[1-6]{4}(?![0-9])")


def code_text(code: Code) -> str:
    return "".join(str(d) for d in code)


def parse_code(text: str) -> Code:
    if len(text) != POSITIONS or any(c not in "123456" for c in text):
        raise ValueError(f"not a code of four digits 1-6: {text!r}")
    return tuple(int(c) for c in text)


def program_order() -> list[Code]:
    """All codes in the order the program's big loop visits them: position 1
    is shifted first (``grloop``: ``asl pos1`` until bit 5, then pos2 ...)."""
    return [tuple(reversed(c)) for c in itertools.product(DIGITS, repeat=POSITIONS)]


def score(guess: Code, secret: Code) -> tuple[int, int]:
    """Mastermind answer: (right digit in the right place, right digit elsewhere)."""
    blacks = sum(g == s for g, s in zip(guess, secret))
    common = sum(min(guess.count(d), secret.count(d)) for d in DIGITS)
    return blacks, common - blacks


def truthful(secret: Code) -> Responder:
    """The codebreaker's answers for ``secret``: one line "4" or two lines."""

    def respond(guess: Code) -> list[bytes]:
        blacks, whites = score(guess, secret)
        if blacks == POSITIONS:
            return [b"4"]
        return [str(blacks).encode(), str(whites).encode()]

    return respond


# --- the model -------------------------------------------------------------------
@dataclass(frozen=True)
class ModelGame:
    guesses: tuple[Code, ...]
    outcome: str  # "OK" or "ERROR"

    def expected_output(self) -> bytes:
        """The bytes the program must print for this game (its CHROUT calls):
        clear screen, each guess followed by the CRs of ``antwort``, then the
        ROM's "OK" or "ERROR"."""
        out = bytearray([CLEAR])
        for n, guess in enumerate(self.guesses):
            out += code_text(guess).encode() + bytes([CR])
            last = n == len(self.guesses) - 1
            if not (last and self.outcome == "OK"):
                out += bytes([CR, CR])
        out += OK_TEXT if self.outcome == "OK" else ERROR_TEXT
        return bytes(out)


def answer_value(line: bytes) -> int:
    """What ``antwort`` stores for an answer line: its first character (CHRIN;
    an empty line reads as a space) minus "0", as a byte."""
    first = (line.rstrip(b" ")[:1] or b" ")[0]
    return (first - 0x30) & 0xFF


def model_play(respond: Responder, max_rounds: int = 50) -> ModelGame:
    """Play the article's algorithm in Python against ``respond``."""
    order = program_order()
    guess: Code = FIRST_GUESS
    guesses = [guess]
    history: list[tuple[Code, int, int]] = []
    start = 0  # the first search begins at "1111" itself
    while len(guesses) <= max_rounds:
        lines = list(respond(guess))
        blacks = answer_value(lines[0])
        if blacks == POSITIONS:
            return ModelGame(tuple(guesses), "OK")
        whites = answer_value(lines[1])
        history.append((guess, blacks, whites))
        for index in range(start, len(order)):
            candidate = order[index]
            if _consistent(candidate, history):
                break
        else:
            return ModelGame(tuple(guesses), "ERROR")
        guess = candidate
        guesses.append(guess)
        start = index + 1  # later searches continue after the last guess
    raise RuntimeError(f"model did not finish in {max_rounds} rounds")


def _consistent(candidate: Code, history: list[tuple[Code, int, int]]) -> bool:
    """Would ``candidate``, as the secret, have produced every answer so far?"""
    for guess, blacks, whites in reversed(history):
        b = sum(g == c for g, c in zip(guess, candidate))
        if b != blacks:
            return False
        if sum(min(guess.count(d), candidate.count(d)) for d in DIGITS) - b != whites:
            return False
    return True


# --- playing the machine code --------------------------------------------------------
@dataclass(frozen=True)
class MachineGame:
    guesses: tuple[Code, ...]
    outcome: str  # "OK", "ERROR", "WAITING" or the stop reason of a failed run
    output: bytes
    screen: bytes
    instructions: int
    message: str


def _outcome(reason: StopReason, output: bytes) -> str:
    if reason is StopReason.RETURNED:
        if output.endswith(OK_TEXT):
            return "OK"
        if output.endswith(ERROR_TEXT):
            return "ERROR"
        return "RETURNED"
    if reason is StopReason.INPUT_NEEDED:
        return "WAITING"
    return reason.value.upper()


def parse_guesses(output: bytes) -> tuple[Code, ...]:
    return tuple(tuple(d - 0x30 for d in m.group()) for m in _GUESS.finditer(output))


def new_machine(prg: bytes) -> Machine:
    machine = Machine(MachineOptions())
    machine.load_prg(prg)
    return machine


def ready_machine(prg: bytes) -> tuple[Machine, dict]:
    """A machine with the program loaded, and its state to start each game from (restoring
    it costs a fifth of making a new machine)."""
    machine = new_machine(prg)
    return machine, machine.save()


def play_machine(prg: bytes, respond: Responder, budget: int = GAME_BUDGET,
                 ready: tuple[Machine, dict] | None = None) -> MachineGame:
    """Run the program from SYS 13312 and answer each guess it prints.  *ready*: a machine
    from ``ready_machine(prg)`` to play on (restored first)."""
    if ready is None:
        machine = new_machine(prg)
    else:
        machine = ready[0]
        machine.restore(ready[1])
    before = machine.instructions
    result = machine.run(SYS_ADDRESS, budget)
    seen = 0
    pending: list[bytes] = []  # the answer lines still to type for the current guess
    while result.reason is StopReason.INPUT_NEEDED:
        if not pending:
            found = parse_guesses(bytes(machine.output[seen:]))
            if not found:
                break  # asked for an answer without printing a guess: report as WAITING
            seen = len(machine.output)
            pending = list(respond(found[-1]))
        machine.feed(pending.pop(0) + b"\r")  # one line each time CHRIN waits
        result = machine.resume(budget)
    output = bytes(machine.output)
    return MachineGame(parse_guesses(output), _outcome(result.reason, output), output,
                       bytes(machine.screen), machine.instructions - before, result.message)


# After SYS returns, BASIC prints CR LF "READY." CR LF (the LFs go nowhere on the
# screen); before the program runs, BASIC ends the typed SYS line with a CR.
READY_TEXT = b"\r\nREADY.\r\n"
LINE_END = b"\r"


def play_c64(machine, respond: Responder | None = None, lines: Sequence[str] | None = None,
             budget: int = C64_GAME_BUDGET) -> MachineGame:
    """The same game on the whole C64 (``asm6502.emu.c64``): *machine* is
    booted with the program in memory; SYS 13312 and the answers are typed on
    its keyboard, one line each time the KERNAL waits for a key -- the
    *respond*er's answers to each guess, or the given *lines* in turn.  ``output``
    is the CHROUT transcript up to BASIC's READY. after the final RTS;
    ``instructions`` counts clock cycles here."""
    machine.transcript.clear()
    start = machine.cpu.cycles
    machine.type_text(b"SYS%d\r" % SYS_ADDRESS)
    stop = machine.run(budget)
    seen = 0
    pending: list[bytes] = []
    script = None if lines is None else [line.encode("latin-1") for line in lines]
    returned = False
    while stop.reason == "idle":
        out = bytes(machine.transcript)
        if out.endswith(READY_TEXT):
            returned = True
            break
        if script is not None:
            if not script:
                break
            pending = [script.pop(0)]
        elif not pending:
            assert respond is not None
            found = parse_guesses(out[seen:])
            if not found:
                break
            seen = len(out)
            pending = list(respond(found[-1]))
        machine.type_text(pending.pop(0) + b"\r")
        stop = machine.run(budget - (machine.cpu.cycles - start))
    output = bytes(machine.transcript)
    output = output.removeprefix(LINE_END)
    if returned:
        output = output[: -len(READY_TEXT)]
        outcome = "OK" if output.endswith(OK_TEXT) else "ERROR" if output.endswith(ERROR_TEXT) else "RETURNED"
    else:
        outcome = "WAITING" if stop.reason == "idle" else stop.reason.upper()
    return MachineGame(parse_guesses(output), outcome, output, b"", machine.cpu.cycles - start, stop.message)


def play_script(prg: bytes, lines: Iterable[str], budget: int = GAME_BUDGET) -> MachineGame:
    """Run the program with all answer lines typed ahead (like ``--input``)."""
    machine = new_machine(prg)
    machine.feed("".join(line + "\n" for line in lines))
    result = machine.run(SYS_ADDRESS, budget)
    output = bytes(machine.output)
    return MachineGame(parse_guesses(output), _outcome(result.reason, output), output,
                       bytes(machine.screen), machine.instructions, result.message)


# --- the article's example and ERROR cases -----------------------------------------------
@dataclass(frozen=True)
class Scenario:
    name: str
    source: str
    lines: tuple[str, ...]
    guesses: tuple[str, ...]
    outcome: str


_EXAMPLE = ("1", "1", "0", "0", "1", "2", "1", "2", "3", "0")
_EXAMPLE_GUESSES = ("1234", "2211", "4333", "3344", "3435", "3436")
SCENARIOS: tuple[Scenario, ...] = (
    Scenario("worked example, secret 3436", "article 'Beispiel'", _EXAMPLE + ("4",), _EXAMPLE_GUESSES, "OK"),
    Scenario("0/0 to the sixth guess", "article 'Hinweise'", _EXAMPLE + ("0", "0"), _EXAMPLE_GUESSES, "ERROR"),
    Scenario("impossible 6 blacks", "article 'Hinweise'", ("6", "0"), ("1234",), "ERROR"),
    Scenario("empty line for the blacks", "CHRIN returns $20 for an empty line", ("", "0"), ("1234",), "ERROR"),
    Scenario("a letter for the blacks", "a non-digit answer", ("A", "0"), ("1234",), "ERROR"),
)


@dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    game: MachineGame

    @property
    def passed(self) -> bool:
        got = tuple(code_text(g) for g in self.game.guesses)
        return got == self.scenario.guesses and self.game.outcome == self.scenario.outcome


NEVER_ENDS = ("BUDGET", "CYCLES")  # the outcome of a game that used up its budget


def check_scenarios(prg: bytes, roms=None, model=None) -> list[ScenarioResult]:
    """The article's scenarios in turn; only the first when it never ends (the others would too)."""
    c64 = booted_c64(prg, roms, model) if roms is not None else None
    results = []
    for s in SCENARIOS:
        if c64 is not None:
            c64[0].load_state(c64[1])
            game = play_c64(c64[0], lines=s.lines)
        else:
            game = play_script(prg, s.lines)
        results.append(ScenarioResult(s, game))
        if game.outcome in NEVER_ENDS:
            break
    return results


def booted_c64(prg: bytes, roms, model=None):
    """A C64 (``asm6502.emu.c64``) of *model* (``c64models.Model``; None: the default) on *roms* at
    READY. with the program in memory, and that state."""
    from asm6502.emu.c64 import session

    machine = session.boot(roms, model=model or c64models.DEFAULT)
    machine.inject_prg(prg)
    return machine, machine.save_state()


# --- the sweep over every secret -----------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    secret: str
    guesses: tuple[str, ...]
    outcome: str
    instructions: int
    seconds: float  # CPU seconds (process time) to play and check this game
    problems: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.problems


def check_game(prg: bytes, secret: Code, c64=None, ready: tuple[Machine, dict] | None = None) -> GameRecord:
    """Play ``secret`` truthfully; compare with the model guess by guess and byte by byte.
    *c64*: (machine, state) -- play on the C64 with the user's ROMs from that state instead;
    *ready*: the machine to play on without them (``ready_machine``)."""
    started = time.process_time()
    if c64 is not None:
        machine, state = c64
        machine.load_state(state)
        game = play_c64(machine, truthful(secret))
    else:
        game = play_machine(prg, truthful(secret), ready=ready)
    model = model_play(truthful(secret))
    seconds = time.process_time() - started  # CPU time of this game, emulation + model
    problems = []
    if game.outcome != "OK":
        problems.append(f"game ended with {game.outcome} ({game.message}), not OK")
    if not game.guesses or game.guesses[-1] != secret:
        problems.append("last guess is not the secret")
    for n, (got, want) in enumerate(itertools.zip_longest(game.guesses, model.guesses), 1):
        if got != want:
            got_t = code_text(got) if got else "nothing"
            want_t = code_text(want) if want else "nothing"
            problems.append(f"guess {n}: program {got_t}, model {want_t}")
            break
    if not problems and game.output != model.expected_output():
        problems.append(f"output differs from the model's: {petscii_to_text(game.output)!r}")
    return GameRecord(code_text(secret), tuple(code_text(g) for g in game.guesses), game.outcome,
                      game.instructions, seconds, tuple(problems))


def _check_chunk(task) -> list[GameRecord]:
    prg, secrets, roms, model = task
    c64 = booted_c64(prg, roms, model) if roms is not None else None
    ready = ready_machine(prg) if roms is None else None
    return [check_game(prg, s, c64, ready) for s in secrets]


PARENT_POLL_SECONDS = 0.2


def _exit_with_parent(parent: int) -> None:
    """Pool initializer: a worker ends itself when the process that started it is gone.

    A killed parent never closes the pool's task pipe (forked workers hold its write
    end too), so without this the workers would wait on it for ever.

    A worker ignores Ctrl-C (SIGINT goes to the terminal's whole process group): the parent
    takes it, ends the pool and says so once; a worker's KeyboardInterrupt would print its traceback.
    """
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def iter_sweep(prg: bytes, secrets: Sequence[Code] | None = None, jobs: int = 2,
               chunk: int = 6, roms=None, model=None) -> Iterator[GameRecord]:
    """Yield a GameRecord per secret (in completion order), ``jobs`` processes.
    *roms* (``c64.machine.RomImages``): play on the whole C64 (one boot per chunk), a C64 of
    *model* (``c64models.Model``; None: the default)."""
    secrets = list(program_order() if secrets is None else secrets)
    if roms is not None:
        chunk = max(chunk, 24)
    tasks = [(prg, tuple(secrets[i : i + chunk]), roms, model) for i in range(0, len(secrets), chunk)]
    if jobs <= 1:
        for task in tasks:
            yield from _check_chunk(task)
        return
    # fork where the OS has it (no re-import of the caller's main module);
    # the workers only run games, never the parent's threads or progress bar
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(jobs, _exit_with_parent, (os.getpid(),)) as pool:
        for records in pool.imap_unordered(_check_chunk, tasks):
            yield from records


@dataclass(frozen=True)
class SweepReport:
    games: tuple[GameRecord, ...]
    wall_seconds: float
    jobs: int
    scenarios: tuple[ScenarioResult, ...] = field(default=())
    on_c64: bool = False  # played on the whole C64: ``instructions`` are clock cycles

    @property
    def failures(self) -> tuple[GameRecord, ...]:
        return tuple(g for g in self.games if not g.passed)

    @property
    def distribution(self) -> dict[int, int]:
        return dict(sorted(Counter(len(g.guesses) for g in self.games).items()))

    @property
    def max_guesses(self) -> int:
        return max(len(g.guesses) for g in self.games)

    @property
    def mean_guesses(self) -> float:
        return sum(len(g.guesses) for g in self.games) / len(self.games)

    @property
    def worst(self) -> tuple[str, ...]:
        return tuple(g.secret for g in self.games if len(g.guesses) == self.max_guesses)

    @property
    def over_claim(self) -> tuple[str, ...]:
        return tuple(g.secret for g in self.games if len(g.guesses) > CLAIMED_MAX_GUESSES)

    @property
    def instructions(self) -> int:
        return sum(g.instructions for g in self.games)

    @property
    def cpu_seconds(self) -> float:
        return sum(g.seconds for g in self.games)

    @property
    def all_passed(self) -> bool:
        return not self.failures and all(s.passed for s in self.scenarios)

    @property
    def claim_holds(self) -> bool:
        """"findet jede Kombination ... in maximal sechs Versuchen": every game OK within 6."""
        return not self.failures and self.max_guesses <= CLAIMED_MAX_GUESSES

    def to_json(self) -> dict:
        return {
            "secrets": len(self.games),
            "all_passed": self.all_passed,
            "claim_max_6_guesses_holds": self.claim_holds,
            "distribution": {str(k): v for k, v in self.distribution.items()},
            "mean_guesses": round(self.mean_guesses, 4),
            "max_guesses": self.max_guesses,
            "worst_secrets": list(self.worst),
            "secrets_over_6_guesses": len(self.over_claim),
            "instructions": self.instructions,
            "instructions_per_second": round(self.instructions / self.wall_seconds) if self.wall_seconds else None,
            "cpu_seconds": round(self.cpu_seconds, 2),
            "instructions_per_cpu_second": round(self.instructions / self.cpu_seconds)
            if self.cpu_seconds else None,
            "wall_seconds": round(self.wall_seconds, 2),
            "jobs": self.jobs,
            "failures": [{"secret": g.secret, "problems": list(g.problems)} for g in self.failures],
            "scenarios": [
                {"name": s.scenario.name, "source": s.scenario.source, "passed": s.passed,
                 "guesses": [code_text(g) for g in s.game.guesses], "outcome": s.game.outcome}
                for s in self.scenarios
            ],
        }

    def render(self) -> str:
        where = "on the C64 with its real ROMs" if self.on_c64 else "in py65"
        lines = [f"Superhirn II: the machine code played against every secret {where}", ""]
        for s in self.scenarios:
            mark = "ok  " if s.passed else "FAIL"
            got = " ".join(code_text(g) for g in s.game.guesses)
            lines.append(f"{mark} {s.scenario.name}: {got} -> {s.game.outcome} ({s.scenario.source})")
        if self.scenarios:
            lines.append("")
        n = len(self.games)
        passed = n - len(self.failures)
        lines.append(f"games: {n}, ended with OK on the secret and matched the model: {passed}")
        for g in self.failures[:20]:
            lines.append(f"  FAIL {g.secret}: {'; '.join(g.problems)}")
        lines.append("guesses  games")
        for k, v in self.distribution.items():
            lines.append(f"{k:7d}  {v:5d}")
        lines.append(f"mean {self.mean_guesses:.4f} guesses, maximum {self.max_guesses}")
        worst = self.worst
        shown = " ".join(worst[:24]) + (" ..." if len(worst) > 24 else "")
        lines.append(f"secrets needing {self.max_guesses} guesses ({len(worst)}): {shown}")
        over = len(self.over_claim)
        lines.append(f"secrets needing more than {CLAIMED_MAX_GUESSES} guesses: {over} of {n} ({over / n:.1%})")
        rate = self.instructions / self.wall_seconds if self.wall_seconds else 0
        per_process = self.instructions / self.cpu_seconds if self.cpu_seconds else 0
        unit = "C64 clock cycles" if self.on_c64 else "6502 instructions executed"
        lines.append(f"{unit}: {self.instructions:,} in {self.wall_seconds:.1f} s wall "
                     f"with {self.jobs} job(s): {rate:,.0f}/s; {self.cpu_seconds:.1f} CPU s, "
                     f"{per_process:,.0f}/s per CPU second")
        verdict = "HOLDS" if self.claim_holds else "DOES NOT HOLD"
        lines.append(f'article claim "in maximal sechs Versuchen": {verdict} '
                     f"(maximum {self.max_guesses} guesses)")
        return "\n".join(lines)


def sweep(prg: bytes, secrets: Sequence[Code] | None = None, jobs: int = 2,
          progress: Callable[[GameRecord], None] | None = None, scenarios: bool = True,
          roms=None, model=None) -> SweepReport:
    """Play every secret (default all 1296) and the article's scenarios; build the report.
    *roms*: on the whole C64 with these ROM images (counts are clock cycles then), a C64 of
    *model* (``c64models.Model``; None: the default)."""
    checked = tuple(check_scenarios(prg, roms, model)) if scenarios else ()
    if checked and checked[0].game.outcome in NEVER_ENDS:
        # a program that never finishes a game would take the whole budget for every secret
        unit = f"{C64_GAME_BUDGET:,} clock cycles" if roms is not None else f"{GAME_BUDGET:,} instructions"
        raise DiagnosticError([error(f"the program did not finish the article's worked example within {unit} "
                                     "(a game needs a tenth of that or less): it never stops; no secret was played")])
    started = time.perf_counter()
    games = []
    for record in iter_sweep(prg, secrets, jobs, roms=roms, model=model):
        games.append(record)
        if progress is not None:
            progress(record)
    wall = time.perf_counter() - started
    games.sort(key=lambda g: g.secret)
    return SweepReport(tuple(games), wall, jobs, checked, on_c64=roms is not None)
