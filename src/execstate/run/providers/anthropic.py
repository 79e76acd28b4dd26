"""``provider = "anthropic"``: Anthropic's native Messages API, ``POST {base_url}/v1/messages``.

``base_url`` is the API root without the version path (default
``https://api.anthropic.com``). Each request carries ``x-api-key`` (from
``api_key_env``) and ``anthropic-version`` (the ``anthropic_version`` key,
default ``2023-06-01``). The SPEC prompt's system message goes in the
top-level ``system`` field and the user message is the one entry of
``messages``.

What the model accepts comes from ``ANTHROPIC_MODELS`` in ``_models.py`` (the
row of the longest family prefix of ``model``; ``ANTHROPIC_DEFAULT``, the
adaptive form, for a model the table does not know), with the setting's
overrides: ``thinking_style`` (``adaptive``/``enabled`` instead of the row's
form), ``effort`` (sent as ``output_config.effort`` as it is),
``max_output_limit`` (the cap) and ``sampling``. The request is computed from
the setting alone; when the provider opens, ``GET {base_url}/v1/models/{model}``
is read and, where it lists the model's capabilities, a thinking type, effort
or ``max_tokens`` it does not accept refuses the setting before its first
cell (it never changes the request).

``reasoning`` maps to the model's thinking form:

    reasoning  adaptive models                         enabled models (budget_tokens)
    off        no ``thinking`` field                   no ``thinking`` field
    minimal    effort = the model's lowest (``low``)   1024
    low        effort ``low``                          4096
    medium     effort ``medium``                       16384
    high       effort ``high``                         32768
    xhigh      effort ``xhigh`` where the model has it refused
    max        effort ``max`` where the model has it   refused

Adaptive thinking is sent as ``{"type": "adaptive", "display": "summarized"}``
(the newest models omit the thinking text unless asked) plus
``output_config = {"effort": ...}``; a model with both forms gets adaptive,
unless ``thinking_budget`` is set. A level the model lacks is refused when the
settings are read, naming the values it accepts.

``max_tokens`` is required by the API, so it is always sent: the setting's
``max_output_tokens``, else a default (enabled: the budget + 8192; adaptive:
``ADAPTIVE_TOKENS`` of the level; off: 8192), capped at the model's output
limit. For enabled thinking the API wants ``1024 <= budget_tokens <
max_tokens``: a table budget that does not fit under ``max_output_tokens`` is
lowered to ``max_output_tokens - 1``, one that does not fit under the model's
cap to ``cap - 8192``; a setting where no budget of 1024 fits is refused.

Sampling (``sampling = "auto"``): what the model refuses is left out, and
the capabilities' notes say so (``OUT/models.json``, the run's summary):
``temperature``/``top_p`` beside thinking (the API refuses them there);
``top_p`` when both are given to a model that takes one of the two (the
temperature is kept); both on a model that takes neither. ``sampling =
"drop"`` leaves them out always, ``"send"`` sends them anyway. ``extra_body``
is merged last and wins.

Statuses: 429, 529 (``overloaded_error``) and 5xx are retried, waiting at
least the server's ``retry-after``; 400 and the other 4xx are final. The
account errors (``ACCOUNT_ERRORS``) stop the setting with nothing recorded
and are never retried: 401 ``authentication_error``, 403
``permission_error``, 402 ``billing_error``, and a 400
``invalid_request_error`` saying the credit balance is too low; 404 stops it
too (the model or URL is wrong). Error strings carry Anthropic's
``error.type`` and ``error.message``.

Every completed answer records the served model (the Message's ``model``),
the ``request-id`` response header and ``usage.service_tier``. A streamed
request (``Setting.streaming``) reads the Messages server-sent events
(``parse_stream``) into the same ``Attempt`` the whole answer gives.
"""

from __future__ import annotations

import dataclasses
import json
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
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
from execstate.run.providers._models import ANTHROPIC_DEFAULT, ANTHROPIC_MODELS, ModelCaps, accepted, family_row

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_VERSION = "2023-06-01"
MIN_THINKING_BUDGET = 1024
"""The smallest ``budget_tokens`` the API accepts."""
ANSWER_ROOM = 8192
"""Tokens left for the answer beyond the thinking budget when ``max_output_tokens`` is not set."""

THINKING_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 4096, "medium": 16384, "high": 32768}
"""``reasoning`` level -> ``thinking.budget_tokens`` for enabled thinking (``off`` sends no ``thinking``)."""

ADAPTIVE_TOKENS: dict[str, int] = {
    "minimal": 1024 + ANSWER_ROOM,
    "low": 4096 + ANSWER_ROOM,
    "medium": 16384 + ANSWER_ROOM,
    "high": 32768 + ANSWER_ROOM,
    "xhigh": 65536 + ANSWER_ROOM,
    "max": 131072,
}
"""``reasoning`` level -> default ``max_tokens`` with adaptive thinking (capped at the model's limit)."""

ADAPTIVE_EFFORTS = ("low", "medium", "high", "xhigh", "max")
"""Every ``output_config.effort`` value, lowest first (the SDK's ``OutputConfigParam``)."""

FINISH_REASONS: dict[str, str] = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}
"""``stop_reason`` values recorded under the common names; every other value is kept as sent."""

RETRY_STATUSES = frozenset({529})
"""Anthropic's ``overloaded_error`` status, retried beside the shared 408/409/425/429/5xx."""

ERROR_STATUS: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}
"""The HTTP status of each documented ``error.type`` (a stream's ``error`` event is classified as that status)."""

ACCOUNT_ERRORS: dict[str, str] = {
    "authentication_error": "401: the key is invalid or revoked",
    "permission_error": "403: the key may not use this model or resource",
    "billing_error": "402: a billing problem on the account",
    "invalid_request_error": "400 whose message says the credit balance is too low",
}
"""The account-level errors that stop the setting (``abort``: nothing recorded, never retried)."""

CREDIT_MESSAGE = "credit balance is too low"
"""What the 400 ``invalid_request_error`` of an account out of credit says."""


class AnthropicOptions(BaseModel):
    """The keys an ``anthropic`` setting may add to the common ones."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    anthropic_version: str = Field(DEFAULT_VERSION, min_length=1)
    """The ``anthropic-version`` header sent with every request."""
    thinking_budget: int | None = Field(None, ge=MIN_THINKING_BUDGET)
    """``thinking.budget_tokens`` for any ``reasoning`` other than ``off``, instead of ``THINKING_BUDGETS``
    (enabled thinking only)."""
    thinking_style: Literal["auto", "adaptive", "enabled"] = "auto"
    """The thinking form sent: ``auto`` takes the model's from the table, ``adaptive``/``enabled`` override it."""


@dataclass(frozen=True)
class RequestPlan:
    """What every request of a setting carries besides the prompt, and the capabilities it was read from."""

    fields: dict[str, Any]
    caps: ModelCaps


class AnthropicProvider(HttpProvider):
    """``POST {base_url}/v1/messages`` with the SPEC prompt as ``system`` plus one user message."""

    name = "anthropic"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        super().__init__(setting, messages_url(setting), request_headers(setting, api_key))
        # Everything but the prompt is the same for every cell: built (and validated) once.
        plan = request_plan(setting)
        self._fixed = plan.fields
        self.capabilities: ModelCaps = plan.caps
        """The model's capabilities as resolved (written to ``OUT/models.json`` and the manifest)."""

    def body(self, request: CellRequest) -> dict[str, Any]:
        return _with_prompt(self._fixed, request.messages, self.setting.extra_body)

    def parse(self, content: bytes) -> Attempt:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_message(data)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        return classify_response(status, headers, content)

    def parse_events(self, events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
        return parse_stream(events, headers)


def messages_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/v1/messages"


def model_url(setting: Setting) -> str:
    """``{base_url}/v1/models/{model}``: the Models API's "get a model"."""
    return setting.endpoint_root.rstrip("/") + "/v1/models/" + urllib.parse.quote(setting.model or "", safe="")


def request_headers(setting: Setting, api_key: str | None) -> dict[str, str]:
    """``x-api-key`` (when a key variable is named) and ``anthropic-version``."""
    headers = {"anthropic-version": setting.options(AnthropicOptions).anthropic_version}
    if api_key:
        headers["x-api-key"] = api_key
    return headers


# --- capabilities and the request ----------------------------------------------------------------------


def model_caps(setting: Setting) -> ModelCaps:
    """The table row of the setting's model with the setting's overrides (``thinking_style``,
    ``max_output_limit``); the notes say what was overridden."""
    row = family_row(ANTHROPIC_MODELS, setting.model, ANTHROPIC_DEFAULT)
    style = setting.options(AnthropicOptions).thinking_style
    if style != "auto" and row.thinking != (style,):
        row = dataclasses.replace(row, thinking=(style,)).noting(f"thinking form {style!r} from thinking_style")
    if setting.max_output_limit is not None:
        row = dataclasses.replace(row, max_output_tokens=setting.max_output_limit).noting(
            f"output cap {setting.max_output_limit} from max_output_limit"
        )
    return row


def request_plan(setting: Setting) -> RequestPlan:
    """The task-independent request fields of a setting and the capabilities they follow.

    Raises ``ValueError`` naming the values the model accepts and the key to set when ``reasoning``,
    ``thinking_budget``, ``max_output_tokens`` or the sampling keys cannot be sent to the model.
    """
    caps = model_caps(setting)
    notes: list[str] = []
    style = _thinking_form(setting, caps)
    fields: dict[str, Any] = {"model": setting.model}
    if style == "adaptive":
        effort = setting.effort or _adaptive_effort(setting, caps, notes)
        default = ADAPTIVE_TOKENS[setting.reasoning]
        fields["max_tokens"] = _max_tokens(setting, caps, default, notes)
        fields["thinking"] = {"type": "adaptive", "display": "summarized"}
        fields["output_config"] = {"effort": effort}
        notes.append(f"reasoning {setting.reasoning!r} sent as adaptive thinking, effort {effort!r}")
    elif style == "enabled":
        budget, max_tokens = _budget(setting, caps, notes)
        fields["max_tokens"] = max_tokens
        fields["thinking"] = {"type": "enabled", "budget_tokens": budget}
        notes.append(f"reasoning {setting.reasoning!r} sent as enabled thinking, budget_tokens {budget}")
        if setting.effort:
            fields["output_config"] = {"effort": setting.effort}
    else:
        fields["max_tokens"] = _max_tokens(setting, caps, ANSWER_ROOM, notes)
        notes.append("reasoning 'off' sent as no thinking field")
        if setting.effort:
            fields["output_config"] = {"effort": setting.effort}
    if setting.effort:
        notes.append(f"effort {setting.effort!r} sent as it is (the effort key)")
    fields.update(_sampling(setting, caps, style is not None, notes))
    return RequestPlan(fields, caps.noting(*notes))


def _thinking_form(setting: Setting, caps: ModelCaps) -> str | None:
    """``adaptive``, ``enabled`` or ``None`` (reasoning off)."""
    budget = setting.options(AnthropicOptions).thinking_budget
    if setting.reasoning == "off":
        if budget is not None:
            raise ValueError(
                f"thinking_budget = {budget} is set but reasoning is 'off'; "
                "set reasoning to minimal, low, medium or high, or remove thinking_budget"
            )
        return None
    if not caps.thinking:
        raise ValueError(f"model {setting.model!r} does not think; set reasoning = 'off' or set thinking_style")
    if budget is not None:
        if "enabled" not in caps.thinking:
            raise ValueError(
                f"thinking_budget is for thinking type 'enabled', which model {setting.model!r} does not accept "
                f"(it accepts {accepted(caps.thinking)}); remove thinking_budget, or set thinking_style = 'enabled'"
            )
        return "enabled"
    return "adaptive" if "adaptive" in caps.thinking else "enabled"


def _adaptive_effort(setting: Setting, caps: ModelCaps, notes: list[str]) -> str:
    efforts = [e for e in ADAPTIVE_EFFORTS if e in (caps.efforts or ADAPTIVE_EFFORTS)]
    if setting.reasoning == "minimal":
        notes.append(f"reasoning 'minimal' sent as effort {efforts[0]!r}, the lowest the model has")
        return efforts[0]
    if setting.reasoning not in efforts:
        levels = ["off", "minimal", *efforts]
        raise ValueError(
            f"model {setting.model!r} has no effort {setting.reasoning!r} (adaptive thinking, efforts "
            f"{accepted(efforts)}); set reasoning to one of {accepted(levels)}, or effort = '...' to send a "
            "vendor value as it is"
        )
    return setting.reasoning


def _max_tokens(setting: Setting, caps: ModelCaps, default: int, notes: list[str]) -> int:
    """``max_output_tokens`` or ``default``, capped at the model's limit."""
    wanted = setting.max_output_tokens if setting.max_output_tokens is not None else default
    cap = caps.max_output_tokens
    if cap is not None and wanted > cap:
        notes.append(f"max_tokens {wanted} capped at the model's {cap}")
        return cap
    return wanted


def _budget(setting: Setting, caps: ModelCaps, notes: list[str]) -> tuple[int, int]:
    """``(budget_tokens, max_tokens)`` for enabled thinking, ``1024 <= budget < max_tokens <= cap``."""
    options = setting.options(AnthropicOptions)
    cap = caps.max_output_tokens
    limit = setting.max_output_tokens
    if limit is not None and cap is not None and limit > cap:
        notes.append(f"max_output_tokens {limit} capped at the model's {cap}")
        limit = cap
    if options.thinking_budget is not None:
        budget = options.thinking_budget
        bound = limit if limit is not None else cap
        if bound is not None and budget >= bound:
            raise ValueError(
                f"thinking_budget = {budget} must be below max_output_tokens = {bound} "
                f"(the API wants budget_tokens < max_tokens); raise max_output_tokens above "
                f"{budget} or lower thinking_budget"
            )
        return budget, limit if limit is not None else _max_tokens(setting, caps, budget + ANSWER_ROOM, notes)
    if setting.reasoning not in THINKING_BUDGETS:
        levels = ["off", *THINKING_BUDGETS]
        raise ValueError(
            f"model {setting.model!r} takes enabled thinking with a token budget, which has no {setting.reasoning!r}; "
            f"set reasoning to one of {accepted(levels)}, or thinking_budget for a larger budget"
        )
    budget = THINKING_BUDGETS[setting.reasoning]
    if limit is not None:
        if budget >= limit:
            budget = limit - 1
            if budget < MIN_THINKING_BUDGET:
                raise ValueError(
                    f"max_output_tokens = {limit} leaves no room for thinking: reasoning {setting.reasoning!r} "
                    f"needs budget_tokens of at least {MIN_THINKING_BUDGET} below max_tokens; set max_output_tokens "
                    f"to {MIN_THINKING_BUDGET + 1} or more, remove it, or set reasoning = 'off'"
                )
        return budget, limit
    max_tokens = budget + ANSWER_ROOM
    if cap is not None and max_tokens > cap:
        lowered = max(MIN_THINKING_BUDGET, min(budget, cap - ANSWER_ROOM))
        if lowered >= cap:
            raise ValueError(f"the model's output cap {cap} leaves no room for thinking; set reasoning = 'off'")
        notes.append(f"max_tokens {max_tokens} capped at the model's {cap}, budget_tokens {budget} -> {lowered}")
        budget, max_tokens = lowered, cap
    return budget, max_tokens


def _sampling(setting: Setting, caps: ModelCaps, thinking: bool, notes: list[str]) -> dict[str, Any]:
    """``temperature``/``top_p`` to send, by ``sampling`` and the model's rule."""
    given = {k: v for k in ("temperature", "top_p") if (v := getattr(setting, k)) is not None}
    if not given or setting.sampling == "send":
        return given
    names = " and ".join(given)
    if setting.sampling == "drop":
        notes.append(f"{names} not sent (sampling = 'drop')")
        return {}
    if thinking:
        notes.append(f"{names} not sent beside thinking (the API refuses them there)")
        return {}
    if caps.sampling == "default-only":
        notes.append(f"{names} not sent (the model refuses them; sampling = 'send' sends them anyway)")
        return {}
    if caps.sampling == "one" and len(given) == 2:
        notes.append("top_p not sent (the model takes temperature or top_p, not both; sampling = 'send' sends both)")
        return {"temperature": given["temperature"]}
    return given


def _with_prompt(fixed: dict[str, Any], messages: Messages, extra_body: dict[str, Any]) -> dict[str, Any]:
    system = "".join(m["content"] for m in messages if m["role"] == "system")
    turns = [{"role": m["role"], "content": m["content"]} for m in messages if m["role"] != "system"]
    body = {**fixed, "system": system, "messages": turns}
    body.update(extra_body)
    return body


def request_body(setting: Setting, messages: Messages) -> dict[str, Any]:
    """The JSON request for one cell: ``model``, ``max_tokens``, ``thinking``/``output_config`` or the sampling
    fields, ``system`` and the one user message, then ``extra_body`` (which wins).

    Raises ``ValueError`` for a setting the model cannot take (``request_plan``); a setting that passed
    validation never does.
    """
    return _with_prompt(request_plan(setting).fields, messages, setting.extra_body)


# --- the models endpoint ------------------------------------------------------------------------------


def endpoint_caps(info: dict[str, Any], caps: ModelCaps, url: str) -> ModelCaps:
    """``caps`` with what a Models API ``ModelInfo`` says: ``capabilities.thinking.types`` (``adaptive``,
    ``enabled``), ``capabilities.effort`` levels and ``max_tokens``; ``source`` becomes ``url`` when the
    answer lists capabilities."""
    found = dataclasses.replace(caps)
    max_tokens = int_or_none(info.get("max_tokens"))
    if max_tokens is not None and max_tokens > 0:
        found = dataclasses.replace(found, max_output_tokens=max_tokens)
    capabilities = info.get("capabilities")
    if not isinstance(capabilities, dict):
        return found
    thinking = capabilities.get("thinking")
    types = thinking.get("types") if isinstance(thinking, dict) else None
    if isinstance(types, dict):
        forms = tuple(t for t in ("adaptive", "enabled") if _supported(types.get(t)))
        found = dataclasses.replace(found, thinking=forms if _supported(thinking) else ())
    effort = capabilities.get("effort")
    if isinstance(effort, dict):
        levels = tuple(e for e in ADAPTIVE_EFFORTS if _supported(effort.get(e))) if _supported(effort) else ()
        found = dataclasses.replace(found, efforts=levels)
    return dataclasses.replace(found, source=url)


def _supported(value: Any) -> bool:
    return isinstance(value, dict) and value.get("supported") is True


def endpoint_refusal(setting: Setting, fields: dict[str, Any], said: ModelCaps, url: str) -> str | None:
    """Why the models endpoint's capabilities (``said``) refuse the request ``fields``, or ``None``."""
    model = setting.model
    thinking = fields.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if said.source == url and kind in ("adaptive", "enabled") and kind not in said.thinking:
        other = [t for t in said.thinking if t != kind]
        fix = f"set thinking_style = {other[0]!r}" if other else "set reasoning = 'off'"
        return f"model {model!r} does not accept thinking type {kind!r} (it accepts {accepted(said.thinking)}); {fix}"
    config = fields.get("output_config")
    effort = config.get("effort") if isinstance(config, dict) else None
    if said.source == url and isinstance(effort, str) and effort not in said.efforts:
        if not said.efforts:
            return f"model {model!r} takes no effort (output_config.effort {effort!r}); remove effort"
        return (
            f"model {model!r} has no effort {effort!r} (it accepts {accepted(said.efforts)}); "
            "set reasoning or effort to one of them"
        )
    max_tokens = fields.get("max_tokens")
    cap = said.max_output_tokens
    if isinstance(max_tokens, int) and cap is not None and max_tokens > cap:
        return f"max_tokens {max_tokens} is above model {model!r}'s {cap}; set max_output_limit = {cap}"
    return None


async def read_model(setting: Setting, api_key: str | None) -> dict[str, Any] | None:
    """The Models API's ``ModelInfo`` of the setting's model (``GET {base_url}/v1/models/{model}``); ``None``
    when it answers anything but a JSON object with 200 (a 404 is left to the first message, which stops the
    setting). Raises ``SettingsError`` when the endpoint is unreachable or refuses the key (401/403)."""
    url = model_url(setting)
    status, content = await preflight_get(setting, url, request_headers(setting, api_key))
    if status in (401, 403):
        raise key_refused(setting, url, status, vendor_error(content))
    if status != 200:
        return None
    data = json_object(content)
    return data if isinstance(data, dict) else None


# --- answers --------------------------------------------------------------------------------------------


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one Messages HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``, plus 529 and the
    account errors, which abort)."""
    if status == 200:
        data = json_object(content)
        return data if isinstance(data, Attempt) else parse_message(data, headers)
    attempt = status_attempt(status, headers, content, retry=RETRY_STATUSES)
    kind, message = _error_fields(content)
    if account_error(status, kind, message):
        attempt = dataclasses.replace(attempt, kind="abort", retry_after_s=None)
    detail = vendor_error(content)
    return dataclasses.replace(attempt, error=f"HTTP {status} {detail}") if detail else attempt


def account_error(status: int, kind: str | None, message: str | None) -> bool:
    """Whether an error is one of ``ACCOUNT_ERRORS`` (the setting stops; the cell stays pending)."""
    if status in (401, 402, 403) or kind in ("authentication_error", "billing_error", "permission_error"):
        return True
    return kind == "invalid_request_error" and CREDIT_MESSAGE in (message or "").lower()


def _error_fields(content: bytes | dict[str, Any]) -> tuple[str | None, str | None]:
    data: Any = content
    if isinstance(content, bytes):
        try:
            data = json.loads(content)
        except ValueError:
            return None, None
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        return None, None
    kind, message = error.get("type"), error.get("message")
    return (kind if isinstance(kind, str) else None), (message if isinstance(message, str) else None)


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
    kind, message = _error_fields(data)
    if kind is None:
        return None
    text = kind if message is None else f"{kind}: {message[:SNIPPET]}"
    request_id = data.get("request_id")
    return f"{text} (request_id {request_id})" if isinstance(request_id, str) else text


def parse_message(data: dict[str, Any], headers: Mapping[str, str] | None = None) -> Attempt:
    """The ``Attempt`` of a Messages response object (a live 200 body, a batch result's ``message``, or the
    message a stream built).

    ``text`` joins the ``text`` blocks, ``reasoning`` the ``thinking`` blocks (``None`` when there are
    none; ``redacted_thinking`` is encrypted and skipped). ``stop_reason`` ``end_turn`` and
    ``stop_sequence`` become ``stop``, ``max_tokens`` becomes ``length``, any other value is kept.
    ``served_model`` is the message's ``model``, ``service_tier`` its ``usage.service_tier`` and
    ``request_id`` the ``request-id`` response header (``None`` where not sent: a batch result has none).
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
    usage = data.get("usage")
    tier = usage.get("service_tier") if isinstance(usage, dict) else None
    model = data.get("model")
    request_id = headers.get("request-id") if headers is not None else None
    return Attempt(
        "completed",
        text=unicode_text("".join(texts)),
        reasoning=unicode_text("".join(thoughts)) if thoughts else None,
        finish_reason=FINISH_REASONS.get(stop, stop) if isinstance(stop, str) else None,
        usage=parse_usage(usage),
        served_model=model if isinstance(model, str) and model else None,
        request_id=request_id or None,
        service_tier=tier if isinstance(tier, str) and tier else None,
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


def parse_stream(events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
    """The ``Attempt`` of a whole Messages event stream: the message of ``message_start``, its content blocks
    built from ``content_block_start`` and the ``text_delta``/``thinking_delta``/``signature_delta`` of
    ``content_block_delta``, ``stop_reason`` and the (cumulative) ``usage`` of ``message_delta``; then read
    by ``parse_message``, so a streamed answer is recorded as the whole one. An ``error`` event is classified
    as the status of its ``error.type`` (an ``overloaded_error`` is retried, an account error aborts); a
    stream that ends before ``message_stop`` is a ``retry`` (its partial text is never recorded). ``ping`` and
    unknown events are skipped."""
    message: dict[str, Any] | None = None
    blocks: dict[int, dict[str, Any]] = {}
    for event in events:
        data = event.json()
        if not isinstance(data, dict):
            continue
        kind = data.get("type", event.event)
        if kind == "error":
            error_type, _ = _error_fields(data)
            status = ERROR_STATUS.get(error_type or "", 500)
            return classify_response(status, headers, json.dumps(data).encode("utf-8"))
        if kind == "message_start" and isinstance(data.get("message"), dict):
            message = dict(data["message"])
            message["usage"] = dict(message.get("usage") or {})
        elif kind == "content_block_start" and isinstance(data.get("content_block"), dict):
            blocks[int_or_none(data.get("index")) or 0] = dict(data["content_block"])
        elif kind == "content_block_delta" and isinstance(data.get("delta"), dict):
            _apply_delta(blocks.setdefault(int_or_none(data.get("index")) or 0, {}), data["delta"])
        elif kind == "message_delta" and message is not None:
            delta = data.get("delta")
            if isinstance(delta, dict):
                message.update({k: v for k, v in delta.items() if k in ("stop_reason", "stop_sequence")})
            if isinstance(data.get("usage"), dict):
                message["usage"].update({k: v for k, v in data["usage"].items() if v is not None})
        elif kind == "message_stop" and message is not None:
            message["content"] = [blocks[i] for i in sorted(blocks)]
            return parse_message(message, headers)
    seen = len(events)
    return Attempt("retry", error=f"stream ended before message_stop ({seen} events): the partial answer is dropped")


def _apply_delta(block: dict[str, Any], delta: dict[str, Any]) -> None:
    """Add one ``content_block_delta``'s ``delta`` to its block (a signature arrives whole; tool input is skipped)."""
    kind = delta.get("type")
    if kind == "text_delta" and isinstance(delta.get("text"), str):
        block["text"] = str(block.get("text") or "") + delta["text"]
    elif kind == "thinking_delta" and isinstance(delta.get("thinking"), str):
        block["thinking"] = str(block.get("thinking") or "") + delta["thinking"]
    elif kind == "signature_delta" and isinstance(delta.get("signature"), str):
        block["signature"] = delta["signature"]


# --- the entry ------------------------------------------------------------------------------------------


async def preflight(setting: Setting, api_key: str | None) -> ModelCaps:
    """Read the model's ``ModelInfo`` and check the setting's request against it; the resolved capabilities.

    Raises ``SettingsError`` (one line: the setting, the model, the values accepted, the key to set) when
    the endpoint is unreachable, refuses the key, or says the model does not accept the request.
    """
    plan = request_plan(setting)
    url = model_url(setting)
    info = await read_model(setting, api_key)
    if info is None:
        return plan.caps.noting(f"models endpoint {url}: no model information; table only")
    said = endpoint_caps(info, plan.caps, url)
    refusal = endpoint_refusal(setting, plan.fields, said, url)
    if refusal is not None:
        raise SettingsError(f"setting {setting.name!r}: {refusal} (the models endpoint {url})")
    if said.source != url:
        return said.noting(f"models endpoint {url}: no capabilities listed; table only")
    return said


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    caps = await preflight(setting, key)
    provider = AnthropicProvider(setting, key)
    provider.capabilities = caps
    return provider, [key] if key else []


def _request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
    return WireRequest(messages_url(setting), request_body(setting, messages))


def _check(setting: Setting) -> None:
    request_plan(setting)


ENTRY = ProviderEntry(  # registered with its batch form, ANTHROPIC_BATCH, by anthropic_batch.ENTRY
    name="anthropic",
    open=_open,
    options=AnthropicOptions,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="Anthropic's native Messages API (POST /v1/messages), thinking and effort mapped per model",
)
