"""Measure one Python program's execution metrics (SPEC section 6) in a sandboxed child probe."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from execstate.metrics._accel import accelerator_dir
from execstate.metrics._channel import ResultPipe
from execstate.sandbox import LAUNCHER, Limits, SandboxResult, program_directory, run_script, scrubbed_env

PROBE = Path(__file__).with_name("_probe.py")
"""The fast probe: a stdlib-only script the measuring interpreter runs as the child."""
_LAUNCHER = LAUNCHER
_TAIL_LINES = 6


@dataclass(frozen=True)
class Budget:
    """Counted limits of one measurement: the run stops at the first event past one, on every machine the same
    (status ``budget``), where a CPU or wall-clock limit would stop it at a point that depends on the machine."""

    trace_events: int | None = None
    """Instruction events of owned code (what ``trace_length`` counts); None: no budget."""
    state_slots: int | None = None
    """State slots walked (what ``state_load`` sums) over the whole run; None: no budget."""
    state_objects: int | None = None
    """Containers and instances walked over the whole run (one per object per observation): what a walk of
    many small objects costs, which ``state_slots`` undercounts; None: no budget."""

    def config(self) -> dict[str, int | None]:
        return {"trace": self.trace_events, "state": self.state_slots, "objects": self.state_objects}


@dataclass(frozen=True)
class Measurement:
    """Metrics of one run; the three metrics are ``None`` unless ``status == "ok"``."""

    status: str
    """``ok`` or the failure: ``timeout``, ``memory``, ``crash``, ``output-limit``, ``error``; ``budget``: a
    counted budget (``Budget``) was exceeded and the run stopped there; ``inexact``: a snapshot run refused
    before running (its copy cannot stand for the clean program)."""
    detail: str
    """Why the status is not ``ok`` (e.g. the program's traceback tail); empty when ok."""
    trace_length: int | None
    """Instruction events in owned code, excluded lines not counted, up to exit or ``os._exit``."""
    peak_state: int | None
    """max_t |S_t| over observations; ``None`` when measured with ``state=False``."""
    state_load: int | None
    """sum_t |S_t| over observations; ``None`` when measured with ``state=False``."""
    toolchain: str
    """The version of what ran and measured the program: x.y.z of the interpreter (Python), the compiler's
    version string (C++). The builder's adapter writes it into each task's meta under its own key."""
    stdout: bytes
    """The program's own standard output."""
    accelerated: bool = False
    """True when the probe's C extension counted the instructions (same numbers, faster)."""
    state_objects: int | None = None
    """Containers and instances the state walks expanded over the run (what ``Budget.state_objects`` counts);
    ``None`` unless ok and measured with state."""
    snapshots: tuple[tuple[str, int, int | None, int | None], ...] = ()
    """``(label, trace_length, peak_state, state_load)`` at each checkpoint a measurement copy reached, in
    the order reached (``measure(..., snapshots=...)``); empty for any other measurement."""
    exceeded: str | None = None
    """With status ``budget``: which budget stopped the run (``trace``, ``state`` or ``objects``, as named by
    ``Budget.config``); None otherwise."""

    def snapshot(self, label: str) -> Measurement | None:
        """The metrics as they were at the checkpoint ``label``, as a measurement of their own (None if never
        reached); its stdout is empty: the checkpoint printed nothing."""
        for name, trace, peak, load in self.snapshots:
            if name == label:
                return Measurement(self.status, self.detail, trace, peak, load, self.toolchain, b"", self.accelerated)
        return None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def measure(
    source: str,
    stdin: bytes,
    *,
    filename: str = "main.py",
    python: str | None = None,
    exclude_lines: frozenset[int] = frozenset(),
    hidden_prefix: str | None = None,
    state: bool = True,
    timeout_s: float = 60.0,
    limits: Limits | None = None,
    library: Path | None = None,
    snapshots: Snapshots | None = None,
    max_str_digits: int | None = None,
    budget: Budget | None = None,
    state_stride: int = 1,
) -> Measurement:
    """Run ``source`` as ``__main__`` on ``stdin`` in a child and measure it; never raises for the program's faults.

    Owned code is every code object compiled from ``source`` under ``filename``.
    Instruction and line events on ``exclude_lines`` (1-based lines of ``source``)
    are not counted, and names starting with ``hidden_prefix`` are not state
    roots: both mark instrumentation inserted into a clean program. The run ends
    at normal exit, ``sys.exit``, an uncaught exception (status ``crash``) or a
    call of ``os._exit`` (the state arms' checkpoint). ``state=False`` measures
    only ``trace_length`` (faster). ``python`` is the interpreter that runs the
    program (default: the one running execstate); counts differ across CPython
    versions, so ``Measurement.toolchain`` records it. ``limits`` are the sandbox
    limits of the run (wall, CPU, memory, output, file size); without them the
    run gets ``Limits(wall_s=timeout_s, cpu_s=timeout_s)`` (``timeout_s`` is
    ignored when ``limits`` is given). Each call runs a fresh copy of ``source``
    alone in a fresh directory, and the metrics come back over an inherited
    pipe, never through a file the program could write. ``library`` is a
    declared environment's package folder, on ``sys.path`` read-only; its code
    is foreign (never counted) like the standard library's. ``snapshots``: ``source`` is a measurement
    copy whose checkpoints call the probe's hook (``Snapshots``); the result's ``snapshots`` hold the
    metrics at each, and status ``inexact`` (nothing ran) says the copy cannot stand for the clean program.
    ``max_str_digits``: the child's limit on the digits of an int converted to or from text
    (``PYTHONINTMAXSTRDIGITS``; 0: none; None: the interpreter's default).
    ``budget``: counted limits; the run stops at the first event past one (status ``budget``, the detail
    names the budget and its value), the same on every machine. ``state_stride`` > 1: a sampled walk, at
    every ``state_stride``-th observation only (fixed, so deterministic): ``peak_state``, ``state_load`` and
    ``state_objects`` then cover those observations, and times ``state_stride`` estimate the whole walk's.
    """
    return run_probe(
        PROBE,
        source,
        stdin,
        filename=filename,
        python=python,
        exclude_lines=exclude_lines,
        hidden_prefix=hidden_prefix,
        state=state,
        timeout_s=timeout_s,
        limits=limits,
        library=library,
        snapshots=snapshots,
        max_str_digits=max_str_digits,
        budget=budget,
        state_stride=state_stride,
    )


@dataclass(frozen=True)
class Snapshots:
    """What makes a measurement a snapshot run: the hook's name and what the copy must equal.

    ``hook`` is the name (starting with the hidden prefix) the program calls as ``hook(label)``.
    ``origins[i]`` is the clean line that line ``i + 1`` of the copy comes from (0: inserted).
    ``clean`` is the clean program; ``copies`` are other copies (text, origins) whose runs the
    snapshots stand for. The probe compares the instructions of all of them before it runs.
    """

    hook: str
    origins: tuple[int, ...]
    clean: str
    copies: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def config(self) -> dict[str, Any]:
        return {
            "snapshot_hook": self.hook,
            "equivalent_to": {
                "origins": list(self.origins),
                "clean": self.clean,
                "copies": [[f"copy {i + 1}", text, list(origins)] for i, (text, origins) in enumerate(self.copies)],
            },
        }


def run_probe(
    probe: Path,
    source: str,
    stdin: bytes,
    *,
    filename: str = "main.py",
    python: str | None = None,
    exclude_lines: frozenset[int] = frozenset(),
    hidden_prefix: str | None = None,
    state: bool = True,
    timeout_s: float = 60.0,
    limits: Limits | None = None,
    accelerate: bool = True,
    library: Path | None = None,
    snapshots: Snapshots | None = None,
    max_str_digits: int | None = None,
    budget: Budget | None = None,
    state_stride: int = 1,
) -> Measurement:
    """``measure`` with an explicit probe script (the tests pass the reference probe).

    ``accelerate=False`` makes the fast probe ignore its C extension (pure-Python fallback).
    """
    interpreter = python or sys.executable
    version = python_version(interpreter)
    options: dict[str, Any] = {"filename": filename, "exclude_lines": sorted(exclude_lines), "state": state}
    options |= {"hidden_prefix": hidden_prefix, "accelerate": accelerate}
    options["accelerator_dir"] = accelerator_dir(interpreter) if accelerate else None
    if snapshots is not None:
        options |= snapshots.config()
    if budget is not None:
        options["budget"] = budget.config()
    if state_stride > 1:
        options["state_stride"] = state_stride
    # not TemporaryDirectory: its recursive clean-up fails on a program's 1,500-deep tree (RecursionError)
    with program_directory("execstate-metrics-") as tmp, ResultPipe() as pipe:
        config = _write_config(Path(tmp), source, options, pipe)
        limits = limits or Limits(wall_s=timeout_s, cpu_s=timeout_s)
        env = scrubbed_env(extra={"PYTHONINTMAXSTRDIGITS": str(max_str_digits)} if max_str_digits is not None else None)
        accel = options["accelerator_dir"]
        readable: list[Path | str] = [probe, _LAUNCHER, PROBE, *([str(accel)] if accel else [])]
        result = run_script(
            interpreter,
            probe,
            [str(config)],
            stdin,
            limits,
            env=env,
            cwd=config.parent,
            pass_fds=(pipe.write_fd,),
            readable=readable,
            library=library,
        )
    report, problem = pipe.report()
    return _classify(result, report, problem, version)


def _write_config(tmp: Path, source: str, options: dict[str, Any], pipe: ResultPipe) -> Path:
    """The program alone in ``tmp/program/`` (its working directory and sys.path[0]), named as a plain run
    names it, with the config beside it, which the probe deletes before the program's first line."""
    program = tmp / "program"
    program.mkdir()
    source_path = program / Path(options["filename"]).name
    source_path.write_text(source, encoding="utf-8")
    config = {
        **options,
        "source_path": str(source_path),
        "result_fd": pipe.write_fd,
        "token": pipe.token,
        "launcher": str(_LAUNCHER),
        "runner": str(PROBE),
    }
    path = program / ".execstate-probe.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def _classify(result: SandboxResult, report: dict | None, problem: str, version: str) -> Measurement:
    """Combine the sandbox outcome with the probe's report into one Measurement."""

    def failed(status: str, detail: str) -> Measurement:
        return Measurement(status, detail, None, None, None, version, result.stdout)

    if result.status in ("timeout", "memory", "output-limit"):
        return failed(result.status, result.describe())
    if report is None:
        status = "crash" if result.status == "crash" else "error"
        return failed(status, f"{problem}: {result.describe()}")
    if report["outcome"] == "inexact":
        return failed("inexact", report["detail"])
    if report["outcome"] == "budget":
        return replace(failed("budget", report["detail"]), exceeded=report.get("exceeded"))
    if report["outcome"] == "syntax-error":
        return failed("error", f"the program does not compile under Python {version}: {report['detail'].strip()}")
    if report["outcome"] == "exception":
        return failed("crash", _tail(report["detail"]))
    if report["exit_code"] != 0:
        return failed(
            "crash",
            f"the program exited with status {report['exit_code']}; " + _tail(result.stderr.decode("utf-8", "replace")),
        )
    return Measurement(
        "ok",
        "",
        report["trace_length"],
        report["peak_state"],
        report["state_load"],
        version,
        result.stdout,
        bool(report.get("accelerated")),
        report.get("state_objects"),
        _snapshots(report.get("snapshots") or ""),
    )


def _snapshots(text: str) -> tuple[tuple[str, int, int | None, int | None], ...]:
    """The probe's ``label=trace,peak,load;...`` (``-`` for a metric not measured)."""
    found = []
    for item in filter(None, text.split(";")):
        label, _, values = item.partition("=")
        trace, peak, load = (None if v == "-" else int(v) for v in values.split(","))
        assert trace is not None
        found.append((label, trace, peak, load))
    return tuple(found)


def _tail(text: str) -> str:
    return "\n".join(text.strip().splitlines()[-_TAIL_LINES:])


@functools.cache
def python_version(interpreter: str) -> str:
    """x.y.z of ``interpreter``; raises FileNotFoundError naming it when it does not exist."""
    if not Path(interpreter).is_file():
        raise FileNotFoundError(f"Python interpreter not found: {interpreter} (pass the path of an existing python)")
    out = subprocess.run(
        [interpreter, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()
