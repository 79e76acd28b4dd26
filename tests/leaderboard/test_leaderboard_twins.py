"""The leaderboard's language-gap column: each setting's paired gap (C++ twin minus Python original, arms pooled)
as the analysis computes it, and empty without twins."""

from __future__ import annotations

from execstate.analyze import AnalysisConfig, language_gap
from execstate.leaderboard import leaderboard
from execstate.leaderboard._runs import Combined
from execstate.records import Task
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=200, permutations=50)
SETTINGS = {"m-high": -0.5, "m-off": 1.0}


def _twin(task: Task) -> Task:
    case_id = task.case_id.replace("classic/", "classic_cpp/", 1)
    meta = {**task.meta, "twin_of": task.case_id, "twin": {"proven": True, "variables": {}}}
    return task.model_copy(
        update={"case_id": case_id, "task_id": task.task_id.replace(task.case_id, case_id, 1), "meta": meta}
    )


def _combined(tasks: list[Task], grades) -> Combined:
    return Combined([], tasks, grades, [], {name: {"run": name} for name in SETTINGS})


def test_the_column_is_the_analysis_gap_and_twins_change_no_other_column():
    paper = synthetic_tasks(3, (("classic", "python", 6),))
    twins = [_twin(t) for t in paper]
    grades = synthetic_grades(paper, 3, settings=SETTINGS)
    twin_grades = [g for g in synthetic_grades(twins, 4, settings=SETTINGS) if g.sample == 0]
    board = leaderboard(_combined(paper + twins, grades + twin_grades), CONFIG)
    gap = {
        r["setting"]: r for r in language_gap(paper + twins, grades + twin_grades, CONFIG)["rows"] if r["arm"] == "all"
    }
    assert {r["setting"] for r in board.overall} == set(SETTINGS)
    for row in board.overall:
        mine = gap[row["setting"]]
        assert mine["pairs"] > 0
        assert (row["language_gap_pp"], row["language_gap_low_pp"], row["language_gap_high_pp"]) == (
            mine["gap_pp"],
            mine["ci_low"],
            mine["ci_high"],
        )
    plain = leaderboard(_combined(paper, grades), CONFIG)
    keys = ("language_gap_pp", "language_gap_low_pp", "language_gap_high_pp")
    assert all(r[k] is None for r in plain.overall for k in keys)
    strip = lambda rows: [{k: v for k, v in r.items() if k not in keys} for r in rows]
    assert strip(board.overall) == strip(plain.overall)  # the twins enter no other column
    assert board.by_study == plain.by_study
