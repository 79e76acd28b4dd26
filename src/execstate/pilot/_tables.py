"""The pilot's records and tables: one prediction per cell, Table 9, per-case movement and token use."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence

from execstate.grade import extract_rationale
from execstate.pilot._tasks import variant_of
from execstate.records import (
    CORRECT_STATUSES,
    SCHEMA_VERSION,
    Condition,
    Contract,
    Grade,
    GradeStatus,
    Record,
    Response,
    Task,
)
from execstate.tables import Row, Table, make_table


class PilotPrediction(Record):
    """One graded pilot cell: which case, condition, contract, setting and sample, and what came back."""

    schema_version: int = SCHEMA_VERSION
    task_id: str
    case_id: str
    language: str
    condition: Condition
    contract: Contract
    setting: str
    sample: int
    status: GradeStatus
    correct: bool
    answer: str | None = None
    """The graded answer: the ``output`` string (both contracts)."""
    rationale: str | None = None
    """The ``rationale`` string of a ``rationale-then-output`` response, kept for reading; never graded."""
    reasoning_tokens: int | None = None
    """Hidden-reasoning tokens the server reported (None: not reported, or no response)."""
    completion_tokens: int | None = None
    pipeline_check: bool = False


def pilot_predictions(
    tasks: Sequence[Task], responses: Iterable[Response], grades: Iterable[Grade]
) -> list[PilotPrediction]:
    """Join every grade with its task's variant and its response's rationale and token use (grade order)."""
    by_task = {t.task_id: t for t in tasks}
    by_cell = {(r.task_id, r.setting, r.sample): r for r in responses}
    out = []
    for g in grades:
        task, response = by_task[g.task_id], by_cell.get((g.task_id, g.setting, g.sample))
        variant = variant_of(task)
        rationale = None
        if variant.contract == "rationale-then-output" and response is not None and response.status == "completed":
            rationale = extract_rationale(response.text).rationale
        usage = response.usage if response is not None else None
        out.append(
            PilotPrediction(
                task_id=g.task_id,
                case_id=task.case_id,
                language=task.language,
                condition=variant.condition,
                contract=variant.contract,
                setting=g.setting,
                sample=g.sample,
                status=g.status,
                correct=g.status in CORRECT_STATUSES,
                answer=g.answer,
                rationale=rationale,
                reasoning_tokens=usage.reasoning_tokens if usage else None,
                completion_tokens=usage.completion_tokens if usage else None,
                pipeline_check=g.pipeline_check,
            )
        )
    return out


def _groups(predictions: Iterable[PilotPrediction], *keys: str) -> dict[tuple, list[PilotPrediction]]:
    groups: dict[tuple, list[PilotPrediction]] = {}
    for p in predictions:
        groups.setdefault(tuple(getattr(p, k) for k in keys), []).append(p)
    return groups


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def table9(predictions: Sequence[PilotPrediction], conditions: Sequence[str]) -> Table:
    """Correct out of planned per setting, contract and condition, and each condition's difference to baseline."""
    rows: list[Row] = []
    cells = _groups(predictions, "setting", "contract", "condition")
    for setting, contract in dict.fromkeys((p.setting, p.contract) for p in predictions):
        row: Row = {"setting": setting, "contract": contract}
        base = sum(p.correct for p in cells.get((setting, contract, "baseline"), []))
        for condition in conditions:
            members = cells.get((setting, contract, condition), [])
            correct = sum(p.correct for p in members)
            row[condition] = f"{correct} / {len(members)}"
            if condition != "baseline":
                row[f"{condition}_difference"] = _signed(correct - base)
        rows.append(row)
    return make_table(
        "pilot_table9",
        "Invariant pilot: correct answers out of planned cells (paper Table 9)",
        rows,
        note="Each cell: programs x fresh samples; only the exact output is graded (both contracts); "
        "a missing response counts as planned and not correct.",
    )


def movement(predictions: Sequence[PilotPrediction], conditions: Sequence[str]) -> Table:
    """Per setting, contract and case: correct/planned under each condition and the move from baseline."""
    cells = _groups(predictions, "setting", "contract", "case_id", "condition")
    rows: list[Row] = []
    for setting, contract, case in sorted(dict.fromkeys((p.setting, p.contract, p.case_id) for p in predictions)):
        row: Row = {"setting": setting, "contract": contract, "case": case}
        scores = {}
        for condition in conditions:
            members = cells.get((setting, contract, case, condition), [])
            scores[condition] = f"{sum(p.correct for p in members)}/{len(members)}"
            row[condition] = scores[condition]
        for condition in conditions[1:]:
            row[f"{condition}_movement"] = f"{scores['baseline']} -> {scores[condition]}"
        rows.append(row)
    return make_table("pilot_movement", "Invariant pilot: per-case movement from the baseline prompt", rows)


def _median(values: list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


def _change_pct(new: int, old: int) -> float | None:
    return 100.0 * (new - old) / old if old else None


def token_use(predictions: Sequence[PilotPrediction], conditions: Sequence[str]) -> Table:
    """Per setting and contract: median and summed reasoning tokens per condition, and the summed change in percent.

    Only responses that report reasoning tokens count; ``*_reported`` says how many did.
    """
    cells = _groups(predictions, "setting", "contract", "condition")
    rows: list[Row] = []
    for setting, contract in dict.fromkeys((p.setting, p.contract) for p in predictions):
        row: Row = {"setting": setting, "contract": contract}
        sums: dict[str, int] = {}
        for condition in conditions:
            members = cells.get((setting, contract, condition), [])
            tokens = [p.reasoning_tokens for p in members if p.reasoning_tokens is not None]
            row[f"{condition}_reported"] = f"{len(tokens)}/{len(members)}"
            row[f"{condition}_reasoning_median"] = _median(tokens)
            row[f"{condition}_reasoning_sum"] = sums[condition] = sum(tokens)
        for condition in conditions[1:]:
            row[f"{condition}_sum_change_pct"] = _change_pct(sums[condition], sums["baseline"])
        rows.append(row)
    return make_table(
        "pilot_tokens",
        "Invariant pilot: hidden-reasoning token use",
        rows,
        note="Median and sum over the responses that report reasoning tokens; change in percent of the sum "
        "against the baseline prompt under the same contract.",
    )


def pilot_tables(predictions: Sequence[PilotPrediction], conditions: Sequence[str]) -> list[Table]:
    """Table 9, the movement table and the token table, in that order."""
    return [table9(predictions, conditions), movement(predictions, conditions), token_use(predictions, conditions)]
