"""Providers: one request attempt for one cell, classified for the retry policy.

A provider never retries and never raises for a failed request: it returns an
``Attempt`` whose ``kind`` tells the policy in ``_policy.py`` what to do.

    completed  an answer arrived (any finish reason)     -> recorded, never retried
    retry      429/408/409/425/5xx, connection error,    -> retried with backoff
               unparseable body, no choices
    timeout    the request hit ``timeout_s``              -> retried only if ``retry_timeouts``
    final      any other 4xx, replay entry missing        -> recorded as no-response now
    abort      401/403/404: key, model or URL is wrong    -> the setting stops, nothing recorded
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Literal, Protocol

import aiohttp
import yarl

from execstate.records import Task, Usage
from execstate.run._prompt import render_messages
from execstate.run._settings import Setting, SettingsError

AttemptKind = Literal["completed", "retry", "timeout", "final", "abort"]
RETRY_STATUSES = frozenset({408, 409, 425, 429})
ABORT_STATUSES = frozenset({401, 403, 404})
_SNIPPET = 300


@dataclass(frozen=True)
class Attempt:
    """The outcome of one request attempt."""

    kind: AttemptKind
    text: str | None = None
    reasoning: str | None = None
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    error: str | None = None
    retry_after_s: float | None = None
    """Server-requested wait (``Retry-After`` / ``retry-after-ms``), seconds."""


class Provider(Protocol):
    """Sends one attempt for a cell; never retries, never raises for request failures."""

    name: str
    model: str | None
    pipeline_check: bool

    async def attempt(self, task: Task, sample: int) -> Attempt: ...

    async def aclose(self) -> None: ...


class OracleProvider:
    """Answers every task with its oracle in a valid envelope: a pipeline check, not a model.

    The answer is the oracle without its one final newline (SPEC 9: what an exact answer is under
    every rule, byte equality included), so every cell it answers grades correct.
    """

    name = "oracle"
    model: str | None = "oracle"
    pipeline_check = True

    async def attempt(self, task: Task, sample: int) -> Attempt:
        text = json.dumps({"output": task.oracle.removesuffix("\n")}, ensure_ascii=False)
        return Attempt("completed", text=text, finish_reason="stop")

    async def aclose(self) -> None:
        return None


class ReplayProvider:
    """Answers from a JSONL file of ``{task_id, text}`` lines (optional ``sample``; other keys ignored).

    A line with ``sample`` answers only that sample; one without answers every
    sample of its task. A task with no line is recorded as ``no-response``.
    """

    name = "replay"
    pipeline_check = False

    def __init__(self, path: Path, model: str | None = None) -> None:
        self.path = path
        self.model: str | None = model or f"replay:{path.name}"
        self._texts = _load_replay(path)

    async def attempt(self, task: Task, sample: int) -> Attempt:
        for key in ((task.task_id, sample), (task.task_id, None)):
            if key in self._texts:
                text = self._texts[key]
                if text is None:
                    return Attempt("final", error=f"replay file {self.path} has text null for {task.task_id}")
                return Attempt("completed", text=text, finish_reason="replay")
        return Attempt("final", error=f"replay file {self.path} has no entry for task {task.task_id} sample {sample}")

    async def aclose(self) -> None:
        return None


def _load_replay(path: Path) -> dict[tuple[str, int | None], str | None]:
    texts: dict[tuple[str, int | None], str | None] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SettingsError(f"replay file {path}: cannot read: {exc}") from exc
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            key = (str(obj["task_id"]), obj.get("sample"))
            text = obj["text"]
        except (ValueError, KeyError, TypeError) as exc:
            raise SettingsError(f"{path}:{lineno}: need a JSON object with task_id and text ({exc!r})") from None
        if key in texts:
            raise SettingsError(f"{path}:{lineno}: task {key[0]} sample {key[1]} appears twice")
        if text is not None and not isinstance(text, str):
            raise SettingsError(f"{path}:{lineno}: text must be a string or null")
        texts[key] = None if text is None else unicode_text(text)
    return texts


class OpenAIProvider:
    """Any OpenAI-compatible ``POST {base_url}/chat/completions`` endpoint, over aiohttp.

    A plain HTTP client (not the ``openai`` SDK) so this module sees every
    status, header and raw body, and nothing retries below the policy. aiohttp
    rather than httpx because it costs about a third of the CPU per request,
    which decides throughput at hundreds of requests in flight (see
    ``benchmarks/runner.py --compare``).
    """

    name = "openai"
    pipeline_check = False

    def __init__(self, setting: Setting, api_key: str | None) -> None:
        self.setting = setting
        self.model = setting.model
        # Parsed once: aiohttp would otherwise re-parse a str URL on every request.
        self._url = yarl.URL(str(setting.base_url).rstrip("/") + "/chat/completions")
        self._headers = {"Content-Type": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._proxy = env_proxy(str(self._url))
        self._session: aiohttp.ClientSession | None = None

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

    async def attempt(self, task: Task, sample: int) -> Attempt:
        data = json.dumps(request_body(self.setting, task), ensure_ascii=False).encode("utf-8")
        deadline = self.setting.effective_timeout_s
        expiry = _Deadline(deadline)
        try:
            async with self._client().post(self._url, data=data, proxy=self._proxy) as resp:
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
        return classify_response(resp.status, resp.headers, content)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()


class _Deadline:
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


def request_body(setting: Setting, task: Task) -> dict[str, Any]:
    """The JSON request for one task: model, the SPEC prompt, then the setting's fields.

    ``reasoning`` goes in ``reasoning_field`` unless it is ``off``; temperature
    and top-p only when set; ``extra_body`` is merged last and wins.
    """
    body: dict[str, Any] = {"model": setting.model, "messages": render_messages(task)}
    if setting.reasoning != "off" and setting.reasoning_field:
        body[setting.reasoning_field] = setting.reasoning
    if setting.max_output_tokens is not None:
        body[setting.max_tokens_field] = setting.max_output_tokens
    if setting.temperature is not None:
        body["temperature"] = setting.temperature
    if setting.top_p is not None:
        body["top_p"] = setting.top_p
    body.update(setting.extra_body)
    return body


def classify_response(status: int, headers: Mapping[str, str], content: bytes) -> Attempt:
    """Turn one HTTP response into an ``Attempt`` (see the module docstring for the table)."""
    if status != 200:
        snippet = content[:_SNIPPET].decode("utf-8", "replace")
        error = f"HTTP {status}: {snippet}"
        if status in RETRY_STATUSES or status >= 500:
            return Attempt("retry", error=error, retry_after_s=retry_after_s(headers))
        return Attempt("abort" if status in ABORT_STATUSES else "final", error=error)
    return parse_completion(content)


def parse_completion(content: bytes) -> Attempt:
    """Parse a 200 body; garbage or an empty ``choices`` list is a transport failure (retry)."""
    try:
        data = json.loads(content)
    except ValueError:
        snippet = content[:_SNIPPET].decode("utf-8", "replace")
        return Attempt("retry", error=f"malformed response body ({len(content)} bytes, not JSON): {snippet}")
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        detail = json.dumps(data.get("error"))[:_SNIPPET] if isinstance(data, dict) and "error" in data else ""
        return Attempt("retry", error=f"response has no choices {detail}".rstrip())
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        message = {}
    finish = choice.get("finish_reason")
    return Attempt(
        "completed",
        text=_content_text(message.get("content")),
        reasoning=_reasoning_text(message),
        finish_reason=finish if isinstance(finish, str) else None,
        usage=parse_usage(data.get("usage")),
    )


def _reasoning_text(message: dict[str, Any]) -> str | None:
    """The reasoning a server returns beside the answer: ``reasoning_content`` (vLLM, SGLang,
    DeepSeek) or ``reasoning`` (Ollama, OpenRouter, newer vLLM); ``None`` when neither is a string."""
    for key in ("reasoning_content", "reasoning"):
        value = message.get(key)
        if isinstance(value, str):
            return unicode_text(value)
    return None


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return unicode_text(content)
    if isinstance(content, list):  # content parts: keep the text ones, in order
        return unicode_text(
            "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
        )
    return ""  # null content (e.g. every token spent on reasoning): an empty answer


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def unicode_text(text: str) -> str:
    """``text`` with each lone surrogate (a JSON ``\\ud83d`` escape without its pair) replaced by U+FFFD.

    JSON allows such escapes but UTF-8 cannot encode them, so a reply carrying
    one could not be written to ``responses.jsonl``; the replacement is the
    one a UTF-8 decoder makes for a broken sequence.
    """
    return text if text.isascii() else _LONE_SURROGATE.sub("\ufffd", text)


def parse_usage(usage: Any) -> Usage:
    """Prompt, completion and reasoning tokens where the server reports them."""
    if not isinstance(usage, dict):
        return Usage()
    details = usage.get("completion_tokens_details")
    reasoning = details.get("reasoning_tokens") if isinstance(details, dict) else None
    if reasoning is None:
        reasoning = usage.get("reasoning_tokens")
    return Usage(
        prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
        completion_tokens=_int_or_none(usage.get("completion_tokens")),
        reasoning_tokens=_int_or_none(reasoning),
    )


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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


async def preflight(setting: Setting, api_key: str | None) -> None:
    """Check that an ``openai`` setting's endpoint answers HTTP at all (``GET {base_url}/models``).

    Any HTTP status counts as reachable (many servers lack ``/models``) except
    401/403, which mean the key was refused. Raises ``SettingsError`` otherwise.
    """
    url = str(setting.base_url).rstrip("/") + "/models"
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    timeout = aiohttp.ClientTimeout(total=min(setting.connect_timeout_s, 30.0))
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(url, headers=headers, proxy=env_proxy(url)) as resp,
        ):
            status = resp.status
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise SettingsError(
            f"setting {setting.name!r}: endpoint {setting.base_url} is unreachable "
            f"({exc.__class__.__name__}: {exc}); start the server or correct base_url"
        ) from None
    if status in (401, 403):
        raise SettingsError(
            f"setting {setting.name!r}: {url} refused the API key (HTTP {status}); "
            f"check the key in {setting.api_key_env or '(no api_key_env set)'}"
        )
