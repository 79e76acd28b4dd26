"""The further arms' tables (``execstate.analyze._further``) on crafted tasks and grades whose answers are known:
the loop trace's step curve, the coherence of a case's arms, line-count accuracy by imbalance, and their place in
``analyze`` (apart from every paper table, absent without further-arm tasks)."""

from __future__ import annotations

import json

import pytest
from further_records import case_task, grade, line_count_task, loop_trace_task, trace_grade

from execstate.analyze import (
    AnalysisConfig,
    analyze,
    coherence_rows,
    further_arms,
    line_count_rows,
    step_curve_rows,
    write_analysis_json,
)
from execstate.records import Task
from execstate.testing import synthetic_grades, synthetic_tasks
from execstate.testing.fresh import fresh_copy

CONFIG = AnalysisConfig(replicates=400, permutations=50)


def _by(rows: list[dict], **match) -> dict:
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, found)
    return found[0]


def _within(row: dict, value: str, low: str = "low", high: str = "high") -> None:
    assert row[low] <= row[value] <= row[high], row


@pytest.fixture()
def traces() -> tuple[list[Task], list]:
    tasks = [loop_trace_task(f"s/t{j}", m, cap=3) for j, m in enumerate((3, 3, 2, 3))]
    marks = ("110", "100", "01", None)  # the last: a no-response, all steps wrong
    grades = [trace_grade(t, "a", s) for t, s in zip(tasks, marks)]
    grades.append(grade(tasks[0], "b", True))  # graded without step marks: a correct answer has every step right
    return tasks, grades


def test_the_step_curve_counts_every_planned_cell(traces):
    rows, summary = step_curve_rows(*traces, CONFIG)
    a = [r for r in rows if r["setting"] == "a"]
    assert [r["step"] for r in a] == [1, 2, 3]
    assert [(r["cells"], r["right"], r["prefix_right"]) for r in a] == [(4, 2, 2), (4, 2, 1), (3, 0, 0)]
    assert [r["accuracy"] for r in a] == [0.5, 0.5, 0.0]
    assert [r["prefix_accuracy"] for r in a] == [0.5, 0.25, 0.0]
    for r in a:
        _within(r, "accuracy")
    assert a[0]["low"] < 0.5 < a[0]["high"]  # four sources: the interval has width
    sa, sb = _by(summary, setting="a"), _by(summary, setting="b")
    assert (sa["cells"], sa["completed"], sa["steps_inferred"], sa["sources"]) == (4, 3, 0, 4)
    assert sa["mean_prefix"] == 0.75 and sa["mean_steps"] == 2.75 and sa["all_right"] == 0.0
    _within(sa, "mean_prefix", "mean_prefix_low", "mean_prefix_high")
    assert (sb["cells"], sb["steps_inferred"], sb["mean_prefix"], sb["all_right"]) == (1, 1, 3.0, 1.0)


def test_the_tables_are_deterministic_for_a_config_and_move_with_its_seed():
    tasks = [loop_trace_task(f"s/t{j}", 4) for j in range(30)]
    data = tasks, [trace_grade(t, "a", format(j * 7 % 16, "04b")) for j, t in enumerate(tasks)]
    first = further_arms(*data, CONFIG)
    assert first == further_arms(*data, CONFIG)
    other = further_arms(*data, AnalysisConfig(seed=7, replicates=400, permutations=50))
    bounds = lambda f: [(r["low"], r["high"]) for r in f["step_curve"] if r["cells"]]
    assert [r["accuracy"] for r in other["step_curve"]] == [r["accuracy"] for r in first["step_curve"]]
    assert bounds(other) != bounds(first)


def _case(case_id: str, short: bool | None, inside: bool | None, trace: bool | None) -> tuple[list[Task], list]:
    tasks = [case_task(case_id, "short-trace-final"), case_task(case_id, "inside-loop-state", '{"i":1}\n')]
    tasks.append(loop_trace_task(case_id, 2))
    marks = None if trace is None else ("11" if trace else "10")
    grades = [grade(tasks[0], "a", short), grade(tasks[1], "a", inside), trace_grade(tasks[2], "a", marks)]
    return tasks, grades


def test_coherence_tabulates_each_pair_of_a_cases_arms():
    tasks, grades = [], []
    for case_id, outcome in {
        "s/c0": (True, True, True),
        "s/c1": (True, False, False),
        "s/c2": (False, True, False),
        "s/c3": (True, None, True),  # a no-response on the inside arm: its pairs are incomplete
    }.items():
        t, g = _case(case_id, *outcome)
        tasks += t
        grades += g
    sweep = case_task("s/c0", "inside-loop-state", '{"i":0}\n', sweep=True)
    tasks.append(sweep.model_copy(update={"task_id": "s/c0/inside-loop-state@k1"}))
    grades.append(grade(tasks[-1], "a", False))  # a sweep task is in no pair
    rows = coherence_rows(tasks, grades, CONFIG)
    assert [(r["first"], r["second"]) for r in rows] == [
        ("short-trace-final", "inside-loop-state"),
        ("short-trace-final", "loop-trace"),
        ("inside-loop-state", "loop-trace"),
    ]
    table = lambda r: (r["both_right"], r["first_right_second_wrong"], r["first_wrong_second_right"], r["both_wrong"])
    si, st, it = rows
    assert (si["pairs"], si["incomplete_pairs"], table(si)) == (3, 1, (1, 1, 1, 0))
    assert si["agreement"] == pytest.approx(1 / 3) and si["final_right"] == 2
    assert si["final_right_state_wrong"] == 0.5
    assert (st["pairs"], st["incomplete_pairs"], table(st)) == (4, 0, (2, 1, 0, 1))
    assert st["agreement"] == 0.75 and st["final_right"] == 3
    assert st["final_right_state_wrong"] == pytest.approx(1 / 3)
    assert (it["pairs"], table(it)) == (3, (1, 1, 0, 1))
    assert it["final_right"] is None and it["final_right_state_wrong"] is None  # not a final arm first
    for r in rows:
        _within(r, "agreement", "agreement_low", "agreement_high")
    _within(st, "final_right_state_wrong", "final_right_state_wrong_low", "final_right_state_wrong_high")


def test_line_counts_are_binned_by_imbalance():
    imbalances = (0.0, 0.49, 0.5, 0.79, 0.8, 1.0, None)
    outcomes = (True, False, True, True, None, False, True)
    tasks = [line_count_task(f"s/l{j}", 5 + j, x) for j, x in enumerate(imbalances)]
    grades = [grade(t, "a", o) for t, o in zip(tasks, outcomes)]
    rows = line_count_rows(tasks, grades, CONFIG)
    assert [r["bin"] for r in rows] == ["[0.0, 0.5)", "[0.5, 0.8)", "[0.8, 1.0]", "unknown", "all"]
    got = [(r["cells"], r["completed"], r["correct"], r["accuracy"]) for r in rows]
    assert got == [(2, 2, 1, 0.5), (2, 2, 2, 1.0), (2, 1, 0, 0.0), (1, 1, 1, 1.0), (7, 6, 4, 4 / 7)]
    assert rows[0]["mean_imbalance"] == pytest.approx(0.245) and rows[3]["mean_imbalance"] is None
    assert rows[-1]["accuracy_completed"] == pytest.approx(4 / 6)
    for r in rows:
        _within(r, "accuracy")


def _further_tasks(paper: list[Task]) -> tuple[list[Task], list]:
    """A loop trace and a line count for each of the first six cases of ``paper``, graded in both settings."""
    cases = list(dict.fromkeys(t.case_id for t in paper))[:6]
    tasks, grades = [], []
    for j, case_id in enumerate(cases):
        sha = next(t.source_sha256 for t in paper if t.case_id == case_id)
        trace = loop_trace_task(case_id, 4).model_copy(update={"source_sha256": sha})
        count = line_count_task(case_id, 10 + j, j / 6).model_copy(update={"source_sha256": sha})
        tasks += [trace, count]
        for setting in ("p-high", "q-off"):
            grades += [trace_grade(trace, setting, "1100" if j % 2 else "1111"), grade(count, setting, j % 3 > 0)]
    return tasks, grades


def test_analyze_keeps_them_apart_from_every_paper_table(tmp_path):
    paper = synthetic_tasks(5, (("classic", "python", 8),))
    paper_grades = synthetic_grades(paper, 5, settings={"p-high": -0.5, "q-off": 1.0})
    extra, extra_grades = _further_tasks(paper)
    fresh = fresh_copy(extra[0])
    before = analyze(paper, paper_grades, CONFIG)
    after = analyze(
        paper + extra + [fresh], paper_grades + extra_grades + [trace_grade(fresh, "q-off", "0000")], CONFIG
    )
    assert before.section("further") == {} and "further" not in before.to_json()
    paper_keys = {k: v for k, v in after.to_json().items() if k != "further"}
    assert paper_keys == before.to_json()  # no paper number, count or beyond table moves
    further = after.section("further")
    assert further["tasks"] == {"loop-trace": 6, "line-count": 6}  # the fresh loop trace is in no table
    assert _by(further["step_summary"], setting="q-off")["cells"] == 6
    assert {(r["first"], r["second"]) for r in further["coherence"]} >= {("short-trace-final", "loop-trace")}
    assert list(further["figures"]) == ["step_curve", "coherence", "line_count_by_imbalance"]
    written = json.loads(write_analysis_json(after, tmp_path / "analysis.json").read_text(encoding="utf-8"))
    assert list(written)[-1] == "further"
    q = [r for r in written["further"]["step_curve"] if r["setting"] == "q-off"]
    assert [r["step"] for r in q] == list(range(1, 9))  # up to the cap, 8
    assert (q[0]["accuracy"], q[2]["accuracy"], q[4]["cells"], q[4]["accuracy"]) == (1.0, 0.5, 0, None)
