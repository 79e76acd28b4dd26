"""``provider = "openai"``: any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint.

``base_url`` includes the version path (``https://api.openai.com/v1``, the
default, or ``http://127.0.0.1:8000/v1`` for a local server). ``reasoning``
is sent as ``reasoning_field`` (``reasoning_effort``), mapped through the
OpenAI capability table (``_models.OPENAI_MODELS``, shared with
``openai-responses``) when the model is one of its families; any other model
(a local server's) gets the default row, today's behaviour: ``reasoning`` sent
as it is, none for ``off``, sampling keys as set.

How a setting maps to the effort sent (``effort_sent``):

    effort = "<value>"                     -> that value, as it is (no table check)
    reasoning off, model with an off form  -> the row's ``off`` (``none``; gpt-5: ``minimal``, noted)
    reasoning off, model without one       -> refused at load (o-series, codex, pro: they always reason)
    reasoning off, non-reasoning model     -> no effort field
    reasoning X, X among the row's efforts -> X
    reasoning X, any other                 -> refused at load, naming the values the model takes
    reasoning X, non-reasoning model       -> refused at load (gpt-4.1, gpt-4o: set reasoning = "off")

``temperature``/``top_p`` (``sampling_sent``): ``sampling = "auto"`` sends
them where the row's ``sampling`` allows the value (``send``; ``default-only``
only the default 1; ``without-thinking`` any value with effort ``none``) and
leaves out a value the model refuses, noting it; ``drop`` never sends them;
``send`` always does. ``max_output_tokens`` is capped at the model's output limit
(``max_output_limit``, else the row's). What was decided is in the resolved
``ModelCaps.notes`` (OUT/models.json and the manifest).

Account errors stop the setting with no cell recorded (``error_attempt``):
429 ``insufficient_quota``, ``billing_hard_limit_reached``, 401 (invalid or
revoked key, deactivated account), 403 (``unsupported_country_region_territory``
and any other refusal), and the 400 an unverified organization gets for a
reasoning summary or a stream (``organization must be verified``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from execstate.errors import SettingsError
from execstate.records import Usage
from execstate.run._attempt import Attempt, CellRequest, Messages, WireRequest, int_or_none, unicode_text
from execstate.run._settings import Opened, ProviderEntry, Setting
from execstate.run.providers._http import SNIPPET, HttpProvider, SseEvent, preflight_get, status_attempt
from execstate.run.providers._models import OPENAI_DEFAULT, OPENAI_MODELS, ModelCaps, accepted, family_row

DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAIProvider(HttpProvider):
    """``POST {base_url}/chat/completions`` with the SPEC prompt as two messages."""

    name = "openai"

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        super().__init__(setting, chat_url(setting), headers)
        self.capabilities = resolved_caps(setting)

    def body(self, request: CellRequest) -> dict[str, Any]:
        return request_body(self.setting, request.messages)

    def parse(self, content: bytes) -> Attempt:
        return parse_completion(content)

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        return classify_response(status, headers, content)

    def stream_body(self, body: dict[str, Any]) -> dict[str, Any]:
        """``stream: true`` and ``stream_options.include_usage`` (the usage then comes in the last chunk)."""
        return {**body, "stream": True, "stream_options": {"include_usage": True}}

    def parse_events(self, events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
        return with_request_id(parse_chunks(events), headers)


def chat_url(setting: Setting) -> str:
    return setting.endpoint_root.rstrip("/") + "/chat/completions"


def request_body(setting: Setting, messages: Messages) -> dict[str, Any]:
    """The JSON request for one cell: model, its messages (the SPEC prompt), then the setting's fields.

    The effort the model takes (``effort_sent``) goes in ``reasoning_field``;
    temperature and top-p only when set and sent (``sampling_sent``);
    ``extra_body`` is merged last and wins.
    """
    caps = model_row(setting)
    body: dict[str, Any] = {"model": setting.model, "messages": [dict(m) for m in messages]}
    effort = effort_sent(setting, caps)
    if effort is not None and setting.reasoning_field:
        body[setting.reasoning_field] = effort
    tokens = output_tokens(setting, caps)
    if tokens is not None:
        body[setting.max_tokens_field] = tokens
    body.update(sampling_sent(setting, caps, effort))
    body.update(setting.extra_body)
    return body


# -- model capabilities ----------------------------------------------------------------------------------
# Computed from the setting alone (the table row and the setting's overrides): ``run --plan`` and the response
# cache build the same body offline. OpenAI's models endpoint says nothing of what a model accepts, so nothing
# is looked up online.

SAMPLING_KEYS = ("temperature", "top_p")
SAMPLING_DEFAULT = 1.0
"""The only ``temperature``/``top_p`` a reasoning model takes (its default)."""


def model_row(setting: Setting) -> ModelCaps:
    """The setting's row of the OpenAI table (the default row for a model no family names)."""
    return family_row(OPENAI_MODELS, setting.model, OPENAI_DEFAULT)


def effort_sent(setting: Setting, caps: ModelCaps) -> str | None:
    """The effort value sent for the setting (``None``: no effort field); ``ValueError`` naming the values the
    model takes when ``reasoning`` has no form for it (see the module doc)."""
    if setting.effort is not None:
        return setting.effort
    if setting.reasoning == "off":
        if not caps.thinking or caps.off == "omit":
            return None
        if caps.off is None:
            raise ValueError(
                f"model {setting.model!r} cannot turn reasoning off (it takes reasoning effort "
                f"{accepted(caps.efforts)}); set reasoning to {_choices(caps)}, or effort to the value to send"
            )
        return caps.off
    if not caps.thinking:
        raise ValueError(
            f"model {setting.model!r} does not reason (no reasoning effort), so reasoning {setting.reasoning!r} "
            'cannot be sent; set reasoning = "off", or effort to the value to send'
        )
    if not caps.efforts or setting.reasoning in caps.efforts:
        return setting.reasoning
    raise ValueError(
        f"model {setting.model!r} takes reasoning effort {accepted(caps.efforts)}, not {setting.reasoning!r}; "
        f"set reasoning to {_choices(caps)}, or effort to the value to send"
    )


def _choices(caps: ModelCaps) -> str:
    """The ``reasoning`` values that map onto the model's efforts, for an error message."""
    values = [f"off (sent as {caps.off!r})"] if caps.off not in (None, "omit") else []
    values += [e for e in caps.efforts if e in ("minimal", "low", "medium", "high", "xhigh", "max")]
    return ", ".join(values) or "off"


def sampling_sent(setting: Setting, caps: ModelCaps, effort: str | None) -> dict[str, float]:
    """The ``temperature``/``top_p`` sent: with ``sampling = "auto"``, a value the model refuses (anything but
    the default on a reasoning model) is left out, and ``resolved_caps`` notes it (see the module doc)."""
    given = {k: v for k in SAMPLING_KEYS if (v := getattr(setting, k)) is not None}
    if setting.sampling == "drop":
        return {}
    if setting.sampling == "send" or caps.sampling == "send":
        return given
    if caps.sampling == "without-thinking" and effort == "none":
        return given
    return {k: v for k, v in given.items() if v == SAMPLING_DEFAULT}


def output_tokens(setting: Setting, caps: ModelCaps) -> int | None:
    """``max_output_tokens``, capped at the model's limit (``max_output_limit``, else the row's)."""
    limit = setting.max_output_limit or caps.max_output_tokens
    if setting.max_output_tokens is None or limit is None:
        return setting.max_output_tokens
    return min(setting.max_output_tokens, limit)


def resolved_caps(setting: Setting) -> ModelCaps:
    """The setting's ``ModelCaps`` with its overrides and what the provider decided, in ``notes``."""
    caps = model_row(setting)
    if setting.max_output_limit is not None:
        caps = replace(caps, max_output_tokens=setting.max_output_limit).noting(
            f"max_output_limit {setting.max_output_limit} set in the setting"
        )
    effort = effort_sent(setting, caps)
    if setting.effort is not None:
        caps = caps.noting(f"effort {setting.effort!r} sent as set (not checked against the table)")
    elif setting.reasoning == "off" and effort not in (None, "none"):
        caps = caps.noting(f"cannot turn reasoning off; sent {effort}")
    elif setting.reasoning == "off" and effort == "none":
        caps = caps.noting("reasoning 'off' sent as effort 'none'")
    given = [k for k in SAMPLING_KEYS if getattr(setting, k) is not None]
    sent = sampling_sent(setting, caps, effort)
    dropped = [k for k in given if k not in sent]
    if dropped:
        why = "the model refuses them" if setting.sampling == "auto" else "sampling = 'drop'"
        caps = caps.noting(f"{' and '.join(dropped)} not sent ({why}; sampling = 'send' sends them anyway)")
    tokens = output_tokens(setting, caps)
    if tokens is not None and tokens != setting.max_output_tokens:
        caps = caps.noting(f"max_output_tokens {setting.max_output_tokens} capped at the model's {tokens}")
    return caps


def check_model(setting: Setting) -> None:
    """Refuse, at load, a setting whose ``reasoning`` or sampling keys the model would refuse on every request."""
    caps = model_row(setting)
    sampling_sent(setting, caps, effort_sent(setting, caps))


def _check(setting: Setting) -> None:
    try:
        check_model(setting)
    except ValueError as exc:
        raise ValueError(f"provider {setting.provider!r}: {exc}") from None


# -- answers ---------------------------------------------------------------------------------------------

ACCOUNT_CODES = frozenset({"insufficient_quota", "billing_hard_limit_reached", "unsupported_country_region_territory"})
"""``error.code``/``type`` values that no retry can fix: the account must change (docs/run.md, "Account errors")."""
UNVERIFIED = "organization must be verified"
"""The start of the 400 an unverified organization gets for a reasoning summary or a stream of some models."""


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one chat-completions HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``)."""
    if status != 200:
        return error_attempt(status, headers, content)
    return with_request_id(parse_completion(content), headers)


def with_request_id(attempt: Attempt, headers: Mapping[str, str]) -> Attempt:
    """The attempt with OpenAI's ``x-request-id`` header (``None`` when absent)."""
    request_id = headers.get("x-request-id")
    return replace(attempt, request_id=request_id) if request_id else attempt


def error_attempt(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """A non-200 answer: the shared status table, the error naming OpenAI's ``type``, ``code``, ``param`` and
    ``message``; an account error (``is_account_error``) stops the setting, never retried."""
    attempt = status_attempt(status, headers, content)
    try:
        error = json.loads(content).get("error")
    except (ValueError, AttributeError):
        error = None
    if not isinstance(error, dict):
        return attempt
    attempt = replace(attempt, error=f"HTTP {status}: {error_detail(error)}")
    if is_account_error(status, error):
        return replace(attempt, kind="abort", retry_after_s=None)
    return attempt


def is_account_error(status: int, error: Mapping[str, Any]) -> bool:
    """An error no cell can get past until the account changes: a spent quota or billing limit, a refused
    region, a refused or revoked key (401/403), an unverified organization asking for what needs verifying."""
    codes = {error.get("code"), error.get("type")}
    if status in (401, 403) or codes & ACCOUNT_CODES:
        return True
    return status == 400 and UNVERIFIED in str(error.get("message") or "").lower()


def error_detail(error: Mapping[str, Any]) -> str:
    """``type=..., code=..., param=...: message`` from an OpenAI error object (only the fields it has)."""
    labels = ", ".join(f"{k}={error[k]}" for k in ("type", "code", "param") if error.get(k) is not None)
    message = str(error.get("message") or "")[:SNIPPET]
    return f"{labels}: {message}" if labels else message or json.dumps(error)[:SNIPPET]


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
        served_model=_str_or_none(data.get("model")),
        service_tier=_str_or_none(data.get("service_tier")),
    )


def parse_chunks(events: list[SseEvent]) -> Attempt:
    """The ``Attempt`` of a whole chat-completions event stream: the ``chat.completion.chunk`` deltas joined
    (content, reasoning, the finish reason, the last chunk's usage), as the same record a whole answer gives.

    A stream that does not end with ``data: [DONE]``, or that carried no choice, is a ``retry`` (partial text
    is never recorded); an ``error`` object in the stream is classified as the HTTP error would be.
    """
    chunks = [e.json() for e in events]
    if not events or events[-1].data.strip() != "[DONE]":
        return Attempt("retry", error=f"stream ended without [DONE] after {len(events)} events")
    text: list[str] = []
    reasoning: list[str] = []
    finish: str | None = None
    usage: Any = None
    model = tier = None
    seen_choice = False
    for chunk in chunks:
        if not isinstance(chunk, dict):
            continue
        if isinstance(chunk.get("error"), dict):
            return _stream_error(chunk["error"])
        model = _str_or_none(chunk.get("model")) or model
        tier = _str_or_none(chunk.get("service_tier")) or tier
        usage = chunk.get("usage") or usage
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            seen_choice = True
            delta: dict[str, Any] = choice["delta"] if isinstance(choice.get("delta"), dict) else {}
            if isinstance(delta.get("content"), str):
                text.append(delta["content"])
            part = _reasoning_text(delta)
            if part is not None:
                reasoning.append(part)
            if isinstance(choice.get("finish_reason"), str):
                finish = choice["finish_reason"]
    if not seen_choice:
        return Attempt("retry", error=f"stream carried no choices ({len(events)} events)")
    return Attempt(
        "completed",
        text=unicode_text("".join(text)),
        reasoning=unicode_text("".join(reasoning)) if reasoning else None,
        finish_reason=finish,
        usage=parse_usage(usage),
        served_model=model,
        service_tier=tier,
    )


def _stream_error(error: dict[str, Any]) -> Attempt:
    """An error object sent inside a 200 stream: an account error stops the setting, any other is retried
    (the vendor failed mid-answer)."""
    detail = f"error in the stream: {error_detail(error)}"
    return Attempt("abort" if is_account_error(0, error) else "retry", error=detail)


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


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
    """Check that the endpoint answers HTTP at all (``GET {base_url}/models``); see ``_http.reachable``.

    A 401/403 raises ``SettingsError`` quoting OpenAI's error (a wrong or revoked key, a refused region), so
    the setting is refused before its first cell with the vendor's reason.
    """
    url = setting.endpoint_root.rstrip("/") + "/models"
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    status, content = await preflight_get(setting, url, headers)
    if status not in (401, 403):
        return
    attempt = error_attempt(status, {}, content)
    if status == 401:
        fix = f"check the key in {setting.api_key_env or '(no api_key_env set)'}"
        raise SettingsError(f"setting {setting.name!r}: {url} refused the API key ({attempt.error}); {fix}")
    raise SettingsError(
        f"setting {setting.name!r}: {url} refused the request ({attempt.error}); the key's account, project or "
        f"region is not allowed: check the key in {setting.api_key_env or '(no api_key_env set)'} and where the "
        "request comes from"
    )


async def _open(setting: Setting) -> Opened:
    key = setting.api_key()
    await preflight(setting, key)
    return OpenAIProvider(setting, key), [key] if key else []


def _request(setting: Setting, messages: Messages, sample: int) -> WireRequest:
    return WireRequest(chat_url(setting), request_body(setting, messages))


ENTRY = ProviderEntry(  # registered with its batch form, OPENAI_BATCH, by openai_batch.OPENAI_ENTRY
    name="openai",
    open=_open,
    needs=("model",),
    default_base_url=DEFAULT_BASE_URL,
    request=_request,
    check=_check,
    description="any OpenAI-compatible /chat/completions endpoint",
)
