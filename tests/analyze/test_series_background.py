"""The series tests' permutations run on a background thread while the caller works; the rows are the same.

``start_series_tests`` hands each series' shuffles to a thread (the C accelerator releases the GIL) and
finishes the logistic fits on the calling thread. Every series draws from its own seeded generator, so
the rows must equal, value for value and in order, the rows of the same tests run one after another.
"""

from __future__ import annotations

import json

import pytest

from execstate.analyze import AnalysisConfig, _series, load_cells, series_tests
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=200, permutations=1500)


def _tasks_and_grades():
    studies = (("classic", "python", 24), ("lcb_cpp", "cpp", 10))
    tasks = synthetic_tasks(5, studies)
    return tasks, synthetic_grades(tasks, 5, settings={"a": -0.6, "b": 0.9, "c": 0.1}, trace_odds_ratio=1.5)


def _frame():
    return load_cells(*_tasks_and_grades()).frame


def test_background_permutations_give_the_rows_of_a_sequential_run(monkeypatch) -> None:
    if _series._cperm is None:
        pytest.skip("the permutation accelerator is not built: nothing runs in the background")
    frame = _frame()
    finish = _series.start_series_tests(frame, CONFIG)
    background = finish()
    monkeypatch.setattr(_series, "_cperm", None)  # no thread: each series' shuffles run in turn, here
    sequential = series_tests(frame, CONFIG)
    assert sum(r["theta"] is not None for r in sequential) >= 20
    assert json.dumps(background) == json.dumps(sequential)


def test_an_error_in_the_fits_stops_the_background_thread(monkeypatch) -> None:
    frame = _frame()

    def broken(*args, **kwargs):
        raise RuntimeError("fit failed")

    monkeypatch.setattr(_series, "_logit_part", broken)
    finish = _series.start_series_tests(frame, CONFIG)
    with pytest.raises(RuntimeError, match="fit failed"):
        finish()


def test_a_failure_before_the_series_are_needed_stops_their_thread(monkeypatch) -> None:
    import threading

    from execstate.analyze import _analysis

    def broken(*args, **kwargs):
        raise RuntimeError("regression failed")

    monkeypatch.setattr(_analysis, "cluster_regression", broken)
    cells = load_cells(*_tasks_and_grades())
    with pytest.raises(RuntimeError, match="regression failed"):
        _analysis.analyze_cells(cells, CONFIG)
    assert not [t for t in threading.enumerate() if t.name.startswith("execstate-permutations")]
