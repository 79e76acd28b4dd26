"""Loopback fakes of the vendors' batch APIs, for tests: ``FakeOpenAIBatch`` and ``FakeAnthropicBatch``.

Both keep every batch in memory in the test process, so a client may be
killed mid-poll and a new one resume the same batch. A batch stays in
progress until the test calls ``finish(batch_id, expire=..., ...)``, or, with
``hold = False``, ends by itself at its first poll (``auto_expire`` then picks
the requests that expire). ``expire`` (and the other selections) is a set of
``custom_id`` values or a predicate ``(custom_id, request_body) -> bool``.
``answer(body) -> str`` gives the model's text for a request body. Each also
answers live requests (``POST /v1/chat/completions``, ``POST /v1/messages``)
the same way, so a ``--batch-fallback live`` run can be tested against one
server.

``FakeOpenAIBatch`` (``base_url = fake.url + "/v1"``) serves ``POST /v1/files``
(multipart, ``purpose=batch``, a ``.jsonl`` file of JSON lines),
``POST /v1/batches`` (``input_file_id``, ``endpoint``, ``completion_window:
"24h"``), ``GET /v1/batches/{id}``, ``POST /v1/batches/{id}/cancel``,
``GET /v1/files/{id}/content`` and ``GET /v1/models``; batches over
``/v1/chat/completions`` and ``/v1/responses`` (a Response object per line);
a request OpenAI would refuse gets 400 (401 for a wrong key, 404 for an
unknown id) in OpenAI's error shape ``{"error": {"message", "type", "param",
"code"}}``. A batch whose lines are malformed (a line without
``custom_id``, a repeated one, another ``url`` than the batch's ``endpoint``,
a body without ``model`` or ``messages``, two models) is created ``failed``
with ``errors.data``, as OpenAI's validation does. A finished batch has an
output file (200 lines) and an error file (``batch_expired`` lines and non-200
responses); an expired one has status ``expired``.

``FakeAnthropicBatch`` (``base_url = fake.url``) extends ``FakeAnthropic`` with
``POST /v1/messages/batches`` (``{"requests": [{"custom_id", "params"}]}``,
``custom_id`` matching ``^[a-zA-Z0-9_-]{1,64}$`` and unique, each ``params`` a
valid Messages body), ``GET /v1/messages/batches/{id}`` and the JSONL at its
``results_url``, ``POST /v1/messages/batches/{id}/cancel``, with the same header
checks and Anthropic's error shape.

Failure on demand, for both: ``fail_creates`` (the next batch creations are
refused, one per item: OpenAI an HTTP status, Anthropic an error type), ``fail_batches(n, code)`` (OpenAI: the
next ``n`` batches are created ``failed`` with that ``errors`` code, e.g.
``token_limit_exceeded``), ``drop_results(batch_id)`` (OpenAI: the result files
are deleted, their content 404s; Anthropic: ``archived_at`` is set and
``results_url`` 404s), ``auto_finish`` (with ``hold = False``: the ``finish``
keyword arguments of each batch by id, plus ``drop=True`` to drop its results, e.g. OpenAI ``quota=`` for
``insufficient_quota`` lines, Anthropic ``errored=`` giving ``billing_error``).
``cancelled`` lists the batch ids a client cancelled.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from email import policy
from email.parser import BytesParser
from typing import Any

from aiohttp import web

from execstate.testing.fake_anthropic import FakeAnthropic, Turn, error_reply, request_problem
from execstate.testing.vendor import Answer, Seen, VendorServer, default_answer, json_reply

Select = Collection[str] | Callable[[str, dict[str, Any]], bool] | None
"""Which requests of a batch: a collection of ``custom_id`` values, or ``(custom_id, body) -> bool``."""


def _selected(select: Select, custom_id: str, body: dict[str, Any]) -> bool:
    if select is None:
        return False
    if callable(select):
        return bool(select(custom_id, body))
    return custom_id in select


def _tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


# -- OpenAI ----------------------------------------------------------------------------------------

OPENAI_ENDPOINTS = frozenset(
    {
        "/v1/responses",
        "/v1/chat/completions",
        "/v1/embeddings",
        "/v1/completions",
        "/v1/moderations",
        "/v1/images/generations",
        "/v1/images/edits",
        "/v1/videos",
    }
)
"""The ``endpoint`` values ``POST /v1/batches`` accepts."""
OPENAI_CREATE_FIELDS = frozenset({"input_file_id", "endpoint", "completion_window", "metadata", "output_expires_after"})
OPENAI_PURPOSES = frozenset({"assistants", "batch", "fine-tune", "vision", "user_data", "evals"})
EXPIRED_MESSAGE = "This request could not be executed before the completion window expired."


def _openai_error(status: int, message: str, param: str | None = None, code: str | None = None) -> web.Response:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": param, "code": code}}
    return json_reply(body, status=status)


class FakeOpenAIBatch(VendorServer):
    """``with FakeOpenAIBatch(key="sk-test") as fake:``; ``fake.url + "/v1"`` is the base URL."""

    def __init__(self, *, key: str = "sk-test", answer: Answer = default_answer, hold: bool = True) -> None:
        super().__init__()
        self.key = key
        self.answer = answer
        self.hold = hold
        """Keep each batch in progress until ``finish``; ``False``: end it at its first poll."""
        self.auto_expire: Select = None
        """With ``hold = False``: the requests that come back ``batch_expired``."""
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._files: dict[str, dict[str, Any]] = {}
        self._content: dict[str, bytes] = {}
        self._batches: dict[str, dict[str, Any]] = {}
        self._inputs: dict[str, dict[str, dict[str, Any]]] = {}
        self.created: list[str] = []
        """Batch ids in creation order."""
        self.fail_creates: list[int] = []
        """Statuses the next ``POST /v1/batches`` are refused with (one popped per call)."""
        self._fail_codes: list[str] = []
        self._fail_message = ""
        self.auto_finish: Callable[[str], dict[str, Any]] | None = None
        """With ``hold = False``: the ``finish`` keyword arguments of a batch, by its id."""
        self.cancelled: list[str] = []
        """Batch ids cancelled through ``POST /v1/batches/{id}/cancel``."""

    def __enter__(self) -> FakeOpenAIBatch:
        self.start()
        return self

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/files", self._upload)
        app.router.add_get("/v1/files/{file_id}/content", self._file_content)
        app.router.add_post("/v1/batches", self._create)
        app.router.add_get("/v1/batches/{batch_id}", self._retrieve)
        app.router.add_post("/v1/batches/{batch_id}/cancel", self._cancel)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)

    # -- test controls ------------------------------------------------------------------------------

    def batch(self, batch_id: str) -> dict[str, Any]:
        """The batch object as the API would answer it now."""
        with self._lock:
            return dict(self._batches[batch_id])

    def batch_requests(self, batch_id: str) -> dict[str, dict[str, Any]]:
        """custom_id -> request body of a batch, in input order."""
        with self._lock:
            return dict(self._inputs[batch_id])

    def creates(self) -> list[Seen]:
        """Every ``POST /v1/batches`` received (accepted or not)."""
        return self.seen("POST", "/v1/batches")

    def polls(self, batch_id: str | None = None) -> list[Seen]:
        """Every ``GET /v1/batches/...`` received (of ``batch_id`` when given)."""
        prefix = "/v1/batches/" + (batch_id or "")
        return [r for r in self.seen("GET", prefix) if batch_id is None or r.path == prefix]

    def wait_for_poll(self, batch_id: str | None = None, count: int = 1, timeout: float = 30.0) -> None:
        """Block until ``count`` polls (of ``batch_id`` when given) have arrived."""
        prefix = "/v1/batches/" + (batch_id or "")
        self.wait_for(lambda seen: sum(r.method == "GET" and r.path.startswith(prefix) for r in seen) >= count, timeout)

    def finish(
        self,
        batch_id: str,
        expire: Select = None,
        fail: Callable[[str, dict[str, Any]], int | None] | None = None,
        quota: Select = None,
    ) -> None:
        """End a batch: requests picked by ``expire`` come back ``batch_expired`` (the batch is then ``expired``),
        those ``fail`` gives a status for come back with that status and an OpenAI error body, those ``quota``
        picks with 429 ``insufficient_quota``, the rest 200."""
        with self._lock:
            self._finish(batch_id, expire, fail, quota)

    def fail_batches(self, n: int, code: str = "token_limit_exceeded", message: str | None = None) -> None:
        """The next ``n`` batches created end ``failed`` at once, with ``errors.data`` of this ``code``."""
        with self._lock:
            self._fail_codes += [code] * n
            self._fail_message = message or (
                "Enqueued token limit reached for m in organization org-fake. Limit: 90,000 enqueued tokens. "
                "Please try again once some in_progress batches have been completed."
            )

    def drop_results(self, batch_id: str) -> None:
        """Delete an ended batch's output and error files, as OpenAI does when they expire: their content 404s."""
        with self._lock:
            self._drop(batch_id)

    def _drop(self, batch_id: str) -> None:
        obj = self._batches[batch_id]
        for key in ("output_file_id", "error_file_id"):
            if obj.get(key):
                self._content.pop(obj[key], None)
                self._files.pop(obj[key], None)

    def completion(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        """The chat.completion object answering ``body`` (the same live and in a batch)."""
        text = self.answer(body)
        prompt = _tokens(json.dumps(body.get("messages")))
        written = _tokens(text)
        return {
            "id": f"chatcmpl-fake{n:06d}",
            "object": "chat.completion",
            "created": 1_750_000_000,
            "model": body.get("model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text, "refusal": None},
                    "logprobs": None,
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": written,
                "total_tokens": prompt + written,
                "prompt_tokens_details": {"cached_tokens": 0},
                "completion_tokens_details": {"reasoning_tokens": 0},
            },
        }

    def response(self, body: dict[str, Any], n: int) -> dict[str, Any]:
        """The Response object answering a ``/v1/responses`` body in a batch."""
        text = self.answer(body)
        prompt = _tokens(json.dumps(body.get("input")) + str(body.get("instructions") or ""))
        written = _tokens(text)
        return {
            "id": f"resp_fake{n:06d}",
            "object": "response",
            "created_at": 1_750_000_000,
            "status": "completed",
            "error": None,
            "incomplete_details": None,
            "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"),
            "model": body.get("model"),
            "output": [
                {
                    "id": f"msg_fake{n:06d}",
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            ],
            "usage": {
                "input_tokens": prompt,
                "input_tokens_details": {"cached_tokens": 0},
                "output_tokens": written,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": prompt + written,
            },
        }

    # -- handlers -----------------------------------------------------------------------------------

    def _key_refused(self, request: web.Request) -> web.Response | None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return _openai_error(
                401,
                "You didn't provide an API key. You need to provide your API key in an Authorization header "
                "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
            )
        if auth.removeprefix("Bearer ") != self.key:
            return _openai_error(401, "Incorrect API key provided.", code="invalid_api_key")
        return None

    async def _models(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        return json_reply({"object": "list", "data": [{"id": "fake-model", "object": "model", "owned_by": "fake"}]})

    async def _upload(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        if request.content_type != "multipart/form-data":
            return _openai_error(400, "Invalid content type: expected multipart/form-data.")
        fields = _multipart(request.headers["Content-Type"], await request.read())
        purpose = fields.get("purpose")
        if purpose is None:
            return _openai_error(400, "Missing required parameter: 'purpose'.", "purpose", "missing_required_parameter")
        if purpose[1].decode() not in OPENAI_PURPOSES:
            return _openai_error(400, f"Invalid value for 'purpose': {purpose[1].decode()!r}.", "purpose")
        if "file" not in fields or fields["file"][0] is None:
            return _openai_error(400, "Missing required parameter: 'file'.", "file", "missing_required_parameter")
        filename, content = fields["file"]
        assert filename is not None
        if purpose[1] == b"batch":
            if not filename.endswith(".jsonl"):
                return _openai_error(400, "Invalid file format for Batch API. Must be .jsonl", "file")
            for i, line in enumerate(content.splitlines(), 1):
                try:
                    ok = isinstance(json.loads(line), dict)
                except ValueError:
                    ok = False
                if not ok:
                    return _openai_error(400, f"Invalid file format for Batch API: line {i} is not a JSON object.")
        with self._lock:
            file_id = f"file-fake{next(self._ids):06d}"
            obj = self._add_file(file_id, purpose[1].decode(), filename, content)
        return json_reply(obj)

    def _add_file(self, file_id: str, purpose: str, filename: str, content: bytes) -> dict[str, Any]:
        obj = {
            "id": file_id,
            "object": "file",
            "bytes": len(content),
            "created_at": 1_750_000_000,
            "filename": filename,
            "purpose": purpose,
        }
        self._files[file_id] = obj
        self._content[file_id] = content
        return obj

    async def _file_content(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        file_id = request.match_info["file_id"]
        with self._lock:
            content = self._content.get(file_id)
        if content is None:
            return _openai_error(404, f"No such File object: {file_id}", "id")
        return web.Response(body=content, content_type="application/octet-stream")

    async def _create(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        try:
            body = json.loads(await request.read())
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return _openai_error(400, "We could not parse the JSON body of your request.")
        for name in body:
            if name not in OPENAI_CREATE_FIELDS:
                return _openai_error(400, f"Unknown parameter: '{name}'.", name, "unknown_parameter")
        for name in ("input_file_id", "endpoint", "completion_window"):
            if name not in body:
                return _openai_error(400, f"Missing required parameter: '{name}'.", name, "missing_required_parameter")
        if body["completion_window"] != "24h":
            return _openai_error(
                400, "Invalid value for 'completion_window': only '24h' is supported.", "completion_window"
            )
        if body["endpoint"] not in OPENAI_ENDPOINTS:
            return _openai_error(400, f"Invalid value for 'endpoint': {body['endpoint']!r}.", "endpoint")
        with self._lock:
            if self.fail_creates:
                status = self.fail_creates.pop(0)
                message = {429: "Rate limit reached.", 500: "The server had an error."}.get(status, "Invalid request.")
                return _openai_error(status, message)
            file = self._files.get(str(body["input_file_id"]))
            if file is None:
                return _openai_error(404, f"No such File object: {body['input_file_id']}", "input_file_id")
            if file["purpose"] != "batch":
                return _openai_error(400, "The input file must be uploaded with purpose 'batch'.", "input_file_id")
            batch_id = f"batch_fake{next(self._ids):06d}"
            inputs, problems = _batch_lines(self._content[file["id"]], body["endpoint"])
            now = 1_750_000_000
            obj: dict[str, Any] = {
                "id": batch_id,
                "object": "batch",
                "endpoint": body["endpoint"],
                "errors": None,
                "input_file_id": file["id"],
                "completion_window": "24h",
                "status": "validating",
                "output_file_id": None,
                "error_file_id": None,
                "created_at": now,
                "in_progress_at": None,
                "expires_at": now + 86_400,
                "finalizing_at": None,
                "completed_at": None,
                "failed_at": None,
                "expired_at": None,
                "cancelling_at": None,
                "cancelled_at": None,
                "request_counts": {"total": len(inputs), "completed": 0, "failed": 0},
                "metadata": body.get("metadata"),
            }
            if not problems and self._fail_codes:
                code = self._fail_codes.pop(0)
                problems = [{"code": code, "message": self._fail_message, "param": None, "line": None}]
            if problems:
                obj.update(status="failed", failed_at=now, errors={"object": "list", "data": problems})
            self._batches[batch_id] = obj
            self._inputs[batch_id] = inputs
            self.created.append(batch_id)
            return json_reply(obj)

    async def _retrieve(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        batch_id = request.match_info["batch_id"]
        with self._lock:
            obj = self._batches.get(batch_id)
            if obj is None:
                return _openai_error(404, f"No batch found with id '{batch_id}'.", "batch_id")
            if obj["status"] == "validating":
                obj.update(status="in_progress", in_progress_at=obj["created_at"] + 1)
            if obj["status"] == "in_progress" and not self.hold:
                how = self.auto_finish(batch_id) if self.auto_finish is not None else {}
                self._finish(batch_id, how.get("expire", self.auto_expire), how.get("fail"), how.get("quota"))
                if how.get("drop"):
                    self._drop(batch_id)
            if obj["status"] == "cancelling":
                obj.update(status="cancelled", cancelled_at=obj["cancelling_at"] + 1)
            return json_reply(self._batches[batch_id])

    async def _cancel(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        batch_id = request.match_info["batch_id"]
        with self._lock:
            obj = self._batches.get(batch_id)
            if obj is None:
                return _openai_error(404, f"No batch found with id '{batch_id}'.", "batch_id")
            if obj["status"] not in ("validating", "in_progress", "finalizing"):
                return _openai_error(400, f"Cannot cancel a batch with status '{obj['status']}'.")
            obj.update(status="cancelling", cancelling_at=obj["created_at"] + 5)
            self.cancelled.append(batch_id)
            return json_reply(obj)

    async def _chat(self, request: web.Request) -> web.Response:
        refused = self._key_refused(request)
        if refused is not None:
            return refused
        try:
            body = json.loads(await request.read())
        except ValueError:
            body = None
        problem = _chat_problem(body)
        if problem is not None:
            return _openai_error(400, problem)
        with self._lock:
            n = next(self._ids)
        return json_reply(self.completion(body, n))

    def _finish(
        self,
        batch_id: str,
        expire: Select,
        fail: Callable[[str, dict[str, Any]], int | None] | None,
        quota: Select = None,
    ) -> None:
        obj = self._batches[batch_id]
        if obj["status"] not in ("validating", "in_progress"):
            raise ValueError(f"batch {batch_id} is {obj['status']}: only a batch in progress can be finished")
        output: list[bytes] = []
        errors: list[bytes] = []
        expired = completed = failed = 0
        for cid, body in self._inputs[batch_id].items():
            n = next(self._ids)
            line: dict[str, Any] = {"id": f"batch_req_fake{n:06d}", "custom_id": cid, "response": None, "error": None}
            status = fail(cid, body) if fail is not None else None
            if _selected(expire, cid, body):
                line["error"] = {"code": "batch_expired", "message": EXPIRED_MESSAGE}
                expired += 1
                errors.append(json.dumps(line).encode() + b"\n")
            elif _selected(quota, cid, body):
                line["response"] = {
                    "status_code": 429,
                    "request_id": f"req_fake{n:06d}",
                    "body": {
                        "error": {
                            "message": "You exceeded your current quota, please check your plan and billing details.",
                            "type": "insufficient_quota",
                            "param": None,
                            "code": "insufficient_quota",
                        }
                    },
                }
                failed += 1
                errors.append(json.dumps(line).encode() + b"\n")
            elif status is not None and status != 200:
                message = {429: "Rate limit reached.", 500: "The server had an error."}.get(status, "Invalid request.")
                line["response"] = {
                    "status_code": status,
                    "request_id": f"req_fake{n:06d}",
                    "body": {
                        "error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}
                    },
                }
                failed += 1
                errors.append(json.dumps(line).encode() + b"\n")
            else:
                answer = self.response(body, n) if obj["endpoint"] == "/v1/responses" else self.completion(body, n)
                line["response"] = {"status_code": 200, "request_id": f"req_fake{n:06d}", "body": answer}
                completed += 1
                output.append(json.dumps(line).encode() + b"\n")
        now = obj["created_at"] + 60
        if output:
            obj["output_file_id"] = f"file-fake{next(self._ids):06d}"
            self._add_file(obj["output_file_id"], "batch_output", f"{batch_id}_output.jsonl", b"".join(output))
        if errors:
            obj["error_file_id"] = f"file-fake{next(self._ids):06d}"
            self._add_file(obj["error_file_id"], "batch_output", f"{batch_id}_error.jsonl", b"".join(errors))
        obj["request_counts"] = {"total": len(self._inputs[batch_id]), "completed": completed, "failed": failed}
        obj["in_progress_at"] = obj["in_progress_at"] or now
        if expired:
            obj.update(status="expired", expired_at=now)
        else:
            obj.update(status="completed", finalizing_at=now, completed_at=now)


def _multipart(content_type: str, body: bytes) -> dict[str, tuple[str | None, bytes]]:
    """name -> (filename, bytes) of each part of a multipart/form-data body."""
    message = BytesParser(policy=policy.HTTP).parsebytes(b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    fields: dict[str, tuple[str | None, bytes]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        if isinstance(name, str) and isinstance(payload, bytes):
            fields[name] = (part.get_filename(), payload)
    return fields


def _batch_lines(content: bytes, endpoint: str) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The requests of a batch input file by custom_id, and what OpenAI's validation would refuse in it."""
    inputs: dict[str, dict[str, Any]] = {}
    problems: list[dict[str, Any]] = []
    models: set[str] = set()

    def refuse(lineno: int, code: str, message: str, param: str | None = None) -> None:
        problems.append({"code": code, "message": message, "param": param, "line": lineno})

    for lineno, raw in enumerate(content.splitlines(), 1):
        line = json.loads(raw)
        cid = line.get("custom_id")
        body = line.get("body")
        if not isinstance(cid, str) or not cid:
            refuse(lineno, "missing_required_parameter", "Missing 'custom_id'.", "custom_id")
        elif cid in inputs:
            refuse(lineno, "duplicate_custom_id", f"The custom_id {cid!r} is used more than once.", "custom_id")
        elif line.get("method") != "POST":
            refuse(lineno, "invalid_value", "Only 'POST' is supported as 'method'.", "method")
        elif line.get("url") != endpoint:
            refuse(
                lineno, "mismatched_endpoint", f"The url {line.get('url')!r} does not match the batch endpoint.", "url"
            )
        elif endpoint == "/v1/chat/completions" and _chat_problem(body) is not None:
            refuse(lineno, "invalid_request", str(_chat_problem(body)), "body")
        elif endpoint == "/v1/responses" and _responses_problem(body) is not None:
            refuse(lineno, "invalid_request", str(_responses_problem(body)), "body")
        else:
            assert isinstance(body, dict)
            models.add(str(body["model"]))
            inputs[cid] = body
    if len(models) > 1:
        refuse(
            0, "model_mismatch", f"All requests in a batch must use the same model; found {sorted(models)}.", "model"
        )
    return inputs, problems


def _responses_problem(body: Any) -> str | None:
    """What ``POST /v1/responses`` would refuse in a batch line's body (the fields a batch checks first)."""
    if not isinstance(body, dict):
        return "We could not parse the JSON body of your request."
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "Missing required parameter: 'model'."
    if not isinstance(body.get("input"), (str, list)) or not body["input"]:
        return "Missing required parameter: 'input'."
    if "messages" in body:
        return "Unknown parameter: 'messages'."
    if body.get("stream"):
        return "Streaming is not supported in a batch."
    return None


def _chat_problem(body: Any) -> str | None:
    if not isinstance(body, dict):
        return "We could not parse the JSON body of your request."
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "Missing required parameter: 'model'."
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "Missing required parameter: 'messages'."
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ("system", "developer", "user", "assistant"):
            return f"Invalid value for 'messages[{i}].role'."
    if body.get("stream"):
        return "Streaming is not supported in a batch."
    return None


# -- Anthropic -------------------------------------------------------------------------------------

CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
MAX_REQUESTS = 100_000


class FakeAnthropicBatch(FakeAnthropic):
    """``with FakeAnthropicBatch(key="k") as fake:``: the Messages and Message Batches APIs at ``fake.url``."""

    def __init__(
        self,
        *,
        key: str = "sk-ant-test",
        answer: Answer = default_answer,
        hold: bool = True,
        models: tuple[str, ...] = ("claude-test",),
    ) -> None:
        super().__init__(key=key, answer=answer, models=models)
        self.hold = hold
        """Keep each batch in progress until ``finish``; ``False``: end it at its first poll."""
        self.auto_expire: Select = None
        """With ``hold = False``: the requests whose result is ``expired``."""
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._batches: dict[str, dict[str, Any]] = {}
        self._inputs: dict[str, dict[str, dict[str, Any]]] = {}
        self._results: dict[str, bytes] = {}
        self.created: list[str] = []
        """Batch ids in creation order."""
        self.fail_creates: list[str] = []
        """Error types the next ``POST /v1/messages/batches`` are refused with (``api_error``, ``overloaded_error``,
        ``invalid_request_error``, ...), one popped per call."""
        self.auto_finish: Callable[[str], dict[str, Any]] | None = None
        """With ``hold = False``: the ``finish`` keyword arguments of a batch, by its id."""
        self.cancelled: list[str] = []
        """Batch ids cancelled through ``POST /v1/messages/batches/{id}/cancel``."""

    def __enter__(self) -> FakeAnthropicBatch:
        self.start()
        return self

    def routes(self, app: web.Application) -> None:
        super().routes(app)
        app.router.add_post("/v1/messages/batches", self._create)
        app.router.add_get("/v1/messages/batches/{batch_id}", self._retrieve)
        app.router.add_get("/v1/messages/batches/{batch_id}/results", self._batch_results)
        app.router.add_post("/v1/messages/batches/{batch_id}/cancel", self._cancel)

    # -- test controls ------------------------------------------------------------------------------

    def batch(self, batch_id: str) -> dict[str, Any]:
        with self._lock:
            return dict(self._batches[batch_id])

    def batch_requests(self, batch_id: str) -> dict[str, dict[str, Any]]:
        """custom_id -> ``params`` of a batch, in request order."""
        with self._lock:
            return dict(self._inputs[batch_id])

    def creates(self) -> list[Seen]:
        """Every ``POST /v1/messages/batches`` received (accepted or not)."""
        return self.seen("POST", "/v1/messages/batches")

    def polls(self, batch_id: str | None = None) -> list[Seen]:
        prefix = "/v1/messages/batches/" + (batch_id or "")
        return [
            r
            for r in self.seen("GET", prefix)
            if not r.path.endswith("/results") and (batch_id is None or r.path == prefix)
        ]

    def wait_for_poll(self, batch_id: str | None = None, count: int = 1, timeout: float = 30.0) -> None:
        prefix = "/v1/messages/batches/" + (batch_id or "")
        self.wait_for(
            lambda seen: (
                sum(r.method == "GET" and r.path.startswith(prefix) and not r.path.endswith("/results") for r in seen)
                >= count
            ),
            timeout,
        )

    def finish(
        self,
        batch_id: str,
        expire: Select = None,
        errored: Callable[[str, dict[str, Any]], str | None] | None = None,
        canceled: Select = None,
    ) -> None:
        """End a batch: results ``expired`` for ``expire``, ``canceled`` for ``canceled``, ``errored`` with the error
        type ``errored`` gives (``invalid_request_error``, ``overloaded_error``, ...), ``succeeded`` for the rest."""
        with self._lock:
            self._finish(batch_id, expire, errored, canceled)

    def drop_results(self, batch_id: str) -> None:
        """Archive an ended batch as Anthropic does after 29 days: ``archived_at`` set, ``results_url`` 404s."""
        with self._lock:
            self._drop(batch_id)

    def _drop(self, batch_id: str) -> None:
        obj = self._batches[batch_id]
        created = datetime.fromisoformat(obj["created_at"].replace("Z", "+00:00"))
        obj["archived_at"] = _iso(created + timedelta(days=29))
        self._results.pop(batch_id, None)

    # -- handlers -----------------------------------------------------------------------------------

    async def _create(self, request: web.Request) -> web.StreamResponse:
        body = await self.checked_body(request, _batch_problem)
        if isinstance(body, web.StreamResponse):
            return body
        with self._lock:
            if self.fail_creates:
                return error_reply(self.fail_creates.pop(0))
            batch_id = f"msgbatch_fake{next(self._ids):06d}"
            created = datetime(2025, 6, 1, tzinfo=UTC) + timedelta(minutes=len(self._batches))
            requests = {r["custom_id"]: r["params"] for r in body["requests"]}
            obj = {
                "id": batch_id,
                "type": "message_batch",
                "processing_status": "in_progress",
                "request_counts": {
                    "processing": len(requests),
                    "succeeded": 0,
                    "errored": 0,
                    "canceled": 0,
                    "expired": 0,
                },
                "ended_at": None,
                "created_at": _iso(created),
                "expires_at": _iso(created + timedelta(hours=24)),
                "archived_at": None,
                "cancel_initiated_at": None,
                "results_url": None,
            }
            self._batches[batch_id] = obj
            self._inputs[batch_id] = requests
            self.created.append(batch_id)
            return json_reply(obj)

    async def _retrieve(self, request: web.Request) -> web.StreamResponse:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        batch_id = request.match_info["batch_id"]
        with self._lock:
            obj = self._batches.get(batch_id)
            if obj is None:
                return error_reply("not_found_error", f"message batch {batch_id} not found")
            if obj["processing_status"] == "in_progress" and not self.hold:
                how = self.auto_finish(batch_id) if self.auto_finish is not None else {}
                self._finish(batch_id, how.get("expire", self.auto_expire), how.get("errored"), how.get("canceled"))
                if how.get("drop"):
                    self._drop(batch_id)
            return json_reply(obj)

    async def _cancel(self, request: web.Request) -> web.StreamResponse:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        batch_id = request.match_info["batch_id"]
        with self._lock:
            obj = self._batches.get(batch_id)
            if obj is None:
                return error_reply("not_found_error", f"message batch {batch_id} not found")
            if obj["processing_status"] != "in_progress":
                return error_reply("invalid_request_error", f"message batch {batch_id} is not in progress")
            created = datetime.fromisoformat(obj["created_at"].replace("Z", "+00:00"))
            obj.update(processing_status="canceling", cancel_initiated_at=_iso(created + timedelta(minutes=5)))
            self.cancelled.append(batch_id)
            return json_reply(obj)

    async def _batch_results(self, request: web.Request) -> web.StreamResponse:
        refused = self._refused_headers(request)
        if refused is not None:
            return refused
        batch_id = request.match_info["batch_id"]
        with self._lock:
            obj = self._batches.get(batch_id)
            content = self._results.get(batch_id)
        if obj is None:
            return error_reply("not_found_error", f"message batch {batch_id} not found")
        if obj.get("archived_at"):
            return error_reply("not_found_error", f"the results of message batch {batch_id} are no longer available")
        if content is None:
            return error_reply("invalid_request_error", f"message batch {batch_id} has not ended; no results yet")
        return web.Response(body=content, content_type="application/x-jsonl")

    def _finish(
        self,
        batch_id: str,
        expire: Select,
        errored: Callable[[str, dict[str, Any]], str | None] | None,
        canceled: Select,
    ) -> None:
        obj = self._batches[batch_id]
        if obj["processing_status"] != "in_progress":
            raise ValueError(f"message batch {batch_id} has ended already")
        counts = {"processing": 0, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}
        lines: list[bytes] = []
        for cid, params in self._inputs[batch_id].items():
            error_type = errored(cid, params) if errored is not None else None
            result: dict[str, Any]
            if _selected(expire, cid, params):
                result = {"type": "expired"}
            elif _selected(canceled, cid, params):
                result = {"type": "canceled"}
            elif error_type is not None:
                result = {
                    "type": "errored",
                    "error": {"type": "error", "error": {"type": error_type, "message": error_type.replace("_", " ")}},
                }
            else:
                result = {"type": "succeeded", "message": self.message(params, next(self._ids), Turn())}
            counts[result["type"]] += 1
            lines.append(json.dumps({"custom_id": cid, "result": result}).encode() + b"\n")
        self._results[batch_id] = b"".join(lines)
        ended = datetime.fromisoformat(obj["created_at"].replace("Z", "+00:00")) + timedelta(minutes=30)
        obj.update(
            processing_status="ended",
            request_counts=counts,
            ended_at=_iso(ended),
            results_url=f"{self.url}/v1/messages/batches/{batch_id}/results",
        )


def _batch_problem(body: Any) -> str | None:
    """Why ``POST /v1/messages/batches`` would refuse this body (400 ``invalid_request_error``), or ``None``."""
    if not isinstance(body, dict):
        return "request body must be a JSON object"
    extra = sorted(set(body) - {"requests"})
    if extra:
        return f"{extra[0]}: Extra inputs are not permitted"
    requests = body.get("requests")
    if not isinstance(requests, list) or not requests:
        return "requests: Field required (a non-empty list)"
    if len(requests) > MAX_REQUESTS:
        return f"requests: at most {MAX_REQUESTS} requests per batch"
    seen: set[str] = set()
    for i, item in enumerate(requests):
        if not isinstance(item, dict):
            return f"requests.{i}: Input should be an object"
        extra = sorted(set(item) - {"custom_id", "params"})
        if extra:
            return f"requests.{i}.{extra[0]}: Extra inputs are not permitted"
        cid = item.get("custom_id")
        if not isinstance(cid, str) or not CUSTOM_ID.match(cid):
            return f"requests.{i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'"
        if cid in seen:
            return f"requests.{i}.custom_id: custom_id {cid!r} is used more than once in this batch"
        seen.add(cid)
        if "params" not in item:
            return f"requests.{i}.params: Field required"
        problem = request_problem(item["params"])
        if problem is not None:
            return f"requests.{i}.params.{problem}"
    return None
