"""A loopback fake of Google's Gemini API (``generateContent``), checking requests as Google documents them.

Routes: ``POST /{version}/models/{model}:generateContent`` and
``GET /{version}/models`` for ``version`` in ``versions`` (``v1beta``, ``v1``).

Checks, each refused with Google's error shape
``{"error": {"code", "message", "status", "details"?}}``:

- ``x-goog-api-key``: missing -> 403 ``PERMISSION_DENIED``; not the fake's key -> 400
  ``INVALID_ARGUMENT`` with a ``google.rpc.ErrorInfo`` of reason ``API_KEY_INVALID`` (what the
  real API answers to a wrong key).
- the body is a JSON object whose top-level fields are ``GenerateContentRequest``'s, spelled
  camelCase (``REQUEST_FIELDS``); ``contents`` is a non-empty list of ``{role, parts}`` with role
  ``user``/``model`` and text parts; ``systemInstruction`` is ``{parts: [{text}]}``;
  ``generationConfig`` holds only ``GenerationConfig`` fields (camelCase, ``GENERATION_FIELDS``);
  ``thinkingConfig`` holds ``thinkingBudget`` (int) or ``thinkingLevel`` (one of the four
  levels, any case), never both, and ``includeThoughts`` (bool). Anything else -> 400
  ``INVALID_ARGUMENT`` naming the field. (The real API also takes snake_case names; the fake
  refuses them so a client is held to the documented spelling.)
- model capabilities, by name: ``thinkingBudget: 0`` to a ``*pro*`` 2.5 model -> 400 ("only
  works in thinking mode"); ``thinkingLevel`` to a model before Gemini 3 -> 400; any
  ``thinkingConfig`` to Gemini 1.x/2.0/Gemma -> 400.

Answers have the documented shape: ``candidates[0]`` with ``content.parts`` (a
``thought: true`` part first when thinking is on and ``includeThoughts`` is set),
``finishReason`` and ``index``; ``usageMetadata`` with ``promptTokenCount``,
``candidatesTokenCount``, ``thoughtsTokenCount`` (only when the model thought: Google omits
zero counts) and ``totalTokenCount``; ``modelVersion``; ``responseId``. Token counts are
``count_tokens`` of the texts (whitespace-separated words), so tests can predict them.

``script(index, body)`` (``index`` counts ``generateContent`` requests from 0) may return a
``Reply`` instead of the normal answer: the helpers ``rate_limited``, ``server_error``,
``bad_request``, ``permission_denied``, ``finish`` (``MAX_TOKENS``, ``SAFETY``, ...),
``prompt_blocked`` and ``garbage`` build the usual ones.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from execstate.testing.vendor import Answer, VendorServer, default_answer, json_reply

REQUEST_FIELDS = frozenset(
    {
        "model",
        "contents",
        "tools",
        "toolConfig",
        "safetySettings",
        "systemInstruction",
        "generationConfig",
        "cachedContent",
    }
)
"""The top-level fields of ``GenerateContentRequest``."""
GENERATION_FIELDS = frozenset(
    {
        "stopSequences",
        "responseMimeType",
        "responseSchema",
        "responseJsonSchema",
        "responseModalities",
        "candidateCount",
        "maxOutputTokens",
        "temperature",
        "topP",
        "topK",
        "seed",
        "presencePenalty",
        "frequencyPenalty",
        "responseLogprobs",
        "logprobs",
        "enableEnhancedCivicAnswers",
        "speechConfig",
        "thinkingConfig",
        "imageConfig",
        "mediaResolution",
    }
)
"""The fields of ``GenerationConfig``."""
THINKING_FIELDS = frozenset({"includeThoughts", "thinkingBudget", "thinkingLevel"})
LEVELS = frozenset({"MINIMAL", "LOW", "MEDIUM", "HIGH"})
DEFAULT_THOUGHT = "**Reading the program** It prints a marker; the output is that marker."


def count_tokens(text: str) -> int:
    """The fake's token count of a text: its whitespace-separated words."""
    return len(text.split())


@dataclass(frozen=True)
class Reply:
    """What the fake answers instead of the normal response.

    With ``status`` other than 200, or ``raw`` set, the reply is sent as is (``body`` as JSON, ``raw``
    as bytes). A 200 reply without ``raw`` is a normal generation whose candidate ends with
    ``finish_reason`` and holds ``text`` (``None``: the answer function's text; ``""``: no answer
    part), or, with ``blocked`` set, a prompt blocked before generation.
    """

    status: int = 200
    body: Any = None
    raw: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str = "STOP"
    text: str | None = None
    blocked: str | None = None


def google_error(code: int, status: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Google's error body."""
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details:
        error["details"] = details
    return {"error": error}


def rate_limited(retry_delay: str | None = "7s", retry_after: str | None = None) -> Reply:
    """429 ``RESOURCE_EXHAUSTED`` with a ``google.rpc.RetryInfo`` (and a ``Retry-After`` header if given)."""
    details: list[dict[str, Any]] = [
        {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_requests"}],
        }
    ]
    if retry_delay is not None:
        details.append({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": retry_delay})
    body = google_error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", details)
    return Reply(429, body, headers={"Retry-After": retry_after} if retry_after else {})


def server_error(code: int = 500) -> Reply:
    """500 ``INTERNAL``, 503 ``UNAVAILABLE`` or 504 ``DEADLINE_EXCEEDED``."""
    status, message = {
        503: ("UNAVAILABLE", "The model is overloaded. Please try again later."),
        504: ("DEADLINE_EXCEEDED", "Deadline expired before operation could complete."),
    }.get(code, ("INTERNAL", "An internal error has occurred."))
    return Reply(code, google_error(code, status, message))


def bad_request(message: str = "Request contains an invalid argument.", status: str = "INVALID_ARGUMENT") -> Reply:
    """400 ``INVALID_ARGUMENT`` (or ``FAILED_PRECONDITION``)."""
    return Reply(400, google_error(400, status, message))


def permission_denied() -> Reply:
    """403 ``PERMISSION_DENIED``."""
    return Reply(403, google_error(403, "PERMISSION_DENIED", "The caller does not have permission."))


def finish(reason: str, text: str | None = None) -> Reply:
    """A normal generation ending with ``reason`` (``MAX_TOKENS``, ``SAFETY``, ``RECITATION``, ...)."""
    return Reply(finish_reason=reason, text=text)


def prompt_blocked(reason: str = "SAFETY") -> Reply:
    """No candidates: the prompt was blocked (``promptFeedback.blockReason``)."""
    return Reply(blocked=reason)


def garbage() -> Reply:
    """A 200 whose body is not JSON."""
    return Reply(raw=b"<html>upstream hiccup</html>")


Script = Callable[[int, dict[str, Any]], Reply | None]


class RequestError(Exception):
    """A request the real API would refuse: carries the HTTP code, Google status and message."""

    def __init__(self, code: int, status: str, message: str, details: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.reply = json_reply(google_error(code, status, message, details), status=code)


class FakeGemini(VendorServer):
    """``with FakeGemini(key="k") as fake:`` serves on ``fake.url`` (the API root, no version path)."""

    def __init__(
        self,
        key: str = "gemini-test-key",
        answer: Answer = default_answer,
        script: Script | None = None,
        thought: str = DEFAULT_THOUGHT,
        versions: tuple[str, ...] = ("v1beta", "v1"),
    ) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.script = script
        self.thought = thought
        self.versions = versions
        self._count = 0
        self._lock = threading.Lock()

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/{version}/models", self._models)
        app.router.add_post("/{version}/models/{call}", self._generate)

    def _auth(self, request: web.Request) -> None:
        key = request.headers.get("x-goog-api-key")
        if not key:
            raise RequestError(
                403,
                "PERMISSION_DENIED",
                "Method doesn't allow unregistered callers (callers without established identity). "
                "Please use API Key or other form of API consumer identity to call this API.",
            )
        if key != self.key:
            raise RequestError(
                400,
                "INVALID_ARGUMENT",
                "API key not valid. Please pass a valid API key.",
                [
                    {
                        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                        "reason": "API_KEY_INVALID",
                        "domain": "googleapis.com",
                        "metadata": {"service": "generativelanguage.googleapis.com"},
                    }
                ],
            )

    def _version(self, request: web.Request) -> None:
        if request.match_info["version"] not in self.versions:
            raise RequestError(404, "NOT_FOUND", f"Unknown API version {request.match_info['version']!r}.")

    async def _models(self, request: web.Request) -> web.Response:
        try:
            self._version(request)
            self._auth(request)
        except RequestError as exc:
            return exc.reply
        return json_reply({"models": [{"name": "models/gemini-2.5-flash"}, {"name": "models/gemini-3-flash-preview"}]})

    async def _generate(self, request: web.Request) -> web.Response:
        model, _, method = request.match_info["call"].partition(":")
        try:
            self._version(request)
            if method != "generateContent":
                raise RequestError(404, "NOT_FOUND", f"Method {method!r} is not found for models/{model}.")
            self._auth(request)
            body = _json_body(await request.read())
            check_request(model, body)
        except RequestError as exc:
            return exc.reply
        with self._lock:
            index = self._count
            self._count += 1
        reply = self.script(index, body) if self.script is not None else None
        reply = reply or Reply()
        if reply.raw is not None:
            return web.Response(status=reply.status, body=reply.raw, headers=reply.headers)
        if reply.status != 200 or reply.body is not None:
            return json_reply(reply.body, status=reply.status, headers=reply.headers)
        return json_reply(self._response(model, body, reply, index))

    def _response(self, model: str, body: dict[str, Any], reply: Reply, index: int) -> dict[str, Any]:
        prompt = " ".join(_texts(body.get("systemInstruction")) + [t for c in body["contents"] for t in _texts(c)])
        meta: dict[str, Any] = {"promptTokenCount": count_tokens(prompt)}
        common = {"modelVersion": model, "responseId": f"fake-{index}"}
        if reply.blocked is not None:
            meta["totalTokenCount"] = meta["promptTokenCount"]
            feedback = {"blockReason": reply.blocked, "safetyRatings": _ratings(blocked=True)}
            return {"promptFeedback": feedback, "usageMetadata": meta, **common}
        thinking = (body.get("generationConfig") or {}).get("thinkingConfig") or {}
        thinks = _thinks(model, thinking)
        text = self.answer(body) if reply.text is None else reply.text
        if reply.finish_reason in ("SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII") and reply.text is None:
            text = ""  # a safety stop carries no answer
        parts: list[dict[str, Any]] = []
        if thinks and thinking.get("includeThoughts") is True:
            parts.append({"text": self.thought, "thought": True})
        if text:
            parts.append({"text": text})
        candidate: dict[str, Any] = {"content": {"role": "model"}, "finishReason": reply.finish_reason, "index": 0}
        if parts:
            candidate["content"]["parts"] = parts
        if reply.finish_reason == "SAFETY":
            candidate["safetyRatings"] = _ratings(blocked=True)
        if text:
            meta["candidatesTokenCount"] = count_tokens(text)
        if thinks:
            meta["thoughtsTokenCount"] = count_tokens(self.thought)
        meta["totalTokenCount"] = sum(
            meta.get(k, 0) for k in ("promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount")
        )
        return {"candidates": [candidate], "usageMetadata": meta, **common}


def _json_body(raw: bytes) -> dict[str, Any]:
    try:
        body = json.loads(raw)
    except ValueError:
        raise RequestError(400, "INVALID_ARGUMENT", "Invalid JSON payload received.") from None
    if not isinstance(body, dict):
        raise RequestError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Expected an object.")
    return body


def _unknown(where: str, name: str) -> RequestError:
    prefix = f"{where}." if where else ""
    return RequestError(
        400,
        "INVALID_ARGUMENT",
        f"Invalid JSON payload received. Unknown name \"{name}\" at '{prefix}': Cannot find field.",
    )


def _invalid(message: str) -> RequestError:
    return RequestError(400, "INVALID_ARGUMENT", message)


def _check_parts(where: str, parts: Any) -> None:
    if not isinstance(parts, list) or not parts:
        raise _invalid(f"{where}.parts must be a non-empty list.")
    for i, part in enumerate(parts):
        if not isinstance(part, dict) or not isinstance(part.get("text"), str):
            raise _invalid(f"{where}.parts[{i}] must be an object with a text field.")
        for name in part:
            if name not in ("text", "thought", "thoughtSignature"):
                raise _unknown(f"{where}.parts[{i}]", name)


def check_request(model: str, body: dict[str, Any]) -> None:
    """Raise ``RequestError`` for what the real API refuses (see the module docstring)."""
    for name in body:
        if name not in REQUEST_FIELDS:
            raise _unknown("", name)
    contents = body.get("contents")
    if not isinstance(contents, list) or not contents:
        raise _invalid("* GenerateContentRequest.contents: contents is not specified")
    for i, content in enumerate(contents):
        if not isinstance(content, dict):
            raise _invalid(f"contents[{i}] must be an object.")
        for name in content:
            if name not in ("role", "parts"):
                raise _unknown(f"contents[{i}]", name)
        if content.get("role") not in ("user", "model"):
            raise _invalid(f"Please use a valid role: user, model (contents[{i}].role = {content.get('role')!r}).")
        _check_parts(f"contents[{i}]", content.get("parts"))
    system = body.get("systemInstruction")
    if system is not None:
        if not isinstance(system, dict):
            raise _invalid("systemInstruction must be a Content object.")
        for name in system:
            if name not in ("role", "parts"):
                raise _unknown("system_instruction", name)
        _check_parts("systemInstruction", system.get("parts"))
    config = body.get("generationConfig")
    if config is None:
        return
    if not isinstance(config, dict):
        raise _invalid("generationConfig must be an object.")
    for name in config:
        if name not in GENERATION_FIELDS:
            raise _unknown("generation_config", name)
    for name in ("maxOutputTokens", "topK", "candidateCount", "seed"):
        if name in config and (not isinstance(config[name], int) or isinstance(config[name], bool)):
            raise _invalid(f"generationConfig.{name} must be an integer.")
    for name in ("temperature", "topP"):
        if name in config and not isinstance(config[name], int | float):
            raise _invalid(f"generationConfig.{name} must be a number.")
    thinking = config.get("thinkingConfig")
    if thinking is not None:
        _check_thinking(model, thinking)


def _check_thinking(model: str, thinking: Any) -> None:
    if not isinstance(thinking, dict):
        raise _invalid("generationConfig.thinkingConfig must be an object.")
    for name in thinking:
        if name not in THINKING_FIELDS:
            raise _unknown("generation_config.thinking_config", name)
    name = model.lower()
    if name.startswith(("gemini-1.", "gemini-2.0", "gemma")):
        raise _invalid("thinking_config is not supported.")
    budget, level = thinking.get("thinkingBudget"), thinking.get("thinkingLevel")
    if budget is not None and level is not None:
        raise _invalid("You can only set only one of thinking budget and thinking level.")
    if "includeThoughts" in thinking and not isinstance(thinking["includeThoughts"], bool):
        raise _invalid("generationConfig.thinkingConfig.includeThoughts must be a boolean.")
    if budget is not None:
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < -1:
            raise _invalid("generationConfig.thinkingConfig.thinkingBudget must be an integer >= -1.")
        if budget == 0 and "pro" in name and name.startswith("gemini-2.5"):
            raise _invalid("Budget 0 is invalid. This model only works in thinking mode.")
    if level is not None:
        if not isinstance(level, str) or level.upper() not in LEVELS:
            raise _invalid(f"Invalid value at 'generation_config.thinking_config.thinking_level' ({level!r}).")
        if not name.startswith("gemini-3"):
            raise _invalid("Thinking level is not supported for this model.")


def _thinks(model: str, thinking: dict[str, Any]) -> bool:
    """Whether the fake model thinks for this request: Gemini 2.5 and 3 think unless told budget 0."""
    name = model.lower()
    if not name.startswith(("gemini-2.5", "gemini-3")):
        return False
    return thinking.get("thinkingBudget") != 0


def _texts(content: Any) -> list[str]:
    if not isinstance(content, dict):
        return []
    parts = content.get("parts")
    return (
        [p["text"] for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
        if isinstance(parts, list)
        else []
    )


def _ratings(blocked: bool) -> list[dict[str, Any]]:
    rating: dict[str, Any] = {"category": "HARM_CATEGORY_DANGEROUS_CONTENT", "probability": "HIGH"}
    if blocked:
        rating["blocked"] = True
    return [rating]
