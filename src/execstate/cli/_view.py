"""``execstate view OUT...``: a local, read-only page over graded run folders (docs/view.md)."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path
from typing import Any

COMMANDS: dict[str, str] = {
    "view": "browse graded runs in a local page: every cell, filters, the true trace (or --static files)",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("view", help=COMMANDS["view"], description=__doc__)
    p.add_argument(
        "runs", nargs="+", type=Path, metavar="OUT", help="a pipeline output or a graded `execstate run` folder"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port to listen on (default %(default)s; 0: any free port)")
    p.add_argument(
        "--static", type=Path, metavar="DIR", help="write the viewer as files into DIR (opens from file://) and exit"
    )
    p.add_argument("--log-requests", action="store_true", help="print one line per request")
    p.set_defaults(func=handle)


def handle(args: argparse.Namespace) -> int:
    from execstate.view import Viewer, start_server, write_static

    viewer = Viewer(args.runs, log=print)
    if args.static is not None:
        try:
            html = write_static(viewer, args.static, log=print)
        finally:
            viewer.close()
        print(f"static viewer: {html}")
        return 0
    try:
        server = start_server(viewer, args.host, args.port, log_requests=args.log_requests)
    except BaseException:
        viewer.close()
        raise
    print(f"execstate view: {server.url}  (Ctrl-C to stop)", flush=True)
    signal.signal(signal.SIGTERM, _stop)  # a kill stops it as Ctrl-C does: the caches are closed cleanly
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
