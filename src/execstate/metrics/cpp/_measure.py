"""Measure one C++ program's execution metrics (SPEC 6): gcov line counts of a sandboxed coverage run.

``trace_length`` is the sum, over the lines of ``main.cpp`` except the
inserted ones, of the counts gcov reports for a ``-O0 --coverage`` build run
to its endpoint (exit, or the checkpoint's ``std::exit(0)``, which runs the
exit handlers that write the counts). How the counts get out of the sandbox:

- The run gets ``GCOV_PREFIX=<cwd>/<128-bit random hex>`` and a
  ``GCOV_PREFIX_STRIP`` that strips every directory of the compile-time path,
  so libgcov writes ``<cwd>/<random>/prog-main.gcda`` at exit, creating the
  directory then. Only that file is read: a ``.gcda`` the program writes at any
  fixed name (``prog-main.gcda``, ``main.gcda``, the compile-time path) or
  leaves from an earlier run (there is none: every run is a fresh copy in a
  fresh directory) is never looked at.
- It must be a regular file (not a symlink, in a real directory), at most
  64 MiB, and say that it holds exactly one run: libgcov *adds* a run to a
  ``.gcda`` that already exists, so a planted file at the random path, or a
  child process that exited too, shows as ``runs >= 2`` and the measurement is
  an ``error``. The bytes are copied to a private directory, and gcov (a
  trusted tool) reads them there, outside the sandbox, with the build's notes.

What this does not stop: the counters live in the program's own memory and
the prefix in its own environment. A program that reads ``GCOV_PREFIX`` and
plants a well-formed ``.gcda`` with the binary's stamp and checksums and a run
count of 0, or that rewrites its counters (``__gcov_reset``, writing the
counter arrays), forges its count; one that ends by ``_exit``/``abort``
leaves none (``error``). Such a program is adversarial, not a benchmark case,
as for Python's in-process probe (docs/metrics.md).

A trace budget that stops the run: gcov's counts come only at exit, so a measured source that
calls a counter (``languages.cpp.budget``: every loop iteration) is run with ``BUDGET_ENV`` set to
``trace_budget``; at the first counted event past it the counter writes ``BUDGET_MARKER`` to stderr
and ends the run with ``_exit(BUDGET_EXIT_CODE)``, and the measurement's status is ``budget``. The
lines from ``counter_from`` on (the counter's definition) are neither counted nor reported.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import stat
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from execstate.errors import remove_tree
from execstate.metrics.cpp._compile import (
    BINARY_NAME,
    SOURCE_NAME,
    Compiled,
    CompileFailure,
    Compiler,
    compile_cpp,
    first_lines,
    fresh_copy,
    run_binary,
)
from execstate.metrics.cpp._state import observations, state_metrics
from execstate.sandbox import Limits, SandboxResult, run, scrubbed_env

GCDA_CAP = 64 * 1024 * 1024
OBSERVE_OUTPUT_BYTES = 128 * 1024 * 1024
"""The observing run's output cap: each iteration writes ~25 bytes of markers to stderr."""
_STRIP_ALL = "10000"
_MAGIC = b"adcg"  # b"gcda" as a little-endian word
_SUMMARY_TAG = 0xA1000000

BUDGET_ENV = "EXECSTATE_TRACE_BUDGET"
"""The environment variable a counted build reads its trace budget from (decimal; absent: no budget)."""
BUDGET_EXIT_CODE = 86
"""The exit status of a counted build stopped by its counter (with ``BUDGET_MARKER`` on stderr)."""
BUDGET_MARKER = "__execstate_budget__=trace"
"""Written to stderr on a line of its own by a counted build at the first counted event past the budget."""


@dataclass(frozen=True)
class CppMeasurement:
    """Metrics of one C++ run; the metrics are ``None`` unless ``status == "ok"``."""

    status: str
    """``ok`` or the failure: ``timeout``, ``memory``, ``crash``, ``output-limit``, ``error``; ``budget``: the
    counter of a counted build passed ``trace_budget`` and stopped the run."""
    detail: str
    """Why the status is not ``ok`` (compiler errors, the program's stderr tail, a refused ``.gcda``)."""
    trace_length: int | None
    """Sum of gcov's line counts over ``main.cpp``'s lines, inserted lines excluded."""
    peak_state: int | None
    """max_t |S_t| over the observed iterations; ``None`` without an observing run."""
    state_load: int | None
    """sum_t |S_t| over the observed iterations; ``None`` without an observing run."""
    compiler: str
    """The compiler's ``--version`` line (gcov's counts depend on it)."""
    stdout: bytes
    """The coverage run's standard output."""
    line_counts: tuple[tuple[int, int], ...] = ()
    """``(line, count)`` for every line gcov reports in ``main.cpp``, inserted ones included, by line."""
    observations: int | None = None
    """How many iterations the state metrics cover."""
    branches: frozenset[tuple[int, int]] = frozenset()
    """``(line, i)`` for each branch ``i`` of a ``main.cpp`` line that gcov counted as taken at least once."""
    stderr: bytes = b""
    """The coverage run's standard error (of a run that ended ``ok``)."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def measure_cpp(
    source: str,
    stdin: bytes,
    *,
    inserted_lines: frozenset[int] = frozenset(),
    limits: Limits = Limits(),  # noqa: B008 (frozen: one shared default is safe)
    compiler: Compiler = Compiler(),  # noqa: B008 (frozen: one shared default is safe)
    include_dirs: tuple[Path | str, ...] = (),
    observe_source: str | None = None,
    observe_upto: int | None = None,
    first_header: Path | str | None = None,
    trace_budget: int | None = None,
    counter_from: int | None = None,
    env: dict[str, str] | None = None,
) -> CppMeasurement:
    """Measure ``source`` on ``stdin``; never raises for the program's faults (``CompilerMissing`` if no g++/gcov).

    ``trace_length`` comes from a coverage build of ``source`` run under
    ``limits`` in the sandbox (see the module docstring). ``inserted_lines``
    (1-based lines of ``source``) are instrumentation and not counted.
    ``observe_source`` is the ``observe`` instrumentation of the program: it is
    built with the run flags and run on the same ``stdin`` under ``limits``
    (output cap raised to ``OBSERVE_OUTPUT_BYTES``), and ``peak_state`` /
    ``state_load`` are ``state_metrics(its stderr, observe_upto)``. ``first_header``:
    see ``compile_cpp`` (a header included first that may be precompiled). ``trace_budget``: the
    budget a counted ``source`` stops at (``BUDGET_ENV``; status ``budget``, the detail naming it);
    ``counter_from``: the first line of its counter's definition (that line and the later ones are
    not counted, and not in ``line_counts`` or ``branches``). ``env``: further environment variables of the
    measured run (a build that serves several copies reads which one it is from them).
    """
    version = compiler.version()
    gcov = compiler.gcov_executable()
    built = compile_cpp(source, coverage=True, include_dirs=include_dirs, compiler=compiler, first_header=first_header)
    what = f"the measured build ({' '.join((compiler.path, *compiler.coverage_flags))})"
    if isinstance(built, CompileFailure):
        if built.status == "compile-error":
            return _failed("error", f"{what} does not compile: {built.first_error}", version)
        return _failed(built.status, f"compiling {what}: {built.errors}", version)  # the compiler hit a limit
    taken: set[tuple[int, int]] = set()
    result, lines, problem = _coverage_run(built, stdin, limits, gcov, taken, trace_budget, env)
    if stopped_by_counter(result):
        detail = f"its counter passed {trace_budget} loop iterations, over the trace budget of {trace_budget}"
        return _failed("budget", detail + " (each iteration executes at least one line)", version, result.stdout)
    if result.status == "crash":
        return _failed("crash", f"{what} crashed: {ending(result)}", version, result.stdout)
    if result.status != "ok":  # a limit: the status names it (timeout, memory, output-limit)
        return _failed(result.status, f"{what} stopped at a limit: {ending(result)}", version, result.stdout)
    if lines is not None and counter_from is not None:
        lines = {line: count for line, count in lines.items() if line < counter_from}
        taken = {branch for branch in taken if branch[0] < counter_from}
        problem = "" if lines else f"gcov counted no line of {SOURCE_NAME} above its budget counter"
    if not lines:
        return _failed("error", problem, version, result.stdout)
    total = sum(count for line, count in lines.items() if line not in inserted_lines)
    found = CppMeasurement(
        "ok",
        "",
        total,
        None,
        None,
        version,
        result.stdout,
        tuple(sorted(lines.items())),
        branches=frozenset(taken),
        stderr=result.stderr,
    )
    if observe_source is None:
        return found
    return _with_state(found, observe_source, observe_upto, stdin, limits, compiler, include_dirs, first_header)


def _failed(status: str, detail: str, version: str, stdout: bytes = b"") -> CppMeasurement:
    return CppMeasurement(status, detail, None, None, None, version, stdout)


def _coverage_run(
    built: Compiled,
    stdin: bytes,
    limits: Limits,
    gcov: str,
    branches: set[tuple[int, int]] | None = None,
    trace_budget: int | None = None,
    env: dict[str, str] | None = None,
) -> tuple[SandboxResult, dict[int, int] | None, str]:
    """Run a fresh copy with a random gcda prefix (and ``BUDGET_ENV`` when ``trace_budget`` is set, and ``env``);
    the run, gcov's counts by line (or None) and why not."""
    notes = built.notes
    if notes is None:
        raise ValueError(f"{built.directory} is not a coverage build")
    with fresh_copy(built) as work:
        prefix = work / secrets.token_hex(16)
        extra = {**(env or {}), "GCOV_PREFIX": str(prefix), "GCOV_PREFIX_STRIP": _STRIP_ALL}
        if trace_budget is not None:
            extra[BUDGET_ENV] = str(trace_budget)
        env = scrubbed_env(extra=extra)
        result = run([str(work / BINARY_NAME)], stdin, limits, env=env, cwd=work)
        if result.status != "ok":
            return result, None, ""
        data, problem = read_gcda(prefix / notes.with_suffix(".gcda").name)
        if data is None:
            return result, None, problem + _stderr_tail(result)
    lines, problem = _gcov_lines(gcov, built, notes, data, branches)
    return result, lines, problem


def stopped_by_counter(result: SandboxResult) -> bool:
    """Whether a counted build's counter ended ``result``: its exit status and its marker line on stderr."""
    marker = b"\n" + BUDGET_MARKER.encode() + b"\n"
    return result.exit_code == BUDGET_EXIT_CODE and result.signal is None and marker in result.stderr


def ending(result: SandboxResult) -> str:
    """How a run that failed ended, for a reason: its signal or exit code, the sandbox's detail and the
    last lines of its stderr (``killed by signal SIGSEGV; stderr: ...``)."""
    parts: list[str] = []
    if result.signal:
        parts.append(f"killed by signal {signal.Signals(result.signal).name}")
    elif result.exit_code is not None:
        parts.append(f"exit code {result.exit_code}")
    if result.detail:
        parts.append(result.detail)
    return "; ".join(parts) + _stderr_tail(result) if parts else _stderr_tail(result).removeprefix("; ")


def _stderr_tail(result: SandboxResult) -> str:
    tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
    return "; stderr: " + " | ".join(tail) if tail else ""


def read_gcda(path: Path) -> tuple[bytes | None, str]:
    """The bytes of the ``.gcda`` libgcov wrote at ``path``, or None and why it cannot be trusted."""
    try:
        if not stat.S_ISDIR(os.lstat(path.parent).st_mode):
            return None, "the coverage data's directory was replaced (not a directory)"
        info = os.lstat(path)
    except FileNotFoundError:
        return None, (
            "the run left no coverage data: it ended without running its exit handlers "
            "(_exit, quick_exit, abort, a signal) or changed GCOV_PREFIX"
        )
    if not stat.S_ISREG(info.st_mode) or info.st_size > GCDA_CAP:
        return None, "the coverage data is not a regular file of at most 64 MiB"
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(GCDA_CAP + 1)
    runs = gcda_runs(data)
    if runs != 1:
        return None, f"the coverage data holds {runs} runs, not 1 (a planted .gcda, or a child process that exited)"
    return data, ""


def gcda_runs(data: bytes) -> int | None:
    """The run count of a ``.gcda``'s object summary (GCC 11: after 3 header words, GCC 12+: after 4)."""
    if data[:4] != _MAGIC:
        return None
    for offset in (12, 16):
        if int.from_bytes(data[offset : offset + 4], "little") == _SUMMARY_TAG:
            return int.from_bytes(data[offset + 8 : offset + 12], "little")
    return None


def _gcov_lines(
    gcov: str, built: Compiled, notes: Path, data: bytes, branches: set[tuple[int, int]] | None = None
) -> tuple[dict[int, int] | None, str]:
    """gcov's per-line counts of ``main.cpp`` (template instantiations of one line summed); the taken
    branches ``(line, i)`` go into ``branches`` when it is given."""
    private = Path(tempfile.mkdtemp(prefix="execstate-gcov-"))
    try:
        shutil.copyfile(notes, private / notes.name)
        shutil.copyfile(built.directory / SOURCE_NAME, private / SOURCE_NAME)
        name = notes.with_suffix(".gcda").name
        (private / name).write_bytes(data)
        command = [gcov, "--json-format", "--stdout", "--relative-only", "--branch-probabilities", name]
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        done = subprocess.run(command, cwd=private, capture_output=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        return None, "gcov did not finish reading the coverage data within 300 s"
    finally:
        remove_tree(private)
    try:
        report, _ = json.JSONDecoder().raw_decode(done.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None, f"gcov could not read the coverage data: {first_lines(done.stderr.decode('utf-8', 'replace'))}"
    lines: dict[int, int] = {}
    for entry in report.get("files", []):
        if entry.get("file") == SOURCE_NAME:
            for line in entry["lines"]:
                lines[line["line_number"]] = lines.get(line["line_number"], 0) + int(line["count"])
                if branches is not None:
                    taken = enumerate(line.get("branches", []))
                    branches.update((line["line_number"], i) for i, b in taken if int(b.get("count", 0)) > 0)
    if not lines:
        return None, _no_line(report.get("files", []))
    return lines, ""


def _no_line(files: list[dict]) -> str:
    """Why gcov's report holds no line of ``main.cpp``, with what it does hold."""
    named = [str(e.get("file")) for e in files]
    if SOURCE_NAME in named:
        why = "its report lists the file without a line: none of its functions was instrumented"
    else:
        why = "its report does not name the file"
    elsewhere = sorted({str(e.get("file")) for e in files if e.get("lines")} - {SOURCE_NAME})
    also = f"; it counted lines of {', '.join(elsewhere[:5])}" if elsewhere else ""
    return f"gcov counted no line of {SOURCE_NAME} ({why}){also}"


def _with_state(
    found: CppMeasurement,
    observe_source: str,
    upto: int | None,
    stdin: bytes,
    limits: Limits,
    compiler: Compiler,
    include_dirs: tuple[Path | str, ...],
    first_header: Path | str | None,
) -> CppMeasurement:
    built = compile_cpp(observe_source, include_dirs=include_dirs, compiler=compiler, first_header=first_header)
    if isinstance(built, CompileFailure):
        return _failed("error", f"the observing program does not compile: {built.errors}", found.compiler)
    wide = replace(limits, output_bytes=max(limits.output_bytes, OBSERVE_OUTPUT_BYTES))
    result = run_binary(built, stdin, wide)
    if result.status != "ok":
        return _failed(result.status, "the observing run: " + result.describe(), found.compiler)
    try:
        peak, load = state_metrics(result.stderr, upto)
    except ValueError as exc:
        return _failed("error", f"the observing run: {exc}", found.compiler)
    count = upto if upto is not None else len(observations(result.stderr))
    return replace(found, peak_state=peak, state_load=load, observations=count)
