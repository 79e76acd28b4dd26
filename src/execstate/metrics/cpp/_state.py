"""Peak state and state load of a C++ run from the ``observe`` build's stderr (SPEC 6, C++ convention)."""

from __future__ import annotations

import re

SLOTS_MARKER = "__execstate_slots__="
"""The ``observe`` instrumentation writes ``\\n__execstate_slots__=N\\n`` to stderr at the top of every
iteration of the selected loop; N is the number of scalar slots of the projected variables."""
_SLOTS = re.compile(rb"\n" + re.escape(SLOTS_MARKER.encode()) + rb"(\d+)\n")


def observations(stderr: bytes) -> list[int]:
    """|S_t| of every observation in ``stderr``, in order.

    A marker counts only as a whole line of its own: preceded and followed by a
    newline that belong to it (the instrumentation writes both), so text the
    program writes to stderr around it does not shift or hide it, and
    ``x__execstate_slots__=5`` inside a line of the program's is not one.
    """
    return [int(n) for n in _SLOTS.findall(stderr)]


def state_metrics(stderr: bytes, upto: int | None = None) -> tuple[int, int]:
    """``(peak, load)`` = (max_t |S_t|, sum_t |S_t|) over the first ``upto`` observations (all when None).

    Observations are the selected loop's iterations (SPEC 6): a final arm
    takes every iteration of the clean run (``upto=None``); the inside arm the
    iterations 1..k (``upto=k``: the checkpoint fires at the top of iteration
    k, which is observed); the post arm every iteration up to the exit of the
    loop execution that contains k (``upto`` = that iteration's number, or
    ``None`` on the stderr of an observing run that itself stops at the post
    checkpoint). No observation gives ``(0, 0)``. ``ValueError`` when
    ``upto`` is negative or exceeds the observations in ``stderr`` (the
    endpoint was never reached, so the numbers would describe another run).
    """
    sizes = observations(stderr)
    if upto is not None:
        if upto < 0 or upto > len(sizes):
            raise ValueError(f"asked for the first {upto} observations, but stderr holds {len(sizes)}")
        sizes = sizes[:upto]
    return max(sizes, default=0), sum(sizes)
