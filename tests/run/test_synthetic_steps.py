"""The synthetic provider on the further arms: a loop trace's steps go wrong more often the later they are
(``synthetic_step_decay``), so the step curve falls; a line count is right or off by one."""

from __future__ import annotations

import asyncio
import json
from itertools import pairwise

from further_records import line_count_task, loop_trace_task

from execstate.analyze import AnalysisConfig, step_curve_rows
from execstate.grade import grade_all
from execstate.records import RUN_MANIFEST_NAME, Grade, Response, Task, read_jsonl
from execstate.run import RESPONSES_NAME, Setting, SyntheticProvider, run_tasks
from execstate.values import json_value

M = 8


def _marks(task: Task, answer: str | None) -> str:
    """One ``1``/``0`` per oracle step: the answer's step at that position equals the oracle's."""
    want = json_value(task.oracle)
    try:
        got = json_value(answer or "")
    except ValueError:
        got = None
    got = got if isinstance(got, list) else []
    return "".join("1" if i < len(got) and got[i] == step else "0" for i, step in enumerate(want))


def _with_steps(tasks: list[Task], grades: list[Grade]) -> list[Grade]:
    """The grades with their step marks: the grader's when it sets them, else read off the answers here."""
    by_id = {t.task_id: t for t in tasks}
    out = []
    for g in grades:
        if g.steps is None and g.status != "no-response":
            steps = _marks(by_id[g.task_id], g.answer)
            g = g.model_copy(update={"steps": steps, "prefix": len(steps) - len(steps.lstrip("1"))})
        out.append(g)
    return out


def _curve(tmp_path, setting: Setting) -> tuple[list[float], dict]:
    tasks = [loop_trace_task(f"s/t{j:03d}", M, trace_length=40) for j in range(200)]
    run_tasks(tasks, [setting], tmp_path, progress=False)
    responses = list(read_jsonl(tmp_path / RESPONSES_NAME, Response))
    grades = _with_steps(tasks, grade_all(tasks, responses, settings=[setting.name]))
    for g in grades:  # an answer is right exactly when every step is
        assert (g.status.startswith("correct")) == (g.steps == "1" * M), g
    rows, _ = step_curve_rows(tasks, grades, AnalysisConfig(replicates=200))
    manifest = json.loads((tmp_path / RUN_MANIFEST_NAME).read_text(encoding="utf-8"))
    return [r["accuracy"] for r in rows], manifest["settings"][setting.name]


def test_the_step_curve_falls_with_the_step(tmp_path):
    curve, recorded = _curve(tmp_path, Setting(name="synthetic-steps", provider="synthetic"))
    assert len(curve) == M
    assert curve[0] - curve[-1] > 0.25, curve  # p: 0.93 at step 1, 0.55 at step 8, less truncations
    # non-increasing overall: a later step never beats an earlier one by more than sampling noise (200 cells)
    assert all(later <= earlier + 0.02 for earlier, later in pairwise(curve)), curve
    assert sum(curve[:4]) > sum(curve[4:]) + 0.5, curve
    assert "synthetic_step_decay" not in recorded  # the default is not written


def test_no_decay_keeps_every_step_as_likely_as_the_first(tmp_path):
    curve, recorded = _curve(tmp_path, Setting(name="synthetic-flat", provider="synthetic", synthetic_step_decay=0.0))
    assert max(curve) - min(curve) < 0.08, curve
    assert recorded["synthetic_step_decay"] == 0.0
    assert SyntheticProvider("x", step_decay=0.0).model == "synthetic(skill=4, slope=0.25, step_decay=0)"


def test_a_wrong_step_changes_that_step_only():
    task = loop_trace_task("s/one", M)
    provider = SyntheticProvider("s", skill=1.0)
    seen = 0
    for sample in range(40):
        text = asyncio.run(provider.attempt_task(task, sample)).text or ""
        if not text.endswith("}"):  # cut by the output budget: no answer to read
            continue
        answer = json_value(text[text.index("{") :])["output"]
        got, want = json_value(answer), json_value(task.oracle)
        assert len(got) == M and all(g.keys() == w.keys() for g, w in zip(got, want))
        wrong = [w for g, w in zip(got, want) if g != w]
        assert all(sum(abs(g[k] - w[k]) for k in w) == 1 for g, w in zip(got, want) if g != w), answer
        assert _marks(task, answer).count("0") == len(wrong)
        seen += len(wrong)
    assert seen > 40  # most answers have wrong steps at this skill


def test_a_line_count_is_right_or_off_by_one():
    provider = SyntheticProvider("s", skill=1.0)
    answers = set()
    for j in range(60):
        task = line_count_task(f"s/l{j}", 10 + j, 0.5)
        text = asyncio.run(provider.attempt_task(task, 0)).text or ""
        if text.endswith("}"):
            answers.add(int(json.loads(text[text.index("{") :])["output"]) - (10 + j))
    assert answers == {0, 1}
