"""The synthetic provider's variant penalty: worse on source variants than on their originals, through grading
and the analysis; at 0 the answers to original tasks and the run manifest are what they were before."""

from __future__ import annotations

import asyncio
import json

import pytest
from test_synthetic_contamination import _run  # run one setting, then grade its responses

from execstate.analyze import AnalysisConfig, variant_rows
from execstate.errors import SettingsError
from execstate.records import RUN_MANIFEST_NAME, Task
from execstate.run import Setting, SyntheticProvider
from execstate.testing import synthetic_tasks


def variant_copy(task: Task, name: str = "rename") -> Task:
    """The ``name`` variant of ``task`` as ``build --variants`` writes it (same oracle: same meaning)."""
    case_id = f"{task.case_id}~{name}"
    meta = {**task.meta, "variant_of": task.case_id, "variant": {"name": name, "seed": 0, "mapping": {}}}
    return task.model_copy(
        update={"case_id": case_id, "task_id": task.task_id.replace(task.case_id, case_id, 1), "meta": meta}
    )


def _answers(provider: SyntheticProvider, tasks: list[Task]) -> list[tuple[str | None, str | None]]:
    attempts = [asyncio.run(provider.attempt_task(t, s)) for t in tasks for s in (0, 1)]
    return [(a.text, a.finish_reason) for a in attempts]


def test_knob_zero_answers_originals_as_before_and_the_knob_touches_variants_only():
    originals = synthetic_tasks(7, (("classic", "python", 6),))
    assert _answers(SyntheticProvider("s", variant_penalty=0.0), originals) == _answers(
        SyntheticProvider("s"), originals
    )
    assert _answers(SyntheticProvider("s", variant_penalty=1.5), originals) == _answers(
        SyntheticProvider("s"), originals
    )
    plain, knob = SyntheticProvider("s"), SyntheticProvider("s", variant_penalty=1.5)
    variant = variant_copy(originals[1])
    assert knob.p_correct(variant) < plain.p_correct(variant) == plain.p_correct(originals[1])
    assert knob.model == "synthetic(skill=4, slope=0.25, variant_penalty=1.5)"
    assert SyntheticProvider("s", variant_penalty=0.0).model == "synthetic(skill=4, slope=0.25)"


def test_a_penalised_setting_scores_lower_on_variants(tmp_path):
    originals = synthetic_tasks(3, (("classic", "python", 20), ("lcb_python", "python", 40)))
    tasks = originals + [variant_copy(t) for t in originals]
    setting = Setting(name="synthetic-variant", provider="synthetic", synthetic_variant_penalty=1.5)
    rows = variant_rows(tasks, _run(tmp_path, tasks, setting), AnalysisConfig(replicates=1000))
    pooled = next(r for r in rows if r["arm"] == "all")
    assert pooled["pairs"] >= 200
    assert pooled["variant_correct"] < pooled["original_correct"]
    assert pooled["difference_pp"] < 0 and pooled["ci_high"] < 0  # the interval lies below 0
    manifest = json.loads((tmp_path / RUN_MANIFEST_NAME).read_text(encoding="utf-8"))
    assert manifest["settings"]["synthetic-variant"]["synthetic_variant_penalty"] == 1.5


def test_the_default_is_not_recorded_and_a_changed_penalty_is_refused_on_resume(tmp_path):
    originals = synthetic_tasks(3, (("classic", "python", 2),))
    tasks = originals + [variant_copy(t, "deadcode") for t in originals]
    _run(tmp_path, tasks, Setting(name="synthetic-y", provider="synthetic"))
    manifest = json.loads((tmp_path / RUN_MANIFEST_NAME).read_text(encoding="utf-8"))
    assert "synthetic_variant_penalty" not in manifest["settings"]["synthetic-y"]
    penalised = Setting(name="synthetic-y", provider="synthetic", synthetic_variant_penalty=0.5)
    with pytest.raises(SettingsError, match="synthetic_variant_penalty"):
        _run(tmp_path, tasks, penalised)
