"""The pilot's plan: one task per long-trace-final case x prompt condition x response contract."""

from __future__ import annotations

from collections.abc import Sequence

from execstate.arms import arm_specs
from execstate.errors import UsageError
from execstate.records import CONDITIONS, CONTRACTS, Condition, Contract, PromptVariant, Task, prompt_variant

DEFAULT_CONDITIONS: tuple[Condition, ...] = ("baseline", "guided")
"""Placebo guidance is available (``conditions=CONDITIONS``) but off by default."""


def pilot_arm() -> str:
    """The arm whose prompt the pilot varies: execstate's paired final-output arm asked on the long input
    (``long-trace-final``)."""
    [spec] = [s for s in arm_specs(group="paper", family="final", builtin=True) if s.input_name == "long"]
    return spec.name


def pilot_task_id(case_id: str, condition: str, contract: str) -> str:
    """``<case_id>/long-trace-final/<condition>/<contract>``."""
    return f"{case_id}/{pilot_arm()}/{condition}/{contract}"


def check_plan(conditions: Sequence[str], contracts: Sequence[str]) -> None:
    """``UsageError`` for an unknown, repeated or missing condition or contract (baseline is required)."""
    for label, given, known in (("condition", conditions, CONDITIONS), ("contract", contracts, CONTRACTS)):
        unknown = [c for c in given if c not in known]
        if unknown or not given or len(set(given)) != len(given):
            raise UsageError(
                f"pilot {label}s {list(given)} are not a list of distinct known names. "
                f"Fix: use some of {', '.join(known)}, each once"
            )
    if "baseline" not in conditions:
        raise UsageError("the pilot compares against the baseline prompt. Fix: keep the baseline condition")


def pilot_tasks(
    tasks: Sequence[Task],
    conditions: Sequence[Condition] = DEFAULT_CONDITIONS,
    contracts: Sequence[Contract] = CONTRACTS,
) -> tuple[list[Task], list[str]]:
    """The pilot tasks and the ids of the cases left out (no audited invariant in their meta).

    Each long-trace-final task with an audited invariant becomes one task per
    condition x contract: the same source, input and oracle, with a
    ``PromptVariant`` in ``meta["prompt"]`` (guided: the invariant; placebo:
    the placebo statement). ``UsageError`` when placebo is asked for and a case
    has no placebo statement.
    """
    check_plan(conditions, contracts)
    arm = pilot_arm()
    out: list[Task] = []
    left_out: list[str] = []
    for task in tasks:
        if task.arm != arm:
            continue
        invariant = task.meta.get("invariant")
        if not invariant:
            left_out.append(task.case_id)
            continue
        for contract in contracts:
            for condition in conditions:
                variant = PromptVariant(condition=condition, contract=contract, guidance=_guidance(task, condition))
                out.append(_variant_task(task, variant))
    return out, left_out


def _guidance(task: Task, condition: str) -> str | None:
    invariant = task.meta["invariant"]
    if condition == "baseline":
        return None
    if condition == "guided":
        return str(invariant["text"])
    if not invariant.get("placebo"):
        raise UsageError(
            f'case {task.case_id} has no placebo statement. Fix: add placebo = "..." (audited by its check) '
            "to its [invariant] table, or run without the placebo condition"
        )
    return str(invariant["placebo"])


def _variant_task(task: Task, variant: PromptVariant) -> Task:
    meta = {**task.meta, "prompt": variant.model_dump(mode="json"), "base_task_id": task.task_id}
    task_id = pilot_task_id(task.case_id, variant.condition, variant.contract)
    return task.model_copy(update={"task_id": task_id, "meta": meta})


def variant_of(task: Task) -> PromptVariant:
    """The prompt variant of a pilot task (``UsageError`` for a task that is not one)."""
    if "prompt" not in task.meta:
        raise UsageError(f"task {task.task_id} is not a pilot task. Fix: pass the tasks that pilot_tasks made")
    return prompt_variant(task)
