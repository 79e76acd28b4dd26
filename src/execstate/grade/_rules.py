"""Grading rules from one registry: every rule a task may name, built in, registered at run time or from a package.

A rule is a ``RuleSpec``, of one of two kinds:

- a *pure* rule, ``match(answer, oracle) -> bool`` that never raises (``json-or-tokens``, ``int-alpha-tokens``,
  ``bytes``, ``python-literal``, ``integer``: ``_match``); ``answer_matches`` applies it;
- an *executed* rule, ``verdicts([(task, answer), ...]) -> [CallVerdict, ...]``, decided by running code in the
  sandbox and given every answer of a grading run at once so it can batch them (``python-call``: ``_call_rule``;
  ``program-input``: ``_program_input``); the grader applies it (``rule_verdicts``).

The built-in rules are declared here as objects (this module sits above the modules that implement them, and
nothing they import imports it). Another package adds a rule through the entry-point group
``execstate.grading_rules`` (``toy = "toy_plugin.rules:TOY_RULE"``, a ``RuleSpec``); a test or a notebook with
``register_rule``. A task names its rule in ``Task.grading_rule``; an unknown name is a ``RegistryMiss``
naming the known rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from execstate.errors import UsageError
from execstate.grade._call_rule import CallVerdict, python_call_verdicts
from execstate.grade._match import (
    bytes_equal,
    correct_prefix,
    int_alpha_tokens,
    integer,
    is_python_literal,
    json_equal,
    json_or_tokens,
    python_literal,
    step_marks,
)
from execstate.grade._program_input import check_program_inputs
from execstate.records import Task
from execstate.registry import Registry

Match = Callable[[str, str], bool]
"""A pure rule: ``(answer, oracle) -> bool``, never raising for any text."""
Verdicts = Callable[[Sequence[tuple[Task, str]]], Sequence[CallVerdict]]
"""An executed rule: the verdict on each ``(task, extracted answer)``, in order."""


@dataclass(frozen=True)
class RuleSpec:
    """One grading rule: exactly one of ``match`` (pure) and ``verdicts`` (executed) is set."""

    name: str
    """The name a task gives in ``grading_rule`` (``json-or-tokens``)."""
    match: Match | None = None
    """The pure rule: True when the extracted answer equals the oracle; must never raise."""
    verdicts: Verdicts | None = None
    """The executed rule: a ``CallVerdict`` per ``(task, answer)``, in order (``reason`` says why one is wrong)."""
    description: str = ""

    @property
    def executed(self) -> bool:
        """True for a rule decided by running code (``verdicts``), which needs the task, not only its oracle."""
        return self.verdicts is not None


def _check(name: str, spec: object) -> None:
    if not isinstance(spec, RuleSpec):
        raise UsageError(f"grading rule {name!r} is a {type(spec).__name__}, not a RuleSpec. Fix: point it at one")
    if (spec.match is None) == (spec.verdicts is None):
        raise UsageError(
            f"grading rule {name!r} must set exactly one of match (a pure rule) and verdicts (an executed rule). "
            "Fix: give it one of the two"
        )


def _program_input_verdicts(answers: Sequence[tuple[Task, str]]) -> list[CallVerdict]:
    """``program-input``: each answered input run through the task's program, its output compared under the
    case's own rule (``meta.output_rule``, read from this registry)."""
    return check_program_inputs(answers, answer_matches)


_BUILTIN = (
    RuleSpec("json-or-tokens", json_or_tokens, description="equal JSON values when the oracle is JSON, else tokens"),
    RuleSpec("int-alpha-tokens", int_alpha_tokens, description="signed integers by value and letter runs, in order"),
    RuleSpec("bytes", bytes_equal, description="exact text, less the oracle's final newline"),
    RuleSpec("python-literal", python_literal, description="Python literals equal under =="),
    RuleSpec("python-call", verdicts=python_call_verdicts, description="a call of f returning the output"),
    RuleSpec("program-input", verdicts=_program_input_verdicts, description="an input making the program print it"),
    RuleSpec("integer", integer, description="one decimal integer equal by value"),
)

RULE_REGISTRY: Registry[RuleSpec] = Registry(
    "grading rule",
    group="execstate.grading_rules",
    builtin={spec.name: spec for spec in _BUILTIN},
    check=_check,
    name_of=lambda spec: spec.name,
    fix="register one (execstate.grade.register_rule) or declare it in another package's "
    '[project.entry-points."execstate.grading_rules"]',
)
"""Every grading rule by name: the built-in ones, those registered at run time, then entry points."""

RULES: dict[str, Match] = {spec.name: spec.match for spec in _BUILTIN if spec.match is not None}
"""execstate's own pure rules by name (a fixed view for property tests; the grader reads ``RULE_REGISTRY``)."""
EXECUTED_RULES: tuple[str, ...] = tuple(spec.name for spec in _BUILTIN if spec.executed)
"""execstate's own executed rules (``python-call``, ``program-input``); ``is_executed`` answers for any rule."""


def rule_spec(name: str) -> RuleSpec:
    """The rule ``name``; ``RegistryMiss`` (a ``UsageError`` and ``KeyError``) naming the known rules."""
    return RULE_REGISTRY.get(name)


def is_executed(name: str) -> bool:
    """True when rule ``name`` is decided by running code; ``RegistryMiss`` for an unknown rule."""
    return rule_spec(name).executed


def register_rule(spec: RuleSpec, *, replace: bool = False) -> None:
    """Add a grading rule for this process (a test, a notebook); a package declares an ``execstate.grading_rules``
    entry point instead."""
    RULE_REGISTRY.register(spec.name, spec, replace=replace)


def unregister_rule(name: str) -> None:
    """Remove a rule added with ``register_rule``."""
    RULE_REGISTRY.unregister(name)


def answer_matches(rule: str, answer: str, oracle: str) -> bool:
    """True when ``answer`` equals ``oracle`` under the pure rule ``rule``; never raises for text input.

    An unknown rule name raises ``RegistryMiss`` (a ``KeyError``: a bug in the task file, not in the answer); an
    executed rule raises ``UsageError``, since it needs the task, not only its oracle (``rule_verdicts``).
    """
    spec = rule_spec(rule)
    if spec.match is None:
        raise UsageError(
            f"grading rule {rule!r} is decided by running code, not by comparing two texts. "
            "Fix: grade the task with grade_response (or rule_verdicts)"
        )
    return spec.match(answer, oracle)


def rule_verdicts(answers: Sequence[tuple[Task, str]]) -> list[CallVerdict]:
    """The verdicts on ``(task, extracted answer)`` pairs whose tasks have executed rules, in order: each rule
    gets all of its pairs in one call (so it can batch its sandbox runs). ``UsageError`` when a rule is pure or
    returns another number of verdicts than it was given answers."""
    by_rule: dict[str, list[int]] = {}
    for i, (task, _) in enumerate(answers):
        by_rule.setdefault(task.grading_rule, []).append(i)
    found: dict[int, CallVerdict] = {}
    for rule, indices in by_rule.items():
        spec = rule_spec(rule)
        if spec.verdicts is None:
            raise UsageError(f"grading rule {rule!r} is pure. Fix: compare its answers with answer_matches")
        verdicts = list(spec.verdicts([answers[i] for i in indices]))
        if len(verdicts) != len(indices):
            raise UsageError(
                f"grading rule {rule!r} gave {len(verdicts)} verdicts for {len(indices)} answers. "
                "Fix: return one CallVerdict per (task, answer), in order"
            )
        found.update(zip(indices, verdicts))
    return [found[i] for i in range(len(answers))]


__all__ = [
    "EXECUTED_RULES",
    "RULES",
    "RULE_REGISTRY",
    "Match",
    "RuleSpec",
    "Verdicts",
    "answer_matches",
    "correct_prefix",
    "is_executed",
    "is_python_literal",
    "json_equal",
    "python_literal",
    "register_rule",
    "rule_spec",
    "rule_verdicts",
    "step_marks",
    "unregister_rule",
]
"""The registry's API, and the ``_match`` functions other modules read from here."""
