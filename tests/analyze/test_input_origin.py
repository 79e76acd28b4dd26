"""The paired decrement split by the long input's origin (construct's ``long_origin`` in each task's provenance)."""

from __future__ import annotations

from execstate.analyze import AnalysisConfig
from execstate.analyze._cells import load_cells
from execstate.analyze._origin import origin_rows
from execstate.records import Grade
from execstate.testing import synthetic_tasks


def test_pairs_are_split_by_the_long_inputs_origin_and_unmarked_cases_are_in_no_row():
    tasks = synthetic_tasks(3, (("codecontests_py", "python", 6),))
    cases = sorted({t.case_id for t in tasks})
    origin = {c: ("synthesized" if i < 2 else "test" if i < 5 else None) for i, c in enumerate(cases)}
    marked = []
    for t in tasks:
        prov = {"long_origin": origin[t.case_id]} if origin[t.case_id] else {}
        marked.append(t.model_copy(update={"meta": {**t.meta, "provenance": prov}}))
    # short arms right everywhere; long arms wrong exactly on the synthesized cases
    grades = [
        Grade(
            task_id=t.task_id,
            setting="s",
            sample=0,
            status="wrong-valid"
            if t.arm == "long-trace-final" and origin[t.case_id] == "synthesized"
            else "correct-valid",
            answer="x",
            rule="bytes",
        )
        for t in marked
    ]
    rows = origin_rows(load_cells(marked, grades).frame, AnalysisConfig(replicates=200))
    pooled = {r["cohort"]: r for r in rows if r["setting"] == "pooled"}
    assert list(pooled) == ["test", "synthesized"]
    assert (pooled["synthesized"]["pairs"], pooled["synthesized"]["decrement_pp"]) == (2, 100.0)
    assert (pooled["test"]["pairs"], pooled["test"]["decrement_pp"]) == (3, 0.0)
