"""``provider = "anthropic"``: Anthropic's native Messages API, ``POST {base_url}/v1/messages``.

``base_url`` is the API root without the version path (default
``https://api.anthropic.com``). Each request carries ``x-api-key`` (from
``api_key_env``) and ``anthropic-version`` (the ``anthropic_version`` key,
default ``2023-06-01``). The SPEC prompt's system message goes in the
top-level ``system`` field and the user message is the one entry of
``messages``.

``max_tokens`` is required by the API, so it is always sent: the setting's
``max_output_tokens``, else the thinking budget + 8192 (8192 with reasoning
``off``). ``reasoning`` turns on extended thinking with a token budget
(``THINKING_BUDGETS``; the ``thinking_budget`` key overrides the table):

    off      no ``thinking`` field
    minimal  {"type": "enabled", "budget_tokens": 1024}
    low      4096
    medium   16384
    high     32768

The API wants ``1024 <= budget_tokens < max_tokens``: a table budget that
does not fit under ``max_output_tokens`` is lowered to ``max_output_tokens -
1``, and a setting where even that is below 1024 is refused when the settings
are read. With thinking on, ``temperature`` and ``top_p`` are not sent (the
API refuses them beside thinking); ``extra_body`` is merged last and wins.

Statuses: 429, 529 (``overloaded_error``) and 5xx are retried, waiting at
least the server's ``retry-after``; 401/403/404 stop the setting; 400 and the
other 4xx are final. Error strings carry Anthropic's ``error.type`` and
``error.message``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from execstate.records import Task, Usage
from execstate.run._attempt import Attempt, WireRequest, int_or_none, unicode_text
from execstate.run._prompt import render_messages
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import SNIPPET, HttpProvider, json_object, reachable, status_attempt

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_VERSION = "2023-06-01"
MIN_THINKING_BUDGET = 1024
"""The smallest ``budget_tokens`` the API accepts."""
ANSWER_ROOM = 8192
"""Tokens left for the answer beyond the thinking budget when ``max_output_tokens`` is not set."""

THINKING_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 4096, "medium": 16384, "high": 32768}
"""``reasoning`` level -> ``thinking.budget_tokens`` (``off`` sends no ``thinking``)."""

FINISH_REASONS: dict[str, str] = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}
"""``stop_reason`` values recorded under the common names; every other value is kept as sent."""

RETRY_STATUSES = frozenset({529})
"""Anthropic's ``overloaded_error`` status, retried beside the shared 408/409/425/429/5xx."""


class AnthropicOptions(BaseModel):
    """The keys an ``anthropic`` setting may add to the common ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    anthropic_version: str = Field(DEFAULT_VERSION, min_length=1)
    """The ``anthropic-version`` header sent with every request."""
    thinking_budget: int | None = Field(None, ge=MIN_THINKING_BUDGET)
    """``thinking.budget_tokens`` for any ``reasoning`` other than ``off``, instead of ``THINKING_BUDGETS``."""


class AnthropicProvider(HttpProvider):
    """``POST {base_url}/v1/messages`` with the SPEC prompt as ``system`` plus one user message."""

    name = "anthropic"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        super().__init__(setting, messages_url(setting), request_headers(setting, api_key))
        # Everything but the prompt is the same for every cell: built (and validated) once.
        self._fixed = _fixed_fields(setting)

    def body(self, task: Task, sample: int) -> dict[str, Any]:
        return _with_prompt(self._fixed, task, self.setting.extra_body)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_message(data)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        return classify_response(status, headers, content)


def messages_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/v1/messages"


def request_headers(setting: Setting, api_key: str | None) -> dict[str, str]:
    """``x-api-key`` (when a key variable is named) and ``anthropic-version``."""
    headers = {"anthropic-version": setting.options(AnthropicOptions).anthropic_version}
    if api_key:
        headers["x-api-key"] = api_key
    return headers


def thinking_budget(setting: Setting) -> int | None:
    """The ``budget_tokens`` a setting sends, ``None`` with reasoning ``off``.

    Raises ``ValueError`` naming the fix when no budget of at least 1024 fits
    below ``max_output_tokens``, when ``thinking_budget`` is not below it, or
    when ``thinking_budget`` is set with reasoning ``off``.
    """
    options = setting.options(AnthropicOptions)
    limit = setting.max_output_tokens
    if setting.reasoning == "off":
        if options.thinking_budget is not None:
            raise ValueError(
                f"thinking_budget = {options.thinking_budget} is set but reasoning is 'off'; "
                "set reasoning to minimal, low, medium or high, or remove thinking_budget"
            )
        return None
    if options.thinking_budget is not None:
        if limit is not None and options.thinking_budget >= limit:
            raise ValueError(
                f"thinking_budget = {options.thinking_budget} must be below max_output_tokens = {limit} "
                f"(the API wants budget_tokens < max_tokens); raise max_output_tokens above "
                f"{options.thinking_budget} or lower thinking_budget"
            )
        return options.thinking_budget
    budget = THINKING_BUDGETS[setting.reasoning]
    if limit is not None and budget >= limit:
        budget = limit - 1
        if budget < MIN_THINKING_BUDGET:
            raise ValueError(
                f"max_output_tokens = {limit} leaves no room for thinking: reasoning {setting.reasoning!r} needs "
                f"budget_tokens of at least {MIN_THINKING_BUDGET} below max_tokens; set max_output_tokens to "
                f"{MIN_THINKING_BUDGET + 1} or more, remove it, or set reasoning = 'off'"
            )
    return budget


def _fixed_fields(setting: Setting) -> dict[str, Any]:
    """The request fields that do not depend on the task (``extra_body`` excluded: it is merged last)."""
    budget = thinking_budget(setting)
    max_tokens = setting.max_output_tokens if setting.max_output_tokens is not None else (budget or 0) + ANSWER_ROOM
    fields: dict[str, Any] = {"model": setting.model, "max_tokens": max_tokens}
    if budget is not None:
        fields["thinking"] = {"type": "enabled", "budget_tokens": budget}
    else:  # the API refuses temperature and top_p beside thinking
        if setting.temperature is not None:
            fields["temperature"] = setting.temperature
        if setting.top_p is not None:
            fields["top_p"] = setting.top_p
    return fields


def _with_prompt(fixed: dict[str, Any], task: Task, extra_body: dict[str, Any]) -> dict[str, Any]:
    messages = render_messages(task)
    system = "".join(m["content"] for m in messages if m["role"] == "system")
    turns = [{"role": m["role"], "content": m["content"]} for m in messages if m["role"] != "system"]
    body = {**fixed, "system": system, "messages": turns}
    body.update(extra_body)
    return body


def request_body(setting: Setting, task: Task) -> dict[str, Any]:
    """The JSON request for one task: ``model``, ``max_tokens``, ``thinking`` or the sampling fields,
    ``system`` and the one user message, then ``extra_body`` (which wins).

    Raises ``ValueError`` for a setting whose thinking budget cannot fit (``thinking_budget``);
    a setting that passed validation never does.
    """
    return _with_prompt(_fixed_fields(setting), task, setting.extra_body)


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one Messages HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``, plus 529)."""
    if status == 200:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_message(data)
    attempt = status_attempt(status, headers, content, retry=RETRY_STATUSES)
    detail = vendor_error(content)
    return dataclasses.replace(attempt, error=f"HTTP {status} {detail}") if detail else attempt


def vendor_error(content: bytes | dict[str, Any]) -> str | None:
    """``"<error.type>: <error.message> (request_id ...)"`` of Anthropic's error shape
    ``{"type": "error", "error": {"type": ..., "message": ...}, "request_id": ...}``; ``None`` otherwise."""
    data: Any = content
    if isinstance(content, bytes):
        try:
            data = json.loads(content)
        except ValueError:
            return None
    if not isinstance(data, dict) or not isinstance(data.get("error"), dict):
        return None
    error = data["error"]
    kind, message = error.get("type"), error.get("message")
    if not isinstance(kind, str):
        return None
    text = kind if not isinstance(message, str) else f"{kind}: {message[:SNIPPET]}"
    request_id = data.get("request_id")
    return f"{text} (request_id {request_id})" if isinstance(request_id, str) else text


def parse_message(data: dict[str, Any]) -> Attempt:
    """The ``Attempt`` of a Messages response object (a live 200 body or a batch result's ``message``).

    ``text`` joins the ``text`` blocks, ``reasoning`` the ``thinking`` blocks (``None`` when there are
    none; ``redacted_thinking`` is encrypted and skipped). ``stop_reason`` ``end_turn`` and
    ``stop_sequence`` become ``stop``, ``max_tokens`` becomes ``length``, any other value is kept.
    An object without a ``content`` list is not a message: a ``retry`` attempt.
    """
    content = data.get("content")
    if not isinstance(content, list):
        detail = vendor_error(data) or json.dumps(data, ensure_ascii=False)[:SNIPPET]
        return Attempt("retry", error=f"response is not a message (no content list): {detail}")
    texts: list[str] = []
    thoughts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            thoughts.append(block["thinking"])
    stop = data.get("stop_reason")
    return Attempt(
        "completed",
        text=unicode_text("".join(texts)),
        reasoning=unicode_text("".join(thoughts)) if thoughts else None,
        finish_reason=FINISH_REASONS.get(stop, stop) if isinstance(stop, str) else None,
        usage=parse_usage(data.get("usage")),
    )


def parse_usage(usage: Any) -> Usage:
    """Token counts of a Messages ``usage`` object.

    ``prompt_tokens`` counts every prompt token: Anthropic's ``input_tokens``
    are only those after the last cache breakpoint, so the cache reads and
    writes (``cache_read_input_tokens``, ``cache_creation_input_tokens``) are
    added to it; they are also kept apart. ``reasoning_tokens`` is
    ``output_tokens_details.thinking_tokens`` where the API sends it, else
    ``None`` (thinking is billed inside ``output_tokens``, not counted apart).
    """
    if not isinstance(usage, dict):
        return Usage()
    input_tokens = int_or_none(usage.get("input_tokens"))
    cache_read = int_or_none(usage.get("cache_read_input_tokens"))
    cache_creation = int_or_none(usage.get("cache_creation_input_tokens"))
    prompt = None if input_tokens is None else input_tokens + (cache_read or 0) + (cache_creation or 0)
    details = usage.get("output_tokens_details")
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=int_or_none(usage.get("output_tokens")),
        reasoning_tokens=int_or_none(details.get("thinking_tokens")) if isinstance(details, dict) else None,
        cache_read_tokens=cache_read,
        cache_creation_tokens=cache_creation,
    )


async def preflight(setting: Setting, api_key: str | None) -> None:
    """Check that the endpoint answers HTTP and accepts the key (``GET {base_url}/v1/models``)."""
    url = setting.endpoint_root.rstrip("/") + "/v1/models"
    await reachable(setting, url, request_headers(setting, api_key))


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    await preflight(setting, key)
    return AnthropicProvider(setting, key), [key] if key else []


def _request(setting: Setting, task: Task, sample: int) -> WireRequest:
    return WireRequest(messages_url(setting), request_body(setting, task))


def _check(setting: Setting) -> None:
    thinking_budget(setting)


ENTRY = ProviderEntry(
    name="anthropic",
    open=_open,
    options=AnthropicOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    batch="execstate.run.providers.anthropic_batch:ANTHROPIC_BATCH",  # Message Batches (run --batch)
    description="Anthropic's native Messages API (POST /v1/messages), extended thinking from reasoning",
)
