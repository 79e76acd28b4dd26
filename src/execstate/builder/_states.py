"""The state runs: the checkpoint states a case's oracles, neighbours and sweep come from, and their measurement.

A state is the line an inside or post copy prints at its checkpoint. Where the language has a states
copy (``CheckpointStates``), one run per seed prints every state the build needs (``states_together``);
else, or where that run lacks one, each comes from runs of its own copy (``state_oracle``, ``prober``).
Where the language measures checkpoints in one run (``CheckpointMeasuring``), the state rows' metrics come
from the long final arm's run (``measure_together``). Either way the tasks are the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from execstate.arms import arm_spec
from execstate.builder._checks import (
    check_checkpoint_size,
    check_fired,
    check_one_line,
    check_oracle_determinism,
    check_sweep_fields,
    check_sweep_reachability,
)
from execstate.builder._context import CaseContext
from execstate.builder._neighbours import NEIGHBOUR_REACH, gallop_points, sweep_iterations
from execstate.builder._plan import CheckpointMode, PlanRow, final_arms, state_arms
from execstate.languages import STATE_FAILED, CheckpointMeasuring, CheckpointStates, Endpoint, Instrumented
from execstate.metrics import Measurement
from execstate.records import SWEEP_SEPARATOR

POST_WINDOW = 64
"""Iterations on each side of k whose post states the states copy prints (the neighbour search rarely
looks further; beyond, each is one run of the post copy, as without the states copy)."""

SeedRun = tuple[dict[int, str | None], list[tuple[frozenset[int], str | None]]]
"""One seed's run of the states copy, parsed: inside (iteration -> state line, None where the projection
failed) and post (the iterations of each loop execution within the window, and its exit state line or None)."""


def state_oracle(case: CaseContext, inst: Instrumented, data: bytes, arm: str) -> str:
    """The state line the ``arm`` copy prints on ``data``, from one run per variation, checked."""
    results = [case.run(inst.source, data, variation) for variation in case.lang.variations]
    check_fired(case, arm, results)
    texts = [r.stdout for r in results]
    check_checkpoint_size(case, arm, texts)
    check_oracle_determinism(case, arm, texts)
    check_one_line(arm, texts[0])
    return texts[0].decode("utf-8")


def prober(case: CaseContext, loop_line: int, data: bytes) -> Callable[[str, int], str | None]:
    """``probe(mode, k)`` for neighbour oracles: one run at another iteration; None if it fails."""

    def probe(mode: str, k: int) -> str | None:
        inst = case.instrument(loop_line, mode, k)  # type: ignore[arg-type]
        res = case.run(inst.source, data)
        text = res.stdout.decode("utf-8", "replace") if res.ok else ""
        return text[:-1] if text.count("\n") == 1 and text.endswith("\n") else None

    return probe


@dataclass
class CaseStates:
    """The states of one run per seed of the states copy (``CheckpointStates``), parsed (``runs[i]``: the
    ``i``-th variation's run). Every state is exactly what the inside or post copy of that iteration prints."""

    case: CaseContext
    loop_line: int
    data: bytes
    k: int
    window: tuple[int, int]
    runs: list[SeedRun]
    marks: frozenset[int] = frozenset()
    """Iterations beyond the window whose post states the reference run printed too (``gallop_points``)."""

    def _post(self, run: int, j: int) -> tuple[bool, str | None]:
        """(found, state): the exit state of the execution holding iteration ``j`` in run ``run``."""
        for iterations, state in self.runs[run][1]:
            if j in iterations:
                return True, state
        return False, None

    def _checked(self, arm: str, lines: list[str | None]) -> str | None:
        """The oracle from the seeds' lines, checked as ``state_oracle`` checks the copies' outputs; None
        when a seed has no line (that path tells why, with the failing run's own evidence)."""
        if any(line is None for line in lines):
            return None
        texts = [(line or "").encode("utf-8") + b"\n" for line in lines]
        check_checkpoint_size(self.case, arm, texts)
        check_oracle_determinism(self.case, arm, texts)
        return texts[0].decode("utf-8")

    def oracle(self, arm: CheckpointMode) -> str:
        """The inside or post oracle; the per-copy runs (``state_oracle``) when a seed's run lacks it."""
        if arm == "inside":
            lines = [run[0].get(self.k) for run in self.runs]
        else:
            lines = [self._post(i, self.k)[1] for i in range(len(self.runs))]
        found = self._checked(arm, lines)
        if found is not None:
            return found
        return state_oracle(self.case, self.case.instrument(self.loop_line, arm, self.k), self.data, arm)

    def sweep_oracle(self, kk: int) -> str | None:
        """A sweep's inside oracle at iteration ``kk``, checked; None when a seed's run lacks it."""
        return self._checked(f"inside@k{kk}", [run[0].get(kk) for run in self.runs])

    def prober(self, separate: Callable[[str, int], str | None]) -> Callable[[str, int], str | None]:
        """The neighbour probe answered from the reference run, and by ``separate`` beyond what it printed."""

        def probe(mode: str, j: int) -> str | None:
            inside, _ = self.runs[0]
            if mode == "inside" and j in inside:
                return inside[j]
            if mode == "post" and (self.window[0] <= j <= self.window[1] or j in self.marks):
                return self._post(0, j)[1]  # an execution that never exits normally prints nothing: None
            return separate(mode, j)

        return probe


def states_together(case: CaseContext, loop_line: int, long: bytes, k: int, K: int) -> CaseStates | None:
    """One run per seed of the states copy, parsed; None when the language has no states copy, a run
    failed (the per-copy runs then decide, with their own evidence) or ``BuildOptions.measure_arms_apart`` is set."""
    lang = case.lang
    if case.opts.measure_arms_apart or not isinstance(lang, CheckpointStates):
        return None
    sweep = [kk for kk in sweep_iterations(case.spec.checkpoint, K) if kk <= K]
    near = range(max(1, k - NEIGHBOUR_REACH), min(K, k + NEIGHBOUR_REACH) + 1)
    window = (max(1, k - POST_WINDOW), min(K, k + POST_WINDOW))
    marks = tuple(j for j in gallop_points(k, K) if not window[0] <= j <= window[1])
    runs: list[SeedRun] = []
    for i, variation in enumerate(lang.variations):
        inside = (k, *sweep, *(near if i == 0 else ()))
        copy = lang.states_copy(
            case.source,
            loop_line,
            case.spec.checkpoint.variables,
            k,
            tuple(inside),
            window,
            stop=i > 0,
            marks=() if i > 0 else marks,
        )
        res = case.run(copy.source, long, variation)
        if not res.ok:
            return None
        parsed = parse_states(res.stdout)
        if parsed is None:
            return None
        runs.append(parsed)
    return CaseStates(case, loop_line, long, k, window, runs, frozenset(marks))


def parse_states(out: bytes) -> SeedRun | None:
    """A states copy's stdout parsed (``inside@<j>`` and ``post@<j,...>`` labelled lines); None if it is not that."""
    inside: dict[int, str | None] = {}
    post: list[tuple[frozenset[int], str | None]] = []
    try:
        for line in out.decode("utf-8").split("\n")[:-1]:
            label, _, state = line.partition("\t")
            value = None if state == STATE_FAILED else state
            if label.startswith("inside@"):
                inside[int(label[7:])] = value
            elif label.startswith("post@"):
                post.append((frozenset(int(j) for j in label[5:].split(",")), value))
            else:
                return None
    except ValueError:  # not UTF-8, or not a label the copy prints
        return None
    return inside, post


def sweep_rows(
    case: CaseContext, loop_line: int, K: int, long: bytes, inside_oracle: str, states: CaseStates | None
) -> list[PlanRow]:
    """Plan rows of the extra inside tasks of a checkpoint sweep (SPEC 11), checked like the inside arm."""
    rows, arm = [], state_arms()["inside"]
    for kk in sweep_iterations(case.spec.checkpoint, K):
        check_sweep_reachability(kk, K)
        ins = case.instrument(loop_line, "inside", kk)
        known = states.sweep_oracle(kk) if states else None
        oracle = known or state_oracle(case, ins, long, f"inside@k{kk}")
        check_sweep_fields(kk, oracle, inside_oracle)
        end = Endpoint(loop_line, case.spec.checkpoint.variables, "inside", kk, ins)
        suffix, extra = f"{SWEEP_SEPARATOR}{kk}", {"k": kk, "sweep": True}
        rows.append(PlanRow(arm, ins.source, long, oracle, "json", endpoint=end, suffix=suffix, extra=extra))
    return rows


def measure_together(case: CaseContext, plan: list[PlanRow]) -> dict[int, Measurement]:
    """Measurements of the plan's rows on the long input from one run (``CheckpointMeasuring``), by row.

    The clean run to its end is the long final arm's row; each state row's metrics are its snapshot (the
    rows of other copies, a loop trace's, are measured by runs of their own).
    Empty when the language cannot, the program cannot be measured so (the adapter says None: each
    row is then measured on its own, with the same numbers), or ``BuildOptions.measure_arms_apart`` is set.
    """
    lang = case.lang
    finals = [i for i, row in enumerate(plan) if row.arm == final_arms()["long"]]
    if case.opts.measure_arms_apart or not isinstance(lang, CheckpointMeasuring) or len(finals) != 1:
        return {}
    final = finals[0]
    long = plan[final].stdin
    states = [
        i
        for i, row in enumerate(plan)
        if row.endpoint.inst is not None and row.stdin == long and arm_spec(row.arm).family == "state"
    ]
    if not states:
        return {}
    ends = tuple(plan[i].endpoint for i in states)
    got = case.memo.measure_checkpoints_once(lang, case.source, long, plan[final].endpoint, ends)
    if got is None:
        return {}
    whole, parts = got
    return {final: whole, **dict(zip(states, parts))}


__all__ = [
    "POST_WINDOW",
    "CaseStates",
    "measure_together",
    "parse_states",
    "prober",
    "state_oracle",
    "states_together",
    "sweep_rows",
]
