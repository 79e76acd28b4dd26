"""A loopback fake of Anthropic's Messages API: ``POST /v1/messages`` and ``GET /v1/models``.

Every messages request is checked as the API documents it before it is
answered: ``x-api-key`` equal to the fake's key (else 401
``authentication_error``), an ``anthropic-version`` header, a JSON body with
``model``, an integer ``max_tokens``, ``messages`` as a list of
``{role, content}``, ``system`` a string or text blocks, ``thinking`` with
``1024 <= budget_tokens < max_tokens``, no ``temperature``/``top_k`` beside
thinking (``top_p`` only within 0.95-1), no unknown top-level keys. A
violation answers 400 ``invalid_request_error``; every error uses the
vendor's shape ``{"type": "error", "error": {"type", "message"}, "request_id"}``.

A valid request gets a Messages response (``id``, ``type: "message"``,
``role``, ``model``, a ``thinking`` block with a ``signature`` when thinking
is enabled, then a ``text`` block, ``stop_reason``, ``stop_sequence`` and
``usage``), unless the ``script`` says otherwise::

    def script(body, n):            # n: 0-based index of the valid messages request
        if n == 0:
            return rate_limited(retry_after=1)  # or overloaded(), error_reply(...), any web.Response
        return Turn(stop_reason="max_tokens")   # or None for the default answer
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
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
    ) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.script = script
        self.models = models
        self._answered = 0

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._list_models)

    def _refused_headers(self, request: web.Request) -> web.Response | None:
        key = request.headers.get("x-api-key")
        if key is None:
            return error_reply("authentication_error", "x-api-key header is required")
        if key != self.key:
            return error_reply("authentication_error", "invalid x-api-key")
        if not request.headers.get("anthropic-version"):
            return error_reply("invalid_request_error", "anthropic-version: header is required")
        return None

    async def _list_models(self, request: web.Request) -> web.Response:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        data = [
            {"type": "model", "id": m, "display_name": m, "created_at": "2025-01-01T00:00:00Z"} for m in self.models
        ]
        return json_reply({"data": data, "has_more": False, "first_id": self.models[0], "last_id": self.models[-1]})

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
        body = await self.checked_body(request, request_problem)
        if isinstance(body, web.StreamResponse):
            return body
        n = self._answered
        self._answered += 1
        action = self.script(body, n) if self.script is not None else None
        if isinstance(action, web.StreamResponse):
            return action
        return json_reply(self.message(body, n, action or Turn()))

    def message(self, body: dict[str, Any], n: int, turn: Turn) -> dict[str, Any]:
        """The Messages response object for a valid request."""
        text = turn.text if turn.text is not None else self.answer(body)
        content: list[dict[str, Any]] = []
        thinking = body.get("thinking")
        if isinstance(thinking, dict) and thinking.get("type") == "enabled":
            thought = turn.thinking if turn.thinking is not None else self.thinking_text
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
        return {
            "id": f"msg_fake{n:06d}",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
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
    if body.get("stream"):
        return "stream: this fake does not stream"
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
    if thinking["type"] != "enabled":
        return None
    budget = thinking.get("budget_tokens")
    if not _is_int(budget):
        return "thinking.enabled.budget_tokens: Field required"
    if budget < MIN_BUDGET:
        return f"thinking.enabled.budget_tokens: Input should be greater than or equal to {MIN_BUDGET}"
    if budget >= max_tokens:
        return "`max_tokens` must be greater than `thinking.budget_tokens`"
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
