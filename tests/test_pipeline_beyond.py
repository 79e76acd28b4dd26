"""The beyond-the-paper section end to end: a sweep case and an example run with --samples 3 on the
offline synthetic provider; stability, truncation and sweep numbers checked against the run's files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execstate.pipeline import run_pipeline
from execstate.records import Grade, Response, Task, read_jsonl

ROOT = Path(__file__).resolve().parent.parent
SWEEP = ROOT / "tests" / "builder" / "cases" / "sweep_hash"


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("beyond") / "out"
    paths = (SWEEP, ROOT / "examples" / "abc310_e", ROOT / "examples" / "collatz")
    run_pipeline(
        out, studies=(), paths=paths, samples=3, pilot=False, log=lambda *_: None
    )  # the pilot: test_pipeline_e2e
    return out


def _hash_state(k: int) -> dict:
    """sweep_hash's state at the top of iteration k (after k-1 iterations), computed by hand."""
    total = best = 0
    for step in range(1, k):
        total = (total * 31 + step) % 1009
        best = max(best, total)
    return {"step": k, "total": total, "best": best}


def test_sweep_tasks_build_with_the_right_states_and_stay_out_of_the_four_arm_tables(out):
    tasks = {t.task_id: t for t in read_jsonl(out / "build" / "tasks.jsonl", Task)}
    swept = sorted(t.meta["k"] for t in tasks.values() if t.meta.get("sweep"))
    assert swept == [1, 2, 101, 201, 300, 400]  # sweep = 5 over K = 400, plus inside_iterations [2, 300]
    for k in swept:
        task = tasks[f"tests/sweep_hash/inside-loop-state@k{k}"]
        assert task.arm == "inside-loop-state" and json.loads(task.oracle) == _hash_state(k)
    by_arm = json.loads((out / "tables" / "by_arm.json").read_text())
    rows = by_arm["rows"] if isinstance(by_arm, dict) else by_arm
    inside = [r for r in rows if r["arm"] == "inside-loop-state"]
    assert inside and all(r["planned"] == 3 * 3 for r in inside)  # three cases x three samples, no sweep task
    analysis = json.loads((out / "report" / "analysis.json").read_text())
    assert all(r["planned"] == 9 for r in analysis["accuracy"]["accuracy_by_arm"] if r["arm"] == "inside-loop-state")
    bins = analysis["beyond"]["sweep"]["bins"]
    grades = [g for g in read_jsonl(out / "grades.jsonl", Grade) if "sweep_hash/inside" in g.task_id]
    for setting in {g.setting for g in grades}:
        mine = [b for b in bins if b["setting"] == setting]
        assert sum(b["completed"] for b in mine) == sum(
            g.status != "no-response" for g in grades if g.setting == setting
        )
        assert sum(b["correct"] for b in mine) == sum(
            g.status.startswith("correct") for g in grades if g.setting == setting
        )
    assert (out / "report" / "figures" / "accuracy_by_position.svg").stat().st_size > 1000


def test_stability_and_truncation_sections_match_the_run_files(out):
    html = (out / "report" / "report.html").read_text(encoding="utf-8")
    assert 'id="beyond"' in html and "Beyond the paper (SPEC section 11)" in html
    assert "Stability over repeated samples" in html and 'id="table-stability"' in html
    assert 'id="table-truncation"' in html and 'id="fig-taxonomy"' in html and 'id="fig-accuracy_by_position"' in html
    beyond = json.loads((out / "report" / "analysis.json").read_text())["beyond"]
    responses = list(read_jsonl(out / "run" / "responses.jsonl", Response))
    tasks = {t.task_id: t for t in read_jsonl(out / "build" / "tasks.jsonl", Task)}
    paper = [r for r in responses if not tasks[r.task_id].meta.get("sweep")]
    for setting in {r.setting for r in paper}:
        row = next(r for r in beyond["truncation"]["truncation"] if (r["setting"], r["arm"]) == (setting, "all"))
        cut = sum(r.finish_reason == "length" for r in paper if r.setting == setting)
        assert (row["completed"], row["truncated"]) == (sum(r.setting == setting for r in paper), cut)
    assert sum(r.finish_reason == "length" for r in paper) >= 1  # the seeded synthetic run cuts some responses
    stab = {(r["setting"], r["arm"]): r for r in beyond["stability"]["rows"]}
    oracle = stab[("oracle-pipeline-check", "all")]
    assert oracle["cells"] == 12 and oracle["agreement"] == 1 and oracle["flip_rate"] == 0 and oracle["pass@3"] == 1
    synth = stab[("synthetic-pipeline-check", "all")]
    grades = [g for g in read_jsonl(out / "grades.jsonl", Grade) if g.setting == "synthetic-pipeline-check"]
    paper_grades = [g for g in grades if not tasks[g.task_id].meta.get("sweep")]
    assert synth["pass@1"] == pytest.approx(
        sum(g.status.startswith("correct") for g in paper_grades) / len(paper_grades)
    )
    assert synth["flip_rate"] > 0  # independent samples disagree somewhere
