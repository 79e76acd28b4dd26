"""Property tests: on generated programs the fast probe (C and pure Python) equals the reference, per interpreter."""

from __future__ import annotations

import pytest
from _metrics_helpers import assert_all_equal, interpreter_params, measure_three_ways
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from program_strategy import programs

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("python", interpreter_params())
@SETTINGS
@given(source=programs(), n=st.integers(0, 4))
def test_fast_equals_reference_on_generated_programs(python, source, n):
    assert_all_equal(measure_three_ways(source, f"{n}\n".encode(), python))


@pytest.mark.parametrize("python", interpreter_params())
@SETTINGS
@given(source=programs(), data=st.data())
def test_fast_equals_reference_with_excluded_lines_and_hidden_names(python, source, data):
    lines = source.count("\n") + 1
    excluded = data.draw(st.frozensets(st.integers(1, lines), max_size=lines // 3))
    hidden = data.draw(st.sampled_from([None, "b", "l", "_"]))
    results = measure_three_ways(source, b"3\n", python, exclude_lines=excluded, hidden_prefix=hidden)
    assert_all_equal(results)


@pytest.mark.parametrize("python", interpreter_params())
@SETTINGS
@given(source=programs())
def test_trace_only_run_counts_the_same_instructions(python, source):
    full = measure_three_ways(source, b"2\n", python)
    fast = measure_three_ways(source, b"2\n", python, state=False)
    lengths = {m.trace_length for m in (*full.values(), *fast.values())}
    assert len(lengths) == 1, lengths
    assert all(m.peak_state is None and m.state_load is None for m in fast.values())
