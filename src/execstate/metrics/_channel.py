"""Receive the measuring probe's result over an inherited pipe: token-marked, size-bounded, never a file.

The child inherits the pipe's write end (``sandbox.run(..., pass_fds=...)``);
a thread drains the read end while the program runs, so a program that floods
the descriptor cannot block itself into a timeout, and everything past
``RESULT_CAP`` bytes is dropped. Only a line ``\\n<token> <json>\\n`` counts as
the result: the token is random per run and reaches the probe in its config,
which the probe deletes before the program starts.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import threading
from typing import Any

RESULT_CAP = 1024 * 1024
"""Bytes kept from the result descriptor; more is the program writing to it, and no result."""
_POLL_MS = 200


class ResultPipe:
    """``with ResultPipe() as pipe: run(..., pass_fds=(pipe.write_fd,))``, then ``pipe.report()``."""

    def __init__(self, cap: int = RESULT_CAP) -> None:
        self.token = secrets.token_hex(16)
        self.cap = cap
        self._read_fd, self.write_fd = os.pipe()
        self._chunks: list[bytes] = []
        self._size = 0
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._drain, daemon=True)

    def __enter__(self) -> ResultPipe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.write_fd)  # the child is gone: the reader now sees the end of the pipe
        self._closing.set()
        self._thread.join()
        os.close(self._read_fd)

    def _drain(self) -> None:
        poller = select.poll()
        poller.register(self._read_fd, select.POLLIN)
        while True:
            if not poller.poll(_POLL_MS):
                if self._closing.is_set():
                    return  # something still holds the write end; what arrived is all there is
                continue
            chunk = os.read(self._read_fd, 65536)
            if not chunk:
                return
            room = self.cap - self._size
            if room > 0:
                self._chunks.append(chunk[:room])
            self._size += len(chunk)

    def report(self) -> tuple[dict[str, Any] | None, str]:
        """The probe's result object and ``""``, or ``None`` and why there is none."""
        values, problem = self.reports()
        if problem:
            return None, problem
        if not values:
            return None, "the measuring probe wrote no result"
        if len(values) > 1:
            return None, f"{len(values)} results arrived on the result descriptor, not one"
        return values[0], ""

    def reports(self) -> tuple[list[dict[str, Any]], str]:
        """Every result object the probe wrote, in order, and ``""``; or ``[]`` and why none can be trusted."""
        if self._size > self.cap:
            return [], f"{self._size} bytes on the result descriptor, more than {self.cap}: the program wrote to it"
        prefix = self.token.encode("ascii") + b" "
        lines = [line[len(prefix) :] for line in b"".join(self._chunks).split(b"\n") if line.startswith(prefix)]
        values = []
        for line in lines:
            try:
                value = json.loads(line)
            except ValueError as exc:
                return [], f"the measuring probe's result is not JSON ({exc})"
            if not isinstance(value, dict) or not isinstance(value.get("outcome"), str):
                return [], "the measuring probe's result is not a result object"
            values.append(value)
        return values, ""
