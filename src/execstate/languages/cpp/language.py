"""C++ as a builder language: tree-sitter instrumentation, g++ builds, runs in the sandbox, gcov and observe metrics.

The registry's ``cpp`` adapter (``Language`` and ``ConstructLanguage``; ``LoopTracing`` and
``LineCounting`` for the ``loop-trace`` and ``line-count`` arms). Every copy is compiled
once per build directory key (``execstate.metrics.cpp.compile_cpp``) with ``-I`` the folder of
``execstate_emit.hpp``. A compile failure comes back as a ``crash`` run whose stderr holds the
compiler's first error lines (``diagnostics.compile_failure``), so the builder's checks exclude
it with the evidence (``run``; ``fields`` when the emitter refused a projected variable's type).
The state metrics come from an ``observe`` copy of the case's loop and projection, which
``measure`` is given in its ``Endpoint`` (run as the loop's every-mode build when it can stand for it).
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from execstate.environments import Environment
from execstate.errors import SpecProblem
from execstate.languages._candidates import Candidate
from execstate.languages._protocol import (
    BranchLine,
    CheckpointFault,
    Endpoint,
    Instrumented,
    Mode,
    Variation,
    measurement_limits,
    refusal_line,
)
from execstate.languages._variants import SourceVariant
from execstate.languages.cpp.budget import Counted, counted_cpp
from execstate.languages.cpp.candidates import cpp_candidates, cpp_loops
from execstate.languages.cpp.commented import commented_original
from execstate.languages.cpp.diagnostics import compile_failure
from execstate.languages.cpp.instrument import count_all_cpp, disabled_cpp, instrument_cpp
from execstate.languages.cpp.options import CppOptions
from execstate.languages.cpp.protocol import (
    HEADER_NAME,
    HEADER_PATH,
    REFUSAL_MARKER,
    iterations_cpp,
    loop_iterations_cpp,
    parse_slots,
)
from execstate.languages.cpp.syntax import (
    branch_lines_cpp,
    check_variables_cpp,
    expand_loop_macros,
    resolve_loop_cpp,
)
from execstate.languages.cpp.universal import (
    COUNT_ALL_ENV,
    COUNT_LOOP_ENV,
    CleanStandIn,
    EveryModeCopy,
    FailedTexts,
    MadeCopy,
    UniversalCopy,
    clean_stand_in,
    count_all_for,
    every_mode_copies,
    made_copy,
    measured_universal,
    remember_copy,
    remember_count_all,
    remember_program,
    universal_copy,
    wide_universal,
)
from execstate.languages.cpp.variants import CPP_VARIANTS, make_variant_cpp
from execstate.metrics import Budget, Measurement
from execstate.metrics.cpp import (
    Compiled,
    CompileFailure,
    Compiler,
    CompilerMissing,
    CppMeasurement,
    compile_cpp,
    cyclomatic_cpp,
    measure_cpp,
    run_binary,
)
from execstate.sandbox import Limits, SandboxResult, scrubbed_env

if TYPE_CHECKING:
    from execstate.languages._options import BuildOptions

_INCLUDES = (HEADER_PATH.parent,)
_Universal = CleanStandIn | EveryModeCopy | UniversalCopy


_FAILED = FailedTexts()
"""Universal texts that did not compile in this process (with the compiler and include directories)."""
_RUNS = tuple(Variation(seed, f"run {seed + 1} of 3") for seed in range(3))
"""A binary takes no seed, but its three runs must still agree (a program may read the clock or addresses)."""


@dataclass(frozen=True)
class CppLanguage:
    """C++20 programs compiled by ``compiler`` (default: the machine's ``g++``), run and measured in the sandbox."""

    limits: Limits = field(default_factory=Limits)
    measure_factor: float = 10.0
    compiler: Compiler = field(default_factory=Compiler)
    name: str = "cpp"
    toolchain_key: str = "compiler"
    """Tasks record the compiler's version under ``meta["compiler"]`` (and its flags under ``meta["flags"]``)."""
    variations: tuple[Variation, ...] = _RUNS
    include_dirs: tuple[Path, ...] = ()
    """A declared environment's include directories (``g++ -I``), after the emitter's."""
    budget: Budget = field(default_factory=Budget)
    """Counted budgets (``BuildOptions.budget``). The trace budget stops a measured run at its first loop
    iteration past it (``budget.counted_cpp``, a bound from below of the line executions); a run it does not
    stop, and the state budget, are judged at exit on the exact counts, the same on every machine."""

    @classmethod
    def from_options(cls, opts: BuildOptions) -> CppLanguage:
        """The adapter of a build with ``opts`` (its ``CppOptions``: compiler and flags)."""
        return cls(opts.limits, opts.measure_factor, opts.options(CppOptions).compiler(), budget=opts.budget())

    @property
    def _includes(self) -> tuple[Path, ...]:
        return (*_INCLUDES, *self.include_dirs)

    def with_environment(self, env: Environment) -> CppLanguage:
        return replace(self, include_dirs=env.spec.include_dirs)

    def locate_loop(self, source: str, loop: int | None, loop_text: str | None, variables: tuple[str, ...]) -> int:
        self.compiler.executable()  # no g++: CompilerMissing names the Debian package, before any case work
        line = resolve_loop_cpp(source, loop, loop_text)
        check_variables_cpp(source, line, variables)
        return line

    def instrument(
        self, source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
    ) -> Instrumented:
        """``instrument_cpp``; a checkpoint copy is remembered (``remember_copy``) so ``run`` can run it as the
        universal build of its loop's candidate set."""
        inst = instrument_cpp(source, loop_line, variables, mode, k, active=active)
        remember_copy(inst.source, MadeCopy(source, loop_line, variables, mode, k, active, 1, inst.inserted_lines))
        return inst

    def disabled(self, inst: Instrumented) -> str:
        text = disabled_cpp(inst)
        made = made_copy(inst.source)
        if made is not None:
            remember_copy(text, replace(made, active=False))
        return text

    @property
    def source_variants(self) -> tuple[str, ...]:
        return CPP_VARIANTS

    def make_variant(self, source: str, name: str, seed: int) -> SourceVariant:
        return make_variant_cpp(source, name, seed)

    def trace_copy(
        self, source: str, loop_line: int, variables: tuple[str, ...], k: int, steps: int, *, active: bool = True
    ) -> Instrumented:
        """The ``loop-trace`` copy (``instrument_cpp`` mode ``trace``): each run of the loop keeps the projection's
        JSON at the top of its first ``steps`` iterations; iteration ``k`` prints its run's as one JSON list."""
        inst = instrument_cpp(source, loop_line, variables, "trace", k, active=active, steps=steps)
        remember_copy(
            inst.source, MadeCopy(source, loop_line, variables, "trace", k, active, steps, inst.inserted_lines)
        )
        return inst

    def run(
        self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0, args: tuple[str, ...] = ()
    ) -> SandboxResult:
        """Compile (cached) and run a fresh copy of the binary with ``args``; ``seed`` has no meaning for C++.

        A clean program runs as written (its oracles come from the program itself, never from a copy with
        counters in it); its loops are counted by its measured build, else by its silent count-every-loop copy
        (``loop_iterations``, ``clean_stand_in``). A checkpoint copy runs as the build that measures it, under the
        measurement's limits: the measured (``-O0 --coverage``) build of the one text of its loop that serves
        every mode (``every_mode_copies``: inside, post, trace, observe and count, of the loop's candidate set, else
        of the copy's projection) when that text counts the copy's own lines (``_runs_as_measured``); else the
        measured build of its universal text, whose lines differ from the copy's only where inserted code stands
        alone (``_measured_universal``: a loop sharing its line with its function's header); else
        (or when the program has a ``#pragma GCC optimize``) as that text's optimised build, else as a universal
        build: first the one of its loop's candidate set
        (``wide_universal``: one compile serves every k, both guard values and every projection drawn from
        the candidates construct probed, chosen by the run's environment), else its own (``universal_copy``:
        every k and guard of its projection); any other text as it is, and so does a copy whose universal
        builds fail to compile (the compiler's diagnostics then quote the copy). A universal text that
        failed to compile is not tried again in this process. No shared text fails for a variable the emitter
        cannot serialize (``universal.DEFERRED``): a copy showing one is refused when its checkpoint prints it. A
        ``count`` copy runs as the build that counted every loop of its program in this process, when there is
        one (``count_all_for``), else as its loop's every-mode build in count mode. A text that only adds comments
        to a program measured in this process (a marked line count: ``commented_original``) runs as that
        program."""
        original = commented_original(source)
        if original is not None:  # a marked program: the same program to the compiler (``commented``)
            return self.run(original, stdin, workdir, seed=seed, args=args)
        shared = count_all_for(source)
        built_all = self._compiled_once(shared[0]) if shared is not None else None
        if isinstance(built_all, Compiled) and shared is not None:
            return run_binary(built_all, stdin, self.limits, args=args, env=scrubbed_env(extra=shared[1]))
        made = made_copy(source)
        measured = self._runs_as_measured(source, made)
        if measured is not None:  # the copy runs as the build that measures it, under the measurement's limits
            every, built_cov = measured
            settings = scrubbed_env(extra=every.settings)
            return run_binary(built_cov, stdin, self.measure_limits(), args=args, env=settings)
        clean = self._counting_clean_build(made)
        if clean is not None:  # a count copy: the clean program's measured build counts its loop at the same place
            built_clean, settings = clean
            return run_binary(built_clean, stdin, self.measure_limits(), args=args, env=scrubbed_env(extra=settings))
        own = self._measured_universal(source, made.inserted if made is not None else frozenset())
        if own is not None:  # no every-mode text counts the copy's lines: the universal build measuring it
            return run_binary(own[2], stdin, self.measure_limits(), args=args, env=scrubbed_env(extra=own[0].settings))
        builds = (*every_mode_copies(source, made), wide_universal(source), universal_copy(source))
        universal, built = self._universal(source, builds)
        if isinstance(built, CompileFailure):
            return compile_failure(built)
        env = scrubbed_env(extra=universal.settings) if universal is not None and universal.settings else None
        res = run_binary(built, stdin, self.limits, args=args, env=env)
        target = _TARGET_PRAGMA.search(source) if res.signal == signal.SIGILL else None
        if target is not None:  # name the likely cause: instructions this machine's CPU does not have
            pragma = target.group(0).strip()
            note = f"illegal instruction: the program's `{pragma}` may ask for instructions this CPU lacks"
            res = replace(res, detail="; ".join(filter(None, (res.detail, note))))
        return res

    def _universal(
        self, source: str, builds: tuple[_Universal | None, ...]
    ) -> tuple[_Universal | None, Compiled | CompileFailure]:
        """The first of ``builds`` (universal builds standing for ``source``, best first) that compiles, and its
        binary; else None and ``source``'s own build. A text that failed to compile is not tried again."""
        for universal in builds:
            if universal is None:
                continue
            built = self._compiled_once(universal.source)
            if isinstance(built, Compiled):
                return universal, built
        return None, self._compiled(source)

    def _measured_every_mode(
        self, source: str, made: MadeCopy | None = None
    ) -> tuple[EveryModeCopy, Counted, Compiled] | None:
        """The measured build of the first of checkpoint copy ``source``'s every-mode texts that counts the copy's
        own lines (``EveryModeCopy.same_lines``) and compiles: that text, its counted copy (``counted_cpp``) and
        the build; None when there is none. A text that failed to compile is not tried again."""
        for every in every_mode_copies(source, made):
            if not every.same_lines:
                continue
            counted = counted_cpp(every.source)
            built = self._compiled_once(counted.source, coverage=True)
            if isinstance(built, Compiled):
                return every, counted, built
        return None

    def _runs_as_measured(self, source: str, made: MadeCopy | None = None) -> tuple[EveryModeCopy, Compiled] | None:
        """The build a checkpoint copy runs as when it is the one that measures it (``_measured_every_mode``);
        None also when the program has a ``#pragma GCC optimize``, which the measured build does without: the
        copy then runs optimised, as the program does."""
        if _OPTIMIZE_PRAGMA.search(source):
            return None
        found = self._measured_every_mode(source, made)
        return (found[0], found[2]) if found is not None else None

    def _measured_universal(
        self, source: str, inserted: frozenset[int]
    ) -> tuple[UniversalCopy, Counted, Compiled] | None:
        """The measured build of checkpoint copy ``source`` when no every-mode text counts its lines: its universal
        text (``measured_universal``: every k, guard and projection of the copies it stands for, on the copy's
        lines), its counted copy (``counted_cpp``) and the coverage build; None when there is none, when it does
        not compile, or when the program has a ``#pragma GCC optimize`` (the copy then runs optimised, as the
        program does)."""
        if _OPTIMIZE_PRAGMA.search(source):
            return None
        universal = measured_universal(source, inserted)
        if universal is None:
            return None
        counted = counted_cpp(universal.source)
        built = self._compiled_once(counted.source, coverage=True)
        return (universal, counted, built) if isinstance(built, Compiled) else None

    def _counting_clean_build(self, made: MadeCopy | None) -> tuple[Compiled, dict[str, str]] | None:
        """For a ``count`` copy (``made``) that no every-mode build measures: the clean program's measured build
        and the environment (``COUNT_LOOP_ENV``) that makes its counter write what the copy writes, the
        program's own output and then its loop's K, counted at the same place (``Counted.at_top``); None for
        another copy, a loop ticked elsewhere, a program with a ``#pragma GCC optimize`` (the copy runs
        optimised, as the program does) or a build that does not compile."""
        if made is None or made.mode != "count" or HEADER_NAME in made.source or _OPTIMIZE_PRAGMA.search(made.source):
            return None
        counted = counted_cpp(made.source)
        if made.loop_line not in counted.at_top:
            return None
        built = self._compiled_once(counted.source, coverage=True)
        if not isinstance(built, Compiled):
            return None
        return built, {COUNT_LOOP_ENV: str(counted.loop_lines.index(made.loop_line))}

    def _compiled_once(self, text: str, *, coverage: bool = False) -> Compiled | CompileFailure | None:
        """``text``'s build, or its failure, noted (``_FAILED``) so that this process does not try it again;
        None when it already failed here."""
        failed_key = (text, self.compiler, self._includes)
        if failed_key in _FAILED:
            return None
        built = self._compiled(text, coverage=coverage)
        if isinstance(built, CompileFailure):
            _FAILED.add(failed_key)
        return built

    def _compiled(self, source: str, *, coverage: bool = False) -> Compiled | CompileFailure:
        return compile_cpp(
            source, coverage=coverage, include_dirs=self._includes, compiler=self.compiler, first_header=HEADER_PATH
        )

    def iterations(self, counted: SandboxResult) -> int | None:
        return iterations_cpp(counted.stderr) if counted.ok else None

    def loop_iterations(self, source: str, loop_lines: list[int], stdin: bytes, workdir: Path) -> dict[int, int]:
        """K of every loop in ``loop_lines`` on ``stdin`` from ONE build and run: the K each loop's own ``count``
        copy reports, counted at the same place. First from the clean program's measured build (its counter
        counts each loop at the top of its body, ``Counted.at_top``, and reports them all when asked:
        no compile of its own), else from the copy counting every loop (``count_all_cpp``). Empty when neither
        can be made, compiles, or runs and reports every loop: the caller then counts each loop with its own
        ``count`` copy (``instrument(..., "count")``), as before."""
        if not loop_lines:
            return {}
        counted = counted_cpp(source) if HEADER_NAME not in source else None
        if counted is not None and set(loop_lines) <= counted.at_top:
            m = self._measure_counted(counted, stdin, frozenset(), {COUNT_ALL_ENV: "1"})
            ticks = loop_iterations_cpp(m.stderr, counted.loops) if m.ok else None
            if ticks is not None:
                by_line = dict(zip(counted.loop_lines, ticks, strict=True))
                return {line: by_line[line] for line in loop_lines}
        stand_in = clean_stand_in(source)
        if stand_in is not None and set(loop_lines) <= set(stand_in.loop_lines):
            text, counted_lines = stand_in.source, list(stand_in.loop_lines)  # every loop: one build for all asks
        else:
            try:
                text, counted_lines = count_all_cpp(source, loop_lines).source, list(loop_lines)
            except (ValueError, AssertionError, SpecProblem):  # a layout the shared copy cannot take: one copy each
                return {}
        built = self._compiled(text)
        if isinstance(built, CompileFailure):
            return {}
        res = run_binary(built, stdin, self.limits, env=scrubbed_env(extra={COUNT_ALL_ENV: "1"}))
        counts = loop_iterations_cpp(res.stderr, len(counted_lines)) if res.ok else None
        if counts is None:
            return {}
        remember_count_all(source, tuple(counted_lines), text)  # the loops' own count copies run as it
        found = dict(zip(counted_lines, counts, strict=True))
        return {line: found[line] for line in loop_lines}

    def checkpoint_fault(self, stderr: bytes) -> CheckpointFault | None:
        """A refusal of the header: g++'s static assertion or the emitter's run-time message (an unbound
        variable does not compile, so it is never ``unbound``)."""
        line = refusal_line(stderr.decode("utf-8", "replace"), REFUSAL_MARKER)
        return ("refused", line) if line is not None else None

    def measure(self, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool) -> Measurement:
        limits = self.measure_limits()
        inst = endpoint.inst if endpoint is not None else None
        m = self._measured(inst.source if inst else source, stdin, inst.inserted_lines if inst else frozenset())
        if m.status == "budget":  # the counter stopped the run past the trace budget
            return Measurement("budget", m.detail, None, None, None, m.compiler, m.stdout, exceeded="trace")
        over = self._over_budget(m.trace_length, None, m) if m.status == "ok" else None
        if over is not None:
            return over
        if m.status != "ok" or not state:
            return Measurement(m.status, m.detail, m.trace_length, None, None, m.compiler, m.stdout)
        if endpoint is None:
            return Measurement("error", "no loop was given to observe", None, None, None, m.compiler, m.stdout)
        peak_load, problem = self._state(source, endpoint, stdin, limits)
        if peak_load is None:
            return Measurement("error", problem, None, None, None, m.compiler, m.stdout)
        over = self._over_budget(None, peak_load[1], m)
        if over is not None:
            return over
        return Measurement("ok", "", m.trace_length, peak_load[0], peak_load[1], m.compiler, m.stdout)

    def _over_budget(self, trace: int | None, load: int | None, m: CppMeasurement) -> Measurement | None:
        """The ``budget`` measurement (the probe's wording) when a finished run exceeded ``budget``, or None."""
        b, over = self.budget, None
        if trace is not None and b.trace_events is not None and trace > b.trace_events:
            over = ("trace", f"{trace} line executions counted, over the trace budget of {b.trace_events}")
        elif load is not None and b.state_slots is not None and load > b.state_slots:
            over = ("state", f"{load} state slots walked, over the state budget of {b.state_slots}")
        if over is None:
            return None
        return Measurement("budget", over[1], None, None, None, m.compiler, m.stdout, exceeded=over[0])

    def _state(self, source: str, at: Endpoint, stdin: bytes, limits: Limits) -> tuple[tuple[int, int] | None, str]:
        """(peak, load) over the selected loop's iterations up to the endpoint, from an observe run of ``source``."""
        observe = instrument_cpp(source, at.loop_line, at.variables, "observe")
        made = MadeCopy(source, at.loop_line, at.variables, "observe", 1, True)
        measured = self._runs_as_measured(observe.source, made)  # the build measuring the loop's copies
        universal: _Universal | None
        built: Compiled | CompileFailure
        if measured is not None:
            universal, built = measured
        else:
            universal, built = self._universal(observe.source, every_mode_copies(observe.source, made))
        if isinstance(built, CompileFailure):
            return None, f"the observing copy does not compile: {built.first_error}"
        env = scrubbed_env(extra=universal.settings) if universal is not None else None
        res = run_binary(built, stdin, limits, env=env)
        if not res.ok:
            return None, f"the observing copy failed: {res.describe()}"
        found = parse_slots(res.stderr).metrics(at.mode, at.k if at.mode != "final" else None)
        return (found, "") if found is not None else (None, f"the {at.mode} endpoint is never reached")

    def measured_output_note(self, source: str) -> str:
        """Why the measured build may print other output than the runs, when the program says so: a
        ``#pragma GCC optimize`` optimises the runs, while the measured build is ``-O0`` (SPEC 6) and does
        without it (``execstate.metrics.cpp``), so e.g. ``Ofast`` arithmetic on floats can come out otherwise.
        Empty when the program has none; the builder adds it to a ``measurement`` exclusion."""
        found = _OPTIMIZE_PRAGMA.search(source)
        if found is None:
            return ""
        return (
            f"the program's `{found.group(0).strip()}` optimises the runs, not the measured build "
            "(-O0 by definition), and the two compute differently"
        )

    def measure_limits(self) -> Limits:
        return measurement_limits(self.limits, self.measure_factor)

    def cyclomatic(self, source: str) -> int | None:
        """Lizard's count on the program with its loop macros' calls written out (``rep(i, n)`` is a ``for``
        to the compiler, so it is one to the count); a program without loop macros is counted as written."""
        return cyclomatic_cpp(expand_loop_macros(source))

    def task_meta(self, measured: Measurement) -> dict[str, Any]:
        """What a C++ task records of its toolchain: the compiler's version string and the flags."""
        return {self.toolchain_key: measured.toolchain, "flags": list(self.compiler.flags)}

    def build_meta(self) -> dict[str, Any]:
        """The compiler's version (``None`` when it is missing: every C++ case says so in its exclusion) and flags."""
        try:
            version: str | None = self.compiler.version()
        except CompilerMissing:
            version = None
        return {"compiler": version, "compiler_flags": list(self.compiler.flags)}

    def loops(self, source: str) -> list[int]:
        return cpp_loops(source)

    def _measured(self, source: str, stdin: bytes, inserted_lines: frozenset[int] = frozenset()) -> CppMeasurement:
        """The measured build of ``source``'s counted copy (``counted_cpp``) run on ``stdin``: stopped at the trace
        budget, its counts those of ``source``'s lines (``#line`` directives blanked: the file's own numbers).
        The clean program's measurement and its coverage runs (line counts, branches) share this one build.
        A checkpoint copy whose loop's every-mode text has the copy's own lines (``EveryModeCopy.same_lines``)
        is measured as that text's build, run in the copy's mode, its inserted lines not counted: one
        measured build serves the loop's inside and post copies. Another copy is measured as its universal text
        when that differs from the copy only on inserted lines (``_measured_universal``), else as itself. A text
        that only adds comments to a program measured here (``commented_original``: a marked line count) is
        measured as that program."""
        original = commented_original(source) if not inserted_lines else None
        if original is not None:
            return self._measured(original, stdin)
        found = self._measured_every_mode(source)
        if found is not None:
            every, counted, _ = found
            return self._measure_counted(counted, stdin, every.inserted_lines, every.settings)
        own = self._measured_universal(source, inserted_lines)
        if own is not None:
            return self._measure_counted(own[1], stdin, inserted_lines, own[0].settings)
        return self._measure_counted(counted_cpp(source), stdin, inserted_lines, None)

    def _measure_counted(
        self, counted: Counted, stdin: bytes, inserted_lines: frozenset[int], env: dict[str, str] | None
    ) -> CppMeasurement:
        return measure_cpp(
            counted.source,
            stdin,
            inserted_lines=inserted_lines,
            limits=self.measure_limits(),
            compiler=self.compiler,
            include_dirs=self._includes,
            first_header=HEADER_PATH,
            trace_budget=self.budget.trace_events,
            counter_from=counted.counter_from,
            env=env,
        )

    def _coverage(self, source: str, stdin: bytes) -> CppMeasurement:
        """A coverage run of the clean program (the measured build of ``_measured``), remembered as a program that
        a marked copy of it stands for (``remember_program``)."""
        m = self._measured(source, stdin)
        remember_program(source)
        return m

    def branch_outcomes(self, source: str, stdin: bytes, workdir: Path) -> frozenset[tuple[int, int]] | None:
        """gcov's taken branches ``(line, i)`` of a coverage run of the clean program."""
        m = self._coverage(source, stdin)
        return m.branches if m.ok else None

    def line_counts(self, source: str, stdin: bytes, workdir: Path, *, seed: int = 0) -> dict[int, int] | None:
        """gcov's count of every line it reports in a coverage run of the clean program on ``stdin`` (lines of
        the file as given: its ``#line`` directives do not move them; a line with template instances is
        summed over them); None when the run fails or stops at a limit. A C++ run takes no seed (``seed``
        is the protocol's, ignored): the three determinism runs are three runs alike."""
        m = self._coverage(source, stdin)
        return dict(m.line_counts) if m.ok else None

    def branch_lines(self, source: str, loop_line: int) -> list[BranchLine]:
        """The one-line first statements of the arms of the ``if`` statements in the loop's body
        (``syntax.branch_lines_cpp``), with the line of the condition deciding each."""
        return branch_lines_cpp(source, loop_line)

    def candidates(self, source: str, loop_line: int) -> list[Candidate]:
        return cpp_candidates(source, loop_line)

    def program_text(self, path: Path) -> tuple[str, list[str]]:
        """The program's text with each ``#include "NAME"`` of a file beside it replaced by that file.

        A case's program is one file (the builder compiles it alone); a solution that keeps its fast
        I/O in ``fastio.h`` next to ``main.cpp`` becomes one translation unit, each header once,
        marked by comments.
        """
        inlined: list[str] = []

        def expand(m: re.Match[str]) -> str:
            name = m.group(1)
            local = path.parent / name
            if not local.is_file() or name in inlined:
                return m.group(0) if not local.is_file() else f"// execstate construct: {name} is inlined above"
            inlined.append(name)
            body = _LOCAL_INCLUDE.sub(expand, local.read_text(encoding="utf-8"))
            return f"// ---- {name} (inlined by execstate construct) ----\n{body.rstrip()}\n// ---- end of {name} ----"

        return _LOCAL_INCLUDE.sub(expand, path.read_text(encoding="utf-8")), inlined


_TARGET_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+GCC[ \t]+target\b.*$", re.MULTILINE)
_OPTIMIZE_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+GCC[ \t]+optimize\b.*$", re.MULTILINE)
_LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"/\\]+)"[ \t]*(//.*)?$', re.MULTILINE)

__all__ = ["CppLanguage"]
