"""The main job's fresh copy: the classic study's cases also built on fresh inputs, analysed beside them (published
inputs a model may have seen against inputs it cannot have).

The classic study is narrowed to six of its cases (a copy of their folders) so the test builds in seconds;
the pipeline code is the main job's.
"""

from __future__ import annotations

import dataclasses
import json
import shutil

from execstate.pipeline import DEMO_FRESH_SEED, run_pipeline
from execstate.records import Grade, Task, is_fresh, is_variant, read_jsonl
from execstate.studies import STUDIES, register_study, unregister_study

CASES = ("heapsort", "kadane", "house_robber", "insertion_sort", "lis", "quicksort")


def test_the_offline_main_job_builds_a_fresh_copy_and_reports_the_gap(tmp_path):
    classic = STUDIES["classic"]
    assert classic.cases_dir is not None
    for name in CASES:
        shutil.copytree(classic.cases_dir / name, tmp_path / "classic" / name)
    register_study(dataclasses.replace(classic, cases_dir=tmp_path / "classic"), replace=True)  # the same entry
    try:
        result = run_pipeline(tmp_path / "out", studies=("classic",), pilot=False, log=lambda *_: None)
    finally:
        unregister_study("classic")
    assert STUDIES["classic"] is classic
    every = list(read_jsonl(result.tasks, Task))
    tasks = [t for t in every if not is_variant(t)]  # the offline main job also builds rename and mislead variants
    assert len(every) - len(tasks) == 2 * 4 * len(CASES)
    fresh = [t for t in tasks if is_fresh(t)]
    assert len(fresh) == len(tasks) / 2 == 4 * len(CASES)
    manifest = json.loads((result.tasks.parent / "manifest.json").read_text())
    assert manifest["fresh"]["refreshed"] == sorted(f"classic/{name}~fresh" for name in CASES)
    assert DEMO_FRESH_SEED not in result.tasks.read_text()  # only its commitment
    grades = list(read_jsonl(result.grades, Grade))
    assert len(grades) == 2 * len(every)
    analysis = json.loads((result.report.parent / "analysis.json").read_text())
    rows = {(r["setting"], r["arm"]): r for r in analysis["fresh"]["rows"]}
    assert all(r["pairs"] == len(CASES) for r in rows.values())
    assert all(
        rows["oracle-pipeline-check", arm]["difference_pp"] == 0 for arm in ("short-trace-final", "post-loop-state")
    )
    # the synthetic setting is given a contamination bonus on published inputs: its gap, summed over arms, is positive
    synthetic = [r for (setting, _), r in rows.items() if setting == "synthetic-pipeline-check"]
    assert sum(r["published_correct"] - r["fresh_correct"] for r in synthetic) > 0
    html = result.report.read_text(encoding="utf-8")
    assert 'id="fresh"' in html and "published_vs_fresh" in html
    # the paper's tables keep analysing the published tasks only: two settings x the published tasks
    assert analysis["inputs"]["cells"] == 2 * (len(tasks) - len(fresh))
