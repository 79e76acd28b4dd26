"""Source variants of an admitted case (``build --variants``, docs/variants.md): the spec a variant is built from, and
the evidence that it behaves as the original.

A variant case is the original's spec with the variant's program, its id ``<case>~<variant>``, its loop moved to
where the variant put it and its projected variables renamed by the variant's mapping. It goes through the nine
checks like any case (``_case``); it is kept only when, besides, every task it has answers as the original's
does: the same outputs on both inputs, and the same states once the mapping is undone.
"""

from __future__ import annotations

import hashlib
from typing import Any

from execstate.arms import arm_spec
from execstate.builder._spec import CaseSpec
from execstate.languages import SourceVariant
from execstate.records import Task
from execstate.values import json_value

VARIANT_SEPARATOR = "~"
"""A variant's case id is its original's plus this and the variant's name (``classic/heapsort~rename``)."""


def variant_id(case_id: str, name: str) -> str:
    """The case id of ``case_id``'s ``name`` variant."""
    return f"{case_id}{VARIANT_SEPARATOR}{name}"


def variant_seed(case_id: str, name: str, seed: int) -> int:
    """The seed of a case's variant: drawn from the case id, the variant's name and ``BuildOptions.variant_seed``."""
    digest = hashlib.sha256(f"execstate-variant-v1:{seed}:{case_id}:{name}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def variant_spec(spec: CaseSpec, made: SourceVariant, loop_line: int, case_id: str) -> CaseSpec:
    """``spec`` as its variant ``made`` states it: the variant's id ``case_id``, its loop's line, the projection
    renamed."""
    checkpoint = spec.checkpoint.model_copy(
        update={
            "loop": made.lines[loop_line],
            "loop_text": None,
            "variables": tuple(made.mapping.get(v, v) for v in spec.checkpoint.variables),
        }
    )
    return spec.model_copy(update={"id": case_id, "checkpoint": checkpoint})


def differences(original: list[Task], variant: list[Task], mapping: dict[str, str]) -> list[str]:
    """Where the variant's tasks do not answer as the original's (empty: they all do): a missing or extra task, an
    output that differs, a state that differs once its keys are mapped back to the original's names."""
    back = {new: old for old, new in mapping.items()}
    theirs = {t.task_id.split("/")[-1]: t for t in variant}
    found = []
    for task in original:
        arm = task.task_id.split("/")[-1]
        other = theirs.pop(arm, None)
        if other is None:
            found.append(f"{arm}: the variant has no such task")
        elif task.answer_kind == "json":
            if _unmapped(json_value(other.oracle), back) != json_value(task.oracle):
                found.append(f"{arm}: state {other.oracle.strip()[:200]} vs the original's {task.oracle.strip()[:200]}")
        elif arm_spec(task.arm).family == "count":
            if other.oracle != task.oracle:
                found.append(f"{arm}: the marked line runs {other.oracle} times, the original's {task.oracle}")
        elif other.oracle != task.oracle:
            found.append(f"{arm}: output {other.oracle[:200]!r} vs the original's {task.oracle[:200]!r}")
    found += [f"{arm}: the original has no such task" for arm in theirs]
    return found


def _unmapped(value: Any, back: dict[str, str]) -> Any:
    """A state (or a loop trace's list of states) with the variant's names turned back into the original's, in order."""
    if isinstance(value, list):
        return [_unmapped(v, back) for v in value]
    if isinstance(value, dict):
        return {back.get(k, k): v for k, v in value.items()}
    return value


def variant_meta(task: Task, original_id: str, made: SourceVariant) -> Task:
    """A kept variant's task, its meta saying what it varies: ``variant_of`` and ``variant`` (name, seed, mapping)."""
    record = {"name": made.name, "seed": made.seed, "mapping": dict(made.mapping)}
    return task.model_copy(update={"meta": {**task.meta, "variant_of": original_id, "variant": record}})


__all__ = ["VARIANT_SEPARATOR", "differences", "variant_id", "variant_meta", "variant_seed", "variant_spec"]
