"""C++ as a builder language: tree-sitter instrumentation, g++ builds, runs in the sandbox, gcov and observe metrics.

The second implementation of ``Language``. Every copy is compiled once per
build directory key (``execstate.metrics.compile_cpp``) with ``-I`` the folder
of ``execstate_emit.hpp``. A compile failure comes back as a ``crash`` run
whose stderr holds the compiler's first error lines, so the builder's checks
exclude it with the evidence (``run``; ``fields`` when the emitter refused a
projected variable's type). The state metrics need the loop and projection
of the case, which ``measure`` receives only as program text, so the adapter
remembers, per instrumented or clean text it produced or saw, the case's
loop line, variables, mode and ``k``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from execstate.builder._candidates import Candidate, cpp_candidates, cpp_loops
from execstate.builder._cpp import (
    HEADER_PATH,
    REFUSAL_MARKER,
    check_variables_cpp,
    disabled_cpp,
    instrument_cpp,
    iterations_cpp,
    parse_slots,
    resolve_loop_cpp,
)
from execstate.builder._language import LanguageError, measurement_limits
from execstate.builder._python import AnchorError, Instrumented, Mode
from execstate.environments import Environment
from execstate.metrics import Measurement
from execstate.metrics.cpp import CompileFailure, Compiler, compile_cpp, cyclomatic_cpp, measure_cpp, run_binary
from execstate.sandbox import Limits, SandboxResult

_INCLUDES = (HEADER_PATH.parent,)


@dataclass(frozen=True)
class _Loop:
    clean: str
    loop_line: int
    variables: tuple[str, ...]
    mode: str
    k: int


@dataclass
class CppLanguage:
    """C++20 programs compiled by ``compiler`` (default: the machine's ``g++``), run and measured in the sandbox."""

    limits: Limits = field(default_factory=Limits)
    measure_factor: float = 6.0
    compiler: Compiler = field(default_factory=Compiler)
    name: str = "cpp"
    include_dirs: tuple[Path, ...] = ()
    """A declared environment's include directories (``g++ -I``), after the emitter's."""
    _loops: dict[str, _Loop] = field(default_factory=dict, repr=False)

    @property
    def _includes(self) -> tuple[Path, ...]:
        return (*_INCLUDES, *self.include_dirs)

    def with_environment(self, env: Environment) -> CppLanguage:
        return replace(self, include_dirs=env.spec.include_dirs, _loops={})

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        self.compiler.executable()  # no g++: CompilerMissing names the Debian package, before any case work
        try:
            line = resolve_loop_cpp(source, loop, loop_text)
            check_variables_cpp(source, line, variables)
        except AnchorError as exc:
            raise LanguageError(exc.key, exc.problem, exc.fix) from None
        self._loops[source] = _Loop(source, line, variables, "clean", 0)
        return line

    def instrument(
        self, source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
    ) -> Instrumented:
        inst = instrument_cpp(source, loop_line, variables, mode, k, active=active)
        self._loops[inst.source] = _Loop(source, loop_line, variables, mode, k)
        return inst

    def disabled(self, inst: Instrumented) -> str:
        return disabled_cpp(inst)

    def run(
        self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0, args: tuple[str, ...] = ()
    ) -> SandboxResult:
        """Compile (cached) and run a fresh copy of the binary with ``args``; ``seed`` has no meaning for C++."""
        built = compile_cpp(source, include_dirs=self._includes, compiler=self.compiler, first_header=HEADER_PATH)
        if isinstance(built, CompileFailure):
            return _compile_failure(built)
        return run_binary(built, stdin, self.limits, args=args)

    def iterations(self, counted: SandboxResult) -> int | None:
        return iterations_cpp(counted.stderr) if counted.ok else None

    def measure(self, source: str, stdin: bytes, inst: Instrumented | None, *, state: bool) -> Measurement:
        limits = self.measure_limits()
        inserted = inst.inserted_lines if inst else frozenset()
        m = measure_cpp(
            source,
            stdin,
            inserted_lines=inserted,
            limits=limits,
            compiler=self.compiler,
            include_dirs=self._includes,
            first_header=HEADER_PATH,
        )
        if m.status != "ok" or not state:
            return Measurement(m.status, m.detail, m.trace_length, None, None, m.compiler, m.stdout)
        loop = self._loops.get(source)
        if loop is None:
            return Measurement(
                "error", "no loop is known for this program text", None, None, None, m.compiler, m.stdout
            )
        peak_load, problem = self._state(loop, stdin, limits)
        if peak_load is None:
            return Measurement("error", problem, None, None, None, m.compiler, m.stdout)
        return Measurement("ok", "", m.trace_length, peak_load[0], peak_load[1], m.compiler, m.stdout)

    def _state(self, loop: _Loop, stdin: bytes, limits: Limits) -> tuple[tuple[int, int] | None, str]:
        """(peak, load) over the selected loop's iterations up to the text's endpoint, from an observe run."""
        observe = instrument_cpp(loop.clean, loop.loop_line, loop.variables, "observe")
        built = compile_cpp(
            observe.source, include_dirs=self._includes, compiler=self.compiler, first_header=HEADER_PATH
        )
        if isinstance(built, CompileFailure):
            return None, f"the observing copy does not compile: {built.errors}"
        res = run_binary(built, stdin, limits)
        if not res.ok:
            return None, f"the observing copy failed: {res.describe()}"
        endpoint = loop.mode if loop.mode in ("inside", "post") else "final"
        found = parse_slots(res.stderr).metrics(endpoint, loop.k if endpoint != "final" else None)  # type: ignore[arg-type]
        return (found, "") if found is not None else (None, f"the {endpoint} endpoint is never reached")

    def measure_limits(self) -> Limits:
        return measurement_limits(self.limits, self.measure_factor)

    def cyclomatic(self, source: str) -> int | None:
        return cyclomatic_cpp(source)

    def loops(self, source: str) -> list[int]:
        return cpp_loops(source)

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """gcov's taken branches ``(line, i)`` of a coverage run of the clean program."""
        m = measure_cpp(
            source, stdin, limits=self.measure_limits(), compiler=self.compiler, include_dirs=self.include_dirs
        )
        return m.branches if m.status == "ok" else None

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        return cpp_candidates(source, loop_line)

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        """What a C++ task records of its toolchain: the compiler's version string and the flags."""
        return {"compiler": measured.python, "flags": list(self.compiler.flags)}


def _compile_failure(failure: CompileFailure) -> SandboxResult:
    refused = REFUSAL_MARKER in failure.errors
    detail = "the emitter cannot serialize a projected variable" if refused else "does not compile"
    return SandboxResult(
        "crash",
        None,
        None,
        b"",
        failure.errors.encode("utf-8", "replace"),
        0.0,
        0.0,
        f"{detail} with {failure.compiler}",
    )


__all__ = ["CppLanguage"]
