"""Screen many inputs of one Python program for trace length: batches of inputs, one sandboxed worker per batch."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from execstate.errors import ScreeningFailed
from execstate.metrics._accel import accelerator_dir
from execstate.metrics._channel import ResultPipe
from execstate.metrics._measure import _LAUNCHER, PROBE, _write_config
from execstate.sandbox import Limits, program_directory, run_script, scrubbed_env

WORKER = Path(__file__).with_name("_screen_probe.py")
"""The child-side worker: runs the program once per input under ``_probe.py``'s counters."""
_STARTUP_S = 10.0
"""Seconds a worker gets for itself on top of its inputs' budgets (interpreter start, compiling)."""
_LENGTH_BYTES = 8
_DEFAULT_LIMITS = Limits()


def screen_trace_lengths(
    source: str,
    inputs: Sequence[bytes],
    *,
    python: str = sys.executable,
    limits: Limits = _DEFAULT_LIMITS,
    jobs: int = 2,
    batch: int = 500,
    progress: Callable[[int], None] | None = None,
) -> list[int | None]:
    """``[measure(source, x, state=False).trace_length for x in inputs]``, computed in batches, much faster.

    Each batch of at most ``batch`` inputs runs in one sandboxed worker (the
    sandbox, probe and C counter of ``measure``) that compiles ``source`` once
    and runs it as a fresh ``__main__`` per input; ``jobs`` workers run at a
    time. An entry is ``None`` where ``measure`` would not be ``ok``: the
    program raised, exited non-zero, did not compile, or the input ran longer
    than ``limits.wall_s`` (or ``cpu_s``, whichever is smaller; seconds per
    input). ``limits.memory_mb`` bounds the worker as a whole. The program's
    output is discarded, so ``limits.output_bytes`` does not apply per input.
    ``progress`` is called in the caller's thread with the number of inputs of
    each finished batch. What a worker cannot reset between inputs (modules
    the program imported stay imported, changes it makes to them or to
    builtins stay, daemon threads it leaves keep running) is described in
    docs/metrics.md; a program that does none of these is counted exactly.
    """
    if not inputs:
        return []
    accel = accelerator_dir(python)
    spans = [(start, min(start + batch, len(inputs))) for start in range(0, len(inputs), batch)]
    results: list[int | None] = [None] * len(inputs)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_screen_batch, source, inputs[a:b], python, accel, limits): (a, b) for a, b in spans}
        for future in as_completed(futures):
            a, b = futures[future]
            results[a:b] = future.result()
            if progress is not None:
                progress(b - a)
    return results


def _screen_batch(
    source: str, inputs: Sequence[bytes], python: str, accel: str | None, limits: Limits
) -> list[int | None]:
    """One batch; a worker that ends early is replaced by a new one at the first input it did not report.

    A worker that dies before reporting its first input (a hard crash on it)
    costs that input its result: it is ``None`` and the next worker starts
    after it, so every input is tried at least once and the loop ends.
    """
    results: list[int | None] = [None] * len(inputs)
    start = 0
    while start < len(inputs):
        reported, finished, trusted = _run_worker(source, inputs[start:], python, accel, limits)
        if not trusted:  # the program wrote to the result pipe: run what is left one input per worker
            return results[:start] + [_alone(source, x, python, accel, limits) for x in inputs[start:]]
        results[start : start + len(reported)] = reported
        if finished:
            break
        start += len(reported) or 1
    return results


def _alone(source: str, data: bytes, python: str, accel: str | None, limits: Limits) -> int | None:
    reported, _, trusted = _run_worker(source, [data], python, accel, limits)
    return reported[0] if trusted and reported else None


def _run_worker(
    source: str, inputs: Sequence[bytes], python: str, accel: str | None, limits: Limits
) -> tuple[list[int | None], bool, bool]:
    """Trace lengths of the leading inputs the worker reported, whether it got through all of them, and
    whether its result pipe can be trusted (false when more than ``RESULT_CAP`` bytes arrived on it)."""
    per_input = min(limits.wall_s, limits.cpu_s)
    options: dict[str, Any] = {"filename": "main.py", "exclude_lines": [], "state": False, "hidden_prefix": None}
    options |= {"accelerate": True, "accelerator_dir": accel, "wall_s": per_input}
    budget = _STARTUP_S + per_input * len(inputs)
    worker_limits = Limits(
        wall_s=budget,
        cpu_s=budget,
        memory_mb=limits.memory_mb,
        output_bytes=limits.output_bytes,
        file_mb=limits.file_mb,
    )
    stdin = b"".join(len(x).to_bytes(_LENGTH_BYTES, "big") + x for x in inputs)
    with program_directory("execstate-screen-") as tmp, ResultPipe() as pipe:
        config = _write_config(Path(tmp), source, options, pipe)
        run_script(
            python,
            WORKER,
            [str(config)],
            stdin,
            worker_limits,
            env=scrubbed_env(),
            cwd=config.parent,
            pass_fds=(pipe.write_fd,),
            readable=[WORKER, _LAUNCHER, PROBE, *([accel] if accel else [])],
        )
    values, problem = pipe.reports()
    return *_read_reports(values, len(inputs)), not problem


def _read_reports(values: list[dict[str, Any]], count: int) -> tuple[list[int | None], bool]:
    """The per-input results in order (a line out of order ends the trusted prefix), and whether all came."""
    if values and values[0]["outcome"] == "syntax-error":
        return [None] * count, True
    reported: list[int | None] = []
    for value in values:
        if value["outcome"] == "worker-error":
            raise ScreeningFailed(f"the screening worker failed: {value.get('detail', '')}".strip())
        if value["outcome"] == "done":
            return reported, len(reported) == count
        if value.get("index") != len(reported):
            break
        ok = value["outcome"] in ("exit", "os-exit") and value.get("exit_code") == 0
        length = value.get("trace_length")
        reported.append(length if ok and isinstance(length, int) else None)
    return reported, False
