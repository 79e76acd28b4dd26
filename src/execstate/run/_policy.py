"""The retry policy: turn attempts at one cell into exactly one ``Response`` (or a setting abort).

- A completed answer is final, right or wrong: it is never re-sent.
- ``retry`` attempts (429, 5xx, connection errors, garbage bodies) are re-sent
  after a full-jitter exponential backoff, waiting at least the server's
  ``Retry-After`` (capped at ``backoff_max_s``), until ``max_attempts`` is spent.
- A ``timeout`` is re-sent only when the setting says ``retry_timeouts``.
- ``final`` attempts, and a spent budget, give a ``no-response`` record carrying
  every error string, in order.
- ``abort`` raises ``SettingAborted``: nothing is recorded for the cell.

The prompt is rendered here, once per cell, above the provider: a provider gets the cell's ``CellRequest``
(messages and ids); only one whose entry declares ``needs_task`` (``oracle``, ``synthetic``) gets the task.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import cast

from execstate.records import Response, Task
from execstate.run._attempt import AnyProvider, CellRequest, TaskProvider
from execstate.run._backoff import SettingAborted, Sleep, backoff_s, redact
from execstate.run._prompt import cell_request
from execstate.run._settings import Setting
from execstate.run.providers import Attempt, Provider, provider_entry


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


async def run_cell(
    provider: AnyProvider,
    setting: Setting,
    task: Task,
    sample: int,
    *,
    secrets: tuple[str, ...] = (),
    rng: random.Random | None = None,
    sleep: Sleep = asyncio.sleep,
    on_retry: Callable[[], None] | None = None,
) -> Response:
    """Attempt one cell under the policy and return its one record.

    The prompt is rendered once, before the first attempt, and each attempt sends the provider that
    ``CellRequest``; the task itself goes only to a provider whose entry declares ``needs_task``.
    ``latency_s`` is the wall time of the last attempt; ``started_at`` and
    ``finished_at`` bracket all attempts (UTC, ISO 8601). Any of ``secrets``
    found in an error string is replaced by ``***``. The record is the caller's to keep: ``run/_record.py``
    writes it, caches a completed answer and counts it, for live and batched cells alike. Raises
    ``SettingAborted``.
    """
    rng = rng or random.Random()
    request = None if provider_entry(setting.provider).needs_task else cell_request(task, sample)
    errors: list[str] = []
    started_at = _now_iso()
    for number in range(1, setting.max_attempts + 1):
        t0 = time.perf_counter()
        result = await _send(provider, task, sample, request)
        latency = time.perf_counter() - t0
        if result.error:
            errors.append(redact(f"attempt {number}: {result.error}", secrets))
        if result.kind == "abort":
            raise SettingAborted(f"setting {setting.name!r}: {errors[-1]}")
        if result.kind == "completed" or not _should_retry(result, setting, number):
            return _record(provider, setting, task, sample, result, number, errors, latency, started_at)
        if on_retry is not None:
            on_retry()
        await sleep(backoff_s(setting, number, result.retry_after_s, rng))
    raise AssertionError("unreachable: the last attempt always returns")


async def _send(provider: AnyProvider, task: Task, sample: int, request: CellRequest | None) -> Attempt:
    """One attempt: the rendered request to a provider of messages, the task only to a ``needs_task`` one."""
    if request is None:
        return await cast(TaskProvider, provider).attempt_task(task, sample)
    return await cast(Provider, provider).attempt(request)


def _should_retry(result: Attempt, setting: Setting, number: int) -> bool:
    if number >= setting.max_attempts:
        return False
    if result.kind == "retry":
        return True
    return result.kind == "timeout" and setting.retry_timeouts


def _record(
    provider: AnyProvider,
    setting: Setting,
    task: Task,
    sample: int,
    result: Attempt,
    attempts: int,
    errors: list[str],
    latency: float,
    started_at: str,
) -> Response:
    completed = result.kind == "completed"
    return Response(
        task_id=task.task_id,
        setting=setting.name,
        sample=sample,
        status="completed" if completed else "no-response",
        text=result.text if completed else None,
        reasoning=result.reasoning if completed else None,
        finish_reason=result.finish_reason if completed else None,
        usage=result.usage,
        latency_s=round(latency, 6),
        attempts=attempts,
        errors=errors,
        started_at=started_at,
        finished_at=_now_iso(),
        provider=provider.name,
        model=provider.model,
        pipeline_check=provider.pipeline_check,
        served_model=result.served_model,
        request_id=result.request_id,
        service_tier=result.service_tier,
    )


__all__ = ["SettingAborted", "Sleep", "backoff_s", "run_cell"]
