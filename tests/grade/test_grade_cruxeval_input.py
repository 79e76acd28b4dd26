"""CRUXEval-I: the function-input tasks, the python-call rule and `cruxeval-score --task input` in both modes.

The hand-decided verdicts live in ``cruxeval_input_quirks.py`` (which writes the two files under ``cruxeval/``).
Everything that runs a function or a generation runs it in the sandbox, never in this process.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.builder import build
from execstate.cli import main
from execstate.grade import check_calls, grade_all, grade_response, parse_call, score_generations
from execstate.grade._call_rule import Call
from execstate.grade._cruxeval_upstream import check_program
from execstate.records import Grade, Response, Task, read_jsonl, write_jsonl
from execstate.run import Setting, run_tasks
from execstate.studies.cruxeval import LAMBDA_NOTE, LITERAL_CALLS, cruxeval_tasks, load_items, takes_function

sys.path.insert(0, str(Path(__file__).parent))
import cruxeval_input_quirks as quirks

LITERAL, UPSTREAM = 2, 3


def test_the_quirk_files_are_the_table() -> None:
    """The files the CLI test reads are what ``python tests/grade/cruxeval_input_quirks.py`` writes."""
    wrapped = json.loads(quirks.GENERATIONS_FILE.read_text(encoding="utf-8"))
    assert wrapped["raw_generations"] == quirks.generations()
    assert {k: {f: v[f] for f in ("code", "input", "output")} for k, v in load_items(quirks.ITEMS_FILE).items()} == (
        quirks.ITEMS
    )


def _upstream_program(code: str, i: str, o: str, g: str) -> str | None:
    """CRUXEval's ``evaluate_score`` (evaluation/utils_general.py) for mode "input", copied: None = False unrun."""
    if "f(" not in g:
        return None
    return f"{code}\nassert {o} == {g}"


@pytest.mark.parametrize("case", quirks.CASES, ids=[f"{c[0]}:{c[1]!r}" for c in quirks.CASES])
def test_the_upstream_check_program_is_cruxevals(case: tuple) -> None:
    item = quirks.ITEMS[case[0]]
    want = _upstream_program(item["code"], item["input"], item["output"], case[1])
    assert check_program(item, case[1], task="input") == want


@pytest.mark.parametrize("mode,column", [("literal", LITERAL), ("upstream", UPSTREAM)])
def test_cli_scores_the_wrapped_quirks_file_item_by_item(
    mode: str, column: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "scored.json"
    argv = ["cruxeval-score", str(quirks.GENERATIONS_FILE), "--task", "input", "--mode", mode]
    assert main([*argv, "--data", str(quirks.ITEMS_FILE), "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    scored = json.loads(out.read_text(encoding="utf-8"))["raw_scored_generations"]
    assert scored == quirks.expected(column)
    assert (report["task"], report["mode"], report["items"], report["generations"]) == ("input", mode, 5, 40)
    assert report["outcomes"]["timed out"] == 1 and report["outcomes"]["crashed"] == 0
    assert report["pass_at_1"] == pytest.approx(100.0 * sum(sum(v) / len(v) for v in scored.values()) / 5)
    assert report["pass_at_5"] is None  # sample_2 and sample_3 have 3 generations each
    if mode == "upstream":
        assert report["outcomes"]["no f("] == 2  # "24" and "g(12)"
    else:
        assert report["outcomes"]["invalid call"] == report["non_literal_generations"] == 17
        assert report["outcomes"]["raised"] == 2 and report["outcomes"]["returned another value"] == 2


def test_check_calls_gives_the_reason_of_each_wrong_answer() -> None:
    code = quirks.ITEMS["sample_0"]["code"]
    verdicts = check_calls([(code, g, "24") for g in ("f(12)", "f(11)", "f(None)", "f(x)", "g(12)", "24")])
    assert [v.correct for v in verdicts] == [True, False, False, False, False, False]
    assert [v.is_call for v in verdicts] == [True, True, True, False, False, False]
    reasons = [v.reason or "" for v in verdicts]
    assert reasons[0] == "" and reasons[1] == "f returned 22" and reasons[2].startswith("f raised")
    assert "TypeError" in reasons[2]
    assert reasons[3] == "invalid call: argument 1 is not a Python literal: x"
    assert reasons[4] == "invalid call: calls g, not f" and reasons[5].startswith("invalid call: not a call of f")


def test_the_function_runs_in_the_sandbox_not_in_this_process(tmp_path: Path) -> None:
    marker = tmp_path / "written"
    code = "def f(path):\n    open(path, 'w').write('x')\n    return 1"
    [verdict] = check_calls([(code, f"f({str(marker)!r})", "1")])
    assert not verdict.correct and not marker.exists()
    assert verdict.reason is not None and "raised" in verdict.reason


def test_literal_mode_parses_without_evaluating(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers that are not literal calls never reach the sandbox at all."""
    import execstate.grade._call_rule as module

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a non-call answer was executed")

    monkeypatch.setattr(module, "run_seeded_checks", refuse)
    verdicts = check_calls([("def f(x): return x", g, "1") for g in ("__import__('os')", "f(open('x'))", "1")])
    assert [v.is_call for v in verdicts] == [False, False, False]


_literals = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(args=st.lists(_literals, max_size=3), kwargs=st.dictionaries(st.sampled_from(["a", "b", "key"]), _literals))
def test_a_call_of_literals_parses_back_to_its_arguments(args: list, kwargs: dict) -> None:
    text = "f(" + ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]) + ")"
    call = parse_call(text)
    assert not isinstance(call, str), call
    assert call.args == tuple(repr(a) for a in args)
    assert call.kwargs == tuple((k, repr(v)) for k, v in kwargs.items())


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60) | st.builds(lambda s: "f(" + s, st.text(max_size=40)))
def test_parse_call_never_raises(text: str) -> None:
    result = parse_call(text)
    assert isinstance(result, str) or text.strip().startswith("f")


# --- the function-input tasks ---------------------------------------------------------------------------------


def _input_tasks() -> list[Task]:
    return [t for t in cruxeval_tasks() if t.arm == "function-input"]


def test_input_tasks_follow_their_output_task_and_keep_the_item() -> None:
    tasks = cruxeval_tasks()
    inputs = _input_tasks()
    assert len(inputs) == 800
    assert [t.arm for t in tasks[:4]] == ["function-output", "function-input"] * 2
    t1 = tasks[1]
    assert t1.source_sha256 == tasks[0].source_sha256  # one source cluster per item, as the arms of a case
    assert (t1.task_id, t1.grading_rule, t1.oracle, t1.input) == (
        "cruxeval/sample_0/function-input",
        "python-call",
        "f([1, 1, 3, 1, 3, 1])",
        "",
    )
    assert t1.source.startswith("def f(nums):")
    assert "#     f(<arguments>) == [(4, 1), (4, 1), (4, 1), (4, 1), (2, 3), (2, 3)]\n" in t1.source
    assert t1.meta["output"] == "[(4, 1), (4, 1), (4, 1), (4, 1), (2, 3), (2, 3)]"
    assert {t.meta["cruxeval_id"]: t.oracle for t in inputs if t.meta["cruxeval_id"] in LITERAL_CALLS} == (
        LITERAL_CALLS
    )


def _oracle_responses(tasks: list[Task], setting: str = "oracle") -> list[Response]:
    return [
        Response(task_id=t.task_id, setting=setting, status="completed", text=json.dumps({"output": t.oracle}))
        for t in tasks
    ]


def test_grading_records_the_verdict_and_its_reason(tmp_path: Path) -> None:
    [task] = [t for t in _input_tasks() if t.task_id == "cruxeval/sample_0/function-input"]
    texts = {
        "right, another input": json.dumps({"output": "f([3, 1, 1, 3, 1, 1])"}),
        "wrong value": json.dumps({"output": "f([1])"}),
        "not a call": json.dumps({"output": "[(4, 1)]"}),
        "fenced": 'So:\n```json\n{"output": "f([1, 1, 3, 1, 3, 1])"}\n```',
    }
    responses = [Response(task_id=task.task_id, setting=name, status="completed", text=t) for name, t in texts.items()]
    grades = {g.setting: g for g in grade_all([task], responses)}
    assert grades["right, another input"].status == "correct-valid" and grades["right, another input"].reason is None
    assert grades["wrong value"].status == "wrong-valid" and grades["wrong value"].reason == "f returned [(1, 1)]"
    assert grades["not a call"].status == "wrong-invalid" and grades["not a call"].envelope_valid is True
    assert (grades["not a call"].reason or "").startswith("invalid call: not a call of f")
    assert grades["fenced"].status == "correct-invalid"
    # one response graded alone (the Inspect scorer's path) runs its own check and agrees
    assert grade_response(task, responses[1]) == grades["wrong value"]
    assert '"reason":"f returned [(1, 1)]"' in grades["wrong value"].to_json_line()
    assert "reason" not in grades["right, another input"].to_json_line()
    write_jsonl(tmp_path / "grades.jsonl", grades.values())
    assert list(read_jsonl(tmp_path / "grades.jsonl", Grade)) == list(grades.values())


def test_the_oracle_pipeline_check_answers_every_input_task_through_run_and_grade(tmp_path: Path) -> None:
    built = build([], studies=["cruxeval"])
    tasks = [t for t in built.tasks if t.arm == "function-input"]
    assert len(tasks) == 800
    summary = run_tasks(tasks, [Setting(name="oracle-check", provider="oracle")], tmp_path / "run", progress=False)
    assert summary is not None
    responses = [Response.model_validate_json(line) for line in (tmp_path / "run" / "responses.jsonl").open()]
    assert len(responses) == 800 and all(r.pipeline_check for r in responses)
    grades = grade_all(tasks, responses)
    assert {g.status for g in grades} == {"correct-valid"}


def test_a_wrong_oracle_would_be_caught() -> None:
    """The oracle check can fail: the item's call with one argument changed grades wrong."""
    [task] = [t for t in _input_tasks() if t.task_id == "cruxeval/sample_0/function-input"]
    wrong = task.model_copy(update={"oracle": "f([1, 1, 3, 1, 3])"})
    [grade] = grade_all([wrong], _oracle_responses([wrong]))
    assert grade.status == "wrong-valid"


def test_upstream_input_mode_on_the_bundled_items_passes_each_items_own_call() -> None:
    """CRUXEval's own check accepts every item's own input (the benchmark's ground truth), all 800."""
    items = load_items()
    generations = {key: [f"f({item['input']})"] for key, item in items.items()}
    score = score_generations(generations, items, ks=(1,), mode="upstream", task="input")
    assert score.pass_at[1] == 100.0
    literal = score_generations(generations, items, ks=(1,), task="input")
    failed = {k for k, v in literal.scored.items() if not v[0]}
    assert failed == set(LITERAL_CALLS)  # their own inputs are expressions (the two lambda ones pass)


# --- the two items whose own call passes a function --------------------------------------------------------------


def test_only_the_items_whose_call_passes_a_lambda_accept_lambda_arguments() -> None:
    items = load_items()
    assert {key for key, item in items.items() if takes_function(item["input"])} == {"sample_344", "sample_364"}
    lambda_tasks = {t.meta["cruxeval_id"]: t for t in _input_tasks() if t.meta.get("lambda_arguments")}
    assert set(lambda_tasks) == {"sample_344", "sample_364"}
    assert lambda_tasks["sample_364"].oracle == "f([0, 3, 0, 1], lambda x: x < 2)"
    assert all(t.source.endswith(LAMBDA_NOTE) for t in lambda_tasks.values())
    others = [t for t in _input_tasks() if t.meta["cruxeval_id"] not in lambda_tasks]
    assert not any(LAMBDA_NOTE in t.source or "lambda_arguments" in t.meta for t in others)
    assert not takes_function("lambda") and not takes_function("'lambda x: x'") and takes_function("k=lambda: 1")


def test_a_lambda_answer_is_graded_by_running_it_only_where_the_item_takes_a_function() -> None:
    tasks = {t.meta["cruxeval_id"]: t for t in _input_tasks() if t.meta["cruxeval_id"] in ("sample_0", "sample_364")}
    answers = [
        ("sample_364", "f([3, 1], lambda x: x == 1)", "correct-valid", None),  # another right input and lambda
        ("sample_364", "f([0, 3, 0, 1], lambda x: x > 2)", "wrong-valid", "f returned [[3, True], [1, False]]"),
        ("sample_364", "f([0, 3, 0, 1], abs)", "wrong-invalid", "invalid call: argument 2 is not a Python literal"),
        ("sample_0", "f((lambda: [1, 1, 3, 1, 3, 1])())", "wrong-invalid", "invalid call: argument 1 is not"),
    ]
    for key, answer, status, reason in answers:
        response = Response(
            task_id=tasks[key].task_id, setting="s", status="completed", text=json.dumps({"output": answer})
        )
        grade = grade_response(tasks[key], response)
        assert grade.status == status, (answer, grade)
        assert (grade.reason is None) if reason is None else (grade.reason or "").startswith(reason)
    assert isinstance(parse_call("f([1], lambda x: x)", lambdas=True), Call)
    assert isinstance(parse_call("f([1], lambda x: x)"), str)
