"""``run --plan``: what a run would send and what it could cost, computed without opening a connection.

Per setting: the planned cells, those already recorded in the run directory,
those the response cache would answer, the cells left to send and the
requests that makes (one per cell live; one per ``batch_max_requests`` cells
in batches). Input tokens are an **estimate** from the request bodies' UTF-8
bytes at ``BYTES_PER_TOKEN`` bytes a token (no tokenizer is assumed offline);
the cost range is

    low  = input_tokens * price_input / 1e6                      (no output at all)
    high = low + cells * max_output * max(price_output, price_reasoning) / 1e6

with ``max_output`` the output cap the request carries (``max_output_tokens``,
or the provider's own, such as Anthropic's always-sent ``max_tokens``); no cap
means no upper bound. Batch costs apply the batch prices (``price_batch_*``,
default half). Providers that send no request (``oracle``, ``replay``,
``synthetic``) cost nothing.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from execstate.records import RUN_RESPONSES_NAME, Task
from execstate.run._cache import ResponseCache, request_key, wire_request
from execstate.run._settings import Setting
from execstate.run._store import CellKey, read_recorded_keys
from execstate.run.providers import provider_entry

BYTES_PER_TOKEN = 4.0
"""Bytes of request JSON per input token for the estimate (English prose and code run 3.5-4.5)."""
_CAP_KEYS = ("max_output_tokens", "max_completion_tokens", "max_tokens")


@dataclass(frozen=True)
class PlanRow:
    """What one setting would send."""

    setting: str
    provider: str
    batch: bool
    planned: int
    recorded: int
    """Cells already in the run directory's ``responses.jsonl``."""
    cached: int
    """Cells the response cache would answer (0 without a cache)."""
    to_send: int
    requests: int
    """HTTP requests for the answers: one per cell live, one batch per ``batch_max_requests`` cells."""
    input_tokens_est: int
    max_output_tokens: int | None
    """The output cap each request carries; ``None``: uncapped (no upper cost bound)."""
    cost_low: float | None
    cost_high: float | None
    """``None`` when the setting declares no prices (or, for ``cost_high``, caps no output)."""


def plan_run(
    tasks: Sequence[Task],
    settings: Sequence[Setting],
    out_dir: Path | str | None,
    *,
    samples: int = 1,
    cache: ResponseCache | Path | str | None = None,
    batch: bool = False,
) -> list[PlanRow]:
    """One ``PlanRow`` per setting; reads the run directory and the cache, writes nothing, sends nothing."""
    recorded = _recorded(out_dir)
    response_cache = cache if isinstance(cache, ResponseCache) or cache is None else ResponseCache(cache)
    rows = []
    for setting in settings:
        entry = provider_entry(setting.provider)
        batched = (batch or setting.batch) and entry.batch is not None
        cells = [(t, k) for k in range(samples) for t in tasks if (t.task_id, setting.name, k) not in recorded]
        rows.append(_row(setting, cells, len(tasks) * samples, response_cache, batched))
    return rows


def _recorded(out_dir: Path | str | None) -> set[CellKey]:
    if out_dir is None:
        return set()
    path = Path(out_dir) / RUN_RESPONSES_NAME
    return read_recorded_keys(path) if path.exists() else set()


def _row(
    setting: Setting, cells: list[tuple[Task, int]], planned: int, cache: ResponseCache | None, batched: bool
) -> PlanRow:
    cached = 0
    nbytes = 0
    cap: int | None = None
    to_send = 0
    for task, sample in cells:
        request = wire_request(setting, task, sample)
        if request is None:
            to_send += 1
            continue
        if cache is not None and cache.has(request_key(setting, request, sample)):
            cached += 1
            continue
        to_send += 1
        nbytes += len(json.dumps(request.body, ensure_ascii=False).encode("utf-8"))
        cap = output_cap(request.body) if cap is None else cap
    sends = provider_entry(setting.provider).request is not None
    if cap is None:
        cap = setting.max_output_tokens
    tokens = math.ceil(nbytes / BYTES_PER_TOKEN)
    low, high = _costs(setting, tokens, to_send, cap, batched) if sends else (0.0, 0.0)
    requests = math.ceil(to_send / setting.batch_max_requests) if batched else to_send
    return PlanRow(
        setting.name, setting.provider, batched, planned, planned - len(cells), cached, to_send,
        requests if sends else 0, tokens, cap, low, high,
    )  # fmt: skip


def output_cap(body: dict[str, Any]) -> int | None:
    """The output-token cap a request body carries, under any provider's name for it."""
    for key in _CAP_KEYS:
        if isinstance(body.get(key), int):
            return int(body[key])
    config = body.get("generationConfig")
    if isinstance(config, dict) and isinstance(config.get("maxOutputTokens"), int):
        return int(config["maxOutputTokens"])
    return None


def _costs(
    setting: Setting, tokens: int, cells: int, cap: int | None, batched: bool
) -> tuple[float | None, float | None]:
    pin, pout, preason = setting.price_input_per_mtok, setting.price_output_per_mtok, setting.price_reasoning_per_mtok
    if pin is None or pout is None:
        return None, None
    if batched:
        factor = setting.price_batch_factor
        if setting.price_batch_input_per_mtok is not None and setting.price_batch_output_per_mtok is not None:
            ratio = setting.price_batch_output_per_mtok / pout if pout else 1.0
            pin, pout = setting.price_batch_input_per_mtok, setting.price_batch_output_per_mtok
            preason = None if preason is None else preason * ratio
        else:
            pin, pout, preason = pin * factor, pout * factor, None if preason is None else preason * factor
    low = tokens * pin / 1e6
    if cap is None:
        return low, None
    return low, low + cells * cap * max(pout, preason or 0.0) / 1e6


def format_plan(rows: Sequence[PlanRow]) -> str:
    """The plan as a fixed-width table, with the estimate stated as one."""
    head = ("setting", "provider", "mode", "planned", "recorded", "cached", "to send", "requests",
            "input tok (est.)", "max out", "cost low", "cost high")  # fmt: skip
    body = [
        (
            r.setting,
            r.provider,
            "batch" if r.batch else "live",
            str(r.planned),
            str(r.recorded),
            str(r.cached),
            str(r.to_send),
            str(r.requests),
            f"~{r.input_tokens_est:,}",
            "-" if r.max_output_tokens is None else f"{r.max_output_tokens:,}",
            _money(r.cost_low),
            _money(r.cost_high),
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [head, *body]]
    lines.append(
        f"input tokens are estimated from request bytes ({BYTES_PER_TOKEN:g} bytes/token); cost low assumes no "
        "output, cost high every request at its output cap; '-' = no price or no cap; nothing was sent"
    )
    return "\n".join(lines)


def _money(value: float | None) -> str:
    return "-" if value is None else f"{value:,.4f}"
