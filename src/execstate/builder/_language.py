"""What a language must provide to the builder: one small protocol, and its Python implementation.

The builder, the admission checks and the records never look at the language;
a C++ adapter implements the same protocol (compile once, instrument with the
same modes, measure with coverage counts).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from execstate.builder._candidates import Candidate, python_candidates, python_loops
from execstate.builder._python import (
    COUNT_MARKER,
    AnchorError,
    Instrumented,
    Mode,
    check_variables,
    instrument,
    resolve_loop,
)
from execstate.environments import Environment
from execstate.errors import ExecstateError
from execstate.metrics import Measurement, cyclomatic, measure
from execstate.sandbox import Limits, SandboxResult, run_python, run_script, scrubbed_env

_TRANSITIONS = Path(__file__).with_name("_transitions.py")
"""The script that records a Python run's line-to-line transitions (branch-preserving pairs)."""


class LanguageError(ExecstateError, ValueError):
    """The program does not fit the language's rules; ``key`` names the spec key to fix."""

    def __init__(self, key: str, problem: str, fix: str) -> None:
        self.key, self.problem, self.fix = key, problem, fix
        super().__init__(f"{problem}. Fix: {fix}")


class Language(Protocol):
    """Operations the builder needs from a language. ``workdir`` is a private scratch directory."""

    @property
    def name(self) -> str:
        """The ``language`` value of case specs this implementation builds (``"python"``)."""

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        """Validate the program and return the selected loop's 1-based header line (``LanguageError``)."""

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
        ``workdir``, under the limits (``seed``: Python's hash seed).

        Nothing one run leaves behind (a planted module, a file it reads back) reaches another run.
        """

    def iterations(self, counted: SandboxResult) -> int | None:
        """K from a run of the ``count`` variant, or None if it did not report."""

    def measure(self, source: str, stdin: bytes, inst: Instrumented | None, *, state: bool) -> Measurement:
        """Execution metrics of the clean run (``inst`` None) or up to the checkpoint of ``inst``.

        Every limit of a run applies (time may be scaled for the measuring overhead), and each
        measurement runs a fresh copy alone in a fresh directory, like ``run``.
        """

    def cyclomatic(self, source: str) -> int | None:
        """Cyclomatic complexity of the clean source."""

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        """What each task records of the toolchain that ran and measured it (interpreter, compiler)."""

    def loops(self, source: str) -> list[int]:
        """Header lines of the loops a checkpoint may select, in order (for ``execstate construct``)."""

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """The branch outcomes a clean run on ``stdin`` takes in the program's own code; None if it fails.

        Two inputs whose sets are equal take the same branches (SPEC 5, branch-preserving pairs).
        """

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        """Variables the loop binds in its header or assigns in its body that a projection may hold."""

    def with_environment(self, env: Environment) -> Language:
        """This language with every run, instrumented copy and measurement seeing ``env`` (its packages
        for Python, its include directories for C++)."""


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


@dataclass(frozen=True)
class PythonLanguage:
    """CPython programs, run and measured by ``python`` (default: the running interpreter).

    A measurement runs under ``limits`` with wall and CPU time multiplied by
    ``measure_factor`` (tracing every instruction is slower than a plain run).
    """

    limits: Limits = Limits()  # noqa: RUF009 (Limits is frozen: one shared default is safe)
    python: str = sys.executable
    measure_factor: float = 6.0
    filename: str = "main.py"
    name: str = "python"
    library: Path | None = None
    """A declared environment's package folder, read-only on every run's ``sys.path`` (None: stdlib only)."""

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        try:
            compile(source, self.filename, "exec")
        except SyntaxError as exc:
            raise LanguageError("program", f"syntax error at line {exc.lineno}: {exc.msg}", "fix the program") from None
        try:
            line = resolve_loop(source, loop, loop_text)
            check_variables(source, variables)
        except AnchorError as exc:
            raise LanguageError(exc.key, exc.problem, exc.fix) from None
        return line

    def instrument(
        self, source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
    ) -> Instrumented:
        return instrument(source, loop_line, variables, mode, k, active=active)

    def disabled(self, inst: Instrumented) -> str:
        return inst.source.replace(f"{inst.prefix}active = True\n", f"{inst.prefix}active = False\n", 1)

    def run(
        self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0, args: tuple[str, ...] = ()
    ) -> SandboxResult:
        with tempfile.TemporaryDirectory(prefix="run-", dir=workdir, ignore_cleanup_errors=True) as fresh:
            path = Path(fresh) / self.filename
            path.write_text(source, encoding="utf-8")
            return run_python(
                path, stdin, self.limits, python=self.python, hash_seed=seed, args=args, library=self.library
            )

    def measure_limits(self) -> Limits:
        """``limits`` scaled for a measurement (``measurement_limits``)."""
        return measurement_limits(self.limits, self.measure_factor)

    def iterations(self, counted: SandboxResult) -> int | None:
        found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", counted.stderr)
        return int(found[-1]) if counted.ok and found else None

    def measure(self, source: str, stdin: bytes, inst: Instrumented | None, *, state: bool) -> Measurement:
        return measure(
            source,
            stdin,
            filename=self.filename,
            python=self.python,
            state=state,
            exclude_lines=inst.inserted_lines if inst else frozenset(),
            hidden_prefix=inst.prefix if inst else None,
            limits=self.measure_limits(),
            library=self.library,
        )

    def cyclomatic(self, source: str) -> int | None:
        return cyclomatic(source)

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        return {"python": measured.python}

    def loops(self, source: str) -> list[int]:
        return python_loops(source)

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """The executed line-to-line transitions of the program's own lines (0: entering or leaving a frame)."""
        with tempfile.TemporaryDirectory(prefix="arcs-", dir=workdir, ignore_cleanup_errors=True) as fresh:
            res = run_script(
                self.python,
                _TRANSITIONS,
                ["{cwd}/" + self.filename, "{cwd}/transitions.json"],
                stdin,
                self.measure_limits(),
                env=scrubbed_env(0),
                cwd=Path(fresh),
                files={self.filename: source.encode("utf-8")},
                library=self.library,
            )
            out = Path(fresh) / "transitions.json"
            if not res.ok or not out.is_file():
                return None
            try:
                pairs = json.loads(out.read_text(encoding="utf-8"))
                return frozenset((int(a), int(b)) for a, b in pairs)
            except (ValueError, TypeError):
                return None

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        return python_candidates(source, loop_line)

    def with_environment(self, env: Environment) -> PythonLanguage:
        return replace(self, library=env.site)
