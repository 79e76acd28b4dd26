"""`execstate export inspect`: the Inspect task file asks the exact prompt and scores like `execstate grade`."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

from execstate.cli import main
from execstate.records import Grade, Response, Task, read_jsonl, write_jsonl
from execstate.run import USER_MESSAGE, render_system
from execstate.studies.cruxeval import cruxeval_tasks

GOLDEN = Path(__file__).parents[1] / "grade" / "golden_responses.jsonl"


def _golden_tasks() -> tuple[list[Task], dict[str, str]]:
    """One task per completed golden grading case (every rule, right and wrong answers), and its answer text."""
    tasks, answers = [], {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case["response_status"] != "completed" or case["generate"] is not None:
            continue
        source = f"# golden case {case['id']}\nprint({{'x': 1}})\n"
        tasks.append(
            Task(
                task_id=f"golden/{case['id']}/short-trace-final",
                case_id=f"golden/{case['id']}",
                study="golden",
                language="python",
                arm="short-trace-final",
                source=source,
                input="in {braces} \u00e9\n",
                oracle=case["oracle"],
                answer_kind="text",
                grading_rule=case["rule"],
                source_sha256=hashlib.sha256(source.encode()).hexdigest(),
            )
        )
        answers[tasks[-1].task_id] = case["response"]
    # CRUXEval-I tasks (rule python-call, decided by running f in the sandbox): a right call that is not the
    # item's own input, a call that returns another value, and an answer that is not a call
    inputs = [t for t in cruxeval_tasks() if t.arm == "function-input"][:3]
    for task, output in zip(inputs, ("f([3, 1, 1, 3, 1, 1])", "f([])", "[(4, 1)]")):
        tasks.append(task)
        answers[task.task_id] = json.dumps({"output": output})
    return tasks, answers


def test_inspect_scores_equal_execstate_grade_on_the_same_answers(tmp_path: Path) -> None:
    tasks, answers = _golden_tasks()
    write_jsonl(tmp_path / "tasks.jsonl", tasks)
    assert main(["export", "inspect", "--tasks", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out")]) == 0
    task_file = tmp_path / "out" / "execstate_inspect.py"

    by_prompt = {render_system(t.source, t.input): answers[t.task_id] for t in tasks}
    seen: list[list[tuple[str, str]]] = []

    def answer(messages: list[Any], *_: Any) -> ModelOutput:
        seen.append([(m.role, m.text) for m in messages])
        output = ModelOutput.from_content(model="mockllm", content=by_prompt[messages[0].text])
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # else tiktoken downloads
        return output

    model = get_model("mockllm/model", custom_outputs=answer, memoize=False)
    # an absolute path needs the @task form: inspect-ai 0.3.285 globs a bare path relative to the working directory
    [log] = inspect_eval(f"{task_file}@execstate_tasks", model=model, log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == len(tasks)
    # the exact SPEC 7 prompt, two messages, nothing added
    assert sorted(seen) == sorted([[("system", p), ("user", USER_MESSAGE)] for p in by_prompt])

    responses = [
        Response(task_id=t.task_id, setting="mock", status="completed", text=answers[t.task_id]) for t in tasks
    ]
    write_jsonl(tmp_path / "responses.jsonl", responses)
    grades_path = tmp_path / "grades.jsonl"
    assert (
        main(
            [
                "grade",
                "--tasks",
                str(tmp_path / "tasks.jsonl"),
                "--responses",
                str(tmp_path / "responses.jsonl"),
                "--out",
                str(grades_path),
            ]
        )
        == 0
    )
    grades = {g.task_id: g for g in read_jsonl(grades_path, Grade)}

    inspect_verdicts = {str(s.id): s.scores["execstate"] for s in log.samples}
    assert inspect_verdicts.keys() == grades.keys()
    for task_id, score in inspect_verdicts.items():
        assert (score.value == "C") == grades[task_id].status.startswith("correct"), task_id
        assert score.answer == grades[task_id].answer and score.metadata["status"] == grades[task_id].status
    crux = [grades[t.task_id].status for t in tasks if t.arm == "function-input"]
    assert crux == ["correct-valid", "wrong-valid", "wrong-invalid"]
    correct = sum(s.value == "C" for s in inspect_verdicts.values())
    assert 0 < correct < len(tasks)  # some right, some wrong
    [metrics] = [s.metrics for s in log.results.scores if s.name == "execstate"]
    assert metrics["accuracy"].value == pytest.approx(correct / len(tasks))


# Inspect's command line, with one change: mockllm counts prompt tokens with tiktoken, which downloads its
# encoding on first use; offline (CI) that fails, so the count is replaced by a character count.
_OFFLINE_INSPECT = (
    "import sys, inspect_ai.model._model as m\n"
    "async def chars(self, text): return len(text)\n"
    "m.ModelAPI.count_text_tokens = chars\n"
    "from inspect_ai._cli.main import main\n"
    "sys.argv[0] = 'inspect'\n"
    "main()\n"
)


def test_the_task_file_runs_under_the_inspect_command(tmp_path: Path) -> None:
    """`inspect eval DIR/execstate_inspect.py`: mockllm's default answer is no envelope, so every sample is wrong."""
    tasks, _ = _golden_tasks()
    write_jsonl(tmp_path / "tasks.jsonl", tasks[:3])
    assert main(["export", "inspect", "--tasks", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out")]) == 0
    argv = [
        "eval",
        "out/execstate_inspect.py",
        "--model",
        "mockllm/model",
        "--log-dir",
        "logs",
        "--log-format",
        "json",
        "--display",
        "none",
    ]
    proc = subprocess.run(
        [sys.executable, "-c", _OFFLINE_INSPECT, *argv], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    [log_file] = (tmp_path / "logs").glob("*.json")
    log = json.loads(log_file.read_text())
    assert log["status"] == "success", log.get("error")
    assert [s["scores"]["execstate"]["metadata"]["status"] for s in log["samples"]] == ["wrong-invalid"] * 3


def test_an_edited_export_is_refused(tmp_path: Path) -> None:
    tasks, _ = _golden_tasks()
    write_jsonl(tmp_path / "tasks.jsonl", tasks[:2])
    main(["export", "inspect", "--tasks", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "out")])
    with open(tmp_path / "out" / "tasks.jsonl", "a", encoding="utf-8") as fh:
        fh.write(tasks[2].to_json_line() + "\n")
    with pytest.raises(ValueError, match=r"SHA-256 .* is not the exported .*Fix"):
        inspect_eval(
            f"{tmp_path}/out/execstate_inspect.py@execstate_tasks",
            model="mockllm/model",
            log_dir=str(tmp_path / "l"),
            display="none",
        )
