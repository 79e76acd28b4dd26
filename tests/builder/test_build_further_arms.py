"""The further arms (loop trace, line count) on the classic study: posed on enough cases, every oracle equal to an
independent recomputation by a plain ``sys.settrace`` recorder (``further_recorder.py``), the paper's four tasks
untouched, the oracle answers graded right and a crafted trace graded step by step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.builder._further import COUNT_MARK, COUNT_QUESTION
from execstate.grade import grade_response
from execstate.records import FURTHER_ARMS, Response, Task, paper_tasks
from execstate.studies import STUDIES

RECORDER = Path(__file__).with_name("further_recorder.py")


@pytest.fixture(scope="module")
def classic(classic_build):
    """The classic study built with its study.toml's arms (the paper's four and both further arms): the session's
    build (tests/conftest.py)."""
    return classic_build


def _by_case(tasks: list[Task]) -> dict[str, dict[str, Task]]:
    found: dict[str, dict[str, Task]] = {}
    for t in tasks:
        found.setdefault(t.case_id, {})[t.arm] = t
    return found


def _record(source: str, stdin: str, loop_line: int, k: int, steps: int, names: list[str], tmp: Path) -> dict:
    """The recorder's run of ``source`` (a file in ``tmp``) on ``stdin``."""
    program = tmp / "main.py"
    program.write_text(source, encoding="utf-8")
    args = [sys.executable, "-s", "-B", str(RECORDER), str(program), str(loop_line), str(k), str(steps), *names]
    env = {"PATH": os.environ["PATH"], "PYTHONHASHSEED": "0", "PYTHONUTF8": "1"}
    done = subprocess.run(args, input=stdin.encode("utf-8"), capture_output=True, timeout=300, cwd=tmp, env=env)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(done.stdout)


def test_classic_poses_the_further_arms_on_enough_cases(classic) -> None:
    cases = _by_case(classic.tasks)
    assert len(cases) == 30
    traces = [c for c in cases.values() if "loop-trace" in c]
    counts = [c for c in cases.values() if "line-count" in c]
    assert len(traces) >= 25 and len(counts) >= 20
    posed = {(t.case_id, t.arm) for t in classic.tasks if t.arm in FURTHER_ARMS}
    missing = {(n["case_id"], n["arm"]) for n in classic.manifest.not_posed}
    assert len(posed) + len(missing) == 60 and not posed & missing  # each case's two arms: posed or said why
    for case in cases.values():  # the further tasks come after the paper's four
        arms = list(case)
        assert arms[:4] == ["short-trace-final", "long-trace-final", "inside-loop-state", "post-loop-state"]
    assert len(paper_tasks(classic.tasks)) == 120


def test_every_oracle_equals_the_recorders(classic, tmp_path: Path) -> None:
    checked = 0
    for case in _by_case(classic.tasks).values():
        clean = case["short-trace-final"].source
        if "loop-trace" in case:
            t = case["loop-trace"]
            m = t.meta
            got = _record(clean, t.input, m["loop_line"], m["k"], m["trace_cap"], m["variables"], tmp_path)
            assert got["trace"] == json.loads(t.oracle), t.task_id
            assert len(got["trace"]) == m["trace_steps"]
            checked += 1
        if "line-count" in case:
            t = case["line-count"]
            line = t.meta["line_count"]
            got = _record(clean, t.input, t.meta["loop_line"], 1, 1, t.meta["variables"], tmp_path)
            assert t.oracle == str(got["counts"][str(line["line"])]), t.task_id
            assert line["evaluated"] == got["counts"][str(line["branch_line"])]
            assert 0 < line["taken"] < line["evaluated"] and line["taken"] != line["loop_iterations"]
            checked += 1
    assert checked >= 45


def test_the_marked_program_shows_the_line_and_the_question(classic) -> None:
    for case in _by_case(classic.tasks).values():
        if "line-count" not in case:
            continue
        t, clean = case["line-count"], case["short-trace-final"].source.splitlines()
        line, shown = t.meta["line_count"], t.source.splitlines()
        assert shown[: len(clean)] == [
            text.rstrip() + "  # <-- count this line" if i + 1 == line["line"] else text for i, text in enumerate(clean)
        ]
        assert clean[line["line"] - 1].strip() == line["text"]
        assert shown[len(clean) :] == ["", f"# {COUNT_QUESTION.format(mark=COUNT_MARK, line=line['line'])}"]
    assert t.grading_rule == "integer" and t.answer_kind == "text"


def _answer(task: Task, text: str) -> Response:
    return Response(task_id=task.task_id, setting="s", status="completed", text=json.dumps({"output": text}))


def test_oracle_answers_grade_right_and_a_third_step_wrong_keeps_a_prefix_of_two(classic) -> None:
    further = [t for t in classic.tasks if t.arm in FURTHER_ARMS]
    for t in further:
        g = grade_response(t, _answer(t, t.oracle.rstrip("\n")))
        assert g.status == "correct-valid", t.task_id
        if t.arm == "loop-trace":
            assert g.steps == "1" * t.meta["trace_steps"] and g.prefix == t.meta["trace_steps"]
        else:
            assert g.steps is None and g.prefix is None
    trace = next(t for t in further if t.arm == "loop-trace" and t.meta["trace_steps"] >= 4)
    steps = json.loads(trace.oracle)
    first = next(iter(steps[2]))
    steps[2][first] = "not this" if steps[2][first] != "not this" else "nor this"
    g = grade_response(trace, _answer(trace, json.dumps(steps)))
    assert g.status == "wrong-valid" and g.prefix == 2
    assert g.steps == "110" + "1" * (len(steps) - 3)


def test_a_study_without_the_setting_gets_them_from_the_flag(tmp_path: Path) -> None:
    root = Path(__file__).parents[2] / "examples" / "collatz"
    plain = build([root])
    assert [t.arm for t in plain.tasks] == [
        "short-trace-final",
        "long-trace-final",
        "inside-loop-state",
        "post-loop-state",
    ]
    added = build([root], options=BuildOptions(add_arms=("loop-trace",)))
    assert [t.arm for t in added.tasks][4:] == ["loop-trace"]
    assert [t.to_json_line() for t in added.tasks[:4]] == [t.to_json_line() for t in plain.tasks]
    assert STUDIES["classic"].cases_dir is not None
