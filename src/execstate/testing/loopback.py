"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests, benchmarks and offline demos.

It speaks just enough HTTP/1.1 (keep-alive, Content-Length bodies) to serve
``GET /v1/models`` and ``POST /v1/chat/completions``; any other path is a 404
in OpenAI's error shape, and, when the server is given a ``key``, a request
without ``Authorization: Bearer <key>`` is a 401 ``invalid_api_key`` (neither
reaches the script). A *script* maps each received chat request to an action:

    Reply(status, body, headers, delay_s)  answer (a dict body is sent as JSON)
    Drop(delay_s)                          close the connection without answering
    Hold(then)                             wait until ``release()`` is called, then act

``python -m execstate.testing.loopback --latency 0.2`` serves fixed-latency
completions and prints ``PORT <n>`` on its first line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from execstate.run import event_loop_run


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes | dict[str, Any] | None = None
    """Raw bytes, a dict sent as JSON, or ``None`` for ``completion('{"output":"0"}')``."""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass(frozen=True)
class Drop:
    delay_s: float = 0.0


@dataclass(frozen=True)
class Hold:
    then: Reply | Drop = field(default_factory=Reply)


Action = Reply | Drop | Hold


@dataclass(frozen=True)
class Request:
    """One received chat request, as the script and the test see it."""

    index: int
    received_at: float
    """``time.monotonic()`` when the request was fully read."""
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def system_text(self) -> str:
        msgs = self.body.get("messages") or [{}]
        return str(msgs[0].get("content", ""))


Script = Callable[[Request], Action]


def completion(text: str, finish_reason: str = "stop", usage: dict[str, Any] | None = None) -> dict[str, Any]:
    """A minimal chat-completion body carrying ``text``."""
    return {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "model": "loopback",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def _default_script(request: Request) -> Action:
    return Reply()


class ScriptedServer:
    """Run the server on its own event loop in a daemon thread; thread-safe accessors for tests."""

    def __init__(self, script: Script = _default_script, key: str | None = None) -> None:
        self.script = script
        self.key = key
        self.requests: list[Request] = []
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._held: deque[asyncio.Event] = deque()
        self._releases = 0
        self._server: asyncio.base_events.Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedServer:
        self._thread.start()
        fut = asyncio.run_coroutine_threadsafe(self._start(), self._loop)
        self.port = fut.result(timeout=10)
        return self

    async def _start(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=1024)
        return int(self._server.sockets[0].getsockname()[1])

    def stop(self) -> None:
        async def _close() -> None:
            if self._server is not None:
                self._server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(_close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            # closed here, not by the garbage collector: a collected cycle may close the loop's
            # self-pipe before the loop, and its finalizer then raises inside whatever code is running
            self._loop.close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def release(self, n: int = 1) -> None:
        """Let the ``n`` oldest held requests (or the next ones to arrive) go on."""

        def _do() -> None:
            self._releases += n
            self._drain_releases()

        self._loop.call_soon_threadsafe(_do)

    def release_all(self) -> int:
        """Let every request held right now go on (later arrivals stay held); returns how many."""

        async def _do() -> int:
            n = len(self._held)
            while self._held:
                self._held.popleft().set()
            return n

        return asyncio.run_coroutine_threadsafe(_do(), self._loop).result(timeout=10)

    def held(self) -> int:
        """How many requests are waiting for a release."""

        async def _count() -> int:
            return len(self._held)

        return asyncio.run_coroutine_threadsafe(_count(), self._loop).result(timeout=10)

    def _drain_releases(self) -> None:
        while self._releases and self._held:
            self._releases -= 1
            self._held.popleft().set()

    def wait_for_requests(self, n: int, timeout: float = 30.0) -> list[Request]:
        """Block until at least ``n`` requests were received; raise ``TimeoutError`` otherwise."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.requests) >= n, timeout=timeout):
                raise TimeoutError(f"only {len(self.requests)} of {n} requests arrived in {timeout} s")
            return list(self.requests)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                parsed = await _read_request(reader)
                if parsed is None:
                    break
                method, path, headers, body = parsed
                refused = self._refused(method, path, headers)
                if refused is not None:
                    writer.write(_encode(refused))
                    continue
                if not await self._respond(path, headers, body, writer):
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        except asyncio.CancelledError:  # stop(): end quietly instead of logging every open connection
            pass
        finally:
            writer.transport.abort()

    def _refused(self, method: str, path: str, headers: dict[str, str]) -> Reply | None:
        """OpenAI's 401 for a missing or wrong key (when the server has one), 404 for a path it does not serve."""
        if self.key is not None and headers.get("authorization") != f"Bearer {self.key}":
            sent = headers.get("authorization")
            message = "Incorrect API key provided." if sent else "You didn't provide an API key."
            return Reply(401, _openai_error(message, "invalid_request_error", "invalid_api_key"))
        route = path.split("?", 1)[0]
        if (method, route) not in (("GET", "/v1/models"), ("POST", "/v1/chat/completions")):
            return Reply(404, _openai_error(f"Invalid URL ({method} {route})", "invalid_request_error", None))
        return None

    async def _respond(self, path: str, headers: dict[str, str], body: bytes, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; ``False`` when the connection must close."""
        if path.endswith("/models"):
            writer.write(_encode(Reply(body={"object": "list", "data": [{"id": "loopback"}]})))
            return True
        action = self.script(self._record(headers, body))
        if isinstance(action, Hold):
            gate = asyncio.Event()
            self._held.append(gate)
            self._drain_releases()
            await gate.wait()
            action = action.then
        if action.delay_s:
            await asyncio.sleep(action.delay_s)
        if isinstance(action, Drop):
            return False
        writer.write(_encode(action))
        await writer.drain()
        return True

    def _record(self, headers: dict[str, str], body: bytes) -> Request:
        try:
            data = json.loads(body)
        except ValueError:
            data = {}
        with self._cond:
            req = Request(len(self.requests), time.monotonic(), headers, data)
            self.requests.append(req)
            self._cond.notify_all()
        return req


def _openai_error(message: str, type_: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, str, dict[str, str], bytes] | None:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    method = parts[0]
    path = parts[1] if len(parts) > 1 else "/"
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip().lower()] = v.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return method, path, headers, body


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def _encode(reply: Reply) -> bytes:
    body = reply.body if reply.body is not None else completion('{"output":"0"}')
    payload = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    head = [
        f"HTTP/1.1 {reply.status} {_REASONS.get(reply.status, 'Status')}",
        f"Content-Length: {len(payload)}",
        "Content-Type: application/json",
        "Connection: keep-alive",
    ]
    head += [f"{k}: {v}" for k, v in reply.headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload


class _FixedLatencyProtocol(asyncio.Protocol):
    """One connection of ``serve_fixed_latency``: answer each request ``latency`` seconds after it is read."""

    def __init__(self, latency: float, completion_reply: bytes, models_reply: bytes) -> None:
        self.latency = latency
        self.completion_reply = completion_reply
        self.models_reply = models_reply
        self.buffer = bytearray()
        self.transport: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # uvloop's transports do not subclass asyncio.Transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).lower()
            match = re.search(rb"\r\ncontent-length:\s*(\d+)", head)
            total = end + 4 + (int(match.group(1)) if match else 0)
            if len(self.buffer) < total:
                return
            is_models = head.split(b" ", 2)[1].endswith(b"/models") if b" " in head else False
            del self.buffer[:total]
            if is_models:
                self._send(self.models_reply)
            else:
                asyncio.get_running_loop().call_later(self.latency, self._send, self.completion_reply)

    def _send(self, reply: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(reply)


async def serve_fixed_latency(latency: float, ready: Callable[[int], None]) -> None:
    """Serve canned completions, each exactly ``latency`` s after its request, until cancelled.

    The benchmark server: it does nothing per request but find the end of the
    request and set one timer, so its own CPU barely delays replies and the
    measured throughput is the client's. ``ready`` gets the port.
    """
    loop = asyncio.get_running_loop()
    completion_reply = _encode(Reply())
    models_reply = _encode(Reply(body={"object": "list", "data": [{"id": "loopback"}]}))
    server = await loop.create_server(
        lambda: _FixedLatencyProtocol(latency, completion_reply, models_reply),
        "127.0.0.1",
        0,
        backlog=4096,
    )
    ready(int(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


def main(argv: list[str] | None = None) -> None:
    """Serve fixed-latency completions until killed (used by ``benchmarks/runner.py``)."""
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--latency", type=float, default=0.2, help="seconds before each reply")
    args = ap.parse_args(argv)

    def ready(port: int) -> None:
        print(f"PORT {port}", flush=True)

    event_loop_run(serve_fixed_latency(args.latency, ready))


if __name__ == "__main__":
    main()
