"""The C walker's scan of runs of one scalar (eight pointers per step) counts what the Python walker counts.

Lists and tuples made of runs of a few scalars, broken at every position of an eight-element block and
at both ends, with containers among them: the accelerated ``walk`` and the probe's pure-Python ``walk``
must give the same total. The walkers only read these harness-made values; no program runs.
"""

from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.metrics import _probe

ccount = pytest.importorskip("execstate.metrics._ccount")
ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)

INF = float("inf")
PIECES = [INF, 0, 7, "s", None, True, 2.5, [1, 2], (3, 4), {"k": 1}]


def _python_walk(values: list) -> int:
    return _probe.walk(values, set())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(PIECES) - 1), st.integers(1, 40)), max_size=12), st.booleans())
def test_runs_of_scalars_count_the_same_in_c_and_python(runs: list[tuple[int, int]], as_tuple: bool) -> None:
    items = [PIECES[i] for i, n in runs for _ in range(n)]
    values = [tuple(items) if as_tuple else items]
    assert ccount.walk(values) == _python_walk(values)


@pytest.mark.parametrize("length", [1, 7, 8, 9, 16, 17, 64, 1000])
@pytest.mark.parametrize("breaks", [(), (0,), (1,), (7,), (8,), (9,), (15,), (-1,), (-8,), (3, 4, 5)])
def test_a_run_broken_at_any_position_of_a_block(length: int, breaks: tuple[int, ...]) -> None:
    items: list = [INF] * length
    for b in breaks:
        if -length <= b < length:
            items[b] = [b, "x"]  # a container: 0 itself, its two elements 2 (a scalar would be 1)
    assert ccount.walk([items]) == _python_walk([items])
