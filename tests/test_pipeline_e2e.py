"""End to end: build -> run (oracle, and a replayed wrong answer) -> grade -> tables -> analysis -> report."""

from __future__ import annotations

import json
from pathlib import Path

from execstate.pipeline import run_pipeline
from execstate.records import Grade, Task, read_jsonl

ROOT = Path(__file__).resolve().parent.parent
CASES = len(list((ROOT / "examples").glob("*/case.toml")))  # Python and C++ examples, four tasks each


def test_pipeline_on_the_examples(tmp_path):
    result = run_pipeline(tmp_path / "out", studies=(), paths=(ROOT / "examples",), log=lambda *_: None)
    tasks = list(read_jsonl(result.tasks, Task))
    grades = list(read_jsonl(result.grades, Grade))
    assert len(tasks) == 4 * CASES and len(grades) == 8 * CASES  # oracle and synthetic pipeline-check settings
    assert {t.language for t in tasks} == {"python", "cpp"}
    oracle = [g for g in grades if g.setting == "oracle-pipeline-check"]
    assert {g.status for g in oracle} == {"correct-valid"}  # the oracle answers its own oracle
    assert result.pipeline_check and all(g.pipeline_check for g in grades)
    html = result.report.read_text(encoding="utf-8")
    assert "PIPELINE CHECK" in html
    for task in tasks:
        assert task.task_id in html
    analysis = json.loads((result.report.parent / "analysis.json").read_text())
    assert {"paired", "regression", "series"} <= set(analysis)
    # the offline job shows the invariant pilot as a pipeline check (docs/pilot.md)
    assert result.pilot is not None and 'id="pilot"' in html and "Table 9" in html
    table9 = json.loads((result.pilot / "tables" / "pilot_table9.json").read_text())
    excluded = (result.pilot / "build" / "excluded.jsonl").read_text()  # the evidence if a pilot case fell out
    assert len(table9) == 2, (table9, excluded)
    assert all(r[c].endswith(" / 36") for r in table9 for c in ("baseline", "guided")), (table9, excluded)


def test_pipeline_with_replayed_answers_grades_them(tmp_path):
    """A replay setting answers one task wrong and one without an envelope; the rest have no answer."""
    replay = tmp_path / "answers.jsonl"
    replay.write_text(
        json.dumps({"task_id": "examples/collatz/short-trace-final", "text": '{"output":"8 16"}'})
        + "\n"
        + json.dumps({"task_id": "examples/collatz/long-trace-final", "text": "The answer is 111 9231."})
        + "\n"
    )
    settings = tmp_path / "settings.toml"
    settings.write_text('[[setting]]\nname = "replayed"\nprovider = "replay"\nreplay_file = "answers.jsonl"\n')
    paths = (ROOT / "examples" / "collatz", ROOT / "examples" / "nested_inner")  # the cases the answers name
    result = run_pipeline(tmp_path / "out", studies=(), paths=paths, settings_file=settings, log=lambda *_: None)
    grades = {g.task_id: g for g in read_jsonl(result.grades, Grade)}
    assert len(grades) == 4 * len(paths) and not result.pipeline_check
    assert result.pilot is None  # with model settings the pilot is its own command, never a side effect
    assert grades["examples/collatz/short-trace-final"].status == "correct-valid"
    assert grades["examples/collatz/long-trace-final"].status == "wrong-invalid"
    assert grades["examples/nested_inner/post-loop-state"].status == "no-response"
