"""Hugging Face ``datasets``: tasks, responses and grades load with ``load_dataset("json")`` with fixed column
types, and every build writes a dataset card (README.md) that names fields, studies, sources, licences, counts."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest

from execstate.builder import dataset_features
from execstate.cli import main
from execstate.export import hf_features
from execstate.grade import grade_all
from execstate.records import Grade, Response, Task, Usage, read_jsonl, write_jsonl

CASES = Path(__file__).parent / "builder" / "cases"

datasets.disable_progress_bars()


def _load(tmp_path: Path, path: Path | str, **kwargs: object) -> datasets.Dataset:
    return datasets.load_dataset(str(path), cache_dir=str(tmp_path / "hf-cache"), **kwargs)["train"]  # type: ignore[index]


def _expected(model: type) -> datasets.Features:
    return hf_features(model)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build mixing two studies whose tasks differ in metrics (null vs measured) and meta (keys and types)."""
    out = tmp_path_factory.mktemp("build")
    argv = ["build", str(CASES / "one_line"), str(CASES / "list_state"), "--study", "cruxeval", "--out", str(out)]
    argv += ["--add-arms", "loop-trace"]  # a loop-trace grade has the columns steps and prefix
    assert main([*argv, "--jobs", "1"]) == 0
    return out


def test_tasks_load_with_fixed_column_types(built: Path, tmp_path: Path) -> None:
    tasks = list(read_jsonl(built / "tasks.jsonl", Task))
    assert {t.study for t in tasks} == {"cruxeval", "tests"}
    assert {t.metrics.trace_length is None for t in tasks} == {True, False}  # null in some rows, ints in others
    assert len({frozenset(t.meta) for t in tasks}) > 1  # meta keys differ between rows

    rows = _load(tmp_path, "json", data_files=str(built / "tasks.jsonl"))
    assert rows.features == _expected(Task)
    assert rows.features["meta"] == datasets.Value("string")
    assert [json.loads(m) for m in rows["meta"]] == [t.meta for t in tasks]
    assert rows["task_id"] == [t.task_id for t in tasks]


def test_the_cards_schema_holds_when_early_chunks_hold_only_nulls(built: Path, tmp_path: Path) -> None:
    """Read in 16 KiB chunks, the first chunks (CRUXEval, metrics all null) would infer type null for the
    metrics that later chunks measure; the card's schema fixes the types, so loading the folder works."""
    with pytest.raises(datasets.exceptions.DatasetGenerationError):
        _load(tmp_path / "a", "json", data_files=str(built / "tasks.jsonl"), chunksize=16 << 10)
    rows = _load(tmp_path / "b", built, chunksize=16 << 10)
    assert rows.features == _expected(Task) and len(rows) == len(list(read_jsonl(built / "tasks.jsonl", Task)))


def test_responses_and_grades_load_with_fixed_column_types(built: Path, tmp_path: Path) -> None:
    """Rows differ in which optional fields are null (text, reasoning, usage, answer, envelope) and in list
    lengths; every column still gets its declared type."""
    every = list(read_jsonl(built / "tasks.jsonl", Task))
    tasks = [*every[:6], next(t for t in every if t.arm == "loop-trace")]
    # the runner writes times as isoformat(timespec="milliseconds"), which pyarrow leaves as strings
    full = {
        "finish_reason": "stop",
        "started_at": "2026-12-01T00:00:00.000+00:00",
        "finished_at": "2026-12-01T00:00:02.250+00:00",
    }
    responses = [
        Response(task_id=tasks[0].task_id, setting="s", status="no-response", errors=["timeout", "HTTP 503"]),
        Response(task_id=tasks[1].task_id, setting="s", status="completed", text='{"output":"x"}', latency_s=1.5),
        Response(
            task_id=tasks[2].task_id,
            setting="s",
            status="completed",
            text=json.dumps({"output": tasks[2].oracle.strip()}),
            reasoning="thought",
            usage=Usage(
                prompt_tokens=10, completion_tokens=3, reasoning_tokens=2, cache_read_tokens=4, cache_creation_tokens=1
            ),
            latency_s=2,
            attempts=1,
            provider="anthropic",
            model="m",
            cached=True,
            batch_id="msgbatch_01",
            served_model="m-20261201",
            request_id="req_01",
            service_tier="standard",
            **full,
        ),
        *[Response(task_id=t.task_id, setting="s", status="completed", text="no envelope") for t in tasks[3:-1]],
        Response(task_id=tasks[-1].task_id, setting="s", status="completed", text=json.dumps({"output": "[1]"})),
    ]
    write_jsonl(tmp_path / "responses.jsonl", responses)
    grades = grade_all(tasks, responses)
    assert {g.answer is None for g in grades} == {True, False} and {g.envelope_valid for g in grades} >= {None, True}
    write_jsonl(tmp_path / "grades.jsonl", grades)

    loaded = _load(tmp_path, "json", data_files=str(tmp_path / "responses.jsonl"))
    assert loaded.features == _expected(Response)
    assert loaded["errors"][0] == ["timeout", "HTTP 503"] and loaded["text"][0] is None
    assert loaded["latency_s"][2] == 2.0
    loaded_grades = _load(tmp_path, "json", data_files=str(tmp_path / "grades.jsonl"))
    assert loaded_grades.features == _expected(Grade)
    assert loaded_grades["status"] == [g.status for g in grades]
    assert loaded_grades["prefix"][-1] == 0 and loaded_grades["prefix"][0] is None


def test_a_column_null_in_every_row_needs_the_declared_features(tmp_path: Path) -> None:
    """pyarrow types an all-null column ``null``; ``hf_features`` fixes it, and the values are kept."""
    responses = [Response(task_id=f"t/{i}", setting="s", status="no-response") for i in range(3)]
    write_jsonl(tmp_path / "responses.jsonl", responses)
    inferred = _load(tmp_path / "a", "json", data_files=str(tmp_path / "responses.jsonl"))
    assert inferred.features["text"] == datasets.Value("null")
    fixed = _load(tmp_path / "b", "json", data_files=str(tmp_path / "responses.jsonl"), features=hf_features(Response))
    assert fixed.features == _expected(Response) and fixed["text"] == [None] * 3


def test_every_build_writes_a_dataset_card(built: Path) -> None:
    card = (built / "README.md").read_text(encoding="utf-8")
    header, body = card.split("\n---\n", 1)
    meta = {k: json.loads(v) for k, v in (line.split(": ", 1) for line in header.splitlines()[1:])}
    assert meta["configs"][0]["data_files"] == [{"split": "train", "path": "tasks.jsonl"}]
    assert meta["dataset_info"]["features"] == dataset_features(Task)
    for field in Task.model_fields:
        assert f"| `{field}` |" in body, field
    assert (
        "| cruxeval | the 800 CRUXEval items as function-output and function-input tasks (MIT) | facebookresearch/cruxeval"
        in body
    )
    assert "| MIT | 800 | 0 | 1600 |" in body  # licence, cases, excluded, tasks (800 output + 800 input)
    assert "| tests | a user's own study (not registered) | not recorded |" in body
    assert "| tests | python | inside-loop-state | 2 |" in body
    assert "1610 tasks from 802 admitted cases (0 excluded)" in body  # 800 + 800 + 2 x 4 + 2 loop traces


def test_old_task_files_with_meta_objects_still_read(tmp_path: Path) -> None:
    line = json.loads(
        Task(
            task_id="s/c/short-trace-final",
            case_id="s/c",
            study="s",
            language="python",
            arm="short-trace-final",
            source="print(1)\n",
            input="",
            oracle="1\n",
            answer_kind="text",
            grading_rule="json-or-tokens",
            source_sha256="0" * 64,
            meta={"k": 2, "provenance": {"tests": [1, 2]}},
        ).to_json_line()
    )
    assert isinstance(line["meta"], str)
    line["schema_version"], line["meta"] = 1, json.loads(line["meta"])  # the layout before meta became a string
    (tmp_path / "old.jsonl").write_text(json.dumps(line) + "\n")
    [task] = read_jsonl(tmp_path / "old.jsonl", Task)
    assert task.meta == {"k": 2, "provenance": {"tests": [1, 2]}}
