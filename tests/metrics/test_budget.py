"""Counted budgets stop a measurement at the same event on every machine, whatever its clocks allow."""

from __future__ import annotations

import pytest

from execstate.metrics import Budget, measure
from execstate.metrics._measure import PROBE, run_probe
from execstate.sandbox import Limits

GROWING = """\
class Node:
    def __init__(self, value):
        self.value = value

nodes = []
i = 0
while True:
    nodes.append(Node(i))
    i += 1
"""
"""Runs until something stops it: every line walks a growing list of instances."""

GENEROUS = Limits(wall_s=300, cpu_s=100)
TIGHT = Limits(wall_s=30, cpu_s=10)


@pytest.mark.parametrize(
    ("budget", "words"),
    [
        (Budget(trace_events=50_000), "instruction events counted, over the trace budget of 50000"),
        (Budget(state_slots=2_000_000), "state slots walked, over the state budget of 2000000"),
        (Budget(state_objects=300_000), "containers and instances walked, over the state-object budget of 300000"),
    ],
)
def test_a_budget_stops_the_run_at_the_same_event_under_a_generous_and_a_tight_cpu_limit(budget, words):
    runs = [measure(GROWING, b"", budget=budget, limits=limits) for limits in (GENEROUS, TIGHT)]
    assert [m.status for m in runs] == ["budget", "budget"]
    assert runs[0].detail == runs[1].detail  # the count at the stop is in the detail: the same event
    assert words in runs[0].detail
    assert runs[0].trace_length is None and runs[0].state_load is None  # no metrics of a run that was cut


def test_the_pure_python_counters_stop_at_the_same_event_as_the_c_accelerator():
    budget = Budget(trace_events=40_000, state_slots=10**9, state_objects=250_000)
    fast = run_probe(PROBE, GROWING, b"", budget=budget, accelerate=True)
    slow = run_probe(PROBE, GROWING, b"", budget=budget, accelerate=False)
    assert (fast.status, fast.detail) == (slow.status, slow.detail)
    assert fast.status == "budget"


def test_a_run_within_its_budgets_is_measured_as_without_them():
    program = "total = 0\nfor i in range(2000):\n    total += i\nprint(total)\n"
    free = measure(program, b"")
    bounded = measure(program, b"", budget=Budget(free.trace_length, free.state_load, free.state_objects))
    assert bounded.ok and free.ok
    assert (bounded.trace_length, bounded.peak_state, bounded.state_load) == (
        free.trace_length,
        free.peak_state,
        free.state_load,
    )
    over = measure(program, b"", budget=Budget(trace_events=free.trace_length - 1))
    assert over.status == "budget"


def test_a_sampled_walk_estimates_the_full_walk():
    program = "xs = []\nfor i in range(3000):\n    xs.append([i, i + 1])\nprint(len(xs))\n"
    full = measure(program, b"")
    sampled = measure(program, b"", state_stride=127)
    assert sampled.ok and sampled.trace_length == full.trace_length  # the trace is still counted in full
    assert full.state_load is not None and sampled.state_load is not None
    estimate = sampled.state_load * 127
    assert abs(estimate - full.state_load) < 0.02 * full.state_load
    assert sampled.state_load < full.state_load / 100  # and it walked about 1/127 of it
