"""A loopback fake of OpenAI's Responses API (``POST /v1/responses``, ``GET /v1/models``), for tests.

Point a setting at it with ``base_url = fake.url + "/v1"``. It checks each
request as OpenAI documents it and refuses, in OpenAI's error shape
(``{"error": {"message", "type", "param", "code"}}``), what OpenAI would refuse:
a wrong or missing Bearer key (401 ``invalid_api_key``), an unknown top-level
field such as ``messages`` or ``max_tokens`` (400 ``unknown_parameter``), a
missing ``model`` or ``input``, a reasoning effort or summary outside the
documented sets, a ``max_output_tokens`` that is not an integer. It answers a
Response object as OpenAI does: a ``reasoning`` item (with a summary when one
was asked for) when ``reasoning.effort`` is set, then the assistant ``message``
item, then ``usage``.

``script(body, seen)`` picks what to do with a valid request: ``body`` is its
JSON, ``seen`` how many identical bodies arrived before it (0 on the first
send, 1 on the first retry, ...). It returns ``None`` for the normal answer or
one of ``HttpError`` (``rate_limited``, ``server_error``, ``bad_request``,
``unauthorized`` make the usual ones), ``Incomplete``, ``Failed``, ``Refusal``,
``Garbage``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from execstate.testing.vendor import Answer, VendorServer, default_answer, json_reply

CREATE_FIELDS = frozenset(
    {
        "background",
        "conversation",
        "include",
        "input",
        "instructions",
        "max_output_tokens",
        "max_tool_calls",
        "metadata",
        "model",
        "parallel_tool_calls",
        "previous_response_id",
        "prompt",
        "prompt_cache_key",
        "prompt_cache_retention",
        "reasoning",
        "safety_identifier",
        "service_tier",
        "store",
        "stream",
        "stream_options",
        "temperature",
        "text",
        "tool_choice",
        "tools",
        "top_logprobs",
        "top_p",
        "truncation",
        "user",
    }
)
"""The top-level fields of a create-response request (openai-python ``ResponseCreateParams``)."""
EFFORTS = frozenset({"none", "minimal", "low", "medium", "high", "xhigh"})
SUMMARIES = frozenset({"auto", "concise", "detailed"})
REASONING_FIELDS = frozenset({"effort", "summary", "generate_summary"})
ROLES = frozenset({"user", "assistant", "system", "developer"})
REASONING_TOKENS = {"none": 0, "minimal": 4, "low": 16, "medium": 64, "high": 256, "xhigh": 512}
"""Hidden reasoning tokens the fake reports per effort (part of ``output_tokens``)."""


@dataclass(frozen=True)
class HttpError:
    """Answer ``status`` with an OpenAI error object (``headers`` e.g. ``retry-after-ms``)."""

    status: int
    message: str
    type: str
    code: str | None = None
    param: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


def rate_limited(retry_after_ms: int | None = None, retry_after: str | None = None) -> HttpError:
    """A 429 ``rate_limit_exceeded`` with OpenAI's ``retry-after-ms`` and/or ``retry-after`` headers."""
    headers = {}
    if retry_after_ms is not None:
        headers["retry-after-ms"] = str(retry_after_ms)
    if retry_after is not None:
        headers["retry-after"] = retry_after
    return HttpError(
        429, "Rate limit reached for requests per min (RPM).", "requests", "rate_limit_exceeded", headers=headers
    )


def insufficient_quota() -> HttpError:
    return HttpError(
        429,
        "You exceeded your current quota, please check your plan and billing details.",
        "insufficient_quota",
        "insufficient_quota",
    )


def server_error() -> HttpError:
    return HttpError(500, "The server had an error while processing your request. Sorry about that!", "server_error")


def bad_request(message: str = "Invalid request.", param: str | None = None, code: str | None = None) -> HttpError:
    return HttpError(400, message, "invalid_request_error", code, param)


def unauthorized() -> HttpError:
    return HttpError(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")


@dataclass(frozen=True)
class Incomplete:
    """``status: "incomplete"`` for ``reason``; ``text`` is the partial answer (``None``: no message item)."""

    reason: str = "max_output_tokens"
    text: str | None = '{"output": "'


@dataclass(frozen=True)
class Failed:
    """``status: "failed"`` with ``error: {code, message}`` and no output."""

    code: str = "server_error"
    message: str = "The model failed to generate a response."


@dataclass(frozen=True)
class Refusal:
    """A completed message whose content is a ``refusal`` part."""

    refusal: str = "I'm sorry, I can't help with that."


@dataclass(frozen=True)
class Garbage:
    """A 200 whose body is these raw bytes."""

    body: bytes = b"<html>upstream gateway</html>"


Action = HttpError | Incomplete | Failed | Refusal | Garbage
Script = Callable[[dict[str, Any], int], Action | None]


class FakeOpenAIResponses(VendorServer):
    """``with FakeOpenAIResponses(key="sk-test") as fake:``; ``fake.url + "/v1"`` is the base URL."""

    def __init__(
        self,
        key: str = "sk-test",
        answer: Answer = default_answer,
        script: Script | None = None,
        cached_tokens: int = 0,
        cache_write_tokens: int | None = None,
    ) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.script = script
        self.cached_tokens = cached_tokens
        self.cache_write_tokens = cache_write_tokens
        self._ids = itertools.count(1)
        self._bodies: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __enter__(self) -> FakeOpenAIResponses:
        self.start()
        return self

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/responses", self._create)
        app.router.add_get("/v1/models", self._models)

    def responses(self) -> list[dict[str, Any]]:
        """The JSON bodies of every ``POST /v1/responses`` received, in order."""
        return [r.json() for r in self.seen("POST", "/v1/responses")]

    # -- handlers ---------------------------------------------------------------------------------

    def _key_refused(self, request: web.Request) -> web.Response | None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return _error(
                HttpError(
                    401,
                    "You didn't provide an API key. You need to provide your API key in an Authorization header "
                    "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                    "invalid_request_error",
                )
            )
        if auth.removeprefix("Bearer ") != self.key:
            return _error(unauthorized())
        return None

    async def _models(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        return json_reply({"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}]})

    async def _create(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        raw = await request.read()
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _error(bad_request("We could not parse the JSON body of your request."))
        problem = _check_body(body)
        if problem is not None:
            return _error(problem)
        with self._lock:
            key = json.dumps(body, sort_keys=True)
            seen = self._bodies[key]
            self._bodies[key] += 1
        action = self.script(body, seen) if self.script is not None else None
        if isinstance(action, HttpError):
            return _error(action)
        if isinstance(action, Garbage):
            return web.Response(status=200, body=action.body, content_type="application/json")
        return json_reply(self._response(body, action))

    # -- the Response object ----------------------------------------------------------------------

    def _response(self, body: dict[str, Any], action: Action | None) -> dict[str, Any]:
        n = next(self._ids)
        asked = body.get("reasoning")
        reasoning: dict[str, Any] = asked if isinstance(asked, dict) else {}
        effort = reasoning.get("effort")
        summary = reasoning.get("summary") or reasoning.get("generate_summary")
        answer = self.answer(body)
        output: list[dict[str, Any]] = []
        if effort is not None and not isinstance(action, Failed):
            texts = [{"type": "summary_text", "text": f"**Tracing the program**\n\nReasoned at {effort} effort."}]
            output.append({"id": f"rs_{n:08x}", "type": "reasoning", "summary": texts if summary else []})
        status, incomplete, error = "completed", None, None
        content: list[dict[str, Any]] | None = [{"type": "output_text", "text": answer, "annotations": []}]
        if isinstance(action, Incomplete):
            status, incomplete = "incomplete", {"reason": action.reason}
            content = None if action.text is None else [{"type": "output_text", "text": action.text, "annotations": []}]
        elif isinstance(action, Refusal):
            content = [{"type": "refusal", "refusal": action.refusal}]
        elif isinstance(action, Failed):
            status, error, content = "failed", {"code": action.code, "message": action.message}, None
        if content is not None:
            output.append(
                {"id": f"msg_{n:08x}", "type": "message", "role": "assistant", "status": status, "content": content}
            )
        reasoning_tokens = REASONING_TOKENS.get(effort, 0) if isinstance(effort, str) else 0
        visible = sum(len(str(p.get("text", p.get("refusal", ""))).split()) for p in content or [])
        input_tokens = len(str(body.get("instructions") or "").split()) + len(json.dumps(body["input"]).split())
        input_details: dict[str, int] = {"cached_tokens": self.cached_tokens}
        if self.cache_write_tokens is not None:
            input_details["cache_write_tokens"] = self.cache_write_tokens
        usage = {
            "input_tokens": input_tokens,
            "input_tokens_details": input_details,
            "output_tokens": visible + reasoning_tokens,
            "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
            "total_tokens": input_tokens + visible + reasoning_tokens,
        }
        return {
            "id": f"resp_{n:08x}",
            "object": "response",
            "created_at": 1_750_000_000 + n,
            "status": status,
            "error": error,
            "incomplete_details": incomplete,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "model": body["model"],
            "output": output,
            "parallel_tool_calls": True,
            "previous_response_id": None,
            "reasoning": {"effort": effort, "summary": summary},
            "store": body.get("store", True),
            "temperature": body.get("temperature", 1.0),
            "text": {"format": {"type": "text"}},
            "tool_choice": "auto",
            "tools": [],
            "top_p": body.get("top_p", 1.0),
            "truncation": "disabled",
            "usage": None if status == "failed" else usage,
            "metadata": {},
        }


def _check_body(body: dict[str, Any]) -> HttpError | None:
    """The first thing OpenAI would refuse in a create-response body, or ``None``."""
    for name in body:
        if name not in CREATE_FIELDS:
            return bad_request(f"Unknown parameter: '{name}'.", name, "unknown_parameter")
    for name in ("model", "input"):
        if name not in body:
            return bad_request(f"Missing required parameter: '{name}'.", name, "missing_required_parameter")
    if not isinstance(body["model"], str) or not body["model"]:
        return bad_request("Invalid type for 'model': expected a string.", "model", "invalid_type")
    problem = _check_input(body["input"])
    if problem is not None:
        return problem
    if "instructions" in body and not isinstance(body["instructions"], (str, type(None))):
        return bad_request("Invalid type for 'instructions': expected a string.", "instructions", "invalid_type")
    tokens = body.get("max_output_tokens")
    if tokens is not None and (not isinstance(tokens, int) or isinstance(tokens, bool)):
        return bad_request(
            "Invalid type for 'max_output_tokens': expected an integer.", "max_output_tokens", "invalid_type"
        )
    if isinstance(tokens, int) and tokens < 16:
        return bad_request(
            f"Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got {tokens} "
            "instead.",
            "max_output_tokens",
            "integer_below_min_value",
        )
    for name, high in (("temperature", 2.0), ("top_p", 1.0)):
        value = body.get(name)
        if value is not None and (
            not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= high
        ):
            return bad_request(f"Invalid '{name}': expected a number between 0 and {high:g}.", name, "invalid_value")
    if "store" in body and not isinstance(body["store"], bool):
        return bad_request("Invalid type for 'store': expected a boolean.", "store", "invalid_type")
    if "reasoning" in body:
        return _check_reasoning(body["reasoning"])
    return None


def _check_input(value: Any) -> HttpError | None:
    if isinstance(value, str):
        return None
    if not isinstance(value, list) or not value:
        return bad_request("Invalid 'input': expected a string or a non-empty array of items.", "input")
    for i, item in enumerate(value):
        if not isinstance(item, dict) or item.get("role") not in ROLES:
            return bad_request(
                f"Invalid value for 'input[{i}].role': expected one of 'user', 'assistant', 'system', 'developer'.",
                f"input[{i}].role",
                "invalid_value",
            )
        if item.get("type", "message") != "message" or not isinstance(item.get("content"), (str, list)):
            return bad_request(f"Invalid 'input[{i}].content': expected a string or an array.", f"input[{i}].content")
    return None


def _check_reasoning(value: Any) -> HttpError | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        return bad_request("Invalid type for 'reasoning': expected an object.", "reasoning", "invalid_type")
    for name in value:
        if name not in REASONING_FIELDS:
            return bad_request(f"Unknown parameter: 'reasoning.{name}'.", f"reasoning.{name}", "unknown_parameter")
    effort = value.get("effort")
    if effort is not None and effort not in EFFORTS:
        return bad_request(
            f"Invalid value: '{effort}'. Supported values are: {', '.join(repr(e) for e in sorted(EFFORTS))}.",
            "reasoning.effort",
            "invalid_value",
        )
    summary = value.get("summary")
    if summary is not None and summary not in SUMMARIES:
        return bad_request(
            f"Invalid value: '{summary}'. Supported values are: 'auto', 'concise' and 'detailed'.",
            "reasoning.summary",
            "invalid_value",
        )
    return None


def _error(err: HttpError) -> web.Response:
    body = {"error": {"message": err.message, "type": err.type, "param": err.param, "code": err.code}}
    return json_reply(body, status=err.status, headers=err.headers or None)
