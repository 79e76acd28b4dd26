"""Prompt conditions and response contracts: the baseline is the fixed prompt, guidance is one paragraph,
and under the rationale contract only ``output`` is graded while the rationale is kept."""

from __future__ import annotations

import json

from execstate.grade import extract_rationale, grade_response
from execstate.pilot import pilot_predictions, pilot_tasks
from execstate.records import Response, Task
from execstate.run import render_messages

INVARIANT = {"text": "total is a triangular number", "placebo": "the program reads one line", "check": "audit.py"}
BASE = Task(
    task_id="mine/triangle/long-trace-final",
    case_id="mine/triangle",
    study="mine",
    language="python",
    arm="long-trace-final",
    source="print(820)\n",
    input="40\n",
    oracle="820\n",
    answer_kind="text",
    grading_rule="json-or-tokens",
    source_sha256="0" * 64,
    meta={"invariant": INVARIANT},
)


def _by_variant(conditions=("baseline", "guided", "placebo")):
    tasks, left_out = pilot_tasks([BASE], conditions)
    assert left_out == []
    return {(t.meta["prompt"]["condition"], t.meta["prompt"]["contract"]): t for t in tasks}


def _response(task: Task, text: str) -> Response:
    return Response(task_id=task.task_id, setting="s", status="completed", text=text)


def test_the_baseline_output_only_prompt_is_the_fixed_prompt():
    tasks = _by_variant()
    assert render_messages(tasks["baseline", "output-only"]) == render_messages(BASE)


def test_guidance_adds_one_paragraph_and_nothing_else():
    base = render_messages(tasks := _by_variant()["baseline", "output-only"])[0]["content"]
    guided = render_messages(_by_variant()["guided", "output-only"])[0]["content"]
    placebo = render_messages(_by_variant()["placebo", "output-only"])[0]["content"]
    head, fmt = base.rsplit("\n", 1)
    assert guided == f"{head}\nInvariant (checked against this program): {INVARIANT['text']}\n{fmt}"
    assert placebo == f"{head}\nInvariant (checked against this program): {INVARIANT['placebo']}\n{fmt}"
    assert tasks.source in base and tasks.oracle.strip() not in guided.replace(tasks.source, "")


def test_the_rationale_contract_changes_only_the_format_line():
    base = render_messages(_by_variant()["baseline", "output-only"])[0]["content"]
    rationale = render_messages(_by_variant()["baseline", "rationale-then-output"])[0]["content"]
    assert rationale.rsplit("\n", 1)[0] == base.rsplit("\n", 1)[0]
    assert rationale.endswith('{"rationale":"<your reasoning>","output":"<exact text>"}')


def test_a_case_without_invariant_is_left_out():
    plain = BASE.model_copy(update={"meta": {}})
    assert pilot_tasks([plain]) == ([], ["mine/triangle"])


def test_only_the_output_of_the_rationale_contract_is_graded_and_the_rationale_is_kept():
    task = _by_variant()["guided", "rationale-then-output"]
    right = _response(task, json.dumps({"rationale": "sum 1..40 is 819", "output": "820"}))
    wrong = _response(task, json.dumps({"rationale": "so the answer is 820", "output": "819"}))
    assert grade_response(task, right).status == "correct-valid"
    assert grade_response(task, wrong).status == "wrong-valid"  # the rationale's 820 is not graded
    grades = [grade_response(task, right), grade_response(task, wrong.model_copy(update={"sample": 1}))]
    predictions = pilot_predictions([task], [right, wrong.model_copy(update={"sample": 1})], grades)
    assert [(p.answer, p.rationale, p.correct) for p in predictions] == [
        ("820", "sum 1..40 is 819", True),
        ("819", "so the answer is 820", False),
    ]


def test_the_rationale_envelope_needs_both_keys_in_order():
    assert extract_rationale('{"rationale":"r","output":"9"}').envelope_valid
    swapped = extract_rationale('{"output":"9","rationale":"r"}')
    assert (swapped.envelope_valid, swapped.answer, swapped.rationale) == (False, "9", "r")
    only_output = extract_rationale('{"output":"9"}')
    assert (only_output.envelope_valid, only_output.answer) == (False, "9")
    fenced = extract_rationale('```json\n{"rationale":"r","output":"9"}\n```')
    assert (fenced.envelope_valid, fenced.method, fenced.rationale) == (False, "fence", "r")
    assert extract_rationale("the output is 9").answer is None


def test_an_output_only_envelope_is_invalid_under_the_rationale_contract_and_vice_versa():
    tasks = _by_variant()
    under_rationale = grade_response(
        tasks["baseline", "rationale-then-output"],
        _response(tasks["baseline", "rationale-then-output"], '{"output":"820"}'),
    )
    assert under_rationale.status == "correct-invalid"
    under_output = grade_response(
        tasks["baseline", "output-only"],
        _response(tasks["baseline", "output-only"], '{"rationale":"r","output":"820"}'),
    )
    assert under_output.status == "correct-invalid"
