"""What a language must provide: the builder's protocol, construct's protocol, and the types adapters share.

The builder, the admission checks and the records never look at the language:
they call a ``Language`` (``_python_language.PythonLanguage``,
``cpp.language.CppLanguage``), which the registry (``_languages``) makes from a
case spec's ``language`` name. ``execstate construct`` needs a little more of a
language (which loops and variables a checkpoint may select, which branches an
input takes): ``ConstructLanguage``. An adapter may implement both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol, Self, runtime_checkable

from execstate.environments import Environment
from execstate.errors import SpecProblem
from execstate.languages._candidates import Candidate
from execstate.languages._variants import SourceVariant
from execstate.metrics import Measurement
from execstate.sandbox import Limits, SandboxResult

Mode = Literal["inside", "post", "count"]
"""Instrumentation modes every language offers (see ``_python.py``)."""
COUNT_MARKER = "__execstate_iterations__="
"""A ``count`` copy writes ``\\n`` + this + K + ``\\n`` to stderr at exit (every language's instrumentation)."""


@dataclass(frozen=True)
class Instrumented:
    """An instrumented copy and which of its lines were inserted (1-based)."""

    source: str
    inserted_lines: frozenset[int]
    prefix: str


@dataclass(frozen=True)
class Variation:
    """One run of the determinism checks: the ``seed`` ``Language.run`` gets, and how messages name the run."""

    seed: int
    name: str
    """E.g. ``PYTHONHASHSEED=1`` (Python) or ``run 2 of 3`` (a language whose runs take no seed)."""


@dataclass(frozen=True)
class Endpoint:
    """What one measurement of a case measures: the case's loop and projection, the arm's endpoint, and the copy.

    ``mode`` ``final``: the clean program to its end (``inst`` None); ``inside``/``post``: the instrumented
    copy ``inst`` of that mode at iteration ``k``, to its checkpoint. A language whose state metrics come
    from its own observation of the loop (C++) reads the loop and variables here.
    """

    loop_line: int
    variables: tuple[str, ...]
    mode: Literal["final", "inside", "post"] = "final"
    k: int | None = None
    inst: Instrumented | None = None


CheckpointFault = tuple[Literal["unbound", "refused"], str]
"""Why an instrumented run failed because of its checkpoint, and the program's error line saying so."""


class Language(Protocol):
    """Operations the builder needs from a language. ``workdir`` is a private scratch directory."""

    @property
    def name(self) -> str:
        """The ``language`` value of case specs this implementation builds (its registry name)."""

    @property
    def toolchain_key(self) -> str:
        """The ``Task.meta`` key holding the version of the interpreter or compiler that ran and measured a
        task (``python``, ``compiler``): the adapter's own key, written by ``toolchain_meta``."""

    @property
    def variations(self) -> tuple[Variation, ...]:
        """The runs whose outputs must agree (checks ``determinism`` and ``oracle-determinism``), reference
        first; their seeds are recorded in every task's meta (``hash_seeds``)."""

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        """Validate the program and return the selected loop's 1-based header line (``SpecProblem``)."""

    def instrument(
        self, source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
    ) -> Instrumented:
        """The instrumented copy for ``mode`` (``inside``, ``post`` or ``count``)."""

    def disabled(self, inst: Instrumented) -> str:
        """The preservation variant: ``inst`` with guards that never fire and output not silenced."""

    def run(
        self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0, args: tuple[str, ...] = ()
    ) -> SandboxResult:
        """Run a fresh copy of a program text with command-line ``args``, alone in a fresh directory under
        ``workdir``, under the limits (``seed``: a ``Variation``'s seed).

        Nothing one run leaves behind (a planted module, a file it reads back) reaches another run.
        """

    def iterations(self, counted: SandboxResult) -> int | None:
        """K from a run of the ``count`` variant, or None if it did not report."""

    def checkpoint_fault(self, stderr: bytes) -> CheckpointFault | None:
        """Why a failed run of an inside/post copy failed, when the checkpoint is the cause: a projected
        variable not bound there (``unbound``) or a projected value the emitter refuses (``refused``),
        with the error line; None for any other failure."""

    def measure(self, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool) -> Measurement:
        """Execution metrics of the clean program ``source`` to its end (``endpoint`` None or its ``inst`` None),
        or of ``endpoint.inst`` to its checkpoint. ``state=False``: ``trace_length`` only.

        Every limit of a run applies (time may be scaled for the measuring overhead), and each
        measurement runs a fresh copy alone in a fresh directory, like ``run``.
        """

    def cyclomatic(self, source: str) -> int | None:
        """Cyclomatic complexity of the clean source."""

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        """What each task records of the toolchain that ran and measured it (under ``toolchain_key``, plus
        anything else, such as compiler flags)."""

    def build_meta(self) -> dict[str, Any]:
        """What the build's manifest records of this language's toolchain (``BuildManifest`` fields); called
        once per build for each language its specs name."""

    def with_environment(self, env: Environment) -> Self:
        """This language with every run, instrumented copy and measurement seeing ``env`` (its packages
        for Python, its include directories for C++)."""


@runtime_checkable
class ConstructLanguage(Language, Protocol):
    """What ``execstate construct`` needs besides the builder's operations: where a checkpoint may go."""

    def loops(self, source: str) -> list[int]:
        """Header lines of the loops a checkpoint may select, in order."""

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        """Variables the loop binds in its header or assigns in its body that a projection may hold."""

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """The branch outcomes a clean run on ``stdin`` takes in the program's own code; None if it fails.

        Two inputs whose sets are equal take the same branches (SPEC 5, branch-preserving pairs).
        """

    def program_text(self, path: Path) -> tuple[str, list[str]]:
        """The program at ``path`` as the one file a case holds, and the names of the files beside it that
        were folded into it (C++: the local headers it ``#include``s; none for a language without them)."""


@runtime_checkable
class CheckpointMeasuring(Language, Protocol):
    """A language that measures a case's long input once for every arm: the clean program's metrics to its end
    and each state endpoint's at its checkpoint, from one run instead of one per arm, with the same numbers."""

    def measure_checkpoints(
        self, source: str, stdin: bytes, endpoints: tuple[Endpoint, ...]
    ) -> tuple[Measurement, tuple[Measurement, ...]] | None:
        """The clean run's ``measure(source, stdin, None, state=True)`` and, per endpoint (all on one loop
        and projection), what ``measure(source, stdin, endpoint, state=True)`` gives, from one run; equal
        to those numbers exactly. A failed run is the first item with every endpoint failing alike.

        None when this case cannot be measured so (the caller measures each arm on its own).
        """


@runtime_checkable
class StatePredicting(Language, Protocol):
    """A language that predicts what walking a run's state will cost before it is walked in full."""

    def predict_state(self, source: str, stdin: bytes, stride: int) -> Measurement:
        """The clean run measured with a sampled walk: the state at every ``stride``-th observation only (a fixed
        stride: the same numbers on every machine). Its ``state_load`` and ``state_objects`` times ``stride``
        estimate the full walk's; it stops (status ``budget``) once that estimate is over a budget."""


DEFAULT_TRACE_STEPS = 8
"""The default cap on a ``loop-trace`` task's steps (a case spec's ``[checkpoint] trace_steps`` changes it)."""


@runtime_checkable
class LoopTracing(Language, Protocol):
    """A language whose programs can be posed the ``loop-trace`` arm: a copy that prints the projection at the top of
    each of the first iterations of the loop execution that holds the inside checkpoint."""

    def trace_copy(
        self, source: str, loop_line: int, variables: tuple[str, ...], k: int, steps: int, *, active: bool = True
    ) -> Instrumented:
        """The ``loop-trace`` copy: like the inside copy at iteration ``k`` (output silenced, the same count and the
        same top-of-iteration point), but each execution of the loop keeps the projection at the top of its first
        ``steps`` iterations, and at the top of iteration ``k`` the copy prints, as one line, the canonical JSON list
        of those kept by the execution holding ``k`` (``min(steps, j)`` objects, ``j``: ``k``'s place in its
        execution, 1-based) and stops with status 0. A projection that fails at a kept step fails the run, as the
        inside copy fails at its checkpoint. ``active=False``: the preservation variant (``disabled`` of it)."""


@dataclass(frozen=True)
class BranchLine:
    """A line a ``line-count`` task may mark: the first line of a one-line statement directly in one arm of a
    branch inside the selected loop's body."""

    line: int
    """The statement's line (1-based, in the clean source)."""
    branch_line: int
    """The line of the condition that decides this arm: the ``if``/``elif`` (Python) or ``if`` (C++) whose test
    runs each time the arm may be taken (an ``else`` arm's is its ``if``'s, or the last ``elif``'s)."""
    arm: Literal["then", "else"]
    """Which arm of that condition the statement is in."""


@runtime_checkable
class LineCounting(Language, Protocol):
    """A language whose programs can be posed the ``line-count`` arm: per-line execution counts of a clean run."""

    def line_counts(self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0) -> dict[int, int] | None:
        """How many times each line of the program's own code ran on ``stdin`` (Python: line events in the
        program's own frames; C++: gcov's line counts), in a run with a ``Variation``'s ``seed`` (a language
        whose runs take no seed ignores it); lines that never ran may be absent. None if the run failed or
        could not be counted."""

    def branch_lines(self, source: str, loop_line: int) -> list[BranchLine]:
        """Every line a line count may mark inside the body of the loop at ``loop_line`` (nested loops' bodies
        included), in line order: the first line of each arm's first statement, when that statement starts and
        ends on the line, is not itself a loop, and holds nothing that runs as code of its own (Python: no lambda,
        comprehension or generator expression; C++: no lambda), and no other statement starts on the line."""


@runtime_checkable
class SourceVarying(Language, Protocol):
    """A language whose programs can be re-issued as source variants that keep their meaning (``build --variants``)."""

    @property
    def source_variants(self) -> tuple[str, ...]:
        """The variant names ``make_variant`` makes (a subset of ``_variants.VARIANTS``)."""

    def make_variant(self, source: str, name: str, seed: int) -> SourceVariant:
        """The ``name`` variant of ``source`` drawn with ``seed``: a pure function of the three. Whether it keeps the
        program's meaning is for the builder to check by running it."""


STATE_FAILED = "!"
"""What a states copy prints after a label whose projection fails there (unbound, refused): no state."""


@runtime_checkable
class CheckpointStates(Language, Protocol):
    """A language whose states at many checkpoints of one run come from one copy: the state oracles of every
    seed, a sweep's, and the neighbour oracles, from one run per seed instead of one run per checkpoint."""

    def states_copy(
        self,
        source: str,
        loop_line: int,
        variables: tuple[str, ...],
        k: int,
        inside: tuple[int, ...],
        window: tuple[int, int],
        *,
        stop: bool,
        marks: tuple[int, ...] = (),
    ) -> Instrumented:
        """A copy whose run prints, with the program's own output silenced, one line ``label<TAB>state``
        per checkpoint: ``inside@i`` for each ``i`` in ``inside``, and ``post@i,j,...`` at the exit of each
        execution of the loop that ran iterations ``i, j, ...`` within ``window`` (bounds included) or in
        ``marks`` (the neighbour search's galloping points, ``gallop_points``). The
        state is what the inside or post copy of such an iteration prints, or ``!`` where that copy would
        fail at its checkpoint. ``stop``: exit once the execution holding ``k`` printed its exit and the
        last ``inside`` iteration is past (else run to the end)."""


MEASURE_WALL_SLACK = 3.0
"""A measurement's wall-clock limit is this many times its CPU limit (``measurement_limits``)."""


def measurement_limits(limits: Limits, factor: float) -> Limits:
    """The limits of a measurement: CPU time ``factor`` times the run's, wall clock ``MEASURE_WALL_SLACK`` times
    that CPU limit (at least ``factor`` times the run's wall clock); memory, output and file size unchanged.

    CPU time is what bounds a measurement's work: it does not grow when other jobs share the cores, so a case
    is admitted or excluded alike on an idle and on a loaded machine. The wall clock only guards against a
    program that sleeps or blocks; were it equal to the CPU limit, a long measurement sharing its core with
    another job would time out (seen: a 333K-event state measurement during a concurrent test run).
    """
    cpu = limits.cpu_s * factor
    return replace(limits, cpu_s=cpu, wall_s=max(limits.wall_s * factor, cpu * MEASURE_WALL_SLACK))


def source_lines(source: str) -> list[str]:
    """Lines as Python counts them (ends: \\n, \\r\\n, \\r only; not form feed or \\u2028), ends kept."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", source)


def line_of_text(lines: list[str], loop_text: str) -> int:
    """The 1-based line whose stripped text is ``loop_text``; ``SpecProblem`` if none or several are."""
    hits = [i + 1 for i, line in enumerate(lines) if line.strip() == loop_text]
    if not hits:
        raise SpecProblem(
            "checkpoint.loop_text",
            f"no line of the program is exactly {loop_text!r}",
            "copy the loop header line exactly (surrounding spaces are ignored)",
        )
    if len(hits) > 1:
        raise SpecProblem(
            "checkpoint.loop_text",
            f"{loop_text!r} is ambiguous: it occurs on lines {hits}",
            "use `loop = <line>` instead, or make the header unique",
        )
    return hits[0]


def refusal_line(stderr: str, marker: str) -> str | None:
    """The line of ``stderr`` that says a projected value was refused (it holds ``marker``): the first
    that is an error line (``...Error:``, ``error:``), else the last holding the marker; None if none does.

    The error line names the value's type or the variable; a quoted source line holding the marker does not.
    """
    refusals = [line.strip() for line in stderr.splitlines() if marker in line]
    errors = [line for line in refusals if "Error:" in line or "error:" in line]
    return errors[0] if errors else (refusals[-1] if refusals else None)
