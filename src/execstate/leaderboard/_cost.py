"""What answers cost: token sums, prices and cost per correct answer per setting x arm, from recorded usage.

Prices come from the settings as the run manifests record them
(``price_input_per_mtok``, ``price_output_per_mtok``, ``price_reasoning_per_mtok``;
``docs/run.md``). For one completed response, with ``P``, ``C`` and ``R`` its
prompt, completion and reasoning token counts (``C`` includes ``R``):

    cost = (P * price_input + C * price_output) / 1e6                       without a reasoning price
    cost = (P * price_input + (C - R) * price_output + R * price_reasoning) / 1e6   with one

A cell answered through a vendor's batch API (``Response.batch_id`` set) is
priced at the batch prices: ``price_batch_input_per_mtok`` and
``price_batch_output_per_mtok`` when the setting declares both, else every
price above times ``price_batch_factor`` (default 0.5, the half price OpenAI
and Anthropic charge). A cell read from the response cache costs what its
original answer cost (the cache keeps the batch id of a batch answer).

A setting is priced when both the input and the output price are set; a
response that does not report ``P`` or ``C`` is counted in ``usage_missing``
and adds no cost (so a row's cost is a lower bound when that count is not 0).
With a reasoning price, a response that does not report ``R`` is priced all as
output. ``no-response`` cells are not counted (nothing was answered).

A setting that declares a reasoning mode (``reasoning`` other than ``off``)
while some of its completed responses do not report reasoning tokens gets a
``flag``: those counts are unknown, not zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from execstate.arms import arm_names
from execstate.records import CORRECT_STATUSES, Grade, Response, Task

ALL_ARMS = "all"


def response_cost(r: Response, prices: Mapping[str, Any]) -> float | None:
    """The cost of one response in the prices' currency (see the module docstring); ``None`` if unpriced or
    its prompt or completion count is missing."""
    pin, pout = prices.get("price_input_per_mtok"), prices.get("price_output_per_mtok")
    preason = prices.get("price_reasoning_per_mtok")
    u = r.usage
    if pin is None or pout is None or u.prompt_tokens is None or u.completion_tokens is None:
        return None
    if r.batch_id is not None:
        pin, pout, preason = batch_prices(prices)
    if preason is None or u.reasoning_tokens is None:
        return (u.prompt_tokens * pin + u.completion_tokens * pout) / 1e6
    answer = u.completion_tokens - u.reasoning_tokens
    return (u.prompt_tokens * pin + answer * pout + u.reasoning_tokens * preason) / 1e6


def batch_prices(prices: Mapping[str, Any]) -> tuple[float, float, float | None]:
    """Input, output and reasoning prices of a batch cell (see the module docstring); input and output set."""
    pin, pout = prices["price_input_per_mtok"], prices["price_output_per_mtok"]
    preason = prices.get("price_reasoning_per_mtok")
    bin_, bout = prices.get("price_batch_input_per_mtok"), prices.get("price_batch_output_per_mtok")
    factor = prices.get("price_batch_factor")
    factor = 0.5 if factor is None else float(factor)
    if bin_ is None or bout is None:
        return pin * factor, pout * factor, None if preason is None else preason * factor
    # explicit batch prices: a reasoning price keeps its ratio to the output price
    if preason is None:
        return bin_, bout, None
    return bin_, bout, preason * bout / pout if pout else bout


def _sum(values: list[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def reasoning_flag(setting: Mapping[str, Any], responses: list[Response]) -> str | None:
    """A warning when a reasoning setting's responses do not report reasoning tokens (else ``None``)."""
    if setting.get("reasoning", "off") in (None, "off"):
        return None
    missing = sum(r.usage.reasoning_tokens is None for r in responses)
    if not missing:
        return None
    return (
        f"reasoning {setting.get('reasoning')!r} declared, but {missing} of {len(responses)} responses report "
        "no reasoning tokens: their reasoning use is unknown (not counted as zero)"
    )


def _row(setting: str, arm: str, fields: Mapping[str, Any], rs: list[Response], correct: int) -> dict[str, Any]:
    priced = fields.get("price_input_per_mtok") is not None and fields.get("price_output_per_mtok") is not None
    costs = [response_cost(r, fields) for r in rs]
    cost = sum(c for c in costs if c is not None) if priced else None
    completions = [r.usage.completion_tokens for r in rs if r.usage.completion_tokens is not None]
    return {
        "setting": setting,
        "arm": arm,
        "responses": len(rs),
        "correct": correct,
        "prompt_tokens": _sum([r.usage.prompt_tokens for r in rs]),
        "completion_tokens": _sum([r.usage.completion_tokens for r in rs]),
        "reasoning_tokens": _sum([r.usage.reasoning_tokens for r in rs]),
        "mean_output_tokens": sum(completions) / len(completions) if completions else None,
        "usage_missing": sum(r.usage.prompt_tokens is None or r.usage.completion_tokens is None for r in rs),
        "cost": cost,
        "cost_per_correct": cost / correct if cost is not None and correct else None,
        "flag": reasoning_flag(fields, rs),
    }


def cost_rows(
    tasks: Iterable[Task],
    grades: Iterable[Grade],
    responses: Iterable[Response],
    settings: Mapping[str, Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """Per setting (sorted) its all-arms row, then one per arm (the paired arms in arm order, then the others by
    name): token sums, mean output tokens, cost and cost per correct answer (correct = graded correct among the
    completed responses), and the reasoning flag."""
    arm = {t.task_id: t.arm for t in tasks}
    paired = arm_names(group="paper")
    correct = {(g.task_id, g.setting, g.sample) for g in grades if g.status in CORRECT_STATUSES}
    done = [r for r in responses if r.status == "completed" and r.task_id in arm]
    rows = []
    for setting in sorted(settings):
        mine = [r for r in done if r.setting == setting]
        ok = lambda rs: sum((r.task_id, r.setting, r.sample) in correct for r in rs)
        rows.append(_row(setting, ALL_ARMS, settings[setting], mine, ok(mine)))
        present = dict.fromkeys(arm[r.task_id] for r in mine)
        for a in [a for a in paired if a in present] + sorted(a for a in present if a not in paired):
            part = [r for r in mine if arm[r.task_id] == a]
            rows.append(_row(setting, a, settings[setting], part, ok(part)))
    return rows
