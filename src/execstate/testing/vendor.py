"""A base for loopback fakes of vendor APIs: an aiohttp web server on 127.0.0.1 in a thread of its own.

A fake subclasses ``VendorServer``, adds its routes in ``routes()`` and checks
each request as the vendor documents it (headers, path, body shape), answering
a request the vendor would refuse with the vendor's own error shape. Tests read
``requests`` (every request the fake received, in order) and can wait on them.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web


@dataclass(frozen=True)
class Seen:
    """One request a fake received."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    """Header names lower-cased."""
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


Answer = Callable[[dict[str, Any]], str]
"""From a request body to the answer text the fake model gives (default: an envelope holding ``0``)."""


def default_answer(body: dict[str, Any]) -> str:
    return '{"output": "0"}'


class VendorServer:
    """Start with ``with Fake() as fake:`` (or ``start()``/``stop()``); ``fake.url`` is its root."""

    def __init__(self) -> None:
        self.requests: list[Seen] = []
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True, name=type(self).__name__)
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        """The server's root, ``http://127.0.0.1:<port>`` (no version path)."""
        return f"http://127.0.0.1:{self.port}"

    def routes(self, app: web.Application) -> None:
        """Add the fake's routes to ``app``."""
        raise NotImplementedError

    def start(self) -> VendorServer:
        self._thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=10)
        return self

    async def _start(self) -> int:
        app = web.Application(middlewares=[self._recorder], client_max_size=64 * 1024**2)
        self.routes(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        return int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]

    @web.middleware
    async def _recorder(self, request: web.Request, handler: Any) -> web.StreamResponse:
        body = await request.read()
        seen = Seen(
            request.method, request.path, dict(request.query), {k.lower(): v for k, v in request.headers.items()}, body
        )
        with self._cond:
            self.requests.append(seen)
            self._cond.notify_all()
        return await handler(request)

    def stop(self) -> None:
        async def _close() -> None:
            if self._runner is not None:
                await self._runner.cleanup()

        asyncio.run_coroutine_threadsafe(_close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if not self._thread.is_alive():
            # closed here, not by the garbage collector: a collected cycle may close the loop's
            # self-pipe before the loop, and its finalizer then raises inside whatever code is running
            self._loop.close()

    def __enter__(self) -> VendorServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def wait_for(self, predicate: Callable[[list[Seen]], bool], timeout: float = 30.0) -> list[Seen]:
        """Block until ``predicate(requests)`` holds; ``TimeoutError`` otherwise."""
        with self._cond:
            if not self._cond.wait_for(lambda: predicate(self.requests), timeout=timeout):
                raise TimeoutError(f"the condition did not hold within {timeout} s ({len(self.requests)} requests)")
            return list(self.requests)

    def seen(self, method: str, path_prefix: str) -> list[Seen]:
        """The requests received with this method whose path starts with ``path_prefix``."""
        with self._cond:
            return [r for r in self.requests if r.method == method and r.path.startswith(path_prefix)]


def json_reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=status, text=json.dumps(body), content_type="application/json", headers=headers)
