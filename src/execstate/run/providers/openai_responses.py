"""``provider = "openai-responses"``: OpenAI's Responses API, ``POST {base_url}/responses``.

``base_url`` includes the version path (``https://api.openai.com/v1``, the
default). The SPEC prompt's system message is sent as ``instructions`` and the
fixed user message as the one ``input`` message. ``reasoning`` is mapped to
``reasoning.effort`` through the OpenAI capability table exactly as the chat
provider maps it (``openai.effort_sent``: ``off`` sends the model's lowest
form, ``none`` or gpt-5's ``minimal``; a value the model lacks is refused at
load), and ``temperature``/``top_p`` as ``openai.sampling_sent`` decides.
``reasoning.summary`` is opt-in (the ``reasoning_summary`` key, default
``""``: an organization that is not verified gets a 400 for it on every
request); a summary the model returns is recorded as the response's
``reasoning``, never graded. ``store`` (default false) asks OpenAI not to keep
the responses.

How a response maps to a record:

    status completed                      -> finish_reason "stop"
    status incomplete, max_output_tokens  -> finish_reason "length"
    status incomplete, content_filter     -> finish_reason "content_filter"
    a refusal content part                -> text "", finish_reason "refusal"
    status failed, transient error code   -> retry (server_error, rate_limit_exceeded, vector_store_timeout)
    status failed, any other code         -> final (no-response, the code and message in the error)
    an account error (``openai.error_attempt``: quota, billing, region, key, unverified organization)
                                          -> abort: no cell can succeed until the account is fixed
    other HTTP statuses                   -> the shared table of ``run/_attempt.py``

The response's ``model`` (the dated snapshot that answered) is recorded as
``served_model``, its ``service_tier`` as ``service_tier``, the
``x-request-id`` header as ``request_id``.

Streamed (``stream``, or ``max_output_tokens`` above the threshold): the events
(``response.created``, ``response.output_text.delta``, ...) end with
``response.completed``, ``response.incomplete`` or ``response.failed``, each
carrying the whole Response object, which is parsed as a whole answer is. A
stream without one is a ``retry`` (its partial text is never recorded); an
``error`` event is classified as the HTTP error would be.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from execstate.records import Usage
from execstate.run._attempt import Attempt, AttemptKind, CellRequest, Messages, WireRequest, int_or_none, unicode_text
from execstate.run._settings import Opened, ProviderEntry, Setting, setting_default
from execstate.run.providers._http import SNIPPET, HttpProvider, SseEvent, json_object
from execstate.run.providers.openai import (
    check_model,
    effort_sent,
    error_attempt,
    error_detail,
    is_account_error,
    model_row,
    output_tokens,
    preflight,
    resolved_caps,
    sampling_sent,
    with_request_id,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"

TRANSIENT_FAILURES = frozenset({"server_error", "rate_limit_exceeded", "vector_store_timeout"})
"""``error.code`` values of a ``failed`` response that a later attempt may not meet."""

INCOMPLETE_REASONS = {"max_output_tokens": "length", "content_filter": "content_filter"}
"""``incomplete_details.reason`` -> ``finish_reason``, in the chat-completions vocabulary."""


class ResponsesOptions(BaseModel):
    """The provider-only keys of an ``openai-responses`` setting."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning_summary: Literal["auto", "concise", "detailed", ""] = ""
    """``reasoning.summary`` sent with a reasoning effort other than ``none``; ``""`` (the default) asks for no
    summary: an organization that is not verified is refused one."""
    store: bool = False
    """``store``: let OpenAI keep the responses (an eval need not; false by default)."""


class ResponsesProvider(HttpProvider):
    """``POST {base_url}/responses`` with the SPEC prompt as ``instructions`` and one user message."""

    name = "openai-responses"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(setting, responses_url(setting), headers)
        self._options = setting.options(ResponsesOptions)
        self.capabilities = resolved_caps(setting)

    def body(self, request: CellRequest) -> dict[str, Any]:
        return request_body(self.setting, request.messages, self._options)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        if isinstance(data, Attempt):
            return data
        return parse_response(data)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        if status != 200:
            return error_attempt(status, headers, content)
        return with_request_id(self.parse(content), headers)

    def parse_events(self, events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
        return with_request_id(parse_events(events), headers)


def responses_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/responses"


def request_body(setting: Setting, messages: Messages, options: ResponsesOptions | None = None) -> dict[str, Any]:
    """The JSON request for one cell: model, its messages (the SPEC prompt), then the setting's fields.

    The system message becomes ``instructions`` and the user message the one
    ``input`` item; ``reasoning`` only when the model gets an effort
    (``openai.effort_sent``), with ``summary`` when one is asked for and the
    effort is not ``none``; ``max_output_tokens`` (capped at the model's limit)
    and the sampling keys only when set and sent; ``extra_body`` is merged last
    and wins. Computed from the setting alone (``run --plan``, the cache and
    the batch form build it offline).
    """
    opts = options if options is not None else setting.options(ResponsesOptions)
    caps = model_row(setting)
    system, user = messages
    body: dict[str, Any] = {
        "model": setting.model,
        "instructions": system["content"],
        "input": [{"role": "user", "content": user["content"]}],
        "store": opts.store,
    }
    effort = effort_sent(setting, caps)
    if effort is not None:
        reasoning: dict[str, str] = {"effort": effort}
        if opts.reasoning_summary and effort != "none":
            reasoning["summary"] = opts.reasoning_summary
        body["reasoning"] = reasoning
    tokens = output_tokens(setting, caps)
    if tokens is not None:
        body["max_output_tokens"] = tokens
    body.update(sampling_sent(setting, caps, effort))
    body.update(setting.extra_body)
    return body


def parse_response(data: dict[str, Any]) -> Attempt:
    """The ``Attempt`` of a Response object (the JSON of a 200 answer); see the table in the module doc.

    The text is the ``output_text`` parts of the assistant ``message`` items, in
    order (a message labelled ``phase = "commentary"`` is left out when another
    message is there); the reasoning is the ``summary_text`` parts of the
    ``reasoning`` items (their ``reasoning_text`` content when no summary came),
    ``None`` when there is none. A body that is not a Response, or one still
    ``queued``/``in_progress``, is a transport failure (retry).
    """
    status = data.get("status")
    output = data.get("output")
    if status == "failed":
        return _failed(data.get("error"))
    if status not in ("completed", "incomplete") or not isinstance(output, list):
        if isinstance(data.get("error"), dict):
            return Attempt("retry", error=f"response carries an error: {error_detail(data['error'])}")
        snippet = json.dumps(data)[:SNIPPET]
        return Attempt("retry", error=f"not a finished Response object (status {status!r}): {snippet}")
    items = [item for item in output if isinstance(item, dict)]
    messages = [i for i in items if i.get("type") == "message" and i.get("role", "assistant") == "assistant"]
    answers = [m for m in messages if m.get("phase") != "commentary"] or messages
    parts = [p for m in answers if isinstance(m.get("content"), list) for p in m["content"] if isinstance(p, dict)]
    usage = parse_usage(data.get("usage"))
    reasoning = _reasoning_text(items)
    if any(p.get("type") == "refusal" for p in parts):
        return _served(Attempt("completed", text="", reasoning=reasoning, finish_reason="refusal", usage=usage), data)
    text = "".join(p["text"] for p in parts if p.get("type") == "output_text" and isinstance(p.get("text"), str))
    if status == "completed":
        finish = "stop"
    else:
        details = data.get("incomplete_details")
        reason = details.get("reason") if isinstance(details, dict) else None
        finish = INCOMPLETE_REASONS.get(reason, reason) if isinstance(reason, str) and reason else "incomplete"
    attempt = Attempt("completed", text=unicode_text(text), reasoning=reasoning, finish_reason=finish, usage=usage)
    return _served(attempt, data)


def _served(attempt: Attempt, data: dict[str, Any]) -> Attempt:
    """The attempt with the Response's ``model`` (the snapshot that answered) and ``service_tier``."""
    return replace(
        attempt, served_model=_str_or_none(data.get("model")), service_tier=_str_or_none(data.get("service_tier"))
    )


FINAL_EVENTS = frozenset({"response.completed", "response.incomplete", "response.failed"})
"""The events that end a Responses stream, each carrying the whole Response object."""


def parse_events(events: list[SseEvent]) -> Attempt:
    """The ``Attempt`` of a whole Responses event stream: the final event's Response, parsed as a whole answer;
    an ``error`` event is classified as its HTTP error would be; no final event: ``retry``."""
    for event in events:
        data = event.json()
        if not isinstance(data, dict):
            continue
        kind = data.get("type", event.event)
        if kind == "error" or event.event == "error":
            error: dict[str, Any] = data["error"] if isinstance(data.get("error"), dict) else data
            detail = f"error event in the stream: {error_detail(error)}"
            return Attempt("abort" if is_account_error(0, error) else "retry", error=detail)
        if kind in FINAL_EVENTS and isinstance(data.get("response"), dict):
            return parse_response(data["response"])
    return Attempt("retry", error=f"stream ended without response.completed after {len(events)} events")


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _failed(error: Any) -> Attempt:
    code = error.get("code") if isinstance(error, dict) else None
    kind: AttemptKind = "retry" if code in TRANSIENT_FAILURES else "final"
    detail = error_detail(error) if isinstance(error, dict) else "no error object"
    return Attempt(kind, error=f"response failed: {detail}")


def _reasoning_text(items: list[dict[str, Any]]) -> str | None:
    """The reasoning summaries joined by blank lines; the raw reasoning text when no summary came."""
    reasoning = [i for i in items if i.get("type") == "reasoning"]
    for key, part_type in (("summary", "summary_text"), ("content", "reasoning_text")):
        texts = [
            p["text"]
            for item in reasoning
            if isinstance(item.get(key), list)
            for p in item[key]
            if isinstance(p, dict) and p.get("type", part_type) == part_type and isinstance(p.get("text"), str)
        ]
        if texts:
            return unicode_text("\n\n".join(texts))
    return None


def parse_usage(usage: Any) -> Usage:
    """``input_tokens``, ``output_tokens`` (reasoning included), their details; ``None`` where not sent."""
    if not isinstance(usage, dict):
        return Usage()
    inputs = usage.get("input_tokens_details")
    outputs = usage.get("output_tokens_details")
    inputs = inputs if isinstance(inputs, dict) else {}
    outputs = outputs if isinstance(outputs, dict) else {}
    return Usage(
        prompt_tokens=int_or_none(usage.get("input_tokens")),
        completion_tokens=int_or_none(usage.get("output_tokens")),
        reasoning_tokens=int_or_none(outputs.get("reasoning_tokens")),
        cache_read_tokens=int_or_none(inputs.get("cached_tokens")),
        cache_creation_tokens=int_or_none(inputs.get("cache_write_tokens")),
    )


MIN_OUTPUT_TOKENS = 16
"""The smallest ``max_output_tokens`` the Responses API accepts (400 ``integer_below_min_value`` below it)."""


def _check(setting: Setting) -> None:
    """Refuse what every request would fail on, and the chat-completions keys that would be ignored here."""
    if setting.max_output_tokens is not None and setting.max_output_tokens < MIN_OUTPUT_TOKENS:
        raise ValueError(
            f"provider 'openai-responses': max_output_tokens must be >= {MIN_OUTPUT_TOKENS} (the API refuses "
            f"{setting.max_output_tokens}); raise it"
        )
    for key in ("reasoning_field", "max_tokens_field"):
        if getattr(setting, key) != setting_default(key):
            raise ValueError(
                f"provider 'openai-responses' does not use {key} (reasoning goes in reasoning.effort, the "
                "limit in max_output_tokens); remove it, or override a request field with extra_body"
            )
    try:
        check_model(setting)
    except ValueError as exc:
        raise ValueError(f"provider 'openai-responses': {exc}") from None


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    await preflight(setting, key)
    return ResponsesProvider(setting, key), [key] if key else []


def _request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
    return WireRequest(responses_url(setting), request_body(setting, messages))


ENTRY = ProviderEntry(  # registered with its batch form by openai_batch.RESPONSES_ENTRY
    name="openai-responses",
    open=_open,
    options=ResponsesOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="OpenAI's Responses API (POST /responses), reasoning summaries recorded",
)
