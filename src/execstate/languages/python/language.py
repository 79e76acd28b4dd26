"""Python as a builder language: ast instrumentation (``_python.py``), runs in the sandbox, the tracing probe's metrics.

The registry's ``python`` adapter (``Language`` and ``ConstructLanguage``), and the runner of
the builder's own helper programs (input generators, invariant audits), which are Python
programs whatever the case's language (``_languages.helper_language``).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from execstate.environments import Environment
from execstate.errors import SpecProblem
from execstate.languages._candidates import Candidate, python_candidates, python_loops
from execstate.languages._protocol import (
    COUNT_MARKER,
    BranchLine,
    CheckpointFault,
    Endpoint,
    Instrumented,
    Mode,
    Variation,
    measurement_limits,
    refusal_line,
)
from execstate.languages.python.branches import branch_lines
from execstate.languages.python.instrument import (
    DIGIT_LIMIT_ENV,
    SNAPSHOT_HOOK,
    check_variables,
    emitter_over_digit_limit,
    instrument,
    instrument_with_origins,
    measurement_copy,
    over_digit_limit,
    resolve_loop,
    states_copy,
    trace_copy,
)
from execstate.languages.python.variants import VARIANTS, SourceVariant, make_variant
from execstate.metrics import Budget, Measurement, Snapshots, cyclomatic, measure
from execstate.sandbox import Limits, SandboxResult, program_directory, run_python, run_script, scrubbed_env

if TYPE_CHECKING:
    from execstate.languages._options import BuildOptions

HASH_SEEDS = (0, 1, 2)
"""The ``PYTHONHASHSEED`` values of the determinism runs: a program's output must not depend on them."""
_TRANSITIONS = Path(__file__).with_name("_transitions.py")
"""The script that records a Python run's line-to-line transitions (branch-preserving pairs)."""
_REFUSAL = "not JSON-representable"
"""What the inserted emitter's TypeError says of a projected value it cannot write as JSON."""


@dataclass(frozen=True)
class PythonLanguage:
    """CPython programs, run and measured by ``python`` (default: the running interpreter).

    A measurement runs under ``limits`` with wall and CPU time multiplied by
    ``measure_factor`` (tracing every instruction is slower than a plain run).
    ``filename`` is the name each run gives the program (``gen.py`` for an input generator).
    """

    limits: Limits = Limits()  # noqa: RUF009 (Limits is frozen: one shared default is safe)
    python: str = sys.executable
    measure_factor: float = 10.0
    filename: str = "main.py"
    name: str = "python"
    toolchain_key: str = "python"
    """Tasks record the interpreter's version under ``meta["python"]``."""
    variations: tuple[Variation, ...] = tuple(Variation(seed, f"PYTHONHASHSEED={seed}") for seed in HASH_SEEDS)
    library: Path | None = None
    """A declared environment's package folder, read-only on every run's ``sys.path`` (None: stdlib only)."""
    extra_env: tuple[tuple[str, str], ...] = ()
    """Environment variables added to every plain run (``run``): a fresh build's ``EXECSTATE_SEED`` for generators."""
    budget: Budget = Budget()  # noqa: RUF009 (Budget is frozen: one shared default is safe)
    """Counted budgets of every measurement (``BuildOptions.budget``); none by default."""

    @classmethod
    def from_options(cls, opts: BuildOptions, filename: str = "main.py") -> PythonLanguage:
        """The adapter of a build with ``opts`` (its ``python``, limits, measure factor); programs are ``filename``."""
        return cls(opts.limits, opts.python, opts.measure_factor, filename, budget=opts.budget())

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        try:
            compile(source, self.filename, "exec")
        except SyntaxError as exc:
            raise SpecProblem("program", f"syntax error at line {exc.lineno}: {exc.msg}", "fix the program") from None
        line = resolve_loop(source, loop, loop_text)
        check_variables(source, variables)
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
        """One run of ``source`` in the sandbox. An inside or post copy whose emitter met the interpreter's limit
        on an int's digits runs again without it (``emitter_over_digit_limit``): the program's values print
        whatever their size, and the size check judges the state."""
        res = self._run(source, stdin, workdir, seed, args, {})
        if not res.ok and emitter_over_digit_limit(source, res.stderr.decode("utf-8", "replace")):
            res = self._run(source, stdin, workdir, seed, args, {DIGIT_LIMIT_ENV: "0"})
        return res

    def _run(
        self, source: str, stdin: bytes, workdir: Path, seed: int, args: tuple[str, ...], env: dict[str, str]
    ) -> SandboxResult:
        with tempfile.TemporaryDirectory(prefix="run-", dir=workdir, ignore_cleanup_errors=True) as fresh:
            path = Path(fresh) / self.filename
            path.write_text(source, encoding="utf-8")
            return run_python(
                path,
                stdin,
                self.limits,
                python=self.python,
                hash_seed=seed,
                args=args,
                library=self.library,
                extra_env={**dict(self.extra_env), **env},
            )

    def measure_limits(self) -> Limits:
        """``limits`` scaled for a measurement (``measurement_limits``)."""
        return measurement_limits(self.limits, self.measure_factor)

    def iterations(self, counted: SandboxResult) -> int | None:
        found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", counted.stderr)
        return int(found[-1]) if counted.ok and found else None

    def checkpoint_fault(self, stderr: bytes) -> CheckpointFault | None:
        """``unbound``: the run ended in a NameError or UnboundLocalError (its last line); ``refused``: the
        emitter's TypeError about a value that is not JSON-representable."""
        err = stderr.decode("utf-8", "replace")
        if "NameError" in err or "UnboundLocalError" in err:
            return "unbound", err.strip().splitlines()[-1]
        line = refusal_line(err, _REFUSAL)
        return ("refused", line) if line is not None else None

    def measure(self, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool) -> Measurement:
        """The probe's metrics; an instrumented copy's inserted lines and names are not the program's, so
        they are neither counted nor state (the checkpoint needs no other knowledge of the loop)."""
        inst = endpoint.inst if endpoint is not None else None
        m = self._probe(inst or Instrumented(source, frozenset(), ""), stdin, state=state)
        if inst is not None and m.status == "crash" and over_digit_limit(m.detail) and _emits(inst):
            # the copy's emitter met the interpreter's digit limit (a program that met it would have failed its
            # clean run first): measured again without it, as ``run`` runs such a copy again
            m = self._probe(inst, stdin, state=state, max_str_digits=0)
        return m

    def _probe(
        self,
        copy: Instrumented,
        stdin: bytes,
        *,
        state: bool,
        snapshots: Snapshots | None = None,
        max_str_digits: int | None = None,
    ) -> Measurement:
        """``measure`` of a program text under this adapter's interpreter, limits and environment; ``copy``'s
        inserted lines are not counted and names with its prefix are not state (no prefix: the clean program)."""
        return measure(
            copy.source,
            stdin,
            filename=self.filename,
            python=self.python,
            state=state,
            exclude_lines=copy.inserted_lines,
            hidden_prefix=copy.prefix or None,
            limits=self.measure_limits(),
            library=self.library,
            snapshots=snapshots,
            max_str_digits=max_str_digits,
            budget=self.budget,
        )

    def predict_state(self, source: str, stdin: bytes, stride: int) -> Measurement:
        """The clean run with a sampled walk (``StatePredicting``): each budget of the walk divided by ``stride``,
        so the run stops as soon as its estimate is over the full budget."""
        b = self.budget
        scaled = replace(
            b,
            state_slots=None if b.state_slots is None else b.state_slots // stride,
            state_objects=None if b.state_objects is None else b.state_objects // stride,
        )
        return measure(
            source,
            stdin,
            filename=self.filename,
            python=self.python,
            state=True,
            limits=self.measure_limits(),
            library=self.library,
            budget=scaled,
            state_stride=stride,
        )

    def measure_checkpoints(
        self, source: str, stdin: bytes, endpoints: tuple[Endpoint, ...]
    ) -> tuple[Measurement, tuple[Measurement, ...]] | None:
        """One run of the measurement copy (``_python.measurement_copy``): its checkpoints call the probe's
        snapshot hook where the inside and post copies print and stop, and it runs on to the end.

        Its inserted lines and names are neither counted nor state, as in every copy; the probe first
        checks, by compiling, that the copy's own instructions are those of the clean program and of
        each endpoint's copy, line by line. Where the test after the loop takes over an instruction the
        compiler gave the loop's line (the jump back of an enclosing loop, an implicit return), the post
        checkpoint is measured by its own run of the post copy and the rest still share one run; a loop
        body on its header's line (the copies split it) or a jump that grows an EXTENDED_ARG leaves None.
        """
        loop_line, variables = endpoints[0].loop_line, endpoints[0].variables
        if any(e.loop_line != loop_line or e.variables != variables or e.inst is None for e in endpoints):
            return None
        copies = []
        for e in endpoints:
            inst, origins = instrument_with_origins(source, loop_line, variables, e.mode, e.k or 1)  # type: ignore[arg-type]
            if e.inst is None or inst.source != e.inst.source:
                return None  # not a copy this adapter made: measure it on its own
            copies.append((inst.source, tuple(origins)))
        posts = {e.k for e in endpoints if e.mode == "post"}
        if len(posts) > 1:
            return None
        inside = tuple(e.k or 0 for e in endpoints if e.mode == "inside")
        k = posts.pop() if posts else None
        m = self._snapshot_run(source, stdin, loop_line, k, inside, copies)
        alone: dict[int, Measurement] = {}
        if m.status == "inexact" and k is not None:  # the post test is what differs: measure post on its own
            keep = [i for i, e in enumerate(endpoints) if e.mode != "post"]
            m = self._snapshot_run(source, stdin, loop_line, None, inside, [copies[i] for i in keep])
            if m.status == "inexact":  # the loop itself differs: every arm is measured on its own (no run wasted)
                return None
            alone = {i: self.measure(source, stdin, e, state=True) for i, e in enumerate(endpoints) if i not in keep}
        if m.status == "inexact":
            return None
        if not m.ok:
            return m, tuple(m for _ in endpoints)
        found = []
        for i, e in enumerate(endpoints):
            label = "post" if e.mode == "post" else f"inside@{e.k}"
            at = alone.get(i) or m.snapshot(label)
            detail = f"the measured run never reached the {label} checkpoint (it behaves differently when measured)"
            found.append(at or Measurement("error", detail, None, None, None, m.toolchain, b""))
        return m, tuple(found)

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
        return states_copy(source, loop_line, variables, k, inside, window, stop=stop, marks=marks)

    def _snapshot_run(
        self,
        source: str,
        stdin: bytes,
        loop_line: int,
        k: int | None,
        inside: tuple[int, ...],
        copies: list[tuple[str, tuple[int, ...]]],
    ) -> Measurement:
        """The probe's run of the measurement copy (status ``inexact``: refused, nothing ran)."""
        copy, origins = measurement_copy(source, loop_line, k, inside)
        hook = Snapshots(copy.prefix + SNAPSHOT_HOOK, tuple(origins), source, tuple(copies))
        return self._probe(copy, stdin, state=True, snapshots=hook)

    def cyclomatic(self, source: str) -> int | None:
        return cyclomatic(source)

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        return {self.toolchain_key: measured.toolchain}

    def build_meta(self) -> dict[str, Any]:
        """Nothing: the manifest records the interpreter's version from the tasks (``BuildManifest.python``)."""
        return {}

    def loops(self, source: str) -> list[int]:
        return python_loops(source)

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """The executed line-to-line transitions of the program's own lines (0: entering or leaving a frame)."""
        traced = self._traced(source, stdin, counts=False)
        return None if traced is None else traced[0]

    def line_counts(self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0) -> dict[int, int] | None:
        """How many line events each of the program's own lines had on a run (``LineCounting``)."""
        traced = self._traced(source, stdin, counts=True, seed=seed)
        return None if traced is None else traced[1]

    def branch_lines(self, source: str, loop_line: int) -> list[BranchLine]:
        return branch_lines(source, loop_line)

    @property
    def source_variants(self) -> tuple[str, ...]:
        return VARIANTS

    def make_variant(self, source: str, name: str, seed: int) -> SourceVariant:
        return make_variant(source, name, seed)

    def trace_copy(
        self, source: str, loop_line: int, variables: tuple[str, ...], k: int, steps: int, *, active: bool = True
    ) -> Instrumented:
        return trace_copy(source, loop_line, variables, k, steps, active=active)

    def _traced(
        self, source: str, stdin: bytes, *, counts: bool, seed: int = 0
    ) -> tuple[frozenset[tuple[int, int]], dict[int, int]] | None:
        """A run under the line tracer (``_transitions.py``): its transitions and (``counts``) its line counts."""
        # the program runs in this directory: removed however deep it left it (a SandboxFault if it cannot be)
        with program_directory(prefix="execstate-arcs-") as fresh:
            outputs = ["{cwd}/transitions.json", *(["{cwd}/counts.json"] if counts else [])]
            res = run_script(
                self.python,
                _TRANSITIONS,
                ["{cwd}/" + self.filename, *outputs],
                stdin,
                self.measure_limits(),
                env=scrubbed_env(seed),
                cwd=fresh,
                files={self.filename: source.encode("utf-8")},
                library=self.library,
            )
            files = [fresh / name for name in ("transitions.json", "counts.json")[: len(outputs)]]
            if not res.ok or not all(f.is_file() for f in files):
                return None
            try:
                pairs = json.loads(files[0].read_text(encoding="utf-8"))
                counted = json.loads(files[1].read_text(encoding="utf-8")) if counts else []
                return frozenset((int(a), int(b)) for a, b in pairs), {int(a): int(b) for a, b in counted}
            except (ValueError, TypeError):
                return None

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        return python_candidates(source, loop_line)

    def program_text(self, path: Path) -> tuple[str, list[str]]:
        """The program as it is: a Python case is one file."""
        return path.read_text(encoding="utf-8"), []

    def with_environment(self, env: Environment) -> PythonLanguage:
        return replace(self, library=env.site)


def _emits(inst: Instrumented) -> bool:
    """Whether ``inst`` is an inside or post copy whose checkpoint prints (not a disabled or counting copy)."""
    return f"{inst.prefix}active = True\n" in inst.source and f"def {inst.prefix}emit(state):\n" in inst.source


__all__ = ["HASH_SEEDS", "PythonLanguage"]
