"""The build's measurement memo: measurements remembered within one build, keyed by everything that decides
them, so a build never measures the same run twice.

A measurement is a deterministic function of the language adapter (interpreter or
compiler, limits, environment: its ``repr``, a frozen dataclass's fields), the
program text, the input bytes, the endpoint (loop, projection, mode, k and the
instrumented copy) and whether state is walked. ``execstate construct`` tries
several loops of one problem on the same inputs, and each try runs the unchanged
builder with the problem's memo: the clean program's trace and final-arm measurements of those inputs
are the same every time, so the second try takes them from the memo and measures
only its own checkpoints. Construct's own trace measurement of an input is the
builder's first one of it.

Only successful measurements and those stopped at a counted budget are kept (a
timeout may not recur on a quieter machine), and ``repeat`` keeps the builder's repeated measurements of one input
(the trace-order check's three) distinct: each is still a run of its own the
first time. A ``Measurements`` is made by its owner (``build`` makes one per build, ``build_case`` one per case
when given none, construct one per problem, the pipeline one for its main build and the variants build that
rebuilds the same originals) and closed when it ends; it holds at most ``max_entries`` measurements (default
``MAX_ENTRIES``), least recently used first out. Sent to another process (a Dask worker), it arrives empty.
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
"""Measurements a memo keeps (each holds its run's stdout)."""


@dataclass
class MeasurementStats:
    """How many measurements a memo gave from its table and how many it ran."""

    hits: int = 0
    runs: int = 0


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


class Measurements:
    """One owner's memo of measurements (a build's, a case's, a construct problem's); threads may share it."""

    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        if max_entries < 1:
            raise ValueError(f"a measurement memo must hold at least one measurement, not {max_entries}")
        self.max_entries = max_entries
        """How many measurements each of the memo's tables keeps (least recently used first out)."""
        self.stats = MeasurementStats()
        """What this memo gave from its table and what it ran."""
        self._table: OrderedDict[str, Measurement] = OrderedDict()
        self._runs: OrderedDict[str, tuple[Measurement, tuple[Measurement, ...]] | None] = OrderedDict()
        self._out_of_cpu: OrderedDict[str, Measurement] = OrderedDict()
        """One-run measurements over a budget or out of CPU time, by program and input (any checkpoints): the
        copies count the clean program's events and state, CPU time does not depend on the machine's load,
        and every copy does at least the clean program's work to its end."""
        self._lock = threading.Lock()  # the measurement itself runs unlocked

    def __reduce__(self) -> tuple[type[Measurements], tuple[int]]:
        """Pickled (to a Dask worker), a memo arrives empty: its measurements stay with the process that ran them."""
        return (Measurements, (self.max_entries,))

    def tables(self) -> tuple[dict[str, Measurement], dict[str, object], dict[str, Measurement]]:
        """A copy of what the memo holds, as plain picklable dicts (pickling the memo itself gives an empty one):
        for a process that hands its measurements to a later build in another process, which ``with_tables``
        restores. Measurements are deterministic functions of their key, so they hold wherever the key does."""
        with self._lock:
            return dict(self._table), dict(self._runs), dict(self._out_of_cpu)

    @classmethod
    def with_tables(
        cls,
        tables: tuple[dict[str, Measurement], dict[str, object], dict[str, Measurement]],
        max_entries: int = MAX_ENTRIES,
    ) -> Measurements:
        """A new memo holding ``tables`` (``Measurements.tables()`` of another memo), at most ``max_entries`` of
        each kind (the last ones)."""
        memo = cls(max_entries)
        table, runs, out_of_cpu = tables
        for target, source in ((memo._table, table), (memo._runs, runs), (memo._out_of_cpu, out_of_cpu)):
            for key, value in source.items():
                _keep(target, key, value, max_entries)
        return memo

    def measure_once(
        self, lang: Language, source: str, stdin: bytes, endpoint: Endpoint | None, *, state: bool, repeat: int = 0
    ) -> Measurement:
        """``lang.measure(source, stdin, endpoint, state=state)``, run only if this memo has not run it yet."""
        key = measurement_key(lang, source, stdin, endpoint, state, repeat)
        return self._once(key, lambda: lang.measure(source, stdin, endpoint, state=state))

    def measure_once_predicted(self, lang: StatePredicting, source: str, stdin: bytes, stride: int) -> Measurement:
        """``lang.predict_state(source, stdin, stride)``, run only if this memo has not run it yet."""
        key = measurement_key(lang, source, stdin, None, True, 0) + f"predict/{stride}"
        return self._once(key, lambda: lang.predict_state(source, stdin, stride))

    def _once(self, key: str, run: Callable[[], Measurement]) -> Measurement:
        """The table's measurement under ``key``, else ``run()``'s, kept when it measured or stopped at a budget
        (a count: the same on every run); a limit reached or a failure is not kept (it may not recur)."""
        with self._lock:
            found = self._table.get(key)
            if found is not None:
                self._table.move_to_end(key)
                self.stats.hits += 1
                return found
        m = run()
        with self._lock:
            self.stats.runs += 1
            if m.ok or m.status == "budget":
                _keep(self._table, key, m, self.max_entries)
        return m

    def measure_checkpoints_once(
        self, lang: CheckpointMeasuring, source: str, stdin: bytes, final: Endpoint, endpoints: tuple[Endpoint, ...]
    ) -> tuple[Measurement, tuple[Measurement, ...]] | None:
        """``lang.measure_checkpoints(source, stdin, endpoints)``, run only if this memo has not run it yet.

        A run that measured (or that the adapter declined: None, decided by the program text alone) is kept; a
        failed run is not, except one that ran out of CPU time: then every one-run measurement of this program
        and input (another loop, another projection) reports that failure without running. Each endpoint's
        measurement also enters the table ``measure_once`` reads, so a later per-arm request for it (another
        construct proposal, say) is not run again either; ``final`` is the endpoint such a request names for
        the clean run to its end.
        """
        program = measurement_key(lang, source, stdin, None, True, 0)
        key = program + repr(endpoints)
        with self._lock:
            if key in self._runs:
                self._runs.move_to_end(key)
                self.stats.hits += 1
                return self._runs[key]
            spent = self._out_of_cpu.get(program)
            if spent is not None:  # another loop or projection of this program and input: it runs out again
                self.stats.hits += 1
                return spent, tuple(spent for _ in endpoints)
        got = lang.measure_checkpoints(source, stdin, endpoints)
        with self._lock:
            self.stats.runs += 1
            if got is not None and _spent(got[0]):
                _keep(self._out_of_cpu, program, got[0], self.max_entries)
            if got is None or got[0].ok:
                _keep(self._runs, key, got, self.max_entries)
            if got is not None and got[0].ok:
                _keep(self._table, measurement_key(lang, source, stdin, final, True, 0), got[0], self.max_entries)
                for endpoint, m in zip(endpoints, got[1]):
                    if m.ok:
                        _keep(self._table, measurement_key(lang, source, stdin, endpoint, True, 0), m, self.max_entries)
        return got

    def close(self) -> None:
        """Forget every measurement (its owner is done); the counts stay for the owner to read."""
        with self._lock:
            self._table.clear()
            self._runs.clear()
            self._out_of_cpu.clear()

    def __len__(self) -> int:
        """How many measurements the memo holds (one-run measurements and their parts counted apart)."""
        return len(self._table) + len(self._runs) + len(self._out_of_cpu)


def _keep(table: OrderedDict, key: str, value: object, limit: int) -> None:
    """Put ``value`` in ``table`` under ``key`` (last used), dropping the least recently used beyond ``limit``."""
    table[key] = value
    table.move_to_end(key)
    while len(table) > limit:
        table.popitem(last=False)


def _spent(m: Measurement) -> bool:
    """A run that every copy of the program on this input repeats: over a counted budget (the copies count
    the clean program's events and state), or out of CPU time."""
    return m.status == "budget" or (m.status == "timeout" and "CPU limit" in m.detail)


__all__ = ["MAX_ENTRIES", "MeasurementStats", "Measurements", "measurement_key"]
