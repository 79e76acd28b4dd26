"""Test-side loop probe: counts a selected loop's iterations and snapshots its variables.

This is deliberately independent of the builder's instrumentation, so the
classic study's own properties (short input runs 3-10 iterations, long input
200-2000, projections JSON-representable and changing) are checked even if
the builder changes. It inserts two calls into a copy of the program, runs the
copy in a subprocess, and reads the probe's findings from a JSON file.
"""

from __future__ import annotations

import ast
import json
import math
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROBE_MODULE = '''
"""Probe injected by tests/studies/_classic_probe.py (never shipped)."""
import atexit, json, math, os

_state = {"count": 0, "inside": None, "post": None, "armed": False}
_target = int(os.environ["CLASSIC_PROBE_K"])
_names = json.loads(os.environ["CLASSIC_PROBE_VARS"])


def _plain(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise TypeError("non-finite float")
        return value
    if type(value).__name__ == "deque" or isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise TypeError("dict with non-str keys")
        return {key: _plain(item) for key, item in value.items()}
    raise TypeError("not JSON-representable: " + type(value).__name__)


def _snap(scope):
    out = {}
    for name in _names:
        if name not in scope:
            out[name] = {"__unbound__": True}
            continue
        try:
            out[name] = _plain(scope[name])
        except TypeError as exc:
            out[name] = {"__error__": str(exc)}
    return out


def hit(scope):
    _state["count"] += 1
    if _state["count"] == _target:
        _state["inside"] = _snap(scope)
        _state["armed"] = True


def leave(scope):
    if _state["armed"] and _state["post"] is None:
        _state["post"] = _snap(scope)
        _state["armed"] = False


@atexit.register
def _dump():
    with open(os.environ["CLASSIC_PROBE_OUT"], "w") as handle:
        json.dump({"count": _state["count"], "inside": _state["inside"], "post": _state["post"]}, handle)
'''


@dataclass(frozen=True)
class ProbeResult:
    """What one probed run saw: total iterations K and the two snapshots."""

    count: int
    inside: dict[str, Any] | None
    post: dict[str, Any] | None
    stdout: str


def find_loop(source: str, loop_text: str) -> ast.For | ast.While:
    """Return the unique For/While whose stripped header line equals ``loop_text``."""
    lines = source.splitlines()
    loops = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.For, ast.While)) and lines[node.lineno - 1].strip() == loop_text
    ]
    if len(loops) != 1:
        raise ValueError(f"loop_text {loop_text!r} matches {len(loops)} loops, expected exactly 1")
    if sum(line.strip() == loop_text for line in lines) != 1:
        raise ValueError(f"loop_text {loop_text!r} is not unique as a line of the file")
    return loops[0]


def instrument(source: str, loop_text: str) -> str:
    """Insert ``hit(locals())`` before the loop body and ``leave(locals())`` after the loop."""
    loop = find_loop(source, loop_text)
    lines = source.splitlines()
    first = loop.body[0]
    if first.lineno == loop.lineno:
        raise ValueError("loop body on the header line is not supported by the probe")
    body_indent = " " * first.col_offset
    loop_indent = " " * loop.col_offset
    end = loop.end_lineno or loop.lineno
    out = (
        ["import _classic_probe_rt as _cpr_"]
        + lines[: first.lineno - 1]
        + [body_indent + "_cpr_.hit(locals())"]
        + lines[first.lineno - 1 : end]
        + [loop_indent + "_cpr_.leave(locals())"]
        + lines[end:]
    )
    return "\n".join(out) + "\n"


def probe(program: Path, loop_text: str, variables: list[str], stdin: str, k: int = 0) -> ProbeResult:
    """Run an instrumented copy of ``program`` on ``stdin``; snapshot at iteration ``k`` (0: none)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "_classic_probe_rt.py").write_text(PROBE_MODULE)
        copy = work / "main.py"
        copy.write_text(instrument(program.read_text(), loop_text))
        env = dict(
            os.environ,
            PYTHONPATH=tmp,
            CLASSIC_PROBE_K=str(k),
            CLASSIC_PROBE_VARS=json.dumps(variables),
            CLASSIC_PROBE_OUT=str(work / "out.json"),
        )
        done = subprocess.run(
            [sys.executable, str(copy)],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
            timeout=60,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"probed {program} failed: {done.stderr[-2000:]}")
        found = json.loads((work / "out.json").read_text())
    return ProbeResult(found["count"], found["inside"], found["post"], done.stdout)


def checkpoints(program: Path, loop_text: str, variables: list[str], stdin: str, k: int = 0) -> ProbeResult:
    """Count K, then snapshot at the default inside iteration floor(K/2)+1 and at the post exit."""
    first = probe(program, loop_text, variables, stdin)
    return probe(program, loop_text, variables, stdin, k=k or first.count // 2 + 1)


def is_finite_json(value: Any) -> bool:
    """True when ``value`` holds no probe error marker and no non-finite float."""
    if isinstance(value, dict):
        if "__error__" in value or "__unbound__" in value:
            return False
        return all(is_finite_json(item) for item in value.values())
    if isinstance(value, list):
        return all(is_finite_json(item) for item in value)
    return not (isinstance(value, float) and not math.isfinite(value))


def cyclomatic(source: str) -> int:
    """File cyclomatic complexity per SPEC section 6: 1 + sum over mccabe graphs of (value - 1)."""
    import mccabe

    visitor = mccabe.PathGraphingAstVisitor()
    visitor.preorder(ast.parse(source), visitor)
    return 1 + sum(graph.complexity() - 1 for graph in visitor.graphs.values())
