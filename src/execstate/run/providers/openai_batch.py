"""The batch form of ``provider = "openai"``: OpenAI's Batch API, half the price of live requests (``run --batch``).

The driver and journal are ``run/_batch.py``'s and ``run/_journal.py``'s, the HTTP client ``run/providers/_wire.py``'s;
this module knows only the vendor's endpoints and
the shapes of its batch objects and result lines, each result classified as the live request would be.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import aiohttp

import execstate.run.providers.openai_responses as openai_responses
from execstate.run._attempt import Attempt, Messages, int_or_none
from execstate.run._settings import Setting
from execstate.run.providers._wire import (
    BatchHttp,
    BatchStatus,
    account_error,
    jsonl_objects,
    quote,
    request_counts,
    response_id,
)
from execstate.run.providers.openai import ENTRY as CHAT_ENTRY
from execstate.run.providers.openai import classify_response, request_body

ACCOUNT_CODES = frozenset({"insufficient_quota", "billing_hard_limit_reached", "billing_not_active"})
"""``error.code`` values of a result line or of a failed batch's ``errors`` that are account errors: the
setting stops, the cells stay pending (no retry: waiting does not refill a quota)."""


class OpenAIBatchApi:
    """OpenAI's Batch API over ``/v1/chat/completions``.

    Upload the JSONL input (``POST {root}/files``, multipart, ``purpose=batch``), create the batch
    (``POST {root}/batches`` with ``input_file_id``, ``endpoint``, ``completion_window: "24h"``),
    poll ``GET {root}/batches/{id}`` until ``completed``, ``failed``, ``expired`` or ``cancelled``,
    then read ``GET {root}/files/{output_file_id}/content`` and the ``error_file_id`` one. An expired
    batch's unfinished requests come back in the error file with code ``batch_expired``.

    A batch ``failed`` as a whole (validation, ``token_limit_exceeded`` for the organization's enqueued
    tokens) is a batch event (``failure``); a 404 on a result file (files expire, 30 days by default) means the
    results are gone. ``POST {root}/batches/{id}/cancel`` cancels. Limits: 50,000 requests and 200 MB per
    input file (the API reference of ``POST /batches``).
    """

    name = "openai"
    endpoint = "/v1/chat/completions"
    ended = frozenset({"completed", "failed", "expired", "cancelled"})
    max_requests = 50_000
    max_bytes = 200_000_000

    def body(self, setting: Setting, messages: Messages) -> dict[str, Any]:
        return request_body(setting, messages)

    def line_attempt(self, line: dict[str, Any]) -> Attempt:
        """The ``Attempt`` of one line of the output or error file."""
        return openai_line_attempt(line)

    @staticmethod
    def _root(setting: Setting) -> str:
        return setting.endpoint_root.rstrip("/")

    @staticmethod
    def _headers(setting: Setting) -> dict[str, str]:
        key = setting.api_key()
        return {"Authorization": f"Bearer {key}"} if key else {}

    async def submit(self, http: BatchHttp, setting: Setting, requests: list[tuple[str, dict[str, Any]]]) -> str:
        payload = b"".join(
            (
                json.dumps({"custom_id": cid, "method": "POST", "url": self.endpoint, "body": body}, ensure_ascii=False)
                + "\n"
            ).encode("utf-8")
            for cid, body in requests
        )

        def form() -> aiohttp.FormData:
            data = aiohttp.FormData()
            data.add_field("purpose", "batch")
            data.add_field("file", payload, filename="execstate-batch.jsonl", content_type="application/jsonl")
            return data

        root, headers = self._root(setting), self._headers(setting)
        what = "uploading the batch input file"
        uploaded = await http.json("POST", f"{root}/files", what=what, headers=headers, form=form)
        file_id = response_id(uploaded, what, setting)
        what = "creating the batch"
        body = {"input_file_id": file_id, "endpoint": self.endpoint, "completion_window": "24h"}
        created = await http.json("POST", f"{root}/batches", what=what, headers=headers, json_body=body)
        return response_id(created, what, setting)

    async def poll(self, http: BatchHttp, setting: Setting, batch_id: str) -> BatchStatus:
        url = f"{self._root(setting)}/batches/{quote(batch_id)}"
        data = await http.json("GET", url, what=f"polling batch {batch_id}", headers=self._headers(setting))
        status = str(data.get("status"))
        return BatchStatus(batch_id, status, status in self.ended, request_counts(data.get("request_counts")), data)

    async def results(self, http: BatchHttp, setting: Setting, status: BatchStatus) -> tuple[dict[str, Attempt], str]:
        found: dict[str, Attempt] = {}
        for key in ("output_file_id", "error_file_id"):
            file_id = status.data.get(key)
            if not isinstance(file_id, str) or not file_id:
                continue
            url = f"{self._root(setting)}/files/{quote(file_id)}/content"
            what = f"reading {key.removesuffix('_id').replace('_', ' ')} {file_id} of batch {status.batch_id}"
            content = await http.call("GET", url, what=what, headers=self._headers(setting), gone=True)
            for line in jsonl_objects(content):
                cid = line.get("custom_id")
                if isinstance(cid, str) and (cid not in found or found[cid].kind != "completed"):
                    found[cid] = self.line_attempt(line)
        return found, _openai_missing(status)

    def failure(self, status: BatchStatus) -> Attempt | None:
        """A batch ended ``failed`` as a whole: ``abort`` for an account error among its ``errors``, else
        ``retry`` (re-submitted after a delay); ``None`` for any other end."""
        if status.status != "failed":
            return None
        errors = status.data.get("errors")
        data = errors.get("data") if isinstance(errors, dict) else None
        items = [e for e in data or [] if isinstance(e, dict)]
        detail = "; ".join(f"{e.get('code')}: {e.get('message')}" for e in items) or "no reason given"
        account = any(e.get("code") in ACCOUNT_CODES for e in items)
        return Attempt("abort" if account else "retry", error=f"batch {status.batch_id} failed: {detail}")

    async def cancel(self, http: BatchHttp, setting: Setting, batch_id: str) -> str:
        """``POST /batches/{id}/cancel``; the batch's status after it (``cancelling``, ...)."""
        url = f"{self._root(setting)}/batches/{quote(batch_id)}/cancel"
        data = await http.json("POST", url, what=f"cancelling batch {batch_id}", headers=self._headers(setting))
        return str(data.get("status"))


class OpenAIResponsesBatchApi(OpenAIBatchApi):
    """The Batch API over ``/v1/responses`` (``provider = "openai-responses"``): each line's body is the live
    ``openai_responses.request_body``; a 200 line's body goes through ``openai_responses.parse_response``, any
    other status through its ``error_attempt``."""

    name = "openai-responses"
    endpoint = "/v1/responses"

    def body(self, setting: Setting, messages: Messages) -> dict[str, Any]:
        return openai_responses.request_body(setting, messages)

    def line_attempt(self, line: dict[str, Any]) -> Attempt:
        response = line.get("response")
        status = int_or_none(response.get("status_code")) if isinstance(response, dict) else None
        if not isinstance(response, dict) or status is None:
            return openai_line_attempt(line)
        body = response.get("body")
        if status == 200:
            if not isinstance(body, dict):
                return Attempt("retry", error=f"malformed batch result body: {json.dumps(body)[:300]}")
            return openai_responses.parse_response(body)
        content = json.dumps(body).encode("utf-8")
        attempt = openai_responses.error_attempt(status, {}, content)
        if account_error(status, content):
            return Attempt("abort", error=f"account error: {attempt.error}")
        return attempt


def openai_line_attempt(line: dict[str, Any]) -> Attempt:
    """The ``Attempt`` of one line of an OpenAI batch output or error file.

    ``response.status_code`` and ``response.body`` go through the live classification
    (``providers.openai.classify_response``); ``error.code`` ``request_timeout`` is a timeout, any other
    (``batch_expired``, ``batch_cancelled``, ...) is sent again.
    """
    response = line.get("response")
    if isinstance(response, dict) and int_or_none(response.get("status_code")) is not None:
        status = int(response["status_code"])
        content = json.dumps(response.get("body")).encode("utf-8")
        attempt = classify_response(status, {}, content)
        if status != 200 and account_error(status, content):
            return Attempt("abort", error=f"account error: {attempt.error}")
        return attempt
    error = line.get("error")
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        text = f"{code}: {message}" if message else str(code)
        if code in ACCOUNT_CODES:
            return Attempt("abort", error=f"account error: {text}")
        if code == "request_timeout":
            return Attempt("timeout", error=f"timeout: {text}")
        return Attempt("retry", error=text)
    return Attempt("retry", error=f"unreadable batch result line: {json.dumps(line)[:300]}")


def _openai_missing(status: BatchStatus) -> str:
    if status.status == "failed":
        errors = status.data.get("errors")
        data = errors.get("data") if isinstance(errors, dict) else None
        detail = "; ".join(f"{e.get('code')}: {e.get('message')}" for e in data or [] if isinstance(e, dict))
        return f"batch failed: {detail or 'no reason given'}"
    if status.status == "expired":
        return "batch_expired: the batch expired before this request ran"
    if status.status == "cancelled":
        return "batch_cancelled: the batch was cancelled before this request ran"
    return "missing from the batch output"


OPENAI_BATCH = OpenAIBatchApi()
OPENAI_RESPONSES_BATCH = OpenAIResponsesBatchApi()
OPENAI_ENTRY = dataclasses.replace(CHAT_ENTRY, batch=OPENAI_BATCH)
"""``provider = "openai"`` as registered: the live entry with its batch form (this module imports the live ones,
never the reverse, so they make no import circle)."""
RESPONSES_ENTRY = dataclasses.replace(openai_responses.ENTRY, batch=OPENAI_RESPONSES_BATCH)
"""``provider = "openai-responses"`` as registered: the live entry with its batch form."""
