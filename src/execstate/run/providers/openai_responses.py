"""``provider = "openai-responses"``: OpenAI's Responses API, ``POST {base_url}/responses``.

``base_url`` includes the version path (``https://api.openai.com/v1``, the
default). The SPEC prompt's system message is sent as ``instructions`` and the
fixed user message as the one ``input`` message. ``reasoning`` other than
``off`` is sent as ``reasoning.effort`` with ``reasoning.summary`` (the
``reasoning_summary`` key, default ``auto``), and the summary the model returns
is recorded as the response's ``reasoning``, never graded; ``off`` sends no
``reasoning`` object (the model's own default applies). ``store`` (default
false) asks OpenAI not to keep the responses.

How a response maps to a record:

    status completed                      -> finish_reason "stop"
    status incomplete, max_output_tokens  -> finish_reason "length"
    status incomplete, content_filter     -> finish_reason "content_filter"
    a refusal content part                -> text "", finish_reason "refusal"
    status failed, transient error code   -> retry (server_error, rate_limit_exceeded, vector_store_timeout)
    status failed, any other code         -> final (no-response, the code and message in the error)
    HTTP 429 insufficient_quota           -> abort: no cell can succeed until the quota is raised
    other HTTP statuses                   -> the shared table of ``run/_attempt.py``
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from execstate.records import Task, Usage
from execstate.run._attempt import Attempt, AttemptKind, WireRequest, int_or_none, unicode_text
from execstate.run._prompt import render_messages
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import SNIPPET, HttpProvider, json_object, status_attempt
from execstate.run.providers.openai import preflight

DEFAULT_BASE_URL = "https://api.openai.com/v1"

TRANSIENT_FAILURES = frozenset({"server_error", "rate_limit_exceeded", "vector_store_timeout"})
"""``error.code`` values of a ``failed`` response that a later attempt may not meet."""

INCOMPLETE_REASONS = {"max_output_tokens": "length", "content_filter": "content_filter"}
"""``incomplete_details.reason`` -> ``finish_reason``, in the chat-completions vocabulary."""


class ResponsesOptions(BaseModel):
    """The provider-only keys of an ``openai-responses`` setting."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reasoning_summary: Literal["auto", "concise", "detailed", ""] = "auto"
    """``reasoning.summary`` sent with a reasoning effort; ``""`` asks for no summary."""
    store: bool = False
    """``store``: let OpenAI keep the responses (an eval need not; false by default)."""


class ResponsesProvider(HttpProvider):
    """``POST {base_url}/responses`` with the SPEC prompt as ``instructions`` and one user message."""

    name = "openai-responses"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(setting, responses_url(setting), headers)
        self._options = setting.options(ResponsesOptions)

    def body(self, task: Task, sample: int) -> dict[str, Any]:
        return request_body(self.setting, task, self._options)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        if isinstance(data, Attempt):
            return data
        return parse_response(data)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        if status != 200:
            return error_attempt(status, headers, content)
        return self.parse(content)


def responses_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/responses"


def request_body(setting: Setting, task: Task, options: ResponsesOptions | None = None) -> dict[str, Any]:
    """The JSON request for one task: model, the SPEC prompt, then the setting's fields.

    The system message becomes ``instructions`` and the user message the one
    ``input`` item; ``max_output_tokens``, ``temperature`` and ``top_p`` only
    when set; ``reasoning`` only when it is not ``off``; ``extra_body`` is
    merged last and wins.
    """
    opts = options if options is not None else setting.options(ResponsesOptions)
    system, user = render_messages(task)
    body: dict[str, Any] = {
        "model": setting.model,
        "instructions": system["content"],
        "input": [{"role": "user", "content": user["content"]}],
        "store": opts.store,
    }
    if setting.reasoning != "off":
        reasoning: dict[str, str] = {"effort": setting.reasoning}
        if opts.reasoning_summary:
            reasoning["summary"] = opts.reasoning_summary
        body["reasoning"] = reasoning
    if setting.max_output_tokens is not None:
        body["max_output_tokens"] = setting.max_output_tokens
    if setting.temperature is not None:
        body["temperature"] = setting.temperature
    if setting.top_p is not None:
        body["top_p"] = setting.top_p
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
            return Attempt("retry", error=f"response carries an error: {_error_detail(data['error'])}")
        snippet = json.dumps(data)[:SNIPPET]
        return Attempt("retry", error=f"not a finished Response object (status {status!r}): {snippet}")
    items = [item for item in output if isinstance(item, dict)]
    messages = [i for i in items if i.get("type") == "message" and i.get("role", "assistant") == "assistant"]
    answers = [m for m in messages if m.get("phase") != "commentary"] or messages
    parts = [p for m in answers if isinstance(m.get("content"), list) for p in m["content"] if isinstance(p, dict)]
    usage = parse_usage(data.get("usage"))
    reasoning = _reasoning_text(items)
    if any(p.get("type") == "refusal" for p in parts):
        return Attempt("completed", text="", reasoning=reasoning, finish_reason="refusal", usage=usage)
    text = "".join(p["text"] for p in parts if p.get("type") == "output_text" and isinstance(p.get("text"), str))
    if status == "completed":
        finish = "stop"
    else:
        details = data.get("incomplete_details")
        reason = details.get("reason") if isinstance(details, dict) else None
        finish = INCOMPLETE_REASONS.get(reason, reason) if isinstance(reason, str) and reason else "incomplete"
    return Attempt("completed", text=unicode_text(text), reasoning=reasoning, finish_reason=finish, usage=usage)


def _failed(error: Any) -> Attempt:
    code = error.get("code") if isinstance(error, dict) else None
    kind: AttemptKind = "retry" if code in TRANSIENT_FAILURES else "final"
    detail = _error_detail(error) if isinstance(error, dict) else "no error object"
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


def error_attempt(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """A non-200 answer: the shared status table, the error naming OpenAI's ``type``, ``code`` and
    ``message``; a 429 ``insufficient_quota`` stops the setting (waiting does not refill a quota)."""
    attempt = status_attempt(status, headers, content)
    try:
        error = json.loads(content).get("error")
    except (ValueError, AttributeError):
        error = None
    if not isinstance(error, dict):
        return attempt
    attempt = replace(attempt, error=f"HTTP {status}: {_error_detail(error)}")
    if status == 429 and "insufficient_quota" in (error.get("code"), error.get("type")):
        return replace(attempt, kind="abort", retry_after_s=None)
    return attempt


def _error_detail(error: dict[str, Any]) -> str:
    """``type=..., code=...: message`` from an OpenAI error object (only the fields it has)."""
    labels = ", ".join(f"{k}={error[k]}" for k in ("type", "code", "param") if error.get(k) is not None)
    message = str(error.get("message") or "")[:SNIPPET]
    return f"{labels}: {message}" if labels else message or json.dumps(error)[:SNIPPET]


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
        if getattr(setting, key) != type(setting).model_fields[key].default:
            raise ValueError(
                f"provider 'openai-responses' does not use {key} (reasoning goes in reasoning.effort, the "
                "limit in max_output_tokens); remove it, or override a request field with extra_body"
            )


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    await preflight(setting, key)
    return ResponsesProvider(setting, key), [key] if key else []


def _request(setting: Setting, task: Task, sample: int) -> WireRequest:
    return WireRequest(responses_url(setting), request_body(setting, task))


ENTRY = ProviderEntry(
    name="openai-responses",
    open=_open,
    options=ResponsesOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="OpenAI's Responses API (POST /responses), reasoning summaries recorded",
)
