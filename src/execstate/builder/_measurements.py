"""Measurements remembered within a process, keyed by everything that decides them, so a build never
measures the same run twice.

A measurement is a deterministic function of the language adapter (interpreter or
compiler, limits, environment: its ``repr``, a frozen dataclass's fields), the
program text, the input bytes, the endpoint (loop, projection, mode, k and the
instrumented copy) and whether state is walked. ``execstate construct`` tries
several loops of one problem on the same inputs, and each try runs the unchanged
builder: the clean program's trace and final-arm measurements of those inputs
are the same every time, so the second try takes them from here and measures
only its own checkpoints. Construct's own trace measurement of an input is the
builder's first one of it.

Only successful measurements and those stopped at a counted budget are kept (a
timeout may not recur on a quieter machine), and ``repeat`` keeps the builder's repeated measurements of one input
(the trace-order check's three) distinct: each is still a run of its own the
first time. The table lives in the process (a pool worker keeps its own) and
holds at most ``MAX_ENTRIES`` measurements, least recently used first out.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from execstate.languages import CheckpointMeasuring, Endpoint, Language, StatePredicting
from execstate.metrics import Measurement

MAX_ENTRIES = 128
"""Measurements kept per process (each holds its run's stdout)."""


@dataclass
class MeasurementStats:
    """How many measurements this process took from the table and how many it ran."""

    hits: int = 0
    runs: int = 0


_TABLE: OrderedDict[str, Measurement] = OrderedDict()
_RUNS: OrderedDict[str, tuple[Measurement, tuple[Measurement, ...]] | None] = OrderedDict()
_OUT_OF_CPU: OrderedDict[str, Measurement] = OrderedDict()
"""One-run measurements over a budget or out of CPU time, by program and input (any checkpoints): the
copies count the clean program's events and state, CPU time does not depend on the machine's load, and
every copy does at least the clean program's work to its end."""
_LOCK = threading.Lock()  # builds on threads share the table; the measurement itself runs unlocked
STATS = MeasurementStats()


def measurement_key(
    lang: Language, source: str, stdin: bytes, endpoint: Endpoint | None, state: bool, repeat: int
) -> str:
    """The SHA-256 naming one measurement: the adapter's fields, program, input, endpoint, state and repeat."""
    h = hashlib.sha256()
    for part in (repr(lang), source, repr(endpoint), f"state={state} repeat={repeat}"):
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "little") + data)
    h.update(len(stdin).to_bytes(8, "little") + stdin)
    return h.hexdigest()


def measure_once(
    lang: Language, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool, repeat: int = 0
) -> Measurement:
    """``lang.measure(source, stdin, endpoint, state=state)``, run only if this process has not run it yet."""
    key = measurement_key(lang, source, stdin, endpoint, state, repeat)
    return _once(key, lambda: lang.measure(source, stdin, endpoint, state=state))


def measure_once_predicted(lang: StatePredicting, source: str, stdin: bytes, stride: int) -> Measurement:
    """``lang.predict_state(source, stdin, stride)``, run only if this process has not run it yet."""
    key = measurement_key(lang, source, stdin, None, True, 0) + f"predict/{stride}"
    return _once(key, lambda: lang.predict_state(source, stdin, stride))


def _once(key: str, run: Callable[[], Measurement]) -> Measurement:
    """The table's measurement under ``key``, else ``run()``'s, kept when it measured or stopped at a budget (a
    count: the same on every run); a limit reached or a failure is not kept (it may not recur)."""
    with _LOCK:
        found = _TABLE.get(key)
        if found is not None:
            _TABLE.move_to_end(key)
            STATS.hits += 1
            return found
    m = run()
    with _LOCK:
        STATS.runs += 1
        if m.ok or m.status == "budget":
            _TABLE[key] = m
            while len(_TABLE) > MAX_ENTRIES:
                _TABLE.popitem(last=False)
    return m


def measure_checkpoints_once(
    lang: CheckpointMeasuring, source: str, stdin: bytes, final: Endpoint, endpoints: tuple[Endpoint, ...]
) -> tuple[Measurement, tuple[Measurement, ...]] | None:
    """``lang.measure_checkpoints(source, stdin, endpoints)``, run only if this process has not run it yet.

    A run that measured (or that the adapter declined: None, decided by the program text alone) is kept; a
    failed run is not, except one that ran out of CPU time: then every one-run measurement of this program
    and input (another loop, another projection) reports that failure without running. Each endpoint's
    measurement also enters the table ``measure_once`` reads, so a later per-arm request for it (another
    construct proposal, say) is not run again either; ``final`` is the endpoint such a request names for
    the clean run to its end.
    """
    program = measurement_key(lang, source, stdin, None, True, 0)
    key = program + repr(endpoints)
    with _LOCK:
        if key in _RUNS:
            _RUNS.move_to_end(key)
            STATS.hits += 1
            return _RUNS[key]
        spent = _OUT_OF_CPU.get(program)
        if spent is not None:  # another loop or projection of this program and input: it runs out again
            STATS.hits += 1
            return spent, tuple(spent for _ in endpoints)
    got = lang.measure_checkpoints(source, stdin, endpoints)
    with _LOCK:
        STATS.runs += 1
        if got is not None and _spent(got[0]):
            _OUT_OF_CPU[program] = got[0]
            while len(_OUT_OF_CPU) > MAX_ENTRIES:
                _OUT_OF_CPU.popitem(last=False)
        if got is None or got[0].ok:
            _RUNS[key] = got
            while len(_RUNS) > MAX_ENTRIES:
                _RUNS.popitem(last=False)
        if got is not None and got[0].ok:
            _TABLE[measurement_key(lang, source, stdin, final, True, 0)] = got[0]
            for endpoint, m in zip(endpoints, got[1]):
                if m.ok:
                    _TABLE[measurement_key(lang, source, stdin, endpoint, True, 0)] = m
            while len(_TABLE) > MAX_ENTRIES:
                _TABLE.popitem(last=False)
    return got


def _spent(m: Measurement) -> bool:
    """A run that every copy of the program on this input repeats: over a counted budget (the copies count
    the clean program's events and state), or out of CPU time."""
    return m.status == "budget" or (m.status == "timeout" and "CPU limit" in m.detail)


def forget_measurements() -> None:
    """Empty this process's tables and zero its counts (benchmarks measure both ways in one run)."""
    with _LOCK:
        _TABLE.clear()
        _RUNS.clear()
        _OUT_OF_CPU.clear()
        STATS.hits = STATS.runs = 0


__all__ = [
    "MAX_ENTRIES",
    "STATS",
    "MeasurementStats",
    "forget_measurements",
    "measure_checkpoints_once",
    "measure_once",
    "measure_once_predicted",
    "measurement_key",
]
