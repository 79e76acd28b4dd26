"""The synthetic provider's contamination knob: better on published inputs than on fresh ones, through the
analysis; at 0 the answers and the run manifest are what they were before the knob existed."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest
from pydantic import ValidationError

from execstate.analyze import AnalysisConfig, fresh_rows
from execstate.errors import SettingsError
from execstate.grade import grade_all
from execstate.records import RUN_MANIFEST_NAME, Response, read_jsonl
from execstate.run import RESPONSES_NAME, Setting, SyntheticProvider, run_tasks
from execstate.testing import fresh_copy, synthetic_tasks

# sha256 of the answers below, computed with the provider as it was before the knob (commit 0c102d1's parent)
PINNED = "57cd673403781a501e71f570e24a9653e1e1d9c3e3923aa4e68a2e758fa61153"


def _digest(provider: SyntheticProvider) -> str:
    h = hashlib.sha256()
    for task in synthetic_tasks(7, (("classic", "python", 15),)):
        for sample in (0, 1):
            a = asyncio.run(provider.attempt_task(task, sample))
            # the usage as the three counts it had when the hash was pinned (later fields are not part of it)
            usage = " ".join(
                f"{k}={getattr(a.usage, k)!r}" for k in ("prompt_tokens", "completion_tokens", "reasoning_tokens")
            )
            h.update(f"{a.text}\x1f{a.finish_reason}\x1f{usage}\n".encode())
    return h.hexdigest()


def test_knob_zero_answers_as_before():
    provider = SyntheticProvider("pinned", contamination=0.0)
    assert _digest(provider) == PINNED
    assert provider.model == "synthetic(skill=4, slope=0.25)"


def test_knob_changes_published_answers_only():
    task = synthetic_tasks(7, (("classic", "python", 1),))[1]
    plain, knob = SyntheticProvider("s"), SyntheticProvider("s", contamination=1.5)
    assert knob.p_correct(task) > plain.p_correct(task)
    assert knob.p_correct(fresh_copy(task)) == plain.p_correct(fresh_copy(task))
    assert knob.model == "synthetic(skill=4, slope=0.25, contamination=1.5)"


def _run(tmp_path, tasks, setting: Setting) -> list:
    run_tasks(tasks, [setting], tmp_path, progress=False)
    responses = list(read_jsonl(tmp_path / RESPONSES_NAME, Response))
    return grade_all(tasks, responses, settings=[setting.name])


def test_a_contaminated_setting_scores_higher_on_published_than_fresh(tmp_path):
    published = synthetic_tasks(3, (("classic", "python", 20), ("lcb_python", "python", 40)))
    tasks = published + [fresh_copy(t) for t in published]
    setting = Setting(name="synthetic-contaminated", provider="synthetic", synthetic_contamination=2.0)
    rows = fresh_rows(tasks, _run(tmp_path, tasks, setting), AnalysisConfig(replicates=1000))
    assert len(rows) == 4 and all(r["pairs"] >= 50 for r in rows)
    pub = sum(r["published_correct"] for r in rows)
    new = sum(r["fresh_correct"] for r in rows)
    assert pub > new
    assert all(r["difference_pp"] > 0 for r in rows)  # every arm: published minus fresh is positive
    assert any(r["ci_low"] > 0 for r in rows)  # and 60 pairs are enough for an interval to exclude 0
    manifest = json.loads((tmp_path / RUN_MANIFEST_NAME).read_text(encoding="utf-8"))
    assert manifest["settings"]["synthetic-contaminated"]["synthetic_contamination"] == 2.0


def test_the_default_leaves_the_manifest_as_it_was_and_a_changed_knob_is_refused(tmp_path):
    tasks = synthetic_tasks(3, (("classic", "python", 2),))
    plain = Setting(name="synthetic-x", provider="synthetic")
    _run(tmp_path, tasks, plain)
    recorded = json.loads((tmp_path / RUN_MANIFEST_NAME).read_text(encoding="utf-8"))["settings"]["synthetic-x"]
    assert "synthetic_contamination" not in recorded
    _run(tmp_path, tasks, plain)  # a manifest without the key resumes under the default
    with pytest.raises(SettingsError, match="synthetic_contamination"):
        _run(tmp_path, tasks, Setting(name="synthetic-x", provider="synthetic", synthetic_contamination=0.5))


def test_other_providers_refuse_the_knob():
    with pytest.raises(ValidationError, match="synthetic_contamination is a knob of provider 'synthetic' only"):
        Setting(name="o", provider="oracle", synthetic_contamination=1.0)
    # a provider's own key is refused for other providers even at its default: it is no field of Setting
    with pytest.raises(ValidationError, match="synthetic_contamination is a knob of provider 'synthetic' only"):
        Setting(name="o", provider="oracle", synthetic_contamination=0.0)
