"""The whole classic study through the real builder: all 30 admitted, twice byte-identical, corpus row."""

from __future__ import annotations

import statistics

from execstate.build import build, corpus, tasks_bytes
from execstate.tables import to_markdown


def test_classic_builds_completely_and_reproducibly():
    first = build([], studies=["classic"], jobs=2)
    assert first.exclusions == []
    assert first.manifest.cases_admitted == 30 and len(first.tasks) == 120
    for task in first.tasks:
        m = task.metrics
        assert None not in (m.trace_length, m.peak_state, m.state_load, m.cyclomatic), task.task_id
    cyclo = [t.metrics.cyclomatic for t in first.tasks if t.arm == "short-trace-final"]
    assert statistics.median(cyclo) == 7.5 and (min(cyclo), max(cyclo)) == (5, 13)
    assert "| classic | python | 30 | 30 | 120 | 7.5 | 5 | 13 |" in to_markdown(corpus(first.tasks))
    again = build([], studies=["classic"], jobs=2)
    assert tasks_bytes(again.tasks) == tasks_bytes(first.tasks)
