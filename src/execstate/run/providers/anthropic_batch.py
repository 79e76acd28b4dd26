"""The batch form of ``provider = "anthropic"``: Message Batches, half the price of live requests (``run --batch``).

The driver and journal are ``run/_batch.py``'s and ``run/_journal.py``'s, the HTTP client ``run/providers/_wire.py``'s;
this module knows only the vendor's endpoints and
the shapes of its batch objects and results, each result classified as the live request would be.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from execstate.run._attempt import Attempt, Messages
from execstate.run._settings import Setting
from execstate.run.providers._wire import (
    BatchHttp,
    BatchStatus,
    ResultsGone,
    account_error,
    jsonl_objects,
    quote,
    request_counts,
    response_id,
)
from execstate.run.providers.anthropic import ENTRY as LIVE_ENTRY
from execstate.run.providers.anthropic import (
    ERROR_STATUS,
    classify_response,
    parse_message,
    request_body,
    request_headers,
)

ANTHROPIC_ERROR_STATUS = ERROR_STATUS
"""The HTTP status a live request would have got for an errored batch result's ``error.type`` (the live
provider's table)."""


class AnthropicBatchApi:
    """Anthropic's Message Batches API.

    ``POST {root}/v1/messages/batches`` with ``{"requests": [{"custom_id", "params"}]}`` (``params``: the
    live Messages body), poll ``GET {root}/v1/messages/batches/{id}`` until ``processing_status`` is
    ``ended``, then read the JSONL at ``results_url``: one ``{custom_id, result: {type: succeeded | errored |
    canceled | expired, message | error}}`` per request. Same headers as live (``x-api-key``,
    ``anthropic-version``).

    Results are kept 29 days: a batch with ``archived_at`` set, or a 404 on its ``results_url``, has lost
    them (``ResultsGone``: the cells go again, unspent). ``POST .../batches/{id}/cancel`` cancels. Limits:
    100,000 requests or 256 MB per batch, whichever comes first (the Message Batches guide).
    """

    name = "anthropic"
    max_requests = 100_000
    max_bytes = 256_000_000

    def body(self, setting: Setting, messages: Messages) -> dict[str, Any]:
        return request_body(setting, messages)

    def _headers(self, setting: Setting) -> dict[str, str]:
        return request_headers(setting, setting.api_key())

    @staticmethod
    def _url(setting: Setting, *parts: str) -> str:
        return "/".join([setting.endpoint_root.rstrip("/") + "/v1/messages/batches", *map(quote, parts)])

    async def submit(self, http: BatchHttp, setting: Setting, requests: list[tuple[str, dict[str, Any]]]) -> str:
        body = {"requests": [{"custom_id": cid, "params": params} for cid, params in requests]}
        what = "creating the message batch"
        created = await http.json("POST", self._url(setting), what=what, headers=self._headers(setting), json_body=body)
        return response_id(created, what, setting)

    async def poll(self, http: BatchHttp, setting: Setting, batch_id: str) -> BatchStatus:
        what = f"polling message batch {batch_id}"
        data = await http.json("GET", self._url(setting, batch_id), what=what, headers=self._headers(setting))
        status = str(data.get("processing_status"))
        return BatchStatus(batch_id, status, status == "ended", request_counts(data.get("request_counts")), data)

    async def results(self, http: BatchHttp, setting: Setting, status: BatchStatus) -> tuple[dict[str, Attempt], str]:
        archived = status.data.get("archived_at")
        if archived:
            raise ResultsGone(f"message batch {status.batch_id} was archived at {archived}; its results are gone")
        url = status.data.get("results_url")
        if not isinstance(url, str) or not url:
            return {}, "the ended batch has no results_url"
        what = f"reading the results of message batch {status.batch_id}"
        content = await http.call("GET", url, what=what, headers=self._headers(setting), gone=True)
        found: dict[str, Attempt] = {}
        for line in jsonl_objects(content):
            cid = line.get("custom_id")
            if isinstance(cid, str):
                found[cid] = self.result_attempt(line.get("result"))
        return found, "missing from the batch results"

    def result_attempt(self, result: Any) -> Attempt:
        """The ``Attempt`` of one ``result``: ``succeeded`` through the live ``parse_message``, ``errored`` through
        the live status classification of its ``error.type``, ``canceled``/``expired`` sent again."""
        kind = result.get("type") if isinstance(result, dict) else None
        if kind == "succeeded":
            message = result.get("message")
            if isinstance(message, dict):
                return parse_message(message)
            return Attempt("retry", error="succeeded result without a message")
        if kind == "errored":
            error = result.get("error")
            inner = error.get("error") if isinstance(error, dict) else None
            error_type = inner.get("type") if isinstance(inner, dict) else None
            status = ANTHROPIC_ERROR_STATUS.get(error_type, 500) if isinstance(error_type, str) else 500
            content = json.dumps(error).encode("utf-8")
            attempt = classify_response(status, {}, content)
            if account_error(status, content):  # billing_error, credit balance too low: the setting stops
                return Attempt("abort", error=f"account error: {attempt.error}")
            return attempt
        if kind == "canceled":
            return Attempt("retry", error="canceled: the batch was canceled before this request was processed")
        if kind == "expired":
            return Attempt(
                "retry", error="expired: the batch reached its 24-hour limit before this request was processed"
            )
        return Attempt("retry", error=f"unreadable batch result: {json.dumps(result)[:300]}")

    async def cancel(self, http: BatchHttp, setting: Setting, batch_id: str) -> str:
        """``POST .../batches/{id}/cancel``; the batch's ``processing_status`` after it (``canceling``, ...)."""
        what = f"cancelling message batch {batch_id}"
        url = self._url(setting, batch_id, "cancel")
        data = await http.json("POST", url, what=what, headers=self._headers(setting))
        return str(data.get("processing_status"))


ANTHROPIC_BATCH = AnthropicBatchApi()
ENTRY = dataclasses.replace(LIVE_ENTRY, batch=ANTHROPIC_BATCH)
"""``provider = "anthropic"`` as registered: the live entry with this batch form (this module imports the live
one, never the reverse, so the two make no import circle)."""
