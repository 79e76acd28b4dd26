"""How a local server's end is reported (no llama.cpp needed: the child is a shell that ends as told)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from execstate.run import LlamaServer


@pytest.mark.parametrize(("script", "expected"), [("kill -SEGV $$", "signal 11"), ("exit 3", "exit code 3")])
def test_exit_status_names_how_the_server_ended(tmp_path, script, expected):
    server = LlamaServer(Path(tmp_path / "model.gguf"))
    assert server.exit_status() is None  # never started
    server.process = subprocess.Popen(["sh", "-c", script])
    server.process.wait()
    assert server.exit_status() == expected


def test_exit_status_is_none_while_the_server_runs(tmp_path):
    server = LlamaServer(Path(tmp_path / "model.gguf"))
    server.process = subprocess.Popen(["sh", "-c", "read line"], stdin=subprocess.PIPE)
    try:
        assert server.exit_status() is None
    finally:
        server.process.communicate(b"\n")
    assert server.exit_status() == "exit code 0"
