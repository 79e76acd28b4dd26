"""The batch wire: what a vendor's batch form (``BatchApi``) is, and the HTTP client, errors and parsing helpers
its calls use.

The provider modules' batch forms (``openai_batch``, ``anthropic_batch``, ``gemini_batch``) import this module
only: it sits below the provider registry and the batch driver (``run/_batch.py``), which look the forms up.

A batch form (``BatchApi``) may have, looked up with ``getattr``: ``max_requests`` and ``max_bytes`` (its
limits), ``failure(status) -> Attempt | None`` (a batch that ended failed as a whole: ``retry`` re-submits
it, ``abort`` stops the setting) and ``async cancel(http, setting, batch_id) -> str``. A results download
that raises ``ResultsGone`` (``BatchHttp.call(..., gone=True)`` on 404/410) closes the batch and re-sends its
cells unspent.
"""

from __future__ import annotations

import asyncio
import json
import random
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from execstate.run._attempt import Attempt, Messages, int_or_none
from execstate.run._backoff import SettingAborted, backoff_s, redact
from execstate.run._settings import Setting
from execstate.run.providers._http import env_proxy, status_attempt


@dataclass(frozen=True)
class BatchStatus:
    """One poll of a batch."""

    batch_id: str
    status: str
    """The vendor's word: OpenAI ``status``, Anthropic ``processing_status``."""
    ended: bool
    counts: dict[str, int]
    """The vendor's ``request_counts``."""
    data: dict[str, Any]
    """The whole batch object."""


class BatchApi(Protocol):
    """A vendor's batch form: what ``ProviderEntry.batch`` names."""

    name: str

    def body(self, setting: Setting, messages: Messages) -> dict[str, Any]:
        """The request body of one cell, from its rendered messages: the live request's."""
        ...

    async def submit(self, http: BatchHttp, setting: Setting, requests: list[tuple[str, dict[str, Any]]]) -> str:
        """Send (custom_id, body) pairs as one batch; the vendor's batch id."""
        ...

    async def poll(self, http: BatchHttp, setting: Setting, batch_id: str) -> BatchStatus: ...

    async def results(self, http: BatchHttp, setting: Setting, status: BatchStatus) -> tuple[dict[str, Attempt], str]:
        """The ``Attempt`` of every custom_id found in an ended batch's results, and the error of the missing ones."""
        ...


class BatchFailed(Exception):
    """Submitting a batch failed as a whole (refused at creation, 429/5xx/connection error on the way):
    a batch event, re-submitted after a delay, never a cell event."""


class ResultsGone(Exception):
    """An ended batch whose results the vendor no longer keeps (archived, expired files, 404)."""


ACCOUNT_ERRORS: tuple[tuple[int | None, str], ...] = (
    (402, ""),
    (None, "billing_error"),
    (None, "credit balance is too low"),
    (None, "insufficient_quota"),
    (None, "billing_hard_limit_reached"),
    (None, "billing_not_active"),
)
"""(status, text in the error body) of a batch call or result that is an account error, not a request one:
the setting stops and the cells stay pending. ``None``: any status. Anthropic: 402, ``billing_error``, a
400 whose message says the credit balance is too low; OpenAI: ``insufficient_quota``,
``billing_hard_limit_reached``, ``billing_not_active``."""


def account_error(status: int, content: bytes) -> bool:
    """Whether a non-2xx batch answer (or an errored result's body) is one of ``ACCOUNT_ERRORS``."""
    text = content[:4000].decode("utf-8", "replace").lower()
    return any((want is None or status == want) and needle in text for want, needle in ACCOUNT_ERRORS)


def batch_delay_s(setting: Setting, failure: int, rng: random.Random) -> float:
    """Delay before re-submitting after the ``failure``-th whole-batch failure (1-based): uniform in
    [d/2, d], d = ``batch_retry_s`` * 2**(failure-1) (60 s: 30-60, 60-120, 120-240 s, ...)."""
    ceiling = setting.batch_retry_s * 2 ** (failure - 1)
    return rng.uniform(ceiling / 2, ceiling)


class BatchHttp:
    """One setting's HTTP client for batch calls: 2xx returns the body; 429/5xx/connection errors are retried
    with the setting's backoff up to ``max_attempts``; 401/403/404, an account error (``ACCOUNT_ERRORS``), any
    other 4xx, or a spent budget raise ``SettingAborted`` (the cells stay pending or open: a re-run resumes).

    With ``submitting``, the client of batch creation: a 429/5xx/connection error or any other 4xx than
    401/403/404 raises ``BatchFailed`` at once (the driver re-submits after ``batch_delay_s``). A call made
    with ``gone=True`` (reading results) raises ``ResultsGone`` on 404 or 410."""

    def __init__(
        self, setting: Setting, rng: random.Random, secrets: tuple[str, ...] = (), *, submitting: bool = False
    ) -> None:
        self.setting = setting
        self.rng = rng
        self.secrets = secrets
        self.submitting = submitting
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(
                    total=self.setting.effective_timeout_s, sock_connect=self.setting.connect_timeout_s
                ),
                cookie_jar=aiohttp.DummyCookieJar(),
            )
        return self._session

    async def call(
        self,
        method: str,
        url: str,
        *,
        what: str,
        headers: Mapping[str, str],
        json_body: Any = None,
        form: Callable[[], aiohttp.FormData] | None = None,
        gone: bool = False,
    ) -> bytes:
        setting = self.setting
        for number in range(1, setting.max_attempts + 1):
            send = dict(headers)
            data: Any = None
            if form is not None:
                data = form()  # a FormData is consumed by one send: a fresh one per attempt
            elif json_body is not None:
                data = json.dumps(json_body, ensure_ascii=False).encode("utf-8")
                send["Content-Type"] = "application/json"
            try:
                async with self._client().request(method, url, data=data, headers=send, proxy=env_proxy(url)) as resp:
                    content = await resp.read()
            except (aiohttp.ClientError, TimeoutError) as exc:
                attempt = Attempt("retry", error=f"connection error: {exc.__class__.__name__}: {exc}")
            else:
                if 200 <= resp.status < 300:
                    return content
                attempt = status_attempt(resp.status, resp.headers, content)
                if account_error(resp.status, content):
                    attempt = Attempt("abort", error=f"account error: {attempt.error}")
                elif gone and resp.status in (404, 410):
                    raise ResultsGone(redact(f"{what}: {attempt.error}", self.secrets))
            error = redact(f"{what}: {attempt.error}", self.secrets)
            if attempt.kind == "abort":
                raise SettingAborted(f"setting {setting.name!r}: {error}")
            if self.submitting:
                raise BatchFailed(error)
            if attempt.kind == "final":
                raise SettingAborted(f"setting {setting.name!r}: {error}")
            if number >= setting.max_attempts:
                raise SettingAborted(
                    f"setting {setting.name!r}: {error} (gave up after {number} attempts; "
                    "re-run the same command to resume)"
                )
            await asyncio.sleep(backoff_s(setting, number, attempt.retry_after_s, self.rng))
        raise AssertionError("unreachable")

    async def json(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        content = await self.call(method, url, **kwargs)
        try:
            data = json.loads(content)
        except ValueError:
            data = None
        if not isinstance(data, dict):
            snippet = content[:300].decode("utf-8", "replace")
            raise SettingAborted(f"setting {self.setting.name!r}: {kwargs['what']}: not a JSON object: {snippet}")
        return data

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


def quote(part: str) -> str:
    return urllib.parse.quote(part, safe="")


def jsonl_objects(content: bytes) -> Iterable[dict[str, Any]]:
    for line in content.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue  # a line we cannot read names no cell: that cell counts as missing, and is sent again
        if isinstance(item, dict):
            yield item


def response_id(data: dict[str, Any], what: str, setting: Setting) -> str:
    value = data.get("id")
    if not isinstance(value, str) or not value:
        raise SettingAborted(f"setting {setting.name!r}: {what}: the answer has no id: {json.dumps(data)[:300]}")
    return value


def request_counts(value: Any) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {str(k): v for k, v in value.items() if int_or_none(v) is not None}
