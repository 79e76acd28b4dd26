"""``provider = "gemini"``: Google's native Gemini API, ``POST {base_url}/v1beta/models/{model}:generateContent``.

``base_url`` is the API root without the version path (default
``https://generativelanguage.googleapis.com``); the version is the
``api_version`` key (``v1beta``, where thinking is documented). The key goes in
the ``x-goog-api-key`` header, never in the URL, so it stays out of the
response cache and of every record.

Request (``request_body``): the SPEC system message as ``systemInstruction``,
the user message as the one ``user`` turn of ``contents``, and a
``generationConfig`` holding ``maxOutputTokens``, ``temperature`` and ``topP``
when set, and the ``thinkingConfig`` below. The OpenAI-only keys
``reasoning_field`` and ``max_tokens_field`` are not used.

Reasoning. Gemini has two documented controls, chosen by ``thinking_control``:

    budget  ``thinkingBudget``, tokens (Gemini 2.5): 0 turns thinking off where the model allows it,
            -1 lets the model decide. ``reasoning`` maps through ``THINKING_BUDGETS``
            (off 0, minimal 512, low 2048, medium 8192, high 24576; 24576 is 2.5 Flash's maximum and
            within 2.5 Pro's 128-32768). 2.5 Pro cannot turn thinking off (its minimum is 128), so for a
            model whose name contains ``pro`` ``reasoning = "off"`` is refused when the settings load.
    level   ``thinkingLevel`` (Gemini 3 and later): ``minimal``/``low``/``medium``/``high`` are sent as the
            level of the same name (the API's four levels). Gemini 3 cannot turn thinking off, so
            ``reasoning = "off"`` is refused (``minimal`` is the closest). Levels a model family is
            documented not to take (``UNSUPPORTED_LEVELS``) are refused too, naming the ones it takes.
    none    no ``thinkingConfig`` at all: models without thinking (Gemini 1.x, 2.0, Gemma), which answer
            400 ``thinking_config is not supported`` to any ``thinkingConfig``; only ``reasoning = "off"``.
    auto    (default) ``level`` for ``gemini-<N>`` with N >= 3, ``none`` for ``gemini-1.*``, ``gemini-2.0*``
            and ``gemma*``, else ``budget``.

``thinking_budget`` (an int >= -1) replaces the table's budget when reasoning
is on (budget style only). Whenever thinking is on, ``includeThoughts: true``
asks for the thought summaries, which are kept as the record's ``reasoning``
and never graded.

``extra_body`` is merged last and deep: a table merges into the table of the
same name (``extra_body = {generationConfig = {candidateCount = 1}}`` keeps
the fields above), anything else replaces the value.

Response (``parse_generate``): ``text`` is the first candidate's non-thought
text parts, concatenated; ``reasoning`` its ``thought: true`` parts (``None``
when there are none). ``finishReason`` ``STOP`` is recorded as ``stop``,
``MAX_TOKENS`` as ``length``, any other (``SAFETY``, ``RECITATION``,
``BLOCKLIST``, ``PROHIBITED_CONTENT``, ``OTHER``, ...) lower-cased
(``safety``). A prompt Gemini blocks before generating (no candidates,
``promptFeedback.blockReason``) is a completed response with empty text and
finish reason ``blocked:<reason>`` (``blocked:safety``): the model's answer
was a refusal, and re-sending the same prompt gets the same one. Usage:
``prompt_tokens`` is ``promptTokenCount``; ``completion_tokens`` is
``candidatesTokenCount + thoughtsTokenCount`` (Gemini counts thoughts apart;
every other provider's completion count includes hidden reasoning);
``reasoning_tokens`` is ``thoughtsTokenCount``; ``cache_read_tokens`` is
``cachedContentTokenCount``. Google omits a count that is zero; a count the
response does not carry stays ``None``.

Errors carry Google's shape ``{"error": {"code", "message", "status", "details"}}``:
429 ``RESOURCE_EXHAUSTED``, 500 ``INTERNAL``, 503 ``UNAVAILABLE``, 504
``DEADLINE_EXCEEDED`` (and any other 5xx, 408) are retried, waiting at least
``Retry-After`` or the ``google.rpc.RetryInfo`` ``retryDelay`` when sent; 400
``INVALID_ARGUMENT``/``FAILED_PRECONDITION`` is final, except 400
``API_KEY_INVALID`` (Gemini's answer to a wrong key), which aborts the setting
as 401/403/404 do. The error string is ``HTTP <code> <STATUS>: <message>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from execstate.errors import SettingsError
from execstate.records import Task, Usage
from execstate.run._attempt import Attempt, WireRequest, int_or_none, unicode_text
from execstate.run._prompt import render_messages
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import SNIPPET, HttpProvider, json_object, reachable, status_attempt

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
KEY_HEADER = "x-goog-api-key"

THINKING_BUDGETS: dict[str, int] = {"off": 0, "minimal": 512, "low": 2048, "medium": 8192, "high": 24576}
"""``reasoning`` -> ``thinkingBudget`` (budget style). The documented ranges: 2.5 Flash 0-24576,
2.5 Flash-Lite 512-24576 (0 turns it off), 2.5 Pro 128-32768 (cannot turn thinking off)."""

THINKING_LEVELS: dict[str, str] = {"minimal": "minimal", "low": "low", "medium": "medium", "high": "high"}
"""``reasoning`` -> ``thinkingLevel`` (level style): the API's four levels, by the same name (the REST
examples send them lower-case; the enum is case-insensitive). ``off`` has no level: Gemini 3 always thinks."""

UNSUPPORTED_LEVELS: dict[str, frozenset[str]] = {
    "gemini-3-pro": frozenset({"minimal", "medium"}),
    "gemini-3.1-pro": frozenset({"minimal"}),
}
"""Model-name prefixes and the levels Google documents they do not take (Gemini 3 Pro: low and high only;
3.1 Pro: no minimal). Refused when the settings load rather than answered 400 for every cell."""

_NO_THINKING = re.compile(r"^(gemini-1\.|gemini-2\.0|gemma)")
_MAJOR = re.compile(r"^gemini-(\d+)")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?)s\s*$")

ThinkingControl = Literal["auto", "budget", "level", "none"]


class GeminiOptions(BaseModel):
    """The provider-only keys of a ``gemini`` setting."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    thinking_control: ThinkingControl = "auto"
    """How ``reasoning`` is sent: ``budget`` (``thinkingBudget``), ``level`` (``thinkingLevel``), ``none``
    (no ``thinkingConfig``), or ``auto``: level for Gemini 3 and later, none for 1.x/2.0/Gemma, else budget."""
    thinking_budget: int | None = Field(default=None, ge=-1)
    """Replaces ``THINKING_BUDGETS[reasoning]`` when reasoning is on (budget style); -1: dynamic thinking."""
    api_version: str = Field(default="v1beta", pattern=r"^v\d+[a-z0-9]*$")
    """The version path of the API (``v1beta``: where thinking is documented)."""


def model_name(setting: Setting) -> str:
    """The setting's model without a leading ``models/`` (both spellings name the same model)."""
    return (setting.model or "").removeprefix("models/")


def thinking_style(setting: Setting) -> Literal["budget", "level", "none"]:
    """The thinking control a setting uses, ``auto`` resolved from the model name."""
    control = setting.options(GeminiOptions).thinking_control
    if control != "auto":
        return control
    name = model_name(setting).lower()
    major = _MAJOR.match(name)
    if major and int(major.group(1)) >= 3:
        return "level"
    if _NO_THINKING.match(name):
        return "none"
    return "budget"


def thinking_config(setting: Setting) -> dict[str, Any] | None:
    """The ``thinkingConfig`` of a setting's requests, or ``None`` to send none (see the module docstring)."""
    style = thinking_style(setting)
    if style == "none":
        return None
    if style == "level":
        # ``off`` is refused by ``_check``; a Setting built around it gets the lowest level.
        level = THINKING_LEVELS.get(setting.reasoning, "minimal")
        return {"thinkingLevel": level, "includeThoughts": True}
    if setting.reasoning == "off":
        return {"thinkingBudget": 0}
    budget = setting.options(GeminiOptions).thinking_budget
    if budget is None:
        budget = THINKING_BUDGETS[setting.reasoning]
    return {"thinkingBudget": budget, "includeThoughts": True}


def generate_url(setting: Setting) -> str:
    version = setting.options(GeminiOptions).api_version
    return f"{setting.endpoint_root.rstrip('/')}/{version}/models/{model_name(setting)}:generateContent"


def models_url(setting: Setting) -> str:
    version = setting.options(GeminiOptions).api_version
    return f"{setting.endpoint_root.rstrip('/')}/{version}/models"


def request_body(setting: Setting, task: Task) -> dict[str, Any]:
    """The JSON request for one task: the SPEC prompt, the generation config, then ``extra_body`` (deep)."""
    system, user = render_messages(task)
    config: dict[str, Any] = {}
    if setting.max_output_tokens is not None:
        config["maxOutputTokens"] = setting.max_output_tokens
    if setting.temperature is not None:
        config["temperature"] = setting.temperature
    if setting.top_p is not None:
        config["topP"] = setting.top_p
    thinking = thinking_config(setting)
    if thinking is not None:
        config["thinkingConfig"] = thinking
    body: dict[str, Any] = {
        "systemInstruction": {"parts": [{"text": system["content"]}]},
        "contents": [{"role": "user", "parts": [{"text": user["content"]}]}],
    }
    if config:
        body["generationConfig"] = config
    return deep_merge(body, setting.extra_body)


def deep_merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` updated by ``extra``: a dict merges into a dict under the same key, anything else replaces."""
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def parse_generate(data: dict[str, Any]) -> Attempt:
    """The ``Attempt`` of a ``generateContent`` response object (see the module docstring)."""
    usage = parse_usage(data.get("usageMetadata"))
    candidates = data.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        feedback = data.get("promptFeedback")
        reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
        if isinstance(reason, str) and reason:
            return Attempt("completed", text="", finish_reason=f"blocked:{reason.lower()}", usage=usage)
        detail = json.dumps(data.get("error"))[:SNIPPET] if "error" in data else ""
        return Attempt("retry", error=f"response has no candidates {detail}".rstrip())
    candidate = candidates[0]
    if not isinstance(candidate, dict):
        return Attempt("retry", error=f"response candidate is not an object: {json.dumps(candidate)[:SNIPPET]}")
    content = candidate.get("content")
    parts = content.get("parts") if isinstance(content, dict) else None
    answer: list[str] = []
    thoughts: list[str] = []
    for part in parts if isinstance(parts, list) else ():
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            (thoughts if part.get("thought") is True else answer).append(part["text"])
    return Attempt(
        "completed",
        text=unicode_text("".join(answer)),
        reasoning=unicode_text("".join(thoughts)) if thoughts else None,
        finish_reason=finish_reason(candidate.get("finishReason")),
        usage=usage,
    )


def finish_reason(value: Any) -> str | None:
    """``STOP`` -> ``stop``, ``MAX_TOKENS`` -> ``length``, any other reason lower-cased; ``None`` if absent."""
    if not isinstance(value, str) or not value:
        return None
    return {"STOP": "stop", "MAX_TOKENS": "length"}.get(value, value.lower())


def parse_usage(meta: Any) -> Usage:
    """Token counts from ``usageMetadata``; completion includes the thoughts (see the module docstring)."""
    if not isinstance(meta, dict):
        return Usage()
    candidates = int_or_none(meta.get("candidatesTokenCount"))
    thoughts = int_or_none(meta.get("thoughtsTokenCount"))
    completion = None if candidates is None and thoughts is None else (candidates or 0) + (thoughts or 0)
    return Usage(
        prompt_tokens=int_or_none(meta.get("promptTokenCount")),
        completion_tokens=completion,
        reasoning_tokens=thoughts,
        cache_read_tokens=int_or_none(meta.get("cachedContentTokenCount")),
    )


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one ``generateContent`` HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``)."""
    if status == 200:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_generate(data)
    base = status_attempt(status, headers, content)
    error = google_error(content)
    if error is None:
        return base
    code, message, reason = error.get("status"), error.get("message"), error_reason(error)
    label = f"HTTP {status}" + (f" {code}" if isinstance(code, str) and code else "")
    if reason:
        label += f" ({reason})"
    text = f"{label}: {message if isinstance(message, str) else json.dumps(error)}"[: SNIPPET + len(label)]
    kind = base.kind
    if status == 400 and reason == "API_KEY_INVALID":
        kind = "abort"  # a wrong key: every request of the setting would get the same answer
    wait = base.retry_after_s
    if kind == "retry" and wait is None:
        wait = retry_delay_s(error)
    return Attempt(kind, error=text, retry_after_s=wait if kind == "retry" else None)


def google_error(content: bytes) -> dict[str, Any] | None:
    """The ``error`` object of a Google error body, or ``None`` when the body is not one."""
    try:
        data = json.loads(content)
    except ValueError:
        return None
    if isinstance(data, list) and len(data) == 1:  # some Google front ends wrap the error in a list
        data = data[0]
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, dict) else None


def _details(error: dict[str, Any]) -> list[dict[str, Any]]:
    details = error.get("details")
    return [d for d in details if isinstance(d, dict)] if isinstance(details, list) else []


def error_reason(error: dict[str, Any]) -> str | None:
    """The ``reason`` of the error's ``google.rpc.ErrorInfo`` detail (``API_KEY_INVALID``, ...)."""
    for detail in _details(error):
        if str(detail.get("@type", "")).endswith("google.rpc.ErrorInfo") and isinstance(detail.get("reason"), str):
            return str(detail["reason"])
    return None


def retry_delay_s(error: dict[str, Any]) -> float | None:
    """Seconds of the error's ``google.rpc.RetryInfo`` ``retryDelay`` (a JSON Duration such as ``"7s"``)."""
    for detail in _details(error):
        if str(detail.get("@type", "")).endswith("google.rpc.RetryInfo"):
            match = _DURATION.match(str(detail.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


class GeminiProvider(HttpProvider):
    """``POST {base_url}/{api_version}/models/{model}:generateContent`` with the SPEC prompt."""

    name = "gemini"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        super().__init__(setting, generate_url(setting), {KEY_HEADER: api_key} if api_key else {})

    def body(self, task: Task, sample: int) -> dict[str, Any]:
        return request_body(self.setting, task)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_generate(data)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        return classify_response(status, headers, content)


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    if key is None and setting.base_url is None:
        raise SettingsError(
            f"setting {setting.name!r}: the Gemini API needs a key; set api_key_env "
            '(e.g. api_key_env = "GEMINI_API_KEY") and export the variable'
        )
    await reachable(setting, models_url(setting), {KEY_HEADER: key} if key else {})
    return GeminiProvider(setting, key), [key] if key else []


def _request(setting: Setting, task: Task, sample: int) -> WireRequest:
    return WireRequest(generate_url(setting), request_body(setting, task))


def _check(setting: Setting) -> None:
    """Refuse, when the settings load, what Gemini would answer 400 to on every cell."""
    options = setting.options(GeminiOptions)
    style = thinking_style(setting)
    name = model_name(setting)
    if style == "none":
        if setting.reasoning != "off":
            how = "thinking_control = 'none'" + (" by auto" if options.thinking_control == "auto" else "")
            raise ValueError(
                f"model {name!r} does not think ({how}); set reasoning = 'off', "
                "or thinking_control = 'budget' or 'level' for a thinking model"
            )
    elif style == "level":
        if setting.reasoning == "off":
            raise ValueError(
                f"model {name!r} uses thinking levels and Gemini 3 cannot turn thinking off; "
                "use reasoning = 'minimal' (the lowest level)"
            )
        for prefix, refused in UNSUPPORTED_LEVELS.items():
            family = name.lower() == prefix or name.lower().startswith(prefix + "-")
            if family and setting.reasoning in refused:
                allowed = [lvl for lvl in THINKING_LEVELS if lvl not in refused]
                raise ValueError(
                    f"model {name!r} does not take thinking level {setting.reasoning!r}; "
                    f"use one of {', '.join(allowed)}"
                )
    elif setting.reasoning == "off" and "pro" in name.lower():
        raise ValueError(
            f"model {name!r} cannot turn thinking off (Gemini's Pro models always think: 2.5 Pro's smallest "
            "thinking budget is 128); use reasoning = 'minimal'"
        )
    if options.thinking_budget is not None:
        if style != "budget":
            raise ValueError(
                f"thinking_budget applies to thinking_control = 'budget' only (model {name!r} uses {style!r}); "
                "remove it or set thinking_control = 'budget'"
            )
        if setting.reasoning == "off":
            raise ValueError("thinking_budget applies when reasoning is on; set reasoning or remove thinking_budget")
        if options.thinking_budget == 0:
            raise ValueError("thinking_budget = 0 turns thinking off; use reasoning = 'off' instead")


ENTRY = ProviderEntry(
    name="gemini",
    open=_open,
    options=GeminiOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="Google's native Gemini API (generateContent)",
)
