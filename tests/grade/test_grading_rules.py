"""Grading rules come from one registry: the built-in ones match the record vocabulary, a rule registered at run
time (pure or executed) grades tasks, a package's entry point adds one, and a wrong name or spec says the fix."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from further_records import case_task

from execstate.errors import UsageError
from execstate.grade import (
    EXECUTED_RULES,
    RULE_REGISTRY,
    RULES,
    CallVerdict,
    RuleSpec,
    answer_matches,
    grade_all,
    is_executed,
    register_rule,
    rule_spec,
    unregister_rule,
)
from execstate.records import GRADING_RULES, Response, Task
from execstate.registry import RegistryMiss
from execstate.testing.plugins import plugin_dist


def _with_rule(task: Task, rule: str) -> Task:
    """``task`` under ``rule``. ``Task.grading_rule`` is still a Literal of the built-in names in records.py, so
    a rule from outside is put on the task without validation here (the records change is the lead's)."""
    return task.model_copy(update={"grading_rule": rule})


def _responses(tasks: Sequence[Task], answers: Sequence[str]) -> list[Response]:
    return [
        Response(task_id=t.task_id, setting="s", status="completed", text=json.dumps({"output": a}))
        for t, a in zip(tasks, answers)
    ]


@pytest.fixture
def casefold() -> Iterator[str]:
    register_rule(RuleSpec("toy-casefold", lambda answer, oracle: answer.casefold() == oracle.strip().casefold()))
    yield "toy-casefold"
    unregister_rule("toy-casefold")


def test_the_built_in_rules_are_the_records_vocabulary():
    assert sorted(RULE_REGISTRY.builtin_names()) == sorted(GRADING_RULES)
    assert sorted((*RULES, *EXECUTED_RULES)) == sorted(GRADING_RULES)
    assert [r for r in GRADING_RULES if is_executed(r)] == ["python-call", "program-input"]
    assert all(rule_spec(r).match is RULES[r] for r in RULES)
    assert RULE_REGISTRY.group == "execstate.grading_rules"


def test_an_unknown_or_executed_rule_is_a_usage_error_naming_the_fix():
    with pytest.raises(RegistryMiss, match=r"unknown grading rule 'byte'; did you mean 'bytes'.*Fix:"):
        answer_matches("byte", "a", "a")
    with pytest.raises(KeyError):  # a RegistryMiss is a KeyError too, as the old dictionary lookup was
        answer_matches("no-such-rule", "a", "a")
    with pytest.raises(UsageError, match=r"decided by running code.*Fix: grade the task with grade_response"):
        answer_matches("python-call", "f(1)", "f(1)")


def test_a_spec_sets_exactly_one_of_match_and_verdicts():
    for spec in (RuleSpec("toy-none"), RuleSpec("toy-both", str.__eq__, verdicts=lambda answers: [])):
        with pytest.raises(UsageError, match=r"exactly one of match .* and verdicts"):
            register_rule(spec)
    assert "toy-none" not in RULE_REGISTRY


def test_a_pure_rule_registered_at_run_time_grades_tasks(casefold):
    tasks = [_with_rule(case_task(f"s/c{j}", "long-trace-final", "Hello World\n"), casefold) for j in range(3)]
    grades = grade_all(tasks, _responses(tasks, ["hello world", "HELLO WORLD", "hello"]))
    assert [g.status for g in grades] == ["correct-valid", "correct-valid", "wrong-valid"]
    assert {g.rule for g in grades} == {casefold}
    assert answer_matches(casefold, "hELLO", "Hello\n") and not is_executed(casefold)


def test_an_executed_rule_registered_at_run_time_gets_its_answers_in_one_batch():
    batches: list[list[str]] = []

    def verdicts(answers: Sequence[tuple[Task, str]]) -> list[CallVerdict]:
        batches.append([answer for _, answer in answers])
        return [CallVerdict(a == t.oracle.strip(), True, None if a == t.oracle.strip() else "no") for t, a in answers]

    register_rule(RuleSpec("toy-run", verdicts=verdicts))
    try:
        tasks = [_with_rule(case_task(f"s/c{j}", "long-trace-final", f"{j}\n"), "toy-run") for j in range(3)]
        grades = grade_all(tasks, _responses(tasks, ["0", "5", "2"]))
    finally:
        unregister_rule("toy-run")
    assert batches == [["0", "5", "2"]]
    assert [(g.status, g.reason) for g in grades] == [
        ("correct-valid", None),
        ("wrong-valid", "no"),
        ("correct-valid", None),
    ]


def test_a_rule_from_a_packages_entry_point_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "toy_rules_pkg.py").write_text(
        "from execstate.grade import RuleSpec\n"
        "TOY = RuleSpec('toy-reversed', lambda answer, oracle: answer == oracle.strip()[::-1])\n",
        encoding="utf-8",
    )
    plugin_dist(tmp_path, "toy-rules-pkg", {"execstate.grading_rules": {"toy-reversed": "toy_rules_pkg:TOY"}})
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    RULE_REGISTRY.refresh()
    try:
        assert "toy-reversed" in RULE_REGISTRY.declared()
        assert answer_matches("toy-reversed", "cba", "abc\n") and not answer_matches("toy-reversed", "abc", "abc")
        assert "toy-reversed" not in RULE_REGISTRY.builtin_names()
    finally:
        monkeypatch.undo()
        sys.modules.pop("toy_rules_pkg", None)
        RULE_REGISTRY.refresh()
    assert "toy-reversed" not in RULE_REGISTRY
