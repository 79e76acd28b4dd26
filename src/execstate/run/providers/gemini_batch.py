"""The batch form of ``provider = "gemini"``: the Gemini Batch API, half the price of live requests (``run --batch``).

The driver and journal are ``run/_batch.py``'s and ``run/_journal.py``'s, the HTTP client ``run/providers/_wire.py``'s;
this module knows only Google's endpoints and the
shapes of its batch operations and results, each result classified as the live request would be.

Create: ``POST {root}/{api_version}/models/{model}:batchGenerateContent`` with the requests inlined::

    {"batch": {"display_name": "execstate <setting>",
               "input_config": {"requests": {"requests": [{"request": <the live generateContent body>,
                                                           "metadata": {"key": <custom_id>}}, ...]}}}}

The answer is a long-running operation whose ``name`` (``batches/<id>``) is the batch id. Poll
``GET {root}/{api_version}/batches/<id>``: ``metadata.state`` is ``BATCH_STATE_PENDING`` or
``BATCH_STATE_RUNNING`` until it ends ``BATCH_STATE_SUCCEEDED``, ``BATCH_STATE_FAILED``,
``BATCH_STATE_CANCELLED`` or ``BATCH_STATE_EXPIRED`` (``done: true``; the request counts are
``metadata.batchStats``, int64 counts spelled as strings). A succeeded batch's results are inlined in
``response.inlinedResponses.inlinedResponses`` (one ``{"response": GenerateContentResponse} | {"error":
google.rpc.Status}`` per request, in the order of the requests, with the request's ``metadata``), or, for a
large batch, a JSONL file named by ``response.responsesFile`` read at ``GET
{root}/download/{api_version}/<file>:download?alt=media`` (one ``{"key", "response" | "error"}`` per line).
A result is matched to its cell by its ``metadata.key`` (``key`` in the file); a result without one is
matched by its position when this process submitted the batch (the order is the requests'), else counted
missing and its cell sent again. A failed, cancelled or expired batch has no results: every cell goes again.
``POST {root}/{api_version}/batches/<id>:cancel`` cancels a batch. The key goes in ``x-goog-api-key``.

Limits: inlined requests must stay under 20 MB per batch creation (``max_bytes``, the guide's limit for inline
requests); the guide sets no count per batch, so ``max_requests`` is execstate's own default chunk.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from execstate.run._attempt import Attempt, Messages
from execstate.run._backoff import SettingAborted
from execstate.run._settings import Setting
from execstate.run.providers._wire import BatchHttp, BatchStatus, jsonl_objects, quote
from execstate.run.providers.gemini import ENTRY as LIVE_ENTRY
from execstate.run.providers.gemini import (
    KEY_HEADER,
    GeminiOptions,
    classify_response,
    model_name,
    parse_generate,
    request_body,
)

ENDED = frozenset({"BATCH_STATE_SUCCEEDED", "BATCH_STATE_FAILED", "BATCH_STATE_CANCELLED", "BATCH_STATE_EXPIRED"})
"""The states of a batch that has ended (``JOB_STATE_*`` spellings are read the same way)."""

RPC_STATUS: dict[int, tuple[int, str]] = {
    1: (499, "CANCELLED"),
    2: (500, "UNKNOWN"),
    3: (400, "INVALID_ARGUMENT"),
    4: (504, "DEADLINE_EXCEEDED"),
    5: (404, "NOT_FOUND"),
    7: (403, "PERMISSION_DENIED"),
    8: (429, "RESOURCE_EXHAUSTED"),
    9: (400, "FAILED_PRECONDITION"),
    10: (409, "ABORTED"),
    13: (500, "INTERNAL"),
    14: (503, "UNAVAILABLE"),
    16: (401, "UNAUTHENTICATED"),
}
"""A ``google.rpc.Status`` code -> the HTTP status and name a live request would have got (Google's mapping)."""

_BATCH_NAME = re.compile(r"^batches/[A-Za-z0-9_.-]+$")


class GeminiBatchApi:
    """Google's Gemini Batch API with inlined requests (see the module docstring)."""

    name = "gemini"
    max_requests = 10_000
    """Requests per batch: no documented cap; execstate's own chunk (``batch_max_requests`` is lower if set)."""
    max_bytes = 20_000_000
    """Bytes of inlined requests per batch creation (the guide's 20 MB for inline requests)."""

    def __init__(self) -> None:
        self._order: dict[str, list[str]] = {}
        """batch name -> custom_ids in request order, for results that come back without their key."""

    def body(self, setting: Setting, messages: Messages) -> dict[str, Any]:
        return request_body(setting, messages)

    @staticmethod
    def _headers(setting: Setting) -> dict[str, str]:
        key = setting.api_key()
        return {KEY_HEADER: key} if key else {}

    @staticmethod
    def _root(setting: Setting) -> str:
        return f"{setting.endpoint_root.rstrip('/')}/{setting.options(GeminiOptions).api_version}"

    def _batch_url(self, setting: Setting, batch_id: str, method: str = "") -> str:
        name = batch_id if _BATCH_NAME.match(batch_id) else "batches/" + quote(batch_id.removeprefix("batches/"))
        return f"{self._root(setting)}/{name}{method}"

    async def submit(self, http: BatchHttp, setting: Setting, requests: list[tuple[str, dict[str, Any]]]) -> str:
        body = {
            "batch": {
                "display_name": f"execstate {setting.name}",
                "input_config": {
                    "requests": {"requests": [{"request": req, "metadata": {"key": cid}} for cid, req in requests]}
                },
            }
        }
        url = f"{self._root(setting)}/models/{quote(model_name(setting))}:batchGenerateContent"
        what = "creating the Gemini batch"
        created = await http.json("POST", url, what=what, headers=self._headers(setting), json_body=body)
        name = created.get("name")
        if not isinstance(name, str) or not name:
            raise SettingAborted(
                f"setting {setting.name!r}: {what}: the answer has no name: {json.dumps(created)[:300]}"
            )
        self._order[name] = [cid for cid, _ in requests]
        return name

    async def poll(self, http: BatchHttp, setting: Setting, batch_id: str) -> BatchStatus:
        what = f"polling Gemini batch {batch_id}"
        data = await http.json("GET", self._batch_url(setting, batch_id), what=what, headers=self._headers(setting))
        meta = _obj(data.get("metadata"))
        state = str(meta.get("state", "")).replace("JOB_STATE_", "BATCH_STATE_")
        ended = state in ENDED or data.get("done") is True
        return BatchStatus(
            batch_id, state or "BATCH_STATE_UNSPECIFIED", ended, batch_stats(meta.get("batchStats")), data
        )

    async def cancel(self, http: BatchHttp, setting: Setting, batch_id: str) -> None:
        """``POST .../batches/<id>:cancel`` (the batch then ends ``BATCH_STATE_CANCELLED``)."""
        what = f"cancelling Gemini batch {batch_id}"
        await http.call(
            "POST", self._batch_url(setting, batch_id, ":cancel"), what=what, headers=self._headers(setting)
        )

    async def results(self, http: BatchHttp, setting: Setting, status: BatchStatus) -> tuple[dict[str, Attempt], str]:
        data = status.data
        if status.status != "BATCH_STATE_SUCCEEDED":
            error = data.get("error")
            why = f": {json.dumps(error)[:300]}" if error else ""
            return {}, f"the batch ended {status.status}{why}"
        response = _obj(data.get("response"))
        output = _obj(_obj(data.get("metadata")).get("output"))
        inlined = _inlined(response) or _inlined(output)
        if inlined is not None:
            return self._match(status.batch_id, inlined), "missing from the batch results"
        file = response.get("responsesFile") or output.get("responsesFile")
        if not isinstance(file, str) or not file:
            return {}, "the succeeded batch has neither inlined responses nor a responses file"
        url = (
            f"{setting.endpoint_root.rstrip('/')}/download/{setting.options(GeminiOptions).api_version}/{file}:download"
        )
        what = f"reading the results of Gemini batch {status.batch_id}"
        content = await http.call("GET", url + "?alt=media", what=what, headers=self._headers(setting))
        found: dict[str, Attempt] = {}
        for line in jsonl_objects(content):
            key = line.get("key")
            if isinstance(key, str):
                found[key] = result_attempt(line)
        return found, "missing from the batch results file"

    def _match(self, batch_id: str, items: list[Any]) -> dict[str, Attempt]:
        order = self._order.get(batch_id, [])
        found: dict[str, Attempt] = {}
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            meta = item.get("metadata")
            key = meta.get("key") if isinstance(meta, dict) else None
            if not isinstance(key, str) and len(order) == len(items):
                key = order[index]
            if isinstance(key, str):
                found[key] = result_attempt(item)
        return found


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _inlined(container: dict[str, Any]) -> list[Any] | None:
    value = container.get("inlinedResponses")
    if isinstance(value, dict):
        value = value.get("inlinedResponses")
    return value if isinstance(value, list) else None


def batch_stats(value: Any) -> dict[str, int]:
    """``batchStats`` counts (int64 spelled as strings in JSON) as ints."""
    counts: dict[str, int] = {}
    for key, raw in value.items() if isinstance(value, dict) else ():
        if isinstance(raw, int | str) and not isinstance(raw, bool) and str(raw).isdigit():
            counts[str(key)] = int(raw)
    return counts


def result_attempt(item: dict[str, Any]) -> Attempt:
    """The ``Attempt`` of one inlined response or results-file line: a ``response`` through the live
    ``parse_generate``, an ``error`` (``google.rpc.Status``) through the live classification of the HTTP status
    its code maps to (so a per-day quota or a location refusal stops the setting as it does live)."""
    response = item.get("response")
    if isinstance(response, dict):
        return parse_generate(response)
    error = item.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        status, name = RPC_STATUS.get(code, (500, "UNKNOWN")) if isinstance(code, int) else (500, "UNKNOWN")
        body = {"error": {"code": status, "status": name, **{k: v for k, v in error.items() if k != "code"}}}
        return classify_response(status, {}, json.dumps(body).encode("utf-8"))
    return Attempt("retry", error=f"unreadable batch result: {json.dumps(item)[:300]}")


GEMINI_BATCH = GeminiBatchApi()
ENTRY = dataclasses.replace(LIVE_ENTRY, batch=GEMINI_BATCH)
"""``provider = "gemini"`` as registered: the live entry with this batch form (this module imports the live one,
never the reverse, so the two make no import circle)."""
