"""A loopback fake of OpenAI's Responses and Chat Completions APIs (``POST /v1/responses``,
``POST /v1/chat/completions``, ``GET /v1/models``), for tests.

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

It knows models (``FakeModel``, the table ``MODELS``): the efforts each takes
(a 400 ``unsupported_value`` naming the supported ones otherwise, as OpenAI
sends it), whether it reasons at all (``unsupported_parameter`` for an effort
sent to gpt-4.1), and its sampling rule (a reasoning model refuses a
``temperature``/``top_p`` other than 1; gpt-5.2 takes them only with effort
``none``). A model not in the table is answered without those checks. Every
answer names a dated snapshot (``model``), a ``service_tier`` and an
``x-request-id`` header.

Accounts: ``accounts`` maps further keys to what is wrong with them, answered
on every create as OpenAI does: ``"insufficient_quota"`` (429),
``"unverified"`` (400 ``organization must be verified`` when a reasoning
summary is asked for, or a stream of a model marked ``verified_stream``),
``"region"`` (403 ``unsupported_country_region_territory``) and ``"revoked"``
(401); ``GET /v1/models`` answers the first two normally.

``"stream": true`` is answered as server-sent events: Responses events
(``response.created``, ``response.output_text.delta``, ...,
``response.completed``/``incomplete``/``failed`` carrying the whole Response)
or chat chunks ending in ``data: [DONE]`` (usage in a last chunk when
``stream_options.include_usage``).

``script(body, seen)`` picks what to do with a valid request: ``body`` is its
JSON, ``seen`` how many identical bodies arrived before it (0 on the first
send, 1 on the first retry, ...). It returns ``None`` for the normal answer or
one of ``HttpError`` (``rate_limited``, ``server_error``, ``bad_request``,
``unauthorized``, ``region_refused``, ``unverified_organization`` make the
usual ones), ``Incomplete``, ``Failed``, ``Refusal``, ``Garbage``,
``BrokenStream``.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

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


def region_refused() -> HttpError:
    return HttpError(
        403, "Country, region, or territory not supported", "request_forbidden", "unsupported_country_region_territory"
    )


def unverified_organization(what: Literal["reasoning.summary", "stream"] = "reasoning.summary") -> HttpError:
    """The 400 an organization that is not verified gets for a reasoning summary or a stream of some models."""
    asked = "generate reasoning summaries" if what == "reasoning.summary" else "stream this model"
    return HttpError(
        400,
        f"Your organization must be verified to {asked}. Please go to: "
        "https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just "
        "verified, it can take up to 15 minutes for access to propagate.",
        "invalid_request_error",
        "unsupported_value",
        what,
    )


@dataclass(frozen=True)
class FakeModel:
    """What one model of the fake accepts."""

    snapshot: str
    """The dated snapshot named in every answer (``model``)."""
    efforts: tuple[str, ...] = ()
    """Reasoning efforts accepted; empty: the model does not reason (an effort is an unknown parameter)."""
    sampling: Literal["any", "default-only", "none-only"] = "any"
    """``temperature``/``top_p``: any value, only the default 1, or any value only with effort ``none``."""
    default_effort: str | None = None
    """The effort applied when none is sent."""
    verified_stream: bool = False
    """Streaming needs a verified organization (o3 and some GPT-5 models)."""


MODELS: dict[str, FakeModel] = {
    "gpt-5": FakeModel("gpt-5-2025-08-07", ("minimal", "low", "medium", "high"), "default-only", "medium"),
    "gpt-5-mini": FakeModel("gpt-5-mini-2025-08-07", ("minimal", "low", "medium", "high"), "default-only", "medium"),
    "gpt-5.1": FakeModel("gpt-5.1-2025-11-13", ("none", "low", "medium", "high"), "default-only", "none"),
    "gpt-5.2": FakeModel("gpt-5.2-2025-12-11", ("none", "low", "medium", "high", "xhigh"), "none-only", "none"),
    "o3": FakeModel("o3-2025-04-16", ("low", "medium", "high"), "default-only", "medium", verified_stream=True),
    "gpt-4.1": FakeModel("gpt-4.1-2025-04-14"),
}
"""The fake's models (``FakeOpenAIResponses(models=...)`` replaces them)."""

AccountProblem = Literal["insufficient_quota", "unverified", "region", "revoked"]


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


@dataclass(frozen=True)
class BrokenStream:
    """A streamed answer cut after ``events`` events: the connection is closed (``close``) or the stream ends
    cleanly without its final event (no ``response.completed``, no ``[DONE]``)."""

    events: int = 3
    close: bool = True


Action = HttpError | Incomplete | Failed | Refusal | Garbage | BrokenStream
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
        models: dict[str, FakeModel] | None = None,
        accounts: dict[str, AccountProblem] | None = None,
    ) -> None:
        super().__init__()
        self.key = key
        self.models = MODELS if models is None else models
        self.accounts = dict(accounts or {})
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
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)

    def responses(self) -> list[dict[str, Any]]:
        """The JSON bodies of every ``POST /v1/responses`` received, in order."""
        return [r.json() for r in self.seen("POST", "/v1/responses")]

    def chats(self) -> list[dict[str, Any]]:
        """The JSON bodies of every ``POST /v1/chat/completions`` received, in order."""
        return [r.json() for r in self.seen("POST", "/v1/chat/completions")]

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
        key = auth.removeprefix("Bearer ")
        problem = self.accounts.get(key)
        if (key != self.key and problem is None) or problem == "revoked":
            return _error(unauthorized())
        if problem == "region":
            return _error(region_refused())
        return None

    def _account_refuses(self, request: web.Request, body: dict[str, Any], summary: bool) -> HttpError | None:
        """What the key's account is refused on a create (a spent quota, an unverified organization)."""
        problem = self.accounts.get(request.headers.get("Authorization", "").removeprefix("Bearer "))
        if problem == "insufficient_quota":
            return insufficient_quota()
        if problem == "unverified":
            if summary:
                return unverified_organization("reasoning.summary")
            model = self.models.get(str(body.get("model")))
            if body.get("stream") and model is not None and model.verified_stream:
                return unverified_organization("stream")
        return None

    def _seen_before(self, body: dict[str, Any]) -> int:
        with self._lock:
            key = json.dumps(body, sort_keys=True)
            seen = self._bodies[key]
            self._bodies[key] += 1
        return seen

    def _snapshot(self, name: str) -> str:
        model = self.models.get(name)
        return model.snapshot if model is not None else f"{name}-2025-01-01"

    async def _models(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        return json_reply({"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}]})

    async def _create(self, request: web.Request) -> web.StreamResponse:
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
        problem = _check_body(body) or self._check_model(body, _effort(body.get("reasoning")))
        if problem is None:
            reasoning = body.get("reasoning")
            asked = reasoning if isinstance(reasoning, dict) else {}
            summary = bool(asked.get("summary") or asked.get("generate_summary"))
            problem = self._account_refuses(request, body, summary)
        if problem is not None:
            return _error(problem)
        action = self.script(body, self._seen_before(body)) if self.script is not None else None
        if isinstance(action, HttpError):
            return _error(action)
        if isinstance(action, Garbage):
            return web.Response(status=200, body=action.body, content_type="application/json")
        response = self._response(body, action)
        if body.get("stream"):
            return await self._stream(request, _response_events(response), action)
        return json_reply(response, headers=_request_id(response["id"]))

    def _check_model(self, body: dict[str, Any], effort: Any) -> HttpError | None:
        """What the model refuses: an effort it lacks (or any, for a model that does not reason), a
        ``temperature``/``top_p`` other than 1 on a reasoning model (gpt-5.2: unless the effort is none)."""
        name = str(body.get("model"))
        model = self.models.get(name)
        if model is None:
            return None
        param = "reasoning.effort" if "input" in body else "reasoning_effort"
        if effort is not None and not model.efforts:
            return bad_request(
                f"Unsupported parameter: '{param}' is not supported with this model.", param, "unsupported_parameter"
            )
        if effort is not None and effort not in model.efforts:
            supported = ", ".join(f"'{e}'" for e in model.efforts[:-1]) + f", and '{model.efforts[-1]}'"
            return bad_request(
                f"Unsupported value: '{effort}' is not supported with the '{name}' model. Supported values are: "
                f"{supported}.",
                param,
                "unsupported_value",
            )
        applied = effort if effort is not None else model.default_effort
        if model.sampling == "any" or (model.sampling == "none-only" and applied == "none"):
            return None
        for key in ("temperature", "top_p"):
            value = body.get(key)
            if value is not None and value != 1:
                return bad_request(
                    f"Unsupported value: '{key}' does not support {value} with this model. Only the default (1) "
                    "value is supported.",
                    key,
                    "unsupported_value",
                )
        return None

    async def _stream(self, request: web.Request, events: list[bytes], action: Action | None) -> web.StreamResponse:
        """Send ``events`` as a ``text/event-stream``; a ``BrokenStream`` cuts them short."""
        headers = {"Content-Type": "text/event-stream", "x-request-id": f"req_stream_{next(self._ids):08x}"}
        response = web.StreamResponse(status=200, headers=headers)
        await response.prepare(request)
        cut = action.events if isinstance(action, BrokenStream) else len(events)
        for event in events[:cut]:
            await response.write(event)
        if isinstance(action, BrokenStream) and action.close and request.transport is not None:
            request.transport.close()  # the connection dies mid-stream (a proxy dropping it)
            return response
        await response.write_eof()
        return response

    # -- the Response object ----------------------------------------------------------------------

    def _response(self, body: dict[str, Any], action: Action | None) -> dict[str, Any]:
        n = next(self._ids)
        asked = body.get("reasoning")
        reasoning: dict[str, Any] = asked if isinstance(asked, dict) else {}
        effort = reasoning.get("effort")
        summary = reasoning.get("summary") or reasoning.get("generate_summary")
        answer = self.answer(body)
        output: list[dict[str, Any]] = []
        if effort not in (None, "none") and not isinstance(action, Failed):
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
            "model": self._snapshot(str(body["model"])),
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
            "service_tier": _tier(body),
        }

    # -- chat completions -------------------------------------------------------------------------

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        try:
            body = json.loads(await request.read())
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _error(bad_request("We could not parse the JSON body of your request."))
        problem = _check_chat(body) or self._check_model(body, body.get("reasoning_effort"))
        problem = problem or self._account_refuses(request, body, False)
        if problem is not None:
            return _error(problem)
        action = self.script(body, self._seen_before(body)) if self.script is not None else None
        if isinstance(action, HttpError):
            return _error(action)
        if isinstance(action, Garbage):
            return web.Response(status=200, body=action.body, content_type="application/json")
        completion = self._completion(body, action)
        if body.get("stream"):
            options = body.get("stream_options")
            usage = isinstance(options, dict) and options.get("include_usage") is True
            return await self._stream(request, _chunk_events(completion, usage), action)
        return json_reply(completion, headers=_request_id(completion["id"]))

    def _completion(self, body: dict[str, Any], action: Action | None) -> dict[str, Any]:
        n = next(self._ids)
        effort = body.get("reasoning_effort")
        text, finish = self.answer(body), "stop"
        if isinstance(action, Incomplete):
            text, finish = action.text or "", "length" if action.reason == "max_output_tokens" else action.reason
        reasoning_tokens = REASONING_TOKENS.get(effort, 0) if isinstance(effort, str) else 0
        prompt = len(json.dumps(body["messages"]).split())
        visible = len(text.split())
        return {
            "id": f"chatcmpl-{n:08x}",
            "object": "chat.completion",
            "created": 1_750_000_000 + n,
            "model": self._snapshot(str(body["model"])),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "finish_reason": finish,
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": visible + reasoning_tokens,
                "total_tokens": prompt + visible + reasoning_tokens,
                "prompt_tokens_details": {"cached_tokens": self.cached_tokens},
                "completion_tokens_details": {"reasoning_tokens": reasoning_tokens},
            },
            "service_tier": _tier(body),
            "system_fingerprint": "fp_fake",
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


CHAT_FIELDS = frozenset(
    {
        "frequency_penalty",
        "logit_bias",
        "logprobs",
        "max_completion_tokens",
        "max_tokens",
        "messages",
        "metadata",
        "model",
        "n",
        "parallel_tool_calls",
        "presence_penalty",
        "prompt_cache_key",
        "reasoning_effort",
        "response_format",
        "safety_identifier",
        "seed",
        "service_tier",
        "stop",
        "store",
        "stream",
        "stream_options",
        "temperature",
        "tool_choice",
        "tools",
        "top_logprobs",
        "top_p",
        "user",
        "verbosity",
    }
)
"""The top-level fields of a chat-completions request (openai-python ``CompletionCreateParams``)."""


def _check_chat(body: dict[str, Any]) -> HttpError | None:
    """The first thing OpenAI would refuse in a chat-completions body, or ``None``."""
    for name in body:
        if name not in CHAT_FIELDS:
            return bad_request(f"Unrecognized request argument supplied: {name}", name, "unknown_parameter")
    for name in ("model", "messages"):
        if name not in body:
            return bad_request(f"Missing required parameter: '{name}'.", name, "missing_required_parameter")
    messages = body["messages"]
    if not isinstance(messages, list) or not messages:
        return bad_request("Invalid 'messages': empty array. Expected an array with minimum length 1.", "messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            return bad_request(f"Invalid value for 'messages[{i}].role'.", f"messages[{i}].role", "invalid_value")
    effort = body.get("reasoning_effort")
    if effort is not None and effort not in EFFORTS:
        return bad_request(f"Invalid value: '{effort}'.", "reasoning_effort", "invalid_value")
    if "stream_options" in body and not body.get("stream"):
        return bad_request(
            "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
            "stream_options",
            "invalid_value",
        )
    return None


def _effort(reasoning: Any) -> Any:
    return reasoning.get("effort") if isinstance(reasoning, dict) else None


def _tier(body: dict[str, Any]) -> str:
    """The tier that served the request: the one asked for, ``default`` for ``auto`` or none."""
    asked = body.get("service_tier")
    return asked if isinstance(asked, str) and asked not in ("auto", "") else "default"


def _request_id(response_id: str) -> dict[str, str]:
    return {"x-request-id": "req_" + response_id.split("_", 1)[-1].split("-", 1)[-1]}


def _sse(event: str | None, data: Any) -> bytes:
    head = f"event: {event}\n" if event else ""
    payload = data if isinstance(data, str) else json.dumps(data)
    return f"{head}data: {payload}\n\n".encode()


def _pieces(text: str, size: int = 4) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _response_events(response: dict[str, Any]) -> list[bytes]:
    """The server-sent events of a streamed Response, in OpenAI's order, the last carrying the whole object."""
    seq = itertools.count()
    pending = {**response, "status": "in_progress", "output": [], "usage": None}
    events = [
        _sse(kind, {"type": kind, "sequence_number": next(seq), "response": pending})
        for kind in ("response.created", "response.in_progress")
    ]
    for index, item in enumerate(response["output"]):
        kind = "response.output_item.added"
        added = {"type": kind, "output_index": index, "item": {**item, "content": []}}
        events.append(_sse(kind, {**added, "sequence_number": next(seq)}))
        if item.get("type") == "reasoning":
            for part in item.get("summary") or []:
                for delta in _pieces(part["text"]):
                    kind = "response.reasoning_summary_text.delta"
                    data = {"type": kind, "item_id": item["id"], "output_index": index, "summary_index": 0}
                    events.append(_sse(kind, {**data, "delta": delta, "sequence_number": next(seq)}))
        for part in item.get("content") or []:
            if part.get("type") == "output_text":
                for delta in _pieces(part["text"]):
                    kind = "response.output_text.delta"
                    data = {"type": kind, "item_id": item["id"], "output_index": index, "content_index": 0}
                    events.append(_sse(kind, {**data, "delta": delta, "sequence_number": next(seq)}))
        kind = "response.output_item.done"
        events.append(_sse(kind, {"type": kind, "output_index": index, "item": item, "sequence_number": next(seq)}))
    final = {"completed": "response.completed", "incomplete": "response.incomplete"}.get(
        response["status"], "response.failed"
    )
    events.append(_sse(final, {"type": final, "sequence_number": next(seq), "response": response}))
    return events


def _chunk_events(completion: dict[str, Any], usage: bool) -> list[bytes]:
    """The ``chat.completion.chunk`` events of a streamed completion, then the usage chunk (when asked) and
    ``[DONE]``."""
    base = {k: completion[k] for k in ("id", "created", "model", "service_tier", "system_fingerprint")}
    base["object"] = "chat.completion.chunk"
    choice = completion["choices"][0]
    events = [_sse(None, {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]})]
    for piece in _pieces(choice["message"]["content"] or ""):
        delta = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
        events.append(_sse(None, {**base, "choices": [delta]}))
    last = {"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}
    events.append(_sse(None, {**base, "choices": [last]}))
    if usage:
        events.append(_sse(None, {**base, "choices": [], "usage": completion["usage"]}))
    events.append(_sse(None, "[DONE]"))
    return events
