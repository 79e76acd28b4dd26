"""Fixtures for the adaptive tests: a scripted HTTP endpoint on 127.0.0.1 (as the run tests use)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from execstate.testing.loopback import Script, ScriptedServer


@pytest.fixture
def serve() -> Iterator[Callable[[Script], ScriptedServer]]:
    """``serve(script)`` starts a ScriptedServer on 127.0.0.1; all are stopped after the test."""
    servers: list[ScriptedServer] = []

    def start(script: Script) -> ScriptedServer:
        server = ScriptedServer(script).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
