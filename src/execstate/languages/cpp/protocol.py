"""The wire format between an instrumented C++ copy and the builder: ``execstate_emit.hpp`` and the markers it writes.

The header (``HEADER_PATH``) is what every instrumented copy includes: it serializes the
projection as canonical JSON, refuses a type it cannot serialize (``REFUSAL_MARKER``, at compile
time or, for NaN and non-UTF-8 text, at run time with ``REFUSED_EXIT_CODE``), writes a ``count``
copy's K (``iterations_cpp``) and an ``observe`` copy's slot records (``parse_slots``) to stderr.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from execstate.languages._protocol import COUNT_MARKER

HEADER_NAME = "execstate_emit.hpp"
HEADER_PATH = Path(__file__).parent / "include" / HEADER_NAME
"""The header every instrumented copy includes; pass ``-I`` its folder to the compiler. The folder holds the
header only: the compile cache's key covers every file under an include directory (``execstate.metrics.cpp``),
so a Python module beside it would make every key new whenever it (or its bytecode) changed."""

REFUSAL_MARKER = "execstate: cannot serialize variable '"
"""Starts both refusals: g++'s static assertion (a type the header cannot serialize, at compile
time) and the emitter's run-time message on stderr (NaN/infinity, non-UTF-8 text; exit status 3)."""
REFUSED_EXIT_CODE = 3
SLOTS_MARKER = "__execstate_slots__="
RUN_MARKER = "__execstate_run__="
LOOP_EXIT_MARKER = "__execstate_loop_exit__="


def iterations_cpp(stderr: bytes) -> int | None:
    """K from the stderr of a ``count`` run (the last marker), or None if it did not report."""
    found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", stderr)
    return int(found[-1]) if found else None


LOOP_COUNT_MARKER = "__execstate_loop_iterations__="
"""Starts each loop's K in the stderr of a copy that counts every loop at once (``count_all_cpp``)."""


def loop_iterations_cpp(stderr: bytes, loops: int) -> list[int] | None:
    """Each loop's K (in the order the copy numbered them) from the stderr of a ``count_all_cpp`` run, or None
    unless it reported exactly ``loops`` of them, numbered 0 to ``loops - 1`` once each (the last report wins
    when the program's own stderr repeats the markers)."""
    found: dict[int, int] = {}
    for m in re.finditer(rb"\n" + re.escape(LOOP_COUNT_MARKER.encode()) + rb"(\d+):(\d+)\n", stderr):
        found[int(m.group(1))] = int(m.group(2))
    if sorted(found) != list(range(loops)):
        return None
    return [found[i] for i in range(loops)]


@dataclass(frozen=True)
class SlotTrace:
    """What an ``observe`` run wrote on stderr, in order.

    ``events`` holds ``(run, slots, repeat)`` for ``repeat`` consecutive iterations of loop
    execution ``run`` (1-based, in order of entry) that each started with ``slots`` scalar slots,
    and ``(run, -1, 0)`` where execution ``run`` ended by its normal exit or a ``break``.
    """

    events: tuple[tuple[int, int, int], ...]

    @property
    def iterations(self) -> int:
        """K: every iteration observed."""
        return sum(repeat for _, _, repeat in self.events)

    def metrics(self, endpoint: Literal["final", "inside", "post"], k: int | None = None) -> tuple[int, int] | None:
        """``(peak, load)`` of the slots over the observations up to ``endpoint``, or None if it is never reached.

        ``final``: every iteration. ``inside``: iterations 1..k (the k-th is the checkpoint's state).
        ``post``: every iteration before the exit of the loop execution that holds iteration k.
        """
        if endpoint != "final" and (k is None or k < 1):
            raise ValueError(f"the {endpoint} endpoint needs the selected iteration k >= 1")
        peak = load = seen = 0
        target_run: int | None = None
        for run, slots, repeat in self.events:
            if repeat == 0:
                if endpoint == "post" and target_run == run:
                    return peak, load
                continue
            take = repeat
            if endpoint == "inside" and k is not None:
                take = min(repeat, k - seen)
            if take > 0:
                peak = max(peak, slots)
                load += slots * take
            if k is not None and seen < k <= seen + repeat:
                target_run = run
            seen += repeat
            if endpoint == "inside" and k is not None and seen >= k:
                return peak, load
        return (peak, load) if endpoint == "final" else None


_OBSERVED = re.compile(
    rb"\n(?:"
    + re.escape(RUN_MARKER.encode())
    + rb"(\d+)|"
    + re.escape(SLOTS_MARKER.encode())
    + rb"(\d+)(?:\*(\d+))?|"
    + re.escape(LOOP_EXIT_MARKER.encode())
    + rb"(\d+))(?=\n)"
)


def parse_slots(stderr: bytes) -> SlotTrace:
    """Read the records an ``observe`` run wrote to stderr (each starts and ends with ``\\n``):

    - ``__execstate_run__=R``: the following iterations belong to loop execution R (1-based,
      numbered in order of entry; written when the execution observed changes, e.g. after a
      nested call ran the same loop);
    - ``__execstate_slots__=N`` or ``__execstate_slots__=N*C``: one, or C consecutive,
      iterations whose top saw N scalar slots in the projection;
    - ``__execstate_loop_exit__=R``: execution R left the loop normally or by ``break``.

    The records are buffered and written at exit (and every 64 KiB), so a run that does not end
    normally (abort, ``_exit``, a signal) may lose the last ones.
    """
    events: list[tuple[int, int, int]] = []
    run = 0
    for m in _OBSERVED.finditer(stderr):
        if m.group(1) is not None:
            run = int(m.group(1))
        elif m.group(2) is not None:
            events.append((run, int(m.group(2)), int(m.group(3) or 1)))
        else:
            events.append((int(m.group(4)), -1, 0))
    return SlotTrace(tuple(events))
