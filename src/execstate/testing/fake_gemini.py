"""A loopback fake of Google's Gemini API (``generateContent``), checking requests as Google documents them.

Routes, for ``version`` in ``versions`` (``v1beta``, ``v1``):

- ``POST /{version}/models/{model}:generateContent``, and ``:streamGenerateContent?alt=sse`` (the same
  answer as server-sent ``GenerateContentResponse`` chunks: one per half of each part, the last carrying
  ``finishReason``, ``usageMetadata``, ``modelVersion`` and ``responseId``);
- ``GET /{version}/models/{model}`` (``models.get``: Google's ``Model`` object with ``name``, ``version``,
  ``inputTokenLimit``, ``outputTokenLimit``, ``supportedGenerationMethods``, ``thinking``, ...; 404
  ``NOT_FOUND`` for a model the table lacks) and ``GET /{version}/models`` (a short listing);
- the Batch API: ``POST /{version}/models/{model}:batchGenerateContent`` with inlined requests
  (``{"batch": {"display_name", "input_config": {"requests": {"requests": [{"request", "metadata"}]}}}}``,
  each request checked as a live one), ``GET /{version}/batches/{id}`` (the long-running operation:
  ``metadata.state``, ``metadata.batchStats`` with int64 counts as strings, ``done``, and for a succeeded
  batch ``response.inlinedResponses.inlinedResponses`` in request order, each with its ``metadata``) and
  ``POST /{version}/batches/{id}:cancel``; with ``batch_file``, a succeeded batch names a
  ``responsesFile`` instead, served at ``GET /download/{version}/files/{file}:download?alt=media`` as
  ``{"key", "response" | "error"}`` JSON lines. A batch ends at its first poll in ``batch_end(n)``'s state
  (default ``BATCH_STATE_SUCCEEDED``), or, with ``batch_hold``, when the test calls ``finish_batch``.

Checks, each refused with Google's error shape
``{"error": {"code", "message", "status", "details"?}}``:

- ``x-goog-api-key``: missing -> 403 ``PERMISSION_DENIED``; neither the fake's key nor one of
  ``accounts`` -> 400 ``INVALID_ARGUMENT`` with a ``google.rpc.ErrorInfo`` of reason ``API_KEY_INVALID``
  (what the real API answers to a wrong key). A key of ``accounts`` is answered its account-level error
  (``location_unsupported``, ``daily_quota``, ``permission_denied``) on every generation, and as a
  ``google.rpc.Status`` in every result of its batches; ``models.get`` answers it normally.
- the body is a JSON object whose top-level fields are ``GenerateContentRequest``'s, spelled
  camelCase (``REQUEST_FIELDS``); ``contents`` is a non-empty list of ``{role, parts}`` with role
  ``user``/``model`` and text parts; ``systemInstruction`` is ``{parts: [{text}]}``;
  ``generationConfig`` holds only ``GenerationConfig`` fields (camelCase, ``GENERATION_FIELDS``);
  ``thinkingConfig`` holds ``thinkingBudget`` (int) or ``thinkingLevel`` (one of the four
  levels, any case), never both, and ``includeThoughts`` (bool). Anything else -> 400
  ``INVALID_ARGUMENT`` naming the field. (The real API also takes snake_case names; the fake
  refuses them so a client is held to the documented spelling.)
- the model table (``MODELS``, by id prefix; ``models=`` adds rows): a ``thinkingLevel`` the model
  lacks (3 Pro: low and high only), a ``thinkingBudget`` outside its range or 0 where it cannot turn
  thinking off (2.5 Pro, 3 Pro), ``maxOutputTokens`` over its ``outputTokenLimit``, and any
  ``thinkingConfig`` to Gemini 1.x/2.0/Gemma -> 400 ``INVALID_ARGUMENT``.

Answers have the documented shape: ``candidates[0]`` with ``content.parts`` (a
``thought: true`` part first when thinking is on and ``includeThoughts`` is set),
``finishReason`` and ``index``; ``usageMetadata`` with ``promptTokenCount``,
``candidatesTokenCount``, ``thoughtsTokenCount`` (only when the model thought: Google omits
zero counts) and ``totalTokenCount``; ``modelVersion``; ``responseId``. Token counts are
``count_tokens`` of the texts (whitespace-separated words), so tests can predict them.

``script(index, body)`` (``index`` counts generation requests from 0) may return a
``Reply`` instead of the normal answer: the helpers ``rate_limited``, ``minute_quota``,
``server_error``, ``bad_request``, ``permission_denied``, ``finish`` (``MAX_TOKENS``, ``SAFETY``,
...), ``prompt_blocked``, ``garbage`` and ``stream_cut`` (a stream that stops before its last chunk)
build the usual ones.
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
    cut: bool = False
    """Streamed: end the stream before the chunk carrying ``finishReason`` and ``usageMetadata``."""


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


def location_unsupported() -> Reply:
    """400 ``FAILED_PRECONDITION``: the caller's region is not served (an account-level error)."""
    return bad_request("User location is not supported for the API use.", "FAILED_PRECONDITION")


def daily_quota() -> Reply:
    """429 ``RESOURCE_EXHAUSTED`` naming a per-day quota in its ``QuotaFailure`` (an account-level error)."""
    details: list[dict[str, Any]] = [
        {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [
                {
                    "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                    "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                    "quotaDimensions": {"location": "global", "model": "gemini-2.5-flash"},
                    "quotaValue": "250",
                }
            ],
        },
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "3s"},
    ]
    body = google_error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan.", details)
    return Reply(429, body)


def minute_quota() -> Reply:
    """429 ``RESOURCE_EXHAUSTED`` naming a per-minute quota (retried, not an account-level error)."""
    details: list[dict[str, Any]] = [
        {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            "violations": [
                {
                    "quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                    "quotaId": "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                }
            ],
        },
        {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "0s"},
    ]
    return Reply(429, google_error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota.", details))


def stream_cut() -> Reply:
    """A stream that ends before its last chunk (no ``finishReason``); a whole request answers normally."""
    return Reply(cut=True)


@dataclass(frozen=True)
class FakeModel:
    """What one fake model accepts, as the real API enforces it."""

    levels: tuple[str, ...] = ()
    """``thinkingLevel`` values (lower-case); empty: the model refuses ``thinkingLevel``."""
    budget: tuple[int, int] | None = None
    """``thinkingBudget`` range (``-1`` always accepted); ``None``: any budget refused (no thinking)."""
    budget_off: bool = False
    """``thinkingBudget: 0`` accepted (turns thinking off)."""
    output_limit: int = 65_536
    thinking: bool = True


MODELS: dict[str, FakeModel] = {
    "gemini-2.5-flash": FakeModel(budget=(1, 24_576), budget_off=True),
    "gemini-2.5-flash-lite": FakeModel(budget=(512, 24_576), budget_off=True),
    "gemini-2.5-pro": FakeModel(budget=(128, 32_768)),
    "gemini-3-pro": FakeModel(levels=("low", "high"), budget=(128, 32_768)),
    "gemini-3-flash": FakeModel(levels=("minimal", "low", "medium", "high"), budget=(1, 24_576), budget_off=True),
    "gemini-3.1-pro": FakeModel(levels=("low", "medium", "high"), budget=(128, 32_768)),
    "gemini-2.0": FakeModel(output_limit=8_192, thinking=False),
    "gemini-1.5": FakeModel(output_limit=8_192, thinking=False),
    "gemma": FakeModel(output_limit=8_192, thinking=False),
}
"""The fake's model table, by id prefix (the longest wins); a model no row matches is 404 ``NOT_FOUND``."""


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
        accounts: dict[str, Reply] | None = None,
        models: dict[str, FakeModel] | None = None,
        batch_hold: bool = False,
        batch_end: Callable[[int], str] | None = None,
        batch_file: bool = False,
    ) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.script = script
        self.thought = thought
        self.versions = versions
        self.accounts = dict(accounts or {})
        """Other keys the fake knows, each answered with its account-level error on every generation."""
        self.models = {**MODELS, **(models or {})}
        self.batch_hold = batch_hold
        self.batch_end = batch_end
        """``batch_end(n)``: the state the n-th batch (from 0) ends in (default ``BATCH_STATE_SUCCEEDED``)."""
        self.batch_file = batch_file
        """Answer a succeeded batch with a JSONL ``responsesFile`` (``{"key", "response" | "error"}`` lines)
        instead of inlined responses."""
        self.batches: dict[str, dict[str, Any]] = {}
        self._count = 0
        self._lock = threading.Lock()

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/{version}/models", self._models)
        app.router.add_get("/{version}/models/{model}", self._model_get)
        app.router.add_post("/{version}/models/{call}", self._generate)
        app.router.add_get("/{version}/batches/{batch}", self._batch_get)
        app.router.add_post("/{version}/batches/{call}", self._batch_cancel)
        app.router.add_get("/download/{version}/files/{call}", self._download)

    def model(self, model: str) -> FakeModel:
        name = model.lower()
        best = max((p for p in self.models if name.startswith(p)), key=len, default=None)
        if best is None:
            raise RequestError(404, "NOT_FOUND", f"models/{model} is not found for API version v1beta.")
        return self.models[best]

    def _auth(self, request: web.Request) -> None:
        key = request.headers.get("x-goog-api-key")
        if not key:
            raise RequestError(
                403,
                "PERMISSION_DENIED",
                "Method doesn't allow unregistered callers (callers without established identity). "
                "Please use API Key or other form of API consumer identity to call this API.",
            )
        if key != self.key and key not in self.accounts:
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

    async def _model_get(self, request: web.Request) -> web.Response:
        """``models.get``: Google's ``Model`` object."""
        model = request.match_info["model"]
        try:
            self._version(request)
            self._auth(request)
            caps = self.model(model)
        except RequestError as exc:
            return exc.reply
        return json_reply(
            {
                "name": f"models/{model}",
                "version": "001",
                "displayName": model,
                "description": "A fake Gemini model.",
                "inputTokenLimit": 1_048_576,
                "outputTokenLimit": caps.output_limit,
                "supportedGenerationMethods": ["generateContent", "countTokens", "batchGenerateContent"],
                "temperature": 1.0,
                "topP": 0.95,
                "topK": 64,
                "maxTemperature": 2.0,
                "thinking": caps.thinking,
            }
        )

    async def _generate(self, request: web.Request) -> web.StreamResponse:
        model, _, method = request.match_info["call"].partition(":")
        try:
            self._version(request)
            if method not in ("generateContent", "streamGenerateContent", "batchGenerateContent"):
                raise RequestError(404, "NOT_FOUND", f"Method {method!r} is not found for models/{model}.")
            if method == "streamGenerateContent" and request.query.get("alt") != "sse":
                raise RequestError(400, "INVALID_ARGUMENT", "This fake streams server-sent events only (alt=sse).")
            self._auth(request)
            body = _json_body(await request.read())
            if method == "batchGenerateContent":
                return self._batch_create(request, model, body)
            check_request(model, body)
            self._check_model(model, body)
        except RequestError as exc:
            return exc.reply
        with self._lock:
            index = self._count
            self._count += 1
        reply = self.accounts.get(request.headers.get("x-goog-api-key", ""))
        if reply is None:
            reply = (self.script(index, body) if self.script is not None else None) or Reply()
        if reply.raw is not None:
            return web.Response(status=reply.status, body=reply.raw, headers=reply.headers)
        if reply.status != 200 or reply.body is not None:
            return json_reply(reply.body, status=reply.status, headers=reply.headers)
        answer = self._response(model, body, reply, index)
        if method == "streamGenerateContent":
            return await self._stream(request, answer, reply.cut)
        return json_reply(answer)

    def _check_model(self, model: str, body: dict[str, Any]) -> None:
        """What the model itself refuses: a level or budget it lacks, ``maxOutputTokens`` over its limit."""
        caps = self.model(model)
        config = body.get("generationConfig") or {}
        limit = config.get("maxOutputTokens")
        if isinstance(limit, int) and limit > caps.output_limit:
            raise _invalid(
                f"The input maxOutputTokens value ({limit}) is out of range: it must be at most "
                f"{caps.output_limit} for models/{model}."
            )
        thinking = config.get("thinkingConfig") or {}
        level, budget = thinking.get("thinkingLevel"), thinking.get("thinkingBudget")
        if isinstance(level, str) and level.lower() not in caps.levels:
            raise _invalid(f"Thinking level {level.upper()} is not supported for models/{model}.")
        if isinstance(budget, int) and budget != -1:
            if budget == 0 and not caps.budget_off:
                raise _invalid("Budget 0 is invalid. This model only works in thinking mode.")
            if budget != 0 and (caps.budget is None or not caps.budget[0] <= budget <= caps.budget[1]):
                span = f"{caps.budget[0]} and {caps.budget[1]}" if caps.budget else "(none)"
                raise _invalid(f"The thinking budget {budget} is invalid. Please choose a value between {span}.")

    async def _stream(self, request: web.Request, answer: dict[str, Any], cut: bool) -> web.StreamResponse:
        """The answer as server-sent ``GenerateContentResponse`` chunks: one per part, the text split in two,
        the last carrying ``finishReason`` and ``usageMetadata`` (left out when ``cut``)."""
        common: dict[str, Any] = {k: answer[k] for k in ("modelVersion", "responseId") if k in answer}
        chunks: list[dict[str, Any]] = []
        candidates = answer.get("candidates") or []
        parts = ((candidates[0].get("content") or {}).get("parts") or []) if candidates else []
        for part in parts:
            text = part["text"]
            pieces = [text[: len(text) // 2], text[len(text) // 2 :]] if len(text) > 1 else [text]
            for piece in pieces:
                chunk_part = {**part, "text": piece}
                chunks.append({"candidates": [{"content": {"role": "model", "parts": [chunk_part]}, "index": 0}]})
        last: dict[str, Any] = {"usageMetadata": answer["usageMetadata"], **common}
        if candidates:
            last["candidates"] = [
                {
                    "content": {"role": "model", "parts": [{"text": ""}]},
                    "finishReason": candidates[0]["finishReason"],
                    "index": 0,
                }
            ]
        else:
            last["promptFeedback"] = answer["promptFeedback"]
        if not cut:
            chunks.append(last)
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await resp.prepare(request)
        for chunk in chunks:
            await resp.write(f"data: {json.dumps({**chunk, **common})}\r\n\r\n".encode())
        await resp.write_eof()
        return resp

    # -- the Batch API ----------------------------------------------------------------------------------

    def _batch_create(self, request: web.Request, model: str, body: dict[str, Any]) -> web.Response:
        """``models.batchGenerateContent`` with inlined requests; every request is checked as a live one."""
        batch = body.get("batch")
        if not isinstance(batch, dict) or set(body) != {"batch"}:
            raise _invalid('Invalid JSON payload received: expected {"batch": GenerateContentBatch}.')
        for name in batch:
            if name not in ("display_name", "displayName", "input_config", "inputConfig", "priority", "model"):
                raise _unknown("batch", name)
        display = batch.get("display_name", batch.get("displayName"))
        if not isinstance(display, str) or not display:
            raise _invalid("* BatchGenerateContentRequest.batch.display_name: display_name is required")
        config = batch.get("input_config", batch.get("inputConfig"))
        inlined = config.get("requests") if isinstance(config, dict) else None
        items = inlined.get("requests") if isinstance(inlined, dict) else None
        if not isinstance(items, list) or not items:
            raise _invalid("* BatchGenerateContentRequest.batch.input_config: requests or file_name is required")
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("request"), dict):
                raise _invalid(f"batch.input_config.requests.requests[{i}].request must be a GenerateContentRequest.")
            for name in item:
                if name not in ("request", "metadata"):
                    raise _unknown(f"batch.input_config.requests.requests[{i}]", name)
            check_request(model, item["request"])
            self._check_model(model, item["request"])
        with self._lock:
            number = len(self.batches)
            name = f"batches/fake{number:04d}"
            self.batches[name] = {
                "number": number,
                "model": model,
                "display": display,
                "items": items,
                "key": request.headers.get("x-goog-api-key", ""),
                "state": "BATCH_STATE_PENDING",
                "response": None,
            }
        return json_reply(self._operation(name))

    def _operation(self, name: str) -> dict[str, Any]:
        batch = self.batches[name]
        total = len(batch["items"])
        done = batch["state"] in (
            "BATCH_STATE_SUCCEEDED",
            "BATCH_STATE_FAILED",
            "BATCH_STATE_CANCELLED",
            "BATCH_STATE_EXPIRED",
        )
        ok = sum(1 for r in (batch["response"] or []) if "response" in r)
        stats = {"requestCount": str(total), "pendingRequestCount": str(0 if done else total)}
        if done:
            stats |= {
                "successfulRequestCount": str(ok),
                "failedRequestCount": str(total - ok) if batch["response"] else "0",
            }
        operation: dict[str, Any] = {
            "name": name,
            "metadata": {
                "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch",
                "model": f"models/{batch['model']}",
                "displayName": batch["display"],
                "name": name,
                "state": batch["state"],
                "batchStats": stats,
            },
        }
        if done:
            operation["done"] = True
            if batch["response"] is not None:
                output: dict[str, Any] = {
                    "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput"
                }
                if self.batch_file:
                    output["responsesFile"] = f"files/batch-{name.removeprefix('batches/')}"
                else:
                    output["inlinedResponses"] = {"inlinedResponses": batch["response"]}
                operation["response"] = output
            elif batch["state"] == "BATCH_STATE_FAILED":
                operation["error"] = {"code": 13, "message": "The batch failed."}
        return operation

    def finish_batch(self, name: str, state: str = "BATCH_STATE_SUCCEEDED") -> None:
        """End a batch: ``BATCH_STATE_SUCCEEDED`` answers every request (an account key's requests get its
        error, as a ``google.rpc.Status``); any other state leaves no results."""
        with self._lock:
            batch = self.batches[name]
            batch["state"] = state
            if state != "BATCH_STATE_SUCCEEDED":
                return
            account = self.accounts.get(batch["key"])
            results: list[dict[str, Any]] = []
            for i, item in enumerate(batch["items"]):
                meta = {"metadata": item["metadata"]} if "metadata" in item else {}
                if account is not None:
                    error = dict(account.body["error"])
                    error["code"] = {400: 9, 403: 7, 429: 8}.get(account.status, 13)
                    error.pop("status", None)
                    results.append({"error": error, **meta})
                    continue
                answer = self._response(batch["model"], item["request"], Reply(), i)
                answer["responseId"] = f"{name.removeprefix('batches/')}-{i}"
                results.append({"response": answer, **meta})
            batch["response"] = results

    async def _batch_get(self, request: web.Request) -> web.Response:
        name = "batches/" + request.match_info["batch"]
        try:
            self._version(request)
            self._auth(request)
            if name not in self.batches:
                raise RequestError(404, "NOT_FOUND", f"Batch {name} not found.")
        except RequestError as exc:
            return exc.reply
        batch = self.batches[name]
        if batch["state"] == "BATCH_STATE_PENDING" and not self.batch_hold:
            self.finish_batch(name, self.batch_end(batch["number"]) if self.batch_end else "BATCH_STATE_SUCCEEDED")
        return json_reply(self._operation(name))

    async def _download(self, request: web.Request) -> web.Response:
        """``GET /download/{version}/files/batch-<id>:download?alt=media``: the results file, one JSON line per
        request, ``{"key", "response" | "error"}``."""
        file, _, method = request.match_info["call"].partition(":")
        name = "batches/" + file.removeprefix("batch-")
        try:
            self._version(request)
            self._auth(request)
            if method != "download" or request.query.get("alt") != "media":
                raise RequestError(400, "INVALID_ARGUMENT", "Use files/{file}:download?alt=media.")
            batch = self.batches.get(name)
            if not self.batch_file or batch is None or batch["response"] is None:
                raise RequestError(404, "NOT_FOUND", f"File files/{file} not found.")
        except RequestError as exc:
            return exc.reply
        lines = []
        for item in batch["response"]:
            line = {k: v for k, v in item.items() if k != "metadata"}
            lines.append(json.dumps({"key": (item.get("metadata") or {}).get("key"), **line}))
        return web.Response(text="\n".join(lines) + "\n", content_type="application/jsonl")

    async def _batch_cancel(self, request: web.Request) -> web.Response:
        bid, _, method = request.match_info["call"].partition(":")
        name = "batches/" + bid
        try:
            self._version(request)
            self._auth(request)
            if method != "cancel":
                raise RequestError(404, "NOT_FOUND", f"Method {method!r} is not found for {name}.")
            if name not in self.batches:
                raise RequestError(404, "NOT_FOUND", f"Batch {name} not found.")
        except RequestError as exc:
            return exc.reply
        if self.batches[name]["state"] in ("BATCH_STATE_PENDING", "BATCH_STATE_RUNNING"):
            self.finish_batch(name, "BATCH_STATE_CANCELLED")
        return json_reply({})

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
