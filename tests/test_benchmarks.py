"""Every script in ``benchmarks/`` runs on its smallest sizes (``--smoke``), so none breaks unnoticed.

The scripts are found by a glob: a new benchmark without ``--smoke`` fails here (argparse exits 2). Each
runs as a whole process from the repository root, as its docstring says to run it, with ``src`` first on
``PYTHONPATH``. Together they take a few minutes on 2 cores (the C++ ones compile, ``construct`` builds).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))
TIMEOUT_S = 300

# What a script cannot run without (its full run fails without it too): programs on PATH, modules.
PROGRAMS = {
    "build_cpp": ("g++", "gcov"),
    "construct_cpp": ("g++", "gcov"),
    "cpp": ("g++", "gcov"),
    "sandbox": ("prlimit",),  # the bare reference runner
    "sandbox_launch": ("setpriv",),  # nothing to compare without it
    "viewer": ("chromium", "chromedriver"),  # the page is timed in headless Chromium
}
MODULES = {"runner": ("httpx",)}  # the [bench] extra


def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 10, SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_benchmark_runs_with_smoke(script: Path):
    doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
    assert "--smoke" in doc, f"{script.name}: its docstring does not say what --smoke runs"
    missing = [p for p in PROGRAMS.get(script.stem, ()) if shutil.which(p) is None]
    missing += [m for m in MODULES.get(script.stem, ()) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"benchmarks/{script.name} needs {', '.join(missing)}")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, str(script.relative_to(ROOT)), "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    shown = f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}\n--- stderr\n{proc.stderr[-3000:]}"
    assert proc.returncode == 0, shown
    assert proc.stdout.strip(), shown
