"""The whole classic study through the real builder: all 30 admitted, a rebuild byte-identical, corpus row."""

from __future__ import annotations

import hashlib
import json
import statistics
from pathlib import Path

from execstate.builder import build, corpus, tasks_bytes
from execstate.records import paper_tasks
from execstate.studies import STUDIES
from execstate.tables import to_markdown

GOLDEN = Path(__file__).with_name("golden") / "study_tasks.sha256.json"
REBUILT = ("bellman_ford", "edit_distance", "kruskal_mst")  # rebuilt apart: a graph, a DP table, a forest


def test_classic_builds_completely_and_reproducibly(classic_build):
    first = classic_build  # the session's build of the whole study (tests/conftest.py)
    assert first.exclusions == []
    # the paper's four arms of each case, and the further arms its study.toml asks for where they can be posed:
    # 27 loop traces, 21 line counts (the manifest's not_posed says why not on the others)
    assert first.manifest.cases_admitted == 30 and len(first.tasks) == 168
    assert len(paper_tasks(first.tasks)) == 120 and len(first.manifest.not_posed) == 12
    for task in first.tasks:
        m = task.metrics
        assert None not in (m.trace_length, m.peak_state, m.state_load, m.cyclomatic), task.task_id
    cyclo = [t.metrics.cyclomatic for t in first.tasks if t.arm == "short-trace-final"]
    assert statistics.median(cyclo) == 7.5 and (min(cyclo), max(cyclo)) == (5, 13)
    assert "| classic | python | 30 | 30 | 168 | 7.5 | 5 | 13 |" in to_markdown(corpus(first.tasks))
    # Reproducible: three cases built again in another batch (alone, one at a time) give the same bytes.
    cases_dir = STUDIES["classic"].cases_dir
    assert cases_dir is not None
    again = build([cases_dir / name for name in REBUILT], jobs=1)
    wanted = {f"classic/{name}" for name in REBUILT}
    assert len(again.tasks) == 15 and {t.case_id for t in again.tasks} == wanted  # 4 + 1, 4 + 0, 4 + 2
    assert tasks_bytes(again.tasks) == tasks_bytes([t for t in first.tasks if t.case_id in wanted])


def test_every_classic_task_is_byte_identical_to_the_golden_file(classic_build):
    """The whole study, not only the golden test's sample: every task line's SHA-256 is the golden file's."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))["classic"]
    mine = {t.task_id: hashlib.sha256(t.to_json_line().encode("utf-8")).hexdigest() for t in classic_build.tasks}
    assert mine == golden
