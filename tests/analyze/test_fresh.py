"""Published vs fresh inputs: pairing, hand-counted accuracies and difference, the interval, and that fresh
tasks change no other table (fresh twins made by copying published tasks, as the record contract says)."""

from __future__ import annotations

import json

import pytest

from execstate.analyze import (
    AnalysisConfig,
    analyze,
    cluster_bootstrap_ratio,
    fresh_pairs,
    fresh_rows,
    percentile_interval,
    seeded_rng,
    write_analysis_json,
)
from execstate.grade import accuracy_tables
from execstate.records import Grade, Task, fresh_record, fresh_twin, is_fresh, published_case_id
from execstate.testing import fresh_copy, synthetic_grades, synthetic_tasks

FAST = AnalysisConfig(replicates=2000, permutations=200)
STATUS = {"c": "correct-valid", "w": "wrong-valid", "n": "no-response"}
TEMPLATE = synthetic_tasks(0, (("classic", "python", 1),))[1]  # a long-trace-final task


def _task(case: str, arm: str) -> Task:
    """A published task of its own source, copied from a synthetic one."""
    return TEMPLATE.model_copy(
        update={
            "task_id": f"classic/{case}/{arm}",
            "case_id": f"classic/{case}",
            "arm": arm,
            "source_sha256": f"sha-{case}",
            "answer_kind": "text",
        }
    )


def _grade(task: Task, setting: str, code: str) -> Grade:
    return Grade(task_id=task.task_id, setting=setting, status=STATUS[code], rule=task.grading_rule)


# (case, arm) -> (published outcome, fresh outcome) in setting s1; "-" is not graded.
PLAN = {
    ("a", "long-trace-final"): "cw",
    ("b", "long-trace-final"): "cc",
    ("c", "long-trace-final"): "ww",
    ("d", "long-trace-final"): "cn",  # fresh no-response: an incomplete pair, never scored
    ("e", "long-trace-final"): "-w",  # published twin not graded: unpaired, in no pair
    ("f", "long-trace-final"): "c-",  # fresh twin not graded: no pair, no fresh cell
    ("a", "short-trace-final"): "cc",
}


def _fixture() -> tuple[list[Task], list[Task], list[Grade]]:
    published, fresh, grades = [], [], []
    for (case, arm), (pub, new) in PLAN.items():
        task = _task(case, arm)
        twin = fresh_copy(task, input="2\n", oracle="2")
        published.append(task)
        fresh.append(twin)
        grades += [_grade(t, "s1", code) for t, code in ((task, pub), (twin, new)) if code != "-"]
    return published, fresh, grades


def test_fresh_copy_follows_the_record_contract():
    task = _task("heapsort", "long-trace-final")
    twin = fresh_copy(task)
    assert twin.case_id == "classic/heapsort~fresh" == fresh_twin(task.case_id)
    assert twin.task_id == "classic/heapsort~fresh/long-trace-final"
    record = fresh_record(twin)
    assert record is not None and record == twin.meta["fresh"]
    assert record["of"] == "classic/heapsort"
    assert record["commitment"].startswith("sha256:")
    assert (twin.source_sha256, twin.study, twin.arm) == (task.source_sha256, task.study, task.arm)
    assert is_fresh(twin) and is_fresh(twin.meta) and not is_fresh(task)
    assert not is_fresh({"fresh": False})  # a case that could not be refreshed keeps its published inputs
    assert fresh_record(task) is None and fresh_record({"fresh": False}) is None
    assert published_case_id(twin) == published_case_id(task) == "classic/heapsort"


def test_pairs_only_where_both_twins_are_graded():
    published, fresh, grades = _fixture()
    pairs = fresh_pairs(published + fresh, grades)
    got = {(r.case_id, r.arm): (r.published_correct, r.fresh_correct, r.complete) for r in pairs.itertuples()}
    assert got == {
        ("classic/a", "long-trace-final"): (True, False, True),
        ("classic/b", "long-trace-final"): (True, True, True),
        ("classic/c", "long-trace-final"): (False, False, True),
        ("classic/d", "long-trace-final"): (True, False, False),
        ("classic/a", "short-trace-final"): (True, True, True),
    }


def test_the_table_counted_by_hand():
    published, fresh, grades = _fixture()
    rows = {r["arm"]: r for r in fresh_rows(published + fresh, grades, FAST)}
    assert list(rows) == ["short-trace-final", "long-trace-final"]  # ARMS order
    long = rows["long-trace-final"]
    # complete pairs a, b, c: published 2 of 3 right, fresh 1 of 3; d incomplete, e unpaired, f no fresh cell
    assert (long["pairs"], long["cases"], long["incomplete_pairs"], long["unpaired_fresh"]) == (3, 3, 1, 1)
    assert (long["published_correct"], long["fresh_correct"], long["sources"]) == (2, 1, 3)
    assert long["published_accuracy_pct"] == pytest.approx(200 / 3)
    assert long["fresh_accuracy_pct"] == pytest.approx(100 / 3)
    assert long["difference_pp"] == pytest.approx(100 / 3)
    assert long["ci_low"] <= long["difference_pp"] <= long["ci_high"]
    assert long["ci_low"] < long["ci_high"]
    short = rows["short-trace-final"]
    assert (short["pairs"], short["difference_pp"], short["ci_low"], short["ci_high"]) == (1, 0.0, 0.0, 0.0)


def test_the_interval_is_the_paired_comparisons_bootstrap():
    published, fresh, grades = _fixture()
    long = next(r for r in fresh_rows(published + fresh, grades, FAST) if r["arm"] == "long-trace-final")
    # per-source differences of a, b, c (one pair each): 1, 0, 0
    reps = cluster_bootstrap_ratio(
        [0, 1, 0], [1, 1, 1], FAST.replicates, seeded_rng(FAST.seed, "fresh", "s1", "long-trace-final")
    )
    low, high = percentile_interval(reps, FAST.level)
    assert (long["ci_low"], long["ci_high"]) == pytest.approx((100 * low, 100 * high))
    assert (long["replicates"], long["level"]) == (FAST.replicates, FAST.level)


def test_no_fresh_task_no_fresh_key():
    published, _, grades = _fixture()
    a = analyze(published, [g for g in grades if "~fresh" not in g.task_id], FAST)
    assert a.section("fresh") == {} and "fresh" not in a.to_json()
    assert fresh_rows(published, grades, FAST) == []


def _json(analysis, tmp_path, name) -> dict:
    return json.loads(write_analysis_json(analysis, tmp_path / name).read_text(encoding="utf-8"))


def test_fresh_tasks_change_no_other_table(tmp_path):
    tasks = synthetic_tasks(5, (("classic", "python", 8), ("lcb_python", "python", 10)))
    fresh = [fresh_copy(t) for t in tasks[:24]]
    settings = {"m-high": -0.5, "m-off": 1.0}
    grades = synthetic_grades(tasks, 5, settings=settings)
    fresh_grades = [g for g in synthetic_grades(fresh, 9, settings=settings) if g.sample == 0]
    base = analyze(tasks, grades, FAST)
    mixed = analyze(tasks + fresh, grades + fresh_grades, FAST)
    with_fresh = _json(mixed, tmp_path, "mixed.json")
    assert with_fresh.pop("fresh")["tasks"] == len(fresh)
    assert with_fresh == _json(base, tmp_path, "base.json")
    assert accuracy_tables(tasks + fresh, grades + fresh_grades) == accuracy_tables(tasks, grades)
    rows = mixed.section("fresh")["rows"]
    assert {(r["setting"], r["arm"]) for r in rows} == {(s, t.arm) for s in settings for t in fresh}
    assert sum(r["pairs"] + r["incomplete_pairs"] for r in rows) == len(fresh_grades)
    assert mixed.section("fresh")["graded_cells"] == len(fresh_grades)
    assert mixed.section("fresh")["figures"]["published_vs_fresh"]["bars"]
