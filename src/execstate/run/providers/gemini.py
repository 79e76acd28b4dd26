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

Capabilities (``capabilities``, a ``ModelCaps``): the row of ``GEMINI_MODELS``
in ``providers/_models.py`` whose family is the longest prefix of the model id
(each row names the Google AI page it comes from), else ``GEMINI_DEFAULT``
(thinking levels, ``source = "default"``); then the setting's overrides:
``thinking_control`` (the thinking form), ``max_output_limit`` (the output
cap), ``effort`` (the level, sent as is), ``sampling``. The request is
computed from these alone, offline (``run --plan`` and the response cache
build the same one). When the provider opens, ``models.get`` (``GET
{base_url}/{api_version}/models/{model}``) is read: it can refuse the setting
before its first cell (the model does not think but thinking is asked, its
``outputTokenLimit`` is below the ``maxOutputTokens`` sent, it does not support
``generateContent``), never change the request. Its answer is noted in the
capabilities written to ``OUT/models.json`` and the manifest.

Reasoning. Gemini has two documented controls, the row's ``thinking`` form:

    budget  ``thinkingBudget``, tokens (Gemini 2.5): ``reasoning`` maps through ``THINKING_BUDGETS``
            (off 0, minimal 512, low 2048, medium 8192, high 24576), each checked against the family's
            range (``GEMINI_BUDGETS``: 2.5 Flash 0-24576, Flash-Lite 0 or 512-24576, Pro 128-32768).
            ``off`` sends budget 0 where the row allows it (Flash, Flash-Lite); 2.5 Pro cannot turn
            thinking off, so ``off`` is refused when the settings load, naming ``minimal`` (512).
            ``thinking_budget`` (an int >= -1; -1 lets the model decide) replaces the table's number.
    level   ``thinkingLevel`` (Gemini 3 and later): ``reasoning`` is sent as the level of the same name
            when the row lists it (3 Pro: low, high; 3 Flash: minimal, low, medium, high; 3.1 Pro: low,
            medium, high), else refused naming the levels the model takes. Gemini 3 cannot turn
            thinking off: ``off`` is refused, naming the model's lowest level (``minimal``, or ``low``
            for the Pro models). ``effort`` sends its value as the level, as is (checked against the
            row's levels unless the row is the default one).
    none    no ``thinkingConfig`` at all: models without thinking (Gemini 1.x, 2.0, Gemma), which answer
            400 ``thinking_config is not supported`` to any ``thinkingConfig``; only ``reasoning = "off"``.

``xhigh`` and ``max`` are refused (no Gemini model has them). ``thinking_control``
(``budget``/``level``/``none``) replaces the row's form (``auto``: the row's).
Whenever thinking is on, ``includeThoughts: true`` asks for the thought
summaries, which are kept as the record's ``reasoning`` and never graded.
``maxOutputTokens`` above the model's cap (the row's, or ``max_output_limit``)
is lowered to it; ``sampling = "drop"`` leaves ``temperature``/``topP`` out.

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

``modelVersion`` is recorded as ``served_model`` and ``responseId`` as
``request_id``; Gemini names no service tier (``None``).

Streaming (``Setting.streaming``): ``POST ...:streamGenerateContent?alt=sse``
with the same body; each event is a ``GenerateContentResponse`` chunk. The
chunks' text and thought parts are concatenated, the last ``finishReason``,
``usageMetadata``, ``modelVersion`` and ``responseId`` kept, and the whole read
as one answer; a stream without a ``finishReason`` (cut short) is retried, its
partial text never recorded.

Errors carry Google's shape ``{"error": {"code", "message", "status", "details"}}``:
429 ``RESOURCE_EXHAUSTED``, 500 ``INTERNAL``, 503 ``UNAVAILABLE``, 504
``DEADLINE_EXCEEDED`` (and any other 5xx, 408) are retried, waiting at least
``Retry-After`` or the ``google.rpc.RetryInfo`` ``retryDelay`` when sent; 400
``INVALID_ARGUMENT`` is final. Account-level errors stop the setting with no
cell recorded (``abort``), as every request would get the same answer
(``ACCOUNT_ERRORS``): 400 ``API_KEY_INVALID`` (a wrong or expired key), 400
``FAILED_PRECONDITION`` (the user's location is not supported, or the free
tier is not offered in the country: billing must be enabled), 429
``RESOURCE_EXHAUSTED`` whose ``google.rpc.QuotaFailure`` names a per-day quota
(a ``quotaId`` containing ``PerDay``: nothing helps before the day resets),
401/403 (``PERMISSION_DENIED``: a revoked key, a blocked project) and 404. The
error string is ``HTTP <code> <STATUS>: <message>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from execstate.errors import SettingsError
from execstate.records import Usage
from execstate.run._attempt import Attempt, CellRequest, Messages, WireRequest, int_or_none, unicode_text
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import (
    SNIPPET,
    HttpProvider,
    SseEvent,
    json_object,
    key_refused,
    preflight_get,
    status_attempt,
)
from execstate.run.providers._models import (
    GEMINI_BUDGETS,
    GEMINI_DEFAULT,
    GEMINI_LEVELS,
    GEMINI_MODELS,
    ModelCaps,
    family_row,
)

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
KEY_HEADER = "x-goog-api-key"

THINKING_BUDGETS: dict[str, int] = {"off": 0, "minimal": 512, "low": 2048, "medium": 8192, "high": 24576}
"""``reasoning`` -> ``thinkingBudget`` (budget style). The documented ranges: 2.5 Flash 0-24576,
2.5 Flash-Lite 512-24576 (0 turns it off), 2.5 Pro 128-32768 (cannot turn thinking off)."""

ACCOUNT_ERRORS: tuple[str, ...] = (
    "400 API_KEY_INVALID",
    "400 FAILED_PRECONDITION",
    "429 RESOURCE_EXHAUSTED with a per-day QuotaFailure",
    "401",
    "403 PERMISSION_DENIED",
    "404",
)
"""The answers that stop the setting with no cell recorded (docs/run.md, "Gemini")."""

_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?)s\s*$")

ThinkingControl = Literal["auto", "budget", "level", "none"]
Style = Literal["budget", "level", "none"]


class GeminiOptions(BaseModel):
    """The provider-only keys of a ``gemini`` setting."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    thinking_control: ThinkingControl = "auto"
    """How ``reasoning`` is sent: ``budget`` (``thinkingBudget``), ``level`` (``thinkingLevel``), ``none``
    (no ``thinkingConfig``), or ``auto``: the capability table's form for the model."""
    thinking_budget: int | None = Field(default=None, ge=-1)
    """Replaces ``THINKING_BUDGETS[reasoning]`` when reasoning is on (budget style); -1: dynamic thinking."""
    api_version: str = Field(default="v1beta", pattern=r"^v\d+[a-z0-9]*$")
    """The version path of the API (``v1beta``: where thinking is documented)."""


def model_name(setting: Setting) -> str:
    """The setting's model without a leading ``models/`` (both spellings name the same model)."""
    return (setting.model or "").removeprefix("models/")


def capabilities(setting: Setting) -> ModelCaps:
    """The model's row of ``GEMINI_MODELS`` (else ``GEMINI_DEFAULT``) with the setting's overrides applied."""
    caps = family_row(GEMINI_MODELS, setting.model, GEMINI_DEFAULT)
    control = setting.options(GeminiOptions).thinking_control
    form: tuple[str, ...] = () if control == "none" else (control,)
    if control != "auto" and form != caps.thinking:
        efforts = (caps.efforts or GEMINI_LEVELS) if control == "level" else ()
        off = {"budget": "budget 0", "none": "no thinkingConfig"}.get(control)
        caps = replace(caps, thinking=form, efforts=efforts, off=off).noting(
            f"thinking_control = {control!r} (the setting) instead of the table's form"
        )
    if setting.max_output_limit is not None:
        caps = replace(caps, max_output_tokens=setting.max_output_limit).noting("output cap: max_output_limit")
    if setting.sampling == "drop":
        caps = caps.noting("temperature and topP dropped (sampling = 'drop')")
    return caps


def thinking_style(setting: Setting) -> Style:
    """The thinking control a setting uses: ``thinking_control``, or its model's row."""
    caps = capabilities(setting)
    return "none" if not caps.thinking else ("level" if caps.thinking[0] == "level" else "budget")


def budget_range(setting: Setting) -> tuple[int, int] | None:
    """The model's documented ``thinkingBudget`` range, ``None`` when the table has none."""
    caps = family_row(GEMINI_MODELS, setting.model, GEMINI_DEFAULT)
    return GEMINI_BUDGETS.get(caps.family)


@dataclass(frozen=True)
class Thinking:
    """What a setting's requests carry as ``thinkingConfig`` (``None``: none) and the notes behind it."""

    config: dict[str, Any] | None
    notes: tuple[str, ...] = ()


def resolve_thinking(setting: Setting) -> Thinking:
    """Map ``reasoning`` (or ``effort``) to the model's control, or raise ``ValueError`` naming the values the
    model accepts (see the module docstring). Pure: the setting alone decides it."""
    caps = capabilities(setting)
    options = setting.options(GeminiOptions)
    style = thinking_style(setting)
    name = model_name(setting)
    reasoning = setting.reasoning
    if style == "none":
        if reasoning != "off" or setting.effort is not None:
            how = "thinking_control = 'none'" + (" by its table row" if options.thinking_control == "auto" else "")
            raise ValueError(
                f"model {name!r} does not think ({how}); set reasoning = 'off', "
                "or thinking_control = 'budget' or 'level' for a thinking model"
            )
        if options.thinking_budget is not None:
            raise ValueError(
                f"thinking_budget applies to thinking_control = 'budget' only (model {name!r} uses 'none')"
            )
        return Thinking(None, ("reasoning 'off': no thinkingConfig (the model does not think)",))
    if style == "level":
        return _level(setting, caps, name)
    return _budget(setting, name)


def _level(setting: Setting, caps: ModelCaps, name: str) -> Thinking:
    if setting.options(GeminiOptions).thinking_budget is not None:
        raise ValueError(
            f"thinking_budget applies to thinking_control = 'budget' only (model {name!r} uses 'level'); "
            "remove it or set thinking_control = 'budget'"
        )
    levels = caps.efforts or GEMINI_LEVELS
    if setting.reasoning == "off":
        lowest = next((lvl for lvl in levels if lvl in THINKING_BUDGETS), levels[0])
        raise ValueError(
            f"model {name!r} uses thinking levels and Gemini 3 cannot turn thinking off (its levels: "
            f"{', '.join(levels)}); use reasoning = {lowest!r} (its lowest level)"
        )
    if setting.effort is not None:
        if caps.family != "default" and setting.effort.lower() not in levels:
            raise ValueError(
                f"model {name!r} does not take thinking level {setting.effort!r} (effort); "
                f"use one of {', '.join(levels)}"
            )
        return Thinking(
            {"thinkingLevel": setting.effort, "includeThoughts": True}, ("thinkingLevel from effort, as is",)
        )
    if setting.reasoning not in levels:
        raise ValueError(
            f"model {name!r} does not take thinking level {setting.reasoning!r}; use one of {', '.join(levels)}"
        )
    return Thinking({"thinkingLevel": setting.reasoning, "includeThoughts": True})


def _budget(setting: Setting, name: str) -> Thinking:
    options = setting.options(GeminiOptions)
    span = budget_range(setting)
    if setting.effort is not None:
        raise ValueError(
            f"model {name!r} takes a thinking budget, not a level (effort = {setting.effort!r}); "
            "set thinking_budget instead"
        )
    if setting.reasoning == "off":
        if options.thinking_budget is not None:
            raise ValueError("thinking_budget applies when reasoning is on; set reasoning or remove thinking_budget")
        if capabilities(setting).off is None:
            span_text = f"{span[0]}-{span[1]}" if span else "unknown"
            raise ValueError(
                f"model {name!r} cannot turn thinking off (its thinkingBudget range is {span_text}); "
                f"use reasoning = 'minimal' (budget {THINKING_BUDGETS['minimal']})"
            )
        return Thinking({"thinkingBudget": 0}, ("reasoning 'off' sent as thinkingBudget 0",))
    budget = options.thinking_budget
    if budget == 0:
        raise ValueError("thinking_budget = 0 turns thinking off; use reasoning = 'off' instead")
    if budget is None:
        if setting.reasoning not in THINKING_BUDGETS:
            top = f"up to {span[1]}" if span else "a token count"
            raise ValueError(
                f"model {name!r} has no reasoning {setting.reasoning!r}: it takes a thinking budget; use one of "
                f"minimal, low, medium, high, or thinking_budget = {top}"
            )
        budget = THINKING_BUDGETS[setting.reasoning]
    if span is not None and budget != -1 and not span[0] <= budget <= span[1]:
        raise ValueError(
            f"model {name!r} takes a thinkingBudget of {span[0]}-{span[1]} (or -1), not {budget}; "
            "set thinking_budget within it"
        )
    return Thinking({"thinkingBudget": budget, "includeThoughts": True})


def thinking_config(setting: Setting) -> dict[str, Any] | None:
    """The ``thinkingConfig`` of a setting's requests, or ``None`` to send none (see the module docstring)."""
    return resolve_thinking(setting).config


def output_tokens(setting: Setting) -> int | None:
    """``maxOutputTokens``: the setting's, lowered to the model's cap."""
    cap = capabilities(setting).max_output_tokens
    wanted = setting.max_output_tokens
    if wanted is not None and cap is not None and wanted > cap:
        return cap
    return wanted


def resolved_capabilities(setting: Setting) -> ModelCaps:
    """``capabilities`` with the notes of what the request carries (written to ``OUT/models.json``)."""
    caps = capabilities(setting)
    caps = caps.noting(*resolve_thinking(setting).notes)
    if caps.off is None:
        caps = caps.noting("the model cannot turn thinking off: reasoning 'off' is refused")
    sent = output_tokens(setting)
    if sent is not None and sent != setting.max_output_tokens:
        caps = caps.noting(f"maxOutputTokens {setting.max_output_tokens} lowered to the model's cap {sent}")
    return caps


def generate_url(setting: Setting) -> str:
    version = setting.options(GeminiOptions).api_version
    return f"{setting.endpoint_root.rstrip('/')}/{version}/models/{model_name(setting)}:generateContent"


def models_url(setting: Setting) -> str:
    version = setting.options(GeminiOptions).api_version
    return f"{setting.endpoint_root.rstrip('/')}/{version}/models"


def request_body(setting: Setting, messages: Messages) -> dict[str, Any]:
    """The JSON request for one cell: its messages (the SPEC prompt), the generation config, then ``extra_body``
    (deep)."""
    system, user = messages
    config: dict[str, Any] = {}
    limit = output_tokens(setting)
    if limit is not None:
        config["maxOutputTokens"] = limit
    if setting.sampling != "drop":
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
    model, rid = served(data)
    candidates = data.get("candidates")
    if not isinstance(candidates, list) or not candidates:
        feedback = data.get("promptFeedback")
        reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
        if isinstance(reason, str) and reason:
            return Attempt(
                "completed",
                text="",
                finish_reason=f"blocked:{reason.lower()}",
                usage=usage,
                served_model=model,
                request_id=rid,
            )
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
        served_model=model,
        request_id=rid,
    )


def served(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """``served_model`` (``modelVersion``) and ``request_id`` (``responseId``) of an answer; ``None`` when absent."""
    model, rid = data.get("modelVersion"), data.get("responseId")
    return (model if isinstance(model, str) and model else None, rid if isinstance(rid, str) and rid else None)


def parse_stream(events: list[SseEvent]) -> Attempt:
    """The ``Attempt`` of a whole ``streamGenerateContent`` event stream (see the module docstring)."""
    parts: list[dict[str, Any]] = []
    merged: dict[str, Any] = {}
    finish: Any = None
    chunks = 0
    for event in events:
        chunk = event.json()
        if not isinstance(chunk, dict):
            continue
        chunks += 1
        if isinstance(chunk.get("error"), dict):
            code = chunk["error"].get("code")
            status = code if isinstance(code, int) and not isinstance(code, bool) else 500
            return classify_response(status, {}, json.dumps(chunk).encode("utf-8"))
        for key in ("usageMetadata", "modelVersion", "responseId", "promptFeedback"):
            if chunk.get(key):
                merged[key] = chunk[key]
        candidates = chunk.get("candidates")
        candidate = candidates[0] if isinstance(candidates, list) and candidates else None
        if not isinstance(candidate, dict):
            continue
        content = candidate.get("content")
        more = content.get("parts") if isinstance(content, dict) else None
        if isinstance(more, list):
            parts.extend(p for p in more if isinstance(p, dict))
        if candidate.get("finishReason"):
            finish = candidate["finishReason"]
    if finish is None:
        if "promptFeedback" in merged:
            return parse_generate(merged)
        return Attempt("retry", error=f"stream ended without a finishReason ({chunks} chunks); not recorded")
    return parse_generate({**merged, "candidates": [{"content": {"parts": parts}, "finishReason": finish}]})


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
    kind = "abort" if account_error(status, code, reason, error) else base.kind
    wait = base.retry_after_s
    if kind == "retry" and wait is None:
        wait = retry_delay_s(error)
    return Attempt(kind, error=text, retry_after_s=wait if kind == "retry" else None)


def account_error(status: int, code: Any, reason: str | None, error: dict[str, Any]) -> bool:
    """Whether an error is one every request of the setting would get (``ACCOUNT_ERRORS``): stop, record nothing."""
    if status == 400 and (reason == "API_KEY_INVALID" or code == "FAILED_PRECONDITION"):
        return True
    return status == 429 and per_day_quota(error)


def per_day_quota(error: dict[str, Any]) -> bool:
    """Whether a ``RESOURCE_EXHAUSTED`` names a per-day quota in its ``google.rpc.QuotaFailure`` violations."""
    for detail in _details(error):
        if str(detail.get("@type", "")).endswith("google.rpc.QuotaFailure"):
            violations = detail.get("violations")
            for violation in violations if isinstance(violations, list) else ():
                if isinstance(violation, dict) and "PerDay" in str(violation.get("quotaId", "")):
                    return True
    return False


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
        self.capabilities = resolved_capabilities(setting)

    def body(self, request: CellRequest) -> dict[str, Any]:
        return request_body(self.setting, request.messages)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_generate(data)

    def stream_url(self, url: str) -> str:
        return url.removesuffix(":generateContent") + ":streamGenerateContent?alt=sse"

    def stream_body(self, body: dict[str, Any]) -> dict[str, Any]:
        return body  # the method, not a body field, makes it a stream

    def parse_events(self, events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
        return parse_stream(events)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        return classify_response(status, headers, content)


def model_url(setting: Setting) -> str:
    return f"{models_url(setting)}/{model_name(setting)}"


async def model_info(setting: Setting, headers: dict[str, str]) -> tuple[int, dict[str, Any] | None]:
    """``models.get`` of the setting's model: the HTTP status and the ``Model`` object (``None`` unless 200).
    Raises ``SettingsError`` when the endpoint cannot be reached or refuses the key (401/403)."""
    url = model_url(setting)
    status, content = await preflight_get(setting, url, headers)
    if status in (401, 403):
        raise key_refused(setting, url, status)
    data = json_object(content) if status == 200 else None
    return status, data if isinstance(data, dict) else None


def refusal(setting: Setting, info: Mapping[str, Any]) -> str | None:
    """Why ``models.get``'s answer refuses the setting (one line naming the fix), or ``None``."""
    name = model_name(setting)
    methods = info.get("supportedGenerationMethods")
    if isinstance(methods, list) and "generateContent" not in methods:
        return (
            f"model {name!r} does not support generateContent (models.get: {', '.join(map(str, methods))}); set model"
        )
    if info.get("thinking") is False and thinking_config(setting) is not None:
        return (
            f"model {name!r} does not think (models.get: thinking = false); set reasoning = 'off' "
            "and thinking_control = 'none'"
        )
    limit = int_or_none(info.get("outputTokenLimit"))
    sent = output_tokens(setting)
    if limit is not None and sent is not None and sent > limit:
        return (
            f"model {name!r} writes at most {limit} tokens (models.get outputTokenLimit), not {sent}; "
            f"set max_output_tokens <= {limit}"
        )
    return None


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    if key is None and setting.base_url is None:
        raise SettingsError(
            f"setting {setting.name!r}: the Gemini API needs a key; set api_key_env "
            '(e.g. api_key_env = "GEMINI_API_KEY") and export the variable'
        )
    status, info = await model_info(setting, {KEY_HEADER: key} if key else {})
    provider = GeminiProvider(setting, key)
    if info is None:
        provider.capabilities = provider.capabilities.noting(f"models.get answered HTTP {status}: the table row stands")
        return provider, [key] if key else []
    why = refusal(setting, info)
    if why is not None:
        await provider.aclose()
        raise SettingsError(f"setting {setting.name!r}: {why}")
    seen = {k: info[k] for k in ("version", "outputTokenLimit", "thinking") if k in info}
    provider.capabilities = replace(
        provider.capabilities, source=f"{provider.capabilities.source}; {model_url(setting)}"
    ).noting("models.get: " + ", ".join(f"{k} {json.dumps(v)}" for k, v in seen.items()))
    return provider, [key] if key else []


def _request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
    return WireRequest(generate_url(setting), request_body(setting, messages))


def _check(setting: Setting) -> None:
    """Refuse, when the settings load, what Gemini would answer 400 to on every cell (``resolve_thinking``)."""
    resolve_thinking(setting)


ENTRY = ProviderEntry(  # registered with its batch form, GEMINI_BATCH, by gemini_batch.ENTRY
    name="gemini",
    open=_open,
    options=GeminiOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="Google's native Gemini API (generateContent; batchGenerateContent with run --batch)",
)
