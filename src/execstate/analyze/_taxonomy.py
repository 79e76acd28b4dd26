"""Wrong-answer taxonomy (SPEC 11): one class per wrong cell, decided by execution, no annotator.

The rules run in this order; the first that holds names the class:

1. ``no-answer`` — no answer could be extracted from the response.
2. ``not-json`` — state arms: the answer does not parse as JSON.
3. ``wrong-fields`` — state arms: not an object with the oracle's keys, or a
   field's JSON type (number, string, boolean, null, array, object) differs.
4. ``nearby-state`` — state arms: the answer equals (under the task's rule)
   the true state at a neighbour checkpoint; ``d`` is the offset (inside:
   iterations, post: loop executions), the smallest ``|d|`` first, then ``d < 0``.
5. ``other-input-output`` — final arms: the answer equals the output on the
   other final arm's input (a long answer equal to the short oracle).
6. ``near-miss`` — same structure (state: same fields; final: same
   whitespace tokens, or the same JSON shape), every differing number off by
   one or within 1% of the oracle's value, and nothing else differs.
7. ``some-fields-right`` — state arms: at least one field equals the oracle's.
8. ``right-shape`` — final arms: the same lines with the same number of
   tokens each, and a number wherever the oracle has a number, but other values.
9. ``other`` — none of the above.

State answers that parse to an object also get per-field detail: the fields
right, near (a numeric near-miss) and wrong. Neighbour states come from
``task.meta["neighbours"]`` (written by the builder, never shown to a model);
the other input's output is the sibling final task's oracle.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

from execstate.analyze._arms import other_input_finals, paper_arms
from execstate.arms import arm_spec
from execstate.grade import answer_matches, json_equal
from execstate.records import Grade, Task, json_type
from execstate.values import any_int, json_value

CLASSES: tuple[str, ...] = (
    "no-answer",
    "not-json",
    "wrong-fields",
    "nearby-state",
    "other-input-output",
    "near-miss",
    "some-fields-right",
    "right-shape",
    "other",
)
"""The classes in rule order."""
NEAR_RELATIVE = 0.01
_NOT_JSON = object()


@dataclass(frozen=True)
class Verdict:
    """The class of one wrong answer, with its offset and per-field detail where they apply."""

    cls: str
    d: int | None = None
    """``nearby-state``: offset of the matching neighbour checkpoint."""
    fields_right: tuple[str, ...] = ()
    fields_near: tuple[str, ...] = ()
    fields_wrong: tuple[str, ...] = ()

    def to_row(self) -> dict[str, Any]:
        row = asdict(self)
        row["class"] = row.pop("cls")
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in row.items()}


def _parse(text: str) -> Any:
    try:  # integers of any length (a state may hold a 100,000-digit one); NaN and Infinity are not JSON
        return json.loads(text, parse_int=any_int, parse_constant=lambda name: _raise(name))
    except (ValueError, RecursionError):
        return _NOT_JSON


def _raise(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _near_number(got: Any, want: Any) -> bool:
    """Off by one (integers) or within 1% of the oracle's value; never for equal values or booleans."""
    if json_type(got) != "number" or json_type(want) != "number" or got == want:
        return False
    if isinstance(got, int) and isinstance(want, int) and abs(got - want) == 1:
        return True
    try:
        return math.isfinite(got) and abs(got - want) <= NEAR_RELATIVE * abs(want)
    except OverflowError:  # an integer past float's range (pidigits prints 4,096 digits): exact arithmetic
        if isinstance(got, int) and isinstance(want, int):
            return abs(got - want) <= Fraction(NEAR_RELATIVE) * abs(want)
        return False  # such an integer against a finite float is never within 1%


def compare(got: Any, want: Any) -> str:
    """``equal``, ``near`` (same structure, every differing number a near-miss) or ``different``."""
    if json_equal(got, want):
        return "equal"
    if _near_number(got, want):
        return "near"
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        parts = [compare(a, b) for a, b in zip(got, want)]
    elif isinstance(got, dict) and isinstance(want, dict) and got.keys() == want.keys():
        parts = [compare(got[k], want[k]) for k in want]
    else:
        return "different"
    return "different" if "different" in parts else "near"


def _fields(got: dict, want: dict) -> Verdict:
    """An ``other`` verdict carrying the per-field detail; the rules replace its class."""
    verdicts = {k: compare(got[k], want[k]) for k in want}
    pick = lambda v: tuple(k for k in want if verdicts[k] == v)
    return Verdict("other", fields_right=pick("equal"), fields_near=pick("near"), fields_wrong=pick("different"))


def classify_state(task: Task, answer: str | None) -> Verdict:
    """Rules 1-4, 6, 7 and 9 for a wrong answer to a state task."""
    if answer is None:
        return Verdict("no-answer")
    got, want = _parse(answer), json_value(task.oracle)
    if got is _NOT_JSON:
        return Verdict("not-json")
    if not isinstance(got, dict) or sorted(got) != sorted(want):
        return Verdict("wrong-fields")
    detail = _fields(got, want)
    if any(json_type(got[k]) != json_type(want[k]) for k in want):
        return replace(detail, cls="wrong-fields")
    neighbours = sorted(task.meta.get("neighbours", []), key=lambda n: (abs(n["d"]), n["d"]))
    for n in neighbours:
        if answer_matches("json-or-tokens", answer, n["state"]):
            return replace(detail, cls="nearby-state", d=int(n["d"]))
    if not detail.fields_wrong and detail.fields_near:
        return replace(detail, cls="near-miss")
    return replace(detail, cls="some-fields-right" if detail.fields_right else "other")


def _token_kind(token: str) -> str:
    return "number" if json_type(_parse(token)) == "number" else "word"


def _final_near(answer: str, oracle: str) -> str:
    """``compare`` on JSON values when both sides parse, else token by token (numbers parsed)."""
    got, want = _parse(answer), _parse(oracle)
    if got is not _NOT_JSON and want is not _NOT_JSON:
        return compare(got, want)
    a, b = answer.split(), oracle.split()
    if len(a) != len(b):
        return "different"
    parts = [("equal" if x == y else compare(_parse(x), _parse(y))) for x, y in zip(a, b)]
    return "different" if "different" in parts else ("near" if "near" in parts else "equal")


def _same_shape(answer: str, oracle: str) -> bool:
    rows = lambda text: [[_token_kind(t) for t in line.split()] for line in text.strip().splitlines()]
    return rows(answer) == rows(oracle)


def classify_final(task: Task, answer: str | None, other_oracle: str | None) -> Verdict:
    """Rules 1, 5, 6, 8 and 9 for a wrong answer to a final-output task."""
    if answer is None:
        return Verdict("no-answer")
    if other_oracle is not None and answer_matches(task.grading_rule, answer, other_oracle):
        return Verdict("other-input-output")
    if _final_near(answer, task.oracle.rstrip("\n")) == "near":
        return Verdict("near-miss")
    return Verdict("right-shape" if _same_shape(answer, task.oracle) else "other")


@dataclass(frozen=True)
class Taxonomy:
    """Every wrong completed cell with its verdict, and the count table."""

    cells: list[dict[str, Any]] = field(default_factory=list)
    table: list[dict[str, Any]] = field(default_factory=list)


def _other_oracles(tasks: Sequence[Task]) -> dict[str, str]:
    """task id -> the sibling final task's oracle (the output on the other arm's input)."""
    sibling = other_input_finals()
    finals: dict[tuple[str, str], Task] = {(t.case_id, t.arm): t for t in tasks if t.arm in sibling}
    out = {}
    for (case, arm), t in finals.items():
        other = finals.get((case, sibling[arm]))
        if other is not None:
            out[t.task_id] = other.oracle.rstrip("\n")
    return out


def classify(task: Task, answer: str | None, other_oracle: str | None = None) -> Verdict:
    """The class of a wrong answer to ``task`` (the caller knows it is wrong)."""
    if arm_spec(task.arm).family == "state":
        return classify_state(task, answer)
    return classify_final(task, answer, other_oracle)


def taxonomy(tasks: Iterable[Task], grades: Iterable[Grade]) -> Taxonomy:
    """Classify every completed wrong grade; the table counts cells by setting x arm x class (rule order),
    with each class's share of that setting x arm's wrong cells."""
    tasks = list(tasks)
    by_id = {t.task_id: t for t in tasks}
    others = _other_oracles(tasks)
    cells = []
    for g in grades:
        task = by_id.get(g.task_id)
        if task is None or g.status not in ("wrong-valid", "wrong-invalid"):
            continue
        verdict = classify(task, g.answer, others.get(task.task_id))
        cells.append(
            {
                "task_id": g.task_id,
                "setting": g.setting,
                "sample": g.sample,
                "arm": task.arm,
                "study": task.study,
                **verdict.to_row(),
            }
        )
    return Taxonomy(cells=cells, table=_count_table(cells))


def _count_table(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups: dict[tuple[str, str], list[str]] = {}
    for c in cells:
        groups.setdefault((c["setting"], c["arm"]), []).append(c["class"])
    rows = []
    rank: dict[str, int] = {a: i for i, a in enumerate(paper_arms())}
    for (setting, arm), classes in sorted(groups.items(), key=lambda kv: (kv[0][0], rank.get(kv[0][1], 9), kv[0][1])):
        for cls in CLASSES:
            n = classes.count(cls)
            if n:
                rows.append(
                    {
                        "setting": setting,
                        "arm": arm,
                        "class": cls,
                        "cells": n,
                        "wrong": len(classes),
                        "share_pct": 100.0 * n / len(classes),
                    }
                )
    return rows
