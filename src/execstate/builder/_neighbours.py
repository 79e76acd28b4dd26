"""Neighbour oracles and checkpoint-sweep positions of one case (SPEC 11): answers a model never sees.

Neighbour oracles let the analysis recognise a wrong state answer that is the
true state somewhere else: the inside state at iterations k-3 .. k+3, and the
post state at the exits of the neighbouring executions of the selected loop.
Each is one run of the instrumented copy at another iteration (one hash seed:
the admitted oracles are already known to be deterministic); a run that fails
or does not print one line is left out, never guessed. The final arms'
neighbour is the other final task's oracle (the output on the other arm's
input), already in ``tasks.jsonl``.
"""

from __future__ import annotations

from collections.abc import Callable

from execstate.builder._spec import Checkpoint

NEIGHBOUR_REACH = 3
"""Iterations probed on each side of k."""

Probe = Callable[[str, int], "str | None"]
"""``probe(mode, k)``: the canonical JSON line (no newline) the ``mode`` checkpoint at iteration k prints, or None."""


def sweep_iterations(cp: Checkpoint, K: int) -> list[int]:
    """The extra inside checkpoints a spec asks for, ascending: ``inside_iterations`` plus ``sweep`` evenly
    spaced iterations ``floor(1 + i (K-1)/(n-1) + 1/2)`` for i = 0..n-1 (halves round up; repeats dropped).
    May exceed K: the caller excludes such a case."""
    ks = set(cp.inside_iterations)
    if cp.sweep:
        ks |= {(2 * (cp.sweep - 1) + 2 * i * (K - 1) + (cp.sweep - 1)) // (2 * (cp.sweep - 1)) for i in range(cp.sweep)}
    return sorted(ks)


def inside_neighbours(probe: Probe, k: int, K: int) -> list[dict]:
    """``[{"d", "iteration", "state"}]``: the inside state at iteration k+d for 0 < |d| <= 3 within 1..K."""
    out = []
    for d in (*range(-NEIGHBOUR_REACH, 0), *range(1, NEIGHBOUR_REACH + 1)):
        if 1 <= k + d <= K:
            state = probe("inside", k + d)
            if state is not None:
                out.append({"d": d, "iteration": k + d, "state": state})
    return out


def post_neighbours(probe: Probe, k: int, K: int, oracle: str) -> list[dict]:
    """``[{"d", "iteration", "state"}]``: the exit states of the loop executions just before (d = -1) and
    just after (d = +1) the one holding iteration k; a loop entered once has none.

    The post checkpoint armed at iteration j fires at the exit of the execution
    holding j, so the state as a function of j is constant over each execution.
    Galloping steps (1, 2, 4, ... iterations away from k) find a j in another
    execution, and bisection finds the nearest such j: the last iteration of the
    previous execution, or the first of the next one. Executions are assumed to
    end in distinct states (two equal neighbouring exits count as one).
    """
    same = oracle.rstrip("\n")
    out = []
    for step in (-1, 1):
        found = _nearest_change(probe, k, K, step, same)
        if found is not None:
            out.append({"d": step, "iteration": found[0], "state": found[1]})
    return out


def gallop_points(k: int, K: int) -> tuple[int, ...]:
    """The iterations ``post_neighbours`` probes while the post state stays the oracle's: k -+ 1, 2, 4, ...
    within 1..K, both directions (the bisection after a change probes between two of them)."""
    points = []
    for step in (-1, 1):
        dist = 1
        while 1 <= k + step * dist <= K:
            points.append(k + step * dist)
            dist *= 2
    return tuple(sorted(points))


def _nearest_change(probe: Probe, k: int, K: int, step: int, same: str) -> tuple[int, str] | None:
    """The iteration nearest k (in direction ``step``) whose post state differs from ``same``, and that state."""
    inside, dist = 0, 1  # |j - k| known to give ``same``; next distance to try
    while True:
        j = k + step * dist
        if not 1 <= j <= K:
            return None
        state = probe("post", j)
        if state is None:
            return None
        if state != same:
            break
        inside, dist = dist, dist * 2
    outside, found = dist, (j, state)
    while outside - inside > 1:  # invariant: k+step*inside gives ``same``, k+step*outside does not
        mid = (inside + outside) // 2
        state = probe("post", k + step * mid)
        if state is None:
            return found
        if state == same:
            inside = mid
        else:
            outside, found = mid, (k + step * mid, state)
    return found
