"""One HTTP request per attempt, over aiohttp, for every provider that speaks to an endpoint.

A plain HTTP client (not a vendor SDK) so a provider sees every status, header
and raw body, and nothing retries below the policy. aiohttp rather than httpx
because it costs about a third of the CPU per request, which decides
throughput at hundreds of requests in flight (``benchmarks/runner.py --compare``).
A provider supplies the URL, the headers, the body of a cell and the parse of
a 200 body; the status table below is shared, with a provider's own additions.

Streaming (``Setting.streaming``): the body gets the provider's stream form
(``stream_body``, ``stream_url``), the whole event stream is read as it
arrives (bytes keep flowing, so an idle-dropping proxy never cuts the
request), and ``parse_events`` turns the server-sent events into the same
``Attempt`` a whole answer gives. A stream that breaks is a connection error
(retried) and one that ends without its final event is a ``retry`` attempt:
partial text is never recorded, so never graded.
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import aiohttp
import sseclient
import yarl

from execstate.run._attempt import Attempt, CellRequest
from execstate.run._settings import Setting

RETRY_STATUSES = frozenset({408, 409, 425, 429})
ABORT_STATUSES = frozenset({401, 403, 404})
SNIPPET = 300


@dataclass(frozen=True)
class SseEvent:
    """One server-sent event: its ``event`` name (``message`` when the stream names none) and ``data``."""

    event: str
    data: str

    def json(self) -> Any:
        """``data`` as JSON, ``None`` when it is not JSON (``[DONE]``, a keep-alive)."""
        try:
            return json.loads(self.data)
        except ValueError:
            return None


def sse_events(content: bytes) -> list[SseEvent]:
    """The events of a ``text/event-stream`` body (sseclient-py's parser: comments and retry lines dropped,
    multi-line data joined by newlines)."""
    client = sseclient.SSEClient(iter([content]), char_enc="utf-8")
    return [SseEvent(e.event or "message", e.data) for e in client.events()]


class HttpProvider:
    """The transport half of a provider: subclasses define ``url``, ``headers``, ``body`` and ``parse``
    (and, to stream, ``parse_events``)."""

    name = "http"
    pipeline_check = False

    def __init__(self, setting: Setting, url: str, headers: dict[str, str]) -> None:
        self.setting = setting
        self.model: str | None = setting.model
        # Parsed once: aiohttp would otherwise re-parse a str URL on every request.
        self._url = yarl.URL(url)
        self._headers = {"Content-Type": "application/json", **headers}
        self._proxy = env_proxy(url)
        self._session: aiohttp.ClientSession | None = None
        self.streaming = setting.streaming and type(self).parse_events is not HttpProvider.parse_events
        """Stream each request (``Setting.streaming``), when this provider can parse a stream."""
        self._stream_url = yarl.URL(self.stream_url(url)) if self.streaming else self._url

    def body(self, request: CellRequest) -> dict[str, Any]:
        """The JSON body of one cell, from its rendered messages (the provider never sees the task)."""
        raise NotImplementedError

    def parse(self, content: bytes) -> Attempt:
        """The ``Attempt`` of a 200 response's body."""
        raise NotImplementedError

    def stream_body(self, body: dict[str, Any]) -> dict[str, Any]:
        """The body of a streamed request (default: ``"stream": true`` added)."""
        return {**body, "stream": True}

    def stream_url(self, url: str) -> str:
        """The URL of a streamed request (default: the same URL)."""
        return url

    def parse_events(self, events: list[SseEvent], headers: Mapping[str, str]) -> Attempt:
        """The ``Attempt`` of a whole 200 event stream; a stream without its final event is a ``retry``."""
        raise NotImplementedError

    def classify(self, status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
        """Turn one HTTP response into an ``Attempt`` (the table in ``run/_attempt.py``)."""
        if status != 200:
            return status_attempt(status, headers, content)
        return self.parse(content)

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:  # created lazily: a session must be made inside the running loop
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self.setting.concurrency, socket_factory=keepalive_socket),
                # The whole-request deadline is set in attempt(); aiohttp only bounds connecting.
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=self.setting.connect_timeout_s),
                cookie_jar=aiohttp.DummyCookieJar(),  # no state carried between requests
                headers=self._headers,  # session-wide: cheaper than merging per-request headers
            )
        return self._session

    async def attempt(self, request: CellRequest) -> Attempt:
        body = self.body(request)
        url = self._url
        if self.streaming:
            body, url = self.stream_body(body), self._stream_url
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        deadline = self.setting.effective_timeout_s
        expiry = Deadline(deadline)
        try:
            async with self._client().post(url, data=data, proxy=self._proxy) as resp:
                content = await resp.read()
        except aiohttp.ClientError as exc:  # connect errors and timeouts, resets, dropped connections
            return Attempt("retry", error=f"connection error: {exc.__class__.__name__}: {exc}")
        except TimeoutError:
            return Attempt("timeout", error=f"timeout: no complete response within {deadline:g} s")
        except asyncio.CancelledError:
            if expiry.expired_here():
                return Attempt("timeout", error=f"timeout: no complete response within {deadline:g} s")
            raise
        finally:
            expiry.cancel()
        if self.streaming and resp.status == 200 and resp.content_type == "text/event-stream":
            return self.parse_events(sse_events(content), resp.headers)
        return self.classify(resp.status, resp.headers, content)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


def status_attempt(
    status: int, headers: Mapping[str, str], content: bytes, *, retry: frozenset[int] = frozenset()
) -> Attempt:
    """The ``Attempt`` of a non-200 status: retry 408/409/425/429/5xx (and ``retry``), abort 401/403/404,
    else final; the error carries the status and the start of the body."""
    snippet = content[:SNIPPET].decode("utf-8", "replace")
    error = f"HTTP {status}: {snippet}"
    if status in RETRY_STATUSES or status >= 500 or status in retry:
        return Attempt("retry", error=error, retry_after_s=retry_after_s(headers))
    return Attempt("abort" if status in ABORT_STATUSES else "final", error=error)


def json_object(content: bytes) -> dict[str, Any] | Attempt:
    """A 200 body as a JSON object, or the ``retry`` attempt that garbage (not JSON, not an object) is."""
    try:
        data = json.loads(content)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        snippet = content[:SNIPPET].decode("utf-8", "replace")
        return Attempt("retry", error=f"malformed response body ({len(content)} bytes, not a JSON object): {snippet}")
    return data


class Deadline:
    """Cancel the current task after ``seconds``; tell that cancellation apart from any other.

    Does what ``asyncio.timeout`` does with one bare ``call_later`` timer, which
    costs a fraction as much per request (it shows at hundreds in flight).
    """

    __slots__ = ("_cancelling", "_fired", "_handle", "_task")

    def __init__(self, seconds: float) -> None:
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("a request deadline needs a running task")
        self._task = task
        self._cancelling = task.cancelling()
        self._fired = False
        self._handle = asyncio.get_running_loop().call_later(seconds, self._fire)

    def _fire(self) -> None:
        self._fired = True
        self._task.cancel()

    def expired_here(self) -> bool:
        """True when the ``CancelledError`` being handled is this deadline's alone (then it is absorbed)."""
        return self._fired and self._task.uncancel() <= self._cancelling

    def cancel(self) -> None:
        self._handle.cancel()


def keepalive_socket(addr_info: tuple[Any, ...]) -> socket.socket:
    """A TCP socket that probes an idle peer every 15 s after 60 s of silence, giving up after 4 misses.

    A reasoning request can sit silent for an hour: the probes keep NAT and
    proxy mappings alive, and a peer lost to a network change or a sleeping
    laptop becomes a connection error (retried) within ~2 minutes instead of
    a timeout (not retried) at ``timeout_s``.
    """
    family, type_, proto = addr_info[0], addr_info[1], addr_info[2]
    sock = socket.socket(family=family, type=type_, proto=proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    for name, value in (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 15), ("TCP_KEEPCNT", 4)):
        if hasattr(socket, name):  # Linux; other systems keep their defaults
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
    return sock


def env_proxy(url: str) -> str | None:
    """The proxy the environment (``HTTPS_PROXY``, ``NO_PROXY``, ...) names for ``url``, looked up once.

    aiohttp's own ``trust_env`` repeats this lookup (and a netrc read) in a
    thread for every request; doing it once keeps the per-request cost flat.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme)


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """Seconds from ``retry-after-ms``, or ``Retry-After`` (seconds or an HTTP date)."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


async def preflight_get(setting: Setting, url: str, headers: Mapping[str, str]) -> tuple[int, bytes]:
    """``GET url`` before a setting's first cell (reachability, a models endpoint): the status and the body.

    Raises ``SettingsError`` naming the setting and the fix when the endpoint does not answer HTTP at all."""
    from execstate.errors import SettingsError

    timeout = aiohttp.ClientTimeout(total=min(setting.connect_timeout_s, 30.0))
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, headers=dict(headers), proxy=env_proxy(url)) as resp,
        ):
            return resp.status, await resp.read()
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise SettingsError(
            f"setting {setting.name!r}: endpoint {setting.endpoint_root} is unreachable "
            f"({exc.__class__.__name__}: {exc}); start the server or correct base_url"
        ) from None


def key_refused(setting: Setting, url: str, status: int, detail: str | None = None) -> Exception:
    """The ``SettingsError`` of a preflight answered 401/403 (the vendor's reason in ``detail`` when given)."""
    from execstate.errors import SettingsError

    return SettingsError(
        f"setting {setting.name!r}: {url} refused the API key (HTTP {status}){': ' + detail if detail else ''}; "
        f"check the key in {setting.api_key_env or '(no api_key_env set)'}"
    )


async def reachable(setting: Setting, url: str, headers: dict[str, str]) -> None:
    """Check that an endpoint answers HTTP at all (``GET url``): any status counts except 401/403, which mean
    the key was refused. Raises ``SettingsError`` naming the setting and the fix otherwise."""
    status, _ = await preflight_get(setting, url, headers)
    if status in (401, 403):
        raise key_refused(setting, url, status)
