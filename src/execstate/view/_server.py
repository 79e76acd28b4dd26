"""The viewer's local server: the standard library's ``ThreadingHTTPServer``, read-only, a fixed set of routes.

Routes (``GET`` and ``HEAD`` only; anything else is 405, any other path 404):

- ``/`` (and ``/index.html``): the page; ``/assets/viewer.js``, ``/assets/viewer.css``: its script and style,
  read from the package;
- ``/api/meta``, ``/api/list?FILTERS&sort=&offset=&size=``, ``/api/cell?run=&cell=``, ``/api/trace?run=&cell=``:
  JSON answers of ``Viewer``.

No route takes a path: the server opens no file named by a request, so nothing outside the run folders (nor any
file inside them but their records, through the cache) can be read through it (``..``, ``%2e%2e``, absolute paths
and symlinks all meet a 404). A request whose ``Host`` is not the address the server is bound to is refused (403),
so a web page elsewhere cannot reach it by DNS rebinding. Every answer carries a Content-Security-Policy that
allows only the page's own script and style and requests to its own origin, ``nosniff`` and ``no-referrer``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from execstate.errors import ExecstateError, UsageError
from execstate.view._viewer import Viewer

ASSETS = Path(__file__).with_name("assets")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy header of every answer."""
META_CSP = CSP.removesuffix("; frame-ancestors 'none'")
"""The same policy as the page's meta tag (a browser ignores ``frame-ancestors`` there, and says so)."""
DEFAULT_PORT = 8765


def page_html(mode: str, data_scripts: str = "", csp: str = META_CSP) -> str:
    """The page (``assets/page.html``) for ``mode`` (``server`` or ``static``) with the static data's scripts."""
    text = (ASSETS / "page.html").read_text(encoding="utf-8")
    return text.replace("{csp}", csp).replace("{mode}", mode).replace("{data_scripts}", data_scripts)


def _asset(name: str, kind: str) -> tuple[bytes, str]:
    return (ASSETS / name).read_bytes(), kind


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.log_requests:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"), "application/json")

    def _refuse(self, status: int, message: str) -> None:
        self._json(status, {"error": message})

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        if self.headers.get("Host", "") not in self.server.hosts:
            return self._refuse(HTTPStatus.FORBIDDEN, "this server answers only requests addressed to it by its URL")
        parts = urlsplit(self.path)
        static = self.server.static_routes.get(parts.path)
        if static is not None:
            body, kind = static()
            return self._send(HTTPStatus.OK, body, kind)
        api = self.server.api_routes.get(parts.path)
        if api is None:
            return self._refuse(HTTPStatus.NOT_FOUND, "no such page: the viewer serves only its own routes")
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        try:
            return self._json(HTTPStatus.OK, api(query))
        except ExecstateError as exc:
            return self._refuse(HTTPStatus.BAD_REQUEST, str(exc))

    def _not_allowed(self) -> None:
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "the viewer is read-only: GET only")

    do_POST = do_PUT = do_DELETE = do_PATCH = _not_allowed


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    hosts: set[str]
    log_requests: bool
    static_routes: dict[str, Callable[[], tuple[bytes, str]]]
    api_routes: dict[str, Callable[[dict[str, str]], Any]]


def _cell_args(query: dict[str, str]) -> tuple[int, int]:
    try:
        return int(query["run"]), int(query["cell"])
    except (KeyError, ValueError):
        raise UsageError("a cell is named by run=N&cell=M (numbers). Fix: open a cell from the list") from None


@dataclass
class ViewServer:
    """A running viewer server (``start_server``): its ``url``; ``stop()`` shuts it down and closes the viewer."""

    url: str
    viewer: Viewer
    httpd: _Server
    thread: threading.Thread | None = None

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted (the command line's way)."""
        self.httpd.serve_forever()

    def stop(self) -> None:
        """Stop serving, then close the viewer (its caches are checkpointed)."""
        if self.thread is not None:
            self.httpd.shutdown()
            self.thread.join()
        self.httpd.server_close()
        self.viewer.close()


def start_server(viewer: Viewer, host: str = "127.0.0.1", port: int = DEFAULT_PORT, *, background: bool = False,
                 log_requests: bool = False) -> ViewServer:  # fmt: skip
    """Bind a server for ``viewer`` to ``host:port`` (0: any free port); ``background``: serve in a daemon thread
    now (tests), else the caller calls ``serve_forever``. ``UsageError`` naming the fix when the port is taken."""
    try:
        httpd = _Server((host, port), _Handler)
    except OSError as exc:
        raise UsageError(
            f"cannot listen on {host}:{port} ({exc.strerror}). Fix: pass another --port (0: any free port)"
        ) from None
    bound = httpd.server_address[1]
    names = {host, "localhost"} if host in ("127.0.0.1", "::1") else {host}
    httpd.hosts = {f"{name}:{bound}" for name in names}
    httpd.log_requests = log_requests
    page = page_html("server").encode("utf-8")
    httpd.static_routes = {
        "/": lambda: (page, "text/html; charset=utf-8"),
        "/index.html": lambda: (page, "text/html; charset=utf-8"),
        "/assets/viewer.js": lambda: _asset("viewer.js", "text/javascript; charset=utf-8"),
        "/assets/viewer.css": lambda: _asset("viewer.css", "text/css; charset=utf-8"),
    }
    httpd.api_routes = {
        "/api/meta": lambda q: viewer.meta(),
        "/api/list": viewer.list,
        "/api/cell": lambda q: viewer.cell(*_cell_args(q)),
        "/api/trace": lambda q: viewer.trace(*_cell_args(q)),
    }
    server = ViewServer(f"http://{host}:{bound}/", viewer, httpd)
    if background:
        server.thread = threading.Thread(target=httpd.serve_forever, name="execstate-view", daemon=True)
        server.thread.start()
    return server
