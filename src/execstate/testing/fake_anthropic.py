"""A loopback fake of Anthropic's Messages API: ``POST /v1/messages``, ``GET /v1/models`` and
``GET /v1/models/{id}``.

Every messages request is checked as the API documents it before it is
answered: ``x-api-key`` equal to the fake's key (else 401
``authentication_error``), an ``anthropic-version`` header, a JSON body with
``model``, an integer ``max_tokens``, ``messages`` as a list of
``{role, content}``, ``system`` a string or text blocks, ``thinking`` with
``1024 <= budget_tokens < max_tokens``, no ``temperature``/``top_k`` beside
thinking (``top_p`` only within 0.95-1), no unknown top-level keys. A
violation answers 400 ``invalid_request_error``; every error uses the
vendor's shape ``{"type": "error", "error": {"type", "message"}, "request_id"}``.

A model of the fake's table (``FAKE_MODELS``: thinking forms, effort values,
sampling rule, output cap) is also held to what it accepts, as the API does:
``enabled`` thinking to an adaptive-only model, ``adaptive`` to an older one,
an effort the model lacks, ``temperature`` with ``top_p`` where only one is
taken, any sampling key where none is, ``max_tokens`` above the cap. A model
not in the table is answered without those checks. ``GET /v1/models/{id}``
answers the Models API's ``ModelInfo`` (with ``capabilities`` where the row
says so), 404 ``not_found_error`` for another id.

Account errors for chosen keys (``accounts``): ``credit`` answers every
message with the 400 "credit balance is too low", ``billing`` with 402
``billing_error``, ``permission`` with 403 ``permission_error``, ``revoked``
with 401 ``authentication_error`` on every route.

A valid request gets a Messages response (``id``, ``type: "message"``,
``role``, ``model`` (the row's dated snapshot id), a ``thinking`` block with a
``signature`` when thinking is on (its text empty when the display is
``omitted``), then a ``text`` block, ``stop_reason``, ``stop_sequence`` and
``usage`` with ``service_tier``) and a ``request-id`` header; with
``"stream": true`` the same message as server-sent events (``message_start``,
``content_block_start``/``_delta``/``_stop``, ``message_delta``,
``message_stop``, a ``ping``), unless the ``script`` says otherwise::

    def script(body, n):            # n: 0-based index of the valid messages request
        if n == 0:
            return rate_limited(retry_after=1)  # or overloaded(), error_reply(...), any web.Response
        return Turn(stop_reason="max_tokens")   # or None for the default answer;
                                                # Turn(cut=True) ends a stream before message_stop
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from aiohttp import web

from execstate.testing.vendor import Answer, VendorServer, default_answer, json_reply

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
"""The HTTP status of each documented ``error.type``."""

REQUEST_KEYS = frozenset(
    {
        "model",
        "messages",
        "max_tokens",
        "system",
        "metadata",
        "stop_sequences",
        "stream",
        "temperature",
        "top_k",
        "top_p",
        "thinking",
        "tools",
        "tool_choice",
        "service_tier",
        "container",
        "cache_control",
        "inference_geo",
        "output_config",
    }
)
"""Top-level request keys the API accepts; any other is refused (``Extra inputs are not permitted``)."""

MIN_BUDGET = 1024


@dataclass(frozen=True)
class Turn:
    """How the fake answers one valid request, where it differs from the default."""

    stop_reason: str = "end_turn"
    text: str | None = None
    """The text block's text; ``None``: ``answer(body)``."""
    thinking: str | None = None
    """The thinking block's text when thinking is enabled; ``None``: ``FakeAnthropic.thinking_text``."""
    usage: dict[str, Any] | None = None
    """The whole ``usage`` object; ``None``: counts derived from the request and the answer."""
    cut: bool = False
    """A streamed answer ends after its first text delta, without ``message_stop`` (a broken stream)."""
    stream_error: str | None = None
    """A streamed answer sends an ``error`` event of this ``error.type`` after its first text delta."""


@dataclass(frozen=True)
class FakeModel:
    """What one model of the fake accepts, and how it names itself."""

    id: str
    served: str
    """The dated snapshot id the answers name in ``model``."""
    display_name: str
    thinking: tuple[str, ...] = ("enabled",)
    """``thinking.type`` values accepted besides ``disabled``."""
    efforts: tuple[str, ...] = ()
    """``output_config.effort`` values accepted (none: an effort is refused)."""
    sampling: str = "send"
    """``send``: temperature and top_p; ``one``: not both; ``none``: neither."""
    max_tokens: int = 64_000
    capabilities: bool = True
    """``GET /v1/models/{id}`` lists ``capabilities`` (else only the id, names and ``max_tokens``)."""


FAKE_MODELS: dict[str, FakeModel] = {
    m.id: m
    for m in (
        FakeModel(
            "claude-opus-4-7",
            "claude-opus-4-7-20260416",
            "Claude Opus 4.7",
            ("adaptive",),
            ("low", "medium", "high", "xhigh", "max"),
            "none",
            128_000,
        ),
        FakeModel(
            "claude-opus-4-6",
            "claude-opus-4-6-20260205",
            "Claude Opus 4.6",
            ("adaptive", "enabled"),
            ("low", "medium", "high", "max"),
            "one",
            128_000,
        ),
        FakeModel("claude-sonnet-4-5", "claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", sampling="one"),
        FakeModel("claude-haiku-4-5", "claude-haiku-4-5-20251001", "Claude Haiku 4.5", sampling="one"),
        FakeModel("claude-opus-4-1", "claude-opus-4-1-20250805", "Claude Opus 4.1", sampling="one", max_tokens=32_000),
        FakeModel("claude-sonnet-4", "claude-sonnet-4-20250514", "Claude Sonnet 4", capabilities=False),
    )
}
"""The fake's model table (aliases served as dated snapshots, as the API names them in answers)."""

ACCOUNT_REPLIES: dict[str, tuple[str, str]] = {
    "credit": (
        "invalid_request_error",
        "Your credit balance is too low to access the Anthropic API. "
        "Please go to Plans & Billing to upgrade or purchase credits.",
    ),
    "billing": ("billing_error", "There is a billing issue with your account."),
    "permission": ("permission_error", "Your API key does not have permission to use the specified resource."),
    "revoked": ("authentication_error", "invalid x-api-key"),
}
"""The errors an account-problem key gets, by the kind named in ``FakeAnthropic(accounts=...)``."""


Script = Callable[[dict[str, Any], int], web.StreamResponse | Turn | None]
"""From a valid request body and its 0-based index to a reply, a ``Turn``, or ``None`` (the default)."""


def error_body(error_type: str, message: str, request_id: str = "req_fake") -> dict[str, Any]:
    """An error body in Anthropic's shape."""
    return {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id}


def error_reply(error_type: str, message: str | None = None, headers: dict[str, str] | None = None) -> web.Response:
    """The error response of ``error_type`` with its documented status (``ERROR_STATUS``)."""
    status = ERROR_STATUS.get(error_type, 500)
    return json_reply(error_body(error_type, message or error_type.replace("_", " ")), status, headers)


def rate_limited(retry_after: float = 1.0) -> web.Response:
    """429 ``rate_limit_error`` with a ``retry-after`` header (seconds)."""
    return error_reply(
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
        {"retry-after": f"{retry_after:g}"},
    )


def overloaded() -> web.Response:
    """529 ``overloaded_error``, as the API sends when it is short of capacity."""
    return error_reply("overloaded_error", "Overloaded")


class FakeAnthropic(VendorServer):
    """``with FakeAnthropic(key="k") as fake:`` serves the Messages API at ``fake.url``."""

    thinking_text = "Let me trace the program step by step."

    def __init__(
        self,
        *,
        key: str = "sk-ant-test",
        answer: Answer = default_answer,
        script: Script | None = None,
        models: tuple[str, ...] = ("claude-test",),
        table: Mapping[str, FakeModel] | None = None,
        accounts: Mapping[str, str] | None = None,
        service_tier: str | None = "standard",
    ) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.script = script
        self.table = dict(FAKE_MODELS if table is None else table)
        self.models = tuple(dict.fromkeys([*models, *self.table]))
        """The ids ``GET /v1/models`` lists; ``GET /v1/models/{id}`` answers these."""
        self.accounts = dict(accounts or {})
        """Further keys, each answered with the account error of its kind (``ACCOUNT_REPLIES``)."""
        self.service_tier = service_tier
        self._answered = 0

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._list_models)
        app.router.add_get("/v1/models/{model_id}", self._get_model)

    def _refused_headers(self, request: web.Request) -> web.Response | None:
        key = request.headers.get("x-api-key")
        if key is None:
            return error_reply("authentication_error", "x-api-key header is required")
        if self.accounts.get(key) == "revoked":
            return error_reply(*ACCOUNT_REPLIES["revoked"])
        if key != self.key and key not in self.accounts:
            return error_reply("authentication_error", "invalid x-api-key")
        if not request.headers.get("anthropic-version"):
            return error_reply("invalid_request_error", "anthropic-version: header is required")
        return None

    async def _list_models(self, request: web.Request) -> web.Response:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        data = [self.model_info(m) for m in self.models]
        return json_reply({"data": data, "has_more": False, "first_id": self.models[0], "last_id": self.models[-1]})

    async def _get_model(self, request: web.Request) -> web.Response:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        model_id = request.match_info["model_id"]
        if model_id not in self.models:
            return error_reply("not_found_error", f"model: {model_id}")
        return json_reply(self.model_info(model_id))

    def model_info(self, model_id: str) -> dict[str, Any]:
        """The Models API's ``ModelInfo`` of one listed id (``capabilities`` from its table row, if any)."""
        row = self.table.get(model_id)
        info: dict[str, Any] = {
            "type": "model",
            "id": row.served if row else model_id,
            "display_name": row.display_name if row else model_id,
            "created_at": "2025-01-01T00:00:00Z",
            "max_input_tokens": 200_000 if row else None,
            "max_tokens": row.max_tokens if row else None,
            "capabilities": _capabilities(row) if row and row.capabilities else None,
        }
        return info

    async def checked_body(
        self, request: web.Request, problem_of: Callable[[Any], str | None]
    ) -> Any | web.StreamResponse:
        """The request's JSON body, or the vendor's error reply: headers refused, not JSON, or ``problem_of`` it."""
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        if request.content_type != "application/json":
            return error_reply(
                "invalid_request_error", f"content-type {request.content_type!r}: expected application/json"
            )
        try:
            body = json.loads(await request.read())
        except ValueError:
            return error_reply("invalid_request_error", "request body is not valid JSON")
        problem = problem_of(body)
        if problem is not None:
            return error_reply("invalid_request_error", problem)
        return body

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        body = await self.checked_body(request, lambda b: request_problem(b) or model_problem(b, self.table))
        if isinstance(body, web.StreamResponse):
            return body
        account = self.accounts.get(request.headers.get("x-api-key", ""))
        if account is not None:
            return error_reply(*ACCOUNT_REPLIES[account])
        n = self._answered
        self._answered += 1
        action = self.script(body, n) if self.script is not None else None
        if isinstance(action, web.StreamResponse):
            return action
        turn = action or Turn()
        message = self.message(body, n, turn)
        headers = {"request-id": f"req_fake{n:06d}"}
        if body.get("stream"):
            return await _stream(request, message, turn, headers)
        return json_reply(message, headers=headers)

    def message(self, body: dict[str, Any], n: int, turn: Turn) -> dict[str, Any]:
        """The Messages response object for a valid request."""
        text = turn.text if turn.text is not None else self.answer(body)
        content: list[dict[str, Any]] = []
        thinking = body.get("thinking")
        if isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive"):
            thought = turn.thinking if turn.thinking is not None else self.thinking_text
            # Adaptive thinking's display defaults to omitted on the newest models: the text is returned empty.
            default = "omitted" if thinking["type"] == "adaptive" else "summarized"
            if thinking.get("display", default) == "omitted":
                thought = ""
            content.append({"type": "thinking", "thinking": thought, "signature": f"sig-fake-{n}"})
        content.append({"type": "text", "text": text})
        usage = turn.usage
        if usage is None:
            prompt = json.dumps(body.get("system", "")) + json.dumps(body["messages"])
            written = "".join(b.get("thinking", "") + b.get("text", "") for b in content)
            usage = {
                "input_tokens": _tokens(prompt),
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": _tokens(written),
            }
            if self.service_tier is not None:
                usage["service_tier"] = self.service_tier
        row = self.table.get(body["model"])
        return {
            "id": f"msg_fake{n:06d}",
            "type": "message",
            "role": "assistant",
            "model": row.served if row else body["model"],
            "content": content,
            "stop_reason": turn.stop_reason,
            "stop_sequence": None,
            "usage": usage,
        }


def _tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


def request_problem(body: Any) -> str | None:
    """Why the Messages API would refuse this body (400 ``invalid_request_error``), or ``None``."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    extra = sorted(set(body) - REQUEST_KEYS)
    if extra:
        return f"{extra[0]}: Extra inputs are not permitted"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: Field required"
    max_tokens = body.get("max_tokens")
    if not _is_int(max_tokens) or max_tokens < 0:
        return "max_tokens: Field required (an integer >= 0)"
    problem = _messages_problem(body.get("messages")) or _system_problem(body)
    if problem:
        return problem
    if "stream" in body and not isinstance(body["stream"], bool):
        return "stream: Input should be a valid boolean"
    for key in ("temperature", "top_p"):
        value = body.get(key)
        if key in body and (not _is_number(value) or not 0 <= value <= 1):
            return f"{key}: must be a number between 0 and 1"
    return _thinking_problem(body, max_tokens)


def _messages_problem(messages: Any) -> str | None:
    if not isinstance(messages, list) or not messages:
        return "messages: Field required (a non-empty list)"
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or set(message) - {"role", "content"}:
            return f"messages.{i}: each message is an object with role and content"
        if message.get("role") not in ("user", "assistant"):
            return f"messages.{i}.role: Input should be 'user' or 'assistant'"
        content = message.get("content")
        if not isinstance(content, str) and not (
            isinstance(content, list) and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in content)
        ):
            return f"messages.{i}.content: a string or a list of content blocks"
    return None


def _system_problem(body: dict[str, Any]) -> str | None:
    if "system" not in body:
        return None
    system = body["system"]
    if isinstance(system, str):
        return None
    if isinstance(system, list) and all(
        isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str) for b in system
    ):
        return None
    return "system: Input should be a valid string or a list of text blocks"


def _thinking_problem(body: dict[str, Any], max_tokens: int) -> str | None:
    if "thinking" not in body:
        return None
    thinking = body["thinking"]
    if not isinstance(thinking, dict) or thinking.get("type") not in ("enabled", "disabled", "adaptive"):
        return "thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'"
    if thinking.get("display", "summarized") not in ("summarized", "omitted") or (
        "display" in thinking and thinking["type"] == "disabled"
    ):
        return "thinking.display: Input should be 'summarized' or 'omitted'"
    if thinking["type"] == "adaptive":
        return _sampling_beside_thinking(body)
    if thinking["type"] != "enabled":
        return None
    budget = thinking.get("budget_tokens")
    if not _is_int(budget):
        return "thinking.enabled.budget_tokens: Field required"
    if budget < MIN_BUDGET:
        return f"thinking.enabled.budget_tokens: Input should be greater than or equal to {MIN_BUDGET}"
    if budget >= max_tokens:
        return "`max_tokens` must be greater than `thinking.budget_tokens`"
    return _sampling_beside_thinking(body)


def _sampling_beside_thinking(body: dict[str, Any]) -> str | None:
    for key in ("temperature", "top_k"):
        if key in body:
            return f"`{key}` is not compatible with thinking"
    if "top_p" in body and not 0.95 <= body["top_p"] <= 1:
        return "`top_p` must be between 0.95 and 1 when thinking is enabled"
    return None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


EFFORTS = ("low", "medium", "high", "xhigh", "max")


def model_problem(body: Any, table: Mapping[str, FakeModel]) -> str | None:
    """Why the API would refuse this (otherwise valid) body for its model, as a model of ``table``; ``None``
    for a model the table does not hold."""
    if not isinstance(body, dict):
        return None
    config = body.get("output_config")
    effort = config.get("effort") if isinstance(config, dict) else None
    if config is not None and (not isinstance(config, dict) or (effort is not None and effort not in EFFORTS)):
        return "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"
    row = table.get(str(body.get("model")))
    if row is None:
        return None
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if kind in ("enabled", "adaptive") and kind not in row.thinking:
        if kind == "enabled":
            return (
                f'"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
                f'"output_config.effort" to control thinking behavior. ({row.id})'
            )
        return f"adaptive thinking is not supported on this model ({row.id}); use thinking.type.enabled"
    if effort is not None and effort not in row.efforts:
        if not row.efforts:
            return f"This model does not support the effort parameter. ({row.id})"
        return f"output_config.effort: {effort!r} is not supported by this model ({row.id})"
    sampling = [k for k in ("temperature", "top_p", "top_k") if k in body]
    if row.sampling == "none" and sampling:
        return f"`{sampling[0]}` is deprecated for this model."
    if row.sampling == "one" and "temperature" in body and "top_p" in body:
        return "`temperature` and `top_p` cannot both be specified for this model. Please use only one."
    max_tokens = body.get("max_tokens")
    if _is_int(max_tokens) and max_tokens > row.max_tokens:
        return (
            f"max_tokens: {max_tokens} > {row.max_tokens}, which is the maximum allowed number of output "
            f"tokens for {row.served}"
        )
    return None


def _capabilities(row: FakeModel) -> dict[str, Any]:
    """The Models API's ``capabilities`` object of a table row (every known key present)."""

    def yes(flag: bool) -> dict[str, bool]:
        return {"supported": flag}

    return {
        "batch": yes(True),
        "citations": yes(True),
        "code_execution": yes(False),
        "context_management": {"supported": False},
        "effort": {"supported": bool(row.efforts), **{e: yes(e in row.efforts) for e in EFFORTS}},
        "image_input": yes(True),
        "pdf_input": yes(True),
        "server_tools": {"supported": False},
        "structured_outputs": yes(True),
        "thinking": {
            "supported": bool(row.thinking),
            "types": {
                "adaptive": yes("adaptive" in row.thinking),
                "enabled": yes("enabled" in row.thinking),
                "disabled": yes(True),
            },
        },
    }


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event as the API writes it: ``event:`` and ``data:`` lines, a blank line."""
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def stream_events(message: dict[str, Any], turn: Turn) -> list[bytes]:
    """A whole message as the Messages stream sends it (the text and thinking split in two deltas each);
    ``turn.cut`` stops after the first text delta, ``turn.stream_error`` sends an ``error`` event there."""
    usage = dict(message["usage"])
    start = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**usage, "output_tokens": 1},
    }
    events = [sse("message_start", {"type": "message_start", "message": start}), sse("ping", {"type": "ping"})]
    for i, block in enumerate(message["content"]):
        key = "text" if block["type"] == "text" else "thinking"
        empty = {**block, key: ""}
        if block["type"] == "thinking":
            empty["signature"] = ""
        events.append(sse("content_block_start", {"type": "content_block_start", "index": i, "content_block": empty}))
        text = block[key]
        for part in (text[: len(text) // 2], text[len(text) // 2 :]):
            delta = {"type": f"{key}_delta", key: part}
            events.append(sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}))
            if key == "text" and (turn.cut or turn.stream_error):
                if turn.stream_error:
                    error = {"type": "error", "error": {"type": turn.stream_error, "message": "stream failed"}}
                    events.append(sse("error", error))
                return events
        if block["type"] == "thinking":
            delta = {"type": "signature_delta", "signature": block["signature"]}
            events.append(sse("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}))
        events.append(sse("content_block_stop", {"type": "content_block_stop", "index": i}))
    final = {"output_tokens": usage["output_tokens"]}
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    events.append(sse("message_delta", {"type": "message_delta", "delta": delta, "usage": final}))
    events.append(sse("message_stop", {"type": "message_stop"}))
    return events


async def _stream(
    request: web.Request, message: dict[str, Any], turn: Turn, headers: dict[str, str]
) -> web.StreamResponse:
    response = web.StreamResponse(status=200, headers={**headers, "Cache-Control": "no-cache"})
    response.content_type = "text/event-stream"
    await response.prepare(request)
    for event in stream_events(message, turn):
        await response.write(event)
    await response.write_eof()
    return response
