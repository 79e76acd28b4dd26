"""``provider = "openai"``: any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint.

``base_url`` includes the version path (``https://api.openai.com/v1``, the
default, or ``http://127.0.0.1:8000/v1`` for a local server). ``reasoning``
is sent as ``reasoning_field`` (``reasoning_effort``) unless it is ``off``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from execstate.records import Task, Usage
from execstate.run._attempt import Attempt, WireRequest, int_or_none, unicode_text
from execstate.run._prompt import render_messages
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import SNIPPET, HttpProvider, reachable, status_attempt

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAIProvider(HttpProvider):
    """``POST {base_url}/chat/completions`` with the SPEC prompt as two messages."""

    name = "openai"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(setting, chat_url(setting), headers)

    def body(self, task: Task, sample: int) -> dict[str, Any]:
        return request_body(self.setting, task)

    def parse(self, content: bytes) -> Attempt:
        return parse_completion(content)


def chat_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/chat/completions"


def request_body(setting: Setting, task: Task) -> dict[str, Any]:
    """The JSON request for one task: model, the SPEC prompt, then the setting's fields.

    ``reasoning`` goes in ``reasoning_field`` unless it is ``off``; temperature
    and top-p only when set; ``extra_body`` is merged last and wins.
    """
    body: dict[str, Any] = {"model": setting.model, "messages": render_messages(task)}
    if setting.reasoning != "off" and setting.reasoning_field:
        body[setting.reasoning_field] = setting.reasoning
    if setting.max_output_tokens is not None:
        body[setting.max_tokens_field] = setting.max_output_tokens
    if setting.temperature is not None:
        body["temperature"] = setting.temperature
    if setting.top_p is not None:
        body["top_p"] = setting.top_p
    body.update(setting.extra_body)
    return body


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one chat-completions HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``)."""
    if status != 200:
        return status_attempt(status, headers, content)
    return parse_completion(content)


def parse_completion(content: bytes) -> Attempt:
    """Parse a 200 body; garbage or an empty ``choices`` list is a transport failure (retry)."""
    try:
        data = json.loads(content)
    except ValueError:
        snippet = content[:SNIPPET].decode("utf-8", "replace")
        return Attempt("retry", error=f"malformed response body ({len(content)} bytes, not JSON): {snippet}")
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        detail = json.dumps(data.get("error"))[:SNIPPET] if isinstance(data, dict) and "error" in data else ""
        return Attempt("retry", error=f"response has no choices {detail}".rstrip())
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        message = {}
    finish = choice.get("finish_reason")
    return Attempt(
        "completed",
        text=_content_text(message.get("content")),
        reasoning=_reasoning_text(message),
        finish_reason=finish if isinstance(finish, str) else None,
        usage=parse_usage(data.get("usage")),
    )


def _reasoning_text(message: dict[str, Any]) -> str | None:
    """The reasoning a server returns beside the answer: ``reasoning_content`` (vLLM, SGLang,
    DeepSeek) or ``reasoning`` (Ollama, OpenRouter, newer vLLM); ``None`` when neither is a string."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str):
            return unicode_text(value)
    return None


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return unicode_text(content)
    if isinstance(content, list):  # content parts: keep the text ones, in order
        return unicode_text(
            "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
        )
    return ""  # null content (e.g. every token spent on reasoning): an empty answer


def parse_usage(usage: Any) -> Usage:
    """Prompt, completion, reasoning and cached prompt tokens where the server reports them."""
    if not isinstance(usage, dict):
        return Usage()
    details = usage.get("completion_tokens_details")
    reasoning = details.get("reasoning_tokens") if isinstance(details, dict) else None
    if reasoning is None:
        reasoning = usage.get("reasoning_tokens")
    prompt_details = usage.get("prompt_tokens_details")
    cached = prompt_details.get("cached_tokens") if isinstance(prompt_details, dict) else None
    return Usage(
        prompt_tokens=int_or_none(usage.get("prompt_tokens")),
        completion_tokens=int_or_none(usage.get("completion_tokens")),
        reasoning_tokens=int_or_none(reasoning),
        cache_read_tokens=int_or_none(cached),
    )


async def preflight(setting: Setting, api_key: str | None) -> None:
    """Check that the endpoint answers HTTP at all (``GET {base_url}/models``); see ``_http.reachable``."""
    url = setting.endpoint_root.rstrip("/") + "/models"
    await reachable(setting, url, {"Authorization": f"Bearer {api_key}"} if api_key else {})


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    await preflight(setting, key)
    return OpenAIProvider(setting, key), [key] if key else []


def _request(setting: Setting, task: Task, sample: int) -> WireRequest:
    return WireRequest(chat_url(setting), request_body(setting, task))


ENTRY = ProviderEntry(
    name="openai",
    open=_open,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    batch="execstate.run.providers.openai_batch:OPENAI_BATCH",  # the Batch API over /v1/chat/completions (run --batch)
    description="any OpenAI-compatible /chat/completions endpoint",
)
